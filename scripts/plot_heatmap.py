#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Draw a hyla-bench sweep of nb and lookahead as a heat map of GFLOP/s.

Usage: plot_heatmap.py OUT.png CSV [--routine R] [--prec P] [--n N]
                       [--title TEXT]

The CSV comes from hyla-bench with lists for --nb and --lookahead (a row
per pair).  One map, for the routine, precision and n given (default: the
first row's); each cell is hyla's GFLOP/s (best of the repeats), the best
cell outlined; the reference's GFLOP/s, when measured, is in the title.
Needs Debian's python3-matplotlib.
"""
import csv
import sys

import flags  # scripts/flags.py

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main(argv):
    opts = flags.take(argv, {
        "--routine": None,
        "--prec": None,
        "--n": None,
        "--title": None,
    })
    if len(argv) != 3:
        sys.exit(__doc__)
    with open(argv[2], newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        sys.exit("plot_heatmap.py: %s has no rows" % argv[2])
    first = rows[0]
    want = {k: opts["--" + k] or first[k] for k in ("routine", "prec", "n")}
    rows = [r for r in rows if all(r[k] == v for k, v in want.items())]
    nbs = sorted({int(r["nb"]) for r in rows})
    las = sorted({int(r["lookahead"]) for r in rows})
    grid = [[float("nan")] * len(nbs) for _ in las]
    for r in rows:
        g = grid[las.index(int(r["lookahead"]))][nbs.index(int(r["nb"]))]
        grid[las.index(int(r["lookahead"]))][nbs.index(int(r["nb"]))] = max(
            float(r["hyla_gflops"]), g if g == g else 0.0)
    fig, ax = plt.subplots(figsize=(1.2 * len(nbs) + 2.5, 0.8 * len(las) + 2))
    im = ax.imshow(grid, cmap="viridis", aspect="auto", origin="lower")
    best = max((v, i, j) for i, row in enumerate(grid)
               for j, v in enumerate(row) if v == v)
    lo = min(v for row in grid for v in row if v == v)
    for i, row in enumerate(grid):
        for j, v in enumerate(row):
            if v == v:
                # White on the dark lower half of the colour map.
                dark = v - lo < 0.5 * (best[0] - lo)
                ax.text(j, i, "%.0f" % v, ha="center", va="center",
                        color="w" if dark else "k", fontsize=9)
    ax.add_patch(plt.Rectangle((best[2] - 0.5, best[1] - 0.5), 1, 1,
                               fill=False, edgecolor="r", linewidth=2))
    ax.set_xticks(range(len(nbs)), [str(n) for n in nbs])
    ax.set_yticks(range(len(las)), [str(n) for n in las])
    ax.set_xlabel("nb")
    ax.set_ylabel("lookahead")
    fig.colorbar(im, ax=ax, label="GFLOP/s")
    refs = [float(r["ref_gflops"]) for r in rows if float(r["ref_gflops"]) > 0]
    title = opts["--title"] or "%s %s n = %s" % (want["routine"], want["prec"],
                                                 want["n"])
    if refs:
        title += "; %s %.0f GFLOP/s" % (rows[0]["ref"], max(refs))
    ax.set_title(title, fontsize=9)
    fig.tight_layout()
    fig.savefig(argv[1], dpi=110)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
