#!/usr/bin/env python3
"""ops-ew-numpy.py - the ABI 1.4 ops of values 100-149 and integer arithmetic
on cpu-ref, checked against NumPy (the semantics ONNX's reference
implementation has), through the rlx CLI: each case is a one-node model
file, its inputs .npy files, run with `rlx run --device cpu-ref`, its
output compared with NumPy's result. Prints TAP.

    ops-ew-numpy.py RLX_BIN WORK_DIR
"""
import os
import subprocess
import sys

import numpy as np

RLX, WORK = sys.argv[1], sys.argv[2]
os.makedirs(WORK, exist_ok=True)
rng = np.random.default_rng(20261127)
DT = {np.float32: "f32", np.float16: "f16", np.int8: "i8", np.uint8: "u8",
      np.int32: "i32", np.int64: "i64", np.bool_: "bool"}
results = []


def run(name, op, inputs, attrs=None):
    """Run OP on INPUTS (name -> array) on cpu-ref; return the output."""
    d = os.path.join(WORK, name)
    os.makedirs(d, exist_ok=True)
    lines = ["rlx_model: 1", "inputs:"]
    args = [RLX, "run", os.path.join(d, "m.yaml"), "--device", "cpu-ref",
            "--output", d]
    for k, v in inputs.items():
        shape = ", ".join(str(s) for s in v.shape)
        lines.append("  - {name: %s, dtype: %s, shape: [%s]}"
                     % (k, DT[v.dtype.type], shape))
        np.save(os.path.join(d, k + ".npy"), v)
        args += ["--input", "%s=%s" % (k, os.path.join(d, k + ".npy"))]
    at = ""
    if attrs:
        at = ", attrs: {%s}" % ", ".join("%s: %s" % kv for kv in attrs.items())
    lines.append("nodes:")
    lines.append("  - {name: y, op: %s, inputs: [%s]%s}"
                 % (op, ", ".join(inputs), at))
    lines.append("outputs: [y]")
    with open(os.path.join(d, "m.yaml"), "w") as f:
        f.write("\n".join(lines) + "\n")
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("rlx run failed: " + p.stdout + p.stderr)
    return np.load(os.path.join(d, "y.npy"))


def check(name, op, inputs, want, attrs=None, rtol=0.0, atol=0.0):
    try:
        got = run(name, op, inputs, attrs)
        want = np.asarray(want)
        if got.dtype != want.dtype or got.shape != want.shape:
            msg = "got %s %s, want %s %s" % (got.dtype, got.shape,
                                             want.dtype, want.shape)
        elif rtol == 0 and atol == 0:
            bad = ~((got == want) | (np.isnan(got) & np.isnan(want))
                    if got.dtype.kind == "f" else (got == want))
            msg = None if not bad.any() else \
                "%d differ, first at %s: got %r, want %r" % (
                    bad.sum(), np.argwhere(bad)[0], got[bad][0], want[bad][0])
        else:
            ok = np.isclose(got.astype(np.float64), want.astype(np.float64),
                            rtol=rtol, atol=atol, equal_nan=True)
            msg = None if ok.all() else \
                "%d off, first: got %r, want %r" % (
                    (~ok).sum(), got[~ok][0], want[~ok][0])
    except RuntimeError as e:
        msg = str(e).strip().replace("\n", " | ")
    results.append((name, msg))


def ints(dtype, shape, lo=None, hi=None):
    info = np.iinfo(dtype)
    lo = info.min if lo is None else lo
    hi = info.max if hi is None else hi
    return rng.integers(lo, hi, size=shape, endpoint=True, dtype=dtype)


def floats(dtype, shape, scale=3.0, halves=False):
    x = rng.uniform(-scale, scale, size=shape)
    if halves:
        x = np.round(x * 2) / 2
    return x.astype(dtype)


def tol(dtype):
    return (1e-5, 1e-6) if dtype == np.float32 else (2e-3, 2e-3)


# ---- comparisons, logical, where -------------------------------------
CMP = {"equal": np.equal, "less": np.less, "less_equal": np.less_equal,
       "greater": np.greater, "greater_equal": np.greater_equal}
for op, fn in CMP.items():
    for dt in (np.float32, np.float16, np.int8, np.uint8, np.int32, np.int64):
        if dt in (np.float32, np.float16):
            a, b = floats(dt, (3, 1, 4), halves=True), floats(dt, (5, 1),
                                                            halves=True)
            a.flat[0] = np.nan
        else:
            lo = 0 if dt == np.uint8 else -3
            a, b = ints(dt, (3, 1, 4), lo, 3), ints(dt, (5, 1), lo, 3)
        check("%s_%s" % (op, DT[dt]), op, {"a": a, "b": b}, fn(a, b))
