#!/bin/bash
# setup-debian.sh - install what building and testing rlx needs on Debian 12.
# Installs only what is missing; uses sudo when not run as root.
set -euo pipefail

pkgs=(gcc libc6-dev meson ninja-build pkg-config binutils python3
      libyaml-dev libffi-dev python3-numpy
      # ONNX's node tests (inputs and expected outputs) for the vision ops
      python3-onnx
      # backends: OpenBLAS; Vulkan headers, loader, glslc, and lavapipe
      # (Mesa's CPU Vulkan driver) so CI runs the Vulkan backend for real
      libopenblas-dev libvulkan-dev glslc mesa-vulkan-drivers
      # the HIP toolchain (hipcc 5.2, HIP headers and runtime, the AMD GPU
      # device libraries) so CI builds the rocm plugin with -Werror
      hipcc libamdhip64-dev rocm-device-libs
      # ABI baseline check (abidw, abidiff); Debian packages and their test
      abigail-tools dpkg-dev file lintian
      # the AT_SECURE test gives a probe a file capability (setcap)
      libcap2-bin
      # the libFuzzer harnesses (scripts/fuzz.sh): clang and its runtimes
      clang libclang-rt-14-dev
      # ONNX import: protobuf-c and the onnx.proto it is generated from;
      # the ONNX backend test data and python3-onnx for the test scripts
      libprotobuf-c-dev protobuf-c-compiler libonnx-dev libonnx-testdata
      python3-onnx
      # the torchvision models' test exports them with torch
      python3-torch python3-torchvision
      # the Python package (python/): headers, NumPy, pytest, meson-python
      # (and patchelf, which it runs on the libraries a wheel carries)
      python3-dev python3-numpy python3-pytest python3-mesonpy patchelf)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$p")
done
# The OCR example's PP-OCR models come from npm (scripts/ocr-models.sh);
# a machine with Node.js from elsewhere has npm without Debian's package.
command -v npm >/dev/null || missing+=(npm)
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "rlx: installing ${missing[*]}" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
