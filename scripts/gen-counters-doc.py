#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Write the counter tables (`dfcp-engine --counters`) into doc/config.md between its
"counters:begin" and "counters:end" markers, as one Markdown table per owner.
  scripts/gen-counters-doc.py ENGINE [DOC]      rewrite DOC (doc/config.md)
  scripts/gen-counters-doc.py --check ENGINE [DOC]   exit 1 when DOC is not up to date
"""
import os
import subprocess
import sys

BEGIN = "<!-- counters:begin (scripts/gen-counters-doc.py; do not edit by hand) -->"
END = "<!-- counters:end -->"
OUTS = {"T": "text", "J": "JSON", "M": "telemetry"}


def table(engine):
    p = subprocess.run([engine, "--counters"], capture_output=True, text=True, timeout=30,
                       check=True)
    rows, owners = [], []
    for ln in p.stdout.splitlines()[1:]:
        owner, rec, name, unit, out, meaning = ln.split(None, 5)
        if owner not in owners:
            owners.append(owner)
        where = ", ".join(v for k, v in OUTS.items() if k in out)
        rows.append((owner, rec, name, "" if unit == "-" else unit, where,
                     meaning.replace("|", "\\|")))
    text = []
    for o in owners:
        text += ["", f"**{o}**", "", "| record | counter | unit | in | meaning |",
                 "|---|---|---|---|---|"]
        text += [f"| {r[1]} | `{r[2]}` | {r[3]} | {r[4]} | {r[5]} |" for r in rows if r[0] == o]
    return "\n".join([BEGIN] + text + ["", END])


def main(argv):
    check = argv[:1] == ["--check"]
    argv = argv[1:] if check else argv
    if not 1 <= len(argv) <= 2:
        print(__doc__)
        return 2
    doc = argv[1] if len(argv) == 2 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "doc", "config.md")
    with open(doc) as f:
        cur = f.read()
    if BEGIN not in cur or END not in cur:
        print(f"{doc}: no counters markers")
        return 1
    head, rest = cur.split(BEGIN, 1)
    new = head + table(argv[0]) + rest.split(END, 1)[1]
    if check:
        if new != cur:
            print(f"{doc}: the counters section is out of date: run scripts/gen-counters-doc.py")
            return 1
        print(f"{doc}: counters section up to date")
        return 0
    with open(doc, "w") as f:
        f.write(new)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
