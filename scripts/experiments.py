#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Reproduce the DFCP thesis experiments (seed 000 §2) with the engine's emulated
links, kernel TCP CUBIC, Reno and BBR through the very same links (issues #6, #34).

  scripts/experiments.py [--scenario NAME[,NAME]|all] [--duration S] [--tcp-duration S]
      [--points LIST] [--delay-ms LIST] [--variants LIST] [--runs N] [--scale F]
      [--tcp-scale auto|F] [--queue N] [--access-queue N] [--max-load CPUS]
      [--wait-quiet S] [--no-lock] [--out DIR] [--merge] [--no-tcp] [--only-tcp]
      [--quick] [--check] [--no-plots] [--engine PATH] [--list] [--tables]

The quick check (~3 min): scripts/experiments.py --scenario loss --points 1,10
    --variants dfcp-ours,cubic,reno,bbr --check

Scenarios (configs/exp-*.ini are the templates; every link rate is multiplied
by --scale for the DFCP variants, by --tcp-scale for kernel TCP and the mixed
scenario; delays are not):
  loss        one pair, 1 Gbit/s, 0 ms, plr 0/0.1/1/5/10/50 % (one-way, data direction)
  delay       one pair, 1 Gbit/s, no loss, one-way delay 0/5/10/50/100/150/200 ms
  dumbbell    two pairs, one 1 Gbit/s WF2Q+ 50/50 bottleneck, flow 1 10 ms,
              flow 2 0..100 ms
  fifo        the dumbbell with a shared FIFO instead of WF2Q+
  parking1    parking lot case 1: link 1 1 Gbit/s 10 ms, link 2 500 Mbit/s 0..100 ms
  parking2    parking lot case 2: link 1 1 Gbit/s 50 ms, link 2 1 Gbit/s 0..100 ms
  mixed       DFCP (ours) and one kernel CUBIC (or, -bbr variants, BBR) flow on one
              bottleneck, WF2Q+ and FIFO
  ratios      the loss scenario at 1 and 10 % x one-way delay 0/50/100 ms (--delay-ms):
              the DFCP authors' headline ratios DFCP / Reno, CUBIC, BBR
  burst       one pair, 1 Gbit/s, Gilbert-Elliott loss (mean 1/5 %, bursts of 4 packets)
              at 0 and 50 ms one-way (--delay-ms)
  short       one pair, 1 Gbit/s, 1 % loss, 50 ms one-way: the completion time of a
              1/10/100 MiB transfer, DFCP (ours), BBR and CUBIC (none past 30 s)
Variants per point (parking lot 1 adds dfcp-hint: ours with rate_hint): dfcp-thesis (window 100 blocks scaled with the link rate so it
covers the same share of the bandwidth-delay product, redundancy 49, encode and
decode off), dfcp-ours (coding on, redundancy auto, window auto sized to the path),
the kernel TCPs of TCP_CC (cubic, reno, bbr: Debian's iperf3 -C in two network
namespaces, the engine's router between them on net_af_packet veths).

Access links: every sending host, DFCP or kernel TCP, enters the emulated network
through its own access link, a router pipe at 1 Gbit/s x scale with a drop-tail queue
of --access-queue packets (default 1000, a NIC's txqueuelen) in front of any loss or
bottleneck, as the testbed's 1 GbE NICs (Runner.add_access); DFCP senders are paced
at the same rate. --access-queue 0 leaves them out (kernel TCP then leaves its
namespace at veth speed).

Runs (scripts/exp_stats.py): --runs N (default 3, --quick 1) runs per point, round
after round over the plan; the CSV keeps every run (its load average, the CPUs other
processes used, steal, busy), tables and checks use the medians with min-max. A run
during which other processes used more than --max-load CPUs (default 0.25 per CPU)
is marked busy (CSV busy = 1, a dagger in the tables); --wait-quiet S waits up to S
seconds before each run for a quiet machine. An exclusive flock on
/tmp/dfcp-experiments.lock keeps two experiment runs apart (the second waits).

Scales (scripts/exp_scale.py): --scale (default 1, the thesis's rates) for the DFCP
variants; --tcp-scale auto (default) first measures the kernel path's ceiling
(iperf3 CUBIC through the router with no emulation, 2 x 3 s) and runs kernel TCP at
the highest scale <= 1 whose 1 Gbit/s link is below 80 % of it; a number fixes it.
Every row, table and plot states its scale.

--queue N sets every shaped pipe's queue (default: the thesis's 100 packets; with
--scale 0.05, --queue 5 keeps the thesis's queue-to-BDP ratio). --quick is the CI
subset (test/experiments/, which fixes both scales at 0.05), --tables prints markdown
tables of OUT/results.json. --merge keeps the rows of OUT/results.json that this run
does not redo (split a sweep by --scenario and merge).
scripts/exp_seeds.py imports this module (Ini, NetEnv, Runner): keep its API.

Results: OUT/<scenario>.csv, OUT/results.json (every run's rows + the checks), OUT/plots/
*.png and *.svg (gnuplot, of the medians), OUT/runs/ (configs, summaries, logs of every
run: TAG, TAG-r2, TAG-r3). The headline ratios (loss and ratios scenarios with
dfcp-ours and a kernel TCP) are printed at the end, next to the authors' ~4x (Reno,
1 %), ~8x (CUBIC, 1 %), >250x (both, 10 %). --check exits 1 when an expected shape
does not hold (the CI test, test/experiments/): DFCP (ours) >= 0.85 (1 - p) x link up
to 10 % loss, CUBIC and Reno < 0.2 x DFCP at >= 10 % (none for BBR), dumbbell Jain
>= 0.99 at every RTT, parking-lot wire rates within 5 % of the WF2Q+ shares.
"""
import argparse
import csv
import json
import math
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import exp_scale
import exp_stats
import exp_vsbbr

SRC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SKIP = 77

# Data frame of DFCP: T + 66 bytes; on the link + 24 (preamble, IFG, FCS).
DFCP_T = 1420
DFCP_FRAME = DFCP_T + 66
L1_OVERHEAD = 24
DFCP_K = 47
BLOCK_BYTES = DFCP_K * DFCP_T

FULL_POINTS = {
    "loss": [0, 0.1, 1, 5, 10, 50],
    "delay": [0, 5, 10, 50, 100, 150, 200],
    "dumbbell": [0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100],
    "fifo": [0, 20, 50, 100],
    "parking1": [0, 20, 50, 100],
    "parking2": [0, 20, 50, 100],
    "mixed": [10, 50, 100],
    "ratios": [1, 10],
    "burst": [1, 5],
    "short": [1, 10, 100],
}
QUICK_POINTS = {
    "loss": [10, 50],
    "delay": [0, 100],
    "dumbbell": [100],
    "fifo": [],  # dumbbell: the tcp CI case adds --queue 5 --points 0,100
    "parking1": [50],
    "parking2": [],
    "mixed": [50],
    "ratios": [],
    "burst": [],
    "short": [],
}
SCENARIOS = list(FULL_POINTS)
DFCP_VARIANTS = ["dfcp-thesis", "dfcp-ours"]
# parking lot 1 also runs ours with rate_hint (its dead packets with and without)
DFCP_HINT = "dfcp-hint"
DFCP_ALL = DFCP_VARIANTS + [DFCP_HINT]
# kernel TCP variants: name -> iperf3 -C (the kernel's congestion-control module)
TCP_CC = {
    "cubic": "cubic",
    "reno": "reno",
    "bbr": "bbr",
}
TCP_VARIANTS = list(TCP_CC)
# the hosts' net.ipv4.tcp_rmem / tcp_wmem maximum (bytes)
TCP_BUF = 64 << 20
# the ratios scenario: loss points x these one-way delays (--delay-ms)
RATIO_DELAYS = [0, 50, 100]
VARIANTS = {
    "loss": DFCP_VARIANTS + TCP_VARIANTS,
    "delay": DFCP_VARIANTS + TCP_VARIANTS,
    "dumbbell": DFCP_VARIANTS + TCP_VARIANTS,
    "fifo": ["dfcp-ours"] + TCP_VARIANTS,
    "parking1": DFCP_ALL + TCP_VARIANTS,
    "parking2": DFCP_VARIANTS + TCP_VARIANTS,
    "mixed": ["wf2q+", "fifo", "wf2q+-bbr", "fifo-bbr"],
    "ratios": ["dfcp-ours"] + TCP_VARIANTS,
    "burst": ["dfcp-ours"] + TCP_VARIANTS,
    "short": ["dfcp-ours", "bbr", "cubic"],
}
QUICK_VARIANTS = {
    "loss": ["dfcp-ours", "cubic"],
    "delay": ["dfcp-ours"],
    "dumbbell": ["dfcp-ours", "cubic"],
    "parking1": ["dfcp-ours"],
    "mixed": ["wf2q+", "fifo"],
}
XLABEL = {
    "loss": "packet loss rate (%)",
    "delay": "one-way delay (ms)",
    "dumbbell": "flow 2 one-way delay (ms)",
    "fifo": "flow 2 one-way delay (ms)",
    "parking1": "link 2 delay (ms)",
    "parking2": "link 2 delay (ms)",
    "mixed": "one-way delay of both flows (ms)",
    "ratios": "packet loss rate (%)",
    "burst": "mean packet loss rate (%), bursts of 4",
    "short": "transfer (MiB)",
}


class Stop(Exception):
    pass


def on_signal(signum, frame):
    raise Stop(f"signal {signum}")


# ------------------------------------------------------------------ INI

class Ini:
    """An engine config as ordered sections of lines (comments kept); keys can be
    set, added and deleted, sections dropped or added, then written back."""

    def __init__(self, text):
        self.head = []
        self.secs = []  # [name, [lines]]
        cur = self.head
        for line in text.splitlines():
            m = re.match(r"\s*\[([^\]]+)\]\s*$", line)
            if m:
                cur = []
                self.secs.append([m.group(1).strip(), cur])
            else:
                cur.append(line)

    def _sec(self, name):
        for s in self.secs:
            if s[0] == name:
                return s
        return None

    def has(self, name):
        return self._sec(name) is not None

    def names(self, prefix=""):
        return [s[0] for s in self.secs if s[0].startswith(prefix)]

    def get(self, name, key, default=None):
        s = self._sec(name)
        if s is None:
            return default
        for line in s[1]:
            m = re.match(r"\s*([A-Za-z0-9_]+)\s*=\s*(.*?)\s*$", line)
            if m and m.group(1) == key:
                return m.group(2)
        return default

    def set(self, name, key, value):
        s = self._sec(name)
        if s is None:
            raise KeyError(f"no section [{name}]")
        for i, line in enumerate(s[1]):
            m = re.match(r"\s*([A-Za-z0-9_]+)\s*=", line)
            if m and m.group(1) == key:
                if value is None:
                    del s[1][i]
                else:
                    s[1][i] = f"{key} = {value}"
                return
        if value is None:
            return
        # append after the last key line of the section
        last = max([i for i, l in enumerate(s[1]) if "=" in l and not l.lstrip().startswith("#")]
                   or [-1])
        s[1].insert(last + 1, f"{key} = {value}")

    def keys(self, name):
        """The section's keys and values, in order (comments left out)."""
        out = {}
        for line in self._sec(name)[1]:
            m = re.match(r"\s*([A-Za-z0-9_]+)\s*=\s*(.*?)\s*$", line)
            if m and not line.lstrip().startswith("#"):
                out[m.group(1)] = m.group(2)
        return out

    def drop(self, name):
        self.secs = [s for s in self.secs if s[0] != name]

    def add(self, name, keys):
        lines = [f"{k} = {v}" for k, v in keys.items()] + [""]
        self.secs.append([name, lines])

    def text(self):
        out = list(self.head)
        for name, lines in self.secs:
            out.append(f"[{name}]")
            out.extend(lines)
        return "\n".join(out) + "\n"


def mbit(x):
    """Rate string for the engine from Mbit/s (exact decimal, kbit resolution)."""
    k = int(round(x * 1000))
    return f"{k}kbit"


# ------------------------------------------------------------------ shares

def wf2q_shares(offers, links):
    """Per-link weighted fair sharing of unresponsive flows, link after link.

    offers: {flow: rate}; links: [(capacity, {flow: weight})] in path order.
    A flow's rate into a link is what the previous link let through; each link
    gives weighted max-min shares of its capacity over the rates offered to it.
    Returns ({flow: rate out of its last link}, [{flow: rate out of link i}])."""
    rate = dict(offers)
    per_link = []
    for cap, weights in links:
        demand = {f: rate[f] for f in weights}
        alloc = {}
        left, active = cap, set(demand)
        while active:
            wsum = sum(weights[f] for f in active)
            sat = [f for f in active if demand[f] <= left * weights[f] / wsum + 1e-9]
            if not sat:
                for f in active:
                    alloc[f] = left * weights[f] / wsum
                break
            for f in sat:
                alloc[f] = demand[f]
                left -= demand[f]
                active.discard(f)
        for f, a in alloc.items():
            rate[f] = a
        per_link.append(alloc)
    return rate, per_link


def maxmin_shares(links):
    """Max-min fair shares of responsive flows (what an ideal TCP would reach):
    links: [(capacity, [flows])]."""
    flows = sorted({f for _, fl in links for f in fl})
    alloc, fixed = {f: 0.0 for f in flows}, set()
    caps = [c for c, _ in links]
    while len(fixed) < len(flows):
        best = None
        for i, (c, fl) in enumerate(links):
            free = [f for f in fl if f not in fixed]
            if not free:
                continue
            inc = (caps[i] - sum(alloc[f] for f in fl)) / len(free)
            if best is None or inc < best[0]:
                best = (inc, free)
        if best is None:
            break
        for f in flows:
            if f not in fixed:
                alloc[f] += best[0]
        fixed.update(best[1])
    return alloc


def jain(xs):
    xs = [x for x in xs if x is not None]
    if not xs or sum(x * x for x in xs) == 0:
        return None
    return sum(xs) ** 2 / (len(xs) * sum(x * x for x in xs))


# ------------------------------------------------------------------ namespaces

def sh(cmd, check=True, quiet=False):
    p = subprocess.run(cmd, shell=True, capture_output=True, text=True)
    if check and p.returncode != 0:
        raise RuntimeError(f"'{cmd}' failed: {p.stderr.strip()}")
    return p


def af_packet_ports(ini, ports):
    """Put [port P] on net_af_packetN,iface=IF for each (P, IF), N in order. The engine
    creates them, so that the preset's devargs apply (qdisc bypass, 4096-frame rings:
    drivers-config/net_af_packet.ini); an EAL --vdev would leave DPDK's defaults."""
    for i, (port, iface) in enumerate(ports):
        ini.set(f"port {port}", "device", f"net_af_packet{i},iface={iface}")
        ini.set(f"port {port}", "preset", "net_af_packet")


def rps_mask(router_cpu=1):
    """RPS CPU mask (hex) of every CPU but the router's; "0" (off) on one CPU."""
    n = os.cpu_count() or 1
    return format(((1 << n) - 1) & ~(1 << router_cpu), "x") if n > 1 else "0"


class NetEnv:
    """Three namespaces: C (kernel clients), R (the engine's router), S (kernel
    servers). C and S each hold a bridge br0 with two ports: one veth toward the
    router (its peer ea / eb in R), one toward the engine's DFCP endpoints (peer
    da / db in R, used by the mixed scenario). Addresses 10.0.0.x/16 (C) and
    10.0.1.x/16 (S) on the bridges. Offloads off everywhere, MTU 1500."""

    def __init__(self, log):
        pid = os.getpid()
        self.c, self.r, self.s = f"dfcpx-c-{pid}", f"dfcpx-r-{pid}", f"dfcpx-s-{pid}"
        self.made = []
        self.log = log
        self.addrs = {"c": [], "s": []}

    @staticmethod
    def why_not():
        if os.geteuid() != 0:
            return "needs root (network namespaces)"
        for c in ("ip", "iperf3"):
            if shutil.which(c) is None:
                return f"needs {c}"
        return None

    def up(self):
        for ns in (self.c, self.r, self.s):
            p = sh(f"ip netns add {ns}", check=False)
            if p.returncode != 0:
                raise PermissionError(f"cannot create a network namespace: {p.stderr.strip()}")
            self.made.append(ns)
            for cmd in ("sysctl -qw net.ipv6.conf.all.disable_ipv6=1",
                        "sysctl -qw net.ipv6.conf.default.disable_ipv6=1",
                        "ip link set lo up"):
                sh(f"ip netns exec {ns} {cmd}", check=False)
        c, r, s = self.c, self.r, self.s
        for a, b, nsb in (("ea", "cr", c), ("da", "cd", c), ("eb", "sr", s), ("db", "sd", s)):
            p = sh(f"ip -n {r} link add {a} type veth peer name {b} netns {nsb}", check=False)
            if p.returncode != 0:
                raise PermissionError(f"cannot create a veth pair: {p.stderr.strip()}")
        for ns, ports in ((c, ("cr", "cd")), (s, ("sr", "sd"))):
            sh(f"ip -n {ns} link add br0 type bridge")
            for d in ports:
                sh(f"ip -n {ns} link set {d} master br0")
        eth = shutil.which("ethtool")
        for ns, devs in ((r, ("ea", "da", "eb", "db")), (c, ("cr", "cd", "br0")),
                         (s, ("sr", "sd", "br0"))):
            for d in devs:
                sh(f"ip -n {ns} link set {d} mtu 1500 up")
                if eth:
                    sh(f"ip netns exec {ns} ethtool -K {d} tso off gso off gro off tx off rx off",
                       check=False)
        if not eth:
            self.log("note: no ethtool, veth offloads left on (TCP segments may be merged)")
        # kernel sides: no ARP/ICMP noise from the router namespace
        sh(f"ip netns exec {r} sysctl -qw net.ipv4.conf.all.arp_ignore=8", check=False)
        # the hosts' TCP buffers: Linux's defaults (tcp_wmem max 4 MiB) hold ~3 MB in
        # flight, 240 Mbit/s at 100 ms, whatever the congestion control; TCP_BUF covers
        # 1 Gbit/s x 200 ms twice (BBR keeps 2 BDP in flight)
        for ns in (c, s):
            for key in ("tcp_rmem", "tcp_wmem"):
                sh(f"ip netns exec {ns} sysctl -qw net.ipv4.{key}='4096 131072 {TCP_BUF}'",
                   check=False)
        # the hosts' receive work off the router's CPU (lcore 1): a frame the engine
        # sends is otherwise received by the host's stack inside the engine's sendto()
        # (doc/performance.md, "Kernel path")
        mask = rps_mask()
        for ns, d in ((c, "cr"), (s, "sr")):
            sh(f"ip netns exec {ns} sh -c 'echo {mask} > /sys/class/net/{d}/queues/rx-0/rps_cpus'",
               check=False)

    def hosts(self, c_ips, s_ips):
        """Put exactly these addresses on the client and server bridges."""
        for side, ns, ips in (("c", self.c, c_ips), ("s", self.s, s_ips)):
            if self.addrs[side] == list(ips):
                continue
            sh(f"ip -n {ns} addr flush dev br0", check=False)
            for ip in ips:
                sh(f"ip -n {ns} addr add {ip}/16 dev br0")
            sh(f"ip -n {ns} neigh flush all", check=False)
            self.addrs[side] = list(ips)

    def down(self):
        for ns in self.made:
            # kill what is left in the namespace, then remove it
            p = sh(f"ip netns pids {ns}", check=False)
            for pid in p.stdout.split():
                try:
                    os.kill(int(pid), signal.SIGKILL)
                except (OSError, ValueError):
                    pass
            sh(f"ip netns del {ns}", check=False)
        self.made = []


# ------------------------------------------------------------------ runner

class Runner(exp_vsbbr.Scenarios):
    # what exp_vsbbr's scenario methods use of this module
    Ini = Ini
    SRC = SRC
    DFCP_VARIANTS = DFCP_ALL
    TCP_CC = TCP_CC
    mbit = staticmethod(mbit)

    def __init__(self, args):
        self.a = args
        self.engine = args.engine
        self.out = args.out
        self.runs = os.path.join(self.out, "runs")
        os.makedirs(self.runs, exist_ok=True)
        self.procs = []
        self.net = None
        self.net_error = None
        self.rows = []
        self.t0 = time.time()
        self.done_s = 0.0
        self.n_done = 0
        self.n_total = 0
        self.est_left = 0.0
        # the scale of the run in progress: args.scale (DFCP) or the TCP scale (go())
        self.cur_scale = args.scale
        self.tcp_scale = getattr(args, "tcp_scale", args.scale)
        self.tcp_ceiling = None
        self.nruns = getattr(args, "runs", 1)
        self.cur_run = 0
        # the access links (add_access); off for callers that do not ask (exp_seeds.py)
        self.access_queue = getattr(args, "access_queue", 0)
        self.logf = open(os.path.join(self.out, "experiments.log"), "a")
        self.tcp_secs = {}  # run_tcp: each client's seconds (iperf3's sum_received)
        self.tcp_json = {}  # run_tcp: each client's iperf3 -J output (None if unreadable)

    def log(self, msg):
        self.logf.write(msg + "\n")
        self.logf.flush()
        print(msg, flush=True)

    # --- progress
    def progress(self, scen, i, n, what):
        el = time.time() - self.t0
        if self.n_done:
            eta = self.est_left * (el / max(self.done_s, 1e-9))
        else:
            eta = self.est_left
        sys.stdout.write(f"\r[{scen} {i}/{n}] {what:<34} elapsed {el:6.0f}s  "
                         f"ETA {eta:5.0f}s   ")
        sys.stdout.flush()

    # --- rates
    def link(self, full_mbit):
        return full_mbit * self.cur_scale

    def access_mbit(self):
        """The access links' rate (1 Gbit/s x scale), or None when they are off."""
        return self.link(1000) if self.access_queue else None

    def add_access(self, ini, hosts):
        """Every sending host's own access link, in front of the router's first pipe
        (before any loss or bottleneck), as the testbed's 1 GbE NICs: a pipe per host
        at access_mbit() with a drop-tail queue of access_queue packets (a NIC's
        txqueuelen), matched on the host's address, other traffic passed on. Kernel
        TCP and DFCP cross the same ones."""
        if not self.access_queue:
            return
        head = ini.get("task r0", "a_to_b")
        for i in reversed(range(len(hosts))):
            name = f"access{i + 1}"
            keys = {"bw": mbit(self.access_mbit()), "queue": self.access_queue,
                    "sched": "fifo", "unmatched": "pass"}
            if head != "pass":
                keys["next"] = head
            ini.add(f"pipe {name}", keys)
            ini.add(f"queue {name}_q", {"pipe": name, "match": f"ip from {hosts[i]} to any"})
            head = name
        ini.set("task r0", "a_to_b", head)

    def tag(self, name):
        """A run's file names in OUT/runs: NAME, NAME-r2, NAME-r3 for go()'s runs 2, 3."""
        return name + (f"-r{self.cur_run + 1}" if self.cur_run else "")

    def thesis_window(self):
        return max(1, int(round(100 * self.cur_scale)))

    # --- processes
    def popen(self, cmd, **kw):
        p = subprocess.Popen(cmd, **kw)
        self.procs.append(p)
        return p

    def kill_all(self):
        for p in self.procs:
            if p.poll() is None:
                try:
                    p.send_signal(signal.SIGINT)
                    p.wait(timeout=3)
                except Exception:
                    p.kill()
                    p.wait()
        self.procs = []

    def cleanup(self):
        self.kill_all()
        if self.net is not None:
            self.net.down()
            self.net = None

    def need_net(self):
        if self.net is not None:
            return True
        if self.net_error is not None:
            return False
        why = NetEnv.why_not()
        if why is None:
            try:
                net = NetEnv(self.log)
                self.net = net
                net.up()
                return True
            except (PermissionError, RuntimeError) as e:
                why = str(e)
                self.net.down()
                self.net = None
        self.net_error = why
        self.log(f"\nkernel TCP runs skipped: {why}")
        return False

    # --- DFCP settings
    def dfcp_flow(self, ini, name, variant, rate_mbit, rtt_ms, duration):
        ini.set(name, "rate", mbit(rate_mbit))
        ini.set(name, "duration", f"{duration}s")
        if variant == "dfcp-thesis":
            ini.set(name, "window", self.thesis_window())
            ini.set(name, "redundancy", 49)
            ini.set(name, "encode", "off")
            ini.set(name, "path_rate", None)
            ini.set(name, "path_rtt", None)
        else:
            ini.set(name, "window", "auto")
            ini.set(name, "redundancy", "auto")
            ini.set(name, "encode", "on")
            ini.set(name, "path_rate", mbit(rate_mbit))
            ini.set(name, "path_rtt", f"{int(rtt_ms)}ms")
            if variant == DFCP_HINT:
                ini.set(name, "rate_hint", "on")

    def dfcp_receivers(self, ini, variant):
        for name in ini.names("flow "):
            if ini.get(name, "role") == "receiver":
                ini.set(name, "decode", "off" if variant == "dfcp-thesis" else "on")

    def apply_queue(self, ini):
        """--queue N: drop-tail limit of every shaped pipe (packets per queue; the
        FIFO variants share one queue of 2 N)."""
        if not self.a.queue:
            return
        for name in ini.names("pipe "):
            if ini.get(name, "bw") and not name.startswith("pipe access"):
                n = self.a.queue * (2 if ini.get(name, "sched") == "fifo" else 1)
                ini.set(name, "queue", n)

    # --- one engine run (DFCP, ring ports)
    def run_engine(self, tag, ini, timeout, extra=()):
        """One engine run of ini; extra: more engine options. Its summary JSON."""
        self.apply_queue(ini)
        cfg = os.path.join(self.runs, tag + ".ini")
        js = os.path.join(self.runs, tag + ".json")
        logp = os.path.join(self.runs, tag + ".log")
        with open(cfg, "w") as f:
            f.write(ini.text())
        if os.path.exists(js):
            os.unlink(js)
        with open(logp, "w") as lf:
            p = self.popen([self.engine, "--", "--config", cfg, "--summary-json", js,
                            *extra], stdout=lf, stderr=subprocess.STDOUT)
            try:
                rc = p.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                p.send_signal(signal.SIGINT)
                rc = p.wait(timeout=15)
        self.procs.remove(p)
        if rc != 0 or not os.path.exists(js):
            with open(logp, errors="replace") as lf:
                last = (lf.read().strip().splitlines() or [""])[-1]
            raise RuntimeError(f"engine run {tag} failed (exit {rc}), see {logp}: {last[:300]}")
        with open(js) as f:
            return json.load(f)

    # --- one kernel-TCP run (optionally with DFCP flows on af_packet)
    def to_tcp(self, ini, keep_dfcp=False):
        """Derive the kernel-TCP variant of a template."""
        args = ini.get("eal", "args")
        args = args.replace("--log-level=pmd.net.ring:warning", "")
        ini.set("eal", "args", args.strip())
        ports = [("ra", "ea"), ("rb", "eb")] + ([("hosts", "da"), ("sinks", "db")]
                                                 if keep_dfcp else [])
        af_packet_ports(ini, ports)
        if keep_dfcp:
            for name in ini.names("flow "):
                ini.set(name, "remote_mac", None)  # ARP across bridges and router
            ini.set("task d0", "checksum", "full")
            ini.set("task d1", "checksum", "full")
        else:
            for name in ini.names("flow "):
                ini.drop(name)
            for name in ("task d0", "task d1", "port hosts", "port sinks"):
                ini.drop(name)
            ini.set("lcore 1", "tasks", "r0")
        ini.set("engine", "duration", "0")

    def run_tcp(self, tag, ini, clients, duration, wait_dfcp=False, nbytes=None):
        """clients: [(cc, src_ip, dst_ip, port)]. Returns (summary, {i: goodput}); each
        client's seconds in self.tcp_secs. nbytes: each sends that many bytes (iperf3
        -n), given up after duration seconds."""
        self.apply_queue(ini)
        cfg = os.path.join(self.runs, tag + ".ini")
        js = os.path.join(self.runs, tag + ".json")
        logp = os.path.join(self.runs, tag + ".log")
        with open(cfg, "w") as f:
            f.write(ini.text())
        if os.path.exists(js):
            os.unlink(js)
        net = self.net
        lf = open(logp, "w")
        eng = self.popen(["ip", "netns", "exec", net.r, self.engine, "--", "--config", cfg,
                          "--summary-json", js], stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True)
        deadline = time.time() + 30
        ok = False
        for line in eng.stdout:
            lf.write(line)
            if "running" in line:
                ok = True
                break
            if time.time() > deadline:
                break
        if not ok:
            eng.kill()
            rest = eng.communicate()[0]
            lf.write(rest or "")
            lf.close()
            self.procs.remove(eng)
            raise RuntimeError(f"engine for {tag} did not start, see {logp}")
        servers, cls = [], []
        short = [sys.executable, os.path.join(SRC, "scripts", "exp_vsbbr.py")]
        for i, (cc, src, dst, port) in enumerate(clients):
            # nbytes: a sink that times the transfer to its last byte (iperf3 -n
            # stops when the sender has written, not when the receiver has read)
            cmd = (short + ["sink", dst, str(port), str(nbytes)] if nbytes else
                   # -J: the client's --get-server-output then carries the
                   # receiver's intervals as JSON (server_output_json)
                   ["iperf3", "-s", "-1", "-J", "-B", dst, "-p", str(port)])
            servers.append(self.popen(["ip", "netns", "exec", net.s] + cmd,
                                      stdout=subprocess.PIPE if nbytes else subprocess.DEVNULL,
                                      stderr=subprocess.DEVNULL, text=True))
        time.sleep(0.3)
        for i, (cc, src, dst, port) in enumerate(clients):
            cmd = (short + ["send", src, dst, str(port), str(nbytes), cc] if nbytes else
                   ["iperf3", "-c", dst, "-B", src, "-p", str(port), "-t", str(duration),
                    "-C", cc, "-J", "--get-server-output", "--connect-timeout", "3000"])
            cls.append(self.popen(["ip", "netns", "exec", net.c] + cmd,
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  text=True))
        good, self.tcp_secs, self.tcp_json = {}, {}, {}
        for i, c in enumerate(cls):
            try:
                out, _ = c.communicate(timeout=duration + (0 if nbytes else 30))
            except subprocess.TimeoutExpired:
                c.kill()
                out, _ = c.communicate()
            self.procs.remove(c)
            lf.write(f"--- {'sender' if nbytes else 'iperf3 client'} {i}\n{out[-3000:]}\n")
            self.tcp_json[i] = None
            good[i] = 0.0
            if nbytes:
                continue
            try:
                j = json.loads(out)
                self.tcp_json[i] = j
                good[i] = j["end"]["sum_received"]["bits_per_second"] / 1e6
            except (ValueError, KeyError, TypeError):
                pass
        for i, s in enumerate(servers):
            try:
                out, _ = s.communicate(timeout=5 + (duration if nbytes else 0))
            except subprocess.TimeoutExpired:
                s.kill()
                out, _ = s.communicate()
            self.procs.remove(s)
            if nbytes:
                lf.write(f"--- sink {i}\n{out}\n")
                try:
                    j = json.loads(out.strip().splitlines()[-1])
                    if j["bytes"] >= nbytes:  # else it did not finish: no time
                        self.tcp_secs[i] = j["seconds"]
                        good[i] = j["bytes"] * 8 / j["seconds"] / 1e6
                except (ValueError, KeyError, IndexError, ZeroDivisionError):
                    pass
        if wait_dfcp:
            # the DFCP sender stops after its duration; give it time to finish
            time.sleep(2.0)
        eng.send_signal(signal.SIGINT)
        try:
            rest, _ = eng.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            eng.kill()
            rest, _ = eng.communicate()
        self.procs.remove(eng)
        lf.write(rest or "")
        lf.close()
        if not os.path.exists(js):
            raise RuntimeError(f"engine for {tag} wrote no summary, see {logp}")
        with open(js) as f:
            return json.load(f), good

    # --- helpers over a summary
    @staticmethod
    def flow(js, name):
        for f in js.get("flows", []):
            if f["name"] == name:
                return f
        return None

    @staticmethod
    def pipe(js, name):
        for p in js.get("pipes", []):
            if p["name"] == name:
                return p
        return None

    @staticmethod
    def queue(js, pipe, name):
        p = Runner.pipe(js, pipe)
        for q in (p or {}).get("queues", []):
            if q["name"] == name:
                return q
        return None

    def row(self, **kw):
        kw["scale"] = self.cur_scale
        kw["queue"] = self.a.queue or 100  # the templates' (FIFO variants: 2x shared)
        kw["access_mbps"] = self.access_mbit()
        kw["access_queue"] = self.access_queue or None
        self.rows.append(kw)
        return kw

    def dfcp_rx(self, js, name):
        f = self.flow(js, name) or {}
        act = f.get("active_s") or 0
        l1 = ((f.get("rx_bytes", 0) + L1_OVERHEAD * f.get("rx_packets", 0)) * 8 / act / 1e6
              if act else 0.0)
        return {"goodput_mbps": f.get("goodput_mbps", 0.0), "rx_l1_mbps": l1,
                "active_s": act, "done": f.get("done")}

    def dfcp_tx(self, js, name):
        f = self.flow(js, name) or {}
        # the sender's pacer (lib/pace): achieved % of its rate, its longest lag
        pc = next((p for p in js.get("pace", []) if p.get("name") == name), {})
        return {"redundancy": f.get("redundancy"), "window": f.get("window"),
                "loss_ppm": f.get("loss_ppm"), "topups": f.get("topups"),
                "timeouts": f.get("timeouts"), "tx_mbps": f.get("throughput_mbps"),
                "pace_pct": pc.get("achieved_pct"), "pace_max_lag_ms": pc.get("max_lag_ms")}

    # ---------------------------------------------------------- scenarios
    def single(self, scen, x, variant, d, delay_ms=0):
        """loss / delay / ratios: one pair; loss and ratios at one-way delay_ms."""
        link = self.link(1000)
        plr = 0 if scen == "delay" else x
        delay = x if scen == "delay" else (delay_ms or 0)
        ini = Ini(open(os.path.join(SRC, "configs/exp-single.ini")).read())
        ini.set("pipe link", "bw", mbit(link))
        ini.set("pipe link", "delay", f"{delay}ms")
        ini.set("pipe link", "plr", f"{plr}%")
        if delay > 150:
            # the router's mbufs cover the pipe's delay line at the smallest frames
            # (~1.5 M a second at 1 Gbit/s): 200 ms needs more than 1 GiB
            ini.set("eal", "args", ini.get("eal", "args").replace("-m 1024", "-m 2048"))
        tag = self.tag(f"{scen}-{x}-{variant}" + (f"-{delay}ms" if scen != "delay" and delay
                                                   else ""))
        base = dict(scenario=scen, x=x, variant=variant, link_mbps=link, plr_pct=plr,
                    delay_ms=delay)
        self.add_access(ini, ["10.0.0.1"])
        if variant in DFCP_ALL:
            self.dfcp_flow(ini, "flow f1", variant, link, delay + 20, d)
            self.dfcp_receivers(ini, variant)
            ini.set("engine", "duration", f"{d + 10 + delay / 100}s")
            js = self.run_engine(tag, ini, d + 40)
            r = self.dfcp_rx(js, "r1")
            p = self.pipe(js, "link") or {}
            self.row(**base, flow="f1", **r, **self.dfcp_tx(js, "f1"),
                     lost_packets=p.get("lost_packets"), dropped_packets=p.get("dropped_packets"),
                     in_packets=p.get("in_packets"),
                     queue_drop_pct=(100 * p["dropped_packets"] / p["in_packets"]
                                     if p.get("in_packets") else None))
        else:
            if not self.need_net():
                return
            self.net.hosts(["10.0.0.1"], ["10.0.1.1"])
            self.to_tcp(ini)
            js, good = self.run_tcp(tag, ini, [(TCP_CC[variant], "10.0.0.1", "10.0.1.1", 5201)],
                                    d)
            p = self.pipe(js, "link")
            self.row(**base, flow="tcp", goodput_mbps=good[0],
                     lost_packets=p and p["lost_packets"], dropped_packets=p and p["dropped_packets"])

    def dumbbell(self, scen, x, variant, d):
        link = self.link(1000)
        ini = Ini(open(os.path.join(SRC, "configs/exp-dumbbell.ini")).read())
        ini.set("pipe bottleneck", "bw", mbit(link))
        ini.set("pipe delay1", "delay", "10ms")
        ini.set("pipe delay2", "delay", f"{x}ms")
        fifo = scen == "fifo"
        if fifo:
            ini.drop("queue q1")
            ini.drop("queue q2")
            ini.set("pipe bottleneck", "sched", "fifo")
            ini.set("pipe bottleneck", "queue", 200)
        tag = self.tag(f"{scen}-{x}-{variant}")
        base = dict(scenario=scen, x=x, variant=variant, link_mbps=link, delay1_ms=10,
                    delay2_ms=x, sched="fifo" if fifo else "wf2q+")
        res = []
        self.add_access(ini, ["10.0.0.1", "10.0.0.2"])
        if variant in DFCP_ALL:
            self.dfcp_flow(ini, "flow f1", variant, link, 10 + 40, d)
            self.dfcp_flow(ini, "flow f2", variant, link, x + 40, d)
            self.dfcp_receivers(ini, variant)
            ini.set("engine", "duration", f"{d + 12}s")
            js = self.run_engine(tag, ini, d + 40)
            for fl, rx in (("f1", "r1"), ("f2", "r2")):
                res.append(self.row(**base, flow=fl, **self.dfcp_rx(js, rx),
                                    **self.dfcp_tx(js, fl)))
        else:
            if not self.need_net():
                return
            self.net.hosts(["10.0.0.1", "10.0.0.2"], ["10.0.1.1", "10.0.1.2"])
            self.to_tcp(ini)
            cc = TCP_CC[variant]
            js, good = self.run_tcp(tag, ini, [(cc, "10.0.0.1", "10.0.1.1", 5201),
                                               (cc, "10.0.0.2", "10.0.1.2", 5202)], d)
            for i, fl in enumerate(("f1", "f2")):
                res.append(self.row(**base, flow=fl, goodput_mbps=good[i]))
        j = jain([r["goodput_mbps"] for r in res])
        for r in res:
            r["jain"] = j

    def parking(self, scen, x, variant, d):
        case = 1 if scen == "parking1" else 2
        l1 = self.link(1000)
        l2 = self.link(500 if case == 1 else 1000)
        d1 = 10 if case == 1 else 50
        ini = Ini(open(os.path.join(SRC, "configs/exp-parkinglot.ini")).read())
        ini.set("pipe link1", "bw", mbit(l1))
        ini.set("pipe link1", "delay", f"{d1}ms")
        ini.set("pipe link2", "bw", mbit(l2))
        ini.set("pipe link2", "delay", f"{x}ms")
        access = self.link(1000)
        share, per_link = wf2q_shares({"long": access, "short1": access, "short2": access},
                                      [(l1, {"long": 1, "short1": 1}),
                                       (l2, {"long": 1, "short2": 1})])
        mm = maxmin_shares([(l1, ["long", "short1"]), (l2, ["long", "short2"])])
        tag = self.tag(f"{scen}-{x}-{variant}")
        base = dict(scenario=scen, x=x, variant=variant, link1_mbps=l1, link2_mbps=l2,
                    link1_delay_ms=d1, link2_delay_ms=x)
        rtts = {"long": d1 + x, "short1": d1, "short2": x}
        names = [("long", "rlong", "10.0.0.1", "10.0.1.1"),
                 ("short1", "rshort1", "10.0.0.2", "10.0.1.2"),
                 ("short2", "rshort2", "10.0.0.3", "10.0.1.3")]
        res = []
        self.add_access(ini, [n[2] for n in names])
        if variant in DFCP_ALL:
            for fl, _, _, _ in names:
                self.dfcp_flow(ini, f"flow {fl}", variant, access, rtts[fl] + 40, d)
            self.dfcp_receivers(ini, variant)
            ini.set("engine", "duration", f"{d + 12}s")
            js = self.run_engine(tag, ini, d + 40)
            for fl, rx, _, _ in names:
                res.append(self.row(**base, flow=fl, share_mbps=share[fl], maxmin_mbps=mm[fl],
                                    **self.dfcp_rx(js, rx), **self.dfcp_tx(js, fl)))
        else:
            if not self.need_net():
                return
            self.net.hosts([n[2] for n in names], [n[3] for n in names])
            self.to_tcp(ini)
            js, good = self.run_tcp(tag, ini, [(TCP_CC[variant], n[2], n[3], 5201 + i)
                                               for i, n in enumerate(names)], d)
            for i, (fl, _, _, _) in enumerate(names):
                res.append(self.row(**base, flow=fl, share_mbps=share[fl], maxmin_mbps=mm[fl],
                                    goodput_mbps=good[i]))
        # dead packets: the long flow's bytes that crossed link 1 and were dropped at link 2
        q1, q2 = self.queue(js, "link1", "l1_long"), self.queue(js, "link2", "l2_long")
        p1 = self.pipe(js, "link1")
        if q1 and q2 and p1:
            dead_b = q2["dropped_bytes"] + L1_OVERHEAD * q2["dropped_packets"]
            l1_b = p1["out_bytes"] + L1_OVERHEAD * p1["out_packets"]
            dur = js.get("duration_s") or 1
            for r in res:
                r["dead_mbps"] = dead_b * 8 / dur / 1e6
                r["dead_frac_link1"] = dead_b / l1_b if l1_b else 0.0
                r["link1_long_out_pkts"] = q1["out_packets"]
                r["link2_long_drop_pkts"] = q2["dropped_packets"]

    def mixed(self, scen, x, variant, d):
        """DFCP (ours) as flow 2 and one kernel TCP flow (CUBIC, or BBR for the -bbr
        variants) as flow 1 on one bottleneck, both at x ms one-way; variant = the
        bottleneck scheduler."""
        if not self.need_net():
            return
        link = self.link(1000)
        ini = Ini(open(os.path.join(SRC, "configs/exp-dumbbell.ini")).read())
        ini.set("pipe bottleneck", "bw", mbit(link))
        ini.set("pipe delay1", "delay", f"{x}ms")
        ini.set("pipe delay2", "delay", f"{x}ms")
        sched, _, cc = variant.partition("-")
        cc = cc or "cubic"
        if sched == "fifo":
            ini.drop("queue q1")
            ini.drop("queue q2")
            ini.set("pipe bottleneck", "sched", "fifo")
            ini.set("pipe bottleneck", "queue", 200)
        ini.drop("flow f1")
        ini.drop("flow r1")
        ini.set("task d0", "flows", "f2")
        # a receiver no sender connects to keeps the engine running (it stops by
        # itself when every flow is done) until the TCP transfer is over
        ini.add("flow rkeep", {"role": "receiver", "local": "10.0.1.9:6009", "sink": "count",
                               "window": 64})
        ini.set("task d1", "flows", "r2, rkeep")
        self.dfcp_flow(ini, "flow f2", "dfcp-ours", link, x + 40, d)
        self.dfcp_receivers(ini, "dfcp-ours")
        ini.set("flow r2", "bottleneck", None)
        self.add_access(ini, ["10.0.0.1", "10.0.0.2"])
        self.net.hosts(["10.0.0.1"], ["10.0.1.1"])
        self.to_tcp(ini, keep_dfcp=True)
        tag = self.tag(f"{scen}-{x}-{variant}")
        js, good = self.run_tcp(tag, ini, [(TCP_CC[cc], "10.0.0.1", "10.0.1.1", 5201)], d,
                                wait_dfcp=True)
        base = dict(scenario=scen, x=x, variant=variant, link_mbps=link, sched=sched)
        r1 = self.row(**base, flow=cc, goodput_mbps=good[0])
        r2 = self.row(**base, flow="dfcp-ours", **self.dfcp_rx(js, "r2"), **self.dfcp_tx(js, "f2"))
        j = jain([r1["goodput_mbps"], r2["goodput_mbps"]])
        r1["jain"] = r2["jain"] = j

    # ---------------------------------------------------------- driver
    def plan(self):
        a = self.a
        scens = SCENARIOS if a.scenario == "all" else a.scenario.split(",")
        plan = []
        for s in scens:
            if s not in FULL_POINTS:
                raise SystemExit(f"unknown scenario {s}; one of {', '.join(SCENARIOS)} or all")
            pts = QUICK_POINTS[s] if a.quick else FULL_POINTS[s]
            if a.points:
                pts = [float(p) if "." in p else int(p) for p in a.points.split(",")]
            vs = (QUICK_VARIANTS.get(s, VARIANTS[s]) if a.quick else VARIANTS[s])
            if a.variants:
                vs = [v for v in vs if v in a.variants.split(",")]
            delays = [None]
            if s in ("loss", "ratios", "burst"):
                delays = (a.delay_ms if getattr(a, "delay_ms", None) is not None
                          else RATIO_DELAYS if s == "ratios"
                          else exp_vsbbr.BURST_DELAYS if s == "burst" else [0])
            for delay in delays:
                for x in pts:
                    for v in vs:
                        tcp = v not in DFCP_ALL or s == "mixed"
                        if tcp and a.no_tcp:
                            continue
                        if not tcp and a.only_tcp:
                            continue
                        plan.append((s, x, v, tcp, delay))
        return plan

    def est(self, item):
        s, x, v, tcp, delay = item
        d = self.a.tcp_duration if tcp else self.a.duration
        ms = delay if delay is not None else x if s != "short" else exp_vsbbr.SHORT_DELAY
        if s == "short" and tcp:
            d = x / 10  # a guess: loss-based TCP at 1 % and 50 ms carries ~100 Mbit/s
        return (d + (3.0 if tcp else 2.0) + ms / 1000 * 3) * self.nruns

    def pick_tcp_scale(self, plan):
        """--tcp-scale auto: the kernel path's ceiling (exp_scale.py), measured
        when the plan has a kernel TCP run."""
        if self.tcp_scale != "auto":
            return
        if not any(item[3] for item in plan):
            self.tcp_scale = None
            return
        self.log("# measuring the kernel path's ceiling (iperf3 CUBIC through the router, "
                 "no emulation)")
        c = exp_scale.measure_ceiling(
            self, lambda: Ini(open(os.path.join(SRC, "configs/exp-single.ini")).read()))
        if c is None:
            self.tcp_scale = None
            return
        self.tcp_scale = exp_scale.pick_tcp_scale(c["mbps"])
        c["tcp_scale"] = self.tcp_scale
        c["when"] = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())
        c["loadavg"] = os.getloadavg()[0]
        self.tcp_ceiling = c
        fit = 1000 * self.tcp_scale < exp_scale.TCP_CEILING_FRAC * c["mbps"]
        self.log(f"# kernel path ceiling {c['mbps']:.1f} Mbit/s (runs {c['runs']}): TCP at "
                 f"{exp_scale.describe(self.tcp_scale)}"
                 + ("" if fit else ", still above 80 % of the ceiling"))

    def go(self):
        plan = self.plan()
        self.n_total = len(plan)
        self.est_left = sum(self.est(i) for i in plan)
        self.pick_tcp_scale(plan)
        tcp = (f", TCP {exp_scale.describe(self.tcp_scale)}" if self.tcp_scale else "")
        acc = (f"access links 1 Gbit/s x scale, queue {self.access_queue}"
               if self.access_queue else "no access links")
        self.log(f"# {len(plan)} points x {self.nruns} runs, DFCP "
                 f"{exp_scale.describe(self.a.scale)}{tcp}, DFCP {self.a.duration} s, TCP "
                 f"{self.a.tcp_duration} s, {acc}, estimated {self.est_left:.0f} s")
        per = {}
        for item in plan:
            per[item[0]] = per.get(item[0], 0) + self.nruns
        idx = {}
        failures = 0
        # round after round over the plan: a point's runs are minutes apart, so one
        # burst of load elsewhere hits one run of several points, not all of one
        for run in range(self.nruns):
            for item in plan:
                idx[item[0]] = idx.get(item[0], 0) + 1
                failures += self.one(item, run, f"{idx[item[0]]}/{per[item[0]]}")
        sys.stdout.write("\n")
        return failures

    def one(self, item, run, prog):
        """Run i of one point of the plan: its rows get the run index, the machine's
        load (exp_stats.CpuMeter) and busy. Returns 1 on an error, else 0."""
        s, x, v, tcp, delay = item
        fn = {"loss": self.single, "delay": self.single, "dumbbell": self.dumbbell,
              "fifo": self.dumbbell, "parking1": self.parking, "parking2": self.parking,
              "mixed": self.mixed, "ratios": self.single, "burst": self.burst,
              "short": self.short}
        at = f"x={x}" + (f" {delay}ms" if delay else "")
        wait = getattr(self.a, "wait_quiet", 0)
        max_load = getattr(self.a, "max_load", None)
        if wait and max_load is not None:
            exp_stats.wait_quiet(max_load, wait, self.log)
        self.progress(s, *prog.split("/"), f"{v} {at} run {run + 1}")
        t = time.time()
        self.cur_scale = self.tcp_scale if tcp else self.a.scale
        if self.cur_scale is None:  # no kernel TCP set-up: the run skips itself
            self.cur_scale = self.a.scale
        n0 = len(self.rows)
        self.cur_run = run
        meter = exp_stats.CpuMeter().start()
        err = 0
        try:
            kw = {"delay_ms": delay} if delay is not None else {}
            fn[s](s, x, v, self.a.tcp_duration if tcp else self.a.duration, **kw)
        except RuntimeError as e:
            err = 1
            self.log(f"\nerror: {s} {at} {v} run {run + 1}: {e}")
        load = meter.stop()
        load["busy"] = int(max_load is not None and load["others_cpu"] > max_load)
        for r in self.rows[n0:]:
            r.update(load, run=run)
        self.done_s += self.est(item) / self.nruns
        self.est_left -= self.est(item) / self.nruns
        self.n_done += 1
        gp = " ".join(f"{r['flow']}={r.get('goodput_mbps', 0):.1f}" for r in self.rows[n0:])
        self.logf.write(f"{s} {at} {v} run {run + 1}: {gp} ({time.time() - t:.1f} s, load "
                        f"{load['load1']}, others {load['others_cpu']} CPUs"
                        + (", busy" if load["busy"] else "") + ")\n")
        self.logf.flush()
        return err


# ------------------------------------------------------------------ output

COLS = ["scenario", "x", "variant", "flow", "run", "scale", "queue", "access_mbps", "access_queue",
        "load1", "others_cpu", "steal_pct", "busy", "goodput_mbps", "rx_l1_mbps", "jain",
        "share_mbps", "maxmin_mbps", "link_mbps", "link1_mbps", "link2_mbps", "plr_pct",
        "delay_ms", "delay1_ms", "delay2_ms", "link1_delay_ms", "link2_delay_ms", "sched",
        "redundancy", "window", "loss_ppm", "topups", "timeouts", "tx_mbps", "active_s",
        "done", "dead_mbps", "dead_frac_link1", "link1_long_out_pkts", "link2_long_drop_pkts",
        "lost_packets", "dropped_packets", "in_packets", "queue_drop_pct", "pace_pct",
        "pace_max_lag_ms", "ge_burst", "bytes", "completion_s"]


def write_csv(out, rows):
    by = {}
    for r in rows:
        by.setdefault(r["scenario"], []).append(r)
    for s, rs in by.items():
        with open(os.path.join(out, f"{s}.csv"), "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=COLS, extrasaction="ignore")
            w.writeheader()
            for r in rs:
                w.writerow({k: (f"{v:.4f}" if isinstance(v, float) else v)
                            for k, v in r.items()})


def get(rows, s, v, flow=None, x=None):
    return [r for r in rows if r["scenario"] == s and r["variant"] == v
            and (flow is None or r["flow"] == flow) and (x is None or r["x"] == x)]


def rlink(r):
    """The 1 Gbit/s link of a row's scenario at the row's scale (Mbit/s)."""
    return 1000 * r.get("scale", 1)


def busy(r):
    """' (N of M runs busy)' when a median row has busy runs."""
    return f" ({r['busy_runs']} of {r['runs']} runs busy)" if r.get("busy_runs") else ""


# the loss-based kernel TCPs: far below DFCP at >= 10 % loss (BBR is not expected to be)
LOSS_BASED = ("cubic", "reno")


def loss_checks(rows):
    """The loss and ratios scenarios' shapes, at each (delay, loss) point."""
    out = []
    for s in exp_stats.RATIO_SCENARIOS:
        for r in get(rows, s, "dfcp-ours"):
            link, p = rlink(r), r["x"] / 100
            at = f"{s} {r['x']}%" + (f" {r['delay_ms']} ms" if r.get("delay_ms") else "")
            if p <= 0.10:
                need = 0.85 * (1 - p) * link
            elif p >= 0.5:
                need = 0.4 * link
            else:
                continue
            out.append((f"{at}: DFCP ours >= {need:.1f} Mbit/s", r["goodput_mbps"] >= need,
                        f"{exp_stats.spread(r)} Mbit/s{busy(r)}"))
        for cc in LOSS_BASED:
            for r in get(rows, s, cc):
                if r["x"] < 10:
                    continue
                at = f"{s} {r['x']}%" + (f" {r['delay_ms']} ms" if r.get("delay_ms") else "")
                ours = [o for o in get(rows, s, "dfcp-ours", x=r["x"])
                        if o.get("delay_ms") == r.get("delay_ms")]
                if ours:
                    # as fractions of each one's link (the scales may differ)
                    f = (r["goodput_mbps"] / rlink(r)) / (ours[0]["goodput_mbps"] / rlink(ours[0]))
                    out.append((f"{at}: {cc} far below DFCP (< 0.2x)", f < 0.2,
                                f"{cc} {exp_stats.spread(r, nd=2)} vs {ours[0]['goodput_mbps']:.1f} "
                                f"Mbit/s ({f:.3f}x){busy(r)}"))
                    continue
                # without the DFCP row: TCP's loss-limited rate does not scale with the
                # link: the thesis's absolute bound and half of (1-p) x link
                g = (1 - r["x"] / 100) * rlink(r)
                out.append((f"{at}: {cc} far below (1-p) x link (<= 17 Mbit/s and < 0.5x)",
                            r["goodput_mbps"] <= 17 and r["goodput_mbps"] < 0.5 * g,
                            f"{cc} {exp_stats.spread(r, nd=2)} vs {g:.1f} Mbit/s{busy(r)}"))
    return out


def checks(rows):
    """The issue's expected shapes over median rows (exp_stats.median_rows), each at the
    scale of its rows. Returns [(name, ok, detail)]; only checks whose data are present.
    A point with busy runs is checked as any other; its detail says so."""
    out = loss_checks(rows)
    # delay
    z, h = get(rows, "delay", "dfcp-ours", x=0), get(rows, "delay", "dfcp-ours", x=100)
    if z and h:
        out.append(("delay: DFCP ours at 100 ms >= 0.9 x at 0 ms",
                    h[0]["goodput_mbps"] >= 0.9 * z[0]["goodput_mbps"],
                    f"{h[0]['goodput_mbps']:.1f} vs {z[0]['goodput_mbps']:.1f} Mbit/s"))
    # dumbbell
    for r in get(rows, "dumbbell", "dfcp-ours", flow="f2"):
        out.append((f"dumbbell {r['x']} ms: DFCP ours Jain >= 0.99", (r["jain"] or 0) >= 0.99,
                    f"Jain {exp_stats.spread(r, 'jain', 4)}{busy(r)}"))
    cj = sorted((r["x"], r["jain"]) for r in get(rows, "dumbbell", "cubic", flow="f2"))
    dj = {r["x"]: r["jain"] for r in get(rows, "dumbbell", "dfcp-ours", flow="f2")}
    if len(cj) >= 2:
        lo = [j for x, j in cj if x <= 20]
        hi = [j for x, j in cj if x >= 80]
        if lo and hi:
            out.append(("dumbbell: CUBIC Jain falls as RTTs diverge "
                        "(flow 2 >= 80 ms vs <= 20 ms)",
                        min(hi) < max(lo), f"near {max(lo):.4f}, far {min(hi):.4f}"))
    elif cj and cj[-1][0] >= 80 and cj[-1][0] in dj:
        x, j = cj[-1]
        out.append((f"dumbbell {x} ms: CUBIC Jain below DFCP's", j < dj[x],
                    f"CUBIC {j:.4f}, DFCP {dj[x]:.4f}"))
    # DFCP vs CUBIC on one bottleneck: WF2Q+ protects CUBIC, FIFO does not. Where the
    # 100-packet queue holds CUBIC's share of the bandwidth-delay product (links of
    # 100 Mbit/s and less) it fills its half; at 1 Gbit/s and 50 ms it fills ~70 % of it
    # in a 5 s run (its own ramp and sawtooth in a queue of 1/20 of its BDP), so there the
    # protection asserted is against the FIFO: 10 x what CUBIC keeps in one.
    for r in get(rows, "mixed", "wf2q+", flow="cubic"):
        f = get(rows, "mixed", "fifo", flow="cubic", x=r["x"])
        if rlink(r) <= 100 or not f:
            out.append((f"mixed {r['x']} ms WF2Q+: CUBIC keeps >= 0.35 x link next to DFCP",
                        r["goodput_mbps"] >= 0.35 * rlink(r),
                        f"CUBIC {r['goodput_mbps']:.1f} Mbit/s"))
        else:
            out.append((f"mixed {r['x']} ms WF2Q+: CUBIC keeps >= 10 x its FIFO goodput "
                        "next to DFCP", r["goodput_mbps"] >= 10 * f[0]["goodput_mbps"],
                        f"CUBIC {r['goodput_mbps']:.1f} Mbit/s, FIFO "
                        f"{f[0]['goodput_mbps']:.2f}"))
    for r in get(rows, "mixed", "fifo", flow="cubic"):
        d = get(rows, "mixed", "fifo", flow="dfcp-ours", x=r["x"])
        if d:
            out.append((f"mixed {r['x']} ms FIFO: DFCP starves CUBIC (< 0.25x DFCP)",
                        r["goodput_mbps"] < 0.25 * d[0]["goodput_mbps"],
                        f"CUBIC {r['goodput_mbps']:.2f}, DFCP {d[0]['goodput_mbps']:.1f} Mbit/s"))
    # parking lot
    for s in ("parking1", "parking2"):
        for r in get(rows, s, "dfcp-ours"):
            sh_ = r["share_mbps"]
            got = r.get("rx_l1_mbps", 0)
            out.append((f"{s} {r['x']} ms: DFCP {r['flow']} wire rate within 5 % of WF2Q+ share "
                        f"{sh_:.1f}", abs(got - sh_) <= 0.05 * sh_,
                        f"{got:.1f} Mbit/s on the wire, goodput {exp_stats.spread(r)}{busy(r)}"))
    return out


def gp(cmds, out_base, data_files):
    """Run gnuplot for PNG and SVG."""
    for term, ext in (("pngcairo size 900,560 font 'sans,11'", "png"),
                      ("svg size 900,560 font 'sans,11' dynamic", "svg")):
        script = f"set terminal {term}\nset output '{out_base}.{ext}'\n" + cmds
        p = subprocess.run(["gnuplot"], input=script, text=True, capture_output=True)
        if p.returncode != 0 and "pngcairo" in term:
            script = script.replace("pngcairo", "png")
            p = subprocess.run(["gnuplot"], input=script, text=True, capture_output=True)
        if p.returncode != 0:
            print(f"gnuplot failed for {out_base}.{ext}: {p.stderr.strip()[:300]}")


def series(rows, s, v, flow=None, key="goodput_mbps"):
    pts = {}
    for r in rows:
        if r["scenario"] == s and r["variant"] == v and (flow is None or r["flow"] == flow):
            val = r.get(key)
            if val is not None:
                pts[r["x"]] = pts.get(r["x"], 0) + val if flow is None and key == "goodput_mbps" \
                    else val
    return sorted(pts.items())


def q(text):
    """A gnuplot string literal."""
    return '"' + str(text).replace("\\", "\\\\").replace('"', '\\"') + '"'


PARKING_FLOWS = (("long", "#1f77b4"), ("short1", "#d62728"), ("short2", "#2ca02c"))


def parking_panels(rows, s, pdir):
    """A parking-lot case's per-flow goodput: a panel per variant (its scale differs), the
    same colour for a flow in every panel, DFCP panels with the flows' WF2Q+ wire shares
    (dashed, DFCP's scale) beside them."""
    vs = [v for v in VARIANTS[s] if any(series(rows, s, v, fl) for fl, _ in PARKING_FLOWS)]
    if not vs:
        return
    ys = [y for v in vs for fl, _ in PARKING_FLOWS for _, y in series(rows, s, v, fl)]
    ys += [y for fl, _ in PARKING_FLOWS for _, y in series(rows, s, "dfcp-ours", fl, "share_mbps")]
    note = "links " + exp_scale.scales_of([r for r in rows if r["scenario"] == s])
    cmds = [f"set multiplot layout 1,{len(vs)} title "
            f"\"Parking lot case {s[-1]}, per-flow goodput\\n({note})\" font ',10'",
            "set grid", f"set xlabel {q(XLABEL[s])}", f"set yrange [0:{max(ys) * 1.15:.0f}]",
            "set key top left font ',9'"]
    for i, v in enumerate(vs):
        plotcmds, blocks = [], []
        for fl, col in PARKING_FLOWS:
            pts = series(rows, s, v, fl)
            if pts:
                blocks.append("\n".join(f"{x} {y}" for x, y in pts))
                plotcmds.append(f"'-' using 1:2 with linespoints lw 2 pt 7 lc rgb '{col}' "
                                f"title {q(fl)}")
        for fl, col in PARKING_FLOWS if v in DFCP_ALL else ():
            pts = series(rows, s, "dfcp-ours", fl, "share_mbps")
            if pts:
                blocks.append("\n".join(f"{x} {y}" for x, y in pts))
                plotcmds.append(f"'-' using 1:2 with lines dt 2 lw 1 lc rgb '{col}' "
                                f"title {q(fl + ' share')}")
        cmds += [f"set title {q(v)}", f"set ylabel {q('goodput (Mbit/s)' if i == 0 else '')}",
                 "plot " + ", ".join(plotcmds), "".join(b + "\ne\n" for b in blocks)]
    gp("\n".join(cmds + ["unset multiplot"]) + "\n", os.path.join(pdir, s), [])


def plots(out, rows):
    if shutil.which("gnuplot") is None:
        print("gnuplot missing: no plots")
        return
    pdir = os.path.join(out, "plots")
    os.makedirs(pdir, exist_ok=True)

    def lines(sets, title, ylabel, xlabel, name, logx=False, extra=""):
        base = re.sub(r"-(goodput|dead|bbr|\d+ms)$", "", name)
        scens = {"jain": ["dumbbell", "fifo"]}.get(base, [base])
        note = ("(links " + exp_scale.scales_of([r for r in rows if r["scenario"] in scens])
                + "; 1 Gbit/s x scale)")
        blocks, plotcmds = [], []
        for label, pts in sets:
            if not pts:
                continue
            blocks.append("\n".join(f"{x} {y}" for x, y in pts))
            style = ("lines dt 2 lw 1" if label.startswith("WF2Q+ wire share")
                     else "linespoints lw 2")
            plotcmds.append(f"'-' using 1:2 with {style} title {q(label)}")
        if not plotcmds:
            return
        cmds = (f"set title \"{title}\\n{note}\"\nset xlabel {q(xlabel)}\nset ylabel {q(ylabel)}\n"
                f"set grid\nset key outside right\n{extra}\n"
                + ("set logscale x\n" if logx else "")
                + "plot " + ", ".join(plotcmds) + "\n"
                + "".join(b + "\ne\n" for b in blocks))
        gp(cmds, os.path.join(pdir, name), [])

    # 1. goodput vs loss (log x: 0 plotted at 0.01)
    sets = []
    for v in DFCP_VARIANTS + TCP_VARIANTS:
        pts = [(x if x > 0 else 0.01, y)
               for x, y in series([r for r in rows if not r.get("delay_ms")], "loss", v)]
        sets.append((v, pts))
    lines(sets, "Goodput vs packet loss (one pair, 0 ms)", "goodput (Mbit/s)",
          "packet loss rate (%) (0 % drawn at 0.01)", "loss", logx=True)
    # 2. goodput vs delay
    lines([(v, series(rows, "delay", v)) for v in DFCP_VARIANTS + TCP_VARIANTS],
          "Goodput vs one-way delay (one pair, no loss)", "goodput (Mbit/s)",
          "one-way delay (ms)", "delay")
    # 3. dumbbell per-flow goodput
    for s in ("dumbbell", "fifo"):
        sets = []
        for v in VARIANTS[s]:
            for fl in ("f1", "f2"):
                sets.append((f"{v} flow {fl[1]}", series(rows, s, v, fl)))
        lines(sets, f"Dumbbell ({'WF2Q+' if s == 'dumbbell' else 'FIFO'}), per-flow goodput "
              f"(flow 1 10 ms)", "goodput (Mbit/s)", XLABEL[s], s + "-goodput")
    # 4. Jain vs RTT
    sets = []
    for s, lab in (("dumbbell", "WF2Q+"), ("fifo", "FIFO")):
        for v in VARIANTS[s]:
            sets.append((f"{v} {lab}", series(rows, s, v, "f2", "jain")))
    lines(sets, "Jain's index vs flow 2 delay (dumbbell)", "Jain's fairness index",
          XLABEL["dumbbell"], "jain", extra="set yrange [0.4:1.02]")
    # 5. parking lot per-flow goodput: one panel per variant, one colour per flow
    for s in ("parking1", "parking2"):
        parking_panels(rows, s, pdir)
    # 6. mixed: DFCP beside CUBIC, beside BBR
    for cc, vs in (("cubic", ("wf2q+", "fifo")), ("bbr", ("wf2q+-bbr", "fifo-bbr"))):
        sets = []
        for v in vs:
            for fl in (cc, "dfcp-ours"):
                sets.append((f"{fl} ({v.split('-')[0].upper()})", series(rows, "mixed", v, fl)))
        lines(sets, f"DFCP vs {cc.upper() if cc == 'bbr' else 'CUBIC'} on one bottleneck "
              "(both flows at the same delay)", "goodput (Mbit/s)", XLABEL["mixed"],
              "mixed" if cc == "cubic" else "mixed-bbr")
    # 7. dead packets of parking lot 1: what link 1 carried for link 2 to drop
    lines([(v, series(rows, "parking1", v, "long", "dead_mbps")) for v in VARIANTS["parking1"]],
          "Parking lot 1: the long flow's dead packets (crossed link 1, dropped at link 2)",
          "dead packets on link 1 (Mbit/s, L1)", XLABEL["parking1"], "parking1-dead")
    # 8. Gilbert-Elliott bursts, 9. short transfers
    for dl in sorted({r.get("delay_ms") or 0 for r in rows if r["scenario"] == "burst"}):
        sel = [r for r in rows if (r.get("delay_ms") or 0) == dl]
        lines([(v, series(sel, "burst", v)) for v in VARIANTS["burst"]],
              f"Goodput vs Gilbert-Elliott loss (bursts of {exp_vsbbr.GE_BURST}), {dl} ms one-way",
              "goodput (Mbit/s)", XLABEL["burst"], f"burst-{dl}ms")
    lines([(v, series(rows, "short", v, key="completion_s")) for v in VARIANTS["short"]],
          f"Completion time of a transfer ({exp_vsbbr.SHORT_PLR} % loss, "
          f"{exp_vsbbr.SHORT_DELAY} ms one-way)", "completion time (s)", XLABEL["short"],
          "short", logx=True, extra="set logscale y")


def nbusy(rows, only_busy=True):
    """The engine runs (not rows: a run has a row per flow) that were busy, or all."""
    return len({exp_stats.point_key(r)[:4] + (r.get("run"),) for r in rows
                if r.get("busy") or not only_busy})


def access_text(rows):
    """What the rows say of their access links."""
    acc = {(r.get("access_mbps"), r.get("access_queue")) for r in rows}
    if acc == {(None, None)}:
        return "no access links (senders at their own speed)"
    return "access links " + ", ".join(
        f"{a:g} Mbit/s, queue {q}" if a else "none" for a, q in sorted(acc, key=str))


def fmt(v, nd=1):
    if v is None or v == "":
        return "–"
    if isinstance(v, float):
        return f"{v:.{nd}f}"
    return str(v)


def tables(out):
    """Markdown tables of OUT/results.json (for doc/results.md)."""
    with open(os.path.join(out, "results.json")) as f:
        res = json.load(f)
    for r in res["rows"]:
        r.setdefault("scale", res.get("scale"))
    rows = exp_stats.median_rows(res["rows"])
    nruns = sorted({r["runs"] for r in rows})
    print(f"DFCP {res['duration_s']} s, TCP {res['tcp_duration_s']} s, elapsed "
          f"{res['elapsed_s']:.0f} s; " + (
              f"medians of {'/'.join(map(str, nruns))} runs (min–max in brackets), † a "
              f"point with a busy run (others used more than {res['max_load']:g} CPUs)"
              if "max_load" in res else "one run per point, load not recorded"))
    runs = res["rows"]
    if any("load1" in r for r in runs):
        ld = [r["load1"] for r in runs if "load1" in r]
        oc = [r["others_cpu"] for r in runs if "others_cpu" in r]
        print(f"load average (1 min) at the runs' start {min(ld):.1f}–{max(ld):.1f}, other "
              f"processes {min(oc):.2f}–{max(oc):.2f} CPUs during a run, "
              f"{nbusy(runs)} of {nbusy(runs, False)} runs busy; {access_text(runs)}")
    for c in res.get("tcp_ceiling") or []:
        print(f"kernel path ceiling {c['mbps']:.1f} Mbit/s (runs {c['runs']}, {c['when']}, "
              f"load {c['loadavg']:.1f}): TCP at scale {c['tcp_scale']:g}")
    print()

    def pivot(s, vs, flows=None, key="goodput_mbps", nd=1, delay=None):
        sel = [r for r in rows if r["scenario"] == s
               and (delay is None or r.get("delay_ms") == delay)]
        xs = sorted({r["x"] for r in sel})
        if not xs:
            return
        print("_" + exp_scale.scales_of([r for r in sel if r["variant"] in vs]) + "_\n")
        cols = [(v, f) for v in vs for f in (flows or [None])]
        print(f"| {XLABEL[s]} | " + " | ".join(v + (f" {f}" if f else "") for v, f in cols)
              + " |")
        print("|---:|" + "---:|" * len(cols))
        for x in xs:
            cells = []
            for v, f in cols:
                rr = [r for r in get(sel, s, v, flow=f, x=x)]
                cells.append(("–" if not rr else exp_stats.spread(rr[0], key, nd)
                              if key in ("goodput_mbps", "jain") else fmt(rr[0].get(key), nd)))
            print(f"| {x} | " + " | ".join(cells) + " |")
        print()

    for s in exp_stats.RATIO_SCENARIOS:
        for delay in sorted({r.get("delay_ms") or 0 for r in rows if r["scenario"] == s}):
            print(f"### {s}: goodput (Mbit/s), {delay} ms one-way\n")
            pivot(s, VARIANTS[s], delay=delay)
    rl = exp_stats.ratio_lines(rows)
    if rl:
        print("### headline ratios: DFCP (ours) / TCP goodput, next to the authors' stated\n")
        print("\n".join(rl) + "\n")
    print("### loss: DFCP ours, first-round redundancy N used\n")
    pivot("loss", ["dfcp-ours"], key="redundancy", nd=0, delay=0)
    print("### loss: DFCP, sender's pacer (% of its rate) and drop-tail drops (% of arrivals)\n")
    pivot("loss", DFCP_VARIANTS, key="pace_pct", delay=0)
    pivot("loss", DFCP_VARIANTS, key="queue_drop_pct", delay=0)
    print("### delay: goodput (Mbit/s)\n")
    pivot("delay", VARIANTS["delay"])
    print("### delay: DFCP drop-tail drops (% of arrivals)\n")
    pivot("delay", DFCP_VARIANTS, key="queue_drop_pct")
    for s in ("dumbbell", "fifo"):
        print(f"### {s}: per-flow goodput (Mbit/s)\n")
        pivot(s, VARIANTS[s], ["f1", "f2"])
        print(f"### {s}: Jain's index\n")
        pivot(s, VARIANTS[s], ["f2"], key="jain", nd=4)
    for s in ("parking1", "parking2"):
        print(f"### {s}: per-flow goodput (Mbit/s)\n")
        # DFCP's variants, then the TCPs': one table would be too wide to read
        pivot(s, [v for v in VARIANTS[s] if v in DFCP_ALL], ["long", "short1", "short2"])
        pivot(s, [v for v in VARIANTS[s] if v not in DFCP_ALL], ["long", "short1", "short2"])
        print(f"### {s}: DFCP ours wire rate (L1 Mbit/s) vs WF2Q+ share\n")
        pivot(s, ["dfcp-ours"], ["long", "short1", "short2"], key="rx_l1_mbps")
        pivot(s, ["dfcp-ours"], ["long", "short1", "short2"], key="share_mbps")
        print(f"### {s}: dead packets on link 1 (Mbit/s, fraction of link 1 traffic)\n")
        pivot(s, VARIANTS[s], ["long"], key="dead_mbps", nd=2)
        pivot(s, VARIANTS[s], ["long"], key="dead_frac_link1", nd=3)
    print("### mixed: goodput (Mbit/s)\n")
    pivot("mixed", ["wf2q+", "fifo"], ["cubic", "dfcp-ours"])
    pivot("mixed", ["wf2q+-bbr", "fifo-bbr"], ["bbr", "dfcp-ours"])
    for delay in sorted({r.get("delay_ms") or 0 for r in rows if r["scenario"] == "burst"}):
        print(f"### burst: goodput (Mbit/s), Gilbert-Elliott, {delay} ms one-way\n")
        pivot("burst", VARIANTS["burst"], delay=delay)
    print(f"### short: completion time (s), {exp_vsbbr.SHORT_PLR} % loss, "
          f"{exp_vsbbr.SHORT_DELAY} ms one-way (– : not done in {exp_vsbbr.SHORT_LIMIT_S} s)\n")
    pivot("short", VARIANTS["short"], key="completion_s", nd=2)
    pivot("short", VARIANTS["short"])
    print("### checks\n")
    for c in res["checks"]:
        print(f"- {'ok' if c['ok'] else '**FAIL**'} {c['name']}: {c['detail']}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__)
    ap.add_argument("--scenario", default="all")
    ap.add_argument("--duration", type=float, default=None,
                    help="DFCP transfer seconds per point (default 4; thesis: 60)")
    ap.add_argument("--tcp-duration", type=float, default=None,
                    help="iperf3 seconds per point (default 5, quick 3; thesis: 60)")
    ap.add_argument("--points", help="comma-separated x values instead of the defaults")
    ap.add_argument("--variants", help="comma-separated subset of the variants")
    ap.add_argument("--scale", type=float, default=1.0,
                    help="multiply every link and access rate of the DFCP variants "
                         "(default 1: the thesis's 1 Gbit/s)")
    ap.add_argument("--tcp-scale", default="auto", type=exp_scale.parse_tcp_scale,
                    help="the same for kernel TCP and the mixed scenario: a factor, or auto "
                         "(default): the highest <= 1 below 80 %% of the kernel path's "
                         "ceiling, measured at the start")
    ap.add_argument("--queue", type=int, default=None,
                    help="packets per pipe queue (default: the templates' 100, as the "
                         "thesis's ipfw queue; FIFO variants share 2x)")
    ap.add_argument("--runs", type=int, default=None,
                    help="runs per point, medians reported (default 3, quick 1)")
    ap.add_argument("--delay-ms", type=lambda t: [int(v) for v in t.split(",")],
                    help="one-way delays of the loss scenario (default 0; ratios: 0,50,100)")
    ap.add_argument("--max-load", type=float, default=exp_stats.default_max_load(),
                    help="CPUs other processes may use during a run before it is flagged "
                         "busy (default 0.25 per CPU: %(default)s)")
    ap.add_argument("--wait-quiet", type=float, default=0, metavar="SECS",
                    help="before each run wait up to SECS for others to use <= --max-load")
    ap.add_argument("--access-queue", type=int, default=1000,
                    help="packets of each access link's queue (default 1000, a NIC's "
                         "txqueuelen); 0: no access links (senders at their own speed)")
    ap.add_argument("--no-lock", action="store_true",
                    help=f"do not take {exp_stats.LOCK} (two runs may then overlap)")
    ap.add_argument("--out", default=os.path.join(SRC, "results"))
    ap.add_argument("--merge", action="store_true",
                    help="keep the rows of OUT/results.json this run does not redo")
    ap.add_argument("--no-tcp", action="store_true")
    ap.add_argument("--only-tcp", action="store_true")
    ap.add_argument("--quick", action="store_true", help="the CI-sized subset")
    ap.add_argument("--check", action="store_true", help="exit 1 when an expectation fails")
    ap.add_argument("--no-plots", action="store_true")
    ap.add_argument("--engine", default=None)
    ap.add_argument("--list", action="store_true", help="print the plan and exit")
    ap.add_argument("--tables", action="store_true",
                    help="print markdown tables of OUT/results.json and exit")
    ap.add_argument("--plots", action="store_true",
                    help="draw OUT/plots/ from OUT/results.json and exit")
    a = ap.parse_args()
    if a.duration is None:
        a.duration = 4
    if a.tcp_duration is None:
        a.tcp_duration = 3 if a.quick else 5
    if a.runs is None:
        a.runs = 1 if a.quick else 3
    a.duration = int(a.duration) if float(a.duration).is_integer() else a.duration
    a.tcp_duration = int(math.ceil(a.tcp_duration))
    if a.tables:
        tables(a.out)
        return 0
    if a.plots:
        with open(os.path.join(a.out, "results.json")) as f:
            plots(a.out, exp_stats.median_rows(json.load(f)["rows"]))
        return 0
    if a.engine is None:
        for cand in ("build", "build-exp"):
            e = os.path.join(SRC, cand, "app/dfcp-engine/dfcp-engine")
            if os.access(e, os.X_OK):
                a.engine = e
                break
        else:
            print("no engine binary: build first (make build)")
            return 2
    os.makedirs(a.out, exist_ok=True)
    r = Runner(a)
    if a.list:
        for item in r.plan():
            print(*item)
        return 0
    if not a.no_lock:
        lock_fd = exp_stats.take_lock(log=r.log)  # noqa: F841  (held until exit)
    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    failures = 0
    interrupted = False
    try:
        failures = r.go()
    except Stop as e:
        interrupted = True
        print(f"\ninterrupted ({e}), cleaning up")
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        r.cleanup()
    res = {"scale": a.scale, "tcp_scale": r.tcp_scale, "duration_s": a.duration,
           "tcp_duration_s": a.tcp_duration, "tcp_skipped": r.net_error,
           "tcp_ceiling": [r.tcp_ceiling] if r.tcp_ceiling else [],
           "elapsed_s": time.time() - r.t0, "command": " ".join(sys.argv), "runs": a.runs,
           "max_load": a.max_load, "rows": r.rows}
    jpath = os.path.join(a.out, "results.json")
    if a.merge:
        res = exp_scale.merge(jpath, res)
    med = exp_stats.median_rows(res["rows"])
    ck = checks(med)
    res["checks"] = [{"name": n, "ok": ok, "detail": d} for n, ok, d in ck]
    write_csv(a.out, res["rows"])
    with open(jpath, "w") as f:
        json.dump(res, f, indent=1)
    if not a.no_plots:
        plots(a.out, med)
    print(f"results in {a.out} ({time.time() - r.t0:.0f} s); {a.runs} runs a point, medians")
    rl = exp_stats.ratio_lines([m for m in med if m["scenario"] in exp_stats.RATIO_SCENARIOS])
    if rl:
        print("headline ratios, DFCP (ours) / TCP goodput (median, min–max):")
        print("\n".join(rl))
    if r.rows:
        ld = [x["load1"] for x in r.rows if "load1" in x]
        oc = [x["others_cpu"] for x in r.rows if "others_cpu" in x]
        if ld:
            print(f"load average {min(ld):.1f}–{max(ld):.1f}; other processes "
                  f"{min(oc):.2f}–{max(oc):.2f} CPUs during a run (limit {a.max_load:g}); "
                  f"busy runs: {nbusy(r.rows)} of {nbusy(r.rows, False)}; "
                  f"{access_text(r.rows)}")
    bad = 0
    for n, ok, d in ck:
        print(f"  {'ok  ' if ok else 'FAIL'} {n}: {d}")
        bad += not ok
    if r.net_error:
        print(f"  note: kernel TCP runs skipped: {r.net_error}")
    if interrupted:
        return 130
    if a.check and (bad or failures):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
