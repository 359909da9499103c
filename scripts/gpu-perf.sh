#!/bin/bash
# gpu-perf.sh - issue 17's GPU run in one call on a machine with an
# NVIDIA GPU: the build dependencies the machine lacks (Debian libyaml
# and libffi .debs carried in .debs/) unpacked into a private prefix,
# then scripts/gpu-shared.sh --bench (-Werror build, conformance with
# cuBLASLt and with RLX_CUDA_MATMUL=kernel, the meson suite with the
# cuda-attention test, examples vs cpu-ref, the matmul benchmark up to
# MATMUL_MAX_N, default 2048, and bench/cuda/bench_models.py against
# PyTorch eager, CUDA graphs and torch.compile). Full logs in
# $LOGS (default /tmp/gpu-perf); the few that matter are copied to
# $OUT when it is set (the device tool brings back at most 8 files).
#
#   bash scripts/gpu-perf.sh
set -uo pipefail
cd "$(dirname "$0")/.."
LOGS=${LOGS:-/tmp/gpu-perf}
mkdir -p "$LOGS"
if ls .debs/*.deb >/dev/null 2>&1 &&
   ! { pkg-config --exists yaml-0.1 && pkg-config --exists libffi; }; then
    D=/tmp/rlx-deps
    for f in .debs/*.deb; do dpkg -x "$f" "$D"; done
    sed -i "s|^prefix=/usr|prefix=$D/usr|" "$D"/usr/lib/x86_64-linux-gnu/pkgconfig/*.pc
    export PKG_CONFIG_PATH=$D/usr/lib/x86_64-linux-gnu/pkgconfig
    export LD_LIBRARY_PATH=$D/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    export CPATH=$D/usr/include/x86_64-linux-gnu${CPATH:+:$CPATH}
    export LIBRARY_PATH=$D/usr/lib/x86_64-linux-gnu${LIBRARY_PATH:+:$LIBRARY_PATH}
fi
export MATMUL_MAX_N=${MATMUL_MAX_N:-2048}
OUT=$LOGS bash scripts/gpu-shared.sh --bench
status=$?
if [ -n "${OUT:-}" ]; then
    for f in gpu.txt testlog.txt conformance.txt conformance-kernel.txt \
             bench_matmul.txt bench_models.txt build.log; do
        [ -f "$LOGS/$f" ] && cp "$LOGS/$f" "$OUT/$f"
    done
fi
exit $status
