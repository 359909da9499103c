#!/bin/bash
# build-debs.sh [OUTDIR] - build Debian packages of rlx from this tree.
#
# Configures a build for /usr (libdir lib/<multiarch>, Debian's hardening
# flags), installs it with DESTDIR into a staging dir, splits that into
# one tree per package, writes each DEBIAN/ (control with dependencies
# from dpkg-shlibdeps, md5sums, shlibs and an ldconfig trigger for the
# library) and runs dpkg-deb. Packages, in OUTDIR (default ./debs):
#   librlx1                       the runtime library
#   librlx-dev                    headers, pkg-config files, plugin SDK
#   rlx-tools                     the rlx tool and its man page
#   librlx-backend-<name>         one per backend that was built
#                                 (cpu-openblas, vulkan, cuda, rocm, pjrt)
#   python3-rlx                   the Python package (when python3-dev and
#                                 python3-numpy are installed)
# Every staged file must land in some package, or the script fails.
# Needs dpkg-dev. Environment: RLX_DEB_WORK (scratch dir, default a new
# one under /tmp), RLX_DEB_MAINTAINER, RLX_DEB_MESON_ARGS (extra options).
set -euo pipefail
cd "$(dirname "$0")/.."
src=$PWD
out=$(realpath -m "${1:-$src/debs}")
work=${RLX_DEB_WORK:-$(mktemp -d /tmp/rlx-debs.XXXXXX)}
maintainer=${RLX_DEB_MAINTAINER:-"rlx maintainers <maintainers@users.noreply.a-seed-35b91c1d.example>"}
build=$work/build stage=$work/stage pkgs=$work/pkgs
rm -rf "$stage" "$pkgs"
mkdir -p "$out" "$pkgs"
umask 022
# The CUDA toolkit, where installed, is found through nvcc on PATH.
[ -x /usr/local/cuda/bin/nvcc ] && export PATH="$PATH:/usr/local/cuda/bin"

ma=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
arch=$(dpkg-architecture -qDEB_HOST_ARCH)
libdir=usr/lib/$ma
plugindir=$libdir/rlx/plugins

# ---- build and stage --------------------------------------------------
# As debhelper builds meson projects: buildtype plain, and the flags from
# dpkg-buildflags (-O2 -g, all hardening, the source dir mapped away).
# nvcc gets -O2 but no -g: with -g it records the build dir in the kernels.
export DEB_BUILD_MAINT_OPTIONS=hardening=+all
reconf=""; [ ! -f "$build/build.ninja" ] || reconf=1
CFLAGS=$(dpkg-buildflags --get CFLAGS) CPPFLAGS=$(dpkg-buildflags --get CPPFLAGS) \
LDFLAGS=$(dpkg-buildflags --get LDFLAGS) CUFLAGS=-O2 \
  meson setup "$build" ${reconf:+--reconfigure} \
    --prefix=/usr --libdir="lib/$ma" --buildtype=plain -Dtests=false \
    -Ddocdir=share/doc/librlx-dev -Dpython=auto \
    -Dpython.platlibdir=lib/python3/dist-packages \
    -Dpython.purelibdir=lib/python3/dist-packages \
    ${RLX_DEB_MESON_ARGS:-} >"$work/setup.log" || { cat "$work/setup.log"; exit 1; }
ninja -C "$build" >"$work/build.log" || { tail -50 "$work/build.log"; exit 1; }
DESTDIR=$stage meson install -C "$build" --no-rebuild --strip >"$work/install.log"
version=$(meson introspect --projectinfo "$build" |
          python3 -c 'import json, sys; print(json.load(sys.stdin)["version"])')

# ---- split into package trees -----------------------------------------
# ship PKG PATH... : move staged paths (relative to the stage) into PKG
ship() {
  local pkg=$1 p; shift
  for p in "$@"; do
    mkdir -p "$pkgs/$pkg/$(dirname "$p")"
    mv "$stage/$p" "$pkgs/$pkg/$p"
  done
}
mapfile -t libs < <(cd "$stage" && ls -d "$libdir"/librlx.so.*)
ship librlx1 "${libs[@]}"
# the plugin scanner belongs with the library that starts it
ship librlx1 usr/libexec/rlx
# The backend author's docs and the example backend: the Debian doc dir of
# librlx-dev (the man page and `rlx --help` name it).
ship librlx-dev usr/include/rlx "$libdir/librlx.so" "$libdir/pkgconfig" usr/share/rlx \
  usr/share/doc/librlx-dev
ship rlx-tools usr/bin/rlx usr/share/man/man1/rlx.1
gzip -9n "$pkgs/rlx-tools/usr/share/man/man1/rlx.1"
backends=()
for fam in cpu-openblas vulkan cuda rocm pjrt; do
  files=$(cd "$stage" && ls "$plugindir/librlx-backend-$fam.so" \
                           "$plugindir"/librlx-backend-"$fam"-*.so 2>/dev/null || true)
  [ -n "$files" ] || continue
  # shellcheck disable=SC2086
  ship "librlx-backend-$fam" $files
  backends+=("$fam")
