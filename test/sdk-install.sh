#!/bin/bash
# sdk-install.sh BUILD_DIR - TAP: the SDK as a new vendor gets it. Stages
# `meson install` into a private directory, moves the staged prefix
# somewhere else (so only ${pcfiledir} can find it), and checks that the
# backend author's docs, every page the docs index links and the example
# backend are installed, that the
# man page and --help name the installed docs, and that the example backend
# builds out of tree against only the staged files found through
# pkg-config, loads, and passes `rlx conformance`, and that the moved
# install still finds its plugin scanner.
set -uo pipefail
build=$(cd "$1" && pwd)
tmp=$(mktemp -d /tmp/rlx-sdk-install.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C
unset RLX_PLUGIN_PATH RLX_DEVICE RLX_BACKEND_FORCE RLX_BACKEND_DISABLE
export RLX_CONFIG=

n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
nok() { n=$((n + 1)); failed=1; echo "not ok $n - $*"; }
check() { # NAME CMD...: one TAP line, the output of a failed CMD as comments
  local name=$1; shift
  if "$@" >"$tmp/out" 2>&1; then ok "$name"; else
    nok "$name"; tail -30 "$tmp/out" | sed 's/^/# /'; fi
}

opt() { meson introspect --buildoptions "$build" |
        python3 -c "import json, sys; print(next(o['value'] for o in json.load(sys.stdin) if o['name'] == '$1'))"; }
prefix=$(opt prefix) libdir=$(opt libdir) datadir=$(opt datadir)
bindir=$(opt bindir) mandir=$(opt mandir) docdir=$(opt docdir)
[ -n "$docdir" ] || docdir=$prefix/$datadir/doc/rlx
case $docdir in /*) ;; *) docdir=$prefix/$docdir ;; esac
rel_docdir=${docdir#"$prefix"/}

if ! DESTDIR="$tmp/stage" meson install -C "$build" --no-rebuild --quiet \
     >"$tmp/install.log" 2>&1; then
  echo "Bail out! meson install failed: $(tail -5 "$tmp/install.log")"
  exit 1
fi
# Somewhere the build never named: only relative paths can still work.
sdk=$tmp/unpacked/sdk
mkdir -p "$tmp/unpacked"
mv "$tmp/stage$prefix" "$sdk"
ok "meson install --destdir staged the SDK, moved to a private prefix"

have_docs() {
  for f in writing-a-backend.md abi.md conformance.md ops.md security.md \
           examples/out-of-tree-backend/example.c \
           examples/out-of-tree-backend/meson.build; do
    [ -s "$sdk/$rel_docdir/$f" ] || { echo "missing $rel_docdir/$f"; return 1; }
  done
}
check "the backend guide, ABI rules, conformance guide, ops.md and the example are installed" have_docs

# The docs index (docs/README.md) links every page; each page it links
# that exists in the tree must be installed, and every page of docs/
# must be linked from the index.
src_docs=$(cd "$(dirname "$0")/../docs" && pwd)
index_pages() {
  grep -oE '\]\([a-z0-9-]+\.md\)' "$src_docs/README.md" | sed 's/^](//; s/)$//' | sort -u
}
have_indexed_docs() {
  [ -s "$sdk/$rel_docdir/README.md" ] || { echo "missing $rel_docdir/README.md (the index)"; return 1; }
  local f bad=0
  for f in $(index_pages); do
    [ -f "$src_docs/$f" ] || continue
    [ -s "$sdk/$rel_docdir/$f" ] || { echo "missing $rel_docdir/$f (linked from docs/README.md)"; bad=1; }
  done
  for f in "$src_docs"/*.md; do
    f=$(basename "$f")
    [ "$f" = README.md ] && continue
    index_pages | grep -qx "$f" || { echo "docs/$f is not linked from docs/README.md"; bad=1; }
  done
  return $bad
}
check "every page docs/README.md links is installed, and it links every page" have_indexed_docs

man_names_docs() {
  local man=$sdk/$mandir/man1/rlx.1
  grep -F "$docdir/ops.md" "$man" && ! grep -E '(^| )docs/' "$man"
}
check "the man page names the installed docs, not the source tree" man_names_docs

# the staged library first; keep the caller's path for what is not staged
# (libyaml or libffi unpacked into a private prefix on some machines)
export LD_LIBRARY_PATH=$sdk/$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
help_names_docs() {
  "$sdk/$bindir/rlx" --help | grep -F "$docdir"
}
check "rlx --help names the installed docs" help_names_docs

pcdir=$sdk/$libdir/pkgconfig
relocatable() {
  grep -F 'prefix=${pcfiledir}' "$pcdir/rlx.pc" &&
  grep -F 'prefix=${pcfiledir}' "$pcdir/rlx-plugin-abi.pc" &&
  PKG_CONFIG_LIBDIR=$pcdir pkg-config --cflags rlx-plugin-abi | grep -F "$sdk" &&
  PKG_CONFIG_LIBDIR=$pcdir pkg-config --libs rlx | grep -F "$sdk" &&
  [ -f "$(PKG_CONFIG_LIBDIR=$pcdir pkg-config --variable=plugin_map rlx-plugin-abi)" ]
}
check "rlx.pc and rlx-plugin-abi.pc are relocatable (\${pcfiledir})" relocatable

# The example, copied out of the installed docs, against the staged SDK
# only: PKG_CONFIG_LIBDIR hides every other .pc file.
cp -r "$sdk/$rel_docdir/examples/out-of-tree-backend" "$tmp/example"
build_example() {
  PKG_CONFIG_LIBDIR=$pcdir meson setup "$tmp/example/build" "$tmp/example" \
    -Dplugindir="$tmp/plugins" -Dwerror=true &&
  ninja -C "$tmp/example/build" &&
  # its headers came from the staged SDK
  grep -F -- "-I$sdk/" "$tmp/example/build/build.ninja" >/dev/null
}
check "the example backend builds against the staged SDK through pkg-config alone" build_example

conformance() {
  local report
  report=$(RLX_PLUGIN_PATH=$tmp/example/build "$sdk/$bindir/rlx" \
           conformance --backend example) || { echo "$report"; return 1; }
  echo "$report"
  grep -F '(conformant)' <<<"$report" && grep -F 'add          f32   PASS' <<<"$report"
}
check "the staged rlx loads the example and rlx conformance passes it" conformance

# The moved install finds its rlx-plugin-scanner from librlx's own
# location (<libdir>/../libexec/rlx or wherever the options put it), so
# plugins are scanned out of process: crash isolation on.
isolation() {
  local out
  out=$(XDG_CACHE_HOME=$tmp/cache RLX_PLUGIN_PATH=$tmp/example/build \
        "$sdk/$bindir/rlx" devices 2>&1) || { echo "$out"; return 1; }
  echo "$out"
  ! grep -F "scanner is not installed" <<<"$out" &&
  # only the scanner writes the registry cache
  grep -F "$tmp/example/build/" "$tmp/cache/rlx/plugin-registry"
}
check "the moved install scans plugins with its own rlx-plugin-scanner (crash isolation on)" isolation

echo "1..$n"
exit $failed
