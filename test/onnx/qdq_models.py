#!/usr/bin/python3
"""qdq_models.py - int8 versions of the torchvision models, run by rlx.

A small QDQ writer over Debian's python3-onnx: takes the float exports of
torchvision_models.py (resnet18, mobilenet_v3_small, efficientnet_b0),
calibrates per-tensor activation scales (uint8, asymmetric: the range of
each tensor over one fixed seeded random batch, widened to hold 0) and
per-output-channel symmetric int8 weight scales, and inserts a
QuantizeLinear/DequantizeLinear pair after every activation the way ONNX
Runtime's QuantFormat.QDQ does: Conv and Gemm read DQ(x), DQ(w) and
DQ(bias int32, scale x_scale * w_scale); a Relu after a Conv is
quantized after the Relu; MaxPool and Flatten keep their input's scale
and zero point. Also resnet18 dynamic-quantized (DynamicQuantizeLinear,
ConvInteger / MatMulInteger, the scales applied in float).

Each model runs with `rlx run` on each backend (whole: --fallback none;
Vulkan twice, with its packed integer dot products where the device has
them and with RLX_VULKAN_INT_DOT=off) and is compared with
qdq_reference.py's NumPy evaluation of the same file: the logits (a DQ
of the last quantized tensor) must lie within one quantization step of
the reference (most are equal; a float op such as Add or Sigmoid may
round an element to the neighbouring step, which the layers after it
carry along). `rlx check` must name the fused groups: every Conv and
Gemm of the QDQ models fused, every Add unfused with its reason.

  qdq_models.py --cache DIR --tv-cache DIR --rlx build/tools/rlx
      --device cpu-ref [--device cpu-openblas=PLUGINDIR ...] [--timeout S]

TAP output; a mismatch or a crash is a `not ok`.
"""

import argparse
import json
import os
import re
import signal
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import onnx  # noqa: E402
from onnx import TensorProto, helper, numpy_helper  # noqa: E402
import onnx_compare  # noqa: E402
import onnx_suite  # noqa: E402
import qdq_reference  # noqa: E402
import torchvision_models  # noqa: E402

MODELS = ("resnet18", "mobilenet_v3_small", "efficientnet_b0")
DYNAMIC = ("resnet18",)
SEED = 20261128
STAMP_VERSION = 1  # bump when the writer below changes
F32 = np.float32


def strip_identity(model):
    """Remove Identity nodes (eval-mode Dropout), rewiring their readers."""
    g = model.graph
    outs = {o.name for o in g.output}
    alias = {}
    keep = []
    for n in g.node:
        if n.op_type == "Identity" and n.output[0] not in outs:
            alias[n.output[0]] = alias.get(n.input[0], n.input[0])
            continue
        keep.append(n)
    for n in keep:
        for i, name in enumerate(n.input):
            n.input[i] = alias.get(name, name)
    del g.node[:]
    g.node.extend(keep)


def act_params(lo, hi):
    """uint8 asymmetric: [min(0, lo), max(0, hi)] onto [0, 255]."""
    lo, hi = min(0.0, float(lo)), max(0.0, float(hi))
    scale = F32((hi - lo) / 255.0) if hi > lo else F32(1.0)
    zp = np.uint8(np.clip(np.rint(-lo / float(scale)), 0, 255))
    return scale, zp


def weight_params(w):
    """int8 symmetric, one scale per output channel (axis 0)."""
    m = np.abs(w.reshape(w.shape[0], -1)).max(axis=1)
    scale = np.where(m > 0, m / 127.0, 1.0).astype(F32)
    shape = (-1,) + (1,) * (w.ndim - 1)
    q = np.clip(np.rint(w / scale.reshape(shape)), -127, 127).astype(np.int8)
    return q, scale


def calibration_input():
    rng = np.random.default_rng(SEED)
    return rng.standard_normal((1, 3, 224, 224)).astype(F32)


def ranges(model):
    """Each float tensor's (min, max) over the calibration batch."""
    vals = qdq_reference.run(model, {"input": calibration_input()}, keep=True)
    return {k: (float(v.min()), float(v.max())) for k, v in vals.items()
            if isinstance(v, np.ndarray) and v.dtype == F32 and v.size}


