// SPDX-License-Identifier: BSD-3-Clause
// Copies between a column-major matrix and the tiles.  @precisions d -> s
#include "codelets.h"

struct dlayout_args {
    hyla_seq_t *seq;
    int uplo;
    double *Af; // the first tile's corner in the column-major matrix
    int lda;
    int nb;    // rows between the corners of two tiles of the group
    int count; // tiles of the group
};

// Buffers 0 .. count-1: tiles of one tile column, one below the other;
// tile i's block of the column-major matrix starts i nb rows below Af.
static double *block_of(const struct dlayout_args *a, int i)
{
    return a->Af + (size_t)i * a->nb;
}

static void cl_dlap_to_tile_cpu(void *buffers[], void *cl_arg)
{
    const struct dlayout_args *a = cl_arg;
    // Copies go on after a numerical failure (info > 0): the caller gets the
    // partial factors, as from LAPACK.
    if (hyla_rt_seq_failed(a->seq)) return;
    for (int i = 0; i < a->count; i++)
        hyla_cpu_dlap_to_tile(a->uplo, HYLA_TILE_ROWS(buffers[i]),
                              HYLA_TILE_COLS(buffers[i]), block_of(a, i),
                              a->lda, HYLA_TILE_PTR(buffers[i]),
                              HYLA_TILE_LD(buffers[i]));
}

static void cl_dtile_to_lap_cpu(void *buffers[], void *cl_arg)
{
    const struct dlayout_args *a = cl_arg;
    // Copies go on after a numerical failure (info > 0): the caller gets the
    // partial factors, as from LAPACK.
    if (hyla_rt_seq_failed(a->seq)) return;
    for (int i = 0; i < a->count; i++)
        hyla_cpu_dtile_to_lap(a->uplo, HYLA_TILE_ROWS(buffers[i]),
                              HYLA_TILE_COLS(buffers[i]),
                              HYLA_TILE_PTR(buffers[i]),
                              HYLA_TILE_LD(buffers[i]), block_of(a, i), a->lda);
}

#if HYLA_CUDA_CODELETS
// On a GPU the copy crosses the bus straight from (to) the column-major
// matrix: the tile is never in host memory.  Into the tile, the whole
// tile is copied.  The tiles of a group go one after the other on the
// task's stream, through the same staging memory.
static void layout_cuda(void *buffers[], const struct dlayout_args *a,
                        int to_tile)
{
    if (hyla_rt_seq_failed(a->seq)) return;
    double *work = hyla_cl_cuda_staging();
    if (!work) {
        hyla_rt_seq_fail(a->seq, HYLA_ERR_CUDA);
        return;
    }
    hyla_cl_cuda_t g = hyla_cl_cuda_begin();
    int rc = 0;
    size_t elems = HYLA_CL_CUDA_STAGING / sizeof(double);
    for (int i = 0; i < a->count && !rc; i++) {
        int m = HYLA_TILE_ROWS(buffers[i]), n = HYLA_TILE_COLS(buffers[i]);
        double *T = HYLA_TILE_PTR(buffers[i]);
        int ldt = HYLA_TILE_LD(buffers[i]);
        rc = to_tile
                 ? hyla_cuda_dlap_to_tile(g.stream, m, n, block_of(a, i),
                                          a->lda, T, ldt, work, elems)
                 : hyla_cuda_dtile_to_lap(g.stream, a->uplo, m, n, T, ldt,
                                          block_of(a, i), a->lda, work, elems);
    }
    rc = hyla_cl_cuda_end(&g, rc);
    if (rc) hyla_rt_seq_fail(a->seq, rc);
}

static void cl_dlap_to_tile_cuda(void *buffers[], void *cl_arg)
{
    layout_cuda(buffers, cl_arg, 1);
}

static void cl_dtile_to_lap_cuda(void *buffers[], void *cl_arg)
{
    layout_cuda(buffers, cl_arg, 0);
}
#endif

