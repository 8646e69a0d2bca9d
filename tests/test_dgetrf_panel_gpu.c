// SPDX-License-Identifier: BSD-3-Clause
// The GPU LU panel kernel alone.  @precisions d -> s
#include "check.h"
#include "gpu.h"
#include "gpu_harness.h"

#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Checks hyla_cuda_dgetrf_panel on tile columns of row-major tiles (one
// tile, several, a short last tile, wider than tall, m up to 40000, a
// leading dimension wider than the tile):
//  - the residual ||P A - L U|| / (||A|| n eps) and |L| <= 1;
//  - ipiv equal to LAPACKE_dgetrf's where the pivots are unambiguous
//    (rows shuffled under a dominant diagonal; random double matrices),
//    and the first pivot (a plain search of the original column, first
//    row on a tie) equal to it on matrices full of ties;
//  - info equal to LAPACKE_dgetrf's for zero columns (first, inside a
//    leaf, on leaf and recursion edges, the last) and a zero matrix;
//  - the pivots offset by the panel's global position;
//  - leaves on 1 and 8 SMs: narrower leaves, or all SMs where the panel
//    does not fit on so few;
//  - leaf blocks of 16 to 2048 rows (more than shared memory holds);
//  - the D2 leaf variants: on a thread block cluster (the default where
//    the rows fit), rows in registers, rows in shared memory with a grid
//    barrier (each forced on the shapes above);
//  - design D1 leaves: forced on the shapes above, and on a panel of
//    3,000,000 rows whose leaves do not fit in shared memory at all.
// Exits 77 (SKIP) without a GPU.  Run it under compute-sanitizer.

static cublasHandle_t handle;
static void *dwork;
static int sms;  // SMs the leaves may use, 0: all
static int rows; // rows of a leaf block, 0: the default
static int d1;   // leaves at least this tall use D1, 0: the default
static int no;   // D2 variants left out (HYLA_CUDA_LEAF_NO_*)

enum { GEN_RANDOM, GEN_PIVOTED, GEN_TIES };

// Factor the m-by-n column-major A (lda) on the GPU as row-major tiles of
// mb rows and leading dimension n + 3, pivots offset by off; returns info,
// or -1 on a CUDA failure.
static int factor(int m, int n, int mb, double *A, int lda, int *ipiv, int off)
{
    int ntiles = (m + mb - 1) / mb, ld = n + 3, kb = m < n ? m : n;
    double **dtile = calloc((size_t)ntiles, sizeof *dtile);
    double *T = malloc(sizeof(double) * (size_t)mb * ld);
    int *dipiv = NULL, *dinfo = NULL, info = -1, failed = 0;
    if (cudaMalloc((void **)&dipiv, sizeof(int) * kb) ||
        cudaMalloc((void **)&dinfo, sizeof(int)) ||
        cudaMemset(dinfo, 0, sizeof(int)))
        goto out;
    // Tile t holds rows [t mb, t mb + rows): T[i*ld + j] = A(t mb + i, j).
    for (int t = 0; t < ntiles && !failed; t++) {
        int rows = m - t * mb < mb ? m - t * mb : mb;
        for (int i = 0; i < rows; i++)
            for (int j = 0; j < ld; j++)
                T[(size_t)i * ld + j] =
                    j < n ? A[t * mb + i + (size_t)j * lda] : 7.0;
        size_t bytes = sizeof(double) * (size_t)rows * ld;
        failed = cudaMalloc((void **)&dtile[t], bytes) ||
                 cudaMemcpy(dtile[t], T, bytes, cudaMemcpyHostToDevice);
    }
    if (failed ||
        hyla_cuda_dgetrf_panel(handle, dtile, ntiles, mb, m, n, ld, dipiv, off,
                               dinfo, dwork, sms, rows) ||
        cudaDeviceSynchronize() ||
        cudaMemcpy(ipiv, dipiv, sizeof(int) * kb, cudaMemcpyDeviceToHost) ||
        cudaMemcpy(&info, dinfo, sizeof(int), cudaMemcpyDeviceToHost))
        goto out;
    for (int t = 0; t < ntiles; t++) {
        int rows = m - t * mb < mb ? m - t * mb : mb;
        if (cudaMemcpy(T, dtile[t], sizeof(double) * (size_t)rows * ld,
                       cudaMemcpyDeviceToHost)) {
            info = -1;
            goto out;
        }
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < n; j++)
                A[t * mb + i + (size_t)j * lda] = T[(size_t)i * ld + j];
            // The padding past column n is not the panel's.
            for (int j = n; j < ld; j++)
                if (T[(size_t)i * ld + j] != 7.0) info = -2;
        }
    }
