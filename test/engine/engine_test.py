#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Whole-engine tests: engine_test.py CASE ENGINE SOURCE_ROOT.

Cases: smoke (net_ring txonly -> rxonly), io (forwarding through an io task),
bad-config, sigint, af_packet (veth pair in a namespace; exit 77 = skipped),
cpu-lock and iface-lock (a second engine on a busy-polled CPU or a kernel interface
is refused at start), kernel-drops (a sender faster than its receiver over af_packet:
the kernel's drops counted on the ports, the loss point named),
mixed-stop (a DFCP and a TCP transfer of very different lengths in one run: the
run ends when both have finished, neither earlier nor later), drop (the example
kind: txonly -> drop with a packet goal that ends the run), bad-names (a key or value typo
gets the closest name and the whole list; a vdev driver DPDK lacks is refused before EAL).
No timing assertions: counts and exit codes only.
"""
import os
import re
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from enginetest import (case_main, fail, need_root_ip, netns_add, netns_del, write,  # noqa: E402
                        netns_exec_all, sh)
from enginetest import load as load_summary  # noqa: E402
import enginetest  # noqa: E402

EAL = "-l 0-1 --no-huge -m 512 --no-pci --no-shconf"


def run(engine, args, timeout=60):
    return enginetest.run([engine] + args, timeout, out_tail=4000, err_tail=4000)


def task(js, name):
    for t in js["tasks"]:
        if t["name"] == name:
            return t
    fail(f"task {name} missing from summary")


def port(js, name):
    for p in js["ports"]:
        if p["name"] == name:
            return p
    fail(f"port {name} missing from summary")


def check_txrx(js, tx, rx, exact=True):
    t, r = task(js, tx), task(js, rx)
    print(f"sent {t['tx_packets']} received {r['rx_packets']} valid {r['rx_valid']} "
          f"bad {r['rx_bad']} lost {r['seq_lost']} reordered {r['seq_reordered']}")
    if t["tx_packets"] == 0:
        fail("nothing sent")
    if r["rx_bad"] != 0 or r["seq_reordered"] != 0:
        fail("verification errors")
    if exact:
        if r["rx_valid"] != t["tx_packets"] or r["rx_packets"] != t["tx_packets"]:
            fail("received != sent")
        if r["seq_lost"] != 0:
            fail("sequence gaps")
    else:
        if r["rx_valid"] == 0 or r["rx_valid"] > t["tx_packets"]:
            fail("received count implausible")
    for p in js["ports"]:
        if p["rx_errors"] or p["tx_errors"] or p["rx_nombuf"]:
            fail(f"port {p['name']} reports errors: {p}")


def case_smoke(engine, src, tmp):
    out = os.path.join(tmp, "summary.json")
    p = run(engine, EAL.split() + ["--", "--config", os.path.join(src, "configs/txonly.ini"),
                                   "--duration", "2s", "--summary-json", out])
    if p.returncode != 0:
        fail(f"exit code {p.returncode}")
    if "== summary" not in p.stdout:
        fail("no summary printed")
    js = load_summary(out)
    check_txrx(js, "tx0", "rx0")
    if port(js, "p0")["tx_packets"] != task(js, "tx0")["tx_packets"]:
        fail("port p0 tx_packets != task tx0 tx_packets")
    if port(js, "p1")["rx_packets"] != task(js, "rx0")["rx_packets"]:
        fail("port p1 rx_packets != task rx0 rx_packets")


def case_io(engine, src, tmp):
    out = os.path.join(tmp, "summary.json")
    p = run(engine, ["--", "--config", os.path.join(src, "configs/io.ini"), "--duration", "1.5s",
                     "--stats-period", "0", "--summary-json", out])
    if p.returncode != 0:
        fail(f"exit code {p.returncode}")
    js = load_summary(out)
    check_txrx(js, "tx0", "rx0")
    if task(js, "fwd")["tx_packets"] != task(js, "tx0")["tx_packets"]:
        fail("io task did not forward every packet")


def case_bad_config(engine, src, tmp):
    cfg = os.path.join(tmp, "bad.ini")
    with open(os.path.join(src, "configs/txonly.ini")) as f:
        text = f.read()
    with open(cfg, "w") as f:
        f.write(text.replace("pkt_size = 64", "pkt_size = 64\nrate = 1Gbt"))
    p = run(engine, ["--", "--config", cfg])
    if p.returncode != 1:
        fail(f"expected exit code 1 (config error), got {p.returncode}")
    want = f"{cfg}:"
    if want not in p.stderr or "[task tx0] rate:" not in p.stderr or '"Gbt"' not in p.stderr:
        fail("message does not name file, section, key and the bad unit")
    p = run(engine, ["--", "--config", os.path.join(tmp, "missing.ini")])
    if p.returncode != 1 or "cannot open" not in p.stderr:
        fail("missing config file not reported")
    p = run(engine, ["--no-such-eal-option", "--", "--config",
                     os.path.join(src, "configs/txonly.ini")])
    if p.returncode != 2:
        fail(f"expected exit code 2 (EAL error), got {p.returncode}")
    # the mempool driver: an unknown one is a set-up error naming the registered
    # drivers; a named one and auto (stack) are what the pool is made with
    for ops, rc, want in (("nosuchops", 3, "'nosuchops' is not a mempool driver of this "
                           "DPDK (registered: "),
                          ("ring_mp_mc", 0, "(mempool driver ring_mp_mc)"),
                          ("auto", 0, "(mempool driver stack)")):
        with open(cfg, "w") as f:
            f.write(text.replace("[engine]", f"[engine]\nmbuf_pool_ops = {ops}", 1))
        p = run(engine, EAL.split() + ["--", "--config", cfg, "--duration", "0.3s",
                                       "--stats-period", "0"])
        if p.returncode != rc or want not in p.stdout + p.stderr:
            fail(f"mbuf_pool_ops = {ops}: exit {p.returncode} (want {rc}), "
                 f"no '{want}' in the output")


SIGINT_FLOWS = """[eal]
args = -l 0-1 --no-huge -m 1024 --no-pci --no-shconf --log-level=pmd.net.ring:warning
[engine]
duration = 10s
stats_period = 0.2s
drain = 300ms
[port p0]
device = ring:sig
preset = net_ring
[port p1]
device = ring:sig
preset = net_ring
[flow s1]
role = sender
local = 10.0.0.1:5001
remote = 10.0.0.2:6001
remote_mac = 02:00:00:00:00:02
rate = 100Mbit
duration = 10s
[flow r1]
role = receiver
local = 10.0.0.2:6001
sink = verify
[task tx]
kind = dfcp
port = p0
flows = s1
[task rx]
kind = dfcp
port = p1
flows = r1
[lcore 1]
tasks = tx, rx
"""


def interrupted(engine, args):
    """Runs the engine, sends SIGINT after its first stats block; returns (exit, output)."""
    print("$", engine, " ".join(args), flush=True)
    p = subprocess.Popen([engine] + args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         text=True)
    # wait until the engine runs (first stats block), then interrupt it
    deadline = time.time() + 60
    lines = []
    for line in p.stdout:
        lines.append(line)
        if "== stats" in line or time.time() > deadline:
            break
    p.send_signal(signal.SIGINT)
    try:
        rest, _ = p.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        enginetest.kill_engine(p)
        fail("engine did not stop on SIGINT")
    text = "".join(lines) + rest
    sys.stdout.write(text[-3000:])
    return p.returncode, text


def case_sigint(engine, src, tmp):
    """A run without goals stopped by SIGINT is a normal stop (exit 0, the reason said);
    one whose sender's duration a SIGINT cut short exits 5 and says so; the same run
    to its planned end exits 0."""
    out = os.path.join(tmp, "summary.json")
    rc, text = interrupted(engine, ["--", "--config", os.path.join(src, "configs/txonly.ini"),
                                    "--duration", "0", "--stats-period", "0.2",
                                    "--summary-json", out])
    if rc != 0:
        fail(f"exit code {rc} after SIGINT")
    if "signal 2" not in text or "== summary" not in text:
        fail("no clean summary after SIGINT")
    if not re.search(r"^outcome: stopped by SIGINT at [0-9.]+ s of no set duration$", text,
                     re.M):
        fail("no stop reason after SIGINT")
    check_txrx(load_summary(out), "tx0", "rx0")
    ini = enginetest.write(os.path.join(tmp, "sigint-flows.ini"), SIGINT_FLOWS)
    rc, text = interrupted(engine, ["--", "--config", ini, "--summary-json", out])
    want = r"^outcome: stopped by SIGINT at [0-9.]+ s of 10\.0 s: 1 flow did not reach its goal$"
    if rc != 5 or not re.search(want, text, re.M):
        fail(f"a flow cut short by SIGINT: exit {rc} (want 5), or no '{want}' line")
    js = load_summary(out)
    if js["outcome"]["failed"] != 1 or js["outcome"]["stopped_by"] != "SIGINT":
        fail(f"outcome in the JSON: {js['outcome']}")
    p = run(engine, ["--", "--config", ini, "--duration", "1s", "--stats-period", "0"])
    sys.stdout.write(p.stdout[-1500:])
    if p.returncode != 0 or "stopped by" in p.stdout:
        fail(f"the same run to its planned end: exit {p.returncode}")


def case_af_packet(engine, src, tmp):
    need_root_ip()
    ns = f"dfcp-test-{os.getpid()}"
    netns_add(ns)
    try:
        sh(f"ip -n {ns} link add veth0 type veth peer name veth1")
        netns_exec_all(ns, ("sysctl -qw net.ipv6.conf.all.disable_ipv6=1",
                            "ip link set lo up", "ip link set veth0 up", "ip link set veth1 up"))
        out = os.path.join(tmp, "summary.json")
        cfg = os.path.join(src, "configs/af_packet.ini")
        p = subprocess.run(["ip", "netns", "exec", ns, engine, "--", "--config", cfg,
                            "--duration", "2s", "--summary-json", out],
                           capture_output=True, text=True, timeout=120)
        sys.stdout.write(p.stdout[-4000:] + p.stderr[-4000:])
        if p.returncode != 0:
            fail(f"exit code {p.returncode}")
        # the kernel may drop on a loaded host: loss allowed, corruption not
        check_txrx(load_summary(out), "tx0", "rx0", exact=False)
    finally:
        netns_del(ns)


def first_running(cmd, env):
    """Starts cmd (an engine) and returns it once it runs (its "running" line)."""
    print("$", " ".join(cmd), flush=True)
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                         env=env)
    for line in p.stdout:
        sys.stdout.write(line)
        if "running" in line:
            return p
    fail(f"the first engine did not start: exit {p.wait()}")


def refused_beside(first, cmd, env, wants):
    """Runs cmd while first runs: it must exit 3 naming first's PID and each of wants."""
    print("$", " ".join(cmd), flush=True)
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=60, env=env)
    text = p.stdout + p.stderr
    sys.stdout.write(text[-1500:])
    for want in [f"PID {first.pid}"] + wants:
        if p.returncode != 3 or want not in text:
            fail(f"the second engine: exit {p.returncode} (want 3), no '{want}' in its output")


