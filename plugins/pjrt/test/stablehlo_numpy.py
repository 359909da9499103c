#!/usr/bin/python3
"""stablehlo_numpy.py - the bridge's StableHLO evaluated with NumPy.

No PJRT plugin runs on CI machines, so the numbers the lowerings give
would go unchecked there. The numpy fake plugin (fake_pjrt.c built with
FAKE_NUMPY) hands each run to this script: it reads the generic-form
module the bridge wrote (only the ops and attribute forms the bridge
emits, with XLA's semantics: integers wrap, float-to-integer converts
saturate, gathers clamp, out-of-bounds scatter windows are skipped) and
the arguments' raw bytes, and writes the results' bytes back.
test_pjrt_ops14.c compares what comes back with cpu-ref.

  stablehlo_numpy.py DIR: DIR/module.mlir, DIR/argN.bin
                          -> DIR/outN.bin, DIR/nout
"""
import math
import os
import re
import sys

import numpy as np

np.seterr(all="ignore")

DT = {"f32": np.float32, "f16": np.float16, "bf16": "bf16", "f64": np.float64,
      "i1": np.bool_, "i8": np.int8, "i16": np.int16, "i32": np.int32,
      "i64": np.int64, "ui8": np.uint8, "ui16": np.uint16, "ui32": np.uint32,
      "ui64": np.uint64}


def parse_type(t):
    m = re.match(r"tensor<((?:\d+x)*)(\w+)>", t.strip())
    dims = [int(x) for x in m.group(1).split("x") if x]
    return tuple(dims), m.group(2)


def npdt(et):
    d = DT[et]
    return np.float32 if d == "bf16" else d


def bf16_round(a):
    a = np.asarray(a, np.float32)
    sh = a.shape
    a = a.reshape(-1)
    b = a.view(np.uint32).astype(np.uint64)
    u16 = np.uint64(16)
    r = ((b + np.uint64(0x7FFF) + ((b >> u16) & np.uint64(1))) >> u16) \
        & np.uint64(0xFFFF)
    r = np.where(np.isnan(a), np.uint64(0x7FC0), r)
    return (r.astype(np.uint32) << np.uint32(16)).view(np.float32).reshape(sh)


def fix(a, et):
    """Round A to element type ET's values."""
    if et == "bf16":
        return bf16_round(a)
    return np.asarray(a).astype(npdt(et), copy=False)


def to_bytes(a, et):
    if et == "bf16":
        return (np.asarray(a, np.float32).view(np.uint32) >> 16).astype(
            np.uint16).tobytes()
    if et == "i1":
        return np.asarray(a, np.uint8).tobytes()
    return np.ascontiguousarray(a, npdt(et)).tobytes()


def from_bytes(b, shape, et):
    if et == "bf16":
        u = np.frombuffer(b, np.uint16).astype(np.uint32) << 16
        return u.view(np.float32).reshape(shape)
    if et == "i1":
        return (np.frombuffer(b, np.uint8) != 0).reshape(shape)
    return np.frombuffer(b, npdt(et)).reshape(shape).copy()


def arr_attr(attrs, key):
    m = re.search(key + r" = array<i64(?:: ([-\d, ]*))?>", attrs)
    if not m:
        return None
    return [int(x) for x in m.group(1).split(",")] if m.group(1) else []


def list_attr(attrs, key):
    m = re.search(key + r" = \[([-\d, ]*)\]", attrs)
    if not m:
        return []
    return [int(x) for x in m.group(1).split(",") if x.strip()]


def int_attr(attrs, key):
    m = re.search(key + r" = (-?\d+)", attrs)
    return int(m.group(1)) if m else None


