#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# How often the RBT solver falls back: hyla-bench's gesv_rbt on the random
# matrices of COUNT consecutive seeds, one CSV row each (rbt_iter: the
# solves of the refinement; rbt_fallback: hyla_rbt_fallback_t), then a
# summary line per order.
#
#   scripts/rbt_seeds.sh BENCH CSV PREC FIRST COUNT N:NB [N:NB ...] [-- BENCH_OPTION ...]
set -euo pipefail
bench=$1 csv=$2 prec=$3 first=$4 count=$5
shift 5
cases=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do cases+=("$1"); shift; done
[ $# -gt 0 ] && shift
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
rm -f "$csv"
for c in "${cases[@]}"; do
    n=${c%:*} nb=${c#*:}
    for ((s = first; s < first + count; s++)); do
        : >"$tmp" # --csv appends
        "$bench" -r gesv_rbt -p "$prec" -n "$n" --nb "$nb" --seed "$s" \
            --no-ref --repeat 1 --csv "$tmp" "$@" >/dev/null 2>&1 || true
        if [ ! -f "$csv" ]; then head -1 "$tmp" >"$csv"; fi
        tail -n +2 "$tmp" >>"$csv"
    done
done
# Columns by name: n, rbt_iter, rbt_fallback.
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    { n = $col["n"]; k[n]++; it[n] += $col["rbt_iter"];
      if ($col["rbt_fallback"] != 0) fb[n]++ }
    END { for (n in k) printf "n %d: %d of %d fell back, %.2f solves on average\n",
                              n, fb[n], k[n], it[n] / k[n] }' "$csv" | sort -n -k2
