// SPDX-License-Identifier: BSD-3-Clause
// hyla-mpi-bench: distributed Cholesky, LU or the RBT solver against the
// single-process run of the same total resources, in the same launch.
//
//   mpiexec --bind-to none -n R hyla-mpi-bench [options]
//
// Every rank starts hyla over MPI with W CPU workers (and G GPUs); rank 0
// makes the matrix, which goes to a tile matrix distributed over the
// P-by-Q grid; the factorization is timed (best of K, from a barrier to
// the call's return: the call ends collectively).  Then hyla stops, and
// rank 0 alone starts it again with R*W workers (R*G GPUs) and factors the
// same matrix as one process's tile matrix.  Rank 0 prints a row per
// order: both times, both rates, both residuals (the O(n^2) probe of
// tests/check_d.h; for gesv_rbt, with one right-hand side, ||b - A x|| /
// (||A|| ||x|| n eps)), and the speedup t(single) / t(distributed).  The
// rates of gesv_rbt count LU's 2n^3/3.
//
// Options:
//   -r potrf|getrf|gesv_rbt   routine (getrf)
//   -n N[,N...]      orders (4096)
//   --grid PxQ       process grid, P*Q = R (the squarest with P <= Q)
//   --cpus W         CPU workers per rank (1)
//   --gpus G         GPUs per rank (0); rank r drives GPUs r*G .. r*G+G-1
//   --mode M         cpu, hybrid, native or auto (cpu without GPUs, else
//                    auto)
//   --nb NB          tile size (0: hyla's default for the order)
//   --reps K         repetitions, the best is kept (2)
//   --ref single|none  time the single-process run too (single)
//   --bind           pin rank r's workers to cores r*W .. r*W+W-1, the
//                    single-process run's to 0 .. R*W-1
//   --csv FILE       append the rows to FILE (a header when it is new)
// Exit status: 0, 1 (a bad option or a failed call), 2 (a residual above
// HYLA_CHECK_TOL, or an RBT solve that fell back to partial pivoting).
#include "check.h"
#include "csv_append.h"

#include <hyla_mpi.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_SIZES = 32 };
enum { GETRF, POTRF, RBT };
static const char *const routines[] = {"getrf", "potrf", "gesv_rbt"};

struct opts {
    int routine, sizes[MAX_SIZES], nsizes, p, q, cpus, gpus, mode, nb, reps;
    int ref, bind;
    const char *csv;
};

static int rank, nprocs;

static int parse_sizes(const char *s, struct opts *o)
{
    o->nsizes = 0;
    while (*s && o->nsizes < MAX_SIZES) {
        char *end;
        long v = strtol(s, &end, 10);
        if (end == s || v < 1 || v > 1 << 20) return -1;
        o->sizes[o->nsizes++] = (int)v;
        s = *end == ',' ? end + 1 : end;
        if (*end && *end != ',') return -1;
    }
    return o->nsizes ? 0 : -1;
}

static int parse_mode(const char *s, int *mode)
{
    static const struct {
        const char *name;
        int mode;
    } modes[] = {{"cpu", HYLA_MODE_CPU},
                 {"hybrid", HYLA_MODE_HYBRID},
                 {"native", HYLA_MODE_NATIVE},
                 {"auto", HYLA_MODE_AUTO}};
    for (size_t i = 0; i < sizeof modes / sizeof *modes; i++)
        if (!strcmp(s, modes[i].name)) {
            *mode = modes[i].mode;
            return 0;
        }
    return -1;
}

