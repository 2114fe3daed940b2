#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Pacing benchmark (not a test): achieved / configured rate of the engine's
# pacers for a grid of rates x frame sizes, on an idle CPU or with a CPU hog
# (a busy loop) pinned to the paced lcore's CPU. Figures go into
# doc/performance.md ("Pacing").
#
#   txonly  tx0 (txonly, rate R, pkt_size S) -> net_ring wire -> rx0 (rxonly),
#           both on lcore 1 (CPU 1); achieved = tx0's frames x (S + 20) x 8 / run
#           time (the L1 rate txonly paces: frame + preamble + IFG)
#   router  gen (txonly at 1.6 x B, lcore 0) -> wire a -> r0 (router, lcore 1)
#           -> pipe (bw B, 10 ms, queue covering 12 ms) -> wire b -> rx0
#           (lcore 1); achieved = the pipe's output (bytes + 24 per frame) x 8 /
#           run time; each run prints output/feed/min: the feeder's own achieved
#           rate and rx0's smallest one-way latency in ms (below 10 ms + one
#           serialization: a packet left the pipe early)
#
# Usage: scripts/bench-pacing.sh [--hog] [--runs N] [--seconds T] [--gaps]
#                                [--only txonly|router]
#   --hog      a busy loop pinned to CPU 1 while the engine runs (killed on exit)
#   --runs N   runs per point, the median is printed (default 1)
#   --gaps     first measure the deschedule gaps of a polling thread on CPU 1
#              (build/test/pace/pace-gaps), with the hog when --hog is given
# Run it under the shared lock: flock /tmp/dfcp-heavy.lock scripts/bench-pacing.sh --hog
set -eu
ENGINE=${ENGINE:-build/app/dfcp-engine/dfcp-engine}
GAPS_BIN=${GAPS_BIN:-build/test/pace/pace-gaps}
HOG=0
RUNS=1
SECONDS_RUN=3
GAPS=0
ONLY=
while [ $# -gt 0 ]; do
	case "$1" in
	--hog) HOG=1 ;;
	--runs) RUNS=$2; shift ;;
	--seconds) SECONDS_RUN=$2; shift ;;
	--gaps) GAPS=1 ;;
	--only) ONLY=$2; shift ;;
	*) echo "usage: $0 [--hog] [--runs N] [--seconds T] [--gaps] [--only txonly|router]" >&2
	   exit 2 ;;
	esac
	shift
