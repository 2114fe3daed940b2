#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# The engine as a wire between two kernel hosts: kernel TCP CUBIC (iperf3) directly over
# a veth pair, and through the engine's router (both directions pass) on kernel-interface
# ports, side by side in one run, alternated, medians of RUNS.
#
#   scripts/bench-kernel-path.sh [RUNS] [SECONDS]      (defaults 3 and 5; root)
#   ENGINE=path/to/dfcp-engine  PATHS="direct af_packet-default af_packet af_xdp"
#   RPS_MASK=HEX (the steering mask; default every CPU but 1)
#
# Three namespaces: C (iperf3 client), R (the engine), S (iperf3 server). The direct
# path is a veth pair C-S; the engine's path is C-R and R-S, the router polling both
# R ends on lcore 1. Offloads are off on every veth (MTU 1500: TCP segments are frames).
# Paths:
#   direct            the C-S veth pair, kernel defaults
#   af_packet-default net_af_packet with DPDK's default devargs, no steering
#   af_packet         the net_af_packet preset (qdisc_bypass, 4096-frame rings) and
#                     the hosts' receive work steered off the engine's CPU (RPS)
#   af_xdp            the net_af_xdp preset, hugepages, bpffs, the same steering
# Why the steering: a frame the engine sends is received by the host's stack inside the
# engine's sendto(); with RPS on the hosts' veths that work moves to the other CPUs and
# the engine's lcore does only its own part (doc/performance.md, "Kernel path").
#
# Output: "kernel-path PATH RUN GBITS" per run, a table of medians and ratios to the
# direct path, and the closing line
#   kernel-path direct D through B ratio R via NAME
set -u
RUNS=${1:-3}
SECS=${2:-5}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
ENGINE=${ENGINE:-$ROOT/build/app/dfcp-engine/dfcp-engine}
PATHS=${PATHS:-direct af_packet-default af_packet af_xdp}
TAG=kp$$
NSC=$TAG-c NSR=$TAG-r NSS=$TAG-s
TMP=$(mktemp -d /tmp/bench-kernel-path.XXXXXX)
HP_DIR="" HP_OLD=""

die() { echo "bench-kernel-path: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || die "needs root (network namespaces)"
for c in ip iperf3 ethtool python3; do
	command -v $c >/dev/null || die "needs $c (scripts/install-deps.sh all)"
done
[ -x "$ENGINE" ] || die "no engine at $ENGINE (make build, or set ENGINE)"
case "$RUNS$SECS" in *[!0-9]*) die "RUNS and SECONDS are whole numbers";; esac
[ "$RUNS" -ge 1 ] && [ "$SECS" -ge 1 ] || die "RUNS and SECONDS are at least 1"