def case_cpu_lock(engine, src, tmp):
    """A second engine busy-polling the same CPU is refused at start, naming the first's
    PID; --allow-shared-cpu runs it anyway."""
    env = dict(os.environ, DFCP_ALLOW_SHARED_CPU="0")
    cmd = [engine, "--", "--config", os.path.join(src, "configs/txonly.ini"),
           "--stats-period", "0"]
    first = first_running(cmd + ["--duration", "20"], env)
    try:
        refused_beside(first, cmd + ["--duration", "0.5"], env,
                       ["CPU 1 is busy-polled by another dfcp-engine", "--allow-shared-cpu"])
        p = run(engine, cmd[1:] + ["--duration", "0.5", "--allow-shared-cpu"])
        if p.returncode != 0:
            fail(f"--allow-shared-cpu: exit {p.returncode}")
    finally:
        enginetest.kill_engine(first)


def case_iface_lock(engine, src, tmp):
    """A second engine on the same kernel interface (af_packet on a veth) is refused at
    start, naming the first's PID and the interface, even with --allow-shared-cpu."""
    need_root_ip()
    ns = f"dfcp-test-{os.getpid()}"
    netns_add(ns)
    first = None
    try:
        sh(f"ip -n {ns} link add veth0 type veth peer name veth1")
        netns_exec_all(ns, ("ip link set lo up", "ip link set veth0 up", "ip link set veth1 up"))
        cmd = ["ip", "netns", "exec", ns, engine, "--", "--config",
               os.path.join(src, "configs/af_packet.ini"), "--stats-period", "0",
               "--allow-shared-cpu"]
        first = first_running(cmd + ["--duration", "20"], os.environ)
        refused_beside(first, cmd + ["--duration", "0.5"], os.environ,
                       ["interface veth0 is in use by another dfcp-engine"])
    finally:
        if first is not None:
            enginetest.kill_engine(first)
        netns_del(ns)


