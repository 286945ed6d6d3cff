"""Holds a kernel cache lock while a program runs, as another process that
compiles that entry would (a POSIX record lock on DIR/KEY.lock,
runtime/cache/CacheLock.cpp), for the cache lock tests:
  hold_lock.py DIR KEY SECONDS [--store] -- PROGRAM [ARGS...]
KEY is a key in hex, or the path of an entry (KEY.mstage). The lock is taken
before PROGRAM starts, and held until PROGRAM exits or SECONDS pass. Then,
with --store, the entry KEY names is copied into DIR (to a temporary name,
then renamed, as the runtime stores), and the lock file is removed and
unlocked, as its owner does once its entry is stored. PROGRAM's output goes
to stdout, then "finished while held" or "finished after release", whether
the lock file was still there at the release ("lock file kept") or another
process removed it ("lock file gone"), and PROGRAM's exit status."""
import fcntl
import os
import shutil
import subprocess
import sys
import time

sep = sys.argv.index("--")
directory, key, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
store = "--store" in sys.argv[4:sep]
program = sys.argv[sep + 1:]
name = os.path.basename(key)
if name.endswith(".mstage"):
    name = name[:-len(".mstage")]
lock = os.path.join(directory, name + ".lock")

fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
fcntl.lockf(fd, fcntl.LOCK_EX)
child = subprocess.Popen(program, stdout=sys.stdout, stderr=subprocess.STDOUT)
deadline = time.time() + seconds
while child.poll() is None and time.time() < deadline:
    time.sleep(0.02)
held = child.poll() is not None
if store:
    entry = os.path.join(directory, name + ".mstage")
    shutil.copyfile(key, entry + ".part")
    os.rename(entry + ".part", entry)
kept = os.path.exists(lock)
if kept:
    os.remove(lock)
os.close(fd)
status = child.wait()
sys.stdout.flush()
print("finished while held" if held else "finished after release")
print("lock file", "kept" if kept else "gone")
print("exit", status)
