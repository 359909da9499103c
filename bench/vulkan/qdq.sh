#!/bin/bash
# qdq.sh - the int8 QDQ torchvision models against their f32 exports on
# the Vulkan backend (lavapipe where there is no GPU), whole on the
# device: `rlx run --repeat` medians in ms, the int8 model with its
# defaults (packed dot products where the device has them, the
# requantization chain fused into the conv), without the fusion
# (RLX_VULKAN_QFUSE=off) and on plain integer products
# (RLX_VULKAN_INT_DOT=off). Prints a markdown table.
#
#   bash bench/vulkan/qdq.sh [BUILDDIR] [REPEAT] [MODEL...]
#
# The models are the onnx-qdq test's (BUILDDIR/test/onnx/qdq, written by
# `meson test -C BUILDDIR onnx-qdq`, or set QDQ_DIR); MODEL defaults to
# resnet18 mobilenet_v3_small efficientnet_b0.
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${1:-build}
REPEAT=${2:-5}
shift $(( $# > 2 ? 2 : $# ))
MODELS=${*:-resnet18 mobilenet_v3_small efficientnet_b0}
DIR=${QDQ_DIR:-$BUILD/test/onnx/qdq}
RLX=$BUILD/tools/rlx
[ -x "$RLX" ] || { echo "no $RLX. Fix: ninja -C $BUILD" >&2; exit 1; }
[ -d "$DIR/torchvision" ] || { echo "no models in $DIR. Fix: meson test -C $BUILD onnx-qdq (or set QDQ_DIR)" >&2; exit 1; }
export RLX_PLUGIN_PATH=$BUILD/plugins/vulkan

# the median run time of MODEL.onnx with INPUT.npy, extra env in "$@"
median() {
    local model=$1 input=$2
    shift 2
    env "$@" "$RLX" run "$model" --device vulkan --fallback none \
        --input "input=$input" --repeat "$REPEAT" 2>&1 |
        sed -n 's/.*run \([0-9.]*\) ms.*/\1/p'
}

echo "| model | f32 | int8 | int8, chain not fused | int8, int_dot off | f32 / int8 |"
echo "| --- | ---: | ---: | ---: | ---: | ---: |"
for m in $MODELS; do
    f=$(median "$DIR/torchvision/$m.onnx" "$DIR/torchvision/$m.input.npy")
    q=$(median "$DIR/$m.qdq.onnx" "$DIR/$m.qdq.input.npy")
    nf=$(median "$DIR/$m.qdq.onnx" "$DIR/$m.qdq.input.npy" RLX_VULKAN_QFUSE=off)
    nd=$(median "$DIR/$m.qdq.onnx" "$DIR/$m.qdq.input.npy" RLX_VULKAN_INT_DOT=off)
    r=$(awk -v a="$f" -v b="$q" 'BEGIN { printf "%.2fx", a / b }')
    echo "| $m | $f | $q | $nf | $nd | $r |"
done
