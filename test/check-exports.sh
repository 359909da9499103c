#!/bin/sh
# check-exports.sh LIBRLX PLUGIN... - TAP: librlx exports only rlx_*
# (no rlx__ internals); each plugin exports only rlx_plugin_init and does
# not link librlx.
lib=$1; shift
n=$((1 + 2 * $#))
echo "1..$n"
i=1
names=$(nm -D --defined-only "$lib" | awk '{print $3}' | sed 's/@.*//')
bad=$(echo "$names" | grep -v '^rlx_[a-z]' | grep -v '^RLX_1$')
internal=$(echo "$names" | grep '^rlx__')
if [ -z "$bad$internal" ] && echo "$names" | grep -q '^rlx_session_create$'; then
  echo "ok $i - librlx exports only public rlx_ symbols"
else
  echo "not ok $i - librlx exports only public rlx_ symbols"; echo "# unexpected: $bad $internal"
fi
for p in "$@"; do
  i=$((i + 1))
  syms=$(nm -D --defined-only "$p" | awk '{print $3}' | sed 's/@.*//' | tr '\n' ' ')
  if [ "$syms" = "rlx_plugin_init " ]; then
    echo "ok $i - $(basename "$p") exports only rlx_plugin_init"
  else
    echo "not ok $i - $(basename "$p") exports only rlx_plugin_init"; echo "# exports: $syms"
  fi
  i=$((i + 1))
  if readelf -d "$p" | grep NEEDED | grep -q librlx; then
    echo "not ok $i - $(basename "$p") does not link librlx"; readelf -d "$p" | grep NEEDED | sed 's/^/# /'
  else
    echo "ok $i - $(basename "$p") does not link librlx"
  fi
done
