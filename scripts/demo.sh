#!/bin/bash
# demo.sh - the main job: set up, build, and run an MLP on the best device.
# Extra arguments go to `rlx demo` (e.g. --device cpu --batch 8).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-debian.sh
[ -f build/build.ninja ] || meson setup build >/dev/null
ninja -C build >/dev/null
exec ./build/tools/rlx demo "$@"
