// SPDX-License-Identifier: BSD-3-Clause
// Batched routines on GPU-resident matrices: argument checks, then the
// kernels on the caller's stream.  @precisions d -> s
#include "gpu.h"
#include "runtime.h"

#include <hyla/hyla_cuda_d.h>

// The orders the GPU kernels take, 0 to HYLA_CUDA_BATCHED_MAX, as the
// host-memory routines.
static int check_order(const char *r, int n)
{
    if (n < 0 || n > HYLA_CUDA_BATCHED_MAX)
        return hyla_rt_error(-1, "%s: n = %d is not in [0, %d]", r, n,
                             HYLA_CUDA_BATCHED_MAX);
    return 0;
}

// The thread's cuBLAS handle where the order needs one (above the register
// kernels'); *h stays NULL below.
static int handle_for(const char *r, int n, cublasHandle_t *h)
{
    *h = NULL;
    if (n <= HYLA_CUDA_TINY_MAX) return 0;
    if (!(*h = hyla_cuda_thread_handle()))
        return hyla_rt_error(HYLA_ERR_CUBLAS,
                             "%s: no cuBLAS handle for the current device", r);
    return 0;
}

static int check_stride(const char *r, int pos, long long stride, int ld,
                        int n)
{
    if (stride < (long long)ld * n)
        return hyla_rt_error(-pos, "%s: stride = %lld < ld * n = %lld", r,
                             stride, (long long)ld * n);
    return 0;
}

// A device status, with a detail for the failures.
static int launched(const char *r, int rc)
{
    if (rc == HYLA_ERR_CUDA)
        return hyla_rt_error(rc, "%s: kernel launch failed", r);
    if (rc == HYLA_ERR_CUBLAS)
        return hyla_rt_error(rc, "%s: a cuBLAS call failed", r);
    if (rc == HYLA_ERR_DEVICE_MEMORY)
        return hyla_rt_error(rc, "%s: no device memory for the workspace", r);
    return rc;
}

HYLA_EXPORT int hyla_cuda_dgetrf_batched(int n, double *const *dA_array,
                                         int ldda, int *dipiv, int *dinfo,
                                         int batch, void *stream)
{
    const char *r = "hyla_cuda_dgetrf_batched";
    int rc, some = batch > 0;
    cublasHandle_t h;
    hyla_rt_error_clear();
    if ((rc = check_order(r, n)) ||
        (rc = hyla_rt_check_ptr(r, 2, "dA_array", dA_array, n * some)) ||
        (rc = hyla_rt_check_ld(r, 3, "ldda", ldda, n)) ||
        (rc = hyla_rt_check_ptr(r, 5, "dinfo", dinfo, some)) ||
        (rc = hyla_rt_check_dim(r, 6, "batch", batch)) ||
        (rc = handle_for(r, n, &h)))
        return rc;
    return launched(r, hyla_cuda_dbatch_getrf(n, dA_array, NULL, 0, ldda,
                                              dipiv, dinfo, batch, h, stream));
}

HYLA_EXPORT int hyla_cuda_dgetrf_batched_strided(int n, double *dA, int ldda,
                                                 long long strideA, int *dipiv,
                                                 int *dinfo, int batch,
                                                 void *stream)
{
    const char *r = "hyla_cuda_dgetrf_batched_strided";
    int rc, some = batch > 0;
    cublasHandle_t h;
    hyla_rt_error_clear();
    if ((rc = check_order(r, n)) ||
        (rc = hyla_rt_check_ptr(r, 2, "dA", dA, n * some)) ||
        (rc = hyla_rt_check_ld(r, 3, "ldda", ldda, n)) ||
        (rc = check_stride(r, 4, strideA, ldda, n)) ||
        (rc = hyla_rt_check_ptr(r, 6, "dinfo", dinfo, some)) ||
        (rc = hyla_rt_check_dim(r, 7, "batch", batch)) ||
        (rc = handle_for(r, n, &h)))
        return rc;
    return launched(r, hyla_cuda_dbatch_getrf(n, NULL, dA, strideA, ldda,
                                              dipiv, dinfo, batch, h, stream));
}

