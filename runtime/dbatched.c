// SPDX-License-Identifier: BSD-3-Clause
// Batched LU, solve and inverse of small matrices in host memory: entry
// points.  @precisions d -> s
//
// The matrices travel in rounds of at most ROUND_ELEMS elements, packed one
// after the other (unless the caller's layout is packed already), each
// round cut into chunks that are tasks: CPU workers run LAPACK matrix by
// matrix, GPU workers the batched kernels, as the scheduler places them.
#include "tasks_d.h"

#include <stdlib.h>
#include <string.h>

enum { MAX_ORDER = 512 };
// Elements of the matrices of one round, and chunks per worker.
#define ROUND_ELEMS ((size_t)1 << 25)
enum { CHUNKS_PER_WORKER = 4 };

enum op { GETRF, GETRI, GETRS };

// The matrices of a call: array[i], or base + i*stride; rows-by-cols,
// leading dimension ld.
typedef struct dmats {
    double *const *array;
    double *base;
    long long stride;
    int ld, rows, cols;
} dmats_t;

static double *dmat(const dmats_t *M, long long i)
{
    return M->array ? M->array[i] : M->base + i * M->stride;
}

// Whether the matrices already lie one after the other, unpadded.
static int dpacked(const dmats_t *M)
{
    return !M->array && M->ld == M->rows &&
           M->stride == (long long)M->rows * M->cols;
}

static size_t dsize(const dmats_t *M)
{
    return (size_t)M->rows * M->cols;
}

// Matrices first .. first+count-1 into buf, or out of it (only those
// whose info is 0, where info is not NULL).
static void dpack(const dmats_t *M, long long first, int count, double *buf)
{
    size_t e = dsize(M);
    for (int i = 0; i < count; i++)
        for (int j = 0; j < M->cols; j++)
            memcpy(buf + i * e + (size_t)j * M->rows,
                   dmat(M, first + i) + (size_t)j * M->ld,
                   sizeof(double) * (size_t)M->rows);
}

static void dunpack(const dmats_t *M, long long first, int count,
                    const double *buf, const int *info)
{
    size_t e = dsize(M);
    for (int i = 0; i < count; i++)
        if (!info || info[i] == 0)
            for (int j = 0; j < M->cols; j++)
                memcpy(dmat(M, first + i) + (size_t)j * M->ld,
                       buf + i * e + (size_t)j * M->rows,
                       sizeof(double) * (size_t)M->rows);
}

// One call: A (every op), B (getrs: the right-hand sides; getri: the
// inverses), ipiv (batch*n), info (getrf, getri).
struct dcall {
    const char *routine;
    enum op op;
    int n, nrhs, trans;
    dmats_t A, B;
    int *ipiv, *info;
    int batch;
};

// A round's view of one set of matrices: the caller's memory when packed,
// else a staging copy.
struct dstage {
    double *buf;
    size_t bytes;
    int own;
};

static int stage_begin(struct dstage *s, const dmats_t *M, long long first,
                       int count, int copy_in)
{
    s->bytes = sizeof(double) * dsize(M) * (size_t)count;
    s->own = !dpacked(M);
    if (!s->own) {
        s->buf = M->base + first * M->stride;
        return 0;
    }
    s->buf = hyla_rt_staging_alloc(s->bytes);
    if (!s->buf) return HYLA_ERR_OUT_OF_MEMORY;
    if (copy_in) dpack(M, first, count, s->buf);
    return 0;
}

static void stage_end(struct dstage *s, const dmats_t *M, long long first,
                      int count, int copy_out, const int *info)
{
    if (!s->own) return;
    if (copy_out) dunpack(M, first, count, s->buf, info);
    hyla_rt_staging_free(s->buf, s->bytes);
}

