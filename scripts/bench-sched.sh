#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Sched task benchmark (not a test; issue 17): the engine's sched task with
# both backends in one run, alternated, medians of RUNS. Figures go into
# doc/performance.md ("Sched task").
#
#   rate    [task gen] txonly, pkt_size 64, streams = N (weights 1,2,3,4 in
#           turn), egress = s0, on lcore 0 -> [task s0] sched, port net_null0,
#           rate = off, sched = wf2q+ | rte_sched, max_flows = 4096, on
#           lcore 1; Mpps = the flows' run-phase packets / run time, and
#           the busy cycles per packet of each lcore (cycles of its polls
#           that handled packets / its packets: its own cost, whoever
#           limits). flow_queue = 16384 / N (4..1024): every flow can be
#           backlogged within the sched task's pool reserve (16384 mbufs).
#           `limit`: sched when the generator had packets refused (a full
#           ring or flow) in every run, i.e. it offered more than the sched
#           task took; gen when in none. No share error here: unshaped, one
#           burst in and one out per poll (SCH_DRAIN 1) and a shared ring
#           that fills before any flow's flow_queue at N >= 64 leave the
#           weights nothing to act on (see shares)
#   shares  the weighted share error per flow (|share - w/sum w| / (w/sum w):
#           max and mean over the flows) from runs in which the sched task
#           IS the bottleneck: the same config shaped at rate = SHARE_MBPS
#           Mbit/s (default 500, L1: 0.74 Mpps, below what the generator
#           offers), N = 1024 and 4096, both backends. A run counts only if
#           the shaper bound (L1 delivered >= 98 % of the rate) and every
#           flow was refused at its producer (refused_packets > 0: it
#           reached flow_queue); otherwise its error is flagged
#   shaped  the same with N = 4 and rate = 10Gbit, 64 B and 1518 B frames,
#           wf2q+: delivered L1 rate ((pkt_len + 24) x 8 per run second) /
#           10 Gbit/s
#   gen     txonly alone into net_null0 (no sched task, same pkt_size,
#           flows and weights): what the generator offers by itself
#   dfcp    configs/bench-linerate.ini with the sender's egress through a
#           sched task (rate = off) on lcore 1 next to the receiver: r1's
#           goodput
#   elephant  the lone flow of issue 32: txonly (1 stream, 64 B) -> sched
#           (wf2q+, rate = off, flow_queue and backlog_budget auto) ->
#           net_null, max_flows = 4096 and max_flows = 1 alternated; Mpps
#           medians, their ratio, and the flow's most packets in the
#           scheduler (backlog_peak, "-" where the engine has no such counter)
#
# Usage: scripts/bench-sched.sh [--runs N] [--seconds T] [--flows "1 1024 4096"]
#                               [--share-mbps 500] [--mbuf-size B] [--flow-queue auto]
#                               [--only rate|shares|shaped|gen|dfcp|elephant]
# --mbuf-size B: [engine] mbuf_size (data room; default the engine's 2176):
# e.g. 384 for the 64 B runs, a pool of 1/4 the memory (fewer TLB and cache
# misses with --no-huge; not for frames over B - 128: the 1518 B shaped run
# keeps the default).
# --flow-queue auto: no flow_queue key in the sched task (its default cap, 64,
# and the limit shared out by backlog_budget) instead of 16384 / N.
# Run it under the shared lock: flock /tmp/dfcp-heavy.lock scripts/bench-sched.sh
set -eu
ENGINE=${ENGINE:-build/app/dfcp-engine/dfcp-engine}
RUNS=3
SECS=3
FLOWS="1 1024 4096"
SHARE_FLOWS="1024 4096"
SHARE_MBPS=500
MBUF_SIZE=
FQ=
ONLY=
while [ $# -gt 0 ]; do
	case "$1" in
	--runs) RUNS=$2; shift ;;
	--seconds) SECS=$2; shift ;;
	--flows) FLOWS=$2; shift ;;
	--share-mbps) SHARE_MBPS=$2; shift ;;
	--mbuf-size) MBUF_SIZE=$2; shift ;;
	--flow-queue) FQ=$2; shift ;;
	--only) ONLY=$2; shift ;;
	*) echo "usage: $0 [--runs N] [--seconds T] [--flows LIST] [--share-mbps M] [--mbuf-size B]" \
		"[--flow-queue auto]" \
		"[--only rate|shares|shaped|gen|dfcp|elephant]" >&2
	   exit 2 ;;
	esac
	shift
