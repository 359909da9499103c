#!/usr/bin/env python3
"""bench_models.py - an MLP (784-4096-4096-10, ReLU; batch 1, 64, 1024)
and a transformer encoder block (d_model 512, 8 heads, ff 2048, ReLU,
post-norm; seq 128, batch 8; f32 and bf16) through rlx's cuda backend
and through PyTorch (eager, and replaying a CUDA graph), on the same
weights, with the outputs compared.

rlx is driven through its public C API with ctypes, two ways: "rlx@in"
takes its input from and gives its output to host memory (the input
written in place into the program's pinned input buffer), "rlx@dev"
keeps both on the GPU in tensors bound to the program (rlx_tensor,
rlx_program_bind), each run synchronized (rlx_program_run returns when
it is done), and "rlx@q" queues the same runs back to back
(rlx_program_submit) and waits once per block (rlx_program_wait), as
PyTorch's "graph" column replays its CUDA graph. PyTorch is timed both ways too: with tensors already
on the GPU (its usual benchmark; compare with rlx@dev), and with the
same host-in/host-out contract as rlx@in (pinned input copied in, output
copied out, synchronized).

    RLX_LIB=build/core/librlx.so.1 RLX_PLUGIN_PATH=build/plugins/cuda \
        python3 bench_models.py
"""
import ctypes as C
import math
import os
import sys
import time

import numpy as np
import torch

F32, F16, BF16, I64 = 1, 2, 3, 5
OP = dict(add=10, mul=12, relu=30, matmul=60, softmax=61, layer_norm=62,
          reshape=70, transpose=71, slice=73)


class Attrs(C.Structure):
    _fields_ = [("n_ints", C.c_uint32), ("ints", C.POINTER(C.c_int64)),
                ("n_floats", C.c_uint32), ("floats", C.POINTER(C.c_double))]


lib = C.CDLL(os.environ.get("RLX_LIB", "librlx.so.1"))
lib.rlx_last_error.restype = C.c_char_p
lib.rlx_program_output_data.restype = C.c_void_p
lib.rlx_program_input_buffer.restype = C.c_void_p
SLOT_INPUT, SLOT_OUTPUT = 1, 3


def ck(st):
    if st != 0:
        raise RuntimeError(lib.rlx_last_error().decode())


def i64s(v):
    return (C.c_int64 * len(v))(*v)


class Graph:
    def __init__(self, dtype):
        self.g = C.c_void_p()
        ck(lib.rlx_graph_create(C.byref(self.g)))
        self.dtype = dtype
        self.params = {}

    def inp(self, name, shape):
        v = C.c_uint32()
        ck(lib.rlx_graph_input(self.g, name.encode(), self.dtype, len(shape),
                               i64s(shape), C.byref(v)))
        return v.value

    def param(self, name, array):
        """ARRAY: a torch tensor of the graph's dtype (on any device)."""
        v = C.c_uint32()
        shape = list(array.shape)
        ck(lib.rlx_graph_param(self.g, name.encode(), self.dtype, len(shape),
                               i64s(shape), C.byref(v)))
        self.params[name] = to_bytes(array)
        return v.value

    def const(self, name, array):
        v = C.c_uint32()
        shape = list(array.shape)
        data = to_bytes(array)
        ck(lib.rlx_graph_constant(self.g, name.encode(), self.dtype,
                                  len(shape), i64s(shape), data, C.byref(v)))
        return v.value

    def node(self, op, inputs, ints=(), floats=()):
        v = C.c_uint32()
        a = Attrs(len(ints), i64s(ints) if ints else None, len(floats),
                  (C.c_double * len(floats))(*floats) if floats else None)
        ck(lib.rlx_graph_add_node(self.g, None, OP[op], len(inputs),
                                  (C.c_uint32 * len(inputs))(*inputs),
                                  C.byref(a), C.byref(v)))
        return v.value

    def output(self, name, v):
        ck(lib.rlx_graph_output(self.g, name.encode(), v))


def to_bytes(t):
    t = t.detach().contiguous().cpu()
    if t.dtype == torch.bfloat16:
        t = t.view(torch.int16)
    return t.numpy().tobytes()


