#!/usr/bin/env python3
"""queued_alone.py - rlx's bf16 encoder block (bench_models.py's, same
seed and shapes) timed queued (rlx_program_submit, as bench_models.py's
rlx@q) in a process where PyTorch never touches the GPU, then again
after PyTorch has made its CUDA context and run its own graph of the
block: does sharing the process with PyTorch change rlx's time?

    RLX_LIB=... RLX_PLUGIN_PATH=... python3 queued_alone.py
"""
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_models as bm  # noqa: E402


def queued_us(prog):
    p = prog.p
    ms = bm.timeit(lambda: bm.lib.rlx_program_submit(p),
                   lambda: bm.ck(bm.lib.rlx_program_wait(p)))
    return ms * 1e3


def main():
    B, S, D, H, FF = 8, 128, 512, 8, 2048
    torch.manual_seed(1)
    layer = torch.nn.TransformerEncoderLayer(
        D, H, FF, dropout=0.0, activation="relu", batch_first=True)
    layer = layer.to(torch.bfloat16).eval()  # stays on the CPU
    x = torch.randn(B, S, D).to(torch.bfloat16)
    rt = bm.C.c_void_p()
    bm.ck(bm.lib.rlx_runtime_create(bm.C.byref(rt), 0))
    prog = bm.Program(rt, bm.encoder_graph(layer, bm.BF16, B, S, D, H))
    prog.bind(bm.to_bytes(x), [B, S, D], [B, S, D])
    assert not torch.cuda.is_initialized()
    alone = [queued_us(prog) for _ in range(3)]
    print("rlx@q, PyTorch not on the GPU:  " +
          " ".join(f"{t:6.2f}" for t in alone) + " us")
    lg = layer.cuda()
    xd = x.cuda()
    with torch.inference_mode():
        for _ in range(3):
            lg(xd)
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            lg(xd)
    torch.cuda.synchronize()
    torch_ms = bm.timeit(g.replay, torch.cuda.synchronize)
    after = [queued_us(prog) for _ in range(3)]
    print("rlx@q, after PyTorch's graph:   " +
          " ".join(f"{t:6.2f}" for t in after) + " us")
    print(f"PyTorch's graph replay:          {torch_ms * 1e3:6.2f} us")


if __name__ == "__main__":
    main()
