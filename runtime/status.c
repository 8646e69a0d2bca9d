// SPDX-License-Identifier: BSD-3-Clause
// Status strings, per-thread error details and shared argument checks.
#include "runtime.h"

#include <stdarg.h>
#include <stdio.h>

static _Thread_local char detail[256];

HYLA_EXPORT const char *hyla_strerror(int status)
{
    switch (status) {
#define HYLA_X(name, value, text)                                              \
    case value: return text;
        HYLA_STATUS_MAP(HYLA_X)
#undef HYLA_X
    }
    if (status < 0 && status > -100)
        return "an argument has an illegal value (its position is -status)";
    if (status > 0) return "numerical failure: see the routine's info (> 0)";
    return "unknown status";
}

HYLA_EXPORT const char *hyla_error_detail(void)
{
    return detail;
}

int hyla_rt_error(int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    return status;
}

void hyla_rt_error_clear(void)
{
    detail[0] = '\0';
}

int hyla_rt_check_init(const char *routine)
{
    hyla_rt_error_clear();
    if (!hyla_rt_initialized())
        return hyla_rt_error(HYLA_ERR_NOT_INITIALIZED,
                             "%s: hyla is not initialized", routine);
    return 0;
}

int hyla_rt_check_desc(const char *routine, int pos, const hyla_desc_t *A,
                       hyla_dtype_t dtype)
{
    int rc = hyla_rt_check_desc_any(routine, pos, A, dtype);
    if (rc) return rc;
    if (A->dist)
        return hyla_rt_error(HYLA_ERR_NOT_SUPPORTED,
                             "%s: argument %d is distributed over processes; "
                             "this routine works on one process's matrices",
                             routine, pos);
    return 0;
}

int hyla_rt_check_desc_any(const char *routine, int pos, const hyla_desc_t *A,
                           hyla_dtype_t dtype)
{
    if (!A) return hyla_rt_error(-pos, "%s: argument %d is NULL", routine, pos);
    if (A->dtype != dtype)
        return hyla_rt_error(
            -pos, "%s: argument %d holds %s, the routine needs %s", routine,
            pos, A->dtype == HYLA_DOUBLE ? "double" : "float",
            dtype == HYLA_DOUBLE ? "double" : "float");
    return 0;
}

int hyla_rt_check_uplo(const char *routine, int pos, char uplo, int *flag)
{
    if (uplo == 'L' || uplo == 'l')
        *flag = HYLA_LOWER;
    else if (uplo == 'U' || uplo == 'u')
        *flag = HYLA_UPPER;
    else
        return hyla_rt_error(-pos, "%s: uplo = '%c' is not 'L' or 'U'", routine,
                             uplo);
    return 0;
}

int hyla_rt_check_trans(const char *routine, int pos, char trans, int *flag)
{
    if (trans == 'N' || trans == 'n')
        *flag = HYLA_NO_TRANS;
    else if (trans == 'T' || trans == 't' || trans == 'C' || trans == 'c')
        *flag = HYLA_TRANS; // real matrices: A^H = A^T
    else
        return hyla_rt_error(-pos, "%s: trans = '%c' is not 'N', 'T' or 'C'",
                             routine, trans);
    return 0;
}

int hyla_rt_check_dim(const char *routine, int pos, const char *name, int v)
{
    if (v < 0) return hyla_rt_error(-pos, "%s: %s = %d < 0", routine, name, v);
    return 0;
}

int hyla_rt_check_ld(const char *routine, int pos, const char *name, int ld,
                     int rows)
{
    int need = rows > 1 ? rows : 1;
    if (ld < need)
        return hyla_rt_error(-pos, "%s: %s = %d < max(1, %d)", routine, name,
                             ld, rows);
    return 0;
}

int hyla_rt_check_gesv(const char *routine, int n, int nrhs, const void *A,
                       int lda, const int *ipiv, const void *B, int ldb)
{
    int rc;
    if ((rc = hyla_rt_check_init(routine)) ||
        (rc = hyla_rt_check_dim(routine, 1, "n", n)) ||
        (rc = hyla_rt_check_dim(routine, 2, "nrhs", nrhs)) ||
        (rc = hyla_rt_check_ptr(routine, 3, "A", A, n)) ||
        (rc = hyla_rt_check_ld(routine, 4, "lda", lda, n)) ||
        (rc = hyla_rt_check_ptr(routine, 5, "ipiv", ipiv, n)) ||
        (rc = hyla_rt_check_ptr(routine, 6, "B", B, n && nrhs)) ||
        (rc = hyla_rt_check_ld(routine, 7, "ldb", ldb, n)))
        return rc;
    return 0;
}

int hyla_rt_check_ptr(const char *routine, int pos, const char *name,
                      const void *p, int needed)
{
    if (!p && needed)
        return hyla_rt_error(-pos, "%s: %s is NULL", routine, name);
    return 0;
}

int hyla_rt_check_ipiv(const char *routine, int pos, const int *ipiv, int n)
{
    if (!ipiv && n > 0) return hyla_rt_error(-pos, "%s: ipiv is NULL", routine);
    for (int i = 0; i < n; i++)
        if (ipiv[i] < i + 1 || ipiv[i] > n)
            return hyla_rt_error(-pos,
                                 "%s: ipiv[%d] = %d is not a getrf pivot "
                                 "(in [%d, %d])",
                                 routine, i, ipiv[i], i + 1, n);
    return 0;
}

int hyla_rt_check_rhs(const char *routine, int posA, const hyla_desc_t *A,
                      int posB, const hyla_desc_t *B)
{
    if (A->m != A->n)
        return hyla_rt_error(-posA, "%s: A is %d x %d, not square", routine,
                             A->m, A->n);
    if (B->m != A->n || B->nb != A->nb)
        return hyla_rt_error(-posB,
                             "%s: B is %d x %d in tiles of %d; A is %d x %d "
                             "in tiles of %d",
                             routine, B->m, B->n, B->nb, A->m, A->n, A->nb);
    if (B->dist != A->dist || (A->dist && (B->p != A->p || B->q != A->q)))
        return hyla_rt_error(-posB,
                             "%s: B is not distributed as A (A: %s %d x %d, "
                             "B: %s %d x %d process grid)",
                             routine, A->dist ? "a" : "no", A->p, A->q,
                             B->dist ? "a" : "no", B->p, B->q);
    return 0;
}

int hyla_rt_check_agree(const char *routine, const hyla_desc_t *A, int rc)
{
    if (!A || !A->dist) return rc;
    int all = hyla_rt_mpi_reduce(rc, 0);
    if (all && !rc)
        hyla_rt_error(all, "%s: another process's arguments are invalid",
                      routine);
    return all;
}
