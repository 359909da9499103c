#!/bin/bash
# test.sh - set up, then build and run the whole test suite three times:
# a -Werror build; an AddressSanitizer + UndefinedBehaviorSanitizer build;
# and a ThreadSanitizer build of the suites that run threads (live plugin
# swaps, concurrent sessions); then build, install and remove the Debian
# packages; then run each libFuzzer harness briefly (scripts/fuzz.sh).
# Ends with the line "N passed, N failed" over every test case.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-debian.sh || exit 1
# The CUDA toolkit, where installed, is found through nvcc on PATH.
[ -x /usr/local/cuda/bin/nvcc ] && export PATH="$PATH:/usr/local/cuda/bin"

status=0
logs=()
run_suite() { # dir "meson options" [test names...]
  local dir=$1 opts=$2; shift 2
  echo "== $dir: meson setup $opts"
  if [ ! -f "$dir/build.ninja" ]; then
    # shellcheck disable=SC2086
    meson setup "$dir" $opts >"$dir.setup.log" 2>&1 || { cat "$dir.setup.log"; status=1; logs+=("$dir:build-failed"); return; }
  fi
  ninja -C "$dir" || { status=1; logs+=("$dir:build-failed"); return; }
  meson test -C "$dir" --print-errorlogs "$@" || status=1
  logs+=("$dir/meson-logs/testlog.json")
}

# -Dbench=true: the benchmark suite is built (never run) here; the CUDA
# benchmarks only where nvcc builds the cuda plugin.
run_suite build-werror "-Dwerror=true -Dbench=true"
# The rocm plugin (hipcc: its kernels for four GPU targets, about 2 CPU
# minutes) is built and tested in build-werror and packaged; the
# sanitizer builds skip it, as its host code is the cuda plugin's.
run_suite build-sanitize "-Dwerror=true -Db_sanitize=address,undefined -Db_lundef=false -Drocm=disabled"
# The threads suites do not load the CUDA plugin; skipping it saves an
# nvcc build of its kernels on a 2-core machine.
run_suite build-tsan "-Dwerror=true -Db_sanitize=thread -Db_lundef=false -Dcuda=disabled -Drocm=disabled" \
  --suite threads

# Debian packages (needs root): build, install, check, purge. Runs after
# build-werror, which one of its checks uses; its TAP joins the count.
mkdir -p build-packages
echo "== build-packages: scripts/test-packages.sh"
pkg_rc=0
bash scripts/test-packages.sh | tee build-packages/tap.txt || pkg_rc=1
[ "$pkg_rc" -eq 0 ] || status=1
python3 -c 'import json, sys; print(json.dumps({"name": "packages", "result": "OK" if sys.argv[2] == "0" else "FAIL", "stdout": open(sys.argv[1]).read()}))' \
  build-packages/tap.txt "$pkg_rc" >build-packages/testlog.json
logs+=("build-packages/testlog.json")

# The libFuzzer harnesses (clang, ASan/UBSan), each run briefly from its
# seed corpus (scripts/fuzz.sh, docs/fuzzing.md); one TAP line per target
# joins the count.
mkdir -p build-fuzz
echo "== build-fuzz: scripts/fuzz.sh 20"
fuzz_rc=0
bash scripts/fuzz.sh 20 | tee build-fuzz/tap.txt || fuzz_rc=1
[ "$fuzz_rc" -eq 0 ] || status=1
python3 -c 'import json, sys; print(json.dumps({"name": "fuzz", "result": "OK" if sys.argv[2] == "0" else "FAIL", "stdout": open(sys.argv[1]).read()}))' \
  build-fuzz/tap.txt "$fuzz_rc" >build-fuzz/testlog.json
logs+=("build-fuzz/testlog.json")

python3 scripts/tap-count.py "${logs[@]}" || status=1
exit $status
