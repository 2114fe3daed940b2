#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Print the folder a Lua dissector must be installed in for this machine's tshark to load it
(meson.build calls it at configure time for tools/wireshark/dfcp.lua).

usage: wireshark-dir.py WHICH FALLBACK
WHICH: global (tshark's "Global Lua Plugins") or personal ("Personal Lua Plugins").
The folder comes from `tshark -G folders`; without tshark, pkg-config's `wireshark` plugindir
(its version component removed: Lua plugins sit above the binary plugins' 4.0/); without
either, FALLBACK (meson passes <prefix>/<libdir>/wireshark/plugins). A second line says which
source answered.
"""
import os
import re
import shutil
import subprocess
import sys


def tshark_folder(label):
    """The folder `tshark -G folders` names for label, or None."""
    exe = shutil.which("tshark")
    if exe is None:
        return None
    try:
        p = subprocess.run([exe, "-G", "folders"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    for line in p.stdout.splitlines():
        key, sep, val = line.partition(":")
        if sep and key.strip() == label and val.strip():
            return val.strip()
    return None


def pkgconfig_folder():
    exe = shutil.which("pkg-config")
    if exe is None:
        return None
    p = subprocess.run([exe, "--variable=plugindir", "wireshark"], capture_output=True, text=True)
    d = p.stdout.strip()
    if p.returncode != 0 or not d:
        return None
    d = d.rstrip("/")
    if re.fullmatch(r"[0-9][0-9.]*", os.path.basename(d)):
        d = os.path.dirname(d)
    return d


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("global", "personal"):
        print(__doc__, file=sys.stderr)
        return 2
    which, fallback = sys.argv[1:]
    label = "Global Lua Plugins" if which == "global" else "Personal Lua Plugins"
    d = tshark_folder(label)
    if d:
        print(d)
        print(f"tshark -G folders ({label})")
        return 0
    d = pkgconfig_folder() if which == "global" else None
    if d:
        print(d)
        print("pkg-config --variable=plugindir wireshark")
        return 0
    print(fallback)
    print("fallback (no tshark, no wireshark.pc)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
