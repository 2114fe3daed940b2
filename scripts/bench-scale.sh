#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Scaling benchmark (not a test; issue 32): one kind over 1, 2, 4, 8, 14 worker lcores
# (its `lcores` key, doc/config.md "A task over several lcores"), RUNS runs a point,
# medians. Kinds:
#   sched   txonly (64 B, 16 streams a task) -> sched (wf2q+, unshaped, one shard a worker,
#           on the same lcore as its txonly) -> net_null; Mpps = the shards' packets out
#   dfcp    DFCP senders (4 flows a worker, encode + decode on) -> receivers on their own
#           lcores, over net_ring; Mpps = data frames received, Gbit/s = goodput
#   router  txonly (1518 B) on its own lcores -> router (no pipe: matching and forwarding)
#           on N lcores -> rxonly beside it; Mpps = frames the receivers got
# Every point prints `scale KIND LCORES MPPS GBITS` and its efficiency against 1 lcore
# (Mpps(N) / (N x Mpps(1))), then `cost KIND STAGE CYCLES` (busy TSC cycles a packet of
# each stage at 1 lcore) and `predict KIND LCORES MPPS`: N x TSC Hz / the cycles of the
# costliest lcore (the stages it runs, summed), what the lcores would carry if nothing but
# their own work limited them.
# A point needs a CPU for each worker lcore (the main lcore shares one: it mostly sleeps);
# points the machine lacks are skipped, unless
# OVERSUB=1 (then they run, marked `oversubscribed`: function only, not speed).
#   scripts/bench-scale.sh [RUNS] [SECS]    env: ENGINE, KINDS ("sched dfcp router"),
#                                                POINTS ("1 2 4 8 14"), OVERSUB
set -eu
RUNS=${1:-3}
SECS=${2:-3}
ENGINE=${ENGINE:-build/app/dfcp-engine/dfcp-engine}
KINDS=${KINDS:-sched dfcp router}
POINTS=${POINTS:-1 2 4 8 14}
OVERSUB=${OVERSUB:-0}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT INT TERM
NCPU=$(nproc)
echo "# $(lscpu | sed -n 's/^Model name: *//p' | head -1), $NCPU CPUs, $(date -u +%F), RUNS=$RUNS SECS=$SECS"
exec python3 - "$ENGINE" "$TMP" "$RUNS" "$SECS" "$NCPU" "$OVERSUB" "$KINDS" "$POINTS" <<'PY'
import json
import statistics
import subprocess
import sys

engine, tmp, runs, secs, ncpu, oversub, kinds, points = sys.argv[1:]
runs, secs, ncpu, oversub = int(runs), float(secs), int(ncpu), oversub == "1"
EAL = "--no-huge -m 2048 --no-pci --no-shconf --log-level=pmd.net.ring:warning"


def rng(first, n):
    return f"{first}-{first + n - 1}" if n > 1 else f"{first}"


def sched_ini(n):
    return f"""[engine]
duration = {secs}s
stats_period = 0
[port out]
device = net_null0
[task gen]
kind = txonly
port = out
lcores = {rng(1, n)}
pkt_size = 64
streams = 16
egress = s
[task s]
kind = sched
port = out
lcores = {rng(1, n)}
rate = off
sched = wf2q+
max_flows = 16
""", 1 + n


def dfcp_ini(n):
    return f"""[engine]
duration = {secs + 1}s
stats_period = 0
[port a]
device = ring:w
preset = net_ring
rx_desc = 2048
tx_desc = 2048
[port b]
device = ring:w
preset = net_ring
rx_desc = 2048
tx_desc = 2048
[flow s]
role = sender
count = {4 * n}
local = 10.0.0.1:10000
remote = 10.0.1.1:20000
remote_port_step = 7
remote_mac = 02:00:00:00:00:02
duration = {secs}s
window = 64
[flow r]
role = receiver
count = {4 * n}
local = 10.0.1.1:20000
local_port_step = 7
window = 64
sink = verify
[task tx]
kind = dfcp
port = a
lcores = {rng(1, n)}
checksum = zero
flows = s
[task rx]
kind = dfcp
port = b
lcores = {rng(1 + n, n)}
checksum = zero
flows = r
""", 1 + 2 * n


