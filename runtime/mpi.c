// SPDX-License-Identifier: BSD-3-Clause
// Processes: StarPU-MPI's start and stop, distributed tiles' owners and
// tags, tasks inserted on every process, and results gathered from all.
// Without MPI in the build, one process and nothing distributed.
#include "glue.h"

#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>

#if HYLA_HAVE_MPI
#include <hyla_mpi.h>

static struct {
    int asked;     // hyla_mpi_init() is starting hyla
    int on;        // StarPU-MPI runs
    MPI_Comm comm; // a duplicate of the caller's
    int rank, size;
    long long next_tag;
} mpi = {0, 0, MPI_COMM_NULL, 0, 1, 0};

MPI_Comm hyla_rt_mpi_comm(void)
{
    return mpi.comm;
}

int hyla_rt_starpu_start(struct starpu_conf *conf)
{
    if (!mpi.asked) return starpu_init(conf);
    // A message that comes before its receive is posted lands in memory
    // that StarPU-MPI's thread waits for, sending nothing meanwhile.  By
    // default a CPU worker makes that memory; but a distributed LU panel
    // holds one inside MPI calls until the other processes of its column
    // join, and with one CPU worker a process could wait for a peer that
    // waits for its data (seen with two processes of one worker each).
    // Allocated by StarPU-MPI's thread itself, the memory never waits.
    setenv("STARPU_MPI_EARLYDATA_ALLOCATE", "1", 1);
    // StarPU-MPI's communication thread keeps a core of its own when
    // StarPU picks the CPU workers (ncpus -1).
    int ret = starpu_mpi_init_conf(NULL, NULL, 0, mpi.comm, conf);
    mpi.on = ret == 0;
    return ret;
}

void hyla_rt_starpu_stop(void)
{
    if (!mpi.on) {
        starpu_shutdown();
        return;
    }
    starpu_mpi_shutdown();
    mpi.on = 0;
}

HYLA_EXPORT int hyla_mpi_init(const hyla_config_t *cfg, MPI_Comm comm)
{
    const char *r = "hyla_mpi_init";
    hyla_rt_error_clear();
    if (hyla_rt_initialized())
        return hyla_rt_error(HYLA_ERR_REINITIALIZED,
                             "%s: hyla is already initialized", r);
    int ready = 0, finished = 0, level = MPI_THREAD_SINGLE;
    MPI_Initialized(&ready);
    MPI_Finalized(&finished);
    if (!ready || finished)
        return hyla_rt_error(HYLA_ERR_NOT_SUPPORTED,
                             "%s: MPI is not initialized", r);
    MPI_Query_thread(&level);
    if (level != MPI_THREAD_MULTIPLE)
        return hyla_rt_error(HYLA_ERR_NOT_SUPPORTED,
                             "%s: MPI must be initialized with "
                             "MPI_THREAD_MULTIPLE (MPI_Init_thread)",
                             r);
    if (comm == MPI_COMM_NULL)
        return hyla_rt_error(-2, "%s: comm is MPI_COMM_NULL", r);
    if (MPI_Comm_dup(comm, &mpi.comm) != MPI_SUCCESS)
        return hyla_rt_error(HYLA_ERR_RUNTIME, "%s: MPI_Comm_dup failed", r);
    MPI_Comm_rank(mpi.comm, &mpi.rank);
    MPI_Comm_size(mpi.comm, &mpi.size);
    mpi.next_tag = 0;
    mpi.asked = 1;
    int rc = hyla_init(cfg);
    if (rc) hyla_rt_mpi_release();
    return rc;
}

void hyla_rt_mpi_release(void)
{
    if (!mpi.asked) return;
    MPI_Comm_free(&mpi.comm);
    mpi.comm = MPI_COMM_NULL;
    mpi.asked = mpi.on = 0;
    mpi.rank = 0;
    mpi.size = 1;
}

