#!/usr/bin/python3
"""torchvision_models.py - torchvision architectures, exported by torch, run by rlx.

Exports resnet18, mobilenet_v3_small, squeezenet1_1 and efficientnet_b0
with random weights from a fixed seed (weights=None: nothing downloaded;
batch norm statistics measured on random batches, see calibrate())
through Debian's python3-torch and python3-torchvision, with torch's own
output for a fixed input, into a cache folder (the build dir), once per
torch version. Then runs each with `rlx run` on each backend and compares
rlx's output with torch's (f32, 1e-4 relative, with an absolute floor of
1e-4 of the output's largest magnitude for the logits near zero).

  torchvision_models.py --cache DIR [--export-only]
      [--rlx build/tools/rlx --device cpu-ref --device cpu-openblas=PLUGINDIR ...]
      [--min-pass N] [--timeout S]

TAP: one `ok` per model and backend that matches; a failure is a comment
(counted against --min-pass), a crash or a hang a `not ok`.
"""

import argparse
import inspect
import json
import os
import signal
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import onnx_compare  # noqa: E402
import onnx_suite  # noqa: E402

MODELS = ("resnet18", "mobilenet_v3_small", "squeezenet1_1", "efficientnet_b0")
OPSET = 17  # the newest torch 1.13 exports
SEED = 20261127
STAMP_VERSION = 2  # bump when the export below changes


def calibrate(torch, model):
    """Set every batch norm's running statistics from random batches.

    Fresh from their initialisers, mobilenet_v3_small's logits are ~1e-9
    and efficientnet_b0's ~1e-14: the activations fade layer by layer, and
    ops such as hardswish and SiLU would only ever see inputs near zero.
    Statistics measured on data keep each layer's output near unit scale,
    so every op is exercised over its whole range."""
    bns = [m for m in model.modules()
           if isinstance(m, torch.nn.modules.batchnorm._BatchNorm)]
    for bn in bns:
        bn.reset_running_stats()
        bn.momentum = None  # a plain average over the batches below
    model.train()
    gen = torch.Generator().manual_seed(SEED + 2)
    with torch.no_grad():
        for _ in range(2):
            model(torch.randn(8, 3, 224, 224, generator=gen))
    model.eval()


def export(cache):
    """Export every model into CACHE unless its stamp says it is current."""
    import torch
    import torchvision

    stamp_path = os.path.join(cache, "torchvision.stamp")
    want = {"torch": torch.__version__, "torchvision": torchvision.__version__,
            "opset": OPSET, "seed": SEED, "version": STAMP_VERSION}
    try:
        with open(stamp_path, encoding="utf-8") as f:
            if json.load(f) == want and all(
                    os.path.exists(os.path.join(cache, f"{m}.onnx"))
                    for m in MODELS):
                return
    except (OSError, ValueError):
        pass
    os.makedirs(cache, exist_ok=True)
    torch.set_num_threads(max(1, os.cpu_count() or 1))
    # newer torch exports through dynamo by default: keep the TorchScript
    # exporter that Debian's torch 1.13 has (the same graphs everywhere)
    kw = {}
    if "dynamo" in inspect.signature(torch.onnx.export).parameters:
        kw["dynamo"] = False
    for name in MODELS:
        torch.manual_seed(SEED)
        model = getattr(torchvision.models, name)(weights=None)
        calibrate(torch, model)
        gen = torch.Generator().manual_seed(SEED + 1)
        x = torch.randn(1, 3, 224, 224, generator=gen)
        with torch.no_grad():
            y = model(x)
        torch.onnx.export(model, x, os.path.join(cache, f"{name}.onnx"),
                          opset_version=OPSET, input_names=["input"],
                          output_names=["logits"], do_constant_folding=True,
                          **kw)
        np.save(os.path.join(cache, f"{name}.input.npy"), x.numpy(),
                allow_pickle=False)
        np.save(os.path.join(cache, f"{name}.expected.npy"), y.numpy(),
                allow_pickle=False)
    with open(stamp_path, "w", encoding="utf-8") as f:
        json.dump(want, f)


