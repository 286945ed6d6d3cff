#!/usr/bin/env python3
"""Plots bench/multi_gpu.sh's scaling figures (multi-gpu.csv).

Usage: plot_scaling.py multi-gpu.csv -o scaling.png [--machine "4 H100s"]

Left: the heat example's weak scaling (the same cells per GPU), parallel
efficiency; right: the n-body example's strong scaling (the same bodies in
all), speedup; both against the multi-GPU program on 1 GPU, as the targets
are (issue 19's at 2 GPUs, issue 20's at 4). The program with no multi-GPU
code (--plain) is the first bar, on the same scale.
"""
import argparse
import csv

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

# Targets by GPU count: heat's parallel efficiency, n-body's speedup.
TARGETS = {"heat": {2: 0.95, 4: 0.90}, "nbody": {2: 1.9, 4: 3.5}}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("csv")
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--machine", help="where it ran, for the figure's title")
    args = ap.parse_args()
    t = {}
    for r in csv.DictReader(open(args.csv)):
        t[r["example"], r["variant"]] = float(r["median_s"])
    counts = sorted({int(v) for e, v in t if v != "plain"})
    variants = ["plain"] + [str(g) for g in counts]
    labels = ["1 GPU\n(--plain)"] + [
        f"{g} GPU" + ("s" if g > 1 else "") for g in counts]

    fig, (heat, nbody) = plt.subplots(1, 2, figsize=(4 + 1.6 * len(labels), 3.8))

    def panel(ax, example, color, weak, ylabel, title, loc):
        # Each bar: the 1-GPU time over the variant's; with the same work
        # per GPU (weak scaling) that is the parallel efficiency.
        vals = [t[example, "1"] / t[example, v] for v in variants]
        gpus = [1] + counts
        ideal = [1 if weak else g for g in gpus]
        x = range(len(labels))
        ax.bar(labels, vals, color=["#999999"] + [color] * len(counts))
        ax.plot(x, ideal, color="black", lw=0.8, ls="--", marker=".",
                label="ideal")
        label = "target"
        for i, g in enumerate(gpus):
            target = TARGETS[example].get(g) if i else None
            if target:
                ax.plot([i - 0.4, i + 0.4], [target, target], color="#c44e52",
                        lw=1.5, ls=":", label=label, zorder=3)
                label = None
        top = 1.2 * max(ideal + vals)
        ax.set_ylim(0, top)
        ax.set_ylabel(ylabel)
        ax.set_title(title)
        ax.legend(loc=loc)
        for i, v in enumerate(vals):
            ax.text(i, v - top / 14, f"{v:.3f}", ha="center", color="white")

    panel(heat, "heat", "#4c72b0", True,
          "parallel efficiency (t_1 GPU / t)",
          "heat_mpi, 8192² cells per GPU (weak)", "lower right")
    panel(nbody, "nbody", "#55a868", False,
          "speedup over 1 GPU", "nbody_multi_gpu, 2^19 bodies (strong)",
          "upper left")

    if args.machine:
        fig.suptitle(f"bench/multi_gpu.sh on {args.machine}")
    fig.tight_layout()
    fig.savefig(args.output, dpi=110)


if __name__ == "__main__":
    main()
