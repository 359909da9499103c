#!/usr/bin/env python3
"""make_models.py - the models of the ONNX Runtime comparison, as rlx YAML
models with safetensors weights plus the same models as ONNX files
(rlx2onnx.py) and one input each:

    python3 make_models.py OUTDIR EXAMPLES_DIR

- mlp-s-bN: MLP 784-512-512-10 (ReLU, softmax), batch 1, 8, 64, 256
- mlp-l-bN: MLP 784-4096-4096-10, batch 1, 8, 64, 256
- encoder-example: examples/transformer (d256, 4 heads, ff 1024, seq 64, batch 2)
- encoder-d512: the same pre-LN causal block at d512, 8 heads, ff 2048,
  seq 128, batch 8
Weights and inputs come from a fixed seed. Writes OUTDIR/NAME/{NAME.yaml,
NAME.onnx, x.npy}; OUTDIR/models.txt lists the names.
"""
import math
import os
import shutil
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rlx2onnx  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "examples"))
from generate import flow, write_safetensors  # noqa: E402

SEED = 20261124


def write_model(d, name, inputs, params, constants, nodes, outputs, weights):
    lines = [f"# {name}: bench/ort/make_models.py", "rlx_model: 1",
             f"name: {name.replace('-', '_')}", f"weights: {weights}", "inputs:"]
    lines += [f"  - {flow(i)}" for i in inputs]
    lines += ["params:"] + [f"  - {flow(p)}" for p in params]
    if constants:
        lines += ["constants:"] + [f"  - {flow(c)}" for c in constants]
    lines += ["nodes:"] + [f"  - {flow(n)}" for n in nodes]
    lines += ["outputs:"] + [f"  - {flow(o)}" for o in outputs]
    path = os.path.join(d, f"{name}.yaml")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    rlx2onnx.convert(path, os.path.join(d, f"{name}.onnx"))


def mlp(out, rng, tag, sizes, batches, names):
    tensors = []
    for i in range(len(sizes) - 1):
        bound = 1.0 / math.sqrt(sizes[i])
        tensors.append((f"fc{i + 1}.weight", rng.uniform(
            -bound, bound, (sizes[i], sizes[i + 1])).astype(np.float32)))
        tensors.append((f"fc{i + 1}.bias", rng.uniform(
            -bound, bound, (sizes[i + 1],)).astype(np.float32)))
    shared = os.path.join(out, f"mlp-{tag}.safetensors")
    write_safetensors(shared, tensors)
    for b in batches:
        name = f"mlp-{tag}-b{b}"
        d = os.path.join(out, name)
        os.makedirs(d, exist_ok=True)
        link = os.path.join(d, "w.safetensors")
        if os.path.lexists(link):
            os.remove(link)
        os.symlink(os.path.relpath(shared, d), link)  # one copy of the weights
        nodes, src = [], "x"
        n = len(sizes) - 1
        for i in range(1, n + 1):
            nodes.append({"name": f"fc{i}", "op": "matmul",
                          "inputs": [src, f"fc{i}.weight"]})
            nodes.append({"name": f"fc{i}_bias", "op": "add",
                          "inputs": [f"fc{i}", f"fc{i}.bias"]})
            src = f"fc{i}_bias"
            if i < n:
                nodes.append({"name": f"relu{i}", "op": "relu", "inputs": [src]})
                src = f"relu{i}"
        nodes.append({"name": "softmax", "op": "softmax", "inputs": [src],
                      "attrs": {"axis": -1}})
        write_model(d, name, [{"name": "x", "dtype": "f32", "shape": [b, sizes[0]]}],
                    [{"name": t, "dtype": "f32", "shape": list(a.shape)}
                     for t, a in tensors], [], nodes,
                    [{"name": "probs", "value": "softmax"}], "w.safetensors")
        np.save(os.path.join(d, "x.npy"),
                rng.uniform(-1, 1, (b, sizes[0])).astype(np.float32))
        names.append(name)


