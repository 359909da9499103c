#!/bin/bash
# run_synthetic.sh RLX_OCR SRCDIR WORKDIR PYTHON [DEVICE=PLUGINDIR ...] -
# rlx-ocr end to end on stand-in models (synthetic_models.py) that the
# importer runs today, as TAP: each glyph of text.pgm is a box, each box
# a crop of its own width (a program per shape), each a line of output.
set -uo pipefail
ocr=$1 src=$2 work=$3 py=$4
shift 4
"$py" "$src/synthetic_models.py" "$work" || { echo "not ok 1 - synthetic models"; echo "1..1"; exit 1; }
n=0 status=0
for spec in "$@"; do
  device=${spec%%=*} dir=${spec#*=}
  out=$(RLX_PLUGIN_PATH=$dir "$ocr" --device "$device" --models "$work" \
        "$src/text.pgm" 2>"$work/err-$device")
  rc=$?
  boxes=$(grep -c '^rlx-ocr: box ' "$work/err-$device")
  lines=$(printf '%s\n' "$out" | grep -c '')
  n=$((n + 1))
  # 27 glyph components in the two lines of text.pgm (the stand-in
  # detector marks ink only): some slack for anti-aliased edges
  if [ $rc -eq 0 ] && [ "$boxes" -eq "$lines" ] && [ "$boxes" -ge 24 ] && [ "$boxes" -le 30 ]; then
    echo "ok $n - rlx-ocr on $device: $boxes boxes, one line of text each"
  else
    echo "not ok $n - rlx-ocr on $device: exit $rc, $boxes boxes, $lines lines"
    sed 's/^/# /' "$work/err-$device"
    status=1
  fi
done
echo "1..$n"
exit $status
