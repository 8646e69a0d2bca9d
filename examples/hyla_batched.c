// SPDX-License-Identifier: BSD-3-Clause
// hyla-batched: times hyla's batched LU and inverse of small matrices
// against cuBLAS's on the same batch in GPU memory, in the same run, and
// prints both and their ratio.
#include "batched.h"
#include "csv_append.h"
#include "gpu.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "Usage: hyla-batched [options]\n"
    "Times hyla's batched routines on GPU-resident matrices against cuBLAS's\n"
    "on the same batch (pointer arrays, lda = n), by CUDA events (best of the\n"
    "runs), and checks a sample of the results on the host.\n"
    "\n"
    "Options:\n"
    "  -r, --routine LIST  getrf (against cublasXgetrfBatched), getri (the\n"
    "                      inverse, against cublasXgetrfBatched followed by\n"
    "                      cublasXgetriBatched) or getrf,getri (default)\n"
    "  -n, --n LIST        orders, comma-separated (default 2,3,...,32)\n"
    "  -b, --batch B       matrices per batch (default: 1048576 up to order\n"
    "                      32, else as many as 2^28 elements hold)\n"
    "  -p, --prec LIST     d, s or d,s (default d)\n"
    "      --threads T     threads per block of the register kernels\n"
    "                      (several matrices a block; default: by order)\n"
    "      --pad32 P       LU of orders 17-31 on the kernel of order 32: 1\n"
    "                      every order, 0 none (default)\n"
    "      --repeat R      timed runs after one warm-up (default 5)\n"
    "      --check C       matrices checked on the host (default 64)\n"
    "      --csv FILE      also write the results to FILE as CSV, appended\n"
    "  -h, --help          this text\n"
    "\n"
    "GFLOP/s count 2n^3/3 per LU and 2n^3 per inverse.  ratio = cuBLAS time\n"
    "/ hyla time (above 1: hyla is faster).  resid: the worst LAPACK residual\n"
    "of the checked matrices (||PA-LU||, ||I-A inv(A)||, scaled by n eps);\n"
    "piv: the share of them whose pivots equal cuBLAS's; info: whether every\n"
    "info equals cuBLAS's (one matrix of each batch is singular).  In the\n"
    "CSV, threads 0, block 0, streams -1 and pad32 -1 stand for the\n"
    "defaults.\n";

static int parse_list(char *s, int *out, int max)
{
    int count = 0;
    for (char *tok = strtok(s, ","); tok; tok = strtok(NULL, ",")) {
        char *end;
        long v = strtol(tok, &end, 10);
        if (*end || v < 1 || v > 512 || count == max) return -1;
        out[count++] = (int)v;
    }
    return count;
}