int hyla_rt_mpi(void)
{
    return mpi.on;
}

int hyla_rt_rank(void)
{
    return mpi.rank;
}

int hyla_rt_nprocs(void)
{
    return mpi.size;
}

long long hyla_rt_mpi_tags(long long count)
{
    long long first = mpi.next_tag;
    mpi.next_tag += count;
    return first;
}

// Owners are ranks of hyla's communicator, which need not be the world.
void hyla_rt_mpi_register(starpu_data_handle_t h, long long tag, int owner)
{
    starpu_mpi_data_register_comm(h, tag, owner, mpi.comm);
}

int hyla_rt_mpi_reduce(int status, int info)
{
    // The tasks and the transfers that StarPU-MPI still runs.
    starpu_mpi_wait_for_all(mpi.comm);
    int in[2] = {status, info > 0 ? info : INT_MAX}, out[2];
    MPI_Allreduce(in, out, 2, MPI_INT, MPI_MIN, mpi.comm);
    if (out[0] < 0) return out[0];
    return out[1] == INT_MAX ? 0 : out[1];
}

void hyla_rt_mpi_bcast(void *buf, size_t bytes, const hyla_desc_t *A)
{
    if (A->dist) MPI_Bcast(buf, (int)bytes, MPI_BYTE, 0, mpi.comm);
}

void hyla_rt_mpi_sum(void *x, size_t count, hyla_dtype_t t,
                     const hyla_desc_t *A)
{
    if (A->dist)
        MPI_Allreduce(MPI_IN_PLACE, x, (int)count,
                      t == HYLA_DOUBLE ? MPI_DOUBLE : MPI_FLOAT, MPI_SUM,
                      mpi.comm);
}

void hyla_rt_mpi_not_run(int first, ...)
{
    // The arguments of HYLA_TASK_INSERT start with STARPU_CL_ARGS, a
    // block the task would have freed.
    va_list ap;
    va_start(ap, first);
    if (first == STARPU_CL_ARGS) free(va_arg(ap, void *));
    va_end(ap);
}

HYLA_EXPORT int hyla_desc_create_dist(hyla_desc_t **A, hyla_dtype_t dtype,
                                      int m, int n, int nb, int p, int q)
{
    const char *r = "hyla_desc_create_dist";
    if (A) *A = NULL;
    if (hyla_rt_initialized() && !mpi.on)
        return hyla_rt_error(HYLA_ERR_NOT_SUPPORTED,
                             "%s: hyla was not started by hyla_mpi_init", r);
    int grid[2] = {p, q};
    return hyla_rt_desc_create(r, A, dtype, m, n, nb, grid);
}

HYLA_EXPORT int hyla_desc_owner(const hyla_desc_t *A, int i, int j)
{
    if (!A || i < 0 || j < 0 || i >= A->mt || j >= A->nt) return -1;
    return hyla_tile_owner(A, i, j);
}

#else // no MPI in this build

int hyla_rt_starpu_start(struct starpu_conf *conf)
{
    return starpu_init(conf);
}

void hyla_rt_starpu_stop(void)
{
    starpu_shutdown();
}

void hyla_rt_mpi_release(void) {}

int hyla_rt_mpi(void)
{
    return 0;
}

int hyla_rt_rank(void)
{
    return 0;
}

int hyla_rt_nprocs(void)
{
    return 1;
}

long long hyla_rt_mpi_tags(long long count)
{
    (void)count;
    return 0;
}

int hyla_rt_mpi_reduce(int status, int info)
{
    return status ? status : info;
}

void hyla_rt_mpi_bcast(void *buf, size_t bytes, const hyla_desc_t *A)
{
    (void)buf;
    (void)bytes;
    (void)A;
}

void hyla_rt_mpi_sum(void *x, size_t count, hyla_dtype_t t,
                     const hyla_desc_t *A)
{
    (void)x;
    (void)count;
    (void)t;
    (void)A;
}

#endif
