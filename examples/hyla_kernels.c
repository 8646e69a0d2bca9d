// SPDX-License-Identifier: BSD-3-Clause
// hyla-kernels: times one of hyla's GPU kernels against cuSOLVER on the
// same matrix in GPU memory, in the same run, and prints both and their
// ratio.
#include "csv_append.h"
#include "kernels.h"
#include "gpu.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "Usage: hyla-kernels KERNEL [options]\n"
    "Times one GPU kernel of hyla against cuSOLVER or cuBLAS on the same\n"
    "matrix, both with the data in GPU memory, by CUDA events (best of the\n"
    "runs).\n"
    "\n"
    "Kernels:\n"
    "  potrf               the Cholesky of one tile (the diagonal tile of\n"
    "                      the tile Cholesky) against cusolverDnXpotrf\n"
    "  trsm                the solve B = B L^-T of an n-by-n tile (the\n"
    "                      Cholesky panel's) against one cublasXtrsm\n"
    "  getrf               the LU of an n-by-W panel (the LU's tile\n"
    "                      column: W-by-W tiles) against cusolverDnXgetrf\n"
    "  laswp               W interchanges on an n-by-W tile column against\n"
    "                      cusolverDnXlaswp (rate: GB/s of rows moved)\n"
    "  getrf_nopiv         the LU without pivoting of one tile (random\n"
    "                      butterflies' diagonal tiles) against\n"
    "                      cusolverDnXgetrf without pivots\n"
    "  trtri               the inverse of one tile's upper triangle\n"
    "                      against cusolverDnXtrtri\n"
    "  gemv_sum            the product of an n-by-W row of tiles of order\n"
    "                      n by one vector (RBT's refinement, one right-\n"
    "                      hand side) against cuBLAS's GEMV on each tile\n"
    "                      (rate: GFLOP/s; bytes read are 4 times as many)\n"
    "\n"
    "Options:\n"
    "  -n, --n LIST        orders, comma-separated (default 512,1024,2048)\n"
    "  -p, --prec LIST     d, s or d,s (default d)\n"
    "  -w, --width W       getrf, laswp: the panel's width; gemv_sum: the\n"
    "                      row's (default 256)\n"
    "      --leaf L        getrf: the widest leaf, 1-32 (default 32)\n"
    "      --block-rows R  getrf: rows per block of a shared-memory leaf\n"
    "                      (default 256)\n"
    "      --d1-height H   getrf: leaves at least H rows tall use design D1\n"
    "                      (kernels per column; default: only where D2's\n"
    "                      shared memory is too small; 1: all leaves)\n"
    "      --no-cluster    getrf: no D2 leaves on a thread block cluster\n"
    "      --reg           getrf: D2 leaves with their rows in registers\n"
    "                      where the blocks fit (default: a cluster where\n"
    "                      the rows fit in its shared memory, else shared\n"
    "                      memory and a grid barrier)\n"
    "      --potrf-block B potrf: columns of a block of 64-column steps\n"
    "                      (default 512; 64: every step updates the rest)\n"
    "      --repeat R      timed runs after one warm-up (default 5)\n"
    "      --csv FILE      also write the results to FILE as CSV, appended\n"
    "  -h, --help          this text\n"
    "\n"
    "ratio = reference time / hyla time (above 1: hyla is faster); diff is\n"
    "max |hyla - reference| / max |reference| over the results.\n";

static int parse_list(char *s, int *out, int max)
{
    int count = 0;
    for (char *tok = strtok(s, ","); tok; tok = strtok(NULL, ",")) {
        char *end;
        long v = strtol(tok, &end, 10);
        if (*end || v < 1 || v > 1000000 || count == max) return -1;
        out[count++] = (int)v;
    }
    return count;
}

static double potrf_flops(double n, double w)
{
    (void)w;
    return n * n * n / 3.0;
}

static double trsm_flops(double n, double w)
{
    (void)w;
    return n * n * n;
}

static double getrf_flops(double m, double n)
{
    return m * n * n - n * n * n / 3.0;
}

static double nopiv_flops(double n, double w)
{
    (void)w;
    return 2.0 * n * n * n / 3.0;
}

static double gemv_flops(double n, double w)
{
    return 2.0 * n * w;
}

static double trtri_flops(double n, double w)
{
    (void)w;
    return n * n * n / 3.0;
}

// Not flops: bytes read and written moving up to 2n rows of n doubles.
static double laswp_bytes(double m, double n)
{
    (void)m;
    return 2.0 * 2.0 * n * n * 8.0;
}