def encoder(out, rng, name, batch, seq, dm, heads, ff):
    dh = dm // heads
    d = os.path.join(out, name)
    os.makedirs(d, exist_ok=True)
    tensors = []

    def linear(n, fi, fo):
        bound = 1.0 / math.sqrt(fi)
        tensors.append((f"{n}.weight", rng.uniform(-bound, bound, (fi, fo)).astype(np.float32)))
        tensors.append((f"{n}.bias", rng.uniform(-bound, bound, (fo,)).astype(np.float32)))

    def norm(n):
        tensors.append((f"{n}.weight", (1 + 0.1 * rng.standard_normal(dm)).astype(np.float32)))
        tensors.append((f"{n}.bias", (0.1 * rng.standard_normal(dm)).astype(np.float32)))

    norm("ln1"); linear("attn.q", dm, dm); linear("attn.k", dm, dm)
    linear("attn.v", dm, dm); linear("attn.out", dm, dm); norm("ln2")
    linear("ff.up", dm, ff); linear("ff.down", ff, dm)
    write_safetensors(os.path.join(d, "w.safetensors"), tensors)
    nodes = []

    def add(n, op, ins, attrs=None):
        e = {"name": n, "op": op, "inputs": ins}
        if attrs:
            e["attrs"] = attrs
        nodes.append(e)
        return n

    def lin(n, src):
        k = n.replace(".", "_")
        add(f"{k}_mm", "matmul", [src, f"{n}.weight"])
        return add(f"{k}_add", "add", [f"{k}_mm", f"{n}.bias"])

    ln1 = add("ln1", "layer_norm", ["x", "ln1.weight", "ln1.bias"], {"epsilon": 1e-5})
    hs = {}
    for p in "qkv":
        t = lin(f"attn.{p}", ln1)
        r = add(f"{p}_heads", "reshape", [t], {"shape": [batch, seq, heads, dh]})
        hs[p] = add(f"{p}_bhsd", "transpose", [r], {"perm": [0, 2, 1, 3]})
    s = add("scores", "matmul", [hs["q"], hs["k"]], {"transpose_b": True})
    s = add("scores_scaled", "mul", [s, "scale"])
    pr = add("attn_probs", "softmax", [s], {"axis": -1, "causal": True})
    a = add("attn", "matmul", [pr, hs["v"]])
    a = add("attn_bshd", "transpose", [a], {"perm": [0, 2, 1, 3]})
    a = add("attn_merged", "reshape", [a], {"shape": [batch, seq, dm]})
    a = lin("attn.out", a)
    r1 = add("resid1", "add", ["x", a])
    ln2 = add("ln2", "layer_norm", [r1, "ln2.weight", "ln2.bias"], {"epsilon": 1e-5})
    u = lin("ff.up", ln2)
    g = add("ff_gelu", "gelu", [u], {"approximate": "erf"})
    dn = lin("ff.down", g)
    add("resid2", "add", [r1, dn])
    write_model(d, name, [{"name": "x", "dtype": "f32", "shape": [batch, seq, dm]}],
                [{"name": t, "dtype": "f32", "shape": list(v.shape)} for t, v in tensors],
                [{"name": "scale", "dtype": "f32", "shape": [], "value": 1 / math.sqrt(dh)}],
                nodes, [{"name": "y", "value": "resid2"}], "w.safetensors")
    np.save(os.path.join(d, "x.npy"),
            rng.uniform(-1, 1, (batch, seq, dm)).astype(np.float32))


def main(argv):
    if len(argv) != 3:
        raise SystemExit(__doc__)
    out, examples = argv[1], argv[2]
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(SEED)
    names = []
    mlp(out, rng, "s", [784, 512, 512, 10], [1, 8, 64, 256], names)
    mlp(out, rng, "l", [784, 4096, 4096, 10], [1, 8, 64, 256], names)
    # the example encoder as generate.py wrote it, weights and input
    d = os.path.join(out, "encoder-example")
    os.makedirs(d, exist_ok=True)
    src = os.path.join(examples, "transformer")
    for f in ("encoder.safetensors", "x.npy"):
        shutil.copy(os.path.join(src, f), d)
    shutil.copy(os.path.join(src, "encoder.yaml"), os.path.join(d, "encoder-example.yaml"))
    rlx2onnx.convert(os.path.join(d, "encoder-example.yaml"),
                     os.path.join(d, "encoder-example.onnx"))
    names.append("encoder-example")
    encoder(out, rng, "encoder-d512", 8, 128, 512, 8, 2048)
    names.append("encoder-d512")
    with open(os.path.join(out, "models.txt"), "w") as f:
        f.write("\n".join(names) + "\n")


if __name__ == "__main__":
    main(sys.argv)
