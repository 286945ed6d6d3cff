#!/usr/bin/env python3
"""Draws the benchmark figures from bench.csv and jit.csv (bench/run.sh):
reduce.png (throughput against CUB and the copy bandwidth), nbody.png (speed
against nvcc-template over n), jit.png (first-launch latency) and async.png
(the asynchronous-API benchmarks, each mstage variant beside its CUDA
baseline), ports.png (issue 16's ports, each kernel's time mstage / nvcc)
and algorithms.png (issue 18's algorithms against CUB, Thrust and CUDA, with
their targets).

    plot.py bench.csv jit.csv OUT_DIR
"""
import csv
import os
import statistics
import sys
from collections import defaultdict

import report  # noqa: E402  (bench/, beside this file)

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def finish(fig, ax, title, ylabel, path, legend="best"):
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(loc=legend, fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def load(path):
    try:
        return list(csv.DictReader(open(path)))
    except OSError:
        return []


def reduce_plot(rows, out):
    by = defaultdict(dict)
    for r in rows:
        if r["benchmark"] == "reduce":
            by[int(r["n"])][r["variant"]] = float(r["median_ms"])
    if not by:
        return
    variants = ["mstage-staged", "mstage-unstaged", "nvcc-template", "nvcc-runtime", "cub"]
    fig, ax = plt.subplots(figsize=(7, 4))
    width = 0.8 / len(by)
    for k, (n, v) in enumerate(sorted(by.items())):
        ratios = [v["cub"] / v[name] if name in v else 0 for name in variants]
        ax.bar([i + k * width for i in range(len(variants))], ratios, width,
               label=f"n = {n}")
    ax.axhline(1.0, color="gray", lw=0.8)
    ax.set_xticks([i + width * (len(by) - 1) / 2 for i in range(len(variants))])
    ax.set_xticklabels(variants, rotation=15)
    finish(fig, ax, "Reduction of ints (paper Listing 4)",
           "throughput relative to CUB", os.path.join(out, "reduce.png"))


def nbody_plot(rows, out):
    by = defaultdict(dict)
    for r in rows:
        if r["benchmark"] == "nbody":
            by[r["variant"]][int(r["n"])] = float(r["median_ms"])
    base = by.get("nvcc-template")
    if not base:
        return
    fig, ax = plt.subplots(figsize=(7, 4))
    for name, times in sorted(by.items()):
        ns = sorted(n for n in times if n in base)
        ax.plot(ns, [base[n] / times[n] for n in ns], marker="o", label=name)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("bodies")
    finish(fig, ax, "n-body step (paper Listings 5 and 6)",
           "speed relative to nvcc-template", os.path.join(out, "nbody.png"))


def jit_plot(rows, out):
    # The run that only fills the driver's cache is a step, not a result.
    rows = [r for r in rows if r["variant"].startswith("first-launch")
            and "fills" not in r["variant"]]
    if not rows:
        return
    fig, ax = plt.subplots(figsize=(9, 0.45 * len(rows) + 1.2))
    labels = [f"{r['variant'][13:]} ({r.get('code') or '?'}), {r['kernel']}"
              for r in rows]
    parts = [("optimize_ms", "LLVM optimize"), ("codegen_ms", "LLVM codegen"),
             ("load_ms", "load: driver JIT of the PTX, or the cubin")]
    left = [0.0] * len(rows)
    for key, label in parts:
        vals = [float(r[key]) for r in rows]
        ax.barh(labels, vals, left=left, label=label)
        left = [a + v for a, v in zip(left, vals)]
    for i, r in enumerate(rows):  # the launch's wall time, at the bar's end
        ax.text(left[i] * 1.08, i, f"{float(r['ms']):.2f} ms", va="center",
                fontsize=8)
    ax.invert_yaxis()
    ax.set_xscale("log")
    ax.set_xlim(right=max(left) * 4)
    ax.set_xlabel("ms (log)")
    finish(fig, ax, "First launch of a kernel: cold, disk hit", "",
           os.path.join(out, "jit.png"))


def async_plot(rows, out):
    by = defaultdict(dict)  # benchmark -> (variant, n) -> row
    for r in report.middle_async_runs(rows):
        by[r["benchmark"]][(r["variant"], int(r["n"]))] = r
    if not by:
        return
    fig, axes = plt.subplots(2, 2, figsize=(11, 7))

    def bars(ax, bench, pairs, value, ylabel, title):
        # pairs: (label, CUDA variant, mstage variant), drawn side by side.
        values = {v: value(r) for (v, _), r in by.get(bench, {}).items()}
        xs = range(len(pairs))
        ax.bar([x - 0.2 for x in xs], [values.get(c, 0) for _, c, _ in pairs],
               0.4, label="CUDA (nvcc)")
        ax.bar([x + 0.2 for x in xs], [values.get(m, 0) for _, _, m in pairs],
               0.4, label="mstage")
        ax.set_xticks(list(xs))
        ax.set_xticklabels([label for label, _, _ in pairs], fontsize=8)
        ax.set_ylabel(ylabel)
        ax.set_title(title, fontsize=10)
        ax.legend(fontsize=8)

    us = lambda r: float(r["median_ms"]) * 1000.0  # noqa: E731
    bars(axes[0][0], "tiny-launch",
         [("<<<>>> / k(dv)", "cuda-async", "mstage-async"),
          ("graph replay", "cuda-graph", "mstage-graph"),
          ("launch + sync", "cuda-sync", "mstage-sync"),
          ("launch + sync /\nasync().wait()", "cuda-sync", "mstage-future")],
         us, "us per kernel", "Back-to-back tiny launches (lower is better)")

    ax = axes[0][1]
    heat = by.get("heat", {})
    ns = sorted({n for (v, n) in heat if v == "cuda" and ("mstage", n) in heat})
    ax.plot(ns, [float(heat[("cuda", n)]["median_ms"]) /
                 float(heat[("mstage", n)]["median_ms"]) for n in ns],
            marker="o", label="mstage")
    ax.axhline(1.0, color="gray", lw=0.8, label="nvcc")
    ax.axhline(1 / 1.05, color="red", lw=0.8, ls="--", label="target (1.05x time)")
    if ns:
        ax.set_xscale("log", base=2)
    ax.set_xlabel("N (field N x N)")
    ax.set_ylabel("speed relative to nvcc")
    ax.set_title("Heat equation, time per step (higher is better)", fontsize=10)
    ax.legend(fontsize=8)

    bars(axes[1][0], "transfer",
         [("pageable / std::vector", "cuda-pageable", "mstage-vector"),
          ("pinned / pinned_vector", "cuda-pinned", "mstage-pinned"),
          ("pageable / device_vector", "cuda-pageable", "mstage-dv")],
         lambda r: float(r["gbps"]), "GB/s (x in, y in, y out)",
         "y += x on 2^20 floats of host data (higher is better)")

    bars(axes[1][1], "alloc",
         [("cudaMallocAsync", "cuda-mallocasync", "mstage-device-vector"),
          ("cudaMalloc", "cuda-malloc", "mstage-device-vector")],
         us, "us per allocate + free (log)",
         "4 MiB allocation, device_vector (lower is better)")
    axes[1][1].set_yscale("log")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "async.png"), dpi=120)


