// SPDX-License-Identifier: BSD-3-Clause
// Runtime interface seen by the tile algorithms: descriptors, sequences,
// task options and argument checks.  No StarPU type appears here.
#ifndef HYLA_RUNTIME_RUNTIME_H
#define HYLA_RUNTIME_RUNTIME_H

#include "hyla_config.h"
#include "flags.h"
#include <hyla.h>
#include <pthread.h>
#include <stddef.h>

//==== tile matrices ====

// Tile (m, n) is mb(m)-by-nb(n), row-major with leading dimension nb(n).
// Tile column n is one row-major m-by-nb(n) block, the columns one after
// the other: tile (m, n) starts at m*nb*nb(n) + n*nb*M, M = rows of A.
struct hyla_desc {
    hyla_dtype_t dtype;
    size_t elemsize;
    int m, n, nb;
    int mt, nt;
    void *mat; // the tiles, one allocation
    size_t bytes;
    void **handles;                // runtime handle of tile (m, n): [m + n*mt]
    void *pinned;       // the column-major matrix of a copy, pinned, or NULL
    size_t pinned_size; // its bytes
    struct hyla_desc *prev, *next; // list of live descriptors
    // Distributed over a p-by-q grid of processes (hyla_desc_create_dist):
    // mat holds this rank's tiles only, in tile order, and tile (m, n)
    // belongs to rank hyla_tile_owner(A, m, n).  p = q = 1 otherwise.
    int dist, p, q;
};

// The rank that holds tile (m, n).
static inline int hyla_tile_owner(const hyla_desc_t *A, int m, int n)
{
    return (m % A->p) * A->q + n % A->q;
}

// Rows of tile row m.
static inline int hyla_tile_mb(const hyla_desc_t *A, int m)
{
    return m == A->mt - 1 ? A->m - m * A->nb : A->nb;
}

// Columns of tile column n.
static inline int hyla_tile_nb(const hyla_desc_t *A, int n)
{
    return n == A->nt - 1 ? A->n - n * A->nb : A->nb;
}

// Where tile (m, n) of a matrix that is not distributed is.
static inline void *hyla_tile_addr(const hyla_desc_t *A, int m, int n)
{
    size_t off =
        (size_t)n * A->nb * A->m + (size_t)m * A->nb * hyla_tile_nb(A, n);
    return (char *)A->mat + off * A->elemsize;
}

//==== workspace of the TRSM-by-inverse variant ====

// The inverses of diagonal tile k go to tiles (0, k) .. (count - 1, k)
// of inv (count of them per tile); scratch is a runtime handle of one
// tile, a private buffer on each worker.  Both NULL when the
// configuration asks for plain TRSMs.
typedef struct hyla_trsm_ws {
    hyla_desc_t *inv;
    void *scratch;
} hyla_trsm_ws_t;

// Whether the solves by diagonal tiles are products by their inverses:
// as trsm_inverse says, or where it is auto (hybrid mode) in the Cholesky
// and the LU without pivoting (hybrid Cholesky on an H100: 0.92 -> 1.08x
// cuSOLVER at n = 32768), not in the LU (lu), whose CPU panels it would
// follow with an inversion on the critical path (10-20 % slower there;
// docs/perf).
int hyla_rt_trsm_inverse(int lu);
// Whether a factorization (an LU where lu) keeps its critical path on each
// GPU's first worker (stream) and its other tasks off it, as
// gpu_critical_stream says, where auto in the LU only; native mode with
// two or more streams a GPU only.  A worker running a panel runs nothing
// else until it ends: with the scheduler free to queue any task there,
// the updates the next panel waits for sat behind the current one
// (docs/perf).
int hyla_rt_critical_stream(int lu);
// For factoring A in routine r (an LU where lu), as hyla_rt_trsm_inverse
// says; on failure the error (detail set).
int hyla_rt_trsm_ws_create(const char *r, hyla_trsm_ws_t *ws,
                           const hyla_desc_t *A, int count, int lu);
// The same whatever the configuration says.
int hyla_rt_inv_ws_create(const char *r, hyla_trsm_ws_t *ws,
                          const hyla_desc_t *A, int count);
// After the tasks that use it.
void hyla_rt_trsm_ws_destroy(hyla_trsm_ws_t *ws);

//==== pivots ====

