#!/usr/bin/python3
"""gpu-pjrt-ops.py - the ABI 1.4 ops on a real PJRT device, in few compiles.

`rlx conformance` compiles one program per case, and XLA takes seconds
per compile, so on a GPU lease it cannot cover the 1.4 ops quickly. This
builds three ONNX models (elementwise and reductions; spatial; indexing),
each holding many 1.4 ops as separate outputs, with inputs that carry
NaN, infinities, -0, halves and ties; runs each whole on the backend
under test (`--fallback none`) and on cpu-ref with the same inputs; and
compares every output: bool and integer outputs exactly, floats within
2e-5 relative plus 2e-5 of the output's largest magnitude, NaN matching
NaN. scripts/gpu-pjrt.sh runs it on pjrt-cuda.

  gpu-pjrt-ops.py --rlx build/tools/rlx --device pjrt-cuda --work DIR

TAP: one line per output; exit 1 when any differs or a run fails.
"""

import argparse
import os
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper

OPSET = 18
IR_VERSION = 8  # opset 18's


def const(name, arr):
    return h.make_node("Constant", [], [name],
                       value=numpy_helper.from_array(np.asarray(arr), name))


def elementwise_model():
    rng = np.random.default_rng(7)
    shape = [2, 3, 4, 5]
    x = (np.round(rng.uniform(-3, 3, shape) * 2) / 2).astype(np.float32)
    y = (np.round(rng.uniform(-3, 3, shape) * 2) / 2).astype(np.float32)
    x.flat[:6] = [np.nan, np.inf, -np.inf, -0.0, 0.5, -2.5]
    y.flat[:6] = [np.nan, 1.0, -np.inf, 0.0, 0.5, 1.5]
    u = rng.uniform(-0.99, 0.99, shape).astype(np.float32)  # inverse fns
    xi = rng.integers(-20, 20, shape).astype(np.int32)
    yi = rng.integers(-4, 5, shape).astype(np.int32)
    yi.flat[:3] = [0, -1, 3]
    xi.flat[:3] = [7, np.iinfo(np.int32).min, -7]
    n, outs = [], []

    def out(name, op, ins, dt=T.FLOAT, **attrs):
        n.append(h.make_node(op, ins, [name], **attrs))
        outs.append(h.make_tensor_value_info(name, dt, None))

    for op in ("Equal", "Less", "LessOrEqual", "Greater", "GreaterOrEqual"):
        out("cmp_" + op, op, ["x", "y"], T.BOOL)
    out("cmp_i32", "Less", ["xi", "yi"], T.BOOL)
    out("l_and", "And", ["cmp_Less", "cmp_Equal"], T.BOOL)
    out("l_xor", "Xor", ["cmp_Less", "cmp_Greater"], T.BOOL)
    out("l_not", "Not", ["cmp_Less"], T.BOOL)
    out("where", "Where", ["cmp_Less", "x", "y"])
    n.append(const("lo", np.float32(-0.5)))
    n.append(const("hi", np.float32(6.0)))
    out("clip", "Clip", ["x", "lo", "hi"])
    for op in ("Floor", "Ceil", "Round", "Sign", "Reciprocal", "Erf",
               "Softplus", "HardSwish", "Mish", "Sinh", "Cosh", "Asinh"):
        out("u_" + op, op, ["x"])
    out("isnan", "IsNaN", ["x"], T.BOOL)
    out("isinf", "IsInf", ["x"], T.BOOL, detect_negative=0)
    out("leaky", "LeakyRelu", ["x"], alpha=0.1)
    out("elu", "Elu", ["x"], alpha=0.7)
    out("selu", "Selu", ["x"])
    out("hsig", "HardSigmoid", ["x"], alpha=0.25, beta=0.4)
    for op in ("Asin", "Acos", "Atanh"):
        out("inv_" + op, op, ["u"])
    out("acosh", "Acosh", ["y"])
    n.append(const("slope", rng.uniform(-1, 1, [5]).astype(np.float32)))
    out("prelu", "PRelu", ["x", "slope"])
    out("fmod", "Mod", ["x", "y"], fmod=1)
    out("mod_i", "Mod", ["xi", "yi"], T.INT32)
    out("fmod_i", "Mod", ["xi", "yi"], T.INT32, fmod=1)
    out("div_i", "Div", ["xi", "yi"], T.INT32)
    out("abs_i", "Abs", ["xi"], T.INT32)
    out("band", "BitwiseAnd", ["xi", "yi"], T.INT32)
    out("bnot", "BitwiseNot", ["xi"], T.INT32)
    n.append(const("ax1", np.array([1], np.int64)))
    n.append(const("ax23", np.array([2, 3], np.int64)))
    for op in ("ReduceMin", "ReduceProd", "ReduceL1", "ReduceL2",
               "ReduceLogSumExp", "ReduceSumSquare"):
        out("r_" + op, op, ["u", "ax23"], keepdims=0)
    out("r_min_nan", "ReduceMin", ["x", "ax1"])
    out("r_prod_i", "ReduceProd", ["yi", "ax1"], T.INT32, keepdims=0)
    out("argmax", "ArgMax", ["x"], T.INT64, axis=3)
    out("argmin_last", "ArgMin", ["xi"], T.INT64, axis=1, keepdims=0,
        select_last_index=1)
    g = h.make_graph(n, "ew", [
        h.make_tensor_value_info("x", T.FLOAT, shape),
        h.make_tensor_value_info("y", T.FLOAT, shape),
        h.make_tensor_value_info("u", T.FLOAT, shape),
        h.make_tensor_value_info("xi", T.INT32, shape),
        h.make_tensor_value_info("yi", T.INT32, shape)], outs)
    return g, {"x": x, "y": y, "u": u, "xi": xi, "yi": yi}


