// SPDX-License-Identifier: BSD-3-Clause
// hyla-bench: times hyla's factorizations and solves against the system
// LAPACK (OpenBLAS) on the same matrices, in the same run, and prints both,
// their ratio and hyla's residual.
#include "bench.h"
#include "check.h"
#include "energy.h"
#include "results.h"

#include <cblas.h>
#include <errno.h>
#include <getopt.h>
#include <hyla.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const char usage[] =
    "Usage: hyla-bench [options]\n"
    "       hyla-bench tune [options]\n"
    "Times hyla against the system LAPACK (OpenBLAS) on the same matrices.\n"
    "With `tune', sweeps tile size, lookahead and panel threads and writes "
    "the\n"
    "fastest of each routine, precision and order to a tuning file, which\n"
    "hyla_init reads (see `Tuning' below).\n"
    "\n"
    "  -r, --routine LIST  getrf, potrf, gesv, posv, gesv_rbt (random\n"
    "                      butterflies, LU without pivoting, refinement;\n"
    "                      against LAPACK's gesv), getrf_batched or\n"
    "                      getri_batched (--batch matrices of order n <= 512\n"
    "                      in host memory, against LAPACK on each matrix over\n"
    "                      the reference's threads), comma-separated\n"
    "                      (default getrf,potrf)\n"
    "      --batch B       matrices of the batched routines (default: as\n"
    "                      many as 2^24 elements hold, at most 2^20)\n"
    "  -n, --n LIST        matrix orders, comma-separated (default 4000)\n"
    "  -m, --m M           rows of getrf's matrices (default: n, square)\n"
    "  -p, --prec LIST     d, s or d,s (default d)\n"
    "      --nb LIST       tile sizes, comma-separated (default: hyla's, or\n"
    "                      HYLA_NB)\n"
    "      --lookahead LIST  panel steps updated ahead (default: hyla's)\n"
    "                      (the reference runs once per routine, precision\n"
    "                      and n)\n"
    "      --ncpus LIST    hyla's CPU workers (default: every core); the\n"
    "                      reference's threads are the largest\n"
    "      --sched NAME    StarPU scheduling policy (default: hyla's)\n"
    "      --panel-threads LIST  threads of one LU panel (default: hyla's)\n"
    "      --nrhs K        right-hand sides of the solves (default 1)\n"
    "      --repeat R      timed runs of each (default 3; min and median)\n"
    "      --tile          time hyla's tile-level call alone, without the\n"
    "                      copies between LAPACK and tile layouts\n"
    "      --on-gpu        as --tile, the tiles first placed on the GPUs\n"
    "                      (hyla_desc_place), as cuSOLVER's matrix is\n"
    "      --in-tiles      getrf, potrf: as --tile, the matrix generated\n"
    "                      in hyla's tiles (hyla_dplrnt_tile,\n"
    "                      hyla_dplgsy_tile with bump n) without a\n"
    "                      column-major copy, so that it may fill the\n"
    "                      host's memory; no reference; the residual is\n"
    "                      that of a solve with the factors,\n"
    "                      ||b - Ax|| / (||A|| ||x|| n eps), A built again\n"
    "                      a tile row at a time\n"
    "      --no-ref        do not run the reference\n"
    "      --ref NAME      the reference: lapack (default: the system\n"
    "                      LAPACK, OpenBLAS), getf2 (getrf: LAPACK's\n"
    "                      unblocked dgetf2) or cusolver (cuSOLVER's\n"
    "                      getrf, potrf, and for the solves getrs, potrs\n"
    "                      after them, with the matrix already on the GPU;\n"
    "                      CUDA builds) or cusolvermg (the same with\n"
    "                      cuSolverMg on --ngpus GPUs, default all), or for\n"
    "                      the batched routines cublas (cuBLAS's batched\n"
    "                      getrf, getri against hyla_cuda_*, the batch in\n"
    "                      GPU memory; CUDA builds)\n"
    "      --mode LIST     cpu, hybrid, native or auto (default: hyla's)\n"
    "      --ngpus LIST    GPUs for hyla (default: hyla's, all)\n"
    "      --gpu-streams S CUDA streams per GPU (default: hyla's)\n"
    "      --mapping M     scheduler, cyclic or auto: who places GPU\n"
    "                      tasks (default: hyla's, auto)\n"
    "      --trsm-inv      TRSMs by the diagonal tiles as GEMMs by their\n"
    "                      inverses (Cholesky, LU)\n"
    "      --reserved-sms K  SMs per GPU that cuBLAS calls off the critical\n"
    "                      path leave free (default: hyla's, none)\n"
    "      --panel-rows R  rows of one thread block of the GPU LU panel\n"
    "                      (default: hyla's, 256)\n"
    "      --rbt-depth D   butterfly depth of gesv_rbt, 0 to 4 (default:\n"
    "                      hyla's, 2)\n"
    "      --seed S        seed of the matrices (default 1)\n"
    "      --trace FILES   after the timed runs, trace one more hyla run of\n"
    "                      each case into each of the comma-separated\n"
    "                      FILES: an SVG timeline where the name ends in\n"
    "                      .svg, else Chrome/Perfetto JSON (the last case\n"
    "                      wins)\n"
    "      --energy        also the energy of one timed run: the GPUs'\n"
    "                      (NVML energy counters, all GPUs of the node) and\n"
    "                      the CPU packages' (RAPL), read every ms, where\n"
    "                      readable; printed with GFLOP/s per watt\n"
    "      --cpu-watts W   with --energy where RAPL is not readable: an\n"
    "                      estimate of the CPUs' energy, the machine's busy\n"
    "                      CPU time (/proc/stat: user, nice, system, irq,\n"
    "                      softirq) times W watts per busy CPU (column\n"
    "                      cpu_j_source: rapl, estimate or none)\n"
    "      --no-check      do not compute residuals\n"
    "      --check         compute them (the default, but not of tune)\n"
    "      --csv FILE      also write the results to FILE as CSV, appended\n"
    "                      (a header line when FILE is new or empty)\n"
    "      --json FILE     also write them to FILE as JSON (an array of\n"
    "                      objects with the CSV's column names)\n"
    "  -h, --help          this text\n"
    "\n"
    "Tuning: `hyla-bench tune' takes the options above, one mode, and\n"
    "      -o, --out FILE  the tuning file to write (default: the one\n"
    "                      hyla_init reads, $XDG_CONFIG_HOME/hyla/tuning or\n"
    "                      ~/.config/hyla/tuning); entries of other\n"
    "                      routines, precisions, modes or orders already in\n"
    "                      it are kept\n"
    "  Its defaults: routines getrf,potrf; orders 1000,2000,4000 on CPUs,\n"
    "  4096,8192,16384 with GPUs; tile sizes 128,192,256,320,384,512 on\n"
    "  CPUs, 512,768,1024,1536,2048 with GPUs; lookahead 1,2,3; panel\n"
    "  threads 1 and a quarter and a half of the cores (CPU panels only);\n"
    "  --repeat 2, no reference, no residuals; with GPUs --on-gpu (the\n"
    "  factorization alone, as the layout conversions would hide it).\n"
    "  A call takes the tile size and lookahead of its routine's fastest\n"
    "  run at the nearest order.\n"
    "\n"
    "Without --nb or --lookahead, each run takes hyla's choice for its\n"
    "routine and order (the tuning file's, or the machine's defaults).\n"
    "Lists sweep: every routine, precision, n, ncpus, ngpus, nb, lookahead,\n"
    "panel threads and mode together.\n"
    "\n"
    "GFLOP/s use the best of the timed runs; ratio = reference time / hyla\n"
    "time (above 1: hyla is faster).  The residual is hyla's, O(n^2) form:\n"
    "||PAx - LUx|| / (||A|| ||x|| n eps) (getrf), the same with LL^T (potrf),\n"
    "||b - Ax|| / (||A|| ||x|| n eps) (solves); it passes at <= 60.\n";

