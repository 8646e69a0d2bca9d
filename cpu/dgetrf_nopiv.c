// SPDX-License-Identifier: BSD-3-Clause
// LU without pivoting of one row-major tile.  @precisions d -> s
#include "cpu_d.h"

#include <cblas.h>

// Columns below which the recursion stops: a row-oriented elimination.
enum { LEAF = 16 };

// The first k columns of the m-by-n row-major A, factored by rows: each
// row below the pivot loses its multiple of the pivot row (contiguous).
static int leaf(int m, int n, int k, double *A, int lda)
{
    for (int j = 0; j < k; j++) {
        const double *u = A + (size_t)j * lda;
        double piv = u[j];
        if (piv == 0) return j + 1;
        for (int i = j + 1; i < m; i++) {
            double *a = A + (size_t)i * lda;
            double l = a[j] / piv;
            a[j] = l;
            for (int c = j + 1; c < n; c++)
                a[c] -= l * u[c];
        }
    }
    return 0;
}

// The m-by-n row-major A (m >= n) = L U on its first n columns: left
// half, then U12 = L11^-1 A12, A22 -= L21 U12, then the right half.
static int factor(int m, int n, double *A, int lda)
{
    if (n <= LEAF) return leaf(m, n, n, A, lda);
    int n1 = n / 2, n2 = n - n1;
    int info = factor(m, n1, A, lda);
    if (info) return info;
    double *A12 = A + n1, *A21 = A + (size_t)n1 * lda, *A22 = A21 + n1;
    cblas_dtrsm(CblasRowMajor, CblasLeft, CblasLower, CblasNoTrans, CblasUnit,
                n1, n2, 1.0, A, lda, A12, lda);
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m - n1, n2, n1,
                -1.0, A21, lda, A12, lda, 1.0, A22, lda);
    info = factor(m - n1, n2, A22, lda);
    return info ? n1 + info : 0;
}

int hyla_cpu_dgetrf_nopiv(int n, double *A, int lda)
{
    return factor(n, n, A, lda);
}
