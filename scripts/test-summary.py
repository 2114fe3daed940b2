#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Combine Meson test logs into one closing line: N passed, N failed[, N skipped]."""
import json
import sys


def main(paths):
	passed = failed = skipped = 0
	failures = []
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
	for f in failures:
		print("FAILED:", f)
	line = f"{passed} passed, {failed} failed"
	if skipped:
		line += f", {skipped} skipped"
	print(line)
	return 1 if failed else 0


if __name__ == "__main__":
	sys.exit(main(sys.argv[1:]))
