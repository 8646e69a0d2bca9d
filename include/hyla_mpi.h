// SPDX-License-Identifier: BSD-3-Clause
// hyla over MPI: tile matrices distributed 2-D block-cyclically over the
// processes of a communicator, factored by one task graph that StarPU-MPI
// runs across them (each process runs the tasks that write its tiles).
//
// Installed by builds with MPI (meson option mpi).  Every call here, and
// every hyla call on a distributed matrix, is collective: all processes
// of the communicator make it, with the same arguments, in the same order.
#ifndef HYLA_MPI_H
#define HYLA_MPI_H

#include <hyla.h>
#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Start hyla on every process of comm: each starts the workers cfg asks
 * for, as hyla_init() does, and StarPU-MPI on comm.  MPI must be
 * initialized with MPI_THREAD_MULTIPLE (hyla's communication thread and
 * the calls that gather a result's status run at once).  hyla_finalize()
 * stops both; MPI stays initialized.
 *
 * @param[in] cfg   configuration, or NULL for hyla_config_init()'s.
 * @param[in] comm  the processes; hyla works on a duplicate of it.
 * @retval HYLA_SUCCESS
 * @retval -1  a field of cfg is out of range
 * @retval -2  comm is MPI_COMM_NULL
 * @retval HYLA_ERR_NOT_SUPPORTED  MPI is not initialized, or not with
 *                                 MPI_THREAD_MULTIPLE
 * @retval other statuses as hyla_init()
 */
HYLA_EXPORT int hyla_mpi_init(const hyla_config_t *cfg, MPI_Comm comm);

/**
 * Create an m-by-n tile matrix of nb-by-nb tiles distributed over a
 * p-by-q grid of the processes: tile (i, j) belongs to rank
 * (i mod p) * q + (j mod q) of the communicator, p * q of them.  Each
 * process allocates its own tiles only.  Tiles and edge tiles are those
 * of hyla_desc_create().
 *
 * @retval HYLA_SUCCESS, -1 ... -5 as hyla_desc_create(), -6 (p < 1),
 *         -7 (q < 1, or p * q is not the number of processes),
 *         HYLA_ERR_NOT_SUPPORTED (hyla was not started by hyla_mpi_init()),
 *         HYLA_ERR_OUT_OF_MEMORY
 */
HYLA_EXPORT int hyla_desc_create_dist(hyla_desc_t **A, hyla_dtype_t dtype,
                                      int m, int n, int nb, int p, int q);

/**
 * The rank that holds tile (i, j) of A: 0 for every tile of a matrix
 * that is not distributed; -1 when A is NULL or (i, j) is not a tile.
 */
HYLA_EXPORT int hyla_desc_owner(const hyla_desc_t *A, int i, int j);

// What works on distributed matrices (collective calls):
//  - hyla_dlap_to_desc() / hyla_ddesc_to_lap(): the column-major matrix is
//    read (written) on rank 0 only; the other ranks may pass NULL;
//  - hyla_dlocal_to_desc() / hyla_ddesc_to_local(): each process's local
//    matrix in ScaLAPACK's layout;
//  - hyla_dpotrf_tile() and hyla_dgetrf_tile(): info is the same on every
//    rank, and so is ipiv, which every rank passes whole;
//  - hyla_dgetrs_tile(), hyla_dgesv_tile(), hyla_dpotrs_tile(),
//    hyla_dposv_tile(): B distributed over the same grid as A, with A's
//    tile size; hyla_dgetrs_tile() reads the pivots of step k from the
//    process of tile (k, k), and checks every process's ipiv;
//  - hyla_desc_destroy(), hyla_desc_size(), hyla_desc_local_size(),
//    hyla_desc_place() (this process's tiles);
//  and their s forms.  Other routines return HYLA_ERR_NOT_SUPPORTED.

#ifdef __cplusplus
}
#endif

#endif // HYLA_MPI_H
