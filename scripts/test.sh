#!/bin/bash
# test.sh - set up, then build and run the whole test suite twice: a
# -Werror build, and an AddressSanitizer + UndefinedBehaviorSanitizer
# build. Ends with the line "N passed, N failed" over every test case.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-debian.sh || exit 1

status=0
logs=()
run_suite() { # dir, meson options...
  local dir=$1; shift
  echo "== $dir: meson setup $*"
  if [ ! -f "$dir/build.ninja" ]; then
    meson setup "$dir" "$@" >"$dir.setup.log" 2>&1 || { cat "$dir.setup.log"; status=1; return; }
  fi
  ninja -C "$dir" || { status=1; return; }
  meson test -C "$dir" --print-errorlogs || status=1
  logs+=("$dir/meson-logs/testlog.json")
}

run_suite build-werror -Dwerror=true
run_suite build-sanitize -Dwerror=true -Db_sanitize=address,undefined -Db_lundef=false

python3 scripts/tap-count.py "${logs[@]}" || status=1
exit $status
