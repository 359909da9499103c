#!/bin/bash
# run_ocr.sh RLX_OCR SRCDIR DEVICE - the OCR example end to end: fetch the
# PP-OCRv4 models (scripts/ocr-models.sh), read SRCDIR/text.pgm on DEVICE
# and compare what rlx-ocr prints with SRCDIR/text.txt.
set -euo pipefail
ocr=$1 src=$2 device=$3
models=$(bash "$src/../../scripts/ocr-models.sh")
got=$("$ocr" --device "$device" --models "$models" "$src/text.pgm")
if [ "$got" != "$(cat "$src/text.txt")" ]; then
  printf 'rlx-ocr on %s printed:\n%s\nexpected:\n%s\n' "$device" "$got" \
    "$(cat "$src/text.txt")" >&2
  exit 1
fi
echo "rlx-ocr on $device read: $got"