out:
    for (int t = 0; t < ntiles; t++)
        cudaFree(dtile[t]);
    cudaFree(dipiv);
    cudaFree(dinfo);
    free(dtile);
    free(T);
    return info;
}

// One case; zero >= 0 zeroes column `zero` (and zero == -2 all of A).
static void run(int m, int n, int mb, int gen, int zero, int off, int seed)
{
    int lda = m + 2, kb = m < n ? m : n;
    size_t size = (size_t)lda * n;
    double *A = malloc(sizeof(double) * size),
           *F = malloc(sizeof(double) * size);
    double *R = malloc(sizeof(double) * size);
    int *ipiv = malloc(sizeof(int) * kb), *rpiv = malloc(sizeof(int) * kb);
    if (gen == GEN_PIVOTED)
        hyla_check_dgen_pivoted(m, n, A, lda, seed);
    else
        hyla_check_dgen(m, n, A, lda, seed);
    if (gen == GEN_TIES) // entries in {-2, -1, 1, 2}
        for (size_t i = 0; i < size; i++)
            A[i] = (A[i] < 0 ? -1.0 : 1.0) * (fabs(A[i]) < 0.5 ? 1.0 : 2.0);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++)
            if (zero == -2 || j == zero) A[i + (size_t)j * lda] = 0.0;
    memcpy(F, A, sizeof(double) * size);
    memcpy(R, A, sizeof(double) * size);

    th_tic();
    int info = factor(m, n, mb, F, lda, ipiv, off);
    double t = th_toc();
    int rinfo = LAPACKE_dgetrf(LAPACK_COL_MAJOR, m, n, R, lda, rpiv);
    // Random double matrices have no near ties at these orders: rounding
    // (1e-16) is far below the gap between a column's two largest entries
    // (about 1/m), so their pivots are LAPACK's too.  In single the gap is
    // within rounding often enough that the two may part.
    int tie_free = gen == GEN_PIVOTED ||
                   (gen == GEN_RANDOM && zero != -2 && sizeof(double) == 8);
    int pivots_ok = 1, lbound = 1;
    for (int i = 0; i < kb && info >= 0; i++) {
        ipiv[i] -= off;
        pivots_ok &= ipiv[i] >= i + 1 && ipiv[i] <= m;
        if (tie_free || i == 0) pivots_ok &= ipiv[i] == rpiv[i];
    }
    if (info > 0) info -= off;
    for (int j = 0; j < kb; j++)
        for (int i = j + 1; i < m; i++)
            lbound &= fabs(F[i + (size_t)j * lda]) <= 1.0;
    double resid = info >= 0 && pivots_ok
                       ? hyla_check_dresid_getrf(m, n, A, lda, F, lda, ipiv)
                       : 0.0;
    char note[160];
    snprintf(note, sizeof note,
             "mb=%d off=%d sms=%d rows=%d d1=%d no=%d info=%d/%d%s%s%s%s", mb,
             off, sms, rows, d1, no, info, rinfo,
             gen == GEN_TIES      ? " ties"
             : gen == GEN_PIVOTED ? " pivoted"
                                  : "",
             zero >= 0    ? " zero-column"
             : zero == -2 ? " zero-matrix"
                          : "",
             pivots_ok ? "" : " bad-pivots", lbound ? "" : " |L|>1");
    th_row("dgetrf_panel_gpu", m, n, mb, t,
           (double)m * n * kb - (double)kb * kb * kb / 3.0, resid,
           info == rinfo && pivots_ok && lbound && resid <= HYLA_CHECK_TOL,
           note);
    free(A);
    free(F);
    free(R);
    free(ipiv);
    free(rpiv);
}

