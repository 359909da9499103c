#!/bin/bash
# run.sh - cpu-openblas (through the ONNX importer) against ONNX Runtime's
# CPU execution provider (through its C API) on ResNet-18,
# MobileNetV3-small and EfficientNet-B0 from Debian's torchvision, batch
# 1 and 8, 1 and 2 threads, and on the PP-OCRv4 detector and recogniser
# when scripts/ocr-models.sh has them cached:
#
#   bash bench/cnn/run.sh [BUILDDIR] [ROUNDS] [MODEL...]
#
# MODEL: names or shell patterns (resnet18-b1, 'mobilenet*', ocr-det ...;
# default: all). BENCH_THREADS (default "1 2") picks the thread counts.
# Each row is one rlx-bench-cnn process pinned with taskset to the same
# CPUs for both sides (cpu-openblas sizes its pool from the affinity
# mask, OpenBLAS gets OPENBLAS_NUM_THREADS, ORT intra-op threads): it
# alternates ROUNDS blocks (default 3) of rlx runs and ORT runs and
# prints the median of each side's runs: wall-clock time, and the
# process's CPU time per run, which at 1 thread is the latency without the
# time other jobs of a shared machine took (at 2 threads it sums both
# threads' work, ORT's spinning workers included). ORT/rlx above 1: rlx
# faster.
# The models are exported once (random weights, fixed seed; see
# export_models.py) into ~/.cache/rlx; ONNX Runtime is the
# libonnxruntime.so.1 of npm's onnxruntime-node (bench/ort/package.json,
# installed there on first use). Exits 1 when an output differs from
# ORT's by more than 1e-3 of its largest magnitude.
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${1:-build}
ROUNDS=${2:-3}
shift $(($# < 2 ? $# : 2))
PATTERNS=("$@")
THREADS=${BENCH_THREADS:-1 2}
PY=${PYTHON:-/usr/bin/python3}
BIN=$BUILD/bench/rlx-bench-cnn
[ -x "$BIN" ] || { echo "no $BIN. Fix: meson setup $BUILD -Dbench=true && ninja -C $BUILD" >&2; exit 1; }
tv=$("$PY" -c 'import torchvision; print(torchvision.__version__.split("+")[0])') || {
    echo "run.sh: $PY cannot import torchvision. Fix: apt-get install python3-torchvision" >&2; exit 1; }
MODELS=${RLX_CNN_MODELS:-${XDG_CACHE_HOME:-$HOME/.cache}/rlx/cnn-models-tv$tv}
[ -f "$MODELS/models.txt" ] || "$PY" bench/cnn/export_models.py "$MODELS"
if [ ! -d bench/ort/node_modules/onnxruntime-node ]; then
    (cd bench/ort && npm install --no-audit --no-fund --ignore-scripts >/dev/null)
fi
ORTLIB=$(ls bench/ort/node_modules/onnxruntime-node/bin/napi-v*/linux/x64/libonnxruntime.so.1 | head -n1)
ORTVER=$(node -p "require('./bench/ort/node_modules/onnxruntime-node/package.json').version")

# model list: name, file, input; the OCR models when cached
rows=()
while read -r m; do rows+=("$m $MODELS/$m.onnx $MODELS/$m.npy"); done <"$MODELS/models.txt"
ocr=${RLX_OCR_MODELS:-${XDG_CACHE_HOME:-$HOME/.cache}/rlx/ocr-models-1.4.2}
if [ -f "$ocr/ch_PP-OCRv4_det_infer.onnx" ]; then
    for spec in "det 1,3,640,640" "rec 1,3,48,320"; do
        set -- $spec
        [ -f "$MODELS/ocr-$1.npy" ] || "$PY" -c "
import numpy as np, sys
np.save(sys.argv[1], np.random.default_rng(0).random(tuple(int(d) for d in sys.argv[2].split(',')), dtype=np.float32))" "$MODELS/ocr-$1.npy" "$2"
        rows+=("ocr-$1 $ocr/ch_PP-OCRv4_${1}_infer.onnx $MODELS/ocr-$1.npy")
    done
fi

reps_for() { case $1 in *-b8|ocr-det) echo 4 ;; *) echo 15 ;; esac; }
wanted() {
    [ ${#PATTERNS[@]} = 0 ] && return 0
    for p in "${PATTERNS[@]}"; do
        # shellcheck disable=SC2053
        [[ $1 == $p ]] && return 0
    done
    return 1
}

echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) CPUs, $(uname -r); OpenBLAS $(dpkg-query -W -f='${Version}' libopenblas0-pthread 2>/dev/null || echo '?'); ONNX Runtime $ORTVER (C API); torchvision $tv"
echo
echo "| model | threads | rlx cpu-openblas ms | ONNX Runtime ms | ORT/rlx | rlx CPU ms | ORT CPU ms | ORT/rlx CPU | max abs diff |"
echo "|---|---|---|---|---|---|---|---|---|"
bad=0
for row in "${rows[@]}"; do
    read -r name file input <<<"$row"
    wanted "$name" || continue
    for t in $THREADS; do
        cpus=$([ "$t" = 1 ] && echo 0 || echo 0-1)
        if ! out=$(OPENBLAS_NUM_THREADS=$t taskset -c "$cpus" "$BIN" "$file" "$input" \
                   "$ORTLIB" --threads "$t" --repeat "$(reps_for "$name")" \
                   --rounds "$ROUNDS" --plugin-dir "$BUILD/plugins/cpu-openblas" </dev/null); then
            echo "| $name | $t | failed | | | |"
            bad=1
            continue
        fi
        read -r r o diff ref cr co <<<"$out"
        note=$("$PY" -c "print('' if float('$diff') <= 1e-3 * max(float('$ref'), 1.0) else ' (OUTPUTS DIFFER)')")
        [ -z "$note" ] || bad=1
        printf '| %s | %s | %.2f | %.2f | %.2fx | %.2f | %.2f | %.2fx | %s%s |\n' \
            "$name" "$t" "$r" "$o" "$("$PY" -c "print($o / $r)")" "$cr" "$co" \
            "$("$PY" -c "print($co / $cr)")" "$diff" "$note"
    done
done
exit $bad