def make_qdq(model):
    """The QDQ model of float MODEL (Identity nodes already removed)."""
    g = model.graph
    inits = {t.name: numpy_helper.to_array(t) for t in g.initializer}
    rng = ranges(model)
    readers = {}
    for n in g.node:
        for i in n.input:
            readers.setdefault(i, []).append(n)
    graph_outs = {o.name for o in g.output}
    qp = {}  # tensor -> (scale name, zp name)
    new_inits, nodes = [], []
    dq_of = {}  # tensor -> its DQ output

    def add_init(name, arr):
        new_inits.append(numpy_helper.from_array(arr, name))
        return name

    def quantize_after(t, params=None, src=None):
        """Q/DQ after tensor T (made as SRC when it is a graph output)."""
        if params is None:
            s, z = act_params(*rng[t])
            params = (add_init(t + "_scale", np.array(s, F32)),
                      add_init(t + "_zp", np.array(z, np.uint8)))
        qp[t] = params
        nodes.append(helper.make_node("QuantizeLinear",
                                      [src or t, *params], [t + "_q"]))
        out = t if src else t + "_dq"
        nodes.append(helper.make_node("DequantizeLinear",
                                      [t + "_q", *params], [out]))
        dq_of[t] = out

    quantize_after("input")
    for n in g.node:
        ins = [dq_of.get(i, i) for i in n.input]
        if n.op_type in ("Conv", "Gemm"):
            w = inits[n.input[1]]
            wq, ws = weight_params(w)
            xs = numpy_helper.to_array(
                next(t for t in new_inits if t.name == qp[n.input[0]][0]))
            base = n.output[0]
            wz = np.zeros(ws.shape, np.int8)
            ins[1] = base + "_w_dq"
            nodes.append(helper.make_node(
                "DequantizeLinear", [add_init(base + "_w_q", wq),
                                     add_init(base + "_w_scale", ws),
                                     add_init(base + "_w_zp", wz)],
                [ins[1]], axis=0))
            if len(n.input) > 2 and n.input[2]:
                bs = (xs * ws).astype(F32)
                bq = np.rint(inits[n.input[2]] / bs).astype(np.int32)
                ins[2] = base + "_b_dq"
                nodes.append(helper.make_node(
                    "DequantizeLinear",
                    [add_init(base + "_b_q", bq),
                     add_init(base + "_b_scale", bs),
                     add_init(base + "_b_zp", np.zeros(bs.shape, np.int32))],
                    [ins[2]], axis=0))
        outs = list(n.output)
        out = n.output[0]
        is_out = out in graph_outs
        if is_out:
            outs[0] = out + "_f"
        nodes.append(helper.make_node(n.op_type, ins, outs, name=n.name))
        nodes[-1].attribute.extend(n.attribute)
        rd = readers.get(out, [])
        folded = n.op_type in ("Conv", "Gemm") and len(rd) == 1 and \
            rd[0].op_type in ("Relu", "Clip") and not is_out
        if folded or out not in rng:
            continue
        shared = qp[n.input[0]] if n.op_type in ("MaxPool", "Flatten") \
            else None
        quantize_after(out, shared, out + "_f" if is_out else None)
    keep = [t for t in g.initializer if t.name not in
            {n.input[1] for n in g.node if n.op_type in ("Conv", "Gemm")} |
            {n.input[2] for n in g.node
             if n.op_type in ("Conv", "Gemm") and len(n.input) > 2}]
    graph = helper.make_graph(nodes, g.name + "_qdq", list(g.input),
                              list(g.output), keep + new_inits)
    return helper.make_model(graph, opset_imports=list(model.opset_import),
                             producer_name="rlx qdq_models.py")


