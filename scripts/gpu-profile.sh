#!/bin/bash
# gpu-profile.sh - on a machine with an NVIDIA GPU and Nsight Compute:
# builds the core and the cuda plugin, then lists the duration of every
# kernel of rlx's and PyTorch's forwards of the bf16 and f32 encoder
# blocks and the MLP at batch 1 (bench/cuda/profile_models.py under
# `ncu --clock-control none`: the card's clocks are left alone).
# Writes $OUT/kernels.csv (default ./gpu-profile-out) and prints a summary.
#
#   bash scripts/gpu-profile.sh
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
OUT=${OUT:-$ROOT/gpu-profile-out}
BUILD=${BUILD:-$ROOT/build-gpu-cuda}
mkdir -p "$OUT"
. scripts/gpu-deps.sh
if [ ! -f "$BUILD/build.ninja" ]; then
    meson setup "$BUILD" -Dcuda=enabled >"$OUT/setup.log" 2>&1 \
        || { tail -30 "$OUT/setup.log"; exit 1; }
fi
ninja -C "$BUILD" core/librlx.so.1.0.0 plugins/cuda/librlx-backend-cuda.so \
    >"$OUT/build.log" 2>&1 || { tail -40 "$OUT/build.log"; exit 1; }
RLX_LIB=$BUILD/core/librlx.so.1 RLX_PLUGIN_PATH=$BUILD/plugins/cuda \
    ncu --clock-control none --profile-from-start off \
    --metrics gpu__time_duration.sum --csv \
    python3 bench/cuda/profile_models.py >"$OUT/kernels.csv" 2>"$OUT/ncu.err"
rc=$?
tail -5 "$OUT/ncu.err"
python3 scripts/ncu-durations.py "$OUT/kernels.csv"
exit $rc
