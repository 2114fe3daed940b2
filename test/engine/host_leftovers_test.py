#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""scripts/host_leftovers.py and test-summary.py --host-before: what the tests leave on
the host (runtime directories, hugetlbfs mounts and files, hugepages, namespaces) is
found against a saved state, and counted as a failure in make test's closing line.
host_leftovers_test.py SOURCE_ROOT; a made-up tree, no root."""
import json
import os
import subprocess
import sys
import tempfile

ROOT = sys.argv[1] if len(sys.argv) > 1 else "."
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import host_leftovers as hl  # noqa: E402

FAILS = []


def expect(cond, what):
    if not cond:
        FAILS.append(what)
        print("FAIL", what)


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def test_state(tmp):
    run, huge, netns = (os.path.join(tmp, d) for d in ("dpdk", "huge dir", "netns"))
    for d in (run, huge, netns):
        os.mkdir(d)
    mounts, meminfo = os.path.join(tmp, "mounts"), os.path.join(tmp, "meminfo")
    write(mounts, "proc /proc proc rw 0 0\nnone %s hugetlbfs rw 0 0\n"
          % huge.replace(" ", "\\040"))
    write(meminfo, "MemTotal: 1 kB\nHugePages_Total:       0\n")
    hl.PATHS.update(run=run, mounts=mounts, meminfo=meminfo, netns=netns)
    os.mkdir(os.path.join(run, "theirs"))
    before = os.path.join(tmp, "before.json")
    expect(hl.main(["x", "save", before]) == 0, "save")
    expect(hl.left_behind(before) == [], f"nothing new: {hl.left_behind(before)}")
    os.mkdir(os.path.join(run, "dfcps-123"))
    write(os.path.join(huge, "dfcps-123map_0"), "")
    write(os.path.join(netns, "dfcp-t1"), "")
    write(meminfo, "HugePages_Total:     512\n")
    left = hl.left_behind(before)
    for want in ("runtime directory " + os.path.join(run, "dfcps-123"),
                 "hugepage file " + os.path.join(huge, "dfcps-123map_0"),
                 "network namespace dfcp-t1"):
        expect(want in left, f"{want!r} in {left}")
    expect(any("512 hugepages still reserved" in i for i in left), f"hugepages in {left}")
    expect(not any("theirs" in i for i in left), "what was there before is not listed")
    expect(hl.main(["x", "check", before]) == 1, "check exits 1 when something is left")
    # the mount itself left behind (a test's private hugetlbfs)
    write(mounts, "")
    hl.PATHS["mounts"] = mounts
    expect(hl.main(["x", "save", before]) == 0, "save again")
    write(mounts, "none %s hugetlbfs rw 0 0\n" % huge.replace(" ", "\\040"))
    left = hl.left_behind(before)
    expect("hugetlbfs mount " + huge in left, f"the mount, its escaped space read: {left}")
    # cleaned up: nothing
    write(mounts, "")
    os.rmdir(os.path.join(run, "dfcps-123"))
    os.remove(os.path.join(netns, "dfcp-t1"))
    write(meminfo, "HugePages_Total:       0\n")
    expect(hl.main(["x", "check", before]) == 0, "check exits 0 when all is gone")
    expect(hl.main(["x", "check", os.path.join(tmp, "none.json")]) == 2, "no saved state")
    write(os.path.join(tmp, "bad.json"), '{"items": 1}')
    expect(hl.main(["x", "check", os.path.join(tmp, "bad.json")]) == 2, "a malformed state")
    expect(hl.main(["x"]) == 2, "usage")


def test_summary(tmp):
    """test-summary.py on the real host's state: one more failure for what appeared."""
    log = os.path.join(tmp, "testlog.json")
    write(log, json.dumps({"name": "a", "result": "OK"}) + "\n")
    before = os.path.join(tmp, "real.json")
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    summ = [sys.executable, os.path.join(ROOT, "scripts", "test-summary.py")]
    subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "host_leftovers.py"),
                    "save", before], check=True, env=env)
    with open(before) as f:
        st = json.load(f)
    r = subprocess.run(summ + ["--host-before", before, log], capture_output=True,
                       text=True, env=env)
    expect(r.returncode == 0 and r.stdout.strip().endswith("1 passed, 0 failed"),
           f"unchanged host: {r.stdout!r}")
    st["hugepages"] -= 1  # as if one page were reserved during the tests
    write(before, json.dumps(st))
    r = subprocess.run(summ + ["--host-before", before, log], capture_output=True,
                       text=True, env=env)
    expect(r.returncode == 1 and "1 passed, 1 failed" in r.stdout and
           "LEFT BEHIND: 1 hugepages still reserved" in r.stdout, f"a page more: {r.stdout!r}")
    r = subprocess.run(summ + ["--host-before", os.path.join(tmp, "none"), log],
                       capture_output=True, text=True, env=env)
    expect(r.returncode == 1 and "what was there before the tests unknown" in r.stdout,
           f"no saved state: {r.stdout!r}")


with tempfile.TemporaryDirectory() as t:
    test_state(t)
    test_summary(t)
print("host-leftovers:", "FAIL" if FAILS else "ok")
sys.exit(1 if FAILS else 0)
