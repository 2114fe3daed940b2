#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""scripts/check-includes.py on small made-up trees: a clean tree passes, and each kind
of departure it exists to catch is reported and fails it (two compiled modules that
include each other through a header-only one, core/ including a kind, one kind including
another's header, a library including the engine). Then the real tree passes.

usage: check_includes_test.py SOURCE_ROOT"""
import os
import subprocess
import sys
import tempfile


def tree(files):
    root = tempfile.mkdtemp(prefix="check-inc-")
    for rel, text in files.items():
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
    return root


def run(script, root):
    p = subprocess.run([sys.executable, script, "--list", root], capture_output=True, text=True)
    return p.returncode, p.stdout


BASE = {
    "app/dfcp-engine/core/a.h": "",
    "app/dfcp-engine/core/a.c": '#include "core/a.h"\n',
    "app/dfcp-engine/core/b.h": '#include "core/a.h"\n',
    "app/dfcp-engine/core/b.c": '#include "core/b.h"\n',
    "app/dfcp-engine/kinds/x/x.c": '#include "core/b.h"\n#include "kinds/xport/s.h"\n',
    "app/dfcp-engine/kinds/xport/s.h": "",
    "app/dfcp-engine/kinds/y/y.h": "",
    "lib/net/net.h": "",
    "lib/net/net.c": '#include "net.h"\n',
}

CASES = [
    ("circle through a header-only module",
     {"app/dfcp-engine/core/agg.h": '#include "core/b.h"\n',
      "app/dfcp-engine/core/a.c": '#include "core/a.h"\n#include "core/agg.h"\n'},
     "circle app/dfcp-engine/core/a <-> app/dfcp-engine/core/b"),
    ("core including a kind",
     {"app/dfcp-engine/core/b.c": '#include "core/b.h"\n#include "kinds/y/y.h"\n'},
     "wrong-way app/dfcp-engine/core/b.c -> app/dfcp-engine/kinds/y/y.h"),
    ("a kind including another kind",
     {"app/dfcp-engine/kinds/x/x.c": '#include "kinds/y/y.h"\n'},
     "wrong-way app/dfcp-engine/kinds/x/x.c -> app/dfcp-engine/kinds/y/y.h"),
    ("a library including the engine",
     {"lib/net/net.c": '#include "core/a.h"\n'},
     "wrong-way lib/net/net.c -> app/dfcp-engine/core/a.h"),
]


def main():
    src = sys.argv[1]
    script = os.path.join(src, "scripts", "check-includes.py")
    rc, out = run(script, tree(BASE))
    if rc != 0:
        sys.exit(f"FAIL: a clean tree reported:\n{out}")
    for what, change, want in CASES:
        rc, out = run(script, tree(dict(BASE, **change)))
        if rc == 0 or want not in out:
            sys.exit(f"FAIL: {what}: exit {rc}, expected line {want!r} in:\n{out}")
        print(f"ok: {what}")
    rc, out = run(script, src)
    if rc != 0:
        sys.exit(f"FAIL: the source tree:\n{out}")
    print("ok: the source tree has no include circle and no wrong-way include")


if __name__ == "__main__":
    main()
