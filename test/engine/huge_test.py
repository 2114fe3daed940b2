#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The engine on hugepages, and what a run leaves behind: huge_test.py CASE ENGINE SOURCE_ROOT.

Both cases reserve 2 MB hugepages and mount a private hugetlbfs (enginetest.Hugepages,
given back afterwards); without root or where the kernel refuses, they are skipped (77).

Cases:
  hugepages    configs/default.ini (the dumbbell) with `--file-prefix P -m 512 --huge-dir D`
               on the command line: --huge-dir replaces the config's --no-huge. Exit 0,
               every receiver delivered verified bytes (goodput > 0, no bad bytes); while
               it runs the EAL's hugepage files P map_N fill D (>= 512 MiB) and the host's
               free 2 MB pages dropped, and the engine logs "EAL memory: hugepages"; after
               exit no P map_N file in D and no runtime folder P.
  stale-clean  an engine on hugepages with a derived prefix (CONFIG-PID) is killed with
               SIGKILL once running: its runtime folder and hugepage files stay. The next
               engine (--no-huge, another config) removes them before its EAL starts and
               says so; a folder of the same form that is not the engine's (no mark file)
               and one of a live PID are kept.
No timing assertions.
"""
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from enginetest import (Hugepages, case_main, dpdk_run_base, fail, huge_free_2m, load,  # noqa: E402
                        remove_prefix, run)


def watch_hugepages(p, hp, prefix, lines):
    """Read the engine's output until its first stats block; return the hugepage files
    of prefix and the host's free 2 MB pages then."""
    for line in p.stdout:
        lines.append(line)
        if "== stats at" in line:
            break
    return hp.files(prefix), huge_free_2m()


def case_hugepages(engine, src, tmp):
    pfx = f"hugep{os.getpid()}"
    js = os.path.join(tmp, "s.json")
    with Hugepages(512 + 32, "hp") as hp:
        free0 = huge_free_2m()
        cmd = [engine, "--file-prefix", pfx, "-m", "512", "--huge-dir", hp.dir, "--",
               "--config", os.path.join(src, "configs", "default.ini"), "--summary-json", js]
        print("$", " ".join(cmd), flush=True)
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        lines = []
        try:
            files, free = watch_hugepages(p, hp, pfx, lines)
            out, _ = p.communicate(timeout=150)
            lines.append(out)
        finally:
            if p.poll() is None:
                p.kill()
                p.wait()
            remove_prefix(pfx)  # only after a failure: the engine removes its own
        text = "".join(lines)
        sys.stdout.write(text[-4000:])
        left = hp.files(pfx)
    if p.returncode != 0:
        fail(f"engine exited {p.returncode}")
    print(f"while running: {len(files)} hugepage files {pfx}map_N, free 2 MB pages "
          f"{free0} -> {free}")
    if len(files) * 2 < 512:
        fail(f"{len(files)} hugepage files of 2 MB in {hp.dir}: the EAL did not take -m 512 "
             "from it")
    if free >= free0:
        fail("the host's free 2 MB hugepages did not drop while the engine ran")
    if f"EAL memory: hugepages, files in {hp.dir}" not in text:
        fail("the engine does not log that it runs on hugepages")
    s = load(js)
    recv = [f for f in s["flows"] if f["role"] == "receiver"]
    if len(recv) != 2:
        fail(f"{len(recv)} receivers in the summary, want 2")
    for f in recv:
        print(f"flow {f['name']}: goodput {f['goodput_mbps']:.1f} Mbit/s, "
              f"{f['sink_bytes']} B delivered, bad {f['bad_bytes']}")
        if f["goodput_mbps"] <= 0 or f["sink_bytes"] <= 0 or f["bad_bytes"]:
            fail(f"receiver {f['name']}: no verified goodput")
    if left:
        fail(f"hugepage files left after exit: {left[:3]} ({len(left)})")
    rundir = os.path.join(dpdk_run_base(), pfx)
    if os.path.exists(rundir):
        fail(f"runtime folder {rundir} left after exit")
    print("hugepages: ok, nothing left behind")


def start_killed(engine, src, tmp, hp):
    """An engine on hugepages with a derived prefix, killed with SIGKILL once running;
    returns its prefix."""
    ini = os.path.join(tmp, "stale.ini")
    with open(os.path.join(src, "configs", "txonly.ini")) as f:
        text = f.read()
    with open(ini, "w") as f:  # with the shared config file a live primary locks
        f.write(text.replace(" --no-shconf", ""))
    cmd = [engine, "-m", "128", "--huge-dir", hp.dir, "--", "--config", ini,
           "--duration", "60", "--stats-period", "0.5"]
    print("$", " ".join(cmd), flush=True)
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    pfx = f"stale-{p.pid}"
    try:
        for line in p.stdout:
            sys.stdout.write(line)
            if "EAL memory: hugepages" in line:  # logged once the mark is written
                break
        else:
            fail("the first engine ended before it ran on hugepages")
    finally:
        p.kill()
        p.wait()
    return pfx


def case_stale_clean(engine, src, tmp):
    base = dpdk_run_base()
    gone = subprocess.Popen(["true"])
    gone.wait()
    foreign = os.path.join(base, f"other-{gone.pid}")  # the derived form, not the engine's
    live = os.path.join(base, f"stale-{os.getpid()}")  # the engine's mark, a live PID
    pfx = None
    with Hugepages(128 + 16, "stale") as hp:
        try:
            pfx = start_killed(engine, src, tmp, hp)
            rundir = os.path.join(base, pfx)
            files = hp.files(pfx)
            print(f"killed: {rundir} {sorted(os.listdir(rundir))}; {len(files)} hugepage "
                  "files")
            if not os.path.isdir(rundir) or not files:
                fail("the killed run left no runtime folder or hugepage files to clean")
            for d in (foreign, live):
                os.makedirs(d, exist_ok=True)
            with open(os.path.join(live, "dfcp-engine"), "w") as f:
                f.write(hp.dir + "\n")
            # the next run on --no-huge: the EAL's own clean-up of the hugetlbfs
            # folder it uses does not come into it
            p = run([engine, "--", "--config", os.path.join(src, "configs", "txonly.ini"),
                     "--duration", "0.5", "--stats-period", "0"], timeout=60)
            if p.returncode != 0:
                fail(f"second engine exited {p.returncode}")
            m = re.search(r"removed the leftovers of (\d+) dead earlier run\(s\).*?"
                          r"(\d+) hugepage file", p.stdout + p.stderr)
            if m is None:
                fail("the second engine does not log what it removed")
            left = hp.files(pfx)
            if os.path.exists(rundir) or left:
                fail(f"left after the second run: folder {os.path.exists(rundir)}, "
                     f"{len(left)} hugepage files")
            if not os.path.isdir(foreign) or not os.path.isdir(live):
                fail("a folder that was not a dead engine run's was removed")
        finally:
            for d in (foreign, live):
                remove_prefix(os.path.basename(d))
            if pfx is not None:
                remove_prefix(pfx, [hp.dir])
    print(f"stale-clean: ok ({m.group(1)} dead run(s), {m.group(2)} hugepage files removed)")


CASES = {"hugepages": case_hugepages, "stale-clean": case_stale_clean}

if __name__ == "__main__":
    sys.exit(case_main(__doc__, CASES, "huge-"))