def spatial_model():
    rng = np.random.default_rng(8)
    x = rng.uniform(-1, 1, [2, 4, 9, 9]).astype(np.float32)
    x1 = rng.uniform(-1, 1, [1, 4, 3, 3]).astype(np.float32)
    n, outs = [], []

    def out(name, op, ins, **attrs):
        n.append(h.make_node(op, ins, [name], **attrs))
        outs.append(h.make_tensor_value_info(name, T.FLOAT, None))

    def w(name, shape):
        n.append(const(name, rng.uniform(-0.5, 0.5, shape).astype(np.float32)))

    w("w1", [6, 2, 3, 3]); w("b1", [6])
    out("conv_g2", "Conv", ["x", "w1", "b1"], group=2, strides=[2, 2],
        pads=[1, 0, 2, 1], dilations=[1, 2])
    w("wd", [4, 1, 3, 3])
    out("conv_dw", "Conv", ["x", "wd"], group=4, pads=[1, 1, 1, 1])
    w("wt", [4, 3, 3, 3]); w("bt", [6])
    out("convt_g2", "ConvTranspose", ["x", "wt", "bt"], group=2,
        strides=[2, 2], pads=[1, 1, 0, 1], output_padding=[1, 0])
    w("wt1", [4, 2, 2, 3])
    out("convt", "ConvTranspose", ["x", "wt1"], strides=[3, 2],
        dilations=[2, 1])
    out("maxpool_ceil", "MaxPool", ["x"], kernel_shape=[3, 3],
        strides=[2, 2], pads=[1, 1, 1, 1], ceil_mode=1)
    out("avgpool_incl", "AveragePool", ["x"], kernel_shape=[3, 2],
        strides=[2, 2], pads=[1, 0, 1, 1], ceil_mode=1,
        count_include_pad=1)
    out("avgpool", "AveragePool", ["x"], kernel_shape=[2, 2],
        strides=[2, 2], pads=[1, 1, 0, 0])
    out("lppool", "LpPool", ["x"], kernel_shape=[2, 3], strides=[2, 2],
        p=3)
    out("gap", "GlobalAveragePool", ["x"])
    for name in ("sc", "bi", "mu"):
        w(name, [4])
    n.append(const("var", rng.uniform(0.5, 2, [4]).astype(np.float32)))
    out("bn", "BatchNormalization", ["x", "sc", "bi", "mu", "var"])
    out("inorm", "InstanceNormalization", ["x", "sc", "bi"])
    n.append(const("roi", np.array([], np.float32)))
    n.append(const("sc2", np.array([1, 1, 2, 2], np.float32)))
    n.append(const("sz", np.array([1, 4, 7, 5], np.int64)))
    out("rs_nearest", "Resize", ["x1", "roi", "sc2"], mode="nearest",
        coordinate_transformation_mode="asymmetric",
        nearest_mode="round_prefer_ceil")
    out("rs_linear", "Resize", ["x1", "roi", "", "sz"], mode="linear")
    out("rs_cubic", "Resize", ["x1", "roi", "", "sz"], mode="cubic",
        coordinate_transformation_mode="align_corners")
    g = h.make_graph(n, "spatial", [
        h.make_tensor_value_info("x", T.FLOAT, [2, 4, 9, 9]),
        h.make_tensor_value_info("x1", T.FLOAT, [1, 4, 3, 3])], outs)
    return g, {"x": x, "x1": x1}