int main(void)
{
    th_begin("dgetrf panel (GPU kernel)");
    if (!th_gpu_start(&handle)) return th_end();
    if (cudaMalloc(&dwork, HYLA_CUDA_GETRF_PANEL_WORK) ||
        cudaMemset(dwork, 0, HYLA_CUDA_GETRF_PANEL_WORK)) {
        th_check(0, "workspace");
        return th_end();
    }
    int seed = 1;
    // m, n, mb: one tile, several, a short last tile, n < mb, wider than
    // tall, leaf (32) and recursion edges, tall and skinny.
    static const int shapes[][3] = {
        {1, 1, 1},          {7, 5, 5},        {40, 32, 32},
        {100, 33, 40},      {300, 64, 64},    {20, 50, 20},
        {1000, 100, 100},   {2000, 256, 256}, {3001, 255, 256},
        {5000, 512, 512},   {40000, 64, 64},  {40000, 256, 256},
        {16384, 1024, 1024}};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        const int *s = shapes[i];
        run(s[0], s[1], s[2], GEN_RANDOM, -1, 0, seed++);
        if (s[0] <= 5000) run(s[0], s[1], s[2], GEN_PIVOTED, -1, 0, seed++);
        if (s[0] <= 5000) run(s[0], s[1], s[2], GEN_TIES, -1, 0, seed++);
    }
    static const int zeros[] = {0, 5, 31, 32, 33, 64, 127, 255};
    for (size_t i = 0; i < sizeof zeros / sizeof zeros[0]; i++)
        run(2000, 256, 256, GEN_RANDOM, zeros[i], 0, seed++);
    run(300, 64, 64, GEN_RANDOM, -2, 0, seed++);
    run(3000, 256, 256, GEN_RANDOM, 40, 4096, seed++);
    // Without clusters (shared memory and a grid barrier), then with the
    // rows in registers where they fit, on the same shapes; then the grid
    // barrier's blocks alone on their SMs and sharing them, whichever the
    // precision's default is.
    static const int variants[] = {
        HYLA_CUDA_LEAF_NO_CLUSTER,
        HYLA_CUDA_LEAF_NO_CLUSTER | HYLA_CUDA_LEAF_REG,
        HYLA_CUDA_LEAF_NO_CLUSTER | HYLA_CUDA_LEAF_ALONE,
        HYLA_CUDA_LEAF_NO_CLUSTER | HYLA_CUDA_LEAF_SHARED};
    for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++) {
        hyla_cuda_getrf_panel_tune(0, 0, 0, no = variants[v]);
        for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
            const int *s = shapes[i];
            run(s[0], s[1], s[2], GEN_RANDOM, -1, 0, seed++);
            if (s[0] <= 5000) run(s[0], s[1], s[2], GEN_TIES, -1, 0, seed++);
        }
        for (size_t i = 0; i < sizeof zeros / sizeof zeros[0]; i += 2)
            run(2000, 256, 256, GEN_RANDOM, zeros[i], 0, seed++);
        run(300, 64, 64, GEN_RANDOM, -2, 0, seed++);
    }
    // Leaves on few SMs, each variant (clusters take no account of it):
    // taller blocks, and narrower leaves where 32 columns of them do not
    // fit in shared memory.
    static const int few[] = {1, 8};
    for (size_t i = 0; i < 3 * sizeof few / sizeof few[0]; i++) {
        sms = few[i / 3];
        hyla_cuda_getrf_panel_tune(0, 0, 0,
                                   no = i % 3 ? variants[i % 3 - 1] : 0);
        run(16384, 256, 256, GEN_RANDOM, 100, 0, seed++);
        run(3001, 255, 256, GEN_PIVOTED, -1, 0, seed++);
    }
    sms = 0;
    static const int block_rows[] = {16, 100, 512, 1024, 2048};
    for (size_t i = 0; i < sizeof block_rows / sizeof block_rows[0]; i++) {
        rows = block_rows[i];
        run(16384, 256, 256, GEN_RANDOM, -1, 0, seed++);
        run(3001, 255, 256, GEN_TIES, 77, 0, seed++);
    }
    rows = 0;
    // D1 leaves everywhere (height >= 1), then only where D2 cannot go.
    hyla_cuda_getrf_panel_tune(0, 0, d1 = 1, no = 0);
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        const int *s = shapes[i];
        if (s[0] > 20000) continue;
        run(s[0], s[1], s[2], GEN_RANDOM, -1, 0, seed++);
        if (s[0] <= 5000) run(s[0], s[1], s[2], GEN_TIES, -1, 0, seed++);
    }
    for (size_t i = 0; i < sizeof zeros / sizeof zeros[0]; i++)
        run(2000, 256, 256, GEN_RANDOM, zeros[i], 0, seed++);
    run(300, 64, 64, GEN_RANDOM, -2, 0, seed++);
    run(3000, 256, 256, GEN_RANDOM, 40, 4096, seed++);
    hyla_cuda_getrf_panel_tune(0, 0, d1 = 0, 0);
    run(3000000, 4, 3000000, GEN_RANDOM, 2, 0, seed++);
    cudaFree(dwork);
    cublasDestroy(handle);
    return th_end();
}
