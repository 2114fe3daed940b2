# SPDX-License-Identifier: BSD-3-Clause
"""Command-line conventions of the three programs (issue 19).

usage: cli_test.py CASE ENGINE SOURCE_ROOT RQ BENCH
  help         --help/--version of dfcp-engine, dfcp-rq (each command) and dfcp-bench
               (each mode): exit 0, text on stdout, nothing on stderr; a bad value or
               argument exits non-zero naming it on stderr (no EAL: unit suite)
  eal-merge    `ENGINE --file-prefix X -m 512 -- --config configs/txonly.ini` runs: the
               command line adds to / overrides the config's [eal] key by key
  two-engines  two engines on one shipped config at once: both exit 0, each prints its
               own derived prefix and its telemetry socket answers with its own pid;
               the runtime directories are gone afterwards
  pace-tel     /dfcp/pace of a running engine holds the paced txonly task's record
               (obs/ collects it from the kinds' pace_view ops)
"""
import json
import os
import re
import socket
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from enginetest import fail, run  # noqa: E402
import enginetest  # noqa: E402


def expect_ok(cmd, want):
    p = run(cmd, timeout=30)
    if p.returncode != 0:
        fail(f"{cmd}: exit {p.returncode}, want 0")
    if want not in p.stdout:
        fail(f"{cmd}: stdout lacks {want!r}")
    if p.stderr:
        fail(f"{cmd}: stderr not empty: {p.stderr[:200]!r}")


def expect_bad(cmd, rc, names):
    p = run(cmd, timeout=30)
    if p.returncode != rc:
        fail(f"{cmd}: exit {p.returncode}, want {rc}")
    first = p.stderr.splitlines()[0] if p.stderr else ""
    for n in names:
        if n not in first:
            fail(f"{cmd}: first stderr line {first!r} does not name {n!r}")


def case_help(engine, root, rq, bench):
    for h in ("--help", "-h"):
        expect_ok([engine, h], "usage:")
    expect_ok([engine, "--", "--help"], "exit codes")
    expect_ok([engine, "--version"], "dfcp-engine ")
    expect_ok([engine, "-V"], "DPDK")
    expect_ok([rq, "--help"], "exit codes")
    expect_ok([rq, "--version"], "dfcp-rq ")
    for c in ("encode", "decode"):
        expect_ok([rq, c, "--help"], "usage:")
    expect_ok([bench, "--help"], "exit codes")
    expect_ok([bench, "--version"], "dfcp-bench ")
    for m in ("codec", "sched", "xor", "demux"):
        expect_ok([bench, m, "--help"], "usage:")
    expect_bad([bench, "codec", "--k", "abc"], 2, ["--k", "abc"])
    expect_bad([bench, "codec", "--loss", "100"], 2, ["--loss", "100"])
    expect_bad([bench, "sched", "--flows", "12x"], 2, ["--flows", "12x"])
    expect_bad([bench, "xor", "--ops", "-1"], 2, ["--ops", "-1"])
    expect_bad([bench, "demux", "--flows", "0"], 2, ["--flows", "0"])
    expect_bad([bench, "codec", "stray"], 2, ["stray"])
    expect_bad([bench, "nosuch"], 2, ["nosuch"])
    expect_bad([rq, "encode", "--symbol-size", "0", "a", "b"], 2, ["--symbol-size", "'0'"])
    expect_bad([rq, "decode", "onlyone"], 2, ["IN OUT"])
    expect_bad([rq, "frobnicate"], 2, ["frobnicate"])
    expect_bad([engine, "--", "--config"], 1, ["config"])
    expect_bad([engine, "--", "--bogus"], 1, ["--bogus"])
    expect_bad([engine, "--", "--config", "x.ini", "stray"], 1, ["stray"])
    txonly = os.path.join(root, "configs", "txonly.ini")
    expect_bad([engine, "--", "--config", txonly, "--live", "fancy"], 1, ["--live", "fancy"])


def case_eal_merge(engine, root, tmp):
    ini = os.path.join(root, "configs", "txonly.ini")
    pfx = f"dfcpcli{os.getpid()}"
    try:
        p = run([engine, "--file-prefix", pfx, "-m", "512", "--", "--config", ini,
                 "--duration", "0.5", "--stats-period", "0"], timeout=60)
    finally:
        enginetest.remove_prefix(pfx)  # only after a failure: the engine removes its own
    if p.returncode != 0:
        fail(f"engine with --file-prefix/-m before -- exited {p.returncode}")
    if f"EAL file prefix {pfx};" not in p.stdout + p.stderr:
        fail("the prefix given on the command line is not the one reported")
    # an option the EAL rejects: the EAL's error, exit 2, not a silently dropped [eal]
    p = run([engine, "--no-such-eal-option", "--", "--config", ini, "--duration", "0.2"],
            timeout=60)
    if p.returncode != 2:
        fail(f"unknown EAL option: exit {p.returncode}, want 2")
    # more lcores than CPUs: EAL fails, and our one line naming the cause comes last
    ncpu = os.cpu_count() or 1
    p = run([engine, "-l", f"0-{ncpu + 3}", "--", "--config", ini, "--duration", "0.2"],
            timeout=60)
    last = (p.stderr.strip().splitlines() or [""])[-1]
    want = f"names CPU {ncpu + 3}, but this machine has {ncpu} CPUs"
    if p.returncode == 0 or not last.startswith("dfcp-engine: EAL failed:") or want not in last:
        fail(f"-l 0-{ncpu + 3}: exit {p.returncode}, last stderr line {last!r}; want our "
             f"'EAL failed' line with {want!r}")


