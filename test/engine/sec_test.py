#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The engine under attack and failure (issue #15): sec_test.py CASE ENGINE SOURCE_ROOT.

Cases:
  peer-timeout  sender and receiver in two processes over net_memif; the receiver
                freezes mid-transfer (SIGSTOP: a peer that stops answering; killed
                after the sender ended): the sender closes with PEER_TIMEOUT within its
                peer_timeout and the engine exits 5 (a flow failed), naming the flow
  auth          auth_key and crypto = off on both ends (net_ring, one process): the transfer
                completes verified, every DATA frame carries the SipHash tag; a receiver
                with another key (and the default crypto) drops the SYNs (counted as
                "auth") and the sender fails (exit 5)
  verify-fail   a verifying sink with another seed: exit 5, "verify failed" in the summary
  arp           a sender whose next hop never answers ARP gives up after [port] arp_tries (4)
                (exit 5, the reason in the JSON); with root, a sender on a bridge whose
                attacker sends unsolicited ARP replies before the sender's request: they are
                ignored (counted), the transfer completes verified
  sighup        SIGHUP stops the run like SIGTERM: summary and JSON written, exit 0
  sigpipe       stdout closed after its first line (`| head -1`): SIGPIPE does not kill the
                engine, the transfer completes, the JSON is written, exit 0
  sink-full     sink = file into a 2 MB tmpfs: the receiver fails at the first ENOSPC (exit 5,
                close_reason sink-error, the error and the bytes written named), the sender
                does not complete; skipped (77) where tmpfs cannot be mounted; with room,
                the file is whole and the flow completed
  tcp-syn-flood spoofed SYNs from a raw socket (net_tap, a namespace) at a kind = tcp
                listener for 4 s while a Linux client connects and sends 4 MiB: it gets
                in, the receiver flow is its, verified (issue #36)
  crypto        crypto = aes-128-gcm on both ends (net_ring, one process): the transfer
                completes verified; a capture of the sender's DATA holds none of the
                source pattern's 8-byte words, which the same run with crypto = off
                shows (so the check can fail); a receiver without crypto refuses the
                sender (exit 5, the reason naming crypto); crypto without auth_key is a
                config error naming auth_key, so is crypto_dev with another backend; a
                crypto_dev that is not there fails the start, naming it; pinned keys
                (identity_key, peer_key): verified, refused with a third key, config errors
  bad-config    a short or missing auth_key, a max_rx_memory that cannot fit, an
                unwritable --summary-json, an empty / comments-only / directory / device /
                NUL-byte config: exit 1 before EAL, with FILE:LINE and numbers
No timing assertions beyond the peer timeout's bound: counts, reasons and exit codes.
"""
import functools
import os
import re
import shutil
import signal
import struct
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from enginetest import case_main, fail, load, sh, skip, write  # noqa: E402
import enginetest  # noqa: E402

EAL = "-l 0-1 --no-huge -m 1024 --no-pci"
run = functools.partial(enginetest.run, out_tail=5000)
FLOW_FAILED = 5

RING = """[eal]
args = -l 0-1 --no-huge -m 1024 --no-pci --no-shconf --log-level=pmd.net.ring:warning
[engine]
duration = {duration}
stats_period = {period}
[port p0]
device = ring:wire0
preset = net_ring
[port p1]
device = ring:wire0
preset = net_ring
[flow s1]
role = sender
local = 10.0.0.1:5001
remote = 10.0.0.2:6001
{smac}
{sgoal}
window = 32
seed = 7
{skeys}
[flow r1]
role = receiver
local = 10.0.0.2:6001
window = 32
seed = {rseed}
sink = verify
{rkeys}
[task tx]
kind = dfcp
port = p0
flows = s1
[task rx]
kind = dfcp
port = p1
flows = r1
{rtask}
[lcore 1]
tasks = tx, rx
"""


def ring_cfg(tmp, name, duration="20s", period="0", smac="remote_mac = 02:00:00:00:00:02",
             sgoal="bytes = 8MiB", skeys="", rkeys="", rseed=7, rtask=""):
    return write(os.path.join(tmp, name), RING.format(
        duration=duration, period=period, smac=smac, sgoal=sgoal, skeys=skeys, rkeys=rkeys,
        rseed=rseed, rtask=rtask))


def flow(js, name):
    for f in js.get("flows", []):
        if f["name"] == name:
            return f
    fail(f"flow {name} missing from the summary")


def expect_code(p, code):
    if p.returncode != code:
        fail(f"exit code {p.returncode}, expected {code}")


def failures(js):
    out = js.get("outcome")
    if out is None:
        fail("no outcome in the summary JSON")
    return {f["name"]: f["reason"] for f in out["failures"]}


def case_peer_timeout(engine, src, tmp):
    sock = os.path.join(tmp, "memif.sock")
    common = ("[engine]\nduration = 30s\nstats_period = 0\n"
              "[port m0]\ndevice = net_memif0\npreset = net_memif\n")
    rcfg = write(os.path.join(tmp, "r.ini"), common +
                 "[flow r1]\nrole = receiver\nlocal = 10.0.0.2:6001\nwindow = 32\n"
                 "[task rx]\nkind = dfcp\nport = m0\nflows = r1\n[lcore 1]\ntasks = rx\n")
    scfg = write(os.path.join(tmp, "s.ini"), common +
                 "[flow s1]\nrole = sender\nlocal = 10.0.0.1:5001\nremote = 10.0.0.2:6001\n"
                 "remote_mac = 02:00:00:00:00:02\nwindow = 32\nrate = 200Mbit\n"
                 "peer_timeout = 1s\n"
                 "[task tx]\nkind = dfcp\nport = m0\nflows = s1\n[lcore 1]\ntasks = tx\n")
    sj = os.path.join(tmp, "s.json")
    pid = os.getpid()
    rcmd = [engine] + EAL.split() + [f"--file-prefix=secr{pid}",
            f"--vdev=net_memif0,role=server,socket={sock}", "--", "--config", rcfg]
    scmd = [engine] + EAL.split() + [f"--file-prefix=secs{pid}",
            f"--vdev=net_memif0,role=client,socket={sock}", "--", "--config", scfg,
            "--stats-period", "0.5", "--summary-json", sj]
    print("$", " ".join(rcmd), flush=True)
    rp = subprocess.Popen(rcmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    sp = None
    try:
        for line in rp.stdout:  # the server listens before the client starts
            if "running" in line:
                break
        print("$", " ".join(scmd), flush=True)
        sp = subprocess.Popen(scmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True)
        lines = []
        for line in sp.stdout:  # the transfer runs: the receiver stops answering
            lines.append(line)
            if "== stats" in line:
                break
        # frozen, not killed: a killed memif server makes the client's PMD unmap the
        # shared rings while its lcore may be inside rte_eth_rx_burst (DPDK 22.11
        # net_memif does not synchronise the two): SIGSEGV in eth_memif_rx about 1 run
        # in 30 here, a crash of the driver, not of the protocol under test
        rp.send_signal(signal.SIGSTOP)
        killed = time.monotonic()
        rest, _ = sp.communicate(timeout=60)
        took = time.monotonic() - killed
    finally:
        for p, pfx in ((rp, f"secr{pid}"), (sp, f"secs{pid}")):
            if p is not None:
                enginetest.kill_engine(p, [pfx])  # the frozen receiver: always
    text = "".join(lines) + rest
    sys.stdout.write(text[-4000:])
    print(f"the sender ended {took:.2f} s after the receiver stopped")
    expect_code(sp, FLOW_FAILED)
    js = load(sj)
    s = flow(js, "s1")
    print(f"s1: close_reason {s['close_reason']}, completed {s['completed']}, "
          f"failed {s['failed']!r}")
    if s["close_reason"] != "peer-timeout" or s["completed"]:
        fail("the sender did not close with peer-timeout")
    if "peer-timeout" not in failures(js).get("s1", ""):
        fail("the outcome does not name s1's peer-timeout")
    if "flow s1 FAILED" not in text:
        fail("the summary does not say which flow failed")
    # the peer timeout is 1 s after the last feedback; the drain and exit come on top
    if took > 10:
        fail(f"the sender took {took:.1f} s to give up (peer_timeout = 1s)")


def case_auth(engine, src, tmp):
    key = os.path.join(tmp, "key")
    with open(key, "wb") as f:
        f.write(os.urandom(32))
    other = write(os.path.join(tmp, "other.hex"), os.urandom(16).hex() + "\n")
    out = os.path.join(tmp, "a.json")
    # crypto = off: the SipHash tags (with a key and no crypto line the flows seal: sec-crypto)
    tags = f"auth_key = {key}\ncrypto = off"
    cfg = ring_cfg(tmp, "auth.ini", skeys=tags, rkeys=tags)
    p = run([engine, "--", "--config", cfg, "--summary-json", out])
    expect_code(p, 0)
    js = load(out)
    s, r = flow(js, "s1"), flow(js, "r1")
    print(f"s1 acked {s['goodput_bytes']} B, r1 delivered {r['sink_bytes']} B, "
          f"bad {r['bad_bytes']}, drops {r['drops']}")
    if r["sink_bytes"] != 8 << 20 or r["bad_bytes"] or not s["completed"] or not r["completed"]:
        fail("the signed transfer did not complete verified")
    if "verify ok" not in p.stdout:
        fail("no 'verify ok' in the summary")
    # another key on the receiver: every SYN dropped as unauthenticated, the sender fails
    out2 = os.path.join(tmp, "b.json")
    # the SYN gives up after 6 x hs_rto (1.2 s); the receiver waits for the duration
    cfg = ring_cfg(tmp, "mismatch.ini", duration="3s", skeys=f"auth_key = {key}",
                   rkeys=f"auth_key = {other}")
    p = run([engine, "--", "--config", cfg, "--summary-json", out2])
    expect_code(p, FLOW_FAILED)
    js = load(out2)
    r = flow(js, "r1")
    print(f"r1 drops {r['drops']}; failures {failures(js)}")
    if r["drops"].get("auth", 0) == 0:
        fail("the receiver did not count the foreign-key SYNs as auth drops")
    if "syn-timeout" not in failures(js).get("s1", ""):
        fail("the sender's failure is not its SYN timeout")


def case_verify_fail(engine, src, tmp):
    out = os.path.join(tmp, "v.json")
    p = run([engine, "--", "--config", ring_cfg(tmp, "v.ini", rseed=8), "--summary-json", out])
    expect_code(p, FLOW_FAILED)
    if "verify FAILED" not in p.stdout or "flow r1 FAILED: verify failed" not in p.stdout:
        fail("the summary does not name the failed verification")
    js = load(out)
    if "verify failed" not in failures(js).get("r1", "") or flow(js, "r1")["bad_bytes"] == 0:
        fail("the JSON outcome does not name r1's verification")
    if "s1" in failures(js):
        fail("the sender, which completed, is listed as failed")


def case_arp(engine, src, tmp):
    out = os.path.join(tmp, "arp.json")
    # no remote_mac: the sender asks ARP for 10.0.0.2, which nobody answers
    cfg = ring_cfg(tmp, "arp.ini", duration="2s", smac="")  # 4 tries: given up at ~0.8 s
    cfg_text = open(cfg).read().replace("local = 10.0.0.2:6001", "local = 10.0.0.3:6001")
    cfg_text = cfg_text.replace("[port p0]\ndevice = ring:wire0\n",
                                "[port p0]\ndevice = ring:wire0\narp_tries = 4\n")
    write(cfg, cfg_text)
    p = run([engine, "--", "--config", cfg, "--summary-json", out], timeout=60)
    expect_code(p, FLOW_FAILED)
    reason = failures(load(out)).get("s1", "")
    print("s1:", reason)
    if "no ARP answer" not in reason or "after 4 requests" not in reason:
        fail("the sender's failure does not say that ARP gave up")
    if "giving up" not in p.stderr + p.stdout:
        fail("no log line when ARP gave up")
    arp_unsolicited(engine, tmp)


# An attacker on the bridge: ARP replies "10.0.0.2 is at 02:66:..." to the sender's address
# and MAC every 10 ms for 0.5 s, sent from its own port (the bridge learns its MAC there);
# then it watches for the sender's own request and prints when it saw it.
ARP_ATTACKER = r"""
import socket, struct, sys, time
dev, smac = sys.argv[1], bytes.fromhex(sys.argv[2].replace(":", ""))
evil = bytes.fromhex("026666666666")
ip = lambda a: socket.inet_aton(a)
arp = struct.pack("!HHBBH", 1, 0x0800, 6, 4, 2) + evil + ip("10.0.0.2") + smac + ip("10.0.0.1")
frame = smac + evil + b"\x08\x06" + arp + bytes(18)
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(0x0806))
s.bind((dev, 0))
t0, n = time.monotonic(), 0
while time.monotonic() - t0 < 0.5:
    s.send(frame)
    n += 1
    time.sleep(0.01)
