#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""scripts/build-setup.sh --check: a build directory is configured when it has no
build.ninja, configured again (wiped) when the installed libraries differ from those
it was configured with (an optional library installed later), and kept otherwise.

usage: build_setup_test.py SOURCE_ROOT"""
import os
import subprocess
import sys
import tempfile


def check(script, d, extra):
    env = dict(os.environ, DFCP_DEPS_EXTRA=extra)
    p = subprocess.run(["sh", script, "--check", d], capture_output=True, text=True, env=env)
    if p.returncode != 0:
        print(p.stderr)
        sys.exit(f"FAIL: build-setup.sh --check exited {p.returncode}")
    return p.stdout.strip()


def fingerprint(script, extra):
    """What a real set-up would store: the script's fingerprint for this environment."""
    env = dict(os.environ, DFCP_DEPS_EXTRA=extra)
    p = subprocess.run(["sh", script, "--fingerprint"], capture_output=True, text=True, env=env)
    return p.stdout


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    script = os.path.join(sys.argv[1], "scripts", "build-setup.sh")
    with tempfile.TemporaryDirectory(prefix="build-setup-") as d:
        got = check(script, d, "a")
        if got != "setup":
            sys.exit(f"FAIL: empty directory: {got!r}, expected 'setup'")
        open(os.path.join(d, "build.ninja"), "w").close()
        got = check(script, d, "a")
        if got != "wipe":
            sys.exit(f"FAIL: configured without a fingerprint: {got!r}, expected 'wipe'")
        fp = fingerprint(script, "a")
        if "libdpdk" not in fp or "extra a" not in fp:
            sys.exit(f"FAIL: fingerprint lacks its parts: {fp!r}")
        with open(os.path.join(d, "dfcp-deps.txt"), "w") as f:
            f.write(fp)
        got = check(script, d, "a")
        if got != "keep":
            sys.exit(f"FAIL: same libraries: {got!r}, expected 'keep'")
        got = check(script, d, "a, liblcrq installed since")
        if got != "wipe":
            sys.exit(f"FAIL: a library installed since set-up: {got!r}, expected 'wipe'")
    print("build-setup: setup, wipe and keep decided as expected")
    return 0


if __name__ == "__main__":
    sys.exit(main())