cleanup() {
	for ns in $NSC $NSR $NSS; do
		for p in $(ip netns pids $ns 2>/dev/null); do kill -9 $p 2>/dev/null; done
		ip netns del $ns 2>/dev/null
	done
	if [ -n "$HP_DIR" ]; then
		umount "$HP_DIR" 2>/dev/null
		rmdir "$HP_DIR" 2>/dev/null
	fi
	[ -n "$HP_OLD" ] && echo "$HP_OLD" > /proc/sys/vm/nr_hugepages
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- namespaces and veths
for ns in $NSC $NSR $NSS; do
	ip netns add $ns || die "cannot create a network namespace"
	ip -n $ns link set lo up
done
ip -n $NSR link add ra type veth peer name ca netns $NSC || die "cannot create a veth pair"
ip -n $NSR link add rb type veth peer name sb netns $NSS
ip -n $NSC link add dc type veth peer name ds netns $NSS
for p in "$NSR ra" "$NSR rb" "$NSC ca" "$NSS sb" "$NSC dc" "$NSS ds"; do
	set -- $p
	ip -n $1 link set $2 mtu 1500 up
	ip netns exec $1 ethtool -K $2 tso off gso off gro off tx off rx off >/dev/null 2>&1
done
ip -n $NSC addr add 10.77.0.1/24 dev ca
ip -n $NSS addr add 10.77.0.2/24 dev sb
ip -n $NSC addr add 10.77.1.1/24 dev dc
ip -n $NSS addr add 10.77.1.2/24 dev ds
ip netns exec $NSR sysctl -qw net.ipv4.conf.all.arp_ignore=8

NCPU=$(nproc)
# RPS mask: every CPU but 1 (the router's lcore); none on a 1-CPU machine
rps_mask=${RPS_MASK:-$(python3 -c "n=$NCPU; print(format(((1 << n) - 1) & ~2, 'x') if n > 1 else '0')")}
steer() { # steer on|off: the hosts' receive work off the engine's CPU
	local m=0
	[ "$1" = on ] && m=$rps_mask
	ip netns exec $NSC sh -c "echo $m > /sys/class/net/ca/queues/rx-0/rps_cpus"
	ip netns exec $NSS sh -c "echo $m > /sys/class/net/sb/queues/rx-0/rps_cpus"
}

hugepages() { # 2 MB pages for af_xdp: 512 more, a private hugetlbfs; 1 when none
	HP_OLD=$(cat /proc/sys/vm/nr_hugepages)
	echo $((HP_OLD + 512)) > /proc/sys/vm/nr_hugepages 2>/dev/null
	local free
	free=$(awk '/HugePages_Free/ {print $2}' /proc/meminfo)
	[ "${free:-0}" -ge 512 ] || return 1
	HP_DIR=$(mktemp -d /tmp/bench-kernel-path-huge.XXXXXX)
	mount -t hugetlbfs nodev "$HP_DIR" || { rmdir "$HP_DIR"; HP_DIR=""; return 1; }
}

# --- one engine config per engine path
engine_ini() { # NAME DRIVER PRESET
	local eal="-l 0-1 --no-huge -m 1024 --no-pci"
	[ "$2" = net_af_xdp ] && eal="-l 0-1 -m 512 --no-pci --huge-dir $HP_DIR"
	cat > "$TMP/$1.ini" <<EOF
[eal]
args = $eal --file-prefix $TAG-$1 --log-level=pmd.net.af_xdp:warning --log-level=lib.eal:warning

[engine]
duration = $((SECS + 4))s
stats_period = 0
drain = 0

[port a]
device = ${2}0,iface=ra
$3

[port b]
device = ${2}1,iface=rb
$3

[task r0]
kind = router
port_a = a
port_b = b
a_to_b = pass
b_to_a = pass

[lcore 1]
tasks = r0
EOF
}

iperf() { # DST: Gbit/s received, or "fail"
	ip netns exec $NSS iperf3 -s -1 -D -p 5201 >/dev/null 2>&1
	sleep 0.3
	ip netns exec $NSC timeout $((SECS + 15)) iperf3 -c "$1" -p 5201 -C cubic -t "$SECS" -J \
		> "$TMP/iperf.json" 2>/dev/null
	python3 - "$TMP/iperf.json" <<'EOF'
import json, sys
try:
    j = json.load(open(sys.argv[1]))
    print("%.3f" % (j["end"]["sum_received"]["bits_per_second"] / 1e9))
except (OSError, ValueError, KeyError):
    print("fail")
EOF
	pkill -f "iperf3 -s -1 -D -p 5201" 2>/dev/null
}

run_path() { # PATH: one measurement
	local p=$1 eng=""
	case $p in
	direct)
		steer off
		iperf 10.77.1.2
		return
		;;
	af_packet-default) steer off; engine_ini $p net_af_packet "" ;;
	af_packet) steer on; engine_ini $p net_af_packet "preset = net_af_packet" ;;
	af_xdp)
		if [ -z "$HP_DIR" ]; then
			echo "skip"
			return
		fi
		steer on
		engine_ini $p net_af_xdp "preset = net_af_xdp"
		;;
	*) die "unknown path $p (direct, af_packet-default, af_packet, af_xdp)" ;;
	esac
	ip netns exec $NSR sh -c "mount -t bpf bpf /sys/fs/bpf 2>/dev/null; exec \"$ENGINE\" -- \
		--config $TMP/$p.ini" > "$TMP/$p.log" 2>&1 &
	eng=$!
	# up when the router polls: its ports answer; give EAL and the ports 3 s at most
	for _ in $(seq 30); do
		grep -q "dfcp-engine: running" "$TMP/$p.log" 2>/dev/null && break
		sleep 0.1
	done
	sleep 1
	iperf 10.77.0.2
	kill -INT $eng 2>/dev/null
	wait $eng 2>/dev/null
	if grep -q "rx_missed [1-9]\|tx_errors [1-9]" "$TMP/$p.log"; then
		grep -E "^ *port [ab] " "$TMP/$p.log" | tail -2 | sed 's/^/#   /' >&2
	fi
	rm -rf "/var/run/dpdk/$TAG-$p"
}

echo "# $(lscpu | sed -n 's/^Model name: *//p'), $NCPU CPUs, $(date -u +%Y-%m-%dT%H:%MZ), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# iperf3 -C cubic -t $SECS, offloads off, MTU 1500; runs alternated, medians of $RUNS"
# hugepages for af_xdp, reserved here: run_path runs in a subshell
if [[ " $PATHS " == *" af_xdp "* ]] && ! hugepages; then
	echo "# af_xdp skipped: no 512 free 2 MB hugepages could be reserved"
fi
declare -A res
for r in $(seq "$RUNS"); do
	for p in $PATHS; do
		v=$(run_path $p)
		echo "kernel-path $p $r $v"
		res[$p]="${res[$p]:-} $v"
	done
done

python3 - "$PATHS" <<EOF
import statistics, sys
paths = sys.argv[1].split()
res = {$(for p in $PATHS; do printf '"%s": "%s", ' "$p" "${res[$p]}"; done)}
med = {}
for p in paths:
    vals = [float(v) for v in res[p].split() if v not in ("fail", "skip")]
    med[p] = statistics.median(vals) if vals else None
d = med.get("direct")
print("%-18s %10s %8s   runs" % ("path", "Gbit/s", "ratio"))
for p in paths:
    m = med[p]
    ratio = "%.2f" % (m / d) if m is not None and d else "-"
    print("%-18s %10s %8s   %s" % (p, "%.3f" % m if m is not None else "-", ratio, res[p].strip()))
best = max((p for p in paths if p != "direct" and med[p] is not None), key=lambda p: med[p],
           default=None)
if d is None or best is None:
    print("kernel-path: no direct or no engine figure (see the runs above)")
    sys.exit(1)
print("kernel-path direct %.3f through %.3f ratio %.2f via %s" % (d, med[best], med[best] / d, best))
EOF
