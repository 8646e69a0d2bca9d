// SPDX-License-Identifier: BSD-3-Clause
// hyla_dlap_to_desc, hyla_ddesc_to_lap: entry points.  @precisions d -> s
#include "algorithms_d.h"

// Checks of (Af, lda, A) at positions pa, pa+1, pd.
static int check(const char *r, const double *Af, int pa, int lda,
                 const hyla_desc_t *A, int pd)
{
    int rc;
    if ((rc = hyla_rt_check_init(r)) ||
        (rc = hyla_rt_check_desc(r, pd, A, HYLA_DOUBLE)) ||
        (rc = hyla_rt_check_ptr(r, pa, "Af", Af, A->m && A->n)) ||
        (rc = hyla_rt_check_ld(r, pa + 1, "lda", lda, A->m)))
        return rc;
    return 0;
}

HYLA_EXPORT int hyla_dlap_to_desc(const double *Af, int lda, hyla_desc_t *A)
{
    int rc = check("hyla_dlap_to_desc", Af, 1, lda, A, 3);
    if (rc) return rc;
    hyla_seq_t seq;
    hyla_rt_seq_init(&seq, 0);
    hyla_pdlap_to_desc(HYLA_FULL, Af, lda, A, &seq);
    return hyla_rt_seq_wait(&seq);
}

HYLA_EXPORT int hyla_ddesc_to_lap(const hyla_desc_t *A, double *Af, int lda)
{
    int rc = check("hyla_ddesc_to_lap", Af, 2, lda, A, 1);
    if (rc) return rc;
    hyla_seq_t seq;
    hyla_rt_seq_init(&seq, 0);
    hyla_pddesc_to_lap(HYLA_FULL, A, Af, lda, &seq);
    return hyla_rt_seq_wait(&seq);
}
