#!/bin/bash
# gpu-shared.sh - on a machine with an NVIDIA GPU: check the kernels
# shared by the cuda and rocm plugins (plugins/gpu-common) on real
# hardware. Builds with -Werror, runs `rlx conformance --backend cuda`
# and both examples against cpu-ref with RLX_CUDA_MATMUL=kernel (every
# matmul through the shared tiled GEMM, the rocm plugin's), then the
# whole of scripts/gpu-cuda.sh (suite, conformance, examples; --bench:
# the CUDA benchmarks) on the same build. Logs go to $OUT.
#
#   bash scripts/gpu-shared.sh [--bench]
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
export OUT=${OUT:-$ROOT/gpu-shared-out}
export BUILD=${BUILD:-$ROOT/build-gpu-cuda}
export WERROR=true
mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
status=0
step() { echo; echo "== $*"; }

if ! pkg-config --exists yaml-0.1 && ls .debs/libyaml*.deb >/dev/null 2>&1; then
    Y=/tmp/rlx-yaml
    for f in .debs/libyaml*.deb; do dpkg -x "$f" "$Y"; done
    export PKG_CONFIG_PATH=$Y/usr/lib/x86_64-linux-gnu/pkgconfig
    export PKG_CONFIG_SYSROOT_DIR=$Y
    export LD_LIBRARY_PATH=$Y/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi

step "build (-Werror)"
t0=$(date +%s)
if [ ! -f "$BUILD/build.ninja" ]; then
    meson setup "$BUILD" -Dwerror=true -Dcuda=enabled >"$OUT/setup.log" 2>&1 \
        || { tail -30 "$OUT/setup.log"; exit 1; }
fi
ninja -C "$BUILD" -k 0 >"$OUT/build.log" 2>&1 || { status=1; grep -B2 -A12 FAILED "$OUT/build.log" | head -60; }
echo "built in $(( $(date +%s) - t0 )) s"

RLX=$BUILD/tools/rlx
step "RLX_CUDA_MATMUL=kernel: rlx conformance --backend cuda"
RLX_PLUGIN_PATH=$BUILD/plugins/cuda RLX_CUDA_MATMUL=kernel \
    "$RLX" conformance --backend cuda >"$OUT/conformance-kernel.txt" 2>&1 || status=1
grep -E "FAIL" "$OUT/conformance-kernel.txt" | head -20
tail -2 "$OUT/conformance-kernel.txt"

step "RLX_CUDA_MATMUL=kernel: examples on cuda vs cpu-ref"
for ex in mlp/mlp transformer/encoder; do
    d=$BUILD/examples/$(dirname $ex)
    for dev in cuda cpu-ref; do
        o=$OUT/kernel-run-$(dirname $ex)-$dev
        mkdir -p "$o"
        RLX_PLUGIN_PATH=$BUILD/plugins/cuda RLX_CUDA_MATMUL=kernel \
            "$RLX" run "$d/$(basename $ex).yaml" --device $dev \
            --input x="$d/x.npy" --output "$o" --repeat 20 \
            >"$o.txt" 2>&1 || { status=1; cat "$o.txt"; }
        tail -2 "$o.txt"
    done
    python3 - "$OUT/kernel-run-$(dirname $ex)-cuda" "$OUT/kernel-run-$(dirname $ex)-cpu-ref" <<'PY' || status=1
import glob, os, sys
import numpy as np
cu, ref = sys.argv[1:]
bad = 0
for f in sorted(glob.glob(os.path.join(cu, "*.npy"))):
    name = os.path.basename(f)[:-4]
    a = np.load(f).astype(np.float64)
    b = np.load(os.path.join(ref, name + ".npy")).astype(np.float64)
    rel = np.linalg.norm(a - b) / max(np.linalg.norm(b), 1e-30)
    bad |= rel > 1e-4
    print(("ok   " if rel <= 1e-4 else "FAIL ") + f"{name}: kernel GEMM vs cpu-ref rel.err {rel:.2e}")
sys.exit(1 if bad else 0)
PY
done

step "scripts/gpu-cuda.sh $*"
bash scripts/gpu-cuda.sh "$@" || status=1
step "gpu-shared result: $([ $status = 0 ] && echo PASS || echo FAIL)"
exit $status