done
[ -x "$ENGINE" ] || { echo "bench-pacing: no engine at $ENGINE (make build)" >&2; exit 1; }
TMP=$(mktemp -d)
HOG_PID=
stop_hog() {
	if [ -n "$HOG_PID" ]; then
		kill "$HOG_PID" 2>/dev/null || true
		wait "$HOG_PID" 2>/dev/null || true
		HOG_PID=
	fi
}
trap 'stop_hog; rm -rf "$TMP"' EXIT
trap 'exit 130' INT TERM
start_hog() {
	[ "$HOG" = 1 ] || return 0
	taskset -c 1 sh -c 'while :; do :; done' &
	HOG_PID=$!
}
median() { sort -n | awk '{a[NR]=$1} END {if (NR) print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

EAL='-l 0-1 --no-huge -m 1024 --no-pci --no-shconf --log-level=pmd.net.ring:warning'

txonly_ini() { # rate size
	cat <<EOF
[eal]
args = $EAL
[engine]
duration = ${SECONDS_RUN}s
stats_period = 0
drain = 0
[port p0]
device = ring:wire0
preset = net_ring
[port p1]
device = ring:wire0
preset = net_ring
[task tx0]
kind = txonly
port = p0
pkt_size = $2
rate = $1
[task rx0]
kind = rxonly
port = p1
[lcore 1]
tasks = tx0, rx0
EOF
}

router_ini() { # bw_bps size feed_bps queue
	cat <<EOF
[eal]
args = $EAL
[engine]
duration = ${SECONDS_RUN}s
stats_period = 0
drain = 0
[port gen]
device = ring:a
preset = net_ring
[port ra]
device = ring:a
preset = net_ring
[port rb]
device = ring:b
preset = net_ring
[port sink]
device = ring:b
preset = net_ring
[pipe link]
bw = $1
delay = 10ms
queue = $4
[task tx0]
kind = txonly
port = gen
pkt_size = $2
rate = $3
[task r0]
kind = router
port_a = ra
port_b = rb
a_to_b = link
b_to_a = pass
[task rx0]
kind = rxonly
port = sink
[lcore 0]
tasks = tx0
[lcore 1]
tasks = r0, rx0
EOF
}

# One run: prints "achieved_mbps" (or "fail").
run_one() { # kind ini size
	start_hog
	if "$ENGINE" -- --config "$2" --summary-json "$TMP/s.json" >"$TMP/log" 2>&1; then
		stop_hog
		python3 - "$1" "$TMP/s.json" "$3" <<'EOF'
import json, sys
kind, path, size = sys.argv[1], sys.argv[2], int(sys.argv[3])
j = json.load(open(path))
d = j["duration_s"]
if kind == "txonly":
    t = {x["name"]: x for x in j["tasks"]}["tx0"]
    print("%.3f" % (t["tx_packets"] * (size + 20) * 8 / d / 1e6))
else:
    p = j["pipes"][0]
    t = {x["name"]: x for x in j["tasks"]}
    print("%.3f/%.0f/%.3f" % ((p["out_bytes"] + 24 * p["out_packets"]) * 8 / d / 1e6,
                              t["tx0"]["tx_packets"] * (size + 20) * 8 / d / 1e6,
                              t["rx0"]["lat_min_ns"] / 1e6))
EOF
	else
		stop_hog
		echo fail
		tail -3 "$TMP/log" >&2
	fi
}

point() { # kind rate_bps size [feed queue]
	kind=$1 rate=$2 size=$3
	if [ "$kind" = txonly ]; then
		txonly_ini "$rate" "$size" >"$TMP/c.ini"
	else
		router_ini "$rate" "$size" "$4" "$5" >"$TMP/c.ini"
	fi
	: >"$TMP/runs"
	i=0
	while [ "$i" -lt "$RUNS" ]; do
		run_one "$kind" "$TMP/c.ini" "$size" >>"$TMP/runs"
		i=$((i + 1))
	done
	all=$(tr '\n' ' ' <"$TMP/runs")
	m=$(grep -v fail "$TMP/runs" | cut -d/ -f1 | median)
	awk -v k="$kind" -v r="$rate" -v s="$size" -v m="${m:-0}" -v all="$all" 'BEGIN {
		printf "%-7s %10.0f %6d %12.2f %9.2f %%   %s\n", k, r / 1e6, s, m, 100 * m * 1e6 / r, all }'
}

echo "bench-pacing: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) CPUs, $(uname -r);" \
	"hog on CPU 1: $([ "$HOG" = 1 ] && echo yes || echo no); ${SECONDS_RUN} s per run," \
	"median of $RUNS; $(uptime | sed 's/.*load/load/')"
if [ "$GAPS" = 1 ]; then
	[ -x "$GAPS_BIN" ] || { echo "bench-pacing: no $GAPS_BIN (make build)" >&2; exit 1; }
	start_hog
	"$GAPS_BIN" --cpu 1 --seconds "$SECONDS_RUN"
	stop_hog
fi
printf "%-7s %10s %6s %12s %10s   %s\n" kind "Mbit/s" frame "achieved" "of target" runs
if [ "$ONLY" != router ]; then
	for p in 10000000:64 10000000:1518 100000000:64 100000000:512 100000000:1518 \
			1000000000:64 1000000000:512 1000000000:1518 10000000000:1518; do
		point txonly "${p%%:*}" "${p##*:}"
	done
fi
if [ "$ONLY" != txonly ]; then
	for p in 100000000:64 100000000:1518 500000000:1518 1000000000:1518; do
		bw=${p%%:*} size=${p##*:}
		# a queue that covers a 12 ms stall at bw: bw x 12 ms / frame on the wire
		q=$(awk -v b="$bw" -v s="$size" 'BEGIN { q = int(b * 0.012 / 8 / (s + 20)) + 1;
			print (q < 50) ? 50 : q }')
		point router "$bw" "$size" $((bw / 10 * 16)) "$q"
	done
fi
