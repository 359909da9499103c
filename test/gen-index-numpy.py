#!/usr/bin/env python3
"""gen-index-numpy.py - random cases of the 1.4 data movement and indexing
ops with their results computed by NumPy (np.pad, slicing, np.cumsum,
np.take_along_axis, np.add.at, np.argsort, np.broadcast_to, np.tile,
np.triu/np.tril, np.eye, np.nonzero), written as a C header that
test-ops-numpy.c runs on cpu-ref. NumPy is the independent reference: no
rlx code computes an expected value.

    gen-index-numpy.py OUT.h
"""
import sys

import numpy as np

RNG = np.random.default_rng(20261127)
OPS = {'pad': 150, 'expand': 151, 'tile': 152, 'strided_slice': 153,
       'gather_elements': 154, 'gather_nd': 155, 'scatter_elements': 156,
       'scatter_nd': 157, 'cumsum': 158, 'topk': 159, 'one_hot': 161,
       'trilu': 162, 'non_zero': 163}
F32, I64 = 1, 5  # rlx_dtype values
cases = []


def data(shape):
    # halves of small integers: exact in f32, sums stay exact too
    return (RNG.integers(-20, 21, size=shape) / 2).astype(np.float32)


def add(op, inputs, ints=(), floats=(), want=None):
    cases.append((op, inputs, list(ints), list(floats), want))


def shape(rank, lo=1, hi=4):
    return tuple(int(d) for d in RNG.integers(lo, hi + 1, size=rank))


for _ in range(40):  # pad: every mode, crops, pads wider than the axis
    x = data(shape(2, 1, 4))
    mode = int(RNG.integers(0, 4))
    pads = [int(p) for p in RNG.integers(-1, 7, size=4)]
    begins, ends = pads[:2], pads[2:]
    cropped = x[tuple(slice(max(-b, 0), x.shape[d] - max(-e, 0))
                      for d, (b, e) in enumerate(zip(begins, ends)))]
    if mode != 0 and 0 in cropped.shape:
        continue
    width = [(max(b, 0), max(e, 0)) for b, e in zip(begins, ends)]
    value = float(RNG.integers(-3, 4))
    name = ['constant', 'reflect', 'edge', 'wrap'][mode]
    kw = {'constant_values': value} if mode == 0 else {}
    if mode == 1 and 1 in cropped.shape:  # NumPy cannot reflect one element
        continue
    # NumPy before 1.25 wraps wrongly when a pad exceeds the axis and both
    # sides pad; test-ops-layout.c covers wide wrap pads by hand
    if mode == 3 and any(w > d for d, ws in zip(cropped.shape, width)
                         for w in ws):
        continue
    add('pad', [x], [mode] + pads, [value], np.pad(cropped, width, name, **kw))

for _ in range(40):  # strided_slice where Python slicing and ONNX agree
    x = data(shape(2, 2, 7))
    quads, index = [], [slice(None), slice(None)]
    for axis in RNG.permutation(2)[:int(RNG.integers(1, 3))]:
        dim = x.shape[axis]
        step = int(RNG.choice([-3, -2, -1, 1, 2, 3]))
        start = int(RNG.integers(-dim, dim))
        end = int(RNG.integers(-dim - 3, dim + 3))
        if step < 0 and end < -dim:
            end_py = None  # before the first element
        else:
            end_py = end
        quads += [int(axis), start, end, step]
        index[axis] = slice(start, end_py, step)
    add('strided_slice', [x], quads, [], x[tuple(index)])

for _ in range(20):  # cumsum, exclusive and reverse
    x = data(shape(3, 1, 4))
    axis, excl, rev = int(RNG.integers(-3, 3)), int(RNG.integers(0, 2)), \
        int(RNG.integers(0, 2))
    y = np.flip(x, axis) if rev else x
    s = np.cumsum(y, axis=axis, dtype=np.float64)
    if excl:
        s = s - y
    s = np.flip(s, axis) if rev else s
    add('cumsum', [x], [axis, excl, rev], [], s.astype(np.float32))

for _ in range(20):  # gather_elements with negative indices
    x = data(shape(3, 1, 4))
    axis = int(RNG.integers(0, 3))
    ishape = list(x.shape)
    ishape[axis] = int(RNG.integers(1, 5))
    ishape = [int(RNG.integers(1, d + 1)) if k != axis else d
              for k, d in enumerate(ishape)]
    dim = x.shape[axis]
    idx = RNG.integers(-dim, dim, size=ishape)
    want = np.take_along_axis(x[tuple(slice(0, d) if k != axis else slice(None)
                                      for k, d in enumerate(ishape))],
                              np.where(idx < 0, idx + dim, idx), axis)
    add('gather_elements', [x, idx], [axis], [], want)

for _ in range(20):  # gather_nd, batch_dims 0 and 1
    x = data(shape(3, 2, 4))
    b = int(RNG.integers(0, 2))
    k = int(RNG.integers(1, 4 - b))
    lead = [x.shape[0]] if b else []
    n = int(RNG.integers(1, 4))
    idx = np.stack([RNG.integers(-x.shape[b + j], x.shape[b + j],
                                 size=lead + [n]) for j in range(k)], -1)
    if b:
        want = np.stack([x[i][tuple(np.moveaxis(idx[i], -1, 0))]
                         for i in range(x.shape[0])])
    else:
        want = x[tuple(np.moveaxis(idx, -1, 0))]
    add('gather_nd', [x, idx], [b], [], want)

