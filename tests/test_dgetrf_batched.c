// SPDX-License-Identifier: BSD-3-Clause
// Batched LU, solve and inverse of small matrices.  @precisions d -> s
#include "check.h"
#include "harness.h"

#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HYLA_TEST_CUDA_API
#include "gpu.h" // hyla_cuda_batched_large_tune, _pad_tune
#include <cuda_runtime.h>
#include <hyla/hyla_cuda.h>
#endif

// Checks hyla_dgetrf_batched (pointer and strided forms), hyla_dgetrs_batched
// and hyla_dgetri_batched on host matrices: every matrix of a batch passes
// its own residual (||PA - LU||, ||b - op(A) x|| for trans 'N' and 'T',
// ||I - A inv(A)||); the pivots equal LAPACKE_dgetrf's on random matrices
// whose pivots no rounding can change (hyla_check_dgen_pivoted), also
// where the first column ties (first position, as idamax); members
// with a zero column j get info = j + 1, their inverse is left unwritten and
// the others are unaffected, as they are by a member full of NaN; padding
// rows (lda > n) are untouched; matrices stored without gaps (lda = n), at
// 16-byte boundaries or (on the GPU) not, give the same.  Orders 0 to 512 around the GPU kernels'
// limits (32: registers; 64: one panel; then panels of 64 columns up to
// 256 and of 32 beyond), batches of 0, 1, a few, a thousand and more than
// 65535.  Bad arguments give LAPACK's -i.  Runs on CPU workers (cpu suite)
// or with GPUs (gpu suite, with more orders).  Built with
// HYLA_TEST_CUDA_API, the same cases run through the GPU-resident routines
// of hyla/hyla_cuda.h: each call copies the batch to the GPU and back; the
// LU of orders 17 to 31 runs on its own kernels and on the one of order 32.

enum { PAD = 3 };
static int pad = PAD; // lda - n of the batches made
static int shift;     // GPU copies: elements past a 16-byte boundary
static const double SENTINEL = -77.0;

enum kind { RANDOM, PIVOTED, GRADED, TIED };

static const char *kind_name[] = {"random", "pivoted", "graded", "tied"};

// Kinds whose pivots are compared with LAPACKE's.
static int exact_pivots(enum kind k)
{
    return k == PIVOTED || k == TIED;
}

// A pivoted matrix whose first column ties: its largest entry, rounded up
// to an integer d, stays at row r0, and two other rows of that column get
// -d and d (even seeds) or -(d + 2^-30) and d + 2^-30 (odd seeds: larger
// than d, equal to each other, and equal to d in their top 32 bits in
// double; single rounds them to d).  LAPACK's first position among equals
// decides the first pivot.
static void gen_tied(int n, double *A, int ld, int seed)
{
    hyla_check_dgen_pivoted(n, n, A, ld, seed);
    if (n < 2) return;
    int r0 = 0;
    for (int i = 1; i < n; i++)
        if (fabs(A[i]) > fabs(A[r0])) r0 = i;
    double d = ceil(fabs(A[r0])), up = seed % 2 ? 0x1p-30 : 0.0;
    int step = n / 3 > 1 ? n / 3 : 1;
    int t1 = (r0 + step) % n, t2 = (r0 + 2 * step) % n;
    A[r0] = d;
    A[t1] = -(d + up);
    if (t2 != r0) A[t2] = d + up;
}

// Matrix i of a batch of kind k, n-by-n in an ld-by-n array.
static void gen(enum kind k, int n, double *A, int ld, int seed)
{
    for (int e = 0; e < ld * n; e++)
        A[e] = SENTINEL;
    if (k == TIED)
        gen_tied(n, A, ld, seed);
    else if (k == PIVOTED)
        hyla_check_dgen_pivoted(n, n, A, ld, seed);
    else
        hyla_check_dgen(n, n, A, ld, seed);
    if (k == GRADED) // columns scaled down to 1e-8: condition ~1e8
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++)
                A[i + (size_t)j * ld] *= pow(10.0, -8.0 * j / (n > 1 ? n - 1 : 1));
}

