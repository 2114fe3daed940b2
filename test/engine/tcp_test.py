#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""TCP task end-to-end tests: tcp_test.py CASE ENGINE SOURCE_ROOT.

Cases:
  ring-reno   configs/tcp-ring.ini with cc = reno: sender and receiver tasks (flows
              up, down) over net_ring through a router pipe with 1 % loss; exact, verified
              delivery, retransmissions > 0, cwnd trace written, mbufs returned
  ring-cubic  the same with cc = cubic
  tap-send    our TCP sender -> a Linux TCP receiver (Python socket server) in a
              network namespace, reached over net_tap (the engine runs in the
              namespace, so the tap interface is created there); ARP resolution of
              the Linux peer; every byte of the pattern checked by the server
  tap-recv    a Linux TCP sender (Python socket client) -> our TCP receiver, verified
  cap         three CUBIC connections (flow group tx, count = 3) of one task under
              the coordinated cap policy through a 20 Mbit/s pipe with a deep queue:
              all deliver, the policy ran
  per-conn    two sender flows of one task with their own cc (tcpw-c, reno), tick /
              rto_min (0.5 s, 0.1 s) and init_cwnd: the summary JSON, the trace
              headers and the behaviour (ACK pairs, RTO) show each connection's settings
  bad-config  unknown congestion control, cap policy without senders, missing remote,
              rto_min above rto_max; a connection key (role, cc, verify, ...) in a tcp
              task: exit code 1 with "FILE:LINE: [SECTION] KEY: reason"