// ipiv split into one piece per panel step, each a runtime handle.  For
// a distributed matrix, also the workspaces of the interchanges across
// processes (codelets/tasks.h); NULL otherwise.
typedef struct hyla_pivots {
    int *ipiv;
    int nsteps;
    void **handles;
    // Where tile columns span processes: the workspaces of the row
    // interchanges; for the LU's panels, the communicator of each process
    // column (this process's) and a token per process that orders its
    // panel tasks (hyla_rt_pivots_panel).
    struct hyla_desc *W, *Old;
    void *comm;
    void **tokens;
    int ntokens, token;
} hyla_pivots_t;

//==== plain blocks of host memory ====

// A runtime handle over count elements of elemsize bytes at p; always 0.
int hyla_rt_vector_create(void **h, void *p, size_t count, size_t elemsize);
// After the tasks that use h: brings its data back to p and frees h.
void hyla_rt_vector_destroy(void *h);
// The same for count vectors (NULL ones skipped), their copies back to
// the host overlapping.
void hyla_rt_vectors_destroy(void **h, size_t count);
// A vector that goes with tile (m, n) of A: the plain one over p, or, A
// distributed, p on the tile's process and no memory on the others
// (tasks that write the tile write it there).  Collective then.
int hyla_rt_vector_of_tile(void **h, void *p, size_t count, size_t elemsize,
                           const hyla_desc_t *A, int m, int n);
// A vector of the same values at p on every process (the distributed A's
// tasks read each process's own, with no transfer); the plain one if A
// is not distributed.  Collective then.
int hyla_rt_vector_everywhere(void **h, void *p, size_t count, size_t elemsize,
                              const hyla_desc_t *A);
// Host memory that GPUs copy from and to quickly (pinned when hyla runs
// GPUs); NULL when out of memory.
void *hyla_rt_staging_alloc(size_t bytes);
void hyla_rt_staging_free(void *p, size_t bytes);
// Workers of all kinds.
int hyla_rt_workers(void);
// GPUs the runtime runs (0 without).
int hyla_rt_gpus(void);
// Whether `bytes` take at most half of the memory the runtime may use on
// the first GPU (0 without GPUs).
int hyla_rt_gpu_fits(size_t bytes);
// Tiles a GPU task wrote are dirty until StarPU copies them to the host.
// While fewer than 5 % of a GPU's buffers are clean, StarPU copies dirty
// ones back in the background (STARPU_MINIMUM_CLEAN_BUFFERS) so that later
// evictions cost nothing, and a task that writes such a tile waits for its
// copy.  For a matrix that stays on the GPU this is all cost; out of core
// it pays (docs/perf).  In native mode, for a call whose matrix A fits
// (hyla_rt_gpu_fits), this keeps on each GPU enough spare clean buffers
// of one word (one per 8 of A's tiles) that StarPU starts no write-back;
// for one that does not fit it frees them, and StarPU's write-back works
// as it would without.  Returns how many there are; the last ones are
// freed by hyla_rt_gpus_spares_release (at hyla_finalize).
int hyla_rt_gpus_spares(const hyla_desc_t *A);
void hyla_rt_gpus_spares_release(void);
// Whether a factorization whose tiles on the GPUs take `bytes` places its
// GPU tasks by the cyclic mapping (hyla_mapping_t): hyla_cyclic_rule with
// this process's GPUs and mode and the memory StarPU may use on the GPUs.
// lu: an LU (the rule's choices are the LU's); bytes = 0 and lu = 0: only
// if asked for.
int hyla_rt_cyclic(size_t bytes, int lu);
// The rule: cyclic if asked for; with HYLA_MAP_AUTO, for an LU on two GPUs
// or more whose panels run on the GPUs (gpu_panel: native mode), or whose
// `bytes` are more than the GPUs' memory together (`gpu_bytes`, 0 if not
// known: no).  Never without GPUs.  In native mode the cyclic mapping
// spreads the panels over the GPUs, one each in turn, and keeps each tile
// column where its panel runs: at n = 65536 the LU was 1.01x faster than
// with the scheduler's placement on 2 H200, and with the gate
// (hyla_gate_rule) 1.09x on 4 (docs/perf).
static inline int hyla_cyclic_rule(hyla_mapping_t m, int ngpus, int gpu_panel,
                                   size_t bytes, size_t gpu_bytes)
{
    if (ngpus < 1 || m == HYLA_MAP_SCHEDULER) return 0;
    if (m == HYLA_MAP_CYCLIC) return 1;
    return ngpus >= 2 && (gpu_panel || (gpu_bytes > 0 && bytes > gpu_bytes));
}

