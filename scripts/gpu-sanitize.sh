#!/bin/bash
# gpu-sanitize.sh - on a machine with an NVIDIA GPU: builds the core, the
# cuda plugin and its tests, and runs the cuda-attention, cuda-plugin and
# cuda-queue tests under compute-sanitizer's memcheck, racecheck and
# synccheck (out-of-bounds and misaligned accesses, shared-memory races,
# bad barriers in the kernels they launch; cuda-queue runs the batch-1
# GEMV chain's cluster kernels). Logs in $OUT (default
# ./gpu-sanitize-out); SAN_TIMEOUT seconds per tool and test (default
# 240), SAN_TOOLS the tools (default all three), SAN_TESTS the tests
# (default those three; test-cuda-gemm is the fourth there is).
#
#   bash scripts/gpu-sanitize.sh
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
OUT=${OUT:-$ROOT/gpu-sanitize-out}
BUILD=${BUILD:-$ROOT/build-gpu-test}
mkdir -p "$OUT"
. scripts/gpu-deps.sh
if [ ! -f "$BUILD/build.ninja" ]; then
    meson setup "$BUILD" -Dwerror=true -Dcuda=enabled >"$OUT/setup.log" 2>&1 \
        || { tail -30 "$OUT/setup.log"; exit 1; }
fi
P=plugins/cuda
ninja -C "$BUILD" core/librlx.so.1.0.0 $P/librlx-backend-cuda.so \
    $P/test/test-cuda-attention $P/test/test-cuda-plugin \
    $P/test/test-cuda-queue $P/test/test-cuda-gemm >"$OUT/build.log" 2>&1 \
    || { tail -40 "$OUT/build.log"; exit 1; }
status=0
for tool in ${SAN_TOOLS:-memcheck racecheck synccheck}; do
    for t in ${SAN_TESTS:-test-cuda-attention test-cuda-plugin test-cuda-queue}; do
        log=$OUT/$tool-$t.txt
        # racecheck is slow on the kernels' shared memory: the first
        # three (small) attention cases, which use every stage of the
        # 64-row kernel's double-buffered K/V tiles
        n=
        [ $tool = racecheck ] && [ $t = test-cuda-attention ] && n=3
        RLX_PLUGIN_PATH= RLX_DEVICE= RLX_TEST_CUDA_CASES=$n \
            RLX_TEST_CUDA_PLUGIN="$BUILD/$P/librlx-backend-cuda.so" \
            timeout "${SAN_TIMEOUT:-240}" \
            compute-sanitizer --tool $tool --error-exitcode 99 \
            "$BUILD/$P/test/$t" >"$log" 2>&1
        rc=$?
        [ $rc = 0 ] || status=1
        echo "$tool $t: exit $rc, $(grep -c '^ok' "$log") ok, $(grep -c '^not ok' "$log") not ok; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log" | tail -1)"
    done
done
exit $status
