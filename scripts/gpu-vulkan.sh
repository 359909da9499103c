#!/bin/bash
# gpu-vulkan.sh - run the Vulkan backend on an NVIDIA GPU through the
# NVIDIA Vulkan driver: `rlx devices`, the conformance suite with the
# example models, the matmul benchmark against cuBLAS f32 (TF32 off), and
# the example models' latency on vulkan, cuda (if built) and cpu.
#
# Builds with meson into build-gpu-vulkan unless PREBUILT names a build
# directory made elsewhere with -Dbench=true (the device machine has no glslc; carry a
# build made on a machine that has it). Debian/Ubuntu packages the host
# lacks (libvulkan1, libyaml-0-2) may be carried as .deb files in DEBS
# (default .gl); they are unpacked into /. Logs go to $OUT (default .).
# MODELS_DEVICES (default "vulkan cuda cpu") picks the devices of the
# model latency runs ("" skips them). The last thing printed is a compact
# table: every Vulkan shader's GFLOP/s, cuBLAS's, and the best Vulkan /
# cuBLAS ratio per size.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-.}
debs=${DEBS:-.gl}
if [ -d "$debs" ] && ls "$debs"/*.deb >/dev/null 2>&1; then
  for f in "$debs"/*.deb; do dpkg -x "$f" /; done
  ldconfig
fi
# In containers the NVIDIA driver's manifest may sit outside the
# loader's search path (its library needs libglvnd: carry libglvnd0,
# libglx0, libegl1 with libvulkan1).
nv_icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
if [ -z "${VK_DRIVER_FILES:-}" ] && [ -f "$nv_icd" ]; then
  export VK_DRIVER_FILES=$nv_icd
fi

b=${PREBUILT:-build-gpu-vulkan}
if [ -z "${PREBUILT:-}" ]; then
  [ -f "$b/build.ninja" ] || meson setup "$b" -Dvulkan=enabled -Dbench=true >"$out/setup.log" 2>&1 \
    || { cat "$out/setup.log"; exit 1; }
  ninja -C "$b" >"$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
fi
rlx=$b/tools/rlx
export RLX_PLUGIN_PATH=$b/plugins/vulkan:$b/plugins/cuda
status=0
{
  echo "== host"; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv
  echo "== rlx devices"; RLX_LOG=info "$rlx" devices
  if ! "$rlx" devices | grep -Eq '^ +[*]? *vulkan .*available [(]'; then
    echo "== Vulkan loader diagnostics (VK_DRIVER_FILES=${VK_DRIVER_FILES:-unset})"
    ls /usr/share/vulkan/icd.d /etc/vulkan/icd.d /usr/local/nvidia/share/vulkan/icd.d 2>&1
    VK_LOADER_DEBUG=error,driver "$rlx" devices 2>&1 | grep -iE 'nvidia|error|fail' | head -20
  fi
  echo "== conformance (vulkan vs cpu-ref, with the example models)"
  "$rlx" conformance --backend vulkan --models "$b"/examples/*/*.yaml || status=1
} 2>&1 | tee "$out/conformance.log"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
sizes=${BENCH_SIZES:-1024 2048 4096}
{
  echo "== matmul f32: Vulkan shaders (GPU timestamps; each variant checked first)"
  # shellcheck disable=SC2086
  "$b"/bench/rlx-bench-vk-sgemm $sizes || status=1
  echo "== matmul f32: cuBLAS through PyTorch, TF32 off (CUDA events)"
  # shellcheck disable=SC2086
  python3 bench/vulkan/cublas_sgemm.py $sizes
} 2>&1 | tee "$out/bench.log"
if [ -x "$b"/plugins/vulkan/test-vulkan-ops ]; then
  echo "== test-vulkan-ops (every sgemm variant forced, vs cpu-ref)"
  RLX_PLUGIN_PATH=$b/plugins/vulkan "$b"/plugins/vulkan/test-vulkan-ops \
    >"$out/ops.log" 2>&1 || status=1
  grep -E '^(not )?ok' "$out/ops.log" | grep -c '^ok' | sed 's/^/passed: /'
  grep -E '^not ok' "$out/ops.log"
fi
{
  echo "== example models: latency (median of 50 runs; host copies included)"
  for m in "$b"/examples/*/*.yaml; do
    for d in ${MODELS_DEVICES-vulkan cuda cpu}; do
      printf '%s %s: ' "$(basename "$m")" "$d"
      "$rlx" run "$m" --device "$d" --repeat 50 2>&1 | grep -E '^Time|rror' | head -2 | tr '\n' ' '
      echo
    done
  done
} 2>&1 | tee "$out/models.log"
echo "== summary"
grep -E '^check .*FAIL' "$out/bench.log"
grep -cE '^check .*PASS' "$out/bench.log" | sed 's/^/sgemm variant checks passed: /'
grep -E 'PASS|FAIL' "$out/conformance.log" | grep -cv FAIL | sed 's/^/conformance lines without FAIL: /'
tail -n 3 "$out/conformance.log"
sed -n '/^== GFLOP/,/^== matmul f32: cuBLAS/p' "$out/bench.log" | grep -v '^== matmul'
awk '/^== GFLOP/ {t=1; next} t && /^shader/ {for (i=2;i<=NF;i++) sz[i]=$i; ns=NF; next}
     t && NF>1 && $1 !~ /^(==|planner)/ {for (i=2;i<=NF;i++) if ($i!="-" && $i+0>best[sz[i]]) {best[sz[i]]=$i+0; who[sz[i]]=$1}}
     /^== matmul f32: cuBLAS/ {t=0}
     $2=="cublas-f32" {cb[$1]=$4}
     END {for (i=2;i<=ns;i++) {n=sz[i]; if (cb[n]>0) printf "n=%s best %s %.0f GFLOP/s, cuBLAS %.0f: %.1f%%\n", n, who[n], best[n], cb[n], 100*best[n]/cb[n]}}' "$out/bench.log"
exit $status
