#!/usr/bin/python3
"""torch_rnn_models.py - recurrent models exported by torch, run by rlx.

Exports three small models with random weights from a fixed seed through
Debian's python3-torch: a 2-layer bidirectional LSTM (sequence-major), a
2-layer bidirectional GRU (batch_first, so the export transposes) and a
2-layer bidirectional ReLU RNN, each followed by a Linear head, with
batch and sequence length as symbolic dims, and torch's own outputs (the
head's output and the final hidden state) for a batch of 2 sequences of
5 steps, into a cache folder (the build dir), once per torch version.
Then runs each with `rlx run` on each backend and compares every output
with torch's (f32, 1e-4 relative, with an absolute floor of 1e-4 of the
output's largest magnitude).

  torch_rnn_models.py --cache DIR [--export-only]
      [--rlx build/tools/rlx --device cpu-ref --device cpu-openblas=PLUGINDIR ...]
      [--min-pass N] [--timeout S]

TAP: one `ok` per model and backend that matches; a failure is a comment
(counted against --min-pass), a crash or a hang a `not ok`.
"""

import argparse
import json
import os
import signal
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import onnx_compare  # noqa: E402
import onnx_suite  # noqa: E402

# name: (torch module, batch_first, extra constructor arguments)
MODELS = {
    "lstm": ("LSTM", False, {}),
    "gru_batch_first": ("GRU", True, {}),
    "rnn_relu": ("RNN", False, {"nonlinearity": "relu"}),
}
OUTPUTS = ("output", "h_n")
OPSET = 14  # layout exists from 14; torch exports layout 0 and transposes
SEED = 20261127
STAMP_VERSION = 1  # bump when the export below changes
BATCH, SEQ, FEATURES, HIDDEN = 2, 5, 8, 16


def export(cache):
    """Export every model into CACHE unless its stamp says it is current."""
    import torch

    stamp_path = os.path.join(cache, "torch_rnn.stamp")
    want = {"torch": torch.__version__, "opset": OPSET, "seed": SEED,
            "version": STAMP_VERSION}
    try:
        with open(stamp_path, encoding="utf-8") as f:
            if json.load(f) == want and all(
                    os.path.exists(os.path.join(cache, f"{m}.onnx"))
                    for m in MODELS):
                return
    except (OSError, ValueError):
        pass
    os.makedirs(cache, exist_ok=True)

    class Model(torch.nn.Module):
        def __init__(self, cell, batch_first, extra):
            super().__init__()
            self.rnn = getattr(torch.nn, cell)(
                FEATURES, HIDDEN, num_layers=2, bidirectional=True,
                batch_first=batch_first, **extra)
            self.head = torch.nn.Linear(2 * HIDDEN, 4)

        def forward(self, x):
            y, h = self.rnn(x)
            return self.head(y), h[0] if isinstance(h, tuple) else h

    for name, (cell, batch_first, extra) in MODELS.items():
        torch.manual_seed(SEED)
        model = Model(cell, batch_first, extra).eval()
        gen = torch.Generator().manual_seed(SEED + 1)
        shape = (BATCH, SEQ, FEATURES) if batch_first else (SEQ, BATCH,
                                                            FEATURES)
        x = torch.randn(*shape, generator=gen)
        with torch.no_grad():
            y, h = model(x)
        axes = {0: "batch", 1: "seq"} if batch_first else {0: "seq",
                                                           1: "batch"}
        torch.onnx.export(model, x, os.path.join(cache, f"{name}.onnx"),
                          opset_version=OPSET, input_names=["input"],
                          output_names=list(OUTPUTS),
                          dynamic_axes={"input": axes})
        np.save(os.path.join(cache, f"{name}.input.npy"), x.numpy(),
                allow_pickle=False)
        for out, v in zip(OUTPUTS, (y, h)):
            np.save(os.path.join(cache, f"{name}.{out}.npy"), v.numpy(),
                    allow_pickle=False)
    with open(stamp_path, "w", encoding="utf-8") as f:
        json.dump(want, f)


def run_one(args, name, device, plugin_dir, out_dir):
    """(outcome, reason): 'pass', 'fail', 'crash' or 'hang'."""
    cache = args.cache
    os.makedirs(out_dir, exist_ok=True)
    cmd = [args.rlx, "run", os.path.join(cache, f"{name}.onnx"), "--device",
           device, "--input",
           f"input={os.path.join(cache, name + '.input.npy')}",
           "--fallback", "none", "--output", out_dir]
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
    for out in OUTPUTS:
        path = os.path.join(out_dir, onnx_compare.npy_name(out))
        if not os.path.exists(path):
            return "fail", f"rlx wrote no {out}.npy"
        got = np.load(path, allow_pickle=False)
        want = np.load(os.path.join(cache, f"{name}.{out}.npy"),
                       allow_pickle=False)
        if got.dtype != want.dtype or got.shape != want.shape:
            return "fail", (f"{out}: {got.dtype} {list(got.shape)}, "
                            f"expected {want.dtype} {list(want.shape)}")
        atol = 1e-4 * float(np.abs(want).max())
        diff = np.abs(got.astype(np.float64) - want)
        ok = diff <= atol + 1e-4 * np.abs(want)
        if not ok.all():
            i = int(np.argmax(~ok.reshape(-1)))
            return "fail", (f"{out}: {int((~ok).sum())} of {want.size} "
                            f"elements differ, first at {i}: "
                            f"{got.flat[i]!r}, expected {want.flat[i]!r}")
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
    ap.add_argument("--timeout", type=float, default=120.0)
    args = ap.parse_args()
    try:
        export(args.cache)
    except ImportError as e:
        print(f"not ok 1 - torch export: {e}. Fix: apt-get install "
              "python3-torch (scripts/setup-debian.sh)")
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
                                   os.path.join(args.cache, "out", device,
                                                name))
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
                print(f"not ok {n} - {what} "
                      f"{'crashed' if outcome == 'crash' else 'hung'}: {why}",
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
