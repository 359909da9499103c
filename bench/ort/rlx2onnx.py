#!/usr/bin/env python3
"""rlx2onnx.py - write an rlx YAML model (docs/model-format.md) with its
safetensors weights as an ONNX model, so ONNX Runtime runs the very same
graph with the very same weights.

    python3 rlx2onnx.py MODEL.yaml OUT.onnx

Covers the ops rlx's example and benchmark models use: matmul (with
transpose_a/transpose_b), add, sub, mul, div, relu, gelu (erf), tanh,
exp, softmax (with causal), layer_norm, reshape, transpose. Needs
Debian's python3-onnx, python3-yaml and python3-numpy. Opset 17
(LayerNormalization); ONNX Runtime fuses erf-gelu and the attention
pattern itself.
"""
import json
import os
import struct
import sys

import numpy as np
import onnx
import yaml
from onnx import TensorProto, helper, numpy_helper

DTYPES = {"f32": (np.float32, TensorProto.FLOAT)}


def read_safetensors(path):
    with open(path, "rb") as f:
        n = struct.unpack("<Q", f.read(8))[0]
        header = json.loads(f.read(n))
        data = f.read()
    out = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        if info["dtype"] != "F32":
            raise SystemExit(f"{name}: only F32 weights are converted")
        a, b = info["data_offsets"]
        out[name] = np.frombuffer(data[a:b], dtype="<f4").reshape(info["shape"])
    return out


class Onnx:
    def __init__(self):
        self.nodes, self.inits, self.count = [], [], 0

    def tmp(self, base):
        self.count += 1
        return f"{base}__{self.count}"

    def const(self, base, array):
        name = self.tmp(base)
        self.inits.append(numpy_helper.from_array(np.asarray(array), name))
        return name

    def op(self, kind, inputs, output, **attrs):
        self.nodes.append(helper.make_node(kind, inputs, [output], **attrs))
        return output


def convert(model_path, out_path):
    with open(model_path) as f:
        m = yaml.safe_load(f)
    base = os.path.dirname(os.path.abspath(model_path))
    weights = read_safetensors(os.path.join(base, m["weights"])) \
        if m.get("weights") else {}
    g = Onnx()
    shapes = {}
    inputs = []
    for i in m.get("inputs", []):
        inputs.append(helper.make_tensor_value_info(
            i["name"], DTYPES[i["dtype"]][1], i["shape"]))
        shapes[i["name"]] = list(i["shape"])
    for p in m.get("params", []):
        g.inits.append(numpy_helper.from_array(
            np.ascontiguousarray(weights[p["name"]]), p["name"]))
        shapes[p["name"]] = list(p["shape"])
    for c in m.get("constants", []):
        v = np.full(c["shape"], c["value"], dtype=DTYPES[c["dtype"]][0])
        g.inits.append(numpy_helper.from_array(v, c["name"]))
        shapes[c["name"]] = list(c["shape"])
    for n in m["nodes"]:
        name, op, ins = n["name"], n["op"], n["inputs"]
        attrs = n.get("attrs", {}) or {}
        if op == "matmul":
            a, b = ins
            if attrs.get("transpose_a"):
                r = len(shapes[a])
                a = g.op("Transpose", [a], g.tmp(name),
                         perm=list(range(r - 2)) + [r - 1, r - 2])
            if attrs.get("transpose_b"):
                r = len(shapes[b])
                b = g.op("Transpose", [b], g.tmp(name),
                         perm=list(range(r - 2)) + [r - 1, r - 2])
            g.op("MatMul", [a, b], name)
        elif op in ("add", "sub", "mul", "div"):
            g.op(op.capitalize(), ins, name)
        elif op in ("relu", "tanh", "exp"):
            g.op({"relu": "Relu", "tanh": "Tanh", "exp": "Exp"}[op], ins, name)
        elif op == "gelu":
            if attrs.get("approximate", "erf") != "erf":
                raise SystemExit(f"{name}: only erf gelu is converted")
            x = ins[0]
            s = g.op("Mul", [x, g.const("rsqrt2", np.float32(0.7071067811865476))],
                     g.tmp(name))
            e = g.op("Erf", [s], g.tmp(name))
            p = g.op("Add", [e, g.const("one", np.float32(1.0))], g.tmp(name))
            h = g.op("Mul", [x, g.const("half", np.float32(0.5))], g.tmp(name))
            g.op("Mul", [h, p], name)
        elif op == "softmax":
            x = ins[0]
            axis = attrs.get("axis", -1)
            if attrs.get("causal"):
                q, k = shapes[x][-2], shapes[x][-1]
                mask = np.triu(np.full((q, k), -np.inf, np.float32), 1 + k - q)
                x = g.op("Add", [x, g.const("causal", mask)], g.tmp(name))
            g.op("Softmax", [x], name, axis=axis)
        elif op == "layer_norm":
            g.op("LayerNormalization", ins, name, axis=-1,
                 epsilon=float(attrs.get("epsilon", 1e-5)))
        elif op == "reshape":
            g.op("Reshape", [ins[0], g.const("shape", np.array(
                attrs["shape"], np.int64))], name)
        elif op == "transpose":
            g.op("Transpose", ins, name, perm=list(attrs["perm"]))
        else:
            raise SystemExit(f"{model_path}: node {name}: op {op} is not "
                             "converted. Fix: extend bench/ort/rlx2onnx.py")
        shapes[name] = infer(op, [shapes[i] for i in ins], attrs)
    outputs = [helper.make_tensor_value_info(o["name"], TensorProto.FLOAT,
                                             shapes[o["value"]])
               for o in m["outputs"]]
    for o in m["outputs"]:
        g.op("Identity", [o["value"]], o["name"])
    graph = helper.make_graph(g.nodes, m.get("name", "rlx"), inputs, outputs,
                              initializer=g.inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, out_path)


def infer(op, s, attrs):
    """Result shape, only as far as the converter needs it."""
    if op == "matmul":
        a, b = list(s[0]), list(s[1])
        if attrs.get("transpose_a"):
            a[-2], a[-1] = a[-1], a[-2]
        if attrs.get("transpose_b"):
            b[-2], b[-1] = b[-1], b[-2]
        batch = a[:-2] if len(a) >= len(b) else b[:-2]
        return batch + [a[-2], b[-1]]
    if op in ("add", "sub", "mul", "div"):
        r = max(len(s[0]), len(s[1]))
        a = [1] * (r - len(s[0])) + list(s[0])
        b = [1] * (r - len(s[1])) + list(s[1])
        return [max(x, y) for x, y in zip(a, b)]
    if op == "reshape":
        return list(attrs["shape"])
    if op == "transpose":
        return [s[0][p] for p in attrs["perm"]]
    return list(s[0])


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    convert(sys.argv[1], sys.argv[2])
