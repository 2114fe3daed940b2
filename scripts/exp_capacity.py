#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""DFCP at the erasure channel's capacity (issue #35): one pair through
scripts/experiments.py's single-pair set-up (configs/exp-single.ini: one
1 Gbit/s link, plr and one-way delay on the data direction), the goodput
against the bound (1 - p) x the payload rate of the link, medians of N runs.

  scripts/bench-capacity.sh [--quick] [--runs N] [--duration S] [--loss LIST]
      [--delay LIST] [--no-tcp] [--no-dfcp] [--tcp LIST] [--window-rtts F] [--block-size B]
      [--symbol-size T]
      [--rx-mem SIZE] [--out DIR]

One line per point and protocol:
  capacity LOSS_PCT DELAY_MS GOODPUT BOUND EFF           (DFCP, ours)
  capacity-bbr LOSS_PCT DELAY_MS GOODPUT BOUND EFF       (kernel TCP, iperf3 -C bbr)
  capacity-cubic ...
GOODPUT and BOUND in Mbit/s; BOUND = (1 - p) x bw x payload / (frame + 24) with
each protocol's own frame (DFCP: 1420 of 1498 bytes, XR and CRC; TCP: MSS 1448
with timestamps of 1514); EFF = GOODPUT / BOUND. GOODPUT is the steady state:
the least-squares slope of the receiver's cumulative goodput from WARM = max(1 s,
20 one-way delays) after its first data to the sender's end (DFCP: the engine's
--timeseries at 250 ms; TCP: iperf3's receiver intervals), leaving out the start (handshake, the first
window, BBR's startup) and DFCP's last blocks' extra rounds, which a long
transfer amortizes; the same line ends with the whole run's goodput and EFF
(`whole G E`), and the sender's own efficiency_pct (`code`). DFCP's window is the engine's auto
(8 bandwidth-delay products of path_rtt = delay + 20 ms, plus 64 blocks: under the
capacity budget a lossy block takes a few rounds, doc/protocol.md), or --window-rtts.
Every sender enters through experiments.py's access link (1 Gbit/s, 1000 packets)
before the lossy link. Kernel TCP runs at experiments.py's --tcp-scale auto (the kernel path's ceiling;
the line says the scale when it is below 1) and is skipped without namespaces.
"""
import argparse
import csv
import json
import math
import os
import signal
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import experiments as ex  # noqa: E402

FULL_LOSS = [0, 0.1, 1, 5, 10, 20, 30]
FULL_DELAY = [0, 50, 100]
QUICK_LOSS = [0, 1, 10, 30]
QUICK_DELAY = [0, 50]
TCP_PAYLOAD, TCP_FRAME = 1448, 1514
LOCK_WAIT_S = 600
TS_PERIOD_S = 0.25


def warm_s(delay):
    return max(1.0, 20 * delay / 1000.0)


def slope(pts):
    """The least-squares slope of cumulative Mbit over time: the steady rate of a
    delivery that comes in bursts (a lossy block decodes when its last round is in),
    where the mean of the intervals leans on where the window's ends cut a burst."""
    if len(pts) < 3:
        return None
    n = len(pts)
    mt = sum(t for t, _ in pts) / n
    mc = sum(c for _, c in pts) / n
    den = sum((t - mt) ** 2 for t, _ in pts)
    return sum((t - mt) * (c - mc) for t, c in pts) / den if den > 0 else None


def cumulative(rows):
    """(end time, Mbit delivered by then) of (end time, Mbit/s over the period) rows."""
    out, cum, prev = [], 0.0, None
    for t, g, dt in rows:
        cum += g * (dt if dt is not None else t - prev)
        prev = t
        out.append((t, cum))
    return out


def dfcp_steady(ts_path, flow, delay, d):
    """flow's steady goodput over (first data + warm, first + d] of its time series."""
    rows, seen = [], set()
    with open(ts_path) as f:
        for rec in csv.DictReader(f):
            t = float(rec["time_s"])
            if rec.get("flow") == flow and t not in seen:
                seen.add(t)
                rows.append((t, float(rec["goodput_mbps"]), None if rows else TS_PERIOD_S))
    t0 = next((t - TS_PERIOD_S for t, g, _ in rows if g > 0), None)
    if t0 is None:
        return None
    return slope([(t, c) for t, c in cumulative(rows) if t0 + warm_s(delay) <= t <= t0 + d])


def tcp_steady(j, delay):
    """The same of iperf3's receiver intervals from warm on (None without them)."""
    try:
        iv = j["server_output_json"]["intervals"]
    except (KeyError, TypeError):
        return None
    rows = [(x["sum"]["end"], x["sum"]["bits_per_second"] / 1e6, x["sum"]["seconds"])
            for x in iv]
    pts = [(t, c) for (t, c), x in zip(cumulative(rows), iv)
           if x["sum"]["end"] >= warm_s(delay) - 1e-6 and x["sum"]["seconds"] > 0.5]
    return slope(pts)