def cold_plot(path, out):
    """cold.png: what a fresh process waits for, by JIT policy (auto, the
    default; async; sync) and nvcc."""
    try:
        rows = [r for r in csv.reader(open(path)) if r and r[0] == "jit-cold"]
    except OSError:
        return
    v = {k: statistics.median(ms) for k, ms in report.cold_samples(rows).items()}
    bars = [(f"{mode}: {label}", v[(mode, what)])
            for what, label in (("listing4-first-launch", "Listing 4 first launch"),
                                ("heat-1024-first-100-steps",
                                 "heat 1024^2, first 100 steps"),
                                ("single-launch-process",
                                 "single-launch application, process"))
            for mode in ("auto", "async", "sync", "nvcc") if (mode, what) in v]
    if not bars:
        return
    fig, ax = plt.subplots(figsize=(8, 0.45 * len(bars) + 1.2))
    ax.barh([b[0] for b in bars], [b[1] for b in bars])
    for i, (_, ms) in enumerate(bars):
        ax.text(ms * 1.08, i, f"{ms:.2f} ms", va="center", fontsize=8)
    ax.invert_yaxis()
    ax.set_xscale("log")
    ax.set_xlim(right=max(b[1] for b in bars) * 4)
    ax.set_xlabel("ms (log)")
    finish(fig, ax, "Cold start: empty caches, CUDA_CACHE_DISABLE=1", "",
           os.path.join(out, "cold.png"))


