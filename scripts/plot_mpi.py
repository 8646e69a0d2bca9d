#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Plot hyla-mpi-bench CSV files: GFLOP/s of each run, distributed and
single-process, by routine, ranks and grid.

Usage: plot_mpi.py OUT.png CSV [CSV ...] [--title TEXT]

One panel per (file, routine): a pair of bars per row (distributed, and
the single process of the same cores), labelled ranks, grid, n and mode, with
the speedup t(single) / t(distributed) above.  Needs Debian's
python3-matplotlib.
"""
import csv
import os
import sys

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
    panels = []
    for f in files:
        with open(f) as fh:
            rows = list(csv.DictReader(fh))
        name = os.path.basename(f)[:-4]
        for r in sorted({row["routine"] for row in rows}):
            panels.append((name, r, [x for x in rows if x["routine"] == r]))
    fig, axes = plt.subplots(len(panels), 1, figsize=(9, 3.2 * len(panels)),
                             squeeze=False)
    for ax, (name, routine, rows) in zip(axes[:, 0], panels):
        xs = range(len(rows))
        d = [float(r["gflops"]) for r in rows]
        s = [float(r["single_gflops"]) for r in rows]
        ax.bar([x - 0.2 for x in xs], d, 0.4, label="distributed")
        ax.bar([x + 0.2 for x in xs], s, 0.4, label="single process")
        for x, r, h in zip(xs, rows, d):
            ax.text(x, max(h, s[x]) * 1.02, "%.2fx" % float(r["speedup"]),
                    ha="center", fontsize=8)
        ax.set_xticks(list(xs))
        ax.set_xticklabels(["%s ranks %s\nn=%s%s" %
                            (r["ranks"], r["grid"], r["n"],
                             "\n" + r["mode"] if r.get("mode") else "")
                            for r in rows], fontsize=7)
        ax.set_ylabel("GFLOP/s")
        gpus = rows[0].get("gpus_per_rank", "0")
        ax.set_title("%s: %s, %s CPU workers%s per rank" %
                     (name, routine, rows[0]["cpus_per_rank"],
                      " + %s GPU" % gpus if gpus != "0" else ""), fontsize=9)
        ax.set_ylim(0, max(d + s) * 1.15)
        ax.legend(fontsize=8, loc="upper left")
    if title:
        fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(out, dpi=110)


if __name__ == "__main__":
    main(sys.argv)
