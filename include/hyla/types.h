// SPDX-License-Identifier: BSD-3-Clause
// hyla: status codes, configuration and the opaque tile-matrix type.
#ifndef HYLA_TYPES_H
#define HYLA_TYPES_H

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define HYLA_EXPORT __attribute__((visibility("default")))
#else
#define HYLA_EXPORT
#endif

/**
 * Return values of every hyla call.
 *
 *  - 0 is success;
 *  - -i with 1 <= i < 100: argument i of the call has an illegal value,
 *    counted from 1 as LAPACK does;
 *  - <= -100: a library, runtime or device error, listed below;
 *  - > 0: a numerical result with LAPACK's meaning (for example the index of
 *    the first exactly zero pivot U(i,i) in getrf).
 */
#define HYLA_STATUS_MAP(X)                                                     \
    X(SUCCESS, 0, "success")                                                   \
    X(ERR_NOT_INITIALIZED, -101, "hyla is not initialized: call hyla_init")    \
    X(ERR_REINITIALIZED, -102, "hyla is already initialized")                  \
    X(ERR_OUT_OF_MEMORY, -103, "host memory allocation failed")                \
    X(ERR_DEVICE_MEMORY, -104, "device memory allocation failed")              \
    X(ERR_NOT_SUPPORTED, -105, "not supported by this build or machine")       \
    X(ERR_RUNTIME, -106, "a StarPU call failed")                               \
    X(ERR_CUDA, -107, "a CUDA runtime call failed")                            \
    X(ERR_CUBLAS, -108, "a cuBLAS call failed")                                \
    X(ERR_NO_WORKER, -109, "no worker can run a task of this call")            \
    X(ERR_ENVIRONMENT, -110, "a HYLA_* environment variable is invalid")       \
    X(ERR_BUSY, -111, "tile matrices are still alive")                        \
    X(ERR_TUNING, -112, "the tuning file cannot be read or parsed")

typedef enum hyla_status {
#define HYLA_X(name, value, text) HYLA_##name = value,
    HYLA_STATUS_MAP(HYLA_X)
#undef HYLA_X
} hyla_status_t;

/** Where the tasks of a factorization run. */
typedef enum hyla_mode {
    HYLA_MODE_AUTO = 0,   /**< native where a GPU is found, else cpu */
    HYLA_MODE_CPU = 1,    /**< CPU workers only */
    HYLA_MODE_HYBRID = 2, /**< CPU panels, GPU updates */
    HYLA_MODE_NATIVE = 3  /**< every task on GPUs, one CPU thread drives */
} hyla_mode_t;

/** Who places the GPU tasks of a factorization. */
typedef enum hyla_mapping {
    HYLA_MAP_SCHEDULER = 0, /**< the StarPU scheduler, task by task */
    HYLA_MAP_CYCLIC = 1,    /**< owner computes: tile column n on GPU n mod
                                 ngpus (1-D block-cyclic) */
    HYLA_MAP_AUTO = 2       /**< per call: an LU on several GPUs, in
                                 native mode or when its tiles are larger
                                 than the memory StarPU may use on the
                                 GPUs together: cyclic; else the
                                 scheduler */
} hyla_mapping_t;

/** Where hyla_desc_place() brings the tiles of a matrix. */
typedef enum hyla_place {
    HYLA_PLACE_HOST = 0, /**< main memory */
    HYLA_PLACE_GPUS = 1  /**< the GPUs, tile columns block-cyclic */
} hyla_place_t;

/** Element type of a tile matrix. */
typedef enum hyla_dtype { HYLA_DOUBLE = 0, HYLA_FLOAT = 1 } hyla_dtype_t;

/**
 * Process-wide configuration, given to hyla_init().
 *
 * Fill it with hyla_config_init() (defaults for this machine, then the
 * HYLA_* environment overrides), change what you need, and pass it on.
 * A value of -1 in a count means "choose for this machine".
 */
