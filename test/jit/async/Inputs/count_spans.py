"""Counts the spans of each category in a Chrome trace that
MSTAGE_TRACE=chrome:FILE wrote.

usage: count_spans.py TRACE CATEGORY...: prints "CATEGORY: N" for each.
"""
import json
import sys

with open(sys.argv[1]) as f:
    events = json.load(f)["traceEvents"]
for category in sys.argv[2:]:
    n = sum(1 for e in events if e.get("ph") == "X" and e.get("cat") == category)
    print("%s: %d" % (category, n))
