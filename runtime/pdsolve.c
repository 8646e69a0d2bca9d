// SPDX-License-Identifier: BSD-3-Clause
// Solves with the LU and Cholesky factors.  @precisions d -> s
#include "algorithms_d.h"

// A = P L U:  A X = B gives X = U^-1 L^-1 P^T B (the interchanges applied
// to B in order), and A^T X = B reverses every step.
void hyla_pdgetrs(int trans, const hyla_desc_t *A, const hyla_pivots_t *P,
                  const hyla_desc_t *B, hyla_seq_t *seq)
{
    if (trans == HYLA_NO_TRANS) {
        hyla_pdlaswp(B, P, 1, seq);
        hyla_pdtrsm(HYLA_LOWER, HYLA_NO_TRANS, HYLA_UNIT, A, NULL, 0, B, seq);
        hyla_pdtrsm(HYLA_UPPER, HYLA_NO_TRANS, HYLA_NON_UNIT, A, NULL, 0, B,
                    seq);
    } else {
        hyla_pdtrsm(HYLA_UPPER, HYLA_TRANS, HYLA_NON_UNIT, A, NULL, 0, B, seq);
        hyla_pdtrsm(HYLA_LOWER, HYLA_TRANS, HYLA_UNIT, A, NULL, 0, B, seq);
        hyla_pdlaswp(B, P, -1, seq);
    }
}

// A = L L^T:  X = L^-T L^-1 B;  A = U^T U:  X = U^-1 U^-T B.
void hyla_pdpotrs(int uplo, const hyla_desc_t *A, const hyla_desc_t *B,
                  hyla_seq_t *seq)
{
    int first = uplo == HYLA_LOWER ? HYLA_NO_TRANS : HYLA_TRANS;
    int second = uplo == HYLA_LOWER ? HYLA_TRANS : HYLA_NO_TRANS;
    hyla_pdtrsm(uplo, first, HYLA_NON_UNIT, A, NULL, 0, B, seq);
    hyla_pdtrsm(uplo, second, HYLA_NON_UNIT, A, NULL, 0, B, seq);
}
