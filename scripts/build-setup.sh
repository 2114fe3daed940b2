#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Configure a Meson build directory so that it matches the libraries installed now.
#   scripts/build-setup.sh [--check] DIR [MESON SETUP OPTIONS...]
#   scripts/build-setup.sh --fingerprint
#
# Meson looks for optional dependencies (liblcrq, ncurses) once, at setup, and keeps
# "not found" through --reconfigure. This script stores a fingerprint of what it looks
# for (versions from pkg-config, the liblcrq header and library files) in
# DIR/dfcp-deps.txt; when that changes, for instance after install-deps.sh installed
# liblcrq for `make test` into a build that `make run` configured, the directory is
# wiped and configured again with the same options. Nothing happens when it matches.
# --check prints the decision (setup, wipe or keep) and changes nothing;
# --fingerprint prints what would be stored.
set -e

# What the build's optional parts depend on; DFCP_DEPS_EXTRA adds to it (tests).
fingerprint() {
	for pc in libdpdk libisal numa ncursesw ncurses; do
		printf '%s %s\n' "$pc" "$(pkg-config --modversion "$pc" 2>/dev/null || echo none)"
	done
	for f in /usr/include/lcrq.h /usr/lib/*/liblcrq.so /usr/lib/liblcrq.so \
			/usr/local/include/lcrq.h /usr/local/lib/liblcrq.so; do
		[ -e "$f" ] && printf 'file %s\n' "$f"
	done
	printf 'meson %s\n' "$(meson --version 2>/dev/null || echo none)"
	[ -n "$DFCP_DEPS_EXTRA" ] && printf 'extra %s\n' "$DFCP_DEPS_EXTRA"
	return 0
}

check=0
case "$1" in
--fingerprint)
	fingerprint
	exit 0
	;;
--check)
	check=1
	shift
	;;
esac
if [ $# -lt 1 ]; then
	echo "usage: $0 [--check] DIR [MESON SETUP OPTIONS...] | --fingerprint" >&2
	exit 2
fi
dir=$1
shift
now=$(fingerprint)
if [ ! -f "$dir/build.ninja" ]; then
	action=setup
elif [ "$(cat "$dir/dfcp-deps.txt" 2>/dev/null)" != "$now" ]; then
	action=wipe
else
	action=keep
fi
if [ $check = 1 ]; then
	echo "$action"
	exit 0
fi
case $action in
setup)
	meson setup "$dir" "$@"
	;;
wipe)
	echo "build-setup: the installed libraries changed since $dir was configured;" \
		"configuring it again"
	meson setup --wipe "$dir" "$@"
	;;
keep)
	exit 0
	;;
esac
printf '%s\n' "$now" > "$dir/dfcp-deps.txt"
