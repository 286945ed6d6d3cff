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
#      and none for a range that does not exist.
#   4. Registers: MSTAGE_STATS's registers for that kernel (ptxas's count,
#      cuFuncGetAttribute's) equal `ptxas -v`'s for the PTX the run dumped
#      (MSTAGE_DUMP=ptx), and ncu's "Registers Per Thread" equals that count
#      rounded up to 8, the registers the GPU allocates a thread (256 a
#      warp at a time).
#   5. cuda-gdb on test/gpu-tools/debug_step (built -g -O0), in batch mode:
#      a breakpoint at the kernel by each spelling (its readable name
#      main::debug_step, its mangled symbol, its file:line, and `set cuda
#      break_on_launch application`), each a PASS or FAIL line of its own;
#      then, from a breakpoint at the body's first line, three `next`s step
#      through its four consecutive lines (the JIT compiles a -g -O0 unit
#      without optimization), and `print` shows the locals I and V with
#      V = 2 * I + 1. The raw output is $OUT/gdb-*.txt.
# The programs print the lines they expect ("LINE <mode> <file>:<line>",
# from __LINE__), so the checks name no line number themselves.
#
# Settings (environment):
#   CHECKS       the sections to run, of memcheck, ncu (sections 2-4),
#                cuda-gdb and cuda-gdb-step (section 5's stepping alone),
#                separated by spaces (default: all)
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
# Whether CHECKS asks for section $1.
want() {
  [[ -z ${CHECKS:-} || " $CHECKS " == *" $1 "* ]]
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
# Sections 1 and 2 run it; section 5 needs only debug_step.
if [[ ! -x $program ]] && { want memcheck || want ncu; }; then
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
if ! want memcheck; then
  :
elif [[ -z $sanitizer ]]; then
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
if ! want ncu; then
  :
elif [[ -z $ncu ]]; then
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
want ncu && check_kernel_names

# ncu on test/gpu-tools/nvtx_ranges with the NVTX filter Include, its
# LaunchStats section and MSTAGE_STATS=1, into $OUT/ncu-nvtx-Name.txt; the
# PTX the JIT made goes to $work/dump-Name (MSTAGE_DUMP=ptx).
run_nvtx_ranges() {
  local name=$1 include=$2
  MSTAGE_JIT=sync MSTAGE_STATS=1 MSTAGE_DUMP=ptx \
    MSTAGE_DUMP_DIR="$work/dump-$name" timeout "$RUN_TIMEOUT" "$ncu" --nvtx \
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

# The Itanium symbol of a kernel's readable name (passes/formats/
# KernelSymbol.h): main::debug_step is _ZN4main10debug_stepE.
mangle() {
  local out=_ZN part rest=$1
  while [[ -n $rest ]]; do
    part=${rest%%::*}
    out+=${#part}$part
    [[ $rest == *::* ]] && rest=${rest#*::} || rest=
  done
  echo "${out}E"
}

# MSTAGE_STATS's registers against the tools, from the run of
# check_nvtx_filter: the resource table's row of the kernel inside the range
# (named by its lambda's line) against
#  - `ptxas -v` of the PTX that run dumped: the same count (ptxas's, which
#    cuFuncGetAttribute(NUM_REGS) returns for the loaded code), unless the
#    driver's JIT and this ptxas differ;
#  - ncu's "Registers Per Thread" (launch__registers_per_thread): the
#    registers allocated a thread, the count rounded up to 8, since the GPU
#    allocates registers to a warp in units of 256 (the CUDA occupancy
#    calculator's "register allocation unit size"; measured on the H100:
#    ptxas 10, 12 and 14 registers were 16 in ncu).
check_stats_registers() {
  local out=$OUT/ncu-nvtx-step.txt ncu_regs line stats name ptx ptxas arch
  local ptxas_regs
  [[ -n $ncu && -f $out ]] || return
  line=$(sed -n 's/^LINE inside //p' "$out" | head -n 1)
  line=${line##*/}
  ncu_regs=$(awk '/Registers Per Thread/ {print $NF; exit}' "$out")
  # mstage: stats: registers spill st ... kernel key
  # mstage: stats:        10        0 ... main::kernel_L35@.../nvtx_ranges.cpp:35:9 key ...
  read -r stats name < <(awk -v at="$line:" '
    /^mstage: stats: registers / {table = 1; next}
    table && /^mstage: stats: / && index($0, at) {
      for (i = 4; i <= NF; ++i) if (index($i, at)) break
      print $3, $i; exit}' "$out")
  name=${name%%@*}
  if [[ -z $line ]]; then
    fail "stats-registers: the program printed no LINE (see $out)"
    return
  elif [[ -z $stats || $stats == - ]]; then
    fail "stats-registers: MSTAGE_STATS has no registers for $line (see $out)"
    return
  fi
  ptx=$(ls "$work/dump-step/$(mangle "$name")"-*.ptx 2>/dev/null | head -n 1)
  ptxas=$(find_tool ptxas)
  if [[ -z $ptx ]]; then
    fail "stats-registers-ptxas: no dumped PTX of $name in $work/dump-step"
  elif [[ -z $ptxas ]]; then
    fail "stats-registers-ptxas: ptxas not found"
  else
    arch=$(sed -n 's/^\.target \(sm_[0-9a-z]*\).*/\1/p' "$ptx" | head -n 1)
    cp "$ptx" "$OUT/stats-registers.ptx"
    "$ptxas" -v -arch="$arch" "$ptx" -o /dev/null \
      >"$OUT/stats-registers-ptxas.txt" 2>&1
    ptxas_regs=$(sed -n 's/.*Used \([0-9]*\) registers.*/\1/p' \
      "$OUT/stats-registers-ptxas.txt" | head -n 1)
    if [[ $ptxas_regs == "$stats" ]]; then
      pass "stats-registers-ptxas: MSTAGE_STATS and ptxas -v ($arch) both give $stats registers for $name"
    else
      fail "stats-registers-ptxas: MSTAGE_STATS gives $stats registers for $name, ptxas -v ($arch) ${ptxas_regs:-nothing} (see $OUT/stats-registers-ptxas.txt)"
    fi
  fi
  local allocated=$(((stats + 7) / 8 * 8))
  if [[ -z $ncu_regs ]]; then
    fail "stats-registers-ncu: no Registers Per Thread in $out"
  elif [[ $ncu_regs == "$allocated" ]]; then
    pass "stats-registers-ncu: ncu's Registers Per Thread $ncu_regs is MSTAGE_STATS's $stats rounded up to 8 (allocated)"
  else
    fail "stats-registers-ncu: ncu gives $ncu_regs registers for $name, MSTAGE_STATS $stats (rounded up to 8: $allocated)"
  fi
}

# ---------------------------------------------------------------------------
# 5. cuda-gdb stops at a kernel by name and steps through its lines
# ---------------------------------------------------------------------------
# cuda-gdb in batch mode on debug_step under MSTAGE_JIT=sync (the kernel is
# JIT-compiled and loaded at its launch), with Commands (each an -ex) after
# "set breakpoint pending on", into $OUT/gdb-Name.txt.
run_gdb() {
  local name=$1
  shift
  local args=(-batch -ex "set breakpoint pending on")
  local c
  for c in "$@"; do
    args+=(-ex "$c")
  done
  MSTAGE_JIT=sync timeout "$RUN_TIMEOUT" "$gdb" "${args[@]}" -ex kill \
    --args "$debug" >"$OUT/gdb-$name.txt" 2>&1
  cat "$OUT/gdb-$name.txt" >>"$log"
}

# True when cuda-gdb stopped in Kernel: a frame of the backtrace is it
# ("#2  main::debug_step<<<(1,1,1),(32,1,1)>>> () at .../kernel.hpp:65"); at
# -O0 the frames above it are the lambda and the helpers inlined into it.
stopped_in() {
  grep -Eq "^#[0-9]+ +$2<<<" "$OUT/gdb-$1.txt"
}

check_cuda_gdb() {
  local kernel symbol body file first last spelling name lines
  gdb=$(find_tool cuda-gdb)
  debug=$work/test/gpu-tools/debug_step
  if [[ -z $gdb ]]; then
    fail "cuda-gdb: cuda-gdb not found"
    return
  elif [[ ! -x $debug ]]; then
    fail "cuda-gdb: no test/gpu-tools/debug_step in $ARCHIVE"
    return
  fi
  "$gdb" --version | head -n 1 >"$OUT/gdb-version.txt" 2>&1
  kernel=$(MSTAGE_BACKEND=ptx "$debug" 2>/dev/null | sed -n 's/^NAME //p')
  body=$(MSTAGE_BACKEND=ptx "$debug" 2>/dev/null | sed -n 's/^BODY //p')
  read -r file first last <<<"$body"
  file=${file##*/}
  if [[ -z $kernel || -z $last ]]; then
    fail "cuda-gdb: debug_step printed no NAME or BODY"
    return
  fi
  symbol=$(mangle "$kernel")

  # (a) A breakpoint at the kernel, by each spelling. A pending breakpoint
  # is resolved when the module that holds the kernel is loaded, at the
  # launch: what matters is whether cuda-gdb finds the JIT's kernel by it.
  want cuda-gdb && for spelling in "demangled:$kernel" "mangled:$symbol" \
    "file-line:$file:$first"; do
    name=break-${spelling%%:*}
    run_gdb "$name" "break ${spelling#*:}" run bt
    if stopped_in "$name" "$kernel"; then
      pass "cuda-gdb-$name: break ${spelling#*:} stops in $kernel"
    else
      fail "cuda-gdb-$name: break ${spelling#*:} does not stop in $kernel (see $OUT/gdb-$name.txt)"
    fi
  done
  if want cuda-gdb; then
    run_gdb break-on-launch "set cuda break_on_launch application" run bt
    if stopped_in break-on-launch "$kernel"; then
      pass "cuda-gdb-break-on-launch: set cuda break_on_launch application stops in $kernel"
    else
      fail "cuda-gdb-break-on-launch: break_on_launch does not stop in $kernel (see $OUT/gdb-break-on-launch.txt)"
    fi
  fi

  # (b) From a breakpoint at the body's first line, three `next`s. The JIT
  # compiles a -g -O0 unit without optimization, so each `next` goes to the
  # body's next line: "info line" after each gives first, first+1, ...
  # last. Then the locals: at the last line V = 2 * I + 1 (the body's
  # statements), in local memory, which the DWARF describes.
  run_gdb step "break $file:$first" run bt "info line" next "info line" \
    next "info line" next "info line" "print I" "print V"
  # Line 24 of "/path/debug_step.cpp" starts at address ...
  lines=$(sed -n "s/^Line \([0-9]*\) of \".*$file\".*/\1/p" \
    "$OUT/gdb-step.txt" | tr '\n' ' ')
  local expected="" l
  for ((l = first; l <= last; ++l)); do
    expected+="$l "
  done
  if ! stopped_in step "$kernel"; then
    fail "cuda-gdb-step: did not stop in $kernel (see $OUT/gdb-step.txt)"
  elif [[ $lines == "$expected" ]]; then
    pass "cuda-gdb-step: next steps through $file lines ${lines% } (the body, one line at a time)"
  else
    fail "cuda-gdb-step: next gave lines '${lines% }' of $file, not '${expected% }' (see $OUT/gdb-step.txt)"
  fi
  # $1 = 0 / $2 = 1: print's answers, in order.
  local values i v
  values=$(sed -n 's/^\$[0-9]* = \(-\{0,1\}[0-9.]*\)$/\1/p' "$OUT/gdb-step.txt" |
    tr '\n' ' ')
  read -r i v <<<"$values"
  if [[ -n $i && -n $v && $((2 * i + 1)) == "${v%.*}" && $v != *.[1-9]* ]]; then
    pass "cuda-gdb-locals: print I gives $i, print V gives $v (2 * I + 1)"
  else
    fail "cuda-gdb-locals: print I and V gave '${values% }', not I and 2 * I + 1 (see $OUT/gdb-step.txt)"
  fi
}

if want ncu; then
  check_nvtx_filter
  check_stats_registers
fi
if want cuda-gdb || want cuda-gdb-step; then
  check_cuda_gdb
fi

finish
