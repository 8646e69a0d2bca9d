// SPDX-License-Identifier: BSD-3-Clause
// Argument checks of the double-precision API.  @precisions d -> s
#include "check.h"
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

// Checks that every public d routine refuses each illegal argument with
// exactly -position (LAPACK numbering, the first argument is 1): negative
// sizes, lda or ldb < max(1, rows) (0 included, even for an empty matrix),
// NULL arrays of a non-empty matrix, bad uplo and trans characters, getrs
// pivots outside [i+1, n], NULL tile matrices or tile matrices of the
// other element type, a non-square A and right-hand sides with other rows
// or another tile size in the tile solves.  A refused call does not crash,
// leaves every array and tile matrix bit-identical and leaves a detail
// naming the routine in hyla_error_detail().  Quick returns (a zero size,
// the other arguments valid) give 0 and touch nothing; lower-case flags
// are accepted.  Before hyla_init every routine gives
// HYLA_ERR_NOT_INITIALIZED.
//
// Each routine's cases run in a child process with its own hyla, so that
// a crash or a hang fails those cases and the others still run.

enum { N = 10, NRHS = 3, LDA = N + 3, LDB = N + 2, NB = 4 };

// The arrays handed to the routines, and their original contents.
static double A[LDA * N], A0[LDA * N], B[LDB * NRHS], B0[LDB * NRHS];
static int ipiv[N], ipiv0[N];

// Tile matrices: A (N x N) and B (N x NRHS) hold A0 and B0; R is not
// square; BR has N + 1 rows, BNB tiles of NB + 1; F and FB hold the other
// element type; E is 0 x 0, E0 0 x NRHS and B0N N x 0.
static hyla_desc_t *TA, *TB, *TR, *BR, *BNB, *F, *FB, *E, *E0, *B0N;

static void restore(void)
{
    memcpy(A, A0, sizeof A);
    memcpy(B, B0, sizeof B);
    memcpy(ipiv, ipiv0, sizeof ipiv);
    if (TA && TB) {
        hyla_dlap_to_desc(A0, LDA, TA);
        hyla_dlap_to_desc(B0, LDB, TB);
    }
}

// Every array and the tile matrices TA and TB hold what they held.
static int untouched(void)
{
    int ok = !memcmp(A, A0, sizeof A) && !memcmp(B, B0, sizeof B) &&
             !memcmp(ipiv, ipiv0, sizeof ipiv);
    if (ok && TA && TB) {
        static double X[LDA * N], Y[LDB * NRHS];
        memcpy(X, A0, sizeof X);
        memcpy(Y, B0, sizeof Y);
        ok = !hyla_ddesc_to_lap(TA, X, LDA) && !hyla_ddesc_to_lap(TB, Y, LDB) &&
             !memcmp(X, A0, sizeof X) && !memcmp(Y, B0, sizeof Y);
    }
    return ok;
}

static void expect(int got, int want, const char *routine, const char *call,
                   int line)
{
    // Copy the detail before untouched() makes other calls.
    char detail[256];
    snprintf(detail, sizeof detail, "%s", hyla_error_detail());
    int detail_ok = want == 0 || strstr(detail, routine) != NULL;
    int same = untouched();
    th_check(got == want && detail_ok && same,
             "%s, line %d: %s returned %d, expected %d; detail '%s'%s%s",
             routine, line, call, got, want, detail,
             detail_ok ? "" : " (no detail naming it)",
             same ? "" : "; an array or tile matrix changed");
    restore();
}

