#!/usr/bin/env python3
"""ncu-durations.py - each kernel's duration from Nsight Compute's CSV
(ncu --metrics gpu__time_duration.sum --csv), one line per kernel in
launch order, then their count: used by gpu-profile.sh and
gpu-block-compare.sh.

    python3 scripts/ncu-durations.py kernels.csv
"""
import csv
import sys

rows = []
with open(sys.argv[1]) as f:
    lines = [line for line in f if line.startswith('"')]
for r in csv.DictReader(lines):
    if r.get("Metric Name") != "gpu__time_duration.sum":
        continue
    v = float(r["Metric Value"].replace(",", ""))
    unit = r.get("Metric Unit", "")
    us = (v / 1e3 if unit in ("nsecond", "ns")
          else v if unit in ("usecond", "us") else v * 1e3)
    rows.append((r["Kernel Name"][:90], us))
for name, us in rows:
    print(f"{us:9.2f} us  {name}")
print(f"{len(rows)} kernels")
