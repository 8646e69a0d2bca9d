#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The whole test suite: installs what is missing, builds hyla twice (a
# release build, and a debug build with AddressSanitizer + UBSan) and runs
# every test in both.  Tests that need a GPU report SKIP on a machine
# without one.  Exits non-zero if anything fails.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

scripts/build.sh build
meson test -C build --print-errorlogs --num-processes 1

scripts/build.sh build-asan -Dbuildtype=debug -Db_sanitize=address,undefined
# Any report (leaks included) fails the test that triggered it.
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
# hwloc's PCI plugin (libpciaccess, installed with OpenMPI) leaks what it
# allocates while StarPU reads the topology: keep it out of these runs.
export HWLOC_PLUGINS_BLACKLIST=hwloc_pci
meson test -C build-asan --print-errorlogs --num-processes 1 --timeout-multiplier 4