// The whole tile is written, or left undefined outside the triangle, so
// its previous contents need not be fetched.  The column-major matrix is
// in host memory.  In native mode the copies run on the GPUs (the _gpu
// codelets); in hybrid mode on the CPU workers (on the H100 node, copies
// on the GPU, pinned or not, were no faster there: docs/perf).
HYLA_CODELET_VARIADIC(dlap_to_tile, cl_dlap_to_tile_cpu, NULL);
HYLA_CODELET_VARIADIC(dtile_to_lap, cl_dtile_to_lap_cpu, NULL);
HYLA_CODELET_VARIADIC(dlap_to_tile_gpu, cl_dlap_to_tile_cpu,
                      cl_dlap_to_tile_cuda);
HYLA_CODELET_VARIADIC(dtile_to_lap_gpu, cl_dtile_to_lap_cpu,
                      cl_dtile_to_lap_cuda);

static int native(void)
{
    return hyla_rt_config()->mode == HYLA_MODE_NATIVE;
}

// One task for tiles (m, n) .. (m + count - 1, n), each in the given mode.
static void layout_task(const hyla_task_opts_t *o, int to_tile, int uplo,
                        const double *block, int lda, const hyla_desc_t *A,
                        int m, int n, int count)
{
    struct dlayout_args *a = hyla_cl_args(o, sizeof *a);
    if (!a) return;
    *a =
        (struct dlayout_args){o->seq, uplo, (double *)block, lda, A->nb, count};
    struct starpu_data_descr d[count];
    for (int i = 0; i < count; i++)
        d[i] = (struct starpu_data_descr){hyla_rt_tile(A, m + i, n),
                                          to_tile ? STARPU_W : STARPU_R};
    struct starpu_codelet *cl =
        to_tile ? (native() ? &cl_dlap_to_tile_gpu : &cl_dlap_to_tile)
                : (native() ? &cl_dtile_to_lap_gpu : &cl_dtile_to_lap);
    HYLA_TASK_INSERT(o, cl, STARPU_CL_ARGS, a, sizeof *a,
                     STARPU_DATA_MODE_ARRAY, d, count);
}

void hyla_task_dlap_to_tiles(const hyla_task_opts_t *o, int uplo,
                             const double *block, int lda, const hyla_desc_t *A,
                             int m, int n, int count)
{
    layout_task(o, 1, uplo, block, lda, A, m, n, count);
}

void hyla_task_dtiles_to_lap(const hyla_task_opts_t *o, int uplo,
                             const hyla_desc_t *A, int m, int n, int count,
                             double *block, int lda)
{
    layout_task(o, 0, uplo, block, lda, A, m, n, count);
}

void hyla_task_dlap_to_tile(const hyla_task_opts_t *o, int uplo,
                            const double *block, int lda, const hyla_desc_t *A,
                            int m, int n)
{
    layout_task(o, 1, uplo, block, lda, A, m, n, 1);
}

void hyla_task_dtile_to_lap(const hyla_task_opts_t *o, int uplo,
                            const hyla_desc_t *A, int m, int n, double *block,
                            int lda)
{
    layout_task(o, 0, uplo, block, lda, A, m, n, 1);
}

// The same through a block of the column-major matrix registered as data
// of its own (buffer 0: nx rows, ny columns, ld apart), so that the copy
// may run on another process than the one holding the matrix
// (distributed tile matrices); the whole tile, on CPU workers.
static void cl_dlapblock_to_tile_cpu(void *buffers[], void *cl_arg)
{
    const struct dlayout_args *a = cl_arg;
    if (hyla_rt_seq_failed(a->seq)) return;
    hyla_cpu_dlap_to_tile(HYLA_FULL, HYLA_TILE_ROWS(buffers[1]),
                          HYLA_TILE_COLS(buffers[1]),
                          (const double *)STARPU_MATRIX_GET_PTR(buffers[0]),
                          (int)STARPU_MATRIX_GET_LD(buffers[0]),
                          HYLA_TILE_PTR(buffers[1]), HYLA_TILE_LD(buffers[1]));
}