KDROP_CONFIG = """[eal]
args = -l 0-1 --no-huge -m 1024 --no-pci --no-shconf
[engine]
duration = 2s
stats_period = 0
[port p0]
device = net_af_packet0,iface=veth0
preset = net_af_packet
[port p1]
device = net_af_packet1,iface=veth1
preset = net_af_packet
# a short socket ring: any pause of the receiving lcore drops frames in the kernel
devargs = framecnt=64
[task tx0]
kind = txonly
port = p0
pkt_size = 64
rate = 10Gbit
[task rx0]
kind = rxonly
port = p1
[lcore 1]
tasks = tx0
[lcore 0]
tasks = rx0
"""


def case_kernel_drops(engine, src, tmp):
    """A sender faster than its receiver over af_packet on a veth: every frame sent is
    received or counted as a kernel drop on a port, and the summary names the place."""
    need_root_ip()
    ns = f"dfcp-test-{os.getpid()}"
    netns_add(ns)
    try:
        sh(f"ip -n {ns} link add veth0 type veth peer name veth1")
        netns_exec_all(ns, ("sysctl -qw net.ipv6.conf.all.disable_ipv6=1",
                            "ip link set lo up", "ip link set veth0 up", "ip link set veth1 up"))
        ini = enginetest.write(os.path.join(tmp, "kdrop.ini"), KDROP_CONFIG)
        out = os.path.join(tmp, "kdrop.json")
        p = enginetest.run(["ip", "netns", "exec", ns, engine, "--", "--config", ini,
                            "--summary-json", out], 120)
        if p.returncode != 0:
            fail(f"exit code {p.returncode}")
        js = load_summary(out)
        p0, p1 = port(js, "p0"), port(js, "p1")
        sent, got = task(js, "tx0")["tx_packets"], task(js, "rx0")["rx_valid"]
        drops = p1["kernel_rx_dropped"] + p0["kernel_tx_dropped"]
        print(f"sent {sent} received {got} kernel drops {drops}")
        # what the socket still held when the run stopped is neither: a ring at most
        if not 0 <= sent - got - drops <= 64:
            fail(f"sent {sent} != received {got} + kernel drops {drops}")
        if drops and not re.search(r"^loss: \d+ frames lost .*the most at port p[01] "
                                   r"kernel_[rt]x_dropped \(in the kernel, on veth[01]\)",
                                   p.stdout, re.M):
            fail("no loss line naming the kernel drops")
    finally:
        netns_del(ns)


