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
