#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Flow groups end to end (issue #13): flows_test.py CASE ENGINE SOURCE_ROOT.

Cases:
  group            8 DFCP senders in one [flow] group (rotating weights 1,2) through a
                   WF2Q+ sched task to 8 receivers in one group (sink = verify): every
                   transfer completes and verifies, the text summary folds each group
                   (summary_flows = 4) into its counts, percentiles, Jain's index and
                   slowest flows, the JSON still lists all 16 flows and the flow sets;
                   the receivers have a 20 ms warmup: their set folds the goodput after
                   it (the sum of the flows' goodput_mbps_after_warmup) and says so
  never-connected  8 senders, receivers for only 4 of them: the run fails (exit 5) and
                   the summary says how many flows failed and why
No timing assertions: counts, verification, exit codes and the summary's shape.
"""
import functools
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from enginetest import case_main, fail, load, write  # noqa: E402
import enginetest  # noqa: E402

run = functools.partial(enginetest.run, out_tail=6000)

CONFIG = """
[eal]
args = -l 0-1 --no-huge -m 1024 --no-pci --no-shconf --log-level=pmd.net.ring:warning
[engine]
duration = 20s
stats_period = 0
summary_flows = 4
[port p0]
device = ring:wire0
preset = net_ring
[port p1]
device = ring:wire0
preset = net_ring
[flow s]
role = sender
count = 8
local = 10.0.0.1:5000
remote = 10.0.0.2:6000
remote_mac = 02:00:00:00:00:02
bytes = 1MiB
window = 32
seed = 11
weight = 1, 2
hs_rto = 20ms
[flow r]
role = receiver
count = {nrecv}
local = 10.0.0.2:6000
window = 32
seed = 11
sink = verify
bottleneck = b
warmup = 20ms
[task tx]
kind = dfcp
port = p0
egress = s0
flows = s
[task s0]
kind = sched
port = p0
rate = 400Mbit
sched = wf2q+
[task rx]
kind = dfcp
port = p1
max_conns = 8
flows = r
[lcore 1]
tasks = tx, s0, rx
"""


def case_group(engine, src, tmp):
    cfg = write(os.path.join(tmp, "g.ini"), CONFIG.format(nrecv=8))
    out = os.path.join(tmp, "g.json")
    p = run([engine, "--", "--config", cfg, "--summary-json", out], timeout=120)
    if p.returncode != 0:
        fail(f"exit code {p.returncode}")
    js = load(out)
    flows = {f["name"]: f for f in js["flows"]}
    names = [f"s.{i}" for i in range(8)] + [f"r.{i}" for i in range(8)]
    if sorted(flows) != sorted(names):
        fail(f"JSON flows {sorted(flows)}, expected {sorted(names)}")
    for i in range(8):
        s, r = flows[f"s.{i}"], flows[f"r.{i}"]
        if s["weight"] != 1 + i % 2:
            fail(f"s.{i}: weight {s['weight']}, expected {1 + i % 2} (rotating 1, 2)")
        if not s["completed"] or not r["completed"] or s["failed"] or r["failed"]:
            fail(f"pair {i} not completed: {s['failed']!r} {r['failed']!r}")
        if r["sink_bytes"] != 1 << 20 or r["bad_bytes"] or r["order_errors"]:
            fail(f"r.{i}: {r['sink_bytes']} bytes, {r['bad_bytes']} bad, "
                 f"{r['order_errors']} order errors")
    sets = {st["set"]: st for st in js.get("flow_sets", [])}
    for label in ("s (senders)", "r (receivers)"):
        st = sets.get(label)
        if st is None:
            fail(f"no flow set {label!r} in the JSON: {sorted(sets)}")
        print(f"set {label}: {st['flows']} flows, {st['completed']} completed, total "
              f"{st['goodput_total_mbps']:.1f} Mbit/s, p50 {st['goodput_p50_mbps']:.1f}, "
              f"Jain {st['jain']:.4f}, slowest {st['slowest']}")
        if st["flows"] != 8 or st["completed"] != 8 or st["failed"] != 0:
            fail(f"set {label}: {st}")
        if not st["goodput_min_mbps"] <= st["goodput_p50_mbps"] <= st["goodput_max_mbps"]:
            fail(f"set {label}: percentiles out of order")
    # the receivers' set folds the goodput after their warmup, the senders' the whole
    after = [flows[f"r.{i}"]["goodput_mbps_after_warmup"] for i in range(8)]
    whole = [flows[f"r.{i}"]["goodput_mbps"] for i in range(8)]
    print(f"receivers: goodput after warmup {sum(after):.3f}, whole {sum(whole):.3f} Mbit/s")
    if sets["r (receivers)"]["goodput"] != "after warmup" or \
            sets["s (senders)"]["goodput"] != "whole transfer":
        fail(f"flow sets fold {sets['r (receivers)']['goodput']!r} / "
             f"{sets['s (senders)']['goodput']!r}")
    if min(after) <= 0 or abs(sets["r (receivers)"]["goodput_total_mbps"] - sum(after)) > 0.01:
        fail(f"receivers' set total {sets['r (receivers)']['goodput_total_mbps']} is not the "
             f"sum of their after-warmup goodputs {sum(after):.3f}")
    # the text summary is folded: no line per flow, one group block each
    for want in ("flows s (senders): 8 flows, 8 completed, 0 failed; goodput (whole "
                 "transfer) total", "flows r (receivers): 8 flows, 8 completed, 0 failed; "
                 "goodput (after warmup) total", "Jain's index (weighted)",
                 "flows s (senders): slowest s."):
        if want not in p.stdout:
            fail(f"text summary lacks {want!r}")
    if "flow s.3 goodput" in p.stdout:
        fail("the text summary still has a line per flow")


def case_never_connected(engine, src, tmp):
    cfg = write(os.path.join(tmp, "n.ini"), CONFIG.format(nrecv=4).replace(
        "duration = 20s", "duration = 4s"))
    out = os.path.join(tmp, "n.json")
    p = run([engine, "--", "--config", cfg, "--summary-json", out], timeout=120)
    if p.returncode != 5:
        fail(f"exit code {p.returncode}, expected 5 (a flow failed)")
    js = load(out)
    oc = js["outcome"]
    print(f"outcome: {oc['failed']} of {oc['flows']} failed; {oc['failures_by_class']}")
    failed = {f["name"] for f in oc["failures"]}
    if failed != {f"s.{i}" for i in range(4, 8)}:
        fail(f"failed flows {sorted(failed)}, expected s.4 .. s.7")
    if not oc["failures_by_class"].startswith("4 of 12 flows failed: 4 "):
        fail(f"failures by class: {oc['failures_by_class']!r}")
    if "outcome: 4 of 12 flows failed: 4 " not in p.stdout:
        fail("the text summary does not say how many flows failed and why")
    if "flows s (senders): 8 flows, 4 completed, 4 failed" not in p.stdout:
        fail("the senders' group summary does not count the failures")


def main():
    cases = {"group": case_group, "never-connected": case_never_connected}
    return case_main(__doc__, cases, "dfcp-flows-test-")


if __name__ == "__main__":
    sys.exit(main())