class Program:
    def __init__(self, rt, graph, device="cuda"):
        self.s = C.c_void_p()
        self.p = C.c_void_p()
        ck(lib.rlx_session_create(rt, device.encode(), C.byref(self.s)))
        ck(lib.rlx_session_compile(self.s, graph.g, C.byref(self.p)))
        for name, data in graph.params.items():
            ck(lib.rlx_program_set_param(self.p, name.encode(), data,
                                         len(data)))
        self.dtype = graph.dtype

    def run(self, x_bytes, out_shape):
        ck(lib.rlx_program_set_input(self.p, b"x", x_bytes, len(x_bytes)))
        ck(lib.rlx_program_run(self.p))
        return self.output(out_shape)

    def output(self, shape):
        n = C.c_size_t()
        ptr = lib.rlx_program_output_data(self.p, 0, C.byref(n))
        raw = np.ctypeslib.as_array(C.cast(ptr, C.POINTER(C.c_uint8)),
                                 shape=(n.value,)).copy()
        if self.dtype == BF16:
            return torch.from_numpy(raw.view(np.int16)).view(
                torch.bfloat16).reshape(shape).float()
        return torch.from_numpy(raw.view(np.float32)).reshape(shape)

    def bind(self, x_bytes, x_shape, y_shape):
        """Bind input x and output y to GPU tensors; X_BYTES is copied
        into x's tensor once."""
        self.tensors = []
        for kind, name, shape, data in ((SLOT_INPUT, b"x", x_shape, x_bytes),
                                        (SLOT_OUTPUT, b"y", y_shape, None)):
            t = C.c_void_p()
            ck(lib.rlx_tensor_create(self.p, self.dtype, len(shape),
                                     i64s(shape), data, C.byref(t)))
            ck(lib.rlx_program_bind(self.p, kind, name, t))
            self.tensors.append(t)
        self.y_shape = y_shape

    def bound_output(self):
        n = int(np.prod(self.y_shape)) * (2 if self.dtype == BF16 else 4)
        raw = np.empty(n, np.uint8)
        ck(lib.rlx_tensor_read(self.tensors[1], raw.ctypes.data_as(
            C.c_void_p), C.c_size_t(n)))
        if self.dtype == BF16:
            return torch.from_numpy(raw.view(np.int16)).view(
                torch.bfloat16).reshape(self.y_shape).float()
        return torch.from_numpy(raw.view(np.float32)).reshape(self.y_shape)

    def bench_fn(self, x_bytes, in_place=False):
        """One forward per call. IN_PLACE: the input already sits in the
        program's own (pinned) input buffer, as PyTorch's "+io" input sits
        in pinned host memory; else rlx_program_set_input copies it first."""
        p, n = self.p, len(x_bytes)
        set_input, run = lib.rlx_program_set_input, lib.rlx_program_run
        if in_place:
            size = C.c_size_t()
            buf = lib.rlx_program_input_buffer(p, b"x", C.byref(size))
            assert buf and size.value == n
            C.memmove(buf, x_bytes, n)
            return lambda: run(p)

        def fn():
            set_input(p, b"x", x_bytes, n)
            run(p)
        return fn


