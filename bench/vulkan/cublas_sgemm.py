"""cublas_sgemm.py - f32 matmul throughput of cuBLAS through PyTorch with
TF32 off (torch.backends.cuda.matmul.allow_tf32 = False), timed with CUDA
events (median of 20 after 5 warm-ups), for comparison with
vk_bench_sgemm on the same GPU.  usage: python3 cublas_sgemm.py [N ...]"""
import sys
import torch

torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False
torch.set_float32_matmul_precision("highest")
sizes = [int(s) for s in sys.argv[1:]] or [1024, 2048, 4096]
print("device:", torch.cuda.get_device_name(0), "torch", torch.__version__,
      "cuda", torch.version.cuda)
print(f"{'n':<6} {'shader':<12} {'ms':>10} {'GFLOP/s':>10}")
for n in sizes:
    a = torch.rand(n, n, device="cuda") * 2 - 1
    b = torch.rand(n, n, device="cuda") * 2 - 1
    for _ in range(5):
        c = a @ b
    times = []
    for _ in range(20):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        c = a @ b
        e.record()
        torch.cuda.synchronize()
        times.append(s.elapsed_time(e))
    times.sort()
    ms = times[len(times) // 2]
    ref = (a.double() @ b.double())
    err = ((c.double() - ref).abs().max() / ref.abs().max()).item()
    print(f"{n:<6} {'cublas-f32':<12} {ms:10.3f} {2 * n**3 / ms / 1e6:10.1f}  (max err {err:.1e})")
