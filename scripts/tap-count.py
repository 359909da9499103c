#!/usr/bin/env python3
"""tap-count.py TESTLOG.json... - count TAP cases across meson test logs.

Prints one line per suite, then "N passed, N failed". A test that failed
without printing any TAP line (a crash before its plan) counts as one
failure, a test that printed none and passed (an exit-code test) as one
pass, and so does a build that failed (passed as "DIR:build-failed").
Exits 1 when anything failed.
"""
import json
import sys

passed = failed = 0
for path in sys.argv[1:]:
    if path.endswith(":build-failed"):
        print(f"{path.split(':')[0]}: build failed")
        failed += 1
        continue
    p = f = 0
    with open(path, encoding="utf-8") as log:
        for line in log:
            test = json.loads(line)
            out = test.get("stdout") or ""
            ok = sum(1 for l in out.splitlines() if l.startswith("ok "))
            bad = sum(1 for l in out.splitlines() if l.startswith("not ok "))
            if ok + bad == 0 and test.get("result") == "OK":
                ok = 1  # a plain exit-code test (an example program) passed
            elif ok + bad == 0 or (test.get("result") != "OK" and bad == 0):
                bad += 1
            p += ok
            f += bad
    print(f"{path.split('/')[0]}: {p} passed, {f} failed")
    passed += p
    failed += f
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