// Rows n .. ld-1 of every column still hold the sentinel.
static int padding_intact(int n, const double *A, int ld)
{
    for (int j = 0; j < n; j++)
        for (int i = n; i < ld; i++)
            if (A[i + (size_t)j * ld] != SENTINEL) return 0;
    return 1;
}

struct batch {
    int n, ld, count;
    double *orig, *work; // count matrices of ld*n, one after the other
    double **ptr;        // pointers into work
    int *ipiv, *info;
};

static void batch_free(struct batch *b)
{
    free(b->orig);
    free(b->work);
    free(b->ptr);
    free(b->ipiv);
    free(b->info);
}

// A batch of count matrices of kind k; with singular_every, members 1,
// 1 + singular_every, ... have a column set to zero: n/2 in the first,
// 37 further (modulo n) in each next.
static void batch_make(struct batch *b, enum kind k, int n, int count,
                       int seed, int singular_every)
{
    b->n = n;
    b->ld = n + pad;
    b->count = count;
    size_t e = (size_t)b->ld * (n > 0 ? n : 1);
    b->orig = malloc(sizeof(double) * e * (count > 0 ? count : 1));
    b->work = malloc(sizeof(double) * e * (count > 0 ? count : 1));
    b->ptr = calloc(count > 0 ? count : 1, sizeof(double *));
    b->ipiv = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1) * (count > 0 ? count : 1));
    b->info = malloc(sizeof(int) * (count > 0 ? count : 1));
    for (int i = 0; i < count; i++) {
        double *a = b->orig + i * e;
        gen(k, n, a, b->ld, seed + i);
        if (singular_every && n > 0 && i % singular_every == 1) {
            int zc = (n / 2 + 37 * (i / singular_every)) % n;
            for (int r = 0; r < n; r++)
                a[r + (size_t)zc * b->ld] = 0.0;
        }
        b->ptr[i] = b->work + i * e;
        b->info[i] = -99;
    }
    memcpy(b->work, b->orig, sizeof(double) * e * (count > 0 ? count : 1));
}

static double *bmat(const struct batch *b, const double *base, int i)
{
    return (double *)base + (size_t)i * b->ld * (b->n > 0 ? b->n : 1);
}

// LAPACKE's info and pivots for member i.
static int lapacke_info(const struct batch *b, int i, int *ipiv)
{
    int n = b->n;
    double *c = malloc(sizeof(double) * (size_t)b->ld * (n > 0 ? n : 1));
    memcpy(c, bmat(b, b->orig, i), sizeof(double) * (size_t)b->ld * n);
    int info = LAPACKE_dgetrf(LAPACK_COL_MAJOR, n, n, c, b->ld, ipiv);
    free(c);
    return info;
}

#ifdef HYLA_TEST_CUDA_API
static const int max_order = 512;

// A device copy of `bytes` at h (NULL for 0 bytes); copy_in or not.
static void *dev(const void *h, size_t bytes, int copy_in)
{
    void *d = NULL;
    if (!bytes) return NULL;
    if (cudaMalloc(&d, bytes) != cudaSuccess) {
        fprintf(stderr, "cudaMalloc of %zu bytes failed\n", bytes);
        exit(1);
    }
    if (copy_in) cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice);
    return d;
}

static void back(void *h, void *d, size_t bytes)
{
    if (d) cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost);
    cudaFree(d);
}

// A device copy of the matrices at h, shift elements past the boundary
// that cudaMalloc gives; back_mats copies them back and frees them.
static double *dev_mats(const double *h, size_t bytes)
{
    char *d = (char *)dev(NULL, bytes + 16, 0) + shift * sizeof(double);
    if (bytes) cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice);
    return (double *)d;
}

static void back_mats(double *h, double *d, size_t bytes)
{
    if (bytes) cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost);
    cudaFree((char *)d - shift * sizeof(double));
}

