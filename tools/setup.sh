#!/usr/bin/env bash
# One command from a fresh machine to a running example: installs the
# dependencies, builds the toolchain, compiles examples/reduce.cpp with
# mstage++ and runs it: on the GPU when there is one; otherwise on the CPU
# back end, and then in PTX-only mode to show the PTX a GPU would get.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh
tools/build.sh

build/bin/mstage++ -O2 examples/reduce.cpp -o build/reduce
echo "setup: built build/reduce with build/bin/mstage++"
if nvidia-smi -L >/dev/null 2>&1; then
  build/reduce
else
  echo "setup: no GPU here; running the example on the CPU back end"
  MSTAGE_BACKEND=cpu build/reduce
  rm -rf build/reduce-dump
  MSTAGE_BACKEND=ptx MSTAGE_ARCH=sm_90 MSTAGE_DUMP=ptx \
    MSTAGE_DUMP_DIR=build/reduce-dump build/reduce
  ptx=(build/reduce-dump/*.ptx)
  if [[ ! -f ${ptx[0]} ]]; then
    echo "setup: FAIL: PTX-only mode dumped no PTX into build/reduce-dump" >&2
    exit 1
  fi
  echo "setup: the PTX a GPU would get is in build/reduce-dump; its kernel:"
  # awk reads all of its input: "| head" would end sed with SIGPIPE, which
  # pipefail made this script's failure whenever the PTX was long enough.
  awk '/\.entry/ { on = 1 } on && shown++ < 40' "${ptx[@]}"
fi
