#!/usr/bin/env python3
"""gen-vision-cases.py - turn the ONNX backend node tests of the vision
ops (conv, conv_transpose, pools, resize, batch/instance norm), as
shipped with the onnx Python package, into a text fixture that
test-ops-onnx-vision.c runs on cpu-ref: ONNX's own inputs and expected
outputs, an expectation computed outside rlx.

Each case is lowered the way the ONNX importer lowers these nodes onto
rlx's op attributes (rlx/ops.h): auto_pad and output_shape resolved to
explicit pads, resize scales/sizes resolved to the output shape.

usage: gen-vision-cases.py OUTFILE
"""
import math
import os
import sys

import numpy as np
import onnx
from onnx import numpy_helper

OPS = {"conv": 80, "conv_transpose": 81, "max_pool": 82, "avg_pool": 83,
       "lp_pool": 84, "resize": 85, "batch_norm": 86, "instance_norm": 87}
DTYPE = {np.dtype("float32"): 1, np.dtype("uint8"): 6, np.dtype("int8"): 9}
COORD = ["half_pixel", "half_pixel_symmetric", "pytorch_half_pixel",
         "align_corners", "asymmetric", "tf_crop_and_resize"]
NEAREST = ["round_prefer_floor", "round_prefer_ceil", "floor", "ceil"]
MODES = ["nearest", "linear", "cubic"]


def attrs_of(node):
    out = {}
    for a in node.attribute:
        out[a.name] = onnx.helper.get_attribute_value(a)
        if isinstance(out[a.name], bytes):
            out[a.name] = out[a.name].decode()
    return out