MQ_CONFIG = """[eal]
args = -l 0-1 --no-huge -m 1024 --no-pci --no-shconf
[engine]
duration = 2s
stats_period = 0
[port p0]
device = net_af_packet0,iface=veth0
preset = net_af_packet
[port p1]
device = net_af_packet1,iface=veth1
preset = net_af_packet
rx_queues = 2
[task tx0]
kind = txonly
port = p0
pkt_size = 256
flows = 64
rate = 50Mbit
[task rx0]
kind = rxonly
port = p1
rxq = 0
[task rx1]
kind = rxonly
port = p1
rxq = 1
[lcore 1]
tasks = tx0, rx0, rx1
"""


def case_af_packet_mq(engine, src, tmp):
    """A kernel interface of two queues (a veth with numrxqueues 2): the port's two rx
    queues become qpairs=2 (two sockets of one PACKET_FANOUT group), each read by its
    own task; 64 streams spread over both, nothing is left unread."""
    need_root_ip()
    ns = f"dfcp-mq-{os.getpid()}"
    netns_add(ns)
    try:
        sh(f"ip -n {ns} link add veth0 numtxqueues 2 numrxqueues 2 type veth peer name veth1 "
           "numtxqueues 2 numrxqueues 2")
        netns_exec_all(ns, ("sysctl -qw net.ipv6.conf.all.disable_ipv6=1",
                            "ip link set lo up", "ip link set veth0 up", "ip link set veth1 up"))
        out = os.path.join(tmp, "summary.json")
        cfg = write(os.path.join(tmp, "mq.ini"), MQ_CONFIG)
        p = subprocess.run(["ip", "netns", "exec", ns, engine, "--", "--config", cfg,
                            "--summary-json", out], capture_output=True, text=True, timeout=120)
        text = p.stdout + p.stderr
        sys.stdout.write(text[-4000:])
        if p.returncode != 0:
            fail(f"exit code {p.returncode}")
        if not re.search(r"created net_af_packet1,\S*qpairs=2", text):
            fail("port p1 was not created with qpairs=2 from rx_queues = 2")
        if "polled by no task" in text:
            fail("an rx queue left unpolled")
        js = load_summary(out)
        t, r0, r1 = task(js, "tx0"), task(js, "rx0"), task(js, "rx1")
        print(f"sent {t['tx_packets']}; queue 0 got {r0['rx_packets']}, queue 1 "
              f"{r1['rx_packets']}")
        if r0["rx_packets"] == 0 or r1["rx_packets"] == 0:
            fail("the streams did not spread over both queues")
        if r0["rx_bad"] or r1["rx_bad"]:
            fail("verification errors")
        if r0["rx_valid"] + r1["rx_valid"] > t["tx_packets"]:
            fail("received more than sent")
    finally:
        netns_del(ns)


