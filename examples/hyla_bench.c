// SPDX-License-Identifier: BSD-3-Clause
// hyla-bench: times hyla's factorizations and solves against the system
// LAPACK (OpenBLAS) on the same matrices, in the same run, and prints both,
// their ratio and hyla's residual.
#include "bench.h"
#include "check.h"
#include "energy.h"
#include "results.h"

#include <cblas.h>
#include <getopt.h>
#include <hyla.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char usage[] =
    "Usage: hyla-bench [options]\n"
    "Times hyla against the system LAPACK (OpenBLAS) on the same matrices.\n"
    "\n"
    "  -r, --routine LIST  getrf, potrf, gesv, posv, gesv_rbt (random\n"
    "                      butterflies, LU without pivoting, refinement;\n"
    "                      against LAPACK's gesv), comma-separated\n"
    "                      (default getrf,potrf)\n"
    "  -n, --n LIST        matrix orders, comma-separated (default 4000)\n"
    "  -m, --m M           rows of getrf's matrices (default: n, square)\n"
    "  -p, --prec LIST     d, s or d,s (default d)\n"
    "      --nb LIST       tile sizes, comma-separated (default: hyla's, or\n"
    "                      HYLA_NB)\n"
    "      --lookahead LIST  panel steps updated ahead (default: hyla's)\n"
    "                      Lists sweep: every routine, precision, n, nb,\n"
    "                      lookahead, panel threads and mode together; the\n"
    "                      reference runs once per routine, precision and n\n"
    "      --ncpus P       hyla's CPU workers and the reference's threads\n"
    "                      (default: every core)\n"
    "      --sched NAME    StarPU scheduling policy (default: hyla's)\n"
    "      --panel-threads LIST  threads of one LU panel (default: hyla's)\n"
    "      --nrhs K        right-hand sides of the solves (default 1)\n"
    "      --repeat R      timed runs of each (default 3; min and median)\n"
    "      --tile          time hyla's tile-level call alone, without the\n"
    "                      copies between LAPACK and tile layouts\n"
    "      --on-gpu        as --tile, the tiles first placed on the GPUs\n"
    "                      (hyla_desc_place), as cuSOLVER's matrix is\n"
    "      --no-ref        do not run the reference\n"
    "      --ref NAME      the reference: lapack (default: the system\n"
    "                      LAPACK, OpenBLAS), getf2 (getrf: LAPACK's\n"
    "                      unblocked dgetf2) or cusolver (cuSOLVER's\n"
    "                      getrf, potrf, and for the solves getrs, potrs\n"
    "                      after them, with the matrix already on the GPU;\n"
    "                      CUDA builds) or cusolvermg (the same with\n"
    "                      cuSolverMg on --ngpus GPUs, default all)\n"
    "      --mode LIST     cpu, hybrid, native or auto (default: hyla's)\n"
    "      --ngpus G       GPUs for hyla (default: hyla's, all)\n"
    "      --gpu-streams S CUDA streams per GPU (default: hyla's)\n"
    "      --mapping M     scheduler or cyclic: who places GPU tasks\n"
    "      --trsm-inv      TRSMs by the diagonal tiles as GEMMs by their\n"
    "                      inverses (Cholesky, LU)\n"
    "      --reserved-sms K  SMs per GPU that cuBLAS calls off the critical\n"
    "                      path leave free (default: hyla's, none)\n"
    "      --panel-rows R  rows of one thread block of the GPU LU panel\n"
    "                      (default: hyla's, 256)\n"
    "      --rbt-depth D   butterfly depth of gesv_rbt, 0 to 4 (default:\n"
    "                      hyla's, 2)\n"
    "      --seed S        seed of the matrices (default 1)\n"
    "      --trace FILE    after the timed runs, trace one more hyla run of\n"
    "                      each case into FILE (Chrome/Perfetto JSON; the\n"
    "                      last case wins); scripts/trace_svg.py draws it\n"
    "      --energy        also the energy of one timed run: the GPUs'\n"
    "                      (NVML energy counters, all GPUs of the node) and\n"
    "                      the CPU packages' (RAPL), read every ms, where\n"
    "                      readable; printed with GFLOP/s per watt\n"
    "      --no-check      do not compute residuals\n"
    "      --csv FILE      also write the results to FILE as CSV\n"
    "      --json FILE     also write them to FILE as JSON (an array of\n"
    "                      objects with the CSV's column names)\n"
    "  -h, --help          this text\n"
    "\n"
    "GFLOP/s use the best of the timed runs; ratio = reference time / hyla\n"
    "time (above 1: hyla is faster).  The residual is hyla's, O(n^2) form:\n"
    "||PAx - LUx|| / (||A|| ||x|| n eps) (getrf), the same with LL^T (potrf),\n"
    "||b - Ax|| / (||A|| ||x|| n eps) (solves); it passes at <= 60.\n";

