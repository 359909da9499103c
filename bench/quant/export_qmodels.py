#!/usr/bin/python3
"""export_qmodels.py - an int8 QLinearConv model and its f32 twin for
bench/quant/run.sh, at batch 1 and 8.

The model has ResNet-18's convolutions (7x7 stem, max pool, four stages
of 3x3 convs, 64 to 512 channels, 224x224 input) without the residual
adds, which ONNX's default domain cannot express between QLinear ops,
then a float head (GlobalAveragePool, Gemm). The int8 file is what ONNX
Runtime's static quantizer makes of such a net in the operator form:
QuantizeLinear on the input, QLinearConv with u8 activations (the ReLU
folded into each output's range, zero point 0), s8 weights with one
scale per output channel, int32 biases, DequantizeLinear before the
head. The f32 file is the same net with the dequantized weights, Conv
and Relu. Random weights and calibration inputs from fixed seeds;
scales from the calibration run's ranges, so both files compute nearly
the same values. Writes DIR/qresnet18-{int8,f32}-bN.onnx,
DIR/qresnet18-bN.npy (a seeded input) and DIR/qmodels.txt (lines "name
int8.onnx f32.onnx input.npy"), each through a .part name.

    /usr/bin/python3 bench/quant/export_qmodels.py DIR
"""
import os
import sys

import numpy as np
import onnx
import torch
import torch.nn.functional as F
from onnx import TensorProto, helper, numpy_helper

# (in, out, kernel, stride, pad); "pool": max pool 3x3 stride 2 pad 1
LAYERS = [(3, 64, 7, 2, 3), "pool"]
LAYERS += [(64, 64, 3, 1, 1)] * 4
for cin, cout in ((64, 128), (128, 256), (256, 512)):
    LAYERS += [(cin, cout, 3, 2, 1)] + [(cout, cout, 3, 1, 1)] * 3
BATCHES = (1, 8)
OPSET = 13


def weights():
    rng = np.random.default_rng(0)
    convs = []
    for spec in LAYERS:
        if spec == "pool":
            continue
        cin, cout, k, _, _ = spec
        std = np.sqrt(2.0 / (cin * k * k))
        w = rng.normal(0.0, std, (cout, cin, k, k)).astype(np.float32)
        b = rng.normal(0.0, 0.05, cout).astype(np.float32)
        convs.append((w, b))
    fc_w = rng.normal(0.0, 0.05, (1000, 512)).astype(np.float32)
    fc_b = rng.normal(0.0, 0.01, 1000).astype(np.float32)
    return convs, fc_w, fc_b


def quantize_weights(convs, calib):
    """Per-channel symmetric s8 weights, int32 biases and the u8 scale of
    every activation, from a float run over CALIB."""
    x = torch.from_numpy(calib)
    scales = [1.0 / 255.0]  # the input is in [0, 1)
    q = []
    i = 0
    for spec in LAYERS:
        if spec == "pool":
            x = F.max_pool2d(x, 3, 2, 1)
            continue
        _, _, _, s, p = spec
        w, b = convs[i]
        i += 1
        ws = np.maximum(np.abs(w).reshape(w.shape[0], -1).max(1), 1e-8) / 127
        ws = ws.astype(np.float32)
        wq = np.clip(np.rint(w / ws[:, None, None, None]), -127, 127)
        wq = wq.astype(np.int8)
        bq = np.rint(b / (scales[-1] * ws)).astype(np.int32)
        # the float run uses the quantized weights, as the int8 net will
        wd = torch.from_numpy(wq.astype(np.float32) * ws[:, None, None, None])
        bd = torch.from_numpy(bq.astype(np.float32) * scales[-1] * ws)
        x = torch.relu(F.conv2d(x, wd, bd, s, p))
        scales.append(max(float(x.max()), 1e-6) / 255.0)
        q.append((wq, ws, bq, wd.numpy(), bd.numpy()))
    return q, scales