// gpu_gate in force (hyla_config_t): as asked (0, 1), or for -1 on in
// native mode on four GPUs or more.  There the chain of panels sets the
// pace: a panel beside the trailing updates took 2-2.5x as long as alone
// (4 H200, n = 65536), and the gate made the LU 1.11x faster.  On one GPU
// (5 %) and on two (3 %) the gate cost more than it gave; three were not
// measured (docs/perf).
static inline int hyla_gate_rule(int gate, hyla_mode_t mode, int ngpus)
{
    if (gate >= 0) return gate;
    return mode == HYLA_MODE_NATIVE && ngpus >= 4;
}

//==== sequences: completion and status of the tasks of one call ====

typedef struct hyla_seq {
    pthread_mutex_t lock;
    pthread_cond_t done;
    long pending;     // tasks submitted and not yet finished
    int status;       // first failure (< 0), kept atomically
    int info;         // smallest positive numerical info, kept atomically
    int stop_on_info; // later tasks do nothing once info > 0 (potrf)
    int dist;         // tasks on distributed matrices, on every process
    struct hyla_partials *partials; // freed by the wait (hyla_rt_partials)
} hyla_seq_t;

void hyla_rt_seq_init(hyla_seq_t *seq, int stop_on_info);
// The same for a call on the distributed matrix A (when it is one): its
// tasks are inserted on every process, which runs those that write its
// tiles, and the wait is collective.
void hyla_rt_seq_init_on(hyla_seq_t *seq, int stop_on_info,
                         const hyla_desc_t *A);
// Waits for every task of seq; returns the failure status, else info.
// On a distributed call, also for the communications, and the status and
// info are those of all processes (the first failure, the smallest info).
int hyla_rt_seq_wait(hyla_seq_t *seq);
void hyla_rt_seq_fail(hyla_seq_t *seq, int status);
void hyla_rt_seq_info(hyla_seq_t *seq, int info);
int hyla_rt_seq_skip(const hyla_seq_t *seq);

int hyla_rt_seq_failed(const hyla_seq_t *seq);

// Partial sums of the tiles of B, a set per process, for the fan-in of
// distributed solves and products: tile (m, n) of process r's set is a
// runtime handle shaped as B's tile (m, n), owned by r, with memory from
// the first task that writes it (whole), until seq's wait.  NULL (and seq
// failed) when out of memory.  Collective on a distributed B.
typedef struct hyla_partials hyla_partials_t;
hyla_partials_t *hyla_rt_partials(hyla_seq_t *seq, const hyla_desc_t *B);
void *hyla_rt_partial(const hyla_partials_t *W, int m, int n, int r);
// By hyla_rt_seq_wait, after the tasks.
void hyla_rt_partials_release(hyla_seq_t *seq);

// Per-task options set by the algorithms.
typedef struct hyla_task_opts {
    hyla_seq_t *seq;
    int priority;
    // Tile column whose GPU runs the task under the cyclic mapping; -1:
    // any worker.  Only for codelets with a CUDA implementation.
    int owner;
    // Whether the call places its GPU tasks by the cyclic mapping
    // (hyla_rt_cyclic); owner is ignored otherwise.
    int cyclic;
    // Tasks with priority above zero on each GPU's first worker, the others
    // on its other workers (hyla_rt_critical_stream).
    int critical_stream;
} hyla_task_opts_t;

// Options for the tasks of seq: no priority, no owner.
static inline hyla_task_opts_t hyla_task_opts(hyla_seq_t *seq)
{
    return (hyla_task_opts_t){.seq = seq, .priority = 0, .owner = -1};
}

// The most CUDA streams (StarPU workers) per GPU.
enum { HYLA_MAX_GPU_STREAMS = 8 };

// Priorities, with nt tile columns: the panel (or diagonal block) of step k
// first, then the columns within lookahead of it, then the rest in step
// and column order, then work nothing waits for (hyla_prio_last).  The
// critical path, and only it, has priorities above zero: its GPU work goes
// to a high-priority CUDA stream (codelets.h).
static inline int hyla_prio_panel(int nt, int k)
{
    return 1 + 3 * (nt - k);
}

static inline int hyla_prio_update(int nt, int k, int n, int lookahead)
{
    return n <= k + lookahead ? hyla_prio_panel(nt, n) + 1 : -(n + k);
}

