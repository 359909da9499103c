#!/bin/sh
# check-exports.sh LIBRLX [PLUGIN | --dir DIR]... - TAP: librlx exports
# only public rlx_* functions (no rlx__ internals), all under the version
# node RLX_1; each plugin exports rlx_plugin_init, optionally
# rlx_plugin_host_fit, and nothing else, and does not link librlx.
# --dir DIR adds every librlx-backend-*.so in DIR (a plugin subdir's build
# dir; absent when that backend was not built).
set -u
lib=$1; shift
plugins=""
while [ $# -gt 0 ]; do
  if [ "$1" = --dir ]; then
    for f in "$2"/librlx-backend-*.so; do
      [ -f "$f" ] && plugins="$plugins $f"
    done
    shift 2
  else
    plugins="$plugins $1"; shift
  fi
done
# shellcheck disable=SC2086
set -- $plugins
echo "1..$((2 + 2 * $#))"

names=$(nm -D --defined-only "$lib" | awk '{print $3}' | sed 's/@.*//')
bad=$(echo "$names" | grep -v '^rlx_[a-z]' | grep -v '^RLX_1$')
internal=$(echo "$names" | grep '^rlx__')
if [ -z "$bad$internal" ] && echo "$names" | grep -q '^rlx_session_create$'; then
  echo "ok 1 - librlx exports only public rlx_ symbols"
else
  echo "not ok 1 - librlx exports only public rlx_ symbols"; echo "# unexpected: $bad $internal"
fi
# objdump -T: "ADDR g DF .text SIZE RLX_1 rlx_x"; every definition under RLX_1
unversioned=$(objdump -T "$lib" | awk '$2 == "g" && $4 != "*UND*" && $4 != "*ABS*" && $6 != "RLX_1" {print $NF}')
if [ -z "$unversioned" ] && readelf -d "$lib" | grep -q 'SONAME.*librlx\.so\.[0-9]'; then
  echo "ok 2 - librlx has a versioned SONAME and every export is in RLX_1"
else
  echo "not ok 2 - librlx has a versioned SONAME and every export is in RLX_1"
  echo "# outside RLX_1: $unversioned"
fi

i=2
for p in "$@"; do
  i=$((i + 1))
  name=$(basename "$p")
  syms=$(nm -D --defined-only "$p" | awk '{print $3}' | sed 's/@.*//' | sort | tr '\n' ' ')
  if [ "$syms" = "rlx_plugin_init " ] || [ "$syms" = "rlx_plugin_host_fit rlx_plugin_init " ]; then
    also=""; [ "${syms#rlx_plugin_host_fit}" = "$syms" ] || also=" and rlx_plugin_host_fit"
    echo "ok $i - $name exports only rlx_plugin_init$also"
  else
    echo "not ok $i - $name exports only rlx_plugin_init (and rlx_plugin_host_fit)"; echo "# exports: $syms"
  fi
  i=$((i + 1))
  if readelf -d "$p" | grep NEEDED | grep -q librlx; then
    echo "not ok $i - $name does not link librlx"; readelf -d "$p" | grep NEEDED | sed 's/^/# /'
  else
    echo "ok $i - $name does not link librlx"
  fi
done
