#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Many-flows benchmark (not a test; issue #13): one engine on net_ring ports,
# N DFCP sender flows (one [flow] group, one sender task) offering 2 Gbit/s in
# total through one 1 Gbit/s WF2Q+ bottleneck (a sched task, equal weights)
# to N receivers (one group, one receiver task, sink = verify). Two busy
# lcores: lcore 1 runs the senders and the scheduler, lcore 0 the receivers.
# Ends with two lines:
#   connect senders N established E p50_s P max_s M
#   flows N completed C goodput_total_mbps G jain J rss_mb R
# C: receivers that reached their goal with every byte verified; G: the sum of
# the receivers' goodputs; J: Jain's index over them (weighted); R: the
# engine's peak RSS (getrusage maxrss); E: senders whose connection was
# established, P and M: the median and the latest time it was, since the run
# started (the JSON's established_s). Run it under the shared lock:
#   flock /tmp/dfcp-heavy.lock scripts/bench-flows.sh N [SECONDS]
# KEEP=DIR keeps the config and the summaries there. WEIGHTS=1,2,3,4 gives the
# flows those weights in turn (senders: their sched weight, one sender group per
# weight, each sender offering 2 Gbit/s x w / sum w, twice its weighted share;
# receivers: the weight of Jain's index) and adds one line per weight class:
#   weight W flows F share_err_max_pct E mean_pct M within_5pct K
# (E: the largest |goodput / (G x w / sum w) - 1| of the class over the steady state,
# the 1 s bins from 2 s to SECONDS - 1 s of the --timeseries; K: its flows within 5 % of
# their weighted share).
set -eu
N=${1:?usage: scripts/bench-flows.sh N [SECONDS]}
SECS=${2:-10}
ENGINE=${ENGINE:-build/app/dfcp-engine/dfcp-engine}
TMP=${KEEP:-$(mktemp -d)}
mkdir -p "$TMP"
[ -n "${KEEP:-}" ] || trap 'rm -rf "$TMP"' EXIT INT TERM
python3 - "$N" "$SECS" "$ENGINE" "$TMP" "${WEIGHTS:-}" <<'PY'
import json, os, resource, subprocess, sys

n, secs, engine, tmp = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3], sys.argv[4]
if not 1 <= n <= 16384:
    sys.exit("N: 1..16384")
weights = [int(w) for w in sys.argv[5].split(",")] if sys.argv[5] else []
wline = f"weight = {', '.join(map(str, weights))}\n" if weights else ""
if weights and (n % len(weights) or min(weights) < 1):
    sys.exit("WEIGHTS: positive weights, as many as divide N")
rate_kbit = 2_000_000 // n                      # 2 Gbit/s offered in total


