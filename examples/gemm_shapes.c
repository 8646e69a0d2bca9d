// SPDX-License-Identifier: BSD-3-Clause
// gemm-shapes: how fast cuBLAS runs the trailing update of one tile LU
// step, cut in the ways a task graph could cut it.  It decides whether
// tile GEMMs should be gathered into bigger tasks (docs/perf).
#include "csv_append.h"

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "Usage: gemm-shapes [options]\n"
    "Times, by CUDA events (best of the runs after one warm-up), the update\n"
    "of one tile column below the first tile, C_i -= A_i B for the T = n/nb\n"
    "- 1 tiles of nb x nb, done as:\n"
    "  tiles-1      T tile GEMMs one after the other on one stream\n"
    "  tiles-3      the same, round-robin on three streams\n"
    "  batched      one batched GEMM of the T tiles\n"
    "  tall         one GEMM of (T nb) x nb x nb (contiguous tiles)\n"
    "and the whole trailing update of the first step as one GEMM,\n"
    "  trailing     (n - nb) x (n - nb) x nb.\n"
    "\n"
    "Options:\n"
    "  -n N            matrix order (default 32768)\n"
    "      --nb LIST   tile orders, comma-separated (default 512,1024,2048)\n"
    "  -p, --prec P    d or s (default d)\n"
    "      --repeat R  timed runs (default 5)\n"
    "      --csv FILE  also append the results to FILE as CSV\n"
    "  -h, --help      this text\n";

enum { STREAMS = 3, FILL = 1 << 22 };

struct setup {
    cublasHandle_t h;
    cudaStream_t s[STREAMS];
    cudaDataType_t type;
    cublasComputeType_t compute;
    size_t size;                 // bytes of an element
    const void *minus_one, *one; // alpha and beta in that precision
};

// Device memory of `bytes`, filled with values in [-1, 1) (the same few
// million repeated), or NULL.
static void *device_fill(const struct setup *S, size_t bytes)
{
    static float *host_s;
    static double *host_d;
    void *d = NULL;
    if (cudaMalloc(&d, bytes)) return NULL;
    if (!host_s) {
        host_s = malloc(sizeof(float) * FILL);
        host_d = malloc(sizeof(double) * FILL);
        if (!host_s || !host_d) return NULL;
        unsigned r = 1;
        for (int i = 0; i < FILL; i++) {
            r = r * 1664525u + 1013904223u;
            host_d[i] = (double)(r >> 8) / (1 << 23) - 1.0;
            host_s[i] = (float)host_d[i];
        }
    }
    const void *src = S->size == 8 ? (void *)host_d : (void *)host_s;
    size_t chunk = S->size * FILL;
    for (size_t o = 0; o < bytes; o += chunk) {
        size_t b = bytes - o < chunk ? bytes - o : chunk;
        if (cudaMemcpy((char *)d + o, src, b, cudaMemcpyHostToDevice)) {
            cudaFree(d);
            return NULL;
        }
    }
    return d;
}

struct update {
    const struct setup *S;
    int nb, tiles;
    long trailing;   // rows and columns of the whole trailing update
    char *A, *B, *C; // tile column A (T tiles), tile B, tile column C
    void **dptr;     // device pointer arrays for the batched GEMM
    const char *way;
};

static int gemm(const struct update *u, cudaStream_t s, int m, int n,
                const void *a, const void *b, void *c, int lda)
{
    if (cublasSetStream(u->S->h, s)) return -1;
    return cublasGemmEx(u->S->h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, u->nb,
                        u->S->minus_one, a, u->S->type, lda, b, u->S->type,
                        u->nb, u->S->one, c, u->S->type, lda, u->S->compute,
                        CUBLAS_GEMM_DEFAULT) != CUBLAS_STATUS_SUCCESS;
}

static int run(const struct update *u)
{
    const struct setup *S = u->S;
    size_t tile = S->size * u->nb * u->nb;
    int nb = u->nb, T = u->tiles;
    if (!strcmp(u->way, "tiles-1") || !strcmp(u->way, "tiles-3")) {
        int k = !strcmp(u->way, "tiles-1") ? 1 : STREAMS;
        for (int i = 0; i < T; i++)
            if (gemm(u, S->s[i % k], nb, nb, u->A + i * tile, u->B,
                     u->C + i * tile, nb))
                return -1;
        return 0;
    }
    if (!strcmp(u->way, "batched")) {
        if (cublasSetStream(S->h, S->s[0])) return -1;
        return cublasGemmBatchedEx(
                   S->h, CUBLAS_OP_N, CUBLAS_OP_N, nb, nb, nb, S->minus_one,
                   (const void *const *)u->dptr, S->type, nb,
                   (const void *const *)(u->dptr + T), S->type, nb, S->one,
                   u->dptr + 2 * T, S->type, nb, T, S->compute,
                   CUBLAS_GEMM_DEFAULT) != CUBLAS_STATUS_SUCCESS;
    }
    if (!strcmp(u->way, "tall"))
        return gemm(u, S->s[0], T * nb, nb, u->A, u->B, u->C, T * nb);
    // trailing: A is (n - nb) x nb, B nb x (n - nb), C the square
    return gemm(u, S->s[0], (int)u->trailing, (int)u->trailing, u->A, u->B,
                u->C, (int)u->trailing);
}

