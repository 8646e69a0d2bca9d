// SPDX-License-Identifier: BSD-3-Clause
// hyla_dlap_to_desc, hyla_ddesc_to_lap: entry points.  @precisions d -> s
#include "algorithms_d.h"

// Checks of (Af, lda, A) at positions pa, pa+1, pd.
static int check(const char *r, const double *Af, int pa, int lda,
                 const hyla_desc_t *A, int pd)
{
    int rc;
    if ((rc = hyla_rt_check_init(r)) ||
        (rc = hyla_rt_check_desc_any(r, pd, A, HYLA_DOUBLE)) ||
        (rc = hyla_rt_check_ptr(r, pa, "Af", Af, A->m && A->n)) ||
        (rc = hyla_rt_check_ld(r, pa + 1, "lda", lda, A->m)))
        return rc;
    return 0;
}

// A distributed A: Af is rank 0's, the copies run where the tiles are.
static int dist_copy(const char *r, const double *Af, int pa, int lda,
                     const hyla_desc_t *A, int pd, int to_tiles)
{
    // Only rank 0 has Af: its checks decide for all.
    int rc = hyla_rt_rank() == 0 ? check(r, Af, pa, lda, A, pd) : 0;
    if ((rc = hyla_rt_check_agree(r, A, rc))) return rc;
    void **blocks;
    if ((rc = hyla_rt_lap_blocks_create(&blocks, A, Af, lda)))
        return hyla_rt_error(rc, "%s: out of memory", r);
    hyla_seq_t seq;
    hyla_rt_seq_init_on(&seq, 0, A);
    if (to_tiles)
        hyla_pdlap_blocks_to_desc(blocks, A, &seq);
    else
        hyla_pddesc_to_lap_blocks(A, blocks, &seq);
    rc = hyla_rt_seq_wait(&seq);
    hyla_rt_lap_blocks_destroy(blocks, A);
    return rc;
}

HYLA_EXPORT int hyla_dlap_to_desc(const double *Af, int lda, hyla_desc_t *A)
{
    const char *r = "hyla_dlap_to_desc";
    if (A && A->dist && hyla_rt_initialized() && A->dtype == HYLA_DOUBLE)
        return dist_copy(r, Af, 1, lda, A, 3, 1);
    int rc = check(r, Af, 1, lda, A, 3);
    if (rc) return rc;
    hyla_seq_t seq;
    hyla_rt_seq_init(&seq, 0);
    hyla_pdlap_to_desc(HYLA_FULL, Af, lda, A, &seq);
    return hyla_rt_seq_wait(&seq);
}

HYLA_EXPORT int hyla_ddesc_to_lap(const hyla_desc_t *A, double *Af, int lda)
{
    const char *r = "hyla_ddesc_to_lap";
    if (A && A->dist && hyla_rt_initialized() && A->dtype == HYLA_DOUBLE)
        return dist_copy(r, Af, 2, lda, A, 1, 0);
    int rc = check(r, Af, 2, lda, A, 1);
    if (rc) return rc;
    hyla_seq_t seq;
    hyla_rt_seq_init(&seq, 0);
    hyla_pddesc_to_lap(HYLA_FULL, A, Af, lda, &seq);
    return hyla_rt_seq_wait(&seq);
}

// This process's part of A in ScaLAPACK's layout: Aloc with lld >= its
// rows.  Each process checks its own arguments; all get the same status.
static int local_copy(const char *r, const double *Aloc, int pa, int lld,
                      const hyla_desc_t *A, int pd, int to_tiles)
{
    int rc, mloc = 0, nloc = 0;
    if ((rc = hyla_rt_check_init(r)) ||
        (rc = hyla_rt_check_desc_any(r, pd, A, HYLA_DOUBLE)))
        return rc;
    hyla_desc_local_size(A, &mloc, &nloc);
    if (!(rc = hyla_rt_check_ptr(r, pa, "Aloc", Aloc, mloc && nloc)))
        rc = hyla_rt_check_ld(r, pa + 1, "lld", lld, mloc);
    if ((rc = hyla_rt_check_agree(r, A, rc))) return rc;
    hyla_seq_t seq;
    hyla_rt_seq_init_on(&seq, 0, A);
    if (to_tiles)
        hyla_pdlocal_to_desc(Aloc, lld, A, &seq);
    else
        hyla_pddesc_to_local(A, (double *)Aloc, lld, &seq);
    return hyla_rt_seq_wait(&seq);
}

HYLA_EXPORT int hyla_dlocal_to_desc(const double *Aloc, int lld, hyla_desc_t *A)
{
    return local_copy("hyla_dlocal_to_desc", Aloc, 1, lld, A, 3, 1);
}

HYLA_EXPORT int hyla_ddesc_to_local(const hyla_desc_t *A, double *Aloc, int lld)
{
    return local_copy("hyla_ddesc_to_local", Aloc, 2, lld, A, 1, 0);
}
