#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Observability tests: obs_test.py CASE ENGINE SOURCE_ROOT.

Cases:
  capture     a short DFCP transfer over net_ring with two [capture] sections: port p0
              both directions (whole frames), port p1 rx only with a match rule, a snap
              length and max_packets. tshark with tools/wireshark/dfcp.lua must dissect
              every frame as DFCP with the right fields (SYN parameters, DATA block/SBN/
              ESI/symbol length, BLOCK-ACKs, FIN), none malformed, directions as
              captured; the bounded capture stops at its packet limit. 77 without tshark.
  live        100 flows (50 senders, 50 receivers on 5 net_ring wires, one of them
              through a router pipe): the periodic view has the totals lines and the
              top-10 block; rte_telemetry answers /dfcp/ports, /dfcp/flows (with block
              latency), /dfcp/pipes (with queueing delay), /dfcp/lcores; the summary
              JSON has block_latency_ns, queue_delay_ns and lcores.
  timeseries  --timeseries FILE: header and one row per period per flow in the
              documented format; tools/plot turns it into PNG/SVG (77 without gnuplot).
  pdump       [engine] pdump = on, the engine on hugepages reserved for the test
              (enginetest.Hugepages: secondaries cannot attach to a --no-huge primary):
              dpdk-dumpcap attached as a secondary process (--file-prefix)
              writes a pcapng that holds packets (counted block by block); no hugepage
              file left after exit. 77 without root, dpdk-dumpcap or hugepages.
No timing assertions: counts, formats and exit codes only.
"""
import functools
import json
import os
import re
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from enginetest import SKIP, fail, load  # noqa: E402
import enginetest  # noqa: E402

run = functools.partial(enginetest.run, out_tail=6000)


def prefix(tag):
    return f"obs{tag}{os.getpid()}"


RING_PAIR = """
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
remote_mac = 02:00:00:00:00:02
bytes = {nbytes}
window = 16
{extra}

[flow r1]
role = receiver
local = 10.0.0.2:6001
window = 16
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


def eal(tag, shconf=False):
    return ("-l 0-1 --no-huge -m 1024 --no-pci --file-prefix " + prefix(tag) +
            ("" if shconf else " --no-shconf") + " --log-level=pmd.net.ring:warning")


# ---------------------------------------------------------------------------
def tshark_fields(tshark, lua, pcap, fields, dfilter=None):
    cmd = [tshark, "-n", "-X", "lua_script:" + lua, "-r", pcap, "-T", "fields",
           "-E", "separator=|", "-E", "occurrence=f"]
    for f in fields:
        cmd += ["-e", f]
    if dfilter:
        cmd += ["-Y", dfilter]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        fail(f"tshark failed: {p.stderr[-2000:]}")
    return [ln.split("|") for ln in p.stdout.splitlines() if ln.strip()]


