#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The docs' shape (doc/contributing.md): README.md at most 200 lines, no line of README.md
or doc/*.md over 400 characters outside code blocks, no cell of a doc/config.md table over
300 characters, doc/performance.md at most 500 lines.

    scripts/check-docs.py [SOURCE_ROOT]

Exit 1 naming each departure (FILE:LINE: what), 0 when there is none.
"""
import glob
import os
import sys

LINE_MAX, CELL_MAX, README_MAX, PERF_MAX = 400, 300, 200, 500


def check(root):
    bad = []
    docs = [os.path.join(root, "README.md")] + sorted(glob.glob(os.path.join(root, "doc", "*.md")))
    for path in docs:
        rel = os.path.relpath(path, root)
        with open(path) as f:
            lines = f.read().splitlines()
        if rel == "README.md" and len(lines) > README_MAX:
            bad.append(f"{rel}: {len(lines)} lines (at most {README_MAX})")
        if rel == os.path.join("doc", "performance.md") and len(lines) > PERF_MAX:
            bad.append(f"{rel}: {len(lines)} lines (at most {PERF_MAX})")
        code = False
        for n, ln in enumerate(lines, 1):
            if ln.lstrip().startswith("```"):
                code = not code
                continue
            if code:
                continue
            if len(ln) > LINE_MAX:
                bad.append(f"{rel}:{n}: a line of {len(ln)} characters (at most {LINE_MAX})")
            if rel == os.path.join("doc", "config.md") and ln.startswith("|"):
                for cell in ln.strip("|").split(" | "):
                    if len(cell.strip()) > CELL_MAX:
                        bad.append(f"{rel}:{n}: a table cell of {len(cell.strip())} "
                                   f"characters (at most {CELL_MAX})")
    return bad


def main(argv):
    root = argv[0] if argv else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    bad = check(root)
    for b in bad:
        print(b)
    print(f"check-docs: {len(bad)} departure(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
