// SPDX-License-Identifier: BSD-3-Clause
// A whole tile triangular solve with one tile column of right-hand sides
// as one GPU task.  @precisions d -> s
//
// With one or a few right-hand sides each tile's work is a
// matrix-vector product of a few microseconds, and as tile tasks the
// solve is a chain of 2 mt dependent tasks whose scheduling, not the
// GPU, sets its time.  Here the same loop as hyla_pdtrsm's runs inside
// one task, its cuBLAS calls queued back to back on the task's stream.
// With the inverses of the diagonal tiles at hand their solves are
// products too, through a scratch tile (on an H100, a GEMV by a 1024 tile
// takes 17 us, cuBLAS's TRSV 70 us; in RBT's refinement at n = 16384 a
// whole solve took 1.8 ms so, 7.5 ms with TRSVs).  CUDA only: it reads
// every tile of the triangle, so it is for one GPU.
#include "codelets.h"
#include "gemv_tiles_d.h"

struct dtrsm_col_args {
    hyla_seq_t *seq;
    int uplo, trans, diag, mt, inv;
};

// Buffers: B(0, 0) .. B(mt - 1, 0), then the tiles of A's uplo triangle,
// row by row of the lower one (A(i, j), j <= i) or column by column of
// the upper one (A(i, j), i <= j): both give A(i, j) the index of
// A(j, i) in the other triangle; with inverses, then W_0 .. W_mt-1 and
// the scratch tile.
static int tile_index(int uplo, int mt, int i, int j)
{
    int r = uplo == HYLA_LOWER ? i : j, c = uplo == HYLA_LOWER ? j : i;
    return mt + r * (r + 1) / 2 + c;
}

// The index of W_k (k = mt: the scratch tile).
static int inverse_index(int mt, int k)
{
    return mt + mt * (mt + 1) / 2 + k;
}

#if HYLA_CUDA_CODELETS
// B = op(W) B through the scratch tile S: S = op(W) B, then B = S.
static int by_inverse(const hyla_cl_cuda_t *g, int trans, void *W, void *B,
                      void *S)
{
    int rows = HYLA_TILE_ROWS(B), nrhs = HYLA_TILE_COLS(B), rc;
    double *s = HYLA_TILE_PTR(S);
    if (trans == HYLA_NO_TRANS && nrhs == 1) {
        const double *w = HYLA_TILE_PTR(W), *b = HYLA_TILE_PTR(B);
        int ldw = HYLA_TILE_LD(W), ldb = HYLA_TILE_LD(B);
        rc = hyla_cuda_dgemv_sum(g->stream, rows, 1, &w, &rows, &ldw, &b, &ldb,
                                 1.0, 0.0, s, 1);
    } else {
        rc = hyla_cuda_dgemm(g->handle, trans, HYLA_NO_TRANS, rows, nrhs, rows,
                             1.0, HYLA_TILE_PTR(W), HYLA_TILE_LD(W),
                             HYLA_TILE_PTR(B), HYLA_TILE_LD(B), 0.0, s, nrhs);
    }
    if (!rc &&
        cudaMemcpy2DAsync(HYLA_TILE_PTR(B), sizeof(double) * HYLA_TILE_LD(B), s,
                          sizeof(double) * nrhs, sizeof(double) * nrhs, rows,
                          cudaMemcpyDeviceToDevice, g->stream))
        rc = HYLA_ERR_CUDA;
    return rc;
}

// B_k -= sum_j A(k, j) B_j over the tiles j solved before k, in one
// kernel (no transpose, one right-hand side): tile row k of the solve,
// left-looking.
static int update_row(const hyla_cl_cuda_t *g, int uplo, int mt, int k,
                      int forward, void *buffers[])
{
    int count = forward ? k : mt - 1 - k, j0 = forward ? 0 : k + 1;
    void *A[count + 1], *x[count + 1];
    for (int t = 0; t < count; t++) {
        A[t] = buffers[tile_index(uplo, mt, k, j0 + t)];
        x[t] = buffers[j0 + t];
    }
    return hyla_cl_dgemv_tiles(g->stream, count, A, x, -1.0, 1.0, buffers[k]);
}

