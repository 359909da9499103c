#!/bin/bash
# run.sh - the start-up tax of installed GPU plugins: wall time (and the
# process's CPU time) of `rlx run` on the example MLP (automatic device
# choice) with only the CPU plugin on the plugin path, against the CPU,
# CUDA and Vulkan plugins together, with warm caches (plugin registry and
# probe cache: the steady state), cold caches (a fresh cache directory
# every time: the scanner runs and every backend is probed live), and the
# probe cache off; plus every plugin built in BUILDDIR, warm. Alternates
# the configurations N times (default 21) and prints medians. Build with
# -Dcuda=enabled -Dvulkan=enabled (CUDA builds without a GPU).
#
#   bash bench/startup/run.sh [BUILDDIR] [N]
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${1:-build}
N=${2:-21}
RLX=$BUILD/tools/rlx
MODEL=$BUILD/examples/mlp/mlp.yaml
for f in "$RLX" "$MODEL"; do
    [ -e "$f" ] || { echo "run.sh: $f is missing. Fix: build $BUILD first" >&2; exit 1; }
done
cpu=$BUILD/plugins/cpu-openblas
gpus=$cpu
for p in cuda vulkan; do
    if ls "$BUILD/plugins/$p/"librlx-backend-*.so >/dev/null 2>&1; then
        gpus="$gpus:$BUILD/plugins/$p"
    else
        echo "run.sh: no $p plugin in $BUILD. Fix: meson configure $BUILD -D$p=enabled" >&2
        exit 1
    fi
done
all=""
for d in "$BUILD"/plugins/*/; do
    ls "$d"librlx-backend-*.so >/dev/null 2>&1 && all="$all${all:+:}${d%/}"
done
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "plugins: cpu-only=$cpu; gpus=$gpus; all=$all"
"${PYTHON:-/usr/bin/python3}" - "$RLX" "$MODEL" "$N" "$WORK" "$cpu" "$gpus" "$all" <<'PY'
import os, shutil, statistics, sys, time
rlx, model, n, work, cpu, gpus, allp = sys.argv[1:8]
n = int(n)
warm, cold = os.path.join(work, "warm"), os.path.join(work, "cold")
configs = [  # label, plugin path, cache dir (None: fresh), probe cache on
    ("cpu-only", cpu, warm, True),
    ("cpu+cuda+vulkan, warm", gpus, warm, True),
    ("cpu-only", cpu, warm, True),
    ("cpu+cuda+vulkan, cold", gpus, None, True),
    ("cpu-only", cpu, warm, True),
    ("cpu+cuda+vulkan, probe cache off", gpus, warm, False),
    ("cpu-only", cpu, warm, True),
    ("every plugin built, warm", allp, warm, True),
]
null = os.open(os.devnull, os.O_WRONLY)
def once(path, cache, probe_cache):
    env = dict(os.environ, RLX_PLUGIN_PATH=path)
    env.pop("RLX_DEVICE", None)
    if cache is None:
        shutil.rmtree(cold, ignore_errors=True)
        cache = cold
    env["XDG_CACHE_HOME"] = cache
    if probe_cache:
        env.pop("RLX_PROBE_CACHE", None)
    else:
        env["RLX_PROBE_CACHE"] = "0"
    t0 = time.perf_counter()
    pid = os.posix_spawn(rlx, [rlx, "run", model], env,
                         file_actions=[(os.POSIX_SPAWN_DUP2, null, 1)])
    _, status, ru = os.wait4(pid, 0)
    wall = time.perf_counter() - t0
    if status != 0:
        sys.exit(f"run.sh: rlx run failed ({status}) with {path}")
    return wall * 1e3, (ru.ru_utime + ru.ru_stime) * 1e3
for label, path, cache, pc in configs:  # fill the warm caches
    once(path, cache, pc)
rows = {}
for _ in range(n):
    for label, path, cache, pc in configs:
        rows.setdefault(label, []).append(once(path, cache, pc))
base = [statistics.median(x[i] for x in rows["cpu-only"]) for i in (0, 1)]
print(f"{n} rounds, alternating; cpu-only ran between every other configuration")
print("| configuration | median wall ms | vs CPU plugin only | median CPU ms | vs CPU plugin only |")
print("|---|---|---|---|---|")
for label in dict.fromkeys(c[0] for c in configs):
    w = statistics.median(x[0] for x in rows[label])
    c = statistics.median(x[1] for x in rows[label])
    print(f"| {label} | {w:.1f} | {w / base[0]:.2f}x | {c:.1f} | {c / base[1]:.2f}x |")
PY