// Best seconds of `repeat` runs after a warm-up, every stream joined.
static double best_time(const struct update *u, int repeat)
{
    cudaEvent_t e[3]; // start, end, a stream's end
    double best = -1;
    int made = 0, ok = 1;
    while (made < 3 && !cudaEventCreate(&e[made]))
        made++;
    ok = made == 3;
    for (int r = -1; r < repeat && ok; r++) {
        float ms;
        ok = !cudaDeviceSynchronize() && !cudaEventRecord(e[0], u->S->s[0]);
        for (int i = 1; i < STREAMS && ok; i++)
            ok = !cudaStreamWaitEvent(u->S->s[i], e[0], 0);
        ok = ok && !run(u);
        for (int i = 1; i < STREAMS && ok; i++)
            ok = !cudaEventRecord(e[2], u->S->s[i]) &&
                 !cudaStreamWaitEvent(u->S->s[0], e[2], 0);
        ok = ok && !cudaEventRecord(e[1], u->S->s[0]) &&
             !cudaEventSynchronize(e[1]) &&
             !cudaEventElapsedTime(&ms, e[0], e[1]);
        if (ok && r >= 0 && (best < 0 || ms / 1e3 < best)) best = ms / 1e3;
    }
    while (made > 0)
        cudaEventDestroy(e[--made]);
    return ok ? best : -1;
}

static int measure(const struct setup *S, char prec, int n, int nb, int repeat,
                   FILE *csv)
{
    static const char *const ways[] = {"tiles-1", "tiles-3", "batched", "tall",
                                       "trailing"};
    struct update u = {
        .S = S, .nb = nb, .tiles = n / nb - 1, .trailing = n - nb};
    size_t tile = S->size * nb * nb;
    int T = u.tiles, rc = 0;
    if (T < 1) return 0;
    for (int w = 0; w < 5 && !rc; w++) {
        int whole = w == 4;
        size_t col = whole ? S->size * u.trailing * nb : tile * T;
        size_t sq = whole ? S->size * u.trailing * u.trailing : tile * T;
        u.way = ways[w];
        u.A = device_fill(S, col);
        u.B = device_fill(S, whole ? col : tile);
        u.C = device_fill(S, sq);
        void *host[3 * T];
        for (int i = 0; i < T; i++) {
            host[i] = u.A + i * tile;
            host[T + i] = u.B;
            host[2 * T + i] = u.C + i * tile;
        }
        if (!u.A || !u.B || !u.C || cudaMalloc((void **)&u.dptr, sizeof host) ||
            cudaMemcpy(u.dptr, host, sizeof host, cudaMemcpyHostToDevice)) {
            rc = -1;
        } else {
            double s = best_time(&u, repeat);
            double flops =
                2.0 * nb *
                (whole ? (double)u.trailing * u.trailing : (double)T * nb * nb);
            if (s <= 0) {
                rc = -1;
            } else {
                printf("%c %6d %5d %4d  %-9s %10.4f ms %8.1f TFLOP/s\n", prec,
                       n, nb, T, u.way, s * 1e3, flops / s / 1e12);
                if (csv)
                    fprintf(csv, "%c,%d,%d,%d,%s,%.6e,%.2f\n", prec, n, nb, T,
                            u.way, s, flops / s / 1e12);
            }
        }
        cudaFree(u.A);
        cudaFree(u.B);
        cudaFree(u.C);
        cudaFree(u.dptr);
        u.dptr = NULL;
    }
    if (rc) fprintf(stderr, "gemm-shapes: a CUDA call failed (nb = %d)\n", nb);
    return rc;
}

int main(int argc, char **argv)
{
    int n = 32768, repeat = 5;
    char prec = 'd', nbs[256] = "512,1024,2048";
    const char *csv_name = NULL;
    enum { NB = 256, REPEAT, CSV };
    static const struct option opts[] = {
        {"nb", required_argument, 0, NB},
        {"prec", required_argument, 0, 'p'},
        {"repeat", required_argument, 0, REPEAT},
        {"csv", required_argument, 0, CSV},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0}};
    for (int c; (c = getopt_long(argc, argv, "n:p:h", opts, NULL)) != -1;) {
        switch (c) {
        case 'n': n = atoi(optarg); break;
        case NB: snprintf(nbs, sizeof nbs, "%s", optarg); break;
        case 'p': prec = optarg[0]; break;
        case REPEAT: repeat = atoi(optarg); break;
        case CSV: csv_name = optarg; break;
        case 'h': fputs(usage, stdout); return 0;
        default: fputs(usage, stderr); return 2;
        }
    }
    if (n < 2 || repeat < 1 || (prec != 'd' && prec != 's')) {
        fputs(usage, stderr);
        return 2;
    }
    struct setup S = {.type = prec == 'd' ? CUDA_R_64F : CUDA_R_32F,
                      .compute =
                          prec == 'd' ? CUBLAS_COMPUTE_64F : CUBLAS_COMPUTE_32F,
                      .size = prec == 'd' ? 8 : 4};
    static const double d[2] = {-1, 1};
    static const float f[2] = {-1, 1};
    S.minus_one = prec == 'd' ? (const void *)&d[0] : (const void *)&f[0];
    S.one = prec == 'd' ? (const void *)&d[1] : (const void *)&f[1];
    if (cublasCreate(&S.h)) {
        fprintf(stderr, "gemm-shapes: no GPU or no cuBLAS\n");
        return 1;
    }
    for (int i = 0; i < STREAMS; i++)
        if (cudaStreamCreate(&S.s[i])) return 1;
    FILE *csv = NULL;
    if (csv_name &&
        !(csv = csv_append(csv_name, "prec,n,nb,tiles,way,seconds,tflops")))
        return 1;
    printf("# prec n nb tiles way time rate (gemm-shapes, %d streams)\n",
           STREAMS);
    int rc = 0;
    for (char *t = strtok(nbs, ","); t && !rc; t = strtok(NULL, ","))
        rc = measure(&S, prec, n, atoi(t), repeat, csv);
    if (csv) fclose(csv);
    cublasDestroy(S.h);
    return rc ? 1 : 0;
}
