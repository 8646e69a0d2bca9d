#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Plot one number of each row of a CSV file as a horizontal bar, for
records whose rows are cases rather than points of a sweep (a setting on
and off, one order).

Usage: plot_bars.py OUT.png CSV --value COL [--label COLS] [--color COL]
                    [--xlabel TEXT] [--title TEXT]

Each bar is labelled by the columns --label (comma-separated; default
every column but --value) and coloured by column --color (default none),
the value printed at its end.  Bars keep the file's row order, top
first.  Needs python3-matplotlib.
"""
import csv
import sys
import textwrap

import flags  # scripts/flags.py

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main(argv):
    opts = flags.take(argv, {"--value": None, "--label": None,
                             "--color": None, "--xlabel": None,
                             "--title": None})
    if len(argv) != 3 or not opts["--value"]:
        sys.exit(__doc__)
    out, path, vcol = argv[1], argv[2], opts["--value"]
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        sys.exit(f"plot_bars.py: {path} has no rows")
    lcols = (opts["--label"].split(",") if opts["--label"]
             else [c for c in rows[0] if c != vcol])
    ccol = opts["--color"]
    keys = list(dict.fromkeys(r[ccol] for r in rows)) if ccol else [None]
    cmap = plt.get_cmap("tab10")
    fig, ax = plt.subplots(figsize=(8, 0.45 * len(rows) + 1.5))
    y = list(range(len(rows)))[::-1]
    vals = [float(r[vcol]) for r in rows]
    colors = [cmap(keys.index(r[ccol]) % 10) if ccol else cmap(0)
              for r in rows]
    ax.barh(y, vals, color=colors)
    ax.set_yticks(y)
    ax.set_yticklabels([", ".join(r[c] for c in lcols) for r in rows],
                       fontsize=8)
    for yi, v in zip(y, vals):
        ax.text(v, yi, f" {v:g}", va="center", fontsize=8)
    ax.set_xlim(0, max(vals) * 1.15)
    ax.set_xlabel(opts["--xlabel"] or vcol)
    if opts["--title"]:
        ax.set_title("\n".join(textwrap.wrap(opts["--title"], 70)),
                     fontsize=10)
    fig.tight_layout()
    fig.savefig(out, dpi=110)


if __name__ == "__main__":
    main(sys.argv)
