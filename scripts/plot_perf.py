#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Plot hyla-bench CSV files: GFLOP/s against n, hyla and the reference.

Usage: plot_perf.py OUT.png CSV [CSV ...] [--title TEXT]

One panel per routine; one line per (precision, library).  Needs Debian's
python3-matplotlib (apt-get install python3-matplotlib).
"""
import csv
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main(argv):
    title = None
    if "--title" in argv:
        i = argv.index("--title")
        title = argv[i + 1]
        del argv[i:i + 2]
    if len(argv) < 3:
        sys.exit(__doc__)
    out, files = argv[1], argv[2:]
    series = defaultdict(list)  # (routine, prec, who) -> [(n, gflops)]
    for path in files:
        with open(path, newline="") as f:
            for row in csv.DictReader(f):
                n = int(row["n"])
                key = (row["routine"], row["prec"])
                series[key + ("hyla " + row["mode"],)].append(
                    (n, float(row["hyla_gflops"])))
                if float(row["ref_gflops"]) > 0:
                    series[key + (row["ref"],)].append(
                        (n, float(row["ref_gflops"])))
    routines = sorted({k[0] for k in series})
    fig, axes = plt.subplots(1, len(routines), figsize=(5 * len(routines), 4),
                             squeeze=False)
    for ax, routine in zip(axes[0], routines):
        for key in sorted(k for k in series if k[0] == routine):
            pts = sorted(series[key])
            style = "-o" if key[2].startswith("hyla") else "--s"
            ax.plot([p[0] for p in pts], [p[1] for p in pts], style,
                    label="%s %s" % (key[1], key[2]))
        ax.set_title(routine)
        ax.set_xlabel("n")
        ax.set_ylabel("GFLOP/s")
        ax.set_ylim(bottom=0)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    if title:
        fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
