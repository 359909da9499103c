#!/bin/bash
# gpu-bench-resnet.sh - ResNet-50 on rlx's cuda backend against PyTorch
# on the same GPU (bench/cuda/bench_resnet50.py: batch 1 and 32, f32
# strict, f32 with TF32, bf16, int8 QDQ), on a machine with an NVIDIA GPU and the
# CUDA toolkit. Builds only what the benchmark needs (librlx, the rlx
# tool, the cuda plugin) unless the build directory is complete. Logs go
# to $OUT (default ./gpu-bench-out); BUILD is the build directory
# (default ./build-gpu-test, shared with scripts/gpu-test.sh); extra
# arguments go to the driver (e.g. --ab cuda.fuse=0 --no-compile,
# --modes bf16,int8).
#
#   bash scripts/gpu-bench-resnet.sh [--batches 1,32] [--modes strict,bf16]
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
OUT=${OUT:-$ROOT/gpu-bench-out}
BUILD=${BUILD:-$ROOT/build-gpu-test}
mkdir -p "$OUT"
. scripts/gpu-deps.sh

nvidia-smi --query-gpu=name,driver_version,memory.total,compute_cap \
    --format=csv 2>&1 | tee "$OUT/gpu.txt"
proto=()
if [ ! -f /usr/include/onnx/onnx.proto ] && [ -z "$RLX_GPU_MESON_ARGS" ] &&
   [ -f .debs/onnx.proto ]; then
    proto=(-Donnx_proto="$ROOT/.debs/onnx.proto")
fi
if [ ! -f "$BUILD/build.ninja" ]; then
    # shellcheck disable=SC2086
    meson setup "$BUILD" -Dwerror=true -Dcuda=enabled -Dbench=false \
        -Donnx=enabled "${proto[@]}" $RLX_GPU_MESON_ARGS \
        >"$OUT/setup.log" 2>&1 || { tail -30 "$OUT/setup.log"; exit 1; }
fi
ninja -C "$BUILD" tools/rlx plugins/cuda/librlx-backend-cuda.so \
    >"$OUT/build-bench.log" 2>&1 ||
    { grep -B2 -A12 FAILED "$OUT/build-bench.log" | head -60; exit 1; }

PY=python3
for p in python3 /usr/bin/python3; do
    if "$p" -c "import torch, torchvision, onnx, numpy" 2>/dev/null; then
        PY=$p; break
    fi
done
RLX_LIB=$BUILD/core/librlx.so.1 RLX_PLUGIN_PATH=$BUILD/plugins/cuda \
    PYTHONUNBUFFERED=1 "$PY" bench/cuda/bench_resnet50.py \
    --cache "$BUILD/resnet50" "$@" 2>&1 | tee "$OUT/resnet50.txt"
