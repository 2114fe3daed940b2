#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Every file path the docs and the code's comments name exists.

    scripts/check-paths.py [--list] [SOURCE_ROOT]

Reads README.md, doc/*.md and the comments of app/, lib/, test/, scripts/ and tools/
(C comments, '#' lines of Python, shell, meson and INI files) for names of the form
DIR/.../FILE.EXT (EXT one of c h py sh md ini lua build txt), DIR one of the project's
top folders or the engine's (core, config, kinds, obs). A name is found relative to the
source root, the engine's folder app/dfcp-engine, the naming file's folder or a library's
folder; '*' in a name matches as a glob. A bare C file name (xport.c) must be the name
of a file somewhere under app/, lib/, test/ or tools/, a system header, or follow
"Linux" (the kernel's file). Names under build folders, /usr, /proc, /sys,
/dev, /tmp and /var are not ours and are skipped. Exit 1 naming each missing path
(FILE:LINE: PATH), 0 when all exist. A name with a word in capitals is a
placeholder (drivers-config/NAME.ini, lib/tcp/cc_NAME.c) and not looked up.
"""
import glob
import os
import re
import sys

TOPS = ("app", "lib", "test", "scripts", "doc", "configs", "drivers-config", "tools",
        "core", "config", "kinds", "obs", "shared")
EXTS = ("c", "h", "py", "sh", "md", "ini", "lua", "build", "txt")
PATH = re.compile(r"(?<![\w./~$-])((?:\.\./)?(?:%s)/[\w.*/-]*?\.(?:%s))(?![\w/])"
                  % ("|".join(re.escape(t) for t in TOPS), "|".join(EXTS)))
BARE = re.compile(r"(?<![\w./*-])([a-z][\w-]*\.[ch])(?![\w/])")
C_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)


def comment_lines(path, text):
    """(line number, text) of the comments of a source file; every line of a doc."""
    if path.endswith(".md"):
        return list(enumerate(text.splitlines(), 1))
    if path.endswith((".c", ".h")):
        out = []
        for m in C_COMMENT.finditer(text):
            first = text.count("\n", 0, m.start()) + 1
            out += [(first + i, ln) for i, ln in enumerate(m.group(0).splitlines())]
        return out
    out = []
    for i, ln in enumerate(text.splitlines(), 1):
        j = ln.find("#")
        if j >= 0:
            out.append((i, ln[j:]))
    if path.endswith(".py"):  # docstrings too
        for m in re.finditer(r'"""(.*?)"""', text, re.S):
            first = text.count("\n", 0, m.start()) + 1
            out += [(first + i, ln) for i, ln in enumerate(m.group(1).splitlines())]
    return out


def files(root):
    out = [os.path.join(root, "README.md")]
    out += glob.glob(os.path.join(root, "doc", "*.md"))
    for top in ("app", "lib", "test", "scripts", "tools"):
        for d, dirs, names in os.walk(os.path.join(root, top)):
            dirs[:] = [x for x in dirs if x != "__pycache__"]
            out += [os.path.join(d, n) for n in names
                    if n.endswith((".c", ".h", ".py", ".sh", ".build", ".ini"))
                    or n in ("plot",)]
    return sorted(out)


def exists(name, src, root):
    bases = [root, os.path.join(root, "app", "dfcp-engine"), os.path.dirname(src),
             os.path.join(root, "..")]
    bases += glob.glob(os.path.join(root, "lib", "*"))
    for b in bases:
        cand = os.path.join(b, name)
        if ("*" in name and glob.glob(cand)) or os.path.exists(cand):
            return True
    return False


def system_header(name):
    return any(os.path.exists(os.path.join(d, name))
               for d in ("/usr/include", "/usr/include/dpdk",
                         "/usr/include/x86_64-linux-gnu/dpdk"))


def basenames(root):
    names = set()
    for top in ("app", "lib", "test", "tools"):
        for d, _, fs in os.walk(os.path.join(root, top)):
            names.update(fs)
    return names


def missing(root):
    out = []
    known = basenames(root)
    for f in files(root):
        try:
            with open(f, errors="replace") as fh:
                text = fh.read()
        except OSError:
            continue
        for n, ln in comment_lines(f, text):
            for m in PATH.finditer(ln):
                name = m.group(1).rstrip(".")
                if name.startswith(("build", "../shared")) or "/build" in name[:12]:
                    continue
                if re.search(r"[A-Z]{3,}", name):
                    continue  # a placeholder: drivers-config/NAME.ini, lib/tcp/cc_NAME.c
                if not exists(name, f, root):
                    out.append(f"{os.path.relpath(f, root)}:{n}: {name}")
            for m in BARE.finditer(ln):
                if "Linux" in ln[max(0, m.start() - 16):m.start()]:
                    continue  # the kernel's file (Linux tcp_bic.c)
                if m.group(1).endswith(".h") and system_header(m.group(1)):
                    continue
                if m.group(1) not in known:
                    out.append(f"{os.path.relpath(f, root)}:{n}: {m.group(1)}")
    return out


def main(argv):
    root = next((a for a in argv if not a.startswith("-")), None) or \
        os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    if any(a not in ("--list",) and a.startswith("-") for a in argv):
        print(__doc__)
        return 2
    bad = missing(root)
    for b in bad:
        print("missing:", b)
    print(f"check-paths: {len(bad)} named path(s) missing")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
