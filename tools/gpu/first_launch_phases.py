#!/usr/bin/env python3
# Usage: first_launch_phases.py MODE STEPS.err [TRACE.json]
#
# Prints where the first steps of bench/jit_cold heat went (issues 33, 36):
# from STEPS.err (JIT_COLD_STEPS=1 output) when step 1, 2, 99 and 100
# returned and the time a step of 2..99; from TRACE.json (MSTAGE_TRACE=chrome
# of another run) the main thread's first launches and a steady one: the host
# time before mstage_rt_launch (since the previous launch returned: the
# kernel object's own checks), the launch span, and in it the staged values'
# evaluation, the memory-cache lookup, and the rest (the JIT policy, the
# generic code's module and entry, the driver's launch). Times in ms.
import json
import re
import sys


def steps(path):
    times = {}
    for line in open(path):
        m = re.match(r"# step (\d+) returned ([\d.]+) ms, source (\d+)", line)
        if m:
            times[int(m.group(1))] = (float(m.group(2)), int(m.group(3)))
    return times


def phases(path):
    data = json.load(open(path))
    events = data["traceEvents"] if isinstance(data, dict) else data
    names = {e["tid"]: e["args"]["name"] for e in events
             if e.get("ph") == "M" and e.get("name") == "thread_name"}
    main = [e for e in events if e.get("ph") == "X" and
            names.get(e.get("tid"), "") == "main thread"]
    main.sort(key=lambda e: e["ts"])
    launches = [e for e in main if e.get("cat") == "launch"]
    rows = []
    previous_end = None
    for i, l in enumerate(launches):
        start, end = l["ts"], l["ts"] + l.get("dur", 0)
        inner = {"evaluate": 0.0, "memory cache": 0.0}
        for e in main:
            if e.get("cat") in inner and start <= e["ts"] <= end:
                inner[e["cat"]] += e.get("dur", 0)
        before = (start - previous_end) if previous_end is not None else None
        previous_end = end
        rows.append((i + 1, l["name"].split("@")[0].split(" ")[-1], before,
                     l.get("dur", 0), inner["evaluate"], inner["memory cache"],
                     l.get("dur", 0) - inner["evaluate"] - inner["memory cache"]))
    return rows


def main():
    mode, err = sys.argv[1], sys.argv[2]
    t = steps(err)
    if 1 not in t or 99 not in t or 100 not in t:
        print("FAIL %s: no step times in %s" % (mode, err))
        return 1
    per_step = (t[99][0] - t[1][0]) / 98 * 1000
    print("%s: step 1 %.3f ms (source %d), step 2 %.3f, step 99 %.3f, "
          "step 100 %.3f ms; steps 2..99 %.2f us a step" %
          (mode, t[1][0], t[1][1], t[2][0], t[99][0], t[100][0], per_step))
    if len(sys.argv) > 3:
        rows = phases(sys.argv[3])
        print("  launch kernel         before   launch  evaluate  lookup  rest"
              "  (ms, traced run)")
        for n, name, before, dur, ev, mc, rest in rows[:5] + rows[9:10] + \
                rows[-2:]:
            print("  %6d %-14s %8s %8.3f %8.3f %7.3f %7.3f" %
                  (n, name[-14:], "-" if before is None else
                   "%.3f" % (before / 1000), dur / 1000, ev / 1000, mc / 1000,
                   rest / 1000))
    return 0


if __name__ == "__main__":
    sys.exit(main())
