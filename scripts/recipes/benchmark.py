#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Recipe: a txonly -> rxonly benchmark at 10 Gbit/s (L1) over a pair of ports, then an RFC 2544
throughput search (NDR, and PDR at 0.1 % loss) over the same ports with scripts/rfc2544.py: one
engine process for every trial, driven through its console (doc/recipes.md).

Ports: --ports veth (default): a veth pair in a network namespace, net_af_packet on each end
(the kernel's veth is the device under test); --ports ring: one net_ring wire (no kernel, no
namespace: the generator's own ceiling). --lcores 1 (default): both tasks on CPU 1; a full
socket holds the sender back, so nothing is lost and the search's result is the rate the
ports carry, flagged ("carried: the generator could not offer more"). --lcores 2: txonly
on CPU 0, rxonly on CPU 1; a receiver slower than the sender loses frames in the kernel
(kernel_rx_dropped of p1) and the search bisects down to the rate it keeps up with.

usage: benchmark.py [--ports veth|ring] [--lcores 1|2] [--rate RATE] [--size B] [--duration S]
                    [--sizes LIST]
                    [--trial S] [--iterations N] [--pdr R] [--engine PATH] [--quick]
--quick: a 2 s benchmark, then an NDR search at 64 and 1518 B, at most 4 trials of 0.4 s each
(the make test case, under 25 s). Exit 0 when the benchmark ran and the search tried every
size in one engine process, 1 otherwise, 77 skipped (veth: no root or namespaces).
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import recipe  # noqa: E402

PORTS = {
    "veth": """[port p0]
device = net_af_packet0,iface=veth0
[port p1]
device = net_af_packet1,iface=veth1
""",
    "ring": """[port p0]
device = ring:wire0
preset = net_ring
[port p1]
device = ring:wire0
preset = net_ring
""",
}

LCORES = {1: "[lcore 1]\ntasks = tx0, rx0\n",
          2: "[lcore 0]\ntasks = tx0\n[lcore 1]\ntasks = rx0\n"}

CONFIG = """[eal]
args = -l 0-1 --no-huge -m 1024 --no-pci --no-shconf --log-level=pmd.net:warning
[engine]
duration = {duration}s
stats_period = 1s
{ports}[task tx0]
kind = txonly
port = p0
pkt_size = {size}
rate = {rate}
[task rx0]
kind = rxonly
port = p1
{lcores}"""


def search_rate(rate, size):
    """The search's maximum in bit/s (L1) for scripts/rfc2544.py: a packet rate (1Mpps) at
    size-byte frames; a bit rate as it is."""
    m = re.fullmatch(r"([0-9.]+)\s*([kKmMgG]?)pps", rate.strip())
    if m is None:
        if rate.strip().endswith("%"):
            sys.exit("benchmark.py: --rate in % is the engine's (a share of the port's speed); "
                     "give the search a bit rate or a packet rate")
        return rate
    pps = float(m.group(1)) * {"": 1, "k": 1e3, "m": 1e6, "g": 1e9}[m.group(2).lower()]
    return f"{pps * (size + 20) * 8:.0f}"


def bench(a, eng, pre, work):
    cfg = os.path.join(work, "bench.ini")
    with open(cfg, "w") as f:
        f.write(CONFIG.format(duration=a.duration, ports=PORTS[a.ports], size=a.size,
                              rate=a.rate, lcores=LCORES[a.lcores]))
    js = os.path.join(work, "bench.json")
    print(f"## 1. txonly at {a.rate} (L1), {a.size} B frames, {a.duration} s -> rxonly "
          f"({a.ports}; config {cfg})", flush=True)
    cmd = pre + [eng, "--", "--config", cfg, "--stats-period", "0", "--live", "off",
                 "--summary-json", js]
    recipe.show(cmd)
    log = os.path.join(work, "bench.log")
    with open(log, "w") as lf:
        p = subprocess.run(cmd, stdout=lf, stderr=subprocess.STDOUT, timeout=a.duration + 60)
    recipe.tail(log, ("txonly tx0", "rxonly rx0", "pace tx0", "port p0", "port p1",
                      "outcome"), 10)
    if p.returncode != 0:
        recipe.fail(f"the benchmark engine exited {p.returncode} ({log})")
    with open(js) as f:
        s = json.load(f)
    tx = next(t for t in s["txonly"] if t["name"] == "tx0")
    rx = next(t for t in s["rxonly"] if t["name"] == "rx0")
    tasks = {t["name"]: t for t in s["tasks"]}
    sent, got = tasks["tx0"]["tx_packets"], tasks["rx0"]["rx_valid"]
    l1 = tx["tx_pps"] * (a.size + 20) * 8 / 1e6
    print(f"sent {sent} frames ({tx['tx_pps'] / 1e6:.3f} Mpps, {l1:.1f} Mbit/s L1, "
          f"{tx['tx_mbps']:.1f} Mbit/s L2), received {got} ({rx['rx_mbps']:.1f} Mbit/s L2), "
          f"lost {max(sent - got, 0)} ({100 * max(sent - got, 0) / max(sent, 1):.2f} %)",
          flush=True)
    if sent == 0:
        recipe.fail("the generator sent nothing")
    return cfg


def search(a, eng, pre, cfg, work):
    js = os.path.join(work, "rfc2544.json")
    print(f"\n## 2. RFC 2544 throughput search, max {a.max_rate}, sizes {a.sizes}, "
          f"{a.trial} s trials", flush=True)
    cmd = pre + [sys.executable, os.path.join(recipe.SRC, "scripts", "rfc2544.py"),
                 "--engine", eng, "--config", cfg, "--max-rate", a.max_rate, "--sizes", a.sizes,
                 "--duration", str(a.trial), "--iterations", str(a.iterations),
                 "--json", js] + (["--pdr-loss", str(a.pdr)] if a.pdr else [])
    recipe.show(cmd)
    p = subprocess.run(cmd, timeout=600)
    if p.returncode != 0:
        recipe.fail(f"rfc2544.py exited {p.returncode}")
    with open(js) as f:
        res = json.load(f)
    pids = {t["engine_pid"] for r in res["results"] for t in r["trials"]}
    n = sum(len(r["trials"]) for r in res["results"])
    print(f"{n} trials in {len(pids)} engine process(es)")
    for r in res["results"]:
        ok = [t for t in r["trials"] if t["pass"]]
        if r["generator_limited"] and ok:
            t = max(ok, key=lambda t: t["sent_fps"])
            print(f"  {r['size']} B: no loss at any rate; the ports carried "
                  f"{t['sent_fps'] / 1e6:.3f} Mpps = "
                  f"{t['sent_fps'] * (r['size'] + 20) * 8 / 1e6:.1f} Mbit/s L1 of the "
                  f"{t['offered_mbps']:.0f} offered")
    sizes = [int(x) for x in a.sizes.split(",")]
    if len(pids) != 1 or [r["size"] for r in res["results"]] != sizes or \
            any(not r["trials"] for r in res["results"]):
        recipe.fail("the search did not try every size in one engine process")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ports", choices=sorted(PORTS), default="veth")
    ap.add_argument("--rate", default="10Gbit", help="the benchmark's rate and the search's "
                    "maximum, L1 (10Gbit)")
    ap.add_argument("--size", type=int, default=1518, help="benchmark frame size, B (1518)")
    ap.add_argument("--duration", type=int, default=10, help="benchmark seconds (10)")
    ap.add_argument("--sizes", default="64,512,1518", help="search frame sizes (64,512,1518)")
    ap.add_argument("--trial", type=float, default=2.0, help="seconds per trial (2)")
    ap.add_argument("--iterations", type=int, default=8, help="trials per search at most (8)")
    ap.add_argument("--pdr", type=float, default=0.001,
                    help="the PDR search's loss ratio, 0: none (0.001)")
    ap.add_argument("--lcores", type=int, choices=(1, 2), default=1,
                    help="1: both tasks on CPU 1 (default); 2: txonly on CPU 0, rxonly on 1")
    ap.add_argument("--engine", help="dfcp-engine (default: build/ of the source tree)")
    ap.add_argument("--quick", action="store_true", help="the make test case (< 25 s)")
    a = ap.parse_args()
    if a.quick:
        a.duration, a.sizes, a.trial, a.iterations, a.pdr = 2, "64,1518", 0.4, 4, 0
    a.max_rate = search_rate(a.rate, a.size)
    eng = recipe.engine_path(a.engine)
    recipe.header(f"recipe: txonly/rxonly benchmark and RFC 2544 search ({a.ports})")
    recipe.setup_signals()
    net = recipe.Netns("bm")
    try:
        pre = []
        if a.ports == "veth":
            net.up(["n"], [("n", "veth0", "n", "veth1")])
            pre = net.exec("n")
        with tempfile.TemporaryDirectory(prefix="recipe-bm-") as work:
            cfg = bench(a, eng, pre, work)
            search(a, eng, pre, cfg, work)
    except recipe.Term as e:
        print(f"interrupted ({e})")
        return 1
    finally:
        net.down()
    return 0


if __name__ == "__main__":
    sys.exit(main())
