#!/bin/bash
# demo.sh - the main job: set up, build, and run the example MLP (a YAML
# model with safetensors weights, generated at build time) on the best
# available device with `rlx run`. Extra arguments go to `rlx run`
# (e.g. --device cpu-ref --repeat 10); `demo.sh demo [...]` runs the
# built-in `rlx demo` instead.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-debian.sh
[ -f build/build.ninja ] || meson setup build >/dev/null
ninja -C build >/dev/null
if [ "${1:-}" = demo ]; then
  shift
  exec ./build/tools/rlx demo "$@"
fi
exec ./build/tools/rlx run build/examples/mlp/mlp.yaml \
  --input x=build/examples/mlp/x.npy "$@"
