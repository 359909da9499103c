"""qdq_reference.py - a NumPy evaluator of the ONNX graphs qdq_models.py writes.

Float ops in f32 as ONNX defines them. A Conv or Gemm whose operands all
come from DequantizeLinear, followed (through an optional Relu or Clip)
by QuantizeLinear, is evaluated as the integer op ONNX's QLinearConv and
QLinearMatMul define: the accumulator in exact integers (+ the int32
bias), times the f32 multiplier (x_scale * w_scale) / y_scale, rounded
half to even, + y_zero_point, saturated; the Relu or Clip on the
quantized value. That is the form rlx runs them in, so the two agree
exactly wherever the float ops in between do. Also DynamicQuantizeLinear,
ConvInteger, MatMulInteger and Cast for the dynamic-quantized models.
Only the ops and attributes these models use.
"""

import numpy as np
from numpy.lib.stride_tricks import as_strided
from onnx import helper, numpy_helper

F32 = np.float32


class Acc:
    """A Conv/Gemm on dequantized operands: exact integer accumulator."""

    def __init__(self, acc, base, act=None):
        self.acc = acc    # float64 holding integers
        self.base = base  # f32 x_scale * w_scale, broadcastable
        self.act = act    # None, ("relu",) or ("clip", lo, hi)

    def value(self):
        v = (self.acc * self.base).astype(F32)
        if self.act and self.act[0] == "relu":
            v = np.maximum(v, 0)
        elif self.act:
            v = np.clip(v, self.act[1], self.act[2])
        return v


def attrs(node):
    return {a.name: helper.get_attribute_value(a) for a in node.attribute}


