#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Demultiplexing and software dispatch (issue 13): demux_test.py CASE ENGINE SOURCE_ROOT.

Cases:
  shared-port  64 DFCP flows in 4 sender tasks sharing port p0 (rx queues 0..3, one
               WF2Q+ sched task owning the tx queue) to 64 receivers in 4 tasks sharing
               p1 the same way: every frame comes back on queue 0, so 3 of 4 tasks on
               each port get their frames only through the software dispatch. Every
               flow connects and completes, its bytes verified; no frame for an existing
               flow is dropped as `address`; both sides count frames dispatched.
  multi-conn   one receiver flow (max_conns = 3, sink = verify) serving 3 senders at
               once: every connection's stream verifies (no false order errors), the
               receiver counts 3 connections and 3 x the bytes.
Two lcores; counts, verification and exit codes only (no timing).
"""
import functools
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from enginetest import case_main, fail, load, write  # noqa: E402
import enginetest  # noqa: E402

run = functools.partial(enginetest.run, out_tail=3000, err_tail=3000)
HEAD = """[eal]
args = -l 0-1 --no-huge -m 1024 --no-pci --no-shconf --log-level=pmd.net.ring:warning
[engine]
duration = 30s
stats_period = 0
"""


def flows_of(js):
    return {f["name"]: f for f in js.get("flows", [])}


def shared_port_config(nflows=64, ntasks=4, nbytes=256 << 10):
    per = nflows // ntasks
    c = [HEAD, f"""[port p0]
device = ring:w0
preset = net_ring
rx_queues = {ntasks}
[port p1]
device = ring:w0
preset = net_ring
rx_queues = {ntasks}
[task q0]
kind = sched
port = p0
max_flows = {nflows}
[task q1]
kind = sched
port = p1
max_flows = {nflows}
"""]
    for i in range(nflows):
        c.append(f"""[flow s{i}]