enum { MAX_LIST = 64 };

typedef struct {
    char *routines, *sizes, *precs, *csv, *json, *ref_name, *trace, *out;
    int m, nrhs, repeat, check, ref, tile, on_gpu, in_tiles, energy;
    double cpu_watts; // --cpu-watts: the CPU estimate's power per busy CPU
    int rbt_depth, seed;
    int batch;
    int tune; // `hyla-bench tune'
    hyla_config_t cfg;
    // The swept values, slowest first: ncpus, ngpus, nb, lookahead, panel
    // threads, mode.
    int list[6][MAX_LIST], count[6];
    int cases; // hyla's runs in all
    char command[1024];
} options_t;

enum { NCPUS_L, NGPUS_L, NB_L, LA_L, PT_L, MODE_L };

// One line per library: joules of one run and GFLOP/s per watt
// (= GFLOP per joule), GPU, CPU and both, where measured.
static void print_energy(const char *who, double flops, const bench_result_t *r)
{
    printf("#   energy %-9s", who);
    double both = 0.0;
    int any = 0;
    const double j[2] = {r->gpu_j, r->cpu_j};
    const char *name[2] = {
        "GPU", strcmp(energy_cpu_source(), "estimate") ? "CPU" : "CPU (est.)"};
    for (int k = 0; k < 2; k++) {
        if (j[k] <= 0) { // no meter, or too short for its resolution
            printf(" %s not measured;", name[k]);
            continue;
        }
        printf(" %s %.2f J (%.1f GFLOP/s/W);", name[k], j[k],
               flops * 1e-9 / j[k]);
        both += j[k];
        any = 1;
    }
    if (any) printf(" together %.1f GFLOP/s/W", flops * 1e-9 / both);
    printf("\n");
}

static int parse_int(const char *s, const char *what, int lo)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (*s == '\0' || *end || v < lo || v > 1000000000) {
        fprintf(stderr, "hyla-bench: %s must be an integer >= %d (got '%s')\n",
                what, lo, s);
        exit(2);
    }
    return (int)v;
}

// Mode names, indexed by hyla_mode_t.
static const char *const mode_names[] = {"auto", "cpu", "hybrid", "native",
                                         NULL};
// Mapping names, indexed by hyla_mapping_t.
static const char *const mapping_names[] = {"scheduler", "cyclic", "auto",
                                            NULL};