int main(int argc, char **argv)
{
    enum { REPEAT = 256, CSV, THREADS, CHECK, BLOCK, STREAMS, STRIDED, PAD };
    static const struct option longs[] = {
        {"routine", required_argument, 0, 'r'},
        {"n", required_argument, 0, 'n'},
        {"batch", required_argument, 0, 'b'},
        {"prec", required_argument, 0, 'p'},
        {"threads", required_argument, 0, THREADS},
        {"block", required_argument, 0, BLOCK},
        {"streams", required_argument, 0, STREAMS},
        {"strided", no_argument, 0, STRIDED},
        {"pad32", required_argument, 0, PAD},
        {"repeat", required_argument, 0, REPEAT},
        {"check", required_argument, 0, CHECK},
        {"csv", required_argument, 0, CSV},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0}};
    char sizes[] = "2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,"
                   "23,24,25,26,27,28,29,30,31,32";
    char *size_arg = sizes, *precs = "d", *routines = "getrf,getri";
    const char *csv_name = NULL;
    int repeat = 5, batch = 0, threads = 0, check = 64, c;
    int block = 0, streams = -1, strided = 0, pad = -1;
    while ((c = getopt_long(argc, argv, "r:n:b:p:h", longs, NULL)) != -1) {
        switch (c) {
        case 'r': routines = optarg; break;
        case 'n': size_arg = optarg; break;
        case 'b': batch = atoi(optarg); break;
        case 'p': precs = optarg; break;
        case THREADS: threads = atoi(optarg); break;
        case BLOCK: block = atoi(optarg); break;
        case STREAMS: streams = atoi(optarg); break;
        case STRIDED: strided = 1; break;
        case PAD: pad = atoi(optarg); break;
        case REPEAT: repeat = atoi(optarg); break;
        case CHECK: check = atoi(optarg); break;
        case CSV: csv_name = optarg; break;
        case 'h': fputs(usage, stdout); return 0;
        default: fputs(usage, stderr); return 2;
        }
    }
    int ns[512], count = parse_list(size_arg, ns, 512);
    int do_getrf = strstr(routines, "getrf") != NULL;
    int do_getri = strstr(routines, "getri") != NULL;
    if (optind != argc || count <= 0 || repeat < 1 || batch < 0 ||
        threads < 0 || threads > 1024 || check < 0 || (!do_getrf && !do_getri) ||
        (block && block != 32 && block != 64 && block != 128) ||
        streams < -1 || streams > 8 || pad < -1 || pad > 1 ||
        (strcmp(precs, "d") && strcmp(precs, "s") && strcmp(precs, "d,s"))) {
        fprintf(stderr, "hyla-batched: bad arguments\n%s", usage);
        return 2;
    }
    FILE *csv = NULL;
    if (csv_name &&
        !(csv = csv_append(csv_name,
                           "routine,prec,n,batch,threads,hyla_s,hyla_gflops,"
                           "ref,ref_s,ref_gflops,ratio,resid,piv_same,"
                           "info_same,block,streams,strided,pad32")))
        return 1;
    hyla_cuda_batched_large_tune(block, streams);
    hyla_cuda_batched_pad_tune(pad);
    printf("routine prec   n   batch     hyla_s  GFLOP/s |      ref_s  "
           "GFLOP/s |  ratio    resid   piv info\n");
    int failed = 0;
    for (const char *p = precs; *p; p++) {
        if (*p == ',') continue;
        for (int getri = 0; getri < 2; getri++) {
            if (getri ? !do_getri : !do_getrf) continue;
            for (int i = 0; i < count; i++) {
                int n = ns[i];
                int b = batch ? batch
                        : n <= 32 ? 1 << 20
                                  : (int)((1 << 28) / ((long long)n * n));
                for (int k = 1; k <= HYLA_CUDA_TINY_MAX; k++)
                    hyla_cuda_batched_tune(k, threads);
                batched_result_t r = {0};
                int (*run)(int, int, int, int, int, batched_result_t *) =
                    getri ? (*p == 's' ? batched_sgetri : batched_dgetri)
                          : (*p == 's' ? batched_sgetrf : batched_dgetrf);
                if (run(n, b, repeat, check, strided, &r)) {
                    failed = 1;
                    continue;
                }
                double flops = (getri ? 2.0 : 2.0 / 3.0) * n * n * n * b;
                double gh = flops / r.hyla_s * 1e-9, gr = flops / r.ref_s * 1e-9;
                const char *name = getri ? "getri" : "getrf";
                printf("%-7s %c %5d %7d %10.6f %8.1f | %10.6f %8.1f | %6.2f "
                       "%8.2e %5.2f %s\n",
                       name, *p, n, b, r.hyla_s, gh, r.ref_s, gr,
                       r.ref_s / r.hyla_s, r.resid, r.piv_same,
                       r.info_same ? "same" : "DIFF");
                fflush(stdout);
                if (csv)
                    fprintf(csv, "%s,%c,%d,%d,%d,%.6e,%.2f,%s,%.6e,%.2f,%.4f,"
                                 "%.3e,%.3f,%d,%d,%d,%d,%d\n",
                            name, *p, n, b, threads, r.hyla_s,
                            gh, getri ? "cublas getrf+getri" : "cublas getrf",
                            r.ref_s, gr, r.ref_s / r.hyla_s, r.resid,
                            r.piv_same, r.info_same, block, streams, strided,
                            pad);
                failed |= !r.info_same || !(r.resid <= 60.0);
            }
        }
    }
    if (csv) fclose(csv);
    return failed;
}
