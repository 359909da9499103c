#!/bin/bash
# run.sh - runs the benchmark suite (built with -Dbench=true) and prints
# each benchmark's output under a heading. Which: the groups named
# (default: every group whose programs were built and whose hardware is
# there). meson test never runs these; their figures belong in
# bench/README.md, measured side by side with their baseline.
#
#   bash bench/run.sh [BUILDDIR] [GROUP...]
#
# Groups: cpu (cpu-openblas vs cblas and cpu-ref), scanner, load,
# placement (the runner's device choice; DEVICES, default "cuda,cpu"),
# vulkan (the sgemm shaders; SIZES, default "1024 2048 4096"),
# cuda (matmul vs cuBLAS, attention, the batch-1 GEMV chain, the 3xTF32
# GEMM, memory bandwidth), cuda-models (MLP and encoder vs PyTorch; needs
# PyTorch with CUDA), cuda-resnet (ResNet-50 vs PyTorch, batch 1 and 32,
# f32 and bf16; needs PyTorch, torchvision and onnx), pjrt (the bridge vs native cuda vs JAX), ort
# (cpu-openblas vs ONNX Runtime), cnn (ResNet-18, MobileNetV3, EfficientNet
# and the OCR models on cpu-openblas vs ONNX Runtime's C API), quant (an
# int8 QLinearConv net vs ONNX Runtime and rlx's f32), startup (rlx run's start-up with every
# plugin installed).
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD=build
if [ $# -gt 0 ] && [ -d "$1" ]; then BUILD=$1; shift; fi
B=$BUILD/bench
[ -d "$B" ] || { echo "run.sh: $B is missing. Fix: meson setup $BUILD -Dbench=true && ninja -C $BUILD" >&2; exit 1; }
has_gpu() { command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; }
groups=("$@")
if [ ${#groups[@]} -eq 0 ]; then
    groups=(scanner load)
    [ -x "$B/rlx-bench-cpu" ] && groups+=(cpu)
    [ -x "$B/rlx-bench-vk-sgemm" ] && groups+=(vulkan)
    if [ -x "$B/rlx-bench-cuda-matmul" ] && has_gpu; then groups+=(cuda placement); fi
fi
plugin_dirs=()
for p in cpu-openblas vulkan cuda; do
    [ -d "$BUILD/plugins/$p" ] && plugin_dirs+=("$BUILD/plugins/$p")
done
status=0
run() { echo "== $*"; "$@" || { echo "FAILED: $*"; status=1; }; echo; }
for g in "${groups[@]}"; do
    case $g in
    cpu) run "$B/rlx-bench-cpu" ;;
    scanner) run "$B/rlx-bench-scan" "$B/librlx-backend-benchtiny.so" "${plugin_dirs[@]}" ;;
    load) run "$B/rlx-bench-load" ;;
    placement) RLX_PLUGIN_PATH=$BUILD/plugins/cuda run "$B/rlx-bench-placement" "${DEVICES:-cuda,cpu}" ;;
    vulkan) RLX_BENCH_STATS=0 run "$B/rlx-bench-vk-sgemm" ${SIZES:-1024 2048 4096} ;;
    cuda)
        export RLX_PLUGIN_PATH=$BUILD/plugins/cuda
        run "$B/rlx-bench-cuda-matmul" ${MATMUL_MAX_N:-}
        run "$B/rlx-bench-cuda-attention"
        run "$B/rlx-bench-cuda-gemv"
        run "$B/rlx-bench-cuda-gemm-tf32x3"
        run "$B/rlx-bench-cuda-stream" --ways ;;
    cuda-models)
        RLX_LIB=$BUILD/core/librlx.so.1 RLX_PLUGIN_PATH=$BUILD/plugins/cuda \
            run python3 bench/cuda/bench_models.py ;;
    cuda-resnet)
        RLX_LIB=$BUILD/core/librlx.so.1 RLX_PLUGIN_PATH=$BUILD/plugins/cuda \
            run python3 bench/cuda/bench_resnet50.py --cache "$BUILD/resnet50" ;;
    pjrt)
        RLX_LIB=$BUILD/core/librlx.so.1 RLX_PLUGIN_PATH=$BUILD/plugins/pjrt:$BUILD/plugins/cuda \
            run python3 bench/pjrt/bench_pjrt.py "$BUILD/examples" ;;
    ort) run bash bench/ort/run.sh "$BUILD" ;;
    cnn) run bash bench/cnn/run.sh "$BUILD" ;;
    quant) run bash bench/quant/run.sh "$BUILD" ;;
    startup) run bash bench/startup/run.sh "$BUILD" ;;
    *) echo "run.sh: unknown group '$g'. Fix: one of cpu scanner load placement vulkan cuda cuda-models cuda-resnet pjrt ort cnn quant startup" >&2; exit 2 ;;
    esac
done
exit $status
