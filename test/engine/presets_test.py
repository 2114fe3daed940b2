#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Presets that hold (issue #30): presets_test.py ENGINE SOURCE_ROOT.

For every drivers-config/*.ini (a glob: a new preset is covered without a change here):
  1. a strict reading of the file (one [preset] section, every line a comment, the header or
     KEY = VALUE, known keys, values of the type and range sec_port.c accepts) and a run of
     the engine with it on a ring port: exit 0;
  2. a vdev preset whose device can be made here is started on its driver (net_ring,
     net_null, net_tap, net_af_packet and net_af_xdp on veth pairs in a network namespace,
     net_memif as a server and a client engine): exit 0, the port in the summary JSON with
     frames counted, no descriptor count adjusted by the device, and the preset's devargs in
     the device the engine hot-plugged ("port p: created DEVICE,ARGS");
  3. a PCI preset (no device here) is parsed only.
Broken copies in a private drivers_config folder ([engine] drivers_config): every preset
with an unknown key, net_ring also with a value out of range, a bad boolean and a line
without "=": the engine must exit 1 naming FILE:LINE and the key.
One line per preset: "preset NAME: parsed, started on DRIVER", "parsed (PCI: no device
here)" or "parsed, start skipped: REASON". Exit 0 only when every check passed (77 never:
a driver the host cannot run is skipped with its reason, the others still checked).
"""
import glob
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import enginetest  # noqa: E402

EAL = "-l 0-1 --no-huge -m 256 --no-pci --no-shconf"
# the keys of a [preset] section and what sec_port.c accepts for each
U16 = {"rx_queues": (1, 16), "tx_queues": (1, 16), "rx_desc": (32, 16384),
       "tx_desc": (32, 16384), "mtu": (68, 9600)}
BOOL = ("promisc", "rss", "rx_checksum", "tx_checksum")
BOOL_VALUES = ("on", "off", "yes", "no", "true", "false", "1", "0")
KEYS = ("description", "devargs") + tuple(U16) + BOOL
PCI = ("ixgbe", "i40e", "ice", "mlx5", "virtio")
DEVARGS_ITEM = re.compile(r"[A-Za-z0-9_]+=[^,]*")

# a port p with a txonly and a drop task (tx queue 0 and rx queue 0 of the one port)
CONFIG = """[eal]
args = {eal}
[engine]
stats_period = 0
drivers_config = {dc}
[port p]
device = {device}
preset = {preset}
[task tx]
kind = txonly
port = p
rate = {rate}
[task rx]
kind = drop
port = p
[lcore 1]
tasks = tx, rx
"""


class Failures:
    def __init__(self):
        self.msgs = []

    def add(self, msg):
        print("FAIL:", msg, flush=True)
        self.msgs.append(msg)


def _term(signum, frame):
    raise SystemExit(f"signal {signum}")


# ---------------------------------------------------------------------------
# 1. reading and parsing

def read_preset(path, fails):
    """The preset as {key: (value, line)}, read strictly; every defect added to fails."""
    keys, sections, name = {}, [], os.path.basename(path)
    with open(path) as f:
        lines = f.read().splitlines()
    for n, raw in enumerate(lines, 1):
        s = raw.split("#", 1)[0].strip()
        if not s:
            continue
        if s.startswith("["):
            sections.append(s)
            continue
        k, eq, v = s.partition("=")
        k, v = k.strip(), v.strip()
        if not eq or not k or not v:
            fails.add(f"{name}:{n}: not KEY = VALUE: {raw!r}")
        elif not sections:
            fails.add(f"{name}:{n}: {k} before the [preset] header")
        elif k in keys:
            fails.add(f"{name}:{n}: {k} set twice (first at line {keys[k][1]})")
        else:
            keys[k] = (v, n)
    if sections != ["[preset]"]:
        fails.add(f"{name}: sections {sections}, expected exactly one, [preset]")
    for k, (v, n) in keys.items():
        bad = value_error(k, v)
        if bad:
            fails.add(f"{name}:{n}: {k} = {v}: {bad}")
    return keys


def value_error(k, v):
    """Why sec_port.c would refuse KEY = V, or None."""
    if k not in KEYS:
        return "unknown key (known: " + ", ".join(KEYS) + ")"
    if k in U16:
        lo, hi = U16[k]
        if not v.isdigit() or not lo <= int(v) <= hi:
            return f"expected an integer in {lo}..{hi}"
    if k in BOOL and v.lower() not in BOOL_VALUES:
        return "expected a boolean"
    if k == "devargs" and not all(DEVARGS_ITEM.fullmatch(i) for i in v.split(",")):
        return "expected KEY=VALUE items, KEY of [A-Za-z0-9_]"
    return None


def engine(eng, args, timeout=60, netns=None, pre=""):
    """Run the engine (in netns, after the shell command pre); the completed process with
    stdout and stderr together in .out. Only the tail is echoed on failure."""
    cmd = [eng] + args
    if netns is not None:
        shell = (pre + " && " if pre else "") + "exec " + " ".join(cmd)
        cmd = ["ip", "netns", "exec", netns, "sh", "-c", shell]
    print("$", " ".join(cmd), flush=True)
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       timeout=timeout)
    p.out = p.stdout
    return p


def write_config(tmp, tag, dc, device, preset, eal=EAL, rate="10Mbit"):
    return enginetest.write(os.path.join(tmp, f"{tag}.ini"),
                            CONFIG.format(eal=eal, dc=dc, device=device, preset=preset,
                                          rate=rate))


def parse_run(eng, tmp, dc, name, fails):
    """The preset on a ring port (every preset can be configured on one): exit 0."""
    cfg = write_config(tmp, f"parse-{name}", dc, "ring:w", name)
    p = engine(eng, ["--", "--config", cfg, "--duration", "0.2s"])
    if p.returncode != 0:
        sys.stdout.write(p.out[-3000:])
        fails.add(f"preset {name}: the engine refused it on a ring port (exit "
                  f"{p.returncode})")
        return False
    return True


def broken_copies(eng, tmp, src_dc, names, fails):
    """Broken copies in a private drivers_config folder: exit 1 naming FILE:LINE and the
    key. Every preset with an unknown key; net_ring (or the first preset) also with a value
    out of range, a bad boolean and a line without '='. One failure per kind of defect,
    naming the presets it was seen with."""
    dc = os.path.join(tmp, "broken")
    os.makedirs(dc)
    full = "net_ring" if "net_ring" in names else names[0]
    refused, unnamed = {}, {}
    for name in names:
        with open(os.path.join(src_dc, f"{name}.ini")) as f:
            lines = f.read().splitlines()
        head = next((i for i, ln in enumerate(lines) if ln.strip() == "[preset]"), None)
        if head is None:
            continue  # read_preset said so already
        cases = [("an unknown key", "rx_dsc = 512", "rx_dsc")]
        if name == full:
            cases += [("a value out of range", "mtu = 9601", "mtu"),
                      ("a bad boolean", "rss = maybe", "rss"),
                      ("a line without '='", "tx_desc 512", "tx_desc"),
                      ("a key set twice", "rx_desc = 512\nrx_desc = 256", "rx_desc")]
        for what, text, key in cases:
            # right after the header: the line number is that of the (first) inserted
            # line, whose key the rest of the file no longer sets
            rest = [ln for ln in lines[head + 1:] if ln.split("=")[0].strip() != key]
            broken = lines[:head + 1] + [text] + rest
            path = enginetest.write(os.path.join(dc, f"{name}.ini"), "\n".join(broken) + "\n")
            cfg = write_config(tmp, f"broken-{name}", dc, "ring:w", name)
            p = engine(eng, ["--", "--config", cfg, "--duration", "0.2s"])
            err = [ln for ln in p.out.splitlines() if "config error" in ln]
            print(f"  {name}.ini with {what} ({text!r} at line {head + 2}): exit "
                  f"{p.returncode}{': ' + err[0] if err else ''}", flush=True)
            if p.returncode != 1:
                refused.setdefault(what, []).append(name)
            elif not any(f"{path}:{head + 2 + text.count(chr(10))}: " in ln and key in ln
                         for ln in err):
                unnamed.setdefault(what, []).append(name)
    for what, who in refused.items():
        fails.add(f"a preset with {what} is not refused (exit 1): {', '.join(who)}")
    for what, who in unnamed.items():
        fails.add(f"the error for a preset with {what} does not name FILE:LINE and the "
                  f"key: {', '.join(who)}")


# ---------------------------------------------------------------------------
# 2. starting the vdev presets

def port_of(js, name="p"):
    for p in js.get("ports", []):
        if p["name"] == name:
            return p
    return None


def check_started(name, driver, p, js_path, devargs, fails, want=("tx_packets",),
                  own=()):
    """Exit 0, the port's counters in the JSON (the named ones above 0), no descriptors
    adjusted, the preset's devargs (and the device string's own items) in the created
    device. True when all held."""
    ok = True

    def bad(msg):
        nonlocal ok
        ok = False
        fails.add(f"preset {name} on {driver}: {msg}")

    if p.returncode != 0:
        sys.stdout.write(p.out[-4000:])
        bad(f"exit {p.returncode}")
        return False
    try:
        with open(js_path) as f:
            port = port_of(json.load(f))
    except (OSError, ValueError) as e:
        bad(f"summary JSON: {e}")
        return False
    if port is None:
        bad("port p missing from the summary JSON")
    else:
        print(f"  port p: rx_packets {port['rx_packets']} tx_packets {port['tx_packets']} "
              f"rx_errors {port['rx_errors']} tx_errors {port['tx_errors']}")
        for k in want:
            if not port.get(k):
                bad(f"port p counted no {k}")
    adj = re.search(r"port p: descriptors adjusted by the device to .*", p.out)
    if adj:
        bad(f"the preset's rx_desc/tx_desc do not hold: {adj.group(0)}")
    m = re.search(r"port p: created (\S+)", p.out)
    items = m.group(1).split(",")[1:] if m else []
    if m:
        print(f"  {m.group(0)}")
    # without devargs of its own the preset adds nothing: the device is probed as written
    for it in (list(devargs) + list(own)) if devargs else []:
        if it not in items:
            bad(f"devargs item {it} not in the created device "
                f"({m.group(1) if m else 'no created line: devargs not applied'})")
    return ok


def preset_devargs(keys):
    v = keys.get("devargs", ("", 0))[0]
    return [i for i in v.split(",") if i]


class Host:
    """What the kernel-interface vdevs need, made once: a namespace with two veth pairs
    (veth0/veth1 for net_af_packet, veth2/veth3 for net_af_xdp); removed by close()."""

    def __init__(self):
        self.ns = None
        self.reason = None

    def open(self):
        if os.geteuid() != 0:
            self.reason = "needs root"
            return
        ns = f"dfcp-presets-{os.getpid()}"
        p = subprocess.run(["ip", "netns", "add", ns], capture_output=True, text=True)
        if p.returncode != 0:
            self.reason = "cannot create a network namespace: " + p.stderr.strip()
            return
        self.ns = ns
        for a, b in (("veth0", "veth1"), ("veth2", "veth3")):
            p = subprocess.run(["ip", "-n", ns, "link", "add", a, "type", "veth", "peer",
                                "name", b], capture_output=True, text=True)
            if p.returncode != 0:
                self.reason = "cannot create a veth pair: " + p.stderr.strip()
                return
        enginetest.netns_exec_all(ns, ["sysctl -qw net.ipv6.conf.all.disable_ipv6=1",
                                       "ip link set lo up"] +
                                  [f"ip link set veth{i} up" for i in range(4)])

    def close(self):
        if self.ns is not None:
            enginetest.netns_del(self.ns)
            self.ns = None


def start_simple(eng, tmp, dc, name, keys, fails, device, driver, want, ns=None, pre="",
                 eal=EAL, own=()):
    cfg = write_config(tmp, f"start-{name}", dc, device, name, eal=eal)
    out = os.path.join(tmp, f"start-{name}.json")
    p = engine(eng, ["--", "--config", cfg, "--duration", "0.5s", "--summary-json", out],
               netns=ns, pre=pre)
    if check_started(name, driver, p, out, preset_devargs(keys), fails, want, own):
        return f"started on {driver}"
    return None


def start_ring(eng, tmp, dc, name, keys, fails, host):
    # a ring port alone on its wire loops back: what it sends it receives
    if preset_devargs(keys):
        fails.add(f"preset {name}: devargs on a net_ring preset are never applied "
                  "(ring:WIRE ports are made in code)")
    return start_simple(eng, tmp, dc, name, keys, fails, "ring:w", "net_ring",
                        ("tx_packets", "rx_packets"))


def start_null(eng, tmp, dc, name, keys, fails, host):
    return start_simple(eng, tmp, dc, name, keys, fails, "net_null0", "net_null",
                        ("tx_packets", "rx_packets"))


def start_tap(eng, tmp, dc, name, keys, fails, host):
    if host.ns is None:
        return "skip: " + host.reason
    if not os.path.exists("/dev/net/tun"):
        return "skip: no /dev/net/tun"
    return start_simple(eng, tmp, dc, name, keys, fails, "net_tap0,iface=dfcpt0", "net_tap",
                        ("tx_packets",), ns=host.ns, own=("iface=dfcpt0",))


def start_af_packet(eng, tmp, dc, name, keys, fails, host):
    if host.ns is None:
        return "skip: " + host.reason
    return start_simple(eng, tmp, dc, name, keys, fails, "net_af_packet0,iface=veth0",
                        "net_af_packet", ("tx_packets",), ns=host.ns, own=("iface=veth0",))


def start_af_xdp(eng, tmp, dc, name, keys, fails, host):
    if host.ns is None:
        return "skip: " + host.reason
    try:
        hp = enginetest.Hugepages(256, "presets")
        hp.__enter__()
    except SystemExit as e:  # Hugepages skips (exit 77) with the reason printed
        if e.code != enginetest.SKIP:
            raise
        return "skip: no hugepages for net_af_xdp (SKIP line above)"
    try:
        eal = f"-l 0-1 -m 256 --no-pci --no-shconf --huge-dir {hp.dir}"
        # ip netns exec remounts /sys: bpffs (libxdp's dispatcher) mounted in that shell
        return start_simple(eng, tmp, dc, name, keys, fails, "net_af_xdp0,iface=veth2",
                            "net_af_xdp", ("tx_packets",), ns=host.ns,
                            pre="mount -t bpf bpf /sys/fs/bpf", eal=eal,
                            own=("iface=veth2",))
    finally:
        hp.__exit__(None, None, None)


def start_memif(eng, tmp, dc, name, keys, fails, host):
    """A server engine (drop) and a client engine (txonly) on one memif socket; memif
    needs the EAL multi-process channel (no --no-shconf): each run has its own prefix."""
    sock = os.path.join(tmp, "memif.sock")
    eal = "-l 0-1 --no-huge -m 256 --no-pci"
    srv = write_config(tmp, "memif-server", dc, f"net_memif0,role=server,socket={sock}",
                       name, eal=eal)
    cli = write_config(tmp, "memif-client", dc, f"net_memif0,role=client,socket={sock}",
                       name, eal=eal)
    sj, cj = os.path.join(tmp, "memif-server.json"), os.path.join(tmp, "memif-client.json")
    scmd = [eng, "--", "--config", srv, "--duration", "4s", "--summary-json", sj]
    print("$", " ".join(scmd), flush=True)
    sp = subprocess.Popen(scmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines = []
    try:
        deadline = time.time() + 30
        for line in sp.stdout:  # the server listens before the client starts
            lines.append(line)
            if "running" in line or time.time() > deadline:
                break
        cp = engine(eng, ["--", "--config", cli, "--duration", "1.5s", "--summary-json", cj])
        rest, _ = sp.communicate(timeout=60)
    finally:
        if sp.poll() is None:
            sp.kill()
            sp.wait()
    sp.out = "".join(lines) + rest
    devargs = preset_devargs(keys)
    ok = check_started(name, "net_memif (client)", cp, cj, devargs, fails, ("tx_packets",),
                       ("role=client", f"socket={sock}") if devargs else ())
    # the server's port counters read 0 once its client has gone (net_memif frees its
    # queues, and their counters, on disconnect): its drop task's count shows the frames
    ok = check_started(name, "net_memif (server)", sp, sj, devargs, fails, (),
                       ("role=server", f"socket={sock}") if devargs else ()) and ok
    if sp.returncode == 0:
        drop = {d["task"]: d for d in enginetest.load(sj).get("drop", [])}
        got = drop.get("rx", {}).get("packets", 0)
        print(f"  server: drop task rx received {got} frames from the client")
        if not got:
            ok = False
            fails.add(f"preset {name} on net_memif (server): nothing received from the "
                      "client")
    return "started on net_memif (a server and a client engine)" if ok else None


STARTERS = {"net_ring": start_ring, "net_null": start_null, "net_tap": start_tap,
            "net_af_packet": start_af_packet, "net_af_xdp": start_af_xdp,
            "net_memif": start_memif}


# ---------------------------------------------------------------------------

def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    eng, src = sys.argv[1:]
    signal.signal(signal.SIGTERM, _term)  # meson's timeout: the namespace still removed
    dc = os.path.join(src, "drivers-config")
    names = sorted(os.path.basename(p)[:-4] for p in glob.glob(os.path.join(dc, "*.ini")))
    if not names:
        enginetest.fail(f"no presets in {dc}")
    fails, lines = Failures(), {}
    host = Host()
    try:
        with tempfile.TemporaryDirectory(prefix="dfcp-presets-") as tmp:
            print(f"== {len(names)} presets in {dc}: {' '.join(names)}", flush=True)
            parsed = {}
            for name in names:
                before = len(fails.msgs)
                keys = read_preset(os.path.join(dc, f"{name}.ini"), fails)
                if parse_run(eng, tmp, dc, name, fails) and len(fails.msgs) == before:
                    parsed[name] = keys
                else:
                    lines[name] = "NOT parsed (see FAIL above)"
            print("== broken copies: exit 1 naming FILE:LINE and the key", flush=True)
            broken_copies(eng, tmp, dc, names, fails)
            print("== starting the vdev presets", flush=True)
            host.open()
            for name, keys in parsed.items():
                if name in PCI:
                    lines[name] = "parsed (PCI: no device here)"
                    continue
                starter = STARTERS.get(name)
                if starter is None:
                    lines[name] = ("parsed, start skipped: no recipe for this driver in "
                                   "presets_test.py")
                    continue
                print(f"-- {name}", flush=True)
                r = starter(eng, tmp, dc, name, keys, fails, host)
                if r is None:
                    lines[name] = "parsed, start FAILED (see FAIL above)"
                elif r.startswith("skip: "):
                    lines[name] = "parsed, start skipped: " + r[6:]
                else:
                    lines[name] = "parsed, " + r
    finally:
        host.close()
    print("== presets", flush=True)
    for name in names:
        print(f"preset {name}: {lines[name]}")
    if fails.msgs:
        print(f"FAIL: {len(fails.msgs)} check(s) failed:")
        for m in fails.msgs:
            print("  " + m)
        return 1
    print("PASS presets")
    return 0


if __name__ == "__main__":
    sys.exit(main())
