# gpu-quick-build.sh - sourced by scripts/gpu-quick.sh, gpu-block-compare.sh
# and gpu-ab.sh: gpu_quick_build SRC BUILD LOG builds the core and the
# cuda plugin only (debugoptimized, -Werror, no tests, no other plugins)
# from the tree SRC into BUILD, meson's and ninja's output in LOG; on
# failure it prints the log's tail and returns 1. After gpu-deps.sh.
gpu_quick_build() {
    local src=$1 build=$2 log=$3
    { [ -f "$build/build.ninja" ] ||
        meson setup "$build" "$src" --buildtype=debugoptimized -Dwerror=true \
            -Dtests=false -Dcuda=enabled -Dvulkan=disabled -Drocm=disabled \
            -Dpjrt=disabled -Dcpu-openblas=disabled; } >"$log" 2>&1 &&
        ninja -C "$build" >>"$log" 2>&1 ||
        { grep -E "error|Error" "$log" | head -30; tail -5 "$log"; return 1; }
}