// Device pointers to the count matrices at stride e of base.
static double **dev_array(double *base, size_t e, int count)
{
    double **p = malloc(sizeof(double *) * (count > 0 ? count : 1));
    for (int i = 0; i < count; i++)
        p[i] = base + i * e;
    double **d = dev(p, sizeof(double *) * count, 1);
    free(p);
    return d;
}

// The matrices of host calls below lie at stride e from ptr[0].
static int api_getrf(int n, double *const *ptr, double *A, int ld,
                     long long stride, int *ipiv, int *info, int count)
{
    size_t e = (size_t)ld * (n > 0 ? n : 1), bytes = sizeof(double) * e * count;
    double *base = A ? A : count ? ptr[0] : NULL;
    double *dA = dev_mats(base, bytes);
    int *dp = dev(NULL, sizeof(int) * n * count, 0);
    int *di = dev(NULL, sizeof(int) * count, 0);
    double **da = A ? NULL : dev_array(dA, e, count);
    int rc = A ? hyla_cuda_dgetrf_batched_strided(n, dA, ld, stride, dp, di,
                                                  count, NULL)
               : hyla_cuda_dgetrf_batched(n, da, ld, dp, di, count, NULL);
    if (cudaDeviceSynchronize() != cudaSuccess) rc = HYLA_ERR_CUDA;
    back_mats(base, dA, bytes);
    back(ipiv, dp, sizeof(int) * n * count);
    back(info, di, sizeof(int) * count);
    cudaFree(da);
    return rc;
}

static int api_getrs(char trans, int n, int nrhs, double *const *ptr, int ld,
                     const int *ipiv, double *const *bptr, int ldb, int count)
{
    size_t e = (size_t)ld * n, eb = (size_t)ldb * nrhs;
    double *dA = dev(ptr[0], sizeof(double) * e * count, 1);
    double *dB = dev(bptr[0], sizeof(double) * eb * count, 1);
    int *dp = dev(ipiv, sizeof(int) * n * count, 1);
    double **da = dev_array(dA, e, count), **db = dev_array(dB, eb, count);
    int rc = hyla_cuda_dgetrs_batched(trans, n, nrhs, da, ld, dp, db, ldb,
                                      count, NULL);
    if (cudaDeviceSynchronize() != cudaSuccess) rc = HYLA_ERR_CUDA;
    back(bptr[0], dB, sizeof(double) * eb * count);
    cudaFree(dA);
    cudaFree(dp);
    cudaFree(da);
    cudaFree(db);
    return rc;
}

static int api_getri(int n, double *const *ptr, int ld, int *ipiv,
                     double *const *cptr, int ldc, int *info, int count)
{
    size_t e = (size_t)ld * n, ec = (size_t)ldc * n;
    double *dA = dev_mats(ptr[0], sizeof(double) * e * count);
    double *dC = dev_mats(cptr[0], sizeof(double) * ec * count);
    int *dp = ipiv ? dev(NULL, sizeof(int) * n * count, 0) : NULL;
    int *di = dev(NULL, sizeof(int) * count, 0);
    // Pointer arrays for odd orders, the strided form for even ones.
    int rc;
    double **da = NULL, **dc = NULL;
    if (n % 2) {
        da = dev_array(dA, e, count);
        dc = dev_array(dC, ec, count);
        rc = hyla_cuda_dgetri_batched(n, da, ld, dp, dc, ldc, di, count, NULL);
    } else {
        rc = hyla_cuda_dgetri_batched_strided(n, dA, ld, e, dp, dC, ldc, ec,
                                              di, count, NULL);
    }
    if (cudaDeviceSynchronize() != cudaSuccess) rc = HYLA_ERR_CUDA;
    back_mats(ptr[0], dA, sizeof(double) * e * count);
    back_mats(cptr[0], dC, sizeof(double) * ec * count);
    if (ipiv) back(ipiv, dp, sizeof(int) * n * count);
    back(info, di, sizeof(int) * count);
    cudaFree(da);
    cudaFree(dc);
    return rc;
}
#else
static const int max_order = 512;