last = time.monotonic()
print("sent", n, flush=True)
s.settimeout(0.2)
while time.monotonic() - last < 6:
    try:
        f = s.recv(100)
    except socket.timeout:
        continue
    if f[6:12] == smac and f[20:22] == b"\x00\x01" and f[38:42] == ip("10.0.0.2"):
        print("request %.3f s after the last reply" % (time.monotonic() - last), flush=True)
        break
"""

ARP_BRIDGE = """[eal]
args = -l 0-1 --no-huge -m 1024 --no-pci --no-shconf
[engine]
duration = 6s
stats_period = 0
[port p0]
device = net_af_packet0,iface=sa
preset = net_af_packet
[port p1]
device = net_af_packet1,iface=ra
preset = net_af_packet
[flow s1]
role = sender
local = 10.0.0.1:5001
remote = 10.0.0.2:6001
start = 2s
bytes = 4MiB
window = 32
seed = 7
[flow r1]
role = receiver
local = 10.0.0.2:6001
window = 32
seed = 7
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


def arp_unsolicited(engine, tmp):
    """A sender (no remote_mac) on a bridge with its receiver and an attacker who sends
    unsolicited ARP replies before the sender's first request: ignored (counted), the
    request's real answer taken, the transfer verified. (Taking the first reply sent the
    SYN to the attacker's port: syn-timeout, exit 5.)"""
    if os.geteuid() != 0 or shutil.which("ip") is None:
        print("unsolicited ARP: SKIPPED (needs root and iproute2)")
        return
    ns = f"dfcp-sarp-{os.getpid()}"
    if sh(f"ip netns add {ns}", check=False).returncode != 0:
        print("unsolicited ARP: SKIPPED (cannot create a network namespace)")
        return
    p = att = None
    try:
        cmds = ["ip link add br0 type bridge", "sysctl -qw net.ipv6.conf.all.disable_ipv6=1"]
        for a in ("sa", "ra", "ev"):
            cmds += [f"ip link add {a} type veth peer name {a}b", f"ip link set {a}b master br0",
                     f"ip link set {a} up", f"ip link set {a}b up"]
        for c in cmds + ["ip link set br0 up"]:
            if sh(f"ip netns exec {ns} {c}", check=False).returncode:
                print(f"unsolicited ARP: SKIPPED ({c} failed)")
                return
        smac = subprocess.run(["ip", "netns", "exec", ns, "cat", "/sys/class/net/sa/address"],
                              capture_output=True, text=True).stdout.strip()
        out = os.path.join(tmp, "sarp.json")
        cfg = write(os.path.join(tmp, "sarp.ini"), ARP_BRIDGE)
        cmd = ["ip", "netns", "exec", ns, engine, "--", "--config", cfg, "--summary-json", out]
        print("$", " ".join(cmd), flush=True)
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        lines = []
        for line in p.stdout:  # the ports are up: the attacker's replies reach the sender
            lines.append(line)
            if "running" in line:
                break
        att = subprocess.Popen(["ip", "netns", "exec", ns, "python3", "-c", ARP_ATTACKER, "ev",
                                smac], stdout=subprocess.PIPE, text=True)
        rest, _ = p.communicate(timeout=60)
        aout, _ = att.communicate(timeout=30)
        text = "".join(lines) + rest
        sys.stdout.write(text[-3000:])
        print("attacker:", aout.strip().replace("\n", "; "))
        gap = [float(w) for line in aout.splitlines() if line.startswith("request")
               for w in line.split()[1:2]]
        js = load(out)
        s, r = flow(js, "s1"), flow(js, "r1")
        print(f"s1: arp_unsolicited {s.get('arp_unsolicited')}, arp_conflicts "
              f"{s.get('arp_conflicts')}; failures {failures(js)}")
        if not gap:
            fail("the sender never sent an ARP request: it took an unsolicited reply")
        if gap[0] < 0.2:  # the attacker started late (a loaded machine): nothing tested
            print("unsolicited ARP: SKIPPED (the replies did not all come before the request)")
            return
        expect_code(p, 0)
        if not s["completed"] or not r["completed"] or r["bad_bytes"] or \
                r["sink_bytes"] != 4 << 20:
            fail("the transfer did not complete verified")
        if s["arp_unsolicited"] < 1:
            fail("the unsolicited replies were not counted")
    finally:
        for q in (p, att):
            if q is not None and q.poll() is None:
                q.kill()
                q.wait()
        sh(f"ip netns del {ns}", check=False)