role = sender
local = 10.0.0.1:{5000 + i}
remote = 10.0.1.1:{6000 + i}
remote_mac = 02:00:00:00:00:02
bytes = {nbytes}
window = 8
seed = {i + 1}
[flow r{i}]
role = receiver
local = 10.0.1.1:{6000 + i}
window = 8
seed = {i + 1}
sink = verify
""")
    snd, rcv = [], []
    for t in range(ntasks):
        ids = range(t * per, (t + 1) * per)
        c.append(f"[task a{t}]\nkind = dfcp\nport = p0\nrxq = {t}\negress = q0\n"
                 f"flows = {', '.join(f's{i}' for i in ids)}\n")
        c.append(f"[task b{t}]\nkind = dfcp\nport = p1\nrxq = {t}\negress = q1\nmax_conns = 1\n"
                 f"flows = {', '.join(f'r{i}' for i in ids)}\n")
        snd.append(f"a{t}")
        rcv.append(f"b{t}")
    c.append(f"[lcore 0]\ntasks = {', '.join(rcv)}, q1\n[lcore 1]\ntasks = {', '.join(snd)}, q0\n")
    return "".join(c)


def case_shared_port(engine, src, tmp):
    nflows, nbytes = 64, 256 << 10
    cfg = write(os.path.join(tmp, "shared.ini"), shared_port_config(nflows, 4, nbytes))
    out = os.path.join(tmp, "s.json")
    p = run([engine, "--", "--config", cfg, "--summary-json", out], timeout=90)
    js = load(out)
    fl = flows_of(js)
    bad = []
    for i in range(nflows):
        s, r = fl.get(f"s{i}"), fl.get(f"r{i}")
        if s is None or r is None:
            fail(f"flow s{i} or r{i} missing from the summary")
        if not s["completed"] or not r["completed"] or r["sink_bytes"] != nbytes or \
                r["bad_bytes"] != 0 or r["order_errors"] != 0:
            bad.append(f"s{i}/r{i}: {s['state']} {s['failed']!r} / {r['state']} "
                       f"{r['sink_bytes']} B {r['failed']!r}")
    if bad:
        fail(f"{len(bad)} of {nflows} transfers did not complete: " + "; ".join(bad[:6]))
    if p.returncode != 0:
        fail(f"exit code {p.returncode}")
    drops = js.get("dfcp_drops", {})
    for task, d in drops.items():
        if d.get("address", 0) != 0:
            fail(f"task {task}: {d['address']} frames dropped as address")
    disp = js.get("dispatch", {})
    print("dispatch:", disp)
    for side in ("a", "b"):
        tot_out = sum(disp.get(f"{side}{t}", {}).get("out", 0) for t in range(4))
        tot_in = sum(disp.get(f"{side}{t}", {}).get("in", 0) for t in range(4))
        full = sum(disp.get(f"{side}{t}", {}).get("full", 0) for t in range(4))
        if tot_out == 0 or tot_in != tot_out or full != 0:
            fail(f"tasks {side}*: dispatched out {tot_out} in {tot_in} full {full}")
        for t in range(1, 4):
            if disp.get(f"{side}{t}", {}).get("in", 0) == 0:
                fail(f"task {side}{t} got nothing through its inbox")


MULTI = HEAD + """[port p0]
device = ring:w0
preset = net_ring
[port p1]
device = ring:w0
preset = net_ring
[flow s1]
role = sender
local = 10.0.0.1:5001
remote = 10.0.1.1:6000
remote_mac = 02:00:00:00:00:02
bytes = {nbytes}
window = 16
seed = 5
[flow s2]
role = sender
local = 10.0.0.2:5002
remote = 10.0.1.1:6000
remote_mac = 02:00:00:00:00:02
bytes = {nbytes}
window = 16
seed = 5
[flow s3]
role = sender
local = 10.0.0.3:5003
remote = 10.0.1.1:6000
remote_mac = 02:00:00:00:00:02
bytes = {nbytes}
window = 16
seed = 5
[flow r]
role = receiver
local = 10.0.1.1:6000
window = 16
seed = 5
sink = verify
[task tx]
kind = dfcp
port = p0
flows = s1, s2, s3
[task rx]
kind = dfcp
port = p1
max_conns = 3
flows = r
[lcore 1]
tasks = tx, rx
"""


def case_multi_conn(engine, src, tmp):
    nbytes = 4 << 20
    cfg = write(os.path.join(tmp, "multi.ini"), MULTI.format(nbytes=nbytes))
    out = os.path.join(tmp, "m.json")
    p = run([engine, "--", "--config", cfg, "--summary-json", out], timeout=90)
    js = load(out)
    fl = flows_of(js)
    r = fl["r"]
    print(f"receiver: conns {r.get('connections')} sink {r['sink_bytes']} bad {r['bad_bytes']} "
          f"order {r['order_errors']} goodput {r['goodput_bytes']}")
    for n in ("s1", "s2", "s3"):
        if not fl[n]["completed"] or fl[n]["goodput_bytes"] != nbytes:
            fail(f"sender {n}: {fl[n]['state']} acked {fl[n]['goodput_bytes']}")
    if r["bad_bytes"] != 0 or r["order_errors"] != 0:
        fail(f"false verify errors: {r['bad_bytes']} bad bytes, {r['order_errors']} order errors")
    if r["sink_bytes"] != 3 * nbytes or r["goodput_bytes"] != 3 * nbytes:
        fail(f"receiver delivered {r['sink_bytes']} bytes, expected {3 * nbytes}")
    if r.get("connections") != 3:
        fail(f"receiver counts {r.get('connections')} connections, expected 3")
    if "verify: FAILED" in p.stdout or p.returncode != 0:
        fail(f"exit code {p.returncode} / verify failed")
    lines = [ln for ln in p.stderr.splitlines() + p.stdout.splitlines()
             if "flow r: connection" in ln]
    if len(lines) != 3 or any("verify ok" not in ln for ln in lines):
        fail(f"expected 3 per-connection lines with verify ok: {lines}")


CASES = {"shared-port": case_shared_port, "multi-conn": case_multi_conn}

if __name__ == "__main__":
    sys.exit(case_main(__doc__, CASES, "dfcp-demux-"))
