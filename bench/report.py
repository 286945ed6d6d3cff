#!/usr/bin/env python3
"""Prints the benchmark table of bench.csv as ratios against the baselines
measured in the same run."""
import csv
import sys
from collections import defaultdict


def main(path):
    rows = list(csv.DictReader(open(path)))
    by = defaultdict(dict)  # (benchmark, n) -> variant -> row
    for r in rows:
        by[(r["benchmark"], int(r["n"]))][r["variant"]] = r
    copy_gbps = max((float(r["gbps"]) for r in rows if r["benchmark"] == "copy"),
                    default=None)

    print("reduction (ms, and throughput relative to CUB; higher is better)")
    print(f"{'n':>10} {'variant':>18} {'ms':>9} {'GB/s':>8} {'x CUB':>7} {'x copy':>7}")
    for (bench, n), variants in sorted(by.items()):
        if bench != "reduce":
            continue
        cub = variants.get("cub")
        for name, r in sorted(variants.items()):
            ms = float(r["median_ms"])
            ratio = float(cub["median_ms"]) / ms if cub else float("nan")
            of_copy = float(r["gbps"]) / copy_gbps if copy_gbps else float("nan")
            print(f"{n:>10} {name:>18} {ms:9.4f} {float(r['gbps']):8.1f} {ratio:7.3f} {of_copy:7.3f}")

    print()
    print("n-body (ms per step; speed relative to nvcc-template; higher is better)")
    print(f"{'n':>10} {'variant':>18} {'ms':>9} {'x nvcc-template':>16}")
    for (bench, n), variants in sorted(by.items()):
        if bench != "nbody":
            continue
        base = variants.get("nvcc-template")
        for name, r in sorted(variants.items()):
            ms = float(r["median_ms"])
            ratio = float(base["median_ms"]) / ms if base else float("nan")
            print(f"{n:>10} {name:>18} {ms:9.4f} {ratio:16.3f}")


if __name__ == "__main__":
    main(sys.argv[1])
