#!/usr/bin/env python3
"""bench_resnet50.py - torchvision ResNet-50 (random weights from a fixed
seed) through rlx's cuda backend and through PyTorch on the same GPU, in
one process, batch 1 and 32, f32, bf16 and int8 (QDQ), with the outputs
compared.

The model is exported once per batch and dtype into --cache with torch's
TorchScript exporter (eval mode: batch norm folded into the convs, as
test/onnx/torchvision_models.py does); the bf16 file is the f32 one with
every float initializer, input and output turned to bfloat16 (rlx runs a
bf16 graph on tensor cores; PyTorch runs model.to(torch.bfloat16)).

The int8 model (mode "int8") is the f32 file quantized by
test/onnx/qdq_models.py's QDQ writer (per-tensor u8 activations,
per-channel symmetric i8 weights, calibrated on the batch-1 export's
seeded input), which rlx lowers to fused int8 convs; it is timed on rlx
only, next to the bf16 and f32 rows (PyTorch's columns there are its f32
strict times), and its output compared with PyTorch's f32 logits.

PyTorch's side: cudnn.benchmark on; eager NCHW, eager channels_last and
CUDA-graph replay of each layout, and torch.compile (channels_last,
--compile-mode, default max-autotune-no-cudagraphs; --no-compile skips
it); "best" is the fastest. f32 is timed
twice: strict (TF32 off in cuDNN and matmul: what rlx's default strict
precision computes) against rlx strict, and with PyTorch's defaults
(cuDNN convs on TF32) against rlx with precision "tf32".

rlx's side: the ONNX file compiled by rlx_model_compile on "cuda", its
input and output bound to device tensors; "rlx@q" queues runs back to
back and waits once per block (as PyTorch's timings sync once per
block), "rlx@run" waits for each run. Every time is the median over 5
blocks of the mean time per call. --ab NAME=VALUE[,NAME=VALUE] adds rlx
rows compiled with those settings (e.g. cuda.fuse=0), so a change
is measured against what it replaced in the same process.

    RLX_LIB=build/core/librlx.so.1 RLX_PLUGIN_PATH=build/plugins/cuda \\
        python3 bench/cuda/bench_resnet50.py --cache /tmp/r50
"""
import argparse
import copy
import ctypes as C
import inspect
import os
import sys
import time

import numpy as np
import torch

SEED = 20261128
F32, BF16 = 1, 3
SLOT_INPUT, SLOT_OUTPUT = 1, 3
PRECISION = {"strict": 0, "tf32": 1, "reduced": 2}

lib = C.CDLL(os.environ.get("RLX_LIB", "librlx.so.1"))
lib.rlx_last_error.restype = C.c_char_p
lib.rlx_model_graph.restype = C.c_void_p


def ck(st):
    if st != 0:
        raise RuntimeError(lib.rlx_last_error().decode())


def timeit(fn, sync=None, min_time=0.5, blocks=5):
    """Median over BLOCKS of the mean time per call, in ms."""
    for _ in range(5):
        fn()
    if sync:
        sync()
    t0 = time.perf_counter()
    k = 0
    while time.perf_counter() - t0 < 0.1:
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


def make_model():
    import torchvision
    torch.manual_seed(SEED)
    model = torchvision.models.resnet50(weights=None).eval()
    # statistics of random batches keep activations near unit scale
    bns = [m for m in model.modules()
           if isinstance(m, torch.nn.modules.batchnorm._BatchNorm)]
    for bn in bns:
        bn.reset_running_stats()
        bn.momentum = None
    model.train()
    gen = torch.Generator().manual_seed(SEED + 2)
    with torch.no_grad():
        model(torch.randn(8, 3, 224, 224, generator=gen))
    return model.eval()


def to_bf16_onnx(src, dst):
    """SRC's f32 ONNX model with every float tensor made bfloat16."""
    import onnx
    from onnx import TensorProto, numpy_helper
    m = onnx.load(src)
    for init in m.graph.initializer:
        if init.data_type != TensorProto.FLOAT:
            continue
        a = numpy_helper.to_array(init).astype(np.float32)
        b = torch.from_numpy(a).to(torch.bfloat16).view(torch.int16)
        bits = b.numpy().view(np.uint16)
        init.ClearField("float_data")
        init.ClearField("raw_data")
        init.data_type = TensorProto.BFLOAT16
        init.raw_data = bits.tobytes()
    for v in list(m.graph.input) + list(m.graph.output):
        if v.type.tensor_type.elem_type == TensorProto.FLOAT:
            v.type.tensor_type.elem_type = TensorProto.BFLOAT16
    del m.graph.value_info[:]
    onnx.save(m, dst)


