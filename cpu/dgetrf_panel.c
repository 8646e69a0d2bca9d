// SPDX-License-Identifier: BSD-3-Clause
// Recursive LU with partial pivoting of one tile column, by one or several
// threads.  @precisions d -> s
#include "cpu_d.h"

#include <cblas.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

//==== shared state ====

static size_t align64(size_t x)
{
    return (x + 63) & ~(size_t)63;
}

size_t hyla_dpanel_shared_size(int nthreads, int n)
{
    return align64(sizeof(hyla_dpanel_shared_t)) +
           align64(sizeof(double) * 2 * nthreads) +
           align64(sizeof(int) * 2 * nthreads) +
           sizeof(double) * 2 * (size_t)(nthreads + 1) * n;
}

hyla_dpanel_shared_t *hyla_dpanel_shared_init(void *mem, int nthreads, int n)
{
    char *p = mem;
    hyla_dpanel_shared_t *S = mem;
    p += align64(sizeof *S);
    S->val = (double *)p;
    p += align64(sizeof(double) * 2 * nthreads);
    S->idx = (int *)p;
    p += align64(sizeof(int) * 2 * nthreads);
    S->rows = (double *)p;
    S->nthreads = nthreads;
    S->n = n;
    hyla_barrier_init(&S->barrier, nthreads);
    return S;
}

//==== one thread's view ====

typedef struct {
    const hyla_dpanel_t *P;
    hyla_dpanel_shared_t *S;
    int *ipiv;
    int ib, rank, nth;
    int r0, r1; // rows this thread owns
    int sense;  // barrier phase
    int info;
} thread_t;

static double *row(const thread_t *t, int r)
{
    return hyla_dpanel_row(t->P, r);
}

static void barrier(thread_t *t)
{
    hyla_barrier_wait(&t->S->barrier, &t->sense);
}

// Thread rank of nth owns tiles [ceil(nt*rank/nth), ceil(nt*(rank+1)/nth)):
// contiguous, balanced, and tile 0 (the diagonal block) goes to rank 0.
static void own_rows(thread_t *t)
{
    const hyla_dpanel_t *P = t->P;
    long nt = (P->m + P->mb - 1) / P->mb;
    int t0 = (int)((nt * t->rank + t->nth - 1) / t->nth);
    int t1 = (int)((nt * (t->rank + 1) + t->nth - 1) / t->nth);
    t->r0 = hyla_imin(t0 * P->mb, P->m);
    t->r1 = hyla_imin(t1 * P->mb, P->m);
}

//==== leaf: columns one by one ====

// This thread's pivot candidate in column j (< end), over its rows >= j:
// the largest |value|, the first row on a tie.  Nothing when j == end.
static void search(const thread_t *t, int j, int end, double *best, int *at)
{
    *best = -1.0;
    *at = -1;
    if (j >= end) return;
    for (int r = hyla_imax(t->r0, j); r < t->r1; r++) {
        double v = fabs(row(t, r)[j]);
        if (*at < 0 || v > *best) {
            *best = v;
            *at = r;
        }
    }
}

