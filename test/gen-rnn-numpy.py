#!/usr/bin/env python3
"""gen-rnn-numpy.py - cases of ONNX's LSTM, GRU and RNN with their
outputs computed by a NumPy reference written from the ONNX operator
specification, written as a C header that test-onnx-lower-rnn.c turns
into ONNX models and runs on cpu-ref. The reference steps each batch
entry alone over its own sequence length (a reverse direction from its
last valid step), in float64: an independent formulation of what the
importer unrolls with masks, and no rlx code computes an expected value.

    gen-rnn-numpy.py OUT.h
"""
import sys

import numpy as np

RNG = np.random.default_rng(20261127)
cases = []

# activation: (uses alpha, uses beta, default alpha, default beta, fn)
ACTS = {
    'relu': (0, 0, 0, 0, lambda x, a, b: np.maximum(x, 0)),
    'tanh': (0, 0, 0, 0, lambda x, a, b: np.tanh(x)),
    'sigmoid': (0, 0, 0, 0, lambda x, a, b: 1 / (1 + np.exp(-x))),
    'affine': (1, 1, 1.0, 0.0, lambda x, a, b: a * x + b),
    'leakyrelu': (1, 0, 0.01, 0, lambda x, a, b: np.where(x >= 0, x, a * x)),
    'thresholdedrelu': (1, 0, 1.0, 0, lambda x, a, b: np.where(x > a, x, 0)),
    'scaledtanh': (1, 1, 1.0, 1.0, lambda x, a, b: a * np.tanh(b * x)),
    'hardsigmoid': (1, 1, 0.2, 0.5,
                    lambda x, a, b: np.clip(a * x + b, 0, 1)),
    'elu': (1, 0, 1.0, 0, lambda x, a, b: np.where(x >= 0, x,
                                                   a * (np.exp(x) - 1))),
    'softsign': (0, 0, 0, 0, lambda x, a, b: x / (1 + np.abs(x))),
    'softplus': (0, 0, 0, 0, lambda x, a, b: np.log1p(np.exp(x))),
}
GATES = {'RNN': 1, 'GRU': 3, 'LSTM': 4}
DEFAULT_ACTS = {'RNN': ['Tanh'], 'GRU': ['Sigmoid', 'Tanh'],
                'LSTM': ['Sigmoid', 'Tanh', 'Tanh']}


def resolve_acts(op, n_dir, names, alphas, betas):
    """Per direction, [(fn, alpha, beta)]: alpha and beta are consumed in
    order by the activations that take them (ONNX Runtime's reading)."""
    per = len(DEFAULT_ACTS[op])
    names = names or DEFAULT_ACTS[op]
    if len(names) == per:
        names = names * n_dir
    alphas, betas = list(alphas), list(betas)
    out = []
    for name in names:
        ua, ub, da, db, fn = ACTS[name.lower()]
        a = alphas.pop(0) if ua and alphas else da
        b = betas.pop(0) if ub and betas else db
        out.append((fn, a, b))
    return [out[d * per:(d + 1) * per] for d in range(n_dir)]


def reference(op, X, W, R, B, lens, h0, c0, P, direction, acts, clip,
              input_forget, lbr):
    """Outputs Y [seq, n_dir, batch, H], Y_h, Y_c [n_dir, batch, H]."""
    seq, batch, _ = X.shape
    n_dir, gh, _ = W.shape
    H = R.shape[2]
    Y = np.zeros((seq, n_dir, batch, H))
    Yh = np.zeros((n_dir, batch, H))
    Yc = np.zeros((n_dir, batch, H))

    def g(k, v, d):
        fn, a, b = acts[d][k]
        if clip is not None:
            v = np.clip(v, -clip, clip)
        return fn(v, a, b)

    for d in range(n_dir):
        rev = direction == 'reverse' or d == 1
        Wd, Rd = W[d], R[d]
        Wb, Rb = B[d][:gh], B[d][gh:]
        for b in range(batch):
            h, c = h0[d, b].copy(), c0[d, b].copy()
            steps = range(lens[b])
            for t in (reversed(steps) if rev else steps):
                x = X[t, b]
                if op == 'RNN':
                    h = g(0, x @ Wd.T + h @ Rd.T + Wb + Rb, d)
                elif op == 'GRU':
                    xw = x @ Wd.T + Wb
                    z = g(0, xw[:H] + h @ Rd[:H].T + Rb[:H], d)
                    r = g(0, xw[H:2 * H] + h @ Rd[H:2 * H].T + Rb[H:2 * H],
                          d)
                    if lbr:
                        hh = g(1, xw[2 * H:] + r * (h @ Rd[2 * H:].T +
                                                    Rb[2 * H:]), d)
                    else:
                        hh = g(1, xw[2 * H:] + (r * h) @ Rd[2 * H:].T +
                               Rb[2 * H:], d)
                    h = (1 - z) * hh + z * h
                else:
                    pre = x @ Wd.T + h @ Rd.T + Wb + Rb
                    pi, po, pf = P[d][:H], P[d][H:2 * H], P[d][2 * H:]
                    i = g(0, pre[:H] + pi * c, d)
                    f = 1 - i if input_forget else g(0, pre[2 * H:3 * H] +
                                                     pf * c, d)
                    cc = g(1, pre[3 * H:], d)
                    c = f * c + i * cc
                    o = g(0, pre[H:2 * H] + po * c, d)
                    fn, a, bb = acts[d][2]
                    h = o * fn(c, a, bb)
                Y[t, d, b] = h
            Yh[d, b] = h
            Yc[d, b] = c
    return Y, Yh, Yc


