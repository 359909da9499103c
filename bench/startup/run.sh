#!/bin/bash
# run.sh - the start-up tax of installed GPU plugins: wall time of
# `rlx run` on the example MLP (automatic device choice) with only the
# CPU plugin on the plugin path, against every plugin built in BUILDDIR
# (CPU, CUDA, Vulkan, ...), with the probe cache warm, cold, and off.
# Alternates the configurations N times (default 15) and prints medians.
#
#   bash bench/startup/run.sh [BUILDDIR] [N]
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${1:-build}
N=${2:-15}
RLX=$BUILD/tools/rlx
MODEL=$BUILD/examples/mlp/mlp.yaml
CACHE=$(mktemp -d)
trap 'rm -rf "$CACHE"' EXIT
all=""
for d in "$BUILD"/plugins/*/; do
    ls "$d"librlx-backend-*.so >/dev/null 2>&1 && all="$all${all:+:}${d%/}"
done
cpu=$BUILD/plugins/cpu-openblas

once() { # label, env...
    local t0 t1
    t0=$(date +%s%N)
    env "${@:2}" "$RLX" run "$MODEL" >/dev/null
    t1=$(date +%s%N)
    echo "$1 $(( (t1 - t0) / 1000 ))"
}

samples=$(mktemp)
for _ in $(seq "$N"); do
    once cpu-only RLX_PLUGIN_PATH="$cpu" XDG_CACHE_HOME="$CACHE" >>"$samples"
    once all-warm RLX_PLUGIN_PATH="$all" XDG_CACHE_HOME="$CACHE" >>"$samples"
    rm -rf "$CACHE/rlx"
    once all-cold RLX_PLUGIN_PATH="$all" XDG_CACHE_HOME="$CACHE" >>"$samples"
    once all-nocache RLX_PLUGIN_PATH="$all" RLX_PROBE_CACHE=0 >>"$samples"
done
echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) CPUs; plugins: $all"
"${PYTHON:-/usr/bin/python3}" - "$samples" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    k, v = line.split()
    rows.setdefault(k, []).append(int(v) / 1000)
base = statistics.median(rows["cpu-only"])
print("| configuration | median wall ms | vs CPU plugin only |")
print("|---|---|---|")
for k in ("cpu-only", "all-warm", "all-cold", "all-nocache"):
    m = statistics.median(rows[k])
    print(f"| {k} | {m:.1f} | {m / base:.2f}x |")
PY
rm -f "$samples"