ab = rng.integers(0, 2, size=(2, 3)).astype(np.bool_)
bb = rng.integers(0, 2, size=(3,)).astype(np.bool_)
check("equal_bool", "equal", {"a": ab, "b": bb}, np.equal(ab, bb))
for op, fn in (("logical_and", np.logical_and), ("logical_or", np.logical_or),
               ("logical_xor", np.logical_xor)):
    check(op, op, {"a": ab, "b": bb}, fn(ab, bb))
check("logical_not", "logical_not", {"a": ab}, np.logical_not(ab))
for dt in (np.float32, np.float16, np.int64, np.uint8, np.bool_):
    c = rng.integers(0, 2, size=(2, 1, 3)).astype(np.bool_)
    if dt == np.bool_:
        a = rng.integers(0, 2, size=(4, 1)).astype(np.bool_)
        b = rng.integers(0, 2, size=(3,)).astype(np.bool_)
    elif dt in (np.float32, np.float16):
        a, b = floats(dt, (4, 1)), floats(dt, (3,))
    else:
        a, b = ints(dt, (4, 1)), ints(dt, (3,))
    check("where_" + DT[dt], "where", {"c": c, "a": a, "b": b},
          np.where(c, a, b))

# ---- float unary -------------------------------------------------------
x32 = floats(np.float32, (4, 6), halves=False)
xh = floats(np.float32, (4, 6), halves=True)
xh.flat[:3] = [np.nan, np.inf, -np.inf]
for dt in (np.float32, np.float16):
    x = xh.astype(dt)
    for op, fn in (("floor", np.floor), ("ceil", np.ceil), ("round", np.round),
                   ("sign", np.sign), ("isnan", np.isnan),
                   ("isinf", np.isinf)):
        check("%s_%s" % (op, DT[dt]), op, {"x": x}, fn(x))
check("isinf_pos", "isinf", {"x": xh}, np.isposinf(xh),
      {"detect_negative": "false"})
check("isinf_neg", "isinf", {"x": xh}, np.isneginf(xh),
      {"detect_positive": "false"})
erf = np.vectorize(__import__("math").erf)
check("erf", "erf", {"x": x32}, erf(x32.astype(np.float64)).astype(np.float32),
      rtol=1e-6, atol=1e-7)
xr = x32 + np.where(x32 < 0, -0.25, 0.25).astype(np.float32)
check("reciprocal", "reciprocal", {"x": xr}, np.float32(1) / xr)
for dt in (np.float32, np.float16):
    x = x32.astype(dt)
    d = x.astype(np.float64)
    sp = np.log1p(np.exp(d))
    acts = {
        "leaky_relu": (np.where(d < 0, 0.1 * d, d), {"alpha": 0.1}),
        "elu": (np.where(d < 0, 0.5 * np.expm1(d), d), {"alpha": 0.5}),
        "selu": (1.0507009873554805 * np.where(d > 0, d, 1.6732632423543772 *
                                               np.expm1(d)), None),
        "softplus": (sp, None),
        "hard_sigmoid": (np.clip(0.2 * d + 0.5, 0, 1), None),
        "hard_swish": (d * np.clip(d / 6 + 0.5, 0, 1), None),
        "mish": (d * np.tanh(sp), None),
    }
    rt, at = tol(dt)
    for op, (want, attrs) in acts.items():
        check("%s_%s" % (op, DT[dt]), op, {"x": x}, want.astype(dt), attrs,
              rtol=rt, atol=at)
    check("clip_" + DT[dt], "clip", {"x": x}, np.clip(x, dt(-1), dt(1.5)),
          {"min": -1, "max": 1.5})
    s = floats(dt, (6,))
    check("prelu_" + DT[dt], "prelu", {"x": x, "s": s},
          np.where(x < 0, s * x, x))
    y = x32.astype(dt) + dt(4)
    check("mod_fmod_" + DT[dt], "mod", {"a": x * dt(3), "b": y},
          np.fmod(x * dt(3), y), {"fmod": "true"}, rtol=rt, atol=at)

# ---- integers ----------------------------------------------------------
def tdiv(a, b):
    """C's truncating division, 0 for a zero divisor, in exact integers."""
    a, b = np.broadcast_arrays(a, b)
    out = np.zeros(a.shape, dtype=a.dtype)
    for i, (x, y) in enumerate(zip(a.flat, b.flat)):
        x, y = int(x), int(y)
        q = 0 if y == 0 else abs(x) // abs(y) * (1 if (x < 0) == (y < 0)
                                                else -1)
        out.flat[i] = np.array(q).astype(np.int64).astype(a.dtype)
    return out