static inline int hyla_prio_last(int nt)
{
    return -2 * nt - 1;
}

//==== context ====

// Names of the hyla_mode_t values, in value order.
extern const char *const hyla_rt_mode_names[4];

// Nonzero between hyla_init() and hyla_finalize().
int hyla_rt_initialized(void);
const hyla_config_t *hyla_rt_config(void);

// The tile size, lookahead and panel threads of this machine by its core
// count and mode, where neither the configuration nor the tuning file
// says.
void hyla_rt_machine_defaults(hyla_mode_t mode, int *nb, int *lookahead,
                              int *panel_threads);

//==== tuning (tuning.c) ====

// The routines a tuning file has entries for.
typedef enum { HYLA_TUNE_GETRF, HYLA_TUNE_POTRF, HYLA_TUNE_RBT } hyla_tune_t;

// Read the tuning file at path (NULL: none), replacing the entries read
// before.  0, or HYLA_ERR_TUNING (or out of memory) with a detail naming
// the file and line; no entry is kept then.
int hyla_rt_tuning_load(const char *path);
void hyla_rt_tuning_free(void);
// The tile size and lookahead (either pointer may be NULL) of routine r on
// type t and order n: the configuration's where it sets them (nb > 0,
// lookahead >= 0), else the tuning file's entry of the mode in force and
// the nearest order, else hyla_nb_rule on the machine's defaults.
void hyla_rt_tuned(hyla_tune_t r, hyla_dtype_t t, int n, int *nb,
                   int *lookahead);
// The tile size of routine r on order n where neither the configuration
// nor the tuning file says, from the machine's default `dnb`: in native
// mode 2048 for the Cholesky from n = 4096, for the RBT solve from n =
// 8192 and for the LU from n = 32768, where tiles of 2048 made them faster
// on an H100 and on H200s (docs/perf, "Tiles of 2048 for large orders in
// native mode", "RBT: right-hand sides copied a tile column per task");
// `dnb` otherwise.
static inline int hyla_nb_rule(hyla_tune_t r, hyla_mode_t mode, int n, int dnb)
{
    if (mode != HYLA_MODE_NATIVE) return dnb;
    int from = r == HYLA_TUNE_POTRF ? 4096 : r == HYLA_TUNE_RBT ? 8192 : 32768;
    return n >= from ? 2048 : dnb;
}
// The tuning file's panel threads for mode (its LU entry of the largest
// order), or 0 when it has none.
int hyla_rt_tuned_panel_threads(hyla_mode_t mode);

int hyla_rt_desc_new(hyla_desc_t **A, hyla_dtype_t dtype, int m, int n, int nb);
// A tile matrix distributed over the grid of G when G is distributed (else
// not, G may be NULL); temp: as hyla_rt_desc_temp.  Collective then.
int hyla_rt_desc_on(hyla_desc_t **A, hyla_dtype_t dtype, int m, int n, int nb,
                    int temp, const hyla_desc_t *G);
// hyla_desc_create() for routine r, with its checks; distributed over a
// grid[0]-by-grid[1] grid of the processes unless grid is NULL
// (collective), with the checks of the grid (positions 6 and 7).
int hyla_rt_desc_create(const char *r, hyla_desc_t **A, hyla_dtype_t dtype,
                        int m, int n, int nb, const int *grid);
// Tiles without host memory: each lives where a task first writes it
// (which must write it whole), and is dropped, not brought back, when A is
// destroyed.
int hyla_rt_desc_temp(hyla_desc_t **A, hyla_dtype_t dtype, int m, int n,
                      int nb);
// The tile copy of the column-major m-by-n matrix Af (leading dimension
// lda) that a LAPACK-layout call makes.  In native mode its tiles have no
// host memory (as hyla_rt_desc_temp; every tile used is copied in, whole,
// first), and Af is pinned until A is destroyed, where that can be.
int hyla_rt_desc_copy(hyla_desc_t **A, hyla_dtype_t dtype, int m, int n,
                      int nb, const void *Af, int lda);
// The column-major matrix Af (leading dimension lda, A's sizes) cut into
// blocks of A's tiles, each registered as data of its own, for copies
// that may run on another process: *blocks[m + n*mt].  Of a distributed
// A, Af is rank 0's (the others pass anything).  Collective then.
int hyla_rt_lap_blocks_create(void ***blocks, const hyla_desc_t *A,
                              const void *Af, int lda);
