// SPDX-License-Identifier: BSD-3-Clause
// Test harness: pass/fail counting, one table row per case, skips.
#ifndef HYLA_TESTS_HARNESS_H
#define HYLA_TESTS_HARNESS_H

#include <hyla.h>

// Start a test program; prints the table header.
void th_begin(const char *suite);

// Finish: prints "N passed, N failed, N skipped" and returns the exit code
// (0 all passed, 1 a failure, 77 nothing ran: meson's SKIP).
int th_end(void);

// Start hyla with ncpus CPU workers, tile size nb and lookahead la, or fail
// the program.  Sets the columns the rows below print.
void th_init(int ncpus, int nb, int la);
// The same with LU panels factored by panel_threads threads.
void th_init_panel(int ncpus, int nb, int la, int panel_threads);
void th_finalize(void);
// GPUs the tests run on: 0 (cpu suite), or N from HYLA_TEST_GPUS (gpu
// suite: th_init then starts hybrid mode on N GPUs, or exits 77, a SKIP,
// where there are fewer).
int th_gpus(void);
// cfg's GPUs (th_gpus) and mode: cpu without GPUs, else hybrid, or native
// with HYLA_TEST_MODE=native.
void th_config_gpus(hyla_config_t *cfg);
// Whether the GPUs that HYLA_TEST_GPUS asks for are there: 0 (or none
// asked), 77 (fewer: a SKIP, printed), 1 (hyla failed to start), from a
// child process that starts hyla on them.
int th_gpu_probe(void);

// One numerical case: prints a row and counts it.  ok decides.
void th_row(const char *routine, int m, int n, int nb, double seconds,
            double flops, double resid, int ok, const char *note);

// A check without a table row; prints the message only when it fails.
int th_check(int ok, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

// Expect status `want` from a call; prints both values on failure.  The
// call is evaluated once.
// The element type that routines on `type` refuse: a d test names
// TH_OTHER_DTYPE(double), which its generated s version reads as float.
#define TH_OTHER_DTYPE(type) (sizeof(type) == 8 ? HYLA_FLOAT : HYLA_DOUBLE)
#define TH_STATUS(got, want) th_status((got), (want), #got, __FILE__, __LINE__)
int th_status(int got, int want, const char *call, const char *file, int line);

void th_skip(const char *why);

// The counts so far (passed, failed, skipped), and counts to add: a child
// process that ran cases hands its counts to its parent this way.
void th_counts(int counts[3]);
void th_add_counts(const int counts[3]);

double th_now(void);

// Time a call: th_tic() starts the clock, th_toc() returns the seconds
// since.  The start stays in the harness, in double, so that templates
// whose 'double' becomes 'float' keep a precise elapsed time.
void th_tic(void);
double th_toc(void);

#endif // HYLA_TESTS_HARNESS_H
