#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The live screen ([engine] live = screen, obs/screen.c): screen_test.py CASE ENGINE SOURCE_ROOT.

Cases:
  screen  the 100-flow config of obs_test.py (5 net_ring wires, one through a router pipe)
          in a detached tmux pane of 160 x 50 (wider and taller than the screen may use):
          while it runs, `tmux capture-pane` shows the refreshing view: its title line,
          the PORTS / FLOWS / TASKS / LCORES sections, flow names of both roles, no line
          over 120 columns and nothing below row 40, a title naming the planned end (the
          senders' 3 s, not the run's 20 s limit); the run exits 0 and writes its
          summary JSON. 77 without tmux or when the engine was built without ncurses.
  small   the same in an 80 x 24 pane: every section still there, flow rows among them
          (the other sections give up rows), nothing below row 24.
  streams txonly tx0 with flows = 16 into rxonly rx0 in an 80 x 24 pane: the STREAMS
          section with its units (pkt/s, Mbit/s L2 and L1), a totals row per task (16
          streams each), stream rows of both tasks (tx0/N, rx0/IP:PORT) folded into
          "... N more", nothing below row 24 or past column 80; /dfcp/streams and
          /dfcp/streams,tx0 answer while it runs (32 and 16 streams, tx0/0 sending).
No timing assertions.
"""
import os
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from enginetest import case_main, fail, load, skip  # noqa: E402
import obs_test  # noqa: E402


def tmux(sock, *args, check=True):
    return subprocess.run(["tmux", "-L", sock, *args], capture_output=True, text=True,
                          check=check, timeout=20)


def frame_ok(text, small=False):
    """The problems of one captured frame ([] when it is a whole screen); small: an 80 x 24
    terminal, where a flow row of either role will do."""
    lines = text.rstrip("\n").split("\n")
    while lines and not lines[-1].strip():
        lines.pop()
    bad = []
    if not lines or not lines[0].startswith("dfcp-engine  ") or "(q: stop)" not in lines[0]:
        bad.append("no title line")
    long_ = [ln for ln in lines if len(ln.rstrip()) > 120]
    if long_:
        bad.append(f"{len(long_)} lines over 120 columns, e.g. {long_[0]!r}")
    if len(lines) > 40:
        bad.append(f"{len(lines)} rows")
    for sec in ("PORTS", "FLOWS", "TASKS", "LCORES"):
        if not any(ln.startswith(sec) for ln in lines):
            bad.append(f"no {sec} section")
    if not any(re.match(r"^ s\d+\s+sender\s" if not small else r"^ [sr]\d+\s+(sender|receiver)\s",
                        ln) for ln in lines):
        bad.append("no sender flow row" if not small else "no flow row")
    if small and len(lines) > 24:
        bad.append(f"{len(lines)} rows on a 24-row terminal")
    if not any(re.match(r"^ (senders|receivers)\s+\d+ flows", ln) for ln in lines):
        bad.append("no totals row")
    return bad


def case_screen(engine, root, tmp, size=("160", "50")):
    if shutil.which("tmux") is None:
        skip("tmux not installed (scripts/install-deps.sh)")
    ldd = subprocess.run(["ldd", engine], capture_output=True, text=True).stdout
    if "ncurses" not in ldd:
        skip("the engine was built without ncurses (libncurses-dev)")
    ini = obs_test.live_config(tmp, "s")
    with open(ini) as f:
        text = f.read().replace("duration = 1.2s", "duration = 3s")
    with open(ini, "w") as f:
        f.write(text)
    js = os.path.join(tmp, "s.json")
    rcf = os.path.join(tmp, "rc")
    sock = f"dfcp-screen-{os.getpid()}"
    cmd = f"{engine} -- --config {ini} --live screen --summary-json {js} 2>{tmp}/err; " \
          f"echo $? > {rcf}; sleep 60"
    small = size != ("160", "50")
    tmux(sock, "new-session", "-d", "-x", size[0], "-y", size[1], cmd)
    frames, good = 0, None
    try:
        deadline = time.time() + 60
        while time.time() < deadline and not os.path.exists(rcf):
            cap = tmux(sock, "capture-pane", "-p", "-t", "0", check=False).stdout
            if cap.startswith("dfcp-engine  ") and "FLOWS" in cap:
                frames += 1
                if frame_ok(cap, small):
                    # a capture can land while ncurses is still writing a refresh (the
                    # rows below it blank): a bad frame counts when the next one is bad too
                    time.sleep(0.05)
                    cap = tmux(sock, "capture-pane", "-p", "-t", "0", check=False).stdout
                    if not (cap.startswith("dfcp-engine  ") and "FLOWS" in cap):
                        continue
                    bad = frame_ok(cap, small)
                    if bad:
                        print(cap)
                        fail("screen frame (twice in a row): " + "; ".join(bad))
                good = cap
            time.sleep(0.2)
    finally:
        tmux(sock, "kill-server", check=False)
        shutil.rmtree(obs_test.runtime_dir("s"), ignore_errors=True)  # a killed engine's
    with open(os.path.join(tmp, "err")) as f:
        sys.stdout.write(f.read()[-2000:])
    if not os.path.exists(rcf):
        fail("the engine did not finish in 60 s")
    with open(rcf) as f:
        rc = f.read().strip()
    if good is None:
        fail("no screen frame captured")
    print(good)
    print(f"{frames} frames checked")
    # the senders' goal is 3 s (the run's own duration is 20 s): the title says when it ends
    if " of 3.0 s  (q: stop)" not in good.split("\n")[0]:
        fail("the title does not name the run's planned end (3.0 s, its senders' duration)")
    if rc != "0":
        fail(f"engine exited {rc}")
    s = load(js)
    if len(s["outcome"]["failures"]) != 0:
        fail(f"failures: {s['outcome']['failures']}")


def case_small(engine, root, tmp):
    case_screen(engine, root, tmp, ("80", "24"))


STREAMS_INI = """[eal]
args = {eal}
[engine]
duration = 4s
stats_period = 0.25s
[port p0]
device = ring:w
preset = net_ring
[port p1]
device = ring:w
preset = net_ring
[task tx0]
kind = txonly
port = p0
pkt_size = 256
rate = 200Mbit
flows = 16
[task rx0]
kind = rxonly
port = p1
[lcore 1]
tasks = tx0, rx0
"""


def streams_frame_ok(text):
    """The problems of one captured 80 x 24 frame of the streams run."""
    lines = text.rstrip("\n").split("\n")
    bad = []
    if not lines or not lines[0].startswith("dfcp-engine  "):
        bad.append("no title line")
    if len(lines) > 24 or any(len(ln.rstrip()) > 80 for ln in lines):
        bad.append("over 80 x 24")
    head = [ln for ln in lines if ln.startswith("STREAMS")]
    if not head or not all(u in head[0] for u in ("pkt/s", "L2 Mbit/s", "L1 Mbit/s")):
        bad.append("no STREAMS header with its units")
    for want in (r"^ tx0\s+txonly\s+16\s+\d+\s+[\d.]+\s+[\d.]+\s+\d+ stopped",
                 r"^ rx0\s+rxonly\s+16\s+\d+\s+[\d.]+\s+[\d.]+\s+lost [\d.]+ %",
                 r"^ tx0/\d+\s+\d+\s+[\d.]+\s+[\d.]+\s+sending",
                 r"^ rx0/198\.18\.0\.1:\d+\s+\d+\s+[\d.]+\s+[\d.]+\s+lost",
                 r"^ \.\.\. \d+ more", r"^PORTS", r"^LCORES"):
        if not any(re.match(want, ln) for ln in lines):
            bad.append(f"no line like {want!r}")
    return bad


def case_streams(engine, root, tmp):
    if shutil.which("tmux") is None:
        skip("tmux not installed (scripts/install-deps.sh)")
    ldd = subprocess.run(["ldd", engine], capture_output=True, text=True).stdout
    if "ncurses" not in ldd:
        skip("the engine was built without ncurses (libncurses-dev)")
    ini = os.path.join(tmp, "st.ini")
    with open(ini, "w") as f:
        f.write(STREAMS_INI.format(eal=obs_test.eal("t")))
    rcf = os.path.join(tmp, "rc")
    sock = f"dfcp-screen-{os.getpid()}"
    cmd = f"{engine} -- --config {ini} --live screen 2>{tmp}/err; echo $? > {rcf}; sleep 60"
    tmux(sock, "new-session", "-d", "-x", "80", "-y", "24", cmd)
    good, tel = None, None
    try:
        deadline = time.time() + 40
        while time.time() < deadline and not os.path.exists(rcf):
            cap = tmux(sock, "capture-pane", "-p", "-t", "0", check=False).stdout
            if cap.startswith("dfcp-engine  ") and "STREAMS" in cap:
                if streams_frame_ok(cap):  # maybe caught mid-refresh: the next one decides
                    time.sleep(0.05)
                    cap = tmux(sock, "capture-pane", "-p", "-t", "0", check=False).stdout
                    bad = streams_frame_ok(cap)
                    if bad and "STREAMS" in cap:
                        print(cap)
                        fail("screen frame (twice in a row): " + "; ".join(bad))
                good = cap
                if tel is None:
                    _, tel = obs_test.telemetry(
                        os.path.join(obs_test.runtime_dir("t"), "dpdk_telemetry.v2"),
                        ["/dfcp/streams", "/dfcp/streams,tx0"])
            time.sleep(0.2)
    finally:
        tmux(sock, "kill-server", check=False)
        shutil.rmtree(obs_test.runtime_dir("t"), ignore_errors=True)
    with open(os.path.join(tmp, "err")) as f:
        sys.stdout.write(f.read()[-2000:])
    if good is None:
        fail("no screen frame with streams captured")
    print(good)
    if not os.path.exists(rcf):
        fail("the engine did not finish in 40 s")
    with open(rcf) as f:
        rc = f.read().strip()
    if rc != "0":
        fail(f"engine exited {rc}")
    every, one = tel["/dfcp/streams"], tel["/dfcp/streams,tx0"]
    print("telemetry:", sorted(every)[:6], "...", one.get("tx0/0"))
    if len([k for k in every if "/" in k]) != 32 or len([k for k in one if "/" in k]) != 16:
        fail(f"/dfcp/streams: {len(every)} entries, /dfcp/streams,tx0: {len(one)}")
    s0 = one.get("tx0/0", {})
    if s0.get("dir") != "tx" or s0.get("stopped") not in (0, False, "false") or \
            not s0.get("packets"):
        fail(f"/dfcp/streams,tx0: tx0/0 is {s0}")


CASES = {"screen": case_screen, "small": case_small, "streams": case_streams}

if __name__ == "__main__":
    sys.exit(case_main(__doc__, CASES, "screen-"))
