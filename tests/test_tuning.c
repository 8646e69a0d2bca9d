// SPDX-License-Identifier: BSD-3-Clause
// The tuning file (runtime/tuning.c).
#include "check.h"
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

// Checks that hyla_init reads the file named by the configuration, and
// that then a call whose tile size or lookahead is left to hyla (nb 0,
// lookahead -1) takes them from the entry of its routine, precision and
// mode with the nearest order (the other precision's, and getrf's for RBT,
// where it has none), while values set in the configuration win;
// hyla_desc_create(nb 0) takes getrf's tile size; the panel threads come
// from the LU entry of the largest order; comments and blank lines are
// skipped; a missing file or a malformed line (each field out of range)
// gives HYLA_ERR_TUNING with a detail naming the file and line, and leaves
// hyla stopped; HYLA_TUNING names the file ("none": no file) and
// $XDG_CONFIG_HOME/hyla/tuning is read when it exists; hyla_tuned checks
// its arguments; LU, Cholesky and the RBT solve run with tuned sizes.

static char dir[64];

static char *path_in_dir(const char *name)
{
    static char path[4][128];
    static int k;
    char *p = path[k++ % 4];
    snprintf(p, sizeof path[0], "%s/%s", dir, name);
    return p;
}

static const char *write_file(const char *name, const char *text)
{
    char *p = path_in_dir(name);
    FILE *f = fopen(p, "w");
    if (!f || fputs(text, f) < 0 || fclose(f)) {
        th_check(0, "cannot write %s", p);
        exit(1);
    }
    return p;
}

static const char table[] =
    "# hyla tuning file for the test\n"
    "# routine prec mode n nb lookahead panel_threads seconds\n"
    "getrf d cpu 100 24 2 1 0.01\n"
    "\n"
    "getrf d cpu 1000 48 3 2   # the largest LU: its panel threads\n"
    "getrf d hybrid 1000 512 1 4\n"
    "potrf d cpu 500 40 0 1 0.5\n"
    "getrf s cpu 200 32 1 1\n"
    "\tgesv_rbt d native 4096 1024 1 1\n";

static hyla_config_t config(const char *tuning)
{
    hyla_config_t c;
    hyla_config_init(&c);
    c.mode = HYLA_MODE_CPU;
    c.ncpus = 2;
    c.tuning = tuning;
    return c;
}

static void expect(const char *routine, char prec, int n, int nb, int la)
{
    int got_nb = -9, got_la = -9;
    int rc = hyla_tuned(routine, prec, n, &got_nb, &got_la);
    th_check(rc == 0 && got_nb == nb && got_la == la,
             "hyla_tuned(%s, %c, %d): %d, nb %d lookahead %d (want %d, %d)",
             routine, prec, n, rc, got_nb, got_la, nb, la);
}

// A small LU, Cholesky and RBT solve with the tuned sizes: status 0 and
// small residuals.
static void factor_ok(int n)
{
    int lda = n;
    double *A = malloc(sizeof(double) * n * n), *F = malloc(sizeof *F * n * n);
    double *B = malloc(sizeof(double) * n), *X = malloc(sizeof(double) * n);
    int *ipiv = malloc(sizeof(int) * n);
    hyla_check_dgen(n, n, A, lda, 7);
    memcpy(F, A, sizeof(double) * n * n);
    int rc = hyla_dgetrf(n, n, F, lda, ipiv);
    double r = rc ? -1 : hyla_check_dresid_getrf(n, n, A, lda, F, lda, ipiv);
    th_check(rc == 0 && r >= 0 && r <= HYLA_CHECK_TOL,
             "tuned dgetrf(%d): %d, residual %.2e", n, rc, r);
    hyla_check_dgen(n, 1, B, n, 8);
    memcpy(F, A, sizeof(double) * n * n); // A may come back factored
    rc = hyla_dgesv_rbt(n, 1, F, lda, ipiv, B, n, X, n, NULL, NULL);
    r = rc ? -1 : hyla_check_dresid_solve('N', n, 1, A, lda, X, n, B, n);
    th_check(rc == 0 && r >= 0 && r <= HYLA_CHECK_TOL,
             "tuned dgesv_rbt(%d): %d, residual %.2e", n, rc, r);
    hyla_check_dgen_spd(n, A, lda, 9);
    memcpy(F, A, sizeof(double) * n * n);
    rc = hyla_dpotrf('L', n, F, lda);
    r = rc ? -1 : hyla_check_dresid_potrf('L', n, A, lda, F, lda);
    th_check(rc == 0 && r >= 0 && r <= HYLA_CHECK_TOL,
             "tuned dpotrf(%d): %d, residual %.2e", n, rc, r);
    free(A);
    free(F);
    free(B);
    free(X);
    free(ipiv);
}

