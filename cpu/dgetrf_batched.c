// SPDX-License-Identifier: BSD-3-Clause
// Batched LU, inverse and solve of small column-major matrices, one matrix
// after the other with single-threaded LAPACK.  @precisions d -> s
#include "cpu_d.h"

#include <lapack.h>
#include <stdlib.h>

void hyla_cpu_dgetrf_batched(int n, int count, double *A, int *ipiv,
                             int *info)
{
    size_t nn = (size_t)n * n;
    for (int i = 0; i < count; i++)
        LAPACK_dgetrf(&n, &n, A + i * nn, &n, ipiv + (size_t)i * n, &info[i]);
}

int hyla_cpu_dgetri_batched(int n, int count, const double *A, double *C,
                            int *ipiv, int *info)
{
    size_t nn = (size_t)n * n;
    int lwork = 64 * (n > 0 ? n : 1);
    double *work = malloc(sizeof(double) * (size_t)lwork);
    if (!work) return -1;
    for (int i = 0; i < count; i++) {
        double *c = C + i * nn;
        int *p = ipiv + (size_t)i * n, rc = 0;
        for (size_t e = 0; e < nn; e++)
            c[e] = A[i * nn + e];
        LAPACK_dgetrf(&n, &n, c, &n, p, &info[i]);
        if (info[i] == 0) LAPACK_dgetri(&n, c, &n, p, work, &lwork, &rc);
    }
    free(work);
    return 0;
}

void hyla_cpu_dgetrs_batched(int trans, int n, int nrhs, int count,
                             const double *A, const int *ipiv, double *B)
{
    char t = trans == HYLA_NO_TRANS ? 'N' : 'T';
    size_t nn = (size_t)n * n, nb = (size_t)n * nrhs;
    for (int i = 0; i < count; i++) {
        int rc = 0;
        LAPACK_dgetrs(&t, &n, &nrhs, A + i * nn, &n, ipiv + (size_t)i * n,
                      B + i * nb, &n, &rc);
    }
}
