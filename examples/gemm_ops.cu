// SPDX-License-Identifier: BSD-3-Clause
// gemm-ops: how fast cuBLAS runs one tile product by the transposes it is
// asked for, and the tile SYRK, on one and on three streams.  The
// Cholesky's updates on row-major tiles (C -= A B^T) reach cuBLAS as its
// `tn` product, the LU's (C -= A B) as `nn` (docs/perf).
//
//   gemm-ops [NB]     tile order (default 2048)
//
// Each case: 15 products of NB x NB tiles (into 15 different C tiles),
// round-robin on the streams, timed by CUDA events from the first stream
// joined by the others; best of the last 3 of 4 runs.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv)
{
    int nb = argc > 1 ? atoi(argv[1]) : 2048, T = 15, S = 3;
    if (nb <= 0) {
        fprintf(stderr, "usage: gemm-ops [NB]\n");
        return 2;
    }
    size_t sz = (size_t)nb * nb;
    double *buf;
    if (cudaMalloc(&buf, sizeof(double) * sz * (2 * T + 2))) {
        fprintf(stderr, "gemm-ops: no GPU memory for %d tiles\n", 2 * T + 2);
        return 1;
    }
    std::vector<double> h(sz);
    for (size_t i = 0; i < sz; i++)
        h[i] = (double)((i * 2654435761u) % 1000) / 1000.0 - 0.5;
    for (int t = 0; t < 2 * T + 2; t++)
        cudaMemcpy(buf + t * sz, h.data(), sz * 8, cudaMemcpyHostToDevice);
    cublasHandle_t hd[3];
    cudaStream_t st[3];
    for (int s = 0; s < S; s++) {
        cudaStreamCreate(&st[s]);
        cublasCreate(&hd[s]);
        cublasSetStream(hd[s], st[s]);
    }
    double m1 = -1, one = 1;
    cudaEvent_t a, b, join[3];
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    for (int s = 0; s < S; s++)
        cudaEventCreate(&join[s]);
    const char *names[] = {"gemm nn",  "gemm tn",  "gemm nt",  "gemm tt",
                           "syrk L N", "syrk L T", "syrk U N", "syrk U T"};
    for (int k = 0; k < 8; k++) {
        for (int ns = 1; ns <= 3; ns += 2) {
            float best = 1e9;
            for (int rep = 0; rep < 4; rep++) {
                cudaDeviceSynchronize();
                cudaEventRecord(a, st[0]);
                for (int s = 1; s < ns; s++)
                    cudaStreamWaitEvent(st[s], a);
                for (int t = 0; t < T; t++) {
                    int s = t % ns;
                    double *A = buf + (2 * t + 2) * sz, *B = buf + sz,
                           *C = buf + (2 * t + 3) * sz;
                    if (k < 4)
                        cublasDgemm(hd[s], (k & 1) ? CUBLAS_OP_T : CUBLAS_OP_N,
                                    (k & 2) ? CUBLAS_OP_T : CUBLAS_OP_N, nb, nb,
                                    nb, &m1, A, nb, B, nb, &one, C, nb);
                    else
                        cublasDsyrk(hd[s],
                                    k < 6 ? CUBLAS_FILL_MODE_LOWER
                                          : CUBLAS_FILL_MODE_UPPER,
                                    (k & 1) ? CUBLAS_OP_T : CUBLAS_OP_N, nb, nb,
                                    &m1, A, nb, &one, C, nb);
                }
                for (int s = 1; s < ns; s++) {
                    cudaEventRecord(join[s], st[s]);
                    cudaStreamWaitEvent(st[0], join[s]);
                }
                cudaEventRecord(b, st[0]);
                cudaEventSynchronize(b);
                float ms;
                cudaEventElapsedTime(&ms, a, b);
                if (rep && ms < best) best = ms;
            }
            double fl = (k < 4 ? 2.0 : 1.0) * nb * (double)nb * nb * T;
            printf("%-9s nb %d streams %d: %.3f ms per op, %.1f TFLOP/s\n",
                   names[k], nb, ns, best / T, fl / best / 1e9);
        }
    }
    return cudaGetLastError() != cudaSuccess;
}
