#!/usr/bin/env python3
"""Plots bench/multi_gpu.sh's scaling figures (multi-gpu.csv).

Usage: plot_scaling.py multi-gpu.csv -o scaling.png

Left: the heat example's weak scaling (the same cells per GPU), time per
step against 1 GPU; right: the n-body example's strong scaling (the same
bodies in all), speedup over 1 GPU. Both show the program with no
multi-GPU code (--plain) beside the multi-GPU one on 1 GPU, and the ideal.
"""
import argparse
import csv

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("csv")
    ap.add_argument("-o", "--output", required=True)
    args = ap.parse_args()
    t = {}
    for r in csv.DictReader(open(args.csv)):
        t[r["example"], r["variant"]] = float(r["median_s"])

    fig, (heat, nbody) = plt.subplots(1, 2, figsize=(9, 3.6))
    labels = ["1 GPU\n(--plain)", "1 GPU", "2 GPUs"]

    def panel(ax, example, color, ideal, target, top, ylabel, title, loc):
        # Each bar: the --plain time over the variant's.
        vals = [t[example, "plain"] / t[example, v]
                for v in ("plain", "1", "2")]
        ax.bar(labels, vals, color=["#999999", color, color])
        ax.plot([0, 1, 2], ideal, color="black", lw=0.8, ls="--",
                label="ideal")
        ax.axhline(target, color="#c44e52", lw=0.8, ls=":",
                   label=f"target {target}")
        ax.set_ylim(0, top)
        ax.set_ylabel(ylabel)
        ax.set_title(title)
        ax.legend(loc=loc)
        for i, v in enumerate(vals):
            ax.text(i, v + top / 60, f"{v:.3f}", ha="center")

    panel(heat, "heat", "#4c72b0", [1, 1, 1], 0.95, 1.15,
          "parallel efficiency (t_plain / t)",
          "heat_mpi, 8192² cells per GPU (weak)", "lower right")
    panel(nbody, "nbody", "#55a868", [1, 1, 2], 1.9, 2.3,
          "speedup over --plain", "nbody_multi_gpu, 2^19 bodies (strong)",
          "upper left")

    fig.tight_layout()
    fig.savefig(args.output, dpi=110)


if __name__ == "__main__":
    main()
