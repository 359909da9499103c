#!/bin/bash
# fuzz.sh [SECONDS] [TARGET...] - build the libFuzzer harnesses
# (test/fuzz, docs/fuzzing.md) with clang under AddressSanitizer +
# UndefinedBehaviorSanitizer in build-fuzz (or $RLX_FUZZ_BUILD), and run
# each target (all by default) for SECONDS (default 20) from its seed
# corpus. Prints TAP, one line per target: a crash, a leak, a sanitizer
# report, a timeout or running out of memory fails it, and its input is
# kept in <build>/fuzz-artifacts/ with the command that replays it.
# New inputs that widened coverage go to <build>/fuzz-corpus/TARGET, not
# into the tree.
set -uo pipefail
cd "$(dirname "$0")/.."
secs=${1:-20}
[ $# -gt 0 ] && shift
dir=${RLX_FUZZ_BUILD:-build-fuzz}

if [ ! -f "$dir/build.ninja" ]; then
  if ! CC=clang meson setup "$dir" -Dfuzz=true -Dtests=false -Dwerror=true \
       -Db_sanitize=address,undefined -Db_lundef=false -Dcpu-openblas=disabled \
       -Dcuda=disabled -Drocm=disabled -Dvulkan=disabled -Dpjrt=disabled \
       >"$dir.setup.log" 2>&1; then
    echo "Bail out! meson setup $dir failed: $(tail -3 "$dir.setup.log")"
    exit 1
  fi
fi
# Only the harnesses (and the core copy they link): nothing else is needed.
mapfile -t all < <(ninja -C "$dir" -t targets all |
                   sed -n 's/^\(test\/fuzz\/fuzz-[a-z0-9-]*\): c_LINKER$/\1/p')
if [ ${#all[@]} -eq 0 ] || ! ninja -C "$dir" "${all[@]}" >"$dir/fuzz-build.log" 2>&1; then
  echo "Bail out! building the fuzz targets failed: $(tail -5 "$dir/fuzz-build.log")"
  exit 1
fi
if [ $# -gt 0 ]; then targets=("$@"); else
  targets=(); for t in "${all[@]}"; do targets+=("${t#test/fuzz/fuzz-}"); done
fi

# Leaks and undefined behaviour are failures; a huge allocation gets NULL
# (the code must cope) instead of ending the run.
export ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1:max_allocation_size_mb=1024
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
n=0 failed=0
mkdir -p "$dir/fuzz-artifacts"
for t in "${targets[@]}"; do
  n=$((n + 1))
  exe=$dir/test/fuzz/fuzz-$t seeds=test/fuzz/$t/corpus work=$dir/fuzz-corpus/$t
  log=$dir/fuzz-$t.log
  if [ ! -x "$exe" ] || [ ! -d "$seeds" ]; then
    failed=1
    echo "not ok $n - fuzz $t: no harness $exe or no seed corpus $seeds"
    continue
  fi
  mkdir -p "$work"
  "$exe" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2560 \
    -artifact_prefix="$dir/fuzz-artifacts/$t-" -print_final_stats=1 \
    "$work" "$seeds" >"$log" 2>&1
  rc=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  if [ $rc -eq 0 ]; then
    echo "ok $n - fuzz $t: ${runs:-?} inputs in ${secs}s, no failure"
  else
    failed=1
    echo "not ok $n - fuzz $t: exit $rc after ${runs:-?} inputs (log: $log)"
    grep -E 'ERROR|SUMMARY|runtime error|==[0-9]+==' "$log" | head -8 | sed 's/^/# /'
    art=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -1)
    [ -n "$art" ] && echo "# replay: $exe $art"
  fi
done
echo "1..$n"
exit $failed