Skips (77) where namespaces or tap devices are not permitted. No timing assertions.
"""
import json
import os
import shutil
import struct
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from enginetest import (RING_ROUTER_PORTS, SKIP, case_main, fail, load,  # noqa: E402
                        need_root_ip, netns_add, netns_del, netns_exec_all, run, sh, skip, write)
import enginetest  # noqa: E402

EAL = "-l 0-1 --no-huge -m 1024 --no-pci --no-shconf"
M64 = (1 << 64) - 1


def tcp_flow(js, name):
    for f in js.get("tcp", []):
        if f["name"] == name:
            return f
    fail(f"tcp flow {name} missing from the summary")


def check_pools(js, held=0):
    """Every mbuf back; held: what the PMD keeps on its rx ring (net_tap: rx_desc)."""
    for p in js.get("pools", []):
        if p["in_use"] > held:
            fail(f"pool {p['name']}: {p['in_use']} mbufs not returned")


def show(f):
    print(f"tcp {f['name']} ({f['role']}, {f['cc']}): {f['state']} done={f['done']} "
          f"goodput {f['goodput_bytes']} B {f['goodput_mbps']:.2f} Mbit/s, sink "
          f"{f['sink_bytes']} B bad {f['bad_bytes']} order {f['order_errors']}, retrans "
          f"{f['retrans_pkts']} recoveries {f['fast_retrans']} timeouts {f['timeouts']}, "
          f"rtt min/avg {f['rtt_min_us']:.0f}/{f['rtt_avg_us']:.0f} us, "
          f"cwnd {f['cwnd_seg']:.1f} seg")


# lib/net/net_app.c net_pattern_fill(): the byte at offset o is byte o % 8 of the
# little-endian word w = o / 8: splitmix64 of its line w / 8 (and the seed) XOR lane
# (w % 8) times the golden-ratio constant.
PATTERN_PY = r'''
import struct
M64 = (1 << 64) - 1
G = 0x9e3779b97f4a7c15
def pattern(seed, off, n):
    w0, w1 = off // 8, (off + n + 7) // 8
    s = (seed << 32 | seed) & M64
    words = []
    for w in range(w0, w1):
        z = ((w >> 3) * G + s) & M64
        z = ((z ^ (z >> 30)) * 0xbf58476d1ce4e5b9) & M64
        z = ((z ^ (z >> 27)) * 0x94d049bb133111eb) & M64
        z ^= z >> 31
        z ^= ((w & 7) * G) & M64
        words.append(z)
    b = struct.pack("<%dQ" % len(words), *words)
    return b[off - w0 * 8: off - w0 * 8 + n]
'''
exec(PATTERN_PY)


def self_check_pattern():
    # seed 7 at offset 61: the known vector of test/net/test_net.c (the C code)
    if pattern(7, 61, 16).hex() != "97e5ca5ad128b4f8a61ace4fad62cb41":
        fail("pattern differs from lib/net's")
    a = pattern(7, 0, 64)
    b = pattern(7, 3, 20)
    if a[3:23] != b:
        fail("pattern offset arithmetic")


# ---------------------------------------------------------------------------
# net_ring cases


def case_ring(engine, src, tmp, cc):
    with open(os.path.join(src, "configs/tcp-ring.ini")) as f:
        text = f.read()
    trace = os.path.join(tmp, "cwnd.dat")
    text = text.replace("cc = cubic", f"cc = {cc}")
    text = text.replace("bytes = 8MiB", "bytes = 4MiB")  # Reno's timeouts: keep it short
    text = text.replace("cwnd_trace = /tmp/dfcp-tcp-ring-cwnd.dat", f"cwnd_trace = {trace}")
    cfg = write(os.path.join(tmp, "ring.ini"), text)
    out = os.path.join(tmp, "s.json")
    p = run([engine, "--", "--config", cfg, "--summary-json", out])
    if p.returncode != 0:
        fail(f"exit code {p.returncode}")
    js = load(out)
    s, r = tcp_flow(js, "up"), tcp_flow(js, "down")
    show(s)
    show(r)
    n = 4 << 20
    if s["cc"] != cc:
        fail(f"sender ran {s['cc']}, expected {cc}")
    if s["goodput_bytes"] != n or r["sink_bytes"] != n or r["goodput_bytes"] != n:
        fail(f"expected {n} bytes acked and delivered")
    if r["bad_bytes"] or r["order_errors"]:
        fail("pattern verification failed")
    if not s["done"] or not r["done"]:
        fail("a connection did not finish")
    if r["state"] != "CLOSED" or r["close_reason"] != "done":
        fail("receiver did not close in order")
    if s["retrans_pkts"] == 0:
        fail("no retransmission through a 1 % loss pipe")
    # rack = auto: RACK-TLP with SACK recovery (cubic), classic Reno otherwise
    want_rack = cc in ("cubic", "sack", "bic")
    if s["rack"] != want_rack:
        fail(f"{cc}: rack {s['rack']}, expected {want_rack}")
    if want_rack and s["rack_marked"] + s["tlp_recoveries"] == 0:
        fail(f"{cc}: RACK-TLP repaired nothing through a 1 % loss pipe")
    if not want_rack and (s["rack_marked"] or s["tlp_probes"]):
        fail(f"{cc}: RACK counters moved with RACK off")
    lost = [pp for pp in js.get("pipes", []) if pp.get("name") == "fwd"]
    if lost:
        print(f"pipe fwd: {json.dumps(lost[0])[:300]}")
    check_pools(js)
    with open(trace) as f:
        pts = [ln for ln in f if ln.strip() and not ln.startswith("#")]
    if len(pts) < 10 or len(pts[0].split()) != 5:
        fail(f"cwnd trace has {len(pts)} points")
    print(f"cwnd trace: {len(pts)} points, first: {pts[0].strip()}")
    if "tcp up " not in p.stdout or "tcp flow up " not in p.stdout:
        fail("no per-flow lines in the periodic block / summary")


# ---------------------------------------------------------------------------
# Linux interop over net_tap


def need_netns():
    need_root_ip()
    if not os.path.exists("/dev/net/tun"):
        skip("no /dev/net/tun")
    ns = f"dfcp-tcp-{os.getpid()}"
    netns_add(ns)
    netns_exec_all(ns, ("sysctl -qw net.ipv6.conf.all.disable_ipv6=1",
                        "sysctl -qw net.ipv6.conf.default.disable_ipv6=1", "ip link set lo up"))
    return ns


def tap_config(role, nbytes):
    common = ("[engine]\nduration = 60s\nstats_period = 1s\n"
              "[port t0]\ndevice = net_tap0\npreset = net_tap\n")
    if role == "sender":
        task = ("[flow up]\nproto = tcp\nrole = sender\nlocal = 10.99.0.2:40000\n"
                f"remote = 10.99.0.1:5201\ncc = cubic\nbytes = {nbytes}\nseed = 7\n"
                "[task tx]\nkind = tcp\nport = t0\nflows = up\n[lcore 1]\ntasks = tx\n")
    else:
        task = ("[flow down]\nproto = tcp\nrole = receiver\nlocal = 10.99.0.2:5201\n"
                "sink = verify\nseed = 7\n"
                "[task rx]\nkind = tcp\nport = t0\nflows = down\n[lcore 1]\ntasks = rx\n")
    return common + task


def start_engine(ns, engine, cfg, out, ifname):
    cmd = ["ip", "netns", "exec", ns, engine] + EAL.split() + [
        f"--vdev=net_tap0,iface={ifname}", "--", "--config", cfg, "--summary-json", out]
    print("$", " ".join(cmd), flush=True)
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def wait_tap(ns, ifname, ep):
    """Wait for the engine's tap interface, then address it and turn offloads off."""
    for _ in range(200):
        if subprocess.run(["ip", "-n", ns, "link", "show", ifname], capture_output=True
                          ).returncode == 0:
            break
        if ep.poll() is not None:
            out = ep.stdout.read()
            sys.stdout.write(out[-4000:])
            if "tap" in out.lower() and ("fail" in out.lower() or "error" in out.lower()):
                print("SKIP: net_tap cannot create its interface here")
                sys.exit(SKIP)
            fail(f"engine exited with {ep.returncode} before the tap appeared")
        time.sleep(0.05)
    else:
        fail(f"tap interface {ifname} did not appear")
    sh(f"ip -n {ns} addr add 10.99.0.1/24 dev {ifname}")
    sh(f"ip -n {ns} link set {ifname} up")
    if shutil.which("ethtool"):
        sh(f"ip netns exec {ns} ethtool -K {ifname} tso off gso off gro off tx off rx off "
           ">/dev/null 2>&1", check=False)
    else:
        print("note: no ethtool, tap offloads left as they are")


