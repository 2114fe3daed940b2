#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""RFC 2544 section 26.1 throughput: per frame size, the highest rate at which the
device under test forwards every frame (the NDR), found by a binary search on the offered
rate; optionally the PDR, the highest rate within a partial loss (TRex's ndr search).

One engine process runs every trial, driven through its console (started with -i,
commands over telemetry with scripts/dfcp_ctl.py): per trial `set pkt_size`, `set rate`
(L1: frame + 20 bytes of preamble and gap, as txonly's rate and NIC line rates count),
`clear stats`, `start`, the trial's time, `stop`, the DUT drained (the receiver's count
steady), `show tasks`: a txonly task offers the frames, an rxonly task counts what came
through. A trial passes the NDR when lost <= max(--loss-frames, --ndr-loss x sent), the
PDR when lost <= --pdr-loss x sent; with --max-latency-us both also need the trial's mean
one-way latency (rxonly's) within it. A search keeps [lo, hi] with lo passed and hi
failed, starts at --max-rate (a pass ends it) and halves until hi - lo <= --resolution x
max-rate or --iterations trials; the PDR search starts from what the NDR trials showed.

The DUT: --config FILE, a config with a txonly and an rxonly task (--tx-task, --rx-task;
txonly with one frame size: not an IMIX or streams) and whatever is between them (a router
pipe, a sched task, a NIC loop...); the txonly task's rate and count are replaced (it starts
almost idle and is stopped at once). Without --config: the engine's own router with one pipe
of --dut-bw, --dut-queue packets, on net_ring (no NIC; the self-check: the throughput found
is the pipe's bandwidth).

Output: a table (size, NDR Mbit/s L1 and frames/s, % of max-rate, PDR, trials) on stdout,
every trial (with the engine's PID) and the result in --json FILE. Exit 0, 1 on a usage
error, 2 when the engine failed or refused a command.

  scripts/rfc2544.py --engine build/dfcp-engine --sizes 64,512,1518 --max-rate 1Gbit
  scripts/rfc2544.py --engine build/dfcp-engine --config my-dut.ini --max-rate 10Gbit \\
      --duration 10 --pdr-loss 0.001 --json rfc2544.json
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dfcp_ctl import Engine, EngineError  # noqa: E402

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
    """The engine process of every trial, driven through its console."""

    def __init__(self, a, ini, tmp):
        self.a, self.n, self.tmp = a, 0, tmp
        path = os.path.join(tmp, "dut.ini")
        # txonly starts all but idle (1 frame in 10 s at most) and is stopped at once
        with open(path, "w") as f:
            f.write(task_rewrite(ini, a.tx_task, {"rate": "1kbit", "count": 0}))
        self.log = open(os.path.join(tmp, "engine.log"), "w+")
        self.json = os.path.join(tmp, "summary.json")
        # a bound on the run in case this script dies without its quit
        limit = 120 + len(a.sizes_list) * 2 * a.iterations * (a.duration + 5)
        self.cmd = [a.engine, "--", "--config", path, "--duration", f"{limit:.0f}",
                    "--stats-period", "0", "--live", "off", "--summary-json", self.json, "-i"]
        self.p = subprocess.Popen(self.cmd, stdin=subprocess.PIPE, stdout=self.log,
                                  stderr=subprocess.STDOUT, text=True)
        self.pid = self.p.pid
        self.ctl = Engine.wait(self.socket_path(), 30)
        self.check(f"stop {a.tx_task}")

    def socket_path(self):
        """The telemetry socket the engine names at start."""
        deadline = time.time() + 30
        while time.time() < deadline:
            self.log.seek(0)
            m = re.search(r"telemetry: (\S+)", self.log.read())
            if m:
                return m.group(1)
            if self.p.poll() is not None:
                break
            time.sleep(0.05)
        self.fail("the engine did not start")

    def fail(self, why):
        self.log.seek(0)
        sys.stderr.write(self.log.read()[-3000:])
        print(f"rfc2544: {why}: {' '.join(self.cmd)}", file=sys.stderr)
        self.close()
        sys.exit(2)

    def check(self, line):
        try:
            return self.ctl.check(line)
        except EngineError as e:
            self.fail(f"the engine refused \"{line}\" ({e})")

    def tasks(self):
        out = self.check("show tasks")
        t = {x["name"]: x for x in out["tasks"]}
        if self.a.tx_task not in t or self.a.rx_task not in t:
            self.fail(f"tasks {self.a.tx_task}/{self.a.rx_task} not in the engine")
        return t

    def settle(self):
        """Wait until the receiver's count is steady for 0.1 s: the DUT has drained."""
        last, steady, deadline = None, 0, time.time() + 5
        while steady < 2 and time.time() < deadline:
            n = self.tasks()[self.a.rx_task]["rx_packets"]
            steady = steady + 1 if n == last else 0
            last = n
            time.sleep(0.05)

    def trial(self, size, rate_bps):
        """One trial at rate_bps (L1) with size-byte frames: its record."""
        a, tx = self.a, self.a.tx_task
        self.n += 1
        fps = rate_bps / ((size + 20) * 8)
        self.check(f"set pkt_size {tx} {size}")
        self.check(f"set rate {tx} {max(int(round(rate_bps)), 2)}")
        self.settle()
        self.check("clear stats")
        t0 = time.monotonic()
        self.check(f"start {tx}")
        time.sleep(a.duration)
        self.check(f"stop {tx}")
        secs = time.monotonic() - t0
        self.settle()
        t = self.tasks()
        sent, recv = t[tx]["tx_packets"], t[a.rx_task]["rx_valid"]
        lost = max(sent - recv, 0)
        lat = t[a.rx_task]["lat_avg_ns"] if t[a.rx_task]["lat_samples"] else None
        r = {"size": size, "offered_mbps": rate_bps / 1e6, "offered_fps": fps,
             "sent": sent, "received": recv, "lost": lost,
             "loss": lost / sent if sent else 0.0, "latency_avg_ns": lat,
             "sent_fps": sent / secs if secs else 0.0, "duration_s": secs,
             "engine_pid": self.pid}
        lat_ok = a.max_latency_us is None or (lat is not None and lat <= a.max_latency_us * 1e3)
        r["pass"] = sent > 0 and lost <= max(a.loss_frames, a.ndr_loss * sent) and lat_ok
        r["pdr_pass"] = sent > 0 and lost <= a.pdr_loss * sent and lat_ok \
            if a.pdr_loss is not None else None
        # a generator that cannot offer the rate makes the DUT look better than it is
        r["generator_limited"] = r["sent_fps"] < 0.97 * fps
        if not a.quiet:
            print(f"  {size:5d} B  {rate_bps / 1e6:10.3f} Mbit/s  sent {sent:9d} "
                  f"received {recv:9d}  {'pass' if r['pass'] else 'LOSS'}"
                  f"{'' if lat is None else f'  latency {lat / 1e3:.1f} us'}", flush=True)
        return r

    def close(self):
        """quit on the console (drain, summary), then make sure the engine is gone."""
        if self.p.poll() is None:
            try:
                self.p.stdin.write("quit\n")
                self.p.stdin.close()
                self.p.wait(timeout=30)
            except (OSError, subprocess.TimeoutExpired):
                self.p.kill()
                self.p.wait()
        self.log.close()


def search(run, size, a, ok, trials):
    """Binary search of one size for the highest rate whose trial passes ok(), starting
    from the trials already run at that size: (rate bit/s or 0, trials run here)."""
    lo, hi, n = 0.0, None, 0
    for r in trials:
        rate = r["offered_mbps"] * 1e6
        if ok(r):
            lo = max(lo, rate)
        elif hi is None or rate < hi:
            hi = rate
    if lo >= a.max_rate:
        return a.max_rate, 0
    if hi is None:
        r = run.trial(size, a.max_rate)
        trials.append(r)
        n += 1
        if ok(r):
            return a.max_rate, n
        hi = a.max_rate
    while n < a.iterations and hi - lo > a.resolution * a.max_rate:
        mid = (lo + hi) / 2
        r = run.trial(size, mid)
        trials.append(r)
        n += 1
        if ok(r):
            lo = mid
        else:
            hi = mid
    return lo, n


def carried(trials, bps, size):
    """The throughput at the found rate: what was carried when the generator could not
    offer that rate (a passing trial below its offer), else the rate itself."""
    best = max((t for t in trials if t["pass"] and t["offered_mbps"] * 1e6 <= bps * 1.000001),
               key=lambda t: t["offered_mbps"], default=None)
    if best is None or not best["generator_limited"] or not best["duration_s"]:
        return bps
    return min(bps, best["received"] / best["duration_s"] * (size + 20) * 8)


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
    ap.add_argument("--iterations", type=int, default=12, help="trials per search at most (12)")
    ap.add_argument("--loss-frames", type=int, default=0, help="frames an NDR pass may lose (0)")
    ap.add_argument("--ndr-loss", type=float, default=0.0,
                    help="share of the frames an NDR pass may lose, 0..1 (0)")
    ap.add_argument("--pdr-loss", type=float,
                    help="search the PDR too: the share of frames it may lose, 0..1 "
                         "(e.g. 0.001)")
    ap.add_argument("--max-latency-us", type=float,
                    help="a pass also needs the trial's mean one-way latency within this")
    ap.add_argument("--dut-bw", default="100Mbit", help="default DUT: the pipe's bandwidth")
    ap.add_argument("--dut-queue", type=int, default=100, help="default DUT: its queue")
    ap.add_argument("--json", help="write every trial and the result here")
    ap.add_argument("--quiet", action="store_true", help="the table only")
    a = ap.parse_args()
    try:
        a.sizes_list = [int(x) for x in a.sizes.split(",")]
    except ValueError:
        ap.error(f"--sizes {a.sizes!r}: comma-separated integers expected")
    if any(not 64 <= s <= 9618 for s in a.sizes_list):
        ap.error("--sizes: each in 64..9618")
    if a.duration <= 0 or a.iterations < 1 or not 0 < a.resolution < 1:
        ap.error("--duration > 0, --iterations >= 1, 0 < --resolution < 1")
    if not 0 <= a.ndr_loss < 1 or (a.pdr_loss is not None and not 0 <= a.pdr_loss < 1):
        ap.error("--ndr-loss and --pdr-loss: fractions in [0, 1)")
    if a.config:
        with open(a.config) as f:
            ini = f.read()
    else:
        ini = DEFAULT_DUT.format(bw=a.dut_bw, queue=a.dut_queue)
    rows = []
    with tempfile.TemporaryDirectory(prefix="rfc2544-") as tmp:
        run = Runner(a, ini, tmp)
        try:
            for size in a.sizes_list:
                trials = []
                bps, _ = search(run, size, a, lambda r: r["pass"], trials)
                bps = carried(trials, bps, size)
                row = {"size": size, "throughput_mbps": bps / 1e6, "ndr_mbps": bps / 1e6,
                       "throughput_fps": bps / ((size + 20) * 8),
                       "pct_of_max": 100 * bps / a.max_rate}
                if a.pdr_loss is not None:
                    pdr, _ = search(run, size, a, lambda r: r["pdr_pass"], trials)
                    row["pdr_mbps"] = max(carried(trials, pdr, size), bps) / 1e6
                row["generator_limited"] = any(t["generator_limited"] and t["pass"]
                                               for t in trials)
                row["trials"] = trials
                rows.append(row)
        finally:
            run.close()
    crit = f"loss <= {a.loss_frames} frames" if a.ndr_loss == 0 else \
        f"loss <= max({a.loss_frames} frames, {a.ndr_loss:g} of them)"
    if a.loss_frames == 0 and a.ndr_loss == 0:
        crit = "zero loss"
    print(f"RFC 2544 throughput (NDR: {crit}"
          f"{'' if a.pdr_loss is None else f'; PDR: loss <= {a.pdr_loss:g}'}"
          f"{'' if a.max_latency_us is None else f'; mean latency <= {a.max_latency_us:g} us'}, "
          f"{a.duration:g} s trials, max {a.max_rate / 1e6:g} Mbit/s L1, DUT "
          f"{a.config or 'router pipe ' + a.dut_bw}; one engine, PID {run.pid}):")
    pdr_head = "" if a.pdr_loss is None else f" {'PDR Mbit/s':>12}"
    print(f"{'size B':>7} {'Mbit/s (L1)':>12} {'frames/s':>12} {'% of max':>9}{pdr_head}"
          f" {'trials':>7}")
    for r in rows:
        pdr = "" if a.pdr_loss is None else f" {r['pdr_mbps']:12.3f}"
        print(f"{r['size']:7d} {r['throughput_mbps']:12.3f} {r['throughput_fps']:12.0f} "
              f"{r['pct_of_max']:9.2f}{pdr} {len(r['trials']):7d}"
              f"{'  (carried: the generator could not offer more)' if r['generator_limited'] else ''}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"max_rate_mbps": a.max_rate / 1e6, "duration_s": a.duration,
                       "resolution": a.resolution, "loss_frames": a.loss_frames,
                       "ndr_loss": a.ndr_loss, "pdr_loss": a.pdr_loss,
                       "max_latency_us": a.max_latency_us, "engine_pid": run.pid,
                       "dut": a.config or f"router pipe {a.dut_bw} queue {a.dut_queue}",
                       "results": rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
