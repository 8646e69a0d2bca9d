// SPDX-License-Identifier: BSD-3-Clause
// The LU panel kernel alone.  @precisions d -> s
#include "check.h"
#include "cpu_d.h"
#include "harness.h"

#include <lapacke.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Checks hyla_cpu_dgetrf_panel, the recursive panel run by 1 to 8 threads
// (spinning on one barrier, so more threads than cores only slows it), on
// tile columns of square tiles with a shorter last tile (m not a multiple
// of the tile size), tall-skinny ones and a single short tile (m < n):
// pivots equal to LAPACKE_dgetrf's on tie-free input, the factor residual,
// info equal to LAPACK's for zero columns, and exact ties in the first
// column resolved to the first row, as LAPACK's idamax does.

typedef struct {
    const hyla_dpanel_t *P;
    int *ipiv;
    int ib, rank, info;
    hyla_dpanel_shared_t *S;
} job_t;

static void *worker(void *arg)
{
    job_t *j = arg;
    j->info = hyla_cpu_dgetrf_panel(j->P, j->ipiv, j->ib, j->rank, j->S);
    return NULL;
}

// Factor the m-by-n column-major A (lda) as a tile column of mb-row tiles
// with nth threads; A gets the factors, ipiv 0-based pivots.  Returns info
// (-1 if the threads disagree on it).
static int factor(int m, int n, double *A, int lda, int mb, int nth, int ib,
                  int *ipiv)
{
    int ntiles = (m + mb - 1) / mb;
    double **tile = malloc(sizeof(double *) * (ntiles ? ntiles : 1));
    for (int t = 0; t < ntiles; t++) {
        int rows = hyla_imin(mb, m - t * mb);
        tile[t] = malloc(sizeof(double) * rows * n);
        for (int i = 0; i < rows; i++)
            for (int c = 0; c < n; c++)
                tile[t][(size_t)i * n + c] = A[(size_t)c * lda + t * mb + i];
    }
    hyla_dpanel_t P = {.tile = tile, .mb = mb, .m = m, .n = n, .ld = n};
    void *mem;
    if (posix_memalign(&mem, 64, hyla_dpanel_shared_size(nth, n)))
        abort();
    hyla_dpanel_shared_t *S = hyla_dpanel_shared_init(mem, nth, n);
    job_t job[nth];
    pthread_t thread[nth];
    for (int r = 0; r < nth; r++) {
        job[r] = (job_t){&P, ipiv, ib, r, 0, S};
        pthread_create(&thread[r], NULL, worker, &job[r]);
    }
    int info = 0;
    for (int r = 0; r < nth; r++) {
        pthread_join(thread[r], NULL);
        if (r == 0)
            info = job[r].info;
        else if (job[r].info != info)
            info = -1;
    }
    for (int t = 0; t < ntiles; t++) {
        int rows = hyla_imin(mb, m - t * mb);
        for (int i = 0; i < rows; i++)
            for (int c = 0; c < n; c++)
                A[(size_t)c * lda + t * mb + i] = tile[t][(size_t)i * n + c];
        free(tile[t]);
    }
    free(tile);
    free(mem);
    return info;
}

enum { RANDOM, PIVOTED, TIES };

// One case; zero_col >= 0 zeroes that column.
static void run(int m, int n, int mb, int nth, int ib, int kind, int zero_col,
                int seed)
{
    int lda = m + 2, k = hyla_imin(m, n);
    size_t size = (size_t)lda * n;
    double *A = malloc(sizeof(double) * size);
    double *LU = malloc(sizeof(double) * size);
    int *ipiv = calloc(k + 1, sizeof(int)), *rpiv = calloc(k + 1, sizeof(int));
    if (kind == PIVOTED)
        hyla_check_dgen_pivoted(m, n, A, lda, seed);
    else
        hyla_check_dgen(m, n, A, lda, seed);
    if (kind == TIES) {
        // |A(i, 0)| <= 1 elsewhere; 3 at rows spread over the threads.
        for (int i = m / 7; i < m; i += hyla_imax(1, m / 3))
            A[i] = (i & 1) ? -3.0 : 3.0;
    }
    if (zero_col >= 0)
        for (int i = 0; i < m; i++)
            A[(size_t)zero_col * lda + i] = 0.0;
    memcpy(LU, A, sizeof(double) * size);

    th_tic();
    int info = factor(m, n, LU, lda, mb, nth, ib, ipiv);
    double t = th_toc();
    for (int i = 0; i < k; i++)
        ipiv[i] += 1; // to LAPACK's 1-based rows

    double *R = malloc(sizeof(double) * size);
    memcpy(R, A, sizeof(double) * size);
    int rinfo = LAPACKE_dgetrf(LAPACK_COL_MAJOR, m, n, R, lda, rpiv);
    double resid = hyla_check_dresid_getrf(m, n, A, lda, LU, lda, ipiv);

    // Pivots must match where the input has no near-ties (see
    // test_dgetrf.c); with ties, the first pivot must be the first row.
    int tie_free = kind == PIVOTED || (kind == RANDOM && sizeof(double) == 8);
    int same_piv = tie_free ? !memcmp(ipiv, rpiv, sizeof(int) * k)
                            : k == 0 || ipiv[0] == rpiv[0];
    char note[96];
    snprintf(note, sizeof note, "threads=%d mb=%d ib=%d %s info=%d/%d%s", nth,
             mb, ib, kind == TIES ? "ties" : kind == PIVOTED ? "pivoted" : "",
             info, rinfo, same_piv ? "" : " pivots-differ");
    th_row("dgetrf_panel", m, n, mb, t, 2.0 / 3.0 * k * k * (3.0 * n - k),
           resid, info == rinfo && resid <= HYLA_CHECK_TOL && same_piv, note);
    free(A);
    free(LU);
    free(R);
    free(ipiv);
    free(rpiv);
}

int main(void)
{
    th_begin("dgetrf_panel");
    int seed = 1;
    static const int threads[] = {1, 2, 3, 4, 8};
    for (size_t t = 0; t < sizeof threads / sizeof threads[0]; t++) {
        int nth = threads[t];
        // square tiles with a short last one; tall-skinny; single tiles
        run(1000, 64, 64, nth, 8, RANDOM, -1, seed++);
        run(1000, 64, 64, nth, 8, PIVOTED, -1, seed++);
        run(777, 32, 32, nth, 3, RANDOM, -1, seed++);
        run(5000, 48, 48, nth, 8, PIVOTED, -1, seed++);
        run(300, 100, 100, nth, 1, RANDOM, -1, seed++);
        run(64, 64, 64, nth, 8, RANDOM, -1, seed++);
        run(20, 64, 64, nth, 8, RANDOM, -1, seed++);
        run(1, 16, 16, nth, 8, RANDOM, -1, seed++);
        run(16, 1, 16, nth, 8, RANDOM, -1, seed++);
        // exact ties in the first column, in several threads' rows
        run(900, 40, 40, nth, 8, TIES, -1, seed++);
        // zero columns: info = first one, at a leaf start, inside, last
        run(400, 40, 40, nth, 8, RANDOM, 0, seed++);
        run(400, 40, 40, nth, 8, RANDOM, 13, seed++);
        run(400, 40, 40, nth, 8, RANDOM, 39, seed++);
    }
    run(20000, 64, 64, 4, 8, PIVOTED, -1, seed++);
    return th_end();
}
