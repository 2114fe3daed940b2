#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Check tools/wireshark/dfcp.lua with tshark on generated captures.

usage: test_dissector.py GEN-DFCP-PCAP DFCP.LUA WORKDIR

GEN-DFCP-PCAP writes WORKDIR/dfcp.pcap (a real lib/dfcp transfer with loss)
and WORKDIR/dfcp_bad.pcap (malformed frames) with one expectation line per
frame (see test/obs/gen_dfcp_pcap.c). Checks, with the heuristic alone and
with the port preference:
  * every DFCP frame dissects as DFCP with every field equal to what
    lib/dfcp's parser read, no expert info and no malformed mark anywhere;
  * the two non-DFCP UDP frames are left alone;
  * every malformed frame carries the expected dfcp.* expert info, and the
    valid SYN among them none.
Exit 77 (skipped) without tshark or without Lua in tshark.
"""
import os
import shutil
import subprocess
import sys

SKIP = 77

FIELDS = [
    "dfcp.version", "dfcp.type", "dfcp.flags", "dfcp.dst_cid", "dfcp.src_cid",
    "dfcp.block_size", "dfcp.symbol_size", "dfcp.k", "dfcp.window",
    "dfcp.redundancy", "dfcp.max_window", "dfcp.max_k", "dfcp.max_t",
    "dfcp.acked", "dfcp.block", "dfcp.sbn", "dfcp.esi", "dfcp.block_len",
    "dfcp.symbol_len", "dfcp.cum", "dfcp.status", "dfcp.missing", "dfcp.rcvd",
    "dfcp.esi_span", "dfcp.bitmap", "dfcp.nblocks", "dfcp.nbytes",
    "dfcp.rst_reason", "dfcp.seq", "dfcp.rlen", "dfcp.rpos", "dfcp.rx_pkts",
    "dfcp.seq_next", "dfcp.rnd_seq", "dfcp.rnd_len", "dfcp.rnd_rcvd",
    "dfcp.rnd_end", "dfcp.rate", "dfcp.crc", "dfcp.tag",
]
EXPERTS = [
    "dfcp.short", "dfcp.bad_version", "dfcp.bad_type", "dfcp.bad_length",
    "dfcp.bad_cid", "dfcp.bad_params", "dfcp.bad_payload_id",
    "dfcp.bad_block_len", "dfcp.bad_status", "dfcp.bad_symbol_len",
    "dfcp.bad_round", "dfcp.bad_report",
]
TYPES = {1: "SYN", 2: "SYNACK", 3: "ACK", 4: "DATA", 5: "BLOCK-ACK",
         6: "FIN", 7: "FINACK", 8: "RST"}
PORTS = "5000,6000"

failures = 0


def fail(msg):
    global failures
    failures += 1
    if failures <= 30:
        print("FAIL: " + msg)


def tshark(env, lua, pcap, fields, opts=(), dfilter=None):
    cmd = ["tshark", "-n", "-X", "lua_script:" + lua, "-r", pcap,
           "-T", "fields", "-E", "separator=/t", "-E", "occurrence=a",
           "-E", "aggregator=,"]
    for o in opts:
        cmd += ["-o", o]
    if dfilter:
        cmd += ["-Y", dfilter]
    for fl in fields:
        cmd += ["-e", fl]
    r = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=60)
    err = "\n".join(l for l in r.stderr.splitlines()
                    if "Running as user" not in l and l.strip())
    if r.returncode != 0 or "Lua" in err or "error" in err.lower():
        print(" ".join(cmd))
        print(err)
        sys.exit(1)
    return [l.split("\t") for l in r.stdout.splitlines()]


def load_expect(path):
    out = {}
    with open(path) as fp:
        for line in fp:
            parts = line.rstrip("\n").split("\t")
            out[int(parts[0])] = parts[1:]
    return out


def check_good(env, lua, work, opts, label):
    exp = load_expect(os.path.join(work, "dfcp.expect"))
    rows = tshark(env, lua, os.path.join(work, "dfcp.pcap"),
                  ["frame.number", "frame.protocols", "_ws.expert.message",
                   "_ws.malformed"] + FIELDS, opts)
    if len(rows) != len(exp):
        fail("%s: %d frames dissected, %d written" % (label, len(rows), len(exp)))
    counts = {}
    for row in rows:
        num, protos, experts, malf = int(row[0]), row[1].split(":"), row[2], row[3]
        vals = dict(zip(FIELDS, row[4:]))
        e = exp.get(num)
        if e is None:
            fail("%s: frame %d unexpected" % (label, num))
            continue
        if experts or malf:
            fail("%s: frame %d flagged: %r %r" % (label, num, experts, malf))
        if e[0] == "-":
            if "dfcp" in protos:
                fail("%s: frame %d (not DFCP) dissected as DFCP" % (label, num))
            continue
        if protos[-1] != "dfcp":
            fail("%s: frame %d protocols %s" % (label, num, row[1]))
            continue
        want = dict(kv.split("=", 1) for kv in e[1:])
        t = TYPES.get(int(want["dfcp.type"]), "?")
        counts[t] = counts.get(t, 0) + 1
        for fl in FIELDS:
            got = vals.get(fl, "")
            if fl in want:
                try:
                    ok = int(got, 0) == int(want[fl])
                except ValueError:
                    ok = False
                if not ok:
                    fail("%s: frame %d (%s) %s = %r, want %s" %
                         (label, num, t, fl, got, want[fl]))
            elif got != "":
                fail("%s: frame %d (%s) has %s = %r" % (label, num, t, fl, got))
    print("%s: %d frames: %s" % (label, len(rows),
          ", ".join("%s %d" % (k, counts[k]) for k in sorted(counts))))
    for t in TYPES.values():
        if counts.get(t, 0) == 0:
            fail("%s: no %s packet in the capture" % (label, t))


def check_bad(env, lua, work, opts, label):
    exp = load_expect(os.path.join(work, "dfcp_bad.expect"))
    pcap = os.path.join(work, "dfcp_bad.pcap")
    rows = tshark(env, lua, pcap, ["frame.number", "frame.protocols",
                                   "_ws.expert.severity"], opts)
    if len(rows) != len(exp):
        fail("%s: %d frames dissected, %d written" % (label, len(rows), len(exp)))
    for row in rows:
        if "dfcp" not in row[1].split(":"):
            fail("%s: frame %s not dissected as DFCP" % (label, row[0]))
    # which frames each expert flags
    flagged = {}
    for ex in EXPERTS:
        for row in tshark(env, lua, pcap, ["frame.number"], opts, ex):
            flagged.setdefault(int(row[0]), set()).add(ex)
    for num, (ex, err) in sorted(exp.items()):
        got = flagged.get(num, set())
        if ex == "-":
            if got:
                fail("%s: frame %d (valid) flagged %s" % (label, num, sorted(got)))
        elif ex not in got:
            fail("%s: frame %d (parser: %s) not flagged %s (got %s)" %
                 (label, num, err, ex, sorted(got) or "nothing"))
    print("%s: %d frames, %d flagged as expected, %d valid ones not flagged" %
          (label, len(exp),
           sum(1 for n, (ex, _) in exp.items() if ex in flagged.get(n, set())),
           sum(1 for n, (ex, _) in exp.items() if ex == "-" and n not in flagged)))


def main():
    if len(sys.argv) != 4:
        print(__doc__)
        return 2
    gen, lua, work = sys.argv[1:]
    if shutil.which("tshark") is None:
        print("tshark not installed: skipped")
        return SKIP
    v = subprocess.run(["tshark", "-v"], capture_output=True, text=True)
    if "with Lua" not in v.stdout:
        print("tshark built without Lua: skipped")
        return SKIP
    if os.path.isdir(work):
        shutil.rmtree(work)
    os.makedirs(os.path.join(work, "home"))
    r = subprocess.run([gen, work], capture_output=True, text=True)
    print(r.stdout + r.stderr, end="")
    if r.returncode != 0:
        return 1
    # a clean profile: no personal preferences or plugins (a second copy of
    # dfcp.lua in the plugin folder would clash with -X lua_script)
    env = dict(os.environ)
    env["HOME"] = os.path.join(work, "home")
    env["XDG_CONFIG_HOME"] = os.path.join(work, "home", ".config")
    env.pop("WIRESHARK_CONFIG_DIR", None)
    env.pop("WIRESHARK_PLUGIN_DIR", None)

    check_good(env, lua, work, (), "heuristic")
    check_good(env, lua, work, ("dfcp.ports:" + PORTS,), "ports " + PORTS)
    check_bad(env, lua, work, ("dfcp.ports:" + PORTS,), "malformed")
    if failures:
        print("%d failures" % failures)
        return 1
    print("dissector: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
