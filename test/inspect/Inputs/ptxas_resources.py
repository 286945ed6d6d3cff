# The reference for the resource tests (stats-resources.cpp,
# mstage-ptx-resources.cpp): runs `ptxas -v` on one PTX file with one kernel
# and prints its numbers on one line, for FileCheck to capture:
#   ptxas: registers 29 spill stores 0 spill loads 0 stack 304
# Usage: ptxas_resources.py PTXAS ARCH FILE.ptx
import re
import subprocess
import sys

ptxas, arch, ptx = sys.argv[1:4]
run = subprocess.run([ptxas, "-v", "-arch=" + arch, ptx, "-o", "/dev/null"],
                     capture_output=True, text=True)
text = run.stdout + run.stderr
if run.returncode != 0:
    sys.exit("ptxas failed:\n" + text)
frame = re.findall(r"(\d+) bytes stack frame, (\d+) bytes spill stores, "
                   r"(\d+) bytes spill loads", text)
regs = re.findall(r"Used (\d+) registers", text)
if len(frame) != 1 or len(regs) != 1:
    sys.exit("expected one kernel in ptxas -v's output:\n" + text)
stack, stores, loads = frame[0]
print(f"ptxas: registers {regs[0]} spill stores {stores} spill loads {loads} "
      f"stack {stack}")