static void cl_dtrsm_col_cuda(void *buffers[], void *cl_arg)
{
    const struct dtrsm_col_args *a = cl_arg;
    if (hyla_rt_seq_skip(a->seq)) return;
    int mt = a->mt, rc = 0;
    int forward = (a->uplo == HYLA_LOWER) == (a->trans == HYLA_NO_TRANS);
    // One right-hand side without transposes: each tile row's products in
    // one kernel before its solve (at n = 16384 the tile GEMVs one by one
    // took most of a solve); else each solved tile's products, right-
    // looking.
    int left = a->trans == HYLA_NO_TRANS && HYLA_TILE_COLS(buffers[0]) == 1;
    hyla_cl_cuda_t g = hyla_cl_cuda_begin();
    for (int i = 0; !rc && i < mt; i++) {
        int k = forward ? i : mt - 1 - i;
        void *Bk = buffers[k], *Akk = buffers[tile_index(a->uplo, mt, k, k)];
        int rows = HYLA_TILE_ROWS(Bk), nrhs = HYLA_TILE_COLS(Bk);
        if (left) rc = update_row(&g, a->uplo, mt, k, forward, buffers);
        if (rc) break;
        if (a->inv)
            rc = by_inverse(&g, a->trans, buffers[inverse_index(mt, k)], Bk,
                            buffers[inverse_index(mt, mt)]);
        else
            rc = hyla_cuda_dtrsm(g.handle, HYLA_LEFT, a->uplo, a->trans,
                                 a->diag, rows, nrhs, 1.0, HYLA_TILE_PTR(Akk),
                                 HYLA_TILE_LD(Akk), HYLA_TILE_PTR(Bk),
                                 HYLA_TILE_LD(Bk));
        for (int j = i + 1; !left && !rc && j < mt; j++) {
            int m = forward ? j : mt - 1 - j;
            int am = a->trans == HYLA_NO_TRANS ? m : k;
            int an = a->trans == HYLA_NO_TRANS ? k : m;
            void *A = buffers[tile_index(a->uplo, mt, am, an)];
            void *Bm = buffers[m];
            rc = hyla_cuda_dgemm(g.handle, a->trans, HYLA_NO_TRANS,
                                 HYLA_TILE_ROWS(Bm), nrhs, rows, -1.0,
                                 HYLA_TILE_PTR(A), HYLA_TILE_LD(A),
                                 HYLA_TILE_PTR(Bk), HYLA_TILE_LD(Bk), 1.0,
                                 HYLA_TILE_PTR(Bm), HYLA_TILE_LD(Bm));
        }
    }
    rc = hyla_cl_cuda_end(&g, rc);
    if (rc) hyla_rt_seq_fail(a->seq, rc);
}
#endif

HYLA_CODELET_VARIADIC(dtrsm_col, NULL, cl_dtrsm_col_cuda);

void hyla_task_dtrsm_col(const hyla_task_opts_t *o, int uplo, int trans,
                         int diag, const hyla_desc_t *A, const hyla_desc_t *W,
                         int Wm, void *S, const hyla_desc_t *B)
{
    int mt = B->mt, nbuf = W ? inverse_index(mt, mt) + 1 : inverse_index(mt, 0);
    struct dtrsm_col_args *a = hyla_cl_args(o, sizeof *a);
    struct starpu_data_descr *d = a ? malloc(sizeof *d * nbuf) : NULL;
    if (!d) {
        if (a) hyla_rt_seq_fail(o->seq, HYLA_ERR_OUT_OF_MEMORY);
        free(a);
        return;
    }
    *a = (struct dtrsm_col_args){o->seq, uplo, trans, diag, mt, W != NULL};
    for (int i = 0; i < mt; i++) {
        d[i] = (struct starpu_data_descr){hyla_rt_tile(B, i, 0), STARPU_RW};
        for (int j = 0; j <= i; j++) {
            // A(i, j) of the lower triangle, A(j, i) of the upper
            int r = uplo == HYLA_LOWER ? i : j, c = uplo == HYLA_LOWER ? j : i;
            d[tile_index(uplo, mt, r, c)] =
                (struct starpu_data_descr){hyla_rt_tile(A, r, c), STARPU_R};
        }
        if (W)
            d[inverse_index(mt, i)] =
                (struct starpu_data_descr){hyla_rt_tile(W, Wm, i), STARPU_R};
    }
    if (W)
        d[inverse_index(mt, mt)] =
            (struct starpu_data_descr){S, STARPU_SCRATCH};
    HYLA_TASK_INSERT(o, &cl_dtrsm_col, STARPU_CL_ARGS, a, sizeof *a,
                     STARPU_DATA_MODE_ARRAY, d, nbuf);
    free(d);
}