def case_sighup(engine, src, tmp):
    out = os.path.join(tmp, "h.json")
    cfg = ring_cfg(tmp, "h.ini", duration="0", period="0.2", sgoal="rate = 100Mbit")
    cmd = [engine, "--", "--config", cfg, "--summary-json", out]
    print("$", " ".join(cmd), flush=True)
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines = []
    for line in p.stdout:
        lines.append(line)
        if "== stats" in line:
            break
    p.send_signal(signal.SIGHUP)
    try:
        rest, _ = p.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        enginetest.kill_engine(p)
        fail("the engine did not stop on SIGHUP")
    text = "".join(lines) + rest
    sys.stdout.write(text[-3000:])
    expect_code(p, 0)  # the sender has no goal of its own: stopping it fails nothing
    if "signal 1" not in text or "== summary" not in text:
        fail("no summary after SIGHUP")
    js = load(out)
    if flow(js, "s1")["goodput_bytes"] == 0:
        fail("nothing was sent before SIGHUP")


def case_bad_config(engine, src, tmp):
    short = os.path.join(tmp, "short.key")
    with open(short, "wb") as f:
        f.write(b"0123456789")
    cases = [
        ("short key", ring_cfg(tmp, "k1.ini", skeys=f"auth_key = {short}"), [],
         ["[flow s1] auth_key:", "10 bytes", "16 or 32"]),
        ("missing key", ring_cfg(tmp, "k2.ini", rkeys=f"auth_key = {tmp}/none"), [],
         ["[flow r1] auth_key:", "No such file"]),
        ("memory", ring_cfg(tmp, "m.ini", rtask="max_rx_memory = 64KiB"), [],
         ["[task rx] mem_budget: its flows need at least", "> mem_budget 64.0 KiB",
          "1 receivers x 1 block buffer x"]),
        ("peer_timeout", ring_cfg(tmp, "t.ini", skeys="peer_timeout = 1ms"), [],
         ["[flow s1] peer_timeout:"]),
        ("summary path", ring_cfg(tmp, "o.ini"), ["--summary-json", f"{tmp}/no/such/s.json"],
         ["--summary-json", "No such file"]),
        ("empty config", write(os.path.join(tmp, "e.ini"), ""), [], ["empty file"]),
        ("comments only", write(os.path.join(tmp, "c.ini"), "# a\n\n  # b\n"), [],
         ["only comments and blank lines"]),
        ("directory", tmp, [], ["is a directory"]),
        ("/dev/zero", "/dev/zero", [], ["not a regular file"]),
        ("NUL byte", write(os.path.join(tmp, "n.ini"), "[engine]\nduration = 1\0s\n"), [],
         ["n.ini:2: NUL byte"]),
    ]
    for name, cfg, extra, needles in cases:
        p = run([engine, "--", "--config", cfg] + extra, timeout=30)
        if p.returncode != 1:
            fail(f"{name}: exit code {p.returncode}, expected 1")
        for n in needles:
            if n not in p.stderr:
                fail(f"{name}: {n!r} not in the error")
        if "EAL" in p.stderr:
            fail(f"{name}: EAL started before the error")


