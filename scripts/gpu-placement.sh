#!/bin/bash
# gpu-placement.sh - placement and the multi-device runner on a real GPU
# (issue 13): builds rlx with the CUDA plugin, then
#   1. the transformer example with gelu masked on cuda
#      (RLX_OPS_DISABLE=cuda:gelu) runs split and matches the expected
#      output and cpu-ref;
#   2. the chain cuda -> cpu with every op masked on cuda falls to cpu;
#   3. bench/placement/bench_placement: the runner's benchmark choice for
#      the 784-4096-4096-10 MLP at batch 64 and for a tiny graph, and the
#      MLP unsplit against split (gelu on the CPU), in one run;
#   4. rlx bench of the transformer on cuda, unsplit and split.
# Logs go to $OUT (default ./gpu-placement-out).
#
#   bash scripts/gpu-placement.sh
#
# Needs: nvcc (PATH or /usr/local/cuda/bin), meson, ninja, libyaml-dev
# (or Debian's libyaml .debs in .debs/), Python with NumPy.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
OUT=${OUT:-$ROOT/gpu-placement-out}
BUILD=${BUILD:-$ROOT/build-gpu-placement}
mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
status=0
STEPS=${STEPS:-1234}   # e.g. STEPS=1 runs only the first check
step() { echo; echo "== $*"; }
want() { case $STEPS in *$1*) return 0 ;; esac; return 1; }

if ! pkg-config --exists yaml-0.1 && ls .debs/libyaml*.deb >/dev/null 2>&1; then
    Y=/tmp/rlx-yaml
    for f in .debs/libyaml*.deb; do dpkg -x "$f" "$Y"; done
    export PKG_CONFIG_PATH=$Y/usr/lib/x86_64-linux-gnu/pkgconfig
    export PKG_CONFIG_SYSROOT_DIR=$Y
    export LD_LIBRARY_PATH=$Y/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi

step "GPU"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv 2>&1 | tee "$OUT/gpu.txt"

step "build (the tool, the CUDA plugin, the examples)"
t0=$(date +%s)
if [ ! -f "$BUILD/build.ninja" ]; then
    meson setup "$BUILD" -Dwerror=false -Dcuda=enabled >"$OUT/setup.log" 2>&1 \
        || { tail -30 "$OUT/setup.log"; exit 1; }
fi
CUDA_SO=plugins/cuda/librlx-backend-cuda.so
ninja -C "$BUILD" tools/rlx "$CUDA_SO" examples/examples.stamp \
    >"$OUT/build.log" 2>&1 || { grep -B2 -A12 FAILED "$OUT/build.log" | head -40; exit 1; }
echo "built in $(( $(date +%s) - t0 )) s"
gcc -std=c11 -D_POSIX_C_SOURCE=200809L -O2 bench/placement/bench_placement.c \
    -Icore/include -Iplugin-abi -L"$BUILD/core" -lrlx -lm \
    -Wl,-rpath,"$BUILD/core" -o "$BUILD/bench_placement" || exit 1

export RLX_PLUGIN_PATH=$BUILD/plugins/cuda
RLX=$BUILD/tools/rlx
ENC=$BUILD/examples/transformer

if want 1; then
step "1. transformer, gelu masked on cuda: split, against expected and cpu-ref"
mkdir -p "$OUT/split" "$OUT/ref"
RLX_OPS_DISABLE=cuda:gelu "$RLX" run "$ENC/encoder.yaml" --device cuda \
    --input x="$ENC/x.npy" --output "$OUT/split" --repeat 20 \
    >"$OUT/split.txt" 2>&1 || status=1
"$RLX" run "$ENC/encoder.yaml" --device cpu-ref --input x="$ENC/x.npy" \
    --output "$OUT/ref" >"$OUT/ref.txt" 2>&1 || status=1
grep -E "^(Placement|Time)|warning|checksum" "$OUT/split.txt"
python3 - "$ENC" "$OUT/split" "$OUT/ref" <<'EOF' || status=1
import sys
import numpy as np
d, split, ref = sys.argv[1:]
a = np.load(f"{split}/y.npy").astype(np.float64)
b = np.load(f"{ref}/y.npy").astype(np.float64)
x = np.load(f"{d}/y.expected.npy").astype(np.float64)
rb = np.linalg.norm(a - b) / np.linalg.norm(b)
rx = np.linalg.norm(a - x) / np.linalg.norm(x)
ok = rb <= 1e-4 and rx <= 1e-4
print(("ok   " if ok else "FAIL ") +
      f"split vs cpu-ref rel.err {rb:.2e}; vs expected {rx:.2e}")
sys.exit(0 if ok else 1)
EOF

fi
if want 2; then
step "2. chain cuda,cpu with every op masked on cuda"
RLX_OPS_DISABLE='cuda:*' "$RLX" run "$ENC/encoder.yaml" --device-chain cuda,cpu \
    --input x="$ENC/x.npy" >"$OUT/chain.txt" 2>&1 || status=1
sed -n '/^Chain:/,/^Backend:/p' "$OUT/chain.txt"
grep -q "cpu:0 *ran" "$OUT/chain.txt" || { echo "FAIL: the chain did not fall to cpu"; status=1; }

fi
if want 3; then
step "3. benchmark choice and split cost (MLP 784-4096-4096-10, batch 64)"
"$BUILD/bench_placement" cuda,cpu ${RUNS:-10} 2>&1 | tee "$OUT/bench_placement.txt" || status=1

fi
if want 4; then
step "4. rlx bench: the transformer on cuda, unsplit and split"
"$RLX" bench "$ENC/encoder.yaml" --backend cuda --repeat 10 \
    >"$OUT/bench_unsplit.txt" 2>&1 || status=1
RLX_OPS_DISABLE=cuda:gelu "$RLX" bench "$ENC/encoder.yaml" --backend cuda \
    --repeat 10 >"$OUT/bench_split.txt" 2>&1 || status=1
echo "unsplit:"; grep -E "^(cuda|cpu-ref) " "$OUT/bench_unsplit.txt"
echo "split (gelu on the CPU):"; grep -E "^(cuda|cpu-ref) |placement:" "$OUT/bench_split.txt"
fi

step "result: $([ $status = 0 ] && echo PASS || echo FAIL)"
exit $status
