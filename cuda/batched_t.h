// SPDX-License-Identifier: BSD-3-Clause
// What the batched kernels share: the matrices of a batch, LAPACK's pivot
// rules, and the orders above the register kernels' (column-major
// matrices, as LAPACK and cuBLAS's batched routines store them).
#ifndef HYLA_CUDA_BATCHED_T_H
#define HYLA_CUDA_BATCHED_T_H

#include <cfloat>
#include <cublas_v2.h>
#include <cuda_runtime.h>

namespace hyla
{

// Matrix i of a batch: from an array of pointers, or at a stride (one
// type for both forms, so that each kernel is instantiated once).
template <typename T> struct mats {
    T *const *array; // NULL: base + i * stride
    T *base;
    long long stride;
    __device__ T *operator()(long long i) const
    {
        return array ? array[i] : base + i * stride;
    }
};

// The smallest normal number (LAPACK's sfmin).
template <typename T> __device__ inline T sfmin();
template <> __device__ inline double sfmin<double>() { return DBL_MIN; }
template <> __device__ inline float sfmin<float>() { return FLT_MIN; }

// a / b, for LAPACK's division by a pivot below sfmin: out of line, so
// that the fully unrolled kernels do not carry its code at every step
// (the order-26 single LU kernel: 2752 -> 2528 instructions, 1-3 %
// faster at most orders, H200).
template <typename T> __device__ __noinline__ T divide(T a, T b)
{
    return a / b;
}

template <typename T> __device__ inline T magnitude(T x)
{
    // NaN ranks above everything, so that every thread agrees on the
    // largest (a NaN pivot then spreads, as in LAPACK).
    return x != x ? T(INFINITY) : fabs(x);
}

// A pivot candidate as an unsigned integer that orders as |x| does: the
// bits of a non-negative float or double, plus one; 0 for "none" (a row
// that is already a pivot).  The warp's integer reductions then find the
// largest without a butterfly of shuffles, whose levels wait on each
// other.
template <typename T> struct pivot_key;
template <> struct pivot_key<double> {
    using type = unsigned long long;
    __device__ static type of(bool none, double v)
    {
        return none ? 0ull : (type)__double_as_longlong(v) + 1;
    }
};
template <> struct pivot_key<float> {
    using type = unsigned;
    __device__ static type of(bool none, float v)
    {
        return none ? 0u : (unsigned)__float_as_int(v) + 1;
    }
};

// The largest key over the lanes `live` of the warp (all of them run it).
__device__ inline unsigned warp_max(unsigned key, unsigned live = 0xffffffffu)
{
    return __reduce_max_sync(live, key);
}

__device__ inline unsigned long long warp_max(unsigned long long key,
                                              unsigned live = 0xffffffffu)
{
    unsigned hi = (unsigned)(key >> 32), lo = (unsigned)key;
    unsigned mh = __reduce_max_sync(live, hi);
    unsigned ml = __reduce_max_sync(live, hi == mh ? lo : 0u);
    return (unsigned long long)mh << 32 | ml;
}

// The smallest pos among the lanes of the warp whose key is best (ties go
// to the first position, as idamax).
template <typename K> __device__ inline int warp_first(K key, K best, int pos)
{
    return (int)__reduce_min_sync(0xffffffffu,
                                  key == best ? (unsigned)pos : ~0u);
}

// Orders 33 to HYLA_CUDA_BATCHED_MAX: blocked LU on the caller's stream,
// GEMMs through cuBLAS handle h (set to that stream), and the inverse by
// LU and triangular solves (cuda/getrf_batched_large.cu).
template <typename T>
int getrf_large(int n, mats<T> A, int lda, int *ipiv, int *info, int batch,
                cublasHandle_t h, cudaStream_t s);
template <typename T>
int getri_large(int n, mats<T> A, int lda, mats<T> C, int ldc, int *ipiv,
                int *info, int batch, cublasHandle_t h, cudaStream_t s);

} // namespace hyla

#endif // HYLA_CUDA_BATCHED_T_H