def export(cache, model, batch):
    path = os.path.join(cache, f"resnet50_b{batch}.onnx")
    if not os.path.exists(path):
        kw = {}
        if "dynamo" in inspect.signature(torch.onnx.export).parameters:
            kw["dynamo"] = False
        x = torch.zeros(batch, 3, 224, 224)
        torch.onnx.export(model, x, path, opset_version=17,
                          input_names=["input"], output_names=["logits"],
                          do_constant_folding=True, **kw)
    bf = os.path.join(cache, f"resnet50_b{batch}_bf16.onnx")
    if not os.path.exists(bf):
        to_bf16_onnx(path, bf)
    return path, bf


class RlxProgram:
    """An ONNX file compiled on cuda, input and output on the device."""

    def __init__(self, rt, path, precision, settings, x, out_shape, dtype):
        self.m, self.s, self.p = C.c_void_p(), C.c_void_p(), C.c_void_p()
        ck(lib.rlx_model_load(path.encode(), C.byref(self.m)))
        ck(lib.rlx_session_create(rt, b"cuda", C.byref(self.s)))
        ck(lib.rlx_session_set_precision(self.s, PRECISION[precision]))
        for k, v in settings.items():
            ck(lib.rlx_session_set_option(self.s, k.encode(), v.encode()))
        t0 = time.perf_counter()
        ck(lib.rlx_model_compile(self.m, self.s, C.byref(self.p)))
        self.compile_s = time.perf_counter() - t0
        self.tensors = []
        raw = x.contiguous().view(torch.int16).numpy().tobytes() \
            if dtype == BF16 else x.contiguous().numpy().tobytes()
        for kind, name, shape, data in (
                (SLOT_INPUT, b"input", list(x.shape), raw),
                (SLOT_OUTPUT, b"logits", out_shape, None)):
            t = C.c_void_p()
            dims = (C.c_int64 * len(shape))(*shape)
            ck(lib.rlx_tensor_create(self.p, dtype, len(shape), dims, data,
                                     C.byref(t)))
            ck(lib.rlx_program_bind(self.p, kind, name, t))
            self.tensors.append(t)
        self.out_shape, self.dtype = out_shape, dtype

    def output(self):
        n = int(np.prod(self.out_shape))
        if self.dtype == BF16:
            a = np.empty(n, np.uint16)
            ck(lib.rlx_tensor_read(self.tensors[1], a.ctypes.data_as(
                C.c_void_p), a.nbytes))
            return (a.astype(np.uint32) << 16).view(np.float32).reshape(
                self.out_shape)
        a = np.empty(n, np.float32)
        ck(lib.rlx_tensor_read(self.tensors[1], a.ctypes.data_as(C.c_void_p),
                               a.nbytes))
        return a.reshape(self.out_shape)

    def times(self):
        run, submit, wait, p = (lib.rlx_program_run, lib.rlx_program_submit,
                                lib.rlx_program_wait, self.p)
        ck(run(p))
        t_run = timeit(lambda: run(p))
        t_q = timeit(lambda: submit(p), lambda: ck(wait(p)))
        return t_q, t_run

    def close(self):
        for t in self.tensors:
            lib.rlx_tensor_destroy(t)
        lib.rlx_program_destroy(self.p)
        lib.rlx_session_destroy(self.s)
        lib.rlx_model_destroy(self.m)


def qdq_export(cache, f32_path, b1_path):
    """F32_PATH's model quantized by qdq_models.py's writer, its scales
    calibrated on the batch-1 export B1_PATH (the seeded input)."""
    path = f32_path.replace(".onnx", "_qdq.onnx")
    if os.path.exists(path):
        return path
    import onnx
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, os.path.join(here, "..", "..", "test", "onnx"))
    import qdq_models
    b1 = onnx.load(b1_path)
    qdq_models.strip_identity(b1)
    rng = qdq_models.ranges(b1)
    m = onnx.load(f32_path)
    qdq_models.strip_identity(m)
    calibrated = qdq_models.ranges
    qdq_models.ranges = lambda _model: rng
    try:
        qm = qdq_models.make_qdq(m)
    finally:
        qdq_models.ranges = calibrated
    qm.ir_version = m.ir_version  # the exporter's, not this onnx's newest
    onnx.save(qm, path)
    return path


def torch_times(model, x, use_compile, compile_mode):
    """PyTorch's eager (NCHW, channels_last), graph and compile times,
    the best, and the output of the NCHW eager run."""
    sync = torch.cuda.synchronize
    out = {}
    with torch.inference_mode():
        y = model(x).float().cpu()
        out["eager"] = timeit(lambda: model(x), sync)
        mcl = model.to(memory_format=torch.channels_last)
        xcl = x.to(memory_format=torch.channels_last)
        out["eager_cl"] = timeit(lambda: mcl(xcl), sync)
        # a CUDA graph of each layout (eager's order of the two is no
        # guide to the graphs': launches hide the layout's gain)
        graphs = []
        for fmt in (torch.channels_last, torch.contiguous_format):
            gm = model.to(memory_format=fmt)
            gx = x.to(memory_format=fmt).clone()
            s = torch.cuda.Stream()
            s.wait_stream(torch.cuda.current_stream())
            with torch.cuda.stream(s):
                for _ in range(3):
                    gm(gx)
            torch.cuda.current_stream().wait_stream(s)
            g = torch.cuda.CUDAGraph()
            with torch.cuda.graph(g):
                gm(gx)
            graphs.append(timeit(g.replay, sync))
            del g
        out["graph"] = min(graphs)
    out["compile"] = float("nan")
    if use_compile:
        try:
            cm = torch.compile(model.to(memory_format=torch.channels_last),
                               mode=compile_mode)
            with torch.inference_mode():
                for _ in range(3):
                    cm(xcl)
                out["compile"] = timeit(lambda: cm(xcl), sync)
        except Exception as e:  # noqa: BLE001 - report, keep benchmarking
            print(f"# torch.compile failed: {type(e).__name__}: {e}",
                  flush=True)
        model.to(memory_format=torch.contiguous_format)
    out["best"] = min(v for k, v in out.items() if v == v)
    return out, y


