#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# DFCP at the erasure channel's capacity (issue #35): one line per point,
#   capacity LOSS_PCT DELAY_MS GOODPUT BOUND EFF
# (and capacity-bbr / capacity-cubic for kernel TCP through the same link),
# medians of 3 runs; --quick: fewer points, one shorter run. Options and the
# bound: scripts/exp_capacity.py --help. Figures: doc/performance.md, "Capacity".
set -e
exec python3 "$(dirname "$0")/exp_capacity.py" "$@"
