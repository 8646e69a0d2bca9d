// SPDX-License-Identifier: BSD-3-Clause
// Inverse of a triangular row-major tile, out of place.  @precisions d -> s
#include "cpu_d.h"

#include <lapack.h>
#include <string.h>

int hyla_cpu_dtrtri(int uplo, int diag, int n, const double *A, int lda,
                    double *W, int ldw)
{
    // Copy the triangle, zero the other one, invert in place.  A row-major
    // lower triangle is a column-major upper one.
    for (int i = 0; i < n; i++) {
        double *w = W + (size_t)i * ldw;
        const double *a = A + (size_t)i * lda;
        if (uplo == HYLA_LOWER) {
            memcpy(w, a, sizeof(double) * (size_t)(i + 1));
            memset(w + i + 1, 0, sizeof(double) * (size_t)(n - i - 1));
        } else {
            memset(w, 0, sizeof(double) * (size_t)i);
            memcpy(w + i, a + i, sizeof(double) * (size_t)(n - i));
        }
    }
    char u = uplo == HYLA_LOWER ? 'U' : 'L', d = diag == HYLA_UNIT ? 'U' : 'N';
    int info = 0;
    LAPACK_dtrtri(&u, &d, &n, W, &ldw, &info);
    // A unit triangle's inverse has ones on its diagonal, which dtrtri
    // leaves as it found them.
    if (diag == HYLA_UNIT)
        for (int i = 0; i < n; i++)
            W[(size_t)i * ldw + i] = 1.0;
    return info;
}
