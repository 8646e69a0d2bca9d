// SPDX-License-Identifier: BSD-3-Clause
// LU with partial pivoting of a tile column whose tiles lie on several
// processes: each process factors its own rows, and the processes agree
// on each pivot through the exchanges they are given.
// @precisions d -> s
#include "cpu_d.h"

#include <cblas.h>
#include <float.h>
#include <math.h>
#include <string.h>

size_t hyla_dpanel_part_work(int nprocs, int n, int ib)
{
    return (size_t)(nprocs + 1) * (3 + 2 * (size_t)n) + (size_t)ib * n;
}

// A message of column j: |candidate|, its global row (-1: none), whether
// this process holds the diagonal row, the candidate row, the diagonal
// row (the whole panel width).
enum { M_VAL, M_ROW, M_DIAG, M_HEAD };

static double *msg_row(double *m)
{
    return m + M_HEAD;
}

static double *msg_diag(double *m, int n)
{
    return m + M_HEAD + n;
}

// The local row with global number g, or NULL.
static double *local_row(const hyla_dpanel_part_t *P, int g)
{
    for (int t = 0; t < P->ntiles; t++)
        if (g >= P->r0[t] && g < P->r0[t] + P->rows[t])
            return P->tile[t] + (size_t)(g - P->r0[t]) * P->ld;
    return NULL;
}

// For each local tile t with rows numbered g or more: the first such
// row lr (local to the tile) and their count nr.
#define FOR_ROWS_FROM(P, g, t, lr, nr)                                         \
    for (int t = 0, lr, nr; t < (P)->ntiles; t++)                              \
        if ((lr = hyla_imax(0, (g) - (P)->r0[t]), nr = (P)->rows[t] - lr) > 0)

// This process's candidate for column j (rows d = row0 + j on) into msg.
static void candidate(const hyla_dpanel_part_t *P, int j, int d, double *msg)
{
    int n = P->n, best = -1;
    double v = -1.0;
    FOR_ROWS_FROM(P, d, t, lr, nr)
    {
        double *a = P->tile[t] + (size_t)lr * P->ld + j;
        int i = (int)cblas_idamax(nr, a, P->ld);
        double x = fabs(a[(size_t)i * P->ld]);
        if (x > v) { // the first of equals: rows increase
            v = x;
            best = P->r0[t] + lr + i;
        }
    }
    msg[M_VAL] = v;
    msg[M_ROW] = best;
    if (best >= 0) memcpy(msg_row(msg), local_row(P, best), sizeof(double) * n);
    double *diag = local_row(P, d);
    msg[M_DIAG] = diag != NULL;
    if (diag) memcpy(msg_diag(msg, n), diag, sizeof(double) * n);
}

// The pivot of column j among the processes' messages (the largest, the
// first row of equals, as LAPACK's idamax), and the diagonal row's.
static void pick(const double *all, int nprocs, int len, const double **won,
                 const double **diag)
{
    *won = *diag = NULL;
    for (int p = 0; p < nprocs; p++) {
        const double *m = all + (size_t)p * len;
        if (m[M_DIAG] != 0.0) *diag = m;
        if (m[M_ROW] < 0) continue;
        if (!*won || m[M_VAL] > (*won)[M_VAL] ||
            (m[M_VAL] == (*won)[M_VAL] && m[M_ROW] < (*won)[M_ROW]))
            *won = m;
    }
}

// Columns j0 .. j0+w-1 one at a time, each interchange on the whole
// width, updates within the block only.  Returns the first zero pivot's
// column + 1 (0: none), local to the panel.
static int leaf(const hyla_dpanel_part_t *P, int row0, int j0, int w, int *ipiv,
                const hyla_dpanel_comm_t *c, double *work)
{
    int n = P->n, len = M_HEAD + 2 * n, info = 0;
    double *mine = work, *all = work + len;
    for (int j = j0; j < j0 + w; j++) {
        int d = row0 + j;
        candidate(P, j, d, mine);
        c->allgather(c->ctx, mine, all, len);
        const double *won, *diag;
        pick(all, c->nprocs, len, &won, &diag);
        int g = (int)won[M_ROW];
        double pivot = msg_row((double *)won)[j];
        ipiv[j] = g + 1;
        if (pivot == 0.0) {
            if (!info) info = j + 1;
            continue; // LAPACK: no interchange, no scaling
        }
        double *rd = local_row(P, d), *rg = local_row(P, g);
        if (g != d) {
            if (rd) memcpy(rd, msg_row((double *)won), sizeof(double) * n);
            if (rg) memcpy(rg, msg_diag((double *)diag, n), sizeof(double) * n);
        }
        // L below the diagonal, and the rank-1 update inside the block.
        const double *u = msg_row((double *)won);
        FOR_ROWS_FROM(P, d + 1, t, lr, nr)
        {
            double *a = P->tile[t] + (size_t)lr * P->ld;
            if (fabs(pivot) >= DBL_MIN)
                cblas_dscal(nr, 1.0 / pivot, a + j, P->ld);
            else
                for (int r = 0; r < nr; r++)
                    a[(size_t)r * P->ld + j] /= pivot;
            int right = j0 + w - j - 1;
            if (right > 0)
                cblas_dger(CblasRowMajor, nr, right, -1.0, a + j, P->ld,
                           u + j + 1, 1, a + j + 1, P->ld);
        }
    }
    return info;
}

int hyla_cpu_dgetrf_panel_part(const hyla_dpanel_part_t *P, int row0, int npiv,
                               int ib, int *ipiv, const hyla_dpanel_comm_t *c,
                               double *work)
{
    int n = P->n, info = 0;
    double *u12 = work + (size_t)(c->nprocs + 1) * (M_HEAD + 2 * n);
    for (int j0 = 0; j0 < npiv; j0 += ib) {
        int w = hyla_imin(ib, npiv - j0), right = n - j0 - w;
        int i = leaf(P, row0, j0, w, ipiv, c, work);
        if (i && !info) info = i;
        if (right <= 0) continue;
        // U12 = L11^-1 A12 where the diagonal rows are, then everywhere
        // A22 -= L21 U12.
        double *top = local_row(P, row0 + j0);
        if (top) {
            cblas_dtrsm(CblasRowMajor, CblasLeft, CblasLower, CblasNoTrans,
                        CblasUnit, w, right, 1.0, top + j0, P->ld, top + j0 + w,
                        P->ld);
            for (int r = 0; r < w; r++)
                memcpy(u12 + (size_t)r * right,
                       top + (size_t)r * P->ld + j0 + w,
                       sizeof(double) * right);
        }
        c->bcast(c->ctx, u12, w * right);
        FOR_ROWS_FROM(P, row0 + j0 + w, t, lr, nr)
        {
            double *a = P->tile[t] + (size_t)lr * P->ld;
            cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, nr, right, w,
                        -1.0, a + j0, P->ld, u12, right, 1.0, a + j0 + w,
                        P->ld);
        }
    }
    return info;
}
