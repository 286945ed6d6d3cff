#!/usr/bin/env bash
# Usage: tools/gpu/event-fault/build.sh OUTPUT
# Builds the driver probe EventFaultRace.cpp (no mstage: the CUDA driver API
# only) into OUTPUT, against the CUDA toolkit's headers and libcuda stub.
set -euo pipefail
out=${1:?usage: build.sh OUTPUT}
cuda=${CUDA_HOME:-/usr/local/cuda}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
"${CXX:-c++}" -std=c++17 -O2 -I"$cuda/include" "$here/EventFaultRace.cpp" \
  -L"$cuda/lib64/stubs" -lcuda -o "$out"
