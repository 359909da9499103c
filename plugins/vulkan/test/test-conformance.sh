#!/bin/sh
# test-conformance.sh - `rlx conformance --backend vulkan` and the
# example models on the vulkan backend. Skipped when the tool has no
# conformance command yet, or when no Vulkan device is present.
rlx=${RLX_TEST_RLX_BIN:?}
if ! "$rlx" devices 2>/dev/null | grep -Eq '^ +[*]? *vulkan .*available [(]'; then
  echo "1..0 # SKIP no Vulkan device (install mesa-vulkan-drivers)"; exit 0
fi
if ! "$rlx" conformance --help >/dev/null 2>&1; then
  echo "1..0 # SKIP rlx conformance does not exist in this build"; exit 0
fi
models=$(ls "${RLX_TEST_EXAMPLES_DIR:-/nonexistent}"/*/*.yaml 2>/dev/null)
echo "1..1"
out=$("$rlx" conformance --backend vulkan ${models:+--models $models} 2>&1); rc=$?
echo "$out" | sed 's/^/# /'
if [ $rc -eq 0 ]; then echo "ok 1 - rlx conformance --backend vulkan"; else
  echo "not ok 1 - rlx conformance --backend vulkan exited $rc"; fi