// Matrices first .. first+count-1 of call c as tasks, and wait for them.
static int round_run(const struct dcall *c, long long first, int count,
                     int *ipiv_tmp)
{
    int n = c->n, out_b = c->op != GETRF;
    struct dstage A, B = {0};
    int rc = stage_begin(&A, &c->A, first, count, 1);
    if (rc) return rc;
    if (out_b) rc = stage_begin(&B, &c->B, first, count, c->op == GETRS);
    if (rc) {
        stage_end(&A, &c->A, first, count, 0, NULL);
        return rc;
    }
    int *ipiv = (c->ipiv ? c->ipiv : ipiv_tmp) + first * n;
    int *info = c->info ? c->info + first : NULL;

    int nchunks = CHUNKS_PER_WORKER * hyla_rt_workers();
    if (nchunks > count) nchunks = count;
    int per = (count + nchunks - 1) / nchunks;
    nchunks = (count + per - 1) / per;
    void **h = calloc((size_t)nchunks * 4, sizeof *h);
    if (!h) rc = HYLA_ERR_OUT_OF_MEMORY;

    hyla_seq_t seq;
    hyla_rt_seq_init(&seq, 0);
    hyla_task_opts_t o = hyla_task_opts(&seq);
    size_t ea = dsize(&c->A), eb = dsize(&c->B);
    for (int k = 0; !rc && k < nchunks; k++) {
        int i0 = k * per, cnt = count - i0 < per ? count - i0 : per;
        void **hk = h + 4 * k;
        hyla_rt_vector_create(&hk[0], A.buf + i0 * ea, cnt * ea,
                              sizeof(double));
        hyla_rt_vector_create(&hk[1], ipiv + (size_t)i0 * n, (size_t)cnt * n,
                              sizeof(int));
        if (info)
            hyla_rt_vector_create(&hk[2], info + i0, cnt, sizeof(int));
        if (out_b)
            hyla_rt_vector_create(&hk[3], B.buf + i0 * eb, cnt * eb,
                                  sizeof(double));
        if (c->op == GETRF)
            hyla_task_dgetrf_batched(&o, n, hk[0], hk[1], hk[2]);
        else if (c->op == GETRI)
            hyla_task_dgetri_batched(&o, n, hk[0], hk[3], hk[1], hk[2]);
        else
            hyla_task_dgetrs_batched(&o, c->trans, n, c->nrhs, hk[0], hk[1],
                                     hk[3]);
    }
    int st = hyla_rt_seq_wait(&seq);
    if (h)
        for (int k = 0; k < 4 * nchunks; k++)
            hyla_rt_vector_destroy(h[k]);
    free(h);
    if (!rc) rc = st;
    stage_end(&A, &c->A, first, count, !rc && c->op == GETRF, NULL);
    if (out_b)
        stage_end(&B, &c->B, first, count, !rc,
                  c->op == GETRI ? info : NULL);
    return rc;
}

static int dbatched_run(const struct dcall *c)
{
    if (c->batch == 0) return 0;
    if (c->n == 0) {
        if (c->info) memset(c->info, 0, sizeof(int) * (size_t)c->batch);
        return 0;
    }
    if (c->op == GETRS && c->nrhs == 0) return 0;
    size_t per = dsize(&c->A) + (c->op == GETRF ? 0 : dsize(&c->B));
    long long round = (long long)(ROUND_ELEMS / per);
    if (round < 1) round = 1;
    if (round > c->batch) round = c->batch;
    // getri's pivots, when the caller does not want them.
    int *ipiv_tmp = NULL;
    if (!c->ipiv) {
        ipiv_tmp = malloc(sizeof(int) * (size_t)c->n * (size_t)c->batch);
        if (!ipiv_tmp)
            return hyla_rt_error(HYLA_ERR_OUT_OF_MEMORY,
                                 "%s: no memory for the pivots", c->routine);
    }
    int rc = 0;
    for (long long first = 0; !rc && first < c->batch; first += round) {
        int count = (int)(c->batch - first < round ? c->batch - first : round);
        rc = round_run(c, first, count, ipiv_tmp);
    }
    free(ipiv_tmp);
    if (rc == HYLA_ERR_OUT_OF_MEMORY)
        return hyla_rt_error(rc, "%s: no memory for the staging copies",
                             c->routine);
    return rc;
}

//==== argument checks ====

static int check_order(const char *r, int pos, int n)
{
    if (n < 0 || n > MAX_ORDER)
        return hyla_rt_error(-pos, "%s: n = %d is not in [0, %d]", r, n,
                             MAX_ORDER);
    return 0;
}

// The pointer array and each of its first batch pointers.
static int check_array(const char *r, int pos, const char *name,
                       double *const *array, int n, int batch)
{
    if (n == 0 || batch == 0) return 0;
    if (!array) return hyla_rt_error(-pos, "%s: %s is NULL", r, name);
    for (int i = 0; i < batch; i++)
        if (!array[i])
            return hyla_rt_error(-pos, "%s: %s[%d] is NULL", r, name, i);
    return 0;
}

static int check_strided(const char *r, int pos, const double *A, int n,
                         long long stride, int lda, int batch)
{
    if (n == 0 || batch == 0) return 0;
    if (!A) return hyla_rt_error(-pos, "%s: A is NULL", r);
    if (stride < (long long)lda * n)
        return hyla_rt_error(-(pos + 2), "%s: strideA = %lld < lda * n = %lld",
                             r, stride, (long long)lda * n);
    return 0;
}

static int check_batch(const char *r, int pos, int batch)
{
    return hyla_rt_check_dim(r, pos, "batch", batch);
}

//==== entry points ====