def senders():
    """One group of N senders; with WEIGHTS, one group per weight (flow i of the
    receivers' group pairs with sender k = i / L of group i % L), each sender
    offering twice its weighted share: 2 Gbit/s x w / sum(w)."""
    common = (f"role = sender\nremote_mac = 02:00:00:00:00:02\nduration = {secs:g}s\n"
              "window = 32\n")
    if not weights:
        return (f"[flow s]\n{common}count = {n}\nlocal = 10.0.0.1:10000\n"
                f"remote = 10.0.0.2:30000\nrate = {rate_kbit}kbit\nseed = 1\n"), "s"
    L, wsum = len(weights), sum(weights) * (n // len(weights))
    out = ""
    for j, w in enumerate(weights):
        out += (f"[flow s{j}]\n{common}count = {n // L}\nlocal = 10.0.0.1:{10000 + j}\n"
                f"local_port_step = {L}\nremote = 10.0.0.2:{30000 + j}\n"
                f"remote_port_step = {L}\nrate = {2_000_000 * w // wsum}kbit\n"
                f"seed = {1 + j}\nseed_step = {L}\nweight = {w}\n")
    return out, ", ".join(f"s{j}" for j in range(L))


sender_secs, sender_flows = senders()
cfg = f"""# scripts/bench-flows.sh {n} {secs:g}: generated
[eal]
args = -l 0-1 --no-huge -m 4096 --no-pci --no-shconf --log-level=pmd.net.ring:warning
[engine]
duration = {secs + 20:g}s
stats_period = {'1s' if weights else '0'}
[port p0]
device = ring:wire0
preset = net_ring
[port p1]
device = ring:wire0
preset = net_ring
{sender_secs}[flow r]
role = receiver
count = {n}
local = 10.0.0.2:30000
window = 32
seed = 1
sink = verify
bottleneck = wf2q
{wline}[task tx]
kind = dfcp
port = p0
egress = s0
flows = {sender_flows}
[task s0]
kind = sched
port = p0
rate = 1Gbit
sched = wf2q+
max_flows = {n}
[task rx]
kind = dfcp
port = p1
flows = r
max_conns = 1
[lcore 0]
tasks = rx
[lcore 1]
tasks = tx, s0
"""
ini, js = os.path.join(tmp, "flows.ini"), os.path.join(tmp, "flows.json")
with open(ini, "w") as f:
    f.write(cfg)
log = open(os.path.join(tmp, "engine.log"), "w")
ts = os.path.join(tmp, "flows.csv")
p = subprocess.run([engine, "--", "--config", ini, "--summary-json", js, "--live", "off"] +
                   (["--timeseries", ts] if weights else []), stdout=log, stderr=subprocess.STDOUT, timeout=secs + 120)
rss_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024.0
completed, gp, jain, est = 0, 0.0, 0.0, []
try:
    with open(js) as f:
        j = json.load(f)
    recv = [x for x in j["flows"] if x["role"] == "receiver"]
    completed = sum(1 for x in recv if x["completed"] and not x["failed"]
                    and x["bad_bytes"] == 0 and x["order_errors"] == 0)
    est = sorted(x.get("established_s", 0.0) for x in j["flows"] if x["role"] == "sender")
    for st in j.get("flow_sets", []):
        if st["set"] == "r (receivers)":
            gp, jain = st["goodput_total_mbps"], st["jain"]
    oc = j.get("outcome", {})
    print(f"exit {p.returncode}; outcome: {oc.get('failed')} of {oc.get('flows')} failed"
          f"{'; ' + oc['failures_by_class'] if oc.get('failures_by_class') else ''}")
except (OSError, ValueError, KeyError) as e:
    print(f"exit {p.returncode}; no summary JSON ({e}); see {tmp}/engine.log")
if weights and completed:
    # each receiver's goodput in the steady state (the 1 s bins from 2 s to SECONDS - 1 s
    # of the run, every flow backlogged) against its weighted share of their total: the
    # whole-transfer goodput would count the end, where each flow's last blocks drain at
    # whatever the flows still sending leave (the same backlog in packets, a larger part
    # of a light flow's transfer)
    wt = {x["name"]: x.get("weight", 1) for x in recv}
    gsum = {name: 0.0 for name in wt}
    with open(ts) as f:
        for row in f.read().splitlines()[1:]:
            c = row.split(",")
            if c[1] in gsum and 2.0 < float(c[0]) <= secs - 1.0 and c[2]:
                gsum[c[1]] += float(c[2])
    tot, wsum = sum(gsum.values()), sum(wt.values())
    for w in sorted(set(weights)):
        errs = [abs(g / (tot * wt[k] / wsum) - 1) * 100 for k, g in gsum.items()
                if wt[k] == w] if tot else []
        if errs:
            print(f"weight {w} flows {len(errs)} share_err_max_pct {max(errs):.2f} "
                  f"mean_pct {sum(errs) / len(errs):.2f} "
                  f"within_5pct {sum(1 for e in errs if e <= 5)}")
if est:
    # connection set-up: each sender's first ESTABLISHED since the run started
    # (the senders all connect at the start; 0: never)
    up = [t for t in est if t > 0]
    print(f"connect senders {len(est)} established {len(up)} "
          f"p50_s {up[len(up) // 2] if up else 0:.3f} max_s {up[-1] if up else 0:.3f}")
print(f"flows {n} completed {completed} goodput_total_mbps {gp:.1f} jain {jain:.4f} "
      f"rss_mb {rss_mb:.0f}")
PY
