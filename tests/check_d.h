// SPDX-License-Identifier: BSD-3-Clause
// Test matrices and LAPACK-style residuals, double precision.
// @precisions d -> s
//
// Shared by the tests and the benchmark driver.  Matrices are column-major.
// Every residual is scaled so that a correct result gives O(1), and the
// tests pass when it is <= HYLA_CHECK_TOL (a NaN never passes).
#ifndef HYLA_TESTS_CHECK_D_H
#define HYLA_TESTS_CHECK_D_H

// m-by-n entries uniform in [-1, 1), the same for the same seed.
void hyla_check_dgen(int m, int n, double *A, int lda, int seed);

// m-by-n with unambiguous partial pivoting: a column diagonally dominant
// matrix (which elimination keeps dominant) with its rows shuffled, so
// every pivot beats the other candidates by a wide margin in any precision.
void hyla_check_dgen_pivoted(int m, int n, double *A, int lda, int seed);

// Symmetric positive definite n-by-n: random symmetric plus n on the
// diagonal (both triangles are filled).
void hyla_check_dgen_spd(int n, double *A, int lda, int seed);

// ||P A - L U||_1 / (||A||_1 n eps): A the original m-by-n matrix, LU and
// ipiv what getrf left.  O(m n min(m,n)).
double hyla_check_dresid_getrf(int m, int n, const double *A, int lda,
                               const double *LU, int ldlu, const int *ipiv);

// The same norm applied to one random vector x, O(m n):
// ||P A x - L (U x)||_1 / (||A||_1 ||x||_1 n eps).
double hyla_check_dresid_getrf_probe(int m, int n, const double *A, int lda,
                                     const double *LU, int ldlu,
                                     const int *ipiv);

// ||A - L L^T||_1 / (||A||_1 n eps) (uplo 'L') or with U^T U ('U'), over
// the uplo triangle.  O(n^3).
double hyla_check_dresid_potrf(char uplo, int n, const double *A, int lda,
                               const double *F, int ldf);

// The O(n^2) form with a random vector.
double hyla_check_dresid_potrf_probe(char uplo, int n, const double *A, int lda,
                                     const double *F, int ldf);

// max over the columns of ||b - A x||_inf / (||A||_inf ||x||_inf n eps);
// trans 'N' or 'T' selects A or A^T.
double hyla_check_dresid_solve(char trans, int n, int nrhs, const double *A,
                               int lda, const double *X, int ldx,
                               const double *B, int ldb);

// ||I - A X||_1 / (||A||_1 ||X||_1 n eps): X an inverse of the n-by-n A.
double hyla_check_dresid_inverse(int n, const double *A, int lda,
                                 const double *X, int ldx);

#endif // HYLA_TESTS_CHECK_D_H