def conv(x, w, a):
    """NCHW conv of float arrays (float64 for exact integers)."""
    n, c, h, wd = x.shape
    m, cg, kh, kw = w.shape
    group = a.get("group", 1)
    sh, sw = a.get("strides", [1, 1])
    dh, dw = a.get("dilations", [1, 1])
    pt, pl, pb, pr = a.get("pads", [0, 0, 0, 0])
    xp = np.pad(x, ((0, 0), (0, 0), (pt, pb), (pl, pr)))
    oh = (h + pt + pb - dh * (kh - 1) - 1) // sh + 1
    ow = (wd + pl + pr - dw * (kw - 1) - 1) // sw + 1
    s = xp.strides
    p = as_strided(xp, (n, c, oh, ow, kh, kw),
                   (s[0], s[1], s[2] * sh, s[3] * sw, s[2] * dh, s[3] * dw))
    p = p.reshape(n, group, cg, oh, ow, kh, kw)
    wg = w.reshape(group, m // group, cg, kh, kw)
    if group == 1:
        out = np.tensordot(p[:, 0], wg[0], axes=([1, 4, 5], [1, 2, 3]))
        return out.transpose(0, 3, 1, 2)
    out = np.einsum("ngchwij,gmcij->ngmhw", p, wg)
    return out.reshape(n, m, oh, ow)


def maxpool(x, a):
    kh, kw = a["kernel_shape"]
    sh, sw = a.get("strides", [1, 1])
    pt, pl, pb, pr = a.get("pads", [0, 0, 0, 0])
    xp = np.pad(x, ((0, 0), (0, 0), (pt, pb), (pl, pr)),
                constant_values=-np.inf)
    n, c, h, w = x.shape
    oh = (h + pt + pb - kh) // sh + 1
    ow = (w + pl + pr - kw) // sw + 1
    s = xp.strides
    p = as_strided(xp, (n, c, oh, ow, kh, kw),
                   (s[0], s[1], s[2] * sh, s[3] * sw, s[2], s[3]))
    return p.max(axis=(4, 5)).astype(x.dtype)


def quantize(x, scale, zp):
    lo, hi = (-128, 127) if zp.dtype == np.int8 else (0, 255)
    q = np.rint((x.astype(F32) / scale).astype(F32)) + zp.astype(F32)
    return np.clip(q, lo, hi).astype(zp.dtype)


def along(v, axis, rank):
    """A per-axis vector V shaped to broadcast along AXIS of RANK dims."""
    if v.size == 1:
        return v.reshape(())
    shape = [1] * rank
    shape[axis] = v.size
    return v.reshape(shape)


def run(model, feeds, keep=False):
    """Evaluate MODEL on FEEDS: the graph outputs, or every value (KEEP)."""
    g = model.graph
    env = {t.name: numpy_helper.to_array(t) for t in g.initializer}
    env.update(feeds)
    dq = {}  # DQ output -> (q, scale, zp, axis)
    for node in g.node:
        a = attrs(node)
        ins = [env.get(i) if i else None for i in node.input]
        op = node.op_type
        if op == "Constant":
            out = numpy_helper.to_array(a["value"])
        elif op == "DequantizeLinear":
            q, s = ins[0], ins[1]
            zp = ins[2] if len(ins) > 2 and ins[2] is not None else \
                np.zeros((), q.dtype)
            axis = a.get("axis", 1)
            if axis < 0:
                axis += q.ndim
            s_, z_ = along(s, axis, q.ndim), along(zp, axis, q.ndim)
            out = ((q.astype(np.int64) - z_.astype(np.int64)).astype(F32) *
                   s_).astype(F32)
            dq[node.output[0]] = (q, s, zp, axis)
        elif op == "QuantizeLinear":
            x, s = ins[0], ins[1]
            zp = ins[2] if len(ins) > 2 and ins[2] is not None else \
                np.zeros((), np.uint8)
            if isinstance(x, Acc):
                mult = (x.base / s).astype(F32)
                y = np.rint((x.acc.astype(F32) * mult).astype(F32)) + \
                    zp.astype(F32)
                lo, hi = (-128, 127) if zp.dtype == np.int8 else (0, 255)
                y = np.clip(y, lo, hi)
                if x.act and x.act[0] == "relu":
                    y = np.maximum(y, zp.astype(F32))
                elif x.act:
                    y = np.clip(y, quantize(np.array(x.act[1], F32), s, zp),
                                quantize(np.array(x.act[2], F32), s, zp))
                out = y.astype(zp.dtype)
            else:
                out = quantize(x, s, zp)
        elif op in ("Conv", "Gemm") and all(
                i in dq for i in node.input if i):
            xq, xs, xz, _ = dq[node.input[0]]
            wq, ws, wz, wax = dq[node.input[1]]
            xi = xq.astype(np.float64) - float(xz)
            wi = wq.astype(np.float64) - along(wz, wax, wq.ndim)
            if op == "Conv":
                acc = conv(xi, wi, a)
                base = (xs * along(ws, 1, 4)).astype(F32)
                if len(node.input) > 2 and node.input[2]:
                    acc = acc + along(dq[node.input[2]][0], 1, 4)
            else:
                wi = wi.T if a.get("transB", 0) else wi
                acc = xi @ wi
                base = (xs * ws.reshape(-1)).astype(F32)
                if len(node.input) > 2 and node.input[2]:
                    acc = acc + dq[node.input[2]][0]
            out = Acc(acc, base)
        elif isinstance(ins[0] if ins else None, Acc) and op in ("Relu",
                                                                  "Clip"):
            act = ("relu",) if op == "Relu" else (
                "clip", float(ins[1]) if len(ins) > 1 else -np.inf,
                float(ins[2]) if len(ins) > 2 else np.inf)
            out = Acc(ins[0].acc, ins[0].base, act)
        else:
            ins = [i.value() if isinstance(i, Acc) else i for i in ins]
            out = float_op(op, ins, a, node)
        outs = out if isinstance(out, tuple) else (out,)
        for name, v in zip(node.output, outs):
            env[name] = v
    if keep:
        return {k: (v.value() if isinstance(v, Acc) else v)
                for k, v in env.items()}
    return [env[o.name] for o in g.output]


def float_op(op, ins, a, node):
    x = ins[0]
    if op == "Conv":
        y = conv(x.astype(F32), ins[1].astype(F32), a).astype(F32)
        if len(ins) > 2 and ins[2] is not None:
            y = y + ins[2].reshape(1, -1, 1, 1)
        return y.astype(F32)
    if op == "Gemm":
        b = ins[1].T if a.get("transB", 0) else ins[1]
        y = (x @ b) * F32(a.get("alpha", 1.0))
        if len(ins) > 2 and ins[2] is not None:
            y = y + F32(a.get("beta", 1.0)) * ins[2]
        return y.astype(F32)
    if op == "Relu":
        return np.maximum(x, 0).astype(x.dtype)
    if op == "Clip":
        lo = ins[1] if len(ins) > 1 and ins[1] is not None else -np.inf
        hi = ins[2] if len(ins) > 2 and ins[2] is not None else np.inf
        return np.clip(x, lo, hi).astype(x.dtype)
    if op == "Add":
        return (ins[0] + ins[1]).astype(F32)
    if op == "Mul":
        return (ins[0] * ins[1]).astype(ins[0].dtype)
    if op == "Sigmoid":
        return (1 / (1 + np.exp(-x.astype(np.float64)))).astype(F32)
    if op == "HardSigmoid":
        al, be = F32(a.get("alpha", 0.2)), F32(a.get("beta", 0.5))
        return np.clip(al * x + be, 0, 1).astype(F32)
    if op == "HardSwish":
        return (x * np.clip(x / F32(6) + F32(0.5), 0, 1)).astype(F32)
    if op == "GlobalAveragePool":
        return x.mean(axis=(2, 3), keepdims=True, dtype=np.float64).astype(F32)
    if op == "MaxPool":
        return maxpool(x, a)
    if op == "Flatten":
        ax = a.get("axis", 1)
        return x.reshape(int(np.prod(x.shape[:ax])), -1)
    if op == "Reshape":
        return x.reshape([int(d) for d in ins[1]])
    if op == "Identity":
        return x
    if op == "Cast":
        return x.astype({1: F32, 6: np.int32, 7: np.int64}[a["to"]])
    if op == "DynamicQuantizeLinear":
        lo = min(F32(0), x.min())
        hi = max(F32(0), x.max())
        scale = F32((hi - lo) / F32(255))
        zp = np.array(np.clip(np.rint(F32(0 - lo / scale)), 0, 255), np.uint8)
        return quantize(x, scale, zp), np.array(scale, F32), zp
    if op in ("ConvInteger", "MatMulInteger"):
        xz = ins[2] if len(ins) > 2 and ins[2] is not None else 0
        wz = ins[3] if len(ins) > 3 and ins[3] is not None else 0
        xi = x.astype(np.float64) - np.float64(xz)
        wi = ins[1].astype(np.float64) - np.float64(wz)
        y = conv(xi, wi, a) if op == "ConvInteger" else xi @ wi
        return y.astype(np.int32)
    raise NotImplementedError(f"{op} ({node.name})")
