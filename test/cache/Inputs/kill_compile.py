"""Kills (SIGKILL) a program while its ptxas runs, for the leak tests:
  kill_compile.py PROGRAM PIDFILE
PROGRAM's environment names a ptxas (MSTAGE_PTXAS) that writes its process
id to PIDFILE and sleeps; once it has, PROGRAM and then that ptxas are
killed."""
import os
import signal
import subprocess
import sys
import time

program, pidfile = sys.argv[1], sys.argv[2]
child = subprocess.Popen([program], stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
deadline = time.time() + 120
while not (os.path.exists(pidfile) and open(pidfile).read().strip()):
    if time.time() > deadline or child.poll() is not None:
        sys.exit("ptxas did not start")
    time.sleep(0.05)
child.kill()
child.wait()
os.kill(int(open(pidfile).read()), signal.SIGKILL)
print("killed while compiling")
