// SPDX-License-Identifier: BSD-3-Clause
// hyla: dense LU and Cholesky on all of a node's CPU cores and GPUs.
//
// The one header users include.  Routines follow LAPACK: same argument
// names, order and meaning, 1-based ipiv, and LAPACK's info as the return
// value (see hyla/types.h for the full convention).
#ifndef HYLA_H
#define HYLA_H

#include <hyla/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Fill *cfg with this machine's defaults, then apply the environment
 * overrides: HYLA_NCPUS, HYLA_NGPUS, HYLA_NB, HYLA_LOOKAHEAD,
 * HYLA_PANEL_THREADS, HYLA_MODE (auto, cpu, hybrid, native), HYLA_SCHED,
 * HYLA_GPU_STREAMS, HYLA_MAPPING (scheduler, cyclic), HYLA_TRSM_INV
 * (0, 1), HYLA_GPU_RESERVED_SMS, HYLA_GPU_PANEL_ROWS and HYLA_TUNING
 * (a tuning file, or "none"; without it $XDG_CONFIG_HOME/hyla/tuning, or
 * ~/.config/hyla/tuning, where that file exists).
 * This is the only place hyla reads its environment.
 *
 * @retval HYLA_SUCCESS
 * @retval -1                 cfg is NULL
 * @retval HYLA_ERR_ENVIRONMENT a HYLA_* variable does not parse; *cfg holds
 *                            the defaults and the other overrides
 */
HYLA_EXPORT int hyla_config_init(hyla_config_t *cfg);

/**
 * Start the library: StarPU workers, BLAS threading, defaults.
 * Process-wide; call it once before any other hyla call, from one thread.
 *
 * @param[in] cfg  configuration, or NULL for hyla_config_init()'s.
 * @retval HYLA_SUCCESS
 * @retval -1                      a field of cfg is out of range
 * @retval HYLA_ERR_REINITIALIZED  hyla is already initialized
 * @retval HYLA_ERR_NOT_SUPPORTED  the mode needs GPUs this build or
 *                                 machine does not have
 * @retval HYLA_ERR_ENVIRONMENT    (cfg NULL) an override does not parse
 * @retval HYLA_ERR_RUNTIME        StarPU failed to start
 */
HYLA_EXPORT int hyla_init(const hyla_config_t *cfg);

/**
 * Stop the library.  Tile matrices must be destroyed first.
 * hyla_init() may be called again afterwards.
 *
 * @retval HYLA_SUCCESS
 * @retval HYLA_ERR_NOT_INITIALIZED
 * @retval HYLA_ERR_BUSY  tile matrices are still alive; nothing was stopped
 */
HYLA_EXPORT int hyla_finalize(void);

/**
 * The configuration in force (ncpus, ngpus, mode, panel_threads and
 * gpu_prefetch resolved; nb 0, lookahead -1 and mapping auto, chosen per
 * call, stay: see hyla_tuned()), or the status
 * HYLA_ERR_NOT_INITIALIZED.  *cfg is copied out.
 */
HYLA_EXPORT int hyla_config_get(hyla_config_t *cfg);

/**
 * The tile size and lookahead that a LAPACK-layout call of routine
 * ("getrf", "gesv", "potrf", "posv" or "gesv_rbt") in precision prec ('d'
 * or 's') on order n takes: the configuration's where it sets them
 * (nb > 0, lookahead >= 0), else the tuning file's entry of the mode in
 * force with the nearest order, else this machine's defaults (in native
 * mode nb 2048 for potrf and posv from n = 4096 and for the others from
 * n = 32768, 1024 below).  Either output may be NULL.  hyla_config_get()
 * reports nb 0 and lookahead -1 when they are chosen per call.
 *
 * @retval HYLA_SUCCESS
 * @retval -1, -2, -3  routine, prec or n (< 0) is invalid
 * @retval HYLA_ERR_NOT_INITIALIZED
 */
HYLA_EXPORT int hyla_tuned(const char *routine, char prec, int n, int *nb,
                           int *lookahead);

/** A static description of a status code; never NULL. */
HYLA_EXPORT const char *hyla_strerror(int status);

/**
 * Details on the last error raised by a hyla call on this thread, such as
 * "hyla_dgetrf: lda = 3 < max(1, m) = 5".  Empty when there is none.
 */
HYLA_EXPORT const char *hyla_error_detail(void);

/**
 * One line on the running configuration's workers and on the cores that
 * factor LU panels together (chosen with hwloc: cores sharing an L3 cache
 * first), e.g. "16 CPU workers; LU panel on 4 threads (L3 #0 of package
 * #0), cores 0 1 2 3".  Empty before hyla_init().
 */
