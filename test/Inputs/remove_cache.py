"""Removes disk-cache folders once the ptxas runs that a process handed over
at its exit have ended (%rm_cache in lit.cfg.py).

Such a run's shell outlives the process and links its output into the cache
(runtime/cuda/CudaTools.cpp), so an `rm -rf` right after the process can race
with it: the folder gains a file while it is removed (CI failed so once).
Each run's shell holds KEY.ptxas-run (its process id) until it ends; an id
counts only while it is still such a shell, as the runtime checks it."""

import os
import shutil
import sys
import time

LIMIT_S = 120


def live_runs(folder):
    try:
        names = os.listdir(folder)
    except (FileNotFoundError, NotADirectoryError):
        return []  # nothing, or a file such as a trace
    live = []
    for name in names:
        if not name.endswith(".ptxas-run"):
            continue
        try:
            with open(os.path.join(folder, name)) as f:
                pid = f.read().strip()
        except FileNotFoundError:
            continue  # ended between the listing and the read
        if not pid:
            live.append(name)  # being written: the run has just started
            continue
        try:
            with open("/proc/%s/cmdline" % pid, "rb") as f:
                if b"mstage-ptxas" in f.read():
                    live.append(name)
        except OSError:
            pass  # gone: a killed run's file
    return live


def main():
    deadline = time.monotonic() + LIMIT_S
    for folder in sys.argv[1:]:
        while live_runs(folder):
            if time.monotonic() > deadline:
                sys.exit("remove_cache: handed-over ptxas runs in %s still "
                         "running after %d s: %s" %
                         (folder, LIMIT_S, ", ".join(live_runs(folder))))
            time.sleep(0.02)
        if os.path.isdir(folder) and not os.path.islink(folder):
            shutil.rmtree(folder)
        elif os.path.lexists(folder):
            os.remove(folder)


if __name__ == "__main__":
    main()
