// SPDX-License-Identifier: BSD-3-Clause
// Copies between a column-major matrix and the tiles.  @precisions d -> s
#include "codelets.h"

struct dlayout_args {
    hyla_seq_t *seq;
    int uplo;
    double *Af; // the tile's corner in the column-major matrix
    int lda;
};

static void cl_dlap_to_tile_cpu(void *buffers[], void *cl_arg)
{
    const struct dlayout_args *a = cl_arg;
    // Copies go on after a numerical failure (info > 0): the caller gets the
    // partial factors, as from LAPACK.
    if (hyla_rt_seq_failed(a->seq)) return;
    hyla_cpu_dlap_to_tile(a->uplo, HYLA_TILE_ROWS(buffers[0]),
                          HYLA_TILE_COLS(buffers[0]), a->Af, a->lda,
                          HYLA_TILE_PTR(buffers[0]), HYLA_TILE_LD(buffers[0]));
}

static void cl_dtile_to_lap_cpu(void *buffers[], void *cl_arg)
{
    const struct dlayout_args *a = cl_arg;
    // Copies go on after a numerical failure (info > 0): the caller gets the
    // partial factors, as from LAPACK.
    if (hyla_rt_seq_failed(a->seq)) return;
    hyla_cpu_dtile_to_lap(a->uplo, HYLA_TILE_ROWS(buffers[0]),
                          HYLA_TILE_COLS(buffers[0]), HYLA_TILE_PTR(buffers[0]),
                          HYLA_TILE_LD(buffers[0]), a->Af, a->lda);
}

// The whole tile is written, or left undefined outside the triangle, so
// its previous contents need not be fetched.  The column-major matrix is
// in host memory: CPU only.
HYLA_CODELET(dlap_to_tile, cl_dlap_to_tile_cpu, NULL, 1, STARPU_W);
HYLA_CODELET(dtile_to_lap, cl_dtile_to_lap_cpu, NULL, 1, STARPU_R);

static struct dlayout_args *layout_args(const hyla_task_opts_t *o, int uplo,
                                        const double *Af, int lda,
                                        const hyla_desc_t *A, int m, int n)
{
    struct dlayout_args *a = hyla_cl_args(o, sizeof *a);
    if (a)
        *a = (struct dlayout_args){
            o->seq, uplo,
            (double *)Af + (size_t)n * A->nb * lda + (size_t)m * A->nb, lda};
    return a;
}

void hyla_task_dlap_to_tile(const hyla_task_opts_t *o, int uplo,
                            const double *Af, int lda, const hyla_desc_t *A,
                            int m, int n)
{
    struct dlayout_args *a = layout_args(o, uplo, Af, lda, A, m, n);
    if (a)
        HYLA_TASK_INSERT(o, &cl_dlap_to_tile, STARPU_CL_ARGS, a, sizeof *a,
                         STARPU_W, hyla_rt_tile(A, m, n));
}

void hyla_task_dtile_to_lap(const hyla_task_opts_t *o, int uplo,
                            const hyla_desc_t *A, int m, int n, double *Af,
                            int lda)
{
    struct dlayout_args *a = layout_args(o, uplo, Af, lda, A, m, n);
    if (a)
        HYLA_TASK_INSERT(o, &cl_dtile_to_lap, STARPU_CL_ARGS, a, sizeof *a,
                         STARPU_R, hyla_rt_tile(A, m, n));
}

// A tile of a matrix padded beyond the column-major one (hyla_cpu_dlap_
// pad_to_tile): rows, columns from Af (the tile's corner in it; NULL when
// none), the diagonal of ones, where the row sums go.
struct dpad_args {
    hyla_seq_t *seq;
    const double *Af;
    int lda, rows, cols, ident;
    double *sums;
};

static void cl_dlap_pad_to_tile_cpu(void *buffers[], void *cl_arg)
{
    const struct dpad_args *a = cl_arg;
    if (hyla_rt_seq_failed(a->seq)) return;
    hyla_cpu_dlap_pad_to_tile(HYLA_TILE_ROWS(buffers[0]),
                              HYLA_TILE_COLS(buffers[0]), a->rows, a->cols,
                              a->ident, a->Af, a->lda,
                              HYLA_TILE_PTR(buffers[0]),
                              HYLA_TILE_LD(buffers[0]), a->sums);
}

HYLA_CODELET(dlap_pad_to_tile, cl_dlap_pad_to_tile_cpu, NULL, 1, STARPU_W);

void hyla_task_dlap_pad_to_tile(const hyla_task_opts_t *o, int na,
                                const double *Af, int lda, const hyla_desc_t *A,
                                int m, int n, double *sums)
{
    struct dpad_args *a = hyla_cl_args(o, sizeof *a);
    if (!a) return;
    int i0 = m * A->nb, j0 = n * A->nb;
    int rows = hyla_imax(0, hyla_imin(hyla_tile_mb(A, m), na - i0));
    int cols = hyla_imax(0, hyla_imin(hyla_tile_nb(A, n), na - j0));
    *a = (struct dpad_args){o->seq, NULL, lda, rows, cols, m == n, sums};
    if (rows > 0 && cols > 0) a->Af = Af + (size_t)j0 * lda + i0;
    HYLA_TASK_INSERT(o, &cl_dlap_pad_to_tile, STARPU_CL_ARGS, a, sizeof *a,
                     STARPU_W, hyla_rt_tile(A, m, n));
}
