// SPDX-License-Identifier: BSD-3-Clause
// Cholesky of one row-major tile.  @precisions d -> s
#include "cpu_d.h"

#include <lapack.h>
#include <math.h>

int hyla_cpu_dpotrf(int uplo, int n, double *A, int lda)
{
    // A row-major lower triangle is a column-major upper one.
    char u = uplo == HYLA_LOWER ? 'U' : 'L';
    int info = 0;
    LAPACK_dpotrf(&u, &n, A, &lda, &info);
    if (info) return info;
    // LAPACK's reference dpotrf2 stops at a NaN diagonal; optimized ones
    // may not.  A NaN in the leading minor of order j leaves a NaN at
    // L(j,j), so the first one gives LAPACK's info.
    for (int j = 0; j < n; j++)
        if (isnan(A[(size_t)j * lda + j])) return j + 1;
    return 0;
}
