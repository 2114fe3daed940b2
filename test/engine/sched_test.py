#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Sched task tests (issue 17): sched_test.py CASE ENGINE SOURCE_ROOT.

One txonly task with flows = N streams (txflows.c) hands its packets through
one ring to a sched task shaped to 20 Mbit/s (1000-byte frames, every flow
offering more than its share), which sends on a net_ring wire to rxonly.

  multiflow  weights 1:2:7 (WF2Q+): each flow's run-phase byte share within
             1 % (relative) of w / sum w; back-pressure counted (refused at
             the producer = the generator's tx_dropped, no drop inside);
             rxonly checks the three streams' sequences: no loss, no reorder
  late       two flows (1:1) and a third task's flow (weight 2) that starts
             1 s into a 2 s run: it gets half the link from then on (within
             10 %), the first two stay equal (1 %)
  rte        sched = rte_sched, four equal flows: shares 0.25 within 2 %
  rte-slow   sched = rte_sched, 64 flows weighted 1,3 on the 20 Mbit/s port:
             pipes of 19.5 / 58.6 kB/s, below a frame per 10 ms TC period
             (they never sent before the period followed the rate); every
             flow served, the weight-3 flows' total 3 x the weight-1 flows'
             within 15 % (a 3 s run: the buckets fill first), the port
             at least 90 % used
  elephant   one flow through a sched task with max_flows = 4096 (flow_queue
             and backlog_budget auto): its limit is the budget shared by the
             flows backlogged, not by max_flows, so it holds more than the 4
             packets of 16384 / 4096 (backlog_peak > 4, at most flow_queue =
             64); no drop inside, no loss or reorder at the receiver
  budget     512 flows, backlog_budget = 1024 (each flow's floor of 4 would
             add up to 2048): the scheduler never holds more than the budget
             (the task's backlog_peak), nor a flow more than flow_queue; it
             drops nothing, every flow is served
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from engine_test import fail, load_summary, run, task  # noqa: E402
from enginetest import case_main  # noqa: E402

BASE = """[eal]
args = -l 0-1 --no-huge -m 1024 --no-pci --no-shconf --log-level=pmd.net.ring:warning

[port gen]
device = ring:w

[port sink]
device = ring:w

[task s0]
kind = sched
port = gen
rate = {rate}
sched = {algo}
{s0_keys}

[task gen]
kind = txonly
port = gen
egress = s0
streams = {flows}
weights = {weights}
pkt_size = 1000
rate = 100Mbit
{extra}
[task rx0]
kind = rxonly
port = sink

[lcore 1]
tasks = {tasks}
"""

LATE = """
[task late]
kind = txonly
port = gen
egress = s0
weight = 2
src_port = 3000
start = 1s
pkt_size = 1000
rate = 100Mbit
"""


def base(algo, flows, weights, extra, tasks, rate="20Mbit", s0_keys="flow_queue = 128"):
    return BASE.format(algo=algo, flows=flows, weights=weights, extra=extra, tasks=tasks,
                       rate=rate, s0_keys=s0_keys)


def engine(eng, tmp, text, duration="2s"):
    cfg = os.path.join(tmp, "sched.ini")
    with open(cfg, "w") as f:
        f.write(text)
    out = cfg + ".json"
    p = run(eng, ["--", "--config", cfg, "--duration", duration, "--stats-period", "0",
                  "--summary-json", out])
    if p.returncode != 0:
        fail(f"exit code {p.returncode}: {p.stderr[-2000:]}")
    return load_summary(out)


def sched_flows(js):
    s = [x for x in js.get("sched", []) if x["task"] == "s0"]
    if not s:
        fail("sched task s0 missing from the summary")
    return s[0], s[0]["flows"]


def shares(flows):
    tot = sum(f["run_tx_bytes"] for f in flows)
    if tot == 0:
        fail("nothing sent")
    return [f["run_tx_bytes"] / tot for f in flows]


def case_multiflow(eng, src, tmp):
    js = engine(eng, tmp, base(algo="wf2q+", flows=3, weights="1,2,7", extra="",
                               tasks="gen, s0, rx0"))
    s, fl = sched_flows(js)
    sh = shares(fl)
    print("shares " + ", ".join(f"{f['name']} (w {f['weight']}) {x:.4f}" for f, x in zip(fl, sh)))
    if [(f["name"], f["weight"]) for f in fl] != [("gen.0", 1), ("gen.1", 2), ("gen.2", 7)]:
        fail("flows not attached as configured")
    for f, x in zip(fl, sh):
        if abs(x / (f["weight"] / 10) - 1) > 0.01:
            fail(f"flow {f['name']}: share {x:.4f}, expected {f['weight'] / 10} within 1 %")
    gen, rx = task(js, "gen"), task(js, "rx0")
    refused = sum(f["refused_packets"] for f in fl)
    print(f"refused at the producer {refused}, generator tx_dropped {gen['tx_dropped']}, "
          f"sched dropped {s['dropped_packets']}")
    if refused == 0 or any(f["refused_packets"] == 0 for f in fl):
        fail("back-pressure: every flow offers more than its share, none was refused")
    if refused != gen["tx_dropped"]:
        fail("refused packets are not the generator's tx_dropped")
    if s["dropped_packets"] or any(f["dropped_packets"] for f in fl):
        fail("the scheduler dropped packets (admission should prevent it)")
    if rx["rx_packets"] != s["tx_packets"] or rx["seq_lost"] or rx["seq_reordered"] or rx["rx_bad"]:
        fail(f"receiver: {rx['rx_packets']} of {s['tx_packets']}, lost {rx['seq_lost']}, "
             f"reordered {rx['seq_reordered']}, bad {rx['rx_bad']}")


def case_late(eng, src, tmp):
    js = engine(eng, tmp, base(algo="wf2q+", flows=2, weights="1", extra=LATE,
                               tasks="gen, late, s0, rx0"))
    s, fl = sched_flows(js)
    sh = shares(fl)
    dur = js["duration_s"]
    print("shares " + ", ".join(f"{f['name']} {x:.4f}" for f, x in zip(fl, sh)) +
          f" over {dur:.3f} s")
    if [f["name"] for f in fl] != ["gen.0", "gen.1", "late.0"]:
        fail("flows not attached as configured")
    # the late flow: half the link for dur - 1 s
    expect = 0.5 * (dur - 1.0) / dur
    if abs(sh[2] / expect - 1) > 0.10:
        fail(f"late flow: share {sh[2]:.4f}, expected {expect:.4f} within 10 %")
    if abs(sh[0] / sh[1] - 1) > 0.01:
        fail("the first two flows are not equal within 1 %")


def case_rte(eng, src, tmp):
    js = engine(eng, tmp, base(algo="rte_sched", flows=4, weights="1", extra="",
                               tasks="gen, s0, rx0"))
    s, fl = sched_flows(js)
    sh = shares(fl)
    print(f"rte_sched shares {', '.join(f'{x:.4f}' for x in sh)}; jain {s['jain']}")
    if s["algo"] != "rte_sched":
        fail(f"algo {s['algo']}")
    for x in sh:
        if abs(x / 0.25 - 1) > 0.02:
            fail(f"share {x:.4f}, expected 0.25 within 2 %")
    rx = task(js, "rx0")
    if rx["rx_packets"] != s["tx_packets"] or rx["seq_lost"] or rx["seq_reordered"]:
        fail("receiver did not get exactly what the sched task sent, in order")


def case_rte_slow(eng, src, tmp):
    js = engine(eng, tmp, base(algo="rte_sched", flows=64, weights="1,3", extra="",
                               tasks="gen, s0, rx0"), duration="3s")
    s, fl = sched_flows(js)
    sh = shares(fl)
    idle = [f["name"] for f in fl if f["run_tx_bytes"] == 0]
    w1 = sum(x for f, x in zip(fl, sh) if f["weight"] == 1)
    w3 = sum(x for f, x in zip(fl, sh) if f["weight"] == 3)
    l1 = sum(f["tx_mbps"] for f in fl) * (1000 + 24) / 1000  # 1000-byte frames + overhead
    print(f"rte_sched 64 flows: weight-1 total {w1:.4f}, weight-3 total {w3:.4f}, "
          f"{len(idle)} flows not served; port {l1:.3f} Mbit/s L1")
    if idle:
        fail(f"{len(idle)} of 64 flows were never served: {', '.join(idle[:8])}")
    if w1 == 0 or abs(w3 / w1 / 3 - 1) > 0.15:
        fail(f"weight-3 / weight-1 = {w3 / w1 if w1 else 0:.3f}, expected 3 within 15 %")
    if l1 < 0.90 * 20:
        fail(f"port at {l1:.3f} Mbit/s L1, expected at least 90 % of 20 Mbit/s")


def no_drop(s, fl):
    if s["dropped_packets"] or any(f["dropped_packets"] for f in fl):
        fail("the scheduler dropped packets (admission should prevent it)")


def case_elephant(eng, src, tmp):
    js = engine(eng, tmp, base(algo="wf2q+", flows=1, weights="1", extra="",
                               tasks="gen, s0, rx0", s0_keys="max_flows = 4096"))
    s, fl = sched_flows(js)
    f = fl[0]
    print(f"lone flow, max_flows 4096: backlog_peak {f['backlog_peak']}, refused "
          f"{f['refused_packets']}, sent {f['tx_packets']}; flow_queue {s['flow_queue']}, "
          f"backlog_budget {s['backlog_budget']}")
    if s["flow_queue"] != 64 or s["backlog_budget"] != 16384:
        fail("flow_queue / backlog_budget auto: expected 64 / 16384")
    if f["refused_packets"] == 0:
        fail("the flow offers 5 x the link and was never refused: not backlogged")
    if not 4 < f["backlog_peak"] <= s["flow_queue"]:
        fail(f"backlog_peak {f['backlog_peak']}: expected above 4 (16384 / max_flows) "
             f"and at most flow_queue {s['flow_queue']}")
    if f["backlog_peak"] < s["flow_queue"] // 2:
        fail(f"backlog_peak {f['backlog_peak']}: a lone backlogged flow should reach half "
             f"of flow_queue at least")
    no_drop(s, fl)
    rx = task(js, "rx0")
    if rx["rx_packets"] != s["tx_packets"] or rx["seq_lost"] or rx["seq_reordered"]:
        fail("receiver did not get exactly what the sched task sent, in order")


def case_budget(eng, src, tmp):
    budget = 1024
    js = engine(eng, tmp, base(algo="wf2q+", flows=512, weights="1", extra="",
                               tasks="gen, s0, rx0", rate="50Mbit",
                               s0_keys=f"max_flows = 512\nbacklog_budget = {budget}"))
    s, fl = sched_flows(js)
    peaks = [f["backlog_peak"] for f in fl]
    idle = [f["name"] for f in fl if f["tx_packets"] == 0]
    print(f"512 flows, backlog_budget {s['backlog_budget']}: backlog_peak {s['backlog_peak']}; "
          f"per flow peak {min(peaks)} .. {max(peaks)} (flow_queue {s['flow_queue']}); "
          f"{len(idle)} flows not served; jain {s['jain']}")
    if s["backlog_budget"] != budget:
        fail(f"backlog_budget {s['backlog_budget']}, configured {budget}")
    if s["backlog_peak"] > budget:
        fail(f"the scheduler held {s['backlog_peak']} packets, over the budget {budget}")
    if s["backlog_peak"] < budget // 2:
        fail(f"backlog_peak {s['backlog_peak']}: 512 flows offering 2 x the link should "
             f"fill half the budget at least")
    if max(peaks) > s["flow_queue"]:
        fail(f"a flow held {max(peaks)} packets, over flow_queue {s['flow_queue']}")
    if idle:
        fail(f"{len(idle)} of 512 flows never served: {', '.join(idle[:8])}")
    no_drop(s, fl)


def main():
    cases = {"multiflow": case_multiflow, "late": case_late, "rte": case_rte,
             "rte-slow": case_rte_slow, "elephant": case_elephant, "budget": case_budget}
    return case_main(__doc__, cases, "dfcp-sched-test-")


if __name__ == "__main__":
    sys.exit(main())
