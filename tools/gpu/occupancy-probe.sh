#!/usr/bin/env bash
# Usage (GPU machine): PACK=/abs/occ34.tar.xz OUT=/some/folder bash occupancy-probe.sh
#
# Issue 34's probe of two JIT choices, about 60 s on an H100, from a pack
# holding lib/libmstage_rt.so, bench/<program> and this script:
#  - versioning (passes/transforms/UniformVersioning.h): the Adam step's
#    unstaged kernel with the copy (this tree's default) and without it
#    (MSTAGE_LLVM_ARGS=-mstage-version-argument-tests=false, main's code);
#  - the block-size directive: the JIT's .reqntid (main's rule) against
#    .maxntid, put in by a ptxas wrapper (MSTAGE_PTXAS) that rewrites the
#    PTX before ptxas, on n-body (2^16 bodies) and, time allowing, xs.
#    Offline (ptxas 13, sm_90) the registers of the ports and the reduction
#    are the same under both; n-body's unstaged kernel has 33 with .reqntid,
#    32 with .maxntid (round 1's MSTAGE_STATS confirmed the 32).
# Each configuration has its own disk cache, filled by one run first, so
# the timed runs load ptxas's cubins. Prints "LABEL SIDE MEDIAN MIN" rows,
# then ratio lines and PASS/FAIL lines for the targets (Adam unstaged <=
# 1.02x nvcc, the versioned copy not slower than without it).
set -uo pipefail
: "${PACK:?the archive}"
. "$(dirname "${BASH_SOURCE[0]}")/probe-common.sh"
probe_unpack "$PACK" occ34
b=$work/bench
real=$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)
cat >"$work/ptxas-max" <<WRAP
#!/usr/bin/env bash
# The PTX is the argument before -o: its .reqntid becomes .maxntid.
prev=; for a in "\$@"; do [[ \$a == -o ]] && sed -i 's/^\.reqntid/.maxntid/' "\$prev"; prev=\$a; done
exec "$real" "\$@"
WRAP
chmod +x "$work/ptxas-max"
[[ -x $real ]] || echo "FAIL no ptxas at '$real': the .maxntid rows would be the driver's JIT of .reqntid"
noversion=-mstage-version-argument-tests=false
# cfg NAME -> its environment
cfg() {
  case $1 in
  old) echo "MSTAGE_LLVM_ARGS=$noversion MSTAGE_CACHE_DIR=$work/c-old" ;;
  new) echo "MSTAGE_CACHE_DIR=$work/c-new" ;;
  max) echo "MSTAGE_PTXAS=$work/ptxas-max MSTAGE_CACHE_DIR=$work/c-max" ;;
  esac
}
# The program and arguments of APP.
prog() {
  case $1 in
  nbody) echo "$b/mstage_bench nbody --n 65536 --reps ${2:-20}" ;;
  *) echo "$b/mstage_$1 --reps ${2:-20}" ;;
  esac
}
warm() { # CFG APP
  ((SECONDS > 70)) && return
  local start=$SECONDS
  env $(cfg "$1") MSTAGE_JIT=sync timeout 30 $(prog "$2" 1) >/dev/null 2>"$work/w.err" ||
    echo "warm $1 $2: FAILED: $(tail -2 "$work/w.err" | tr '\n' ' ' | cut -c1-200)"
  echo "warm $1 $2: $((SECONDS - start)) s"
}
rows() { # LABEL: CSV rows of stdin as "LABEL SIDE MEDIAN MIN"
  awk -F, -v l="$1" '$6 ~ /^[0-9.]+$/ && $1 != "checksum" {
    printf "%s %s %s %s %s\n", l, $1, $2, $6, $7 }'
}
timed() { # LABEL ENV... PROGRAM ARGS...
  local label=$1
  shift
  if ((SECONDS > 82)); then
    echo "$label: skipped at $SECONDS s"
    return
  fi
  timeout 25 env "$@" 2>"$work/t.err" | rows "$label" | tee -a "$work/all" ||
    true
  [[ -s $work/t.err ]] && grep -m2 -E "FAIL|error" "$work/t.err" | sed "s/^/$label: /"
}
# Round 1 (13:43 UTC) spent 74 s warming 13 caches (mstage_bench nbody
# JIT-compiles every size): now only what each question needs.
for c in old new; do warm "$c" adam; done
for c in new max; do warm "$c" nbody; done
echo "warmed ($SECONDS s)"
for round in 1 2 3; do
  timed "r$round adam-nvcc" X=1 "$b/adam_baseline" --reps 20
  for c in old new; do timed "r$round adam-$c" $(cfg $c) $(prog adam); done
done
for round in 1 2; do
  for c in new max; do timed "r$round nbody-$c" $(cfg $c) $(prog nbody); done
done
if ((SECONDS < 55)); then
  for c in new max; do warm "$c" xs; done
  timed "r1 xs-nvcc" X=1 "$b/xs_baseline" --reps 20
  for c in new max; do timed "r1 xs-$c" $(cfg $c) $(prog xs); done
fi
# Each label's medians, one a round.
awk '{ key = $2 " " $3 " " $4; s[key] = s[key] " " $5 }
  END { for (k in s) print "rounds", k, s[k] }' "$work/all" | sort
ms() { # LABEL-SUFFIX SIDE -> the smallest of the rounds' medians
  awk -v l="$1" -v s="$2" '$2 == l && $4 == s { if (m == "" || $5 < m) m = $5 } END { print m }' "$work/all"
}
nv=$(ms adam-nvcc nvcc) old=$(ms adam-old unstaged) new=$(ms adam-new unstaged)
if [[ -n $nv && -n $old && -n $new ]]; then
  awk -v n="$nv" -v o="$old" -v w="$new" 'BEGIN {
    printf "adam unstaged / nvcc: without the copy %.3f, with it %.3f\n", o / n, w / n
    print (w / n <= 1.02 ? "PASS" : "FAIL"), "adam-unstaged <= 1.02x nvcc"
    print (w <= o * 1.01 ? "PASS" : "FAIL"), "adam versioned not slower than without" }'
else
  echo "FAIL adam: rows missing (nvcc '$nv', old '$old', new '$new')"
fi
echo "done ($SECONDS s)"
