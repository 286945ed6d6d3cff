"""Makes each entry of the cache folder argv[1] look handed over to a ptxas
run that was killed: the entry is removed and KEY.ptxas-run names a live
process that is not a run (a sleep, as a reused process id would be). Writes
the sleep's id to argv[2]. With argv[1] "--kill", kills the process whose id
argv[2] holds."""
import glob
import os
import signal
import subprocess
import sys

if sys.argv[1] == "--kill":
    os.kill(int(open(sys.argv[2]).read()), signal.SIGKILL)
    sys.exit(0)
sleep = subprocess.Popen(["sleep", "120"], start_new_session=True,
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
open(sys.argv[2], "w").write(str(sleep.pid))
entries = glob.glob(os.path.join(sys.argv[1], "*.mstage"))
if not entries:
    sys.exit("no entry in " + sys.argv[1])
for entry in entries:
    os.remove(entry)
    open(entry[: -len(".mstage")] + ".ptxas-run", "w").write(str(sleep.pid))