static int api_getrf(int n, double *const *ptr, double *A, int ld,
                     long long stride, int *ipiv, int *info, int count)
{
    return A ? hyla_dgetrf_batched_strided(n, A, ld, stride, ipiv, info, count)
             : hyla_dgetrf_batched(n, ptr, ld, ipiv, info, count);
}

static int api_getrs(char trans, int n, int nrhs, double *const *ptr, int ld,
                     const int *ipiv, double *const *bptr, int ldb, int count)
{
    return hyla_dgetrs_batched(trans, n, nrhs, ptr, ld, ipiv, bptr, ldb, count);
}

static int api_getri(int n, double *const *ptr, int ld, int *ipiv,
                     double *const *cptr, int ldc, int *info, int count)
{
    return hyla_dgetri_batched(n, ptr, ld, ipiv, cptr, ldc, info, count);
}
#endif

// What the cases run with, for their notes (a tuning of the GPU kernels).
static char variant[40];

static void case_getrf(enum kind k, int n, int count, int strided,
                       int singular_every)
{
    struct batch b;
    batch_make(&b, k, n, count, 100 * n + count, singular_every);
    th_tic();
    int rc = api_getrf(n, b.ptr, strided ? b.work : NULL, b.ld,
                       (long long)b.ld * (n > 0 ? n : 1), b.ipiv, b.info,
                       count);
    double t = th_toc();
    double worst = 0.0;
    int ok = TH_STATUS(rc, 0), piv_diff = 0, info_bad = 0;
    int *ref = malloc(sizeof(int) * (n > 0 ? n : 1));
    for (int i = 0; ok && i < count; i++) {
        int want = lapacke_info(&b, i, ref);
        if (b.info[i] != want) {
            if (!info_bad++)
                printf("  matrix %d: info %d, LAPACKE %d\n", i, b.info[i], want);
        }
        if (exact_pivots(k) && want == 0 &&
            memcmp(ref, b.ipiv + (size_t)i * n, sizeof(int) * n))
            piv_diff++;
        // The O(n^2) probe for the largest orders.
        double r = (n > 128 ? hyla_check_dresid_getrf_probe
                            : hyla_check_dresid_getrf)(
            n, n, bmat(&b, b.orig, i), b.ld, bmat(&b, b.work, i), b.ld,
            b.ipiv + (size_t)i * n);
        if (!(r <= worst)) worst = r;
        if (!padding_intact(n, bmat(&b, b.work, i), b.ld)) info_bad++;
    }
    free(ref);
    ok = ok && th_check(worst <= HYLA_CHECK_TOL, "residual %.2e", worst) &&
         th_check(!info_bad, "%d matrices with a wrong info or padding",
                  info_bad) &&
         th_check(!piv_diff, "%d matrices pivoted unlike LAPACKE", piv_diff);
    char note[96];
    snprintf(note, sizeof note, "%s%s batch %d%s%s%s%s", kind_name[k],
             strided ? " strided" : "", count,
             singular_every ? " singular" : "", pad ? "" : " lda=n",
             shift ? " unaligned" : "", variant);
    th_row("dgetrf_batched", n, n, 0, t,
           count * 2.0 / 3.0 * (double)n * n * n, worst, ok, note);
    batch_free(&b);
}