def rel_err(a, b):
    return float(np.abs(a - b).max() / max(np.abs(b).max(), 1e-30))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cache", required=True)
    ap.add_argument("--batches", default="1,32")
    ap.add_argument("--modes", default="strict,tf32,bf16,int8")
    ap.add_argument("--ab", action="append", default=[],
                    help="NAME=VALUE[,NAME=VALUE]: another rlx row")
    ap.add_argument("--no-compile", dest="compile", action="store_false",
                    help="leave torch.compile out of PyTorch's best")
    ap.add_argument("--compile-mode", default="max-autotune-no-cudagraphs")
    args = ap.parse_args()
    os.makedirs(args.cache, exist_ok=True)
    torch.backends.cudnn.benchmark = True
    rt = C.c_void_p()
    ck(lib.rlx_runtime_create(C.byref(rt), 0))
    print(f"# GPU: {torch.cuda.get_device_name(0)}; torch {torch.__version__}"
          f", cuDNN {torch.backends.cudnn.version()}", flush=True)
    model = make_model()
    variants = [("", {})]
    for ab in args.ab:
        variants.append((ab, dict(kv.split("=", 1) for kv in ab.split(","))))
    print(f"{'batch':>5} {'mode':<7} {'rlx variant':<28} {'rlx@q':>8} "
          f"{'rlx@run':>8} {'eager':>8} {'eag_cl':>8} {'graph':>8} "
          f"{'compile':>8} {'best':>8} {'rlx/best':>8} {'rel.err':>8} "
          f"{'compile_s':>9}", flush=True)
    strict_times = {}
    for batch in [int(b) for b in args.batches.split(",")]:
        f32_path, bf_path = export(args.cache, model, batch)
        gen = torch.Generator().manual_seed(SEED + 1)
        xh = torch.randn(batch, 3, 224, 224, generator=gen)
        for mode in args.modes.split(","):
            bf = mode == "bf16"
            tf32 = mode == "tf32"
            q8 = mode == "int8"
            path = bf_path if bf else f32_path
            if q8:
                try:
                    path = qdq_export(args.cache, f32_path,
                                      export(args.cache, model, 1)[0])
                except Exception as e:  # noqa: BLE001 - report, go on
                    print(f"# int8 model not written: {type(e).__name__}: "
                          f"{e}", flush=True)
                    continue
            torch.backends.cudnn.allow_tf32 = tf32
            torch.backends.cuda.matmul.allow_tf32 = tf32
            dt = torch.bfloat16 if bf else torch.float32
            if q8 and batch in strict_times:
                tt, y_t = strict_times[batch]  # PyTorch f32 strict
            else:
                tm = copy.deepcopy(model).to(device="cuda", dtype=dt)
                xd = xh.to(device="cuda", dtype=dt)
                tt, y_t = torch_times(tm, xd, args.compile,
                                      args.compile_mode)
                del tm
                if mode in ("strict", "int8"):
                    strict_times[batch] = (tt, y_t)
            xr = xh.to(dt)
            for label, settings in variants:
                try:
                    prog = RlxProgram(rt, path,
                                      "reduced" if bf else
                                      "tf32" if tf32 else "strict",
                                      settings, xr, [batch, 1000],
                                      BF16 if bf else F32)
                except RuntimeError as e:
                    print(f"# rlx {mode} b{batch} {label}: {e}", flush=True)
                    continue
                t_q, t_run = prog.times()
                err = rel_err(prog.output(), y_t.numpy())
                print(f"{batch:5d} {mode:<7} {label or 'default':<28} "
                      f"{t_q:8.3f} {t_run:8.3f} {tt['eager']:8.3f} "
                      f"{tt['eager_cl']:8.3f} {tt['graph']:8.3f} "
                      f"{tt['compile']:8.3f} {tt['best']:8.3f} "
                      f"{t_q / tt['best']:7.2f}x {err:8.1e} "
                      f"{prog.compile_s:9.2f}", flush=True)
                prog.close()
    lib.rlx_runtime_destroy(rt)
    return 0


if __name__ == "__main__":
    sys.exit(main())
