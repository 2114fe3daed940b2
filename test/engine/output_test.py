# SPDX-License-Identifier: BSD-3-Clause
"""Output that reads true (issue 19).

usage: output_test.py CASE ENGINE SOURCE_ROOT
  ring-bytes  txonly -> rxonly over a net_ring wire (net_ring counts no bytes): the ports'
              tx/rx bytes and bit rates come from the engine's own counters, within 1 %
              of the tasks' bytes, and the periodic lines show a non-zero bit rate
  capture-once  txonly at full speed into a 32-slot ring drained 4 frames a poll (the tx
              queue refuses most bursts): a tx [capture] on the sender port holds exactly
              the frames sent (tshark count == tx_packets), each sequence number once
"""
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from enginetest import case_main, fail, load, run  # noqa: E402


def within(a, b, rel):
    return b > 0 and abs(a - b) <= rel * b


def case_ring_bytes(engine, root, tmp):
    ini = os.path.join(root, "configs", "txonly.ini")
    js = os.path.join(tmp, "s.json")
    p = run([engine, "--", "--config", ini, "--duration", "1.5", "--stats-period", "0.5",
             "--summary-json", js])
    if p.returncode != 0:
        fail(f"engine exited {p.returncode}")
    s = load(js)
    ports = {x["name"]: x for x in s["ports"]}
    tasks = {x["name"]: x for x in s["tasks"]}
    tx, rx = tasks["tx0"], tasks["rx0"]
    secs = s.get("duration_s") or s.get("run_s")
    print("p0", {k: ports["p0"][k] for k in ("tx_packets", "tx_bytes", "tx_mbps")})
    print("p1", {k: ports["p1"][k] for k in ("rx_packets", "rx_bytes", "rx_mbps")})
    print("tx0", tx["tx_packets"], tx["tx_bytes"], "rx0", rx["rx_packets"], rx["rx_bytes"])
    if not within(ports["p0"]["tx_bytes"], tx["tx_bytes"], 0.01):
        fail(f"p0 tx_bytes {ports['p0']['tx_bytes']} vs task tx0 {tx['tx_bytes']}")
    if not within(ports["p1"]["rx_bytes"], rx["rx_bytes"], 0.01):
        fail(f"p1 rx_bytes {ports['p1']['rx_bytes']} vs task rx0 {rx['rx_bytes']}")
    # the bit rate is those bytes over the run: compare it with the packets' rate x size
    want = ports["p0"]["tx_pps"] * tx["tx_bytes"] / tx["tx_packets"] * 8 / 1e6
    if not within(ports["p0"]["tx_mbps"], want, 0.01):
        fail(f"p0 tx_mbps {ports['p0']['tx_mbps']} vs {want:.3f} from pps x frame size")
    if secs is not None:
        print("run", secs, "s")
    periodic = [ln for ln in p.stdout.splitlines() if ln.strip().startswith("port p0 ")]
    if not periodic or any(" tx_mbps 0.000" in ln for ln in periodic):
        fail("a periodic port p0 line shows no tx bit rate")


CAPTURE_INI = """[eal]
args = -l 0-1 --no-huge -m 512 --no-pci --no-shconf --log-level=pmd.net.ring:warning
[engine]
duration = 3s
stats_period = 0
[port p0]
device = ring:w
preset = net_ring
tx_desc = 32
rx_desc = 32
[port p1]
device = ring:w
preset = net_ring
tx_desc = 32
rx_desc = 32
[task tx0]
kind = txonly
port = p0
pkt_size = 128
count = 20000
burst = 32
[task rx0]
kind = rxonly
port = p1
burst = 4
[lcore 1]
tasks = tx0, rx0
[capture c0]
port = p0
direction = tx
file = {pcap}
ring = 32768
"""


def case_capture_once(engine, root, tmp):
    tshark = shutil.which("tshark")
    if tshark is None:
        fail("tshark not installed (scripts/install-deps.sh)")
    pcap = os.path.join(tmp, "tx.pcapng")
    ini = os.path.join(tmp, "cap.ini")
    with open(ini, "w") as f:
        f.write(CAPTURE_INI.format(pcap=pcap))
    js = os.path.join(tmp, "s.json")
    p = run([engine, "--", "--config", ini, "--summary-json", js])
    if p.returncode != 0:
        fail(f"engine exited {p.returncode}")
    s = load(js)
    tx = {x["name"]: x for x in s["tasks"]}["tx0"]
    print("tx0 tx_packets", tx["tx_packets"], "tx_dropped (refused)", tx["tx_dropped"])
    if tx["tx_dropped"] == 0:
        fail("no back-pressure: the tx queue refused nothing")
    r = subprocess.run([tshark, "-r", pcap, "-T", "fields", "-e", "frame.len"],
                       capture_output=True, text=True, timeout=120)
    lens = r.stdout.split()
    print("tshark frames", len(lens))
    if r.returncode != 0:
        fail(f"tshark: {r.stderr[-500:]}")
    if len(lens) != tx["tx_packets"]:
        fail(f"capture holds {len(lens)} frames, {tx['tx_packets']} were sent")
    if len(set(lens)) != 1:
        fail(f"captured frame lengths differ: {sorted(set(lens))}")
    # each frame once: the capture's own raw copies carry the txonly sequence numbers
    r = subprocess.run([tshark, "-r", pcap, "-T", "fields", "-e", "udp.payload"],
                       capture_output=True, text=True, timeout=120)
    seqs = [int.from_bytes(bytes.fromhex(x[:16]), "little") for x in r.stdout.split()]
    if len(set(seqs)) != len(seqs):
        fail(f"{len(seqs) - len(set(seqs))} frames captured more than once")


def case_kind_counters(engine, root, tmp):
    js = os.path.join(tmp, "s.json")
    p = run([engine, "--", "--config", os.path.join(root, "configs", "router.ini"),
             "--duration", "1", "--stats-period", "0", "--summary-json", js])
    if p.returncode != 0:
        fail(f"engine exited {p.returncode}")
    lines = {ln.split()[1]: ln for ln in p.stdout.splitlines()
             if ln.startswith("  task ") and len(ln.split()) > 2}
    for name in ("tx0", "r0", "rx0"):
        if name not in lines:
            fail(f"no summary line for task {name}")
        if f" name {name} " in lines[name]:
            fail(f"task {name}: its name twice")
    if " rx_valid " not in lines["rx0"]:
        fail("rxonly's line lacks rx_valid")
    for name in ("tx0", "r0"):
        if " rx_valid " in lines[name] or " seq_lost " in lines[name]:
            fail(f"task {name} shows verification counters it never fills: {lines[name]}")
    if " seq_lost " not in lines["rx0"] or " lat_avg_ns " not in lines["rx0"]:
        fail("rxonly's line lacks its sequence and latency counters")
    for t in load(js)["tasks"]:
        if "rx_valid" not in t or "name" not in t:
            fail(f"JSON task {t.get('name')} lost a counter")


CASES = {"ring-bytes": case_ring_bytes, "capture-once": case_capture_once,
         "kind-counters": case_kind_counters}

if __name__ == "__main__":
    sys.exit(case_main(__doc__, CASES, "output-"))