static void case_getrs(int n, int nrhs, char trans, int count)
{
    struct batch b;
    batch_make(&b, RANDOM, n, count, 7 * n + nrhs, 0);
    int ldb = n + 1;
    size_t eb = (size_t)ldb * (nrhs > 0 ? nrhs : 1);
    double *B0 = malloc(sizeof(double) * eb * count);
    double *X = malloc(sizeof(double) * eb * count);
    double **xp = malloc(sizeof(double *) * count);
    for (int i = 0; i < count; i++) {
        hyla_check_dgen(n, nrhs, B0 + i * eb, ldb, 999 + i);
        xp[i] = X + i * eb;
    }
    memcpy(X, B0, sizeof(double) * eb * count);
    int ok = TH_STATUS(api_getrf(n, b.ptr, NULL, b.ld, 0, b.ipiv, b.info,
                                 count), 0);
    th_tic();
    if (ok)
        ok = TH_STATUS(api_getrs(trans, n, nrhs, b.ptr, b.ld, b.ipiv, xp, ldb,
                                 count), 0);
    double t = th_toc(), worst = 0.0;
    for (int i = 0; ok && i < count; i++) {
        double r = hyla_check_dresid_solve(trans, n, nrhs, bmat(&b, b.orig, i),
                                           b.ld, X + i * eb, ldb, B0 + i * eb,
                                           ldb);
        if (!(r <= worst)) worst = r;
    }
    ok = ok && th_check(worst <= HYLA_CHECK_TOL, "residual %.2e", worst);
    char note[96];
    snprintf(note, sizeof note, "trans %c nrhs %d batch %d", trans, nrhs, count);
    th_row("dgetrs_batched", n, n, 0, t, 2.0 * count * n * n * nrhs, worst, ok,
           note);
    free(B0);
    free(X);
    free(xp);
    batch_free(&b);
}

static void case_getri(enum kind k, int n, int count, int singular_every,
                       int want_ipiv)
{
    struct batch b;
    batch_make(&b, k, n, count, 31 * n + count, singular_every);
    size_t e = (size_t)b.ld * (n > 0 ? n : 1);
    double *C = malloc(sizeof(double) * e * count);
    double **cp = malloc(sizeof(double *) * count);
    for (size_t x = 0; x < e * count; x++)
        C[x] = SENTINEL;
    for (int i = 0; i < count; i++)
        cp[i] = C + i * e;
    th_tic();
    int rc = api_getri(n, b.ptr, b.ld, want_ipiv ? b.ipiv : NULL, cp, b.ld,
                       b.info, count);
    double t = th_toc(), worst = 0.0;
    int ok = TH_STATUS(rc, 0), bad = 0;
    int *ref = malloc(sizeof(int) * (n > 0 ? n : 1));
    for (int i = 0; ok && i < count; i++) {
        int want = lapacke_info(&b, i, ref);
        double *c = C + i * e;
        if (b.info[i] != want) bad++;
        if (memcmp(bmat(&b, b.orig, i), bmat(&b, b.work, i),
                   sizeof(double) * e))
            bad++; // A is only read
        if (want_ipiv && exact_pivots(k) && want == 0 &&
            memcmp(ref, b.ipiv + (size_t)i * n, sizeof(int) * n))
            bad++;
        if (want) { // not written
            for (size_t x = 0; x < e; x++)
                if (c[x] != SENTINEL) {
                    bad++;
                    break;
                }
            continue;
        }
        if (!padding_intact(n, c, b.ld)) bad++;
        double r = hyla_check_dresid_inverse(n, bmat(&b, b.orig, i), b.ld, c,
                                             b.ld);
        if (!(r <= worst)) worst = r;
    }
    free(ref);
    ok = ok && th_check(worst <= HYLA_CHECK_TOL, "residual %.2e", worst) &&
         th_check(!bad, "%d matrices with a wrong info, pivots or output",
                  bad);
    char note[96];
    snprintf(note, sizeof note, "%s batch %d%s%s%s%s%s", kind_name[k], count,
             singular_every ? " singular" : "", want_ipiv ? "" : " no ipiv",
             pad ? "" : " lda=n", shift ? " unaligned" : "", variant);
    th_row("dgetri_batched", n, n, 0, t, 2.0 * count * (double)n * n * n,
           worst, ok, note);
    free(C);
    free(cp);
    batch_free(&b);
}

