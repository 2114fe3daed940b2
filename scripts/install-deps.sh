#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Install the Debian packages the project needs, only when something is missing.
#   scripts/install-deps.sh run    what building and running the engine needs (make run/build)
#   scripts/install-deps.sh [all]  that and what the tests need (make test): clang, liblcrq,
#                                  testpmd, iproute2, tshark, iperf3, openssl, ethtool, gnuplot, tmux,
#                                  python3-prometheus-client
set -e
what=${1:-all}
case "$what" in run|all) ;; *) echo "usage: $0 [run|all]" >&2; exit 2 ;; esac

missing=""
need_pkgconfig() { pkg-config --exists "$1" 2>/dev/null || missing="$missing $2"; }
need_cmd() { command -v "$1" >/dev/null 2>&1 || missing="$missing $2"; }
need_file() { [ -e "$1" ] || missing="$missing $2"; }

need_cmd pkg-config pkg-config
need_pkgconfig libdpdk "libdpdk-dev dpdk dpdk-dev"
need_pkgconfig libisal libisal-dev
need_pkgconfig numa libnuma-dev
need_pkgconfig libcrypto libssl-dev
need_pkgconfig ncursesw libncurses-dev
# DFCP encryption's fastest AES-GCM (crypto_backend = ipsec-mb); Debian has it on amd64 only
[ "$(dpkg --print-architecture 2>/dev/null)" != amd64 ] || \
	need_file /usr/include/intel-ipsec-mb.h libipsec-mb-dev
need_cmd meson meson
need_cmd ninja ninja-build
need_cmd python3 python3
need_cmd gcc gcc
if [ "$what" = all ]; then
need_cmd clang clang
need_file /usr/include/lcrq.h liblcrq-dev
need_cmd dpdk-testpmd dpdk
need_cmd ip iproute2
need_cmd tshark tshark
need_cmd iperf3 iperf3
need_cmd openssl openssl
need_cmd ethtool ethtool
need_cmd gnuplot gnuplot-nox
need_cmd tmux tmux
# tools/dfcp-exporter and its test (/usr/bin/python3: Debian's module)
need_file /usr/lib/python3/dist-packages/prometheus_client/__init__.py python3-prometheus-client
# LeakSanitizer/libFuzzer runtimes for clang
[ -n "$(ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a 2>/dev/null)" ] || \
	missing="$missing libclang-rt-dev"
fi

if [ -z "$missing" ]; then
	exit 0
fi
echo "install-deps: installing:$missing"
if [ "$(id -u)" != 0 ]; then
	SUDO=sudo
else
	SUDO=
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends $missing