static int parse(int argc, char **argv, struct opts *o)
{
    *o = (struct opts){0, {4096}, 1, 0, 0, 1, 0, -1, 0, 2, 1, 0, NULL};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int bad = 0;
        if (!strcmp(a, "--bind")) {
            o->bind = 1;
            continue;
        }
        if (!v) return -1;
        i++;
        if (!strcmp(a, "-r")) {
            o->routine = -1;
            for (int r = GETRF; r <= RBT; r++)
                if (!strcmp(v, routines[r])) o->routine = r;
            bad = o->routine < 0;
        } else if (!strcmp(a, "--ref")) {
            o->ref = !strcmp(v, "single");
            bad = !o->ref && strcmp(v, "none");
        } else if (!strcmp(a, "-n"))
            bad = parse_sizes(v, o);
        else if (!strcmp(a, "--grid"))
            bad = sscanf(v, "%dx%d", &o->p, &o->q) != 2;
        else if (!strcmp(a, "--cpus"))
            bad = (o->cpus = atoi(v)) < 1;
        else if (!strcmp(a, "--gpus"))
            bad = (o->gpus = atoi(v)) < 0;
        else if (!strcmp(a, "--mode"))
            bad = parse_mode(v, &o->mode);
        else if (!strcmp(a, "--nb"))
            bad = (o->nb = atoi(v)) < 0;
        else if (!strcmp(a, "--reps"))
            bad = (o->reps = atoi(v)) < 1;
        else if (!strcmp(a, "--csv"))
            o->csv = v;
        else
            bad = 1;
        if (bad) return -1;
    }
    if (!o->p) {
        // The squarest grid with p <= q.
        for (o->p = 1; (o->p + 1) * (o->p + 1) <= nprocs; o->p++)
            ;
        while (nprocs % o->p)
            o->p--;
        o->q = nprocs / o->p;
    }
    if (o->p < 1 || o->q < 1 || o->p * o->q != nprocs) return -1;
    if (o->mode < 0) o->mode = o->gpus ? HYLA_MODE_AUTO : HYLA_MODE_CPU;
    return 0;
}

// The environment variable name set to "first first+1 ... first+count-1"
// (StarPU reads it when it starts), unless count is 0.
static void set_list(const char *name, int first, int count)
{
    if (!count) return;
    char list[4096];
    size_t len = 0;
    list[0] = '\0';
    for (int c = first; c < first + count && len + 12 < sizeof list; c++)
        len += (size_t)snprintf(list + len, sizeof list - len, "%s%d",
                                c > first ? " " : "", c);
    setenv(name, list, 1);
}

// Workers pinned to cores first .. (with bind), on GPUs first ...
static void place(const struct opts *o, int first_core, int cores,
                  int first_gpu, int gpus)
{
    if (o->bind) set_list("STARPU_WORKERS_CPUID", first_core, cores);
    set_list("STARPU_WORKERS_CUDAID", first_gpu, gpus);
}

static void config(hyla_config_t *cfg, const struct opts *o, int scale)
{
    hyla_config_init(cfg);
    cfg->ncpus = o->cpus * scale;
    cfg->ngpus = o->gpus * scale;
    cfg->mode = o->mode;
}

// Rank 0's matrix of order n (NULL elsewhere): SPD for Cholesky.
static double *make(const struct opts *o, int n, int seed)
{
    if (rank != 0) return NULL;
    double *A = malloc(sizeof(double) * (size_t)n * n);
    if (!A) return NULL;
    if (o->routine == POTRF)
        hyla_check_dgen_spd(n, A, n, seed);
    else
        hyla_check_dgen(n, n, A, n, seed);
    return A;
}

struct result {
    double seconds, resid;
    int nb, status;
    hyla_rbt_report_t rbt; // gesv_rbt's last
};

// The routine on T (and for gesv_rbt: b in TB, x to TX).
static int call(const struct opts *o, hyla_desc_t *T, int *ipiv,
                hyla_desc_t *TB, hyla_desc_t *TX, hyla_rbt_report_t *rep)
{
    switch (o->routine) {
    case POTRF: return hyla_dpotrf_tile('L', T);
    case GETRF: return hyla_dgetrf_tile(T, ipiv);
    default: return hyla_dgesv_rbt_tile(T, ipiv, TB, TX, NULL, rep);
    }
}

