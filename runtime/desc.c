// SPDX-License-Identifier: BSD-3-Clause
// Tile descriptors (CRRB layout) and pivot pieces, registered with StarPU.
#include "glue.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>
#if HYLA_HAVE_CUDA
#include <cuda_runtime.h>
#endif

static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;
static hyla_desc_t *live_head;
static int live_count;

int hyla_rt_live_descs(void)
{
    pthread_mutex_lock(&live_lock);
    int n = live_count;
    pthread_mutex_unlock(&live_lock);
    return n;
}

static void live_add(hyla_desc_t *A)
{
    pthread_mutex_lock(&live_lock);
    A->prev = NULL;
    A->next = live_head;
    if (live_head) live_head->prev = A;
    live_head = A;
    live_count++;
    pthread_mutex_unlock(&live_lock);
}

static void live_remove(hyla_desc_t *A)
{
    pthread_mutex_lock(&live_lock);
    if (A->prev)
        A->prev->next = A->next;
    else
        live_head = A->next;
    if (A->next) A->next->prev = A->prev;
    live_count--;
    pthread_mutex_unlock(&live_lock);
}

// Tiles live in one block, pinned for GPU transfers when StarPU drives
// GPUs (a no-op otherwise).  The last large block freed is kept for the
// next matrix of about its size: a LAPACK-layout call makes a tile copy of
// its matrix every time, and a fresh block costs a page fault per 4 KiB on
// first touch (as much as the copy itself), and as much again to unmap.
// hyla_finalize() releases it.
enum { CACHE_MIN = 1 << 20 };

static struct {
    pthread_mutex_t lock;
    void *block;
    size_t bytes;
} cache = {PTHREAD_MUTEX_INITIALIZER, NULL, 0};

// Pinning a block for the GPUs faults in every page first, one at a
// time on the calling thread: about 1.7 GiB/s, 41 s for 72 GiB on an
// H200 node.  Large blocks are faulted in by several threads first
// (a write to each page), so that the pinning finds them present.
enum { PREFAULT_MIN = 1 << 28, PREFAULT_THREADS = 16, PAGE = 4096 };

struct prefault_slice {
    char *p;
    size_t bytes;
};

static void *prefault_run(void *arg)
{
    const struct prefault_slice *s = arg;
    volatile char *q = s->p;
    for (size_t i = 0; i < s->bytes; i += PAGE)
        q[i] = 0;
    return NULL;
}

static void prefault(void *p, size_t bytes)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    if (bytes < PREFAULT_MIN || cpus < 2) return;
    int nt = cpus > PREFAULT_THREADS ? PREFAULT_THREADS : (int)cpus;
    pthread_t tid[PREFAULT_THREADS];
    struct prefault_slice sl[PREFAULT_THREADS];
    size_t pages = (bytes + PAGE - 1) / PAGE;
    int started = 0;
    for (int t = 0; t < nt; t++) {
        size_t first = pages * t / nt, last = pages * (t + 1) / nt;
        size_t end = last * PAGE < bytes ? last * PAGE : bytes;
        sl[t] = (struct prefault_slice){(char *)p + first * PAGE,
                                        end - first * PAGE};
        // A slice whose thread does not start is faulted in here.
        if (pthread_create(&tid[started], NULL, prefault_run, &sl[t]))
            prefault_run(&sl[t]);
        else
            started++;
    }
    for (int t = 0; t < started; t++)
        pthread_join(tid[t], NULL);
}

static void *tiles_alloc(size_t bytes)
{
    void *p = NULL;
    pthread_mutex_lock(&cache.lock);
    if (cache.block && cache.bytes >= bytes && cache.bytes / 2 <= bytes) {
        p = cache.block;
        cache.block = NULL;
    }
    pthread_mutex_unlock(&cache.lock);
    if (p) return p;
    if (posix_memalign(&p, 64, bytes)) return NULL;
    if (starpu_cuda_worker_get_count() > 0) {
        prefault(p, bytes);
        starpu_memory_pin(p, bytes);
    }
    return p;
}

static void block_release(void *p, size_t bytes)
{
    starpu_memory_unpin(p, bytes);
    free(p);
}

static void tiles_free(void *p, size_t bytes)
{
    if (bytes >= CACHE_MIN) {
        pthread_mutex_lock(&cache.lock);
        void *old = cache.block;
        size_t old_bytes = cache.bytes;
        if (!old || old_bytes <= bytes) {
            cache.block = p;
            cache.bytes = bytes;
            p = old;
            bytes = old_bytes;
        }
        pthread_mutex_unlock(&cache.lock);
    }
    if (p) block_release(p, bytes);
}

