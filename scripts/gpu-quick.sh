#!/bin/bash
# gpu-quick.sh - the short loop for GPU performance work on a machine with
# an NVIDIA GPU: a debugoptimized build of the core and the cuda plugin only (no
# tests, no other plugins), `rlx conformance --backend cuda`, then
# bench/cuda/bench_models.py restricted to the models named in
# BENCH_MODELS (substrings of the row names, comma-separated, e.g.
# "mlp f32 batch 1,encoder f32"; empty: all). The full checks stay in
# scripts/gpu-all.sh. Logs under $OUT (default /tmp/gpu-quick).
#
#   BENCH_MODELS="mlp f32 batch 1" bash scripts/gpu-quick.sh
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/gpu-quick}
BUILD=${BUILD:-build-gpu-quick}
mkdir -p "$OUT"
. scripts/gpu-deps.sh
. scripts/gpu-quick-build.sh
status=0
gpu_quick_build . "$BUILD" "$OUT/build.log" || exit 1
export RLX_PLUGIN_PATH=$BUILD/plugins/cuda
"$BUILD/tools/rlx" conformance --backend cuda >"$OUT/conformance.txt" 2>&1 || status=1
grep FAIL "$OUT/conformance.txt" | head; tail -1 "$OUT/conformance.txt"
RLX_LIB=$BUILD/core/librlx.so.1 PYTHONUNBUFFERED=1 RLX_CUDA_PROFILE=1 RLX_LOG=info \
    python3 bench/cuda/bench_models.py >"$OUT/bench_models.txt" 2>&1 || status=1
sed -n '/^# summary/,$p' "$OUT/bench_models.txt"
exit $status
