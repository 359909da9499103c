#!/bin/bash
# run.sh - rlx's cpu-openblas against ONNX Runtime (CPU) on the same models
# with the same weights and inputs, 1 and 2 threads, in one script:
#
#   bash bench/ort/run.sh [BUILDDIR] [ROUNDS] [MODEL...]
#
# MODEL: names or shell patterns of models to run (default: all, see
# models.txt: mlp-s-b1 .. mlp-s-b256, mlp-l-b1 .. mlp-l-b256,
# encoder-example, encoder-d512), e.g. `run.sh build 1 'mlp-s-*'` while
# developing. BENCH_THREADS (default "1 2") picks the thread counts.
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
# Exits 1 when an output differs from ONNX Runtime's by more than 1e-4
# (the table marks the row), 0 otherwise.
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${1:-build}
ROUNDS=${2:-3}
shift $(($# < 2 ? $# : 2))
PATTERNS=("$@")
THREADS=${BENCH_THREADS:-1 2}
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
wanted() { # no patterns: every model
    [ ${#PATTERNS[@]} = 0 ] && return 0
    for p in "${PATTERNS[@]}"; do
        # shellcheck disable=SC2053
        [[ $1 == $p ]] && return 0
    done
    return 1
}

bad=0
echo "| model | threads | rlx cpu-openblas ms | ONNX Runtime ms | ORT/rlx | max abs diff |"
echo "|---|---|---|---|---|---|"
while read -r m; do
    wanted "$m" || continue
    d=$WORK/$m
    reps=$(reps_for "$m")
    for t in $THREADS; do
        cpus=$([ "$t" = 1 ] && echo 0 || echo 0-1)
        best_r=1e9 best_o=1e9
        rm -rf "$d/rlx-out" "$d/ort-out.npy"
        mkdir -p "$d/rlx-out"
        for _ in $(seq "$ROUNDS"); do
            r=$(OPENBLAS_NUM_THREADS=$t taskset -c "$cpus" "$RLX" run "$d/$m.yaml" \
                --device cpu-openblas --input "x=$d/x.npy" --repeat "$reps" \
                --output "$d/rlx-out" </dev/null | sed -n 's/.*run \([0-9.]*\) ms.*/\1/p')
            o=$(cd bench/ort && taskset -c "$cpus" node ort_time.js "$d/$m.onnx" \
                "$d/x.npy" "$t" "$reps" "$d/ort-out.npy" </dev/null | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["median"])')
            best_r=$("$PY" -c "print(min($best_r, $r))")
            best_o=$("$PY" -c "print(min($best_o, $o))")
        done
        diff=$("$PY" -c "
import glob, numpy as np
a = np.load(glob.glob('$d/rlx-out/*.npy')[0]); b = np.load('$d/ort-out.npy')
print(f'{float(np.abs(a - b).max()) if a.shape == b.shape else float("inf"):.2e}')")
        if ! "$PY" -c "import sys; sys.exit(0 if float('$diff') <= 1e-4 else 1)"; then
            diff="$diff (OUTPUTS DIFFER)"
            bad=1
        fi
        printf '| %s | %s | %.4f | %.4f | %.2fx | %s |\n' "$m" "$t" "$best_r" "$best_o" \
            "$("$PY" -c "print($best_o / $best_r)")" "$diff"
    done
done <"$WORK/models.txt"
exit $bad