def lock_wait(fn, log_of):
    """fn(), again while another engine busy-polls our CPU (exit 3), up to LOCK_WAIT_S."""
    t_end = time.time() + LOCK_WAIT_S
    while True:
        try:
            return fn()
        except RuntimeError:
            try:
                log = open(log_of()).read()
            except OSError:
                log = ""
            if "busy-polled by another" not in log or time.time() > t_end:
                raise
            time.sleep(5)


def bound(bw_mbit, plr, payload, frame):
    return (1 - plr / 100.0) * bw_mbit * payload / (frame + ex.L1_OVERHEAD)


class Capacity(ex.Runner):
    def dfcp_point(self, plr, delay, d, rep):
        link = self.link(1000)
        ini = ex.Ini(open(os.path.join(ex.SRC, "configs/exp-single.ini")).read())
        ini.set("pipe link", "bw", ex.mbit(link))
        ini.set("pipe link", "delay", f"{delay}ms")
        ini.set("pipe link", "plr", f"{plr}%")
        self.add_access(ini, ["10.0.0.1"])
        self.dfcp_flow(ini, "flow f1", "dfcp-ours", link, delay + 20, d)
        if self.a.window_rtts:
            bdp = link * 1e6 / 8 * (delay + 20) / 1000 / ex.BLOCK_BYTES
            ini.set("flow f1", "window", int(math.ceil(self.a.window_rtts * bdp)) + 64)
        self.dfcp_receivers(ini, "dfcp-ours")
        if self.a.block_size:
            for fl in ("flow f1", "flow r1"):
                ini.set(fl, "block_size", self.a.block_size)
                ini.set(fl, "path_rate", ex.mbit(link))
                ini.set(fl, "path_rtt", f"{int(delay + 20)}ms")
        if self.a.symbol_size:
            for fl in ("flow f1", "flow r1"):
                ini.set(fl, "symbol_size", str(self.a.symbol_size))
        if self.a.rx_mem:
            ini.set("task d1", "mem_budget", self.a.rx_mem)
        ini.set("engine", "duration", f"{d + 10 + delay / 100}s")
        ini.set("engine", "stats_period", f"{int(TS_PERIOD_S * 1000)}ms")
        tag = f"cap-{plr}-{delay}-dfcp-{rep}"
        ts = os.path.join(self.runs, tag + ".csv")
        js = lock_wait(lambda: self.run_engine(tag, ini, d + 40, ("--timeseries", ts)),
                       lambda: os.path.join(self.runs, tag + ".log"))
        r = self.dfcp_rx(js, "r1")
        f = self.flow(js, "f1") or {}
        rx = self.flow(js, "r1") or {}
        return r["goodput_mbps"], {"steady": dfcp_steady(ts, "r1", delay, d),
                                   "eff_pct": f.get("efficiency_pct"),
                                   "syms_per_block": f.get("symbols_per_block"),
                                   "topups": f.get("topups"),
                                   "stale": rx.get("stale_symbols"),
                                   "bad_bytes": rx.get("bad_bytes"),
                                   "blocks": f.get("blocks_acked")}

    def tcp_point(self, cc, plr, delay, d, rep):
        link = self.link(1000)
        ini = ex.Ini(open(os.path.join(ex.SRC, "configs/exp-single.ini")).read())
        ini.set("pipe link", "bw", ex.mbit(link))
        ini.set("pipe link", "delay", f"{delay}ms")
        ini.set("pipe link", "plr", f"{plr}%")
        self.add_access(ini, ["10.0.0.1"])
        self.net.hosts(["10.0.0.1"], ["10.0.1.1"])
        self.to_tcp(ini)
        tag = f"cap-{plr}-{delay}-{cc}-{rep}"
        _, good = lock_wait(lambda: self.run_tcp(tag, ini, [(cc, "10.0.0.1", "10.0.1.1", 5201)],
                                                 d),
                            lambda: os.path.join(self.runs, tag + ".log"))
        return good[0], {"steady": tcp_steady(self.tcp_json.get(0), delay)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__)
    ap.add_argument("--quick", action="store_true",
                    help="fewer points (loss 0/1/10/30 %%, 0/50 ms), one run, 4 s")
    ap.add_argument("--runs", type=int, default=None, help="runs per point (default 3)")
    ap.add_argument("--duration", type=float, default=None, help="seconds per run (10)")
    ap.add_argument("--loss", help="comma-separated loss %% list")
    ap.add_argument("--delay", help="comma-separated one-way delay ms list")
    ap.add_argument("--no-tcp", action="store_true")
    ap.add_argument("--no-dfcp", action="store_true", help="kernel TCP only")
    ap.add_argument("--tcp", default="bbr,cubic", help="kernel congestion controls")
    ap.add_argument("--window-rtts", type=float, default=0,
                    help="the sender's window in bandwidth-delay products of path_rtt "
                         "(+ 64 blocks); default 0: window = auto (8 of them)")
    ap.add_argument("--block-size", default=None, help="both ends' block_size (e.g. auto)")
    ap.add_argument("--symbol-size", type=int, default=None,
                    help="both ends' symbol_size T (1420; 1440 fills a 1500-byte MTU)")
    ap.add_argument("--rx-mem", default="640MiB",
                    help="the receiver task's mem_budget (default 640MiB: a lossy block "
                         "holds a decoder for its rounds)")
    ap.add_argument("--queue", type=int, default=None)
    ap.add_argument("--out", default="/tmp/bench-capacity")
    ap.add_argument("--engine", default=None)
    a = ap.parse_args()
    runs = a.runs or (1 if a.quick else 3)
    d = a.duration or (4 if a.quick else 10)
    d = int(d) if float(d).is_integer() else d
    loss = [float(x) for x in a.loss.split(",")] if a.loss else (
        QUICK_LOSS if a.quick else FULL_LOSS)
    delay = [int(x) for x in a.delay.split(",")] if a.delay else (
        QUICK_DELAY if a.quick else FULL_DELAY)
    loss = [int(x) if float(x).is_integer() else x for x in loss]
    if a.engine is None:
        a.engine = os.path.join(ex.SRC, "build", "app/dfcp-engine/dfcp-engine")
    if not os.access(a.engine, os.X_OK):
        print("no engine binary: build first (make build)")
        return 2
    os.makedirs(a.out, exist_ok=True)
    a.scale, a.tcp_scale, a.duration, a.tcp_duration = 1.0, "auto", d, int(math.ceil(d))
    # the access link of every sender (experiments.py): TCP enters the lossy link at
    # 1 Gbit/s as DFCP's pacer does, not at veth speed
    a.access_queue = 1000
    r = Capacity(a)
    signal.signal(signal.SIGTERM, ex.on_signal)
    signal.signal(signal.SIGINT, ex.on_signal)
    ccs = [] if a.no_tcp else [c for c in a.tcp.split(",") if c]
    rows = []
    print(f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load "
          f"{os.getloadavg()[0]:.2f}, {runs} run(s) of {d} s per point", flush=True)
    try:
        if ccs and r.need_net():
            plan = [("loss", 0, cc, True) for cc in ccs]
            lock_wait(lambda: r.pick_tcp_scale(plan),
                      lambda: os.path.join(r.runs, "ceiling-0.log"))
            if r.tcp_scale is None:
                ccs = []
        elif ccs:
            ccs = []
        for dl in delay:
            for p in loss:
                for proto in ([] if a.no_dfcp else ["dfcp"]) + ccs:
                    vals, extra = [], []
                    for rep in range(runs):
                        r.cur_scale = 1.0 if proto == "dfcp" else r.tcp_scale
                        try:
                            if proto == "dfcp":
                                g, x = r.dfcp_point(p, dl, d, rep)
                            else:
                                g, x = r.tcp_point(proto, p, dl, d, rep)
                        except RuntimeError as e:
                            print(f"# {proto} {p} % {dl} ms: {e}", flush=True)
                            continue
                        vals.append(g)
                        extra.append(x)
                    if not vals:
                        continue
                    link = 1000 * r.cur_scale
                    t = a.symbol_size or ex.DFCP_T
                    b = (bound(link, p, t, t + 78) if proto == "dfcp"
                         else bound(link, p, TCP_PAYLOAD, TCP_FRAME))
                    whole = statistics.median(vals)
                    st = [x["steady"] for x in extra if x.get("steady") is not None]
                    g = statistics.median(st) if st else whole
                    name = "capacity" if proto == "dfcp" else f"capacity-{proto}"
                    sc = "" if r.cur_scale == 1.0 else f"  # scale {r.cur_scale}"
                    spread = f" [{min(st) / b:.3f}-{max(st) / b:.3f}]" if len(st) > 1 else ""
                    code = [x["eff_pct"] for x in extra if x.get("eff_pct") is not None]
                    code = f" code {statistics.median(code):.2f}%" if code else ""
                    print(f"{name} {p} {dl} {g:.1f} {b:.1f} {g / b:.3f}{spread}  whole "
                          f"{whole:.1f} {whole / b:.3f}{code}{sc}", flush=True)
                    rows.append({"proto": proto, "loss_pct": p, "delay_ms": dl, "goodput": g,
                                 "bound": b, "eff": g / b, "whole": whole, "runs": vals,
                                 "steady": st, "detail": extra, "scale": r.cur_scale,
                                 "load": os.getloadavg()[0]})
    except ex.Stop as e:
        print(f"# interrupted ({e})", flush=True)
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        r.cleanup()
        with open(os.path.join(a.out, "capacity.json"), "w") as f:
            json.dump({"rows": rows, "command": " ".join(sys.argv)}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
