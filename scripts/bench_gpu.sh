#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# GPU checks and hybrid benchmarks on this machine's GPUs, written into
# OUTDIR as logs and CSV files as they finish (a run cut short keeps what
# it has done).
#
#   scripts/bench_gpu.sh OUTDIR [BUILD]      BUILD: a CUDA build [build]
#
# Environment (defaults in brackets):
#   STEPS   which parts, in order: tests sanitizer one multi batched
#                                                              [all five]
#   N1      orders on one GPU                          [16384 32768]
#   NMULTI  orders on 1..G GPUs                        [32768 65536]
#   NBS     tile sizes                                 [1024 2048]
#   MODES   modes of the one-GPU runs                  [native hybrid]
#   LIMIT   seconds allowed to each command            [300]
set -uo pipefail
out=${1:?usage: bench_gpu.sh OUTDIR [BUILD]}
build=${2:-build}
mkdir -p "$out"
export STARPU_SILENT=1 STARPU_HOME=${STARPU_HOME:-$out/starpu-home}
bench=$build/examples/hyla-bench
tests=$build/tests
limit=${LIMIT:-300}
gpus=$(nvidia-smi -L 2>/dev/null | wc -l)
nvidia-smi -L > "$out/gpus.txt" 2>&1

t() { timeout "$limit" "$@"; }
log() { echo "$*" | tee -a "$out/summary.txt"; }

for step in ${STEPS:-tests sanitizer one multi batched}; do
case $step in
tests)
    # The gpu suite's programs with their variants (tests/meson.build).
    for g in 1 2; do
        [ "$g" -le "$gpus" ] || continue
        for mode in hybrid native; do
            for p in dgetrf sgetrf dpotrf spotrf dgesv sgesv dcheck_args \
                     dgetrf_batched sgetrf_batched; do
                f="$out/test_${p}_${mode}$g.log"
                HYLA_TEST_GPUS=$g HYLA_TEST_MODE=$mode t "$tests/test_$p" > "$f" 2>&1
                log "test_$p $mode gpu$g rc=$? $(tail -1 "$f")"
            done
        done
    done
    if [ "$gpus" -ge 2 ]; then
        for p in dgetrf dpotrf; do
            HYLA_TEST_GPUS=2 HYLA_MAPPING=cyclic t "$tests/test_$p" \
                > "$out/test_${p}_cyclic.log" 2>&1
            log "test_$p gpu2 cyclic rc=$? $(tail -1 "$out/test_${p}_cyclic.log")"
        done
    fi
    HYLA_TEST_GPUS=1 HYLA_TRSM_INV=0 HYLA_GPU_STREAMS=2 \
        HYLA_GPU_RESERVED_SMS=16 t "$tests/test_dpotrf" \
        > "$out/test_dpotrf_gpu1_trsm.log" 2>&1
    log "test_dpotrf gpu1 trsm rc=$? $(tail -1 "$out/test_dpotrf_gpu1_trsm.log")"
    HYLA_TEST_GPUS=1 STARPU_LIMIT_CUDA_MEM=64 t "$tests/test_evict" \
        > "$out/test_evict.log" 2>&1
    log "test_evict gpu1 rc=$? $(tail -1 "$out/test_evict.log")"
    for k in dlaswp dgetrf_panel_gpu sgetrf_panel_gpu dpotrf_gpu dtrsm_gpu \
             dtrtri_gpu dgetrf_batched_cuda sgetrf_batched_cuda; do
        t "$tests/test_$k" > "$out/test_$k.log" 2>&1
        log "test_$k rc=$? $(tail -1 "$out/test_$k.log")"
    done ;;