def tel_connect(path, deadline):
    """A connected telemetry socket (its greeting read), retried until deadline."""
    while True:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            s.settimeout(5)
            s.connect(path)
            return s, json.loads(s.recv(16384).decode())
        except (OSError, ValueError):
            s.close()
            if time.time() > deadline:
                fail(f"no telemetry socket {path}")
            time.sleep(0.1)


def telemetry_pid(path, timeout=15.0):
    deadline = time.time() + timeout
    s, info = tel_connect(path, deadline)
    ports = None
    while ports is None and time.time() < deadline:  # registered once the ports are up
        s.send(b"/dfcp/ports")
        ports = json.loads(s.recv(1 << 20).decode())["/dfcp/ports"]
        time.sleep(0.1)
    s.close()
    if not ports:
        fail(f"{path}: /dfcp/ports answered {ports!r}")
    return info["pid"], ports


def case_two_engines(engine, root, tmp):
    ini = os.path.join(root, "configs", "txonly.ini")
    # both busy-poll CPU 1 of this 2-CPU machine: allowed, not detected as a clash
    cmd = [engine, "--", "--config", ini, "--duration", "4", "--stats-period", "1",
           "--allow-shared-cpu"]
    procs = []
    for _ in range(2):
        print("$", " ".join(cmd), flush=True)
        procs.append(subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                      text=True))
    socks = []
    for p in procs:
        for line in p.stdout:
            sys.stdout.write(line)
            m = re.search(r"EAL file prefix (\S+) \(per run.*telemetry: (\S+)", line)
            if m:
                if m.group(1) != f"txonly-{p.pid}":
                    fail(f"prefix {m.group(1)}, want txonly-{p.pid}")
                socks.append(m.group(2))
                break
        else:
            fail(f"engine {p.pid}: no prefix line")
    if socks[0] == socks[1]:
        fail("both engines report the same telemetry socket")
    for p, path in zip(procs, socks):
        pid, ports = telemetry_pid(path)
        print(f"telemetry {path}: pid {pid}, ports {sorted(ports)}")
        if pid != p.pid:
            fail(f"telemetry socket {path} answered for pid {pid}, want {p.pid}")
    for p, path in zip(procs, socks):
        out, _ = p.communicate(timeout=60)
        sys.stdout.write(out[-1500:])
        if p.returncode != 0:
            fail(f"engine {p.pid} exited {p.returncode}")
        if os.path.exists(os.path.dirname(path)):
            fail(f"runtime directory {os.path.dirname(path)} left behind")


def tel_query(path, cmd, timeout=15.0):
    """The reply of telemetry command cmd on socket path (asked again until the engine
    has registered it)."""
    deadline = time.time() + timeout
    s, _ = tel_connect(path, deadline)
    try:
        while True:
            s.send(cmd.encode())
            reply = json.loads(s.recv(1 << 20).decode()).get(cmd)
            if reply or time.time() > deadline:
                break
            time.sleep(0.1)
    finally:
        s.close()
    if not reply:
        fail(f"{path}: no answer to {cmd}")
    return reply


def case_pace_tel(engine, root, tmp):
    """/dfcp/pace (obs/, from the kinds' pace_view ops): a paced txonly task's record."""
    with open(os.path.join(root, "configs", "txonly.ini")) as f:
        text = f.read().replace("# rate = 1Gbit", "rate = 200Mbit")
    ini = os.path.join(tmp, "paced.ini")
    with open(ini, "w") as f:
        f.write(text)
    cmd = [engine, "--", "--config", ini, "--duration", "3", "--stats-period", "0"]
    print("$", " ".join(cmd), flush=True)
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    path = None
    for line in p.stdout:
        sys.stdout.write(line)
        m = re.search(r"telemetry: (\S+)", line)
        if m:
            path = m.group(1)
            break
    if path is None:
        fail("no telemetry line")
    reply = tel_query(path, "/dfcp/pace")
    print("/dfcp/pace:", json.dumps(reply)[:600])
    out, _ = p.communicate(timeout=60)
    sys.stdout.write(out[-1500:])
    if p.returncode != 0:
        fail(f"engine exited {p.returncode}")
    text = json.dumps(reply)
    if "tx0" not in text or "rate_mbps" not in text:
        fail("/dfcp/pace has no record of the paced task tx0")
    if "200" not in text:
        fail("/dfcp/pace does not show the configured 200 Mbit/s")


def main():
    if len(sys.argv) != 6:
        print(__doc__)
        return 2
    case, engine, root, rq, bench = sys.argv[1:]
    if case == "help":
        case_help(engine, root, rq, bench)
    else:
        import tempfile
        with tempfile.TemporaryDirectory(prefix="cli-") as tmp:
            {"eal-merge": case_eal_merge, "two-engines": case_two_engines,
             "pace-tel": case_pace_tel}[case](
                engine, root, tmp)
    print("PASS", case)
    return 0


if __name__ == "__main__":
    sys.exit(main())