def f32(shape, scale=1.0):
    return (RNG.standard_normal(shape) * scale).astype(np.float32)


def add(name, op, opset=14, seq=3, batch=2, isize=3, hidden=4,
        direction='forward', layout=0, bias=False, lens=None,
        lens_known=False, init_h=False, init_c=False, peep=False,
        acts=None, alphas=(), betas=(), clip=None, input_forget=0, lbr=0,
        outs=(1, 1, 1), weights_init=False, half=False):
    n_dir = 2 if direction == 'bidirectional' else 1
    gh = GATES[op] * hidden
    # f16 cases: the inputs rounded to f16 first, the reference from them
    rnd = (lambda a: a.astype(np.float16)) if half else (lambda a: a)
    X = rnd(f32((seq, batch, isize)))
    W = rnd(f32((n_dir, gh, isize), 0.5))
    R = rnd(f32((n_dir, gh, hidden), 0.5))
    B = rnd(f32((n_dir, 2 * gh), 0.5)) if bias else None
    h0 = rnd(f32((n_dir, batch, hidden))) if init_h else None
    c0 = rnd(f32((n_dir, batch, hidden))) if init_c else None
    P = rnd(f32((n_dir, 3 * hidden), 0.5)) if peep else None
    L = np.array(lens if lens is not None else [seq] * batch, np.int32)
    Y, Yh, Yc = reference(
        op, X.astype(np.float64), W.astype(np.float64),
        R.astype(np.float64),
        np.zeros((n_dir, 2 * gh)) if B is None else B.astype(np.float64), L,
        np.zeros((n_dir, batch, hidden)) if h0 is None else h0, 
        np.zeros((n_dir, batch, hidden)) if c0 is None else c0,
        np.zeros((n_dir, 3 * hidden)) if P is None else P, direction,
        resolve_acts(op, n_dir, acts, alphas, betas), clip, input_forget,
        lbr)
    if layout:
        X = X.transpose(1, 0, 2)
        h0 = None if h0 is None else h0.transpose(1, 0, 2)
        c0 = None if c0 is None else c0.transpose(1, 0, 2)
        Y = Y.transpose(2, 0, 1, 3)
        Yh, Yc = Yh.transpose(1, 0, 2), Yc.transpose(1, 0, 2)
    if half:
        Y, Yh, Yc = Y.astype(np.float16), Yh.astype(np.float16), \
            Yc.astype(np.float16)
    if op != 'LSTM':
        outs = outs[:2]
    ins = [X, W, R, B, L if lens is not None else None, h0, c0, P]
    if op != 'LSTM':
        ins = ins[:6]
    cases.append(dict(
        name=name, op=op, opset=opset, direction=direction, hidden=hidden,
        layout=layout, clip=clip, input_forget=input_forget, lbr=lbr,
        acts=acts or [], alphas=list(alphas), betas=list(betas), ins=ins,
        lens_known=lens_known, weights_init=weights_init,
        outs=[o if w else None for o, w in zip((Y, Yh, Yc), outs)]))


add('lstm forward, defaults', 'LSTM', outs=(1, 1, 0))
add('lstm bidirectional, B, initial h and c, peepholes, run-time lengths',
    'LSTM', seq=4, batch=3, direction='bidirectional', bias=True,
    lens=[4, 2, 1], init_h=True, init_c=True, peep=True)
add('lstm reverse, layout 1, clip, input_forget', 'LSTM', seq=3, batch=2,
    direction='reverse', layout=1, bias=True, init_h=True, init_c=True,
    clip=0.7, input_forget=1)
add('lstm bidirectional activations with alpha and beta', 'LSTM',
    direction='bidirectional', bias=True,
    acts=['HardSigmoid', 'ScaledTanh', 'Affine', 'LeakyRelu', 'Softsign',
          'Elu'], alphas=[0.3, 0.9, 0.5, 0.2, 1.1],
    betas=[0.4, 1.3, 0.1], weights_init=True)
