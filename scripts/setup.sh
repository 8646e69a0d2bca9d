#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The first command on a fresh Debian machine: install the dependencies
# (StarPU 1.4 is built once into a cache), build hyla, and run the main job:
# factor a default-size matrix with hyla and with OpenBLAS, and print time,
# GFLOP/s, the ratio and hyla's residual.
#
#   scripts/setup.sh [hyla-bench options]     (see build/examples/hyla-bench -h)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
scripts/build.sh build
export STARPU_SILENT=${STARPU_SILENT:-1}
exec build/examples/hyla-bench "$@"
