"""Checks a Chrome trace that MSTAGE_TRACE=chrome:FILE wrote, and prints it.

The file must be one JSON object whose traceEvents are complete ("X") spans
and metadata ("M") events; on each track (pid, tid) the spans must be sorted
by start and nest: a span starts after the end of the one before it, or lies
inside it. Then prints each track, named, with its spans in order, indented by
depth ("<category> | <name>"), for FileCheck.
"""
import json
import sys

# Rounding of the microsecond values that the file holds (1 ns).
EPSILON = 0.001


def fail(message):
    print("check_trace: " + message)
    sys.exit(1)


def main():
    with open(sys.argv[1]) as f:
        doc = json.load(f)
    events = doc.get("traceEvents")
    if not isinstance(events, list):
        fail("no traceEvents array")
    names, tracks = {}, {}
    for e in events:
        if e.get("ph") == "M":
            if e["name"] == "thread_name":
                names[(e["pid"], e["tid"])] = e["args"]["name"]
            continue
        if e.get("ph") != "X":
            fail("unexpected phase %r" % e.get("ph"))
        for key in ("name", "cat", "pid", "tid", "ts", "dur"):
            if key not in e:
                fail("span without %s: %r" % (key, e))
        if e["dur"] < 0:
            fail("negative duration: %r" % e)
        tracks.setdefault((e["pid"], e["tid"]), []).append(e)
    for key in sorted(tracks, key=lambda k: (k[0], tracks[k][0]["ts"])):
        spans = tracks[key]
        if key not in names:
            fail("track %r has no name" % (key,))
        print("track %s: %s" % ("host" if key[0] == 1 else "stream",
                                "main thread" if names[key] == "main thread"
                                else names[key].split()[0]))
        open_ends = []
        last = None
        for e in spans:
            start, end = e["ts"], e["ts"] + e["dur"]
            if last is not None and start < last - EPSILON:
                fail("track %r is not sorted at %r" % (key, e["name"]))
            last = start
            while open_ends and start >= open_ends[-1] - EPSILON:
                open_ends.pop()
            if open_ends and end > open_ends[-1] + EPSILON:
                fail("%r overlaps the span it starts in" % e["name"])
            print("  " * (len(open_ends) + 1) + e["cat"] + " | " + e["name"])
            open_ends.append(end)


main()
