// SPDX-License-Identifier: BSD-3-Clause
// Tile triangular solve with many right-hand sides.  @precisions d -> s
#include "algorithms_d.h"
#include "tasks_d.h"

#include <stdlib.h>

// B = op(A)^-1 B.  op(A) is lower triangular for (lower, no-trans) and
// (upper, trans): solve forward, otherwise backward.  The block of op(A)
// coupling tile rows m and k is A(m, k), or A(k, m)^T when transposed.

// Distributed: the fan-in.  The update of B(m, n) by tile A(am, an) runs
// on that tile's process, into its partial sum of B(m, n); when row k's
// turn comes, the process of B(k, n) subtracts the partial sums of the
// processes that have one, and solves.  Only tiles of B's shape cross
// processes (the tiles of A stay where they are).
static void fan_in(int uplo, int trans, int diag, const hyla_desc_t *A,
                   const hyla_desc_t *B, hyla_seq_t *seq)
{
    hyla_task_opts_t o = hyla_task_opts(seq);
    int mt = B->mt, nt = B->nt, np = hyla_rt_nprocs();
    int forward = (uplo == HYLA_LOWER) == (trans == HYLA_NO_TRANS);
    hyla_partials_t *W = hyla_rt_partials(seq, B);
    // Whether process r has a partial sum of tile row m: has[m np + r].
    unsigned char *has = calloc((size_t)mt * np + 1, 1);
    void **S = malloc(sizeof *S * (size_t)np);
    if (!W || !has || !S) {
        hyla_rt_seq_fail(seq, HYLA_ERR_OUT_OF_MEMORY);
        free(has);
        free(S);
        return;
    }
    for (int i = 0; i < mt; i++) {
        int k = forward ? i : mt - 1 - i;
        o.priority = hyla_prio_panel(mt, i);
        for (int n = 0; n < nt; n++) {
            int count = 0;
            for (int r = 0; r < np; r++)
                if (has[(size_t)k * np + r])
                    S[count++] = hyla_rt_partial(W, k, n, r);
            if (count) hyla_task_dsum(&o, -1.0, S, count, 1.0, B, k, n);
            hyla_task_dtrsm(&o, HYLA_LEFT, uplo, trans, diag, 1.0, A, k, k, B,
                            k, n);
        }
        for (int j = i + 1; j < mt; j++) {
            int m = forward ? j : mt - 1 - j;
            int am = trans == HYLA_NO_TRANS ? m : k;
            int an = trans == HYLA_NO_TRANS ? k : m;
            int r = hyla_tile_owner(A, am, an);
            unsigned char *h = has + (size_t)m * np + r;
            o.priority = hyla_prio_update(mt, i, j, 1);
            for (int n = 0; n < nt; n++)
                hyla_task_dpartial_add(&o, trans, A, am, an, B, k, n,
                                       hyla_rt_partial(W, m, n, r), *h);
            *h = 1;
        }
    }
    free(has);
    free(S);
}

// One tile column of B on one GPU that holds A's triangle with room to
// spare: the whole solve as one task, as its tile tasks would be
// matrix-vector products too small for their scheduling.
void hyla_pdtrsm(int uplo, int trans, int diag, const hyla_desc_t *A,
                 const hyla_trsm_ws_t *inv, int Wm, const hyla_desc_t *B,
                 hyla_seq_t *seq)
{
    if (B->dist) {
        fan_in(uplo, trans, diag, A, B, seq);
        return;
    }
    hyla_task_opts_t o = hyla_task_opts(seq);
    int mt = B->mt, nt = B->nt;
    int forward = (uplo == HYLA_LOWER) == (trans == HYLA_NO_TRANS);
    size_t tri = (size_t)mt * (mt + 1) / 2 * A->nb * A->nb * A->elemsize;
    if (nt == 1 && mt > 1 && hyla_rt_gpus() == 1 && hyla_rt_gpu_fits(tri)) {
        o.priority = hyla_prio_panel(mt, 0);
        int w = inv && inv->inv;
        hyla_task_dtrsm_col(&o, uplo, trans, diag, A, w ? inv->inv : NULL, Wm,
                            w ? inv->scratch : NULL, B);
        return;
    }

    for (int i = 0; i < mt; i++) {
        int k = forward ? i : mt - 1 - i;
        // B(k, n) = op(A(k, k))^-1 B(k, n)
        o.priority = hyla_prio_panel(mt, i);
        for (int n = 0; n < nt; n++)
            hyla_task_dtrsm(&o, HYLA_LEFT, uplo, trans, diag, 1.0, A, k, k, B,
                            k, n);
        // B(m, n) -= op(A)(m, k) B(k, n) for the rows not yet solved
        for (int j = i + 1; j < mt; j++) {
            int m = forward ? j : mt - 1 - j;
            o.priority = hyla_prio_update(mt, i, j, 1);
            int am = trans == HYLA_NO_TRANS ? m : k;
            int an = trans == HYLA_NO_TRANS ? k : m;
            for (int n = 0; n < nt; n++)
                hyla_task_dgemm(&o, trans, HYLA_NO_TRANS, -1.0, A, am, an, B, k,
                                n, 1.0, B, m, n);
        }
    }
}