def index_model():
    rng = np.random.default_rng(9)
    x = rng.uniform(-1, 1, [3, 4, 5]).astype(np.float32)
    xi = rng.integers(-3, 3, [3, 4, 5]).astype(np.int32)  # ties
    n, outs = [], []

    def out(name, op, ins, dt=T.FLOAT, **attrs):
        n.append(h.make_node(op, ins, [name], **attrs))
        outs.append(h.make_tensor_value_info(name, dt, None))

    n.append(const("pads", np.array([0, 7, -1, 1, 2, 3], np.int64)))
    out("pad_reflect", "Pad", ["x", "pads"], mode="reflect")
    out("pad_edge", "Pad", ["x", "pads"], mode="edge")
    n.append(const("pads_c", np.array([1, 0, 2, 0, 3, 1], np.int64)))
    n.append(const("pv", np.float32(-2.5)))
    out("pad_const", "Pad", ["x", "pads_c", "pv"])
    n.append(const("eshape", np.array([2, 3, 4, 5], np.int64)))
    out("expand", "Expand", ["x", "eshape"])
    n.append(const("reps", np.array([2, 1, 3], np.int64)))
    out("tile_i", "Tile", ["xi", "reps"], T.INT32)
    n.append(const("st", np.array([-1, 1], np.int64)))
    n.append(const("en", np.array([-(2**63), 5], np.int64)))
    n.append(const("axs", np.array([0, 2], np.int64)))
    n.append(const("stp", np.array([-1, 2], np.int64)))
    out("slice_rev", "Slice", ["x", "st", "en", "axs", "stp"])
    n.append(const("gi", rng.integers(-5, 5, [3, 4, 2]).astype(np.int64)))
    out("gather_el", "GatherElements", ["x", "gi"], axis=2)
    n.append(const("gnd", np.array([[[1], [3]], [[0], [-1]], [[2], [2]]],
                                   np.int64)))
    out("gather_nd", "GatherND", ["x", "gnd"], batch_dims=1)
    n.append(const("cax", np.array(1, np.int64)))
    out("cumsum", "CumSum", ["x", "cax"], exclusive=1, reverse=1)
    out("cumsum_i", "CumSum", ["xi", "cax"], T.INT32)
    n.append(const("oh_i", np.array([0, 3, -1, 7, -5], np.int64)))
    n.append(const("depth", np.array(5, np.int64)))
    n.append(const("ohv", np.array([-1.0, 2.0], np.float32)))
    out("one_hot", "OneHot", ["oh_i", "depth", "ohv"], axis=0)
    # duplicate targets: the last write wins, or they combine
    n.append(const("si", np.array([[0, 1, -1], [0, 1, 4]], np.int64)))
    n.append(const("su", rng.uniform(-1, 1, [2, 3]).astype(np.float32)))
    n.append(const("x2", rng.uniform(-1, 1, [3, 5]).astype(np.float32)))
    out("scatter_el", "ScatterElements", ["x2", "si", "su"], axis=1)
    out("scatter_el_add", "ScatterElements", ["x2", "si", "su"], axis=1,
        reduction="add")
    n.append(const("ni", np.array([[2], [0], [2]], np.int64)))
    n.append(const("nu", rng.uniform(-1, 1, [3, 4, 5]).astype(np.float32)))
    out("scatter_nd", "ScatterND", ["x", "ni", "nu"])
    out("scatter_nd_max", "ScatterND", ["x", "ni", "nu"], reduction="max")
    n.append(const("topk_k", np.array([3], np.int64)))
    n.append(h.make_node("TopK", ["x", "topk_k"], ["topk_v", "topk_i"],
                         axis=1, largest=1))
    outs.append(h.make_tensor_value_info("topk_v", T.FLOAT, None))
    outs.append(h.make_tensor_value_info("topk_i", T.INT64, None))
    n.append(h.make_node("TopK", ["xi", "topk_k"], ["topk_sv", "topk_si"],
                         axis=-1, largest=0))
    outs.append(h.make_tensor_value_info("topk_si", T.INT64, None))
    n.append(const("tk", np.array(1, np.int64)))
    out("trilu", "Trilu", ["x", "tk"], upper=0)
    g = h.make_graph(n, "index", [
        h.make_tensor_value_info("x", T.FLOAT, [3, 4, 5]),
        h.make_tensor_value_info("xi", T.INT32, [3, 4, 5])], outs)
    return g, {"x": x, "xi": xi}