def case_sigpipe(engine, src, tmp):
    out = os.path.join(tmp, "p.json")
    err = os.path.join(tmp, "p.err")
    # 1 s of stats every 20 ms: stdout (a pipe: block-buffered) is flushed during the run
    cfg = ring_cfg(tmp, "p.ini", duration="1s", period="0.02", sgoal="rate = 100Mbit")
    cmd = [engine, "--", "--config", cfg, "--summary-json", out]
    print("$", " ".join(cmd), "| head -1", flush=True)
    with open(err, "w") as ef:
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=ef, text=True)
        first = p.stdout.readline()
        p.stdout.close()  # like `| head -1`: every later write to stdout fails (EPIPE)
        try:
            p.wait(timeout=60)
        except subprocess.TimeoutExpired:
            enginetest.kill_engine(p)
            fail("the engine did not finish with its stdout closed")
    print("first line:", first.rstrip())
    print(open(err).read()[-2000:])
    if first == "" or "== summary" in first:
        fail("nothing reached stdout before the end: the case tests no closed pipe")
    expect_code(p, 0)  # the sender has no goal of its own: stopping it fails nothing
    js = load(out)
    if flow(js, "s1")["goodput_bytes"] == 0 or flow(js, "r1")["bad_bytes"] != 0:
        fail("the transfer did not run, or not verified, with stdout closed")

