#!/bin/bash
# gpu-all.sh - every GPU check of the tree in one call on a machine with an
# NVIDIA GPU (the device tool's lease is short): one -Werror build, then
# scripts/gpu-shared.sh (the shared GPU kernels with the own GEMM, then
# gpu-cuda.sh: the whole meson suite, conformance, both examples),
# scripts/gpu-placement.sh (split graphs, chains, benchmark choice) and
# scripts/gpu-pjrt.sh (the PJRT bridge through JAX's CUDA plugin), each
# logging under $OUT/<name>. Extra arguments go to gpu-shared.sh
# (--bench runs the CUDA benchmarks too).
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
OUT=${OUT:-$ROOT/gpu-all-out}
export BUILD=${BUILD:-$ROOT/build-gpu-all}
export CUDA=enabled WERROR=true
status=0
# Build dependencies the GPU machine lacks (libyaml, libffi): Debian .debs
# carried in .debs/, unpacked into a private prefix for every script below.
if ls .debs/*.deb >/dev/null 2>&1 &&
   ! { pkg-config --exists yaml-0.1 && pkg-config --exists libffi; }; then
    D=/tmp/rlx-deps
    for f in .debs/*.deb; do dpkg -x "$f" "$D"; done
    # point the .pc files at the prefix itself (no PKG_CONFIG_SYSROOT_DIR:
    # it would also prefix the staged SDK the sdk-install test builds)
    sed -i "s|^prefix=/usr|prefix=$D/usr|" "$D"/usr/lib/x86_64-linux-gnu/pkgconfig/*.pc
    export PKG_CONFIG_PATH=$D/usr/lib/x86_64-linux-gnu/pkgconfig
    export LD_LIBRARY_PATH=$D/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    # Debian keeps ffi.h and the link names in multiarch directories that
    # its compiler searches by default; another distribution's does not
    export CPATH=$D/usr/include/x86_64-linux-gnu${CPATH:+:$CPATH}
    export LIBRARY_PATH=$D/usr/lib/x86_64-linux-gnu${LIBRARY_PATH:+:$LIBRARY_PATH}
fi
for s in shared placement pjrt; do
    echo; echo "######## scripts/gpu-$s.sh"
    mkdir -p "$OUT/$s"
    args=()
    [ "$s" = shared ] && args=("$@")
    OUT=$OUT/$s bash "scripts/gpu-$s.sh" "${args[@]}" || { status=1; echo "gpu-$s.sh failed"; }
done
exit $status
