#!/usr/bin/env python3
"""generate.py - writes rlx's example models with their inputs and the
outputs NumPy expects, so `rlx run` can be checked against a computation
that shares no code with rlx.

    python3 generate.py OUTDIR

writes OUTDIR/mlp/{mlp.yaml, mlp.safetensors, x.npy, probs.expected.npy}
and OUTDIR/transformer/{encoder.yaml, encoder.safetensors, x.npy,
y.expected.npy}. Weights and inputs come from a fixed seed; expected
outputs are computed in float64 from the float32 weights, then cast to
float32. Only NumPy is needed (Debian's python3-numpy).
"""
import json
import math
import os
import struct
import sys

import numpy as np

SEED = 20240607


# ---- writers ---------------------------------------------------------------

def write_safetensors(path, tensors):
    """TENSORS: list of (name, float32 array), written in that order."""
    header, offset, blobs = {}, 0, []
    for name, a in tensors:
        a = np.ascontiguousarray(a, dtype="<f4")
        blob = a.tobytes()
        header[name] = {"dtype": "F32", "shape": list(a.shape),
                        "data_offsets": [offset, offset + len(blob)]}
        offset += len(blob)
        blobs.append(blob)
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)  # data starts 8-byte aligned
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for blob in blobs:
            f.write(blob)


