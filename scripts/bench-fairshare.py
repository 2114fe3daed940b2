#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Time to the fair share in the engine (issue #18; a benchmark, not a test).

Runs the default dumbbell (configs/default.ini: two DFCP senders at 1 Gbit/s
into a 1 Gbit/s WF2Q+ bottleneck, 50/50, path delays 10 / 50 ms) with short
transfers and a 100 ms stats period, reads the --timeseries CSV and prints,
per flow, the time from its first DATA to the first of three 100 ms bins in a
row within 10 % of the share, for the sender's acked goodput and for the
receiver's delivered goodput, in ms and in RTTs of the longest path.

The first DATA lies inside the first bin where the sender's throughput is
non-zero; it is placed at that bin's end less the part of the bin the
sender's peak rate would need for what it sent there.

  flock /tmp/dfcp-heavy.lock scripts/bench-fairshare.py --runs 5
"""
import argparse
import csv
import os
import re
import subprocess
import sys
import tempfile

PAIRS = (("f1", "r1"), ("f2", "r2"))


def make_config(src, seconds, out):
    text = open(src).read()
    # the senders' transfers (the [flow] duration keys), not the engine's run limit
    text = re.sub(r"(?m)^duration = 10s$", f"duration = {seconds}s", text)
    open(out, "w").write(text)


def read_series(path):
    rows = {}
    with open(path) as f:
        for r in csv.DictReader(f):
            rows.setdefault(r["flow"], []).append(
                (float(r["time_s"]), float(r["goodput_mbps"] or 0),
                 float(r["throughput_mbps"] or 0)))
    return rows


def first_data(sender, period):
    peak = max(thr for _, _, thr in sender) or 1.0
    for t, _, thr in sender:
        if thr > 0:
            return t - period * min(1.0, thr / peak)
    return None


def time_to_share(series, t0, share, tol, inrow):
    """End of the bin before the first `inrow` bins in a row within tol of share."""
    good = [abs(gp - share) <= tol * share for _, gp, _ in series]
    for i in range(len(series) - inrow + 1):
        if series[i][0] <= t0:
            continue
        if all(good[i:i + inrow]):
            start = series[i - 1][0] if i > 0 else 0.0
            return max(0.0, start - t0)
    return None


def one_run(args, cfg, tmp, n):
    ts = os.path.join(tmp, f"run{n}.csv")
    cmd = [args.engine, "--", "--config", cfg, "--stats-period", "100ms",
           "--timeseries", ts, "--live", "off"]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        sys.stdout.write(p.stdout[-3000:])
        print(f"run {n}: engine exit {p.returncode}")
        return None
    rows = read_series(ts)
    res = {}
    for snd, rcv in PAIRS:
        t0 = first_data(rows[snd], args.period)
        res[snd] = (t0,
                    time_to_share(rows[snd], t0, args.share, 0.10, 3),
                    time_to_share(rows[rcv], t0, args.share, 0.10, 3))
        if args.bins:
            print(f"  {snd} acked bins:", " ".join(f"{gp:.0f}" for _, gp, _ in rows[snd][:15]))
            print(f"  {rcv} deliv bins:", " ".join(f"{gp:.0f}" for _, gp, _ in rows[rcv][:15]))
    gp = re.findall(r"goodput\D*([0-9.]+) Mbit/s", p.stdout)
    return res, gp


def fmt(v, rtt):
    return "   -   " if v is None else f"{v * 1000:4.0f} ms {v / rtt:4.1f} RTT"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--seconds", type=int, default=3, help="each transfer's length")
    ap.add_argument("--config", default="configs/default.ini")
    ap.add_argument("--engine", default=os.environ.get("ENGINE",
                                                       "build/app/dfcp-engine/dfcp-engine"))
    ap.add_argument("--share", type=float, default=467.7,
                    help="Mbit/s of payload in 500 Mbit/s of 1518-byte frames")
    ap.add_argument("--rtt-ms", type=float, default=74.0,
                    help="the longest path's RTT with the bottleneck queue")
    ap.add_argument("--bins", action="store_true", help="print the first 15 bins")
    args = ap.parse_args()
    args.period = 0.1
    rtt = args.rtt_ms / 1000
    worst = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        cfg = os.path.join(tmp, "fairshare.ini")
        make_config(args.config, args.seconds, cfg)
        print(f"load {os.getloadavg()[0]:.2f}; share {args.share} Mbit/s, RTT {args.rtt_ms} ms")
        for n in range(args.runs):
            out = one_run(args, cfg, tmp, n)
            if out is None:
                worst = float("inf")
                continue
            res, gp = out
            for snd, (t0, ta, tr) in res.items():
                print(f"run {n} {snd}: first DATA {t0 * 1000:5.0f} ms; acked {fmt(ta, rtt)};"
                      f" delivered {fmt(tr, rtt)}")
                for v in (ta, tr):
                    worst = max(worst, float("inf") if v is None else v)
            print(f"run {n} goodput: {' / '.join(gp)} Mbit/s; load {os.getloadavg()[0]:.2f}")
    print(f"worst: {worst * 1000:.0f} ms = {worst / rtt:.1f} RTTs")
    return 0 if worst <= 10 * rtt else 1


if __name__ == "__main__":
    sys.exit(main())