SERVER_PY = PATTERN_PY + r'''
import json, socket, sys
n, seed = int(sys.argv[1]), int(sys.argv[2])
ls = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
ls.bind(("0.0.0.0", 5201))
ls.listen(1)
ls.settimeout(60)
print("listening", flush=True)
c, peer = ls.accept()
c.settimeout(30)
got, bad, first_bad = 0, 0, -1
while True:
    d = c.recv(1 << 16)
    if not d:
        break
    if d != pattern(seed, got, len(d)):
        bad += 1
        if first_bad < 0:
            first_bad = got
    got += len(d)
c.close()
print(json.dumps({"bytes": got, "bad_chunks": bad, "first_bad": first_bad,
                  "peer": peer[0]}), flush=True)
'''

CLIENT_PY = PATTERN_PY + r'''
import json, socket, sys, time
n, seed = int(sys.argv[1]), int(sys.argv[2])
for i in range(100):
    try:
        s = socket.create_connection(("10.99.0.2", 5201), timeout=5)
        break
    except OSError:
        time.sleep(0.1)
else:
    print(json.dumps({"error": "cannot connect"}), flush=True)
    sys.exit(1)
s.settimeout(30)
off = 0
while off < n:
    k = min(1 << 16, n - off)
    s.sendall(pattern(seed, off, k))
    off += k
s.shutdown(socket.SHUT_WR)
rest = s.recv(1)              # our receiver closes after the FIN: EOF
s.close()
print(json.dumps({"sent": off, "eof": rest == b""}), flush=True)
'''


