#!/usr/bin/env bash
# Installs what building mstage needs on Debian 12 (bookworm): LLVM and Clang
# 22 with their development files, lit and FileCheck, zstd (asked for by
# LLVM's static libraries), libFuzzer and the sanitizers (libclang-rt, for
# the fuzzers in fuzz/), Boost.Context (the CPU back end's fibers, linked
# statically into the runtime), CMake and Ninja, Open MPI (for
# examples/heat_mpi and its test) and googletest (unittests/). The CUDA
# toolkit (cuda.h, libdevice and ptxas) must already be installed, as on the
# CI machines.
set -euo pipefail

packages=(llvm-22-dev clang-22 libclang-22-dev llvm-22-tools libzstd-dev
          libclang-rt-22-dev libboost-context-dev cmake ninja-build
          libopenmpi-dev openmpi-bin libgtest-dev)

missing=()
for p in "${packages[@]}"; do
  # No "| grep -q": under pipefail, dpkg-query ended by SIGPIPE read as missing.
  [[ $(dpkg-query -W -f='${Status}' "$p" 2>/dev/null) == *"install ok installed"* ]] ||
    missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""
  [[ $(id -u) -ne 0 ]] && sudo=sudo
  echo "install-deps: installing ${missing[*]}"
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

cuda=${CUDA_HOME:-/usr/local/cuda}
for f in include/cuda.h nvvm/libdevice/libdevice.10.bc bin/ptxas; do
  if [[ ! -e $cuda/$f ]]; then
    echo "install-deps: error: $cuda/$f is missing; install the CUDA toolkit" \
         "(or set CUDA_HOME to it)" >&2
    exit 1
  fi
done
echo "install-deps: ready (LLVM $(/usr/lib/llvm-22/bin/llvm-config --version), CUDA toolkit in $cuda)"
