#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""One DFCP flow through a random-loss router (issue #18; a benchmark, not a test).

  s1 (sender, lcore 0) -> wire w0 -> rtr (router, pipe `lossy`: plr P, lcore 1)
  -> wire w1 -> r1 (receiver, verify, lcore 1); ACKs back through `pass`.

redundancy auto, window 128, net_ring ports, no hugepages. Each run prints the
receiver's goodput, block latency p99, the sender's block timers and stall
episodes, and every "no progress" line the engine logged (its own stall
diagnosis). The pipe's loss seed is the run number, so each run loses other
packets. The stall hunt:

  flock /tmp/dfcp-heavy.lock scripts/bench-lossy.py --runs 25 --bytes 64MiB
  flock /tmp/dfcp-heavy.lock scripts/bench-lossy.py --runs 3 --bytes 4GiB --plr 10% --checksum full
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "test", "engine"))
from enginetest import RING_ROUTER_PORTS  # noqa: E402  (the tests' router wiring)

CONFIG = """[eal]
args = -l 0-1 --no-huge -m 1024 --no-pci --no-shconf --log-level=pmd.net.ring:warning
[engine]
duration = {limit}s
stats_period = 0
""" + RING_ROUTER_PORTS + """[pipe lossy]
plr = {plr}
seed = {seed}
[task rtr]
kind = router
port_a = ra
port_b = rb
a_to_b = lossy
b_to_a = pass
[flow s1]
role = sender
local = 10.0.0.1:5001
remote = 10.0.0.2:6001
remote_mac = 02:00:00:00:00:02
bytes = {nbytes}
window = 128
redundancy = auto
[flow r1]
role = receiver
local = 10.0.0.2:6001
window = 128
sink = verify
[task tx]
kind = dfcp
port = p0
flows = s1
checksum = {csum}
[task rx]
kind = dfcp
port = p1
flows = r1
checksum = {csum}
[lcore 0]
tasks = tx
[lcore 1]
tasks = rtr, rx
"""


def flow(js, name):
    for f in js.get("flows", []):
        if f.get("name") == name:
            return f
    raise KeyError(name)


def p99_ms(f):
    lat = f.get("block_latency_ns") or {}
    v = lat.get("p99")
    return None if v is None else v / 1e6


def one_run(args, tmp, n):
    cfg = os.path.join(tmp, f"lossy{n}.ini")
    out = os.path.join(tmp, f"lossy{n}.json")
    with open(cfg, "w") as f:
        f.write(CONFIG.format(limit=args.limit, plr=args.plr, seed=args.seed0 + n,
                              nbytes=args.bytes, csum=args.checksum))
    cmd = [args.engine, "--", "--config", cfg, "--summary-json", out, "--live", "off"]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       timeout=args.limit + 60)
    stalls = [ln for ln in p.stdout.splitlines() if "no progress" in ln]
    try:
        js = json.load(open(out))
        s, r = flow(js, "s1"), flow(js, "r1")
    except (OSError, ValueError, KeyError) as e:
        print(f"run {n}: exit {p.returncode}, no summary ({e})")
        sys.stdout.write(p.stdout[-3000:])
        return None
    ok = p.returncode == 0 and r.get("goodput_bytes") == s.get("goodput_bytes")
    res = {"gp": r.get("goodput_mbps", 0) / 1000, "p99": p99_ms(r) or p99_ms(s),
           "timers": s.get("timeouts", 0), "blocks": s.get("blocks_sent", 0),
           "stalls": s.get("stalls", 0) + r.get("stalls", 0), "ok": ok,
           "first": s.get("blocks_first_pass", 0), "loss": r.get("loss_ppm", 0) / 1e4}
    p99 = "-" if res["p99"] is None else f"{res['p99']:.1f}"
    print(f"run {n}: {res['gp']:.2f} Gbit/s, p99 {p99} ms, timers {res['timers']} of "
          f"{res['blocks']} blocks, first pass {res['first']}, loss {res['loss']:.1f} %, "
          f"stall episodes {res['stalls']}, exit {p.returncode}{'' if ok else ' NOT OK'}; "
          f"load {os.getloadavg()[0]:.2f}", flush=True)
    for ln in stalls:
        print("   ", ln)
    if not ok:
        sys.stdout.write(p.stdout[-3000:])
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--bytes", default="64MiB")
    ap.add_argument("--plr", default="10%")
    ap.add_argument("--checksum", default="auto", choices=("auto", "full", "zero"))
    ap.add_argument("--seed0", type=int, default=1, help="the first run's loss seed")
    ap.add_argument("--limit", type=int, default=60, help="engine duration limit (s)")
    ap.add_argument("--engine", default=os.environ.get("ENGINE",
                                                       "build/app/dfcp-engine/dfcp-engine"))
    args = ap.parse_args()
    print(f"load {os.getloadavg()[0]:.2f}; plr {args.plr}, {args.bytes}, checksum "
          f"{args.checksum}, seeds {args.seed0}..{args.seed0 + args.runs - 1}", flush=True)
    res = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(args.runs):
            r = one_run(args, tmp, n)
            res.append(r)
    good = [r for r in res if r is not None]
    bad = len(res) - len(good) + sum(1 for r in good if not r["ok"])
    stalled = sum(1 for r in good if r["stalls"])
    if good:
        gps = sorted(r["gp"] for r in good)
        print(f"{len(res)} runs: goodput {gps[0]:.2f}-{gps[-1]:.2f} Gbit/s, median "
              f"{statistics.median(gps):.2f}; runs with a stall {stalled}; "
              f"timers {sum(r['timers'] for r in good)}; failed {bad}")
    return 1 if bad or stalled else 0


if __name__ == "__main__":
    sys.exit(main())
