#!/bin/bash
# test-packages.sh - TAP: the Debian packages, built from this tree and
# installed on this machine (as root), then removed again.
#
# Builds them (scripts/build-debs.sh), runs lintian, installs them with
# dpkg -i, and checks that: the installed files never mention the source
# tree or the build dir, and have no RPATH; /usr/bin/rlx with no
# RLX_PLUGIN_PATH finds an installed backend; pkg-config names the plugin
# directory and the version script; the example backend in
# examples/out-of-tree-backend builds against the installed SDK alone and
# passes `rlx conformance`; removing a backend package removes the backend;
# an in-tree build (prefix /usr/local) does not see the system plugins.
# Finally it purges everything it installed. Prints "ok N - ..." lines and
# a trailing plan; exits 1 if anything failed.
set -euo pipefail
cd "$(dirname "$0")/.."
src=$PWD
work=$(mktemp -d /tmp/rlx-pkgtest.XXXXXX)
ma=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
plugdir=/usr/lib/$ma/rlx/plugins
export LC_ALL=C
# The installed tool must find plugins on its own: no test-suite settings.
unset RLX_PLUGIN_PATH RLX_DEVICE RLX_CONFIG RLX_BACKEND_FORCE RLX_BACKEND_DISABLE

n=0 failed=0 installed=()
ok() { n=$((n + 1)); echo "ok $n - $*"; }
nok() { n=$((n + 1)); failed=1; echo "not ok $n - $*"; }
# check NAME CMD...: one TAP line; the output of a failed CMD as comments
check() {
  local name=$1; shift
  if "$@" >"$work/out" 2>&1; then ok "$name"; else
    nok "$name"; tail -40 "$work/out" | sed 's/^/# /'; fi
}
finish() {
  # purge whatever is still installed, leave nothing behind
  [ ${#installed[@]} -eq 0 ] || dpkg --purge "${installed[@]}" >/dev/null 2>&1 || true
  rm -rf "$work"
  echo "1..$n"
}
trap finish EXIT

[ "$(id -u)" -eq 0 ] || { echo "Bail out! test-packages.sh installs packages: run it as root"; exit 1; }
pkgs=(librlx1 librlx-dev rlx-tools python3-rlx librlx-backend-cpu-openblas
      librlx-backend-vulkan librlx-backend-cuda librlx-backend-rocm
      librlx-backend-pjrt)
for p in "${pkgs[@]}"; do
  if dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed'; then
    echo "Bail out! $p is already installed; this test would remove it"; exit 1
  fi
done

# ---- build and inspect ------------------------------------------------
check "build-debs.sh builds the packages" \
  env RLX_DEB_WORK="$work/debwork" bash scripts/build-debs.sh "$work/debs"
debs=("$work"/debs/*.deb)
[ -e "${debs[0]}" ] || { echo "Bail out! no packages were built"; exit 1; }
names=()
for d in "${debs[@]}"; do names+=("$(dpkg-deb -f "$d" Package)"); done
echo "# built: ${names[*]}"
backend=""
for b in librlx-backend-cpu-openblas librlx-backend-vulkan librlx-backend-cuda librlx-backend-rocm librlx-backend-pjrt; do
  [[ " ${names[*]} " == *" $b "* ]] && { backend=$b; break; }
done
if command -v lintian >/dev/null; then
  # errors and warnings fail; info tags (no symbols file, ...) do not
  lint() {
    lintian --suppress-tags running-with-root-privileges "${debs[@]}" >"$work/lint" 2>&1 || true
    cat "$work/lint"; ! grep -qE '^[EW]:' "$work/lint"
  }
  check "lintian reports no errors or warnings" lint
else
  ok "lintian reports no errors or warnings # SKIP lintian not installed"
fi

# ---- install ----------------------------------------------------------
installed=("${names[@]}")
check "dpkg -i installs ${names[*]}" dpkg -i "${debs[@]}"

files() { dpkg -L "${names[@]}" | while read -r f; do [ -f "$f" ] && echo "$f"; done; }
no_paths() { ! files | xargs grep -l -F -e "$src" -e "$work"; }
check "installed files mention neither the source tree nor the build dir" no_paths
no_rpath() {
  local f bad=0
  for f in $(files); do
    file -b "$f" | grep -q '^ELF' || continue
    if readelf -d "$f" | grep -E 'RPATH|RUNPATH'; then echo "$f"; bad=1; fi
  done
  return $bad
}
check "installed ELF files have no RPATH or RUNPATH" no_rpath
check "librlx.so.1 is in the ldconfig cache (the trigger ran)" \
  sh -c "ldconfig -p | grep 'librlx.so.1 .*lib/$ma/librlx.so.1'"
check "/usr/bin/rlx --version runs against the installed librlx" \
  sh -c "/usr/bin/rlx --version && ldd /usr/bin/rlx | grep 'librlx.so.1 => .*lib/$ma/librlx.so.1'"

# ---- pkg-config and the SDK -------------------------------------------
# The .pc files are relocatable (paths relative to ${pcfiledir}), so paths
# are compared after resolving them.
pc_libs_ok() { # "-lrlx", or "-L<dir> -lrlx" with <dir> the multiarch libdir
  local libs dir
  libs=$(pkg-config --libs rlx | xargs)
  [ "$libs" = "-lrlx" ] && return 0
  dir=${libs% -lrlx}
  dir=${dir#-L}
  [ "$libs" = "-L$dir -lrlx" ] && [ "$(realpath -m "$dir")" = "/usr/lib/$ma" ]
}
pc_vars() {
  [ "$(realpath -m "$(pkg-config --variable=plugindir rlx-plugin-abi)")" = "$plugdir" ] &&
  [ -f "$(pkg-config --variable=plugin_map rlx-plugin-abi)" ] &&
  [ "$(pkg-config --modversion rlx-plugin-abi)" = "$(sed -n 's/^#define RLX_ABI_MAJOR //p' plugin-abi/rlx/abi.h).$(sed -n 's/^#define RLX_ABI_MINOR //p' plugin-abi/rlx/abi.h)" ] &&
  pc_libs_ok &&
  [ "$(realpath -m "$(pkg-config --variable=plugindir rlx)")" = "$plugdir" ]
}
check "pkg-config: plugindir is $plugdir, plugin_map exists, version is the ABI's" pc_vars

# ---- the installed tool finds an installed backend --------------------
if [ -n "$backend" ]; then
  id=${backend#librlx-backend-}
  check "rlx devices lists $id from $plugdir" \
    sh -c "/usr/bin/rlx devices | tee /dev/stderr | grep -q 'plugin: $plugdir/librlx-backend-$id'"
else
  ok "rlx devices lists an installed backend # SKIP no backend package was built"
fi
# the Python package imports from the system's Python and sees what
# the tool sees
if printf '%s\n' "${names[@]}" | grep -qx python3-rlx; then
  py_devices() {
    local py cli
    py=$(cd / && /usr/bin/python3 -c 'import rlx
assert rlx.__file__.startswith("/usr/lib/python3/dist-packages/rlx/"), rlx.__file__
assert rlx.devices(), "no devices"
print(sorted((b["id"], b["available"]) for b in rlx.backends()))') &&
    cli=$(/usr/bin/rlx devices --json | /usr/bin/python3 -c 'import json, sys
print(sorted((b["id"], b["available"]) for b in json.load(sys.stdin)["backends"]))') &&
    echo "python: $py" && echo "rlx:    $cli" && [ "$py" = "$cli" ]
  }
  check "python3-rlx: import rlx from /usr/lib/python3/dist-packages sees the backends rlx devices sees" py_devices
else
  nok "python3-rlx was built # python3-dev and python3-numpy are in setup-debian.sh"
fi
# librlx finds its plugin scanner where librlx1 installed it
check "the plugin scanner is installed and found" \
  sh -c "[ -x /usr/libexec/rlx/rlx-plugin-scanner ] && ! /usr/bin/rlx devices | grep -q 'scanner is not installed'"

# An in-tree build (scripts/test.sh's, prefix /usr/local) must not see
# the packaged plugins, so the main suites are not affected by them.
tree_rlx=$src/build-werror/tools/rlx
if [ -x "$tree_rlx" ] && [ -n "$backend" ]; then
  not_seen() { "$tree_rlx" --help | grep -q /usr/local/ && ! "$tree_rlx" devices | grep -F "$plugdir"; }
  check "the in-tree build's rlx does not see $plugdir" not_seen
else
  ok "the in-tree build's rlx does not see $plugdir # SKIP no build-werror/ or no backend"
fi

# ---- an out-of-tree backend against the installed SDK -----------------
docs() {
  for f in writing-a-backend.md abi.md conformance.md ops.md \
           examples/out-of-tree-backend/example.c; do
    [ -s "/usr/share/doc/librlx-dev/$f" ] || { echo "missing $f"; return 1; }
  done
  zgrep -F /usr/share/doc/librlx-dev/ops.md /usr/share/man/man1/rlx.1.gz
}
check "librlx-dev ships the docs and the example; the man page names them" docs
ex=$work/example
# the example as a vendor finds it: installed with librlx-dev
cp -r /usr/share/doc/librlx-dev/examples/out-of-tree-backend "$ex"
check "examples/out-of-tree-backend builds against the installed SDK" \
  sh -c "meson setup '$ex/build' '$ex' -Dwerror=true && ninja -C '$ex/build'"
no_src() { ! grep -F "$src" "$ex/build/compile_commands.json"; }
check "its compile commands do not include the rlx source tree" no_src
so=$ex/build/librlx-backend-example.so
exports() { [ "$(nm -D --defined-only "$so" | awk '{print $3}')" = rlx_plugin_init ] &&
            ! readelf -d "$so" | grep NEEDED | grep librlx; }
check "it exports only rlx_plugin_init and does not link librlx" exports
check "meson install puts it into the system plugin directory" \
  sh -c "DESTDIR='$ex/dest' meson install -C '$ex/build' --no-rebuild && test -f '$ex/dest$plugdir/librlx-backend-example.so'"
conf() {
  RLX_PLUGIN_PATH=$ex/build /usr/bin/rlx conformance --backend example >"$work/conf" || return 1
  grep -E '^(Conformance|Summary)' "$work/conf"
  # result lines are "OP DTYPE VERDICT ..."
  [ "$(grep -cE '^(add|mul|relu) +f32 +PASS' "$work/conf")" = 3 ] &&
  [ "$(grep -cE '^[a-z0-9_]+ +[a-z0-9]+ +PASS' "$work/conf")" = 3 ] &&
  ! grep -E '^[a-z0-9_]+ +[a-z0-9]+ +(FAIL|SKIPPED)' "$work/conf"
}
check "rlx conformance --backend example: add, mul, relu f32 PASS, the rest UNSUPPORTED" conf
grep '^Summary' "$work/conf" | sed 's/^/# /' || true

# ---- remove a backend, then everything --------------------------------
if [ -n "$backend" ]; then
  gone() {
    dpkg -r "$backend" && ! ls "$plugdir"/librlx-backend-"$id"*.so 2>/dev/null &&
    ! /usr/bin/rlx devices | grep -F "$plugdir/librlx-backend-$id"
  }
  check "dpkg -r $backend removes it from rlx devices" gone
fi
purged() {
  dpkg --purge "${installed[@]}" || return 1
  installed=()
  for p in "${names[@]}"; do
    ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || return 1
  done
  [ ! -e "/usr/lib/$ma/rlx" ] && [ ! -e /usr/include/rlx ] && [ ! -e /usr/bin/rlx ] &&
  ! pkg-config --exists rlx rlx-plugin-abi
}
check "dpkg --purge leaves nothing of rlx installed" purged
exit $failed
