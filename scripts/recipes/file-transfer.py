#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Recipe: a real file across two engines in two network namespaces joined by a veth pair, the
link lossy and delayed by the sender engine's router pipe (the engine emulates the link; no
netem needed), the sha256 of what was sent and what was received compared (doc/recipes.md).

  ns A: dfcp-engine  [DFCP sender s1, source = file IN] --ring-- [router: pipe fwd (bw, delay,
        loss) / pipe back (delay)] -- af_packet veth0
  ns B: veth1 -- af_packet -- dfcp-engine [DFCP receiver r1, sink = file OUT]

usage: file-transfer.py [--file PATH | --size MIB] [--loss PCT] [--delay MS] [--rate RATE]
                        [--cpus S,R] [--keep DIR] [--engine PATH] [--quick]
Without --file, a file of --size MiB of random bytes is made. --quick: 8 MiB, 1 % loss,
10 ms each way, 200 Mbit/s (the make test case, well under 25 s). Exit 0 when both engines
exit 0 and the checksums agree, 1 otherwise, 77 skipped (no root or namespaces).
"""
import argparse
import hashlib
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import recipe  # noqa: E402
sys.path.insert(0, os.path.join(recipe.SRC, "scripts"))
import rfc2544  # noqa: E402

SENDER = """[eal]
args = -l {cpu_main},{cpu} --no-huge -m 1024 --no-pci --no-shconf --log-level=pmd.net:warning
[engine]
duration = {limit}s
stats_period = 1s
[port host]
device = ring:a
preset = net_ring
[port ra]
device = ring:a
preset = net_ring
[port wire]
device = net_af_packet0,iface=veth0
[pipe fwd]
bw = {rate}
delay = {delay}ms
plr = {loss}%
queue = 1000
[pipe back]
delay = {delay}ms
[task r0]
kind = router
port_a = ra
port_b = wire
a_to_b = fwd
b_to_a = back
[flow s1]
role = sender
local = 10.0.0.1:5001
remote = 10.0.0.2:6001
source = file {src}
rate = {rate}
redundancy = auto
path_rate = {rate}
path_rtt = {rtt}ms
[task tx]
kind = dfcp
port = host
flows = s1
[lcore {cpu}]
tasks = tx, r0
"""

RECEIVER = """[eal]
args = --lcores 0@{cpu_main},1@{cpu} --no-huge -m 1024 --no-pci --no-shconf --log-level=pmd.net:warning
[engine]
duration = {limit}s
stats_period = 1s
[port wire]
device = net_af_packet0,iface=veth1
[flow r1]
role = receiver
local = 10.0.0.2:6001
sink = file {dst}
path_rate = {rate}
path_rtt = {rtt}ms
[task rx]
kind = dfcp
port = wire
flows = r1
[lcore 1]
tasks = rx
"""


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for b in iter(lambda: f.read(1 << 20), b""):
            h.update(b)
    return h.hexdigest()


def make_file(path, mib):
    with open(path, "wb") as f:
        for _ in range(mib):
            f.write(os.urandom(1 << 20))


def transfer(a, eng, net, work):
    src = os.path.abspath(a.file) if a.file else os.path.join(work, "in.bin")
    if not a.file:
        make_file(src, a.size)
    dst = os.path.join(work, "out.bin")
    size = os.path.getsize(src)
    limit = int(30 + 4 * size * 8 / rfc2544.parse_rate(a.rate) + 20 * a.delay / 1000)
    cs, cr = (int(x) for x in a.cpus.split(","))
    keys = dict(rate=a.rate, delay=a.delay, loss=a.loss, rtt=2 * a.delay + 20, src=src,
                dst=dst, limit=limit)
    scfg, rcfg = os.path.join(work, "sender.ini"), os.path.join(work, "receiver.ini")
    with open(scfg, "w") as f:
        f.write(SENDER.format(cpu=cs, cpu_main=cr, **keys))
    with open(rcfg, "w") as f:
        f.write(RECEIVER.format(cpu=cr, cpu_main=cs, **keys))
    print(f"# {src}: {size} bytes, sha256 {sha256(src)}")
    print(f"# link: {a.rate}, {a.delay} ms each way, {a.loss} % loss A -> B "
          f"(configs in {work})", flush=True)
    rj, sj = os.path.join(work, "receiver.json"), os.path.join(work, "sender.json")
    tail = ["--stats-period", "0", "--live", "off"]
    rp = recipe.start_engine(net.exec("b") + [eng, "--", "--config", rcfg, "--summary-json", rj]
                             + tail, os.path.join(work, "receiver.log"))
    try:
        t0 = time.time()
        cmd = net.exec("a") + [eng, "--", "--config", scfg, "--summary-json", sj] + tail
        recipe.show(cmd)
        with open(os.path.join(work, "sender.log"), "w") as lf:
            sp = subprocess.run(cmd, stdout=lf, stderr=subprocess.STDOUT, timeout=limit + 30)
        rrc = rp.wait(timeout=limit + 30)
        secs = time.time() - t0
    finally:
        recipe.stop_engine(rp)
    print("sender:")
    recipe.tail(os.path.join(work, "sender.log"), ("flow s1", "pipe", "outcome"), 8)
    print("receiver:")
    recipe.tail(os.path.join(work, "receiver.log"), ("flow r1", "outcome"), 6)
    if sp.returncode != 0 or rrc != 0:
        recipe.fail(f"exit codes: sender {sp.returncode}, receiver {rrc} (logs in {work})")
    got = sha256(dst) if os.path.exists(dst) else "(no file)"
    want = sha256(src)
    print(f"sent     {size:>11} B  sha256 {want}")
    print(f"received {os.path.getsize(dst) if os.path.exists(dst) else 0:>11} B  sha256 {got}")
    print(f"{size * 8 / secs / 1e6:.1f} Mbit/s end to end ({secs:.1f} s from the sender's "
          "start to the receiver's exit)")
    if got != want:
        recipe.fail("the received file differs from the sent one")
    print("OK: identical")


def rate_arg(s):
    rfc2544.parse_rate(s)
    return s


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--file", help="the file to send (default: --size MiB of random bytes)")
    ap.add_argument("--size", type=int, default=100, help="MiB made without --file (100)")
    ap.add_argument("--loss", type=float, default=1.0, help="loss A -> B, percent (1)")
    ap.add_argument("--delay", type=int, default=50, help="one-way delay each way, ms (50)")
    ap.add_argument("--rate", default="200Mbit", type=rate_arg,
                    help="link rate and the sender's, bit/s (200Mbit)")
    ap.add_argument("--cpus", default="1,0",
                    help="the CPUs busy-polled by the sender and the receiver (1,0)")
    ap.add_argument("--keep", help="write configs, logs, JSON and the files here (kept)")
    ap.add_argument("--engine", help="dfcp-engine (default: build/ of the source tree)")
    ap.add_argument("--quick", action="store_true", help="8 MiB, 10 ms: the make test case")
    a = ap.parse_args()
    if a.quick:
        a.size, a.delay = 8, 10
    eng = recipe.engine_path(a.engine)
    recipe.header("recipe: a file across two engines over a lossy, delayed veth link")
    recipe.setup_signals()
    net = recipe.Netns("ft")
    try:
        net.up(["a", "b"], [("a", "veth0", "b", "veth1")])
        if a.keep:
            os.makedirs(a.keep, exist_ok=True)
            transfer(a, eng, net, os.path.abspath(a.keep))
        else:
            with tempfile.TemporaryDirectory(prefix="recipe-ft-") as work:
                transfer(a, eng, net, work)
    except recipe.Term as e:
        print(f"interrupted ({e})")
        return 1
    finally:
        net.down()
    return 0


if __name__ == "__main__":
    sys.exit(main())
