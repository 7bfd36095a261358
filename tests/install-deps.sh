#!/bin/sh
# install-deps.sh - install what building and testing flowbench needs on
# Debian (12 or later): compilers, autotools, flex/bison, libyaml,
# liburing, libaio, libblkid, jansson, nettle, Check, and the tools the end-to-end tests and benchmarks use
# (strace, fio, valgrind, chromium for the report page rendered headless,
# e2fsprogs, xfsprogs and btrfs-progs for the file systems on loop
# devices), Open MPI
# (flowbench-mpi and its tests) and MPICH (flowbench-mpi must build with it too), and clang's sanitizer and libFuzzer runtimes (libclang-rt-dev).
set -eu
pkgs="build-essential autoconf automake pkg-config flex bison libyaml-dev liburing-dev libaio-dev libblkid-dev libjansson-dev nettle-dev check strace fio valgrind e2fsprogs xfsprogs btrfs-progs chromium openmpi-bin libopenmpi-dev mpich libmpich-dev clang libclang-rt-dev python3"
if [ "$(id -u)" -eq 0 ]; then
	as_root=
else
	as_root=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$as_root apt-get update -qq
# shellcheck disable=SC2086
$as_root apt-get install -y -qq --no-install-recommends $pkgs >/dev/null
echo "install-deps: ok ($pkgs)"