def run(args, path, inputs, device, out_dir):
    os.makedirs(out_dir, exist_ok=True)
    cmd = [args.rlx, "run", path, "--device", device, "--fallback", "none",
           "--output", out_dir]
    for k in inputs:
        cmd += ["--input", f"{k}={os.path.join(args.work, k + '.' + os.path.basename(path) + '.npy')}"]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        lines = [ln for ln in p.stderr.splitlines() if not ln[:1] in "IW"]
        return "\n".join(lines[-6:]) or p.stderr[-800:]
    return None


def same(a, b):
    if a.dtype != b.dtype or a.shape != b.shape:
        return f"{a.dtype} {list(a.shape)} vs cpu-ref {b.dtype} {list(b.shape)}"
    if a.dtype.kind != "f":
        bad = a != b
    else:
        a64, b64 = a.astype(np.float64), b.astype(np.float64)
        fin = np.isfinite(b64)
        scale = float(np.abs(b64[fin]).max()) if fin.any() else 0.0
        with np.errstate(invalid="ignore"):
            bad = ~((np.isnan(a64) & np.isnan(b64)) | (a64 == b64) |
                    (np.abs(a64 - b64) <= 2e-5 * np.abs(b64) + 2e-5 * scale))
    if bad.any():
        i = int(np.argmax(bad.reshape(-1)))
        return (f"{int(bad.sum())} of {bad.size} differ, first at {i}: "
                f"{a.flat[i]!r} vs cpu-ref {b.flat[i]!r}")
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rlx", required=True)
    ap.add_argument("--device", default="pjrt-cuda")
    ap.add_argument("--work", required=True)
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    k = 0
    failed = False
    for make in (elementwise_model, spatial_model, index_model):
        g, inputs = make()
        model = h.make_model(g, opset_imports=[h.make_opsetid("", OPSET)])
        model.ir_version = IR_VERSION  # a newer onnx writes one rlx refuses
        path = os.path.join(args.work, g.name + ".onnx")
        onnx.save(model, path)
        for name, v in inputs.items():
            np.save(os.path.join(args.work, f"{name}.{g.name}.onnx.npy"), v)
        dirs = {}
        for dev in (args.device, "cpu-ref"):
            dirs[dev] = os.path.join(args.work, g.name + "-" + dev)
            err = run(args, path, inputs, dev, dirs[dev])
            if err:
                k += 1
                failed = True
                print(f"not ok {k} - {g.name} on {dev}: {err}", flush=True)
                break
        else:
            for o in g.output:
                k += 1
                f = o.name + ".npy"
                a = os.path.join(dirs[args.device], f)
                b = os.path.join(dirs["cpu-ref"], f)
                if not os.path.exists(a) or not os.path.exists(b):
                    print(f"not ok {k} - {g.name}/{o.name}: no output file")
                    failed = True
                    continue
                why = same(np.load(a), np.load(b))
                print(f"{'not ok' if why else 'ok'} {k} - {g.name}/{o.name} "
                      f"on {args.device}{': ' + why if why else ''}",
                      flush=True)
                failed |= why is not None
    print(f"1..{k}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
