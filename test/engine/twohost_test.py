# SPDX-License-Identifier: BSD-3-Clause
"""configs/two-host-{sender,receiver}.ini as shipped, with only the PCI address edited (to
net_af_packet0 on a veth end) and a smaller transfer: two engine processes in two network
namespaces over a veth pair; the EAL arguments for a host without NIC or hugepages come from
the command line and merge into the configs' [eal]. Every byte verified, both exit 0.
77 (skipped) without root, iproute2 or namespaces; the namespaces are always removed.

usage: twohost_test.py CASE ENGINE SOURCE_ROOT   (CASE: veth)
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from enginetest import (SKIP, case_main, fail, load, need_root_ip, netns_add,  # noqa: E402
                        netns_del, netns_exec_all, run, sh, write)
import enginetest  # noqa: E402

NBYTES = 4 << 20


def edited(src, name, tmp, iface):
    with open(os.path.join(src, "configs", name)) as f:
        text = f.read()
    text, n = re.subn(r"(?m)^device = 0000:01:00\.0$", f"device = net_af_packet0,iface={iface}", text)
    if n != 1:
        fail(f"{name}: no single 'device = 0000:01:00.0' line to edit")
    text = re.sub(r"(?m)^bytes = .*$", f"bytes = {NBYTES}", text)
    return write(os.path.join(tmp, name), text)


def case_veth(engine, src, tmp):
    need_root_ip()
    na, nb = f"dfcp-ha-{os.getpid()}", f"dfcp-hb-{os.getpid()}"
    netns_add(na)
    rp = None
    try:
        if sh(f"ip netns add {nb}", check=False).returncode or \
                sh(f"ip -n {na} link add veth0 type veth peer name veth1 netns {nb}",
                   check=False).returncode:
            print("SKIP: cannot create a second namespace or a veth pair")
            sys.exit(SKIP)
        for ns, dev in ((na, "veth0"), (nb, "veth1")):
            netns_exec_all(ns, ("sysctl -qw net.ipv6.conf.all.disable_ipv6=1",
                                "ip link set lo up", f"ip link set {dev} up"))
        scfg = edited(src, "two-host-sender.ini", tmp, "veth0")
        rcfg = edited(src, "two-host-receiver.ini", tmp, "veth1")
        eal = ["--no-huge", "-m", "1024", "--no-pci", "--no-shconf"]
        rj, sj = os.path.join(tmp, "r.json"), os.path.join(tmp, "s.json")
        rcmd = ["ip", "netns", "exec", nb, engine] + eal + [
            "--", "--config", rcfg, "--duration", "60",
            "--stats-period", "0", "--summary-json", rj]
        scmd = ["ip", "netns", "exec", na, engine] + eal + [
            "--", "--config", scfg, "--duration", "60",
            "--stats-period", "0", "--summary-json", sj]
        print("$", " ".join(rcmd), flush=True)
        rp = subprocess.Popen(rcmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True)
        lines = []
        for line in rp.stdout:
            lines.append(line)
            if "running" in line:
                break
        sp = run(scmd, timeout=90)
        rout, _ = rp.communicate(timeout=90)
        sys.stdout.write("".join(lines)[-1500:] + rout[-3000:])
        if sp.returncode != 0 or rp.returncode != 0:
            fail(f"exit codes sender {sp.returncode} receiver {rp.returncode}")
        s = {f["name"]: f for f in load(sj)["flows"]}["s1"]
        r = {f["name"]: f for f in load(rj)["flows"]}["r1"]
        print(f"sender acked {s['goodput_bytes']} B; receiver delivered {r['sink_bytes']} B, "
              f"bad {r['bad_bytes']}, goodput {r['goodput_mbps']} Mbit/s")
        if r["sink_bytes"] != NBYTES or r["bad_bytes"] != 0 or s["goodput_bytes"] != NBYTES:
            fail("the transfer is not exact")
    finally:
        if rp is not None:
            enginetest.kill_engine(rp)
        netns_del(na)
        netns_del(nb)


if __name__ == "__main__":
    sys.exit(case_main(__doc__, {"veth": case_veth}, "twohost-"))