def case_sink_full(engine, src, tmp):
    """sink = file into a 2 MB tmpfs: the first ENOSPC fails the flow (exit 5)."""
    mnt = os.path.join(tmp, "small")
    os.mkdir(mnt)
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs",
                                            mnt], capture_output=True).returncode != 0:
        skip("cannot mount a tmpfs")
    try:
        path = os.path.join(mnt, "data")
        out = os.path.join(tmp, "full.json")
        cfg = ring_cfg(tmp, "full.ini", duration="10s", sgoal="bytes = 16MiB")
        write(cfg, open(cfg).read().replace("sink = verify", f"sink = file {path}"))
        p = run([engine, "--", "--config", cfg, "--summary-json", out], timeout=60)
        expect_code(p, FLOW_FAILED)
        js = load(out)
        r, s = flow(js, "r1"), flow(js, "s1")
        size = os.path.getsize(path)
        print(f"r1: close_reason {r['close_reason']}, sink_bytes {r['sink_bytes']}, file "
              f"{size} B, sink_file_bytes {r['sink_file_bytes']}, sink_errors "
              f"{r['sink_errors']}; failures {failures(js)}")
        reason = failures(js).get("r1", "")
        if not reason.startswith("sink write failed: No space left on device after "):
            fail("r1's failure does not name the full disk")
        if f"after {size} bytes" not in reason or r["sink_file_bytes"] != size:
            fail("the bytes written are not the file's size")
        if r["close_reason"] != "sink-error" or r["sink_errors"] < 1 or r["completed"]:
            fail("r1 did not close on its sink error, counted")
        if s["completed"] or size >= 16 << 20:
            fail("the sender completed a transfer that was not stored")
        if "flow r1 FAILED: sink write failed" not in p.stdout:
            fail("the summary does not name the sink's failure")
        if "sink file failed: No space left on device" not in p.stdout + p.stderr:
            fail("no log line when the sink failed")
    finally:
        subprocess.run(["umount", mnt], capture_output=True)
    # room enough: written, fsync'd at the close, completed
    path = os.path.join(tmp, "data")
    cfg = ring_cfg(tmp, "room.ini", duration="10s", sgoal="bytes = 4MiB")
    write(cfg, open(cfg).read().replace("sink = verify", f"sink = file {path}"))
    p = run([engine, "--", "--config", cfg, "--summary-json", out], timeout=60)
    expect_code(p, 0)
    r = flow(load(out), "r1")
    if not r["completed"] or r["sink_errors"] or r["close_reason"] != "normal" or \
            r["sink_file_bytes"] != 4 << 20 or os.path.getsize(path) != 4 << 20:
        fail("a sink file with room did not complete whole")

