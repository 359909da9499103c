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
. scripts/gpu-deps.sh
for s in shared placement pjrt; do
    echo; echo "######## scripts/gpu-$s.sh"
    mkdir -p "$OUT/$s"
    args=()
    [ "$s" = shared ] && args=("$@")
    OUT=$OUT/$s bash "scripts/gpu-$s.sh" "${args[@]}" || { status=1; echo "gpu-$s.sh failed"; }
done
exit $status
