#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""scripts/check-includes.py on small made-up trees (file names in capitals: not
the project's): a clean tree passes, and each kind
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
    "app/dfcp-engine/core/AAA.h": "",
    "app/dfcp-engine/core/AAA.c": '#include "core/AAA.h"\n',
    "app/dfcp-engine/core/BBB.h": '#include "core/AAA.h"\n',
    "app/dfcp-engine/core/BBB.c": '#include "core/BBB.h"\n',
    "app/dfcp-engine/kinds/XXX/XXX.c": '#include "core/BBB.h"\n#include "kinds/xport/SSS.h"\n',
    "app/dfcp-engine/kinds/xport/SSS.h": "",
    "app/dfcp-engine/kinds/YYY/YYY.h": "",
    "lib/net/NET.h": "",
    "lib/net/NET.c": '#include "NET.h"\n',
}

CASES = [
    ("circle through a header-only module",
     {"app/dfcp-engine/core/AGGR.h": '#include "core/BBB.h"\n',
      "app/dfcp-engine/core/AAA.c": '#include "core/AAA.h"\n#include "core/AGGR.h"\n'},
     "circle app/dfcp-engine/core/AAA <-> app/dfcp-engine/core/BBB"),
    ("core including a kind",
     {"app/dfcp-engine/core/BBB.c": '#include "core/BBB.h"\n#include "kinds/YYY/YYY.h"\n'},
     "wrong-way app/dfcp-engine/core/BBB.c -> app/dfcp-engine/kinds/YYY/YYY.h"),
    ("a kind including another kind",
     {"app/dfcp-engine/kinds/XXX/XXX.c": '#include "kinds/YYY/YYY.h"\n'},
     "wrong-way app/dfcp-engine/kinds/XXX/XXX.c -> app/dfcp-engine/kinds/YYY/YYY.h"),
    ("a library including the engine",
     {"lib/net/NET.c": '#include "core/AAA.h"\n'},
     "wrong-way lib/net/NET.c -> app/dfcp-engine/core/AAA.h"),
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
