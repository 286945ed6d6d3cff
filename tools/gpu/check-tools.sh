#!/usr/bin/env bash
# Usage (on the GPU machine, from the repository root):
#   OUT=/some/folder bash tools/gpu/check-tools.sh
#
# Checks that NVIDIA's tools see mstage kernels as source, with the programs
# of test/gpu-tools in the pack that tools/gpu/pack.sh makes (nothing is
# built here). Unpacks .gpu-pack/mstage-gpu.tar.xz into a temporary folder;
# each check prints one PASS or FAIL line, and the output ends with
# "N passed, M failed" (exit status 1 if any failed). Sections:
#   1. compute-sanitizer (line information): memcheck names the file:line
#      of an out-of-bounds store, in a kernel's body and in a helper inlined
#      into it, for the JIT's specialization (MSTAGE_JIT=sync) and for the
#      first launch (MSTAGE_JIT=async: the ahead-of-time generic code where
#      the pack has it for this GPU).
#   2. Nsight Compute source view (line information): ncu --set basic
#      --import-source yes on an mstage kernel; the report's source page
#      maps SASS to the kernel's C++ line.
#   3. Nsight Compute kernel names and NVTX ranges: check_kernel_names: ncu on
#      test/gpu-tools/kernel_names shows each kernel by the readable name the
#      program prints (main::kernel_L<line>, main::saxpy, mstage::reduce);
#      NVTX: ncu --nvtx --nvtx-include "mstage@step/" profiles only the kernel
#      launched inside mstage::nvtx_range("step") (test/gpu-tools/nvtx_ranges),
#      and none for a range that does not exist; MSTAGE_STATS's registers for
#      that kernel equal ncu's "Registers Per Thread".
# The programs print the lines they expect ("LINE <mode> <file>:<line>",
# from __LINE__), so the checks name no line number themselves.
#
# Settings (environment):
#   OUT          where the tools' full output goes (default .gpu-pack/out)
#   ARCHIVE      the archive (default .gpu-pack/mstage-gpu.tar.xz)
#   RUN_TIMEOUT  seconds one tool run may take (default 300)
set -uo pipefail

ARCHIVE=${ARCHIVE:-.gpu-pack/mstage-gpu.tar.xz}
OUT=${OUT:-.gpu-pack/out}
RUN_TIMEOUT=${RUN_TIMEOUT:-300}
mkdir -p "$OUT"
log=$OUT/check-tools.log
: >"$log"

passed=0
failed=0
pass() {
  echo "PASS $*"
  passed=$((passed + 1))
}
fail() {
  echo "FAIL $*"
  failed=$((failed + 1))
}
finish() {
  echo "$passed passed, $failed failed"
  [[ $failed -eq 0 ]]
  exit
}

# A CUDA tool: from PATH, else the toolkit's usual places.
find_tool() {
  local t
  t=$(command -v "$1" 2>/dev/null) && { echo "$t"; return; }
  for t in /usr/local/cuda/bin/"$1" /usr/local/cuda/"$1"/"$1" \
    /usr/local/cuda-*/bin/"$1"; do
    [[ -x $t ]] && { echo "$t"; return; }
  done
}

work=$(mktemp -d "${TMPDIR:-/tmp}/mstage-tools.XXXXXX")
trap 'rm -rf "$work"' EXIT
if ! tar -xJf "$ARCHIVE" -C "$work" >>"$log" 2>&1; then
  fail "unpack: cannot unpack $ARCHIVE (run tools/gpu/pack.sh where mstage is built)"
  finish
fi
export LD_LIBRARY_PATH="$work/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export CUDA_CACHE_DISABLE=1
export MSTAGE_CACHE_DIR=$work/cache
program=$work/test/gpu-tools/line_info
if [[ ! -x $program ]]; then
  fail "pack: no test/gpu-tools/line_info in $ARCHIVE (pack.sh of this version packs it)"
  finish
fi

# The "file:line" that `program MODE` prints for its line of interest.
expected_line() {
  local line
  line=$("$program" "$1" 2>/dev/null | sed -n "s/^LINE $1 //p" | head -n 1)
  # Without a GPU the program still prints it: only the name matters.
  echo "${line##*/}"
}

