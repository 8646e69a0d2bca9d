// SPDX-License-Identifier: BSD-3-Clause
// What the tests run by mpiexec share: this process's rank, the statuses
// of all ranks compared, and the start of hyla over MPI_COMM_WORLD with
// one CPU worker per process.  Rank 0 checks and prints.
#ifndef HYLA_TESTS_MPI_HARNESS_H
#define HYLA_TESTS_MPI_HARNESS_H

#include "harness.h"

#include <hyla_mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int rank, nprocs;

// The statuses of all ranks: rc when they agree, else a value no call
// returns (the check that uses it fails).
static inline int agreed(int rc)
{
    int lo, hi;
    MPI_Allreduce(&rc, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&rc, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return lo == hi ? lo : -9999;
}

// A check made on every rank: ok on all of them.
static inline int all_ok(int ok)
{
    int all;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    return all;
}

// hyla on every rank (one CPU worker each), with GPUs as HYLA_TEST_GPUS
// and HYLA_TEST_MODE ask: 0, or 1 after a failure printed by rank 0.
static inline int mpi_start(void)
{
    hyla_config_t cfg;
    hyla_config_init(&cfg);
    cfg.ncpus = 1;
    cfg.lookahead = 1;
    th_config_gpus(&cfg);
    int rc = agreed(hyla_mpi_init(&cfg, MPI_COMM_WORLD));
    if (rc && rank == 0)
        printf("FAIL hyla_mpi_init: %d (%s) %s\n", rc, hyla_strerror(rc),
               hyla_error_detail());
    return rc != 0;
}

// MPI with threads, the harness on rank 0, hyla on every rank (mpi_start):
// 0, or 1 after a failure printed by rank 0.  With HYLA_TEST_GPUS=N every
// rank drives the first N GPUs too (shared by the ranks on a machine with
// fewer; STARPU_WORKERS_CUDAID may pick them), in hybrid mode or
// HYLA_TEST_MODE=native; where there are fewer, every rank exits 77 (a
// SKIP) before MPI starts.
static inline int mpi_begin(int *argc, char ***argv, const char *title)
{
    int probe = th_gpu_probe();
    if (probe) exit(probe);
    int level;
    MPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &level);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    if (rank == 0) th_begin(title);
    return mpi_start();
}

// hyla and MPI stopped; the exit code of the harness, on every rank.
static inline int mpi_end(void)
{
    int rc = hyla_finalize();
    if (rank == 0) th_check(rc == 0, "hyla_finalize: %d", rc);
    int code = rank == 0 ? th_end() : 0;
    MPI_Bcast(&code, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return code;
}

#endif // HYLA_TESTS_MPI_HARNESS_H