def same_pads(auto_pad, ins, k, st, dil):
    pb, pe = [], []
    for i, n in enumerate(ins):
        out = -(-n // st[i])
        ext = (k[i] - 1) * dil[i] + 1
        total = max(0, (out - 1) * st[i] + ext - n)
        small, big = total // 2, total - total // 2
        pb.append(small if auto_pad == "SAME_UPPER" else big)
        pe.append(big if auto_pad == "SAME_UPPER" else small)
    return pb, pe


def window(a, x, kernel):
    s = x.ndim - 2
    st = list(a.get("strides", [1] * s))
    dil = list(a.get("dilations", [1] * s))
    pads = list(a.get("pads", [0] * (2 * s)))
    pb, pe = pads[:s], pads[s:]
    ap = a.get("auto_pad", "NOTSET")
    if ap in ("SAME_UPPER", "SAME_LOWER"):
        pb, pe = same_pads(ap, x.shape[2:], kernel, st, dil)
    return st, dil, pb, pe


def lower(op, a, ins):
    """(rlx op name, int attrs, float attrs, rlx inputs) or None."""
    x = ins[0]
    s = x.ndim - 2
    if op == "Conv":
        k = list(ins[1].shape[2:])
        st, dil, pb, pe = window(a, x, k)
        return ("conv", [a.get("group", 1)] + st + dil + pb + pe, [], ins)
    if op == "ConvTranspose":
        k = list(ins[1].shape[2:])
        st = list(a.get("strides", [1] * s))
        dil = list(a.get("dilations", [1] * s))
        op_ = list(a.get("output_padding", [0] * s))
        pads = list(a.get("pads", [0] * (2 * s)))
        pb, pe = pads[:s], pads[s:]
        ap = a.get("auto_pad", "NOTSET")
        want = a.get("output_shape")
        if ap in ("SAME_UPPER", "SAME_LOWER") and want is None:
            want = [x.shape[2 + i] * st[i] for i in range(s)]
        if want is not None:
            want = list(want)[-s:]
            pb, pe = [], []
            for i in range(s):
                total = (st[i] * (x.shape[2 + i] - 1) + op_[i] +
                         (k[i] - 1) * dil[i] + 1 - want[i])
                if total < 0:  # a longer output: output_padding
                    op_[i] -= total
                    total = 0
                small, big = total // 2, total - total // 2
                upper = ap != "SAME_LOWER"
                pb.append(small if upper else big)
                pe.append(big if upper else small)
        return ("conv_transpose",
                [a.get("group", 1)] + st + dil + pb + pe + op_, [], ins)
    if op in ("MaxPool", "AveragePool", "LpPool"):
        k = list(a["kernel_shape"])
        st, dil, pb, pe = window(a, x, k)
        name = {"MaxPool": "max_pool", "AveragePool": "avg_pool",
                "LpPool": "lp_pool"}[op]
        head = [a.get("ceil_mode", 0), a.get("count_include_pad", 0),
                a.get("p", 2)]
        return (name, head + k + st + dil + pb + pe, [], [x])
    if op == "Resize":
        roi = ins[1] if len(ins) > 1 and ins[1] is not None else None
        scales = ins[2] if len(ins) > 2 and ins[2] is not None else None
        sizes = ins[3] if len(ins) > 3 and ins[3] is not None else None
        if scales is not None and scales.size == 0:
            scales = None
        if roi is not None and roi.size == 0:
            roi = None
        if sizes is not None:
            out = [int(v) for v in sizes]
            sc = [o / i for o, i in zip(out, x.shape)]
        else:
            sc = [float(v) for v in scales]
            out = [int(math.floor(i * f)) for i, f in zip(x.shape, sc)]
        coord = a.get("coordinate_transformation_mode", "half_pixel")
        if coord == "tf_half_pixel_for_nn":
            return None  # removed from ONNX (opset 13+ does not have it)
        ints = [MODES.index(a.get("mode", "nearest")), COORD.index(coord),
                NEAREST.index(a.get("nearest_mode", "round_prefer_floor")),
                a.get("exclude_outside", 0)] + out
        fl = [a.get("cubic_coeff_a", -0.75),
              a.get("extrapolation_value", 0.0)] + sc
        if roi is not None:
            fl += [float(v) for v in roi]
        return ("resize", ints, fl, [x])
    if op == "BatchNormalization":
        if a.get("training_mode", 0):
            return None
        return ("batch_norm", [], [a.get("epsilon", 1e-5)], ins[:5])
    if op == "InstanceNormalization":
        return ("instance_norm", [], [a.get("epsilon", 1e-5)], ins[:3])
    return None


def load(path):
    t = onnx.TensorProto()
    with open(path, "rb") as f:
        t.ParseFromString(f.read())
    return numpy_helper.to_array(t)


def tensor_line(kind, arr):
    vals = " ".join(repr(float(v)) if arr.dtype.kind == "f" else str(int(v))
                    for v in arr.reshape(-1))
    dims = " ".join(str(d) for d in arr.shape)
    return "%s %d %d %s %d %s\n" % (kind, DTYPE[arr.dtype], arr.ndim, dims,
                                    arr.size, vals)


def main():
    root = os.path.join(os.path.dirname(onnx.__file__), "backend", "test",
                        "data", "node")
    prefixes = ("test_conv", "test_basic_conv", "test_convtranspose",
                "test_maxpool", "test_averagepool", "test_lppool",
                "test_resize", "test_batchnorm", "test_instancenorm")
    lines, n = [], 0
    for name in sorted(os.listdir(root)):
        if not name.startswith(prefixes) or "convinteger" in name:
            continue
        model = onnx.load(os.path.join(root, name, "model.onnx"))
        node = model.graph.node[0]
        if len(model.graph.node) != 1 or len(node.output) != 1:
            continue
        data = os.path.join(root, name, "test_data_set_0")
        ins = {}
        for i, gi in enumerate(model.graph.input):
            ins[gi.name] = load(os.path.join(data, "input_%d.pb" % i))
        args = [ins.get(nm) if nm else None for nm in node.input]
        low = lower(node.op_type, attrs_of(node), args)
        if low is None:
            continue
        op, ints, floats, rins = low
        if any(t.dtype not in DTYPE for t in rins):
            continue
        want = load(os.path.join(data, "output_0.pb"))
        lines.append("case %s %d\n" % (name, OPS[op]))
        lines.append("ints %d %s\n" % (len(ints),
                                       " ".join(str(int(v)) for v in ints)))
        lines.append("floats %d %s\n" % (len(floats), " ".join(
            repr(float(v)) for v in floats)))
        for t in rins:
            lines.append(tensor_line("input", t))
        lines.append(tensor_line("output", want))
        n += 1
    with open(sys.argv[1], "w") as f:
        f.write("cases %d\n" % n)
        f.writelines(lines)


if __name__ == "__main__":
    main()
