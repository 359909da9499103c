#!/bin/bash
# gpu-test.sh - the product's CUDA checks on a machine with an NVIDIA GPU
# and the CUDA toolkit: a -Werror build with the cuda plugin (and the
# benchmarks, built, not run), the cuda tests (which assert a working
# GPU there, where elsewhere they skip), and `rlx conformance --backend
# cuda`, then the torchvision models (test/onnx/torchvision_models.py:
# exported by this machine's torch, run whole on cuda by `rlx run` and
# compared with torch's output). Logs go to $OUT (default
# ./gpu-test-out); BUILD is the build directory (default
# ./build-gpu-test); BENCH=false leaves the benchmarks unbuilt;
# CONF_TIMEOUT bounds the conformance run (seconds, default 3600).
# Benchmarks: bench/run.sh BUILD.
#
#   bash scripts/gpu-test.sh
#
# MESON_TESTS="name ..." runs those meson tests instead of the cuda ones
# (e.g. the whole suite: MESON_TESTS=" "). Build dependencies the machine
# lacks (libyaml, libffi) may be carried as Debian .debs in .debs/
# (scripts/gpu-deps.sh), and onnx.proto as .debs/onnx.proto where the
# machine has no /usr/include/onnx/onnx.proto.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
OUT=${OUT:-$ROOT/gpu-test-out}
BUILD=${BUILD:-$ROOT/build-gpu-test}
mkdir -p "$OUT"
. scripts/gpu-deps.sh
status=0
step() { echo; echo "== $*"; }

step "GPU and driver"
nvidia-smi --query-gpu=name,driver_version,memory.total,compute_cap \
    --format=csv 2>&1 | tee "$OUT/gpu.txt"

step "build"
proto=()
if [ ! -f /usr/include/onnx/onnx.proto ] && [ -z "$RLX_GPU_MESON_ARGS" ] &&
   [ -f .debs/onnx.proto ]; then
    proto=(-Donnx_proto="$ROOT/.debs/onnx.proto")
fi
if [ ! -f "$BUILD/build.ninja" ]; then
    # shellcheck disable=SC2086
    meson setup "$BUILD" -Dwerror=true -Dcuda=enabled -Dbench="${BENCH:-true}" \
        -Donnx=enabled "${proto[@]}" $RLX_GPU_MESON_ARGS \
        >"$OUT/setup.log" 2>&1 || { tail -30 "$OUT/setup.log"; exit 1; }
fi
ninja -C "$BUILD" >"$OUT/build.log" 2>&1 \
    || { grep -B2 -A12 FAILED "$OUT/build.log" | head -60; exit 1; }

step "meson test ${MESON_TESTS:-cuda-plugin cuda-attention cuda-queue cuda-gemm cuda-vision cuda-quant cuda-dtypes}"
# shellcheck disable=SC2086
meson test -C "$BUILD" --print-errorlogs \
    ${MESON_TESTS:-cuda-plugin cuda-attention cuda-queue cuda-gemm cuda-vision cuda-quant cuda-dtypes} \
    >"$OUT/test.log" 2>&1 || status=1
grep -E "^ *[0-9]+/[0-9]+ |^(Ok|Fail|Skipped|Timeout):" "$OUT/test.log" | tail -30
# on a GPU machine the cuda tests must run, not skip
if grep -q "# SKIP no NVIDIA GPU" "$BUILD/meson-logs/testlog.txt"; then
    echo "cuda tests skipped: no GPU seen"; status=1
fi

step "rlx conformance --backend cuda"
RLX_PLUGIN_PATH=$BUILD/plugins/cuda timeout "${CONF_TIMEOUT:-3600}" \
    "$BUILD/tools/rlx" conformance \
    --backend cuda >"$OUT/conformance.txt" 2>&1 || status=1
tail -3 "$OUT/conformance.txt"
grep -E "FAIL|not ok" "$OUT/conformance.txt" | head -40

step "torchvision models on cuda against torch"
PY=$(command -v python3)
for p in /usr/bin/python3 python3; do
    if "$p" -c "import torch, torchvision, onnx, numpy" 2>/dev/null; then
        PY=$p; break
    fi
done
"$PY" test/onnx/torchvision_models.py --cache "$BUILD/torchvision" \
    --rlx "$BUILD/tools/rlx" --device "cuda=$BUILD/plugins/cuda" \
    --min-pass 4 >"$OUT/torchvision.txt" 2>&1 || status=1
cat "$OUT/torchvision.txt"

step "DLPack: torch -> rlx -> torch on the GPU (scripts/gpu-dlpack.py)"
if [ -d "$BUILD/python/rlx" ] && python3 -c "import torch" 2>/dev/null; then
    PYTHONPATH=$BUILD/python RLX_PLUGIN_PATH=$BUILD/plugins/cuda \
        python3 scripts/gpu-dlpack.py >"$OUT/dlpack.txt" 2>&1 || status=1
    tail -5 "$OUT/dlpack.txt"
else
    echo "not run: the Python extension was not built (python3 with NumPy"
    echo "and Python.h) or torch is missing"
fi

step "result: $([ $status = 0 ] && echo PASS || echo FAIL)"
exit $status
