#!/bin/bash
# run.sh - rlx's cpu-openblas against ONNX Runtime (CPU) on the same models
# with the same weights and inputs, 1 and 2 threads, in one script:
#
#   bash bench/ort/run.sh [BUILDDIR] [ROUNDS]
#
# For each model and thread count it alternates ROUNDS times (default 3)
# between `rlx run --repeat` and ort_time.js, both pinned with taskset to
# the same CPUs (cpu-openblas sizes its pool from the affinity mask,
# OpenBLAS gets OPENBLAS_NUM_THREADS, ORT intraOpNumThreads), keeps the
# best median of each side, checks that the outputs agree, and prints a
# Markdown table: the ratio is ORT's time / rlx's (above 1: rlx faster).
# Needs: a build with cpu-openblas, Debian's python3-onnx and python3-yaml
# (scripts/setup-debian.sh does not install them: this is no CI job), node
# and npm (onnxruntime-node is installed into bench/ort/node_modules on
# first use; `npm install --ignore-scripts` skips its optional GPU download).
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${1:-build}
ROUNDS=${2:-3}
PY=${PYTHON:-/usr/bin/python3}
WORK=${RLX_BENCH_WORK:-/tmp/rlx-bench-ort}
RLX=$BUILD/tools/rlx
export RLX_PLUGIN_PATH=$BUILD/plugins/cpu-openblas
[ -x "$RLX" ] || { echo "no $RLX. Fix: meson setup $BUILD && ninja -C $BUILD" >&2; exit 1; }
if [ ! -d bench/ort/node_modules/onnxruntime-node ]; then
    (cd bench/ort && npm install --no-audit --no-fund --ignore-scripts >/dev/null)
fi
[ -f "$WORK/models.txt" ] || "$PY" bench/ort/make_models.py "$WORK" "$BUILD/examples"

reps_for() { # fewer repeats for the slow models
    case $1 in
    mlp-l-b256|encoder-d512) echo 20 ;;
    mlp-l-*|encoder-example) echo 100 ;;
    *) echo 1000 ;;
    esac
}

echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) CPUs; OpenBLAS $(dpkg-query -W -f='${Version}' libopenblas0-pthread 2>/dev/null || echo '?'); OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-unset}; onnxruntime-node $(node -p "require('./bench/ort/node_modules/onnxruntime-node/package.json').version")"
echo
echo "| model | threads | rlx cpu-openblas ms | ONNX Runtime ms | ORT/rlx | max abs diff |"
echo "|---|---|---|---|---|---|"
while read -r m; do
    d=$WORK/$m
    reps=$(reps_for "$m")
    for t in 1 2; do
        cpus=$([ "$t" = 1 ] && echo 0 || echo 0-1)
        best_r=1e9 best_o=1e9
        mkdir -p "$d/rlx-out"
        for _ in $(seq "$ROUNDS"); do
            r=$(OPENBLAS_NUM_THREADS=$t taskset -c "$cpus" "$RLX" run "$d/$m.yaml" \
                --device cpu-openblas --input "x=$d/x.npy" --repeat "$reps" \
                --output "$d/rlx-out" | sed -n 's/.*run \([0-9.]*\) ms.*/\1/p')
            o=$(cd bench/ort && taskset -c "$cpus" node ort_time.js "$d/$m.onnx" \
                "$d/x.npy" "$t" "$reps" "$d/ort-out.npy" | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["median"])')
            best_r=$("$PY" -c "print(min($best_r, $r))")
            best_o=$("$PY" -c "print(min($best_o, $o))")
        done
        diff=$("$PY" -c "
import glob, numpy as np
a = np.load(glob.glob('$d/rlx-out/*.npy')[0]); b = np.load('$d/ort-out.npy')
print(f'{float(np.abs(a - b).max()):.2e}')")
        printf '| %s | %s | %.4f | %.4f | %.2fx | %s |\n' "$m" "$t" "$best_r" "$best_o" \
            "$("$PY" -c "print($best_o / $best_r)")" "$diff"
    done
done <"$WORK/models.txt"