// The items of the comma-separated list of option `what` (a copy in buf):
// their count, 1 to MAX_LIST, or an exit with a message.
static int items(const char *list, const char *what, char buf[512],
                 char *item[MAX_LIST])
{
    snprintf(buf, 512, "%s", list);
    int k = 0;
    char *save;
    for (char *t = strtok_r(buf, ",", &save); t;
         t = strtok_r(NULL, ",", &save)) {
        if (k == MAX_LIST) {
            fprintf(stderr, "hyla-bench: %s: at most %d values\n", what,
                    MAX_LIST);
            exit(2);
        }
        item[k++] = t;
    }
    if (!k) {
        fprintf(stderr, "hyla-bench: %s: no value (got '%s')\n", what, list);
        exit(2);
    }
    return k;
}

// Index of name in the NULL-terminated names, or an exit with a message.
static int known(const char *name, const char *what, const char *const *names)
{
    for (int i = 0; names[i]; i++)
        if (!strcmp(name, names[i])) return i;
    fprintf(stderr, "hyla-bench: unknown %s '%s'\n", what, name);
    exit(2);
}

// A list of integers >= lo into v; returns the count.
static int parse_ints(const char *list, const char *what, int lo, int *v)
{
    char buf[512], *item[MAX_LIST];
    int k = items(list, what, buf, item);
    for (int i = 0; i < k; i++)
        v[i] = parse_int(item[i], what, lo);
    return k;
}

// A list of modes into v; returns the count.
static int parse_modes(const char *list, int *v)
{
    char buf[512], *item[MAX_LIST];
    int k = items(list, "--mode", buf, item);
    for (int i = 0; i < k; i++)
        v[i] = known(item[i], "--mode", mode_names);
    return k;
}

// Exits with a message unless every item of the list is one of names.
static void check_list(const char *list, const char *what,
                       const char *const *names)
{
    char buf[512], *item[MAX_LIST];
    int k = items(list, what, buf, item);
    for (int i = 0; i < k; i++)
        known(item[i], what, names);
}

// Items of a comma-separated list.
static int count_items(const char *list)
{
    int k = 1;
    for (; *list; list++)
        k += *list == ',';
    return k;
}

// tune's defaults for what the command line leaves open, by the mode the
// configuration comes to on this machine (one hyla_init to find it).
static void tune_defaults(options_t *o)
{
    int *count = o->count;
    if (count[NCPUS_L] > 1 || count[NGPUS_L] > 1) {
        fprintf(stderr, "hyla-bench: tune measures one count of CPU workers "
                        "and GPUs at a time\n");
        exit(2);
    }
    hyla_config_t cfg = o->cfg, used;
    if (count[MODE_L]) cfg.mode = (hyla_mode_t)o->list[MODE_L][0];
    if (count[NCPUS_L]) cfg.ncpus = o->list[NCPUS_L][0];
    if (count[NGPUS_L]) cfg.ngpus = o->list[NGPUS_L][0];
    int rc = hyla_init(&cfg);
    if (rc) {
        fprintf(stderr, "hyla-bench: hyla_init: %s (%s)\n", hyla_strerror(rc),
                hyla_error_detail());
        exit(1);
    }
    hyla_config_get(&used);
    hyla_finalize();
    int gpus = used.mode != HYLA_MODE_CPU;
    // The mode the entries are for, auto resolved.
    o->list[MODE_L][0] = (int)used.mode;
    count[MODE_L] = 1;
    if (!o->sizes) o->sizes = gpus ? "4096,8192,16384" : "1000,2000,4000";
    // With GPUs, the factorization alone, its tiles on the GPUs: in native
    // mode the LAPACK-layout call spends ~95 % of its time converting
    // layouts on its one CPU worker (3.9 s of a 4.1 s LU at n = 16384 on
    // an H100), which hides what the tile size and lookahead change.
    if (gpus) o->tile = o->on_gpu = 1;
    if (!count[NB_L])
        count[NB_L] = parse_ints(gpus ? "512,768,1024,1536,2048"
                                      : "128,192,256,320,384,512",
                                 "--nb", 1, o->list[NB_L]);
    if (!count[LA_L]) count[LA_L] = parse_ints("1,2,3", "", 0, o->list[LA_L]);
    if (!count[PT_L]) {
        // CPU panels: one thread, a quarter and a half of the workers (at
        // most 8); native mode's panels are the GPU's.
        int *pt = o->list[PT_L], k = 0;
        pt[k++] = 1;
        for (int div = 4; used.mode != HYLA_MODE_NATIVE && div >= 2; div /= 2) {
            int p = used.ncpus / div < 8 ? used.ncpus / div : 8;
            if (p > pt[k - 1]) pt[k++] = p;
        }
        count[PT_L] = k;
    }
}