def case_capture(engine, root, tmp):
    tshark = shutil.which("tshark")
    if tshark is None:
        print("tshark not installed: skipped")
        return SKIP
    lua = os.path.join(root, "tools", "wireshark", "dfcp.lua")
    v = subprocess.run([tshark, "-v"], capture_output=True, text=True)
    if "without Lua" in v.stdout or "Lua" not in v.stdout:
        print("tshark without Lua: skipped")
        return SKIP
    c0 = os.path.join(tmp, "p0.pcapng")
    c1 = os.path.join(tmp, "p1-rx.pcapng")
    nbytes = 16 * 66740  # 16 blocks of K = 47 x 1420 bytes
    ini = os.path.join(tmp, "capture.ini")
    with open(ini, "w") as f:
        f.write(f"[eal]\nargs = {eal('c')}\n\n[engine]\nduration = 20s\nstats_period = 0\n")
        f.write(RING_PAIR.format(nbytes=nbytes, extra=""))
        f.write(f"\n[capture all]\nport = p0\ndirection = both\nfile = {c0}\nmatch = udp\n")
        f.write(f"\n[capture data]\nport = p1\ndirection = rx\nfile = {c1}\n"
                "match = udp from 10.0.0.1 to 10.0.0.2 dport 6001\n"
                "snaplen = 128\nmax_packets = 100\n")
    js = os.path.join(tmp, "capture.json")
    p = run([engine, "--", "--config", ini, "--summary-json", js])
    if p.returncode != 0:
        fail(f"engine exited {p.returncode}")
    summ = load(js)
    caps = {c["name"]: c for c in summ.get("captures", [])}
    if set(caps) != {"all", "data"}:
        fail(f"captures in the summary: {list(caps)}")
    print("captures:", caps)

    # every frame of the p0 capture is DFCP, none malformed, no expert info
    rows = tshark_fields(tshark, lua, c0, ["frame.number"])
    if len(rows) != caps["all"]["packets"] or len(rows) == 0:
        fail(f"{c0}: {len(rows)} frames, summary says {caps['all']['packets']}")
    bad = tshark_fields(tshark, lua, c0, ["frame.number"],
                        "!dfcp || _ws.malformed || _ws.expert")
    if bad:
        fail(f"{c0}: {len(bad)} frames not DFCP, malformed or with expert info: "
             f"{bad[:5]}")
    rows = tshark_fields(tshark, lua, c0, [
        "frame.packet_flags_direction", "ip.src", "udp.srcport", "udp.dstport",
        "dfcp.version", "dfcp.type", "dfcp.k", "dfcp.symbol_size", "dfcp.window",
        "dfcp.block", "dfcp.sbn", "dfcp.esi", "dfcp.symbol_len", "dfcp.status",
        "dfcp.nbytes"])
    types = {}
    data_blocks = set()
    acked = set()
    for r in rows:
        d, src, sport, dport, ver, typ, k, t, win, blk, sbn, esi, slen, st, nb = r
        typ = int(typ)
        types[typ] = types.get(typ, 0) + 1
        if ver != "1":
            fail(f"version {ver}: {r}")
        outbound = int(d, 16) & 3 == 2
        if outbound != (src == "10.0.0.1"):
            fail(f"direction flag {d} but source {src}: {r}")
        if outbound and (sport, dport) != ("5001", "6001"):
            fail(f"ports {sport}->{dport}: {r}")
        if typ == 1 and (k != "47" or t != "1420" or win != "16"):
            fail(f"SYN parameters K={k} T={t} window={win}: {r}")
        if typ == 4:
            if int(sbn) != int(blk) & 0xff or slen != "1420" or esi == "":
                fail(f"DATA fields: {r}")
            data_blocks.add(int(blk))
        if typ == 5 and st in ("1", "DECODED"):
            acked.add(int(blk))
        if typ == 6 and int(nb) != nbytes:
            fail(f"FIN says {nb} bytes, sent {nbytes}")
    print("frame types:", types, "blocks with DATA:", len(data_blocks),
          "DECODED acks:", len(acked))
    for typ, name in ((1, "SYN"), (2, "SYNACK"), (4, "DATA"), (5, "BLOCK-ACK"), (6, "FIN")):
        if types.get(typ, 0) == 0:
            fail(f"no {name} in the capture")
    if data_blocks != set(range(16)):
        fail(f"DATA blocks captured: {sorted(data_blocks)}")
    if types[4] < 16 * 47:
        fail(f"only {types[4]} DATA frames for 16 blocks of K = 47")

    # the bounded capture: the first 100 frames received from the sender (SYN, ACK,
    # DATA), cut at 128 bytes
    rows = tshark_fields(tshark, lua, c1, ["frame.packet_flags_direction", "frame.cap_len",
                                           "frame.len", "ip.src", "dfcp.type"])
    if len(rows) != 100 or caps["data"]["packets"] != 100 or not caps["data"]["stopped"]:
        fail(f"{c1}: {len(rows)} frames (summary {caps['data']}), expected 100 and stopped")
    ndata = 0
    for d, caplen, flen, src, typ in rows:
        if int(d, 16) & 3 != 1 or src != "10.0.0.1" or typ not in ("1", "3", "4", "6") or \
                int(caplen) != min(int(flen), 128):
            fail(f"{c1}: frame direction {d} from {src} type {typ} caplen {caplen} len {flen}")
        if typ == "4":
            ndata += 1
            # 1420-byte symbol + 78 bytes of headers (the round header of
            # extended reports and the block CRC, doc/protocol.md; 1486 in the
            # version-1 layout without the CRC)
            if int(flen) != 1498:
                fail(f"{c1}: DATA frame of {flen} bytes")
    if ndata < 90:
        fail(f"{c1}: only {ndata} DATA frames in the first 100")
    print("capture: ok")
    return 0


# ---------------------------------------------------------------------------
WIRES = 5
PER_WIRE = 10  # sender flows per wire (and as many receivers)


