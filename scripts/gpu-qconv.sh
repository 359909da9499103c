#!/bin/bash
# gpu-qconv.sh - the quantized convs and the cached conv filters on a
# machine with an NVIDIA GPU and the CUDA toolkit, in one short run:
# builds only what they need (librlx, the rlx tool, the cuda plugin and
# two of its tests), runs test-cuda-quant (the fused int8 conv bit-exact
# against cpu-ref) and test-cuda-vision (the convs, their filter params
# written again between runs), then bench/cuda/bench_resnet50.py with
# the arguments given (default: batch 32, bf16 and int8, no
# torch.compile); PROFILE_INT8=1 then profiles the int8 model step by
# step. Logs go to $OUT (default ./gpu-qconv-out); BUILD is the build
# directory (default ./build-gpu-test, shared with scripts/gpu-test.sh).
#
#   bash scripts/gpu-qconv.sh [--batches 1,32 --modes strict,bf16,int8]
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
OUT=${OUT:-$ROOT/gpu-qconv-out}
BUILD=${BUILD:-$ROOT/build-gpu-test}
mkdir -p "$OUT"
. scripts/gpu-deps.sh
status=0

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
    plugins/cuda/test/test-cuda-quant plugins/cuda/test/test-cuda-vision \
    >"$OUT/build.log" 2>&1 ||
    { grep -B2 -A12 FAILED "$OUT/build.log" | head -60; exit 1; }

meson test -C "$BUILD" --no-rebuild --print-errorlogs cuda-quant \
    cuda-vision >"$OUT/test.log" 2>&1 || status=1
grep -E "^(not )?ok|^ *[0-9]+/[0-9]+ " "$BUILD/meson-logs/testlog.txt" \
    "$OUT/test.log" | grep -v "^.*: *ok [0-9]* - .*equal$" | tail -60
if grep -q "# SKIP no NVIDIA GPU" "$BUILD/meson-logs/testlog.txt"; then
    echo "cuda tests skipped: no GPU seen"; status=1
fi
cp "$BUILD/meson-logs/testlog.txt" "$OUT/testlog.txt" 2>/dev/null
# which path the test's fused convs took (cuDNN int8, or our kernel)
RLX_TEST_CUDA_PLUGIN=$BUILD/plugins/cuda/librlx-backend-cuda.so \
    RLX_PLUGIN_PATH= RLX_DEVICE= RLX_LOG=debug \
    "$BUILD/plugins/cuda/test/test-cuda-quant" 2>&1 |
    grep -E "quantized conv" | sort | uniq -c

PY=python3
for p in python3 /usr/bin/python3; do
    if "$p" -c "import torch, torchvision, onnx, numpy" 2>/dev/null; then
        PY=$p; break
    fi
done
[ $# -gt 0 ] || set -- --batches 32 --modes bf16,int8 --no-compile
RLX_LIB=$BUILD/core/librlx.so.1 RLX_PLUGIN_PATH=$BUILD/plugins/cuda \
    PYTHONUNBUFFERED=1 "$PY" bench/cuda/bench_resnet50.py \
    --cache "$BUILD/resnet50" "$@" 2>&1 | tee "$OUT/resnet50.txt" ||
    status=1
# PROFILE_INT8=1: where the int8 model's time goes (per step kind, one
# eager run timed step by step) and which path each quantized conv took
Q8=$BUILD/resnet50/resnet50_b32_qdq.onnx
if [ -n "${PROFILE_INT8:-}" ] && [ -f "$Q8" ]; then
    RLX_PLUGIN_PATH=$BUILD/plugins/cuda RLX_LOG=debug RLX_CUDA_PROFILE=1 \
        "$BUILD/tools/rlx" run "$Q8" --device cuda --fallback none \
        >"$OUT/int8-profile.txt" 2>&1 || status=1
    grep -oE "quantized conv (through cuDNN int8|stays on our kernel)" \
        "$OUT/int8-profile.txt" | sort | uniq -c
    sed -nE 's/.* step +[0-9]+ +([a-z_]+) +op +([0-9]+) .* ([0-9.]+) ms$/\1 op \2 \3/p' \
        "$OUT/int8-profile.txt" |
        awk '{t[$1" "$2" "$3] += $4; n[$1" "$2" "$3]++}
             END {for (k in t) printf "%-22s %4d steps %9.3f ms\n", k,
                  n[k], t[k]}' | sort -k6 -rn
fi
exit $status
