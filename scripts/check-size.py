#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""House-style size limits (doc/contributing.md): no C source file over
--max-file lines (generated tables aside) and no function over --max-func
lines, in the given folders. Functions are found the DPDK-style way: a line
starting with an identifier and "(" at column 0, the body from the next "{"
at column 0 to the matching "}" at column 0. Exit 1 and one line per
violation when a limit is broken; --report lists the largest ones."""
import argparse
import os
import re
import sys

FUNC_RE = re.compile(r'^([A-Za-z_][A-Za-z0-9_]*)\(')
# Files that are data, not code: constant tables from RFC 6330 and the like.
GENERATED = ('rq_tables.c',)


def functions(lines):
    """(name, first line, length) of every top-level function body."""
    out = []
    name, start = None, None
    for i, line in enumerate(lines):
        m = FUNC_RE.match(line)
        if m and start is None:
            name = m.group(1)
            continue
        if line.startswith('{') and name is not None and start is None:
            start = i
            continue
        if line.startswith('}') and start is not None:
            out.append((name, start + 1, i - start + 1))
            name, start = None, None
        elif start is None and line.strip() == '' and name is not None:
            name = None
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument('dirs', nargs='+')
    ap.add_argument('--max-file', type=int, default=700)
    ap.add_argument('--max-func', type=int, default=150)
    ap.add_argument('--report', type=int, default=0,
                    help='also list the N largest files and functions')
    args = ap.parse_args()
    files, funcs, bad = [], [], []
    for d in args.dirs:
        for root, _, names in os.walk(d):
            for n in sorted(names):
                if not n.endswith(('.c', '.h')):
                    continue
                p = os.path.join(root, n)
                with open(p, encoding='utf-8', errors='replace') as f:
                    lines = f.read().split('\n')
                files.append((len(lines) - 1, p))
                if len(lines) - 1 > args.max_file and n not in GENERATED:
                    bad.append('%s: %d lines (limit %d)' % (p, len(lines) - 1, args.max_file))
                for name, line, length in functions(lines):
                    funcs.append((length, '%s:%d %s()' % (p, line, name)))
                    if length > args.max_func:
                        bad.append('%s:%d: %s(): %d lines (limit %d)' %
                                   (p, line, name, length, args.max_func))
    if args.report:
        for n, p in sorted(files, reverse=True)[:args.report]:
            print('file %5d %s' % (n, p))
        for n, p in sorted(funcs, reverse=True)[:args.report]:
            print('func %5d %s' % (n, p))
    for b in bad:
        print(b)
    print('check-size: %d files, %d functions, %d over the limits' %
          (len(files), len(funcs), len(bad)))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
