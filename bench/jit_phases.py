#!/usr/bin/env python3
"""Where a cold JIT's time goes, from MSTAGE_TRACE=1 logs: per run label, the
median over the label's logs of each phase's sum over the compiles
(optimize: bitcode read, staged values folded, LLVM; codegen: NVPTX; load:
ptxas in PTX-only mode, ptxas or the driver's JIT and the module load on a
GPU). Prints CSV (label,phase,ms,runs) and, with matplotlib and --png,
draws one stacked bar per label.

    bench/jit_phases.py [--png OUT.png] LABEL=LOG[,LOG...] ...

For example, before and after a change, three runs each:
    MSTAGE_BACKEND=ptx MSTAGE_CACHE=memory MSTAGE_TRACE=1 \\
        build/bench/mstage_stencil 2> before.1
    bench/jit_phases.py --png phases.png before=before.1,before.2,before.3 \\
        after=after.1,after.2,after.3
"""
import re
import statistics
import sys

PHASES = ("optimize", "codegen", "load")
MISS = re.compile(r"cache miss")
TIME = re.compile(r"\b(optimize|codegen|load) ([0-9.]+) ms")


def phase_sums(path):
    sums = dict.fromkeys(PHASES, 0.0)
    with open(path) as f:
        for line in f:
            if MISS.search(line):
                for phase, ms in TIME.findall(line):
                    sums[phase] += float(ms)
    return sums


def main(argv):
    png = None
    if len(argv) > 1 and argv[0] == "--png":
        png, argv = argv[1], argv[2:]
    if not argv:
        sys.exit(__doc__)
    table = []
    for arg in argv:
        label, _, logs = arg.partition("=")
        runs = [phase_sums(p) for p in logs.split(",")]
        for phase in PHASES:
            table.append((label, phase, statistics.median(r[phase] for r in runs),
                          len(runs)))
    print("label,phase,ms,runs")
    for label, phase, ms, n in table:
        print(f"{label},{phase},{ms:.1f},{n}")
    if png:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        labels = list(dict.fromkeys(t[0] for t in table))
        bottom = [0.0] * len(labels)
        fig, ax = plt.subplots(figsize=(5, 4))
        for phase in PHASES:
            ms = [next(t[2] for t in table if t[0] == l and t[1] == phase)
                  for l in labels]
            ax.bar(labels, ms, bottom=bottom, label=phase)
            bottom = [b + m for b, m in zip(bottom, ms)]
        ax.set_ylabel("ms, summed over the compiles (median run)")
        ax.set_title("Where the cold JIT's time goes")
        ax.legend()
        fig.tight_layout()
        fig.savefig(png)


if __name__ == "__main__":
    main(sys.argv[1:])