static void parse(int argc, char **argv, options_t *o)
{
    enum {
        NB = 256,
        LOOKAHEAD,
        NCPUS,
        SCHED,
        NRHS,
        REPEAT,
        TILE,
        NOREF,
        REF,
        TRACE,
        PANEL,
        MODE,
        NGPUS,
        NOCHECK,
        CSV,
        JSON,
        ONGPU,
        INTILES,
        CPUWATTS,
        STREAMS,
        MAPPING,
        TRSMINV,
        RESERVE,
        PANELROWS,
        ENERGY,
        RBTDEPTH,
        SEED,
        BATCH,
        CHECK
    };
    static const struct option longs[] = {
        {"routine", required_argument, 0, 'r'},
        {"n", required_argument, 0, 'n'},
        {"prec", required_argument, 0, 'p'},
        {"nb", required_argument, 0, NB},
        {"lookahead", required_argument, 0, LOOKAHEAD},
        {"ncpus", required_argument, 0, NCPUS},
        {"sched", required_argument, 0, SCHED},
        {"nrhs", required_argument, 0, NRHS},
        {"repeat", required_argument, 0, REPEAT},
        {"tile", no_argument, 0, TILE},
        {"no-ref", no_argument, 0, NOREF},
        {"ref", required_argument, 0, REF},
        {"trace", required_argument, 0, TRACE},
        {"panel-threads", required_argument, 0, PANEL},
        {"mode", required_argument, 0, MODE},
        {"ngpus", required_argument, 0, NGPUS},
        {"m", required_argument, 0, 'm'},
        {"no-check", no_argument, 0, NOCHECK},
        {"csv", required_argument, 0, CSV},
        {"json", required_argument, 0, JSON},
        {"on-gpu", no_argument, 0, ONGPU},
        {"in-tiles", no_argument, 0, INTILES},
        {"gpu-streams", required_argument, 0, STREAMS},
        {"mapping", required_argument, 0, MAPPING},
        {"trsm-inv", no_argument, 0, TRSMINV},
        {"reserved-sms", required_argument, 0, RESERVE},
        {"panel-rows", required_argument, 0, PANELROWS},
        {"energy", no_argument, 0, ENERGY},
        {"cpu-watts", required_argument, 0, CPUWATTS},
        {"rbt-depth", required_argument, 0, RBTDEPTH},
        {"seed", required_argument, 0, SEED},
        {"batch", required_argument, 0, BATCH},
        {"check", no_argument, 0, CHECK},
        {"out", required_argument, 0, 'o'},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0}};
    *o = (options_t){.sizes = NULL,
                     .precs = "d",
                     .nrhs = 1,
                     .repeat = 3,
                     .check = 1,
                     .ref = 1,
                     .rbt_depth = -1,
                     .seed = 1};
    if (hyla_config_init(&o->cfg)) {
        fprintf(stderr, "hyla-bench: %s\n", hyla_error_detail());
        exit(2);
    }
    // The command line, for the tuning file's header.
    for (int i = 0; i < argc; i++)
        snprintf(o->command + strlen(o->command),
                 sizeof o->command - strlen(o->command), "%s%s", i ? " " : "",
                 i ? argv[i] : "hyla-bench");
    if (argc > 1 && !strcmp(argv[1], "tune")) {
        o->tune = 1;
        o->check = o->ref = 0;
        o->repeat = 2;
        argv[1] = argv[0];
        argc--, argv++;
    }
    int c, *count = o->count;
    while ((c = getopt_long(argc, argv, "r:n:m:p:o:h", longs, NULL)) != -1) {
        switch (c) {
        case 'r': o->routines = optarg; break;
        case 'n': o->sizes = optarg; break;
        case 'p': o->precs = optarg; break;
        case 'o': o->out = optarg; break;
        case NB:
            count[NB_L] = parse_ints(optarg, "--nb", 1, o->list[NB_L]);
            break;
        case LOOKAHEAD:
            count[LA_L] = parse_ints(optarg, "--lookahead", 0, o->list[LA_L]);
            break;
        case NCPUS:
            count[NCPUS_L] = parse_ints(optarg, "--ncpus", 1, o->list[NCPUS_L]);
            break;
        case BATCH: o->batch = parse_int(optarg, "--batch", 0); break;
        case CHECK: o->check = 1; break;
        case SCHED: o->cfg.scheduler = optarg; break;
        case NRHS: o->nrhs = parse_int(optarg, "--nrhs", 0); break;
        case REPEAT: o->repeat = parse_int(optarg, "--repeat", 1); break;
        case TILE: o->tile = 1; break;
        case ONGPU: o->tile = o->on_gpu = 1; break;
        case INTILES: o->tile = o->in_tiles = 1; break;
        case STREAMS:
            o->cfg.gpu_streams = parse_int(optarg, "--gpu-streams", 1);
            break;
        case TRSMINV: o->cfg.trsm_inverse = 1; break;
        case RESERVE:
            o->cfg.gpu_reserved_sms = parse_int(optarg, "--reserved-sms", 0);
            break;
        case PANELROWS:
            o->cfg.gpu_panel_rows = parse_int(optarg, "--panel-rows", 0);
            break;
        case MAPPING:
            o->cfg.mapping =
                (hyla_mapping_t)known(optarg, "--mapping", mapping_names);
            break;
        case NOREF: o->ref = 0; break;
        case REF: o->ref_name = optarg; break;
        case TRACE: o->trace = optarg; break;
        case ENERGY: o->energy = 1; break;
        case CPUWATTS: {
            char *end;
            o->cpu_watts = strtod(optarg, &end);
            if (*optarg == '\0' || *end || !(o->cpu_watts > 0)) {
                fprintf(stderr,
                        "hyla-bench: --cpu-watts must be a power > 0 "
                        "(got '%s')\n",
                        optarg);
                exit(2);
            }
            break;
        }
        case RBTDEPTH:
            o->rbt_depth = parse_int(optarg, "--rbt-depth", 0);
            break;
        case SEED: o->seed = parse_int(optarg, "--seed", 0); break;
        case PANEL:
            count[PT_L] =
                parse_ints(optarg, "--panel-threads", 1, o->list[PT_L]);
            break;
        case 'm': o->m = parse_int(optarg, "--m", 0); break;
        case NGPUS:
            count[NGPUS_L] = parse_ints(optarg, "--ngpus", 0, o->list[NGPUS_L]);
            break;
        case MODE: count[MODE_L] = parse_modes(optarg, o->list[MODE_L]); break;
        case NOCHECK: o->check = 0; break;
        case CSV: o->csv = optarg; break;
        case JSON: o->json = optarg; break;
        case 'h': fputs(usage, stdout); exit(0);
        default: fputs(usage, stderr); exit(2);
        }
    }
    if (o->ref_name && strcmp(o->ref_name, "lapack") &&
        strcmp(o->ref_name, "getf2") && strcmp(o->ref_name, "cusolver") &&
        strcmp(o->ref_name, "cusolvermg") && strcmp(o->ref_name, "cublas")) {
        fprintf(stderr, "hyla-bench: --ref must be lapack, getf2, cusolver, "
                        "cusolvermg or cublas\n");
        exit(2);
    }
    if (optind < argc) {
        fprintf(stderr, "hyla-bench: unexpected argument '%s'\n%s",
                argv[optind], usage);
        exit(2);
    }
    static const char *const routines[] = {
        "getrf",    "potrf",         "gesv",          "posv",
        "gesv_rbt", "getrf_batched", "getri_batched", NULL};
    static const char *const tuned[] = {"getrf", "potrf", "gesv_rbt", NULL};
    static const char *const precs[] = {"d", "s", NULL};
    if (o->tune) {
        if (o->routines == NULL) o->routines = "getrf,potrf";
        check_list(o->routines, "routine of tune", tuned);
        if (count[MODE_L] > 1) {
            fprintf(stderr, "hyla-bench: tune measures one mode at a time\n");
            exit(2);
        }
        o->cfg.tuning = NULL; // every run sets what it measures
        tune_defaults(o);
    } else if (o->out) {
        fprintf(stderr, "hyla-bench: --out is an option of tune\n");
        exit(2);
    }
    if (!o->routines) o->routines = "getrf,potrf";
    if (!o->sizes) o->sizes = "4000";
    if (o->in_tiles) {
        static const char *const generated[] = {"getrf", "potrf", NULL};
        check_list(o->routines, "routine of --in-tiles", generated);
        if (o->ref || o->m || o->tune) {
            fprintf(stderr, "hyla-bench: --in-tiles runs square getrf and "
                            "potrf without a reference: add --no-ref, "
                            "leave out -m and tune\n");
            exit(2);
        }
    }
    // Unswept: the configuration's (nb 0 and lookahead -1: per call).
    const int unswept[6] = {
        o->cfg.ncpus,     o->cfg.ngpus,         o->cfg.nb,
        o->cfg.lookahead, o->cfg.panel_threads, (int)o->cfg.mode};
    for (int d = 0; d < 6; d++)
        if (!count[d]) o->list[d][count[d]++] = unswept[d];
    check_list(o->routines, "routine", routines);
    check_list(o->precs, "precision", precs);
    o->cases = count_items(o->routines) * count_items(o->precs) *
               count_items(o->sizes);
    for (int d = 0; d < 6; d++)
        o->cases *= count[d];
}

