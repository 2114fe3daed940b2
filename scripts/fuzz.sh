#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Build a libFuzzer harness with clang (ASan+UBSan) and run it for a bounded
# time over a copy of its saved corpus. Used by the 'fuzz' Meson suite.
#   fuzz.sh OUTDIR NAME SECONDS CORPUS_DIR -- <clang sources and flags>
# Exit 77 (skipped) when clang or its libFuzzer runtime is missing.
# FUZZ_SECONDS in the environment replaces SECONDS (longer runs by hand:
#   FUZZ_SECONDS=600 meson test -C build --suite fuzz --timeout-multiplier 10)
set -u
out=$1 name=$2 secs=${FUZZ_SECONDS:-$3} corpus=$4
shift 4
[ "$1" = "--" ] && shift
command -v clang >/dev/null 2>&1 || { echo "clang not installed"; exit 77; }
mkdir -p "$out"
bin="$out/fuzz-$name"
cflags="-g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -D_GNU_SOURCE -std=gnu11"
# The SIMD kernels of tiers this CPU does not run (SSE and AVX-512 where it has AVX2,
# AVX-512 where it has only SSSE3) compile without the sanitizers and the coverage
# instrumentation: never executed here, they took half of the harnesses' compile time
# (AVX-512 under ASan: ~16 s of CPU per harness). The tier that runs stays instrumented;
# the ASan build's unit tests cover every tier this CPU has.
plain_kern() {
	case $1 in
	*/rq_kern_avx512.c) ! grep -qw avx512bw /proc/cpuinfo ;;
	*/rq_kern_sse.c) grep -qw avx2 /proc/cpuinfo ;;
	*) return 1 ;;
	esac
}
# the C files compile in parallel (one per CPU), then link with the other arguments
# (include paths, libraries); paths here contain no spaces
srcs="" rest=""
for a in "$@"; do
	case $a in
	*.c) srcs="$srcs $a" ;;
	*) rest="$rest $a" ;;
	esac
done
objdir="$out/fuzz-$name.obj"
rm -rf "$objdir"; mkdir -p "$objdir"
n=0
for s in $srcs; do
	n=$((n + 1))
	if plain_kern "$s"; then f="-g0 -O1 -D_GNU_SOURCE -std=gnu11"; else f=$cflags; fi
	echo "$s $objdir/$n.o $f"
done | xargs -P "$(nproc)" -L 1 sh -c \
	'src=$1 obj=$2; shift 2; clang "$@" '"$rest"' -c -o "$obj" "$src"' sh \
	2>"$out/fuzz-$name.build.log"
# shellcheck disable=SC2086
if ! clang $cflags -o "$bin" "$objdir"/*.o $rest 2>>"$out/fuzz-$name.build.log"; then
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
