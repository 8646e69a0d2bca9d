#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Installs what hyla needs on Debian and prints the StarPU prefix on stdout.
#
#  1. Debian packages (meson, ninja, pkg-config, hwloc, OpenBLAS, LAPACKE,
#     OpenMPI, and the tools to unpack a Debian source package), only those
#     missing.
#  2. StarPU 1.4 built from Debian's source package (sid or trixie), with CUDA
#     when nvcc is found and with StarPU-MPI when mpicc is, into a cache
#     prefix keyed by version, patch and configure flags.  A prefix that is
#     already built is reused as it is.
#
# Idempotent: a second run installs nothing and builds nothing.
#
# Environment:
#   HYLA_CACHE          cache folder (default ${XDG_CACHE_HOME:-$HOME/.cache}/hyla)
#   HYLA_STARPU_VERSION Debian source version to prefer (default 1.4.10+dfsg-2)
#   HYLA_CUDA           auto | yes | no: build StarPU with CUDA (default auto)
#   HYLA_MPI            auto | yes | no: build StarPU-MPI (default auto)
#   CUDA_HOME           CUDA toolkit (default: the folder above nvcc's bin/,
#                       else /usr/local/cuda)
set -euo pipefail

log() { printf 'install-deps: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
patch_file="$here/patches/starpu-1.4-cuda13-computemode.patch"
cache=${HYLA_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/hyla}
want_version=${HYLA_STARPU_VERSION:-1.4.10+dfsg-2}

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"
    elif command -v sudo >/dev/null; then sudo "$@"
    else die "need root to run: $*"; fi
}

#==== Debian packages ====
packages=(gcc g++ make meson ninja-build pkg-config patch xz-utils dpkg-dev
          python3 libhwloc-dev libopenblas-dev liblapacke-dev
          libopenmpi-dev openmpi-bin)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
        missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    log "installing Debian packages: ${missing[*]}"
    apt_log=$(mktemp)
    { as_root apt-get update -qq &&
      as_root env DEBIAN_FRONTEND=noninteractive \
          apt-get install -y -qq --no-install-recommends "${missing[@]}"; } \
        >"$apt_log" 2>&1 || { tail -n 30 "$apt_log" >&2; die "apt-get failed"; }
    rm -f "$apt_log"
fi

#==== CUDA ====
cuda=${HYLA_CUDA:-auto}
nvcc=$(command -v nvcc || true)
[ -n "$nvcc" ] || [ ! -x /usr/local/cuda/bin/nvcc ] || nvcc=/usr/local/cuda/bin/nvcc
cuda_home=${CUDA_HOME:-}
if [ -z "$cuda_home" ] && [ -n "$nvcc" ]; then
    cuda_home=$(dirname "$(dirname "$(readlink -f "$nvcc")")")
fi
case "$cuda" in
    auto) if [ -n "$nvcc" ]; then cuda=yes; else cuda=no; fi ;;
    yes)  [ -n "$nvcc" ] || die "HYLA_CUDA=yes but nvcc was not found" ;;
    no)   ;;
    *)    die "HYLA_CUDA must be auto, yes or no (got '$cuda')" ;;
esac

#==== MPI ====
mpi=${HYLA_MPI:-auto}
mpicc=$(command -v mpicc || true)
case "$mpi" in
    auto) if [ -n "$mpicc" ]; then mpi=yes; else mpi=no; fi ;;
    yes)  [ -n "$mpicc" ] || die "HYLA_MPI=yes but mpicc was not found" ;;
    no)   ;;
    *)    die "HYLA_MPI must be auto, yes or no (got '$mpi')" ;;
esac

#==== StarPU ====
# Every flag that changes the installed library is part of the cache key.
flags=(--enable-maxcpus=256 --enable-maxcudadev=8 --enable-maxnumanodes=8
       --disable-static --disable-build-doc --disable-build-tests
       --disable-build-examples --disable-opencl --disable-fortran
       --disable-socl --disable-starpufft --disable-starpupy --disable-openmp
       --disable-fxt
       --disable-hdf5 --disable-max-fpga --disable-glpk --disable-papi
       --enable-blas-lib=none)
