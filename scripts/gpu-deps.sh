# gpu-deps.sh - sourced by scripts/gpu-test.sh and gpu-sanitize.sh:
# the build dependencies a GPU machine lacks (Debian .debs carried in
# .debs/), unpacked into a private prefix, the compiler, pkg-config and
# the ONNX loader's generator pointed at it. Fetch them on Debian 12 with
#   mkdir -p .debs && cd .debs && apt-get download libyaml-0-2 libyaml-dev \
#     libffi-dev libffi8 libprotobuf-c1 libprotobuf-c-dev protobuf-c-compiler \
#     libprotoc32 libprotobuf32 libonnx-dev
# RLX_GPU_MESON_ARGS then names the carried onnx.proto for meson setup.
RLX_GPU_MESON_ARGS=${RLX_GPU_MESON_ARGS:-}
if ls .debs/*.deb >/dev/null 2>&1 &&
   ! { pkg-config --exists yaml-0.1 && pkg-config --exists libffi &&
       pkg-config --exists libprotobuf-c &&
       [ -f /usr/include/onnx/onnx.proto ]; }; then
    D=/tmp/rlx-deps
    for f in .debs/*.deb; do dpkg -x "$f" "$D"; done
    # point the .pc files at the prefix itself (no PKG_CONFIG_SYSROOT_DIR:
    # it would also prefix the staged SDK the sdk-install test builds)
    sed -i "s|^prefix=/usr|prefix=$D/usr|" "$D"/usr/lib/x86_64-linux-gnu/pkgconfig/*.pc
    export PKG_CONFIG_PATH=$D/usr/lib/x86_64-linux-gnu/pkgconfig
    export LD_LIBRARY_PATH=$D/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    # Debian keeps ffi.h and the link names in multiarch directories that
    # its compiler searches by default; another distribution's does not
    export CPATH=$D/usr/include/x86_64-linux-gnu${CPATH:+:$CPATH}
    export LIBRARY_PATH=$D/usr/lib/x86_64-linux-gnu${LIBRARY_PATH:+:$LIBRARY_PATH}
    export PATH=$D/usr/bin:$PATH  # protoc-c
    export CPATH=$D/usr/include:$CPATH
    if [ -f "$D/usr/include/onnx/onnx.proto" ]; then
        RLX_GPU_MESON_ARGS="$RLX_GPU_MESON_ARGS -Donnx_proto=$D/usr/include/onnx/onnx.proto"
    fi
fi
export PATH=/usr/local/cuda/bin:$PATH