done
# the Python package, where it was built
pydir=usr/lib/python3/dist-packages/rlx
have_py=""
if [ -d "$stage/$pydir" ]; then
  find "$stage/$pydir" -name __pycache__ -prune -exec rm -rf {} +
  ship python3-rlx "$pydir"
  have_py=1
fi
left=$(cd "$stage" && find . -type f -o -type l)
[ -z "$left" ] || { echo "build-debs: files in no package:" $left >&2; exit 1; }

# ---- metadata -----------------------------------------------------------
# Shared libraries are not executable (Debian policy 8.1); drop the
# sections dh_strip drops too.
find "$pkgs" -name '*.so*' -type f -exec chmod 0644 {} +
find "$pkgs" -type f \( -name '*.so*' -o -path '*/bin/*' \) \
  -exec strip --remove-section=.comment --remove-section=.note {} +
date=$(git -C "$src" log -1 --format=%cD 2>/dev/null || date -R)
year=$(date -d "$date" +%Y)
rev=$(git -C "$src" rev-parse --short HEAD 2>/dev/null || echo unknown)
cat >"$work/copyright" <<EOF
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: rlx

Files: *
Copyright: $year the rlx authors
License: MIT
 Permission is hereby granted, free of charge, to any person obtaining a
 copy of this software and associated documentation files (the "Software"),
 to deal in the Software without restriction, including without limitation
 the rights to use, copy, modify, merge, publish, distribute, sublicense,
 and/or sell copies of the Software, and to permit persons to whom the
 Software is furnished to do so, subject to the following conditions:
 .
 The above copyright notice and this permission notice shall be included
 in all copies or substantial portions of the Software.
 .
 THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS
 OR IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF
 MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT.
 IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY
 CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT,
 TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE
 SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.
EOF

# The shlibs file lets dpkg-shlibdeps turn "needs librlx.so.1" into
# "Depends: librlx1 (>= VERSION)" for rlx-tools (and for other packages).
mkdir -p "$pkgs/librlx1/DEBIAN"
echo "librlx 1 librlx1 (>= $version)" >"$pkgs/librlx1/DEBIAN/shlibs"
echo "activate-noawait ldconfig" >"$pkgs/librlx1/DEBIAN/triggers"
# dpkg-shlibdeps wants to run in a source tree: give it an empty one.
mkdir -p "$work/src/debian"
printf 'Source: rlx\n\nPackage: rlx\nArchitecture: any\n' >"$work/src/debian/control"

# shlibdeps PKG: the Depends its ELF files need, per dpkg-shlibdeps
shlibdeps() {
  local elf
  elf=$(find "$pkgs/$1" -path "$pkgs/$1/DEBIAN" -prune -o -type f -print |
        while read -r f; do file -b "$f" | grep -q '^ELF' && echo "$f"; done)
  [ -n "$elf" ] || return 0
  # shellcheck disable=SC2086
  (cd "$work/src" && dpkg-shlibdeps -O -S"$pkgs/librlx1" $elf 2>>"$work/shlibdeps.log") |
    sed -n 's/^shlibs:Depends=//p'
}

# control PKG SECTION EXTRA-DEPENDS OTHER-FIELDS SYNOPSIS LONG-DESCRIPTION
control() {
  local pkg=$1 section=$2 extra=$3 other=$4 synopsis=$5 long=$6 deps
  local doc="$pkgs/$pkg/usr/share/doc/$pkg"
  mkdir -p "$doc" "$pkgs/$pkg/DEBIAN"
  cp "$work/copyright" "$doc/copyright"
  printf 'rlx (%s) unstable; urgency=medium\n\n  * Built from git %s by scripts/build-debs.sh.\n\n -- %s  %s\n' \
    "$version" "$rev" "$maintainer" "$date" | gzip -9n >"$doc/changelog.gz"
  deps=$(shlibdeps "$pkg")
  deps="$deps${deps:+${extra:+, }}$extra"
  {
    echo "Package: $pkg"
    echo "Source: rlx"
    echo "Version: $version"
    echo "Architecture: $arch"
    echo "Maintainer: $maintainer"
    echo "Installed-Size: $(du -sk --exclude=DEBIAN "$pkgs/$pkg" | cut -f1)"
    [ -z "$deps" ] || echo "Depends: $deps"
    [ -z "$other" ] || echo "$other"
    echo "Section: $section"
    echo "Priority: optional"
    echo "Description: $synopsis"
    echo "$long" | fold -s -w 72 | sed 's/ *$//; s/^/ /'
  } >"$pkgs/$pkg/DEBIAN/control"
  (cd "$pkgs/$pkg" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' |
     sort -z | xargs -0r md5sum) >"$pkgs/$pkg/DEBIAN/md5sums"
  dpkg-deb --build --root-owner-group "$pkgs/$pkg" \
    "$out/${pkg}_${version}_${arch}.deb" >/dev/null
  echo "$out/${pkg}_${version}_${arch}.deb"
}

