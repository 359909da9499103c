#!/bin/bash
# gpu-cuda.sh - on a machine with an NVIDIA GPU and the CUDA toolkit:
# build rlx with the CUDA plugin (-Werror), run the whole meson suite
# (its cuda-plugin test then asserts a working GPU), `rlx conformance
# --backend cuda`, both examples with `rlx run --device cuda` against
# `--device cpu-ref` and the expected outputs, and with --bench the
# benchmarks of bench/cuda. Logs go to $OUT (default ./gpu-cuda-out).
#
#   bash scripts/gpu-cuda.sh [--bench]
#
# MESON_TESTS="name ..." runs only those meson tests (e.g. cuda-plugin)
# instead of the whole suite, to save device time; WERROR=true builds
# with -Werror; BENCH_LOG=debug makes the model benchmark log each
# matmul's autotuning choice (default info: per-step profiles).
#
# Needs: nvcc (PATH or /usr/local/cuda/bin), meson, ninja, libyaml-dev
# (or Debian's libyaml .debs in .debs/, unpacked into a private prefix),
# Python with NumPy; --bench also needs PyTorch with CUDA.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
OUT=${OUT:-$ROOT/gpu-cuda-out}
BUILD=${BUILD:-$ROOT/build-gpu-cuda}
mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
BENCH=0
[ "${1:-}" = "--bench" ] && BENCH=1
status=0
step() { echo; echo "== $*"; }

if ! pkg-config --exists yaml-0.1 && ls .debs/libyaml*.deb >/dev/null 2>&1; then
    Y=/tmp/rlx-yaml
    for f in .debs/libyaml*.deb; do dpkg -x "$f" "$Y"; done
    export PKG_CONFIG_PATH=$Y/usr/lib/x86_64-linux-gnu/pkgconfig
    export PKG_CONFIG_SYSROOT_DIR=$Y
    export LD_LIBRARY_PATH=$Y/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi

step "GPU and driver" | tee "$OUT/gpu.txt"
nvidia-smi --query-gpu=name,driver_version,memory.total,compute_cap,pci.bus_id \
    --format=csv 2>&1 | tee -a "$OUT/gpu.txt"
nvcc --version | tail -2 | tee -a "$OUT/gpu.txt"

step "build"
if [ ! -f "$BUILD/build.ninja" ]; then
    meson setup "$BUILD" -Dwerror=${WERROR:-false} -Dcuda=enabled >"$OUT/setup.log" 2>&1 \
        || { tail -30 "$OUT/setup.log"; exit 1; }
fi
# -k 0: a half-finished part of the tree elsewhere must not stop the rest
ninja -C "$BUILD" -k 0 >"$OUT/build.log" 2>&1 || { status=1; grep -B2 -A12 FAILED "$OUT/build.log" | head -60; }
[ -f "$BUILD/plugins/cuda/librlx-backend-cuda.so" ] || { echo "plugin not built"; exit 1; }
echo "built (rlx tool: $([ -x "$BUILD/tools/rlx" ] && echo yes || echo no))"

step "meson test (${MESON_TESTS:-whole suite})"
# shellcheck disable=SC2086
meson test -C "$BUILD" --print-errorlogs ${MESON_TESTS:-} >"$OUT/test.log" 2>&1 || status=1
grep -E "^ *[0-9]+/[0-9]+ " "$OUT/test.log" | tail -20
grep -E "^(Ok|Fail|Skipped|Timeout)" "$OUT/test.log"
cp "$BUILD/meson-logs/testlog.txt" "$OUT/testlog.txt" 2>/dev/null
grep -A30 "cuda-plugin" "$OUT/testlog.txt" | grep -E "^(ok|not ok|#)" | head -30

export RLX_PLUGIN_PATH=$BUILD/plugins/cuda
RLX=$BUILD/tools/rlx

step "rlx devices"
RLX_LOG=info "$RLX" devices 2>&1 | tee "$OUT/devices.txt" | head -40