def timeit(fn, sync=None, min_time=0.3, blocks=5):
    """Median over BLOCKS of the mean time per call, in ms."""
    for _ in range(10):
        fn()
    if sync:
        sync()
    t0 = time.perf_counter()
    k = 0
    while time.perf_counter() - t0 < 0.05:
        fn()
        k += 1
    if sync:
        sync()
    per = (time.perf_counter() - t0) / max(k, 1)
    iters = max(3, int(min_time / blocks / max(per, 1e-7)))
    res = []
    for _ in range(blocks):
        t0 = time.perf_counter()
        for _ in range(iters):
            fn()
        if sync:
            sync()
        res.append((time.perf_counter() - t0) / iters * 1e3)
    return sorted(res)[blocks // 2]


def torch_variants(model, x_host, compile_ok=True):
    """Times of PyTorch eager, CUDA graph and torch.compile,
    device-resident and host-in/host-out, the best device-resident one
    ("best"), and the output."""
    sync = torch.cuda.synchronize
    xd = x_host.cuda()
    xp = x_host.pin_memory()
    out = {}
    with torch.inference_mode():
        y = model(xd)
        yp = torch.empty(y.shape, dtype=y.dtype, pin_memory=True)
        out["eager"] = timeit(lambda: model(xd), sync)

        def eager_host():
            xs = xp.to("cuda", non_blocking=True)
            yp.copy_(model(xs), non_blocking=True)
            sync()
        out["eager+io"] = timeit(eager_host)
        static_x = xd.clone()
        s = torch.cuda.Stream()
        s.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(s):
            for _ in range(3):
                model(static_x)
        torch.cuda.current_stream().wait_stream(s)
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            static_y = model(static_x)
        out["graph"] = timeit(g.replay, sync)

        def graph_host():
            static_x.copy_(xp, non_blocking=True)
            g.replay()
            yp.copy_(static_y, non_blocking=True)
            sync()
        out["graph+io"] = timeit(graph_host)

        def graph_sync():
            g.replay()
            sync()
        # the contract of rlx_program_run: the forward done on return
        out["graph+sync"] = timeit(graph_sync)
    out["compile"] = float("nan")
    if compile_ok:
        # torch.compile (inductor) with its CUDA-graph replay
        # ("reduce-overhead"), the fastest of its modes for small graphs
        try:
            with torch.no_grad():
                cm = torch.compile(model, mode="reduce-overhead")
                for _ in range(5):
                    yc = cm(xd)
                sync()
                err = compare(yc.float().cpu(), y.float().cpu())[0]
                out["compile"] = timeit(lambda: cm(xd), sync)
                print(f"# torch.compile: rel.err vs eager {err:.1e}",
                      flush=True)
        except Exception as e:  # noqa: BLE001 - report, keep benchmarking
            print(f"# torch.compile failed: {e}", flush=True)
    out["best"] = min(v for k2, v in out.items()
                      if k2 in ("eager", "graph", "compile") and v == v)
    return out, y.float().cpu()


def compare(a, b):
    a, b = a.double(), b.double()
    rel = (a - b).norm() / max(b.norm(), 1e-30)
    return float(rel), float((a - b).abs().max())


# ---- models -----------------------------------------------------------------

def mlp_graph(lin, dtype, batch):
    g = Graph(dtype)
    x = g.inp("x", [batch, 784])
    h = x
    for i, l in enumerate(lin):
        w = g.param(f"w{i}", l.weight)            # [out, in]
        b = g.param(f"b{i}", l.bias)
        h = g.node("matmul", [h, w], ints=[0, 1])  # x @ w^T
        h = g.node("add", [h, b])
        if i < len(lin) - 1:
            h = g.node("relu", [h])
    g.output("y", h)
    return g


def encoder_graph(layer, dtype, B, S, D, H):
    g = Graph(dtype)
    Dh = D // H
    x = g.inp("x", [B, S, D])
    at = layer.self_attn
    w_in = g.param("w_in", at.in_proj_weight)        # [3D, D]
    b_in = g.param("b_in", at.in_proj_bias)
    qkv = g.node("add", [g.node("matmul", [x, w_in], ints=[0, 1]), b_in])
    heads = []
    for i in range(3):
        t = g.node("slice", [qkv], ints=[2, i * D, (i + 1) * D])
        t = g.node("reshape", [t], ints=[B, S, H, Dh])
        heads.append(g.node("transpose", [t], ints=[0, 2, 1, 3]))
    q, k, v = heads
    scale = g.const("scale", torch.tensor([1.0 / math.sqrt(Dh)],
                                          dtype=torch_dtype(dtype)))
    sc = g.node("mul", [g.node("matmul", [q, k], ints=[0, 1]), scale])
    p = g.node("softmax", [sc], ints=[-1])
    a = g.node("matmul", [p, v])                        # [B, H, S, Dh]
    a = g.node("reshape", [g.node("transpose", [a], ints=[0, 2, 1, 3])],
               ints=[B, S, D])
    w_o = g.param("w_o", at.out_proj.weight)
    b_o = g.param("b_o", at.out_proj.bias)
    a = g.node("add", [g.node("matmul", [a, w_o], ints=[0, 1]), b_o])
    x1 = g.node("layer_norm", [g.node("add", [x, a]),
                               g.param("g1", layer.norm1.weight),
                               g.param("be1", layer.norm1.bias)],
                floats=[layer.norm1.eps])
    w1 = g.param("w1", layer.linear1.weight)
    b1 = g.param("b1", layer.linear1.bias)
    w2 = g.param("w2", layer.linear2.weight)
    b2 = g.param("b2", layer.linear2.bias)
    h = g.node("relu", [g.node("add", [g.node("matmul", [x1, w1],
                                              ints=[0, 1]), b1])])
    h = g.node("add", [g.node("matmul", [h, w2], ints=[0, 1]), b2])
    y = g.node("layer_norm", [g.node("add", [x1, h]),
                              g.param("g2", layer.norm2.weight),
                              g.param("be2", layer.norm2.bias)],
               floats=[layer.norm2.eps])
    g.output("y", y)
    return g


def torch_dtype(d):
    return {F32: torch.float32, BF16: torch.bfloat16, F16: torch.float16}[d]


def main():
    torch.manual_seed(0)
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    torch.set_float32_matmul_precision("highest")
    rt = C.c_void_p()
    ck(lib.rlx_runtime_create(C.byref(rt), 0))
    print(f"# GPU: {torch.cuda.get_device_name(0)}, torch {torch.__version__}")
    rows = []
    hdr = (f"{'model':<30} {'rlx@in':>8} {'rlx@dev':>8} {'rlx@q':>8} "
           f"{'eager':>8} "
           f"{'graph':>8} {'compile':>8} {'best':>8} {'rlx/best':>8} "
           f"{'q/best':>8} "
           f"{'g+sync':>8} {'eager+io':>9} {'graph+io':>9} "
           f"{'dev/graph':>9} {'in/graph+io':>11} "
           f"{'rel.err':>9} {'dev.err':>9}")
    print(hdr)
    print(f"# allow_tf32 {torch.backends.cuda.matmul.allow_tf32}, "
          f"fp32 precision {torch.get_float32_matmul_precision()}")

    def report(name, prog, x_bytes, x_shape, y_shape, tv, y_ref):
        """"ratio" columns: PyTorch time / rlx time (>1x: rlx faster)."""
        y_rlx = prog.run(x_bytes, y_shape)
        t_in = timeit(prog.bench_fn(x_bytes, in_place=True))
        prog.bind(x_bytes, x_shape, y_shape)
        run, p = lib.rlx_program_run, prog.p
        t_dev = timeit(lambda: run(p))
        ck(run(p))
        rel, _ = compare(y_rlx, y_ref)
        rel_dev, _ = compare(prog.bound_output(), y_ref)
        submit, wait = lib.rlx_program_submit, lib.rlx_program_wait
        t_q = timeit(lambda: submit(p), lambda: ck(wait(p)))
        ck(submit(p))
        ck(wait(p))
        # the host's own time per submit: 50 queued back to back on an
        # idle queue return before the GPU has run them, unless the host
        # is what sets rlx@q's pace
        t0 = time.perf_counter()
        for _ in range(50):
            submit(p)
        host_q = (time.perf_counter() - t0) / 50 * 1e6
        ck(wait(p))
        print(f"# {name}: {host_q:.1f} us of host time per submit, "
              f"{t_q * 1e3:.1f} us per queued run", flush=True)
        rel_q, _ = compare(prog.bound_output(), y_ref)
        assert rel_q <= max(2 * rel_dev, 1e-6), (rel_q, rel_dev)
        line = (f"{name:<30} {t_in:8.4f} {t_dev:8.4f} {t_q:8.4f} "
                f"{tv['eager']:8.4f} "
                f"{tv['graph']:8.4f} {tv['compile']:8.4f} {tv['best']:8.4f} "
                f"{t_dev / tv['best']:7.2f}x {t_q / tv['best']:7.2f}x "
                f"{tv['graph+sync']:8.4f} "
                f"{tv['eager+io']:9.4f} "
                f"{tv['graph+io']:9.4f} {tv['graph'] / t_dev:8.2f}x "
                f"{tv['graph+io'] / t_in:10.2f}x {rel:9.2e} {rel_dev:9.2e}")
        print(line, flush=True)
        rows.append(line)

    picked = [w.strip() for w in os.environ.get("BENCH_MODELS", "").split(",")
              if w.strip()]

    def wanted(name):
        """BENCH_MODELS: comma-separated substrings of the rows to run"""
        return not picked or any(w in name for w in picked)

    # BENCH_AB: more rows of the default plan, each compiled with other
    # settings, given as NAME=VALUE[,NAME=VALUE...], variants separated
    # by ';'
    bench_ab = [ab for ab in os.environ.get("BENCH_AB", "").split(";") if ab]

    def variants(name, make, x_bytes, x_shape, y_shape, tv, y_ref,
                 settings=()):
        """The default plan ("tuned"), then the previous one:
        RLX_CUDA_MATMUL=heuristic (read at compile time) has matmuls
        choose among cuBLASLt's own candidates only (no split-K, no GEMV).
        Then the default plan under each of SETTINGS and BENCH_AB's
        variants, to measure what a setting changes in the same run."""
        plans = [("", {"RLX_CUDA_MATMUL": "tuned"}),
                 (" (heuristic)", {"RLX_CUDA_MATMUL": "heuristic"})]
        for ab in list(settings) + bench_ab:
            env = dict(kv.split("=", 1) for kv in ab.split(",") if "=" in kv)
            plans.append((f" ({ab})", {k.strip(): v.strip()
                                       for k, v in env.items()}))
        for label, env in plans:
            os.environ.update(env)
            prog = Program(rt, make())
            report(name + label, prog, x_bytes, x_shape, y_shape, tv, y_ref)
            for k in env:
                os.environ.pop(k, None)

    # MLP, f32
    lin = [torch.nn.Linear(784, 4096), torch.nn.Linear(4096, 4096),
           torch.nn.Linear(4096, 10)]
    model = torch.nn.Sequential(lin[0], torch.nn.ReLU(), lin[1],
                                torch.nn.ReLU(), lin[2]).cuda().eval()
    for batch in (1, 64, 1024):
        x = torch.randn(batch, 784)
        if not wanted(f"mlp f32 batch {batch}"):
            continue
        tv, y_ref = torch_variants(model, x, compile_ok=batch == 1)
        variants(f"mlp f32 batch {batch}",
                 lambda: mlp_graph(lin, F32, batch), to_bytes(x),
                 [batch, 784], [batch, 10], tv, y_ref,
                 settings=("RLX_CUDA_DEP_LAUNCH=0",) if batch == 1 else ())

    # the example MLP (784-512-512-10) at batch 1: a program whose
    # kernels take less time than the host's launches of them
    small = [torch.nn.Linear(784, 512), torch.nn.Linear(512, 512),
             torch.nn.Linear(512, 10)]
    model = torch.nn.Sequential(small[0], torch.nn.ReLU(), small[1],
                                torch.nn.ReLU(), small[2]).cuda().eval()
    x = torch.randn(1, 784)
    if wanted("mlp-small f32 batch 1"):
        tv, y_ref = torch_variants(model, x)
        variants("mlp-small f32 batch 1", lambda: mlp_graph(small, F32, 1),
                 to_bytes(x), [1, 784], [1, 10], tv, y_ref)

    # Transformer encoder block, f32 and bf16
    B, S, D, H, FF = 8, 128, 512, 8, 2048
    for dt in (F32, BF16):
        torch.manual_seed(1)
        layer = torch.nn.TransformerEncoderLayer(
            D, H, FF, dropout=0.0, activation="relu", batch_first=True)
        layer = layer.to(torch_dtype(dt)).cuda().eval()
        x = torch.randn(B, S, D).to(torch_dtype(dt))
        name = f"encoder {'f32' if dt == F32 else 'bf16'} b{B} s{S}"
        if not wanted(name):
            continue
        tv, y_ref = torch_variants(layer, x)
        variants(name, lambda: encoder_graph(layer, dt, B, S, D, H),
                 to_bytes(x), [B, S, D], [B, S, D], tv, y_ref)
    print("\n# summary (ms per forward; rlx/best: rlx@dev / the best of "
          "PyTorch eager, graph and compile, <1x = rlx faster; q/best: "
          "the same for rlx@q, runs queued as PyTorch's graph replays; other "
          "ratios: PyTorch / rlx, >1x = rlx faster; dev = rlx@dev, in = "
          "rlx@in; g+sync: graph replay synchronized per call, as "
          "rlx_program_run is)")
    print(hdr)
    for r in rows:
        print(r)
    return 0


if __name__ == "__main__":
    sys.exit(main())
