#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""What a test run left on the host (make test, around its suites).

  scripts/host_leftovers.py save FILE    what is there now, into FILE
  scripts/host_leftovers.py check FILE   what is there now and was not in FILE: listed,
                                         exit 1; else one line saying nothing was left

Looked at: the EAL's runtime directories (/var/run/dpdk as root, else
$XDG_RUNTIME_DIR/dpdk or /tmp/dpdk), hugetlbfs mounts and the files in them, the
reserved 2 MB hugepages (HugePages_Total) and network namespaces (/run/netns). A run,
killed or not, and every test clean up what they made (doc/config.md, "Running on a
real host"); this is the check that they did. make test runs `save` before its suites and
scripts/test-summary.py --host-before FILE counts what was left as one failure.
"""
import json
import os
import sys


# where the state is read (a test points these at a made-up tree)
PATHS = {"run": None, "mounts": "/proc/mounts", "meminfo": "/proc/meminfo",
         "netns": "/run/netns"}


def run_base():
    """The EAL's runtime base folder, chosen as rte_eal_init() does."""
    if PATHS["run"]:
        return PATHS["run"]
    if os.geteuid() == 0:
        return "/var/run/dpdk"
    xdg = os.environ.get("XDG_RUNTIME_DIR")
    return os.path.join(xdg, "dpdk") if xdg else "/tmp/dpdk"


def listdir(d):
    try:
        return sorted(os.listdir(d))
    except OSError:
        return []


def hugetlbfs_mounts():
    out = []
    try:
        with open(PATHS["mounts"]) as f:
            for line in f:
                p = line.split()
                if len(p) >= 3 and p[2] == "hugetlbfs":
                    out.append(p[1].replace("\\040", " "))
    except OSError:
        pass
    return out


def hugepages_total():
    try:
        with open(PATHS["meminfo"]) as f:
            for line in f:
                if line.startswith("HugePages_Total:"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return 0


def state():
    base = run_base()
    items = [f"runtime directory {os.path.join(base, n)}" for n in listdir(base)]
    for m in hugetlbfs_mounts():
        items.append(f"hugetlbfs mount {m}")
        items += [f"hugepage file {os.path.join(m, n)}" for n in listdir(m)]
    items += [f"network namespace {n}" for n in listdir(PATHS["netns"])]
    return {"items": items, "hugepages": hugepages_total()}


def left_behind(before_path):
    """What is on the host now and was not in the state saved in before_path (as lines);
    raises OSError or ValueError when that file cannot be read."""
    with open(before_path) as f:
        before = json.load(f)
    now = state()
    left = [i for i in now["items"] if i not in set(before["items"])]
    if now["hugepages"] > before["hugepages"]:
        left.append(f"{now['hugepages'] - before['hugepages']} hugepages still reserved "
                    f"(HugePages_Total {before['hugepages']} before, {now['hugepages']} after)")
    return left


def main(argv):
    if len(argv) != 3 or argv[1] not in ("save", "check"):
        print("\n".join(__doc__.strip().splitlines()[2:5]), file=sys.stderr)
        return 2
    if argv[1] == "save":
        with open(argv[2], "w") as f:
            json.dump(state(), f)
        return 0
    try:
        left = left_behind(argv[2])
    except (OSError, ValueError, KeyError, TypeError) as e:
        print(f"host_leftovers: cannot read {argv[2]}: {e}", file=sys.stderr)
        return 2
    for i in left:
        print("LEFT BEHIND:", i)
    if left:
        print(f"host: {len(left)} thing(s) left behind")
        return 1
    print("host: nothing left behind (runtime directories, hugepage files, hugepages, "
          "namespaces)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
