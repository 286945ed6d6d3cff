"""Counts the instructions of the defined functions in LLVM IR text (what
mstage-ptx --ir prints): each line of a function's body that is neither a
label, a debug record, a comment, blank, nor the closing brace. This is the
weight's instruction count (passes/formats/KernelWork.h), measured apart from
the plugin.

usage: count_ir_instructions.py FILE: prints "instructions: N".
"""
import re
import sys

count, inside = 0, False
for line in open(sys.argv[1]):
    text = line.split(";", 1)[0].rstrip() if not line.lstrip().startswith('"') else line.rstrip()
    if line.startswith("define "):
        inside = True
        continue
    if not inside:
        continue
    if line.startswith("}"):
        inside = False
        continue
    stripped = text.strip()
    if not stripped or stripped.startswith("#dbg_") or re.match(r"^[-\w.$\"]+:$", stripped):
        continue
    count += 1
print("instructions: %d" % count)