about="rlx compiles and runs ML graphs on whatever hardware backends are installed; every backend is a plugin found at run time."
control librlx1 libs "" "Multi-Arch: same" \
  "ML graph runtime with plugin backends - library" \
  "$about This package holds the shared library with the built-in reference CPU backend. Backends come in librlx-backend-* packages and are found in /$plugindir."
control librlx-dev libdevel "librlx1 (= $version)" "Multi-Arch: same" \
  "ML graph runtime with plugin backends - development files" \
  "$about This package holds the C headers and pkg-config files for applications (rlx.pc) and the plugin SDK for backends built out of tree: the plugin ABI headers, rlx-plugin-abi.pc (with the plugindir and plugin_map variables) and the version script plugins link with."
control rlx-tools utils "" "" \
  "ML graph runtime with plugin backends - command-line tool" \
  "$about The rlx tool lists the backends and why each is or is not usable (rlx devices), runs YAML models (rlx run) and checks a backend's results against the reference (rlx conformance)."
if [ -n "$have_py" ]; then
  # the extension holds the core itself (python/meson.build) and finds
  # the backend packages' plugins in /$plugindir as the library does
  pyver=$(python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')
  pynext=$(python3 -c 'import sys; print("%d.%d" % (sys.version_info[0], sys.version_info[1] + 1))')
  control python3-rlx python "python3 (>= $pyver), python3 (<< $pynext), python3-numpy" "" \
    "ML graph runtime with plugin backends - Python package" \
    "$about This package holds the rlx module for Python 3: rlx.Session runs ONNX and rlx models with NumPy arrays, rlx.Tensor shares device memory with PyTorch, CuPy and JAX through DLPack, rlx.devices() lists what the machine can run on."
fi
for fam in "${backends[@]}"; do
  pkg=librlx-backend-$fam other="Multi-Arch: same" extra="librlx1 (>= $version)"
  case $fam in
    cpu-openblas) what="a CPU backend on OpenBLAS, in variants for the host's vector units (portable, AVX2, AVX-512); the best one for the CPU is chosen at load time and replaces the reference CPU backend." ;;
    # The plugin opens libvulkan.so.1 itself at run time (no DT_NEEDED),
    # so dpkg-shlibdeps cannot see it. Without it the plugin still loads
    # and says why it is unavailable: Recommends, not Depends.
    vulkan) what="a Vulkan compute backend. It opens the Vulkan loader (libvulkan1) and a driver (ICD) at run time; without them it reports itself unavailable."
            other="$other"$'\n'"Recommends: libvulkan1, mesa-vulkan-drivers | vulkan-icd" ;;
    # cudart is linked in statically; the driver (libcuda.so.1) and
    # cuBLASLt are opened at run time and come from NVIDIA, not Debian main.
    cuda) cv=$(nvcc --version 2>/dev/null | sed -n 's/.*release \([0-9.]*\),.*/\1/p')
          what="a CUDA backend for NVIDIA GPUs, built with CUDA ${cv:-?}. It needs, at run time, the NVIDIA driver (libcuda.so.1) and cuBLASLt of CUDA ${cv%%.*} (from the CUDA toolkit); without them it reports itself unavailable with a fix."
          other="$other"$'\n'"Suggests: libcuda1" ;;
    # PJRT plugins (libtpu, JAX's) come from pip or the cloud's images,
    # not Debian: nothing to depend on; the plugin finds them at run time.
    pjrt) what="a bridge to PJRT plugins (libtpu.so for Google TPUs, JAX's CUDA and ROCm plugins, vendor plugins): it finds and opens them at run time and compiles graphs to StableHLO for them; without one it reports itself unavailable with a fix." ;;
    # The plugin opens libamdhip64.so.5 itself at run time (no DT_NEEDED,
    # so it loads and explains itself without it); it is what the
    # backend runs on, hence a Depends.
    rocm) what="a ROCm/HIP backend for AMD GPUs (kernels built for gfx906, gfx908, gfx90a and gfx1030). It opens the HIP runtime (libamdhip64.so.5) at run time; without an AMD GPU it reports itself unavailable with a fix."
          extra="$extra, libamdhip64-5" ;;
    *) what="the $fam backend." ;;
  esac
  control "$pkg" libs "$extra" "$other" \
    "ML graph runtime with plugin backends - $fam backend" \
    "$about This package installs into /$plugindir $what"
done
