#!/bin/bash
# gpu-block-compare.sh - on a machine with an NVIDIA GPU: rlx's bf16
# encoder block against the same seven kernels chained by
# bench/cuda/bench_lt_pdl.cu, in one run, to find what rlx adds:
# 1. bench_models.py for the bf16 encoder, rlx's captured graphs written
#    to $OUT/rlx-graphs/ (setting cuda.graph_dot);
# 2. bench_lt_pdl (the wait test, the chain's times), its block also
#    timed with the cuBLASLt kernels rlx's autotuner took in step 1;
# 3. with NCU=1, every kernel's duration under Nsight Compute, caches
#    kept between kernels as in a graph replay: the chain's block
#    ($OUT/ncu_bench.csv) and rlx's and PyTorch's forwards
#    (profile_models.py, $OUT/ncu_models.csv).
# Outputs under $OUT (default /tmp/gpu-block-compare).
#
#   bash scripts/gpu-block-compare.sh
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/gpu-block-compare}
BUILD=${BUILD:-build-gpu-quick}
mkdir -p "$OUT/rlx-graphs"
. scripts/gpu-deps.sh
. scripts/gpu-quick-build.sh
status=0
gpu_quick_build . "$BUILD" "$OUT/build.log" || exit 1
export RLX_LIB=$BUILD/core/librlx.so.1 RLX_PLUGIN_PATH=$BUILD/plugins/cuda
RLX_CUDA_GRAPH_DOT=$OUT/rlx-graphs/ BENCH_MODELS="encoder bf16" \
    python3 bench/cuda/bench_models.py >"$OUT/bench_models.txt" 2>&1 || status=1
grep -E "^encoder|host time" "$OUT/bench_models.txt" | sort -u
# the cuBLASLt kernels of rlx's first graph, in order (qkv, out-proj, ff1, ff2)
picks=$(grep -o 'nvjet[A-Za-z0-9_]*' "$OUT/rlx-graphs/graph-1.dot" | paste -sd, -)
echo "rlx's picks: $picks"
LT_PDL_PICKS=$picks OUT=$OUT bash scripts/gpu-kernel-bench.sh lt_pdl \
    >"$OUT/lt_pdl.log" 2>&1 || status=1
grep -E "candidates wait|every algorithm|pass|calibration|no candidate" "$OUT/lt_pdl.log"
[ "${NCU:-0}" = 1 ] || exit $status
NCU="ncu --cache-control none --clock-control none --metrics gpu__time_duration.sum --csv"
LT_PDL_BLOCK_ONLY=1 $NCU --nvtx --nvtx-include "block/" \
    build-kernel-bench/bench_lt_pdl >"$OUT/ncu_bench.csv" 2>"$OUT/ncu_bench.err" || status=1
REPS=2 $NCU --profile-from-start off python3 bench/cuda/profile_models.py \
    >"$OUT/ncu_models.csv" 2>"$OUT/ncu_models.err" || status=1
for f in ncu_bench ncu_models; do
    echo "== $f"
    python3 scripts/ncu-durations.py "$OUT/$f.csv"
done
exit $status
