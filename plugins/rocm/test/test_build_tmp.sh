#!/bin/bash
# test_build_tmp.sh BUILD_DIR PRIVATE_TMP_BASE - TAP: building the rocm
# plugin leaves $TMPDIR as it found it. Every hipcc command of the build
# runs through private-tmp.sh; then the build's own command for one
# kernel is run again with TMPDIR an empty folder, which must stay empty,
# and the private folder must hold nothing afterwards.
set -uo pipefail
build=$1 base=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/rlx-hip-tmp.XXXXXX")
trap 'rm -rf "$work"' EXIT
watch=$work/tmpdir
mkdir "$watch"
n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
nok() { n=$((n + 1)); failed=1; echo "not ok $n - $*"; }

ninja -C "$build" -t commands >"$work/cmds" 2>/dev/null
grep -E '(^|[ /])hipcc ' "$work/cmds" >"$work/hip"
total=$(wc -l <"$work/hip")
bare=$(grep -vc 'private-tmp\.sh' "$work/hip")
if [ "$total" -gt 0 ] && [ "$bare" -eq 0 ]; then
  ok "all $total hipcc commands run with a private TMPDIR"
else
  nok "hipcc commands without a private TMPDIR: $bare of $total"
  grep -v 'private-tmp\.sh' "$work/hip" | head -3 | sed 's/^/# /'
fi

cmd=$(grep -m1 'gk_data\.cu' "$work/hip")
if [ -z "$cmd" ]; then
  nok "the build compiles gk_data.cu with hipcc"
else
  # ninja prints each command for `sh -c`, from the build directory
  if (cd "$build" && TMPDIR=$watch sh -c "$cmd") >"$work/out" 2>&1 &&
     [ -z "$(ls -A "$watch")" ] && [ -z "$(ls -A "$base" 2>/dev/null)" ]; then
    ok "compiling gk_data.cu leaves TMPDIR and the private folder empty"
  else
    nok "compiling gk_data.cu leaves TMPDIR and the private folder empty"
    ls -A "$watch" "$base" 2>&1 | head -5 | sed 's/^/# /'
    tail -5 "$work/out" | sed 's/^/# /'
  fi
fi
echo "1..$n"
exit $failed
