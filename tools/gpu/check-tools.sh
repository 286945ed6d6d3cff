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
#   3. Nsight Compute kernel names (check_kernel_names): ncu on
#      test/gpu-tools/kernel_names shows each kernel by the readable name the
#      program prints (main::kernel_L<line>, main::saxpy, mstage::reduce).
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

finish