def constant(attrs, shape, et):
    m = re.search(r'dense<"0x([0-9A-F]*)">', attrs)
    if m:
        raw = bytes.fromhex(m.group(1))
        return from_bytes(raw, shape, et if et != "i1" else "ui8")
    m = re.search(r"dense<([^>]*)>", attrs)
    lit = m.group(1).strip()
    if lit.startswith("["):
        vals = [v.strip() for v in lit.strip("[]").split(",")]
    else:
        vals = [lit]
    out = []
    for v in vals:
        if v in ("true", "false"):
            out.append(v == "true")
        elif v.startswith("0x"):
            bits = int(v, 16)
            if et == "f64":
                out.append(np.array([bits], np.uint64).view(np.float64)[0])
            elif et == "f32":
                out.append(np.array([bits], np.uint32).view(np.float32)[0])
            else:
                raise ValueError("hex for " + et)
        elif et in ("f32", "f64", "f16", "bf16"):
            out.append(float(v))
        else:
            out.append(int(v))
    if et in ("ui64",):
        a = np.array(out, dtype=np.uint64)
    elif et in ("i64",):
        a = np.array(out, dtype=np.int64)
    else:
        a = np.array(out, dtype=npdt(et) if et != "bf16" else np.float64)
    a = fix(a, et)
    if a.size == 1:
        return np.broadcast_to(a.reshape(()), shape).copy()
    return a.reshape(shape)


def idiv(a, b):
    if a.dtype.kind == "f":
        return a / b
    q = np.floor_divide(a, b)
    r = a - q * b
    adj = (r != 0) & ((a < 0) != (b < 0))
    if a.dtype.kind == "u":
        return q
    return q + adj.astype(a.dtype)


def shl(a, s):
    bits = a.dtype.itemsize * 8
    ua = a.view(np.dtype("u%d" % a.dtype.itemsize))
    s = s.astype(np.uint64)
    big = s >= bits
    r = ua << np.minimum(s, bits - 1).astype(ua.dtype)
    return np.where(big, 0, r).astype(ua.dtype).view(a.dtype)


def shr(a, s):
    bits = a.dtype.itemsize * 8
    ua = a.view(np.dtype("u%d" % a.dtype.itemsize))
    s = s.astype(np.uint64)
    big = s >= bits
    r = ua >> np.minimum(s, bits - 1).astype(ua.dtype)
    return np.where(big, 0, r).astype(ua.dtype).view(a.dtype)


def body_fn(op):
    return {"stablehlo.add": np.add, "stablehlo.maximum": np.maximum,
            "stablehlo.minimum": np.minimum,
            "stablehlo.multiply": np.multiply,
            "stablehlo.or": np.logical_or, "stablehlo.and": np.logical_and}[op]


def convert(a, et):
    if et == "i1":
        return a != 0
    d = npdt(et)
    if a.dtype.kind == "f" and np.dtype(d).kind in "iu":
        t = np.trunc(a.astype(np.float64)).reshape(-1)
        t[np.isnan(t)] = 0
        info = np.iinfo(d)
        res = np.zeros(t.shape, d)
        ok = (t > float(info.min)) & (t < float(info.max))
        res[ok] = t[ok].astype(d)
        res[t >= float(info.max)] = info.max
        res[t <= float(info.min)] = info.min
        return res.reshape(a.shape)
    if np.dtype(d).kind in "iu":
        return a.astype(d)  # integers wrap
    return fix(a, et)


def gather(op, idx, attrs, shape):
    off = list_attr(attrs, "offset_dims")
    col = list_attr(attrs, "collapsed_slice_dims")
    smap = list_attr(attrs, "start_index_map")
    ivd = int_attr(attrs, "index_vector_dim")
    sizes = arr_attr(attrs, "slice_sizes")
    if ivd == idx.ndim:
        idx = idx[..., None]
    idx = np.moveaxis(idx, ivd, -1)
    bshape = idx.shape[:-1]
    offshape = [sizes[d] for d in range(op.ndim) if d not in col]
    tmp = np.zeros(tuple(bshape) + tuple(offshape), op.dtype)
    for b in np.ndindex(*bshape):
        start = [0] * op.ndim
        for k, d in enumerate(smap):
            s = int(idx[b + (k,)])
            start[d] = max(0, min(s, op.shape[d] - sizes[d]))
        sl = op[tuple(slice(start[d], start[d] + sizes[d])
                      for d in range(op.ndim))]
        sl = sl.reshape(offshape)
        tmp[b] = sl
    nb = len(bshape)
    out = np.moveaxis(tmp, list(range(nb, nb + len(offshape))), off)
    return out.reshape(shape)


