#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Smoke test of `dfcp-bench codec` and `xor` (the benchmark program, not its speed):
every path runs, both APIs verify the decoded block (the program exits 1
when a decode differs from the source), the JSON carries the documented keys,
and bad arguments exit 2 with a message."""
import json
import os
import subprocess
import sys

bench = sys.argv[1]
fails = 0


def check(cond, what):
    global fails
    if not cond:
        print("FAIL:", what)
        fails += 1


def run(*args, isa=None):
    env = dict(os.environ)
    env.pop("RQ_ISA", None)
    if isa is not None:
        env["RQ_ISA"] = isa
    if "lcrq" in args:
        # liblcrq 0.0.1 leaks its matrices on every rq_encode (under ASan)
        env["ASAN_OPTIONS"] = env.get("ASAN_OPTIONS", "") + ":detect_leaks=0"
    return subprocess.run([bench, "codec", *args], capture_output=True, text=True, timeout=120,
                          env=env)


KEYS = {"impl", "k", "t", "encode_gbps", "decode_gbps"}
OURS_KEYS = KEYS | {"isa"}
TIERS = ("generic", "sse", "avx2", "avx512", "avx512-gfni")
# K = 47: generator path; 600: residual decoder; 700 at 30 % loss: plan decoder
for k, t, loss, extra in ((47, 1420, 10, ["--peer", "lcrq"]), (600, 64, 5, []),
                          (700, 32, 30, []), (47, 100, 10, ["--path", "plan"])):
    p = run("--k", str(k), "--symbol-size", str(t), "--loss", str(loss), "--seconds", "0.05",
            "--json", *extra)
    check(p.returncode == 0, f"K={k}: exit {p.returncode}: {p.stderr.strip()}")
    rows = [json.loads(l) for l in p.stdout.splitlines() if l.strip()]
    impls = [r.get("impl") for r in rows]
    check("dfcp-rq" in impls and "dfcp-rq-copy" in impls, f"K={k}: both APIs measured: {impls}")
    for r in rows:
        check(KEYS <= set(r), f"K={k}: keys of {r}")
        if r.get("impl", "").startswith("dfcp-rq"):
            check(OURS_KEYS <= set(r) and r["isa"] in TIERS, f"K={k}: isa in {r}")
            check(r["k"] == k and r["t"] == t, f"K={k}: k/t echoed: {r}")
            check(r["encode_gbps"] > 0 and r["decode_gbps"] > 0, f"K={k}: rates: {r}")
    if "--peer" in extra and "lcrq" in impls:
        check("ratio" in impls, f"K={k}: lcrq ratio reported")

for args, msg in ((["--api", "foo"], "--api"), (["--k", "0"], "--k: '0'"),
                  (["--path", "x"], "--path"), (["--peer", "x"], "peer")):
    p = run(*args)
    check(p.returncode == 2 and msg in p.stderr, f"{args}: exit {p.returncode} {p.stderr!r}")

# RQ_ISA: the plain tier runs anywhere and is reported; an unknown name is
# refused; the top tier either runs (and is reported) or is refused with what
# the CPU lacks
p = run("--k", "300", "--symbol-size", "64", "--seconds", "0.02", "--json", isa="generic")
rows = [json.loads(l) for l in p.stdout.splitlines() if l.strip()] if p.returncode == 0 else []
check(p.returncode == 0 and rows and all(r["isa"] == "generic" for r in rows),
      f"RQ_ISA=generic: exit {p.returncode} {rows} {p.stderr.strip()}")
p = run("--k", "10", isa="avx3")
check(p.returncode == 2 and "RQ_ISA=avx3: unknown tier" in p.stderr, f"RQ_ISA=avx3: {p.stderr!r}")
p = run("--k", "10", "--symbol-size", "64", "--seconds", "0.02", "--json", isa="avx512-gfni")
if p.returncode == 0:
    check(all(json.loads(l)["isa"] == "avx512-gfni" for l in p.stdout.splitlines() if l.strip()),
          f"RQ_ISA=avx512-gfni: {p.stdout!r}")
else:
    check(p.returncode == 2 and "this CPU lacks" in p.stderr and "it runs generic" in p.stderr,
          f"RQ_ISA=avx512-gfni refused: exit {p.returncode} {p.stderr!r}")

# the replay's inner loop alone: runs, reports a rate, rejects a bad geometry
p = subprocess.run([bench, "xor", "--slots", "300", "--stripe", "256", "--ops", "200", "--json"],
                   capture_output=True, text=True, timeout=120)
check(p.returncode == 0, f"xor: exit {p.returncode}: {p.stderr.strip()}")
if p.returncode == 0:
    r = json.loads(p.stdout)
    check(r["gbytes_per_s"] > 0 and r["stride"] == 1420, f"xor: {r}")
p = subprocess.run([bench, "xor", "--stride", "100"], capture_output=True, text=True, timeout=60)
check(p.returncode == 2 and "usage" in p.stderr, f"xor --stride < T: exit {p.returncode}")

print("bench smoke:", "ok" if fails == 0 else f"{fails} failures")
sys.exit(1 if fails else 0)