sanitizer)
    # memcheck on everything a kernel test runs; racecheck on hyla's own
    # kernels (test:kernel-name substring; cuBLAS's are slow to check).
    for k in dlaswp:laswp dgetrf_panel_gpu:leaf_kernel dpotrf_gpu:potrf_leaf \
             dtrsm_gpu: dtrtri_gpu:trtri_leaf; do
        name=${k#*:} k=${k%%:*}
        for tool in memcheck racecheck; do
            filter=()
            if [ $tool = racecheck ]; then
                [ -n "$name" ] || continue
                filter=(--kernel-name "kns=$name")
            fi
            t compute-sanitizer --tool $tool "${filter[@]}" --error-exitcode 9 \
                "$tests/test_$k" > "$out/san_${k}_$tool.log" 2>&1
            log "compute-sanitizer $tool test_$k rc=$? $(tail -1 "$out/san_${k}_$tool.log")"
        done
    done
    # The batched kernels, every kind, on batches of 8 (the tests' batches
    # of 66,000 are too slow to check), and above order 32 each block
    # width; racecheck on hyla's kernels only.
    for tool in memcheck racecheck; do
        filter=()
        [ $tool = racecheck ] && filter=(--kernel-name "kns=hyla")
        t compute-sanitizer --tool $tool "${filter[@]}" --error-exitcode 9 \
            "$build/examples/hyla-batched" -n 2,17,32,33,65,100,257,512 -b 8 \
            --repeat 1 --check 8 -p d,s > "$out/san_batched_$tool.log" 2>&1
        log "compute-sanitizer $tool hyla-batched rc=$? $(tail -1 "$out/san_batched_$tool.log")"
        for blk in 32 64 128; do
            t compute-sanitizer --tool $tool "${filter[@]}" --error-exitcode 9 \
                "$build/examples/hyla-batched" -n 65,200 -b 2 --block $blk \
                --repeat 1 --check 2 -p d,s -r getrf \
                > "$out/san_batched_${tool}_$blk.log" 2>&1
            log "compute-sanitizer $tool hyla-batched --block $blk rc=$?" \
                "$(tail -1 "$out/san_batched_${tool}_$blk.log")"
        done
    done ;;
one)
    # One GPU: hyla on GPU-resident tiles against cuSOLVER, in each mode.
    for mode in ${MODES:-native hybrid}; do
        for nb in ${NBS:-1024 2048}; do
            for r in potrf getrf; do
                t "$bench" -r $r -p d,s \
                    -n "$(echo ${N1:-16384 32768} | tr ' ' ,)" --nb "$nb" \
                    --mode $mode --ngpus 1 --ref cusolver --repeat 3 --on-gpu \
                    --csv "$out/one-$mode-$r-nb$nb.csv" |
                    tee -a "$out/summary.txt"
            done
        done
    done ;;
multi)
    # 1..G GPUs, scheduler against cyclic mapping, cuSolverMg on as many;
    # LU in native mode (GPU panels), Cholesky in hybrid.
    for g in 1 2 4 8; do
        [ "$g" -le "$gpus" ] || continue
        for map in scheduler cyclic; do
            for r in potrf getrf; do
                mode=hybrid nb=2048
                [ $r = getrf ] && mode=native nb=1024
                t "$bench" -r $r -n "$(echo ${NMULTI:-32768 65536} | tr ' ' ,)" \
                    --nb $nb --mode $mode --ngpus $g --mapping $map \
                    --ref cusolvermg --repeat 2 --on-gpu --no-check \
                    --csv "$out/multi-$r-g$g-$map.csv" | tee -a "$out/summary.txt"
            done
        done
    done ;;
batched)
    # Batched LU and inverse against cuBLAS's: 1M matrices of orders 2-32,
    # then 2^28 elements of orders 33-512.
    t "$build/examples/hyla-batched" -p d,s --csv "$out/batched.csv" |
        tee -a "$out/summary.txt"
    t "$build/examples/hyla-batched" -n 33,48,64,96,128,192,256,384,512 \
        -p d,s --check 16 --csv "$out/batched-large.csv" |
        tee -a "$out/summary.txt" ;;
*) echo "bench_gpu.sh: unknown step '$step'" >&2; exit 2 ;;
esac
done