def scatter(opnd, idx, upd, attrs, fn):
    uwd = list_attr(attrs, "update_window_dims")
    ins = list_attr(attrs, "inserted_window_dims")
    sdod = list_attr(attrs, "scatter_dims_to_operand_dims")
    ivd = int_attr(attrs, "index_vector_dim")
    out = opnd.copy()
    if ivd == idx.ndim:
        idx = idx[..., None]
    idx = np.moveaxis(idx, ivd, -1)
    sdims = [d for d in range(upd.ndim) if d not in uwd]
    u = np.moveaxis(upd, sdims, list(range(len(sdims))))
    wshape = u.shape[len(sdims):]
    wfull = []
    k = 0
    for d in range(opnd.ndim):
        if d in ins:
            wfull.append(1)
        else:
            wfull.append(wshape[k])
            k += 1
    for b in np.ndindex(*idx.shape[:-1]):
        start = [0] * opnd.ndim
        for j, d in enumerate(sdod):
            start[d] = int(idx[b + (j,)])
        if any(start[d] < 0 or start[d] + wfull[d] > opnd.shape[d]
               for d in range(opnd.ndim)):
            continue
        win = u[b].reshape(wfull)
        sl = tuple(slice(start[d], start[d] + wfull[d])
                   for d in range(opnd.ndim))
        out[sl] = fn(out[sl], win)
    return out


def reduce_window(x, init, attrs, fn, shape):
    win = arr_attr(attrs, "window_dimensions")
    st = arr_attr(attrs, "window_strides") or [1] * x.ndim
    dil = arr_attr(attrs, "window_dilations") or [1] * x.ndim
    m = re.search(r"padding = dense<(\[.*?\]\]|\[\[.*?\]\])>", attrs)
    pads = [[0, 0]] * x.ndim
    if m:
        pads = [[int(a), int(b)] for a, b in
                re.findall(r"\[(-?\d+), (-?\d+)\]", m.group(1))]
    xp = np.full([x.shape[d] + pads[d][0] + pads[d][1]
                  for d in range(x.ndim)], init, x.dtype)
    xp[tuple(slice(pads[d][0], pads[d][0] + x.shape[d])
             for d in range(x.ndim))] = x
    out = np.full(shape, init, x.dtype)
    for k in np.ndindex(*win):
        sl = tuple(slice(k[d] * dil[d], k[d] * dil[d] +
                         (shape[d] - 1) * st[d] + 1, st[d])
                   for d in range(x.ndim))
        out = fn(out, xp[sl])
    return out


