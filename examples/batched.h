// SPDX-License-Identifier: BSD-3-Clause
// hyla-batched: hyla's batched routines against cuBLAS's on the same batch.
#ifndef HYLA_EXAMPLES_BATCHED_H
#define HYLA_EXAMPLES_BATCHED_H

typedef double seconds_t; // not rewritten by the precision generator

typedef struct batched_result {
    seconds_t hyla_s, ref_s; // best of the timed runs
    double resid;            // worst residual of the checked matrices
    double piv_same;         // share of matrices whose pivots match cuBLAS's
    int info_same;           // every info equal to cuBLAS's
} batched_result_t;

// batch random n-by-n matrices (one of them singular, column 0 zero),
// factored by hyla_cuda_dgetrf_batched and by cublasDgetrfBatched on the
// same copy in GPU memory (pointer arrays, lda = n; hyla's strided form
// when strided), each timed by CUDA events over `repeat` runs after a
// warm-up.  `check` matrices spread over the batch are checked on the
// host.  0, or -1 on a failure (printed).
int batched_dgetrf(int n, int batch, int repeat, int check, int strided,
                   batched_result_t *r);
int batched_sgetrf(int n, int batch, int repeat, int check, int strided,
                   batched_result_t *r);

// The inverses, out of place: hyla_cuda_dgetri_batched against
// cublasDgetrfBatched + cublasDgetriBatched.
int batched_dgetri(int n, int batch, int repeat, int check, int strided,
                   batched_result_t *r);
int batched_sgetri(int n, int batch, int repeat, int check, int strided,
                   batched_result_t *r);

#endif // HYLA_EXAMPLES_BATCHED_H
