#!/bin/sh
# test-nodriver.sh - with the loader pointed at a driver manifest that
# does not exist, the Vulkan plugin still loads, `rlx devices` exits 0,
# and the vulkan backend is listed as unavailable with a reason and a Fix.
# TAP output.
rlx=${RLX_TEST_RLX_BIN:?}
echo "1..3"
out=$(VK_DRIVER_FILES=/nonexistent/rlx-test.json \
      VK_ICD_FILENAMES=/nonexistent/rlx-test.json "$rlx" devices 2>&1)
rc=$?
if [ $rc -eq 0 ]; then echo "ok 1 - rlx devices exits 0"; else
  echo "not ok 1 - rlx devices exits $rc"; echo "$out" | sed 's/^/# /'; fi
if echo "$out" | grep -Eq '^ +[*]? *vulkan .*unavailable'; then
  echo "ok 2 - vulkan listed as unavailable"; else
  echo "not ok 2 - vulkan not listed as unavailable"; echo "$out" | sed 's/^/# /'; fi
if echo "$out" | grep -E -A4 '^ +[*]? *vulkan ' | grep -qi 'fix:.*driver'; then
  echo "ok 3 - the reason comes with a Fix naming a driver"; else
  echo "not ok 3 - no Fix"; echo "$out" | sed 's/^/# /'; fi
