#!/bin/bash
# run.sh - an int8 QLinearConv model on cpu-openblas (through the ONNX
# importer) against ONNX Runtime's CPU execution provider (C API) on the
# same file, and against rlx's own f32 of the same net, batch 1 and 8, 1
# and 2 threads:
#
#   bash bench/quant/run.sh [BUILDDIR] [ROUNDS]
#
# The models come from QMODEL_SCRIPT (default bench/quant/export_qmodels.py:
# ResNet-18's convolutions in QLinearConv form and in f32), run once as
# "$PYTHON QMODEL_SCRIPT DIR" into QMODEL_DIR (default
# ~/.cache/rlx/qmodels-<script name>); any script writing DIR/qmodels.txt
# with lines "name int8.onnx f32.onnx input.npy" fits. BENCH_THREADS
# (default "1 2") picks the thread counts. Each cell is one
# rlx-bench-cnn process (bench/cnn) pinned with taskset, alternating
# ROUNDS blocks (default 3) of rlx and ORT runs, medians printed: wall
# time, and the process's CPU time per run, which on a shared machine is
# the number to read at 1 thread (at 2 it sums both threads' work, ORT's
# spinning workers included). Ratios: int8/ORT at most 1 and int8/f32 at
# most 0.5 are the goals. The int8 output is compared with ORT's (max abs
# difference; the two requantize alike, so it is at rounding level).
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${1:-build}
ROUNDS=${2:-3}
THREADS=${BENCH_THREADS:-1 2}
PY=${PYTHON:-/usr/bin/python3}
SCRIPT=${QMODEL_SCRIPT:-bench/quant/export_qmodels.py}
BIN=$BUILD/bench/rlx-bench-cnn
[ -x "$BIN" ] || { echo "no $BIN. Fix: meson setup $BUILD -Dbench=true && ninja -C $BUILD" >&2; exit 1; }
[ -f "$SCRIPT" ] || { echo "no model script $SCRIPT. Fix: set QMODEL_SCRIPT to one that writes DIR/qmodels.txt" >&2; exit 1; }
DIR=${QMODEL_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/rlx/qmodels-$(basename "$SCRIPT" .py)}
[ -f "$DIR/qmodels.txt" ] || "$PY" "$SCRIPT" "$DIR"
if [ ! -d bench/ort/node_modules/onnxruntime-node ]; then
    (cd bench/ort && npm install --no-audit --no-fund --ignore-scripts >/dev/null)
fi
ORTLIB=$(ls bench/ort/node_modules/onnxruntime-node/bin/napi-v*/linux/x64/libonnxruntime.so.1 | head -n1)
ORTVER=$(node -p "require('./bench/ort/node_modules/onnxruntime-node/package.json').version")

reps_for() { case $1 in *-b8) echo 3 ;; *) echo 10 ;; esac; }
# one cell: "wall_ms ort_wall_ms diff ref cpu_ms ort_cpu_ms"
cell() {
    local file=$1 input=$2 t=$3 reps=$4 cpus
    cpus=$([ "$t" = 1 ] && echo 0 || echo 0-1)
    OPENBLAS_NUM_THREADS=$t taskset -c "$cpus" "$BIN" "$file" "$input" \
        "$ORTLIB" --threads "$t" --repeat "$reps" --rounds "$ROUNDS" \
        --plugin-dir "$BUILD/plugins/cpu-openblas" </dev/null
}
ratio() { "$PY" -c "print('%.2f' % ($1 / $2))"; }

echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) CPUs, $(uname -r); ONNX Runtime $ORTVER (C API); models: $SCRIPT"
echo
echo "| model | threads | rlx int8 CPU ms | ORT int8 CPU ms | rlx f32 CPU ms | int8/ORT | int8/f32 | rlx int8 wall ms | ORT int8 wall ms | rlx f32 wall ms | int8 vs ORT max abs diff |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
bad=0
while read -r name i8 f32 input; do
    for t in $THREADS; do
        reps=$(reps_for "$name")
        if ! q=$(cell "$i8" "$input" "$t" "$reps") ||
           ! f=$(cell "$f32" "$input" "$t" "$reps"); then
            echo "| $name | $t | failed | | | | | | | | |"
            bad=1
            continue
        fi
        read -r qw ow diff _ qc oc <<<"$q"
        read -r fw _ _ _ fc _ <<<"$f"
        printf '| %s | %s | %.2f | %.2f | %.2f | %sx | %sx | %.2f | %.2f | %.2f | %s |\n' \
            "$name" "$t" "$qc" "$oc" "$fc" "$(ratio "$qc" "$oc")" \
            "$(ratio "$qc" "$fc")" "$qw" "$ow" "$fw" "$diff"
    done
done <"$DIR/qmodels.txt"
exit $bad