// After the tasks that use them; rank 0's copies are in Af again.
void hyla_rt_lap_blocks_destroy(void **blocks, const hyla_desc_t *A);
int hyla_rt_pivots_create(hyla_pivots_t *P, int *ipiv, int npiv, int nb);
// The pivots of the distributed A (after hyla_rt_pivots_create): piece k
// belongs to the process of tile (k, k), and the workspaces of the
// interchanges on the columns of B (A, or right-hand sides distributed
// as A) are made where a tile column spans processes (A->p > 1).
// Collective.
int hyla_rt_pivots_dist(hyla_pivots_t *P, const hyla_desc_t *A,
                        const hyla_desc_t *B);
// The communicators and tokens of the panels of a distributed LU
// (A->p > 1).  Collective.
int hyla_rt_pivots_panel(hyla_pivots_t *P, const hyla_desc_t *A);
// After a distributed LU: every piece to every process, so that each
// one's ipiv is whole once hyla_rt_pivots_destroy returns.
void hyla_rt_pivots_share(hyla_pivots_t *P);
void hyla_rt_pivots_destroy(hyla_pivots_t *P);

//==== processes (mpi.c) ====

// This process's rank and the number of processes (0 and 1 without MPI).
int hyla_rt_rank(void);
int hyla_rt_nprocs(void);
// Whether hyla runs StarPU-MPI (started by hyla_mpi_init()).
int hyla_rt_mpi(void);
// On distributed matrices: the first of `count` consecutive tags
// (identical on every process, as descriptors are made collectively).
long long hyla_rt_mpi_tags(long long count);
// Collective: the smallest status (a failure, < 0) and the smallest
// positive info over the processes; status if any process failed.
int hyla_rt_mpi_reduce(int status, int info);
// On the processes of the distributed A (nothing otherwise): rank 0's
// `bytes` at buf to all of them; the sums over them of count values of
// type t at x, in place.
void hyla_rt_mpi_bcast(void *buf, size_t bytes, const hyla_desc_t *A);
void hyla_rt_mpi_sum(void *x, size_t count, hyla_dtype_t t,
                     const hyla_desc_t *A);

//==== errors ====

// Records a detail message for hyla_error_detail() and returns status.
int hyla_rt_error(int status, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void hyla_rt_error_clear(void);

// Argument checks shared by the entry points; each returns 0 or the
// LAPACK-style -pos status, with a detail message naming the routine.
int hyla_rt_check_init(const char *routine);
// A tile matrix of type dtype, not distributed.
int hyla_rt_check_desc(const char *routine, int pos, const hyla_desc_t *A,
                       hyla_dtype_t dtype);
// The same, distributed or not (routines that run on distributed matrices).
int hyla_rt_check_desc_any(const char *routine, int pos, const hyla_desc_t *A,
                           hyla_dtype_t dtype);
int hyla_rt_check_uplo(const char *routine, int pos, char uplo, int *flag);
int hyla_rt_check_trans(const char *routine, int pos, char trans, int *flag);
// A size, >= 0.
int hyla_rt_check_dim(const char *routine, int pos, const char *name, int v);
// A leading dimension, >= max(1, rows).
int hyla_rt_check_ld(const char *routine, int pos, const char *name, int ld,
                     int rows);
// A pointer, needed unless the matrix it points to is empty.
int hyla_rt_check_ptr(const char *routine, int pos, const char *name,
                      const void *p, int needed);
// A square tile matrix A (argument posA) and right-hand sides B (posB)
// with A's rows and tile size, distributed as A (or neither is).
int hyla_rt_check_rhs(const char *routine, int posA, const hyla_desc_t *A,
                      int posB, const hyla_desc_t *B);
// rc, the status of checks of arguments that may differ from process to
// process, made the same on all the processes of the distributed A (the
// most negative); no communication otherwise.
int hyla_rt_check_agree(const char *routine, const hyla_desc_t *A, int rc);
// hyla_init done, and the first arguments of a gesv: (n, nrhs, A, lda,
// ipiv, B, ldb) as arguments 1-7.
int hyla_rt_check_gesv(const char *routine, int n, int nrhs, const void *A,
                       int lda, const int *ipiv, const void *B, int ldb);
// Pivots as getrf leaves them: ipiv[i] in [i+1, n] for i < n.
int hyla_rt_check_ipiv(const char *routine, int pos, const int *ipiv, int n);

#endif // HYLA_RUNTIME_RUNTIME_H
