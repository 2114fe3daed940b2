#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""scripts/exp_stats.py (issue #34): medians of repeated runs with their spread, the
headline ratios at differing scales, the run lock, and the checks experiments.py
draws from medians. stats_test.py SOURCE_ROOT; no engine, no root."""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(sys.argv[1] if len(sys.argv) > 1 else ".", "scripts"))
import exp_stats  # noqa: E402
import experiments  # noqa: E402

FAILS = []


def expect(cond, what):
    if not cond:
        FAILS.append(what)
        print("FAIL", what)


def row(s, x, v, g, run, flow="f1", scale=1.0, busy=0, delay=0, jain=None):
    return {"scenario": s, "x": x, "variant": v, "flow": flow, "goodput_mbps": g,
            "scale": scale, "run": run, "busy": busy, "load1": 1.0 + run,
            "others_cpu": 0.1, "delay_ms": delay, "jain": jain, "sched": "wf2q+"}


def test_medians():
    rows = [row("loss", 10, "dfcp-ours", g, i, busy=(i == 2)) for i, g in
            enumerate([800.0, 900.0, 700.0])]
    rows += [row("loss", 10, "dfcp-ours", 500.0, 0, delay=50)]
    med = exp_stats.median_rows(rows)
    expect(len(med) == 2, f"two points (delay 0 and 50 ms), got {len(med)}")
    m = med[0]
    expect(m["goodput_mbps"] == 800.0, f"median 800, got {m['goodput_mbps']}")
    expect((m["goodput_mbps_min"], m["goodput_mbps_max"]) == (700.0, 900.0), "min-max")
    expect(m["runs"] == 3 and m["busy_runs"] == 1, "runs 3, one busy")
    expect(m["load1_max"] == 3.0, f"load1_max 3, got {m['load1_max']}")
    expect(m["sched"] == "wf2q+" and "run" not in m, "strings kept, run index dropped")
    expect(exp_stats.spread(m) == "800.0 (700.0–900.0) †", f"spread: {exp_stats.spread(m)}")
    expect(exp_stats.spread(med[1]) == "500.0", f"one run, no spread: {exp_stats.spread(med[1])}")


def test_ratios():
    # DFCP at scale 1, CUBIC at scale 0.5: the ratio is of fractions of each link
    med = exp_stats.median_rows([row("loss", 1, "dfcp-ours", 900.0, 0),
                                 row("loss", 1, "cubic", 100.0, 0, scale=0.5),
                                 row("loss", 1, "bbr", 0.0, 0),
                                 row("loss", 1, "reno", 100.0, 0, delay=50)])
    rs = {o[3]: o for o in exp_stats.ratios(med)}
    expect(set(rs) == {"cubic", "bbr"}, f"reno at another delay is not paired: {set(rs)}")
    expect(abs(rs["cubic"][4] - 4.5) < 1e-9, f"0.9 / 0.2 = 4.5, got {rs['cubic'][4]}")
    expect(rs["cubic"][7] == "~8x" and rs["bbr"][7] == "–", "authors' ratios")
    expect(rs["bbr"][4] == float("inf"), "a zero TCP goodput gives an infinite ratio")
    lines = exp_stats.ratio_lines(med)
    expect(len(lines) == 5 and "4.50x" in lines[2] and "(scale 0.5)" in lines[2],
           f"ratio table: {lines}")


def test_checks():
    # CUBIC at 10 %: 0.25 x DFCP is not far below (< 0.2x), 0.1 x is; BBR is never checked
    def run(cubic):
        med = exp_stats.median_rows([row("loss", 10, "dfcp-ours", 800.0, 0),
                                     row("loss", 10, "cubic", cubic, 0),
                                     row("loss", 10, "bbr", 790.0, 0)])
        return {n: ok for n, ok, _ in experiments.checks(med)}
    c = run(200.0)
    expect(c.get("loss 10%: cubic far below DFCP (< 0.2x)") is False, f"0.25x fails: {c}")
    expect(c.get("loss 10%: DFCP ours >= 765.0 Mbit/s") is True, "DFCP bound")
    expect(not any("bbr" in n for n in c), "no BBR assertion")
    c = run(80.0)
    expect(c.get("loss 10%: cubic far below DFCP (< 0.2x)") is True, f"0.1x holds: {c}")


def test_lock():
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "lock")
        fd = exp_stats.take_lock(path, log=lambda m: None)
        # another process cannot take it while this one holds it
        code = ("import sys; sys.path.insert(0, sys.argv[1]); import exp_stats\n"
                "exp_stats.take_lock(sys.argv[2], wait=False)")
        scripts = os.path.dirname(exp_stats.__file__)
        p = subprocess.run([sys.executable, "-c", code, scripts, path], capture_output=True,
                           text=True)
        expect(p.returncode != 0 and "holds" in p.stderr + p.stdout,
               f"second holder refused: rc {p.returncode} {p.stderr[-200:]}")
        os.close(fd)
        p = subprocess.run([sys.executable, "-c", code, scripts, path], capture_output=True)
        expect(p.returncode == 0, "free again once released")


def test_meter():
    m = exp_stats.CpuMeter().start()
    # a child's CPU time is ours, not others'
    subprocess.run([sys.executable, "-c", "import time\nt=time.process_time()\n"
                    "while time.process_time() - t < 0.3: pass"])
    got = m.stop()
    expect(set(got) == {"load1", "others_cpu", "steal_pct"}, f"keys {got}")
    expect(got["others_cpu"] >= 0 and 0 <= got["steal_pct"] <= 100, f"ranges {got}")


def main():
    for t in (test_medians, test_ratios, test_checks, test_lock, test_meter):
        t()
    print("FAIL" if FAILS else "PASS", f"{len(FAILS)} failure(s)")
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