def run_one(args, name, device, plugin_dir, out_dir):
    """(outcome, reason): 'pass', 'fail', 'crash' or 'hang'."""
    cache = args.cache
    os.makedirs(out_dir, exist_ok=True)
    cmd = [args.rlx, "run", os.path.join(cache, f"{name}.onnx"), "--device",
           device, "--input", f"input={os.path.join(cache, name + '.input.npy')}",
           "--fallback", "none", "--output", out_dir]  # the whole model there
    env = dict(os.environ, RLX_PLUGIN_PATH=plugin_dir)
    done = onnx_suite.run_child(cmd, env, args.timeout)
    if done is None:
        return "hang", f"no result in {args.timeout:g} s"
    rc, stderr = done
    err = onnx_suite.first_error(stderr)
    if rc < 0:
        return "crash", f"killed by {signal.Signals(-rc).name}: {err}"
    if onnx_suite.SANITIZER.search(stderr) or rc > 128:
        return "crash", err
    if rc != 0:
        return "fail", err
    path = os.path.join(out_dir, onnx_compare.npy_name("logits"))
    if not os.path.exists(path):
        return "fail", "rlx wrote no logits.npy"
    got = np.load(path, allow_pickle=False)
    want = np.load(os.path.join(cache, f"{name}.expected.npy"), allow_pickle=False)
    if got.dtype != want.dtype or got.shape != want.shape:
        return "fail", (f"{got.dtype} {list(got.shape)}, expected "
                        f"{want.dtype} {list(want.shape)}")
    atol = 1e-4 * float(np.abs(want).max())
    diff = np.abs(got.astype(np.float64) - want)
    ok = diff <= atol + 1e-4 * np.abs(want)
    if not ok.all():
        i = int(np.argmax(~ok.reshape(-1)))
        return "fail", (f"{int((~ok).sum())} of {want.size} logits differ, "
                        f"first at {i}: {got.flat[i]!r}, expected {want.flat[i]!r}; "
                        f"largest difference {diff.max():.3g}")
    return "pass", ""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cache", required=True, help="where the exports live")
    ap.add_argument("--export-only", action="store_true")
    ap.add_argument("--rlx")
    ap.add_argument("--device", action="append", default=[],
                    help="BACKEND or BACKEND=PLUGINDIR; repeatable")
    ap.add_argument("--min-pass", type=int, default=0,
                    help="how many model x backend runs must match")
    ap.add_argument("--timeout", type=float, default=300.0)
    args = ap.parse_args()
    try:
        export(args.cache)
    except ImportError as e:
        print(f"not ok 1 - torchvision export: {e}. Fix: apt-get install "
              "python3-torch python3-torchvision (scripts/setup-debian.sh)")
        print("1..1")
        return 1
    if args.export_only:
        return 0
    if not args.rlx or not args.device:
        ap.error("--rlx and at least one --device are needed")
    n = passed = 0
    bad = False
    for spec in args.device:
        device, _, plugin_dir = spec.partition("=")
        for name in MODELS:
            outcome, why = run_one(args, name, device, plugin_dir,
                                   os.path.join(args.cache, "out", device, name))
            what = f"{name} on {device}"
            if outcome == "pass":
                n += 1
                passed += 1
                print(f"ok {n} - {what} matches torch", flush=True)
            elif outcome == "fail":
                print(f"# FAIL {what}: {why}", flush=True)
            else:
                n += 1
                bad = True
                print(f"not ok {n} - {what} {'crashed' if outcome == 'crash' else 'hung'}: {why}",
                      flush=True)
    total = len(MODELS) * len(args.device)
    n += 1
    enough = passed >= args.min_pass
    print(f"{'ok' if enough else 'not ok'} {n} - {passed} of {total} model x "
          f"backend runs match torch, threshold {args.min_pass}")
    print(f"1..{n}")
    return 1 if bad or not enough else 0


if __name__ == "__main__":
    sys.exit(main())
