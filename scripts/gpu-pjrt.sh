#!/bin/bash
# gpu-pjrt.sh - on a machine with an NVIDIA GPU and JAX's CUDA PJRT
# plugin (pip jax[cuda13]): build rlx with the PJRT bridge, list the
# PJRT devices, run both example models on pjrt-cuda against cpu-ref and
# the expected outputs, the torchvision models
# (test/onnx/torchvision_models.py: exported by this machine's torch, run
# whole on pjrt-cuda by `rlx run --fallback none`, compared with torch's
# output), then `rlx conformance --backend pjrt-cuda` (bounded by
# CONF_TIMEOUT seconds, default 3600), and with --bench the bench of
# bench/pjrt (pjrt-cuda vs native cuda vs JAX's own jit of the same
# models and weights, in one process run). Logs go to $OUT (default
# ./gpu-pjrt-out); RLX_PJRT_DUMP keeps the StableHLO.
#
#   bash scripts/gpu-pjrt.sh [--bench]
#
# CUDA=enabled also builds the native cuda plugin (the bench needs it);
# NINJA_TARGETS builds only those targets (e.g. "tools/rlx
# plugins/pjrt/librlx-backend-pjrt.so" with MESON_TESTS=none: no meson
# tests). Build dependencies the machine lacks (libyaml, protobuf-c and
# onnx.proto for the ONNX loader) come from .debs/ (scripts/gpu-deps.sh).
# EXAMPLES=0 leaves out the example models (their files are build
# outputs that NINJA_TARGETS may not name), TORCHVISION=0 the
# torchvision models, CONF_TIMEOUT=0 the conformance run (XLA compiles
# each case for seconds: hours for the whole op set); the 1.4 ops are
# checked in three compiles by scripts/gpu-pjrt-ops.py either way.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
OUT=${OUT:-$ROOT/gpu-pjrt-out}
BUILD=${BUILD:-$ROOT/build-gpu-pjrt}
WORK=${WORK:-/tmp/rlx-pjrt-work}
mkdir -p "$OUT" "$WORK"
export PATH=/usr/local/cuda/bin:$PATH
BENCH=0
[ "${1:-}" = "--bench" ] && BENCH=1
status=0
step() { echo; echo "== $*"; }

. scripts/gpu-deps.sh

step "GPU, JAX and its PJRT plugin" | tee "$OUT/gpu.txt"
nvidia-smi --query-gpu=name,driver_version,memory.total,compute_cap \
    --format=csv 2>&1 | tee -a "$OUT/gpu.txt"
