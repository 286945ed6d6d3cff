#!/usr/bin/env python3
"""Issue 36's plot: heat, us a step against the grid size, for nvcc <<<>>>,
nvcc with a hand-written graph, mstage and mstage with MSTAGE_GRAPHS=auto,
as an SVG written here (no matplotlib needed), log-log.

    heat_plot.py BENCH_CSV OUT_SVG

BENCH_CSV: bench/run.sh's bench.csv (benchmark,variant,n,...,median_ms,...);
of several rows of a (variant, n), the middle one counts (as report.py's)."""
import csv
import math
import sys
from collections import defaultdict

SERIES = [("cuda", "nvcc <<<>>>", "#d62728"),
          ("cuda-graph", "nvcc, hand-written graph", "#ff7f0e"),
          ("mstage", "mstage", "#1f77b4"),
          ("mstage+graphs", "mstage, MSTAGE_GRAPHS=auto", "#2ca02c")]


def medians(path):
    runs = defaultdict(list)
    for r in csv.DictReader(open(path)):
        if r["benchmark"] == "heat":
            runs[(r["variant"], int(r["n"]))].append(float(r["median_ms"]))
    return {k: sorted(v)[len(v) // 2] * 1000.0 for k, v in runs.items()}


def main(path, out):
    us = medians(path)
    ns = sorted({n for (_, n) in us})
    if not ns:
        sys.exit("heat_plot.py: no heat rows in " + path)
    lo = min(us.values()) / 1.5
    hi = max(us.values()) * 1.5
    w, h, left, right, top, bottom = 640, 420, 70, 220, 30, 50
    pw, ph = w - left - right, h - top - bottom

    def x(n):
        if len(ns) == 1:
            return left + pw / 2
        return left + pw * (math.log(n) - math.log(ns[0])) / (
            math.log(ns[-1]) - math.log(ns[0]))

    def y(v):
        return top + ph * (1 - (math.log(v) - math.log(lo)) /
                           (math.log(hi) - math.log(lo)))

    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
           f'font-family="sans-serif" font-size="12">',
           f'<rect width="{w}" height="{h}" fill="white"/>',
           f'<rect x="{left}" y="{top}" width="{pw}" height="{ph}" '
           f'fill="none" stroke="black"/>']
    for n in ns:
        svg.append(f'<text x="{x(n):.1f}" y="{h - bottom + 18}" '
                   f'text-anchor="middle">{n}²</text>')
    decade = 10 ** math.floor(math.log10(lo))
    while decade <= hi:
        for m in (1, 2, 5):
            v = decade * m
            if lo <= v <= hi:
                svg.append(f'<line x1="{left}" x2="{left + pw}" y1="{y(v):.1f}" '
                           f'y2="{y(v):.1f}" stroke="#ddd"/>')
                svg.append(f'<text x="{left - 6}" y="{y(v) + 4:.1f}" '
                           f'text-anchor="end">{v:g}</text>')
        decade *= 10
    svg.append(f'<text x="{left + pw / 2}" y="{h - 8}" text-anchor="middle">'
               f'grid (cells)</text>')
    svg.append(f'<text x="16" y="{top + ph / 2}" text-anchor="middle" '
               f'transform="rotate(-90 16 {top + ph / 2})">µs a step</text>')
    for i, (variant, label, color) in enumerate(SERIES):
        pts = [(x(n), y(us[(variant, n)])) for n in ns if (variant, n) in us]
        if not pts:
            continue
        path_d = " ".join(f"{px:.1f},{py:.1f}" for px, py in pts)
        svg.append(f'<polyline points="{path_d}" fill="none" stroke="{color}" '
                   f'stroke-width="2"/>')
        for px, py in pts:
            svg.append(f'<circle cx="{px:.1f}" cy="{py:.1f}" r="3" '
                       f'fill="{color}"/>')
        ly = top + 14 + 20 * i
        svg.append(f'<line x1="{w - right + 12}" x2="{w - right + 36}" '
                   f'y1="{ly}" y2="{ly}" stroke="{color}" stroke-width="2"/>')
        svg.append(f'<text x="{w - right + 42}" y="{ly + 4}">{label}</text>')
    svg.append("</svg>")
    open(out, "w").write("\n".join(svg) + "\n")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