def conv(x, w, attrs):
    m = re.search(r"#stablehlo.conv<\[(.*?)\]x\[(.*?)\]->\[(.*?)\]>", attrs)
    lhs = [s.strip() for s in m.group(1).split(",")]
    rhs = [s.strip() for s in m.group(2).split(",")]
    s = x.ndim - 2
    # to [b, f, sp..] and [o, i, sp..]
    x = np.transpose(x, [lhs.index("b"), lhs.index("f")] +
                     [lhs.index(str(i)) for i in range(s)])
    w = np.transpose(w, [rhs.index("o"), rhs.index("i")] +
                     [rhs.index(str(i)) for i in range(s)])
    st = arr_attr(attrs, "window_strides") or [1] * s
    ld = arr_attr(attrs, "lhs_dilation") or [1] * s
    rd = arr_attr(attrs, "rhs_dilation") or [1] * s
    pads = [[int(a), int(b)] for a, b in
            re.findall(r"\[(-?\d+), (-?\d+)\]",
                       re.search(r"padding = dense<(.*?)>", attrs).group(1))]
    g = int_attr(attrs, "feature_group_count")
    # dilate lhs
    dshape = list(x.shape[:2]) + [(x.shape[2 + i] - 1) * ld[i] + 1
                                  if x.shape[2 + i] else 0 for i in range(s)]
    xd = np.zeros(dshape, x.dtype)
    xd[(slice(None), slice(None)) + tuple(slice(None, None, ld[i])
                                          for i in range(s))] = x
    # pad (negative crops)
    for i in range(s):
        lo, hi = pads[i]
        ax = 2 + i
        if lo < 0:
            xd = np.take(xd, range(-lo, xd.shape[ax]), axis=ax)
            lo = 0
        if hi < 0:
            xd = np.take(xd, range(0, xd.shape[ax] + hi), axis=ax)
            hi = 0
        pw = [(0, 0)] * xd.ndim
        pw[ax] = (lo, hi)
        xd = np.pad(xd, pw)
    k = w.shape[2:]
    ext = [(k[i] - 1) * rd[i] + 1 for i in range(s)]
    osz = [(xd.shape[2 + i] - ext[i]) // st[i] + 1 for i in range(s)]
    n, c = x.shape[:2]
    o = w.shape[0]
    cg, og = c // g, o // g
    out = np.zeros([n, o] + osz, np.float64)  # rounded to ET by the caller
    for kk in np.ndindex(*k):
        sl = tuple(slice(kk[i] * rd[i], kk[i] * rd[i] + (osz[i] - 1) * st[i]
                         + 1, st[i]) for i in range(s))
        patch = xd[(slice(None), slice(None)) + sl]
        for gi in range(g):
            pg = patch[:, gi * cg:(gi + 1) * cg].astype(np.float64)
            wg = w[gi * og:(gi + 1) * og, :, ].astype(np.float64)
            wk = wg[(slice(None), slice(None)) + kk]
            out[:, gi * og:(gi + 1) * og] += np.einsum("nc...,oc->no...",
                                                       pg, wk)
    return out


def main():
    d = sys.argv[1]
    text = open(os.path.join(d, "module.mlir")).read()
    lines = text.split("\n")
    env = {}
    hdr = next(l for l in lines if "func.func" in l)
    args = re.findall(r"%(\d+): (tensor<[^>]*>)", hdr.split("->")[0])
    for i, (name, t) in enumerate(args):
        shape, et = parse_type(t)
        raw = open(os.path.join(d, "arg%d.bin" % i), "rb").read()
        env[name] = (from_bytes(raw, shape, et), et)
    i = 0
    results = None
    while i < len(lines):
        l = lines[i].strip()
        i += 1
        if not l or l.startswith("module") or l.startswith("func.func") \
                or l == "}":
            continue
        if l.startswith('"func.return"'):
            names = re.findall(r"%(\d+)", l.split(":")[0])
            results = [env[n] for n in names]
            break
        m = re.match(r'%(\d+) = "([\w.]+)"\((.*?)\)( \(\{)?(.*)$', l)
        if not m:
            raise ValueError("cannot parse: " + l)
        res, op, operands, region, rest = m.groups()
        ops = [env[n] for n in re.findall(r"%(\d+)", operands)]
        body = None
        if region:
            # ^bb0 line, body op line(s), return, then "}) {...} : ..."
            blines = []
            while not lines[i].strip().startswith("})"):
                blines.append(lines[i].strip())
                i += 1
            rest = lines[i].strip()[2:]
            i += 1
            bop = [re.match(r'%\d+ = "([\w.]+)"\((.*?)\)', b)
                   for b in blines if b.startswith("%")]
            body = bop[0].group(1)
            if op == "stablehlo.sort":
                body = re.search(r"comparison_direction (\w+)",
                                 blines[1]).group(1)
        am = re.search(r"\{(.*)\} : ", rest)
        attrs = am.group(1) if am else ""
        rtype = rest.split("->")[-1].strip()
        shape, et = parse_type(rtype)
        vals = [o[0] for o in ops]
        ets = [o[1] for o in ops]
        r = eval_op(op, vals, ets, attrs, shape, et, body)
        r = np.asarray(r)
        if et == "i1":
            r = r.astype(np.bool_)
        else:
            r = fix(r, et)
        if r.shape != tuple(shape):
            r = np.broadcast_to(r, shape).copy()
        env[res] = (r, et)
    for k, (a, et) in enumerate(results):
        open(os.path.join(d, "out%d.bin" % k), "wb").write(to_bytes(a, et))
    open(os.path.join(d, "nout"), "w").write(str(len(results)))


UN = {"stablehlo.abs": np.abs, "stablehlo.negate": np.negative,
      "stablehlo.sqrt": np.sqrt, "stablehlo.exponential": np.exp,
      "stablehlo.exponential_minus_one": np.expm1, "stablehlo.log": np.log,
      "stablehlo.log_plus_one": np.log1p, "stablehlo.tanh": np.tanh,
      "stablehlo.sine": np.sin, "stablehlo.cosine": np.cos,
      "stablehlo.floor": np.floor, "stablehlo.ceil": np.ceil,
      "stablehlo.round_nearest_even": np.rint, "chlo.tan": np.tan,
      "stablehlo.is_finite": np.isfinite}


def eval_op(op, v, ets, attrs, shape, et, body):
    if op == "stablehlo.constant":
        return constant(attrs, shape, et)
    if op in UN:
        return UN[op](np.asarray(v[0]))
    if op == "stablehlo.rsqrt":
        return 1 / np.sqrt(v[0])
    if op == "stablehlo.logistic":
        return 1 / (1 + np.exp(-v[0]))
    if op == "chlo.erf":
        return np.vectorize(math.erf, otypes=[np.float64])(
            v[0].astype(np.float64))
    if op == "stablehlo.not":
        return ~v[0]
    two = {"stablehlo.add": np.add, "stablehlo.subtract": np.subtract,
           "stablehlo.multiply": np.multiply,
           "stablehlo.maximum": np.maximum,
           "stablehlo.minimum": np.minimum, "stablehlo.atan2": np.arctan2,
           "stablehlo.power": np.power, "stablehlo.and": np.bitwise_and,
           "stablehlo.or": np.bitwise_or, "stablehlo.xor": np.bitwise_xor}
    if op in two:
        return two[op](v[0], v[1])
    if op == "stablehlo.divide":
        return idiv(v[0], v[1])
    if op == "stablehlo.remainder":
        return np.fmod(v[0], v[1])
    if op == "stablehlo.shift_left":
        return shl(v[0], v[1])
    if op == "stablehlo.shift_right_logical":
        return shr(v[0], v[1])
    if op == "stablehlo.compare":
        d = re.search(r"comparison_direction (\w+)", attrs).group(1)
        f = {"EQ": np.equal, "NE": np.not_equal, "LT": np.less,
             "LE": np.less_equal, "GT": np.greater,
             "GE": np.greater_equal}[d]
        return f(v[0], v[1])
    if op == "stablehlo.select":
        return np.where(v[0], v[1], v[2])
    if op == "stablehlo.convert":
        return convert(v[0], et)
    if op == "stablehlo.bitcast_convert":
        return v[0].view(npdt(et))
    if op == "stablehlo.broadcast_in_dim":
        m = arr_attr(attrs, "broadcast_dimensions")
        tmp = [1] * len(shape)
        for k, dd in enumerate(m):
            tmp[dd] = v[0].shape[k]
        return np.broadcast_to(v[0].reshape(tmp), shape).copy()
    if op == "stablehlo.reshape":
        return v[0].reshape(shape)
    if op == "stablehlo.transpose":
        return np.transpose(v[0], arr_attr(attrs, "permutation"))
    if op == "stablehlo.reverse":
        return np.flip(v[0], arr_attr(attrs, "dimensions"))
    if op == "stablehlo.slice":
        s = arr_attr(attrs, "start_indices")
        e = arr_attr(attrs, "limit_indices")
        t = arr_attr(attrs, "strides")
        return v[0][tuple(slice(a, b, c) for a, b, c in zip(s, e, t))]
    if op == "stablehlo.concatenate":
        return np.concatenate(v, axis=int_attr(attrs, "dimension"))
    if op == "stablehlo.iota":
        dd = int_attr(attrs, "iota_dimension")
        sh = [1] * len(shape)
        sh[dd] = shape[dd]
        return np.broadcast_to(np.arange(shape[dd]).reshape(sh),
                               shape).astype(npdt(et))
    if op == "stablehlo.pad":
        lo = arr_attr(attrs, "edge_padding_low")
        hi = arr_attr(attrs, "edge_padding_high")
        it = arr_attr(attrs, "interior_padding")
        x = v[0]
        for ax in range(x.ndim):
            if it[ax]:
                n = x.shape[ax]
                ns = list(x.shape)
                ns[ax] = n + (n - 1) * it[ax] if n else 0
                y = np.full(ns, v[1], x.dtype)
                idx = [slice(None)] * x.ndim
                idx[ax] = slice(None, None, it[ax] + 1)
                y[tuple(idx)] = x
                x = y
            a, b = lo[ax], hi[ax]
            if a < 0:
                x = np.take(x, range(-a, x.shape[ax]), axis=ax)
                a = 0
            if b < 0:
                x = np.take(x, range(0, x.shape[ax] + b), axis=ax)
                b = 0
            pw = [(0, 0)] * x.ndim
            pw[ax] = (a, b)
            x = np.pad(x, pw, constant_values=v[1])
        return x
    if op == "stablehlo.reduce":
        dims = tuple(arr_attr(attrs, "dimensions"))
        fn = body_fn(body)
        r = fn.reduce(v[0], axis=dims) if v[0].size else \
            np.full(shape, v[1], v[0].dtype)
        return fn(r, v[1])
    if op == "stablehlo.reduce_window":
        return reduce_window(v[0], v[1], attrs, body_fn(body), shape)
    if op == "stablehlo.gather":
        return gather(v[0], v[1], attrs, shape)
    if op == "stablehlo.scatter":
        return scatter(v[0], v[1], v[2], attrs, body_fn(body))
    if op == "stablehlo.sort":
        dd = int_attr(attrs, "dimension")
        s = np.sort(v[0], axis=dd)
        return np.flip(s, dd) if body == "GT" else s
    if op == "stablehlo.dot_general":
        lb = list_attr(attrs, "lhs_batching_dimensions")
        rb = list_attr(attrs, "rhs_batching_dimensions")
        lc = list_attr(attrs, "lhs_contracting_dimensions")
        rc = list_attr(attrs, "rhs_contracting_dimensions")
        a, b = v
        letters = "abcdefghijklmnopqrstuvwxyz"
        la = list(letters[:a.ndim])
        lbb = list(letters[a.ndim:a.ndim + b.ndim])
        for x, y in zip(lb, rb):
            lbb[y] = la[x]
        for x, y in zip(lc, rc):
            lbb[y] = la[x]
        outl = [la[x] for x in lb] + \
            [la[x] for x in range(a.ndim) if x not in lb and x not in lc] + \
            [lbb[y] for y in range(b.ndim) if y not in rb and y not in rc]
        acc = np.float64 if a.dtype.kind == "f" else a.dtype
        return np.einsum("".join(la) + "," + "".join(lbb) + "->" +
                         "".join(outl), a.astype(acc), b.astype(acc))
    if op == "stablehlo.convolution":
        return conv(v[0], v[1], attrs)
    raise ValueError("no op " + op)


if __name__ == "__main__":
    main()
