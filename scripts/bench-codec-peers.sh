#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Our RaptorQ codec against the cberner/raptorq peer benchmark, side by side:
# for K = 47, 1000, 10000 (T = 1420, 10 % loss, one core) three rounds, each
# running `dfcp-bench codec` (copying and zero-copy API) and then the peer
# (../shared/peers/cberner-raptorq/rq-peer-bench K 1420 SECONDS 0.1);
# prints the medians, our / peer ratios (of the medians, and the range of the
# per-round ratios), the kernel tier and the CPU model. Without the peer
# program only our figures are printed (with a note). A benchmark: run it
# under the shared lock, on an otherwise idle machine:
#   flock /tmp/dfcp-heavy.lock scripts/bench-codec-peers.sh [SECONDS] [ROUNDS]
# Environment: BENCH (default build/app/dfcp-bench/dfcp-bench), PEER (the
# peer program), KS (default "47 1000 10000"), RQ_ISA (our kernel tier).
set -eu
cd "$(dirname "$0")/.."
SECONDS_PER=${1:-1}
ROUNDS=${2:-3}
BENCH=${BENCH:-build/app/dfcp-bench/dfcp-bench}
PEER=${PEER:-../shared/peers/cberner-raptorq/rq-peer-bench}
KS=${KS:-"47 1000 10000"}
[ -x "$BENCH" ] || { echo "bench-codec-peers: $BENCH not built (make build)" >&2; exit 2; }
export SECONDS_PER ROUNDS BENCH PEER KS
exec python3 - <<'EOF'
import json, os, statistics, subprocess, sys

secs, rounds = os.environ["SECONDS_PER"], int(os.environ["ROUNDS"])
bench, peer = os.environ["BENCH"], os.environ["PEER"]
ks = [int(k) for k in os.environ["KS"].split()]
have_peer = os.access(peer, os.X_OK)


def cpu_model():
    info = {}
    try:
        for line in open("/proc/cpuinfo"):
            k, _, v = line.partition(":")
            info.setdefault(k.strip(), v.strip())
    except OSError:
        return "unknown CPU"
    return (f"{info.get('model name', 'unknown CPU')} (family {info.get('cpu family', '?')} "
            f"model {info.get('model', '?')})")


def load():
    return open("/proc/loadavg").read().split()[0]


def run_json(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"bench-codec-peers: {' '.join(cmd)}: exit {p.returncode}: {p.stderr.strip()}")
    return [json.loads(l) for l in p.stdout.splitlines() if l.startswith("{")]


flags = open("/proc/cpuinfo").read()
feats = [f for f in ("avx2", "avx512f", "avx512bw", "gfni") if f" {f}" in flags]
load0 = load()
print(f"CPU: {cpu_model()} ({', '.join(feats) or 'no AVX2'}), {os.cpu_count()} CPUs; "
      f"load average at start {load0}")
if not have_peer:
    print(f"note: {peer} not found: the peer is skipped, only our figures are printed")
# fig[(impl, K)] = list of (encode, decode) per round
fig, isa = {}, "?"
for k in ks:
    for r in range(rounds):
        for row in run_json([bench, "codec", "--k", str(k), "--symbol-size", "1420",
                             "--seconds", secs, "--json"]):
            if row["impl"].startswith("dfcp-rq"):
                isa = row.get("isa", isa)
                fig.setdefault((row["impl"], k), []).append(
                    (row["encode_gbps"], row["decode_gbps"]))
        if have_peer:
            row = run_json([peer, str(k), "1420", secs, "0.1"])[0]
            fig.setdefault(("peer", k), []).append((row["encode_gbps"], row["decode_gbps"]))
print(f"kernel tier {isa}; T = 1420, 10 % loss, one core, Gbit/s of source data, "
      f"median of {rounds} alternating rounds of {secs} s each; load average at end {load()}")
hdr = f"{'K':>6} {'API':<10} {'encode':>8} {'decode':>8}"
if have_peer:
    hdr += f" {'peer enc':>8} {'peer dec':>8} {'enc ratio':>18} {'dec ratio':>18}"
print(hdr)


def med(vals, i):
    return statistics.median(v[i] for v in vals)


for k in ks:
    for impl, api in (("dfcp-rq-copy", "copy"), ("dfcp-rq", "zero-copy")):
        ours = fig[(impl, k)]
        line = f"{k:>6} {api:<10} {med(ours, 0):8.2f} {med(ours, 1):8.2f}"
        if have_peer:
            pv = fig[("peer", k)]
            line += (f" {med(pv, 0):8.2f} {med(pv, 1):8.2f}" if api == "copy"
                     else f" {'':8} {'':8}")
            for i in (0, 1):
                per = sorted(o[i] / p[i] for o, p in zip(ours, pv))
                line += f" {med(ours, i) / med(pv, i):6.2f}x ({per[0]:.2f}-{per[-1]:.2f})"
        print(line)
    zc, cp = fig[("dfcp-rq", k)], fig[("dfcp-rq-copy", k)]
    print(f"{'':>6} zero-copy / copy: encode {med(zc, 0) / med(cp, 0):.2f}x, "
          f"decode {med(zc, 1) / med(cp, 1):.2f}x")
EOF
