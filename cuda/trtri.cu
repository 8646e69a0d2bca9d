// SPDX-License-Identifier: BSD-3-Clause
// Inverse of a triangular tile on the GPU, out of place: every diagonal
// leaf block inverted at once by one kernel, then the levels joined from
// the leaves up, two batched GEMMs a level.
#include "blas_t.h"
#include "gpu.h"
#include "gpu_check.h"

namespace
{

using hyla::blas;

constexpr int leaf_n = 64;

// Column-major view of the row-major tiles (the same memory): a row-major
// lower L is a column-major upper U = L^T, and inv(L) row-major is inv(U)
// column-major.  `upper` below is the column-major triangle.
//
// One thread block per leaf: block b inverts the diagonal block at rows
// and columns b*leaf_n .. of A into W, zeroing the other triangle of W's
// block.  In shared memory the block is held as an upper triangle (the
// transpose when lower).  Column j of the inverse Y:
// Y(j, j) = 1 / U(j, j), Y(i, j) = -Y(j, j) * sum_{i <= k < j} Y(i, k) U(k, j),
// from the columns before it.
template <typename T, bool upper>
__global__ void trtri_leaf_kernel(const T *A, int lda, T *W, int ldw, int n,
                                  bool unit)
{
    __shared__ T s[leaf_n][leaf_n + 1]; // s[r][c], r <= c
    int off = blockIdx.x * leaf_n, nl = min(leaf_n, n - off);
    const T *a = A + off + (size_t)off * lda;
    T *w = W + off + (size_t)off * ldw;
    int t = threadIdx.x;
    for (int r = 0; r < nl; r++)
        if (t < nl && r <= t)
            s[r][t] = unit && r == t ? T(1)
                      : upper        ? a[r + (size_t)t * lda]
                                     : a[t + (size_t)r * lda];
    __syncthreads();
    for (int j = 0; j < nl; j++) {
        T yjj = T(1) / s[j][j];
        T acc = 0;
        if (t < j)
            for (int k = t; k < j; k++)
                acc += s[t][k] * s[k][j];
        __syncthreads(); // every read of column j before any write
        if (t < j) s[t][j] = -acc * yjj;
        if (t == j) s[j][j] = yjj;
        __syncthreads();
    }
    if (t < nl)
        for (int r = 0; r < nl; r++) {
            T v = r <= t ? s[r][t] : T(0);
            // upper: w(r, t) = Y(r, t); lower: w(t, r) = Y(r, t) (transpose)
            if (upper)
                w[r + (size_t)t * ldw] = v;
            else
                w[t + (size_t)r * ldw] = v;
        }
}

// Zeroes the middle products of one level (below): node b's block of
// rows x cols at W + b * stride, blockIdx.y the node.
template <typename T>
__global__ void zero_kernel(T *W, int ldw, int rows, int cols, long long stride)
{
    T *w = W + blockIdx.y * stride;
    for (int e = blockIdx.x * blockDim.x + threadIdx.x; e < rows * cols;
         e += gridDim.x * blockDim.x)
        w[e % rows + (size_t)(e / rows) * ldw] = T(0);
}

// Joins `count` nodes at a stride (both matrices), each two inverted
// diagonal blocks of orders n1 and n2 of the column-major triangle:
//   upper: Y12 = -Y11 U12 Y22,  lower: Y21 = -Y22 L21 Y11.
// The off-diagonal block of W on the zero side holds the middle product
// (transposed) until it is cleared.
template <typename T, bool upper>
int join(cublasHandle_t h, cudaStream_t stream, const T *A, int lda, T *W,
         int ldw, int n1, int n2, long long sa, long long sw, int count)
{
    const T one = 1, zero = 0, minus_one = -1;
    T *W11 = W, *W22 = W + n1 + (size_t)n1 * ldw;
    T *W12 = W + (size_t)n1 * ldw, *W21 = W + n1;
    // Upper: W21 = (U12 Y22)^T = Y22^T U12^T, then Y12 = -Y11 W21^T.
    // Lower: W12 = (L21 Y11)^T = Y11^T L21^T, then Y21 = -Y22 W12^T.
    // The same two products: by the inverse `in` next to the
    // off-diagonal block (order ni) into tmp, then by the other, `out`
    // (order no), into the inverse's off-diagonal block.
    const T *off = upper ? A + (size_t)n1 * lda : A + n1;
    T *in = upper ? W22 : W11, *out = upper ? W11 : W22;
    T *tmp = upper ? W21 : W12, *Y = upper ? W12 : W21;
    int ni = upper ? n2 : n1, no = upper ? n1 : n2;
    HYLA_CUBLAS_CHECK(blas<T>::gemm_strided(h, CUBLAS_OP_T, CUBLAS_OP_T, ni, no,
                                            ni, &one, in, ldw, sw, off, lda, sa,
                                            &zero, tmp, ldw, sw, count));
    HYLA_CUBLAS_CHECK(blas<T>::gemm_strided(h, CUBLAS_OP_N, CUBLAS_OP_T, no, ni,
                                            no, &minus_one, out, ldw, sw, tmp,
                                            ldw, sw, &zero, Y, ldw, sw, count));
    int blocks = (ni * no + 255) / 256; // tmp is ni-by-no
    zero_kernel<T><<<dim3(blocks < 64 ? blocks : 64, count), 256, 0, stream>>>(
        tmp, ldw, ni, no, sw);
    HYLA_CUDA_CHECK(cudaGetLastError());
    return 0;
}

// Joins the inverted leaves level by level, each level's nodes in one
// batch: nodes of 2 s columns from s = leaf_n up, the last one shorter
// where n is no multiple of 2 s (then a call of its own).  Depth first,
// node by node, a 1024 triangle took 45 launches (0.49 ms on an H100);
// by levels, 12.
template <typename T, bool upper>
int join_levels(cublasHandle_t h, cudaStream_t stream, const T *A, int lda,
                T *W, int ldw, int n)
{
    for (long long s = leaf_n; s < n; s *= 2) {
        long long sa = 2 * s * (lda + 1), sw = 2 * s * (ldw + 1);
        int full = (int)(n / (2 * s)), tail = (int)(n % (2 * s) - s);
        int rc = full ? join<T, upper>(h, stream, A, lda, W, ldw, (int)s,
                                       (int)s, sa, sw, full)
                      : 0;
        if (!rc && tail > 0)
            rc = join<T, upper>(h, stream, A + full * sa, lda, W + full * sw,
                                ldw, (int)s, tail, sa, sw, 1);
        if (rc) return rc;
    }
    return 0;
}

template <typename T>
int trtri(cublasHandle_t h, int uplo, int diag, int n, const T *dA, int ldda,
          T *dW, int lddw)
{
    cudaStream_t stream;
    HYLA_CUBLAS_CHECK(cublasGetStream(h, &stream));
    if (n <= 0) return 0;
    int leaves = (n + leaf_n - 1) / leaf_n;
    bool unit = diag == HYLA_UNIT;
    // A row-major lower triangle is the column-major upper one.
    if (uplo == HYLA_LOWER)
        trtri_leaf_kernel<T, true>
            <<<leaves, leaf_n, 0, stream>>>(dA, ldda, dW, lddw, n, unit);
    else
        trtri_leaf_kernel<T, false>
            <<<leaves, leaf_n, 0, stream>>>(dA, ldda, dW, lddw, n, unit);
    HYLA_CUDA_CHECK(cudaGetLastError());
    return uplo == HYLA_LOWER
               ? join_levels<T, true>(h, stream, dA, ldda, dW, lddw, n)
               : join_levels<T, false>(h, stream, dA, ldda, dW, lddw, n);
}

} // namespace

extern "C" int hyla_cuda_dtrtri(cublasHandle_t handle, int uplo, int diag,
                                int n, const double *dA, int ldda, double *dW,
                                int lddw)
{
    return trtri(handle, uplo, diag, n, dA, ldda, dW, lddw);
}

extern "C" int hyla_cuda_strtri(cublasHandle_t handle, int uplo, int diag,
                                int n, const float *dA, int ldda, float *dW,
                                int lddw)
{
    return trtri(handle, uplo, diag, n, dA, ldda, dW, lddw);
}
