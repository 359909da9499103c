#!/bin/bash
# headers-alone.sh BUILD_DIR CC... - TAP: every header `meson install`
# would install compiles alone (the first include of a translation unit,
# no feature macros) under strict C11, and twice in a row (include
# guards), as a vendor's or an application's first line would use it.
# The list comes from the install itself (meson introspect --installed),
# so a header added to the install later is checked without naming it.
set -uo pipefail
build=$(cd "$1" && pwd)
shift
tmp=$(mktemp -d /tmp/rlx-headers.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C
py=/usr/bin/python3
[ -x "$py" ] || py=python3

# "SOURCE INSTALLED-PATH" for each installed .h
meson introspect --installed "$build" | "$py" -c '
import json, sys
for src, dst in sorted(json.load(sys.stdin).items()):
    if dst.endswith(".h"):
        print(src, dst)' >"$tmp/list" || { echo "Bail out! meson introspect failed"; exit 1; }
[ -s "$tmp/list" ] || { echo "Bail out! no installed header found"; exit 1; }

# The headers laid out as installed: <includedir>/rlx/x.h is <rlx/x.h>.
while read -r src dst; do
  rel=${dst#*/include/}
  mkdir -p "$tmp/include/$(dirname "$rel")"
  cp "$src" "$tmp/include/$rel"
done <"$tmp/list"

n=0 failed=0
while read -r _ dst; do
  rel=${dst#*/include/}
  n=$((n + 1))
  printf '#include <%s>\n#include <%s>\nint rlx_headers_alone_%d;\n' \
    "$rel" "$rel" "$n" >"$tmp/t.c"
  if "$@" -std=c11 -pedantic -Wall -Wextra -Werror -I"$tmp/include" \
       -c "$tmp/t.c" -o "$tmp/t.o" >"$tmp/out" 2>&1; then
    echo "ok $n - $rel compiles alone under -std=c11 -pedantic -Werror"
  else
    failed=1
    echo "not ok $n - $rel compiles alone under -std=c11 -pedantic -Werror"
    head -20 "$tmp/out" | sed 's/^/# /'
  fi
done <"$tmp/list"
echo "1..$n"
exit $failed
