#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""tools/plot: from a small time-series CSV (3 flows, and 14 flows for
--top) and from summary JSON files, the PNG and SVG files are produced and
are real images. Exit 77 (skipped) without gnuplot.

usage: test_plot.py TOOLS/PLOT WORKDIR
"""
import json
import os
import shutil
import subprocess
import sys


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def run(plot, args, want):
    r = subprocess.run([sys.executable, plot] + args, capture_output=True, text=True,
                       timeout=120)
    if r.returncode != 0:
        fail("plot %s: rc %d\n%s%s" % (" ".join(args), r.returncode, r.stdout, r.stderr))
    printed = r.stdout.split()
    for f in want:
        if f not in printed:
            fail("plot %s: %s not reported (%s)" % (" ".join(args), f, printed))
        if not os.path.isfile(f) or os.path.getsize(f) < 200:
            fail("%s missing or too small" % f)
        with open(f, "rb") as fp:
            head = fp.read(4096)
        if f.endswith(".png") and not head.startswith(b"\x89PNG\r\n\x1a\n"):
            fail("%s is not a PNG" % f)
        if f.endswith(".svg") and b"<svg" not in head:
            fail("%s is not an SVG" % f)
    print("ok: plot %s -> %d files" % (" ".join(os.path.basename(a) for a in args), len(want)))


def write_csv(path, nflows, periods=20, blank_window=False):
    with open(path, "w") as fp:
        fp.write("time_s,flow,goodput_mbps,throughput_mbps,window,redundancy,loss\n")
        for p in range(1, periods + 1):
            t = p * 0.5
            for i in range(nflows):
                gp = 400.0 / (i + 1) + (p % 3) * 5
                win = "" if blank_window and i == 0 else str(20 + (p * (i + 3)) % 60)
                fp.write("%.1f,flow%d,%.3f,%.3f,%s,%d,%.4f\n" %
                         (t, i, gp, gp * 1.1, win, 49 + i, 0.01 * i))


def check_roles(plot, work):
    """'total' adds one role: a sender and its receiver are one transfer."""
    from importlib.machinery import SourceFileLoader
    mod = SourceFileLoader("dfcp_plot", plot).load_module()
    rows = []
    for t in (0.5, 1.0):
        rows += [{"time_s": t, "flow": "s1", "goodput_mbps": 400, "role": "sender"},
                 {"time_s": t, "flow": "r1", "goodput_mbps": 410, "role": "receiver"},
                 {"time_s": t, "flow": "s2", "goodput_mbps": 300, "role": "sender"},
                 {"time_s": t, "flow": "r2", "goodput_mbps": 310, "role": "receiver"}]
    lines = mod.top_flows(mod.series(rows), 10, True, mod.roles(rows))
    tot = [l for l in lines if l[0].startswith("total")]
    if len(tot) != 1 or tot[0][0] != "total (receivers)" or \
            [p[1]["goodput_mbps"] for p in tot[0][1]] != [720.0, 720.0]:
        fail("total of 2 transfers: %s" % [(l[0], l[1]) for l in tot])
    only_s = [r for r in rows if r["role"] == "sender"]
    lines = mod.top_flows(mod.series(only_s), 10, True, mod.roles(only_s))
    if [l[0] for l in lines if l[0].startswith("total")] != ["total (senders)"]:
        fail("senders only: no 'total (senders)'")
    styles = {mod.line_style(i) for i in range(48)}
    if len(styles) != 48:
        fail("line styles repeat within 48 lines")
    # a txonly summary (no flows): the ports' bit rates
    path = os.path.join(work, "txonly.json")
    with open(path, "w") as fp:
        json.dump({"flows": [], "tasks": [{"name": "tx0", "kind": "txonly"}], "ports": [
            {"name": "p0", "rx_mbps": 0.0, "tx_mbps": 5721.2},
            {"name": "p1", "rx_mbps": 5721.2, "tx_mbps": 0.0}]}, fp)
    out = os.path.join(work, "txonly")
    run(plot, [path, "--out", out], [out + "-ports.png", out + "-ports.svg"])


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    plot, work = sys.argv[1:]
    if shutil.which("gnuplot") is None:
        print("gnuplot not installed: skipped")
        return 77
    if os.path.isdir(work):
        shutil.rmtree(work)
    os.makedirs(work)

    check_roles(plot, work)
    csv3 = os.path.join(work, "ts3.csv")
    write_csv(csv3, 3, blank_window=True)
    out = os.path.join(work, "ts3")
    run(plot, ["--timeseries", csv3, "--out", out, "--title", "test run", "--throughput"],
        [out + "-goodput.png", out + "-goodput.svg", out + "-window.png",
         out + "-window.svg"])

    csv14 = os.path.join(work, "ts14.csv")
    write_csv(csv14, 14)
    out = os.path.join(work, "ts14")
    run(plot, ["--timeseries", csv14, "--out", out, "--top", "4", "--format", "svg"],
        [out + "-goodput.svg", out + "-window.svg"])
    with open(out + "-goodput.svg") as fp:
        svg = fp.read()
    if "others (10 flows)" not in svg or "total" not in svg or "flow13" in svg:
        fail("--top 4: expected 4 flows, 'others (10 flows)' and 'total' in the legend")

    runs = []
    for k in range(2):
        path = os.path.join(work, "run%d.json" % k)
        with open(path, "w") as fp:
            json.dump({"config": "x.ini", "duration_s": 2.0, "flows": [
                {"name": "f%d" % i, "goodput_mbps": 400.0 - 50 * i + k,
                 "throughput_mbps": 450.0 - 50 * i, "window": 128, "window_used": 40 + i}
                for i in range(3)]}, fp)
        runs.append(path)
    out = os.path.join(work, "sum")
    run(plot, runs + ["--out", out],
        [out + "-goodput.png", out + "-goodput.svg", out + "-window.png",
         out + "-window.svg"])

    # a summary carrying a time series
    path = os.path.join(work, "withts.json")
    with open(path, "w") as fp:
        json.dump({"flows": [], "timeseries": [
            {"time_s": t, "flow": "a", "goodput_mbps": 10 * t, "window": 5}
            for t in range(1, 6)]}, fp)
    run(plot, [path, "--format", "png"],
        [os.path.join(work, "withts-goodput.png"), os.path.join(work, "withts-window.png")])

    # a CSV without the required columns is an error, not a crash
    bad = os.path.join(work, "bad.csv")
    with open(bad, "w") as fp:
        fp.write("t,name\n1,a\n")
    r = subprocess.run([sys.executable, plot, "--timeseries", bad], capture_output=True,
                       text=True)
    if r.returncode != 1 or "missing column" not in r.stderr:
        fail("bad CSV: rc %d: %s" % (r.returncode, r.stderr))
    print("plot: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