PLUGDIR=$(python3 -c 'import jax_plugins.xla_cuda13, os; print(os.path.dirname(jax_plugins.xla_cuda13.__file__))' 2>/dev/null)
PJRT_SO=$(ls "$PLUGDIR"/*.so 2>/dev/null | head -1)
echo "PJRT plugin: ${PJRT_SO:-none found}" | tee -a "$OUT/gpu.txt"
python3 -c 'import jax, jaxlib; print("jax", jax.__version__, "jaxlib", jaxlib.__version__)' 2>&1 | tee -a "$OUT/gpu.txt"
[ -n "$PJRT_SO" ] || { echo "no JAX CUDA PJRT plugin"; exit 1; }
export RLX_PJRT_PLUGIN=$PJRT_SO

step "build"
if [ ! -f "$BUILD/build.ninja" ]; then
    # shellcheck disable=SC2086
    meson setup "$BUILD" -Dwerror=${WERROR:-true} -Dcuda=${CUDA:-disabled} \
        -Dvulkan=disabled -Dpjrt=enabled $RLX_GPU_MESON_ARGS \
        >"$WORK/setup.log" 2>&1 \
        || { tail -30 "$WORK/setup.log"; exit 1; }
fi
# shellcheck disable=SC2086
ninja -C "$BUILD" -k 0 ${NINJA_TARGETS:-} >"$OUT/build.log" 2>&1 || { status=1; grep -B2 -A12 FAILED "$OUT/build.log" | head -60; }
[ -f "$BUILD/plugins/pjrt/librlx-backend-pjrt.so" ] || { echo "plugin not built"; exit 1; }

export RLX_PLUGIN_PATH=$BUILD/plugins/pjrt:$BUILD/plugins/cuda
RLX=$BUILD/tools/rlx
export RLX_PJRT_DUMP=$WORK/mlir
mkdir -p "$RLX_PJRT_DUMP"

# test-pjrt-run's real-plugin cases run against it (they skip elsewhere)
export RLX_TEST_PJRT_REAL=$PJRT_SO
if [ "${MESON_TESTS:-}" != none ]; then
    step "meson test (${MESON_TESTS:-pjrt pjrt-ops14 pjrt-run})"
    # shellcheck disable=SC2086
    meson test -C "$BUILD" --print-errorlogs ${MESON_TESTS:-pjrt pjrt-ops14 pjrt-run} >"$OUT/test.log" 2>&1 || status=1
    grep -E "^ *[0-9]+/[0-9]+ |^(Ok|Fail)" "$OUT/test.log" | tail -8
    grep -hE "^(ok|not ok)" "$BUILD/meson-logs/testlog.txt" 2>/dev/null | grep -i real
fi

step "rlx devices"
RLX_LOG=info "$RLX" devices 2>&1 | tee "$OUT/devices.txt" | grep -v "^$" | head -60

step "discovery without RLX_PJRT_PLUGIN (python3 on PATH: $(command -v python3))"
env -u RLX_PJRT_PLUGIN RLX_LOG=info "$RLX" devices 2>&1 | grep -E "pjrt-cuda: opened|^  \* pjrt-cuda|^    pjrt-cuda" \
    | tee -a "$OUT/devices.txt" | grep -q "opened" || { echo "FAIL: JAX's plugin not found by the search"; status=1; }

step "examples: rlx run on pjrt-cuda and cpu-ref"
[ "${EXAMPLES:-1}" = 1 ] || echo "not run (EXAMPLES=0)"
[ "${EXAMPLES:-1}" = 1 ] && for ex in mlp/mlp transformer/encoder; do
    d=$BUILD/examples/$(dirname $ex)
    for dev in pjrt-cuda cpu-ref; do
        o=$WORK/run-$(dirname $ex)-$dev
        mkdir -p "$o"
        "$RLX" run "$d/$(basename $ex).yaml" --device $dev \
            --input x="$d/x.npy" --output "$o" --repeat 20 \
            >"$o.txt" 2>&1 || { status=1; cat "$o.txt"; }
        { echo "-- $ex on $dev"; cat "$o.txt"; } >>"$OUT/runs.txt"
        tail -4 "$o.txt"
    done
    python3 - "$d" "$WORK/run-$(dirname $ex)-pjrt-cuda" "$WORK/run-$(dirname $ex)-cpu-ref" >"$WORK/cmp.txt" 2>&1 <<'PY' || status=1
import glob, os, sys
import numpy as np
d, pj, ref = sys.argv[1:]
bad = 0
files = sorted(glob.glob(os.path.join(pj, "*.npy")))
if not files:
    print("FAIL no outputs from pjrt-cuda"); sys.exit(1)
for f in files:
    name = os.path.basename(f)[:-4]
    a = np.load(f).astype(np.float64)
    b = np.load(os.path.join(ref, name + ".npy")).astype(np.float64)
    e = os.path.join(d, name + ".expected.npy")
    rel = np.linalg.norm(a - b) / max(np.linalg.norm(b), 1e-30)
    msg = f"{name}: pjrt-cuda vs cpu-ref rel.err {rel:.2e}, max|diff| {np.abs(a-b).max():.2e}"
    if os.path.exists(e):
        x = np.load(e).astype(np.float64)
        rx = np.linalg.norm(a - x) / max(np.linalg.norm(x), 1e-30)
        msg += f"; vs expected rel.err {rx:.2e}"
        bad |= rx > 1e-4
    bad |= rel > 1e-4
    print(("ok   " if rel <= 1e-4 else "FAIL ") + msg)
sys.exit(1 if bad else 0)
PY
    tee -a "$OUT/runs.txt" <"$WORK/cmp.txt"
done

PY=$(command -v python3)
for p in /usr/bin/python3 python3; do
    if "$p" -c "import torch, torchvision, onnx, numpy" 2>/dev/null; then
        PY=$p; break
    fi
done

step "the ABI 1.4 ops in three ONNX models on pjrt-cuda against cpu-ref"
"$PY" scripts/gpu-pjrt-ops.py --rlx "$RLX" --device pjrt-cuda \
    --work "$WORK/ops14" >"$OUT/ops14.txt" 2>&1 || status=1
grep -v "^ok" "$OUT/ops14.txt"
echo "$(grep -c "^ok" "$OUT/ops14.txt") outputs match cpu-ref"

step "torchvision models on pjrt-cuda against torch"
if [ "${TORCHVISION:-1}" = 1 ]; then
    "$PY" test/onnx/torchvision_models.py --cache "$WORK/torchvision" \
        --rlx "$RLX" --device "pjrt-cuda=$BUILD/plugins/pjrt" \
        --min-pass 4 >"$OUT/torchvision.txt" 2>&1 || status=1
    cat "$OUT/torchvision.txt"
    for m in resnet18 mobilenet_v3_small efficientnet_b0 squeezenet1_1; do
        [ -f "$WORK/torchvision/$m.onnx" ] || continue
        RLX_PLUGIN_PATH=$BUILD/plugins/pjrt "$RLX" run \
            "$WORK/torchvision/$m.onnx" --device pjrt-cuda --fallback none \
            --repeat 20 --input input="$WORK/torchvision/$m.input.npy" 2>&1 \
            | grep -iE "median|time|placement" | sed "s/^/$m: /" \
            | tee -a "$OUT/torchvision.txt"
    done
else
    echo "not run (TORCHVISION=0)"
fi

step "rlx conformance --backend pjrt-cuda"
if [ "${CONF_TIMEOUT:-3600}" = 0 ]; then
    echo "not run (CONF_TIMEOUT=0)"
else
    # XLA compiles each case for seconds; line-buffered, so a run cut
    # short by CONF_TIMEOUT keeps what it printed
    timeout "${CONF_TIMEOUT:-3600}" stdbuf -oL "$RLX" conformance \
        --backend pjrt-cuda >"$OUT/conformance.txt" 2>&1 || status=1
    grep -E "FAIL" "$OUT/conformance.txt" | head -60
    tail -5 "$OUT/conformance.txt"
fi

if [ $BENCH = 1 ]; then
    step "bench: pjrt-cuda vs cuda vs JAX jit"
    RLX_LIB=$BUILD/core/librlx.so.1 PYTHONUNBUFFERED=1 \
        python3 bench/pjrt/bench_pjrt.py "$BUILD/examples" 2>&1 \
        | grep -v "^[IW][0-9]" | tee "$OUT/bench.txt"
    [ "${PIPESTATUS[0]}" = 0 ] || status=1
fi

# the dumped modules travel back as one archive ($OUT keeps 8 files)
tar -C "$WORK" -czf "$OUT/mlir.tgz" mlir 2>/dev/null
[ $status = 0 ] || cp "$OUT/build.log" "$OUT/build.log" 2>/dev/null
step "result: $([ $status = 0 ] && echo PASS || echo FAIL)"
exit $status
