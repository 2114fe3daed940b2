#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""A task over several lcores (issue 32): scale_test.py CASE ENGINE SOURCE_ROOT.

Cases:
  dfcp-rss    1024 DFCP senders in [task tx] lcores = 2-5 on port a (local ports 10000 +
              3i, remote ports 20000 + 5i: the tasks' shares differ), their 1024 verifying
              receivers in [task rx] lcores = 4-7 on port b (a net_ring wire of 4 queue
              pairs), lcores 0-7 mapped onto CPUs 0 and 1: every flow completes and
              verifies, exit 0; tasks tx.0 .. tx.3 and rx.0 .. rx.3 are in the summary on
              their lcores, and every flow runs on the task this file's own Toeplitz hash
              places it on (RSS of its frames: remote -> local, the default key, a RETA of
              128 entries over the port's queues).
  sched-shards the same 1024 DFCP transfers with the senders' egress a sched task spread
              over lcores 6-7 (shards s.0, s.1 on tx queues 0 and 1 of port a): every flow
              completes and verifies; the sched_groups record counts 2 shards and 1024
              flows, and each shard holds the flows whose names hash to it (FNV-1a x 2 /
              2^32: the senders are spread over 4 tasks, not 2)
  tcp-rss     32 TCP transfers (each flow its own address: one endpoint per address on a
              port) over 2 sender and 2 receiver tasks: all complete and verify, each on
              the task its RSS hash names.
  rss-program an rxonly task over 4 lcores on a net_null port with rss = on (its PMD takes
              a key and a RETA): the port gets 4 rx queues, the engine's key and RETA.
  bad-config  lcores with rxq, an lcore past the EAL's limit, an lcore EAL did not
              enable, an rx_queues written smaller than the tasks: each refused with its
              exit code and a message naming the file, the section and the key.
Counts, verification and exit codes only (no timing).
"""
import collections
import functools
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from enginetest import case_main, fail, load, write  # noqa: E402
import enginetest  # noqa: E402

run = functools.partial(enginetest.run, out_tail=3000, err_tail=3000)

RSS_KEY = bytes.fromhex("6d5a56da255b0ec24167253d43a38fb0d0ca2bcbae7b30b477cb2da38030f20c"
                        "6a42b73bbeac01fa")
RETA_SIZE = 128
FLOWS = 1024
NBYTES = 64 << 10


def toeplitz(key, data):
    """The RSS hash: for every set input bit, most significant first, XOR in the 32
    key bits that start at its position."""
    k, klen, h = int.from_bytes(key, "big"), len(key) * 8, 0
    for i in range(len(data) * 8):
        if (data[i // 8] >> (7 - i % 8)) & 1:
            h ^= (k >> (klen - 32 - i)) & 0xffffffff
    return h


def rss_ipv4(src, sport, dst, dport):
    data = bytes(src) + bytes(dst) + sport.to_bytes(2, "big") + dport.to_bytes(2, "big")
    return toeplitz(RSS_KEY, data)


def place(remote, rport, local, lport, queues, tasks):
    """The task of a spread its frames (remote -> local) reach by RSS."""
    return (rss_ipv4(remote, rport, local, lport) % RETA_SIZE) % queues % tasks


def config(sender_lcores="2-5", receiver_lcores="4-7", extra_port_b="", extra_rx="",
           extra_tx=""):
    return f"""[eal]
args = --lcores (0-7)@(0,1) --no-huge -m 1024 --no-pci --no-shconf --log-level=pmd.net.ring:warning
[engine]
duration = 50s
stats_period = 0
[port a]
device = ring:w0
preset = net_ring
[port b]
device = ring:w0
preset = net_ring
{extra_port_b}[flow s]
role = sender
count = {FLOWS}
local = 10.0.0.1:10000
remote = 10.0.1.1:20000
local_port_step = 3
remote_port_step = 5
remote_mac = 02:00:00:00:00:02
bytes = {NBYTES}
window = 2
[flow r]
role = receiver
count = {FLOWS}
local = 10.0.1.1:20000
local_port_step = 5
window = 2
sink = verify
[task tx]
kind = dfcp
port = a
lcores = {sender_lcores}
mem_budget = 64MiB
{extra_tx}flows = s
[task rx]
kind = dfcp
port = b
lcores = {receiver_lcores}
max_conns = 1
mem_budget = 64MiB
{extra_rx}flows = r
"""


def case_dfcp_rss(engine, src, tmp):
    # the reimplementation first: the verification suite's first IPv4 + TCP vector
    if rss_ipv4((66, 9, 149, 187), 2794, (161, 142, 100, 80), 1766) != 0x51ccc178:
        fail("the test's Toeplitz hash misses the verification vector")
    cfg = write(os.path.join(tmp, "scale.ini"), config())
    out = os.path.join(tmp, "s.json")
    t0 = time.monotonic()
    p = run([engine, "--", "--config", cfg, "--summary-json", out], timeout=120)
    wall = time.monotonic() - t0
    print(f"engine wall time {wall:.1f} s")
    js = load(out)
    if p.returncode != 0:
        fail(f"exit code {p.returncode}")
    oc = js["outcome"]
    if oc["completed"] != 2 * FLOWS or oc["failed"] != 0:
        fail(f"outcome: {oc['completed']} completed, {oc['failed']} failed")
    for line in ("flows s (senders): 1024 flows, 1024 completed, 0 failed",
                 "flows r (receivers): 1024 flows, 1024 completed, 0 failed"):
        if line not in p.stdout:
            fail(f"summary lacks \"{line}\"")
    tasks = {t["name"]: t for t in js["tasks"]}
    for base, lcores in (("tx", (2, 3, 4, 5)), ("rx", (4, 5, 6, 7))):
        for i, lc in enumerate(lcores):
            t = tasks.get(f"{base}.{i}")
            if t is None or t["kind"] != "dfcp" or t["lcore"] != lc:
                fail(f"task {base}.{i}: {t} (expected kind dfcp on lcore {lc})")
        if base in tasks:
            fail(f"task {base} reported besides its expansion")
    flows = {f["name"]: f for f in js["flows"]}
    got, want = collections.Counter(), collections.Counter()
    for i in range(FLOWS):
        s, r = flows.get(f"s.{i}"), flows.get(f"r.{i}")
        if s is None or r is None:
            fail(f"flow s.{i} or r.{i} missing from the summary")
        if not s["completed"] or not r["completed"] or r["sink_bytes"] != NBYTES or \
                r["bad_bytes"] != 0 or r["order_errors"] != 0:
            fail(f"s.{i}/r.{i}: {s['state']} {s['failed']!r} / {r['state']} "
                 f"{r['sink_bytes']} B {r['failed']!r}")
        ws = "tx.%d" % place((10, 0, 1, 1), 20000 + 5 * i, (10, 0, 0, 1), 10000 + 3 * i, 4, 4)
        wr = "rx.%d" % place((0, 0, 0, 0), 0, (10, 0, 1, 1), 20000 + 5 * i, 4, 4)
        if s["task"] != ws or r["task"] != wr:
            fail(f"s.{i} on {s['task']}, r.{i} on {r['task']}: the placement says {ws}, {wr}")
        got[s["task"]] += 1
        got[r["task"]] += 1
        want[ws] += 1
        want[wr] += 1
    print("flows per task:", dict(sorted(got.items())))
    if got != want:
        fail(f"flows per task {dict(got)}, the placement says {dict(want)}")


def fnv1a(name):
    h = 2166136261
    for c in name.encode():
        h = ((h ^ c) * 16777619) & 0xffffffff
    return h


def case_sched_shards(engine, src, tmp):
    shards = "[task s]\nkind = sched\nport = a\nlcores = 6-7\nrate = off\nmax_flows = 1024\n"
    cfg = write(os.path.join(tmp, "shards.ini"),
                config(extra_tx="egress = s\n") + shards)
    out = os.path.join(tmp, "s.json")
    t0 = time.monotonic()
    p = run([engine, "--", "--config", cfg, "--summary-json", out], timeout=120)
    print(f"engine wall time {time.monotonic() - t0:.1f} s")
    js = load(out)
    if p.returncode != 0:
        fail(f"exit code {p.returncode}")
    oc = js["outcome"]
    if oc["completed"] != 2 * FLOWS or oc["failed"] != 0:
        fail(f"outcome: {oc['completed']} completed, {oc['failed']} failed")
    flows = {f["name"]: f for f in js["flows"]}
    for i in range(FLOWS):
        r = flows.get(f"r.{i}")
        if r is None or r["sink_bytes"] != NBYTES or r["bad_bytes"] or r["order_errors"]:
            fail(f"receiver r.{i}: {r}")
    sched = {x["task"]: x for x in js["sched"]}
    groups = {g["name"]: g for g in js.get("sched_groups", [])}
    g = groups.get("s")
    print("sched_groups:", groups)
    if g is None or g["shards"] != 2 or g["flows"] != FLOWS:
        fail(f"sched_groups s: {g} (want 2 shards, {FLOWS} flows)")
    want = collections.Counter("s.%d" % ((fnv1a(f"s.{i}") * 2) >> 32) for i in range(FLOWS))
    for shard in ("s.0", "s.1"):
        got = len(sched[shard]["flows"]) if shard in sched else -1
        print(f"{shard}: {got} flows, jain {sched.get(shard, {}).get('jain')}, "
              f"{sched.get(shard, {}).get('tx_packets')} packets")
        if got != want[shard]:
            fail(f"{shard} has {got} flows, the names hash {want[shard]} to it")


TCP = """[eal]
args = --lcores (0-5)@(0,1) --no-huge -m 1024 --no-pci --no-shconf --log-level=pmd.net.ring:warning
[engine]
duration = 30s
stats_period = 0
[port a]
device = ring:w0
preset = net_ring
[port b]
device = ring:w0
preset = net_ring
[flow s]
proto = tcp
role = sender
count = 32
local = 10.0.0.1:5000
local_ip_step = 1
local_port_step = 0
remote = 10.0.1.1:6000
remote_ip_step = 1
remote_port_step = 0
remote_mac = 02:00:00:00:00:02
bytes = 256KiB
[flow r]
proto = tcp
role = receiver
count = 32
local = 10.0.1.1:6000
local_ip_step = 1
local_port_step = 0
sink = verify
[task tx]
kind = tcp
port = a
lcores = 2-3
flows = s
[task rx]
kind = tcp
port = b
lcores = 4-5
flows = r
"""


def case_tcp_rss(engine, src, tmp):
    cfg = write(os.path.join(tmp, "tcp.ini"), TCP)
    out = os.path.join(tmp, "t.json")
    p = run([engine, "--", "--config", cfg, "--summary-json", out], timeout=60)
    js = load(out)
    if p.returncode != 0 or js["outcome"]["completed"] != 64 or js["outcome"]["failed"] != 0:
        fail(f"exit code {p.returncode}, outcome {js['outcome']}")
    got, want = collections.Counter(), collections.Counter()
    for c in js["tcp"]:
        i = int(c["name"].split(".")[1])
        if c["name"].startswith("s."):
            w = "tx.%d" % place((10, 0, 1, 1 + i), 6000, (10, 0, 0, 1 + i), 5000, 2, 2)
        else:
            w = "rx.%d" % place((0, 0, 0, 0), 0, (10, 0, 1, 1 + i), 6000, 2, 2)
        if c["task"] != w:
            fail(f"flow {c['name']} on {c['task']}, the placement says {w}")
        got[c["task"]] += 1
        want[w] += 1
    print("flows per task:", dict(sorted(got.items())))
    if got != want or len(got) != 4:
        fail(f"flows per task {dict(got)}, the placement says {dict(want)}")


NULL_RSS = """[eal]
args = --lcores (0-5)@(0,1) --no-huge -m 512 --no-pci --no-shconf
[engine]
duration = 0.3s
stats_period = 0
[port n]
device = net_null0
preset = net_null
rss = on
[task sink]
kind = rxonly
port = n
lcores = 2-5
"""


def case_rss_program(engine, src, tmp):
    cfg = write(os.path.join(tmp, "null.ini"), NULL_RSS)
    p = run([engine, "--", "--config", cfg], timeout=60)
    msg = p.stdout + p.stderr
    if p.returncode != 0:
        fail(f"exit code {p.returncode}")
    for w in ("port n: rx_queues = 4 for the 4 tasks of [task sink] (lcores)",
              "port n: RSS key and RETA (128 entries over 4 queues) set"):
        if w not in msg:
            fail(f"no \"{w}\" in the output")


def case_bad_config(engine, src, tmp):
    small = config(extra_port_b="rx_queues = 2\n")
    small_line = small.splitlines().index("rx_queues = 2") + 1
    cases = (
        # (what, config, exit code, the words of the message)
        ("lcores with rxq", config(extra_rx="rxq = 1\n"), 1,
         ["[task rx] rxq:", "not with lcores"]),
        ("lcore past the limit", config(receiver_lcores="4-200"), 1,
         ["[task rx] lcores:", "between 0 and 127"]),
        ("lcore not enabled", config(receiver_lcores="6-9"), 3,
         ["[task rx] lcores: lcore 8 is not enabled in EAL"]),
        ("rx_queues too small", small, 1, ["[task rx] lcores: 4 tasks need 4 rx_queues on port b",
                                            f"rx_queues = 2 (line {small_line})"]),
    )
    for what, text, code, words in cases:
        cfg = write(os.path.join(tmp, "bad.ini"), text)
        p = run([engine, "--", "--config", cfg, "--duration", "1s"], timeout=60)
        msg = p.stdout + p.stderr
        if p.returncode != code:
            fail(f"{what}: exit code {p.returncode}, expected {code}")
        for w in [f"{cfg}:"] + words:
            if w not in msg:
                fail(f"{what}: no \"{w}\" in the output")
        print(f"ok {what}: exit {code}")


CASES = {"dfcp-rss": case_dfcp_rss, "sched-shards": case_sched_shards, "tcp-rss": case_tcp_rss,
         "rss-program": case_rss_program, "bad-config": case_bad_config}

if __name__ == "__main__":
    sys.exit(case_main(__doc__, CASES, "dfcp-scale-"))
