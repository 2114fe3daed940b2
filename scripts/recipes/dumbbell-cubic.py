#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Recipe: the thesis's dumbbell (two flows, one WF2Q+ 50/50 bottleneck, flow 1 at 10 ms, flow 2
at X ms one way) run three ways through the engine's router, and the per-flow goodput and
Jain's index side by side (doc/recipes.md):
  dfcp   two DFCP flows (dfcp-ours: coding on, redundancy and window auto), net_ring ports;
  cubic  two kernel TCP CUBIC flows (iperf3 -C cubic) between two network namespaces, the
         router in a third on af_packet veths;
  mixed  one CUBIC flow and one DFCP flow on the same bottleneck at once.
It runs scripts/experiments.py (scenarios dumbbell and mixed, configs/exp-dumbbell.ini) and
reads its results.json.

usage: dumbbell-cubic.py [--points LIST] [--duration S] [--scale F] [--tcp-scale auto|F]
                         [--queue N] [--out DIR] [--engine PATH] [--quick]
Defaults: X = 10,50,100 ms, 10 s per run, every link at 0.1 x the thesis's (a 100 Mbit/s
bottleneck, which kernel TCP through af_packet veths carries on 2 CPUs; --tcp-scale auto
measures the kernel path first). --quick: X = 50 ms, 2 s runs, 50 Mbit/s links with a
5-packet queue (scale 0.05; the make test case, under 25 s). Exit 0 when every run gave each
flow a goodput above zero, 1 otherwise, 77 when kernel TCP could not run (no root, iperf3 or
namespaces; the DFCP rows are still printed).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import recipe  # noqa: E402

WANT = [("dumbbell", "dfcp-ours", "f1"), ("dumbbell", "dfcp-ours", "f2"),
        ("dumbbell", "cubic", "f1"), ("dumbbell", "cubic", "f2"),
        ("mixed", "wf2q+", "cubic"), ("mixed", "wf2q+", "dfcp-ours")]
LABEL = {("dumbbell", "dfcp-ours"): "dfcp", ("dumbbell", "cubic"): "cubic",
         ("mixed", "wf2q+"): "mixed"}


def table(res):
    rows = res["rows"]
    print(f"\n{'X ms':>5} {'run':<6} {'flow':<10} {'one-way ms':>10} {'link Mbit/s':>11} "
          f"{'goodput Mbit/s':>14} {'Jain':>6}")
    for x in sorted({r["x"] for r in rows}):
        for (scen, var), lab in LABEL.items():
            for r in rows:
                if (r["scenario"], r["variant"], r["x"]) != (scen, var, x):
                    continue
                d = {"f1": 10, "f2": x}.get(r["flow"], x)
                print(f"{x:>5} {lab:<6} {r['flow']:<10} {d:>10} {r['link_mbps']:>11.1f} "
                      f"{r['goodput_mbps']:>14.2f} {r.get('jain', 0):>6.3f}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--points", default="10,50,100", help="flow 2's one-way delays, ms")
    ap.add_argument("--duration", type=int, default=10, help="seconds per run (10)")
    ap.add_argument("--scale", default="0.1",
                    help="DFCP link rates x this (0.1: 100 Mbit/s; 1: the thesis's 1 Gbit/s)")
    ap.add_argument("--tcp-scale", default="0.1",
                    help="kernel TCP's (0.1; auto: the highest the kernel path carries)")
    ap.add_argument("--queue", type=int, help="packets per queue (the templates' 100)")
    ap.add_argument("--out", help="experiments.py's folder (kept; default: a temporary one)")
    ap.add_argument("--engine", help="dfcp-engine (default: build/ of the source tree)")
    ap.add_argument("--quick", action="store_true", help="the make test case (< 25 s)")
    a = ap.parse_args()
    if a.quick:
        a.points, a.duration, a.scale, a.tcp_scale, a.queue = "50", 2, "0.05", "0.05", 5
    eng = recipe.engine_path(a.engine)
    recipe.header("recipe: the dumbbell with DFCP, kernel CUBIC and both at once")
    with tempfile.TemporaryDirectory(prefix="recipe-db-") as tmp:
        out = os.path.abspath(a.out) if a.out else tmp
        cmd = [sys.executable, os.path.join(recipe.SRC, "scripts", "experiments.py"),
               "--scenario", "dumbbell,mixed", "--variants", "dfcp-ours,cubic,wf2q+",
               "--points", a.points, "--duration", str(a.duration), "--tcp-duration",
               str(a.duration), "--scale", a.scale, "--tcp-scale", a.tcp_scale, "--out", out,
               "--engine", eng] + (["--queue", str(a.queue)] if a.queue else []) + \
            (["--no-plots", "--runs", "1"] if a.quick else [])
        recipe.show(cmd)
        p = subprocess.run(cmd, timeout=3600)
        if p.returncode != 0:
            recipe.fail(f"experiments.py exited {p.returncode}")
        with open(os.path.join(out, "results.json")) as f:
            res = json.load(f)
    table(res)
    print(f"(DFCP at scale {res['scale']}, kernel TCP at {res['tcp_scale']}; runs, configs "
          f"and logs in {out if a.out else 'a temporary folder: give --out to keep them'})")
    if res.get("tcp_skipped"):
        recipe.skip(f"kernel TCP runs skipped: {res['tcp_skipped']}")
    have = {(r["scenario"], r["variant"], r["flow"], r["x"]): r["goodput_mbps"]
            for r in res["rows"]}
    for x in a.points.split(","):
        for s, v, fl in WANT:
            g = have.get((s, v, fl, float(x) if "." in x else int(x)))
            if not g or g <= 0:
                recipe.fail(f"{s} {v} flow {fl} at {x} ms: goodput {g}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