// A member full of NaN: it does not poison the others.
static void case_nan(int n)
{
    struct batch b;
    batch_make(&b, PIVOTED, n, 5, 4242, 0);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            b.work[2 * (size_t)b.ld * n + i + (size_t)j * b.ld] = NAN;
    int ok = TH_STATUS(api_getrf(n, b.ptr, NULL, b.ld, 0, b.ipiv, b.info, 5),
                       0);
    double worst = 0.0;
    for (int i = 0; ok && i < 5; i++) {
        if (i == 2) continue;
        double r = hyla_check_dresid_getrf(n, n, bmat(&b, b.orig, i), b.ld,
                                           bmat(&b, b.work, i), b.ld,
                                           b.ipiv + (size_t)i * n);
        if (!(r <= worst)) worst = r;
        ok = th_check(b.info[i] == 0, "matrix %d: info %d", i, b.info[i]);
    }
    ok = ok && th_check(worst <= HYLA_CHECK_TOL, "residual %.2e", worst);
    th_row("dgetrf_batched", n, n, 0, 0.0, 0.0, worst, ok, "one NaN member");
    batch_free(&b);
}

#ifdef HYLA_TEST_CUDA_API
static void bad_arguments(void)
{
    double *dA = dev(NULL, sizeof(double) * 8, 0), **da = dev_array(dA, 4, 2);
    int *di = dev(NULL, sizeof(int) * 2, 0), *dp = dev(NULL, sizeof(int) * 4, 0);
    TH_STATUS(hyla_cuda_dgetrf_batched(-1, da, 2, dp, di, 2, NULL), -1);
    TH_STATUS(hyla_cuda_dgetrf_batched(513, da, 513, dp, di, 2, NULL), -1);
    TH_STATUS(hyla_cuda_dgetrf_batched(2, NULL, 2, dp, di, 2, NULL), -2);
    TH_STATUS(hyla_cuda_dgetrf_batched(2, da, 1, dp, di, 2, NULL), -3);
    TH_STATUS(hyla_cuda_dgetrf_batched(2, da, 2, dp, NULL, 2, NULL), -5);
    TH_STATUS(hyla_cuda_dgetrf_batched(2, da, 2, dp, di, -1, NULL), -6);
    TH_STATUS(hyla_cuda_dgetrf_batched_strided(2, dA, 2, 3, dp, di, 2, NULL),
              -4);
    TH_STATUS(hyla_cuda_dgetrs_batched('X', 2, 1, da, 2, dp, da, 2, 2, NULL),
              -1);
    TH_STATUS(hyla_cuda_dgetrs_batched('N', 2, 1, da, 2, NULL, da, 2, 2, NULL),
              -6);
    TH_STATUS(hyla_cuda_dgetri_batched(2, da, 2, dp, NULL, 2, di, 2, NULL), -5);
    TH_STATUS(hyla_cuda_dgetri_batched_strided(2, dA, 2, 4, dp, dA, 2, 3, di,
                                               2, NULL), -8);
    TH_STATUS(hyla_cuda_dgetrf_batched(2, NULL, 2, NULL, NULL, 0, NULL), 0);
    // Order 0 sets every info to 0.
    cudaMemset(di, 0x7f, sizeof(int) * 2);
    int info[2] = {5, 5};
    if (TH_STATUS(hyla_cuda_dgetrf_batched(0, NULL, 1, NULL, di, 2, NULL), 0)) {
        back(info, di, sizeof info);
        di = NULL;
        th_check(info[0] == 0 && info[1] == 0, "n = 0: info %d %d", info[0],
                 info[1]);
    }
    cudaFree(dA);
    cudaFree(da);
    cudaFree(di);
    cudaFree(dp);
}
#else
static void bad_arguments(void)
{
    double a[4] = {1, 2, 3, 4}, *p[2] = {a, a}, *nul[2] = {a, NULL};
    int ipiv[4] = {1, 2, 1, 2}, info[2], bad_piv[4] = {1, 3, 1, 2};
    TH_STATUS(hyla_dgetrf_batched(-1, p, 2, ipiv, info, 2), -1);
    TH_STATUS(hyla_dgetrf_batched(513, p, 513, ipiv, info, 2), -1);
    TH_STATUS(hyla_dgetrf_batched(2, NULL, 2, ipiv, info, 2), -2);
    TH_STATUS(hyla_dgetrf_batched(2, nul, 2, ipiv, info, 2), -2);
    TH_STATUS(hyla_dgetrf_batched(2, p, 1, ipiv, info, 2), -3);
    TH_STATUS(hyla_dgetrf_batched(2, p, 2, NULL, info, 2), -4);
    TH_STATUS(hyla_dgetrf_batched(2, p, 2, ipiv, NULL, 2), -5);
    TH_STATUS(hyla_dgetrf_batched(2, p, 2, ipiv, info, -1), -6);
    TH_STATUS(hyla_dgetrf_batched_strided(2, a, 2, 3, ipiv, info, 2), -4);
    TH_STATUS(hyla_dgetrf_batched_strided(2, NULL, 2, 4, ipiv, info, 2), -2);
    TH_STATUS(hyla_dgetrs_batched('X', 2, 1, p, 2, ipiv, p, 2, 2), -1);
    TH_STATUS(hyla_dgetrs_batched('N', 2, -1, p, 2, ipiv, p, 2, 2), -3);
    TH_STATUS(hyla_dgetrs_batched('N', 2, 1, p, 2, bad_piv, p, 2, 2), -6);
    TH_STATUS(hyla_dgetrs_batched('N', 2, 1, p, 2, ipiv, p, 1, 2), -8);
    TH_STATUS(hyla_dgetri_batched(2, p, 2, NULL, nul, 2, info, 2), -5);
    TH_STATUS(hyla_dgetri_batched(2, p, 2, NULL, p, 1, info, 2), -6);
    TH_STATUS(hyla_dgetri_batched(2, p, 2, NULL, p, 2, NULL, 2), -7);
    // Empty calls need no arrays; order 0 sets every info to 0.
    TH_STATUS(hyla_dgetrf_batched(2, NULL, 2, NULL, NULL, 0), 0);
    info[0] = info[1] = 5;
    if (TH_STATUS(hyla_dgetrf_batched(0, NULL, 1, NULL, info, 2), 0))
        th_check(info[0] == 0 && info[1] == 0, "n = 0: info %d %d", info[0],
                 info[1]);
    TH_STATUS(hyla_dgetrs_batched('N', 2, 0, NULL, 2, NULL, NULL, 2, 2), 0);
}
#endif