done
[ -x "$ENGINE" ] || { echo "bench-sched: no engine at $ENGINE (make build)" >&2; exit 1; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
trap 'exit 130' INT TERM

# gen_cfg FILE ALGO FLOWS PKT_SIZE RATE [gen]: with "gen", txonly alone
# into the port (no egress, no sched task)
gen_cfg() {
	fq=$((16384 / $3))
	[ "$fq" -le 1024 ] || fq=1024
	[ "$fq" -ge 4 ] || fq=4
	fq="flow_queue = $fq"
	[ "$FQ" != auto ] || fq=
	ms=
	[ -z "$MBUF_SIZE" ] || [ $(($4 + 128)) -gt "$MBUF_SIZE" ] || ms="mbuf_size = $MBUF_SIZE"
	cat > "$1" <<EOC
[eal]
args = -l 0-1 --no-huge -m 4096 --no-pci --no-shconf --vdev=net_null0

[engine]
duration = ${SECS}s
$ms

[port n0]
device = net_null0
preset = net_null
tx_desc = 2048

[task gen]
kind = txonly
port = n0
pkt_size = $4
streams = $3
weights = 1,2,3,4
EOC
	if [ "${6:-}" = gen ]; then
		printf '\n[lcore 0]\ntasks = gen\n' >> "$1"
		return
	fi
	cat >> "$1" <<EOC
egress = s0

[task s0]
kind = sched
port = n0
rate = $5
sched = $2
max_flows = 4096
$fq

[lcore 0]
tasks = gen

[lcore 1]
tasks = s0
EOC
}

# result JSON: "mpps share_max share_mean l1_gbps backlogged flows sched_cyc
# gen_cyc gen_refused" (backlogged: flows refused at their producer;
# sched_cyc, gen_cyc: busy cycles per packet of the sched lcore and of the
# generator's; gen_refused: packets the generator had refused, by a flow's
# limit or a full ring; without a sched task: the generator's)
summarize() {
	python3 - "$1" <<'EOP'
import json, sys
js = json.load(open(sys.argv[1]))
dur = js["duration_s"]
lc = {l["lcore"]: l for l in js["lcores"]}
if not js.get("sched"):
    t = js["tasks"][0]
    pk = t["tx_packets"]
    print(f"{pk / dur / 1e6:.3f} - - {(t['tx_bytes'] + 24 * pk) * 8 / dur / 1e9:.3f} - "
          f"- - {lc[0]['busy_cycles'] / max(pk, 1):.0f} {t['tx_dropped']}")
    sys.exit(0)
s = js["sched"][0]
fl = s["flows"]
g = [t for t in js["tasks"] if t["name"] == "gen"][0]
pk = sum(f["run_tx_packets"] for f in fl)
by = sum(f["run_tx_bytes"] for f in fl)
ws = sum(f["weight"] for f in fl)
errs = [abs(f["run_tx_bytes"] / by - f["weight"] / ws) / (f["weight"] / ws) for f in fl] if by else [1]
bl = sum(1 for f in fl if f["refused_packets"] > 0)
print(f"{pk / dur / 1e6:.3f} {max(errs) * 100:.2f} {sum(errs) / len(errs) * 100:.2f} "
      f"{(by + 24 * pk) * 8 / dur / 1e9:.3f} {bl} {len(fl)} "
      f"{lc[1]['busy_cycles'] / max(s['tx_packets'], 1):.0f} "
      f"{lc[0]['busy_cycles'] / max(g['tx_packets'], 1):.0f} {g['tx_dropped']}")
EOP
}

median() {
	sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

# col FILE K: column K of every run, on one line
col() {
	cut -d' ' -f"$2" "$1" | tr '\n' ' '
}

run_one() { # CFG OUT -> prints summary
	"$ENGINE" -- --config "$1" --summary-json "$2" > "$2.log" 2>&1 ||
		{ echo "bench-sched: engine failed, see below" >&2; tail -20 "$2.log" >&2; exit 1; }
	summarize "$2"
}

# sched: the generator had packets refused in every run of FILE; gen: in
# none; mixed otherwise
limit() {
	awk '$9 > 0 { s++ } END { print s == NR ? "sched" : s == 0 ? "gen" : "mixed" }' "$1"
}

# least backlogged flows over the runs of FILE, "B/N"
backlogged() {
	echo "$(cut -d' ' -f5 "$1" | sort -g | head -1)/$(cut -d' ' -f6 "$1" | head -1)"
}

echo "# bench-sched: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) CPUs; load: $(cut -d' ' -f1-3 /proc/loadavg); mbuf_size ${MBUF_SIZE:-default}; flow_queue ${FQ:-16384/N}"
if [ -z "$ONLY" ] || [ "$ONLY" = rate ]; then
	echo "# rate: txonly 64 B on lcore 0 -> sched (rate = off) on lcore 1 -> net_null; medians of $RUNS"
	echo "# (sched_cyc, gen_cyc: busy cycles per packet of the sched lcore and the generator's,"
	echo "#  medians; limit: sched where the generator had packets refused (a full ring or flow)"
	echo "#  in every run, gen where in none; share errors: see shares)"
	printf '%-7s %-10s %10s %9s %7s %6s\n' flows backend Mpps sched_cyc gen_cyc limit
	for n in $FLOWS; do
		for r in $(seq "$RUNS"); do
			for algo in wf2q+ rte_sched; do
				gen_cfg "$TMP/c.ini" "$algo" "$n" 64 off
				echo "$(run_one "$TMP/c.ini" "$TMP/r.json")" >> "$TMP/$n.$algo"
			done
		done
		for algo in wf2q+ rte_sched; do
			printf '%-7s %-10s %10s %9s %7s %6s   (runs: %s)\n' "$n" "$algo" \
				"$(cut -d' ' -f1 "$TMP/$n.$algo" | median)" \
				"$(cut -d' ' -f7 "$TMP/$n.$algo" | median)" \
				"$(cut -d' ' -f8 "$TMP/$n.$algo" | median)" \
				"$(limit "$TMP/$n.$algo")" "$(col "$TMP/$n.$algo" 1)"
		done
	done
fi
if [ -z "$ONLY" ] || [ "$ONLY" = shares ]; then
	echo "# shares: the same, shaped at rate = ${SHARE_MBPS}Mbit (the sched task is the bottleneck),"
	echo "# 64 B, weights 1,2,3,4; share error per flow from these runs (medians of $RUNS),"
	echo "# only where in every run the shaper bound (L1 >= 98 % of the rate) and every flow"
	echo "# was backlogged (refused at its producer)"
	printf '%-7s %-10s %8s %8s %16s %15s %11s\n' flows backend Mpps L1_Gbps share_err_max% \
		share_err_mean% backlogged
	for n in $SHARE_FLOWS; do
		for r in $(seq "$RUNS"); do
			for algo in wf2q+ rte_sched; do
				gen_cfg "$TMP/c.ini" "$algo" "$n" 64 "${SHARE_MBPS}Mbit"
				echo "$(run_one "$TMP/c.ini" "$TMP/r.json")" >> "$TMP/s$n.$algo"
			done
		done
		for algo in wf2q+ rte_sched; do
			f="$TMP/s$n.$algo"
			bound=$(awk -v r="$SHARE_MBPS" '$4 * 1000 < 0.98 * r { n++ } END { print n + 0 }' "$f")
			if [ "$bound" != 0 ]; then
				emax="shaper-not-bound"
				emean="-"
			elif [ "$(cut -d' ' -f5 "$f" | sort -g | head -1)" != "$n" ]; then
				emax="not-backlogged"
				emean="-"
			else
				emax=$(cut -d' ' -f2 "$f" | median)
				emean=$(cut -d' ' -f3 "$f" | median)
			fi
			printf '%-7s %-10s %8s %8s %16s %15s %11s   (max runs: %s)\n' "$n" "$algo" \
				"$(cut -d' ' -f1 "$f" | median)" "$(cut -d' ' -f4 "$f" | median)" \
				"$emax" "$emean" "$(backlogged "$f")" "$(col "$f" 2)"
		done
	done
fi
if [ -z "$ONLY" ] || [ "$ONLY" = shaped ]; then
	echo "# shaped: rate = 10Gbit, 4 flows, wf2q+; delivered L1 Gbit/s (median of $RUNS)"
	for size in 64 1518; do
		: > "$TMP/sh.$size"
		for r in $(seq "$RUNS"); do
			gen_cfg "$TMP/c.ini" wf2q+ 4 "$size" 10Gbit
			echo "$(run_one "$TMP/c.ini" "$TMP/r.json")" >> "$TMP/sh.$size"
		done
		g=$(cut -d' ' -f4 "$TMP/sh.$size" | median)
		printf 'pkt_size %-5s L1 %s Gbit/s = %s of 10 Gbit/s (%s Mpps; sched %s cyc/pkt)\n' \
			"$size" "$g" "$(echo "$g" | awk '{ printf "%.4f", $1 / 10 }')" \
			"$(cut -d' ' -f1 "$TMP/sh.$size" | median)" \
			"$(cut -d' ' -f7 "$TMP/sh.$size" | median)"
	done
fi
if [ -z "$ONLY" ] || [ "$ONLY" = gen ]; then
	echo "# gen: txonly 64 B alone on lcore 0 into net_null (no sched task); medians of $RUNS"
	printf '%-7s %10s %8s\n' flows Mpps gen_cyc
	for n in $FLOWS; do
		: > "$TMP/g$n"
		for r in $(seq "$RUNS"); do
			gen_cfg "$TMP/c.ini" - "$n" 64 off gen
			echo "$(run_one "$TMP/c.ini" "$TMP/r.json")" >> "$TMP/g$n"
		done
		printf '%-7s %10s %8s   (runs: %s)\n' "$n" "$(cut -d' ' -f1 "$TMP/g$n" | median)" \
			"$(cut -d' ' -f8 "$TMP/g$n" | median)" "$(col "$TMP/g$n" 1)"
	done
fi
if [ -z "$ONLY" ] || [ "$ONLY" = elephant ]; then
	echo "# elephant: txonly 1 flow 64 B -> sched (wf2q+, rate = off, flow_queue auto) -> net_null;"
	echo "# max_flows = 4096 and 1 alternated, medians of $RUNS"
	for mf in 4096 1; do : > "$TMP/e$mf"; done
	for r in $(seq "$RUNS"); do
		for mf in 4096 1; do
			gen_cfg "$TMP/c.ini" wf2q+ 1 64 off
			sed -i -e "s/^max_flows = .*/max_flows = $mf/" -e '/^flow_queue = /d' "$TMP/c.ini"
			echo "$(run_one "$TMP/c.ini" "$TMP/r.json") $(python3 -c "
import json, sys
f = json.load(open(sys.argv[1]))['sched'][0]['flows'][0]
print(f.get('backlog_peak', '-'))" "$TMP/r.json")" >> "$TMP/e$mf"
		done
	done
	printf '%-9s %10s %12s %13s\n' max_flows Mpps gen_refused backlog_peak
	for mf in 4096 1; do
		printf '%-9s %10s %12s %13s   (runs: %s)\n' "$mf" "$(cut -d' ' -f1 "$TMP/e$mf" | median)" \
			"$(cut -d' ' -f9 "$TMP/e$mf" | median)" "$(cut -d' ' -f10 "$TMP/e$mf" | median)" \
			"$(col "$TMP/e$mf" 1)"
	done
	printf 'ratio max_flows 4096 / 1: %s\n' "$(echo "$(cut -d' ' -f1 "$TMP/e4096" | median)" \
		"$(cut -d' ' -f1 "$TMP/e1" | median)" | awk '{ printf "%.2f", $1 / $2 }')"
fi
if [ -z "$ONLY" ] || [ "$ONLY" = dfcp ]; then
	echo "# dfcp: sender (lcore 0) -> sched task (lcore 1, rate = off) -> net_ring -> receiver (lcore 1)"
	sed -e 's/^flows = s1$/flows = s1\negress = s0/' \
	    -e 's/^\[lcore 1\]$/[task s0]\nkind = sched\nport = p0\nrate = off\n\n[lcore 1]/' \
	    -e 's/^tasks = rx$/tasks = s0, rx/' configs/bench-linerate.ini > "$TMP/d.ini"
	: > "$TMP/dfcp"
	for r in $(seq "$RUNS"); do
		"$ENGINE" -- --config "$TMP/d.ini" --summary-json "$TMP/d.json" > "$TMP/d.log" 2>&1 ||
			{ tail -20 "$TMP/d.log" >&2; exit 1; }
		python3 -c "
import json, sys
js = json.load(open(sys.argv[1]))
print([f for f in js['flows'] if f['name'] == 'r1'][0]['goodput_mbps'] / 1000)" "$TMP/d.json" >> "$TMP/dfcp"
	done
	printf 'dfcp goodput through the sched task: %s Gbit/s (median; runs: %s)\n' \
		"$(median < "$TMP/dfcp")" "$(tr '\n' ' ' < "$TMP/dfcp")"
fi
