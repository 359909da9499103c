#!/bin/bash
# gpu-conformance.sh - the quick CUDA check of the shared kernels on a
# machine with an NVIDIA GPU: a -Werror build of the cuda plugin, the
# rlx tool and their tests only (no ROCm, Vulkan, PJRT, ONNX, Python or
# benchmarks), `rlx conformance --backend cuda` (its summary and every
# FAIL and UNSUPPORTED line printed), then the cuda tests named by
# MESON_TESTS (default: cuda-plugin and cuda-dtypes). scripts/gpu-test.sh is
# the whole check (all cuda tests, torchvision models, DLPack).
# Logs go to $OUT (default ./gpu-test-out); BUILD is the build
# directory (default ./build-gpu-conf); CONF_TIMEOUT and TEST_TIMEOUT
# bound the conformance run and the tests (seconds, default 600, 300).
#
#   bash scripts/gpu-conformance.sh
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
OUT=${OUT:-$ROOT/gpu-test-out}
BUILD=${BUILD:-$ROOT/build-gpu-conf}
mkdir -p "$OUT"
. scripts/gpu-deps.sh
status=0
step() { echo; echo "== $*"; }

step "GPU and driver"
nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv 2>&1 |
    tee "$OUT/gpu.txt"

step "build"
if [ ! -f "$BUILD/build.ninja" ]; then
    meson setup "$BUILD" -Dwerror=true -Dcuda=enabled -Drocm=disabled \
        -Dvulkan=disabled -Dpjrt=disabled -Donnx=disabled -Dpython=disabled \
        -Dcpu-openblas=disabled -Dbench=false \
        >"$OUT/setup.log" 2>&1 || { tail -30 "$OUT/setup.log"; exit 1; }
fi
tests=${MESON_TESTS:-cuda-plugin cuda-dtypes}
targets=(tools/rlx plugins/cuda/librlx-backend-cuda.so)
for t in $tests; do targets+=("plugins/cuda/test/test-$t"); done
ninja -C "$BUILD" "${targets[@]}" >"$OUT/build.log" 2>&1 \
    || { grep -B2 -A12 FAILED "$OUT/build.log" | head -60; exit 1; }

step "rlx conformance --backend cuda"
RLX_PLUGIN_PATH=$BUILD/plugins/cuda timeout "${CONF_TIMEOUT:-600}" \
    "$BUILD/tools/rlx" conformance \
    --backend cuda >"$OUT/conformance.txt" 2>&1 || status=1
tail -3 "$OUT/conformance.txt"
grep -E "FAIL|UNSUPPORTED|not ok" "$OUT/conformance.txt" | grep -v "^Summary" |
    head -60

step "meson test $tests"
# shellcheck disable=SC2086
timeout "${TEST_TIMEOUT:-300}" meson test -C "$BUILD" --no-rebuild \
    --print-errorlogs $tests >"$OUT/test.log" 2>&1 || status=1
cp "$BUILD/meson-logs/testlog.txt" "$OUT/" 2>/dev/null
grep -E "^ *[0-9]+/[0-9]+ |^(Ok|Fail|Skipped|Timeout):|# not ok" \
    "$OUT/test.log" | head -60
if grep -q "# SKIP no NVIDIA GPU" "$BUILD/meson-logs/testlog.txt"; then
    echo "cuda tests skipped: no GPU seen"; status=1
fi

step "result: $([ $status = 0 ] && echo PASS || echo FAIL)"
exit $status
