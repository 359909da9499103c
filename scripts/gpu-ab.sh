#!/bin/bash
# gpu-ab.sh - on a machine with an NVIDIA GPU: the same models timed
# with two trees in one run, to measure a change: each tree (default:
# OLD=.wt-old, NEW=this one) gets a debugoptimized build of the core and
# the cuda plugin, then, alternating old / new / old / new,
# bench/cuda/queued_alone.py (the bf16 encoder block queued, and
# PyTorch's graph of it) and bench_models.py for BENCH_MODELS (default
# "encoder"). Logs under $OUT (default /tmp/gpu-ab).
#
#   OLD=../old-tree bash scripts/gpu-ab.sh
set -uo pipefail
cd "$(dirname "$0")/.."
NEW=$PWD
OLD=$(cd "${OLD:-.wt-old}" && pwd) || exit 2
OUT=${OUT:-/tmp/gpu-ab}
mkdir -p "$OUT"
. scripts/gpu-deps.sh
. scripts/gpu-quick-build.sh
gpu_quick_build "$OLD" "$OLD/build-gpu-ab" "$OUT/build_old.log" || exit 1
gpu_quick_build "$NEW" "$NEW/build-gpu-ab" "$OUT/build_new.log" || exit 1
for pass in 1 2; do
    for side in old new; do
        dir=$OLD; [ $side = new ] && dir=$NEW
        echo "== $side, pass $pass"
        RLX_LIB=$dir/build-gpu-ab/core/librlx.so.1 \
            RLX_PLUGIN_PATH=$dir/build-gpu-ab/plugins/cuda \
            python3 "$NEW/bench/cuda/queued_alone.py" 2>&1 | tee -a "$OUT/alone_$side.txt"
        RLX_LIB=$dir/build-gpu-ab/core/librlx.so.1 \
            RLX_PLUGIN_PATH=$dir/build-gpu-ab/plugins/cuda \
            BENCH_MODELS=${BENCH_MODELS:-encoder} \
            python3 "$NEW/bench/cuda/bench_models.py" >"$OUT/models_${side}_$pass.txt" 2>&1
        grep -E "^(encoder|mlp)" "$OUT/models_${side}_$pass.txt" | sort -u | cut -c1-110
    done
done