# ---------------------------------------------------------------------------
# 1. compute-sanitizer memcheck names file:line (owner: lineinfo)
# ---------------------------------------------------------------------------
sanitizer=$(find_tool compute-sanitizer)
if [[ -z $sanitizer ]]; then
  fail "memcheck: compute-sanitizer not found"
else
  for mode in body helper; do
    want=$(MSTAGE_BACKEND=ptx expected_line "$mode")
    for jit in sync async; do
      name="memcheck-$mode-$jit"
      out=$OUT/$name.txt
      MSTAGE_JIT=$jit timeout "$RUN_TIMEOUT" "$sanitizer" --tool memcheck \
        "$program" "$mode" >"$out" 2>&1
      cat "$out" >>"$log"
      # ========= Invalid __global__ write of size 4 bytes
      # =========     at <kernel>+0x.. in /path/line_info.cpp:37
      if [[ -z $want ]]; then
        fail "$name: the program printed no LINE (see $out)"
      elif ! grep -q "Invalid __global__ write" "$out"; then
        fail "$name: memcheck reported no invalid write (see $out)"
      elif grep -A3 "Invalid __global__ write" "$out" |
        grep -Eq "in (.*/)?$want([^0-9]|$)"; then
        pass "$name: memcheck names $want"
      else
        fail "$name: memcheck does not name $want: $(grep -m1 -A1 "Invalid __global__ write" "$out" | tail -n 1)"
      fi
    done
  done
fi

# ---------------------------------------------------------------------------
# 2. Nsight Compute's source view maps SASS to C++ lines (owner: lineinfo)
# ---------------------------------------------------------------------------
ncu=$(find_tool ncu)
if [[ -z $ncu ]]; then
  fail "ncu-source: ncu not found"
