# SPDX-License-Identifier: BSD-3-Clause
"""Output that reads true (issue 19).

usage: output_test.py CASE ENGINE SOURCE_ROOT
  ring-bytes  txonly -> rxonly over a net_ring wire (net_ring counts no bytes): the ports'
              tx/rx bytes and bit rates come from the engine's own counters, within 1 %
              of the tasks' bytes, and the periodic lines show a non-zero bit rate
"""
import os
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


CASES = {"ring-bytes": case_ring_bytes}

if __name__ == "__main__":
    sys.exit(case_main(__doc__, CASES, "output-"))
