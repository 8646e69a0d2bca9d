// SPDX-License-Identifier: BSD-3-Clause
// hyla-bench: one case, timed for hyla and for the reference LAPACK.
#ifndef HYLA_EXAMPLES_BENCH_H
#define HYLA_EXAMPLES_BENCH_H

typedef double seconds_t; // not rewritten by the precision generator
// Sums of the residual checks, in double in both precisions (not
// rewritten either): the check's own rounding stays below the factors'.
typedef double bench_sum_t;

typedef struct bench_case {
    const char *routine; // getrf, potrf, gesv, posv, gesv_rbt,
                         // getrf_batched, getri_batched
    int m;               // rows of a getrf (the others are n x n)
    int n;
    int nrhs;   // the solves
    int repeat; // timed runs (after one untimed warm-up for hyla)
    int check;  // compute the residual of the last run
    int tile;   // time hyla's tile-level call (layout copies left out)
    int on_gpu; // and place the tiles on the GPUs before the timed call
    int in_tiles; // getrf, potrf: the matrix generated in hyla's tiles, no
                  // column-major copy (no reference; the check by a solve)
    int seed;
    const char *ref;   // "lapack" (default), "getf2" (getrf), "cusolver",
                       // "cusolvermg", "cublas" (the batched routines)
    int ref_gpus;      // GPUs of cusolvermg (<= 0: all)
    const char *trace; // write a task trace of one more hyla run here
    int rbt_depth;     // gesv_rbt's butterfly depth (-1: hyla's default)
    int batch;         // matrices of the batched routines (<= 0: by order,
                       // bench_batch_size)
    int ref_threads;   // threads of the LAPACK reference of the batched
                       // routines, each running OpenBLAS single-threaded
} bench_case_t;

typedef struct bench_result {
    double t_min, t_median; // seconds
    double resid;           // scaled residual of the last run, or -1
    int info;               // status of the last run
    double gpu_j, cpu_j;    // joules of one timed run (--energy), or -1
    int rbt_iter;           // gesv_rbt: refinement steps of the last run
    int rbt_fallback;       // and its hyla_rbt_fallback_t (-1: not gesv_rbt)
} bench_result_t;

// Floating-point operations of a case (LAPACK's counts).
double bench_flops(const bench_case_t *c);

// Time the reference (the system LAPACK: OpenBLAS) or hyla on the same
// input.  Return 0, or -1 for an unknown routine.
int bench_dref(const bench_case_t *c, bench_result_t *r);
int bench_dhyla(const bench_case_t *c, bench_result_t *r);
int bench_sref(const bench_case_t *c, bench_result_t *r);
int bench_shyla(const bench_case_t *c, bench_result_t *r);

// The batched routines (getrf_batched, getri_batched; examples/
// bench_batched_d.c): the reference (hyla = 0) or hyla (hyla = 1) on
// bench_batch_size(c) matrices of order c->n.  r->info is 0 when every
// matrix's info is as expected (matrix 1 of a batch is singular), else a
// status (< 0) or the count of unexpected infos; r->resid is the worst
// residual of a sample of the matrices.  Return 0, or -1 for an unknown
// routine.
int bench_dbatched(const bench_case_t *c, int hyla, bench_result_t *r);
int bench_sbatched(const bench_case_t *c, int hyla, bench_result_t *r);

// Matrices of a batched case: c->batch, or when that is <= 0 a default by
// order: as many as 2^24 elements hold, at most 2^20 (host memory), or as
// hyla-batched's for the reference cublas (GPU memory).
int bench_batch_size(const bench_case_t *c);

// cuSOLVER's getrf (potrf = 0) or potrf ('L'), matrix already on the GPU
// (examples/bench_gpu_d.c, CUDA builds); with B (n-by-nrhs, not NULL) the
// solve by getrs (potrs) too, timed with the factorization.
int bench_dcusolver(int potrf, int m, int n, double *A, int *ipiv, int nrhs,
                    double *B, seconds_t *seconds);
int bench_scusolver(int potrf, int m, int n, float *A, int *ipiv, int nrhs,
                    float *B, seconds_t *seconds);

// cuSolverMg's getrf or potrf ('L') on ngpus GPUs (<= 0: all), the matrix
// already dealt to them (examples/bench_gpumg_d.c, CUDA builds).
int bench_dcusolvermg(int potrf, int m, int n, int ngpus, double *A, int *ipiv,
                      seconds_t *seconds);
int bench_scusolvermg(int potrf, int m, int n, int ngpus, float *A, int *ipiv,
                      seconds_t *seconds);

// Whether routine is one of the batched ones (getrf_batched, ...).
int bench_is_batched(const char *routine);

// Wall-clock seconds; sorting helpers for min / median.
double bench_now(void);
void bench_summarize(seconds_t *t, int count, bench_result_t *r);
// The trace of the last recorded run into each of the comma-separated
// files (hyla_trace_write: SVG where the name ends in .svg, else JSON).
void bench_trace_write(const char *files);

#endif // HYLA_EXAMPLES_BENCH_H
