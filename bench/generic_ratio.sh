#!/usr/bin/env bash
# Issue 33's "the generic code is never much slower than it must be": each
# benchmark's kernels run once as usual (their specializations, after the
# benchmarks' warm-up launches) and once with MSTAGE_JIT=generic (the
# ahead-of-time generic code at every launch); prints, for each row both runs
# have, generic / specialized median time, and the worst ratio against the
# target (<= 1.5). Run from the folder tools/gpu/pack.sh made, on a GPU.
#
#   OUT=<folder> bench/generic_ratio.sh [reps]
set -uo pipefail
source "$(dirname "$0")/common.sh"
reps=${1:-50}
status=0
: >"$OUT/generic.csv"
for prog in "mstage_bench saxpy" "mstage_bench reduce" mstage_hotspot \
  mstage_transpose mstage_scan mstage_histogram mstage_walk mstage_xs \
  mstage_micro; do
  read -r bin args <<<"$prog"
  for mode in auto generic; do
    cache=$(mktemp -d /tmp/mstage-generic-XXXXXX)
    # shellcheck disable=SC2086
    if ! env MSTAGE_JIT=$mode MSTAGE_CACHE_DIR="$cache" "$here/$bin" $args \
      --reps "$reps" 2>>"$OUT/generic-stderr.log" |
      grep -v '^benchmark,' | sed "s/^/$mode,/" >>"$OUT/generic.csv"; then
      status=1
      echo "FAILED: MSTAGE_JIT=$mode $bin $args" >&2
    fi
    rm -rf "$cache"
  done
done
# mode,benchmark,variant,n,block,grid,median_ms,...
awk -F, '
  $1 == "auto" { s[$2 "," $3 "," $4] = $7 }
  $1 == "generic" { g[$2 "," $3 "," $4] = $7 }
  END {
    worst = 0
    for (k in g) if ((k in s) && s[k] > 0) {
      r = g[k] / s[k]
      printf "generic/specialized %-45s %9.5f ms %9.5f ms %6.2fx\n", k, g[k], s[k], r
      if (r > worst) { worst = r; wk = k }
    }
    printf "worst generic/specialized: %.2fx (%s) (target <= 1.5x) %s\n", worst, wk,
           worst <= 1.5 ? "PASS" : "MISS"
  }' "$OUT/generic.csv" | sort | tee "$OUT/generic-report.txt"
exit $status
