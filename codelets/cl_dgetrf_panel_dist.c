// SPDX-License-Identifier: BSD-3-Clause
// LU panel on a tile column spread over a process column: one task on each
// of its processes, which exchange pivot candidates by MPI while they run.
// @precisions d -> s
#include "codelets.h"

#if HYLA_HAVE_MPI

// The tasks of one panel wait for one another inside MPI calls.  They
// cannot wait forever: each process runs its panel tasks in order (its
// token, read and written), and each task waits for its tiles' updates of
// the earlier steps, which need every task of those steps that the other
// processes of the column wait for.  A process without tiles in the
// panel (the last steps) reads the diagonal tile's input instead, for the
// same reason; its task goes in first, before that tile is written.  A
// task runs even after a failure (the status goes on to the end of the
// call): its peers wait for it.

enum { PANEL_IB = 32 };

struct panel_dist_args {
    hyla_seq_t *seq;
    MPI_Comm comm;   // the process column's; ranks are process rows
    int row0, npiv;  // global first row (and column), pivots
    int n;           // columns
    int nb, p, prow; // tile rows, process rows, this task's
    int top;         // the process row of the diagonal tile
    int first;       // tile row of this task's first tile
    int mt;          // tile rows of the matrix
    double *work;    // hyla_dpanel_part_work() elements
    int *ipiv;       // npiv, where the task has no pivot piece
};

static void allgather(void *ctx, const double *send, double *recv, int len)
{
    const struct panel_dist_args *a = ctx;
    int bytes = len * (int)sizeof(double);
    MPI_Allgather(send, bytes, MPI_BYTE, recv, bytes, MPI_BYTE, a->comm);
}

static void bcast(void *ctx, double *buf, int len)
{
    const struct panel_dist_args *a = ctx;
    MPI_Bcast(buf, len * (int)sizeof(double), MPI_BYTE, a->top, a->comm);
}

// Buffers: the token, the pivot piece (the diagonal tile's process only),
// then this process's tiles of the column, top down, or the diagonal tile
// (read) for a process without any.
static void cl_dgetrf_panel_dist_cpu(void *buffers[], void *cl_arg)
{
    struct panel_dist_args *a = cl_arg;
    int nbuf = STARPU_TASK_GET_NBUFFERS(starpu_task_get_current());
    int has_piv = a->prow == a->top, first = 1 + has_piv;
    int nt = a->first < a->mt ? nbuf - first : 0;
    double *tile[nt > 0 ? nt : 1];
    int r0[nt > 0 ? nt : 1], rows[nt > 0 ? nt : 1];
    for (int t = 0; t < nt; t++) {
        tile[t] = HYLA_TILE_PTR(buffers[first + t]);
        r0[t] = (a->first + t * a->p) * a->nb;
        rows[t] = HYLA_TILE_ROWS(buffers[first + t]);
    }
    int ld = nt > 0 ? HYLA_TILE_LD(buffers[first]) : 1;
    hyla_dpanel_part_t P = {tile, r0, rows, nt, a->n, ld};
    hyla_dpanel_comm_t c = {allgather, bcast, a, a->p};
    int *ipiv = has_piv ? (int *)STARPU_VECTOR_GET_PTR(buffers[1]) : a->ipiv;
    int info = hyla_cpu_dgetrf_panel_part(&P, a->row0, a->npiv, PANEL_IB, ipiv,
                                          &c, a->work);
    if (info && has_piv) hyla_rt_seq_info(a->seq, a->row0 + info);
}

static struct starpu_perfmodel dgetrf_panel_dist_model = {
    .type = STARPU_HISTORY_BASED, .symbol = "hyla_dgetrf_panel_dist"};

static struct starpu_codelet cl_dgetrf_panel_dist = {
    .cpu_funcs = {cl_dgetrf_panel_dist_cpu},
    .nbuffers = STARPU_VARIABLE_NBUFFERS,
    .model = &dgetrf_panel_dist_model,
    .name = "dgetrf_panel_dist"};

void hyla_task_dgetrf_panel_dist(const hyla_task_opts_t *o,
                                 const hyla_desc_t *A, int k,
                                 const hyla_pivots_t *P)
{
    int n = hyla_tile_nb(A, k), npiv = hyla_imin(A->m - k * A->nb, n);
    int pcol = k % A->q, top = k % A->p;
    size_t work = hyla_dpanel_part_work(A->p, n, PANEL_IB);
    size_t head = (sizeof(struct panel_dist_args) + 63) & ~(size_t)63;
    size_t bytes = head + sizeof(double) * work + sizeof(int) * npiv;
    hyla_task_opts_t t = *o;
    t.owner = -1; // CPU
    // Processes without tiles in the panel first (they read tile (k, k)).
    for (int pass = 0; pass < 2; pass++)
        for (int prow = 0; prow < A->p; prow++) {
            // The first tile row at or below k that this process row holds.
            int first = k + ((prow - k % A->p) + A->p) % A->p;
            if ((first < A->mt) != pass) continue;
            struct panel_dist_args *a = hyla_cl_args(o, bytes);
            if (!a) return;
            double *w = (double *)((char *)a + head);
            *a = (struct panel_dist_args){o->seq,
                                          *(MPI_Comm *)P->comm,
                                          k * A->nb,
                                          npiv,
                                          n,
                                          A->nb,
                                          A->p,
                                          prow,
                                          top,
                                          first,
                                          A->mt,
                                          w,
                                          (int *)(w + work)};
            int ntiles = first < A->mt ? (A->mt - first + A->p - 1) / A->p : 0;
            int nbuf = 1 + (prow == top) + (ntiles ? ntiles : 1);
            struct starpu_data_descr d[nbuf];
            int i = 0;
            d[i++] = (struct starpu_data_descr){P->tokens[prow * A->q + pcol],
                                                STARPU_RW};
            if (prow == top)
                d[i++] =
                    (struct starpu_data_descr){hyla_rt_pivot(P, k), STARPU_W};
            if (!ntiles)
                d[i++] =
                    (struct starpu_data_descr){hyla_rt_tile(A, k, k), STARPU_R};
            for (int m = first; m < A->mt; m += A->p)
                d[i++] = (struct starpu_data_descr){hyla_rt_tile(A, m, k),
                                                    STARPU_RW};
            HYLA_TASK_INSERT(&t, &cl_dgetrf_panel_dist, STARPU_CL_ARGS, a,
                             bytes, STARPU_DATA_MODE_ARRAY, d, nbuf);
        }
}

#else // no MPI: no distributed matrix reaches here

void hyla_task_dgetrf_panel_dist(const hyla_task_opts_t *o,
                                 const hyla_desc_t *A, int k,
                                 const hyla_pivots_t *P)
{
    (void)A;
    (void)k;
    (void)P;
    hyla_rt_seq_fail(o->seq, HYLA_ERR_NOT_SUPPORTED);
}

#endif