void hyla_rt_tiles_cache_release(void)
{
    pthread_mutex_lock(&cache.lock);
    if (cache.block) block_release(cache.block, cache.bytes);
    cache.block = NULL;
    cache.bytes = 0;
    pthread_mutex_unlock(&cache.lock);
}

static void desc_free(hyla_desc_t *A)
{
    if (A->handles) {
        // The tiles are freed with their matrix: bringing them home first
        // (a GPU's copy may be the only valid one) would be a wasted
        // transfer.  The unregistration waits for the tasks on them.
        for (size_t i = 0; i < (size_t)A->mt * A->nt; i++)
            if (A->handles[i])
                starpu_data_unregister_no_coherency(A->handles[i]);
        free(A->handles);
    }
    if (A->mat) tiles_free(A->mat, A->bytes);
    if (A->pinned) starpu_memory_unpin(A->pinned, A->pinned_size);
    free(A);
}

// A tile matrix; temp: without memory of its own, StarPU allocates each
// tile where a task first writes it and drops it when it is destroyed.
// grid: distributed over grid[0] x grid[1] processes, or NULL.
static int desc_new(hyla_desc_t **out, hyla_dtype_t dtype, int m, int n, int nb,
                    int temp, const int *grid)
{
    hyla_desc_t *A = calloc(1, sizeof *A);
    if (!A) return HYLA_ERR_OUT_OF_MEMORY;
    A->dtype = dtype;
    A->elemsize = dtype == HYLA_DOUBLE ? sizeof(double) : sizeof(float);
    A->m = m;
    A->n = n;
    A->nb = nb;
    A->mt = (m + nb - 1) / nb;
    A->nt = (n + nb - 1) / nb;
    A->dist = grid != NULL;
    A->p = grid ? grid[0] : 1;
    A->q = grid ? grid[1] : 1;
    int me = A->dist ? hyla_rt_rank() : 0;
    // This process's tiles (all of them unless distributed).
    A->bytes = 0;
    for (int j = 0; j < A->nt; j++)
        for (int i = 0; i < A->mt; i++)
            if (hyla_tile_owner(A, i, j) == me)
                A->bytes += (size_t)hyla_tile_mb(A, i) * hyla_tile_nb(A, j) *
                            A->elemsize;
    size_t ntiles = (size_t)A->mt * A->nt;
    if (ntiles) {
        A->handles = calloc(ntiles, sizeof *A->handles);
        A->mat = A->handles && !temp && A->bytes ? tiles_alloc(A->bytes) : NULL;
        if (!A->handles || (!temp && A->bytes && !A->mat)) {
            desc_free(A);
            return HYLA_ERR_OUT_OF_MEMORY;
        }
    }
    long long tags = A->dist ? hyla_rt_mpi_tags((long long)ntiles) : 0;
    char *next = A->mat; // where this process's next tile goes
    for (int j = 0; j < A->nt; j++)
        for (int i = 0; i < A->mt; i++) {
            starpu_data_handle_t h;
            int ld = hyla_tile_nb(A, j), mb = hyla_tile_mb(A, i);
            int owner = hyla_tile_owner(A, i, j);
            // A row-major tile: nx elements in a row, ny rows, ld apart.
            // Not distributed, next is hyla_tile_addr(A, i, j).
            if (temp || owner != me) {
                starpu_matrix_data_register(&h, -1, 0, ld, ld, mb, A->elemsize);
            } else {
                starpu_matrix_data_register(&h, STARPU_MAIN_RAM,
                                            (uintptr_t)next, ld, ld, mb,
                                            A->elemsize);
                next += (size_t)ld * mb * A->elemsize;
            }
            // Traces name a task's tiles by these.
            starpu_data_set_coordinates(h, 2, i, j);
#if HYLA_HAVE_MPI
            if (A->dist)
                hyla_rt_mpi_register(h, tags + i + (long long)j * A->mt, owner);
#endif
            A->handles[i + (size_t)j * A->mt] = h;
        }
    (void)tags;
    live_add(A);
    *out = A;
    return HYLA_SUCCESS;
}

int hyla_rt_desc_new(hyla_desc_t **A, hyla_dtype_t dtype, int m, int n, int nb)
{
    return desc_new(A, dtype, m, n, nb, 0, NULL);
}

