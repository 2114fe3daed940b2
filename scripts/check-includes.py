#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The engine's include graph against the layering doc/architecture.md states.

    scripts/check-includes.py [--known FILE] [--list] [SOURCE_ROOT]

Reads every #include "..." of app/dfcp-engine and lib/ and reports:
  circle A <-> B ...  compiled modules that depend on each other, directly or around a
                      loop (a module is a .c and its .h: core/port.c +
                      core/port.h; a header without a .c, such as a private
                      header, passes its includes on to whoever includes it)
  wrong-way F -> H    core/ including kinds/ or obs/ (core is below both), obs/
                      including a kind's files (kinds report through their ops); a kind
                      including another kind's files, except kinds/xport (the transport
                      skeleton the dfcp and tcp kinds adapt); a library including the
                      engine's files
With --known FILE (one reported line a line, '#' comments) those lines are accepted:
the check fails on a line not in FILE and on a line of FILE that no longer holds (so
the list only shrinks). Exit 0 when clean, 1 otherwise; --list prints every line.
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def sources(root):
    eng = os.path.join(root, "app", "dfcp-engine")
    lib = os.path.join(root, "lib")
    out = []
    for base in (eng, lib):
        for d, _, files in os.walk(base):
            out += [os.path.join(d, f) for f in files if f.endswith((".c", ".h"))]
    return eng, lib, sorted(out)


def resolve(name, src, eng, lib):
    """The file an #include "name" in src means: beside src, under the engine's root,
    or in a library's folder (lib/<x>/name); None for a system or generated header."""
    for cand in (os.path.join(os.path.dirname(src), name), os.path.join(eng, name)):
        if os.path.isfile(cand):
            return os.path.normpath(cand)
    for d in sorted(os.listdir(lib)):
        cand = os.path.join(lib, d, name)
        if os.path.isfile(cand):
            return os.path.normpath(cand)
    return None


def module(path, root):
    rel = os.path.relpath(path, root)
    return os.path.splitext(rel)[0]


def area(rel):
    """('core'|'obs'|'config'|'kind:NAME'|'root'|'lib:NAME') of a path relative to root."""
    p = rel.split(os.sep)
    if p[0] == "lib":
        return "lib:" + p[1]
    p = p[2:]  # app/dfcp-engine/...
    if len(p) == 1:
        return "root"
    if p[0] == "kinds":
        return "kind:" + p[1]
    return p[0]


def wrong_way(src_area, dst_area):
    if src_area == "core" and (dst_area == "obs" or dst_area.startswith("kind:")):
        return True
    if src_area == "obs" and dst_area.startswith("kind:"):
        return True
    if src_area.startswith("kind:") and dst_area.startswith("kind:") and src_area != dst_area:
        return dst_area != "kind:xport"
    if src_area.startswith("lib:") and not dst_area.startswith("lib:"):
        return True
    return False


def circles(edges):
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]
    nodes = sorted(set(edges) | {b for v in edges.values() for b in v})

    for start in nodes:
        if start in index:
            continue
        work = [(start, iter(sorted(edges.get(start, ()))))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on.add(start)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges.get(w, ())))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return sorted(out)


def contract(edges, compiled):
    """Edges between compiled modules: a header-only module is passed through."""
    out = {}
    for a in compiled:
        seen, todo, reach = set(), list(edges.get(a, ())), set()
        while todo:
            b = todo.pop()
            if b in seen:
                continue
            seen.add(b)
            if b in compiled:
                if b != a:
                    reach.add(b)
            else:
                todo += list(edges.get(b, ()))
        out[a] = reach
    return out


def report(root):
    eng, lib, files = sources(root)
    edges, lines = {}, []
    compiled = {module(f, root) for f in files if f.endswith(".c")}
    for f in files:
        with open(f, errors="replace") as fh:
            text = fh.read()
        src_mod = module(f, root)
        for name in INCLUDE.findall(text):
            dst = resolve(name, f, eng, lib)
            if dst is None:
                continue
            dst_mod = module(dst, root)
            if dst_mod != src_mod:
                edges.setdefault(src_mod, set()).add(dst_mod)
            sa = area(os.path.relpath(f, root))
            da = area(os.path.relpath(dst, root))
            if wrong_way(sa, da):
                lines.append(f"wrong-way {os.path.relpath(f, root)} -> "
                             f"{os.path.relpath(dst, root)}")
    for comp in circles(contract(edges, compiled)):
        lines.append("circle " + " <-> ".join(comp))
    return sorted(set(lines))


def main(argv):
    known_path, list_all, root = None, False, None
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--known" and i + 1 < len(argv):
            known_path = argv[i + 1]
            i += 2
            continue
        if a == "--list":
            list_all = True
        elif a.startswith("-"):
            print(__doc__)
            return 2
        else:
            root = a
        i += 1
    root = root or os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    got = report(root)
    if list_all:
        print("\n".join(got))
    known = set()
    if known_path:
        with open(known_path) as f:
            known = {ln.strip() for ln in f if ln.strip() and not ln.startswith("#")}
    new = [ln for ln in got if ln not in known]
    gone = sorted(known - set(got))
    for ln in new:
        print("new:", ln)
    for ln in gone:
        print(f"fixed (remove it from {known_path}):", ln)
    print(f"check-includes: {len(got)} reported, {len(known & set(got))} known, {len(new)} new, "
          f"{len(gone)} fixed")
    return 1 if new or gone else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