FLOOD_PY = r'''
import os, random, socket, struct, sys, time
ifname, dmac, secs = sys.argv[1], bytes.fromhex(sys.argv[2].replace(":", "")), float(sys.argv[3])
def csum(b):
    if len(b) % 2:
        b += b"\0"
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff
rnd = random.Random(36)
frames = []
for i in range(20000):  # more distinct SYNs than the table holds (4096)
    src = bytes([10, rnd.randrange(100, 250), rnd.randrange(256), rnd.randrange(1, 255)])
    dst = bytes([10, 99, 0, 2])
    tcp = struct.pack("!HHIIBBHHH", rnd.randrange(1024, 65535), 5201, rnd.getrandbits(32), 0,
                      6 << 4, 0x02, 65535, 0, 0) + struct.pack("!BBH", 2, 4, 1460)
    c = csum(src + dst + struct.pack("!BBH", 0, 6, len(tcp)) + tcp)
    tcp = tcp[:16] + struct.pack("!H", c) + tcp[18:]
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(tcp), i & 0xffff, 0, 64, 6, 0, src, dst)
    ip = ip[:10] + struct.pack("!H", csum(ip)) + ip[12:]
    smac = bytes([2, 0x36, rnd.randrange(256), rnd.randrange(256), rnd.randrange(256), 1])
    frames.append(dmac + smac + b"\x08\x00" + ip + tcp)
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind((ifname, 0))
print("flooding", flush=True)
n, end = 0, time.monotonic() + secs
while time.monotonic() < end:
    for f in frames[n % 20000:n % 20000 + 500]:
        try:
            s.send(f)
        except OSError:  # the tap's queue full: the flood goes on
            pass
    n += 500
print("sent", n, flush=True)
'''