static void lookups(void)
{
    const char *path = write_file("tuning", table);
    hyla_config_t c = config(path);
    TH_STATUS(hyla_init(&c), 0);
    hyla_config_t got;
    TH_STATUS(hyla_config_get(&got), 0);
    th_check(got.nb == 0 && got.lookahead == -1 && got.tuning &&
                 !strcmp(got.tuning, path) && got.panel_threads == 2,
             "config_get: nb %d, lookahead %d, tuning '%s', panel_threads %d "
             "(want 0, -1, '%s', 2)",
             got.nb, got.lookahead, got.tuning ? got.tuning : "(null)",
             got.panel_threads, path);

    expect("getrf", 'd', 90, 24, 2);
    expect("getrf", 'd', 300, 24, 2); // 300/100 = 3 < 1000/300
    expect("getrf", 'd', 400, 48, 3); // 400/100 = 4 > 1000/400
    expect("gesv", 'd', 5000, 48, 3);
    expect("potrf", 'd', 10, 40, 0);
    expect("posv", 's', 500, 40, 0); // no s entry: d's
    expect("getrf", 's', 150, 32, 1);
    expect("gesv", 's', 3000, 32, 1);
    expect("gesv_rbt", 'd', 100, 24, 2); // no cpu RBT entry: getrf's
    int nb = -9;
    TH_STATUS(hyla_tuned("getrf", 'd', 100, &nb, NULL), 0);
    th_check(nb == 24, "hyla_tuned with lookahead NULL: nb %d", nb);

    hyla_desc_t *A = NULL;
    TH_STATUS(hyla_desc_create(&A, HYLA_DOUBLE, 1100, 30, 0), 0);
    int m = 0, n = 0;
    nb = 0;
    if (A) hyla_desc_size(A, &m, &n, &nb);
    th_check(nb == 48, "desc_create(1100 x 30, nb 0): nb %d, want 48", nb);
    hyla_desc_destroy(&A);

    TH_STATUS(hyla_tuned("trsm", 'd', 10, &nb, NULL), -1);
    TH_STATUS(hyla_tuned(NULL, 'd', 10, &nb, NULL), -1);
    TH_STATUS(hyla_tuned("getrf", 'z', 10, &nb, NULL), -2);
    TH_STATUS(hyla_tuned("getrf", 'd', -1, &nb, NULL), -3);
    factor_ok(150);
    TH_STATUS(hyla_finalize(), 0);
    TH_STATUS(hyla_tuned("getrf", 'd', 10, &nb, NULL),
              HYLA_ERR_NOT_INITIALIZED);

    // Values set in the configuration win.
    c = config(path);
    c.nb = 17;
    c.panel_threads = 1;
    TH_STATUS(hyla_init(&c), 0);
    expect("getrf", 'd', 90, 17, 2);
    TH_STATUS(hyla_config_get(&got), 0);
    th_check(got.panel_threads == 1, "panel_threads 1 set: %d",
             got.panel_threads);
    TH_STATUS(hyla_finalize(), 0);
    c = config(path);
    c.lookahead = 0;
    TH_STATUS(hyla_init(&c), 0);
    expect("potrf", 'd', 500, 40, 0);
    expect("getrf", 'd', 1000, 48, 0);
    TH_STATUS(hyla_finalize(), 0);

    // No entry of the mode in force (cpu has no native entries): the
    // machine's defaults, as without a file.
    c = config(NULL);
    TH_STATUS(hyla_init(&c), 0);
    int def_nb = 0, def_la = 0;
    TH_STATUS(hyla_tuned("getrf", 'd', 4096, &def_nb, &def_la), 0);
    TH_STATUS(hyla_finalize(), 0);
    th_check(def_nb >= 1 && def_la >= 0, "defaults: nb %d, lookahead %d",
             def_nb, def_la);
    const char *other =
        write_file("native-only", "getrf d native 4096 999 7 1\n");
    c = config(other);
    TH_STATUS(hyla_init(&c), 0);
    expect("getrf", 'd', 4096, def_nb, def_la);
    TH_STATUS(hyla_finalize(), 0);
}

