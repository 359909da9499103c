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
# PERF_BENCH=0: the checks without the benchmarks.
#
#   bash scripts/gpu-perf.sh
set -uo pipefail
cd "$(dirname "$0")/.."
LOGS=${LOGS:-/tmp/gpu-perf}
mkdir -p "$LOGS"
. scripts/gpu-deps.sh
export MATMUL_MAX_N=${MATMUL_MAX_N:-2048}
bench=--bench
[ "${PERF_BENCH:-1}" = 0 ] && bench=
OUT=$LOGS bash scripts/gpu-shared.sh $bench
status=$?
if [ -n "${OUT:-}" ]; then
    for f in gpu.txt testlog.txt conformance.txt conformance-kernel.txt \
             bench_matmul.txt bench_models.txt build.log; do
        [ -f "$LOGS/$f" ] && cp "$LOGS/$f" "$OUT/$f"
    done
fi
exit $status