// Best of o->reps calls on rank 0's A in T (distributed or not), then
// the residual on rank 0 (F: room for the factors, or for b and x).
static struct result run(const struct opts *o, hyla_desc_t *T, const double *A,
                         double *F, int *ipiv, hyla_desc_t *TB, hyla_desc_t *TX,
                         int dist)
{
    struct result r = {INFINITY, NAN, 0, 0, {0, HYLA_RBT_NONE, 0}};
    int n;
    hyla_desc_size(T, &n, NULL, &r.nb);
    double *b = F, *x = F ? F + n : NULL;
    if (TB && rank == 0) hyla_check_dgen(n, 1, b, n, 7);
    if (TB) r.status = hyla_dlap_to_desc(b, n, TB);
    for (int k = 0; k < o->reps && !r.status; k++) {
        r.status = hyla_dlap_to_desc(A, n, T);
        if (r.status) break;
        if (dist) MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        r.status = call(o, T, ipiv, TB, TX, &r.rbt);
        double t = MPI_Wtime() - t0;
        if (t < r.seconds) r.seconds = t;
    }
    if (!r.status) r.status = hyla_ddesc_to_lap(TX ? TX : T, TX ? x : F, n);
    if (r.status || rank != 0) return r;
    if (o->routine == RBT)
        r.resid = hyla_check_dresid_solve('N', n, 1, A, n, x, n, b, n);
    else if (o->routine == POTRF)
        r.resid = hyla_check_dresid_potrf_probe('L', n, A, n, F, n);
    else
        r.resid = hyla_check_dresid_getrf_probe(n, n, A, n, F, n, ipiv);
    return r;
}

// An m-by-n tile matrix, distributed over o's grid or this process's.
static int create(const struct opts *o, int dist, hyla_desc_t **D, int m, int n,
                  int nb)
{
    return dist ? hyla_desc_create_dist(D, HYLA_DOUBLE, m, n, nb, o->p, o->q)
                : hyla_desc_create(D, HYLA_DOUBLE, m, n, nb);
}

// Order sizes[s] of o on a tile matrix distributed over the grid (dist)
// or this process's with tiles of nb: rank 0 makes the matrix.
static struct result measure(const struct opts *o, int s, int dist, int nb)
{
    int n = o->sizes[s], rbt = o->routine == RBT;
    struct result r = {
        INFINITY, NAN, nb, HYLA_ERR_OUT_OF_MEMORY, {0, HYLA_RBT_NONE, 0}};
    double *A = make(o, n, s + 1);
    size_t fsize = rbt ? (size_t)2 * n : (size_t)n * n;
    double *F = rank == 0 ? malloc(sizeof(double) * fsize) : NULL;
    int *ipiv = malloc(sizeof(int) * n);
    hyla_desc_t *T = NULL, *TB = NULL, *TX = NULL;
    int ok = ipiv && (rank != 0 || (A && F));
    // Creating a distributed matrix is collective: all go on, or none.
    if (dist)
        MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    int rc = ok ? create(o, dist, &T, n, n, nb) : HYLA_ERR_OUT_OF_MEMORY;
    // The b and x of gesv_rbt in tiles of A's size (nb 0: hyla's).
    if (!rc) hyla_desc_size(T, NULL, NULL, &r.nb);
    if (!rc && rbt) rc = create(o, dist, &TB, n, 1, r.nb);
    if (!rc && rbt) rc = create(o, dist, &TX, n, 1, r.nb);
    if (!rc)
        r = run(o, T, A, F, ipiv, TB, TX, dist);
    else
        r.status = rc;
    hyla_desc_destroy(&T);
    hyla_desc_destroy(&TB);
    hyla_desc_destroy(&TX);
    free(A);
    free(F);
    free(ipiv);
    return r;
}

static double gflops(const struct opts *o, int n, double seconds)
{
    double nn = n;
    double flops =
        o->routine == POTRF ? nn * nn * nn / 3.0 : 2.0 * nn * nn * nn / 3.0;
    return flops / seconds * 1e-9;
}

static FILE *csv_open(const struct opts *o)
{
    if (!o->csv || rank != 0) return NULL;
    return csv_append(o->csv,
                      "routine,n,nb,ranks,grid,cpus_per_rank,gpus_per_rank,"
                      "mode,seconds,gflops,resid,single_seconds,single_gflops,"
                      "single_resid,speedup");
}

