"""Checks the JIT policy's weight against the kernel's IR, counted apart.

usage: check_weight.py MSTAGE_PTX PROGRAM TRACE

For each decision line of MSTAGE_TRACE in TRACE ("... N in the kernel)"),
prints "NAME: weight N, counted M: same" (or "DIFFERENT"), where M counts
the instructions of the defined functions in the IR that MSTAGE_PTX --ir
prints for the kernel: each line of a body that is neither a label, a debug
record nor blank. That is the weight's instruction count
(passes/formats/KernelWork.h), which mstage++ measures and the kernel blob
carries.
"""
import re
import subprocess
import sys

mstage_ptx, program, trace = sys.argv[1:4]


def count(ir):
    n, inside = 0, False
    for line in ir.splitlines():
        if line.startswith("define "):
            inside = True
        elif line.startswith("}"):
            inside = False
        elif inside:
            text = line.split(";", 1)[0].strip()
            if text and not text.startswith("#dbg_") and not text.endswith(":"):
                n += 1
    return n


seen = set()
for line in open(trace):
    m = re.search(r"kernel '([^@']+)@.*, (\d+) in the kernel\)", line)
    if not m or m.group(1) in seen:
        continue
    name, weight = m.group(1), int(m.group(2))
    seen.add(name)
    ir = subprocess.run([mstage_ptx, "--ir", "--kernel=" + name, program],
                        check=True, capture_output=True, text=True).stdout
    counted = count(ir)
    print("%s: weight %d, counted %d: %s" %
          (name, weight, counted, "same" if weight == counted else "DIFFERENT"))
