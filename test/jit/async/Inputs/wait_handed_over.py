"""wait_handed_over.py DIR: waits (60 s at most) until no handed-over ptxas
run is left in the cache folder DIR: each run's shell removes its
KEY.ptxas-run file as its last step, after its temporaries. Exits 1 if one
is still there then."""
import glob
import os
import sys
import time

deadline = time.monotonic() + 60
while glob.glob(os.path.join(sys.argv[1], "*.ptxas-run")):
    if time.monotonic() > deadline:
        sys.exit("wait_handed_over.py: a ptxas run is still in flight")
    time.sleep(0.05)