for dt in (np.int8, np.uint8, np.int32, np.int64):
    a, b = ints(dt, (3, 4)), ints(dt, (4,))
    b[0] = 0
    with np.errstate(over="ignore"):
        check("add_" + DT[dt], "add", {"a": a, "b": b}, a + b)
        check("sub_" + DT[dt], "sub", {"a": a, "b": b}, a - b)
        check("mul_" + DT[dt], "mul", {"a": a, "b": b}, a * b)
    check("div_" + DT[dt], "div", {"a": a, "b": b}, tdiv(a, b))
    check("max_" + DT[dt], "max", {"a": a, "b": b}, np.maximum(a, b))
    check("min_" + DT[dt], "min", {"a": a, "b": b}, np.minimum(a, b))
    nz = np.where(b == 0, 1, b).astype(dt)
    check("mod_" + DT[dt], "mod", {"a": a, "b": nz}, np.mod(a, nz))
    check("fmod_" + DT[dt], "mod", {"a": a, "b": nz}, np.fmod(a, nz),
          {"fmod": "true"})
    check("abs_" + DT[dt], "abs", {"a": a}, np.abs(a))
    check("relu_" + DT[dt], "relu", {"a": a}, np.maximum(a, 0).astype(dt))
    check("sign_" + DT[dt], "sign", {"a": a}, np.sign(a).astype(dt))
    if dt != np.uint8:
        check("neg_" + DT[dt], "neg", {"a": a}, np.negative(a))
    for op, fn in (("bitwise_and", np.bitwise_and),
                   ("bitwise_or", np.bitwise_or),
                   ("bitwise_xor", np.bitwise_xor)):
        check("%s_%s" % (op, DT[dt]), op, {"a": a, "b": b}, fn(a, b))
    check("bitwise_not_" + DT[dt], "bitwise_not", {"a": a}, np.invert(a))
    check("clip_" + DT[dt], "clip", {"a": a}, np.clip(a, 3, 100).astype(dt),
          {"min": 2.5, "max": 100})
    p, e = ints(dt, (8,), 0, 5), ints(dt, (8,), 0, 4)
    with np.errstate(over="ignore"):
        check("pow_" + DT[dt], "pow", {"a": p, "b": e}, np.power(p, e))

# ---- reductions and argmax --------------------------------------------
def lse(x, axis, keepdims):
    m = np.max(x, axis=axis, keepdims=True)
    r = m + np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True))
    return r if keepdims else np.squeeze(r, axis=axis)


RED = {"reduce_min": np.min, "reduce_prod": np.prod,
       "reduce_l1": lambda x, axis, keepdims: np.sum(np.abs(x), axis=axis,
                                                     keepdims=keepdims),
       "reduce_l2": lambda x, axis, keepdims: np.sqrt(
           np.sum(np.square(x), axis=axis, keepdims=keepdims)),
       "reduce_sum_square": lambda x, axis, keepdims: np.sum(
           np.square(x), axis=axis, keepdims=keepdims),
       "reduce_log_sum_exp": lse}
x = floats(np.float64, (3, 4, 5), scale=1.5)
for op, fn in RED.items():
    for axes, keep in (((1,), True), ((0, 2), False), ((-1,), False)):
        want = fn(x, axis=axes, keepdims=keep).astype(np.float32)
        check("%s_%s_%d" % (op, "_".join(map(str, axes)), keep), op,
              {"x": x.astype(np.float32)}, want,
              {"axes": list(axes), "keepdims": str(bool(keep)).lower()},
              rtol=1e-5, atol=1e-6)
xi = ints(np.int32, (3, 4, 5), -20, 20)
for op, fn in (("reduce_sum", np.sum), ("reduce_max", np.max),
               ("reduce_min", np.min), ("reduce_prod", np.prod)):
    with np.errstate(over="ignore"):
        want = fn(xi, axis=1).astype(np.int32)
    check(op + "_i32", op, {"x": xi}, want, {"axes": [1]})
check("reduce_mean_i32", "reduce_mean", {"x": xi},
      np.trunc(np.mean(xi, axis=2)).astype(np.int32), {"axes": [2]})
for op, fn in (("argmax", np.argmax), ("argmin", np.argmin)):
    for dt in (np.float32, np.int64, np.uint8):
        v = floats(dt, (4, 5, 3), halves=True) if dt == np.float32 \
            else ints(dt, (4, 5, 3), 0, 4)
        for axis in (0, 1, -1):
            check("%s_%s_%d" % (op, DT[dt], axis), op, {"x": v},
                  fn(v, axis=axis).astype(np.int64),
                  {"axis": axis, "keepdims": "false"})
        # the last of tied extremes: NumPy's on the reversed axis
        r = v.shape[1] - 1 - fn(np.flip(v, axis=1), axis=1, keepdims=True)
        check("%s_%s_last" % (op, DT[dt]), op, {"x": v}, r.astype(np.int64),
              {"axis": 1, "select_last_index": "true"})

print("1..%d" % len(results))
failed = 0
for i, (name, msg) in enumerate(results, 1):
    if msg is None:
        print("ok %d - %s" % (i, name))
    else:
        failed += 1
        print("not ok %d - %s: %s" % (i, name, msg))
sys.exit(1 if failed else 0)