MIXED = """[eal]
args = -l 0-1 --no-huge -m 1024 --no-pci --no-shconf --log-level=pmd.net.ring:warning
[engine]
duration = 60s
stats_period = {period}
[port a0]
device = ring:wa
preset = net_ring
[port a1]
device = ring:wa
preset = net_ring
[port b0]
device = ring:wb
preset = net_ring
[port b1]
device = ring:wb
preset = net_ring
[flow s1]
role = sender
local = 10.0.0.1:5001
remote = 10.0.0.2:6001
remote_mac = 02:00:00:00:00:02
bytes = {dfcp_bytes}
window = 128
[flow r1]
role = receiver
local = 10.0.0.2:6001
window = 128
sink = verify
[task d0]
kind = dfcp
port = a0
flows = s1
[task d1]
kind = dfcp
port = a1
flows = r1
{tcp}
[lcore 0]
tasks = d0, t0
[lcore 1]
tasks = d1, t1
"""

# the TCP transfer: [flow] sections with proto = tcp (flows ts, tr)
MIXED_TCP_FLOWS = """[flow ts]
proto = tcp
role = sender
local = 10.0.1.1:40000
remote = 10.0.1.2:5201
cc = cubic
bytes = {tcp_bytes}
[flow tr]
proto = tcp
role = receiver
local = 10.0.1.2:5201
sink = verify
[task t0]
kind = tcp
port = b0
flows = ts
[task t1]
kind = tcp
port = b1
flows = tr
"""