def case_tap_send(engine, src, tmp):
    ns = need_netns()
    ifname = f"dtcs{os.getpid() % 100000}"
    n = 4 << 20
    srv = ep = None
    try:
        spy = write(os.path.join(tmp, "server.py"), SERVER_PY)
        srv = subprocess.Popen(["ip", "netns", "exec", ns, sys.executable, spy, str(n), "7"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if "listening" not in srv.stdout.readline():
            fail("the Linux receiver did not start")
        cfg = write(os.path.join(tmp, "s.ini"), tap_config("sender", n))
        out = os.path.join(tmp, "s.json")
        ep = start_engine(ns, engine, cfg, out, ifname)
        wait_tap(ns, ifname, ep)
        eout, _ = ep.communicate(timeout=90)
        sys.stdout.write(eout[-5000:])
        sout, _ = srv.communicate(timeout=60)
        print("linux receiver:", sout.strip())
        if ep.returncode != 0:
            fail(f"engine exit code {ep.returncode}")
        res = json.loads(sout.strip().splitlines()[-1])
        js = load(out)
        s = tcp_flow(js, "up")
        show(s)
        if res["bytes"] != n or res["bad_chunks"] != 0:
            fail(f"Linux received {res['bytes']} bytes ({res['bad_chunks']} bad chunks), "
                 f"expected {n}")
        if s["goodput_bytes"] != n or not s["done"]:
            fail("our sender did not see every byte acknowledged")
        if s["rtt_samples"] == 0:
            fail("no RTT samples from the Linux peer's timestamps")
        check_pools(js, held=512)  # net_tap preset: 512 rx descriptors filled
    finally:
        if srv is not None and srv.poll() is None:
            srv.kill()
            srv.wait()
        if ep is not None:
            enginetest.kill_engine(ep)
        netns_del(ns)


def case_tap_recv(engine, src, tmp):
    ns = need_netns()
    ifname = f"dtcr{os.getpid() % 100000}"
    n = 4 << 20
    ep = None
    try:
        cfg = write(os.path.join(tmp, "r.ini"), tap_config("receiver", n))
        out = os.path.join(tmp, "r.json")
        ep = start_engine(ns, engine, cfg, out, ifname)
        wait_tap(ns, ifname, ep)
        cpy = write(os.path.join(tmp, "client.py"), CLIENT_PY)
        cl = run(["ip", "netns", "exec", ns, sys.executable, cpy, str(n), "7"], timeout=90)
        eout, _ = ep.communicate(timeout=90)
        sys.stdout.write(eout[-5000:])
        if cl.returncode != 0:
            fail(f"Linux sender failed: {cl.stdout.strip()}")
        res = json.loads(cl.stdout.strip().splitlines()[-1])
        if ep.returncode != 0:
            fail(f"engine exit code {ep.returncode}")
        js = load(out)
        r = tcp_flow(js, "down")
        show(r)
        if res["sent"] != n or not res["eof"]:
            fail(f"Linux sender: {res}")
        if r["sink_bytes"] != n or r["goodput_bytes"] != n:
            fail(f"our receiver delivered {r['sink_bytes']} bytes, expected {n}")
        if r["bad_bytes"] or r["order_errors"]:
            fail("pattern verification failed")
        if not r["done"]:
            fail("receiver did not see the FIN")
        check_pools(js, held=512)  # net_tap preset: 512 rx descriptors filled
    finally:
        if ep is not None:
            enginetest.kill_engine(ep)
        netns_del(ns)


# ---------------------------------------------------------------------------

CAP = """
[engine]
duration = 30s
stats_period = 0
""" + RING_ROUTER_PORTS + """[pipe bott]
bw = 20Mbit
delay = 10ms
queue = 300
[pipe back]
delay = 10ms
[task rtr]
kind = router
port_a = ra
port_b = rb
a_to_b = bott
b_to_a = back
[flow tx]
proto = tcp
role = sender
count = 3
local = 10.0.0.1:40000
remote = 10.0.0.2:5201
remote_port_step = 0
seed_step = 0
remote_mac = 02:00:00:00:00:02
cc = cubic
bytes = 2MiB
[flow rx]
proto = tcp
role = receiver
count = 3
local = 10.0.0.2:5201
local_port_step = 0
seed_step = 0
sink = verify
[task tx]
kind = tcp
port = p0
flows = tx
cap_policy = coordinated
cap_interval = 200ms
cap_table = 5ms:40, 20ms:20, 50ms:10
[task rx]
kind = tcp
port = p1
flows = rx
[lcore 1]
tasks = tx, rtr, rx
"""


def run_config(engine, tmp, name, text):
    """Write the config, run it on the test EAL arguments; (process, summary JSON)."""
    cfg = write(os.path.join(tmp, name), text)
    out = os.path.join(tmp, "s.json")
    p = run([engine] + EAL.split() + ["--", "--config", cfg, "--summary-json", out])
    if p.returncode != 0:
        fail(f"exit code {p.returncode}")
    return p, load(out)


def case_cap(engine, src, tmp):
    p, js = run_config(engine, tmp, "cap.ini", CAP)
    n = 2 << 20
    for i in range(3):
        s, r = tcp_flow(js, f"tx.{i}"), tcp_flow(js, f"rx.{i}")
        show(s)
        if s["goodput_bytes"] != n or not s["done"]:
            fail(f"tx.{i} did not finish")
        if s["local_port"] != 40000 + i:
            fail(f"tx.{i} local port {s['local_port']}")
    got = sum(tcp_flow(js, f"rx.{i}")["sink_bytes"] for i in range(3))
    if got != 3 * n:
        fail(f"receivers delivered {got} bytes, expected {3 * n}")
    if any(tcp_flow(js, f"rx.{i}")["bad_bytes"] for i in range(3)):
        fail("pattern verification failed")
    task = [t for t in js["tcp_tasks"] if t["name"] == "tx"][0]
    print(f"task tx: {task}")
    if task["cap_policy"] != "coordinated" or task["cap"]["evaluations"] == 0:
        fail("the cap policy did not run")
    if not 0 < task["jain"] <= 1:
        fail(f"Jain's index {task['jain']}")
    check_pools(js)


# two sender flows of task tx with their own settings (sndbuf < the queue: no loss)
PER_CONN_FLOWS = """[flow s0]
proto = tcp
role = sender
local = 10.0.0.1:40000
remote = 10.0.0.2:5201
remote_mac = 02:00:00:00:00:02
cc = tcpw-c
tick = 500ms
rto_min = 500ms
init_cwnd = 4
bytes = 1MiB
sndbuf = 64KiB
[flow s1]
proto = tcp
role = sender
local = 10.0.0.1:40001
remote = 10.0.0.2:5201
remote_mac = 02:00:00:00:00:02
cc = reno
tick = 100ms
rto_min = 100ms
init_cwnd = 10
bytes = 1MiB
sndbuf = 64KiB
[flow rx]
proto = tcp
role = receiver
count = 2
local = 10.0.0.2:5201
local_port_step = 0
seed_step = 0
sink = verify
[task tx]
kind = tcp
port = p0
flows = s0, s1
cwnd_trace = TRACE
"""
PER_CONN = CAP[:CAP.index("[flow tx]")] + PER_CONN_FLOWS + CAP[CAP.index("[task rx]"):]


def case_per_conn(engine, src, tmp):
    """Two connections of one sender task with their own cc, tick, rto_min, init_cwnd."""
    trace = os.path.join(tmp, "cwnd.dat")
    text = PER_CONN.replace("TRACE", trace)
    p, js = run_config(engine, tmp, "pc.ini", text)
    n = 1 << 20
    want = [("tcpw-c", 500000, 4), ("reno", 100000, 10)]
    for i, (cc, tick, iw) in enumerate(want):
        s, r = tcp_flow(js, f"s{i}"), tcp_flow(js, f"rx.{i}")
        show(s)
        print(f"  tick {s['tick_us']:.0f} us rto_min {s['rto_min_us']:.0f} us rto "
              f"{s['rto_us']:.0f} us init_cwnd {s['init_cwnd']} pair ACKs rx "
              f"{s['pair_acks_rx']} bw_est {s['bw_est_bps']}")
        if s["goodput_bytes"] != n or not s["done"] or r["sink_bytes"] != n or r["bad_bytes"]:
            fail(f"s{i} did not deliver {n} verified bytes")
        if (s["cc"], s["tick_us"], s["rto_min_us"], s["init_cwnd"]) != (cc, tick, tick, iw):
            fail(f"s{i}: cc {s['cc']} tick {s['tick_us']} rto_min {s['rto_min_us']} "
                 f"init_cwnd {s['init_cwnd']}, expected {cc} {tick} {tick} {iw}")
    s0, s1 = tcp_flow(js, "s0"), tcp_flow(js, "s1")
    # the module really differs: only the TCPW-C connection asks for and gets ACK pairs
    if s0["pair_acks_rx"] == 0 or s0["bw_est_bps"] == 0:
        fail("s0 (tcpw-c) got no ACK pairs / bandwidth estimate")
    if s1["pair_acks_rx"] != 0 or s1["bw_est_bps"] != 0:
        fail("s1 (reno) got ACK pairs or a bandwidth estimate")
    # the tick really differs: RTO = SRTT + max(G, 4 RTTVAR) on a clean 20 ms path
    if not s0["rto_us"] >= 500000 > s1["rto_us"] >= 100000:
        fail(f"RTO {s0['rto_us']:.0f} / {s1['rto_us']:.0f} us: expected >= 500 ms with the "
             f"0.5 s tick, 100..500 ms with the 0.1 s tick")
    task = [t for t in js["tcp_tasks"] if t["name"] == "tx"][0]
    if task["cc"] != "tcpw-c, reno":
        fail(f"task cc {task['cc']!r}")
    with open(trace) as f:
        heads = [ln for ln in f if ln.startswith("# flow")]
    if len(heads) != 2 or "cc tcpw-c tick_ms 500.000" not in heads[0] \
            or "cc reno tick_ms 100.000" not in heads[1]:
        fail(f"trace headers {heads}")
    check_pools(js)


# what a tcp task given a connection key says (tcp_conf.c)
NOT_TASK_KEY = ("not a tcp task key; connections are [flow NAME] sections with proto = tcp, "
                "named in the task's flows (doc/config.md, [flow])")


def case_bad_config(engine, src, tmp):
    base = "[engine]\n[port p0]\ndevice = ring:w0\n[lcore 1]\ntasks = t\n[task t]\nkind = tcp\n" \
           "port = p0\n"
    snd = "flows = f\n[flow f]\nproto = tcp\nrole = sender\nlocal = 10.0.0.1:1\n"
    cases = [
        (snd + "remote = 10.0.0.2:2\ncc = nosuch\n",
         "{cfg}:{line}: [flow f] cc: unknown congestion control \"nosuch\""),
        ("cap_policy = old\nflows = f\n[flow f]\nproto = tcp\nrole = receiver\n"
         "local = 10.0.0.1:1\n", "sender flows only"),
        (snd, "[flow f] remote:"),
        ("cap_table = 20ms:8, 10ms:4\n" + snd + "remote = 10.0.0.2:2\n",
         "{cfg}:{line}: [task t] cap_table: RTT rises must ascend"),
        (snd.replace("10.0.0.1:1", "10.0.0.1") + "remote = 10.0.0.2:2\n", ":PORT"),
        (snd + "remote = 10.0.0.2:2\nrto_max = 1s\nrto_min = 2s\n",
         "{cfg}:{line}: [flow f] rto_min: larger than rto_max"),
        # a connection key in the task: a [flow]'s, never the task's
        ("role = sender\nlocal = 10.0.0.1:1\nremote = 10.0.0.2:2\nflows = 2\ncc = reno\n",
         "{cfg}:{line}: [task t] role: " + NOT_TASK_KEY),
        ("cc = reno\n" + snd + "remote = 10.0.0.2:2\n",
         "{cfg}:{line}: [task t] cc: " + NOT_TASK_KEY),
        ("flows = f\nverify = on\n[flow f]\nproto = tcp\nrole = receiver\nlocal = 10.0.0.1:1\n",
         "{cfg}:{line}: [task t] verify: " + NOT_TASK_KEY),
    ]
    for i, (keys, msg) in enumerate(cases):
        text = base + keys
        cfg = write(os.path.join(tmp, f"bad{i}.ini"), text)
        key = msg.split("] ")[1].split(":")[0] if msg.startswith("{cfg}") else None
        if key:
            line = [n + 1 for n, ln in enumerate(text.splitlines()) if ln.startswith(key + " =")][0]
            msg = msg.format(cfg=cfg, line=line)
        p = run([engine] + EAL.split() + ["--", "--config", cfg])
        if p.returncode != 1 or msg not in p.stderr + p.stdout:
            fail(f"bad config {i}: exit {p.returncode}, expected 1 with \"{msg}\"; got "
                 f"{(p.stderr + p.stdout).strip()[-300:]}")


def main():
    cases = {"ring-reno": lambda e, s, t: case_ring(e, s, t, "reno"),
             "ring-cubic": lambda e, s, t: case_ring(e, s, t, "cubic"),
             "tap-send": case_tap_send, "tap-recv": case_tap_recv,
             "cap": case_cap, "per-conn": case_per_conn, "bad-config": case_bad_config}
    return case_main(__doc__, cases, "dfcp-tcp-test-", setup=self_check_pattern)


if __name__ == "__main__":
    sys.exit(main())
