# SPDX-License-Identifier: BSD-3-Clause
"""Rate scales of scripts/experiments.py (issue #16): the kernel path's ceiling, the
TCP scale chosen from it, and merging the results of several runs.

DFCP runs inside one engine process on net_ring ports (--scale, default 1: the
thesis's 1 Gbit/s links). Kernel TCP crosses two veths, two bridges and the engine's
router on net_af_packet, whose ceiling on a small VM is far below 1 Gbit/s; a link
emulated at or near that ceiling measures the host, not the link. --tcp-scale auto
measures the ceiling at the start of the run (iperf3 CUBIC through the router with
no emulation: a_to_b = pass) and runs TCP at the highest scale <= 1 whose 1 Gbit/s
link stays below TCP_CEILING_FRAC of it.

Every row carries the scale it ran at (row["scale"]); results.json keeps the
ceiling measurement(s) (tcp_ceiling) so each table can state its scale.
"""
import json
import os

TCP_CEILING_FRAC = 0.8
# candidate scales, highest first: 1, 0.95 ... 0.1 in steps of 0.05, then 0.05 ... 0.01
SCALES = [round(1 - 0.05 * i, 2) for i in range(19)] + [0.05, 0.02, 0.01]


def pick_tcp_scale(ceiling_mbps, full_mbit=1000, frac=TCP_CEILING_FRAC):
    """The highest scale <= 1 whose full_mbit link is < frac x the ceiling, or the
    smallest candidate when even that is not (the caller says so)."""
    for s in SCALES:
        if full_mbit * s < frac * ceiling_mbps:
            return s
    return SCALES[-1]


def parse_tcp_scale(text):
    """--tcp-scale: 'auto' or a factor in (0, 1]."""
    if text == "auto":
        return "auto"
    try:
        v = float(text)
    except ValueError:
        raise SystemExit(f"--tcp-scale: 'auto' or a number in (0, 1], not {text!r}")
    if not 0 < v <= 1:
        raise SystemExit(f"--tcp-scale: a number in (0, 1], not {text}")
    return v


def measure_ceiling(runner, make_ini, seconds=3, tries=2):
    """Kernel CUBIC through the engine's router with no emulation (both directions
    pass), one flow for `seconds`, best of `tries` (a CPU stall of another job
    lowers a try; the ceiling is what the path can carry). Returns Mbit/s of
    goodput or None without the kernel TCP set-up. make_ini(): a fresh
    configs/exp-single.ini (experiments.Ini)."""
    if not runner.need_net():
        return None
    runner.net.hosts(["10.0.0.1"], ["10.0.1.1"])
    best, runs = 0.0, []
    for i in range(tries):
        ini = make_ini()
        runner.to_tcp(ini)
        ini.drop("pipe link")
        ini.set("task r0", "a_to_b", "pass")
        ini.set("task r0", "b_to_a", "pass")
        _, good = runner.run_tcp(f"ceiling-{i}", ini, [("cubic", "10.0.0.1", "10.0.1.1", 5201)],
                                 seconds)
        runs.append(round(good[0], 1))
        best = max(best, good[0])
    return {"mbps": best, "runs": runs, "seconds": seconds}


def describe(scale, full=1000):
    return f"scale {scale:g} (1 Gbit/s -> {full * scale:g} Mbit/s)"


def merge(path, new):
    """Merge a new results dict into the one at path (if any): rows of the same
    (scenario, x, variant) are replaced, others kept; the ceilings are appended.
    The merged dict keeps the newest run's settings and lists every command."""
    if not os.path.exists(path):
        new["commands"] = [new.get("command", "")]
        return new
    with open(path) as f:
        old = json.load(f)
    def key(r):
        return (r["scenario"], r["x"], r["variant"], r.get("delay_ms"))
    keys = {key(r) for r in new["rows"]}
    kept = [r for r in old.get("rows", []) if key(r) not in keys]
    for r in kept:
        r.setdefault("scale", old.get("scale"))
    out = dict(new)
    out["rows"] = kept + new["rows"]
    out["commands"] = old.get("commands", [old.get("command", "")]) + [new.get("command", "")]
    out["tcp_ceiling"] = (old.get("tcp_ceiling") or []) + (new.get("tcp_ceiling") or [])
    out["elapsed_s"] = old.get("elapsed_s", 0) + new.get("elapsed_s", 0)
    return out


def scales_of(rows):
    """'scale 1, queue 100, access links' or 'scale 0.45, queue 100, access links (cubic,
    reno); scale 1, queue 2000, no access links (dfcp-ours)': the link scales, pipe
    queues (packets) and whether the senders crossed access links (1 Gbit/s x scale)."""
    by = {}
    for r in rows:
        by.setdefault((r.get("scale"), r.get("queue", 100), r.get("access_mbps")),
                      set()).add(r["variant"])

    def one(k):
        s, q, acc = k
        return ((f"scale {s:g}" if s is not None else "scale unknown") + f", queue {q}, "
                + ("access links" if acc else "no access links"))
    if len(by) == 1:
        return one(next(iter(by)))
    return "; ".join(f"{one(k)} ({', '.join(sorted(vs))})"
                     for k, vs in sorted(by.items(), key=lambda kv: (kv[0][0] or 0, kv[0][1],
                                                                      kv[0][2] or 0)))
