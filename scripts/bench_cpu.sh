#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# CPU-mode benchmarks of the LU panel and of the whole LU on this machine,
# written as CSV files (and a trace) into OUTDIR.
#
#   scripts/bench_cpu.sh OUTDIR [BENCH]      BENCH: the hyla-bench binary
#
# Environment (defaults in brackets):
#   THREADS   panel thread counts                  [1 2 4 8 16, up to nproc]
#   ROWS      panel heights (256 columns)          [5000 10000 20000 50000]
#   N         order of the whole-LU runs           [20000]
#   NBS LAS PANELS   tile sizes, lookaheads and panel threads swept at N
#                                                  [384 512] [1 3] [1 4 8]
set -euo pipefail
out=${1:?usage: bench_cpu.sh OUTDIR [BENCH]}
bench=${2:-build/examples/hyla-bench}
mkdir -p "$out"
export STARPU_SILENT=1
cores=$(nproc)
threads=${THREADS:-$(for t in 1 2 4 8 16; do [ "$t" -le "$cores" ] && echo "$t"; done)}
rows=${ROWS:-5000 10000 20000 50000}
n=${N:-20000}

# 1. The panel alone: one 256-column tile column, factored by P threads,
#    against OpenBLAS dgetrf with P threads, and dgetf2 (unblocked).
for m in $rows; do
    for p in $threads; do
        "$bench" -r getrf -m "$m" -n 256 --nb 256 --ncpus "$p" \
            --panel-threads "$p" --tile --repeat 5 \
            --csv "$out/panel-m$m-p$p.csv"
    done
    "$bench" -r getrf -m "$m" -n 256 --nb 256 --ncpus 1 --tile --repeat 3 \
        --ref getf2 --csv "$out/panel-m$m-getf2.csv"
done

# 2. The whole LU at order n on every core: a sweep without the reference
#    (one warm-up and one timed run each), then the reference.
for nb in ${NBS:-384 512}; do
    for la in ${LAS:-1 3}; do
        for p in ${PANELS:-1 4 8}; do
            "$bench" -r getrf -n "$n" --nb "$nb" --lookahead "$la" \
                --panel-threads "$p" --repeat 1 --no-ref \
                --csv "$out/lu-nb$nb-la$la-p$p.csv"
        done
    done
done