HYLA_EXPORT int hyla_dgetrf_batched(int n, double *const *A_array, int lda,
                                    int *ipiv, int *info, int batch)
{
    const char *r = "hyla_dgetrf_batched";
    int rc;
    if ((rc = hyla_rt_check_init(r)) || (rc = check_order(r, 1, n)) ||
        (rc = check_batch(r, 6, batch)) ||
        (rc = check_array(r, 2, "A_array", A_array, n, batch)) ||
        (rc = hyla_rt_check_ld(r, 3, "lda", lda, n)) ||
        (rc = hyla_rt_check_ptr(r, 4, "ipiv", ipiv, n * (batch > 0))) ||
        (rc = hyla_rt_check_ptr(r, 5, "info", info, batch)))
        return rc;
    struct dcall c = {.routine = r, .op = GETRF, .n = n,
                      .A = {A_array, NULL, 0, lda, n, n},
                      .ipiv = ipiv, .info = info, .batch = batch};
    return dbatched_run(&c);
}

HYLA_EXPORT int hyla_dgetrf_batched_strided(int n, double *A, int lda,
                                            long long strideA, int *ipiv,
                                            int *info, int batch)
{
    const char *r = "hyla_dgetrf_batched_strided";
    int rc;
    if ((rc = hyla_rt_check_init(r)) || (rc = check_order(r, 1, n)) ||
        (rc = check_batch(r, 7, batch)) ||
        (rc = hyla_rt_check_ld(r, 3, "lda", lda, n)) ||
        (rc = check_strided(r, 2, A, n, strideA, lda, batch)) ||
        (rc = hyla_rt_check_ptr(r, 5, "ipiv", ipiv, n * (batch > 0))) ||
        (rc = hyla_rt_check_ptr(r, 6, "info", info, batch)))
        return rc;
    struct dcall c = {.routine = r, .op = GETRF, .n = n,
                      .A = {NULL, A, strideA, lda, n, n},
                      .ipiv = ipiv, .info = info, .batch = batch};
    return dbatched_run(&c);
}

HYLA_EXPORT int hyla_dgetrs_batched(char trans, int n, int nrhs,
                                    double *const *A_array, int lda,
                                    const int *ipiv, double *const *B_array,
                                    int ldb, int batch)
{
    const char *r = "hyla_dgetrs_batched";
    int rc, t;
    if ((rc = hyla_rt_check_init(r)) ||
        (rc = hyla_rt_check_trans(r, 1, trans, &t)) ||
        (rc = check_order(r, 2, n)) ||
        (rc = hyla_rt_check_dim(r, 3, "nrhs", nrhs)) ||
        (rc = check_batch(r, 9, batch)) ||
        (rc = check_array(r, 4, "A_array", A_array, n * (nrhs > 0), batch)) ||
        (rc = hyla_rt_check_ld(r, 5, "lda", lda, n)) ||
        (rc = hyla_rt_check_ptr(r, 6, "ipiv", ipiv,
                                n * (nrhs > 0) * (batch > 0))) ||
        (rc = check_array(r, 7, "B_array", B_array, n * (nrhs > 0), batch)) ||
        (rc = hyla_rt_check_ld(r, 8, "ldb", ldb, n)))
        return rc;
    // The pivots must be getrf's, or the solve would read past the rows.
    if (nrhs > 0)
        for (long long i = 0; i < (long long)batch * n; i++)
            if (ipiv[i] < 1 || ipiv[i] > n)
                return hyla_rt_error(-6, "%s: ipiv[%lld] = %d is not in "
                                     "[1, %d]", r, i, ipiv[i], n);
    struct dcall c = {.routine = r, .op = GETRS, .n = n, .nrhs = nrhs,
                      .trans = t, .A = {A_array, NULL, 0, lda, n, n},
                      .B = {B_array, NULL, 0, ldb, n, nrhs},
                      .ipiv = (int *)ipiv, .batch = batch};
    return dbatched_run(&c);
}

HYLA_EXPORT int hyla_dgetri_batched(int n, double *const *A_array, int lda,
                                    int *ipiv, double *const *C_array, int ldc,
                                    int *info, int batch)
{
    const char *r = "hyla_dgetri_batched";
    int rc;
    if ((rc = hyla_rt_check_init(r)) || (rc = check_order(r, 1, n)) ||
        (rc = check_batch(r, 8, batch)) ||
        (rc = check_array(r, 2, "A_array", A_array, n, batch)) ||
        (rc = hyla_rt_check_ld(r, 3, "lda", lda, n)) ||
        (rc = check_array(r, 5, "C_array", C_array, n, batch)) ||
        (rc = hyla_rt_check_ld(r, 6, "ldc", ldc, n)) ||
        (rc = hyla_rt_check_ptr(r, 7, "info", info, batch)))
        return rc;
    struct dcall c = {.routine = r, .op = GETRI, .n = n,
                      .A = {A_array, NULL, 0, lda, n, n},
                      .B = {C_array, NULL, 0, ldc, n, n},
                      .ipiv = ipiv, .info = info, .batch = batch};
    return dbatched_run(&c);
}
