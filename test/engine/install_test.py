# SPDX-License-Identifier: BSD-3-Clause
"""meson install --destdir: programs, man pages, configs, drivers-config presets, the Wireshark
dissector and dfcp-plot land under the prefix, and the installed engine loads its presets from
the installed tree, not from the source tree (no EAL: a config with an unknown preset fails at
load and names the directory it searched; a shipped config loads and then fails in the EAL).

usage: install_test.py BUILD_DIR
"""
import os
import subprocess
import sys
import tempfile

WANT = ["bin/dfcp-engine", "bin/dfcp-rq", "bin/dfcp-bench", "bin/dfcp-plot", "bin/dfcp-exporter",
        "share/man/man1/dfcp-engine.1", "share/man/man1/dfcp-rq.1",
        "share/man/man1/dfcp-bench.1", "share/dfcp-engine/configs/txonly.ini",
        "share/dfcp-engine/configs/default.ini",
        "share/dfcp-engine/drivers-config/net_ring.ini",
        "share/dfcp-engine/drivers-config/ixgbe.ini"]


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    build = sys.argv[1]
    with tempfile.TemporaryDirectory(prefix="install-") as dest:
        p = subprocess.run(["meson", "install", "-C", build, "--destdir", dest, "--no-rebuild",
                            "--quiet"], capture_output=True, text=True, timeout=300)
        if p.returncode != 0:
            fail(f"meson install: {p.stdout[-2000:]}{p.stderr[-2000:]}")
        files = sorted(os.path.relpath(os.path.join(r, f), dest)
                       for r, _, fs in os.walk(dest) for f in fs)
        print("\n".join(files))
        prefix = os.path.commonpath([f for f in files if "/bin/" in f]).rsplit("/bin", 1)[0]
        root = os.path.join(dest, prefix)
        for w in WANT:
            if not os.path.isfile(os.path.join(root, w)):
                fail(f"{w} not installed under {prefix}")
        if not any(f.endswith("wireshark/plugins/dfcp.lua") for f in files):
            fail("dfcp.lua not in a wireshark/plugins folder")
        plot = os.path.join(root, "bin/dfcp-plot")
        if not os.access(plot, os.X_OK):
            fail("dfcp-plot is not executable")
        with open(os.path.join(root, "share/man/man1/dfcp-engine.1")) as f:
            man = f.read()
        if not man.startswith(".TH DFCP-ENGINE 1") or "--config FILE" not in man:
            fail("dfcp-engine.1 is not the usage text as a man page")
        engine = os.path.join(root, "bin/dfcp-engine")
        ini = os.path.join(dest, "nopreset.ini")
        with open(ini, "w") as f:
            f.write("[port p0]\ndevice = ring:w\npreset = nosuch\n[task t]\nkind = txonly\n"
                    "port = p0\n[lcore 1]\ntasks = t\n")
        env = dict(os.environ)
        env.pop("DFCP_DRIVERS_DIR", None)
        p = subprocess.run([engine, "--", "--config", ini], capture_output=True, text=True,
                           env=env, timeout=30)
        want = os.path.realpath(os.path.join(root, "share/dfcp-engine/drivers-config"))
        m = [w for w in p.stderr.split() if w.endswith("/nosuch.ini")]
        print("installed engine:", p.stderr.strip()[:300])
        if p.returncode != 1 or not m or \
                os.path.realpath(os.path.dirname(m[0])) != want:
            fail(f"installed engine searched {m}, want {want}")
        # a shipped config loads with the installed presets (then the EAL refuses an option)
        p = subprocess.run([engine, "--no-such-eal-option", "--", "--config",
                            os.path.join(root, "share/dfcp-engine/configs/txonly.ini")],
                           capture_output=True, text=True, env=env, timeout=30)
        if p.returncode != 2 or "config error" in p.stderr:
            fail(f"installed txonly.ini: exit {p.returncode}: {p.stderr[-500:]}")
    print("PASS install")
    return 0


if __name__ == "__main__":
    sys.exit(main())
