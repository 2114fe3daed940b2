# SPDX-License-Identifier: BSD-3-Clause
# Thin wrapper around Meson/Ninja (the build system is Meson).
#   make run    install what is missing, build, run the default config
#   make test   install what is missing, build (plain + ASan/UBSan), run every suite

BUILD      ?= build
ASAN_BUILD ?= build-asan
CONFIG     ?= configs/default.ini
MESON_OPTS ?=

.PHONY: all deps deps-test build build-asan run test test-quick bench clean experiments seed-experiments install

all: build

# deps: what building and running needs; deps-test: that and the test tools (install-deps.sh)
deps:
	@scripts/install-deps.sh run

deps-test:
	@scripts/install-deps.sh all

# scripts/build-setup.sh configures a build directory, and configures it again when the
# installed libraries changed since (an optional one such as liblcrq installed later).
build: deps
	@scripts/build-setup.sh $(BUILD) $(MESON_OPTS)
	meson compile -C $(BUILD)

build-asan: deps
	@scripts/build-setup.sh $(ASAN_BUILD) -Db_sanitize=address,undefined -Db_lundef=false \
		-Doptimization=1 -Ddebug=true $(MESON_OPTS)
	meson compile -C $(ASAN_BUILD)

run: build
	$(BUILD)/app/dfcp-engine/dfcp-engine -- --config $(CONFIG)

# Every suite in the plain build, the unit suites again under ASan/UBSan (-O1: a third
# less compile time than -O2 for the same tests), a check that they left nothing on the
# host (runtime directories, hugepage files and pages, namespaces: scripts/host_leftovers.py),
# then one closing line "N passed, N failed[, N skipped]".
test: deps-test build build-asan
	@rc=0; \
	python3 scripts/host_leftovers.py save $(BUILD)/host-before.json || rc=1; \
	meson test -C $(BUILD) --print-errorlogs --num-processes 2 || rc=1; \
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
		meson test -C $(ASAN_BUILD) --suite unit --print-errorlogs --num-processes 2 || rc=1; \
	python3 scripts/test-summary.py --host-before $(BUILD)/host-before.json \
		$(BUILD)/meson-logs/testlog.json \
		$(ASAN_BUILD)/meson-logs/testlog.json || rc=1; \
	exit $$rc

# The thesis experiments with kernel TCP (issues #6, #16, doc/results.md): DFCP at scale 1,
# TCP at --tcp-scale auto; ARGS="--scenario loss --quick" or ARGS="--queue 2000" (doc/results.md §0)
experiments: build
	python3 scripts/experiments.py --engine $(BUILD)/app/dfcp-engine/dfcp-engine $(ARGS)

# The TCP experiments of seeds 001-003 (issue #7, doc/results-tcp.md); ARGS="--scenario seed002"
seed-experiments: build
	python3 scripts/exp_seeds.py --engine $(BUILD)/app/dfcp-engine/dfcp-engine $(ARGS)

# Benchmarks (programs, not tests; figures in doc/raptorq.md, doc/scheduler.md,
# doc/performance.md): run them on an otherwise idle machine.
bench: build
	$(BUILD)/app/dfcp-bench/dfcp-bench codec --k 47 --symbol-size 1420 --peer lcrq
	$(BUILD)/app/dfcp-bench/dfcp-bench codec --k 1000 --symbol-size 1420
	$(BUILD)/app/dfcp-bench/dfcp-bench codec --k 10000 --symbol-size 1420
	$(BUILD)/app/dfcp-bench/dfcp-bench sched --peer rte_sched
	ENGINE=$(BUILD)/app/dfcp-engine/dfcp-engine scripts/bench-linerate.sh 5

test-quick: build
	meson test -C $(BUILD) --suite unit --print-errorlogs

# binaries, man pages, configs, presets, dissector, dfcp-plot under PREFIX (meson's, /usr/local)
install: build
	meson install -C $(BUILD)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)
