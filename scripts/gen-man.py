#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Write a man page (roff) for PROGRAM from its --help text (meson install puts it in man1).

usage: gen-man.py PROGRAM NAME SUMMARY VERSION OUT [MODE ...]
MODE: subcommands whose "PROGRAM MODE --help" text is appended (dfcp-rq, dfcp-bench).
"""
import subprocess
import sys


def esc(line):
    line = line.replace("\\", "\\e")
    return ("\\&" + line) if line.startswith((".", "'")) else line


def help_text(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=30)
    if p.returncode != 0:
        sys.exit(f"gen-man: {' '.join(cmd)} exited {p.returncode}")
    return p.stdout.rstrip("\n").splitlines()


def main():
    if len(sys.argv) < 6:
        print(__doc__)
        return 2
    prog, name, summary, version, out = sys.argv[1:6]
    modes = sys.argv[6:]
    lines = [f'.TH {name.upper()} 1 "" "{name} {version}" "dfcp-engine"',
             ".SH NAME", f"{name} \\- {summary}", ".SH USAGE", ".nf"]
    lines += [esc(x) for x in help_text([prog, "--help"])]
    lines.append(".fi")
    for m in modes:
        lines += [f".SH {m.upper()}", ".nf"]
        lines += [esc(x) for x in help_text([prog, m, "--help"])]
        lines.append(".fi")
    lines += [".SH SEE ALSO", "dfcp-engine(1), dfcp-rq(1), dfcp-bench(1); README.md and doc/ of "
              "the source tree (doc/config.md: every config key)."]
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