HYLA_EXPORT int hyla_cuda_dgetrs_batched(char trans, int n, int nrhs,
                                         double *const *dA_array, int ldda,
                                         const int *dipiv,
                                         double *const *dB_array, int lddb,
                                         int batch, void *stream)
{
    const char *r = "hyla_cuda_dgetrs_batched";
    int rc, t, some = batch > 0 && nrhs > 0;
    hyla_rt_error_clear();
    if ((rc = hyla_rt_check_trans(r, 1, trans, &t)) ||
        (rc = hyla_rt_check_dim(r, 2, "n", n)) ||
        (rc = hyla_rt_check_dim(r, 3, "nrhs", nrhs)) ||
        (rc = hyla_rt_check_ptr(r, 4, "dA_array", dA_array, n * some)) ||
        (rc = hyla_rt_check_ld(r, 5, "ldda", ldda, n)) ||
        (rc = hyla_rt_check_ptr(r, 6, "dipiv", dipiv, n * some)) ||
        (rc = hyla_rt_check_ptr(r, 7, "dB_array", dB_array, n * some)) ||
        (rc = hyla_rt_check_ld(r, 8, "lddb", lddb, n)) ||
        (rc = hyla_rt_check_dim(r, 9, "batch", batch)))
        return rc;
    return launched(r, hyla_cuda_dbatch_getrs(t, n, nrhs, dA_array, NULL, 0,
                                              ldda, dipiv, dB_array, NULL, 0,
                                              lddb, batch, stream));
}

HYLA_EXPORT int hyla_cuda_dgetri_batched(int n, double *const *dA_array,
                                         int ldda, int *dipiv,
                                         double *const *dC_array, int lddc,
                                         int *dinfo, int batch, void *stream)
{
    const char *r = "hyla_cuda_dgetri_batched";
    int rc, some = batch > 0;
    cublasHandle_t h;
    hyla_rt_error_clear();
    if ((rc = check_order(r, n)) ||
        (rc = hyla_rt_check_ptr(r, 2, "dA_array", dA_array, n * some)) ||
        (rc = hyla_rt_check_ld(r, 3, "ldda", ldda, n)) ||
        (rc = hyla_rt_check_ptr(r, 5, "dC_array", dC_array, n * some)) ||
        (rc = hyla_rt_check_ld(r, 6, "lddc", lddc, n)) ||
        (rc = hyla_rt_check_ptr(r, 7, "dinfo", dinfo, some)) ||
        (rc = hyla_rt_check_dim(r, 8, "batch", batch)) ||
        (rc = handle_for(r, n, &h)))
        return rc;
    return launched(r, hyla_cuda_dbatch_getri(n, dA_array, NULL, 0, ldda,
                                              dC_array, NULL, 0, lddc, dipiv,
                                              dinfo, batch, h, stream));
}

HYLA_EXPORT int hyla_cuda_dgetri_batched_strided(
    int n, double *dA, int ldda, long long strideA, int *dipiv, double *dC,
    int lddc, long long strideC, int *dinfo, int batch, void *stream)
{
    const char *r = "hyla_cuda_dgetri_batched_strided";
    int rc, some = batch > 0;
    cublasHandle_t h;
    hyla_rt_error_clear();
    if ((rc = check_order(r, n)) ||
        (rc = hyla_rt_check_ptr(r, 2, "dA", dA, n * some)) ||
        (rc = hyla_rt_check_ld(r, 3, "ldda", ldda, n)) ||
        (rc = check_stride(r, 4, strideA, ldda, n)) ||
        (rc = hyla_rt_check_ptr(r, 6, "dC", dC, n * some)) ||
        (rc = hyla_rt_check_ld(r, 7, "lddc", lddc, n)) ||
        (rc = check_stride(r, 8, strideC, lddc, n)) ||
        (rc = hyla_rt_check_ptr(r, 9, "dinfo", dinfo, some)) ||
        (rc = hyla_rt_check_dim(r, 10, "batch", batch)) ||
        (rc = handle_for(r, n, &h)))
        return rc;
    return launched(r, hyla_cuda_dbatch_getri(n, NULL, dA, strideA, ldda, NULL,
                                              dC, strideC, lddc, dipiv, dinfo,
                                              batch, h, stream));
}