def mixed_run(engine, tmp, dfcp_bytes, tcp_bytes, live):
    """One run (live: with a 10 ms stats period, else none); returns the summary, the TCP
    sender and receiver entries, the output."""
    tcp = MIXED_TCP_FLOWS.format(tcp_bytes=tcp_bytes)
    ini = enginetest.write(os.path.join(tmp, "mixed.ini"),
                           MIXED.format(dfcp_bytes=dfcp_bytes, tcp=tcp,
                                        period="0.01s" if live else "0"))
    out, ts = os.path.join(tmp, "mixed.json"), os.path.join(tmp, "mixed.csv")
    p = run(engine, ["--", "--config", ini, "--summary-json", out, "--timeseries", ts],
            timeout=120)
    if p.returncode != 0:
        fail(f"exit code {p.returncode}")
    js = load_summary(out)
    tc = {c["name"]: c for c in js.get("tcp", [])}
    names = ("ts", "tr")
    with open(ts) as f:
        rows = [ln.split(",") for ln in f.read().splitlines()[1:]]
    return js, tc.get(names[0]), tc.get(names[1]), p.stdout, rows, names


def case_mixed_stop(engine, src, tmp):
    """Both orders, without and with the live view: the shorter transfer must not end the
    run, the longer must not be cut; the live view, the time series and the RTT
    histograms cover the TCP flows."""
    for live in (False, True):
        for dfcp_bytes, tcp_bytes in ((256 << 10, 48 << 20), (48 << 20, 256 << 10)):
            js, tx, rx, text, rows, names = mixed_run(engine, tmp, dfcp_bytes, tcp_bytes,
                                                      live)
            fl = {f["name"]: f for f in js["flows"]}
            s1, r1 = fl["s1"], fl["r1"]
            print(f"dfcp {dfcp_bytes} B: s1 done={s1['done']} r1 {r1['sink_bytes']} B; "
                  f"tcp {tcp_bytes} B: tx done={tx and tx['done']} rx "
                  f"{rx and rx['bytes_delivered']} B; run {js['duration_s']:.2f} s")
            if not (s1["done"] and r1["done"]) or r1["sink_bytes"] != dfcp_bytes or \
                    r1["bad_bytes"]:
                fail(f"the DFCP transfer of {dfcp_bytes} B did not complete")
            if tx is None or rx is None or not tx["done"] or rx["bytes_delivered"] != \
                    tcp_bytes or rx["bad_bytes"] or rx["order_errors"]:
                fail(f"the TCP transfer of {tcp_bytes} B did not complete")
            if js["duration_s"] >= 50:
                fail(f"the run lasted {js['duration_s']:.1f} s: it did not stop at completion")
            if tx.get("rtt_ns") is None or tx["rtt_ns"]["count"] == 0:
                fail(f"no RTT histogram for {names[0]}: {tx.get('rtt_ns')}")
            if {r[1] for r in rows} != {"s1", "r1", names[0], names[1]}:
                fail(f"time series rows for {sorted({r[1] for r in rows})}")
            # the live view prints once per stats period (10 ms here), a flow from its
            # first period with traffic: a run of a few periods (20 ms happened, the TCP
            # transfer done within the first) may end before a frame shows it
            if live and js["duration_s"] >= 0.05 and (
                    "tcp senders" not in text or
                    not re.search(r"^\s+flow ts\s+sender\s", text, re.M)):
                fail("the live view has no TCP flows")


DROP = """[eal]
args = -l 0-1 --no-huge -m 512 --no-pci --no-shconf --log-level=pmd.net.ring:warning
[engine]
duration = 60s
stats_period = 0
[port p0]
device = ring:w
preset = net_ring
[port p1]
device = ring:w
preset = net_ring
[task tx0]
kind = txonly
port = p0
rate = 50Mbit
count = 5000
[task sink]
kind = drop
port = p1
count = 5000
[lcore 1]
tasks = tx0, sink
"""


