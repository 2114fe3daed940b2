#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Write an engine config with N DFCP flow pairs listed one by one (no flow
groups), for measuring the engine's memory per flow (doc/performance.md,
"Memory per flow"): N senders in task d0 on port hosts, N receivers in task d1
on port sinks, one 1 Gbit/s bottleneck (one FIFO queue, WF2Q+ pipe) with a
1 ms delay behind it, every flow labelled `bottleneck = b` so that
`window = auto` sizes each by its share. The senders together offer 2 Gbit/s.

    scripts/mem-flows.py N [--bytes SIZE] [--duration S] > /tmp/flows.ini
"""
import argparse


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("n", type=int, help="flow pairs")
    ap.add_argument("--bytes", default="4MiB", help="each sender's transfer (size)")
    ap.add_argument("--duration", default="20s", help="the run's limit")
    ap.add_argument("--mem-budget", default="", help="[task] mem_budget (default auto)")
    a = ap.parse_args()
    n = a.n
    rate = 2_000_000 // n  # kbit/s each: 2 Gbit/s in total
    out = [
        "[eal]",
        "args = -l 0-1 --no-huge -m 1024 --no-pci --no-shconf --log-level=pmd.net.ring:warning",
        "[engine]", f"duration = {a.duration}", "stats_period = 0", "drain = 300ms",
        "[port hosts]", "device = ring:a", "preset = net_ring",
        "[port ra]", "device = ring:a", "preset = net_ring",
        "[port rb]", "device = ring:b", "preset = net_ring",
        "[port sinks]", "device = ring:b", "preset = net_ring",
        "[pipe bottleneck]", "bw = 1Gbit", "queue = 1000", "sched = wf2q+", "next = delay",
        "[pipe delay]", "delay = 1ms", "line_pkts = 16384", "unmatched = pass",
        "[queue dall]", "pipe = delay", "match = ip from any to any",
        "[task r0]", "kind = router", "port_a = ra", "port_b = rb",
        "a_to_b = bottleneck", "b_to_a = pass",
    ]
    for i in range(n):
        hi, lo = divmod(i, 250)
        out += [f"[flow s{i}]", "role = sender", f"local = 10.0.{hi}.{lo + 1}:5001",
                f"remote = 10.1.{hi}.{lo + 1}:6001", "remote_mac = 02:00:00:00:00:02",
                f"rate = {rate}kbit", f"bytes = {a.bytes}", "path_rtt = 20ms",
                "bottleneck = b"]
        out += [f"[flow r{i}]", "role = receiver", f"local = 10.1.{hi}.{lo + 1}:6001",
                "sink = verify", "path_rtt = 20ms", "bottleneck = b"]
    budget = [f"mem_budget = {a.mem_budget}"] if a.mem_budget else []
    out += ["[task d0]", "kind = dfcp", "port = hosts",
            "flows = " + ",".join(f"s{i}" for i in range(n))] + budget
    out += ["[task d1]", "kind = dfcp", "port = sinks", "max_conns = 1",
            "flows = " + ",".join(f"r{i}" for i in range(n))] + budget
    out += ["[lcore 0]", "tasks = d0", "[lcore 1]", "tasks = r0, d1"]
    print("\n".join(out))


if __name__ == "__main__":
    main()
