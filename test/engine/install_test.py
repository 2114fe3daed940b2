# SPDX-License-Identifier: BSD-3-Clause
"""meson install --destdir: programs, man pages, docs, configs, drivers-config presets and
dfcp-plot land under the prefix, and the installed engine loads its presets from the installed
tree, not from the source tree (no EAL: a config with an unknown preset fails at load and names
the directory it searched; a shipped config loads and then fails in the EAL). The man pages
hold no build path, name the command alone in their usage lines and name the installed docs;
the installed dfcp-plot calls itself so. dfcp.lua lands in the folder the build was configured
with (-Dwireshark_plugindir): with global/personal, the Lua plugin folder `tshark -G folders`
names, and tshark, pointed at the installed copy (its personal folder, through HOME), lists
the dfcp protocol.

usage: install_test.py BUILD_DIR
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

WANT = ["bin/dfcp-engine", "bin/dfcp-rq", "bin/dfcp-bench", "bin/dfcp-plot", "bin/dfcp-exporter",
        "share/man/man1/dfcp-engine.1", "share/man/man1/dfcp-rq.1",
        "share/man/man1/dfcp-bench.1", "share/dfcp-engine/configs/txonly.ini",
        "share/dfcp-engine/configs/default.ini",
        "share/dfcp-engine/drivers-config/net_ring.ini",
        "share/dfcp-engine/drivers-config/ixgbe.ini", "share/doc/dfcp-engine/config.md",
        "share/doc/dfcp-engine/README.md", "share/doc/dfcp-engine/recipes.md"]
LUA_LABELS = {"global": "Global Lua Plugins", "personal": "Personal Lua Plugins"}


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def configured(build, name):
    """The value of meson option name in the build directory."""
    p = subprocess.run(["meson", "introspect", "--buildoptions", build], capture_output=True,
                       text=True, timeout=60)
    for o in json.loads(p.stdout):
        if o["name"] == name:
            return o["value"]
    fail(f"meson option {name} not in {build}")


def tshark_folders():
    p = subprocess.run(["tshark", "-G", "folders"], capture_output=True, text=True, timeout=60)
    out = {}
    for line in p.stdout.splitlines():
        k, _, v = line.partition(":")
        out[k.strip()] = v.strip()
    return out


def check_lua(build, dest, files):
    """dfcp.lua in the configured folder; with tshark, one of its Lua folders, and loaded."""
    lua = [f for f in files if os.path.basename(f) == "dfcp.lua"]
    if len(lua) != 1:
        fail(f"dfcp.lua installed {len(lua)} times: {lua}")
    folder = "/" + os.path.dirname(lua[0])
    opt = configured(build, "wireshark_plugindir")
    print(f"dfcp.lua in {folder} (wireshark_plugindir = {opt})")
    if opt not in LUA_LABELS:
        if os.path.normpath(folder) != os.path.normpath(opt):
            fail(f"dfcp.lua in {folder}, configured {opt}")
        return
    if shutil.which("tshark") is None:
        print("no tshark here: its folders not checked")
        if not folder.endswith("/wireshark/plugins"):
            fail(f"dfcp.lua in {folder}, not a wireshark/plugins folder")
        return
    want = tshark_folders().get(LUA_LABELS[opt])
    if folder != want:
        fail(f"dfcp.lua in {folder}; tshark -G folders: {LUA_LABELS[opt]} {want}")
    # tshark with the installed folder as its personal Lua folder
    home = os.path.join(dest, "home")
    os.makedirs(os.path.join(home, ".local/lib/wireshark"))
    os.symlink(os.path.join(dest, lua[0].rsplit("/", 1)[0]),
               os.path.join(home, ".local/lib/wireshark/plugins"))
    p = subprocess.run(["tshark", "-G", "protocols"], capture_output=True, text=True,
                       env=dict(os.environ, HOME=home), timeout=120)
    rows = [x for x in p.stdout.splitlines() if x.split("\t")[-1:] == ["dfcp"]]
    print("tshark -G protocols:", rows)
    if p.returncode != 0 or not rows:
        fail(f"tshark with the installed dfcp.lua lists no dfcp protocol: {p.stderr[-500:]}")


def check_man(build, root, prefix):
    """No build path in the man pages, the command alone in their usage lines, the
    installed docs named."""
    docdir = os.path.join(prefix, "share/doc/dfcp-engine")
    for name, usage in (("dfcp-engine", "--config FILE"), ("dfcp-rq", "encode"),
                        ("dfcp-bench", "codec")):
        path = os.path.join(root, "share/man/man1", name + ".1")
        with open(path) as f:
            man = f.read()
        for d in {build, os.path.realpath(build)}:
            if os.path.abspath(d) in man:
                fail(f"{name}.1 names the build directory {d}")
        use = [x for x in man.splitlines() if x.startswith("usage:")]
        print(f"{name}.1:", use[:1])
        if not man.startswith(f".TH {name.upper()} 1") or usage not in man or not use:
            fail(f"{name}.1 is not the usage text as a man page")
        if any(not x.startswith(f"usage: {name} ") for x in use):
            fail(f"{name}.1: a usage line not starting with the command: {use}")
        if f"{docdir}/config.md" not in man:
            fail(f"{name}.1 does not name {docdir}/config.md")


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
        check_lua(build, dest, files)
        plot = os.path.join(root, "bin/dfcp-plot")
        if not os.access(plot, os.X_OK):
            fail("dfcp-plot is not executable")
        p = subprocess.run([plot, "--help"], capture_output=True, text=True, timeout=60)
        print("dfcp-plot --help:", p.stdout.splitlines()[:1])
        if p.returncode != 0 or not p.stdout.startswith("usage: dfcp-plot "):
            fail(f"installed dfcp-plot --help: exit {p.returncode}: {p.stdout[:200]!r}")
        check_man(build, root, "/" + prefix)
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
