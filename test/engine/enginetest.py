# SPDX-License-Identifier: BSD-3-Clause
"""Helpers shared by the whole-engine test scripts (test/engine/*_test.py) and the
experiment tests (test/experiments/*_test.py): running commands, loading the engine's
summary JSON, failing and skipping, network-namespace set-up and clean-up, what an EAL
run leaves behind (runtime folders, hugepage files) and hugepages reserved for a test.

The scripts import it with the engine test directory on sys.path:
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
"""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "scripts"))
import host_leftovers  # noqa: E402

SKIP = 77

# Test runs share the machine's CPUs on purpose (two engines in one test, two builds'
# suites at once on 2 CPUs): the busy-polled CPU check is off unless a test sets it to
# "0" for itself (core/lock.c); the interface check stays on.
os.environ.setdefault("DFCP_ALLOW_SHARED_CPU", "1")


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


# ---------------------------------------------------------------------------
# EAL leftovers and hugepages

HUGE_2M = "/sys/kernel/mm/hugepages/hugepages-2048kB"


# the EAL's runtime base folder, chosen as rte_eal_init() does (the one rule, shared with
# make test's check of what the tests left: scripts/host_leftovers.py)
dpdk_run_base = host_leftovers.run_base


def hugefiles(hugedir, prefix):
    """The hugepage files <prefix>map_N an EAL run with that --file-prefix keeps in hugedir."""
    pat = re.compile(re.escape(prefix) + r"map_\d+")
    try:
        return sorted(n for n in os.listdir(hugedir) if pat.fullmatch(n))
    except OSError:
        return []


def remove_prefix(prefix, hugedirs=()):
    """Remove what an EAL run with --file-prefix prefix may have left behind (a killed
    one: the engine removes its own at exit): its runtime folder, its hugepage files."""
    shutil.rmtree(os.path.join(dpdk_run_base(), prefix), ignore_errors=True)
    for d in hugedirs:
        for n in hugefiles(d, prefix):
            try:
                os.unlink(os.path.join(d, n))
            except OSError:
                pass


def remove_engine_run(pid, prefixes=()):
    """Remove the runtime folder of engine process pid (its derived prefix NAME-pid, told
    by the engine's mark file in it) and those of prefixes: after a killed engine."""
    base = dpdk_run_base()
    try:
        names = os.listdir(base)
    except OSError:
        names = []
    for n in names:
        if n.endswith(f"-{pid}") and os.path.exists(os.path.join(base, n, "dfcp-engine")):
            shutil.rmtree(os.path.join(base, n), ignore_errors=True)
    for pfx in prefixes:
        remove_prefix(pfx)


def kill_engine(p, prefixes=()):
    """SIGKILL engine process p (a Popen) if it still runs, reap it and remove its
    runtime folder (remove_engine_run)."""
    if p.poll() is None:
        p.kill()
        p.wait()
    remove_engine_run(p.pid, prefixes)


def huge_free_2m():
    """Free 2 MB hugepages of the host (-1 without 2 MB hugepage support)."""
    try:
        with open(os.path.join(HUGE_2M, "free_hugepages")) as f:
            return int(f.read())
    except (OSError, ValueError):
        return -1


def _write_int(path, v):
    with open(path, "w") as f:
        f.write(str(v))


def _read_int(path):
    with open(path) as f:
        return int(f.read())


class Hugepages:
    """`with Hugepages(mib, "tag") as hp:` reserves mib MiB of 2 MB hugepages for the test
    and mounts a private hugetlbfs at hp.dir (that size at most): the engine runs with
    `--huge-dir hp.dir`. Leaving the block, however it is left (a failure, SIGTERM from
    meson's timeout), gives everything back: the mount, its folder and exactly the pages it
    added to nr_hugepages (another user's change meanwhile is kept). Without root, 2 MB
    hugepage support, enough free memory or the right to mount, the test is skipped
    (exit 77) with the reason."""

    def __init__(self, mib, tag):
        self.pages = (mib + 1) // 2
        self.tag = tag
        self.added = 0
        self.dir = None
        self.mounted = False
        self.old_term = None

    def __enter__(self):
        if os.geteuid() != 0:
            skip("needs root to reserve hugepages (nr_hugepages, mount -t hugetlbfs)")
        if not os.path.exists(os.path.join(HUGE_2M, "nr_hugepages")):
            skip("the kernel has no 2 MB hugepages (" + HUGE_2M + ")")
        if shutil.which("mount") is None or shutil.which("umount") is None:
            skip("needs mount and umount")
        self.old_term = signal.signal(signal.SIGTERM, _term_exit)
        try:
            self._reserve()
            self._mount()
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def _reserve(self):
        nr = os.path.join(HUGE_2M, "nr_hugepages")
        before = _read_int(nr)
        free0 = huge_free_2m()
        try:
            _write_int(nr, before + self.pages)
        except OSError as e:
            skip(f"cannot raise {nr}: {e}")
        self.added = _read_int(nr) - before
        print(f"hugepages: nr_hugepages {before} -> {before + self.added} "
              f"(+{self.added} of 2 MB; free {free0} -> {huge_free_2m()})", flush=True)
        if self.added < self.pages:
            skip(f"the kernel gave {self.added} of {self.pages} 2 MB hugepages "
                 "(not enough free contiguous memory)")

    def _mount(self):
        self.dir = tempfile.mkdtemp(prefix=f"dfcp-huge-{self.tag}-")
        p = subprocess.run(["mount", "-t", "hugetlbfs", "-o",
                            f"pagesize=2M,size={self.pages * 2}M,mode=0700", "nodev",
                            self.dir], capture_output=True, text=True)
        if p.returncode != 0:
            skip("cannot mount hugetlbfs: " + p.stderr.strip())
        self.mounted = True
        print(f"hugepages: hugetlbfs mounted at {self.dir}", flush=True)

    def files(self, prefix):
        return hugefiles(self.dir, prefix)

    def __exit__(self, *exc):
        if self.mounted:
            left = os.listdir(self.dir)
            if left:
                print(f"hugepages: {len(left)} file(s) left in {self.dir}, removed with "
                      f"the mount: {left[:3]}")
            for args in (["umount", self.dir], ["umount", "-l", self.dir]):
                if subprocess.run(args, capture_output=True).returncode == 0:
                    self.mounted = False
                    break
                time.sleep(0.5)
        if self.dir is not None and not self.mounted:
            shutil.rmtree(self.dir, ignore_errors=True)
        if self.added:
            nr = os.path.join(HUGE_2M, "nr_hugepages")
            try:
                now = _read_int(nr)
                _write_int(nr, max(0, now - self.added))
                print(f"hugepages: nr_hugepages {now} -> {_read_int(nr)}", flush=True)
            except OSError as e:
                print(f"hugepages: cannot restore {nr}: {e}")
            self.added = 0
        if self.old_term is not None:
            signal.signal(signal.SIGTERM, self.old_term)
            self.old_term = None
        return False


def _term_exit(signum, frame):
    raise SystemExit(f"signal {signum}")