HYLA_EXPORT const char *hyla_topology(void);

/** Library version, "major.minor.patch". */
HYLA_EXPORT const char *hyla_version(void);

//==== traces ====

/**
 * Record every task hyla runs from now on: its kind (the codelet name:
 * dgemm, dgetrf_panel, ...), its worker, its tiles (tile row and column
 * and access of the first three, and how many), its start and end, and
 * before it
 * the time its worker waited for the task's data ("data wait", category
 * "transfer": a transfer that was not overlapped) when 10 us or more.
 * Off by default; when off a task pays one load of a flag.  Starting
 * again discards the previous records.  Recording turns StarPU's
 * profiling on.
 */
HYLA_EXPORT int hyla_trace_start(void);

/** Stop recording; the records stay until the next hyla_trace_start(). */
HYLA_EXPORT int hyla_trace_stop(void);

/**
 * Write the records as Chrome / Perfetto trace-event JSON (one row per
 * worker; a task of several cores shows on each; a task's tiles in its
 * args, e.g. "tiles":"(2,3)RW (2,1)R (1,3)R +4"), or, when path ends in
 * ".svg", as an SVG timeline (a row per worker, a box per task coloured
 * by kind, waits for data as red bars, a time axis and a legend).  Times
 * are microseconds since hyla_trace_start().
 * @retval -1 path is NULL or cannot be written.
 */
HYLA_EXPORT int hyla_trace_write(const char *path);

//==== tile matrices (CRRB layout) ====

/**
 * Create an m-by-n tile matrix of nb-by-nb tiles (smaller edge tiles when nb
 * does not divide m or n).  Tiles are stored tile-column by tile-column,
 * elements row-major inside each tile.  The contents are undefined until
 * written (hyla_dlap_to_desc() or a factorization's output).
 *
 * @param[out] A      the new matrix; set to NULL on failure.
 * @param[in]  dtype  HYLA_DOUBLE or HYLA_FLOAT.
 * @param[in]  m, n   sizes, >= 0.
 * @param[in]  nb     tile size >= 1, or 0 for the configured one.
 * @retval HYLA_SUCCESS, -1 ... -5 (argument), HYLA_ERR_NOT_INITIALIZED,
 *         HYLA_ERR_OUT_OF_MEMORY, HYLA_ERR_RUNTIME
 * Ownership: the caller destroys A with hyla_desc_destroy().
 */
HYLA_EXPORT int hyla_desc_create(hyla_desc_t **A, hyla_dtype_t dtype, int m,
                                 int n, int nb);

/**
 * Destroy a tile matrix after its pending tasks finish.  Takes NULL or a
 * pointer to NULL; sets *A to NULL.
 */
HYLA_EXPORT int hyla_desc_destroy(hyla_desc_t **A);

/** Sizes of a tile matrix; any output pointer may be NULL. */
HYLA_EXPORT int hyla_desc_size(const hyla_desc_t *A, int *m, int *n, int *nb);

/**
 * Sizes of this process's local matrix of A in ScaLAPACK's layout
 * (hyla_dlocal_to_desc()): the rows of the tile rows it holds tiles of,
 * and the columns of those tile columns (ScaLAPACK's NUMROC).  Those of A
 * for a matrix that is not distributed.  Any output pointer may be NULL.
 * @retval HYLA_SUCCESS, -1 (A NULL)
 */
HYLA_EXPORT int hyla_desc_local_size(const hyla_desc_t *A, int *mloc,
                                     int *nloc);

/**
 * Bring the tiles of A to where the next calls will use them, and wait
 * until they are there (after the pending tasks that write them).
 * HYLA_PLACE_GPUS copies tile column n to GPU n mod ngpus, as the cyclic
 * mapping runs it (nothing to do without GPUs); HYLA_PLACE_HOST brings
 * every tile home.  Copies, not moves: the host keeps a valid copy of a
 * tile until a task writes the tile elsewhere.
 *
 * @retval HYLA_SUCCESS, -1 (A NULL), -2 (where), HYLA_ERR_NOT_INITIALIZED,
 *         HYLA_ERR_RUNTIME
 */
HYLA_EXPORT int hyla_desc_place(hyla_desc_t *A, hyla_place_t where);

#ifdef __cplusplus
}
#endif

#include <hyla/hyla_d.h>
#include <hyla/hyla_s.h>

#endif // HYLA_H