static void cl_dtile_to_lapblock_cpu(void *buffers[], void *cl_arg)
{
    const struct dlayout_args *a = cl_arg;
    if (hyla_rt_seq_failed(a->seq)) return;
    hyla_cpu_dtile_to_lap(HYLA_FULL, HYLA_TILE_ROWS(buffers[0]),
                          HYLA_TILE_COLS(buffers[0]), HYLA_TILE_PTR(buffers[0]),
                          HYLA_TILE_LD(buffers[0]),
                          (double *)STARPU_MATRIX_GET_PTR(buffers[1]),
                          (int)STARPU_MATRIX_GET_LD(buffers[1]));
}

HYLA_CODELET(dlapblock_to_tile, cl_dlapblock_to_tile_cpu, NULL, 2, STARPU_R,
             STARPU_W);
HYLA_CODELET(dtile_to_lapblock, cl_dtile_to_lapblock_cpu, NULL, 2, STARPU_R,
             STARPU_W);

void hyla_task_dlapblock_to_tile(const hyla_task_opts_t *o, void *block,
                                 const hyla_desc_t *A, int m, int n)
{
    struct dlayout_args *a = hyla_cl_args(o, sizeof *a);
    if (!a) return;
    *a = (struct dlayout_args){o->seq, HYLA_FULL, NULL, 0, 0, 1};
    HYLA_TASK_INSERT(o, &cl_dlapblock_to_tile, STARPU_CL_ARGS, a, sizeof *a,
                     STARPU_R, (starpu_data_handle_t)block, STARPU_W,
                     hyla_rt_tile(A, m, n));
}

