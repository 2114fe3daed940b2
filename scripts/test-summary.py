#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Combine Meson test logs into one closing line: N passed, N failed[, N skipped].

  scripts/test-summary.py [--host-before FILE] TESTLOG.json...

--host-before: what scripts/host_leftovers.py saved before the tests; anything the tests
left on the host (runtime directories, hugepage files and pages, namespaces) is one failure.
"""
import json
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import host_leftovers  # noqa: E402


def main(paths):
	passed = failed = skipped = 0
	failures = []
	host = None
	if len(paths) >= 2 and paths[0] == "--host-before":
		host, paths = paths[1], paths[2:]
	for path in paths:
		try:
			with open(path) as f:
				lines = f.readlines()
		except OSError as e:
			print(f"test-summary: cannot read {path}: {e}", file=sys.stderr)
			failed += 1
			continue
		for line in lines:
			rec = json.loads(line)
			res = rec.get("result")
			name = rec.get("name")
			if res == "OK" or res == "EXPECTEDFAIL":
				passed += 1
			elif res == "SKIP":
				skipped += 1
			else:
				failed += 1
				failures.append(f"{path.split('/')[0]}: {name} ({res})")
	if host is not None:
		try:
			left = host_leftovers.left_behind(host)
			why = f"host: {len(left)} thing(s) left behind by the tests"
		except (OSError, ValueError, KeyError, TypeError) as e:
			left, why = [None], f"host: what was there before the tests unknown: {e}"
		for i in left:
			if i is not None:
				print("LEFT BEHIND:", i)
		if left:
			failed += 1
			failures.append(why)
	for f in failures:
		print("FAILED:", f)
	line = f"{passed} passed, {failed} failed"
	if skipped:
		line += f", {skipped} skipped"
	print(line)
	return 1 if failed else 0


if __name__ == "__main__":
	sys.exit(main(sys.argv[1:]))
