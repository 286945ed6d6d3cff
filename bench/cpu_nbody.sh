#!/usr/bin/env bash
# The CPU back end's n-body step against the same step in plain C++ with
# OpenMP (bench/cpu/nbody_openmp.cpp, clang++ -O2 -fopenmp), here, no GPU.
#
#   bench/cpu_nbody.sh [BUILD_DIR]        (default: build)
#
# Environment:
#   THREADS  thread counts to run both at (default: "1 <cores>"); each run
#            sets OMP_NUM_THREADS and MSTAGE_CPU_THREADS to the same count
#   SIZES    bodies (default: "4096 8192 16384")
#   ROUNDS   rounds (default 3); each round runs every program once, in
#            turn, so that a busy machine slows them alike
#   REPS     timed steps per program and round, after one warm-up (default 3)
#   ALSO     more mstage_bench builds to time in the same run, as
#            "label=binary" or "label=binary@libdir" (LD_LIBRARY_PATH=libdir),
#            e.g. the build before a change: their variants are "label-..."
#   OUT      folder for cpu-nbody.csv and cpu-nbody-report.txt (default: out)
#
# The report gives the median over the rounds of each program's median step.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$repo/build}
cores=$(nproc)
THREADS=${THREADS:-"1 $cores"}
SIZES=${SIZES:-"4096 8192 16384"}
ROUNDS=${ROUNDS:-3}
REPS=${REPS:-3}
OUT=${OUT:-$repo/out}
clangxx=/usr/lib/llvm-22/bin/clang++
bench=$build/bench/mstage_bench
[[ -x $bench ]] || { echo "cpu_nbody.sh: no $bench; run tools/build.sh" >&2; exit 1; }

# The baseline's only dependency outside the project: LLVM's OpenMP runtime
# for clang 22 (a benchmark-only dependency; tools/install-deps.sh does not
# install it).
mkdir -p "$OUT"
omp=$OUT/nbody_openmp
if ! "$clangxx" -O2 -fopenmp -DNDEBUG -std=c++17 -I"$repo/include" \
  -I"$repo/examples" "$repo/bench/cpu/nbody_openmp.cpp" -o "$omp" \
  2>"$OUT/nbody_openmp.log"; then
  cat "$OUT/nbody_openmp.log" >&2
  echo "cpu_nbody.sh: cannot build the OpenMP baseline with $clangxx -fopenmp;" \
    "on Debian: apt-get install libomp-22-dev" >&2
  exit 1
fi

nargs=()
for n in $SIZES; do nargs+=(--n "$n"); done
csv=$OUT/cpu-nbody.csv
echo "threads,round,benchmark,variant,n,block,grid,median_ms,min_ms,gbps" >"$csv"
record() { # threads round label: CSV lines on stdin
  grep -v '^benchmark,' | sed -e "s/^/$1,$2,/" -e "s/,mstage-/,$3mstage-/" >>"$csv"
}
for t in $THREADS; do
  for r in $(seq "$ROUNDS"); do
    echo "== $t threads, round $r" >&2
    OMP_NUM_THREADS=$t "$omp" --reps "$REPS" --warmup 1 "${nargs[@]}" |
      record "$t" "$r" ""
    for n in $SIZES; do
      # One size a process: each starts with its kernel's bitcode unread,
      # which the warm-up launch reads (the CPU back end compiles nothing).
      MSTAGE_BACKEND=cpu MSTAGE_CPU_THREADS=$t "$bench" nbody --cpu 1 \
        --reps "$REPS" --warmup 1 --n "$n" | record "$t" "$r" ""
      for also in ${ALSO:-}; do
        label=${also%%=*} bin=${also#*=} lib=
        [[ $bin == *@* ]] && lib=${bin#*@} bin=${bin%@*}
        env ${lib:+LD_LIBRARY_PATH=$lib} MSTAGE_BACKEND=cpu \
          MSTAGE_CPU_THREADS=$t "$bin" nbody --cpu 1 --reps "$REPS" \
          --warmup 1 --n "$n" | record "$t" "$r" "$label-"
      done
    done
  done
done
{
  echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $cores cores," \
    "load average $(cut -d' ' -f1-3 /proc/loadavg) at the end"
  python3 "$repo/bench/cpu/report.py" "$csv"
} | tee "$OUT/cpu-nbody-report.txt"