// Column j of a leaf block [j0, j0 + w):
//  1. each thread publishes its best candidate below the diagonal (and a
//     copy of that row; rank 0 also a copy of row j); one barrier;
//  2. every thread picks the same pivot (largest |value|, first row on a
//     tie, as LAPACK's idamax);
//  3. rank 0 writes the pivot row into row j, the owner of row p writes
//     the old row j into row p (the copies make the interchange race-free);
//  4. each thread scales its rows below j and updates them within the
//     leaf block with the pivot row.
// The copies are double-buffered by column parity: a thread can be one
// column ahead of another, never two (the barrier of step 1).
static void leaf(thread_t *t, int j0, int w)
{
    hyla_dpanel_shared_t *S = t->S;
    int n = t->P->n, nth = t->nth;
    double best = -1.0; // this thread's candidate for column j: |value|
    int at = -1;        // and row
    for (int j = j0; j < j0 + w; j++) {
        int buf = j & 1;
        double *val = S->val + buf * nth;
        int *idx = S->idx + buf * nth;
        double *copies = S->rows + (size_t)buf * (nth + 1) * n;

        // 1. local candidate (found while updating, after the first column)
        if (j == j0) search(t, j, j0 + w, &best, &at);
        val[t->rank] = best;
        idx[t->rank] = at;
        if (at >= 0)
            memcpy(copies + (size_t)t->rank * n, row(t, at),
                   sizeof(double) * n);
        if (t->rank == 0)
            memcpy(copies + (size_t)nth * n, row(t, j), sizeof(double) * n);
        barrier(t);

        // 2. global pivot, the same in every thread
        int p = -1, owner = 0;
        double vmax = 0.0;
        for (int k = 0; k < nth; k++)
            if (idx[k] >= 0 && (p < 0 || val[k] > vmax)) {
                p = idx[k];
                vmax = val[k];
                owner = k;
            }
        const double *prow = copies + (size_t)owner * n;
        const double *oldj = copies + (size_t)nth * n;
        if (t->rank == 0) t->ipiv[j] = p;
        double piv = prow[j];
        if (piv == 0.0) {
            // LAPACK: no interchange, no scaling; U(j, j) = 0 is reported.
            // The column below is zero: nothing to update.
            if (!t->info) t->info = j + 1;
            search(t, j + 1, j0 + w, &best, &at);
            continue;
        }

        // 3. interchange rows j and p
        if (p != j) {
            if (t->rank == 0) memcpy(row(t, j), prow, sizeof(double) * n);
            if (p >= t->r0 && p < t->r1)
                memcpy(row(t, p), oldj, sizeof(double) * n);
        }

        // 4. scale and update the rows below, within the leaf, and find
        // this thread's candidate for the next column on the way
        int scale = fabs(piv) >= DBL_MIN; // else divide, as LAPACK does
        double rp = 1.0 / piv;
        best = -1.0;
        at = -1;
        for (int r = hyla_imax(t->r0, j + 1); r < t->r1; r++) {
            double *a = row(t, r);
            double l = scale ? a[j] * rp : a[j] / piv;
            a[j] = l;
            for (int c = j + 1; c < j0 + w; c++)
                a[c] -= l * prow[c];
            if (j + 1 < j0 + w) {
                double v = fabs(a[j + 1]);
                if (at < 0 || v > best) {
                    best = v;
                    at = r;
                }
            }
        }
    }
}

//==== recursion ====

// Factor columns [j0, j0 + w): left half, then A12 = L11^-1 A12 by rank 0
// (the block lies in tile 0), a barrier, A22 -= A21 A12 by each thread on
// its rows, then the right half.
static void rec(thread_t *t, int j0, int w)
{
    if (w <= t->ib) {
        leaf(t, j0, w);
        return;
    }
    int w1 = w / 2 / t->ib * t->ib;
    if (w1 == 0) w1 = t->ib;
    int w2 = w - w1, ld = t->P->ld;
    rec(t, j0, w1);

    double *top = row(t, j0);
    if (t->rank == 0)
        cblas_dtrsm(CblasRowMajor, CblasLeft, CblasLower, CblasNoTrans,
                    CblasUnit, w1, w2, 1.0, top + j0, ld, top + j0 + w1, ld);
    barrier(t);
    for (int r = hyla_imax(t->r0, j0 + w1); r < t->r1;) {
        int rows = hyla_imin(t->P->mb - r % t->P->mb, t->r1 - r);
        double *a = row(t, r);
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, rows, w2, w1,
                    -1.0, a + j0, ld, top + j0 + w1, ld, 1.0, a + j0 + w1, ld);
        r += rows;
    }
    rec(t, j0 + w1, w2);
}

int hyla_cpu_dgetrf_panel(const hyla_dpanel_t *P, int *ipiv, int ib, int rank,
                          hyla_dpanel_shared_t *S)
{
    thread_t t = {.P = P,
                  .S = S,
                  .ipiv = ipiv,
                  .ib = ib > 0 ? ib : 1,
                  .rank = rank,
                  .nth = S->nthreads};
    own_rows(&t);
    int kb = hyla_imin(P->m, P->n);
    if (kb > 0) rec(&t, 0, kb);
    // A wide panel (m < n) is a single tile, rank 0's: the columns right of
    // the square part get U.
    if (P->n > kb && kb > 0 && rank == 0) {
        double *top = row(&t, 0);
        cblas_dtrsm(CblasRowMajor, CblasLeft, CblasLower, CblasNoTrans,
                    CblasUnit, kb, P->n - kb, 1.0, top, P->ld, top + kb, P->ld);
    }
    return t.info;
}

void hyla_cpu_dlaswp_panel(const hyla_dpanel_t *P, int row0, const int *ipiv,
                           int k1, int k2, int inc)
{
    int first = inc > 0 ? k1 : k2 - 1;
    int step = inc > 0 ? 1 : -1;
    for (int i = first; i >= k1 && i < k2; i += step) {
        int p = ipiv[i] - 1 - row0;
        if (p != i)
            cblas_dswap(P->n, hyla_dpanel_row(P, i), 1, hyla_dpanel_row(P, p),
                        1);
    }
}