static void cpu_model(char *buf, size_t size)
{
    snprintf(buf, size, "unknown CPU");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return;
    char line[256];
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "model name", 10) && strchr(line, ':')) {
            snprintf(buf, size, "%s", strchr(line, ':') + 2);
            buf[strcspn(buf, "\n")] = '\0';
            break;
        }
    fclose(f);
}

typedef int (*runner_t)(const bench_case_t *, bench_result_t *);

static const char *mode_name(hyla_mode_t m)
{
    return mode_names[m];
}

static const char *ref_name(const char *ref)
{
    if (ref && !strcmp(ref, "getf2")) return "openblas-getf2";
    if (ref && !strcmp(ref, "cusolver")) return "cusolver";
    if (ref && !strcmp(ref, "cusolvermg")) return "cusolvermg";
    if (ref && !strcmp(ref, "cublas")) return "cublas";
    return "openblas";
}

// The row of one case, in result_names' order.
static void fill_row(result_row_t *row, const options_t *o,
                     const bench_case_t *c, const char *prec, hyla_mode_t asked,
                     const hyla_config_t *used, const bench_result_t *hr,
                     const bench_result_t *rr, double hg, double rg,
                     double ratio, const char *status)
{
    int k = 0;
#define COL(...) snprintf(row->v[k++], RESULT_WIDTH, __VA_ARGS__)
    COL("%s", c->routine);
    COL("%s", prec);
    COL("%d", c->m);
    COL("%d", c->n);
    COL("%d", c->nrhs);
    COL("%d", used->nb);
    COL("%d", used->lookahead);
    COL("%d", used->panel_threads);
    COL("%s", mode_name(used->mode));
    COL("%d", used->ncpus);
    COL("%d", used->ngpus);
    COL("%s", used->scheduler);
    // The batched routines against cuBLAS: hyla_cuda_*, in GPU memory.
    COL("%s", bench_is_batched(c->routine) && o->ref_name &&
                      !strcmp(o->ref_name, "cublas")
                  ? "cuda"
              : o->in_tiles ? (o->on_gpu ? "tile-gen-gpu" : "tile-gen")
              : o->on_gpu   ? "tile-gpu"
              : o->tile     ? "tile"
                            : "lapack");
    COL("%.6f", hr->t_min);
    COL("%.6f", hr->t_median);
    COL("%.2f", hg);
    COL("%s", ref_name(o->ref_name));
    COL("%.6f", rr->t_min);
    COL("%.6f", rr->t_median);
    COL("%.2f", rg);
    COL("%.4f", ratio);
    COL("%.3e", hr->resid);
    COL("%s", status);
    COL("%d", used->gpu_streams);
    COL("%s", mapping_names[used->mapping]);
    COL("%d", used->trsm_inverse);
    COL("%d", used->gpu_reserved_sms);
    COL("%d", used->gpu_panel_rows);
    COL("%.3f", hr->gpu_j);
    COL("%.3f", hr->cpu_j);
    COL("%.3f", o->ref ? rr->gpu_j : -1.0);
    COL("%.3f", o->ref ? rr->cpu_j : -1.0);
    COL("%d", o->rbt_depth);
    COL("%d", hr->rbt_iter);
    COL("%d", o->seed);
    COL("%d", hr->rbt_fallback);
    COL("%s", energy_cpu_source()); // of hyla_cpu_j and ref_cpu_j
    COL("%s", mode_name(asked));    // mode: what auto came to
    COL("%d", used->gpu_gate);
#undef COL
}