int main(void)
{
    th_begin("batched LU, solve and inverse");
#ifdef HYLA_TEST_CUDA_API
    int ngpu = 0;
    if (cudaGetDeviceCount(&ngpu) != cudaSuccess || ngpu == 0) {
        th_skip("no GPU");
        return th_end();
    }
#else
    // Before hyla_init: not initialized.
    double a = 1.0, *p = &a;
    int ipiv, info;
    TH_STATUS(hyla_dgetrf_batched(1, &p, 1, &ipiv, &info, 1),
              HYLA_ERR_NOT_INITIALIZED);
    th_init(2, 64, 1);
#endif
    bad_arguments();
    static const int orders[] = {1, 2, 3, 5, 8, 13, 16, 17, 31, 32, 33, 64, 100};
    for (size_t i = 0; i < sizeof orders / sizeof *orders; i++) {
        int n = orders[i];
        if (n > max_order) break;
        case_getrf(RANDOM, n, 7, 0, 0);
        case_getrf(PIVOTED, n, n <= 32 ? 1000 : 40, i % 2, 3);
        case_getrf(GRADED, n, 9, 1, 0);
        case_getri(PIVOTED, n, n <= 32 ? 500 : 20, 4, 1);
        case_getri(GRADED, n, 6, 0, 0);
        case_getrf(TIED, n, n <= 32 ? 400 : 20, 1 - i % 2, 0);
        case_getri(TIED, n, n <= 32 ? 200 : 10, 0, 1);
        case_getrs(n, 1, 'N', 11);
        case_getrs(n, 3, 'T', 5);
        case_nan(n);
    }
    // lda = n: the GPU kernels of orders up to 2, and of single order 4
    // (then a thread a matrix, as up to 2), move a matrix by 16-byte
    // vectors.
    pad = 0;
    static const int tight[] = {1, 2, 3, 4, 8, 16, 32};
    for (size_t i = 0; i < sizeof tight / sizeof *tight; i++) {
        case_getrf(PIVOTED, tight[i], 1001, (int)(i % 2), 3);
        case_getri(PIVOTED, tight[i], 501, 4, (int)(i % 2));
        case_nan(tight[i]);
    }
#ifdef HYLA_TEST_CUDA_API
    // Not at 16-byte boundaries: element by element again.
    shift = 1;
    for (int n = 2; n <= 4; n += 2) {
        case_getrf(PIVOTED, n, 1001, n == 2, 3);
        case_getri(PIVOTED, n, 501, 4, 1);
    }
    shift = 0;
#endif
    pad = PAD;
    case_getrf(RANDOM, 0, 3, 0, 0);
    case_getrf(RANDOM, 4, 0, 0, 0);
    case_getrf(PIVOTED, 2, 100000, 1, 0); // beyond a grid's 65535 in y
    case_getri(PIVOTED, 3, 70000, 1000, 0);
    case_getrf(PIVOTED, 512, 130, 1, 0); // two rounds
    case_getri(RANDOM, 200, 2, 0, 1);
    case_getrs(512, 2, 'N', 2);
#ifdef HYLA_TEST_CUDA_API
    int gpu = 1;
#else
    int gpu = th_gpus() > 0;
#endif
    if (gpu) {
        // Around the GPU's panel widths; zero columns in several panels.
        static const int big[] = {65, 127, 128, 129, 192, 255, 256, 257, 319,
                                  480, 511};
        for (size_t i = 0; i < sizeof big / sizeof *big; i++) {
            int n = big[i];
            case_getrf(PIVOTED, n, 12, i % 2, 2);
            case_getrf(GRADED, n, 4, 1 - i % 2, 0);
            case_getri(PIVOTED, n, 6, 2, (int)(i % 2));
            case_nan(n);
        }
        case_getrf(PIVOTED, 65, 66000, 0, 9999); // cuBLAS calls in chunks
        case_getrf(RANDOM, 96, 66000, 1, 0);
        case_getri(PIVOTED, 40, 20000, 1000, 1); // two chunks of inverses
    }
#ifdef HYLA_TEST_CUDA_API
    // Orders above 32 in each block width, with batched GEMMs and with a
    // cuBLAS call a matrix on side streams (the strided form).
    static const int widths[] = {32, 64, 128}, streams[] = {0, 3};
    static const int some[] = {33, 64, 65, 100, 129, 200, 257, 319, 512};
    for (int w = 0; w < 3; w++)
        for (int s = 0; s < 2; s++) {
            hyla_cuda_batched_large_tune(widths[w], streams[s]);
            snprintf(variant, sizeof variant, " block %d streams %d",
                     widths[w], streams[s]);
            for (size_t i = 0; i < sizeof some / sizeof *some; i++) {
                int n = some[i];
                case_getrf(PIVOTED, n, 9, 1, 4);
                case_getrf(GRADED, n, 3, (int)(i % 2), 0);
            }
            case_getri(PIVOTED, 130, 5, 2, 0);
        }
    hyla_cuda_batched_large_tune(0, -1);
    // Orders 17 to 31 on their own kernels and on the one of order 32.
    static const int odd[] = {17, 20, 25, 26, 29, 31};
    for (int pad = 0; pad < 2; pad++) {
        hyla_cuda_batched_pad_tune(pad);
        snprintf(variant, sizeof variant, " pad32 %d", pad);
        for (size_t i = 0; i < sizeof odd / sizeof *odd; i++) {
            int n = odd[i];
            case_getrf(RANDOM, n, 7, 1, 0);
            case_getrf(PIVOTED, n, 300, (int)(i % 2), 3);
            case_getrf(GRADED, n, 9, 0, 0);
            case_getrf(TIED, n, 200, 0, 0);
            case_nan(n);
        }
    }
    hyla_cuda_batched_pad_tune(-1);
    variant[0] = 0;
#endif
#ifndef HYLA_TEST_CUDA_API
    th_finalize();
#endif
    return th_end();
}
