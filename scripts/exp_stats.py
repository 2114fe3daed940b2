# SPDX-License-Identifier: BSD-3-Clause
"""Repeated runs of scripts/experiments.py (issue #34): the lock that keeps two
experiment runs apart, the machine's load per run, medians with their spread, and
the DFCP authors' headline ratios.

Load. Each run records the 1-minute load average at its start (`load1`) and the CPUs
other processes used while it ran (`others_cpu`: /proc/stat's user + nice + system
time over the run minus this script's and its children's own, per wall second; the
kernel's softirq work, where veth traffic is processed, is left out), and the steal
time of the VM (`steal_pct`, % of all CPU time). The load average counts this sweep's
own busy-polling engine and iperf3s, so it is recorded, not judged: a run is `busy`
when others_cpu exceeds --max-load. --wait-quiet S waits, before each run, up to S
seconds for a 2 s probe with others_cpu at or below the limit.

Medians. Every run is a row (CSV, results.json); median_rows() folds the runs of a
point (scenario, x, delay, variant, flow) into one row: every number its median, the
goodput and Jain index with their min and max, the runs, and how many were busy.
"""
import fcntl
import os
import resource
import statistics
import sys
import time

LOCK = "/tmp/dfcp-experiments.lock"
MAX_LOAD_PER_CPU = 0.25

# The DFCP authors' stated goodput ratios (DFCP / TCP) on their testbed, by
# (tcp variant, loss %): (text, lower bound or None)
AUTHORS = {("reno", 1): "~4x", ("cubic", 1): "~8x", ("reno", 10): ">250x",
           ("cubic", 10): ">250x"}
RATIO_TCPS = ("reno", "cubic", "bbr")
RATIO_SCENARIOS = ("loss", "ratios")

# keys that are not medians: they name the point or are per-run facts
POINT_KEYS = ("scenario", "x", "delay_ms", "variant", "flow")
RUN_KEYS = ("run", "load1", "others_cpu", "steal_pct", "busy")


def take_lock(path=LOCK, wait=True, log=print):
    """An exclusive flock on path (kept for the process's life: the returned fd). A
    second experiment run waits for the first (or exits, wait=False). The file names
    its holder."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.pread(fd, 300, 0).decode(errors="replace").strip() or "?"
        if not wait:
            os.close(fd)
            raise SystemExit(f"another experiment run holds {path}: {holder}")
        log(f"# waiting for {path} (held by {holder})")
        fcntl.flock(fd, fcntl.LOCK_EX)
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"pid {os.getpid()}: {' '.join(sys.argv)}\n".encode(), 0)
    return fd


def _proc_stat():
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    v += [0] * (8 - len(v))
    # user nice system idle iowait irq softirq steal
    return {"busy": v[0] + v[1] + v[2], "steal": v[7], "all": sum(v[:8])}


def _own_cpu_s():
    s, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return s.ru_utime + s.ru_stime + c.ru_utime + c.ru_stime


class CpuMeter:
    """The machine's load over an interval: start() ... stop() -> dict of the run
    keys (load1, others_cpu, steal_pct). Children must have been waited for."""

    HZ = os.sysconf("SC_CLK_TCK")

    def start(self):
        self.t0 = time.monotonic()
        self.s0 = _proc_stat()
        self.o0 = _own_cpu_s()
        self.load1 = os.getloadavg()[0]
        return self

    def stop(self):
        wall = max(time.monotonic() - self.t0, 1e-3)
        s1 = _proc_stat()
        busy = (s1["busy"] - self.s0["busy"]) / self.HZ
        own = _own_cpu_s() - self.o0
        tot = s1["all"] - self.s0["all"]
        return {"load1": round(self.load1, 2),
                "others_cpu": round(max(0.0, (busy - own) / wall), 3),
                "steal_pct": round(100 * (s1["steal"] - self.s0["steal"]) / tot, 1) if tot else 0.0}


def default_max_load():
    return round(MAX_LOAD_PER_CPU * (os.cpu_count() or 1), 2)


def wait_quiet(max_load, secs, log, probe_s=2.0):
    """Probe others_cpu every probe_s until it is <= max_load or secs have passed.
    Returns the last probe's others_cpu."""
    t_end = time.monotonic() + secs
    waited = False
    while True:
        m = CpuMeter().start()
        time.sleep(probe_s)
        got = m.stop()["others_cpu"]
        if got <= max_load or time.monotonic() >= t_end:
            if waited:
                log(f"\n# {'quiet' if got <= max_load else 'still busy'} after waiting: others "
                    f"use {got:.2f} CPUs (limit {max_load:g})")
            return got
        if not waited:
            log(f"\n# others use {got:.2f} CPUs (limit {max_load:g}): waiting up to {secs:g} s")
            waited = True


