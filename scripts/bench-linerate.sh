#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Line-rate benchmark (not a test): RUNS x configs/bench-linerate.ini (one
# DFCP flow, encode + decode on, sender on lcore 0, receiver on lcore 1) and
# RUNS x configs/bench-ceiling.ini (txonly -> rxonly, same ports, same frame
# size); prints every run and the medians. Usage: scripts/bench-linerate.sh [RUNS]
set -eu
RUNS=${1:-5}
ENGINE=${ENGINE:-build/app/dfcp-engine/dfcp-engine}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT INT TERM
median() { sort -n | awk '{a[NR]=$1} END {if (NR) print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
for i in $(seq "$RUNS"); do
	"$ENGINE" -- --config configs/bench-linerate.ini --stats-period 0 \
		--summary-json "$TMP/dfcp$i.json" >/dev/null 2>&1
	python3 -c 'import json,sys; j=json.load(open(sys.argv[1]))
f={x["name"]: x for x in j["flows"]}; r=f["r1"]
assert r["bad_bytes"] == 0 and r["order_errors"] == 0, "verification failed"
print("%.1f" % r["goodput_mbps"])' "$TMP/dfcp$i.json" >>"$TMP/dfcp"
	"$ENGINE" -- --config configs/bench-ceiling.ini --stats-period 0 \
		--summary-json "$TMP/ceil$i.json" >/dev/null 2>&1
	python3 -c 'import json,sys; j=json.load(open(sys.argv[1]))
t={x["name"]: x for x in j["tasks"]}; r=t["rx0"]
print("%.1f" % (r["rx_packets"] * 1486 * 8 / j["duration_s"] / 1e6))' "$TMP/ceil$i.json" >>"$TMP/ceil"
	echo "run $i: DFCP goodput $(tail -1 "$TMP/dfcp") Mbit/s, txonly->rxonly ceiling $(tail -1 "$TMP/ceil") Mbit/s (1486-byte frames)"
done
echo "median of $RUNS: DFCP goodput $(median <"$TMP/dfcp") Mbit/s (encode+decode on, every byte verified)"
echo "median of $RUNS: txonly->rxonly ceiling $(median <"$TMP/ceil") Mbit/s of 1486-byte frames"
