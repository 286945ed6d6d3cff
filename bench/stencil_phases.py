#!/usr/bin/env python3
"""Where a process's JIT time goes, from MSTAGE_TRACE=chrome:FILE traces: per
label, each span category's time (optimize, codegen, ptxas, load, disk
cache, compile, launch, ...) summed over the spans, split into the main
thread and the other threads (the compile pool), with the union of the
category's spans (the wall time during which at least one such span ran) and
the trace's length (first span's start to the last one's end). With several
traces for a label, the median of each figure.

    bench/stencil_phases.py [--svg OUT.svg] [--title T] LABEL=TRACE[,TRACE...] ...

Prints CSV: phases,LABEL,CATEGORY,THREADS,SUM_MS,UNION_MS,COUNT (THREADS main
or pool) and phases,LABEL,trace,all,LENGTH_MS,LENGTH_MS,SPANS. With --svg,
draws one stacked bar per label of the compile phases' summed time (the
work) and, under it, a bar of the trace's length (the wall time), so that
before and after can be set side by side (bench/README.md).
"""
import gzip
import json
import statistics
import sys

# The compile's phases, in the order a compile runs them; "compile" is the
# span around them (its time outside them is the rest: bitcode, keys,
# stores).
PHASES = ("optimize", "codegen", "ptxas", "load module")
COLORS = {"optimize": "#4e79a7", "codegen": "#f28e2b", "ptxas": "#e15759",
          "load module": "#76b7b2", "compile, other": "#bab0ac",
          "trace length": "#59a14f"}


def union_ms(spans):
    total, end = 0.0, None
    for s, e in sorted(spans):
        if end is None or s > end:
            total += e - s
            end = e
        elif e > end:
            total += e - end
            end = e
    return total / 1e3


def read_trace(path):
    """{(category, threads): (sum_ms, union_ms, count)} and the length."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        events = json.load(f)["traceEvents"]
    main = set()
    for e in events:
        if e.get("ph") == "M" and e.get("name") == "thread_name" and \
                e.get("args", {}).get("name") == "main thread":
            main.add((e["pid"], e["tid"]))
    spans = {}
    first, last = None, None
    for e in events:
        if e.get("ph") != "X":
            continue
        s, d = float(e["ts"]), float(e["dur"])
        first = s if first is None else min(first, s)
        last = s + d if last is None else max(last, s + d)
        if e["pid"] != 1:
            continue  # a stream's span: the GPU's time, not the host's
        threads = "main" if (e["pid"], e["tid"]) in main else "pool"
        spans.setdefault((e["cat"], threads), []).append((s, s + d))
    table = {k: (sum(e - s for s, e in v) / 1e3, union_ms(v), len(v))
             for k, v in spans.items()}
    length = (last - first) / 1e3 if first is not None else 0.0
    return table, length, sum(len(v) for v in spans.values())


def summarize(paths):
    tables = [read_trace(p) for p in paths]
    keys = sorted({k for t, _, _ in tables for k in t})
    out = {}
    for k in keys:
        rows = [t[k] if k in t else (0.0, 0.0, 0) for t, _, _ in tables]
        out[k] = tuple(statistics.median(r[i] for r in rows) for i in range(3))
    length = statistics.median(l for _, l, _ in tables)
    spans = statistics.median(n for _, _, n in tables)
    return out, length, spans


def work(table):
    """The compile phases' time over every thread, and the compile's rest."""
    parts = []
    for p in PHASES:
        parts.append((p, sum(table.get((p, t), (0, 0, 0))[0]
                             for t in ("main", "pool"))))
    around = sum(table.get(("compile", t), (0, 0, 0))[0]
                 for t in ("main", "pool"))
    parts.append(("compile, other", max(0.0, around - sum(v for _, v in parts))))
    return parts


def svg(labels, title):
    width, left, right, bar, gap = 900, 150, 170, 22, 14
    scale_max = max(max(sum(v for _, v in work(t)), length)
                    for _, t, length in labels) or 1.0
    ms_to_px = (width - left - right) / scale_max
    top = 50
    height = top + len(labels) * (2 * bar + 2 * gap) + 70
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
           'font-family="sans-serif" font-size="12">' % (width, height),
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="%d" y="22" font-size="14" font-weight="bold">%s</text>'
           % (left, title)]
    y = top
    for label, table, length in labels:
        out.append('<text x="%d" y="%d" text-anchor="end">%s</text>'
                   % (left - 8, y + bar * 0.7, label))
        x = left
        for name, ms in work(table):
            w = ms * ms_to_px
            out.append('<rect x="%.1f" y="%d" width="%.1f" height="%d" '
                       'fill="%s"><title>%s %.0f ms</title></rect>'
                       % (x, y, w, bar, COLORS[name], name, ms))
            x += w
        total = sum(v for _, v in work(table))
        out.append('<text x="%.1f" y="%d">%.0f ms of work</text>'
                   % (x + 4, y + bar * 0.7, total))
        y += bar + 4
        w = length * ms_to_px
        out.append('<rect x="%d" y="%d" width="%.1f" height="%d" fill="%s"/>'
                   % (left, y, w, bar // 2, COLORS["trace length"]))
        out.append('<text x="%.1f" y="%d">%.0f ms of wall time</text>'
                   % (left + w + 4, y + bar // 2, length))
        y += bar + 2 * gap
    x = left
    for name in PHASES + ("compile, other", "trace length"):
        out.append('<rect x="%d" y="%d" width="12" height="12" fill="%s"/>'
                   % (x, y, COLORS[name]))
        out.append('<text x="%d" y="%d">%s</text>' % (x + 16, y + 10, name))
        x += 16 + 8 * len(name) + 14
    out.append('<text x="%d" y="%d" fill="#555">bars: summed span times '
               '(all threads); green: first span to last</text>'
               % (left, y + 32))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main(argv):
    svg_path, title, labels = None, "Where the cold JIT's time goes", []
    args = iter(argv)
    for a in args:
        if a == "--svg":
            svg_path = next(args)
        elif a == "--title":
            title = next(args)
        elif "=" in a:
            label, paths = a.split("=", 1)
            labels.append((label, paths.split(",")))
        else:
            sys.exit(__doc__)
    if not labels:
        sys.exit(__doc__)
    summaries = []
    for label, paths in labels:
        table, length, spans = summarize(paths)
        summaries.append((label, table, length))
        print("phases,%s,trace,all,%.1f,%.1f,%d" % (label, length, length, spans))
        for (cat, threads), (s, u, n) in sorted(table.items()):
            print("phases,%s,%s,%s,%.1f,%.1f,%d" % (label, cat, threads, s, u, n))
    if svg_path:
        with open(svg_path, "w") as f:
            f.write(svg(summaries, title))


if __name__ == "__main__":
    main(sys.argv[1:])