int main(int argc, char **argv)
{
    int level;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &level);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    struct opts o;
    if (parse(argc, argv, &o)) {
        if (rank == 0)
            fprintf(stderr, "hyla-mpi-bench: bad options (see the head of "
                            "examples/hyla_mpi_bench.c)\n");
        MPI_Finalize();
        return 1;
    }

    // The distributed runs.
    struct result dist[MAX_SIZES], single[MAX_SIZES];
    hyla_config_t cfg;
    config(&cfg, &o, 1);
    place(&o, rank * o.cpus, o.cpus, rank * o.gpus, o.gpus);
    int rc = hyla_mpi_init(&cfg, MPI_COMM_WORLD);
    for (int s = 0; s < o.nsizes && !rc; s++) {
        dist[s] = measure(&o, s, 1, o.nb);
        rc = dist[s].status;
    }
    if (rc && rank == 0)
        fprintf(stderr, "hyla-mpi-bench: %d (%s) %s\n", rc, hyla_strerror(rc),
                hyla_error_detail());
    hyla_finalize();

    // The single-process runs of the same resources, on rank 0.
    if (!rc && o.ref && rank == 0) {
        config(&cfg, &o, nprocs);
        place(&o, 0, o.cpus * nprocs, 0, o.gpus * nprocs);
        rc = hyla_init(&cfg);
        for (int s = 0; s < o.nsizes && !rc; s++) {
            single[s] = measure(&o, s, 0, dist[s].nb);
            rc = single[s].status;
        }
        if (rc)
            fprintf(stderr, "hyla-mpi-bench: single process: %d (%s) %s\n", rc,
                    hyla_strerror(rc), hyla_error_detail());
        hyla_finalize();
    }

    int code = rc ? 1 : 0;
    if (rank == 0 && !rc) {
        static const char *const modes[] = {"auto", "cpu", "hybrid", "native"};
        FILE *f = csv_open(&o);
        printf("%-8s %7s %5s %5s %5s %4s %4s %9s %8s %9s %9s %8s %9s %7s\n",
               "kernel", "n", "nb", "ranks", "grid", "cpus", "gpus", "seconds",
               "gflops", "resid", "single_s", "single_gf", "resid", "speedup");
        for (int s = 0; s < o.nsizes; s++) {
            int n = o.sizes[s];
            const struct result *d = &dist[s], *r = &single[s];
            double rs = o.ref ? r->seconds : NAN;
            double rg = o.ref ? gflops(&o, n, rs) : NAN;
            double rr = o.ref ? r->resid : NAN;
            char grid[32];
            snprintf(grid, sizeof grid, "%dx%d", o.p, o.q);
            printf("%-8s %7d %5d %5d %5s %4d %4d %9.3f %8.1f %9.2e %9.3f %8.1f "
                   "%9.2e %7.2f\n",
                   routines[o.routine], n, d->nb, nprocs, grid, o.cpus, o.gpus,
                   d->seconds, gflops(&o, n, d->seconds), d->resid, rs, rg, rr,
                   rs / d->seconds);
            if (f)
                fprintf(f,
                        "%s,%d,%d,%d,%s,%d,%d,%s,%.4f,%.2f,%.3e,%.4f,%.2f,"
                        "%.3e,%.3f\n",
                        routines[o.routine], n, d->nb, nprocs, grid, o.cpus,
                        o.gpus, modes[o.mode], d->seconds,
                        gflops(&o, n, d->seconds), d->resid, rs, rg, rr,
                        rs / d->seconds);
            if (!(d->resid <= HYLA_CHECK_TOL) ||
                (o.ref && !(r->resid <= HYLA_CHECK_TOL)))
                code = 2;
            // A fall back timed partial pivoting, not RBT.
            if (o.routine == RBT &&
                (d->rbt.fallback || (o.ref && r->rbt.fallback))) {
                printf("gesv_rbt %d: fell back (%d, single process %d)\n", n,
                       (int)d->rbt.fallback, o.ref ? (int)r->rbt.fallback : 0);
                code = 2;
            }
        }
        if (f) fclose(f);
    }
    MPI_Bcast(&code, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return code;
}