int main(int argc, char **argv)
{
    enum {
        REPEAT = 256,
        CSV,
        LEAF,
        BLOCK_ROWS,
        D1_HEIGHT,
        NO_CLUSTER,
        REG,
        POTRF_BLOCK
    };
    static const struct option longs[] = {
        {"n", required_argument, 0, 'n'},
        {"prec", required_argument, 0, 'p'},
        {"width", required_argument, 0, 'w'},
        {"repeat", required_argument, 0, REPEAT},
        {"csv", required_argument, 0, CSV},
        {"leaf", required_argument, 0, LEAF},
        {"block-rows", required_argument, 0, BLOCK_ROWS},
        {"d1-height", required_argument, 0, D1_HEIGHT},
        {"no-cluster", no_argument, 0, NO_CLUSTER},
        {"reg", no_argument, 0, REG},
        {"potrf-block", required_argument, 0, POTRF_BLOCK},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0}};
    char sizes[] = "512,1024,2048", *size_arg = sizes, *precs = "d";
    const char *csv_name = NULL;
    int repeat = 5, width = 256, leaf = 0, block_rows = 0, d1 = 0, no = 0;
    int potrf_block = 0, c;
    while ((c = getopt_long(argc, argv, "n:p:w:h", longs, NULL)) != -1) {
        switch (c) {
        case 'n': size_arg = optarg; break;
        case 'p': precs = optarg; break;
        case 'w': width = atoi(optarg); break;
        case REPEAT: repeat = atoi(optarg); break;
        case CSV: csv_name = optarg; break;
        case LEAF: leaf = atoi(optarg); break;
        case BLOCK_ROWS: block_rows = atoi(optarg); break;
        case D1_HEIGHT: d1 = atoi(optarg); break;
        case NO_CLUSTER: no |= HYLA_CUDA_LEAF_NO_CLUSTER; break;
        case REG: no |= HYLA_CUDA_LEAF_REG; break;
        case POTRF_BLOCK: potrf_block = atoi(optarg); break;
        case 'h': fputs(usage, stdout); return 0;
        default: fputs(usage, stderr); return 2;
        }
    }
    static const struct kernel {
        const char *name, *ref;
        int (*run[2])(int, int, int, kernel_result_t *); // d, s
        double (*flops)(double n, double w);
        int panel; // n-by-width (else n-by-n)
    } kernels[] = {
        {"potrf", "cusolver", {kernels_dpotrf, kernels_spotrf}, potrf_flops, 0},
        {"trsm", "cublas", {kernels_dtrsm, kernels_strsm}, trsm_flops, 0},
        {"getrf", "cusolver", {kernels_dgetrf, kernels_sgetrf}, getrf_flops, 1},
        {"laswp", "cusolver", {kernels_dlaswp, kernels_slaswp}, laswp_bytes, 1},
        {"getrf_nopiv",
         "cusolver",
         {kernels_dgetrf_nopiv, kernels_sgetrf_nopiv},
         nopiv_flops,
         0},
        {"trtri", "cusolver", {kernels_dtrtri, kernels_strtri}, trtri_flops, 0},
        {"gemv_sum",
         "cublas",
         {kernels_dgemv_sum, kernels_sgemv_sum},
         gemv_flops,
         1}};
    const struct kernel *kern = NULL;
    for (size_t i = 0;
         optind == argc - 1 && i < sizeof kernels / sizeof kernels[0]; i++)
        if (!strcmp(argv[optind], kernels[i].name)) kern = &kernels[i];
    if (!kern) {
        fprintf(stderr,
                "hyla-kernels: name one kernel: potrf, trsm, getrf, laswp, "
                "getrf_nopiv, trtri or gemv_sum\n%s",
                usage);
        return 2;
    }
    int ns[64], count = parse_list(size_arg, ns, 64);
    if (count <= 0 || repeat < 1 || width < 1 ||
        (strcmp(precs, "d") && strcmp(precs, "s") && strcmp(precs, "d,s"))) {
        fprintf(stderr, "hyla-kernels: bad -n, -p, -w or --repeat\n");
        return 2;
    }
    hyla_cuda_getrf_panel_tune(leaf, block_rows, d1, no);
    hyla_cuda_potrf_tune(potrf_block);
    FILE *csv = NULL;
    if (csv_name &&
        !(csv = csv_append(
              csv_name,
              "routine,prec,n,width,hyla_s,hyla_gflops,ref,ref_s,ref_gflops,"
              "ratio,diff,hyla_info,ref_info,leaf,block_rows,d1_height,"
              "no_cluster,reg,potrf_block")))
        return 1;
    if (!strcmp(kern->name, "getrf"))
        printf("# cluster leaf: %d blocks (double), %d (single)\n",
               hyla_cuda_getrf_panel_cluster(0),
               hyla_cuda_getrf_panel_cluster(1));
    printf(
        "kernel prec      n     w     hyla_s  GFLOP/s |      ref_s  GFLOP/s | "
        " ratio      diff  info\n");
    int failed = 0;
    for (const char *p = precs; *p; p++) {
        if (*p == ',') continue;
        for (int i = 0; i < count; i++) {
            int n = ns[i];
            kernel_result_t r = {0};
            int w = kern->panel ? width : n;
            int rc = kern->run[*p == 's'](n, w, repeat, &r);
            if (rc) {
                failed = 1;
                continue;
            }
            double flops = kern->flops(n, w);
            double gh = flops / r.hyla_s * 1e-9, gr = flops / r.ref_s * 1e-9;
            printf("%-9s %c %6d %5d %10.6f %8.1f | %10.6f %8.1f | %6.3f "
                   "%9.2e  %d/%d\n",
                   kern->name, *p, n, w, r.hyla_s, gh, r.ref_s, gr,
                   r.ref_s / r.hyla_s, r.diff, r.hyla_info, r.ref_info);
            fflush(stdout);
            if (csv)
                fprintf(csv,
                        "%s,%c,%d,%d,%.6e,%.2f,%s,%.6e,%.2f,%.4f,%.3e,%d,"
                        "%d,%d,%d,%d,%d,%d,%d\n",
                        kern->name, *p, n, w, r.hyla_s, gh, kern->ref, r.ref_s,
                        gr, r.ref_s / r.hyla_s, r.diff, r.hyla_info, r.ref_info,
                        leaf ? leaf : 32, block_rows ? block_rows : 256, d1,
                        !!(no & HYLA_CUDA_LEAF_NO_CLUSTER),
                        !!(no & HYLA_CUDA_LEAF_REG),
                        potrf_block ? potrf_block : HYLA_CUDA_POTRF_BLOCK);
            failed |= r.hyla_info != r.ref_info;
        }
    }
    if (csv) fclose(csv);
    return failed;
}