if [ "$cuda" = yes ]; then
    flags+=(--with-cuda-dir="$cuda_home")
else
    flags+=(--disable-cuda)
fi
if [ "$mpi" = yes ]; then
    flags+=(--enable-mpi --disable-mpi-check --disable-mpi-master-slave
            --disable-tcpip-master-slave)
else
    flags+=(--disable-mpi)
fi
key_of() {  # version -> cache key
    { echo "$1"; cat "$patch_file"; printf '%s\n' "${flags[@]}"; } |
        sha256sum | cut -c1-12
}
prefix_of() { echo "$cache/starpu-$1-$(key_of "$1")"; }
ready() { [ -f "$1/.hyla-complete" ]; }

prefix=$(prefix_of "$want_version")
if ready "$prefix"; then
    echo "$prefix"
    exit 0
fi

# Only one build per cache at a time.
mkdir -p "$cache"
exec 9>"$cache/.lock"
flock 9

# Make sure Debian's sources for sid and trixie are known to apt.
available_versions() {
    apt-cache showsrc starpu 2>/dev/null | sed -n 's/^Version: //p' | grep '^1\.4\.' || true
}
if ! available_versions | grep -q .; then
    src_list=/etc/apt/sources.list.d/hyla-deb-src.sources
    log "adding a deb-src entry for trixie and sid ($src_list)"
    as_root tee "$src_list" >/dev/null <<'EOF'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: trixie sid
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
    as_root apt-get update -qq >&2
fi
if available_versions | grep -qxF "$want_version"; then
    version=$want_version
else
    version=$(available_versions | sort -V | tail -n 1)
    [ -n "$version" ] || die "no StarPU 1.4.x source package in apt's sources"
    log "StarPU $want_version is gone from apt's sources; using $version"
fi
prefix=$(prefix_of "$version")
if ready "$prefix"; then
    echo "$prefix"
    exit 0
fi

work=$(mktemp -d "$cache/build.XXXXXX")
trap 'rm -rf "$work"' EXIT
log "building StarPU $version (cuda=$cuda) into $prefix; this takes a while"
(
    cd "$work"
    apt-get source --download-only "starpu=$version" >"$work/source.log" 2>&1 ||
        { tail -n 20 "$work/source.log" >&2; die "apt-get source starpu=$version failed"; }
    dpkg-source -x starpu_*.dsc src >"$work/source.log" 2>&1 ||
        { tail -n 20 "$work/source.log" >&2; die "dpkg-source failed"; }
    cd src
    if patch -p1 --dry-run -s <"$patch_file" >/dev/null 2>&1; then
        patch -p1 -s <"$patch_file"
        log "applied $(basename "$patch_file")"
    elif grep -q 'props\[devid\]\.computeMode' src/drivers/cuda/*.c; then
        die "the CUDA 13 patch does not apply to StarPU $version"
    else
        log "StarPU $version needs no CUDA 13 patch"
    fi
    ./configure -q --prefix="$prefix" "${flags[@]}" >"$work/configure.log" 2>&1 ||
        { tail -n 40 "$work/configure.log" >&2; die "StarPU configure failed"; }
    make -s -j"$(nproc)" >"$work/make.log" 2>&1 ||
        { tail -n 60 "$work/make.log" >&2; die "StarPU build failed"; }
    rm -rf "$prefix"
    make -s install >"$work/install.log" 2>&1 ||
        { tail -n 40 "$work/install.log" >&2; die "StarPU install failed"; }
)
grep -q '^#define STARPU_USE_CUDA 1' "$prefix"/include/starpu/1.4/starpu_config.h &&
    built_cuda=yes || built_cuda=no
[ "$built_cuda" = "$cuda" ] || die "asked for cuda=$cuda but StarPU built cuda=$built_cuda"
[ -f "$prefix/lib/pkgconfig/starpumpi-1.4.pc" ] && built_mpi=yes || built_mpi=no
[ "$built_mpi" = "$mpi" ] || die "asked for mpi=$mpi but StarPU built mpi=$built_mpi"
echo "$version cuda=$cuda mpi=$mpi" >"$prefix/.hyla-complete"
log "StarPU $version installed in $prefix"
echo "$prefix"