def model(q, scales, fc_w, fc_b, batch, int8):
    nodes, inits = [], []

    def init(name, arr):
        inits.append(numpy_helper.from_array(np.asarray(arr), name))
        return name

    init("fc_w", fc_w)
    init("fc_b", fc_b)
    cur = "x"
    if int8:
        init("s0", np.float32(scales[0]))
        init("z0", np.uint8(0))
        nodes.append(helper.make_node("QuantizeLinear", ["x", "s0", "z0"],
                                      ["q0"]))
        cur = "q0"
    i = 0
    for spec in LAYERS:
        if spec == "pool":
            nodes.append(helper.make_node("MaxPool", [cur], [cur + "_p"],
                                          kernel_shape=[3, 3],
                                          strides=[2, 2], pads=[1] * 4))
            cur += "_p"
            continue
        _, _, k, s, p = spec
        wq, ws, bq, wd, bd = q[i]
        attrs = dict(kernel_shape=[k, k], strides=[s, s], pads=[p] * 4)
        out = "c%d" % i
        if int8:
            ins = [cur, "s%d" % i, "z%d" % i,
                   init("w%d" % i, wq), init("ws%d" % i, ws),
                   init("wz%d" % i, np.zeros(len(ws), np.int8)),
                   init("s%d" % (i + 1), np.float32(scales[i + 1])),
                   init("z%d" % (i + 1), np.uint8(0)),
                   init("b%d" % i, bq)]
            nodes.append(helper.make_node("QLinearConv", ins, [out],
                                          **attrs))
        else:
            nodes.append(helper.make_node(
                "Conv", [cur, init("w%d" % i, wd), init("b%d" % i, bd)],
                [out + "_c"], **attrs))
            nodes.append(helper.make_node("Relu", [out + "_c"], [out]))
        cur = out
        i += 1
    if int8:
        n = len(q)
        nodes.append(helper.make_node("DequantizeLinear",
                                      [cur, "s%d" % n, "z%d" % n], ["dq"]))
        cur = "dq"
    nodes += [
        helper.make_node("GlobalAveragePool", [cur], ["gap"]),
        helper.make_node("Flatten", ["gap"], ["flat"]),
        helper.make_node("Gemm", ["flat", "fc_w", "fc_b"], ["y"], transB=1),
    ]
    graph = helper.make_graph(
        nodes, "qresnet18-%s" % ("int8" if int8 else "f32"),
        [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                       [batch, 3, 224, 224])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT,
                                       [batch, 1000])], inits)
    m = helper.make_model(graph,
                          opset_imports=[helper.make_opsetid("", OPSET)])
    m.ir_version = 8
    onnx.checker.check_model(m)
    return m


def save(obj, path):
    part = path + ".part"
    if path.endswith(".npy"):
        with open(part, "wb") as f:
            np.save(f, obj)
    else:
        onnx.save(obj, part)
    os.replace(part, path)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: export_qmodels.py DIR")
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(0)
    convs, fc_w, fc_b = weights()
    calib = np.random.default_rng(1).random((4, 3, 224, 224),
                                            dtype=np.float32)
    q, scales = quantize_weights(convs, calib)
    lines = []
    for b in BATCHES:
        name = "qresnet18-b%d" % b
        i8 = os.path.join(out, "qresnet18-int8-b%d.onnx" % b)
        f32 = os.path.join(out, "qresnet18-f32-b%d.onnx" % b)
        x = os.path.join(out, name + ".npy")
        save(model(q, scales, fc_w, fc_b, b, True), i8)
        save(model(q, scales, fc_w, fc_b, b, False), f32)
        save(np.random.default_rng(2 + b).random((b, 3, 224, 224),
                                                 dtype=np.float32), x)
        lines.append("%s %s %s %s\n" % (name, i8, f32, x))
    with open(os.path.join(out, "qmodels.txt.part"), "w") as f:
        f.writelines(lines)
    os.replace(os.path.join(out, "qmodels.txt.part"),
               os.path.join(out, "qmodels.txt"))


if __name__ == "__main__":
    main()