def case_drop(engine, src, tmp):
    """The example kind: it counts what it receives and its goal ends the run."""
    ini = enginetest.write(os.path.join(tmp, "drop.ini"), DROP)
    out = os.path.join(tmp, "drop.json")
    p = run(engine, ["--", "--config", ini, "--summary-json", out])
    if p.returncode != 0:
        fail(f"exit code {p.returncode}")
    js = load_summary(out)
    d = {x["task"]: x for x in js.get("drop", [])}
    print(f"drop: {d}, run {js['duration_s']:.2f} s")
    if d.get("sink", {}).get("packets") != 5000 or task(js, "sink")["rx_packets"] != 5000:
        fail("the drop task did not count the 5000 packets")
    if d["sink"]["bytes"] != 5000 * 60 or d["sink"]["bursts"] == 0:
        fail(f"drop counters: {d['sink']}")
    if js["duration_s"] >= 30:
        fail("its goal did not end the run")
    if not re.search(r"^\s+drop sink packets 5000 bytes 300000", p.stdout, re.M):
        fail("no drop line in the summary")


def case_bad_names(engine, src, tmp):
    """A typo gets the closest name and the full list; a vdev driver DPDK lacks is refused
    before EAL starts (no EAL line, exit 1); a real one still gets to EAL."""
    def refused(name, text, wants):
        cfg = write(os.path.join(tmp, name + ".ini"), text)
        p = run(engine, ["--", "--config", cfg])
        msg = p.stderr.strip().splitlines()[-1] if p.stderr.strip() else ""
        if p.returncode != 1 or "EAL:" in p.stdout + p.stderr:
            fail(f"{name}: exit {p.returncode} (want 1, before EAL)")
        for w in wants:
            if w not in msg:
                fail(f"{name}: no {w!r} in {msg!r}")
        return msg

    with open(os.path.join(src, "configs/txonly.ini")) as f:
        txonly = f.read()
    msg = refused("rat", txonly.replace("pkt_size = 64", "pkt_size = 64\nrat = 1G"),
                  ['[task tx0] rat: unknown key; did you mean "rate"? (known keys: ',
                   " kind, ", " rate, bucket, "])
    if not msg.endswith(", flow_vary, weights)"):
        fail(f"the list of keys is cut: {msg!r}")
    with open(os.path.join(src, "configs/bench-linerate.ini")) as f:
        flows = f.read()
    refused("sink", flows.replace("sink = verify", "sink = verfy"),
            ['sink: unknown value "verfy" (expected count, verify or file); '
             'did you mean "verify"?'])
    refused("net_foo0", txonly.replace("device = ring:wire0", "device = net_foo0", 1),
            ['[port p0] device: no DPDK driver for "net_foo0" (a vdev\'s name starts with its '
             "driver's: net_ring, "])
    refused("net_rign0", txonly.replace("device = ring:wire0", "device = net_rign0", 1),
            ['did you mean "net_ring0"?'])
    # a driver DPDK has passes the check: EAL creates the port (net_null: no wire needed)
    cfg = write(os.path.join(tmp, "null.ini"),
                txonly.replace("device = ring:wire0", "device = net_null0", 1))
    p = run(engine, EAL.split() + ["--", "--config", cfg, "--duration", "0.3s",
                                   "--stats-period", "0"])
    if p.returncode != 0 or "no DPDK driver" in p.stderr:
        fail(f"device = net_null0: exit {p.returncode}")


def main():
    cases = {"smoke": case_smoke, "io": case_io, "bad-config": case_bad_config,
             "sigint": case_sigint, "af_packet": case_af_packet, "af_packet-mq": case_af_packet_mq,
             "mixed-stop": case_mixed_stop, "cpu-lock": case_cpu_lock,
             "iface-lock": case_iface_lock, "kernel-drops": case_kernel_drops, "drop": case_drop, "bad-names": case_bad_names}
    return case_main(__doc__, cases, "dfcp-engine-test-")


if __name__ == "__main__":
    sys.exit(main())
