// SPDX-License-Identifier: BSD-3-Clause
// Recursive LU with partial pivoting of one tile column.  @precisions d -> s
#include "cpu_d.h"

#include <cblas.h>
#include <float.h>
#include <math.h>

// Column j: pivot search over rows j..m-1, interchange of whole rows,
// scaling of the column below the diagonal.
static void leaf(const hyla_dpanel_t *P, int j, int *ipiv, int *info)
{
    int p = j;
    double vmax = fabs(hyla_dpanel_row(P, j)[j]);
    for (int r = j + 1; r < P->m; r++) {
        double v = fabs(hyla_dpanel_row(P, r)[j]);
        if (v > vmax) {
            vmax = v;
            p = r;
        }
    }
    ipiv[j] = p;
    double *rowj = hyla_dpanel_row(P, j);
    double *rowp = hyla_dpanel_row(P, p);
    double piv = rowp[j];
    if (piv == 0.0) {
        if (*info == 0) *info = j + 1;
        return;
    }
    if (p != j) cblas_dswap(P->n, rowj, 1, rowp, 1);
    // As LAPACK: multiply by the reciprocal unless it would overflow.
    if (fabs(piv) >= DBL_MIN) {
        double rp = 1.0 / piv;
        for (int r = j + 1; r < P->m; r++)
            hyla_dpanel_row(P, r)[j] *= rp;
    } else {
        for (int r = j + 1; r < P->m; r++)
            hyla_dpanel_row(P, r)[j] /= piv;
    }
}

// Factor columns j0 .. j0+w-1 (rows j0 .. m-1), left half first.
static void rec(const hyla_dpanel_t *P, int j0, int w, int *ipiv, int *info)
{
    if (w == 1) {
        leaf(P, j0, ipiv, info);
        return;
    }
    int w1 = w / 2, w2 = w - w1;
    rec(P, j0, w1, ipiv, info);

    // The diagonal block lies in the first tile (w <= min(m, n) <= mb).
    double *top = hyla_dpanel_row(P, j0);
    int ld = P->ld;
    // A12 = L11^-1 A12
    cblas_dtrsm(CblasRowMajor, CblasLeft, CblasLower, CblasNoTrans, CblasUnit,
                w1, w2, 1.0, top + j0, ld, top + j0 + w1, ld);
    // A22 -= A21 A12, one call per tile of rows
    for (int r = j0 + w1; r < P->m;) {
        int rows = hyla_imin(P->mb - r % P->mb, P->m - r);
        double *a = hyla_dpanel_row(P, r);
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, rows, w2, w1,
                    -1.0, a + j0, ld, top + j0 + w1, ld, 1.0, a + j0 + w1, ld);
        r += rows;
    }
    rec(P, j0 + w1, w2, ipiv, info);
}

int hyla_cpu_dgetrf_panel(const hyla_dpanel_t *P, int *ipiv)
{
    int kb = hyla_imin(P->m, P->n);
    int info = 0;
    if (kb == 0) return 0;
    rec(P, 0, kb, ipiv, &info);
    // A wide panel (m < n): the columns right of the square part get U.
    if (P->n > kb) {
        double *top = hyla_dpanel_row(P, 0);
        cblas_dtrsm(CblasRowMajor, CblasLeft, CblasLower, CblasNoTrans,
                    CblasUnit, kb, P->n - kb, 1.0, top, P->ld, top + kb, P->ld);
    }
    return info;
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
