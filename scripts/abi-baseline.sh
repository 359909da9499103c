#!/bin/bash
# abi-baseline.sh [BUILDDIR] - regenerate test/abi/baseline/ on purpose:
# the libabigail descriptions of the plugin ABI and of librlx that the
# abi-baseline test compares every CI build against.
#
# Run it after a deliberate version change: a new plugin ABI minor once it
# is frozen (RLX_ABI_MINOR moved, the history line in abi.h written), a new
# plugin ABI major, or a new librlx soversion. Commit the result with that
# change. The build is configured as CI's plain build (scripts/test.sh:
# -Dwerror=true, buildtype debugoptimized) so the debug info matches.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-abi-baseline}
command -v abidw >/dev/null || { echo "abidw not found. Fix: apt-get install abigail-tools" >&2; exit 1; }
[ -f "$build/build.ninja" ] || meson setup "$build" -Dwerror=true --buildtype=debugoptimized
ninja -C "$build"
# check-abi.sh writes the baseline instead of comparing when asked to.
RLX_ABI_BASELINE_UPDATE=1 meson test -C "$build" --no-rebuild abi-baseline --print-errorlogs
meson test -C "$build" --no-rebuild abi-baseline --print-errorlogs
grep -E '^(ok|not ok)' "$build/meson-logs/testlog.txt" || true
git status --short test/abi/baseline