def make_dynamic(model):
    """Conv and Gemm through DynamicQuantizeLinear and the integer ops."""
    g = model.graph
    inits = {t.name: numpy_helper.to_array(t) for t in g.initializer}
    nodes, new_inits, drop = [], [], set()

    def add_init(name, arr):
        new_inits.append(numpy_helper.from_array(arr, name))
        return name

    for n in g.node:
        if n.op_type not in ("Conv", "Gemm"):
            nodes.append(n)
            continue
        b = n.output[0]
        w = inits[n.input[1]]
        drop.update(n.input[1:])
        wq, ws = weight_params(w)
        nodes.append(helper.make_node("DynamicQuantizeLinear", [n.input[0]],
                                      [b + "_xq", b + "_xs", b + "_xz"]))
        wz = add_init(b + "_wz", np.array(0, np.int8))
        if n.op_type == "Conv":
            nodes.append(helper.make_node(
                "ConvInteger", [b + "_xq", add_init(b + "_wq", wq), b + "_xz",
                                wz], [b + "_acc"]))
            nodes[-1].attribute.extend(n.attribute)
            shape = (1, -1, 1, 1)
        else:
            nodes.append(helper.make_node(
                "MatMulInteger", [b + "_xq", add_init(b + "_wq", wq.T.copy()),
                                  b + "_xz", wz], [b + "_acc"]))
            shape = (1, -1)
        nodes.append(helper.make_node("Cast", [b + "_acc"], [b + "_accf"],
                                      to=TensorProto.FLOAT))
        nodes.append(helper.make_node(
            "Mul", [b + "_xs", add_init(b + "_ws", ws.reshape(shape))],
            [b + "_s"]))
        has_b = len(n.input) > 2 and n.input[2]
        nodes.append(helper.make_node("Mul", [b + "_accf", b + "_s"],
                                      [b + "_y" if has_b else b]))
        if has_b:
            nodes.append(helper.make_node(
                "Add", [b + "_y", add_init(b + "_bias",
                                           inits[n.input[2]].reshape(shape))],
                [b]))
    keep = [t for t in g.initializer if t.name not in drop]
    graph = helper.make_graph(nodes, g.name + "_dyn", list(g.input),
                              list(g.output), keep + new_inits)
    return helper.make_model(graph, opset_imports=list(model.opset_import),
                             producer_name="rlx qdq_models.py")


def write(cache, tv_cache):
    """Write each model and its reference output unless current."""
    torchvision_models.export(tv_cache)
    stamp = os.path.join(cache, "qdq.stamp")
    want = {"version": STAMP_VERSION, "seed": SEED, "onnx": onnx.__version__,
            "tv": open(os.path.join(tv_cache, "torchvision.stamp"),
                       encoding="utf-8").read()}
    names = [f"{m}.qdq" for m in MODELS] + [f"{m}.dyn" for m in DYNAMIC]
    try:
        with open(stamp, encoding="utf-8") as f:
            if json.load(f) == want and all(os.path.exists(
                    os.path.join(cache, n + ".expected.npy")) for n in names):
                return names
    except (OSError, ValueError):
        pass
    os.makedirs(cache, exist_ok=True)
    for m in MODELS:
        model = onnx.load(os.path.join(tv_cache, f"{m}.onnx"))
        strip_identity(model)
        x = np.load(os.path.join(tv_cache, f"{m}.input.npy"))
        made = [("qdq", make_qdq(model))]
        if m in DYNAMIC:
            made.append(("dyn", make_dynamic(model)))
        for kind, qm in made:
            onnx.checker.check_model(qm)
            base = os.path.join(cache, f"{m}.{kind}")
            onnx.save(qm, base + ".onnx")
            np.save(base + ".input.npy", x, allow_pickle=False)
            y = qdq_reference.run(qm, {"input": x})[0]
            np.save(base + ".expected.npy", y, allow_pickle=False)
    with open(stamp, "w", encoding="utf-8") as f:
        json.dump(want, f)
    return names


def step_of(model_path):
    """The logits' quantization step (QDQ models), or None."""
    g = onnx.load(model_path).graph
    inits = {t.name: t for t in g.initializer}
    for n in g.node:
        if n.op_type == "DequantizeLinear" and n.output[0] == "logits":
            return float(numpy_helper.to_array(inits[n.input[1]]))
    return None