def ports_plot(rows, out):
    """ports.png: issue 16's ports, each kernel's time mstage / nvcc, staged
    (the targets) and unstaged side by side."""
    by = defaultdict(dict)
    for r in rows:
        if r["benchmark"] in report.PORTS:
            side, _, kernel = r["variant"].partition("-")
            label = r["benchmark"] + (f" {kernel}" if kernel else "")
            by[label][side] = float(r["median_ms"])
    labels = [label for label, v in by.items()
              if v.get("nvcc") and ("mstage" in v or "unstaged" in v)]
    if not labels:
        return
    fig, ax = plt.subplots(figsize=(8, 0.55 * len(labels) + 1.2))
    for shift, side, name in ((-0.2, "mstage", "staged"),
                              (0.2, "unstaged", "unstaged")):
        ys = [i + shift for i in range(len(labels))]
        ratios = [by[l][side] / by[l]["nvcc"] if side in by[l] else 0
                  for l in labels]
        ax.barh(ys, ratios, 0.4, label=f"mstage {name} / nvcc")
        for y, ratio in zip(ys, ratios):
            if ratio:
                ax.text(ratio + 0.01, y, f"{ratio:.3f}", va="center", fontsize=7)
    ax.set_yticks(range(len(labels)))
    ax.set_yticklabels(labels)
    ax.axvline(1.0, color="gray", lw=0.8)
    ax.invert_yaxis()
    top = max(by[l][s] / by[l]["nvcc"] for l in labels
              for s in ("mstage", "unstaged") if s in by[l])
    ax.set_xlim(0, max(1.45, top * 1.15))
    ax.set_xlabel("kernel time, mstage / nvcc (lower is better)")
    finish(fig, ax, "Issue 16's ports against nvcc", "",
           os.path.join(out, "ports.png"), legend="upper right")


def size_name(n):
    """2^27, 2^27+172, 510^3 (a cube) or the number."""
    k = n.bit_length() - 1
    if n - (1 << k) < 1024:
        return f"2^{k}" + (f"+{n - (1 << k)}" if n > 1 << k else "")
    c = round(n ** (1 / 3))
    return f"{c}^3" if c ** 3 == n else str(n)


def algorithms_plot(rows, out):
    """algorithms.png: issue 18's calls, each as baseline time / mstage time
    (higher is better), with its target where report.py has one."""
    ms = defaultdict(dict)  # (benchmark, n) -> variant -> median ms
    for r in rows:
        ms[(r["benchmark"], int(r["n"]))][r["variant"]] = float(r["median_ms"])
    bars = []  # (label, ratio, target or None)
    for bench, n, base, limit in report.ALGO_CORE_TARGETS:
        for key in sorted(k for k in ms if k[0] == bench and
                          (n is None or k[1] == n)):
            v = ms[key]
            if base in v and v.get("mstage"):
                bars.append((f"{bench[5:]} {size_name(key[1])} vs {base}",
                             v[base] / v["mstage"], limit))
    for bench, (label, limit) in report.SCAN_SORT.items():
        for key in sorted(k for k in ms if k[0] == bench):
            v = ms[key]
            if v.get("cub") and v.get("mstage"):
                bars.append((f"{bench[4:]} {size_name(key[1])} vs cub",
                             v["cub"] / v["mstage"], limit))
    if not bars:
        return
    fig, ax = plt.subplots(figsize=(8, 0.32 * len(bars) + 1.2))
    ys = range(len(bars))
    ax.barh(ys, [b[1] for b in bars], 0.6, label="baseline ms / mstage ms")
    for y, (_, ratio, limit) in zip(ys, bars):
        ax.text(ratio + 0.01, y, f"{ratio:.3f}", va="center", fontsize=7)
        if limit is not None:
            ax.plot([limit, limit], [y - 0.4, y + 0.4], color="red", lw=1.5,
                    label="target" if y == next(
                        i for i, b in enumerate(bars) if b[2] is not None)
                    else None)
    ax.set_yticks(list(ys))
    ax.set_yticklabels([b[0] for b in bars], fontsize=8)
    ax.axvline(1.0, color="gray", lw=0.8)
    ax.invert_yaxis()
    ax.set_xlim(0, max(1.7, max(b[1] for b in bars) * 1.12))
    ax.set_xlabel("throughput relative to the baseline (higher is better)")
    finish(fig, ax, "Issue 18's algorithms against CUB, Thrust and CUDA", "",
           os.path.join(out, "algorithms.png"), legend="lower right")


def main(bench_csv, jit_csv, out, cold_csv=None):
    os.makedirs(out, exist_ok=True)
    if cold_csv:
        cold_plot(cold_csv, out)
    rows = load(bench_csv)
    reduce_plot(rows, out)
    nbody_plot(rows, out)
    async_plot(rows, out)
    ports_plot(rows, out)
    algorithms_plot(rows, out)
    jit_plot(load(jit_csv), out)


if __name__ == "__main__":
    main(*sys.argv[1:5])
