#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Build a libFuzzer harness with clang (ASan+UBSan) and run it for a bounded
# time over a copy of its saved corpus. Used by the 'fuzz' Meson suite.
#   fuzz.sh OUTDIR NAME SECONDS CORPUS_DIR -- <clang sources and flags>
# Exit 77 (skipped) when clang or its libFuzzer runtime is missing.
set -u
out=$1 name=$2 secs=$3 corpus=$4
shift 4
[ "$1" = "--" ] && shift
command -v clang >/dev/null 2>&1 || { echo "clang not installed"; exit 77; }
mkdir -p "$out"
bin="$out/fuzz-$name"
if ! clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	-D_GNU_SOURCE -std=gnu11 -o "$bin" "$@" 2>"$out/fuzz-$name.build.log"; then
	if grep -q "libclang_rt.fuzzer\|cannot find.*fuzzer" "$out/fuzz-$name.build.log"; then
		echo "libFuzzer runtime not installed"; exit 77
	fi
	cat "$out/fuzz-$name.build.log"; exit 1
fi
work="$out/fuzz-$name.corpus"
rm -rf "$work"; mkdir -p "$work"
[ -d "$corpus" ] && cp -r "$corpus"/. "$work"/ 2>/dev/null
cd "$out" || exit 1
ASAN_OPTIONS=detect_leaks=1 "$bin" -max_total_time="$secs" -rss_limit_mb=1024 \
	-timeout=10 -print_final_stats=1 "$work"
