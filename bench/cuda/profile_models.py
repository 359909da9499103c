#!/usr/bin/env python3
"""profile_models.py - the kernels of one forward of the bf16 encoder
block, the f32 encoder block and the MLP at batch 1, rlx (device-resident,
as bench_models.py's rlx@dev) and PyTorch (CUDA-graph replay), for
Nsight Compute: only the forwards run between cudaProfilerStart and
cudaProfilerStop, so

    ncu --clock-control none --profile-from-start off \\
        --metrics gpu__time_duration.sum --csv python3 profile_models.py

lists each kernel's duration without compilation, autotuning or
warm-up. REPS forwards of each (default 3).
"""
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_models as bm  # noqa: E402


def main():
    reps = int(os.environ.get("REPS", "3"))
    torch.manual_seed(0)
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.set_float32_matmul_precision("highest")
    rt = bm.C.c_void_p()
    bm.ck(bm.lib.rlx_runtime_create(bm.C.byref(rt), 0))
    work = []
    B, S, D, H, FF = 8, 128, 512, 8, 2048
    for dt in (bm.BF16, bm.F32):
        torch.manual_seed(1)
        layer = torch.nn.TransformerEncoderLayer(
            D, H, FF, dropout=0.0, activation="relu", batch_first=True)
        layer = layer.to(bm.torch_dtype(dt)).cuda().eval()
        x = torch.randn(B, S, D).to(bm.torch_dtype(dt))
        prog = bm.Program(rt, bm.encoder_graph(layer, dt, B, S, D, H))
        prog.bind(bm.to_bytes(x), [B, S, D], [B, S, D])
        work.append((f"encoder {dt}", prog, layer, x))
    lin = [torch.nn.Linear(784, 4096), torch.nn.Linear(4096, 4096),
           torch.nn.Linear(4096, 10)]
    model = torch.nn.Sequential(lin[0], torch.nn.ReLU(), lin[1],
                                torch.nn.ReLU(), lin[2]).cuda().eval()
    x = torch.randn(1, 784)
    prog = bm.Program(rt, bm.mlp_graph(lin, bm.F32, 1))
    prog.bind(bm.to_bytes(x), [1, 784], [1, 10])
    work.append(("mlp b1", prog, model, x))
    graphs = []
    with torch.inference_mode():
        for name, prog, m, x in work:
            bm.ck(bm.lib.rlx_program_run(prog.p))
            xd = x.cuda()
            s = torch.cuda.Stream()
            s.wait_stream(torch.cuda.current_stream())
            with torch.cuda.stream(s):
                for _ in range(3):
                    m(xd)
            torch.cuda.current_stream().wait_stream(s)
            g = torch.cuda.CUDAGraph()
            with torch.cuda.graph(g):
                m(xd)
            g.replay()
            graphs.append(g)
        torch.cuda.synchronize()
        torch.cuda.profiler.start()
        for (name, prog, m, x), g in zip(work, graphs):
            for _ in range(reps):
                bm.ck(bm.lib.rlx_program_run(prog.p))
            for _ in range(reps):
                g.replay()
            torch.cuda.synchronize()
        torch.cuda.profiler.stop()
    print("order: " + ", ".join(f"{n}: rlx x{reps} then torch graph x{reps}"
                                for n, *_ in work))
    return 0


if __name__ == "__main__":
    sys.exit(main())