//==== tune ====

// The first run's workers, GPUs and mode (hyla_topology), for the header.
static char topology[256];
// The CPU model and core count, for the header.
static char cpu_line[192];

// The fastest run of each routine, precision, mode and order.
typedef struct {
    char routine[16], prec[4];
    int mode, n, nb, lookahead, panel_threads;
    double seconds;
} best_t;

enum { MAX_BEST = 1024 };
static best_t best[MAX_BEST];
static int nbest;

static void tune_record(const char *routine, const char *prec, int n,
                        const hyla_config_t *used, double seconds)
{
    best_t *b = NULL;
    for (int i = 0; i < nbest && !b; i++)
        if (!strcmp(best[i].routine, routine) && !strcmp(best[i].prec, prec) &&
            best[i].mode == (int)used->mode && best[i].n == n)
            b = &best[i];
    if (!b) {
        if (nbest == MAX_BEST) return;
        b = &best[nbest++];
        *b = (best_t){.seconds = -1};
    } else if (b->seconds <= seconds) {
        return;
    }
    *b = (best_t){.mode = (int)used->mode,
                  .n = n,
                  .nb = used->nb,
                  .lookahead = used->lookahead,
                  .panel_threads = used->panel_threads,
                  .seconds = seconds};
    snprintf(b->routine, sizeof b->routine, "%s", routine);
    snprintf(b->prec, sizeof b->prec, "%s", prec);
}

// The tuning file hyla_init reads by default (its folder made).
static const char *default_out(void)
{
    static char path[4096];
    const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
    if (xdg && *xdg)
        snprintf(path, sizeof path, "%s/hyla", xdg);
    else if (home && *home)
        snprintf(path, sizeof path, "%s/.config/hyla", home);
    else {
        fprintf(stderr, "hyla-bench: neither XDG_CONFIG_HOME nor HOME is "
                        "set: name the tuning file with --out\n");
        exit(2);
    }
    // The folder and its parent (~/.config) may not exist yet.
    char *slash = strrchr(path, '/');
    *slash = '\0';
    mkdir(path, 0755);
    *slash = '/';
    mkdir(path, 0755);
    snprintf(path + strlen(path), sizeof path - strlen(path), "/tuning");
    return path;
}

// Whether an entry line of an existing file is replaced by a new entry:
// the same routine, precision, mode and order.
static int superseded(const char *line)
{
    char r[32], p[8], m[16];
    int n;
    if (sscanf(line, "%31s %7s %15s %d", r, p, m, &n) != 4) return 0;
    for (int i = 0; i < nbest; i++)
        if (!strcmp(best[i].routine, r) && !strcmp(best[i].prec, p) &&
            !strcmp(mode_names[best[i].mode], m) && best[i].n == n)
            return 1;
    return 0;
}

