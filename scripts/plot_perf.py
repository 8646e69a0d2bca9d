#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Plot hyla-bench CSV files: GFLOP/s against n, hyla and the reference.

Usage: plot_perf.py OUT.png CSV [CSV ...] [--title TEXT] [--x COL]
                    [--series COL] [--logx]

One panel per routine; one line per (series, library), GFLOP/s against
column --x (default n), series by column --series (default prec; several
columns comma-separated; `file' is the CSV file's name without .csv):
e.g. --x panel_threads --series m for a panel sweep, --series file for
runs before and after a change.  Needs Debian's
python3-matplotlib (apt-get install python3-matplotlib).
"""
import csv
import os
import textwrap
import sys
from collections import defaultdict

import flags  # scripts/flags.py

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main(argv):
    opts = flags.take(argv, {"--title": None, "--x": "n", "--series": "prec"})
    logx = "--logx" in argv
    if logx:
        argv.remove("--logx")
    title, xcol, scol = opts["--title"], opts["--x"], opts["--series"]
    if len(argv) < 3:
        sys.exit(__doc__)
    out, files = argv[1], argv[2:]
    series = defaultdict(list)  # (routine, prec, who) -> [(n, gflops)]
    for path in files:
        name = os.path.basename(path).removesuffix(".csv")
        with open(path, newline="") as f:
            for row in csv.DictReader(f):
                row["file"] = name
                n = float(row[xcol])
                key = (row["routine"],
                       " ".join(row[c] for c in scol.split(",")))
                # A run against dgetf2 repeats hyla's point of another run.
                if not row["ref"].endswith("getf2"):
                    series[key + (("hyla " + row.get("mode", "")).rstrip(),)].append(
                        (n, float(row["hyla_gflops"])))
                if float(row["ref_gflops"]) > 0:
                    series[key + (row["ref"],)].append(
                        (n, float(row["ref_gflops"])))
    routines = sorted({k[0] for k in series})
    fig, axes = plt.subplots(1, len(routines),
                             figsize=(max(8, 5 * len(routines)), 4.5),
                             squeeze=False)
    for ax, routine in zip(axes[0], routines):
        keys = sorted(k for k in series if k[0] == routine)
        if len(keys) > 10:  # past the default cycle's colours
            ax.set_prop_cycle(color=plt.get_cmap("tab20").colors)
        for key in keys:
            pts = sorted(series[key])
            style = "-o" if key[2].startswith("hyla") else "--s"
            ax.plot([p[0] for p in pts], [p[1] for p in pts], style,
                    label="%s %s" % (key[1], key[2]))
        ax.set_title(routine)
        ax.set_xlabel(xcol)
        if logx:
            ax.set_xscale("log", base=2)
        ax.set_ylabel("GFLOP/s")
        ax.set_ylim(bottom=0)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    if title:
        fig.suptitle(textwrap.fill(title, 110), fontsize=9)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