def case_tcp_syn_flood(engine, src, tmp):
    """Spoofed SYNs from a raw socket at the TCP listener while a Linux client
    connects and sends 4 MiB: it gets in, the receiver flow is its, verified."""
    import tcp_test  # the net_tap helpers of the tcp engine tests
    ns = tcp_test.need_netns()
    ifname = f"dtsf{os.getpid() % 100000}"
    n = 4 << 20
    ep = fl = None
    try:
        cfg = write(os.path.join(tmp, "r.ini"), tcp_test.tap_config("receiver", n).replace(
            "duration = 60s", "duration = 20s"))
        out = os.path.join(tmp, "r.json")
        ep = tcp_test.start_engine(ns, engine, cfg, out, ifname)
        tcp_test.wait_tap(ns, ifname, ep)
        mac = "ff:ff:ff:ff:ff:ff"  # the engine takes any destination MAC off the tap
        fpy = write(os.path.join(tmp, "flood.py"), FLOOD_PY)
        fl = subprocess.Popen(["ip", "netns", "exec", ns, sys.executable, fpy, ifname, mac, "4"],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if "flooding" not in fl.stdout.readline():
            fail("the flood did not start")
        time.sleep(1.0)
        cpy = write(os.path.join(tmp, "client.py"), tcp_test.CLIENT_PY)
        t0 = time.monotonic()
        try:
            cl = run(["ip", "netns", "exec", ns, sys.executable, cpy, str(n), "7"], timeout=30)
        except subprocess.TimeoutExpired:
            fail("the Linux client did not get its 4 MiB through in 30 s during the flood")
        took = time.monotonic() - t0
        fout, _ = fl.communicate(timeout=30)
        print("flood:", fout.strip().splitlines()[-1], f"; the client took {took:.2f} s")
        eout, _ = ep.communicate(timeout=30)
        sys.stdout.write(eout[-3000:])
        if cl.returncode != 0:
            fail(f"the Linux client failed during the flood: {cl.stdout.strip()}")
        expect_code(ep, 0)
        js = load(out)
        r = tcp_test.tcp_flow(js, "down")
        tcp_test.show(r)
        if r["sink_bytes"] != n or r["bad_bytes"] or r["order_errors"]:
            fail(f"the receiver flow got {r['sink_bytes']} of {n} bytes "
                 f"(bad {r['bad_bytes']}): not the client's")
        t = js["tcp_tasks"][0]
        print({k: t.get(k) for k in ("syn_rx", "syn_accepted", "half_open", "half_open_evicted",
                                     "syn_cookies_sent", "syn_cookies_ok", "syn_cookies_bad")})
        if t["half_open_evicted"] == 0 or t["syn_cookies_sent"] == 0:
            fail("the flood never filled the half-open table: the case tests nothing")
    finally:
        if fl is not None and fl.poll() is None:
            fl.kill()
            fl.wait()
        if ep is not None:
            enginetest.kill_engine(ep)
        enginetest.netns_del(ns)
# the source pattern (lib/net net_pattern_fill_ref): the 8-byte word at stream offset 8 w
M64 = (1 << 64) - 1
GOLD = 0x9e3779b97f4a7c15


def pattern_words(seed, nwords):
    out = set()
    s = (seed << 32) | seed
    for w in range(nwords):
        z = ((w >> 3) * GOLD + s) & M64
        z = ((z ^ (z >> 30)) * 0xbf58476d1ce4e5b9) & M64
        z = ((z ^ (z >> 27)) * 0x94d049bb133111eb) & M64
        z ^= z >> 31
        out.add(z ^ (((w & 7) * GOLD) & M64))
    return out


def pcapng_udp_payloads(path, dport):
    """UDP payloads to dport in a pcapng file (enhanced packet blocks, IPv4 over Ethernet)."""
    with open(path, "rb") as f:
        data = f.read()
    off, out = 0, []
    while off + 12 <= len(data):
        btype, blen = struct.unpack_from("<II", data, off)
        if blen < 12 or off + blen > len(data):
            break
        if btype == 6:
            caplen = struct.unpack_from("<I", data, off + 20)[0]
            pkt = data[off + 28:off + 28 + caplen]
            if len(pkt) > 42 and pkt[12:14] == b"\x08\x00" and pkt[23] == 17:
                ihl = (pkt[14] & 15) * 4
                if struct.unpack_from(">H", pkt, 14 + ihl + 2)[0] == dport:
                    out.append(pkt[14 + ihl + 8:])
        off += blen
    return out


def pattern_hits(payloads, words):
    """8-byte words of the payloads (at every alignment) that are source pattern words."""
    hits = 0
    for p in payloads:
        for k in range(8):
            n = (len(p) - k) // 8
            hits += sum(1 for (v,) in struct.iter_unpack("<Q", p[k:k + 8 * n]) if v in words)
    return hits


def case_crypto(engine, src, tmp):
    key = os.path.join(tmp, "key")
    with open(key, "wb") as f:
        f.write(os.urandom(32))
    words = pattern_words(7, (4 << 20) // 8)  # the first 4 MiB of seed 7's stream
    hits = {}
    for suite in ("aes-128-gcm", "off"):
        keys = f"auth_key = {key}\ncrypto = {suite}"
        pcap = os.path.join(tmp, f"{suite}.pcapng")
        out = os.path.join(tmp, f"{suite}.json")
        cap = (f"[capture c0]\nport = p0\ndirection = tx\nfile = {pcap}\nmatch = udp\n"
               "max_packets = 1500")
        cfg = ring_cfg(tmp, f"{suite}.ini", skeys=keys, rkeys=keys, rtask=cap)
        p = run([engine, "--", "--config", cfg, "--summary-json", out])
        expect_code(p, 0)
        js = load(out)
        s, r = flow(js, "s1"), flow(js, "r1")
        if r["sink_bytes"] != 8 << 20 or r["bad_bytes"] or not s["completed"]:
            fail(f"crypto = {suite}: the transfer did not complete verified")
        data = pcapng_udp_payloads(pcap, 6001)
        hits[suite] = pattern_hits(data, words)
        print(f"crypto = {suite}: {len(data)} frames to the receiver captured, "
              f"{hits[suite]} source-pattern words in them", flush=True)
        if len(data) < 1000:
            fail(f"crypto = {suite}: only {len(data)} frames captured")
    if hits["off"] < 10000:
        fail("without crypto the capture shows no plaintext: the check cannot fail")
    if hits["aes-128-gcm"] != 0:
        fail("plaintext pattern bytes on the wire with crypto = aes-128-gcm")
    # the other suite, and each backend: verified too, the log naming the backend used
    # (crypto_openssl0: a device without CPU crypto, through its queue pairs)
    for suite, backend, dev in (("chacha20-poly1305", "auto", ""),
                                ("aes-128-gcm", "cryptodev", ""),
                                ("aes-128-gcm", "cryptodev", "crypto_openssl0"),
                                ("aes-128-gcm", "ipsec-mb", ""), ("aes-128-gcm", "openssl", "")):
        keys = f"auth_key = {key}\ncrypto = {suite}\ncrypto_backend = {backend}"
        keys += f"\ncrypto_dev = {dev}" if dev else ""
        out = os.path.join(tmp, f"{suite}-{backend}{dev}.json")
        cfg = ring_cfg(tmp, f"{suite}-{backend}{dev}.ini", skeys=keys, rkeys=keys)
        p = run([engine, "--", "--config", cfg, "--summary-json", out])
        used = re.search(rf"{suite} through (\S+) \(([^,)]*)", p.stdout + p.stderr)
        unit = used.group(2) if used else "?"
        used = used.group(1) if used else "?"
        if backend == "ipsec-mb" and p.returncode != 0 and "not built in" in p.stdout + p.stderr:
            print("note: built without libIPSec_MB: crypto_backend = ipsec-mb refused, as it says")
            continue
        expect_code(p, 0)
        r = flow(load(out), "r1")
        if r["sink_bytes"] != 8 << 20 or r["bad_bytes"]:
            fail(f"crypto = {suite}, crypto_backend = {backend}: not verified")
        print(f"crypto = {suite}, crypto_backend = {backend}: verified through {used}")
        if backend != "auto" and used != backend:
            fail(f"crypto_backend = {backend} sealed through {used}")
        if dev and unit != dev:
            fail(f"crypto_dev = {dev}: sealed through {unit}")
    # a sender with crypto, a receiver without: refused (the SYN asks for another suite)
    out = os.path.join(tmp, "refused.json")
    cfg = ring_cfg(tmp, "refused.ini", duration="3s",
                   skeys=f"auth_key = {key}\ncrypto = aes-128-gcm",
                   rkeys=f"auth_key = {key}\ncrypto = off")
    p = run([engine, "--", "--config", cfg, "--summary-json", out])
    expect_code(p, FLOW_FAILED)
    reason = failures(load(out)).get("s1", "")
    print("s1:", reason)
    if "crypto" not in reason:
        fail("the refused sender's reason does not name crypto")
    # crypto without auth_key: a config error naming the key, before EAL
    p = run([engine, "--", "--config", ring_cfg(tmp, "nokey.ini", skeys="crypto = aes-128-gcm")],
            timeout=30)
    expect_code(p, 1)
    if "[flow s1] crypto:" not in p.stderr or "auth_key" not in p.stderr or "EAL" in p.stderr:
        fail("crypto without auth_key: no config error naming auth_key")
    case_pinned(engine, tmp)
    # a cryptodev device for another backend: a config error naming crypto_dev
    keys = f"auth_key = {key}\ncrypto_backend = ipsec-mb\ncrypto_dev = crypto_openssl0"
    p = run([engine, "--", "--config", ring_cfg(tmp, "dev.ini", skeys=keys)], timeout=30)
    expect_code(p, 1)
    if "[flow s1] crypto_dev:" not in p.stderr or "ipsec-mb" not in p.stderr:
        fail("crypto_dev with crypto_backend = ipsec-mb: no config error naming both")
    # a device that is not there: the flow fails to start, the log naming it
    keys = f"auth_key = {key}\ncrypto_dev = crypto_nosuch0"
    out = os.path.join(tmp, "nodev.json")
    p = run([engine, "--", "--config", ring_cfg(tmp, "nodev.ini", duration="2s", skeys=keys),
             "--summary-json", out], timeout=30)
    if p.returncode == 0 or "crypto_nosuch0: no such cryptodev" not in p.stdout + p.stderr:
        fail(f"crypto_dev = crypto_nosuch0: exit {p.returncode}, no error naming it")


def case_pinned(engine, tmp):
    """Pinned keys (identity_key, peer_key) instead of auth_key: verified when each end pins
    the other's public key, refused when the receiver pins a third key; config errors."""
    if shutil.which("openssl") is None:
        print("note: no openssl command: the pinned-key cases are not run")
        return
    for n in ("a", "b", "c"):
        sh(f"openssl genpkey -algorithm x25519 -out {tmp}/{n}.pem")
        sh(f"openssl pkey -in {tmp}/{n}.pem -pubout -out {tmp}/{n}.pub")
    skeys = f"identity_key = {tmp}/a.pem\npeer_key = {tmp}/b.pub"
    for peer, code in (("a", 0), ("c", FLOW_FAILED)):
        rkeys = f"identity_key = {tmp}/b.pem\npeer_key = {tmp}/{peer}.pub"
        out = os.path.join(tmp, f"pin-{peer}.json")
        cfg = ring_cfg(tmp, f"pin-{peer}.ini", duration="3s", skeys=skeys, rkeys=rkeys)
        p = run([engine, "--", "--config", cfg, "--summary-json", out])
        expect_code(p, code)
        js = load(out)
        r = flow(js, "r1")
        if code == 0 and (r["sink_bytes"] != 8 << 20 or r["bad_bytes"]):
            fail("pinned keys: the transfer did not complete verified")
        if code != 0 and (r["sink_bytes"] or "s1" not in failures(js)):
            fail("a receiver pinning another key: data went through, or the sender did not fail")
        print(f"pinned keys, the receiver pinning {peer}: exit {p.returncode}, "
              f"{r['sink_bytes']} bytes delivered")
    for keys, want in ((f"identity_key = {tmp}/a.pem", "peer_key: missing"),
                       (f"identity_key = {tmp}/a.pem\npeer_key = {tmp}/b.pem",
                        "not an X25519 public key"),
                       (f"{skeys}\nauth_key = {tmp}/key", "identity_key: with auth_key")):
        p = run([engine, "--", "--config", ring_cfg(tmp, "pinbad.ini", skeys=keys)], timeout=30)
        expect_code(p, 1)
        if want not in p.stderr or "EAL" in p.stderr:
            fail(f"pinned keys: no config error '{want}' before EAL")


CASES = {
    "peer-timeout": case_peer_timeout,
    "auth": case_auth,
    "verify-fail": case_verify_fail,
    "arp": case_arp,
    "sighup": case_sighup,
    "sigpipe": case_sigpipe,
    "bad-config": case_bad_config,
    "sink-full": case_sink_full,
    "tcp-syn-flood": case_tcp_syn_flood,
    "crypto": case_crypto,
}

if __name__ == "__main__":
    sys.exit(case_main(__doc__, CASES, "dfcp-sec-"))