def router_ini(n):
    return f"""[engine]
duration = {secs}s
stats_period = 0
[port ga]
device = ring:g
preset = net_ring
[port ra]
device = ring:g
preset = net_ring
[port rb]
device = ring:s
preset = net_ring
[port sb]
device = ring:s
preset = net_ring
[task gen]
kind = txonly
port = ga
lcores = {rng(1, n)}
pkt_size = 1518
[task r]
kind = router
port_a = ra
port_b = rb
a_to_b = pass
b_to_a = pass
lcores = {rng(1 + n, n)}
[task sink]
kind = rxonly
port = sb
lcores = {rng(1 + n, n)}
""", 1 + 2 * n


def measure_sched(j):
    pk = sum(t["tx_packets"] for t in j["tasks"] if t["name"].startswith("s."))
    return pk, pk * (64 + 20) * 8


def measure_dfcp(j):
    fl = [f for f in j["flows"] if f["name"].startswith("r")]
    if any(f.get("bad_bytes", 0) for f in fl):
        raise RuntimeError("a receiver found wrong bytes")
    pk = sum(f.get("rx_data_packets", 0) for f in fl)
    return pk, sum(f["goodput_bytes"] for f in fl) * 8


def measure_router(j):
    pk = sum(t["rx_packets"] for t in j["tasks"] if t["name"].startswith("sink."))
    return pk, pk * (1518 + 20) * 8


# kind: config, measure, its stages by the lcores they share (a worker lcore's cost
# is the sum of its stages')
KINDS = {"sched": (sched_ini, measure_sched, (("gen", "s"),)),
         "dfcp": (dfcp_ini, measure_dfcp, (("tx",), ("rx",))),
         "router": (router_ini, measure_router, (("gen",), ("r", "sink")))}


def run(kind, n, i):
    make, meas, _ = KINDS[kind]
    text, lcores = make(n)
    ini = f"{tmp}/{kind}{n}.ini"
    eal = (f"--lcores (0-{lcores - 1})@(0-{ncpu - 1}) " if lcores > ncpu else
           f"-l 0-{lcores - 1} ") + EAL
    with open(ini, "w") as f:
        f.write(f"[eal]\nargs = {eal}\n" + text)
    out = f"{tmp}/{kind}{n}-{i}.json"
    p = subprocess.run([engine, "--", "--config", ini, "--summary-json", out, "--live", "off"],
                       capture_output=True, text=True, timeout=secs + 60)
    if p.returncode != 0:
        sys.stderr.write(p.stdout[-2000:] + p.stderr[-2000:])
        raise RuntimeError(f"{kind} at {n} lcores: exit {p.returncode}")
    j = json.load(open(out))
    pk, bits = meas(j)
    return pk / j["duration_s"] / 1e6, bits / j["duration_s"] / 1e9, j


def stage_costs(kind, j):
    """Busy TSC cycles a packet of each stage (its tasks' busy cycles / their packets)."""
    stages = [st for group in KINDS[kind][2] for st in group]
    hz = statistics.median((lc["busy_cycles"] + lc["idle_cycles"]) / j["duration_s"]
                           for lc in j["lcores"])
    tasks = {t["name"]: t for t in j["tasks"]}
    out = {}
    for st in stages:
        cyc = pk = 0
        for lc in j["lcores"]:
            for t in lc["tasks"]:
                if t["name"].split(".")[0] == st:
                    cyc += t["busy_cycles"]
                    tt = tasks.get(t["name"], {})
                    pk += max(tt.get("tx_packets", 0), tt.get("rx_packets", 0))
        if pk:
            out[st] = cyc / pk
    return hz, out


for kind in kinds.split():
    base = None
    for n in (int(x) for x in points.split()):
        need = KINDS[kind][0](n)[1] - 1  # the main lcore mostly sleeps
        over = need > ncpu
        if over and not oversub:
            print(f"skip {kind} {n}: needs {need} CPUs, the machine has {ncpu}")
            continue
        res = [run(kind, n, i) for i in range(runs)]
        mpps = statistics.median(r[0] for r in res)
        gbits = statistics.median(r[1] for r in res)
        if n == 1:
            base = mpps
            hz, costs = stage_costs(kind, res[len(res) // 2][2])
        eff = f"{mpps / (n * base):.2f}" if base else "-"
        print(f"scale {kind} {n} {mpps:.3f} {gbits:.3f} efficiency {eff}"
              + (" oversubscribed" if over else ""), flush=True)
    if base is not None and costs:
        for st, c in costs.items():
            print(f"cost {kind} {st} {c:.0f}")
        worst = max(sum(costs.get(st, 0) for st in g) for g in KINDS[kind][2])
        for n in (int(x) for x in points.split()):
            print(f"predict {kind} {n} {n * hz / worst / 1e6:.3f}")
PY