// Writes the tuning file: a header, the entries of an existing file that
// were not measured again, then the new ones.  It is written anew after
// each run, so that a sweep cut short keeps what it measured.  0, or 1
// (said on stderr).
static int tune_write(const options_t *o)
{
    const char *path = o->out ? o->out : default_out();
    // Keep what is there, read whole before the file is rewritten.
    char *kept = NULL;
    size_t len = 0;
    FILE *old = fopen(path, "r");
    if (old) {
        FILE *mem = open_memstream(&kept, &len);
        char line[1024];
        while (mem && fgets(line, sizeof line, old)) {
            const char *t = line + strspn(line, " \t");
            if (*t != '#' && *t != '\n' && !superseded(t)) fputs(line, mem);
        }
        if (mem) fclose(mem);
        fclose(old);
    }
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "hyla-bench: %s: %s\n", path, strerror(errno));
        free(kept);
        return 1;
    }
    char date[32];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%d", localtime(&now));
    fprintf(f,
            "# hyla tuning file, written by hyla-bench tune on %s\n"
            "# machine: %s; %s\n"
            "# command: %s\n"
            "# routine prec mode n nb lookahead panel_threads seconds\n",
            date, cpu_line, topology, o->command);
    if (kept) fputs(kept, f);
    free(kept);
    for (int i = 0; i < nbest; i++)
        fprintf(f, "%s %s %s %d %d %d %d %.6f\n", best[i].routine, best[i].prec,
                mode_names[best[i].mode], best[i].n, best[i].nb,
                best[i].lookahead, best[i].panel_threads, best[i].seconds);
    if (fclose(f)) {
        fprintf(stderr, "hyla-bench: %s: %s\n", path, strerror(errno));
        return 1;
    }
    return 0;
}

// hyla on case c with configuration cfg, beside the reference's result
// rr: prints and writes the row.  0, -1 when the residual failed, or an
// exit status.
static int measure(const options_t *o, const hyla_config_t *cfg,
                   const bench_case_t *c, const char *p, runner_t run,
                   const bench_result_t *rr, results_t *out)
{
    // On a terminal, a long sweep says where it is.
    static int done;
    int progress = o->cases > 1 && isatty(STDERR_FILENO);
    bench_result_t hr = {0, 0, -1, 0, -1, -1, -1, -1};
    int rc = hyla_init(cfg);
    if (rc) {
        fprintf(stderr, "hyla-bench: hyla_init: %s (%s)\n", hyla_strerror(rc),
                hyla_error_detail());
        return 1;
    }
    hyla_config_t used;
    hyla_config_get(&used);
    // The tile size and lookahead this call takes (per call, when not set).
    if (!bench_is_batched(c->routine))
        hyla_tuned(c->routine, *p, c->m > c->n ? c->m : c->n, &used.nb,
                   &used.lookahead);
    static int shown;
    if (!shown++)
        snprintf(topology, sizeof topology, "%s, %d GPU%s, mode %s",
                 hyla_topology(), used.ngpus, used.ngpus == 1 ? "" : "s",
                 mode_name(used.mode));
    if (shown == 1)
        printf("# %s, %d GPU%s, mode %s, scheduler %s; reference "
               "%s\n",
               hyla_topology(), used.ngpus, used.ngpus == 1 ? "" : "s",
               mode_name(used.mode), used.scheduler, ref_name(o->ref_name));
    fflush(stdout);
    if (progress)
        fprintf(stderr, "[%d/%d] %s %s n=%d nb=%d lookahead=%d...", ++done,
                o->cases, c->routine, p, c->n, used.nb, used.lookahead);
    if (run(c, &hr)) {
        fprintf(stderr, "hyla-bench: unknown routine '%s'\n", c->routine);
        return 2;
    }
    hyla_finalize();
    if (progress) fputs("\r\033[K", stderr); // the line erased

    double flops = bench_flops(c);
    double hg = flops / hr.t_min * 1e-9;
    double rg = o->ref ? flops / rr->t_min * 1e-9 : 0.0;
    double ratio = o->ref ? rr->t_min / hr.t_min : 0.0;
    const char *status = hr.info != 0                 ? "error"
                         : !o->check                  ? "unchecked"
                         : hr.resid <= HYLA_CHECK_TOL ? "ok"
                                                      : "FAILED";
    int failed = strcmp(status, "ok") && strcmp(status, "unchecked");
    printf("%-7s %3s %6d %5d %3d %4d %9.4f %9.4f %8.1f | %9.4f "
           "%8.1f | %6.3f %9.2e  %s\n",
           c->routine, p, c->m == c->n ? c->n : c->m, used.nb, used.lookahead,
           used.ncpus, hr.t_min, hr.t_median, hg, rr->t_min, rg, ratio,
           hr.resid, status);
    if (o->energy) {
        print_energy("hyla", flops, &hr);
        if (o->ref) print_energy(ref_name(o->ref_name), flops, rr);
    }
    fflush(stdout);
    result_row_t row;
    fill_row(&row, o, c, p, cfg->mode, &used, &hr, rr, hg, rg, ratio, status);
    results_write(out, &row);
    if (o->tune && !failed && hr.info == 0) {
        tune_record(c->routine, p, c->m > c->n ? c->m : c->n, &used, hr.t_min);
        if (tune_write(o)) return 1;
    }
    return failed ? -1 : 0;
}

