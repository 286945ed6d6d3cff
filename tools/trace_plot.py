#!/usr/bin/env python3
"""Plots a trace that MSTAGE_TRACE=chrome:FILE.json wrote as a timeline PNG.

One row per track (the host threads first, then the streams), a bar per span,
coloured by what it is (launch, evaluate, cache lookups, compile phases,
module load, kernel, copies); a span inside another is drawn as a thinner bar
inside it. Spans wide enough are labelled with their name.

  tools/trace_plot.py trace.json -o trace.png [--start MS] [--end MS]

Needs matplotlib. The same file opens in chrome://tracing or ui.perfetto.dev,
which zoom; this is for a picture in a document.
"""
import argparse
import json
import sys

COLOURS = {
    "launch": "#c7c7c7",
    "evaluate": "#9467bd",
    "memory cache": "#2ca02c",
    "disk cache": "#98df8a",
    "compile": "#ffbb78",
    "optimize": "#ff7f0e",
    "codegen": "#d62728",
    "ptxas": "#8c564b",
    "load module": "#e377c2",
    "kernel": "#1f77b4",
    "copy to device": "#17becf",
    "copy to host": "#bcbd22",
    "copy on device": "#7f7f7f",
}


def load_tracks(path):
    with open(path) as f:
        events = json.load(f)["traceEvents"]
    names, spans = {}, {}
    for e in events:
        key = (e.get("pid"), e.get("tid"))
        if e.get("ph") == "M" and e.get("name") == "thread_name":
            names[key] = e["args"]["name"]
        elif e.get("ph") == "X":
            spans.setdefault(key, []).append(e)
    order = sorted(spans, key=lambda k: (k[0], min(s["ts"] for s in spans[k])))
    return [(names.get(k, "%s/%s" % k), spans[k]) for k in order]


def depths(spans):
    """The nesting depth of each span of one track, in start order."""
    spans = sorted(spans, key=lambda s: (s["ts"], -s["dur"]))
    ends, out = [], []
    for s in spans:
        while ends and s["ts"] >= ends[-1]:
            ends.pop()
        out.append((s, len(ends)))
        ends.append(s["ts"] + s["dur"])
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trace")
    parser.add_argument("-o", "--output", default="trace.png")
    parser.add_argument("--start", type=float, help="first ms shown")
    parser.add_argument("--end", type=float, help="last ms shown")
    parser.add_argument("--title", default="")
    args = parser.parse_args()

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch

    tracks = load_tracks(args.trace)
    if not tracks:
        sys.exit("trace_plot: %s has no spans" % args.trace)
    first = min(s["ts"] for _, spans in tracks for s in spans) / 1000
    last = max(s["ts"] + s["dur"] for _, spans in tracks for s in spans) / 1000
    start = args.start if args.start is not None else first
    end = args.end if args.end is not None else last
    width = max(end - start, 1e-3)

    fig, ax = plt.subplots(figsize=(14, 0.7 * len(tracks) + 1.5))
    used = set()
    for row, (name, spans) in enumerate(tracks):
        y = len(tracks) - 1 - row
        for s, depth in depths(spans):
            x0, x1 = s["ts"] / 1000, (s["ts"] + s["dur"]) / 1000
            if x1 < start or x0 > end:
                continue
            height = 0.8 * (0.75 ** depth)
            colour = COLOURS.get(s["cat"], "#aaaaaa")
            used.add(s["cat"])
            ax.barh(y, max(x1 - x0, width / 2000), left=x0, height=height,
                    color=colour, edgecolor="black", linewidth=0.3)
            # A label where it fits: about one character per 1/150 of the
            # width shown.
            fits = int((min(x1, end) - max(x0, start)) / width * 150)
            if depth == 0 and fits >= 8:
                label = s["name"]
                if len(label) > fits:
                    label = label[: fits - 1] + "…"
                ax.text(max(x0, start) + width / 400, y, label, va="center",
                        fontsize=6, clip_on=True)
    ax.set_yticks(range(len(tracks)))
    ax.set_yticklabels([name for name, _ in reversed(tracks)], fontsize=8)
    ax.set_xlim(start, end)
    ax.set_xlabel("ms since the trace began")
    if args.title:
        ax.set_title(args.title)
    ax.legend(handles=[Patch(color=COLOURS.get(c, "#aaaaaa"), label=c)
                       for c in COLOURS if c in used],
              loc="upper center", bbox_to_anchor=(0.5, -0.12 - 0.3 / len(tracks)),
              ncol=7, fontsize=7, frameon=False)
    fig.tight_layout()
    fig.savefig(args.output, dpi=150)
    print("trace_plot: wrote %s (%d tracks)" % (args.output, len(tracks)))


main()