else
  want=$(MSTAGE_BACKEND=ptx expected_line saxpy)
  report=$work/saxpy
  # The source text is not on this machine (the line table names the build
  # machine's paths): the source page still lists the line numbers.
  MSTAGE_JIT=sync timeout "$RUN_TIMEOUT" "$ncu" --set basic \
    --import-source yes -f -o "$report" "$program" saxpy \
    >"$OUT/ncu-saxpy.txt" 2>&1
  cat "$OUT/ncu-saxpy.txt" >>"$log"
  csv=$OUT/ncu-saxpy-source.csv
  "$ncu" -i "$report.ncu-rep" --page source --csv --print-source sass,cuda \
    >"$csv" 2>>"$log"
  line=${want##*:}
  if ! grep -q "^PASS saxpy" "$OUT/ncu-saxpy.txt"; then
    fail "ncu-source: the program under ncu did not pass (see $OUT/ncu-saxpy.txt)"
  elif [[ -z $want ]]; then
    fail "ncu-source: the program printed no LINE"
  elif ! grep -q "${want%%:*}" "$csv"; then
    fail "ncu-source: the source page names no ${want%%:*} (see $csv)"
  # "Line No","Source","Address","Source" rows: the line's own row, then
  # rows of its SASS ("","","0x...","  FFMA ...").
  elif grep -A1 "^\"$line\"," "$csv" | grep -q '^"","","0x'; then
    pass "ncu-source: the source page shows SASS under $want"
  else
    fail "ncu-source: no SASS under line $line in the source page (see $csv)"
  fi
fi

# ---------------------------------------------------------------------------
# 3. Nsight Compute shows kernels by their readable names (owner: names)
# ---------------------------------------------------------------------------
check_kernel_names() {
  local names=$work/test/gpu-tools/kernel_names out=$OUT/ncu-names.txt want
  local ncu
  ncu=$(find_tool ncu)
  if [[ ! -x $names ]]; then
    fail "ncu-names: no test/gpu-tools/kernel_names in $ARCHIVE"
    return
  elif [[ -z $ncu ]]; then
    fail "ncu-names: ncu not found"
    return
  fi
  # ncu prints a line per profiled kernel, the symbol demangled:
  # '==PROF== Profiling "main::saxpy" - 1: ...' and "  main::saxpy (8, 1,
  # 1)x(128, 1, 1), Context 1, Stream 7, ...".
  MSTAGE_JIT=sync timeout "$RUN_TIMEOUT" "$ncu" --set basic "$names" \
    >"$out" 2>&1
  cat "$out" >>"$log"
  if ! grep -q "^PASS kernel_names" "$out"; then
    fail "ncu-names: the program under ncu did not pass (see $out)"
    return
  fi
  while read -r want; do
    if grep -Eq "^ +${want} \(|Profiling \"${want}\"" "$out"; then
      pass "ncu-names: ncu shows kernel $want"
    else
      fail "ncu-names: ncu does not show kernel $want (see $out)"
    fi
  done < <(sed -n 's/^NAME //p' "$out")
  [[ -n $(sed -n 's/^NAME //p' "$out") ]] ||
    fail "ncu-names: the program printed no NAME (see $out)"
}
check_kernel_names

# ncu on test/gpu-tools/nvtx_ranges with the NVTX filter Include, its
# LaunchStats section and MSTAGE_STATS=1, into $OUT/ncu-nvtx-Name.txt.
run_nvtx_ranges() {
  local name=$1 include=$2
  MSTAGE_JIT=sync MSTAGE_STATS=1 timeout "$RUN_TIMEOUT" "$ncu" --nvtx \
    --nvtx-include "$include" --section LaunchStats \
    "$work/test/gpu-tools/nvtx_ranges" >"$OUT/ncu-nvtx-$name.txt" 2>&1
  cat "$OUT/ncu-nvtx-$name.txt" >>"$log"
}

# NVTX filtering (owner: nvtx): the kernel inside range "step" of domain
# "mstage" runs on 7 blocks, the one outside on 3; ncu prints each kernel it
# profiles as "<name> (7, 1, 1)x(128, 1, 1), Context 1, ...".
check_nvtx_filter() {
  local out=$OUT/ncu-nvtx-step.txt none=$OUT/ncu-nvtx-none.txt
  if [[ -z $ncu ]]; then
    fail "ncu-nvtx: ncu not found"
    return
  fi
  if [[ ! -x $work/test/gpu-tools/nvtx_ranges ]]; then
    fail "ncu-nvtx: no test/gpu-tools/nvtx_ranges in $ARCHIVE"
    return
  fi
  run_nvtx_ranges step "mstage@step/"
  run_nvtx_ranges none "mstage@no-such-range/"
  if ! grep -q "^PASS nvtx_ranges" "$out"; then
    fail "ncu-nvtx: the program under ncu did not pass (see $out)"
  elif ! grep -q "(7, 1, 1)x(128, 1, 1)" "$out"; then
    fail "ncu-nvtx: the kernel inside mstage@step was not profiled (see $out)"
  elif grep -q "(3, 1, 1)x(128, 1, 1)" "$out"; then
    fail "ncu-nvtx: the kernel outside mstage@step was profiled too (see $out)"
  elif grep -q "x(128, 1, 1), Context" "$none"; then
    fail "ncu-nvtx: a kernel was profiled for a range that does not exist (see $none)"
  else
    pass "ncu-nvtx: --nvtx-include mstage@step/ profiles the kernel inside mstage::nvtx_range(\"step\") alone"
  fi
}

# MSTAGE_STATS's registers (owner: nvtx): the resource table's row of the
# kernel inside the range (named by its lambda's line) against ncu's
# "Registers Per Thread" for it, from the same run.
check_stats_registers() {
  local out=$OUT/ncu-nvtx-step.txt want line stats
  [[ -n $ncu && -f $out ]] || return
  line=$(sed -n 's/^LINE inside //p' "$out" | head -n 1)
  line=${line##*/}
  want=$(awk '/Registers Per Thread/ {print $NF; exit}' "$out")
  # mstage: stats: registers spill st ... kernel key
  # mstage: stats:        16        0 ... main::kernel_L35@.../nvtx_ranges.cpp:35:9 key ...
  stats=$(awk -v at="$line:" '
    /^mstage: stats: registers / {table = 1; next}
    table && /^mstage: stats: / && index($0, at) {print $3; exit}' "$out")
  if [[ -z $line || -z $want ]]; then
    fail "stats-registers: no LINE or no Registers Per Thread in $out"
  elif [[ -z $stats ]]; then
    fail "stats-registers: MSTAGE_STATS has no resource row for $line (see $out)"
  elif [[ $stats == "$want" ]]; then
    pass "stats-registers: MSTAGE_STATS and ncu both give $want registers for $line"
  else
    fail "stats-registers: MSTAGE_STATS gives $stats registers for $line, ncu $want"
  fi
}

check_nvtx_filter
check_stats_registers

finish
