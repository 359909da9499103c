#!/bin/bash
# fuse.sh - cpu-openblas with and without its compile-time fusion
# (RLX_CPU_OPENBLAS_FUSE=0/1, docs/cpu-openblas.md) on run.sh's models, in
# one script, alternating, same threads (taskset), best median of ROUNDS:
#
#   bash bench/ort/fuse.sh [BUILDDIR] [ROUNDS] [MODEL...]
#
# MODEL: names or shell patterns (default: encoder-example encoder-d512);
# BENCH_THREADS (default "1 2"). The models come from run.sh's work
# directory (RLX_BENCH_WORK, made by make_models.py on first use).
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${1:-build}
ROUNDS=${2:-3}
shift $(($# < 2 ? $# : 2))
[ $# -gt 0 ] || set -- encoder-example encoder-d512
PY=${PYTHON:-/usr/bin/python3}
WORK=${RLX_BENCH_WORK:-/tmp/rlx-bench-ort}
RLX=$BUILD/tools/rlx
export RLX_PLUGIN_PATH=$BUILD/plugins/cpu-openblas
[ -x "$RLX" ] || { echo "no $RLX. Fix: meson setup $BUILD && ninja -C $BUILD" >&2; exit 1; }
[ -f "$WORK/models.txt" ] || "$PY" bench/ort/make_models.py "$WORK" "$BUILD/examples"

echo "| model | threads | unfused ms | fused ms | unfused/fused |"
echo "|---|---|---|---|---|"
while read -r m; do
    keep=0
    for p in "$@"; do
        # shellcheck disable=SC2053
        [[ $m == $p ]] && keep=1
    done
    [ $keep = 1 ] || continue
    case $m in mlp-l-b256|encoder-d512) reps=20 ;; mlp-l-*|encoder-example) reps=100 ;; *) reps=1000 ;; esac
    for t in ${BENCH_THREADS:-1 2}; do
        cpus=$([ "$t" = 1 ] && echo 0 || echo 0-1)
        best0=1e9 best1=1e9
        for _ in $(seq "$ROUNDS"); do
            for f in 0 1; do
                v=$(RLX_CPU_OPENBLAS_FUSE=$f OPENBLAS_NUM_THREADS=$t taskset -c "$cpus" "$RLX" run \
                    "$WORK/$m/$m.yaml" --device cpu-openblas --input "x=$WORK/$m/x.npy" \
                    --repeat "$reps" </dev/null | sed -n 's/.*run \([0-9.]*\) ms.*/\1/p')
                if [ "$f" = 0 ]; then best0=$("$PY" -c "print(min($best0, $v))")
                else best1=$("$PY" -c "print(min($best1, $v))"); fi
            done
        done
        printf '| %s | %s | %.4f | %.4f | %.2fx |\n' "$m" "$t" "$best0" "$best1" \
            "$("$PY" -c "print($best0 / $best1)")"
    done
done <"$WORK/models.txt"