def live_config(tmp, tag):
    lines = [f"[eal]\nargs = {eal(tag)}\n",
             "[engine]\nduration = 20s\nstats_period = 0.25s\nstats_top = 10\n"]
    tasks = []
    for w in range(WIRES):
        routed = w == 0  # wire 0: p0a -> router (pipe) -> p0b
        lines.append(f"[port s{w}]\ndevice = ring:wire{w}\npreset = net_ring\n")
        if routed:
            lines.append("[port ra]\ndevice = ring:wire0\npreset = net_ring\n")
            lines.append("[port rb]\ndevice = ring:wirer\npreset = net_ring\n")
            lines.append("[port r0]\ndevice = ring:wirer\npreset = net_ring\n")
            lines.append("[pipe link]\nbw = 200Mbit\ndelay = 2ms\nqueue = 400\n")
            lines.append("[task router]\nkind = router\nport_a = ra\nport_b = rb\n"
                         "a_to_b = link\n")
            tasks.append("router")
        else:
            lines.append(f"[port r{w}]\ndevice = ring:wire{w}\npreset = net_ring\n")
        snd, rcv = [], []
        for i in range(PER_WIRE):
            n = w * PER_WIRE + i
            lines.append(f"[flow s{n}]\nrole = sender\nlocal = 10.0.{w}.1:{5000 + i}\n"
                         f"remote = 10.0.{w}.2:{6000 + i}\n"
                         f"duration = 1.2s\nrate = {2 + n % 7}Mbit\nwindow = 8\n"
                         "block_size = 16KiB\n")
            lines.append(f"[flow r{n}]\nrole = receiver\nlocal = 10.0.{w}.2:{6000 + i}\n"
                         "window = 8\nblock_size = 16KiB\nsink = verify\n")
            snd.append(f"s{n}")
            rcv.append(f"r{n}")
        lines.append(f"[task ts{w}]\nkind = dfcp\nport = s{w}\nflows = {', '.join(snd)}\n")
        lines.append(f"[task tr{w}]\nkind = dfcp\nport = r{w}\nflows = {', '.join(rcv)}\n")
        tasks += [f"ts{w}", f"tr{w}"]
    lines.append(f"[lcore 1]\ntasks = {', '.join(tasks)}\n")
    ini = os.path.join(tmp, "live.ini")
    with open(ini, "w") as f:
        f.write("\n".join(lines))
    return ini


def telemetry(path, cmds, timeout=10.0):
    deadline = time.time() + timeout
    while not os.path.exists(path):
        if time.time() > deadline:
            fail(f"no telemetry socket {path}")
        time.sleep(0.05)
    s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    s.settimeout(5)
    s.connect(path)
    info = json.loads(s.recv(16384).decode())
    out = {}
    for c in cmds:
        s.send(c.encode())
        out[c] = json.loads(s.recv(1 << 20).decode())[c.split(",")[0]]
    s.close()
    return info, out


def runtime_dir(tag):
    return os.path.join(enginetest.dpdk_run_base(), prefix(tag))


