#!/bin/bash
# gpu-kernel-bench.sh - the stand-alone kernel benchmarks of bench/cuda
# built with nvcc and run on a machine with an NVIDIA GPU (sm_90):
# bench_attention (each block shape of the attention kernels),
# bench_stream --ways (how fast this GPU reads memory, the GEMV's floor),
# bench_gemm_tf32x3 (the 3xTF32 GEMM's tiles against cuBLAS),
# bench_gemm_ln (a Linear + residual add + layer_norm as one wgmma kernel
# against cuBLASLt and the norm kernel), bench_gemv_chain (the batch-1
# MLP's first two layers as one weight stream against three GEMVs) and
# bench_attn_proj (attention + out-projection + add + layer_norm as one
# cluster kernel against the three kernels the plugin runs) and
# bench_gemm_wg (a bf16 Linear on wgmma that starts early, against
# cuBLASLt, alone and in the encoder block; also fed by TMA) and
# bench_lt_pdl (whether cuBLASLt's kernels wait for the kernel before
# them, and the block with programmatic edges into them) and bench_tma_ln
# (the Linear + add + layer_norm pairs as one TMA-fed cluster kernel,
# alone and in the block) and bench_pdl_start (when a programmatic
# dependent of each cuBLASLt GEMM of the block starts).
# Which ones: the names given (default: all ten). Output under $OUT
# (default /tmp/gpu-kernel-bench), one .txt per benchmark.
#
#   bash scripts/gpu-kernel-bench.sh attention stream
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/gpu-kernel-bench}
BUILD=${BUILD:-build-kernel-bench}
mkdir -p "$OUT" "$BUILD"
export PATH=$PATH:/usr/local/cuda/bin
# each benchmark includes the kernel sources it times; no meson build
INC="-Iplugins/gpu-common -Iplugin-abi -Iplugins/cuda"
ARCH="-gencode=arch=compute_90a,code=sm_90a -DRLXG_SM90A"
status=0
set -- ${@:-attention stream gemm_tf32x3 gemm_ln gemv_chain attn_proj gemm_wg lt_pdl tma_ln pdl_start}
for b in "$@"; do
    case $b in
    attention) src=bench/cuda/bench_attention.cu; args=; libs= ;;
    stream) src=bench/cuda/bench_stream.cu; args=--ways; libs= ;;
    gemm_tf32x3) src=bench/cuda/bench_gemm_tf32x3.cu; args=; libs=-lcublas ;;
    gemm_ln) src=bench/cuda/bench_gemm_ln.cu; args=; libs=-lcublasLt ;;
    gemv_chain) src=bench/cuda/bench_gemv_chain.cu; args=; libs= ;;
    attn_proj) src=bench/cuda/bench_attn_proj.cu; args=; libs=-lcublasLt ;;
    gemm_wg) src=bench/cuda/bench_gemm_wg.cu; args=; libs="-lcublasLt -lcuda" ;;
    lt_pdl) src=bench/cuda/bench_lt_pdl.cu; args=; libs="-lcublasLt -lcuda" ;;
    tma_ln) src=bench/cuda/bench_tma_ln.cu; args=; libs="-lcublasLt -lcuda" ;;
    pdl_start) src=bench/cuda/bench_pdl_start.cu; args=; libs=-lcublasLt ;;
    *) echo "unknown benchmark $b"; exit 2 ;;
    esac
    nvcc -std=c++17 -O3 $ARCH $INC "$src" -o "$BUILD/bench_$b" $libs \
        >"$OUT/build_$b.log" 2>&1 || { tail -20 "$OUT/build_$b.log"; status=1; continue; }
    "$BUILD/bench_$b" $args >"$OUT/$b.txt" 2>&1 || status=1
    echo "== $b"; cat "$OUT/$b.txt"
done
exit $status