enum { MAX_LIST = 64 };

typedef struct {
    char *routines, *sizes, *precs, *csv, *json, *ref_name, *trace;
    int m, nrhs, repeat, check, ref, tile, on_gpu, energy, rbt_depth, seed;
    hyla_config_t cfg;
    // The swept values.
    int nbs[MAX_LIST], nnb, las[MAX_LIST], nla, pts[MAX_LIST], npt;
    hyla_mode_t modes[MAX_LIST];
    int nmode;
    int cases; // hyla's runs in all
} options_t;

// One line per library: joules of one run and GFLOP/s per watt
// (= GFLOP per joule), GPU, CPU and both, where measured.
static void print_energy(const char *who, double flops, const bench_result_t *r)
{
    printf("#   energy %-9s", who);
    double both = 0.0;
    int any = 0;
    const double j[2] = {r->gpu_j, r->cpu_j};
    const char *name[2] = {"GPU", "CPU"};
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
static int parse_modes(const char *list, hyla_mode_t *v)
{
    char buf[512], *item[MAX_LIST];
    int k = items(list, "--mode", buf, item);
    for (int i = 0; i < k; i++)
        v[i] = (hyla_mode_t)known(item[i], "--mode", mode_names);
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
static int count(const char *list)
{
    int k = 1;
    for (; *list; list++)
        k += *list == ',';
    return k;
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
        STREAMS,
        MAPPING,
        TRSMINV,
        RESERVE,
        PANELROWS,
        ENERGY,
        RBTDEPTH,
        SEED
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
        {"gpu-streams", required_argument, 0, STREAMS},
        {"mapping", required_argument, 0, MAPPING},
        {"trsm-inv", no_argument, 0, TRSMINV},
        {"reserved-sms", required_argument, 0, RESERVE},
        {"panel-rows", required_argument, 0, PANELROWS},
        {"energy", no_argument, 0, ENERGY},
        {"rbt-depth", required_argument, 0, RBTDEPTH},
        {"seed", required_argument, 0, SEED},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0}};
    *o = (options_t){.routines = "getrf,potrf",
                     .sizes = "4000",
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
    int c;
    while ((c = getopt_long(argc, argv, "r:n:m:p:h", longs, NULL)) != -1) {
        switch (c) {
        case 'r': o->routines = optarg; break;
        case 'n': o->sizes = optarg; break;
        case 'p': o->precs = optarg; break;
        case NB: o->nnb = parse_ints(optarg, "--nb", 1, o->nbs); break;
        case LOOKAHEAD:
            o->nla = parse_ints(optarg, "--lookahead", 0, o->las);
            break;
        case NCPUS: o->cfg.ncpus = parse_int(optarg, "--ncpus", 1); break;
        case SCHED: o->cfg.scheduler = optarg; break;
        case NRHS: o->nrhs = parse_int(optarg, "--nrhs", 0); break;
        case REPEAT: o->repeat = parse_int(optarg, "--repeat", 1); break;
        case TILE: o->tile = 1; break;
        case ONGPU: o->tile = o->on_gpu = 1; break;
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
            if (!strcmp(optarg, "scheduler"))
                o->cfg.mapping = HYLA_MAP_SCHEDULER;
            else if (!strcmp(optarg, "cyclic"))
                o->cfg.mapping = HYLA_MAP_CYCLIC;
            else {
                fprintf(stderr,
                        "hyla-bench: --mapping: scheduler or cyclic "
                        "(got '%s')\n",
                        optarg);
                exit(2);
            }
            break;
        case NOREF: o->ref = 0; break;
        case REF: o->ref_name = optarg; break;
        case TRACE: o->trace = optarg; break;
        case ENERGY: o->energy = 1; break;
        case RBTDEPTH:
            o->rbt_depth = parse_int(optarg, "--rbt-depth", 0);
            break;
        case SEED: o->seed = parse_int(optarg, "--seed", 0); break;
        case PANEL:
            o->npt = parse_ints(optarg, "--panel-threads", 1, o->pts);
            break;
        case 'm': o->m = parse_int(optarg, "--m", 0); break;
        case NGPUS: o->cfg.ngpus = parse_int(optarg, "--ngpus", 0); break;
        case MODE: o->nmode = parse_modes(optarg, o->modes); break;
        case NOCHECK: o->check = 0; break;
        case CSV: o->csv = optarg; break;
        case JSON: o->json = optarg; break;
        case 'h': fputs(usage, stdout); exit(0);
        default: fputs(usage, stderr); exit(2);
        }
    }
    if (o->ref_name && strcmp(o->ref_name, "lapack") &&
        strcmp(o->ref_name, "getf2") && strcmp(o->ref_name, "cusolver") &&
        strcmp(o->ref_name, "cusolvermg")) {
        fprintf(stderr, "hyla-bench: --ref must be lapack, getf2, cusolver "
                        "or cusolvermg\n");
        exit(2);
    }
    if (optind < argc) {
        fprintf(stderr, "hyla-bench: unexpected argument '%s'\n%s",
                argv[optind], usage);
        exit(2);
    }
    static const char *const routines[] = {"getrf", "potrf",    "gesv",
                                           "posv",  "gesv_rbt", NULL};
    static const char *const precs[] = {"d", "s", NULL};
    if (!o->nnb) o->nbs[o->nnb++] = o->cfg.nb;
    if (!o->nla) o->las[o->nla++] = o->cfg.lookahead;
    if (!o->npt) o->pts[o->npt++] = o->cfg.panel_threads;
    if (!o->nmode) o->modes[o->nmode++] = o->cfg.mode;
    check_list(o->routines, "routine", routines);
    check_list(o->precs, "precision", precs);
    o->cases = count(o->routines) * count(o->precs) * count(o->sizes) * o->nnb *
               o->nla * o->npt * o->nmode;
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
    return "openblas";
}

// The row of one case, in result_names' order.
static void fill_row(result_row_t *row, const options_t *o,
                     const bench_case_t *c, const char *prec,
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
    COL("%s", o->on_gpu ? "tile-gpu" : o->tile ? "tile" : "lapack");
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
    COL("%s", used->mapping == HYLA_MAP_CYCLIC ? "cyclic" : "scheduler");
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
#undef COL
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
    static int shown;
    if (!shown++)
        printf("# %s, %d GPU%s, mode %s, scheduler %s; reference "
               "%s\n",
               hyla_topology(), used.ngpus, used.ngpus == 1 ? "" : "s",
               mode_name(used.mode), used.scheduler, ref_name(o->ref_name));
    fflush(stdout);
    if (progress)
        fprintf(stderr, "[%d/%d] %s %s n=%d nb=%d lookahead=%d...", ++done,
                o->cases, c->routine, p, c->n, cfg->nb, cfg->lookahead);
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
    fill_row(&row, o, c, p, &used, &hr, rr, hg, rg, ratio, status);
    results_write(out, &row);
    return failed ? -1 : 0;
}

int main(int argc, char **argv)
{
    options_t o;
    parse(argc, argv, &o);
    int ncores = (int)sysconf(_SC_NPROCESSORS_ONLN);
    int threads = o.cfg.ncpus > 0 ? o.cfg.ncpus : ncores;
    char cpu[128];
    cpu_model(cpu, sizeof cpu);

    results_t out;
    if (results_open(&out, o.csv, o.json)) return 2;
    printf("# hyla %s, %s, %d cores; reference: %s with %d threads\n",
           hyla_version(), cpu, ncores, openblas_get_config(), threads);
    printf("%-6s %4s %6s %5s %3s %4s %9s %9s %8s | %9s %8s | %6s %9s  %s\n",
           "routine", "prec", "m|n", "nb", "la", "ncpu", "hyla_s", "median",
           "GFLOP/s", "ref_s", "GFLOP/s", "ratio", "residual", "status");

    if (o.energy) energy_start();
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
                                  .ref_gpus = o.cfg.ngpus,
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
                for (int i = 0; i < o.nnb * o.nla * o.npt * o.nmode; i++) {
                    // Mode fastest, then panel threads, lookahead, nb.
                    hyla_config_t cfg = o.cfg;
                    int k = i;
                    cfg.mode = o.modes[k % o.nmode];
                    k /= o.nmode;
                    cfg.panel_threads = o.pts[k % o.npt];
                    k /= o.npt;
                    cfg.lookahead = o.las[k % o.nla];
                    cfg.nb = o.nbs[k / o.nla];
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
    return failures ? 1 : 0;
}