int hyla_rt_desc_temp(hyla_desc_t **A, hyla_dtype_t dtype, int m, int n, int nb)
{
    return desc_new(A, dtype, m, n, nb, 1, NULL);
}

int hyla_rt_desc_on(hyla_desc_t **A, hyla_dtype_t dtype, int m, int n, int nb,
                    int temp, const hyla_desc_t *G)
{
    int grid[2] = {G ? G->p : 1, G ? G->q : 1};
    return desc_new(A, dtype, m, n, nb, temp, G && G->dist ? grid : NULL);
}

// A column-major matrix from this size on is pinned while a copy of it
// crosses to the GPUs (native mode): on the H100 node (docs/perf) pinning
// takes 0.04 s per GB and unpinning 0.02 s, and pinned copies run at
// 44 GB/s each way, pageable ones at 7 (to the GPU) and 10.
enum { PIN_MIN = 4 << 20 };

int hyla_rt_desc_copy(hyla_desc_t **A, hyla_dtype_t dtype, int m, int n, int nb,
                      const void *Af, int lda)
{
    // In native mode the copies and the tasks on the tiles run on the GPUs:
    // the tiles need no host memory, which would cost more to pin than the
    // copies take (StarPU finds host memory for a tile it evicts).  In the
    // other modes CPU workers make the copies, from the matrix as it is.
    int native = hyla_rt_config()->mode == HYLA_MODE_NATIVE;
    int rc = desc_new(A, dtype, m, n, nb, native, NULL);
    if (rc || !native || m == 0 || n == 0) return rc;
    size_t bytes = ((size_t)lda * (n - 1) + m) * (*A)->elemsize;
    if (bytes < PIN_MIN) return 0;
    if (starpu_memory_pin((void *)Af, bytes) == 0) {
        (*A)->pinned = (void *)Af;
        (*A)->pinned_size = bytes;
    } else {
#if HYLA_HAVE_CUDA
        // Memory the caller pinned already, say: the copies work as well,
        // and the caller's next cudaGetLastError() must not see this.
        cudaGetLastError();
#endif
    }
    return 0;
}

int hyla_rt_desc_create(const char *r, hyla_desc_t **A, hyla_dtype_t dtype,
                        int m, int n, int nb, const int *grid)
{
    if (A) *A = NULL;
    int rc = hyla_rt_check_init(r);
    if (rc) return rc;
    if (!A) return hyla_rt_error(-1, "%s: A is NULL", r);
    if (dtype != HYLA_DOUBLE && dtype != HYLA_FLOAT)
        return hyla_rt_error(-2, "%s: dtype %d is not a hyla_dtype_t", r,
                             (int)dtype);
    if (m < 0) return hyla_rt_error(-3, "%s: m = %d < 0", r, m);
    if (n < 0) return hyla_rt_error(-4, "%s: n = %d < 0", r, n);
    if (nb < 0) return hyla_rt_error(-5, "%s: nb = %d < 0", r, nb);
    if (grid) {
        int p = grid[0], q = grid[1], size = hyla_rt_nprocs();
        if (p < 1) return hyla_rt_error(-6, "%s: p = %d < 1", r, p);
        if (q < 1 || (long long)p * q != size)
            return hyla_rt_error(-7,
                                 "%s: q = %d: p * q must be the number of "
                                 "processes, %d",
                                 r, q, size);
    }
    // nb 0: the tile size of an LU of this order (the configuration's,
    // else the tuning file's, else the machine's default).
    if (nb == 0)
        hyla_rt_tuned(HYLA_TUNE_GETRF, dtype, hyla_imax(m, n), &nb, NULL);
    rc = grid ? desc_new(A, dtype, m, n, nb, 0, grid)
              : hyla_rt_desc_new(A, dtype, m, n, nb);
    if (rc) return hyla_rt_error(rc, "%s: cannot allocate %d x %d", r, m, n);
    return HYLA_SUCCESS;
}

HYLA_EXPORT int hyla_desc_create(hyla_desc_t **A, hyla_dtype_t dtype, int m,
                                 int n, int nb)
{
    return hyla_rt_desc_create("hyla_desc_create", A, dtype, m, n, nb, NULL);
}

HYLA_EXPORT int hyla_desc_destroy(hyla_desc_t **A)
{
    if (!A || !*A) return HYLA_SUCCESS;
    live_remove(*A);
    desc_free(*A);
    *A = NULL;
    return HYLA_SUCCESS;
}