def run_one(args, name, device, plugin_dir, out_dir, extra_env):
    """(outcome, reason): 'pass', 'fail', 'crash' or 'hang'."""
    path = os.path.join(args.cache, name + ".onnx")
    os.makedirs(out_dir, exist_ok=True)
    cmd = [args.rlx, "run", path, "--device", device, "--input",
           f"input={os.path.join(args.cache, name + '.input.npy')}",
           "--fallback", "none", "--output", out_dir]
    env = dict(os.environ, RLX_PLUGIN_PATH=plugin_dir, **extra_env)
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
    got = np.load(os.path.join(out_dir, onnx_compare.npy_name("logits")))
    want = np.load(os.path.join(args.cache, name + ".expected.npy"))
    if got.shape != want.shape:
        return "fail", f"shape {list(got.shape)}, expected {list(want.shape)}"
    diff = np.abs(got.astype(np.float64) - want)
    step = step_of(path)
    if step is not None:
        steps = np.rint(diff / step)
        ok = steps.max() <= 1
        what = (f"{int((steps == 0).sum())} of {want.size} logits equal, "
                f"{int((steps == 1).sum())} one step off, largest "
                f"{int(steps.max())} steps")
    else:  # dynamic: float logits, each layer's range measured at run time
        tol = 1e-3 * float(np.abs(want).max())
        ok = diff.max() <= tol
        what = (f"largest difference {diff.max():.3g}, allowed {tol:.3g} "
                f"(1e-3 of the largest logit)")
    return ("pass" if ok else "fail"), what


def check_report(args, name):
    """`rlx check` names the fused groups: '' when it does, else why not."""
    path = os.path.join(args.cache, name + ".onnx")
    done = subprocess.run([args.rlx, "check", path, "--device", "cpu-ref"],
                          capture_output=True, text=True, timeout=600,
                          check=False)
    text = done.stdout
    if done.returncode != 0:
        return f"rlx check failed: {onnx_suite.first_error(done.stderr)}"
    g = onnx.load(path).graph
    want = sum(n.op_type in ("Conv", "Gemm") for n in g.node)
    fused = len(re.findall(r"fused QDQ (Conv|Gemm)", text))
    adds = sum(n.op_type == "Add" for n in g.node)
    unfused = len(re.findall(r"not fused \(Add: no integer kernel", text))
    if fused != want or unfused != adds:
        return (f"{fused} of {want} Conv/Gemm groups reported fused, {unfused}"
                f" of {adds} Adds reported unfused")
    return ""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cache", required=True, help="where the models go")
    ap.add_argument("--tv-cache", required=True,
                    help="torchvision_models.py's cache (the float exports)")
    ap.add_argument("--rlx", required=True)
    ap.add_argument("--device", action="append", default=[],
                    help="BACKEND or BACKEND=PLUGINDIR; repeatable")
    ap.add_argument("--timeout", type=float, default=300.0)
    args = ap.parse_args()
    try:
        names = write(args.cache, args.tv_cache)
    except ImportError as e:
        print(f"not ok 1 - torchvision export: {e}. Fix: apt-get install "
              "python3-torch python3-torchvision (scripts/setup-debian.sh)")
        print("1..1")
        return 1
    n = 0
    bad = False
    for name in names:
        if not name.endswith(".qdq"):
            continue
        why = check_report(args, name)
        n += 1
        bad |= bool(why)
        print(f"{'not ok' if why else 'ok'} {n} - rlx check {name}: "
              f"{why or 'every Conv and Gemm fused, every Add unfused'}",
              flush=True)
    for spec in args.device:
        device, _, plugin_dir = spec.partition("=")
        # Vulkan's two integer paths (the packed dot products where the
        # device has them, and plain integer products)
        variants = [("", {})]
        if device == "vulkan":
            variants.append((" (int_dot off)", {"RLX_VULKAN_INT_DOT": "off"}))
        for label, extra_env in variants:
            for name in names:
                outcome, why = run_one(
                    args, name, device, plugin_dir,
                    os.path.join(args.cache, "out",
                                 device + ("-int-dot-off" if label else ""),
                                 name), extra_env)
                n += 1
                bad |= outcome != "pass"
                print(f"{'ok' if outcome == 'pass' else 'not ok'} {n} - "
                      f"{name} on {device}{label}: {outcome}: {why}",
                      flush=True)
    print(f"1..{n}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
