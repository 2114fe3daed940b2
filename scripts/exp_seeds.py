#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The TCP experiments of seeds 001-003 on the engine's emulated links (issue #7),
with DFCP and the host kernel's congestion controls on the same links.

  scripts/exp_seeds.py [--scenario seed003|seed001|seed002|kernel-vs-ours|all]
      [--quick] [--full] [--ci] [--duration S] [--out DIR] [--engine PATH] [--no-kernel]
      [--no-dfcp] [--no-plots] [--check] [--tables]

Scenarios (configs/exp-tcp-*.ini are the templates):
  seed003  dumbbell 10 Mbit/s 1 ms -> 1 Mbit/s 4 ms (DropTail) -> 10 Mbit/s 1 ms, NS2
           settings (1000-byte packets, no delayed ACK, initial window 1): Tahoe, Reno,
           NewReno, SACK, Vegas cwnd traces and average throughput at a 50-packet and a
           15-packet queue (10 s); two flows with different RTTs (FTP1 +100 ms one-way;
           40 s with --duration 40, else shorter); RTO timer tick: both flows 0.5 s, and
           FTP0 0.5 s / FTP1 0.1 s in one run (two flows of one task, each its own tick)
  seed001  10 Mbit/s 25 ms access -> 2 Mbit/s bottleneck, uniform packet error, MTU 400
           (mss 360), delayed ACK 2 / 200 ms: Reno, NewReno, Tahoe, Westwood, TCPW-C
           throughput vs error rate (--full: also vs bottleneck delay 0.1-25 ms and rate
           1-4 Mbit/s at 0.5 % error); fairness (2 TCPW-C flows) on 2 Mbit/s 25 ms 0.8 %;
           friendliness: our TCPW-C next to our Reno (two flows of one task), and
           our TCPW-C (or Reno) next to the kernel's Reno (namespaces)
  seed002  3-6 CUBIC flows, 20 Mbit/s bottleneck (300 packets), 100 ms added delay:
           aggregate throughput and Jain's index with cap_policy off / old / coordinated
  kernel-vs-ours  our reno/cubic (with Linux's loss recovery: SACK + RACK-TLP + PRR) and bbr
           (paced by lib/tcp) vs the kernel's (--cc: a subset) on the thesis scenarios 1
           (loss 1, 5 %) and 2 (delay 10, 50 ms) of
           scripts/experiments.py: goodput within +-20 % at every point (6 s runs; at
           5 % loss, where the kernel's figure is bimodal, the medians of 3 runs each;
           a point outside +-20 % gets 2 more runs of each side, up to 7)
DFCP (one flow pair, redundancy auto) runs on the same links as an extra line; the
kernel's congestion controls (/proc/sys/net/ipv4/tcp_available_congestion_control)
run through the same router with iperf3 in network namespaces (experiments.py's
NetEnv / Runner.run_tcp), skipped without root.

Results: OUT/seeds.csv, OUT/seeds.json (rows + checks), OUT/plots/*.png|svg,
OUT/runs/ (configs, summaries, cwnd traces, logs). Default OUT: results/seeds.
"""
import argparse
import csv
import json
import os
import re
import signal
import subprocess
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import experiments as ex  # noqa: E402  (config editing, namespaces, engine runs, gnuplot)

SRC = ex.SRC
S003_CC = ["tahoe", "reno", "newreno", "sack", "vegas"]
S001_CC = ["reno", "newreno", "tahoe", "westwood", "tcpw-c"]
S001_PER = [0.0001, 0.001, 0.005, 0.01, 0.05, 0.1]
S001_DELAY = [0.1, 1, 5, 10, 25]
S001_BW = [1, 2, 3, 4]
S002_N = [3, 4, 5, 6]
CAP = ["off", "old", "coordinated"]
# seed 003, two RTTs: FTP1's extra one-way delay (ms). The seed's figure 2 gives no delays;
# against the 50-packet FIFO (400 ms at 1 Mbit/s) +20 ms was a ~15 % RTT difference under
# load, and which flow won depended on where the timeouts fell (doc/results-tcp.md)
S003_RTT_EXTRA = 100
# seed 003, RTO: (FTP0, FTP1) tick in ms: the seed's case 1 and case 2
S003_TICKS = [(500, 500), (500, 100)]
# checks printed and stored but not enforced by --check (doc/results-tcp.md, "Checks"):
# the RTO-tick and friendliness shapes run in the full run only, a run each, unmeasured
# spread
REPORT_ONLY = ("seed003 RTO", "seed001 friendliness", "seed003 two RTTs (tahoe)",
               "seed003 two RTTs (vegas)")
KVO_POINTS = [("loss", 1), ("loss", 5), ("delay", 10), ("delay", 50)]
# --ci (the CI suite): every module at 5 % loss, where the two stacks differ most and vary
# most, Reno and BBR at 50 ms delay; the loss 1 % and delay 10 ms points, where every run
# gave x0.99-1.03 for all three (doc/results-tcp.md, "Kernel vs ours"; doc/tcp.md, "bbr"),
# run in the full scenario only (make test's time)
KVO_CI = {("loss", 1): (), ("delay", 10): (), ("delay", 50): ("reno", "bbr")}
# kernel vs ours: runs per point. At 5 % loss the kernel's goodput is bimodal between
# identical runs (reno 14-33, cubic 14-21 Mbit/s here: at a sub-millisecond RTT its window
# of 2-5 segments depends on the host's scheduling latency, which drifts between ~0.5 and
# ~1.7 ms), and ours (CUBIC: 14.5-18.6) varies with the timing of its busy-polling lcore:
# the point compares the median of 3 runs of each (doc/results-tcp.md, "Kernel vs ours"),
# of 5 for CUBIC, whose ratio spread widest (x0.84-1.27 over single runs; a CI run of
# 2026-12-02 failed at x1.26 on a kernel median of 14.01 from 18.74 / 13.67 / 14.01)
KVO_RUNS = {("loss", 5): 3, ("loss", 5, "cubic"): 5}
# --ci: BBR's figure at 5 % is not bimodal (kernel 33.6-45.3, ours 37.0-41.5 Mbit/s over 9
# runs each, 2026-12-06): one run each keeps the suite's time (doc/tcp.md, "bbr")
KVO_CI_RUNS = {("loss", 5, "bbr"): 1}
# a point outside the tolerance after its runs gets KVO_MORE more runs of each side, up to
# KVO_MAX_RUNS, and is judged on the medians of all: single runs of the kernel's Reno at 5 %
# loss span 21.1-34.3 Mbit/s against ours' 23.9-25.9, so a median of 3 can land at x0.79
# (a kernel median of 31.58 from 32.79 / 31.58 / 26.33) while more runs give x0.85-0.94
KVO_MORE = 2
KVO_MAX_RUNS = 7
KVO_DURATION = 6	# s per run: the CI suite in ~3 min (8 s: the same ratios within their spread)
KVO_TOL = 0.2		# ours within +-20 % of the kernel at every point


def kernel_ccs():
    try:
        with open("/proc/sys/net/ipv4/tcp_available_congestion_control") as f:
            return f.read().split()
    except OSError:
        return []


def load(name):
    with open(os.path.join(SRC, "configs", name)) as f:
        return ex.Ini(f.read())


def conns(ini, side, keys):
    """Keys of the connections of task `side` (tx or rx), the flow group [flow SIDE]:
    count = their number; a list gives connection i element i (the last one repeats),
    and then each connection becomes its own [flow SIDE.i] (local port + i x the
    group's local_port_step), named as the group's flows are."""
    g = f"flow {side}"
    lists = {k: v for k, v in keys.items() if isinstance(v, (list, tuple))}
    for k, v in keys.items():
        if k not in lists:
            ini.set(g, k, v)
    if not lists:
        return
    base = ini.keys(g)
    n = int(base.pop("count", 1))
    step = int(base.pop("local_port_step", 1))
    for k in ("remote_port_step", "local_ip_step", "remote_ip_step", "seed_step"):
        base.pop(k, None)
    ip, port = base["local"].rsplit(":", 1)
    for i in range(n):
        own = dict(base, local=f"{ip}:{int(port) + i * step}")
        own.update({k: v[min(i, len(v) - 1)] for k, v in lists.items()})
        ini.add(f"{g}.{i}", own)
    ini.drop(g)
    ini.set(f"task {side}", "flows", ", ".join(f"{side}.{i}" for i in range(n)))


class Seeds:
    def __init__(self, a):
        self.a = a
        # the Runner's options (experiments.py); queue None: our templates set their queues
        ns = argparse.Namespace(engine=a.engine, out=a.out, scale=a.scale, queue=None,
                                duration=a.duration, tcp_duration=a.duration)
        self.r = ex.Runner(ns)  # run_engine, run_tcp, need_net, single, cleanup, log
        self.rows = []
        self.kcc = [] if a.no_kernel else kernel_ccs()
        self.t0 = time.time()

    def log(self, msg):
        self.r.log(msg)

    def row(self, **kw):
        self.rows.append(kw)
        g = kw.get("goodput_mbps")
        self.log(f"  {kw['scenario']} x={kw.get('x')} {kw['variant']} {kw.get('flow', '')}: "
                 f"{'-' if g is None else f'{g:.3f}'} Mbit/s"
                 + (f" jain {kw['jain']:.3f}" if kw.get("jain") is not None else ""))
        return kw

    # ---------------------------------------------------------- engine runs
    def ours(self, tag, ini, dur, tx=None, rx=None, task=None, trace=True):
        """Run the template's tcp tasks (ring ports): tx / rx: keys of their connections
        (conns()), task: keys of [task tx]. Returns (summary, [sender conns], trace)."""
        conns(ini, "tx", dict({"duration": f"{dur}s"}, **(tx or {})))
        conns(ini, "rx", rx or {})
        for k, v in (task or {}).items():
            ini.set("task tx", k, v)
        tr = os.path.join(self.r.runs, tag + ".cwnd") if trace else None
        ini.set("task tx", "cwnd_trace", tr)
        ini.set("engine", "duration", f"{dur + 15}s")
        js = self.r.run_engine(tag, ini, dur + 60)
        snd = [c for c in js.get("tcp", []) if c["role"] == "sender"]
        for c in snd:
            # average throughput: bytes acked from ESTABLISHED to the last ACK (the
            # source stops at `dur`, what is buffered then is still delivered)
            c["avg_mbps"] = c["goodput_mbps"]
        return js, snd, tr

    def tcp_fields(self, c):
        return dict(goodput_mbps=c["avg_mbps"], engine_goodput_mbps=c["goodput_mbps"],
                    retrans=c["retrans_pkts"], timeouts=c["timeouts"],
                    recoveries=c["fast_retrans"], rtt_min_ms=c["rtt_min_us"] / 1000,
                    rtt_avg_ms=c["rtt_avg_us"] / 1000, bw_est_mbps=c.get("bw_est_bps", 0) / 1e6)

    def dfcp(self, tag, ini, dur, rate_mbit, rtt_ms, symbol=None):
        """The same links with one DFCP flow pair instead of the tcp tasks."""
        for s in ("task tx", "task rx", "flow tx", "flow rx"):
            ini.drop(s)
        f1 = {"role": "sender", "local": "10.0.0.1:5001", "remote": "10.0.1.1:6001",
              "remote_mac": "02:00:00:00:00:02", "rate": ex.mbit(rate_mbit),
              "duration": f"{dur}s", "redundancy": "auto", "window": "auto",
              "path_rate": ex.mbit(rate_mbit), "path_rtt": f"{max(1, int(round(rtt_ms)))}ms",
              "encode": "on"}
        r1 = {"role": "receiver", "local": "10.0.1.1:6001", "sink": "count", "decode": "on"}
        if symbol:
            f1["symbol_size"] = r1["symbol_size"] = symbol
            # the receiver's default redundancy (a fixed count) is fewer packets than K
            # small symbols of a block: a config error; the sender decides it anyway
            r1["redundancy"] = "auto"
        ini.add("flow f1", f1)
        ini.add("flow r1", r1)
        ini.add("task d0", {"kind": "dfcp", "port": "hosts", "flows": "f1", "checksum": "zero"})
        ini.add("task d1", {"kind": "dfcp", "port": "sinks", "flows": "r1", "checksum": "zero"})
        ini.set("lcore 1", "tasks", "d0, r0, d1")
        ini.set("engine", "duration", f"{dur + 15}s")
        js = self.r.run_engine(tag, ini, dur + 60)
        rx = self.r.dfcp_rx(js, "r1")
        f = self.r.flow(js, "r1") or {}
        # over the run time, as the TCP rows
        rx["avg_mbps"] = f.get("goodput_bytes", 0) * 8 / dur / 1e6 if "goodput_bytes" in f \
            else rx["goodput_mbps"] * min(rx["active_s"] or dur, dur) / dur
        return rx, self.r.dfcp_tx(js, "f1")

    def to_kernel(self, ini, keep_ours=False):
        """experiments.py's kernel variant of a template (ra/rb on veths); with keep_ours
        our tcp tasks stay, on ports hosts/sinks over the namespaces' second veth pair."""
        if not keep_ours:
            self.r.to_tcp(ini)  # drops every [flow]
            ini.drop("task tx")
            ini.drop("task rx")
            return
        args = ini.get("eal", "args").replace("--log-level=pmd.net.ring:warning", "")
        ini.set("eal", "args", args.strip())
        ex.af_packet_ports(ini, [("ra", "ea"), ("rb", "eb"), ("hosts", "da"), ("sinks", "db")])
        ini.set("flow tx", "remote_mac", None)  # ARP across the bridges and the router
        ini.set("engine", "duration", "0")

    def set_mtu(self, mtu):
        net = self.r.net
        for ns, devs in ((net.c, ("cr", "cd", "br0")), (net.s, ("sr", "sd", "br0"))):
            for d in devs:
                ex.sh(f"ip -n {ns} link set {d} mtu {mtu}", check=False)

    def kernel(self, tag, ini, dur, ccs, nflows=1, mtu=None):
        """iperf3 -C cc through the template's router. Returns {cc: [goodputs]}."""
        if not ccs or not self.r.need_net():
            return {}
        out = {}
        self.r.net.hosts([f"10.0.0.{i + 1}" for i in range(nflows)],
                         [f"10.0.1.{i + 1}" for i in range(nflows)])
        if mtu:
            self.set_mtu(mtu)
        try:
            for cc in ccs:
                k = ex.Ini(ini.text())
                self.to_kernel(k)
                cl = [(cc, f"10.0.0.{i + 1}", f"10.0.1.{i + 1}", 5201 + i) for i in range(nflows)]
                try:
                    js, good = self.r.run_tcp(f"{tag}-k{cc}", k, cl, int(round(dur)))
                except RuntimeError as e:
                    self.log(f"error: kernel {cc} {tag}: {e}")
                    continue
                out[cc] = ([good[i] for i in range(nflows)], js)
        finally:
            if mtu:
                self.set_mtu(1500)
        return out

    # ---------------------------------------------------------- seed 003
    def seed003(self):
        a = self.a
        d = a.duration or (5 if a.quick else 10)
        # two-flow runs (seed: 40 s); 15 s even in --quick so the RTT bias is clear of slow start
        d2 = a.duration or (15 if a.quick else 20)
        ccs = ["tahoe", "reno"] if a.quick else S003_CC
        queues = [50] if a.quick else [50, 15]
        for qn in queues:
            scen = "s003" if qn == 50 else "s003-q15"
            for cc in ccs:
                ini = load("exp-tcp-dumbbell.ini")
                ini.set("pipe bott", "queue", qn)
                tx = {"cc": cc, "sack": "on" if cc == "sack" else "off"}
                js, snd, tr = self.ours(f"{scen}-{cc}", ini, d, tx, {"sack": tx["sack"]})
                self.row(scenario=scen, x=qn, variant=cc, flow="ftp0", trace=tr,
                         **self.tcp_fields(snd[0]))
            if a.quick:
                continue
            if not a.no_dfcp:
                rx, txs = self.dfcp(f"{scen}-dfcp", load("exp-tcp-dumbbell.ini"), d, 1.0, 12)
                self.row(scenario=scen, x=qn, variant="dfcp", flow="f1",
                         goodput_mbps=rx["avg_mbps"], redundancy=txs["redundancy"])
            ini = load("exp-tcp-dumbbell.ini")
            ini.set("pipe bott", "queue", qn)
            for cc, (gs, js) in self.kernel(scen, ini, d, self.kcc).items():
                self.row(scenario=scen, x=qn, variant="kernel-" + cc, flow="ftp0",
                         goodput_mbps=gs[0])
        # two flows, different RTTs (FTP1: +S003_RTT_EXTRA ms one-way); the RTO tick: the
        # seed's case 1 (both flows 0.5 s) and case 2 (FTP0 0.5 s, FTP1 0.1 s) in one run,
        # two flows of one task, each with its own tick / rto_min (conns(): element i)
        for scen, extra, ticks in (("s003-rtt", S003_RTT_EXTRA, [(0, 0)]),
                                   ("s003-rto", 0, S003_TICKS)):
            if a.quick and scen == "s003-rto":
                continue
            for t0, t1 in ticks:
                for cc in (["reno"] if a.quick else S003_CC):
                    ini = load("exp-tcp-dumbbell.ini")
                    if scen == "s003-rto":
                        ini.set("pipe bott", "queue", 15)
                    if extra:
                        ini.set("pipe out", "next", "extra")
                        ini.add("pipe extra", {"delay": f"{extra}ms", "unmatched": "pass"})
                        ini.add("queue x1", {"pipe": "extra",
                                             "match": "tcp from 10.0.0.1 40001 to any"})
                    tx = {"cc": cc, "count": 2, "sack": "on" if cc == "sack" else "off",
                          "tick": [f"{t0}ms", f"{t1}ms"],
                          "rto_min": [f"{t}ms" if t else "200ms" for t in (t0, t1)]}
                    x = f"{t0 / 1000:g}/{t1 / 1000:g}" if scen == "s003-rto" else extra
                    js, snd, tr = self.ours(f"{scen}-{cc}-t{t0}-{t1}", ini, d2, tx,
                                            {"count": 2, "sack": tx["sack"]})
                    for i, c in enumerate(sorted(snd, key=lambda c: c["local_port"])):
                        self.row(scenario=scen, x=x, variant=cc, flow=f"ftp{i}",
                                 trace=tr, trace_index=i, tick_ms=c.get("tick_us", 0) / 1000,
                                 **self.tcp_fields(c))

    # ---------------------------------------------------------- seed 001
    def s001_ini(self, per=None, delay_ms=None, bw=None):
        ini = load("exp-tcp-lossy.ini")
        if per is not None:
            ini.set("pipe bott", "plr", f"{per * 100:g}%")
        if delay_ms is not None:
            ini.set("pipe bott", "delay", f"{int(round(delay_ms * 1000))}us")
        if bw is not None:
            ini.set("pipe bott", "bw", ex.mbit(bw))
        return ini

    def seed001(self):
        a = self.a
        d = a.duration or (8 if a.quick else 10)
        sweeps = [("s001-per", S001_PER)]
        if a.full:
            sweeps += [("s001-delay", S001_DELAY), ("s001-bw", S001_BW)]
        for scen, xs in sweeps:
            if a.quick:
                xs = [0.01]
            for x in xs:
                kw = ({"per": x} if scen == "s001-per" else
                      {"per": 0.005, "delay_ms": x} if scen == "s001-delay" else
                      {"per": 0.005, "bw": x})
                for cc in (["reno", "tcpw-c"] if a.quick else S001_CC):
                    js, snd, tr = self.ours(f"{scen}-{x}-{cc}", self.s001_ini(**kw), d,
                                            {"cc": cc})
                    self.row(scenario=scen, x=x, variant=cc, flow="f", trace=tr,
                             **self.tcp_fields(snd[0]))
                if a.quick:
                    continue
                bw = kw.get("bw", 2)
                if not a.no_dfcp:
                    rx, txs = self.dfcp(f"{scen}-{x}-dfcp", self.s001_ini(**kw), d, bw,
                                        50 + 2 * kw.get("delay_ms", 0.01), symbol=334)
                    self.row(scenario=scen, x=x, variant="dfcp", flow="f",
                             goodput_mbps=rx["avg_mbps"], redundancy=txs["redundancy"])
                for cc, (gs, js) in self.kernel(f"{scen}-{x}", self.s001_ini(**kw), d,
                                                self.kcc, mtu=400).items():
                    self.row(scenario=scen, x=x, variant="kernel-" + cc, flow="f",
                             goodput_mbps=gs[0])
        if a.quick:
            return
        # fairness: 2 TCPW-C flows, 2 Mbit/s 25 ms 0.8 % error (seed: 100 s)
        df = a.duration or 20
        for cc in ("tcpw-c", "reno"):
            js, snd, tr = self.ours(f"s001-fair-{cc}", self.s001_ini(0.008, 25), df,
                                    {"cc": cc, "count": 2}, {"count": 2})
            g = [c["avg_mbps"] for c in snd]
            for i, c in enumerate(snd):
                self.row(scenario="s001-fair", x=0.008, variant=cc, flow=f"f{i}",
                         jain=ex.jain(g), **self.tcp_fields(c))
        # friendliness (seed: 2 connections, 0, 1 or 2 of them Reno): our TCPW-C next to our
        # Reno, two connections of one task with their own cc; 0 and 2 Reno are the
        # fairness runs above
        js, snd, tr = self.ours("s001-friend-ours", self.s001_ini(0.008, 25), df,
                                {"cc": ["tcpw-c", "reno"], "count": 2}, {"count": 2})
        snd = sorted(snd, key=lambda c: c["local_port"])
        g = [c["avg_mbps"] for c in snd]
        for c in snd:
            self.row(scenario="s001-friend", x=0.008, variant="ours-tcpw-c+ours-reno",
                     flow="ours-" + c["cc"], jain=ex.jain(g), trace=tr,
                     **self.tcp_fields(c))
        self.s001_friend_kernel(df)

    def s001_friend_kernel(self, df):
        """Ours (TCPW-C, then Reno as the control) next to the kernel's Reno."""
        if "reno" in self.kcc and self.r.need_net():
            for cc in ("tcpw-c", "reno"):
                ini = self.s001_ini(0.008, 25)
                ini.set("flow tx", "local", "10.0.0.5:40000")
                ini.set("flow tx", "remote", "10.0.1.5:5201")
                ini.set("flow rx", "local", "10.0.1.5:5201")
                # a second receiver flow no connection reaches keeps task rx from being
                # "done": the run must not end with our flow while the kernel's iperf3
                # still exchanges its results (it then hung and printed nothing);
                # run_tcp stops the engine after iperf3
                ini.set("flow rx", "count", 2)
                ini.set("flow tx", "cc", cc)
                ini.set("flow tx", "duration", f"{df}s")
                self.to_kernel(ini, keep_ours=True)
                self.r.net.hosts(["10.0.0.1"], ["10.0.1.1"])
                self.set_mtu(400)
                try:
                    js, good = self.r.run_tcp(f"s001-friend-{cc}", ini,
                                              [("reno", "10.0.0.1", "10.0.1.1", 5201)], df,
                                              wait_dfcp=True)
                except RuntimeError as e:
                    self.log(f"error: friendliness {cc}: {e}")
                    continue
                finally:
                    self.set_mtu(1500)
                snd = [c for c in js.get("tcp", []) if c["role"] == "sender"]
                og = snd[0]["goodput_mbps"] if snd else 0.0
                j = ex.jain([og, good[0]])
                self.row(scenario="s001-friend", x=0.008, variant=f"ours-{cc}+kernel-reno",
                         flow="ours-" + cc, goodput_mbps=og, jain=j)
                self.row(scenario="s001-friend", x=0.008, variant=f"ours-{cc}+kernel-reno",
                         flow="kernel-reno", goodput_mbps=good[0], jain=j)

    # ---------------------------------------------------------- seed 002
    def seed002(self):
        a = self.a
        d = a.duration or (8 if a.quick else 20)
        for n in ([3] if a.quick else S002_N):
            for pol in (["off", "coordinated"] if a.quick else CAP):
                ini = load("exp-tcp-cap.ini")
                js, snd, tr = self.ours(f"s002-{n}-{pol}", ini, d, {"count": n},
                                        {"count": n}, {"cap_policy": pol})
                g = [c["avg_mbps"] for c in snd]
                task = [t for t in js["tcp_tasks"] if t["name"] == "tx"][0]
                cap = task.get("cap") or {}
                self.row(scenario="s002", x=n, variant=pol, flow="all", goodput_mbps=sum(g),
                         jain=ex.jain(g), per_flow=[round(v, 3) for v in g],
                         cap_triggers=cap.get("triggers"), cap_capped=cap.get("capped"),
                         cap_last=cap.get("last_cap_segs"), trace=tr,
                         retrans=sum(c["retrans_pkts"] for c in snd),
                         rtt_avg_ms=sum(c["rtt_avg_us"] for c in snd) / len(snd) / 1000)
            if a.quick:
                continue
            if not a.no_dfcp and n == S002_N[0]:
                rx, txs = self.dfcp(f"s002-{n}-dfcp", load("exp-tcp-cap.ini"), d, 20, 100)
                self.row(scenario="s002", x=n, variant="dfcp (1 flow)", flow="all",
                         goodput_mbps=rx["avg_mbps"], redundancy=txs["redundancy"])
            if "cubic" in self.kcc:
                for cc, (gs, js) in self.kernel(f"s002-{n}", load("exp-tcp-cap.ini"), d,
                                                ["cubic"], nflows=n).items():
                    self.row(scenario="s002", x=n, variant="kernel-cubic", flow="all",
                             goodput_mbps=sum(gs), jain=ex.jain(gs),
                             per_flow=[round(v, 3) for v in gs])

    # ---------------------------------------------------------- kernel vs ours
    def kernel_vs_ours(self):
        a = self.a
        d = int(a.duration or (4 if a.quick else KVO_DURATION))
        pts = [("delay", 10)] if a.quick else KVO_POINTS
        ccs = [c for c in ("reno", "cubic", "bbr") if c in self.kcc and
               (not a.cc or c in a.cc.split(","))]
        if a.quick:
            ccs = ccs[:1]
        link = self.r.link(1000)
        for scen, x in pts:
            for cc in ccs:
                if a.ci and cc not in KVO_CI.get((scen, x), ccs):
                    continue
                ini = load("exp-single.ini")
                ini.set("pipe link", "bw", ex.mbit(link))
                ini.set("pipe link", "delay", f"{x if scen == 'delay' else 0}ms")
                ini.set("pipe link", "plr", f"{x if scen == 'loss' else 0}%")
                for s in ("flow f1", "flow r1", "task d0", "task d1"):
                    ini.drop(s)
                ini.add("flow tx", {"proto": "tcp", "role": "sender",
                                    "local": "10.0.0.1:40000", "remote": "10.0.1.1:5201",
                                    "remote_mac": "02:00:00:00:00:02", "cc": cc,
                                    # Linux's loss recovery under either module: SACK +
                                    # RACK-TLP + PRR (+ limited transmit), as the kernel's
                                    "rack": "on"})
                ini.add("flow rx", {"proto": "tcp", "role": "receiver",
                                    "local": "10.0.1.1:5201"})
                ini.add("task tx", {"kind": "tcp", "port": "hosts", "flows": "tx"})
                ini.add("task rx", {"kind": "tcp", "port": "sinks", "flows": "rx"})
                ini.set("lcore 1", "tasks", "tx, r0, rx")
                nrun = KVO_RUNS.get((scen, x, cc), KVO_RUNS.get((scen, x), 1))
                if a.ci:
                    nrun = KVO_CI_RUNS.get((scen, x, cc), nrun)
                oruns, runs = [], []
                while True:
                    self.kvo_runs(ini, scen, x, cc, d, oruns, runs, nrun)
                    ours, snd = sorted(oruns, key=lambda o: o[0])[len(oruns) // 2]
                    k = sorted(runs)[len(runs) // 2] if runs else None
                    ratio = ours / k if k else None
                    if (ratio is None or abs(ratio - 1) <= KVO_TOL or
                            len(oruns) >= KVO_MAX_RUNS or not self.r.need_net()):
                        break
                    self.log(f"  {cc} {scen} {x}: x{ratio:.2f} on the medians of {len(oruns)} "
                             f"run(s) each: {KVO_MORE} more")
                    nrun = min(KVO_MAX_RUNS, len(oruns) + KVO_MORE)
                if len(oruns) > 1:
                    self.log(f"  ours {cc} {scen} {x}: median of {len(oruns)} runs "
                             f"({', '.join(f'{g:.2f}' for g, _ in oruns)} Mbit/s)")
                if len(runs) > 1:
                    self.log(f"  kernel {cc} {scen} {x}: median of {len(runs)} runs "
                             f"({', '.join(f'{g:.2f}' for g in runs)} Mbit/s)")
                row = dict(scenario="kvo", x=f"{scen} {x}", variant=cc, flow="ours",
                           goodput_mbps=ours, ours_runs=[g for g, _ in oruns], link_mbps=link)
                if self.r.need_net():
                    row.update(kernel_mbps=k, kernel_runs=runs, ratio=ratio,
                               retrans=snd["retrans_pkts"], timeouts=snd["timeouts"])
                self.row(**row)

    def kvo_runs(self, ini, scen, x, cc, d, oruns, runs, nrun):
        """Runs ours, then the kernel (where it can run), until each side has nrun runs
        (appended to oruns as (goodput, sender summary), to runs as goodput)."""
        for i in range(len(oruns), nrun):
            tag = f"kvo-{scen}-{x}-{cc}" + (f"-{i}" if i else "")
            js, s0, tr = self.ours(tag, ex.Ini(ini.text()), d)
            oruns.append((s0[0]["avg_mbps"], s0[0]))
        if not self.r.need_net():
            return
        for i in range(len(runs), nrun):
            n0 = len(self.r.rows)
            try:
                self.r.single(scen, x, cc, d)  # experiments.py's kernel run
            except RuntimeError as e:
                self.log(f"error: kernel {cc} {scen} {x}: {e}")
            kr = self.r.rows[n0:]
            if kr and kr[0].get("goodput_mbps"):
                runs.append(self.iperf_goodput(f"{scen}-{x}-{cc}", i, kr[0]["goodput_mbps"]))

    def iperf_goodput(self, tag, i, rx_mbps):
        """The kernel's goodput of run i of experiments.py's run `tag` (its log keeps the
        tail of iperf3's JSON; a copy per run is kept as TAG-kI.log): iperf3's receiver
        figure, unless the receiver's interval outlasts the sender's by more than 0.5 s —
        its timer stops when the client's TEST_END arrives over the same lossy link, and a
        lost control segment stretched it by up to 1.8 s with every byte already there
        (1 % loss, 6 s: 36.3 Mbit/s of 47.1 sent). Then: the received bytes over the
        sending time."""
        logp = os.path.join(self.r.runs, tag + ".log")
        try:
            with open(logp) as f:
                text = f.read()
        except OSError:
            return rx_mbps
        with open(os.path.join(self.r.runs, f"{tag}-k{i}.log"), "w") as f:
            f.write(text)
        tx = re.search(r'"sum_sent":\s*\{[^}]*?"seconds":\s*([\d.]+)', text)
        rx = re.search(r'"sum_received":\s*\{[^}]*?"seconds":\s*([\d.]+)[^}]*?'
                       r'"bytes":\s*(\d+)', text)
        if not tx or not rx:
            return rx_mbps
        tx_s, rx_s, rx_b = float(tx.group(1)), float(rx.group(1)), int(rx.group(2))
        if rx_s > tx_s + 0.5 and tx_s > 0:
            g = rx_b * 8 / tx_s / 1e6
            self.log(f"  kernel {tag} run {i}: iperf3's receiver interval {rx_s:.2f} s for "
                     f"{tx_s:.2f} s of sending ({rx_mbps:.2f} Mbit/s): {g:.2f} Mbit/s taken")
            return g
        return rx_mbps

    def go(self):
        scen = self.a.scenario
        todo = ["seed003", "seed001", "seed002", "kernel-vs-ours"] if scen == "all" \
            else scen.split(",")
        fn = {"seed003": self.seed003, "seed001": self.seed001, "seed002": self.seed002,
              "kernel-vs-ours": self.kernel_vs_ours}
        fails = 0
        for s in todo:
            if s not in fn:
                raise SystemExit(f"unknown scenario {s}")
            self.log(f"# {s}")
            try:
                fn[s]()
            except RuntimeError as e:
                fails += 1
                self.log(f"error: {s}: {e}")
        return fails


# ------------------------------------------------------------------ checks

def trace_blocks(path):
    """[[(t, cwnd, ssthresh, srtt, ev)]] per connection of a cwnd_trace file."""
    blocks, cur = [], None
    with open(path) as f:
        for line in f:
            if line.startswith("# flow"):
                cur = []
                blocks.append(cur)
            elif line.strip() and not line.startswith("#") and cur is not None:
                t, w, s, r, e = line.split()
                cur.append((float(t), float(w), float(s), float(r), e))
    return blocks


def loss_response(path):
    """(cwnd before a fast retransmit, ssthresh set there, cwnd right after it: at the
    recovery event for Tahoe, at the recovery's exit for the others) or None. Takes the
    first fast retransmit that ends by an exit (not by a timeout), else the first one."""
    try:
        pts = trace_blocks(path)[0]
    except (OSError, IndexError):
        return None
    first = None
    for i, p in enumerate(pts):
        if p[4] != "recovery":
            continue
        before = pts[i - 1][1] if i else p[1]
        if first is None:
            first = (before, p[2], p[1])
        for q in pts[i + 1:]:
            if q[4] == "exit":
                return before, p[2], q[1]
            if q[4] in ("timeout", "recovery"):
                break
    return first


def checks(rows):
    out = []

    def sel(s, v=None, x=None, flow=None):
        return [r for r in rows if r["scenario"] == s and (v is None or r["variant"] == v)
                and (x is None or r["x"] == x) and (flow is None or r["flow"] == flow)]

    # Reno: cwnd = ssthresh = FlightSize/2 when recovery ends (the flight can be below
    # cwnd: the send buffer bounds it), Tahoe: cwnd = 1 segment
    for v, want in (("tahoe", "drops to 1 segment"), ("reno", "halves")):
        for r in sel("s003", v):
            lr = loss_response(r["trace"]) if r.get("trace") else None
            if lr is None:
                out.append((f"seed003 {v}: cwnd {want} on fast retransmit", False,
                            "no fast retransmit in the trace"))
                continue
            b, ss, after = lr
            ok = after <= 1.5 if v == "tahoe" else \
                (2 <= after <= 0.6 * b and abs(after - ss) <= max(3, 0.1 * ss))
            out.append((f"seed003 {v}: cwnd {want} on fast retransmit", ok,
                        f"cwnd {b:.1f} -> {after:.1f} segments, ssthresh {ss:.1f}"))
    q15 = {r["variant"]: r["goodput_mbps"] for r in sel("s003-q15")}
    if "newreno" in q15 and "reno" in q15:
        out.append(("seed003 queue 15: NewReno >= Reno", q15["newreno"] >= q15["reno"],
                    f"NewReno {q15['newreno'] * 1000:.0f}, Reno {q15['reno'] * 1000:.0f} kbit/s"))
    for cc in S003_CC:
        f = {r["flow"]: r["goodput_mbps"] for r in sel("s003-rtt", cc)}
        if "ftp0" in f and "ftp1" in f:
            out.append((f"seed003 two RTTs ({cc}): short-RTT FTP0 > long-RTT FTP1 "
                        f"(+{S003_RTT_EXTRA} ms)", f["ftp0"] > f["ftp1"],
                        f"FTP0 {f['ftp0'] * 1000:.0f}, FTP1 {f['ftp1'] * 1000:.0f} kbit/s"))
    # seed 003 RTO, case 1 (both 0.5 s) vs case 2 (FTP1 0.1 s): a finer tick makes Reno's
    # FTP1 recover sooner from its timeouts (seed: Reno 657.2 -> 897.8 kbit/s)
    for cc in ("reno",):
        f = {(r["x"], r["flow"]): r["goodput_mbps"] for r in sel("s003-rto", cc)}
        c1 = [f.get((f"{t0 / 1000:g}/{t1 / 1000:g}", fl)) for t0, t1 in S003_TICKS[:2]
              for fl in ("ftp0", "ftp1")]
        if None not in c1:
            out.append((f"seed003 RTO ({cc}): FTP1 with a 0.1 s tick > with 0.5 s",
                        c1[3] > c1[1], f"case 1 (0.5/0.5 s) FTP0 {c1[0] * 1000:.0f} FTP1 "
                        f"{c1[1] * 1000:.0f}, case 2 (0.5/0.1 s) FTP0 {c1[2] * 1000:.0f} "
                        f"FTP1 {c1[3] * 1000:.0f} kbit/s"))
    for r in sel("s001-per", x=0.01):
        if r["variant"] in S001_CC:
            out.append((f"seed001 1 % error: {r['variant']} delivers, below the 2 Mbit/s "
                        f"bottleneck", 0 < r["goodput_mbps"] <= 2.0,
                        f"{r['goodput_mbps']:.3f} Mbit/s, {r['retrans']} retransmissions"))
    tw = sel("s001-per", "tcpw-c", x=0.01)
    rn = sel("s001-per", "reno", x=0.01)
    if tw and rn:
        out.append(("seed001 1 % error: TCPW-C >= Reno", tw[0]["goodput_mbps"] >=
                    rn[0]["goodput_mbps"], f"TCPW-C {tw[0]['goodput_mbps']:.3f}, Reno "
                    f"{rn[0]['goodput_mbps']:.3f} Mbit/s"))
    # friendliness (seed: TCPW-C coexists with Reno, ~20 % more): our TCPW-C next to our
    # Reno gets at least the Reno's, and that Reno keeps >= 70 % of what a Reno gets next
    # to another Reno (the fairness run)
    fr = {r["flow"]: r["goodput_mbps"] for r in sel("s001-friend", "ours-tcpw-c+ours-reno")}
    rr = [r["goodput_mbps"] for r in sel("s001-fair", "reno")]
    if "ours-tcpw-c" in fr and "ours-reno" in fr and rr:
        ref = sum(rr) / len(rr)
        out.append(("seed001 friendliness: our TCPW-C >= our Reno next to it, that Reno >= "
                    "70 % of a Reno next to a Reno", fr["ours-tcpw-c"] >= fr["ours-reno"] >=
                    0.7 * ref, f"TCPW-C {fr['ours-tcpw-c']:.3f}, Reno {fr['ours-reno']:.3f} "
                    f"Mbit/s; Reno next to Reno {ref:.3f} Mbit/s"))
    by_n = {}
    for r in sel("s002"):
        by_n.setdefault(r["x"], {})[r["variant"]] = r
    for n, v in sorted(by_n.items()):
        for pol in ("off", "coordinated"):
            if pol in v:
                pf = v[pol].get("per_flow") or []
                agg = v[pol]["goodput_mbps"]
                need = 0.7 * 20 if pol == "off" else 0.0
                out.append((f"seed002 {n} flows, cap {pol}: every flow delivers"
                            + (", aggregate >= 70 % of the 20 Mbit/s bottleneck" if need else ""),
                            len(pf) == n and min(pf) > 0 and agg >= need,
                            f"per flow {pf} Mbit/s, aggregate {agg:.2f}"))
        if "off" in v and "coordinated" in v:
            # the coordinated cap holds every flow once any one's RTT rose (the template's
            # cap_release_pct = 0: the seed's middleware keeps controlling), so the flows
            # share equally; without it CUBIC's shares depend on where the losses fall
            o, c = v["off"], v["coordinated"]
            ok = (c["jain"] or 0) >= (o["jain"] or 0) - 0.02 and (c.get("cap_triggers") or 0) > 0
            out.append((f"seed002 {n} flows: coordinated Jain >= off's - 0.02, the cap "
                        f"engaged", ok, f"Jain off {o['jain']:.3f}, coordinated "
                        f"{c['jain']:.3f}, cap triggers {c.get('cap_triggers')}"))
    for r in sel("kvo"):
        if r.get("ratio") is not None:
            def med(runs):
                return (f" (median of {len(runs)}: " + ", ".join(f"{g:.2f}" for g in runs)
                        + ")" if len(runs) > 1 else "")
            out.append((f"kernel vs ours {r['x']} {r['variant']}: within +-20 %",
                        1 - KVO_TOL <= r["ratio"] <= 1 + KVO_TOL,
                        f"ours {r['goodput_mbps']:.2f}{med(r.get('ours_runs') or [])}, "
                        f"kernel {r['kernel_mbps']:.2f}{med(r.get('kernel_runs') or [])} "
                        f"Mbit/s (x{r['ratio']:.2f})"))
    return out


# ------------------------------------------------------------------ plots

def plot_lines(pdir, name, title, xlabel, ylabel, sets, logx=False, extra=""):
    blocks, cmds = [], []
    for label, pts in sets:
        if not pts:
            continue
        blocks.append("\n".join(f"{x} {y}" for x, y in pts))
        style = "linespoints lw 2 dt 2" if label.startswith(("kernel", "dfcp")) \
            else "linespoints lw 2"
        cmds.append(f"'-' using 1:2 with {style} title {ex.q(label)}")
    if not cmds:
        return
    s = (f"set title {ex.q(title)}\nset xlabel {ex.q(xlabel)}\nset ylabel {ex.q(ylabel)}\n"
         f"set grid\nset key outside right\n{extra}\n" + ("set logscale x\n" if logx else "")
         + "plot " + ", ".join(cmds) + "\n" + "".join(b + "\ne\n" for b in blocks))
    ex.gp(s, os.path.join(pdir, name), [])


def plot_traces(pdir, name, title, panels):
    """panels: [(label, trace file, index)], one multiplot panel each."""
    panels = [p for p in panels if p[1] and os.path.exists(p[1])]
    if not panels:
        return
    cols = 2 if len(panels) > 1 else 1
    rows = (len(panels) + cols - 1) // cols
    s = f"set multiplot layout {rows},{cols} title {ex.q(title)}\nset grid\n"
    for label, path, idx in panels:
        s += (f"set title {ex.q(label)}\nset xlabel 'time (s)'\nset ylabel 'segments'\n"
              f"plot {ex.q(path)} index {idx} using 1:2 with steps lw 1.5 title 'cwnd', "
              f"'' index {idx} using 1:3 with steps lw 1 dt 2 title 'ssthresh'\n")
    s += "unset multiplot\n"
    ex.gp(s, os.path.join(pdir, name), [])


def plots(out, rows):
    import shutil
    if shutil.which("gnuplot") is None:
        print("gnuplot missing: no plots")
        return
    pdir = os.path.join(out, "plots")
    os.makedirs(pdir, exist_ok=True)

    def variants(s):
        vs = []
        for r in rows:
            if r["scenario"] == s and r["variant"] not in vs:
                vs.append(r["variant"])
        return vs

    def ser(s, v, key="goodput_mbps", flow=None):
        return sorted((r["x"], r[key]) for r in rows if r["scenario"] == s and r["variant"] == v
                      and (flow is None or r["flow"] == flow) and r.get(key) is not None)

    for s in ("s003", "s003-q15"):
        plot_traces(pdir, f"{s}-cwnd", f"seed 003: cwnd, 1 Mbit/s 4 ms DropTail "
                    f"{'50' if s == 's003' else '15'} packets",
                    [(r["variant"], r.get("trace"), 0) for r in rows
                     if r["scenario"] == s and r.get("trace")])
    for s in ("s003-rtt", "s003-rto"):
        pan = [(f"{r['variant']} {r['flow']}" + (f" ticks {r['x']} s" if s == "s003-rto" else ""),
                r.get("trace"), r.get("trace_index", 0)) for r in rows
               if r["scenario"] == s and r.get("trace")]
        for i in range(0, len(pan), 4):
            plot_traces(pdir, f"{s}-cwnd-{i // 4 + 1}", f"seed 003: {s[5:]}, two flows", pan[i:i + 4])
    # the seed's RTO figure for Reno: case 1 (both 0.5 s) above case 2 (FTP1 0.1 s)
    plot_traces(pdir, "s003-rto-reno-cwnd", "seed 003: Reno, RTO tick FTP0/FTP1 (queue 15)",
                [(f"reno {r['flow']}, ticks {r['x']} s", r.get("trace"), r.get("trace_index", 0))
                 for r in rows if r["scenario"] == "s003-rto" and r["variant"] == "reno"
                 and r.get("trace")])
    # seed 003 throughput bars as points over the variants
    sets = []
    for s in ("s003", "s003-q15"):
        vs = variants(s)
        sets.append((f"queue {'50' if s == 's003' else '15'}",
                     [(i, r["goodput_mbps"] * 1000) for i, v in enumerate(vs)
                      for r in rows if r["scenario"] == s and r["variant"] == v]))
    xt = ", ".join(f"{ex.q(v)} {i}" for i, v in enumerate(variants("s003")))
    plot_lines(pdir, "s003-throughput", "seed 003: average throughput (1 Mbit/s bottleneck)",
               "", "kbit/s", sets, extra=f"set xtics ({xt}) rotate by -30\nset yrange [0:*]\n"
               "set style data points")
    xl = {"s001-per": "packet error rate", "s001-delay": "bottleneck delay (ms), 0.5 % error",
          "s001-bw": "bottleneck rate (Mbit/s), 0.5 % error"}
    for s, lab in xl.items():
        plot_lines(pdir, s, f"seed 001: throughput, 10 Mbit/s 25 ms -> 2 Mbit/s, MTU 400",
                   lab, "throughput (Mbit/s)", [(v, ser(s, v)) for v in variants(s)],
                   logx=s in ("s001-per", "s001-delay"))
    tw = [r for r in rows if r["scenario"] == "s001-per" and r["variant"] == "tcpw-c"
          and r.get("trace")]
    if tw:
        plot_traces(pdir, "s001-cwnd", "seed 001: cwnd at 1 % error",
                    [(r["variant"], r["trace"], 0) for r in rows if r["scenario"] == "s001-per"
                     and r["x"] == 0.01 and r.get("trace")])
    plot_lines(pdir, "s002-throughput", "seed 002: CUBIC flows, 20 Mbit/s, +100 ms",
               "flows", "aggregate throughput (Mbit/s)", [(v, ser("s002", v))
                                                         for v in variants("s002")],
               extra="set yrange [0:*]")
    plot_lines(pdir, "s002-jain", "seed 002: Jain's index", "flows", "Jain's index",
               [(v, ser("s002", v, "jain")) for v in variants("s002") if ser("s002", v, "jain")],
               extra="set yrange [0:1.05]")
    kv = [r for r in rows if r["scenario"] == "kvo" and r.get("kernel_mbps") is not None]
    if kv:
        pts = sorted({r["x"] for r in kv})
        xt = ", ".join(f"{ex.q(p)} {i}" for i, p in enumerate(pts))
        sets = []
        for cc in ("reno", "cubic", "bbr"):
            sets.append((f"ours {cc}", [(pts.index(r["x"]), r["goodput_mbps"]) for r in kv
                                        if r["variant"] == cc]))
            sets.append((f"kernel {cc}", [(pts.index(r["x"]), r["kernel_mbps"]) for r in kv
                                          if r["variant"] == cc]))
        plot_lines(pdir, "kernel-vs-ours", "our TCP vs the kernel's, same router and link",
                   "thesis scenario point (loss %, delay ms)", "goodput (Mbit/s)", sets,
                   extra=f"set xtics ({xt})\nset yrange [0:*]")


# ------------------------------------------------------------------ output

COLS = ["scenario", "x", "variant", "flow", "goodput_mbps", "jain", "engine_goodput_mbps",
        "retrans", "timeouts", "recoveries", "rtt_min_ms", "rtt_avg_ms", "bw_est_mbps",
        "redundancy", "cap_triggers", "cap_capped", "cap_last", "per_flow", "kernel_mbps",
        "ours_runs", "kernel_runs", "ratio", "link_mbps", "trace"]


def write(out, rows, ck, meta):
    with open(os.path.join(out, "seeds.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=COLS, extrasaction="ignore")
        w.writeheader()
        for r in rows:
            w.writerow({k: (f"{v:.4f}" if isinstance(v, float) else v) for k, v in r.items()})
    with open(os.path.join(out, "seeds.json"), "w") as f:
        json.dump(dict(meta, rows=rows, checks=[{"name": n, "ok": o, "detail": d}
                                                for n, o, d in ck]), f, indent=1)


def tables(out):
    with open(os.path.join(out, "seeds.json")) as f:
        res = json.load(f)
    rows = res["rows"]

    def pivot(s, key="goodput_mbps", scale=1.0, nd=3, flow=None, xl="x"):
        xs = []
        vs = []
        for r in rows:
            if r["scenario"] == s and (flow is None or r["flow"] == flow):
                if r["x"] not in xs:
                    xs.append(r["x"])
                if r["variant"] not in vs:
                    vs.append(r["variant"])
        if not xs:
            return
        print(f"| {xl} | " + " | ".join(vs) + " |")
        print("|---:|" + "---:|" * len(vs))
        for x in xs:
            cells = []
            for v in vs:
                rr = [r for r in rows if r["scenario"] == s and r["x"] == x and r["variant"] == v
                      and (flow is None or r["flow"] == flow)]
                val = rr[0].get(key) if rr else None
                cells.append("–" if val is None else f"{val * scale:.{nd}f}")
            print(f"| {x} | " + " | ".join(cells) + " |")
        print()

    print(f"command: {res.get('command')}, elapsed {res.get('elapsed_s', 0):.0f} s\n")
    for s, t in (("s003", "seed 003, queue 50: average throughput (kbit/s)"),
                 ("s003-q15", "seed 003, queue 15: average throughput (kbit/s)")):
        print(f"### {t}\n")
        pivot(s, scale=1000, nd=0, xl="queue")
    for s, xl in (("s003-rtt", "FTP1 extra one-way delay (ms)"),
                  ("s003-rto", "tick FTP0/FTP1 (s)")):
        for fl in ("ftp0", "ftp1"):
            print(f"### {s} {fl} (kbit/s)\n")
            pivot(s, scale=1000, nd=0, flow=fl, xl=xl)
    for s in ("s001-per", "s001-delay", "s001-bw"):
        print(f"### {s} (Mbit/s)\n")
        pivot(s)
    for s in ("s001-fair", "s001-friend"):
        print(f"### {s} (Mbit/s)\n")
        print("| variant | flow | goodput | Jain |\n|---|---|---:|---:|")
        for r in rows:
            if r["scenario"] == s:
                print(f"| {r['variant']} | {r['flow']} | {r['goodput_mbps']:.3f} | "
                      f"{r['jain']:.3f} |")
        print()
    print("### s002: aggregate throughput (Mbit/s)\n")
    pivot("s002", nd=2, xl="flows")
    print("### s002: Jain's index\n")
    pivot("s002", key="jain", nd=3, xl="flows")
    def fmt(v):
        return "–" if v is None else f"{v:.2f}"

    print("### kernel vs ours (Mbit/s)\n")
    print("| point | cc | ours | kernel | runs (ours; kernel) | ours/kernel | ours retrans / RTOs |"
          "\n|---|---|---:|---:|---|---:|---|")
    for r in rows:
        if r["scenario"] == "kvo":
            k = r.get("kernel_mbps")
            kr, orr = r.get("kernel_runs") or [], r.get("ours_runs") or []
            both = (", ".join(f"{g:.2f}" for g in orr) + "; " + ", ".join(f"{g:.2f}" for g in kr)
                    if len(kr) > 1 or len(orr) > 1 else "")
            print(f"| {r['x']} | {r['variant']} | {r['goodput_mbps']:.2f} | "
                  f"{'–' if k is None else f'{k:.2f}'} | {both} | "
                  f"{fmt(r.get('ratio'))} | {r.get('retrans', '')} / {r.get('timeouts', '')} |")
    print("\n### checks\n")
    for c in res["checks"]:
        print(f"- {'ok' if c['ok'] else '**FAIL**'} {c['name']}: {c['detail']}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__)
    ap.add_argument("--scenario", default="all")
    ap.add_argument("--quick", action="store_true", help="the CI-sized subset")
    ap.add_argument("--full", action="store_true", help="seed 001 delay and rate sweeps too")
    ap.add_argument("--ci", action="store_true",
                    help="kernel-vs-ours: every module at 5 %% loss, reno and bbr at 50 ms "
                         "(KVO_CI)")
    ap.add_argument("--cc", default=None,
                    help="kernel-vs-ours: these modules only (comma-separated; default "
                         "reno, cubic, bbr)")
    ap.add_argument("--duration", type=float, default=None,
                    help="seconds per run (seed durations: 10 for 003, 40 for its two-flow "
                         "runs, 300 for 001, 100 for its fairness runs)")
    ap.add_argument("--scale", type=float, default=0.05,
                    help="kernel-vs-ours: thesis link scale (0.05: 50 Mbit/s)")
    ap.add_argument("--out", default=os.path.join(SRC, "results", "seeds"))
    ap.add_argument("--engine", default=None)
    ap.add_argument("--no-kernel", action="store_true")
    ap.add_argument("--no-dfcp", action="store_true")
    ap.add_argument("--no-plots", action="store_true")
    ap.add_argument("--check", action="store_true", help="exit 1 when a check fails")
    ap.add_argument("--tables", action="store_true", help="markdown tables of OUT/seeds.json")
    a = ap.parse_args()
    if a.tables:
        tables(a.out)
        return 0
    if a.engine is None:
        for cand in ("build", "build-seeds", "build-exp"):
            e = os.path.join(SRC, cand, "app/dfcp-engine/dfcp-engine")
            if os.access(e, os.X_OK):
                a.engine = e
                break
        else:
            print("no engine binary: build first (make build)")
            return 2
    os.makedirs(a.out, exist_ok=True)
    s = Seeds(a)
    signal.signal(signal.SIGINT, ex.on_signal)
    signal.signal(signal.SIGTERM, ex.on_signal)
    fails, interrupted = 0, False
    try:
        fails = s.go()
    except ex.Stop as e:
        interrupted = True
        print(f"\ninterrupted ({e}), cleaning up")
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        s.r.cleanup()
    ck = checks(s.rows)
    write(a.out, s.rows, ck, {"command": " ".join(sys.argv), "elapsed_s": time.time() - s.t0,
                              "kernel_ccs": s.kcc, "kernel_skipped": s.r.net_error})
    if not a.no_plots:
        plots(a.out, s.rows)
    print(f"results in {a.out} ({time.time() - s.t0:.0f} s)")
    bad = 0
    for n, ok, d in ck:
        known = n.startswith(REPORT_ONLY)
        print(f"  {'ok  ' if ok else 'FAIL'} {n}: {d}"
              + (" (reported, not enforced)" if known and not ok else ""))
        bad += not ok and not known
    if s.r.net_error:
        print(f"  note: kernel runs skipped: {s.r.net_error}")
    if interrupted:
        return 130
    return 1 if a.check and (bad or fails) else 0


if __name__ == "__main__":
    sys.exit(main())
