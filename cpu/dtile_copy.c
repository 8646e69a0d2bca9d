// SPDX-License-Identifier: BSD-3-Clause
// Column-major <-> row-major tile copies.  @precisions d -> s
#include "cpu_d.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

// Blocks of BS x BS keep both the strided reads and the strided writes of
// a transposition inside the cache.
enum { BS = 32 };

// dst(i, j) = src(i, j) for the part of the m-by-n matrix that uplo keeps;
// element (i, j) of x is x[i*rs + j*cs].
static void copy(int uplo, int m, int n, const double *src, size_t srs,
                 size_t scs, double *dst, size_t drs, size_t dcs)
{
    for (int jb = 0; jb < n; jb += BS)
        for (int ib = 0; ib < m; ib += BS) {
            int je = hyla_imin(jb + BS, n), ie = hyla_imin(ib + BS, m);
            for (int i = ib; i < ie; i++) {
                int j0 = uplo == HYLA_UPPER ? hyla_imax(jb, i) : jb;
                int j1 = uplo == HYLA_LOWER ? hyla_imin(je, i + 1) : je;
                for (int j = j0; j < j1; j++)
                    dst[i * drs + j * dcs] = src[i * srs + j * scs];
            }
        }
}

void hyla_cpu_dlap_to_tile(int uplo, int m, int n, const double *Af, int lda,
                           double *T, int ldt)
{
    copy(uplo, m, n, Af, 1, (size_t)lda, T, (size_t)ldt, 1);
}

void hyla_cpu_dtile_to_lap(int uplo, int m, int n, const double *T, int ldt,
                           double *Af, int lda)
{
    copy(uplo, m, n, T, (size_t)ldt, 1, Af, 1, (size_t)lda);
}

void hyla_cpu_dlacpy(int m, int n, const double *A, int lda, double *B, int ldb)
{
    for (int i = 0; i < m; i++)
        memcpy(B + (size_t)i * ldb, A + (size_t)i * lda, sizeof(double) * n);
}

void hyla_cpu_dlap_pad_to_tile(int m, int n, int mv, int nv, int ident,
                               const double *Af, int lda, double *T, int ldt,
                               double *sums)
{
    copy(HYLA_FULL, mv, nv, Af, 1, (size_t)lda, T, (size_t)ldt, 1);
    for (int i = 0; i < m; i++) {
        double *t = T + (size_t)i * ldt, s = 0;
        for (int j = i < mv ? nv : 0; j < n; j++)
            t[j] = ident && i == j;
        for (int j = 0; i < mv && j < nv; j++)
            s += fabs(t[j]);
        sums[i] = s;
    }
}

void hyla_cpu_dtile_pad_to_tile(int m, int n, int mv, int nv, int ident,
                                const double *const S[4], const int lds[4],
                                int ms, int ns, double *T, int ldt,
                                double *sums, int add)
{
    int nl = hyla_imin(ns, nv);
    for (int i = 0; i < m; i++) {
        double *t = T + (size_t)i * ldt, s = 0;
        int lo = i >= ms ? 2 : 0, r = i >= ms ? i - ms : i;
        if (i < mv && nv > 0) {
            memcpy(t, S[lo] + (size_t)r * lds[lo], sizeof(double) * nl);
            if (nv > nl)
                memcpy(t + nl, S[lo + 1] + (size_t)r * lds[lo + 1],
                       sizeof(double) * (nv - nl));
            for (int j = 0; j < nv; j++)
                s += fabs(t[j]);
        }
        for (int j = i < mv ? nv : 0; j < n; j++)
            t[j] = ident && i == j;
        sums[i] = add ? sums[i] + s : s;
    }
}
