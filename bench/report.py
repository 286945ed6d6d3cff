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

    for (bench, n), variants in sorted(by.items()):
        if bench != "saxpy":
            continue
        print()
        print("saxpy (GB/s moved, against the device-to-device copy of the same run)")
        for name, r in sorted(variants.items()):
            gbps = float(r["gbps"])
            of_copy = gbps / copy_gbps if copy_gbps else float("nan")
            print(f"{n:>10} {name:>18} {float(r['median_ms']):9.4f} {gbps:8.1f} "
                  f"x copy {of_copy:6.3f}")

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


def jit_report(path):
    try:
        rows = list(csv.DictReader(open(path)))
    except OSError:
        return
    if not rows:
        return
    print()
    print("JIT latency (ms; a first launch's wall time and what making its code cost)")
    print(f"{'variant':>38} {'kernel':>9} {'ms':>9} {'evaluate':>9} {'optimize':>9} "
          f"{'codegen':>9} {'load':>9} {'code':>5}")
    by = {}
    for r in rows:
        by[(r["variant"], r["kernel"])] = float(r["ms"])
        print(f"{r['variant']:>38} {r['kernel']:>9} {float(r['ms']):9.4f} "
              f"{float(r['evaluate_ms']):9.4f} {float(r['optimize_ms']):9.4f} "
              f"{float(r['codegen_ms']):9.4f} {float(r['load_ms']):9.4f} "
              f"{r.get('code') or '':>5}")
    raw = by.get(("launch-raw", "tiny"))
    hit = by.get(("launch-memory-hit", "tiny"))
    if raw and hit:
        print(f"memory hit: {hit * 1000:.2f} us per launch against raw cuLaunchKernel "
              f"{raw * 1000:.2f} us: {(hit - raw) * 1000:+.2f} us, {hit / raw:.3f}x")


if __name__ == "__main__":
    main(sys.argv[1])
    if len(sys.argv) > 2:
        jit_report(sys.argv[2])