for _ in range(20):  # scatter_elements and scatter_nd, add with duplicates
    x = data(shape(2, 2, 4))
    axis = int(RNG.integers(0, 2))
    ishape = [int(RNG.integers(1, 5)) if k == axis else
              int(RNG.integers(1, x.shape[k] + 1)) for k in range(2)]
    idx = RNG.integers(-x.shape[axis], x.shape[axis], size=ishape)
    upd = data(ishape)
    want = x.astype(np.float64).copy()
    pos = np.where(idx < 0, idx + x.shape[axis], idx)
    grid = list(np.indices(ishape))
    grid[axis] = pos
    np.add.at(want, tuple(grid), upd)
    add('scatter_elements', [x, idx, upd], [axis, 1], [],
        want.astype(np.float32))
    rows = RNG.integers(-x.shape[0], x.shape[0], size=(3, 1))
    upd = data((3, x.shape[1]))
    want = x.astype(np.float64).copy()
    np.add.at(want, (rows[:, 0],), upd)
    add('scatter_nd', [x, rows, upd], [1], [], want.astype(np.float32))

for _ in range(20):  # topk: a stable sort gives ties lower index first
    x = (RNG.integers(-3, 4, size=shape(2, 1, 6))).astype(np.float32)
    axis = int(RNG.integers(-2, 2))
    k = int(RNG.integers(0, x.shape[axis] + 1))
    largest = int(RNG.integers(0, 2))
    order = np.argsort(-x if largest else x, axis=axis, kind='stable')
    want = np.take(order, np.arange(k), axis=axis).astype(np.int64)
    add('topk', [x], [k, axis, largest, 1], [], want)

for _ in range(15):  # expand (both ways) and tile
    x = data(tuple(int(RNG.choice([1, d])) for d in shape(3, 2, 3)))
    target = [int(RNG.choice([1, 2])) if x.shape[k] != 1 else
              int(RNG.integers(1, 4)) for k in range(3)]
    target = [1 if x.shape[k] != 1 else t for k, t in enumerate(target)]
    lead = int(RNG.integers(1, 3))
    want = np.broadcast_to(x, np.broadcast_shapes(x.shape,
                                                  tuple([lead] + target)))
    add('expand', [x], [lead] + target, [], want)
    reps = [int(r) for r in RNG.integers(0, 3, size=3)]
    add('tile', [x], reps, [], np.tile(x, reps))

for _ in range(15):  # trilu, one_hot, non_zero
    x = data(shape(3, 1, 5))
    kk, upper = int(RNG.integers(-4, 5)), int(RNG.integers(0, 2))
    add('trilu', [x], [upper, kk], [],
        np.triu(x, kk) if upper else np.tril(x, kk))
    depth = int(RNG.integers(1, 5))
    idx = RNG.integers(-depth - 1, depth + 1, size=shape(2, 1, 3))
    vals = np.array([-1, 4], dtype=np.float32)
    eye = np.vstack([np.eye(depth), np.zeros((1, depth))])
    pos = np.where((idx < -depth) | (idx >= depth), depth,
                   np.where(idx < 0, idx + depth, idx))
    hot = eye[pos]  # [..., depth], the class axis last
    axis = int(RNG.integers(-3, 3))
    hot = np.moveaxis(hot, -1, axis)
    add('one_hot', [idx, vals], [depth, axis], [],
        np.where(hot == 1, vals[1], vals[0]).astype(np.float32))
    z = x * (RNG.integers(0, 2, size=x.shape) == 1)
    nz = np.array(np.nonzero(z), dtype=np.int64).reshape(3, -1)
    full = -np.ones((3, z.size), dtype=np.int64)
    full[:, :nz.shape[1]] = nz
    add('non_zero', [z], [], [], full)


def c_array(name, a):
    a = np.ascontiguousarray(a)
    if a.dtype == np.float32:
        ctype, vals = 'float', ['%.9ef' % v for v in a.ravel()]
    else:
        ctype = 'int64_t'
        vals = ['INT64_C(%d)' % v for v in a.ravel().astype(np.int64)]
    if not vals:
        vals = ['0']
    return 'static const %s %s[] = { %s };\n' % (ctype, name, ', '.join(vals))


def dtype_of(a):
    return F32 if a.dtype == np.float32 else I64


out = ['/* generated by test/gen-index-numpy.py: do not edit */\n']
rows = []
for n, (op, inputs, ints, floats, want) in enumerate(cases):
    want = np.asarray(want)
    if want.dtype != np.float32:
        want = want.astype(np.int64)
    ins = []
    for i, a in enumerate(inputs):
        a = np.asarray(a)
        a = a.astype(np.float32 if a.dtype.kind == 'f' else np.int64)
        out.append(c_array('c%d_in%d' % (n, i), a))
        ins.append('{ %d, %d, { %s }, c%d_in%d }' % (
            dtype_of(a), a.ndim, ', '.join(str(d) for d in a.shape) or '0',
            n, i))
    out.append(c_array('c%d_want' % n, want))
    rows.append('{ "%s %d", %d, %d, { %s }, %d, { %s }, %d, { %s }, '
                '{ %d, %d, { %s }, c%d_want } }' % (
                    op, n, OPS[op], len(inputs), ', '.join(ins), len(ints),
                    ', '.join('INT64_C(%d)' % v for v in ints) or '0',
                    len(floats), ', '.join(repr(float(v)) for v in floats)
                    or '0', dtype_of(want), want.ndim,
                    ', '.join(str(d) for d in want.shape) or '0', n))
out.append('static const np_case np_cases[] = {\n    %s\n};\n'
           % ',\n    '.join(rows))
with open(sys.argv[1], 'w') as f:
    f.writelines(out)
