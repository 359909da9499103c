#!/bin/bash
# check-abi.sh - TAP: the plugin ABI and librlx's exported ABI against the
# libabigail baseline committed in test/abi/baseline/.
#
#   check-abi.sh BASELINE_DIR SUPPR ABI_VERSION SOVERSION SURFACE LIBRLX \
#                SURFACE_1_0 SURFACE_NEXT HEADER_DIR...
#
# SURFACE is test/abi/surface.c built against plugin-abi/ (every ABI type
# as a parameter); SURFACE_1_0/_NEXT the same built against the copies in
# test/abi/ (1.0, and the hypothetical next minor), used to test the
# checker itself. Verdicts:
#   same         no difference at all (abidiff --harmless is silent);
#   compatible   only what SUPPR and abidiff allow: fields appended to
#                structs, enumerators added, types or functions added;
#   incompatible anything else.
# The plugin ABI may be "compatible" only if RLX_ABI_MINOR moved past the
# baseline's, and "incompatible" only if RLX_ABI_MAJOR moved; librlx may
# be "compatible" (added functions) always, "incompatible" only with a
# new SONAME version. With RLX_ABI_BASELINE_UPDATE=1 (scripts/abi-baseline.sh)
# it writes the baseline instead.
set -uo pipefail
base=$1 suppr=$2 abi=$3 so=$4 surface=$5 lib=$6 old=$7 new=$8
shift 8
hd=()
for d in "$@"; do hd+=(--hd "$d"); done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if ! command -v abidw >/dev/null || ! command -v abidiff >/dev/null; then
  echo "1..1"
  echo "ok 1 # SKIP abigail-tools not installed (apt-get install abigail-tools)"
  exit 0
fi

# abidw with nothing that depends on where the tree or the build lives.
dw() { # out.xml elf [abidw options]
  local out=$1 elf=$2; shift 2
  abidw --no-corpus-path --no-comp-dir-path --no-show-locs --no-elf-needed \
    --type-id-style hash --drop-undefined-syms --exported-interfaces-only \
    "$@" --out-file "$out" "$elf" || return 1
  # translation units are named relative to the build dir: keep only the
  # part inside the source tree
  sed -i "s#path='[^']*/\(core\|plugins\|test\)/#path='\1/#" "$out"
}

# verdict BASE.xml NEW.xml [extra abidiff options]: same/compatible/incompatible
verdict() {
  local b=$1 n=$2; shift 2
  if abidiff --harmless "$b" "$n" >/dev/null 2>&1; then echo same; return; fi
  if abidiff --no-added-syms "$@" "$b" "$n" >/dev/null 2>&1; then
    echo compatible
  else
    echo incompatible
  fi
}

dw "$tmp/plugin-abi.xml" "$surface" || exit 1
dw "$tmp/librlx.xml" "$lib" --drop-private-types "${hd[@]}" || exit 1

if [ "${RLX_ABI_BASELINE_UPDATE:-}" = 1 ]; then
  cp "$tmp/plugin-abi.xml" "$tmp/librlx.xml" "$base/"
  echo "$abi" >"$base/plugin-abi.version"
  echo "$so" >"$base/librlx.version"
  echo "1..1"
  echo "ok 1 - baseline written to $base (plugin ABI $abi, librlx.so.$so)"
  exit 0
fi

echo "1..4"
major() { echo "${1%%.*}"; }
minor() { echo "${1#*.}"; }
report() { # show what abidiff says, as TAP comments
  abidiff --harmless "$@" 2>&1 | sed 's/^/# /' | head -60
}

# 1: the plugin ABI
bver=$(cat "$base/plugin-abi.version")
v=$(verdict "$base/plugin-abi.xml" "$tmp/plugin-abi.xml" --suppressions "$suppr")
name="plugin ABI $abi against the $bver baseline: $v"
if [ "$(major "$abi")" != "$(major "$bver")" ]; then
  echo "ok 1 - $name (major moved; run scripts/abi-baseline.sh to freeze $abi)"
elif [ "$v" = same ]; then
  echo "ok 1 - $name"
elif [ "$v" = compatible ] && [ "$(minor "$abi")" -gt "$(minor "$bver")" ]; then
  echo "ok 1 - $name, and RLX_ABI_MINOR moved"
  echo "# freeze it with scripts/abi-baseline.sh once $abi is released"
elif [ "$v" = compatible ]; then
  echo "not ok 1 - $name, but RLX_ABI_MINOR is still $(minor "$abi")"
  echo "# Fix: bump RLX_ABI_MINOR in plugin-abi/rlx/abi.h and add a history line"
  report "$base/plugin-abi.xml" "$tmp/plugin-abi.xml"
else
  echo "not ok 1 - $name"
  echo "# Fix: only append fields and enumerators; a real break needs"
  echo "# RLX_ABI_MAJOR + 1 and then scripts/abi-baseline.sh"
  report "$base/plugin-abi.xml" "$tmp/plugin-abi.xml"
fi

# 2: librlx's exported functions and the types they use
bso=$(cat "$base/librlx.version")
v=$(verdict "$base/librlx.xml" "$tmp/librlx.xml")
name="librlx.so.$so against the librlx.so.$bso baseline: $v"
if [ "$so" != "$bso" ]; then
  echo "ok 2 - $name (SONAME moved; run scripts/abi-baseline.sh)"
elif [ "$v" != incompatible ]; then
  echo "ok 2 - $name"
  [ "$v" = same ] || report "$base/librlx.xml" "$tmp/librlx.xml"
else
  echo "not ok 2 - $name"
  echo "# Fix: keep every exported function and its types; add new ones"
  echo "# instead (a _v2 name), or bump the soversion in core/meson.build"
  report "$base/librlx.xml" "$tmp/librlx.xml"
fi

# 3, 4: the checker itself, on the hand-made 1.5 and the real 1.0 headers
dw "$tmp/new.xml" "$new" && dw "$tmp/old.xml" "$old" || exit 1
v=$(verdict "$base/plugin-abi.xml" "$tmp/new.xml" --suppressions "$suppr")
if [ "$v" = compatible ]; then
  echo "ok 3 - checker: the 1.5 copy (appended slot and field) is compatible"
else
  echo "not ok 3 - checker: the 1.5 copy (appended slot and field) is $v"
  report "$base/plugin-abi.xml" "$tmp/new.xml"
fi
v=$(verdict "$base/plugin-abi.xml" "$tmp/old.xml" --suppressions "$suppr")
if [ "$v" = incompatible ]; then
  echo "ok 4 - checker: dropping 1.1's and 1.2's additions (the 1.0 headers) is incompatible"
else
  echo "not ok 4 - checker: dropping 1.1's and 1.2's additions (the 1.0 headers) is $v"
fi
