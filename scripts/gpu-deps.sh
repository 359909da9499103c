# gpu-deps.sh - sourced by scripts/gpu-test.sh and gpu-sanitize.sh:
# the build dependencies a GPU machine lacks (Debian
# libyaml, libffi and protobuf-c .debs carried in .debs/, protoc-c and
# its libprotoc among them, for the ONNX importer), unpacked into a
# private prefix, the compiler, pkg-config and PATH pointed at it.
if ls .debs/*.deb >/dev/null 2>&1 &&
   ! { pkg-config --exists yaml-0.1 && pkg-config --exists libffi &&
       { ! ls .debs/*protobuf-c* >/dev/null 2>&1 ||
         { pkg-config --exists libprotobuf-c && command -v protoc-c; }; }; } \
       >/dev/null 2>&1; then
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
    export PATH=$D/usr/bin:$PATH
    export CPATH=$D/usr/include:$CPATH
fi
export PATH=/usr/local/cuda/bin:$PATH
