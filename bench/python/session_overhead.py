#!/usr/bin/env python3
"""session_overhead.py [--runs N] [--size N] - what one Session.run costs
from Python for a one-node ONNX model (Relu over a float32 [1, SIZE]
input), against onnxruntime.InferenceSession.run on the same file in the
same process when onnxruntime is importable. Both are timed in
alternating blocks so machine noise hits both alike; medians of the
blocks' per-run times are printed.

    PYTHONPATH=build/python /usr/bin/python3 bench/python/session_overhead.py
"""
import argparse
import os
import statistics
import sys
import tempfile
import time

import numpy as np
import onnx
from onnx import TensorProto, helper

import rlx


def one_node_model(path, size):
    g = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["y"])], "one-node",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, size])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, size])])
    # IR 10: what ONNX Runtime 1.30 and rlx both take (newer onnx writes 14)
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)],
                                ir_version=10),
              path)


def block(fn, runs):
    t0 = time.perf_counter()
    for _ in range(runs):
        fn()
    return (time.perf_counter() - t0) / runs * 1e6  # microseconds per run


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=2000, help="runs per block")
    ap.add_argument("--blocks", type=int, default=15)
    ap.add_argument("--size", type=int, default=16)
    ap.add_argument("--device", default="cpu")
    args = ap.parse_args()

    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "one.onnx")
        one_node_model(path, args.size)
        x = np.linspace(-1, 1, args.size, dtype=np.float32).reshape(1, -1)
        try:
            sess = rlx.Session(path, device=args.device)
        except rlx.UnsupportedError as e:
            # an rlx built without ONNX: the same Relu as an rlx YAML model
            print(f"({e.reason}: rlx runs the same Relu as a YAML model)")
            ypath = os.path.join(d, "one.yaml")
            with open(ypath, "w") as f:
                f.write("rlx_model: 1\nname: one-node\ninputs:\n"
                        f"  - {{name: x, dtype: f32, shape: [1, {args.size}]}}\n"
                        "nodes:\n  - {name: y, op: relu, inputs: [x]}\n"
                        "outputs:\n  - {name: y, value: y}\n")
            sess = rlx.Session(ypath, device=args.device)
        contenders = {"rlx": lambda: sess.run({"x": x})}
        try:
            import onnxruntime as ort
            opts = ort.SessionOptions()
            opts.intra_op_num_threads = 1
            ort_sess = ort.InferenceSession(path, opts,
                                            providers=["CPUExecutionProvider"])
            contenders["onnxruntime"] = lambda: ort_sess.run(None, {"x": x})
            np.testing.assert_array_equal(contenders["rlx"]()[0],
                                          contenders["onnxruntime"]()[0])
        except ImportError:
            print("onnxruntime is not importable: timing rlx alone",
                  file=sys.stderr)
        times = {k: [] for k in contenders}
        for fn in contenders.values():
            block(fn, args.runs // 10)  # warm up
        for _ in range(args.blocks):
            for k, fn in contenders.items():
                times[k].append(block(fn, args.runs))
        print(f"one Relu over float32[1, {args.size}], {sess.backend} on "
              f"{sess.device}; median of {args.blocks} blocks of "
              f"{args.runs} runs")
        med = {k: statistics.median(v) for k, v in times.items()}
        for k, v in med.items():
            print(f"  {k:12s} {v:8.2f} us per run")
        if "onnxruntime" in med:
            print(f"  rlx / onnxruntime: {med['rlx'] / med['onnxruntime']:.2f}")


if __name__ == "__main__":
    main()