def case_live(engine, root, tmp):
    ini = live_config(tmp, "l")
    js = os.path.join(tmp, "live.json")
    cmd = [engine, "--", "--config", ini, "--summary-json", js]
    print("$", " ".join(cmd), flush=True)
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines = []
    tel = None
    sock = os.path.join(runtime_dir("l"), "dpdk_telemetry.v2")
    for line in p.stdout:
        lines.append(line)
        if tel is None and "== stats at" in line:
            info, tel = telemetry(sock, ["/dfcp/ports", "/dfcp/flows", "/dfcp/flows,s42",
                                         "/dfcp/pipes", "/dfcp/lcores", "/dfcp/sched"])
            print("telemetry:", info)
    rc = p.wait(timeout=60)
    out = "".join(lines)
    sys.stdout.write(out[-5000:])
    if rc != 0:
        fail(f"engine exited {rc}")
    if tel is None:
        fail("no periodic stats block (telemetry not queried)")
    # periodic view: totals lines and the top-10 block of 100 flows
    blocks = out.split("== stats at")[1:]
    if not blocks:
        fail("no periodic stats")
    seen_top = False
    for b in blocks:
        b = b.split("== summary")[0]
        if "---- flows: totals ----" not in b:
            fail("a periodic block without the flow totals")
        if not re.search(r"^\s+senders\s+50 flows", b, re.M) or \
                not re.search(r"^\s+receivers\s+50 flows", b, re.M):
            fail("totals lines for 50 senders and 50 receivers missing")
        if "---- flows: top 10 of 100 by goodput ----" in b:
            seen_top = True
            nlines = len(re.findall(r"^\s+flow \S+\s+(sender|receiver)\s", b, re.M))
            if nlines != 10:
                fail(f"top-10 block with {nlines} flow lines")
            rates = [float(x) for x in re.findall(
                r"^\s+flow \S+\s+(?:sender|receiver)\s+\S+\s+thr\s+[\d.]+ goodput\s+([\d.]+)",
                b, re.M)]
            if rates != sorted(rates, reverse=True):
                fail(f"top-N not sorted by goodput: {rates}")
        if not re.search(r"^\s+lcore 1\s+busy\s+[\d.]+%", b, re.M):
            fail("no lcore busy line")
    if not seen_top:
        fail("no 'top 10 of 100' block")
    # telemetry
    ports, flows = tel["/dfcp/ports"], tel["/dfcp/flows"]
    if "s0" not in ports or "rx_packets" not in ports["s0"]:
        fail(f"/dfcp/ports: {list(ports)[:5]}")
    if not isinstance(flows, dict) or not flows:
        fail(f"/dfcp/flows: {str(flows)[:300]}")
    if list(tel["/dfcp/flows,s42"]) != ["s42"]:
        fail(f"/dfcp/flows,s42: {tel['/dfcp/flows,s42']}")
    senders = [v for v in flows.values() if v.get("role") == "sender"]
    if not any("block_latency_ns_p99" in v for v in senders):
        fail(f"/dfcp/flows: no block latency: {str(senders[:1])}")
    pipes = tel["/dfcp/pipes"]
    if "link" not in pipes:
        fail(f"/dfcp/pipes: {pipes}")
    lc = tel["/dfcp/lcores"]
    if "1" not in lc or "busy_cycles" not in lc["1"] or "ts0/busy_cycles" not in lc["1"]:
        fail(f"/dfcp/lcores: {lc}")
    print(f"telemetry: {len(flows)} flows, pipe link {pipes['link']}, lcore 1 busy "
          f"{lc['1']['busy_ppm'] / 1e4:.1f}%")
    # summary JSON
    summ = load(js)
    fl = {f["name"]: f for f in summ["flows"]}
    if len(fl) != 100:
        fail(f"{len(fl)} flows in the summary")
    for n in range(WIRES * PER_WIRE):
        s, r = fl[f"s{n}"], fl[f"r{n}"]
        h = s.get("block_latency_ns")
        if h is None or h["count"] != s["blocks_acked"] or h["count"] == 0:
            fail(f"s{n}: block_latency_ns {h}, blocks acked {s['blocks_acked']}")
        if not (h["min"] <= h["p50"] <= h["p90"] <= h["p99"] <= h["p99.9"] <= h["max"]):
            fail(f"s{n}: percentiles out of order: {h}")
        if r["bad_bytes"] or r["order_errors"] or r["sink_bytes"] != s["goodput_bytes"]:
            fail(f"r{n}: {r['sink_bytes']} bytes, sender acked {s['goodput_bytes']}")
    pipe = [p for p in summ["pipes"] if p["name"] == "link"][0]
    q = pipe.get("queue_delay_ns")
    if q is None or q["count"] != pipe["out_packets"] or q["count"] == 0:
        fail(f"pipe link: queue_delay_ns {q}, out packets {pipe['out_packets']}")
    lcs = summ.get("lcores", [])
    if not lcs or lcs[0]["lcore"] != 1 or len(lcs[0]["tasks"]) != 11:
        fail(f"lcores in the summary: {lcs}")
    print("live: ok")
    return 0


# ---------------------------------------------------------------------------
def case_timeseries(engine, root, tmp):
    ini = os.path.join(tmp, "ts.ini")
    with open(ini, "w") as f:
        f.write(f"[eal]\nargs = {eal('t')}\n\n[engine]\nduration = 20s\n"
                "stats_period = 0.1s\n")
        f.write(RING_PAIR.format(nbytes=0, extra="duration = 1s\nrate = 40Mbit"))
    csv = os.path.join(tmp, "run.csv")
    p = run([engine, "--", "--config", ini, "--timeseries", csv])
    if p.returncode != 0:
        fail(f"engine exited {p.returncode}")
    with open(csv) as f:
        rows = f.read().splitlines()
    if rows[0] != "time_s,flow,goodput_mbps,throughput_mbps,window,redundancy,loss,role":
        fail(f"header: {rows[0]}")
    per = {}
    last_t = 0.0
    for r in rows[1:]:
        c = r.split(",")
        if len(c) != 8 or c[7] not in ("sender", "receiver"):
            fail(f"row {r}")
        t, name = float(c[0]), c[1]
        gp, thr, win, red, loss = float(c[2]), float(c[3]), int(c[4]), int(c[5]), float(c[6])
        if t < last_t or gp < 0 or thr < 0 or win < 0 or red < 0 or not 0 <= loss <= 1:
            fail(f"row {r}")
        last_t = t
        per.setdefault(name, []).append(gp)
    if set(per) != {"s1", "r1"} or len(per["s1"]) < 3 or len(per["s1"]) != len(per["r1"]):
        fail(f"rows per flow: { {k: len(v) for k, v in per.items()} }")
    if max(per["r1"]) <= 0:
        fail("no goodput in the time series")
    print(f"timeseries: {len(rows) - 1} rows")
    if shutil.which("gnuplot") is None:
        print("gnuplot not installed: plot skipped")
        return SKIP
    out = os.path.join(tmp, "fig")
    p = run([sys.executable, os.path.join(root, "tools", "plot"), "--timeseries", csv,
             "--out", out])
    if p.returncode != 0:
        fail(f"tools/plot exited {p.returncode}")
    for suffix in ("goodput.png", "goodput.svg", "window.png", "window.svg"):
        path = f"{out}-{suffix}"
        if not os.path.exists(path) or os.path.getsize(path) < 200:
            fail(f"{path} missing or empty")
    with open(f"{out}-goodput.png", "rb") as f:
        if f.read(8) != b"\x89PNG\r\n\x1a\n":
            fail("not a PNG")
    print("timeseries: ok")
    return 0


