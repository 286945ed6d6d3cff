#!/usr/bin/env bash
# The warm stencil process (bench/mstage_stencil --mode run, one cache filled
# and settled) against nvcc's stencil_baseline, for an earlier build (old) and
# the pack's (new): 8 alternating rounds at 1 and 20 steps, each run's wall,
# user and system ms and minor page faults (getrusage); then the GPU suite's
# plain, memcheck, racecheck and streamcheck modes on the pack. On the GPU
# machine, from the repository root, with $OUT set:
#   OLD=archive.tar.xz bash tools/gpu/host-pages/warm-stencil-probe.sh
# OLD holds bench/mstage_stencil and lib/libmstage_rt.so of the earlier build
# (the eleventh session's: a19a443's, .gpu-pack/p16/old/old.tar.xz).
set -uo pipefail
t0=$SECONDS
. tools/gpu/probe-common.sh
probe_unpack .gpu-pack/mstage-gpu.tar.xz s16c
mkdir -p $work/old && tar xJf "${OLD:-.gpu-pack/p16/old/old.tar.xz}" -C $work/old
B=$work/bench
c=$work/stc; mkdir -p $c
MSTAGE_CACHE_DIR=$c CUDA_CACHE_DISABLE=1 $B/mstage_stencil --mode run >/dev/null 2>&1
for i in $(seq 300); do ls $c/*.ptxas-run >/dev/null 2>&1 || break; sleep 0.1; done
MSTAGE_CACHE_DIR=$c $B/mstage_stencil --mode run >/dev/null 2>&1   # adopt
MSTAGE_CACHE_DIR=$c LD_LIBRARY_PATH=$work/old/lib:$LD_LIBRARY_PATH $work/old/bench/mstage_stencil --mode run >/dev/null 2>&1
cat > $work/ru.py <<'PY'
import resource, subprocess, sys, time
t = time.monotonic()
r = subprocess.run(sys.argv[2:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
w = (time.monotonic() - t) * 1000
u = resource.getrusage(resource.RUSAGE_CHILDREN)
print("warm,%s,%d,%d,%d,%d,%d" % (sys.argv[1], w, u.ru_utime * 1000, u.ru_stime * 1000, u.ru_minflt, r.returncode))
PY
for r in $(seq 8); do
  for st in 1 20; do
    for v in nvcc old new; do
      case $v in
        nvcc) cmd="$B/stencil_baseline"; L=$LD_LIBRARY_PATH ;;
        old) cmd="$work/old/bench/mstage_stencil"; L=$work/old/lib:$LD_LIBRARY_PATH ;;
        new) cmd="$B/mstage_stencil"; L=$LD_LIBRARY_PATH ;;
      esac
      env LD_LIBRARY_PATH=$L CUDA_CACHE_DISABLE=1 MSTAGE_CACHE_DIR=$c python3 $work/ru.py $v-s$st $cmd --mode run --steps $st
    done
  done
done > $OUT/warm.csv
python3 - $OUT/warm.csv <<'PY'
import sys,statistics as s,collections
d=collections.defaultdict(list)
for l in open(sys.argv[1]):
    p=l.strip().split(',')
    d[p[1]].append([int(x) for x in p[2:]])
for k in sorted(d):
    v=d[k]; print(k,'n',len(v),'wall/user/sys/faults med',[s.median(x[i] for x in v) for i in range(4)],'fails',sum(x[4]!=0 for x in v))
for st in ('s1','s20'):
  n=d['nvcc-'+st]
  for v in ('old','new'):
    m=d[v+'-'+st]
    print(v,st,'wall ratio per round median %.3f'%s.median(a[0]/b[0] for a,b in zip(m,n)), 'of medians %.3f'%(s.median(x[0] for x in m)/s.median(x[0] for x in n)))
PY
echo "warm at $((SECONDS - t0)) s"
rm -rf "$work"; trap - EXIT
MODES="plain memcheck racecheck streamcheck" JOBS=8 SUITE_BUDGET=420 OUT=$OUT/suite bash tools/gpu/run-suite.sh 2>&1 | tail -12
echo "END at $((SECONDS - t0)) s"