typedef struct hyla_config {
    int ncpus;             /**< CPU workers; -1: every core not driving a GPU */
    int ngpus;             /**< GPUs; -1: all that are visible; 0: none */
    int nb;                /**< tile size (rows and columns of a tile),
                                >= 1; 0: per call, from the tuning file,
                                else this machine's default */
    int lookahead;         /**< panel steps updated ahead, >= 0; -1: per
                                call, as nb */
    int panel_threads;     /**< CPU threads factoring one LU panel, >= 1;
                                0: from the tuning file, else this
                                machine's default */
    hyla_mode_t mode;      /**< where the tasks run */
    const char *scheduler; /**< StarPU scheduling policy; NULL: default */
    int gpu_streams;       /**< CUDA streams (workers) per GPU, <= 8; 0: 2,
                                3 in native mode */
    hyla_mapping_t mapping; /**< placement of the GPU tasks */
    int trsm_inverse;       /**< solves by the diagonal tiles (Cholesky,
                                 LU, double-precision RBT) as GEMMs by
                                 their inverses: 1 yes, 0 no, -1 in
                                 native mode, and in hybrid mode for
                                 the Cholesky and the RBT solver */
    int gpu_reserved_sms;   /**< SMs of each GPU that the cuBLAS calls off
                                 the critical path leave to it; 0: none */
    int gpu_panel_rows;     /**< rows of one thread block of the GPU LU
                                 panel; 0: 256 */
    int gpu_critical_stream; /**< native mode, 2 or more streams a GPU:
                                  the critical path (panels, columns
                                  within lookahead) on each GPU's first
                                  stream, all other work on its others;
                                  1 yes, 0 no, -1 in the LU only */
    int gpu_prefetch;        /**< StarPU's prefetch: the data of each GPU
                                  task moves to its GPU as soon as the task
                                  is queued there.  1 yes, 0 no (a task's
                                  data moves when it starts), -1 no in
                                  native mode on one GPU, yes elsewhere.
                                  Without it a matrix larger than the GPU
                                  memory moves to the GPU once instead of
                                  several times; with it a matrix already
                                  on the GPU factors 1-3.5 % faster
                                  (docs/perf) */
    int gpu_gate;            /**< native mode: while an LU panel runs on a
                                  GPU, the work of that GPU's other
                                  streams waits for it, so that the panel
                                  has the GPU to itself.  1 yes, 0 no, -1
                                  yes on four GPUs or more (where the
                                  panels set the pace; on one or two GPUs
                                  the updates do) */
    const char *tuning;     /**< tuning file read by hyla_init (written by
                                 `hyla-bench tune`); NULL: none */
} hyla_config_t;

/**
 * Options of the random-butterfly (RBT) solvers; NULL for the defaults.
 * Initialize with HYLA_RBT_OPTS_DEFAULT and change what you need.
 */
typedef struct hyla_rbt_opts {
    int depth;               /**< butterfly levels, 0 ... 4; -1: 2.  0 is
                                  LU without pivoting of A itself */
    unsigned long long seed; /**< seed of the butterflies' generator: the
                                  same seed gives the same butterflies */
    int max_iter;            /**< refinement steps (products by A and
                                  solves) before the fall back to partial
                                  pivoting, >= 0; -1: 30 */
} hyla_rbt_opts_t;

#define HYLA_RBT_OPTS_DEFAULT {-1, 0x68796c61ULL, -1}

/** Why an RBT solve fell back to LU with partial pivoting. */
typedef enum hyla_rbt_fallback {
    HYLA_RBT_NONE = 0,          /**< it did not: the RBT solution passed */
    HYLA_RBT_ZERO_PIVOT = 1,    /**< LU without pivoting met a zero pivot */
    HYLA_RBT_NO_CONVERGENCE = 2, /**< refinement did not reach the
                                      stopping rule in max_iter steps, or a
                                      step did not reduce the residual */
    HYLA_RBT_SINGULAR = 3        /**< A is singular to working precision:
                                      ||A|| ||x|| / ||b|| > 1 / (10 eps)
                                      for a column (infinity norms) */
} hyla_rbt_fallback_t;

/** What an RBT solve did. */
typedef struct hyla_rbt_report {
    int iterations;                /**< refinement steps taken: solves
                                        by the randomized factors after
                                        the first, each with one product
                                        by A */
    hyla_rbt_fallback_t fallback; /**< whether, and why, it fell back */
    int zero_pivot;                /**< with HYLA_RBT_ZERO_PIVOT: the column
                                        (1-based) of the zero pivot */
} hyla_rbt_report_t;

/** A tile matrix in CRRB layout (opaque); see hyla_desc_create(). */
typedef struct hyla_desc hyla_desc_t;

#ifdef __cplusplus
}
#endif

#endif // HYLA_TYPES_H
