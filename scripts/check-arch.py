#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""doc/architecture.md's file table of the engine matches the tree, both ways.

    scripts/check-arch.py [SOURCE_ROOT]

The table is the first markdown table after the heading "app/dfcp-engine files" of
doc/architecture.md; it covers the engine (app/dfcp-engine) only: the libraries are
described folder by folder in the "Modules" table. Paths are relative to app/dfcp-engine.
In a row's first cell:

  - a backticked path (`core/task.h`) names that file; a bare name after it in the same
    cell (`config/sec_eal.c`, `sec_engine.c`) is in the same folder, a bare name with no
    path before it (`main.c`) is in the engine's folder;
  - a backticked folder (`kinds/gen/`) names the folder. When the row's second cell names
    files of the folder by their bare names (`txonly.c`, `pkt.h`), those must be exactly
    the .c and .h files in it (a subfolder's files need rows of their own); when it names
    none, the row covers every file under the folder;
  - a bold cell (**core/**) is a group heading and names nothing.

Checked: every .c and .h file under app/dfcp-engine is named by a row or lies under a
folder row that covers it ("missing"); every file or folder a row names exists ("extra");
a folder row that lists its files lists all of them ("missing") and only files it has
("extra"); no line of the table is over 400 characters ("long"). Exit 1 naming each
problem, 0 with a one-line summary when there is none.
"""
import os
import re
import sys

DOC = os.path.join("doc", "architecture.md")
ENGINE = os.path.join("app", "dfcp-engine")
HEADING = re.compile(r"^#+\s.*app/dfcp-engine files", re.I)
TICK = re.compile(r"`([^`]+)`")
BARE_SRC = re.compile(r"^[\w.-]+\.[ch]$")
LINE_MAX = 400


def cells(line):
    """The cells of a table line; '\\|' inside a cell is not a separator."""
    body = line.strip()
    if body.startswith("|"):
        body = body[1:]
    if body.endswith("|") and not body.endswith("\\|"):
        body = body[:-1]
    return [c.strip() for c in re.split(r"(?<!\\)\|", body)]


def table(path):
    """(line number, line) of every row of the file table, header and rule excluded."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    start = next((i for i, ln in enumerate(lines) if HEADING.match(ln)), None)
    if start is None:
        return None
    i = start + 1
    while i < len(lines) and not lines[i].lstrip().startswith("|"):
        if lines[i].startswith("#"):
            return None  # the next section began: no table
        i += 1
    rows = []
    while i < len(lines) and lines[i].lstrip().startswith("|"):
        rows.append((i + 1, lines[i]))
        i += 1
    return rows[2:] if len(rows) >= 2 else []


def sources(base, sub=""):
    """The .c and .h files under base/sub, relative to base."""
    out = set()
    for d, dirs, names in os.walk(os.path.join(base, sub)):
        dirs[:] = [x for x in dirs if not x.startswith(".") and x != "__pycache__"]
        for n in names:
            if n.endswith((".c", ".h")):
                out.add(os.path.relpath(os.path.join(d, n), base))
    return out


def check(root):
    """(problems, number of files, number of rows)."""
    doc = os.path.join(root, DOC)
    base = os.path.join(root, ENGINE)
    try:
        rows = table(doc)
    except OSError as e:
        return [f"{DOC}: {e.strerror}"], 0, 0
    if rows is None:
        return [f"{DOC}: no table after a heading naming app/dfcp-engine files"], 0, 0
    bad = []
    named = {}      # file -> line
    folders = {}    # folder -> (line, files listed in the row or None)
    for n, ln in rows:
        if len(ln) > LINE_MAX:
            bad.append(f"long: {DOC}:{n}: a table line of {len(ln)} characters "
                       f"(at most {LINE_MAX})")
        c = cells(ln)
        if not c or not c[0] or c[0].startswith("**"):
            continue
        folder = ""
        for tok in TICK.findall(c[0]):
            tok = tok.strip()
            if tok.endswith("/"):
                listed = {t for t in TICK.findall(c[1] if len(c) > 1 else "")
                          if BARE_SRC.match(t)}
                folders[tok.rstrip("/")] = (n, listed or None)
                continue
            if "/" in tok:
                folder = os.path.dirname(tok)
                path = tok
            else:
                path = os.path.join(folder, tok)
            named[os.path.normpath(path)] = n
    tree = sources(base)
    covered = set(named)
    for fold, (n, listed) in sorted(folders.items()):
        if not os.path.isdir(os.path.join(base, fold)):
            bad.append(f"extra: {ENGINE}/{fold}/ (named by {DOC}:{n}, not in the tree)")
            continue
        inside = sources(base, fold)
        if listed is None:
            covered |= inside
            continue
        for name in sorted(listed):
            path = os.path.join(fold, name)
            if path in inside:
                covered.add(path)
            else:
                bad.append(f"extra: {ENGINE}/{path} (listed by {DOC}:{n}, not in the tree)")
        for path in sorted(inside):
            if os.path.dirname(path) == fold and os.path.basename(path) not in listed \
                    and path not in named:
                bad.append(f"missing: {ENGINE}/{path} (the row of {fold}/ at {DOC}:{n} "
                           f"does not list it)")
                covered.add(path)  # reported once
    for path, n in sorted(named.items()):
        if not os.path.isfile(os.path.join(base, path)):
            bad.append(f"extra: {ENGINE}/{path} (named by {DOC}:{n}, not in the tree)")
    for path in sorted(tree - covered):
        bad.append(f"missing: {ENGINE}/{path} (no row of {DOC}'s file table names it)")
    return bad, len(tree), len(rows)


def main(argv):
    if any(a.startswith("-") for a in argv):
        print(__doc__)
        return 0 if argv[0] in ("-h", "--help") else 2
    root = argv[0] if argv else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    bad, nfiles, nrows = check(root)
    for b in bad:
        print(b)
    if bad:
        print(f"check-arch: {len(bad)} problem(s) in {DOC}'s file table")
        return 1
    print(f"check-arch: the {nfiles} .c/.h files of {ENGINE} and the {nrows} rows of "
          f"{DOC}'s file table match")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
