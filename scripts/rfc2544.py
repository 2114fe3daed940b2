#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""RFC 2544 section 26.1 throughput: per frame size, the highest rate at which the
device under test forwards every frame, found by a binary search on the offered rate.

Each trial is one engine run: a txonly task offers frames at a rate (L1: frame + 20 bytes
of preamble and gap, as txonly's `rate` and NIC line rates count), an rxonly task counts
what came through; a trial passes when received >= sent - --loss-frames. The search keeps
[lo, hi] with lo passed and hi failed, starts at --max-rate (a pass there ends it) and
halves until hi - lo <= --resolution x max-rate or --iterations trials.

The DUT: --config FILE, a config with a txonly and an rxonly task (--tx-task, --rx-task)
and whatever is between them (a router pipe, a sched task, a NIC loop...); each trial
rewrites the txonly task's pkt_size, rate and count and runs it with --duration and the
periodic output off. Without --config: the engine's own router with one pipe of
--dut-bw, --dut-queue packets, on net_ring (no NIC; the self-check: the throughput
found is the pipe's bandwidth).

Output: a table (size, throughput Mbit/s L1 and frames/s, % of max-rate, trials) on
stdout, every trial and the result in --json FILE. Exit 0, 1 on a usage error, 2 when an
engine run failed.

  scripts/rfc2544.py --engine build/dfcp-engine --sizes 64,512,1518 --max-rate 1Gbit
  scripts/rfc2544.py --engine build/dfcp-engine --config my-dut.ini --max-rate 10Gbit \\
      --duration 10 --json rfc2544.json
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

DEFAULT_DUT = """[eal]
args = -l 0-1 --no-huge -m 512 --no-pci --no-shconf --log-level=pmd.net.ring:warning
[engine]
duration = 2s
[port gen]
device = ring:a
preset = net_ring
[port ra]
device = ring:a
preset = net_ring
[port rb]
device = ring:b
preset = net_ring
[port sink]
device = ring:b
preset = net_ring
[pipe dut]
bw = {bw}
queue = {queue}
[task tx0]
kind = txonly
port = gen
[task r0]
kind = router
port_a = ra
port_b = rb
a_to_b = dut
b_to_a = pass
[task rx0]
kind = rxonly
port = sink
[lcore 1]
tasks = tx0, r0, rx0
"""

UNITS = {"": 1, "k": 1e3, "m": 1e6, "g": 1e9, "t": 1e12}


def parse_rate(s):
    """'1Gbit', '100Mbit', '2.5G', '1e9' -> bit/s."""
    m = re.fullmatch(r"\s*([0-9.eE+]+)\s*([kKmMgGtT]?)(bit|bps|b)?(/s)?\s*", s)
    if m is None:
        raise argparse.ArgumentTypeError(f"bad rate {s!r} (e.g. 1Gbit, 100Mbit)")
    return float(m.group(1)) * UNITS[m.group(2).lower()]


def task_rewrite(ini, task, keys):
    """ini with [task TASK]'s keys in `keys` replaced (others kept, comments too)."""
    out, in_task, found = [], False, False
    for line in ini.splitlines():
        m = re.match(r"\s*\[(.+)\]", line)
        if m:
            if in_task:
                out += [f"{k} = {v}" for k, v in keys.items()]
            in_task = m.group(1).split() == ["task", task]
            found = found or in_task
        elif in_task and re.match(r"\s*(\w+)\s*=", line) and \
                re.match(r"\s*(\w+)", line).group(1) in keys:
            continue
        out.append(line)
    if in_task:
        out += [f"{k} = {v}" for k, v in keys.items()]
    if not found:
        raise SystemExit(f"rfc2544: no [task {task}] in the config")
    return "\n".join(out) + "\n"


class Runner:
    def __init__(self, a, ini, tmp):
        self.a, self.ini, self.tmp, self.n = a, ini, tmp, 0

    def trial(self, size, rate_bps):
        """One run at rate_bps (L1) with size-byte frames: the trial's record."""
        a = self.a
        self.n += 1
        fps = rate_bps / ((size + 20) * 8)
        keys = {"pkt_size": size, "rate": f"{rate_bps / 1e6:.6f}Mbit", "count": 0}
        ini = os.path.join(self.tmp, f"t{self.n}.ini")
        js = os.path.join(self.tmp, f"t{self.n}.json")
        with open(ini, "w") as f:
            f.write(task_rewrite(self.ini, a.tx_task, keys))
        cmd = [a.engine, "--", "--config", ini, "--duration", str(a.duration),
               "--stats-period", "0", "--live", "off", "--summary-json", js]
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=a.duration + 120)
        if p.returncode != 0 or not os.path.exists(js):
            sys.stderr.write(p.stdout[-2000:] + p.stderr[-2000:])
            print(f"rfc2544: engine exited {p.returncode}: {' '.join(cmd)}", file=sys.stderr)
            sys.exit(2)
        with open(js) as f:
            s = json.load(f)
        t = {x["name"]: x for x in s["tasks"]}
        if a.tx_task not in t or a.rx_task not in t:
            raise SystemExit(f"rfc2544: tasks {a.tx_task}/{a.rx_task} not in the summary")
        sent, recv = t[a.tx_task]["tx_packets"], t[a.rx_task]["rx_valid"]
        secs = s["duration_s"]
        r = {"size": size, "offered_mbps": rate_bps / 1e6, "offered_fps": fps,
             "sent": sent, "received": recv, "lost": max(sent - recv, 0),
             "sent_fps": sent / secs if secs else 0.0, "duration_s": secs}
        r["pass"] = recv >= sent - a.loss_frames and sent > 0
        # a generator that cannot offer the rate makes the DUT look better than it is
        r["generator_limited"] = r["sent_fps"] < 0.97 * fps
        if not a.quiet:
            print(f"  {size:5d} B  {rate_bps / 1e6:10.3f} Mbit/s  sent {sent:9d} "
                  f"received {recv:9d}  {'pass' if r['pass'] else 'LOSS'}", flush=True)
        return r


def search(run, size, a):
    """Binary search of one size: (throughput bit/s or 0, trials)."""
    trials = []
    hi, lo = a.max_rate, 0.0
    r = run.trial(size, hi)
    trials.append(r)
    if r["pass"]:
        return hi, trials
    while len(trials) < a.iterations and hi - lo > a.resolution * a.max_rate:
        mid = (lo + hi) / 2
        r = run.trial(size, mid)
        trials.append(r)
        if r["pass"]:
            lo = mid
        else:
            hi = mid
    return lo, trials


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 1)[1])
    ap.add_argument("--engine", required=True, help="the dfcp-engine program")
    ap.add_argument("--config", help="the DUT config (default: a router pipe on net_ring)")
    ap.add_argument("--tx-task", default="tx0", help="its txonly task (tx0)")
    ap.add_argument("--rx-task", default="rx0", help="its rxonly task (rx0)")
    ap.add_argument("--sizes", default="64,128,256,512,1024,1280,1518",
                    help="frame sizes with FCS, comma-separated (RFC 2544 9.1)")
    ap.add_argument("--max-rate", type=parse_rate, default=parse_rate("1Gbit"),
                    help="the highest rate tried, L1 (1Gbit)")
    ap.add_argument("--duration", type=float, default=2.0, help="seconds per trial (2)")
    ap.add_argument("--resolution", type=float, default=0.01,
                    help="stop when hi - lo <= this x max-rate (0.01)")
    ap.add_argument("--iterations", type=int, default=12, help="trials per size at most (12)")
    ap.add_argument("--loss-frames", type=int, default=0, help="frames a pass may lose (0)")
    ap.add_argument("--dut-bw", default="100Mbit", help="default DUT: the pipe's bandwidth")
    ap.add_argument("--dut-queue", type=int, default=100, help="default DUT: its queue")
    ap.add_argument("--json", help="write every trial and the result here")
    ap.add_argument("--quiet", action="store_true", help="the table only")
    a = ap.parse_args()
    try:
        sizes = [int(x) for x in a.sizes.split(",")]
    except ValueError:
        ap.error(f"--sizes {a.sizes!r}: comma-separated integers expected")
    if any(not 64 <= s <= 9618 for s in sizes):
        ap.error("--sizes: each in 64..9618")
    if a.duration <= 0 or a.iterations < 1 or not 0 < a.resolution < 1:
        ap.error("--duration > 0, --iterations >= 1, 0 < --resolution < 1")
    if a.config:
        with open(a.config) as f:
            ini = f.read()
    else:
        ini = DEFAULT_DUT.format(bw=a.dut_bw, queue=a.dut_queue)
    rows = []
    with tempfile.TemporaryDirectory(prefix="rfc2544-") as tmp:
        run = Runner(a, ini, tmp)
        for size in sizes:
            bps, trials = search(run, size, a)
            lim = any(t["generator_limited"] and t["pass"] for t in trials)
            rows.append({"size": size, "throughput_mbps": bps / 1e6, "generator_limited": lim,
                         "throughput_fps": bps / ((size + 20) * 8),
                         "pct_of_max": 100 * bps / a.max_rate, "trials": trials})
    print(f"RFC 2544 throughput (zero loss{'' if a.loss_frames == 0 else f' <= {a.loss_frames}'}"
          f" frames, {a.duration:g} s trials, max {a.max_rate / 1e6:g} Mbit/s L1, DUT "
          f"{a.config or 'router pipe ' + a.dut_bw}):")
    print(f"{'size B':>7} {'Mbit/s (L1)':>12} {'frames/s':>12} {'% of max':>9} {'trials':>7}")
    for r in rows:
        print(f"{r['size']:7d} {r['throughput_mbps']:12.3f} {r['throughput_fps']:12.0f} "
              f"{r['pct_of_max']:9.2f} {len(r['trials']):7d}"
              f"{'  (generator below the offered rate: a lower bound)' if r['generator_limited'] else ''}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"max_rate_mbps": a.max_rate / 1e6, "duration_s": a.duration,
                       "resolution": a.resolution, "loss_frames": a.loss_frames,
                       "dut": a.config or f"router pipe {a.dut_bw} queue {a.dut_queue}",
                       "results": rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
