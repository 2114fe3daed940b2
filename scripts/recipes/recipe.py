# SPDX-License-Identifier: BSD-3-Clause
"""What the recipe scripts (scripts/recipes/*.py, doc/recipes.md) share: the engine program,
a header naming the machine and the time, commands echoed as a user would type them, and
network namespaces joined by veth pairs that are removed however the script ends (an error,
Ctrl-C, meson's SIGTERM). Engine processes go through test/engine/enginetest.py's kill_engine
(the runtime folder of a killed engine removed too).

Exit codes of the recipes: 0 done and checked, 1 a check failed, 2 usage, 77 skipped (no
root, no iproute2, namespaces not allowed; the reason printed).
"""
import os
import platform
import shlex
import signal
import shutil
import subprocess
import sys
import time

SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(SRC, "test", "engine"))
import enginetest  # noqa: E402

SKIP = enginetest.SKIP


class Term(Exception):
    pass


def _on_term(signum, frame):
    raise Term(f"signal {signum}")


def setup_signals():
    """SIGTERM and SIGINT raise Term, so that `finally` blocks remove the namespaces."""
    signal.signal(signal.SIGTERM, _on_term)
    signal.signal(signal.SIGINT, _on_term)


def engine_path(given):
    if given:
        return given
    for cand in ("build", "build-exp"):
        e = os.path.join(SRC, cand, "app", "dfcp-engine", "dfcp-engine")
        if os.access(e, os.X_OK):
            return e
    return shutil.which("dfcp-engine") or sys.exit("no dfcp-engine: build first (make build) "
                                                   "or give --engine")


def header(title):
    cpu = platform.processor() or "?"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(x.split(":", 1)[1].strip() for x in f if x.startswith("model name"))
    except (OSError, StopIteration):
        pass
    print(f"# {title}")
    print(f"# {cpu}, {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.2f}, "
          f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}", flush=True)


def show(cmd):
    print("$", " ".join(shlex.quote(c) for c in cmd), flush=True)


def quiet(cmd):
    return subprocess.run(cmd, shell=True, capture_output=True, text=True)


def fail(msg):
    print("FAIL:", msg, flush=True)
    sys.exit(1)


def skip(msg):
    print("SKIP:", msg, flush=True)
    sys.exit(SKIP)


class Netns:
    """Namespaces NAME-<tag>-PID joined by veth pairs; down() kills what runs in them and
    removes them (the veths go with them)."""

    def __init__(self, tag):
        self.tag, self.made = tag, []

    def name(self, short):
        return f"dfcp-{self.tag}{short}-{os.getpid()}"

    def up(self, shorts, links):
        """shorts: namespace suffixes; links: (ns_a, dev_a, ns_b, dev_b) veth pairs."""
        if os.geteuid() != 0 or shutil.which("ip") is None:
            skip("needs root and iproute2 (ip netns)")
        for s in shorts:
            ns = self.name(s)
            p = quiet(f"ip netns add {ns}")
            if p.returncode != 0:
                self.down()
                skip(f"cannot create a network namespace: {p.stderr.strip()}")
            self.made.append(ns)
            for c in ("sysctl -qw net.ipv6.conf.all.disable_ipv6=1",
                      "sysctl -qw net.ipv6.conf.default.disable_ipv6=1", "ip link set lo up"):
                quiet(f"ip netns exec {ns} {c}")
        for a, da, b, db in links:
            p = quiet(f"ip -n {self.name(a)} link add {da} type veth peer name {db} "
                      f"netns {self.name(b)}")
            if p.returncode != 0:
                self.down()
                skip(f"cannot create a veth pair: {p.stderr.strip()}")
            for ns, d in ((a, da), (b, db)):
                quiet(f"ip -n {self.name(ns)} link set {d} up")
                quiet(f"ip netns exec {self.name(ns)} ethtool -K {d} tso off gso off gro off")

    def exec(self, short):
        return ["ip", "netns", "exec", self.name(short)]

    def down(self):
        for ns in self.made:
            for pid in quiet(f"ip netns pids {ns}").stdout.split():
                try:
                    os.kill(int(pid), signal.SIGKILL)
                except (OSError, ValueError):
                    pass
            quiet(f"ip netns del {ns}")
        self.made = []


def start_engine(cmd, log, ready="running", timeout=30):
    """Start an engine (cmd echoed), its output to log (a path), and wait for its ready line:
    the Popen; fails naming the log when it ends or does not get there in time."""
    show(cmd)
    lf = open(log, "w")
    p = subprocess.Popen(cmd, stdout=lf, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    deadline = time.time() + timeout
    while time.time() < deadline:
        with open(log) as f:
            if ready in f.read():
                return p
        if p.poll() is not None:
            break
        time.sleep(0.05)
    stop_engine(p)
    with open(log) as f:
        sys.stdout.write(f.read()[-3000:])
    fail(f"the engine did not start ({log})")


def stop_engine(p):
    enginetest.kill_engine(p)


def tail(path, pick=None, n=40):
    """Print the last n lines of path (those containing one of pick, when given)."""
    with open(path) as f:
        lines = f.read().splitlines()
    if pick:
        lines = [x for x in lines if any(k in x for k in pick)]
    for x in lines[-n:]:
        print("  " + x)
