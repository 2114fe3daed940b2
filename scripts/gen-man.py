#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Write a man page (roff) for PROGRAM from its --help text (meson install puts it in man1).

usage: gen-man.py PROGRAM NAME SUMMARY VERSION DOCDIR OUT [MODE ...]
PROGRAM runs with NAME as its argv[0], so the usage lines name the installed command, not the
build path. DOCDIR: the installed docs (README.md, config.md, ...), named in SEE ALSO.
MODE: subcommands whose "PROGRAM MODE --help" text is appended (dfcp-rq, dfcp-bench).
"""
import subprocess
import sys


def esc(line):
    line = line.replace("\\", "\\e")
    return ("\\&" + line) if line.startswith((".", "'")) else line


def help_text(prog, cmd):
    """cmd's stdout lines; cmd[0] is the argv[0] PROGRAM runs with."""
    p = subprocess.run(cmd, executable=prog, capture_output=True, text=True, timeout=30)
    if p.returncode != 0:
        sys.exit(f"gen-man: {' '.join(cmd)} exited {p.returncode}")
    return p.stdout.rstrip("\n").splitlines()


def main():
    if len(sys.argv) < 7:
        print(__doc__)
        return 2
    prog, name, summary, version, docdir, out = sys.argv[1:7]
    modes = sys.argv[7:]
    lines = [f'.TH {name.upper()} 1 "" "{name} {version}" "dfcp-engine"',
             ".SH NAME", f"{name} \\- {summary}", ".SH USAGE", ".nf"]
    lines += [esc(x) for x in help_text(prog, [name, "--help"])]
    lines.append(".fi")
    for m in modes:
        lines += [f".SH {m.upper()}", ".nf"]
        lines += [esc(x) for x in help_text(prog, [name, m, "--help"])]
        lines.append(".fi")
    lines += [".SH FILES", f"{esc(docdir)}/config.md: every config key;", ".br",
              f"{esc(docdir)}/README.md and the other documents of {esc(docdir)}.",
              ".SH SEE ALSO", "dfcp-engine(1), dfcp-rq(1), dfcp-bench(1), dfcp-plot --help."]
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