int main(int argc, char **argv)
{
    // A row as soon as it is measured, also through a pipe: a run stopped
    // by a time limit keeps the rows it finished.
    setvbuf(stdout, NULL, _IOLBF, 0);
    options_t o;
    parse(argc, argv, &o);
    int ncores = (int)sysconf(_SC_NPROCESSORS_ONLN);
    // The reference's threads: the most CPU workers hyla gets; its GPUs
    // (cuSolverMg): the most hyla gets.
    int threads = 0, ref_gpus = o.list[NGPUS_L][0];
    for (int i = 0; i < o.count[NCPUS_L]; i++) {
        int t = o.list[NCPUS_L][i] > 0 ? o.list[NCPUS_L][i] : ncores;
        threads = t > threads ? t : threads;
    }
    for (int i = 1; i < o.count[NGPUS_L]; i++)
        if (ref_gpus >= 0 &&
            (o.list[NGPUS_L][i] < 0 || o.list[NGPUS_L][i] > ref_gpus))
            ref_gpus = o.list[NGPUS_L][i];
    char cpu[128];
    cpu_model(cpu, sizeof cpu);
    snprintf(cpu_line, sizeof cpu_line, "%s, %d cores", cpu, ncores);

    results_t out;
    if (results_open(&out, o.csv, o.json)) return 2;
    printf("# hyla %s, %s, %d cores; reference: %s with %d threads\n",
           hyla_version(), cpu, ncores, openblas_get_config(), threads);
    printf("%-6s %4s %6s %5s %3s %4s %9s %9s %8s | %9s %8s | %6s %9s  %s\n",
           "routine", "prec", "m|n", "nb", "la", "ncpu", "hyla_s", "median",
           "GFLOP/s", "ref_s", "GFLOP/s", "ratio", "residual", "status");

    if (o.energy) energy_start(o.cpu_watts);
    int failures = 0;
    char *routines = strdup(o.routines), *save_r;
    for (char *rt = strtok_r(routines, ",", &save_r); rt;
         rt = strtok_r(NULL, ",", &save_r)) {
        char *precs = strdup(o.precs), *save_p;
        for (char *p = strtok_r(precs, ",", &save_p); p;
             p = strtok_r(NULL, ",", &save_p)) {
            if (strcmp(p, "d") && strcmp(p, "s")) {
                fprintf(stderr, "hyla-bench: unknown precision '%s'\n", p);
                return 2;
            }
            runner_t ref = *p == 'd' ? bench_dref : bench_sref;
            runner_t run = *p == 'd' ? bench_dhyla : bench_shyla;
            char *sizes = strdup(o.sizes), *save_n;
            for (char *ns = strtok_r(sizes, ",", &save_n); ns;
                 ns = strtok_r(NULL, ",", &save_n)) {
                int n = parse_int(ns, "--n", 0);
                bench_case_t c = {.routine = rt,
                                  .m = o.m > 0 ? o.m : n,
                                  .n = n,
                                  .ref = o.ref_name,
                                  .trace = o.trace,
                                  .nrhs = o.nrhs,
                                  .repeat = o.repeat,
                                  .check = o.check,
                                  .tile = o.tile,
                                  .on_gpu = o.on_gpu,
                                  .in_tiles = o.in_tiles,
                                  .ref_gpus = ref_gpus,
                                  .ref_threads = threads,
                                  .batch = o.batch,
                                  .seed = o.seed,
                                  .rbt_depth = o.rbt_depth};
                bench_result_t rr = {0, 0, -1, 0, -1, -1, -1, -1};
                // The reference runs while hyla is stopped, with every
                // thread it is allowed.
                if (o.ref) {
                    openblas_set_num_threads(threads);
                    if (ref(&c, &rr)) {
                        fprintf(stderr, "hyla-bench: unknown routine '%s'\n",
                                rt);
                        return 2;
                    }
                    if (rr.info == -2000) {
                        fprintf(stderr,
                                "hyla-bench: no cuSOLVER reference "
                                "for %s in this build\n",
                                rt);
                        return 2;
                    }
                    if (rr.info == -1000) {
                        fprintf(stderr, "hyla-bench: the cuSOLVER reference "
                                        "failed (no GPU?)\n");
                        return 1;
                    }
                }
                int total = 1;
                for (int d = 0; d < 6; d++)
                    total *= o.count[d];
                for (int i = 0; i < total; i++) {
                    // The last dimension (mode) fastest.
                    int v[6], k = i;
                    for (int d = 5; d >= 0; d--) {
                        v[d] = o.list[d][k % o.count[d]];
                        k /= o.count[d];
                    }
                    hyla_config_t cfg = o.cfg;
                    cfg.ncpus = v[NCPUS_L];
                    cfg.ngpus = v[NGPUS_L];
                    cfg.nb = v[NB_L];
                    cfg.lookahead = v[LA_L];
                    cfg.panel_threads = v[PT_L];
                    cfg.mode = (hyla_mode_t)v[MODE_L];
                    int rc = measure(&o, &cfg, &c, p, run, &rr, &out);
                    if (rc < 0) failures++;
                    if (rc > 0) return rc;
                }
            }
            free(sizes);
        }
        free(precs);
    }
    free(routines);
    if (o.energy) energy_stop();
    results_close(&out);
    if (o.tune)
        printf("# %d entries written to %s\n", nbest,
               o.out ? o.out : default_out());
    return failures ? 1 : 0;
}