step "rlx conformance --backend cuda"
if "$RLX" conformance --help >/dev/null 2>&1; then
    "$RLX" conformance --backend cuda >"$OUT/conformance.txt" 2>&1 || status=1
    tail -60 "$OUT/conformance.txt"
else
    echo "rlx conformance not built in this tree"
fi

step "examples: rlx run on cuda and cpu-ref"
for ex in mlp/mlp transformer/encoder; do
    d=$BUILD/examples/$(dirname $ex)
    for dev in cuda cpu-ref; do
        o=$OUT/run-$(dirname $ex)-$dev
        mkdir -p "$o"
        "$RLX" run "$d/$(basename $ex).yaml" --device $dev \
            --input x="$d/x.npy" --output "$o" --repeat 20 \
            >"$o.txt" 2>&1 || { status=1; cat "$o.txt"; }
        tail -4 "$o.txt"
    done
    python3 - "$d" "$OUT/run-$(dirname $ex)-cuda" "$OUT/run-$(dirname $ex)-cpu-ref" <<'EOF' || status=1
import glob, os, sys
import numpy as np
d, cu, ref = sys.argv[1:]
bad = 0
for f in sorted(glob.glob(os.path.join(cu, "*.npy"))):
    name = os.path.basename(f)[:-4]
    a = np.load(f).astype(np.float64)
    b = np.load(os.path.join(ref, name + ".npy")).astype(np.float64)
    e = os.path.join(d, name + ".expected.npy")
    rel = np.linalg.norm(a - b) / max(np.linalg.norm(b), 1e-30)
    msg = f"{name}: cuda vs cpu-ref rel.err {rel:.2e}, max|diff| {np.abs(a-b).max():.2e}"
    if os.path.exists(e):
        x = np.load(e).astype(np.float64)
        rx = np.linalg.norm(a - x) / max(np.linalg.norm(x), 1e-30)
        msg += f"; vs expected rel.err {rx:.2e}"
        bad |= rx > 1e-4
    bad |= rel > 1e-4
    print(("ok   " if rel <= 1e-4 else "FAIL ") + msg)
sys.exit(1 if bad else 0)
EOF
done

if [ $BENCH = 1 ]; then
    step "bench: matmul"
    gcc -std=c11 -D_POSIX_C_SOURCE=200809L -O2 bench/cuda/bench_matmul.c \
        -Icore/include -Iplugin-abi -I/usr/local/cuda/include \
        -L"$BUILD/core" -lrlx -L/usr/local/cuda/lib64 -lcublas -lcudart -lm \
        -Wl,-rpath,"$BUILD/core" -o "$BUILD/bench_matmul" || status=1
    LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-} \
        "$BUILD/bench_matmul" ${MATMUL_MAX_N:-} 2>&1 | tee "$OUT/bench_matmul.txt"
    step "bench: models vs PyTorch"
    # RLX_CUDA_PROFILE=1: the first run of each program logs per-step times
    RLX_LIB=$BUILD/core/librlx.so.1 PYTHONUNBUFFERED=1 \
        RLX_CUDA_PROFILE=${RLX_CUDA_PROFILE:-1} RLX_LOG=${BENCH_LOG:-info} \
        python3 bench/cuda/bench_models.py 2>&1 | tee "$OUT/bench_models.txt"
fi

step "summary"
grep -E "^(Ok|Fail):" "$OUT/test.log"
[ -f "$OUT/conformance.txt" ] && tail -2 "$OUT/conformance.txt"
cat "$OUT"/run-*-cuda.txt 2>/dev/null | grep -iE "error|fail" | head -5
if [ $BENCH = 1 ]; then
    grep -E "^(f32|bf16)" "$OUT/bench_matmul.txt" 2>/dev/null | head -14
    sed -n '/^# summary/,$p' "$OUT/bench_models.txt" 2>/dev/null
fi
step "result: $([ $status = 0 ] && echo PASS || echo FAIL)"
exit $status
