#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Summarise a GPU timeline (libhyla-gpu-timeline.so's JSON) run by run:
how long the GPU ran 0, 1, 2 or 3+ kernels or copies at once, the time of
each kind of kernel and copy, and, with --bin, the same per bin of the
run with what ran alone.  Standard library only.

Usage: timeline_summary.py GPU.json [--run I] [--bin MS] [--gap MS]

A run is one call of hyla-bench --in-tiles: the timeline's events between
two bursts of the random tiles' kernels (plrnt), or, without them, between
idle gaps longer than --gap ms (default 30).  --run I shows run I only
(0: the first, -1: the last).  Times are in ms.
"""
import collections
import json
import sys

import flags  # scripts/flags.py

# Kernel name fragments, in the order they are tried: the group a kernel
# is counted in.
GROUPS = ["syrk", "gemm", "trsm", "potrf", "trtri", "leaf_cluster",
          "leaf", "laswp", "perm_plan", "perm_apply", "plan", "plrnt",
          "getrf", "swap", "memset"]


def group(name):
    if name.startswith("memcpy"):
        # "memcpy HtoD 33554432 B": the direction and the size
        return name
    low = name.lower()
    for g in GROUPS:
        if g in low:
            return g
    return name[:40]


def split_runs(events, gap_us):
    """Lists of events, one per run (the plrnt kernels left out)."""
    if any("plrnt" in e["name"] for e in events):
        runs, cur, in_plrnt = [], [], False
        for e in events:
            is_plrnt = "plrnt" in e["name"]
            if is_plrnt and not in_plrnt and cur:
                runs.append(cur)
                cur = []
            in_plrnt = is_plrnt
            if not is_plrnt:
                cur.append(e)
        return runs + [cur] if cur else runs
    runs, cur, end = [], [], 0
    for e in events:
        if cur and e["ts"] > end + gap_us:
            runs.append(cur)
            cur = []
        end = max(end, e["ts"] + e["dur"]) if cur else e["ts"] + e["dur"]
        cur.append(e)
    return runs + [cur] if cur else runs


def sweep(run):
    """(start, end, active events) for each interval between two event
    boundaries of the run."""
    points = []
    for i, e in enumerate(run):
        points.append((e["ts"], 1, i))
        points.append((e["ts"] + e["dur"], -1, i))
    points.sort()
    active, last = set(), None
    for t, d, i in points:
        if last is not None and t > last:
            yield last, t, active
        last = t
        if d > 0:
            active.add(i)
        else:
            active.discard(i)


def summarise(index, run, bin_us):
    t0 = min(e["ts"] for e in run)
    t1 = max(e["ts"] + e["dur"] for e in run)
    level = collections.Counter()
    nbins = int((t1 - t0) / bin_us) + 1 if bin_us else 0
    bins = [collections.Counter() for _ in range(nbins)]
    alone = [collections.Counter() for _ in range(nbins)]
    for a, b, active in sweep(run):
        n = min(len(active), 3)
        level[n] += b - a
        only = group(run[next(iter(active))]["name"]) if n == 1 else None
        while bin_us and a < b:
            i = int((a - t0) / bin_us)
            edge = min(b, t0 + (i + 1) * bin_us)
            bins[i][n] += edge - a
            if only:
                alone[i][only] += edge - a
            a = edge
    print(f"run {index}: from {t0 / 1e3:.1f} ms, {(t1 - t0) / 1e3:.2f} ms, "
          f"{len(run)} events")
    print("  at once: " + ", ".join(
        f"{k if k < 3 else '3+'}: {level[k] / 1e3:.1f} ms" for k in range(4)))
    kinds = collections.defaultdict(lambda: [0, 0.0])
    for e in run:
        k = kinds[group(e["name"])]
        k[0] += 1
        k[1] += e["dur"]
    for name, (count, total) in sorted(kinds.items(), key=lambda kv: -kv[1][1]):
        print(f"  {name:40s} {count:6d} {total / 1e3:9.2f} ms, "
              f"{total / count:8.1f} us each")
    for i in range(nbins):
        w = bin_us
        c = bins[i]
        top = sorted(alone[i].items(), key=lambda kv: -kv[1])[:4]
        print(f"  {i * w / 1e3:7.1f} ms: idle {c[0] / w:.2f} one {c[1] / w:.2f}"
              f" two {c[2] / w:.2f} 3+ {c[3] / w:.2f} | alone: " +
              " ".join(f"{k}={v / w:.2f}" for k, v in top))


def main(argv):
    opts = flags.take(argv, {"--run": None, "--bin": None, "--gap": "30"})
    if len(argv) != 2:
        sys.exit(__doc__)
    with open(argv[1]) as f:
        events = [e for e in json.load(f)["traceEvents"]
                  if e.get("pid") == 0 and e.get("ph") == "X"]
    events.sort(key=lambda e: e["ts"])
    runs = split_runs(events, float(opts["--gap"]) * 1e3)
    bin_us = float(opts["--bin"]) * 1e3 if opts["--bin"] else 0
    chosen = range(len(runs))
    if opts["--run"] is not None:
        i = int(opts["--run"])
        chosen = [i % len(runs)] if runs else []
    for i in chosen:
        summarise(i, runs[i], bin_us)


if __name__ == "__main__":
    main(sys.argv)