def point_key(r):
    return tuple(r.get(k) for k in POINT_KEYS)


def _num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def median_rows(rows):
    """One row per point: every numeric field its median over the point's runs (None
    values left out), goodput_min/max and jain_min/max, runs, busy_runs, load1_max and
    others_cpu_max. Rows keep their first-seen order."""
    groups = {}
    for r in rows:
        groups.setdefault(point_key(r), []).append(r)
    out = []
    for rs in groups.values():
        m = {k: v for k, v in rs[0].items() if k not in RUN_KEYS}
        for k in {k for r in rs for k in r} - set(POINT_KEYS) - set(RUN_KEYS):
            vals = [r.get(k) for r in rs if _num(r.get(k))]
            if vals and all(_num(r.get(k)) or r.get(k) is None for r in rs):
                m[k] = statistics.median(vals)
        for k in ("goodput_mbps", "jain"):
            vals = [r[k] for r in rs if _num(r.get(k))]
            if vals:
                m[k + "_min"], m[k + "_max"] = min(vals), max(vals)
        m["runs"] = len(rs)
        m["busy_runs"] = sum(1 for r in rs if r.get("busy"))
        for k in ("load1", "others_cpu"):
            vals = [r[k] for r in rs if _num(r.get(k))]
            m[k + "_max"] = max(vals) if vals else None
        out.append(m)
    return out


def spread(r, key="goodput_mbps", nd=1):
    """'912.3 (905.1–915.0)' for a median row of several runs, '912.3' for one; a
    dagger when a run of the point was busy."""
    v = r.get(key)
    if v is None:
        return "–"
    s = f"{v:.{nd}f}"
    lo, hi = r.get(key + "_min"), r.get(key + "_max")
    if r.get("runs", 1) > 1 and lo is not None and hi is not None:
        s += f" ({lo:.{nd}f}–{hi:.{nd}f})"
    if r.get("busy_runs"):
        s += " †"
    return s


def _norm(r):
    """Goodput as a fraction of the row's 1 Gbit/s link at its scale."""
    return r["goodput_mbps"] / (1000 * (r.get("scale") or 1))


def ratios(med):
    """The headline ratios of median rows: [(scenario, delay_ms, loss %, tcp, ratio,
    dfcp row, tcp row, authors' text)]. When DFCP and TCP ran at different scales the
    ratio is of their goodputs as fractions of their links."""
    out = []
    for d in med:
        if d["scenario"] not in RATIO_SCENARIOS or d["variant"] != "dfcp-ours":
            continue
        for t in med:
            if (t["scenario"], t["x"], t.get("delay_ms")) != (d["scenario"], d["x"],
                                                              d.get("delay_ms")):
                continue
            if t["variant"] not in RATIO_TCPS:
                continue
            if not t.get("goodput_mbps"):
                ratio = float("inf")
            else:
                ratio = _norm(d) / _norm(t)
            out.append((d["scenario"], d.get("delay_ms") or 0, d["x"], t["variant"], ratio, d, t,
                        AUTHORS.get((t["variant"], d["x"]), "–")))
    return sorted(out, key=lambda o: (o[0], o[1], o[2], RATIO_TCPS.index(o[3])))


def ratio_lines(med):
    """Markdown table of ratios(med), or [] without them."""
    rs = ratios(med)
    if not rs:
        return []
    lines = ["| loss | delay (one-way) | DFCP ours (Mbit/s) | TCP | TCP (Mbit/s) | "
             "DFCP / TCP | authors |", "|---:|---:|---:|---|---:|---:|---|"]
    for s, delay, x, tcp, ratio, d, t, auth in rs:
        rt = "∞" if ratio == float("inf") else f"{ratio:.2f}x" if ratio < 10 else f"{ratio:.0f}x"
        sc = "" if d.get("scale") == t.get("scale") else f" (scale {t.get('scale'):g})"
        lines.append(f"| {x} % | {delay} ms | {spread(d)} | {tcp}{sc} | {spread(t, nd=2)} | "
                     f"{rt} | {auth} |")
    if any(d.get("scale") != t.get("scale") for _, _, _, _, _, d, t, _ in rs):
        lines.append("\nWhere TCP ran at another scale, DFCP / TCP is the ratio of their "
                     "goodputs as fractions of their own links (1 Gbit/s x scale).")
    return lines
