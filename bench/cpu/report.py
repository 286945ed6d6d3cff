#!/usr/bin/env python3
"""Prints the table of bench/cpu_nbody.sh's CSV: per thread count and size,
each variant's step time (the median over the rounds of each round's median)
and how many times slower than OpenMP it is."""
import csv
import statistics
import sys
from collections import defaultdict


def main(path):
    times = defaultdict(list)  # (threads, n, variant) -> round medians
    for r in csv.DictReader(open(path)):
        times[(int(r["threads"]), int(r["n"]), r["variant"])].append(
            float(r["median_ms"]))
    variants = sorted({v for (_, _, v) in times}, key=lambda v: (v != "openmp", v))
    print("n-body step on the CPU (ms, median over rounds; x: times the "
          "OpenMP step, lower is better)")
    head = f"{'threads':>7} {'n':>6}" + "".join(f" {v:>24}" for v in variants)
    print(head)
    for threads, n in sorted({(t, n) for (t, n, _) in times}):
        base = times.get((threads, n, "openmp"))
        base_ms = statistics.median(base) if base else None
        cells = []
        for v in variants:
            got = times.get((threads, n, v))
            if not got:
                cells.append(f" {'-':>24}")
                continue
            ms = statistics.median(got)
            ratio = f"{ms / base_ms:6.2f}x" if base_ms else ""
            spread = f"{min(got):.0f}-{max(got):.0f}"
            cells.append(f" {ms:8.1f} {ratio:>7} {spread:>7}")
        print(f"{threads:>7} {n:>6}" + "".join(cells))
    print("(each cell: ms, x OpenMP, range of the round medians)")


if __name__ == "__main__":
    main(sys.argv[1])