#define EXPECT(routine, call, want)                                            \
    expect((call), (want), routine, #call, __LINE__)

//==== the cases of each routine ====

static void layout(void)
{
    const char *r1 = "hyla_dlap_to_desc", *r2 = "hyla_ddesc_to_lap";
    EXPECT(r1, hyla_dlap_to_desc(NULL, LDA, TA), -1);
    EXPECT(r1, hyla_dlap_to_desc(A, N - 1, TA), -2);
    EXPECT(r1, hyla_dlap_to_desc(A, 0, E), -2);
    EXPECT(r1, hyla_dlap_to_desc(A, -1, E), -2);
    EXPECT(r1, hyla_dlap_to_desc(A, LDA, NULL), -3);
    EXPECT(r1, hyla_dlap_to_desc(A, LDA, F), -3);
    EXPECT(r1, hyla_dlap_to_desc(A, 1, E), 0);
    EXPECT(r1, hyla_dlap_to_desc(A, 1, E0), 0);
    EXPECT(r1, hyla_dlap_to_desc(A, LDA, B0N), 0);

    EXPECT(r2, hyla_ddesc_to_lap(NULL, A, LDA), -1);
    EXPECT(r2, hyla_ddesc_to_lap(F, A, LDA), -1);
    EXPECT(r2, hyla_ddesc_to_lap(TA, NULL, LDA), -2);
    EXPECT(r2, hyla_ddesc_to_lap(TA, A, N - 1), -3);
    EXPECT(r2, hyla_ddesc_to_lap(E, A, 0), -3);
    EXPECT(r2, hyla_ddesc_to_lap(E, A, 1), 0);
    EXPECT(r2, hyla_ddesc_to_lap(B0N, A, LDA), 0);
}

static void getrf(void)
{
    const char *r = "hyla_dgetrf", *rt = "hyla_dgetrf_tile";
    EXPECT(r, hyla_dgetrf(-1, N, A, LDA, ipiv), -1);
    EXPECT(r, hyla_dgetrf(-1, -1, NULL, 0, NULL), -1); // the first one wins
    EXPECT(r, hyla_dgetrf(N, -1, A, LDA, ipiv), -2);
    EXPECT(r, hyla_dgetrf(N, N, NULL, LDA, ipiv), -3);
    EXPECT(r, hyla_dgetrf(N, N, A, N - 1, ipiv), -4);
    EXPECT(r, hyla_dgetrf(0, N, A, 0, ipiv), -4);
    EXPECT(r, hyla_dgetrf(0, 0, A, 0, ipiv), -4);
    EXPECT(r, hyla_dgetrf(N, N, A, LDA, NULL), -5);
    EXPECT(r, hyla_dgetrf(0, N, A, 1, ipiv), 0);
    EXPECT(r, hyla_dgetrf(N, 0, A, LDA, ipiv), 0);
    EXPECT(r, hyla_dgetrf(0, 0, A, 1, ipiv), 0);

    EXPECT(rt, hyla_dgetrf_tile(NULL, ipiv), -1);
    EXPECT(rt, hyla_dgetrf_tile(F, ipiv), -1);
    EXPECT(rt, hyla_dgetrf_tile(TA, NULL), -2);
    EXPECT(rt, hyla_dgetrf_tile(E, ipiv), 0);
    EXPECT(rt, hyla_dgetrf_tile(B0N, ipiv), 0);
}

// Pivots getrf cannot produce: ipiv[i] < i + 1 or > n.
static void bad_pivots(int which, int *p)
{
    memcpy(p, ipiv0, sizeof ipiv0);
    switch (which) {
    case 0: p[3] = 3; break;
    case 1: p[N - 1] = N + 1; break;
    case 2: p[0] = 0; break;
    default: p[5] = -1;
    }
}

static void getrs(void)
{
    const char *r = "hyla_dgetrs", *rt = "hyla_dgetrs_tile";
    int p[N];
    EXPECT(r, hyla_dgetrs('X', N, NRHS, A, LDA, ipiv, B, LDB), -1);
    EXPECT(r, hyla_dgetrs('L', N, NRHS, A, LDA, ipiv, B, LDB), -1);
    EXPECT(r, hyla_dgetrs('\0', N, NRHS, A, LDA, ipiv, B, LDB), -1);
    EXPECT(r, hyla_dgetrs('N', -1, NRHS, A, LDA, ipiv, B, LDB), -2);
    EXPECT(r, hyla_dgetrs('N', N, -1, A, LDA, ipiv, B, LDB), -3);
    EXPECT(r, hyla_dgetrs('N', N, NRHS, NULL, LDA, ipiv, B, LDB), -4);
    EXPECT(r, hyla_dgetrs('N', N, NRHS, A, N - 1, ipiv, B, LDB), -5);
    EXPECT(r, hyla_dgetrs('N', 0, NRHS, A, 0, ipiv, B, 1), -5);
    EXPECT(r, hyla_dgetrs('N', N, NRHS, A, LDA, NULL, B, LDB), -6);
    for (int w = 0; w < 4; w++) {
        bad_pivots(w, p);
        EXPECT(r, hyla_dgetrs('N', N, NRHS, A, LDA, p, B, LDB), -6);
        EXPECT(r, hyla_dgetrs('T', N, NRHS, A, LDA, p, B, LDB), -6);
    }
    EXPECT(r, hyla_dgetrs('N', N, NRHS, A, LDA, ipiv, NULL, LDB), -7);
    EXPECT(r, hyla_dgetrs('N', N, NRHS, A, LDA, ipiv, B, N - 1), -8);
    EXPECT(r, hyla_dgetrs('N', 0, NRHS, A, 1, ipiv, B, 0), -8);
    EXPECT(r, hyla_dgetrs('N', 0, NRHS, A, 1, ipiv, B, 1), 0);
    EXPECT(r, hyla_dgetrs('T', N, 0, A, LDA, ipiv, B, LDB), 0);

    EXPECT(rt, hyla_dgetrs_tile('X', TA, ipiv, TB), -1);
    EXPECT(rt, hyla_dgetrs_tile('N', NULL, ipiv, TB), -2);
    EXPECT(rt, hyla_dgetrs_tile('N', F, ipiv, TB), -2);
    EXPECT(rt, hyla_dgetrs_tile('N', TR, ipiv, TB), -2);
    EXPECT(rt, hyla_dgetrs_tile('N', TA, NULL, TB), -3);
    for (int w = 0; w < 4; w++) {
        bad_pivots(w, p);
        EXPECT(rt, hyla_dgetrs_tile('C', TA, p, TB), -3);
    }
    EXPECT(rt, hyla_dgetrs_tile('N', TA, ipiv, NULL), -4);
    EXPECT(rt, hyla_dgetrs_tile('N', TA, ipiv, FB), -4);
    EXPECT(rt, hyla_dgetrs_tile('N', TA, ipiv, BR), -4);
    EXPECT(rt, hyla_dgetrs_tile('N', TA, ipiv, BNB), -4);
    EXPECT(rt, hyla_dgetrs_tile('N', E, ipiv, E0), 0);
    EXPECT(rt, hyla_dgetrs_tile('T', TA, ipiv, B0N), 0);
}

static void gesv(void)
{
    const char *r = "hyla_dgesv", *rt = "hyla_dgesv_tile";
    EXPECT(r, hyla_dgesv(-1, NRHS, A, LDA, ipiv, B, LDB), -1);
    EXPECT(r, hyla_dgesv(N, -1, A, LDA, ipiv, B, LDB), -2);
    EXPECT(r, hyla_dgesv(N, NRHS, NULL, LDA, ipiv, B, LDB), -3);
    EXPECT(r, hyla_dgesv(N, NRHS, A, N - 1, ipiv, B, LDB), -4);
    EXPECT(r, hyla_dgesv(0, NRHS, A, 0, ipiv, B, 1), -4);
    EXPECT(r, hyla_dgesv(N, NRHS, A, LDA, NULL, B, LDB), -5);
    EXPECT(r, hyla_dgesv(N, NRHS, A, LDA, ipiv, NULL, LDB), -6);
    EXPECT(r, hyla_dgesv(N, NRHS, A, LDA, ipiv, B, N - 1), -7);
    EXPECT(r, hyla_dgesv(0, NRHS, A, 1, ipiv, B, 0), -7);
    EXPECT(r, hyla_dgesv(0, NRHS, A, 1, ipiv, B, 1), 0);
    EXPECT(r, hyla_dgesv(0, 0, A, 1, ipiv, B, 1), 0);

    EXPECT(rt, hyla_dgesv_tile(NULL, ipiv, TB), -1);
    EXPECT(rt, hyla_dgesv_tile(F, ipiv, TB), -1);
    EXPECT(rt, hyla_dgesv_tile(TR, ipiv, TB), -1);
    EXPECT(rt, hyla_dgesv_tile(TA, NULL, TB), -2);
    EXPECT(rt, hyla_dgesv_tile(TA, ipiv, NULL), -3);
    EXPECT(rt, hyla_dgesv_tile(TA, ipiv, FB), -3);
    EXPECT(rt, hyla_dgesv_tile(TA, ipiv, BR), -3);
    EXPECT(rt, hyla_dgesv_tile(TA, ipiv, BNB), -3);
    EXPECT(rt, hyla_dgesv_tile(E, ipiv, E0), 0);
}

static void potrf(void)
{
    const char *r = "hyla_dpotrf", *rt = "hyla_dpotrf_tile";
    EXPECT(r, hyla_dpotrf('X', N, A, LDA), -1);
    EXPECT(r, hyla_dpotrf('N', N, A, LDA), -1);
    EXPECT(r, hyla_dpotrf('L', -1, A, LDA), -2);
    EXPECT(r, hyla_dpotrf('U', N, NULL, LDA), -3);
    EXPECT(r, hyla_dpotrf('L', N, A, N - 1), -4);
    EXPECT(r, hyla_dpotrf('L', 0, A, 0), -4);
    EXPECT(r, hyla_dpotrf('L', 0, A, 1), 0);
    EXPECT(r, hyla_dpotrf('u', 0, A, 1), 0);

    EXPECT(rt, hyla_dpotrf_tile('X', TA), -1);
    EXPECT(rt, hyla_dpotrf_tile('L', NULL), -2);
    EXPECT(rt, hyla_dpotrf_tile('L', F), -2);
    EXPECT(rt, hyla_dpotrf_tile('U', TR), -2);
    EXPECT(rt, hyla_dpotrf_tile('L', E), 0);
}

// potrs and posv share their arguments: (uplo, n, nrhs, A, lda, B, ldb)
// and (uplo, A, B).
typedef int (*lap_fn)(char, int, int, double *, int, double *, int);
typedef int (*tile_fn)(char, hyla_desc_t *, hyla_desc_t *);

static int potrs_lap(char u, int n, int nrhs, double *a, int lda, double *b,
                     int ldb)
{
    return hyla_dpotrs(u, n, nrhs, a, lda, b, ldb);
}

// The negative nrhs cases come last: a crash ends the child, and the cases
// after it would not run.
static void spd_lap(const char *r, lap_fn f, int factors)
{
    EXPECT(r, f('X', N, NRHS, A, LDA, B, LDB), -1);
    EXPECT(r, f('T', N, NRHS, A, LDA, B, LDB), -1);
    EXPECT(r, f('L', -1, NRHS, A, LDA, B, LDB), -2);
    EXPECT(r, f('L', N, NRHS, NULL, LDA, B, LDB), -4);
    EXPECT(r, f('L', N, NRHS, A, N - 1, B, LDB), -5);
    EXPECT(r, f('L', 0, NRHS, A, 0, B, 1), -5);
    EXPECT(r, f('L', N, NRHS, A, LDA, NULL, LDB), -6);
    EXPECT(r, f('U', N, NRHS, A, LDA, B, N - 1), -7);
    EXPECT(r, f('U', 0, NRHS, A, 1, B, 0), -7);
    EXPECT(r, f('L', 0, NRHS, A, 1, B, 1), 0);
    if (factors) // a solve with no right-hand side does nothing
        EXPECT(r, f('U', N, 0, A, LDA, B, LDB), 0);
    EXPECT(r, f('U', N, -2, NULL, 0, NULL, 0), -3);
    EXPECT(r, f('L', N, -1, A, LDA, B, LDB), -3);
}

static void spd_tile(const char *rt, tile_fn ft)
{
    EXPECT(rt, ft('X', TA, TB), -1);
    EXPECT(rt, ft('L', NULL, TB), -2);
    EXPECT(rt, ft('L', F, TB), -2);
    EXPECT(rt, ft('U', TR, TB), -2);
    EXPECT(rt, ft('L', TA, NULL), -3);
    EXPECT(rt, ft('L', TA, FB), -3);
    EXPECT(rt, ft('U', TA, BR), -3);
    EXPECT(rt, ft('L', TA, BNB), -3);
    EXPECT(rt, ft('L', E, E0), 0);
}

static void potrs(void)
{
    spd_lap("hyla_dpotrs", potrs_lap, 1);
}

static void potrs_tile(void)
{
    spd_tile("hyla_dpotrs_tile", hyla_dpotrs_tile);
}

static void posv(void)
{
    spd_lap("hyla_dposv", hyla_dposv, 0);
}

static void posv_tile(void)
{
    spd_tile("hyla_dposv_tile", hyla_dposv_tile);
}

// Lower-case flags are the upper-case ones.
static void lower_case(void)
{
    static double S[LDA * N], X[LDB * NRHS];
    int p[N];
    hyla_check_dgen_spd(N, S, LDA, 3);
    static const char transes[] = {'n', 't', 'c'};
    for (int t = 0; t < 3; t++) {
        memcpy(A, S, sizeof A);
        memcpy(X, B0, sizeof X);
        int rc = hyla_dgetrf(N, N, A, LDA, p);
        if (!rc) rc = hyla_dgetrs(transes[t], N, NRHS, A, LDA, p, X, LDB);
        double resid = hyla_check_dresid_solve(transes[t] == 'n' ? 'N' : 'T', N,
                                               NRHS, S, LDA, X, LDB, B0, LDB);
        th_check(rc == 0 && resid <= HYLA_CHECK_TOL,
                 "dgetrs('%c'): %d, residual %.2e", transes[t], rc, resid);
    }
    static const char uplos[] = {'l', 'u'};
    for (int u = 0; u < 2; u++) {
        memcpy(A, S, sizeof A);
        memcpy(X, B0, sizeof X);
        int rc = hyla_dposv(uplos[u], N, NRHS, A, LDA, X, LDB);
        double resid =
            hyla_check_dresid_solve('N', N, NRHS, S, LDA, X, LDB, B0, LDB);
        th_check(rc == 0 && resid <= HYLA_CHECK_TOL,
                 "dposv('%c'): %d, residual %.2e", uplos[u], rc, resid);
        memcpy(A, S, sizeof A);
        memcpy(X, B0, sizeof X);
        rc = hyla_dpotrf(uplos[u], N, A, LDA);
        if (!rc) rc = hyla_dpotrs(uplos[u], N, NRHS, A, LDA, X, LDB);
        resid = hyla_check_dresid_solve('N', N, NRHS, S, LDA, X, LDB, B0, LDB);
        th_check(rc == 0 && resid <= HYLA_CHECK_TOL,
                 "dpotrf/dpotrs('%c'): %d, residual %.2e", uplos[u], rc, resid);
    }
    restore();
}

//==== before hyla_init ====

static void not_initialized(void)
{
    const int want = HYLA_ERR_NOT_INITIALIZED;
    EXPECT("hyla_dlap_to_desc", hyla_dlap_to_desc(A, LDA, NULL), want);
    EXPECT("hyla_ddesc_to_lap", hyla_ddesc_to_lap(NULL, A, LDA), want);
    EXPECT("hyla_dplrnt_tile", hyla_dplrnt_tile(NULL, 0, 0, 1), want);
    EXPECT("hyla_dplgsy_tile", hyla_dplgsy_tile(1.0, NULL, 0, 0, 1), want);
    EXPECT("hyla_dgetrf", hyla_dgetrf(N, N, A, LDA, ipiv), want);
    EXPECT("hyla_dgetrf_tile", hyla_dgetrf_tile(NULL, ipiv), want);
    EXPECT("hyla_dgetrs", hyla_dgetrs('N', N, NRHS, A, LDA, ipiv, B, LDB),
           want);
    EXPECT("hyla_dgetrs_tile", hyla_dgetrs_tile('N', NULL, ipiv, NULL), want);
    EXPECT("hyla_dgesv", hyla_dgesv(N, NRHS, A, LDA, ipiv, B, LDB), want);
    EXPECT("hyla_dgesv_tile", hyla_dgesv_tile(NULL, ipiv, NULL), want);
    EXPECT("hyla_dpotrf", hyla_dpotrf('L', N, A, LDA), want);
    EXPECT("hyla_dpotrf_tile", hyla_dpotrf_tile('L', NULL), want);
    EXPECT("hyla_dpotrs", hyla_dpotrs('L', N, NRHS, A, LDA, B, LDB), want);
    EXPECT("hyla_dpotrs_tile", hyla_dpotrs_tile('L', NULL, NULL), want);
    EXPECT("hyla_dposv", hyla_dposv('U', N, NRHS, A, LDA, B, LDB), want);
    EXPECT("hyla_dposv_tile", hyla_dposv_tile('U', NULL, NULL), want);
    // Even with bad arguments: the library state is checked first.
    EXPECT("hyla_dgetrf", hyla_dgetrf(-1, N, NULL, 0, NULL), want);
    EXPECT("hyla_dpotrf", hyla_dpotrf('X', N, A, LDA), want);

    hyla_desc_t *T = (hyla_desc_t *)&T; // not NULL: must be reset
    EXPECT("hyla_desc_create", hyla_desc_create(&T, HYLA_DOUBLE, N, N, NB),
           want);
    th_check(T == NULL,
             "hyla_desc_create before hyla_init left A = %p "
             "(documented: set to NULL on failure)",
             (void *)T);
    hyla_config_t cfg;
    EXPECT("hyla_config_get", hyla_config_get(&cfg), want);
    EXPECT("hyla_finalize", hyla_finalize(), want);
}

//==== running each routine's cases in a child ====

static void setup(void)
{
    struct {
        hyla_desc_t **T;
        int other, m, n, nb;
    } descs[] = {{&TA, 0, N, N, NB},         {&TB, 0, N, NRHS, NB},
                 {&TR, 0, N, N + 1, NB},     {&BR, 0, N + 1, NRHS, NB},
                 {&BNB, 0, N, NRHS, NB + 1}, {&F, 1, N, N, NB},
                 {&FB, 1, N, NRHS, NB},      {&E, 0, 0, 0, NB},
                 {&E0, 0, 0, NRHS, NB},      {&B0N, 0, N, 0, NB}};
    for (size_t i = 0; i < sizeof descs / sizeof descs[0]; i++) {
        int rc = hyla_desc_create(
            descs[i].T, descs[i].other ? TH_OTHER_DTYPE(double) : HYLA_DOUBLE,
            descs[i].m, descs[i].n, descs[i].nb);
        if (rc) {
            printf("FAIL setup: hyla_desc_create %d\n", rc);
            exit(1);
        }
    }
    restore();
}

static void teardown(void)
{
    hyla_desc_t **all[] = {&TA, &TB, &TR, &BR, &BNB, &F, &FB, &E, &E0, &B0N};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        hyla_desc_destroy(all[i]);
}

// Runs fn in a child process with hyla started there; the child's counts
// are added to ours.  A crash or a hang (60 s) is one more failure.  This
// process holds no hyla (StarPU) state when it forks.
static void guarded(const char *name, void (*fn)(void))
{
    int fd[2];
    fflush(stdout);
    if (pipe(fd)) {
        th_check(0, "%s: pipe failed", name);
        return;
    }
    pid_t pid = fork();
    if (pid < 0) {
        th_check(0, "%s: fork failed", name);
        return;
    }
    if (pid == 0) {
        // Line by line: what was printed before a crash still shows.
        setvbuf(stdout, NULL, _IOLBF, 0);
        close(fd[0]);
        alarm(60);
        int before[3], after[3];
        th_counts(before);
        th_init(2, NB, 1);
        setup();
        fn();
        teardown();
        th_finalize();
        th_counts(after);
        for (int i = 0; i < 3; i++)
            after[i] -= before[i];
        printf("  %-14s %d passed, %d failed\n", name, after[0], after[1]);
        fflush(stdout);
        if (write(fd[1], after, sizeof after) != sizeof after) exit(2);
        exit(0);
    }
    close(fd[1]);
    int counts[3], status = 0;
    ssize_t got = read(fd[0], counts, sizeof counts);
    close(fd[0]);
    waitpid(pid, &status, 0);
    if (got == (ssize_t)sizeof counts) th_add_counts(counts);
    th_check(got == (ssize_t)sizeof counts && WIFEXITED(status) &&
                 WEXITSTATUS(status) == 0,
             "%s: the child process %s %d", name,
             WIFSIGNALED(status) ? "was killed by signal" : "exited with",
             WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
}

int main(void)
{
    th_begin("dcheck_args");
    hyla_check_dgen(LDA, N, A0, LDA, 1);
    hyla_check_dgen(LDB, NRHS, B0, LDB, 2);
    for (int i = 0; i < N; i++)
        ipiv0[i] = i + 2 < N ? i + 2 : N; // a valid getrf pivot
    restore();

    not_initialized();

    static const struct {
        const char *name;
        void (*fn)(void);
    } groups[] = {{"layout", layout},         {"getrf", getrf},
                  {"getrs", getrs},           {"gesv", gesv},
                  {"potrf", potrf},           {"potrs", potrs},
                  {"potrs_tile", potrs_tile}, {"posv", posv},
                  {"posv_tile", posv_tile},   {"lower-case", lower_case}};
    for (size_t g = 0; g < sizeof groups / sizeof groups[0]; g++)
        guarded(groups[g].name, groups[g].fn);
    return th_end();
}
