// SPDX-License-Identifier: BSD-3-Clause
// LU and Cholesky of a matrix larger than the GPU memory StarPU may use.
#include "check.h"
#include "harness.h"

#include <hyla.h>
#include <stdlib.h>
#include <string.h>

// Run by the gpu suite with HYLA_TEST_GPUS=1 or 2 and
// STARPU_LIMIT_CUDA_MEM=64 (MiB a GPU), half the matrix or less on one GPU
// (128 and 162 MB; on two the larger LU takes the cyclic mapping, the
// default rule's choice out of core): StarPU must evict tiles
// from the GPU and bring them back while the factorization goes on (in
// native mode too, where the tile copies have no host memory of their
// own, so StarPU must find it for what it evicts).  Checks the residuals
// ||PA - LU|| / (||A|| n eps) and ||A - LL^T|| / (||A|| n eps) and info 0,
// for orders with edge tiles.  Exits 77 (SKIP) without the GPU.

static void run(int potrf, int n, int nb, int seed)
{
    size_t size = (size_t)n * n;
    double *A = malloc(sizeof(double) * size);
    double *F = malloc(sizeof(double) * size);
    int *ipiv = malloc(sizeof(int) * n);
    if (potrf)
        hyla_check_dgen_spd(n, A, n, seed);
    else
        hyla_check_dgen(n, n, A, n, seed);
    memcpy(F, A, sizeof(double) * size);
    th_tic();
    int info =
        potrf ? hyla_dpotrf('L', n, F, n) : hyla_dgetrf(n, n, F, n, ipiv);
    double t = th_toc();
    double resid = info    ? 0.0
                   : potrf ? hyla_check_dresid_potrf('L', n, A, n, F, n)
                           : hyla_check_dresid_getrf(n, n, A, n, F, n, ipiv);
    th_row(potrf ? "dpotrf" : "dgetrf", n, n, nb, t,
           potrf ? (double)n * n * n / 3.0 : 2.0 * n * n * n / 3.0, resid,
           info == 0 && resid <= HYLA_CHECK_TOL, "evicting");
    free(A);
    free(F);
    free(ipiv);
}

int main(void)
{
    th_begin("dgetrf, dpotrf with GPU eviction");
    if (th_gpus() < 1) {
        th_skip("run by the gpu suite (HYLA_TEST_GPUS)");
        return th_end();
    }
    const int nb = 256;
    th_init(-1, nb, 2);
    int seed = 1;
    static const int ns[] = {4000, 4501};
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        run(1, ns[i], nb, seed++);
        run(0, ns[i], nb, seed++);
    }
    th_finalize();
    return th_end();
}
