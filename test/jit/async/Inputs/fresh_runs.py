"""fresh_runs.py PROGRAM RUNS WORK [NAME=VALUE ...]

Runs PROGRAM once with MSTAGE_JIT=sync (the reference) and RUNS times with
the settings given (MSTAGE_JIT unset unless given: the default), each in
PTX-only mode for sm_90 with MSTAGE_DUMP=ptx and a fresh cache and dump
folder under WORK. Prints the reference's count of specializations, and how
many runs dumped and cached as many; the counts of each run that did not."""
import os
import shutil
import subprocess
import sys

program, runs, work = sys.argv[1], int(sys.argv[2]), sys.argv[3]
extra = dict(a.split("=", 1) for a in sys.argv[4:])


def run(name, settings):
    cache, dump = os.path.join(work, name + ".cache"), os.path.join(work, name + ".dump")
    shutil.rmtree(cache, ignore_errors=True)
    shutil.rmtree(dump, ignore_errors=True)
    env = {k: v for k, v in os.environ.items() if k != "MSTAGE_JIT"}
    env.update(MSTAGE_BACKEND="ptx", MSTAGE_ARCH="sm_90", MSTAGE_DUMP="ptx",
               MSTAGE_DUMP_DIR=dump, MSTAGE_CACHE_DIR=cache)
    env.update(settings)
    p = subprocess.run([program], env=env, capture_output=True, text=True,
                       timeout=300)
    count = lambda d, ext: len([f for f in os.listdir(d) if f.endswith(ext)]) if os.path.isdir(d) else 0
    return p.returncode, count(dump, ".ptx"), count(cache, ".mstage")


os.makedirs(work, exist_ok=True)
code, ref, ref_cached = run("sync", {"MSTAGE_JIT": "sync"})
print(f"reference: exit {code}, {ref} dumped, {ref_cached} cached")
whole = 0
for i in range(runs):
    code, dumped, cached = run(f"run{i}", extra)
    if code == 0 and dumped == ref and cached == ref_cached:
        whole += 1
    else:
        print(f"run {i}: exit {code}, {dumped} dumped, {cached} cached")
print(f"{whole} of {runs} runs dumped and cached all")