HYLA_EXPORT int hyla_desc_size(const hyla_desc_t *A, int *m, int *n, int *nb)
{
    if (!A) return hyla_rt_error(-1, "hyla_desc_size: A is NULL");
    if (m) *m = A->m;
    if (n) *n = A->n;
    if (nb) *nb = A->nb;
    return HYLA_SUCCESS;
}

HYLA_EXPORT int hyla_desc_local_size(const hyla_desc_t *A, int *mloc, int *nloc)
{
    if (!A) return hyla_rt_error(-1, "hyla_desc_local_size: A is NULL");
    // This process is (rank / q, rank mod q) in the grid.
    int rank = A->dist ? hyla_rt_rank() : 0, m = 0, n = 0;
    for (int i = rank / A->q; i < A->mt; i += A->p)
        m += hyla_tile_mb(A, i);
    for (int j = rank % A->q; j < A->nt; j += A->q)
        n += hyla_tile_nb(A, j);
    if (mloc) *mloc = m;
    if (nloc) *nloc = n;
    return HYLA_SUCCESS;
}

int hyla_rt_lap_blocks_create(void ***blocks, const hyla_desc_t *A,
                              const void *Af, int lda)
{
    size_t ntiles = (size_t)A->mt * A->nt;
    *blocks = calloc(ntiles ? ntiles : 1, sizeof **blocks);
    if (!*blocks) return HYLA_ERR_OUT_OF_MEMORY;
    int holder = !A->dist || hyla_rt_rank() == 0;
    long long tags = A->dist ? hyla_rt_mpi_tags((long long)ntiles) : 0;
    for (int j = 0; j < A->nt; j++)
        for (int i = 0; i < A->mt; i++) {
            starpu_data_handle_t h;
            int mb = hyla_tile_mb(A, i), nb = hyla_tile_nb(A, j);
            // Column-major: nx = mb contiguous rows, ny = nb columns.
            if (holder)
                starpu_matrix_data_register(
                    &h, STARPU_MAIN_RAM,
                    (uintptr_t)((const char *)Af +
                                ((size_t)j * A->nb * lda + (size_t)i * A->nb) *
                                    A->elemsize),
                    lda, mb, nb, A->elemsize);
            else
                starpu_matrix_data_register(&h, -1, 0, mb, mb, nb, A->elemsize);
#if HYLA_HAVE_MPI
            if (A->dist)
                hyla_rt_mpi_register(h, tags + i + (long long)j * A->mt, 0);
#endif
            (*blocks)[i + (size_t)j * A->mt] = h;
        }
    (void)tags;
    return HYLA_SUCCESS;
}

void hyla_rt_lap_blocks_destroy(void **blocks, const hyla_desc_t *A)
{
    if (!blocks) return;
    for (size_t i = 0; i < (size_t)A->mt * A->nt; i++)
        if (blocks[i]) starpu_data_unregister(blocks[i]);
    free(blocks);
}

int hyla_rt_pivots_create(hyla_pivots_t *P, int *ipiv, int npiv, int nb)
{
    P->ipiv = ipiv;
    P->nsteps = (npiv + nb - 1) / nb;
    P->handles = NULL;
    P->W = P->Old = NULL;
    P->comm = NULL;
    P->tokens = NULL;
    P->ntokens = 0;
    if (P->nsteps == 0) return HYLA_SUCCESS;
    P->handles = calloc(P->nsteps, sizeof *P->handles);
    if (!P->handles) {
        P->nsteps = 0;
        return HYLA_ERR_OUT_OF_MEMORY;
    }
    for (int k = 0; k < P->nsteps; k++) {
        starpu_data_handle_t h;
        int kb = hyla_imin(nb, npiv - k * nb);
        starpu_vector_data_register(&h, STARPU_MAIN_RAM,
                                    (uintptr_t)(ipiv + (size_t)k * nb), kb,
                                    sizeof(int));
        P->handles[k] = h;
    }
    return HYLA_SUCCESS;
}

