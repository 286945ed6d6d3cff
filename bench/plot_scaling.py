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

    eff = [t["heat", "plain"] / t["heat", v] for v in ("plain", "1", "2")]
    heat.bar(labels, eff, color=["#999999", "#4c72b0", "#4c72b0"])
    heat.axhline(1.0, color="black", lw=0.8, ls="--")
    heat.axhline(0.95, color="#c44e52", lw=0.8, ls=":", label="target 0.95")
    heat.set_ylim(0, 1.15)
    heat.set_ylabel("parallel efficiency (t_plain / t)")
    heat.set_title("heat_mpi, 8192² cells per GPU (weak)")
    heat.legend(loc="lower right")
    for i, v in enumerate(eff):
        heat.text(i, v + 0.02, f"{v:.3f}", ha="center")

    sp = [t["nbody", "plain"] / t["nbody", v] for v in ("plain", "1", "2")]
    nbody.bar(labels, sp, color=["#999999", "#55a868", "#55a868"])
    nbody.plot([0, 1, 2], [1, 1, 2], color="black", lw=0.8, ls="--",
               label="ideal")
    nbody.axhline(1.9, color="#c44e52", lw=0.8, ls=":", label="target 1.9")
    nbody.set_ylim(0, 2.3)
    nbody.set_ylabel("speedup over --plain")
    nbody.set_title("nbody_multi_gpu, 2^19 bodies (strong)")
    nbody.legend(loc="upper left")
    for i, v in enumerate(sp):
        nbody.text(i, v + 0.04, f"{v:.3f}", ha="center")

    fig.tight_layout()
    fig.savefig(args.output, dpi=110)


if __name__ == "__main__":
    main()