// Each malformed file: HYLA_ERR_TUNING naming the file and line, and hyla
// stopped.
static void bad_files(void)
{
    static const char *const bad[][2] = {
        {"getrf d cpu 100 24 2 1\ngetrf d cpu 100 0 1 1\n", "line 2"},
        {"getrf d cpu 100 24 -1 1\n", "lookahead"},
        {"getrf d cpu 100 24 1 0\n", "panel_threads"},
        {"getrf d cpu 0 24 1 1\n", "n must"},
        {"getrf d cpu 1e3 24 1 1\n", "n must"},
        {"trsm d cpu 100 24 1 1\n", "routine"},
        {"getrf z cpu 100 24 1 1\n", "prec"},
        {"getrf d auto 100 24 1 1\n", "mode"},
        {"getrf d cpu 100 24 1\n", "expected"},
        {"getrf d cpu 100 24 1 1 0.5 extra\n", "expected"},
        {"getrf d cpu 100 24 1 1 fast\n", "seconds"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *path = write_file("bad", bad[i][0]);
        hyla_config_t c = config(path), got;
        int rc = hyla_init(&c);
        char detail[512];
        snprintf(detail, sizeof detail, "%s", hyla_error_detail());
        int stopped = hyla_config_get(&got) == HYLA_ERR_NOT_INITIALIZED;
        th_check(rc == HYLA_ERR_TUNING && strstr(detail, path) &&
                     strstr(detail, bad[i][1]) && stopped,
                 "file '%.*s': %d, detail '%s', %s (want '%s')",
                 (int)strcspn(bad[i][0], "\n"), bad[i][0], rc, detail,
                 stopped ? "stopped" : "STARTED", bad[i][1]);
        if (!stopped) hyla_finalize();
    }
    hyla_config_t c = config(path_in_dir("absent"));
    int rc = hyla_init(&c);
    th_check(rc == HYLA_ERR_TUNING && strstr(hyla_error_detail(), "absent"),
             "missing file: %d, detail '%s'", rc, hyla_error_detail());
    if (!rc) hyla_finalize();
}

static void environment(void)
{
    hyla_config_t c;
    const char *path = write_file("env", table);
    unsetenv("XDG_CONFIG_HOME");
    setenv("HOME", dir, 1); // no .config/hyla/tuning there
    setenv("HYLA_TUNING", path, 1);
    TH_STATUS(hyla_config_init(&c), 0);
    th_check(c.tuning && !strcmp(c.tuning, path), "HYLA_TUNING=%s: '%s'", path,
             c.tuning ? c.tuning : "(null)");
    setenv("HYLA_TUNING", "none", 1);
    TH_STATUS(hyla_config_init(&c), 0);
    th_check(!c.tuning, "HYLA_TUNING=none: '%s'", c.tuning);
    unsetenv("HYLA_TUNING");
    TH_STATUS(hyla_config_init(&c), 0);
    th_check(!c.tuning, "no file: '%s'", c.tuning);

    // $XDG_CONFIG_HOME/hyla/tuning, when it exists.
    mkdir(path_in_dir("hyla"), 0700);
    const char *xdg = write_file("hyla/tuning", table);
    setenv("XDG_CONFIG_HOME", dir, 1);
    setenv("HYLA_MODE", "cpu", 1); // the file's entries are cpu's
    TH_STATUS(hyla_config_init(&c), 0);
    th_check(c.tuning && !strcmp(c.tuning, xdg), "XDG_CONFIG_HOME: '%s'",
             c.tuning ? c.tuning : "(null)");
    TH_STATUS(hyla_init(NULL), 0);
    expect("potrf", 'd', 600, 40, 0);
    TH_STATUS(hyla_finalize(), 0);
    unlink(xdg);
    rmdir(path_in_dir("hyla"));
    unsetenv("XDG_CONFIG_HOME");
    unsetenv("HYLA_MODE");
}

int main(void)
{
    th_begin("tuning");
    snprintf(dir, sizeof dir, "/tmp/hyla-tuning-XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    lookups();
    bad_files();
    environment();
    static const char *const files[] = {"tuning", "native-only", "bad", "env"};
    for (int i = 0; i < 4; i++)
        unlink(path_in_dir(files[i]));
    rmdir(dir);
    return th_end();
}
