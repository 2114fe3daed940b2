#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""dfcp-rq against bad input (issue #15): /dev/zero, empty, truncated, garbage,
corrupted and oversized files give a clear error, exit 1, no output file and
bounded memory (each run under a 1 GiB address-space limit; the children's peak
RSS is checked); round trips of the checked and the raw format; --help of every
command on stdout with exit 0; usage errors name the argument and exit 2."""
import os
import resource
import subprocess
import sys
import tempfile

RQ = sys.argv[1]
failures = []
# a sanitizer's shadow memory needs terabytes of address space: no limit there
SANITIZED = b"libasan" in subprocess.run(["ldd", RQ], capture_output=True).stdout


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL", what)


def limit():
    if not SANITIZED:
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


def run(*args):
    p = subprocess.run([RQ, *args], capture_output=True, text=True, timeout=60,
                       preexec_fn=limit)
    return p.returncode, p.stdout, p.stderr


def expect_fail(name, args, out, words, rc=1):
    code, _, err = run(*args)
    check(code == rc, f"{name}: exit {code}, want {rc} ({err.strip()})")
    for w in words:
        check(w in err, f"{name}: '{w}' not in: {err.strip()}")
    if out is not None:
        check(not os.path.exists(out), f"{name}: an output file was left")
    print(f"{name}: exit {code}: {err.strip()}")


def main():
    tmp = tempfile.mkdtemp(prefix="rqtool")
    p = lambda n: os.path.join(tmp, n)
    data = os.urandom(300000)
    open(p("in"), "wb").write(data)
    open(p("empty"), "wb").close()

    # round trips
    code, _, err = run("encode", "--symbol-size", "1420", p("in"), p("enc"))
    check(code == 0, f"encode: {err}")
    enc = open(p("enc"), "rb").read()
    check(enc[:4] == b"DFRQ", "the checked format starts with DFRQ")
    code, _, err = run("decode", p("enc"), p("dec"))
    check(code == 0 and open(p("dec"), "rb").read() == data, f"decode: {err}")
    code, _, err = run("encode", "--raw", "--symbol-size", "1420", p("in"), p("raw"))
    check(code == 0 and open(p("raw"), "rb").read()[:4] != b"DFRQ", f"encode --raw: {err}")
    code, _, err = run("decode", "--raw", p("raw"), p("rawdec"))
    check(code == 0 and open(p("rawdec"), "rb").read() == data, f"decode --raw: {err}")

    # bad input: clear errors, no output, bounded memory
    expect_fail("decode /dev/zero", ["decode", "/dev/zero", p("o1")], p("o1"), ["no DFRQ header"])
    expect_fail("decode --raw /dev/zero", ["decode", "--raw", "/dev/zero", p("o2")], p("o2"),
                ["impossible OTI"])
    expect_fail("decode empty", ["decode", p("empty"), p("o3")], p("o3"), ["empty"])
    expect_fail("encode empty", ["encode", "--symbol-size", "64", p("empty"), p("o4")], p("o4"),
                ["empty", "no output written"])
    open(p("trunc"), "wb").write(enc[:5000])
    expect_fail("truncated", ["decode", p("trunc"), p("o5")], p("o5"), ["wrong size"])
    open(p("short"), "wb").write(enc[:10])
    expect_fail("truncated header", ["decode", p("short"), p("o6")], p("o6"), ["truncated header"])
    bad = bytearray(enc)
    bad[len(bad) // 2] ^= 0x40
    open(p("corrupt"), "wb").write(bad)
    expect_fail("corrupted packet", ["decode", p("corrupt"), p("o7")], p("o7"),
                ["does not match its checksum"])
    garbage = bytearray(enc[:20 + 4]) + os.urandom(8 << 20)
    open(p("garbage"), "wb").write(garbage)
    expect_fail("garbage packets", ["decode", p("garbage"), p("o8")], p("o8"), ["block"])
    # an OTI claiming 900 GB: refused from the header, before reading a packet
    huge = bytearray(b"DFRQ\x01\x00\x00\x00")
    F = 900 * 10**9
    huge += F.to_bytes(5, "big") + b"\x00" + (65532).to_bytes(2, "big") + bytes([255, 0, 1, 4])
    huge += bytes(4 * 255)
    open(p("huge"), "wb").write(huge)
    expect_fail("900 GB OTI", ["decode", p("huge"), p("o9")], p("o9"), ["--max-memory"])
    expect_fail("encode over --max-memory", ["encode", "--symbol-size", "64", "--max-memory",
                "1000", p("in"), p("o10")], p("o10"), ["--max-memory"])
    rss_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    check(rss_kb < (600 if SANITIZED else 200) * 1024, f"children's peak RSS {rss_kb} KB")
    print(f"peak RSS of the runs: {rss_kb} KB")

    # help and usage errors
    for args in (["--help"], ["encode", "--help"], ["decode", "--help"]):
        code, out, _ = run(*args)
        check(code == 0 and "usage" in out and "exit codes" in out, f"{args}: exit {code}")
    expect_fail("no command", [], None, ["usage"], rc=2)
    expect_fail("unknown command", ["frobnicate"], None, ["frobnicate"], rc=2)
    expect_fail("bad number", ["encode", "--symbol-size", "x1", p("in"), p("o11")], p("o11"),
                ["--symbol-size", "x1"], rc=2)
    expect_fail("bad overhead", ["encode", "--symbol-size", "64", "--overhead", "lots", p("in"),
                p("o12")], p("o12"), ["--overhead", "lots"], rc=2)
    expect_fail("missing value", ["encode", "--symbol-size"], None, ["--symbol-size"], rc=2)
    expect_fail("unknown option", ["decode", "--fast", p("enc"), p("o13")], p("o13"),
                ["--fast"], rc=2)
    expect_fail("no symbol size", ["encode", p("in"), p("o14")], p("o14"), ["--symbol-size"], rc=2)
    expect_fail("arguments", ["decode", p("enc")], None, ["IN OUT"], rc=2)
    print("dfcp-rqtool:", "ok" if not failures else f"{len(failures)} checks failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