add('lstm opset 7, weights as initializers, Y only', 'LSTM', opset=7,
    bias=True, weights_init=True, outs=(1, 0, 0))
add('gru forward, B, initial h', 'GRU', bias=True, init_h=True)
add('gru bidirectional, linear_before_reset, layout 1, run-time lengths',
    'GRU', seq=4, batch=3, direction='bidirectional', layout=1, bias=True,
    init_h=True, lens=[3, 4, 2], lbr=1)
add('gru reverse, activations, clip, known lengths', 'GRU',
    direction='reverse', bias=True, acts=['ThresholdedRelu', 'Softplus'],
    alphas=[-0.2], clip=1.5, lens=[2, 3], lens_known=True)
add('gru opset 3, linear_before_reset', 'GRU', opset=3, bias=True, lbr=1,
    weights_init=True)
add('rnn forward, defaults', 'RNN', outs=(0, 1))
add('rnn bidirectional, layout 1, known lengths, initial h', 'RNN',
    seq=4, batch=3, direction='bidirectional', layout=1, bias=True,
    init_h=True, lens=[1, 4, 3], lens_known=True)
add('rnn reverse, Relu, clip, run-time lengths', 'RNN', seq=5,
    direction='reverse', bias=True, acts=['Relu'], clip=0.8, lens=[5, 3])
add('rnn opset 7, one step', 'RNN', opset=7, seq=1, bias=True)
add('lstm f16, bidirectional, B, initial h and c', 'LSTM',
    direction='bidirectional', bias=True, init_h=True, init_c=True,
    half=True)
add('gru f16, linear_before_reset, run-time lengths', 'GRU', bias=True,
    lbr=1, lens=[3, 1], half=True)


def c_floats(name, a):
    vals = ['%.9ef' % v for v in np.asarray(a, np.float32).ravel()]
    return 'static const float %s[] = { %s };\n' % (name, ', '.join(vals))


def c_halves(name, a):
    vals = ['0x%04x' % v for v in np.asarray(a, np.float16).view(np.uint16)
            .ravel()]
    return 'static const uint16_t %s[] = { %s };\n' % (name, ', '.join(vals))


def tensor(a, arr):
    if a is None:
        return '{ 0, { 0 }, NULL, NULL, NULL }'
    dims = ', '.join(str(d) for d in a.shape)
    if a.dtype == np.int32:
        return '{ %d, { %s }, NULL, %s, NULL }' % (a.ndim, dims, arr)
    if a.dtype == np.float16:
        return '{ %d, { %s }, NULL, NULL, %s }' % (a.ndim, dims, arr)
    return '{ %d, { %s }, %s, NULL, NULL }' % (a.ndim, dims, arr)


def c_data(name, a):
    return c_halves(name, a) if a.dtype == np.float16 else c_floats(name, a)


out = ['/* generated by test/gen-rnn-numpy.py: do not edit */\n']
rows = []
for n, c in enumerate(cases):
    ins, outs = [], []
    for i, a in enumerate(c['ins']):
        arr = 'c%d_in%d' % (n, i)
        if a is not None and a.dtype == np.int32:
            out.append('static const int32_t %s[] = { %s };\n' % (
                arr, ', '.join(str(int(v)) for v in a)))
        elif a is not None:
            out.append(c_data(arr, a))
        ins.append(tensor(a, arr))
    for i, a in enumerate(c['outs']):
        arr = 'c%d_out%d' % (n, i)
        if a is not None:
            out.append(c_data(arr, a))
        outs.append(tensor(a, arr))
    strs = ', '.join('"%s"' % s for s in c['acts']) or 'NULL'
    fl = lambda v: ', '.join('%sf' % repr(float(x)) for x in v) or '0'
    rows.append(
        '{ "%s", "%s", %d, "%s", %d, %d, %sf, %d, %d, %d, { %s }, '
        '%d, { %s }, %d, { %s }, %d, %d, %d, { %s }, %d, { %s } }' % (
            c['name'], c['op'], c['opset'], c['direction'], c['hidden'],
            c['layout'], repr(float(c['clip'] or 0)), c['input_forget'],
            c['lbr'],
            len(c['acts']), strs, len(c['alphas']), fl(c['alphas']),
            len(c['betas']), fl(c['betas']), c['lens_known'],
            c['weights_init'], len(c['ins']), ', '.join(ins),
            len(c['outs']), ', '.join(outs)))
out.append('static const rnn_case rnn_cases[] = {\n    %s\n};\n'
           % ',\n    '.join(rows))
with open(sys.argv[1], 'w') as f:
    f.writelines(out)
