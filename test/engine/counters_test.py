#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""dfcp-engine --counters (no EAL): every counter table entry has a unit column, an
output set and a meaning; names are unique within their record; the core and every
kind's records are listed; with SOURCE_ROOT, doc/config.md's "Counters" section is the
same list (scripts/gen-counters-doc.py --check). Usage: counters_test.py ENGINE [SOURCE_ROOT]"""
import os
import subprocess
import sys


def main():
    p = subprocess.run([sys.argv[1], "--counters"], capture_output=True, text=True, timeout=30)
    if p.returncode != 0:
        print(p.stdout, p.stderr)
        return 1
    lines = p.stdout.splitlines()[1:]
    seen, records, bad = set(), set(), 0
    for ln in lines:
        f = ln.split(None, 5)
        if len(f) < 6 or not f[5].strip() or len(f[4]) != 3:
            print("malformed:", ln)
            bad += 1
            continue
        owner, rec, name = f[0], f[1], f[2]
        key = (owner, rec, name)
        if key in seen:
            print("duplicate:", ln)
            bad += 1
        seen.add(key)
        records.add(owner)
    for want in ("core", "dfcp", "router", "sched", "tcp"):
        if want not in records:
            print("no counters of", want)
            bad += 1
    print(f"{len(lines)} counters, owners {sorted(records)}")
    if len(sys.argv) > 2:
        root = sys.argv[2]
        d = subprocess.run([sys.executable, os.path.join(root, "scripts", "gen-counters-doc.py"),
                            "--check", sys.argv[1], os.path.join(root, "doc", "config.md")],
                           capture_output=True, text=True, timeout=60)
        print(d.stdout.strip(), d.stderr.strip())
        bad += d.returncode != 0
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
