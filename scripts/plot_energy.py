#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Plot the energy figures of hyla-bench --energy runs: GFLOP/s per watt
(GFLOP per joule of the GPUs and CPUs together) of each mode and of the
reference, one group of bars per routine and order.

Usage: plot_energy.py OUT.png CSV [--title TEXT] [--min-seconds S]

Rows whose hyla run is shorter than S seconds (default 0.1: NVML's
energy counter moves too seldom for shorter calls) are left out.  A CPU
figure that is an estimate (column cpu_j_source) is said so in the
legend.  Needs python3-matplotlib.
"""
import csv
import sys
from collections import OrderedDict

import flags  # scripts/flags.py

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

FLOPS = {"getrf": lambda n: 2 * n ** 3 / 3, "potrf": lambda n: n ** 3 / 3}


def main(argv):
    opts = flags.take(argv,
                      {"--title": "GFLOP/s per watt", "--min-seconds": "0.1"})
    if len(argv) != 3:
        sys.exit(__doc__)
    out, path = argv[1], argv[2]
    with open(path) as f:
        rows = [r for r in csv.DictReader(f) if r["routine"] in FLOPS]
    groups, bars, estimate = OrderedDict(), [], False
    for r in rows:
        if float(r["hyla_s_min"]) < float(opts["--min-seconds"]):
            continue
        key = "%s %s" % (r["routine"], r["n"])
        flops = FLOPS[r["routine"]](float(r["n"]))
        estimate |= r.get("cpu_j_source") == "estimate"
        mode = r["mode"]
        if r.get("mode_asked", mode) != mode:  # auto, and what it came to
            mode = "%s (%s)" % (r["mode_asked"], mode)
        for who, gpu, cpu in ((mode, r["hyla_gpu_j"], r["hyla_cpu_j"]),
                              (r["ref"], r["ref_gpu_j"], r["ref_cpu_j"])):
            joules = sum(max(float(x), 0.0) for x in (gpu, cpu))
            if joules > 0:
                groups.setdefault(key, OrderedDict())[who] = flops / joules / 1e9
                if who not in bars:
                    bars.append(who)
    fig, ax = plt.subplots(figsize=(8, 4))
    width = 0.8 / max(len(bars), 1)
    for b, who in enumerate(bars):
        xs = [g + b * width for g, k in enumerate(groups) if who in groups[k]]
        ys = [groups[k][who] for k in groups if who in groups[k]]
        ax.bar(xs, ys, width, label=who)
    ax.set_xticks([g + 0.4 - width / 2 for g in range(len(groups))])
    ax.set_xticklabels(list(groups))
    ax.set_ylabel("GFLOP/s per W (GPU + CPU%s)" %
                  (", CPU estimated" if estimate else ""))
    ax.set_title(opts["--title"])
    ax.legend()
    fig.tight_layout()
    fig.savefig(out, dpi=100)


if __name__ == "__main__":
    main(sys.argv)