def flow(value):
    """A YAML flow-style rendering of VALUE (dict, list, str, number)."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(flow(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    return str(value)


def write_yaml(path, model):
    lines = [f"# {model['comment']}", "rlx_model: 1",
             f"name: {model['name']}", f"weights: {model['weights']}"]
    for section in ("inputs", "params", "constants", "nodes", "outputs"):
        if not model.get(section):
            continue
        lines.append(f"{section}:")
        for entry in model[section]:
            lines.append(f"  - {flow(entry)}")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


class Graph:
    """Collects nodes for the YAML file while NumPy computes alongside."""

    def __init__(self):
        self.nodes = []

    def node(self, name, op, inputs, attrs=None):
        entry = {"name": name, "op": op, "inputs": inputs}
        if attrs:
            entry["attrs"] = attrs
        self.nodes.append(entry)
        return name


def param_entries(tensors):
    return [{"name": n, "dtype": "f32", "shape": list(a.shape)}
            for n, a in tensors]


# ---- float64 reference ops -------------------------------------------------

def softmax(x, causal=False):
    x = x.astype(np.float64)
    if causal:
        rows, cols = x.shape[-2], x.shape[-1]
        i = np.arange(rows)[:, None]
        j = np.arange(cols)[None, :]
        x = np.where(j > i + (cols - rows), -np.inf, x)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta


_erf = np.vectorize(math.erf, otypes=[np.float64])


def gelu(x):
    return 0.5 * x * (1.0 + _erf(x / math.sqrt(2.0)))


def f64(a):
    return a.astype(np.float64)


# ---- the models ------------------------------------------------------------

def mlp(rng, out):
    batch, sizes = 8, [784, 512, 512, 10]
    tensors = []
    for i in range(3):
        fan_in, fan_out = sizes[i], sizes[i + 1]
        bound = 1.0 / math.sqrt(fan_in)
        tensors.append((f"fc{i + 1}.weight", rng.uniform(
            -bound, bound, (fan_in, fan_out)).astype(np.float32)))
        tensors.append((f"fc{i + 1}.bias", rng.uniform(
            -bound, bound, (fan_out,)).astype(np.float32)))
    x = rng.uniform(-1.0, 1.0, (batch, sizes[0])).astype(np.float32)
    w = dict(tensors)

    g = Graph()
    h, ref = "x", f64(x)
    for i in range(1, 4):
        mm = g.node(f"fc{i}", "matmul", [h, f"fc{i}.weight"])
        h = g.node(f"fc{i}_bias", "add", [mm, f"fc{i}.bias"])
        ref = ref @ f64(w[f"fc{i}.weight"]) + f64(w[f"fc{i}.bias"])
        if i < 3:
            h = g.node(f"relu{i}", "relu", [h])
            ref = np.maximum(ref, 0.0)
    p = g.node("softmax", "softmax", [h], {"axis": -1})
    ref = softmax(ref)

    os.makedirs(out, exist_ok=True)
    write_safetensors(os.path.join(out, "mlp.safetensors"), tensors)
    write_yaml(os.path.join(out, "mlp.yaml"), {
        "comment": "784-512-512-10 MLP (ReLU, softmax); made by "
                   "examples/generate.py",
        "name": "mlp", "weights": "mlp.safetensors",
        "inputs": [{"name": "x", "dtype": "f32", "shape": list(x.shape)}],
        "params": param_entries(tensors),
        "nodes": g.nodes,
        "outputs": [{"name": "probs", "value": p}],
    })
    np.save(os.path.join(out, "x.npy"), x)
    np.save(os.path.join(out, "probs.expected.npy"), ref.astype(np.float32))


def encoder(rng, out):
    batch, seq, d, heads, ff = 2, 64, 256, 4, 1024
    dh = d // heads
    scale = 1.0 / math.sqrt(dh)

    def linear(name, fan_in, fan_out):
        bound = 1.0 / math.sqrt(fan_in)
        return [(f"{name}.weight", rng.uniform(
                    -bound, bound, (fan_in, fan_out)).astype(np.float32)),
                (f"{name}.bias", rng.uniform(
                    -bound, bound, (fan_out,)).astype(np.float32))]

    def norm(name):
        return [(f"{name}.weight",
                 (1.0 + 0.1 * rng.standard_normal(d)).astype(np.float32)),
                (f"{name}.bias",
                 (0.1 * rng.standard_normal(d)).astype(np.float32))]

    tensors = (norm("ln1") + linear("attn.q", d, d) + linear("attn.k", d, d)
               + linear("attn.v", d, d) + linear("attn.out", d, d)
               + norm("ln2") + linear("ff.up", d, ff)
               + linear("ff.down", ff, d))
    w = {n: f64(a) for n, a in tensors}
    x = rng.uniform(-1.0, 1.0, (batch, seq, d)).astype(np.float32)

    g = Graph()

    def lin(name, src, ref):
        node = name.replace(".", "_")
        mm = g.node(f"{node}_mm", "matmul", [src, f"{name}.weight"])
        out_ = g.node(f"{node}_add", "add", [mm, f"{name}.bias"])
        return out_, ref @ w[f"{name}.weight"] + w[f"{name}.bias"]

    def heads_split(name, src, ref):
        r = g.node(f"{name}_heads", "reshape", [src],
                   {"shape": [batch, seq, heads, dh]})
        t = g.node(f"{name}_bhsd", "transpose", [r], {"perm": [0, 2, 1, 3]})
        return t, ref.reshape(batch, seq, heads, dh).transpose(0, 2, 1, 3)

    # Pre-LN self-attention with a causal mask.
    ln1 = g.node("ln1", "layer_norm", ["x", "ln1.weight", "ln1.bias"],
                 {"epsilon": 1e-5})
    r_ln1 = layer_norm(f64(x), w["ln1.weight"], w["ln1.bias"])
    q, r_q = heads_split("q", *lin("attn.q", ln1, r_ln1))
    k, r_k = heads_split("k", *lin("attn.k", ln1, r_ln1))
    v, r_v = heads_split("v", *lin("attn.v", ln1, r_ln1))
    s = g.node("scores", "matmul", [q, k], {"transpose_b": True})
    s = g.node("scores_scaled", "mul", [s, "scale"])
    p = g.node("attn_probs", "softmax", [s], {"axis": -1, "causal": True})
    a = g.node("attn", "matmul", [p, v])
    a = g.node("attn_bshd", "transpose", [a], {"perm": [0, 2, 1, 3]})
    a = g.node("attn_merged", "reshape", [a], {"shape": [batch, seq, d]})
    r_p = softmax((r_q @ r_k.transpose(0, 1, 3, 2)) * np.float64(
        np.float32(scale)), causal=True)
    r_a = (r_p @ r_v).transpose(0, 2, 1, 3).reshape(batch, seq, d)
    o, r_o = lin("attn.out", a, r_a)
    h = g.node("resid1", "add", ["x", o])
    r_h = f64(x) + r_o

    # Feed-forward with GELU (erf form), second residual.
    ln2 = g.node("ln2", "layer_norm", [h, "ln2.weight", "ln2.bias"],
                 {"epsilon": 1e-5})
    r_ln2 = layer_norm(r_h, w["ln2.weight"], w["ln2.bias"])
    u, r_u = lin("ff.up", ln2, r_ln2)
    u = g.node("ff_gelu", "gelu", [u], {"approximate": "erf"})
    r_u = gelu(r_u)
    dn, r_dn = lin("ff.down", u, r_u)
    y = g.node("resid2", "add", [h, dn])
    r_y = r_h + r_dn

    os.makedirs(out, exist_ok=True)
    write_safetensors(os.path.join(out, "encoder.safetensors"), tensors)
    write_yaml(os.path.join(out, "encoder.yaml"), {
        "comment": "one pre-LN transformer encoder block (d_model 256, "
                   "4 heads, ff 1024, causal); made by examples/generate.py",
        "name": "encoder", "weights": "encoder.safetensors",
        "inputs": [{"name": "x", "dtype": "f32", "shape": list(x.shape)}],
        "params": param_entries(tensors),
        "constants": [{"name": "scale", "dtype": "f32", "shape": [],
                       "value": scale}],
        "nodes": g.nodes,
        "outputs": [{"name": "y", "value": y}],
    })
    np.save(os.path.join(out, "x.npy"), x)
    np.save(os.path.join(out, "y.expected.npy"), r_y.astype(np.float32))


def main(argv):
    if len(argv) != 2:
        sys.stderr.write("usage: generate.py OUTDIR\n")
        return 2
    out = argv[1]
    rng = np.random.default_rng(SEED)
    mlp(rng, os.path.join(out, "mlp"))
    encoder(rng, os.path.join(out, "transformer"))
    # meson's custom_target output: one stamp file naming what was written
    with open(os.path.join(out, "examples.stamp"), "w") as f:
        f.write("mlp/mlp.yaml\ntransformer/encoder.yaml\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
