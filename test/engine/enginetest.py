# SPDX-License-Identifier: BSD-3-Clause
"""Helpers shared by the whole-engine test scripts (test/engine/*_test.py) and the
experiment tests (test/experiments/*_test.py): running commands, loading the engine's
summary JSON, failing and skipping, and network-namespace set-up and clean-up.

The scripts import it with the engine test directory on sys.path:
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

SKIP = 77


# Two net_ring wires for a router in the middle: p0 ~ ra (w0) and rb ~ p1 (w1);
# for config templates (a sender on p0, a router task on ra/rb, a receiver on p1).
RING_ROUTER_PORTS = """[port p0]
device = ring:w0
preset = net_ring
[port ra]
device = ring:w0
preset = net_ring
[port rb]
device = ring:w1
preset = net_ring
[port p1]
device = ring:w1
preset = net_ring
"""


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def skip(msg):
    print("SKIP:", msg)
    sys.exit(SKIP)


def run(cmd, timeout=120, out_tail=4000, err_tail=3000):
    """Run cmd, echo it and the tails of its stdout and stderr, return the result."""
    print("$", " ".join(cmd), flush=True)
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    sys.stdout.write(p.stdout[-out_tail:])
    sys.stdout.write(p.stderr[-err_tail:])
    return p


def sh(cmd, check=True):
    print("#", cmd, flush=True)
    return subprocess.run(cmd, shell=True, check=check)


def load(path):
    """The engine's --summary-json output; fails the test when unreadable."""
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        fail(f"summary JSON {path}: {e}")


def write(path, text):
    with open(path, "w") as f:
        f.write(text)
    return path


def case_main(doc, cases, tmp_prefix, setup=None):
    """CASE ENGINE SOURCE_ROOT: run cases[CASE](engine, src, tmp) in a fresh temporary
    directory; usage (exit 2) on a wrong argument count. setup() runs first."""
    if len(sys.argv) != 4:
        print(doc)
        return 2
    case, engine, src = sys.argv[1:]
    if setup is not None:
        setup()
    with tempfile.TemporaryDirectory(prefix=tmp_prefix) as tmp:
        cases[case](engine, src, tmp)
    print("PASS", case)
    return 0


# ---------------------------------------------------------------------------
# network namespaces and veth pairs (the tests need root; they skip without it)

def need_root_ip():
    if os.geteuid() != 0 or shutil.which("ip") is None:
        skip("needs root and iproute2")


def netns_add(ns):
    """Create namespace ns, or skip the test when namespaces are not permitted."""
    if sh(f"ip netns add {ns}", check=False).returncode != 0:
        skip("cannot create a network namespace")


def netns_exec_all(ns, cmds):
    """Run each of cmds inside ns, ignoring failures (sysctl, link up)."""
    for cmd in cmds:
        sh(f"ip netns exec {ns} {cmd}", check=False)


def netns_del(ns):
    sh(f"ip netns del {ns}", check=False)


def netns_ok(tag):
    """None when root, ip, iperf3 and a probe namespace are available, else the reason."""
    if os.geteuid() != 0:
        return "needs root"
    for c in ("ip", "iperf3"):
        if subprocess.run(["sh", "-c", f"command -v {c}"], capture_output=True).returncode:
            return f"needs {c}"
    ns = f"{tag}-probe-{os.getpid()}"
    p = subprocess.run(["ip", "netns", "add", ns], capture_output=True, text=True)
    if p.returncode != 0:
        return "cannot create a network namespace: " + p.stderr.strip()
    subprocess.run(["ip", "netns", "del", ns], capture_output=True)
    return None