int hyla_rt_pivots_dist(hyla_pivots_t *P, const hyla_desc_t *A,
                        const hyla_desc_t *B)
{
    long long tags = hyla_rt_mpi_tags(P->nsteps);
    for (int k = 0; k < P->nsteps; k++) {
#if HYLA_HAVE_MPI
        hyla_rt_mpi_register(P->handles[k], tags + k, hyla_tile_owner(A, k, k));
#endif
    }
    (void)tags;
    // A tile row per process row, on the processes of that row; none on
    // a single process row, where each tile column is one process's.
    if (A->p == 1) return HYLA_SUCCESS;
    int grid[2] = {A->p, A->q};
    int rc = desc_new(&P->W, A->dtype, A->p * A->nb, B->n, A->nb, 0, grid);
    if (!rc)
        rc = desc_new(&P->Old, A->dtype, A->p * A->nb, B->n, A->nb, 0, grid);
    return rc;
}

int hyla_rt_pivots_panel(hyla_pivots_t *P, const hyla_desc_t *A)
{
#if HYLA_HAVE_MPI
    // Ranks in a process column's communicator are process rows.
    int rank = hyla_rt_rank(), n = hyla_rt_nprocs();
    MPI_Comm *c = malloc(sizeof *c);
    P->tokens = calloc((size_t)n, sizeof *P->tokens);
    if (!c || !P->tokens) {
        free(c);
        return HYLA_ERR_OUT_OF_MEMORY;
    }
    MPI_Comm_split(hyla_rt_mpi_comm(), rank % A->q, rank / A->q, c);
    P->comm = c;
    long long tags = hyla_rt_mpi_tags(n);
    for (int r = 0; r < n; r++) {
        starpu_data_handle_t h;
        if (r == rank)
            starpu_variable_data_register(&h, STARPU_MAIN_RAM,
                                          (uintptr_t)&P->token, sizeof(int));
        else
            starpu_variable_data_register(&h, -1, 0, sizeof(int));
        hyla_rt_mpi_register(h, tags + r, r);
        P->tokens[r] = h;
    }
    P->ntokens = n;
    return HYLA_SUCCESS;
#else
    (void)P;
    (void)A;
    return HYLA_ERR_NOT_SUPPORTED;
#endif
}

void hyla_rt_pivots_share(hyla_pivots_t *P)
{
#if HYLA_HAVE_MPI
    for (int k = 0; k < P->nsteps; k++)
        starpu_mpi_get_data_on_all_nodes_detached(hyla_rt_mpi_comm(),
                                                  P->handles[k]);
#else
    (void)P;
#endif
}

void hyla_rt_pivots_destroy(hyla_pivots_t *P)
{
    for (int k = 0; k < P->nsteps; k++)
        starpu_data_unregister(P->handles[k]);
    free(P->handles);
    for (int r = 0; r < P->ntokens; r++)
        starpu_data_unregister(P->tokens[r]);
    free(P->tokens);
    P->tokens = NULL;
    P->ntokens = 0;
#if HYLA_HAVE_MPI
    if (P->comm) MPI_Comm_free((MPI_Comm *)P->comm);
#endif
    free(P->comm);
    P->comm = NULL;
    P->handles = NULL;
    hyla_desc_destroy(&P->W);
    hyla_desc_destroy(&P->Old);
}

int hyla_rt_trsm_ws_create(const char *r, hyla_trsm_ws_t *ws,
                           const hyla_desc_t *A, int count, int lu)
{
    *ws = (hyla_trsm_ws_t){NULL, NULL};
    if (!hyla_rt_trsm_inverse(lu)) return HYLA_SUCCESS;
    return hyla_rt_inv_ws_create(r, ws, A, count);
}

int hyla_rt_inv_ws_create(const char *r, hyla_trsm_ws_t *ws,
                          const hyla_desc_t *A, int count)
{
    *ws = (hyla_trsm_ws_t){NULL, NULL};
    if (A->nt == 0) return HYLA_SUCCESS;
    // The inverses live where they are computed: no host copy, no pinning.
    int rc = desc_new(&ws->inv, A->dtype, count * hyla_imin(A->nb, A->n), A->n,
                      A->nb, 1, NULL);
    if (rc) return hyla_rt_error(rc, "%s: no memory for the workspace", r);
    // A scratch tile: each worker gets its own buffer, never transferred.
    starpu_data_handle_t s;
    starpu_matrix_data_register(&s, -1, 0, (uint32_t)A->nb, (uint32_t)A->nb,
                                (uint32_t)A->nb, A->elemsize);
    ws->scratch = s;
    return HYLA_SUCCESS;
}

void hyla_rt_trsm_ws_destroy(hyla_trsm_ws_t *ws)
{
    if (ws->scratch) starpu_data_unregister(ws->scratch);
    hyla_desc_destroy(&ws->inv);
    ws->scratch = NULL;
}
