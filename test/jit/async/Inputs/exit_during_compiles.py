"""Runs jit_probe PROGRAM RUNS times, each exiting while its compiles run,
and prints "N runs, M failed" and the output of each failed run."""
import os
import subprocess
import sys

program, runs = sys.argv[1], int(sys.argv[2])
# MSTAGE_JIT_EXIT_WAIT_MS=0: queued compiles are dropped at once, so that
# the exit meets the running ones.
env = dict(os.environ, MSTAGE_BACKEND="ptx", MSTAGE_ARCH="sm_90",
           MSTAGE_CACHE="memory", MSTAGE_JIT_THREADS="8",
           MSTAGE_JIT_EXIT_WAIT_MS="0")
failed = 0
for run in range(runs):
    args = [program, "queue", "8", "sleep", str(run % 10)]
    try:
        p = subprocess.run(args, env=env, capture_output=True, text=True,
                           timeout=60)
        output, code = p.stdout + p.stderr, p.returncode
    except subprocess.TimeoutExpired:
        output, code = "timed out after 60 s (a hang at exit)", "timeout"
    if code != 0 or "cannot compile" in output or "jit_probe: done" not in output:
        failed += 1
        print(f"run {run} ({' '.join(args[1:])}): exit {code}\n{output}")
print(f"{runs} runs, {failed} failed")