# ---------------------------------------------------------------------------
def pcapng_packets(path):
    """Enhanced and simple packet blocks in a pcapng file (the little-endian one
    dpdk-dumpcap writes); -1 when it is no pcapng."""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 12 or data[:4] != b"\x0a\x0d\x0d\x0a" or data[8:12] != b"\x4d\x3c\x2b\x1a":
        return -1
    n, off = 0, 0
    while off + 12 <= len(data):
        btype, blen = struct.unpack_from("<II", data, off)
        if blen < 12 or off + blen > len(data):
            break
        if btype in (3, 6):  # simple / enhanced packet block
            n += 1
        off += blen
    return n


def case_pdump(engine, root, tmp):
    dumpcap = shutil.which("dpdk-dumpcap")
    if dumpcap is None:
        print("dpdk-dumpcap not installed (Debian package dpdk): skipped")
        return SKIP
    pfx = prefix("p")
    ini = os.path.join(tmp, "pdump.ini")
    with open(ini, "w") as f:
        # secondaries need the primary's shared memory: hugepages, no --no-shconf
        f.write(f"[eal]\nargs = -l 0-1 --no-huge -m 1024 --no-pci --file-prefix {pfx} "
                "--log-level=pmd.net.ring:warning\n\n[engine]\nduration = 20s\n"
                "stats_period = 0.5s\npdump = on\n")
        f.write(RING_PAIR.format(nbytes=0, extra="duration = 3s\nrate = 20Mbit"))
    out = os.path.join(tmp, "dumpcap.pcapng")
    with enginetest.Hugepages(512 + 32, "pdump") as hp:
        # --huge-dir on the command line replaces the config's --no-huge (core/eal_args.h)
        cmd = [engine, "-m", "512", "--huge-dir", hp.dir, "--", "--config", ini]
        print("$", " ".join(cmd), flush=True)
        eng = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        try:
            for line in eng.stdout:
                if "== stats at" in line:
                    break
            # a secondary finds the hugepage folder in the primary's runtime folder
            d = run([dumpcap, "--file-prefix", pfx, "-i", "0", "-c", "50", "-w", out],
                    timeout=60)
            rest = eng.communicate(timeout=60)[0]
        finally:
            if eng.poll() is None:
                eng.kill()
                eng.wait()
            enginetest.remove_prefix(pfx)  # only after a failure: the engine removes its own
        left = hp.files(pfx)
    sys.stdout.write(rest[-3000:])
    if eng.returncode != 0:
        fail(f"engine exited {eng.returncode}")
    if d.returncode != 0 or not os.path.exists(out):
        fail(f"dpdk-dumpcap exited {d.returncode}, file {out}")
    n = pcapng_packets(out)
    print(f"{out}: {os.path.getsize(out)} bytes, {n} packets")
    if n < 1:
        fail("dpdk-dumpcap's pcapng holds no packets" if n == 0 else "not a pcapng file")
    if left:
        fail(f"hugepage files left after exit: {left[:3]}")
    print("pdump: ok")
    return 0


CASES = {"capture": case_capture, "live": case_live, "timeseries": case_timeseries,
         "pdump": case_pdump}


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in CASES:
        print(__doc__)
        sys.exit(2)
    case, engine, root = sys.argv[1:]
    tmp = tempfile.mkdtemp(prefix="obs-" + case + "-")
    try:
        rc = CASES[case](engine, root, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        # EAL leaves its runtime dir (telemetry socket) behind: ours is per process
        shutil.rmtree(runtime_dir(case[0]), ignore_errors=True)
    sys.exit(rc)


if __name__ == "__main__":
    main()
