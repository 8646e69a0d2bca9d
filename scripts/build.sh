#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Configure (once) and build hyla in a build folder, against the StarPU that
# scripts/install-deps.sh installed.  Idempotent.
#
#   scripts/build.sh [BUILD_DIR [MESON_OPTION ...]]     default: build
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
dir=${1:-build}
shift || true
starpu=$(scripts/install-deps.sh)
export PKG_CONFIG_PATH="$starpu/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
# A build folder made against another StarPU (or other options) is made anew.
stamp="$starpu $*"
if [ ! -f "$dir/build.ninja" ]; then
    meson setup "$dir" "$@" >&2
elif [ "$(cat "$dir/.hyla-setup" 2>/dev/null)" != "$stamp" ]; then
    meson setup --wipe "$dir" "$@" >&2
fi
echo "$stamp" >"$dir/.hyla-setup"
ninja -C "$dir" >&2