void hyla_task_dtile_to_lapblock(const hyla_task_opts_t *o,
                                 const hyla_desc_t *A, int m, int n,
                                 void *block)
{
    struct dlayout_args *a = hyla_cl_args(o, sizeof *a);
    if (!a) return;
    *a = (struct dlayout_args){o->seq, HYLA_FULL, NULL, 0, 0, 1};
    HYLA_TASK_INSERT(o, &cl_dtile_to_lapblock, STARPU_CL_ARGS, a, sizeof *a,
                     STARPU_R, hyla_rt_tile(A, m, n), STARPU_W,
                     (starpu_data_handle_t)block);
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
    hyla_cpu_dlap_pad_to_tile(
        HYLA_TILE_ROWS(buffers[0]), HYLA_TILE_COLS(buffers[0]), a->rows,
        a->cols, a->ident, a->Af, a->lda, HYLA_TILE_PTR(buffers[0]),
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

// The same from the tiles of A (buffers 2 ..: the 1, 2 or 4 tiles that the
// padded tile overlaps, by rows), into buffer 0, the row sums into vector
// buffer 1 (added to it when add).
struct dtpad_args {
    hyla_seq_t *seq;
    int rows, cols, ident;
    int r0, c0; // where the padded tile starts in the first source tile
    int ms, ns; // its rows (columns) from the first source tile row (column)
    int two_rows, two_cols;
    int add;
};

// The four corners' sources (hyla_cpu_dtile_pad_to_tile's S, lds), from
// the buffers of the task.
static void tpad_sources(void *buffers[], const struct dtpad_args *a,
                         const double *S[4], int lds[4])
{
    for (int k = 0; k < 4; k++) {
        int i = k / 2 && a->two_rows, j = k % 2 && a->two_cols;
        void *b = buffers[2 + i * (1 + a->two_cols) + j];
        lds[k] = HYLA_TILE_LD(b);
        // A source starts at the tile's element (r0, c0) where the padded
        // tile's first row (column) lies in it, else at its first.
        S[k] = (const double *)HYLA_TILE_PTR(b) +
               (size_t)(i ? 0 : a->r0) * lds[k] + (j ? 0 : a->c0);
    }
}

static void cl_dtile_pad_to_tile_cpu(void *buffers[], void *cl_arg)
{
    const struct dtpad_args *a = cl_arg;
    if (hyla_rt_seq_failed(a->seq)) return;
    const double *S[4] = {NULL};
    int lds[4] = {0};
    if (a->rows > 0 && a->cols > 0) tpad_sources(buffers, a, S, lds);
    hyla_cpu_dtile_pad_to_tile(
        HYLA_TILE_ROWS(buffers[0]), HYLA_TILE_COLS(buffers[0]), a->rows,
        a->cols, a->ident, S, lds, a->ms, a->ns, HYLA_TILE_PTR(buffers[0]),
        HYLA_TILE_LD(buffers[0]), (double *)STARPU_VECTOR_GET_PTR(buffers[1]),
        a->add);
}

#if HYLA_CUDA_CODELETS
static void cl_dtile_pad_to_tile_cuda(void *buffers[], void *cl_arg)
{
    const struct dtpad_args *a = cl_arg;
    if (hyla_rt_seq_failed(a->seq)) return;
    const double *S[4] = {NULL};
    int lds[4] = {0};
    if (a->rows > 0 && a->cols > 0) tpad_sources(buffers, a, S, lds);
    hyla_cl_cuda_t g = hyla_cl_cuda_begin();
    int rc = hyla_cuda_dtile_pad_to_tile(
        g.stream, HYLA_TILE_ROWS(buffers[0]), HYLA_TILE_COLS(buffers[0]),
        a->rows, a->cols, a->ident, S, lds, a->ms, a->ns,
        HYLA_TILE_PTR(buffers[0]), HYLA_TILE_LD(buffers[0]),
        (double *)STARPU_VECTOR_GET_PTR(buffers[1]), a->add);
    rc = hyla_cl_cuda_end(&g, rc);
    if (rc) hyla_rt_seq_fail(a->seq, rc);
}
#endif

HYLA_CODELET_VARIADIC(dtile_pad_to_tile, cl_dtile_pad_to_tile_cpu,
                      cl_dtile_pad_to_tile_cuda);

void hyla_task_dtile_pad_to_tile(const hyla_task_opts_t *o,
                                 const hyla_desc_t *A, const hyla_desc_t *P,
                                 int m, int n, void *sums, int add)
{
    struct dtpad_args *a = hyla_cl_args(o, sizeof *a);
    if (!a) return;
    int na = A->m, i0 = m * P->nb, j0 = n * P->nb;
    int rows = hyla_imax(0, hyla_imin(P->nb, na - i0));
    int cols = hyla_imax(0, hyla_imin(P->nb, na - j0));
    *a = (struct dtpad_args){o->seq, rows, cols, m == n, 0, 0, 0, 0, 0, 0, add};
    struct starpu_data_descr d[6];
    int nbuf = 2;
    d[0] = (struct starpu_data_descr){hyla_rt_tile(P, m, n), STARPU_W};
    d[1] = (struct starpu_data_descr){(starpu_data_handle_t)sums,
                                      add ? STARPU_RW : STARPU_W};
    if (rows > 0 && cols > 0) {
        // P's tiles are no larger than A's: at most two tile rows and two
        // tile columns of A.
        int am = i0 / A->nb, an = j0 / A->nb;
        a->r0 = i0 - am * A->nb;
        a->c0 = j0 - an * A->nb;
        a->ms = hyla_imin(rows, A->nb - a->r0);
        a->ns = hyla_imin(cols, A->nb - a->c0);
        a->two_rows = rows > a->ms;
        a->two_cols = cols > a->ns;
        for (int i = 0; i <= a->two_rows; i++)
            for (int j = 0; j <= a->two_cols; j++)
                d[nbuf++] = (struct starpu_data_descr){
                    hyla_rt_tile(A, am + i, an + j), STARPU_R};
    }
    HYLA_TASK_INSERT(o, &cl_dtile_pad_to_tile, STARPU_CL_ARGS, a, sizeof *a,
                     STARPU_DATA_MODE_ARRAY, d, nbuf);
}
