// SPDX-License-Identifier: BSD-3-Clause
// Example 00: solve A x = b with a column-major array, as with LAPACK's
// dgesv.  hyla copies A into tiles, factors it on every core and copies the
// factors back; the caller never sees a tile.
#include <hyla.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    int n = 1000, nrhs = 1;
    double *A = malloc(sizeof(double) * n * n);
    double *b = malloc(sizeof(double) * n);
    int *ipiv = malloc(sizeof(int) * n);
    // A diagonally dominant matrix and b = A * ones, so x should be ones.
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            A[(size_t)j * n + i] = i == j ? n : 1.0 / (1 + i + j);
    for (int i = 0; i < n; i++) {
        b[i] = 0;
        for (int j = 0; j < n; j++)
            b[i] += A[(size_t)j * n + i];
    }

    int rc = hyla_init(NULL); // defaults for this machine, HYLA_* overrides
    if (rc) {
        fprintf(stderr, "hyla_init: %s (%s)\n", hyla_strerror(rc),
                hyla_error_detail());
        return 1;
    }
    int info = hyla_dgesv(n, nrhs, A, n, ipiv, b, n);
    hyla_finalize();

    if (info != 0) {
        fprintf(stderr, "hyla_dgesv: info = %d (%s)\n", info,
                info > 0 ? "singular" : hyla_error_detail());
        return 1;
    }
    double err = 0;
    for (int i = 0; i < n; i++)
        err = err > fabs(b[i] - 1) ? err : fabs(b[i] - 1);
    printf("n = %d, max |x - 1| = %.2e\n", n, err);
    free(A);
    free(b);
    free(ipiv);
    return err < 1e-10 ? 0 : 1;
}
