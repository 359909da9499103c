#!/usr/bin/env python3
"""bench_pjrt.py - the two example models (examples/: the 784-512-512-10
MLP, batch 8, and the pre-LN causal encoder block, 2x64x256, 4 heads,
ff 1024) with the same weights and input through:

  rlx pjrt-cuda  rlx's PJRT bridge driving JAX's CUDA PJRT plugin
  rlx cuda       rlx's native CUDA backend
  JAX jit        JAX's own jit of the same model written in jax.numpy

all in one process, on one GPU, with the outputs compared. Each is timed
host to host (input from host memory, output back in host memory, as
`rlx run` does it) and device to device (rlx: input and output in device
tensors bound to the program; JAX: the input already on the device, its
usual benchmark), as the median of 7 rounds of as many runs as fit in
about 0.1 s after a warm-up. Matmuls are f32 at full precision
everywhere (rlx's default strict precision; JAX's "highest").

    RLX_LIB=build/core/librlx.so.1 \
      RLX_PLUGIN_PATH=build/plugins/pjrt:build/plugins/cuda \
      RLX_PJRT_PLUGIN=.../jax_plugins/xla_cuda13/xla_cuda_plugin.so \
      python3 bench_pjrt.py build/examples
"""
import ctypes as C
import json
import os
import subprocess
import sys
import time

os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
import numpy as np  # noqa: E402

lib = C.CDLL(os.environ.get("RLX_LIB", "librlx.so.1"))
lib.rlx_last_error.restype = C.c_char_p
lib.rlx_program_output_data.restype = C.c_void_p
lib.rlx_model_graph.restype = C.c_void_p


def ck(st):
    if st != 0:
        raise RuntimeError(lib.rlx_last_error().decode())


def load_safetensors(path):
    with open(path, "rb") as f:
        n = int.from_bytes(f.read(8), "little")
        head = json.loads(f.read(n))
        data = f.read()
    out = {}
    for name, info in head.items():
        if name == "__metadata__":
            continue
        a, b = info["data_offsets"]
        out[name] = np.frombuffer(data[a:b], dtype=np.float32).reshape(
            info["shape"])
    return out


def timed(fn, sync=None):
    """Median ms per call of 7 rounds, each ~0.1 s. SYNC: called once at
    the end of each round (calls that only queue work)."""
    for _ in range(3):
        fn()
    if sync:
        sync()
    k, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < 0.1:
        fn()
        k += 1
    if sync:
        sync()
    res = []
    for _ in range(7):
        t0 = time.perf_counter()
        for _ in range(k):
            fn()
        if sync:
            sync()
        res.append((time.perf_counter() - t0) / k * 1e3)
    return sorted(res)[3]


class RlxModel:
    def __init__(self, rt, device, yaml):
        self.m = C.c_void_p()
        ck(lib.rlx_model_load(yaml.encode(), C.byref(self.m)))
        self.s = C.c_void_p()
        ck(lib.rlx_session_create(rt, device.encode(), C.byref(self.s)))
        self.p = C.c_void_p()
        t0 = time.perf_counter()
        ck(lib.rlx_session_compile(self.s, C.c_void_p(
            lib.rlx_model_graph(self.m)), C.byref(self.p)))
        ck(lib.rlx_model_set_params(self.m, self.p))
        self.compile_s = time.perf_counter() - t0

    def bind_out(self, x, out_shape):
        """Input and output in device tensors bound to the program."""
        self.tx, self.ty = C.c_void_p(), C.c_void_p()
        xs = (C.c_int64 * x.ndim)(*x.shape)
        ys = (C.c_int64 * len(out_shape))(*out_shape)
        ck(lib.rlx_tensor_create(self.p, 1, x.ndim, xs, x.ctypes.data_as(
            C.c_void_p), C.byref(self.tx)))
        ck(lib.rlx_tensor_create(self.p, 1, len(out_shape), ys, None,
                                 C.byref(self.ty)))
        ck(lib.rlx_program_bind(self.p, 1, b"x", self.tx))
        ck(lib.rlx_program_bind(self.p, 3, self.out_name.encode(), self.ty))

    def run_bound(self):
        ck(lib.rlx_program_run(self.p))

    def read_bound(self, out_shape):
        y = np.empty(out_shape, np.float32)
        ck(lib.rlx_tensor_read(self.ty, y.ctypes.data_as(C.c_void_p),
                               C.c_size_t(y.nbytes)))
        return y

    def run(self, x, out_shape):
        ck(lib.rlx_program_set_input(self.p, b"x", x.ctypes.data_as(
            C.c_void_p), C.c_size_t(x.nbytes)))
        ck(lib.rlx_program_run(self.p))
        n = C.c_size_t()
        ptr = lib.rlx_program_output_data(self.p, 0, C.byref(n))
        return np.ctypeslib.as_array(C.cast(ptr, C.POINTER(C.c_float)),
                                     shape=out_shape).copy()


def jax_models(w):
    import jax
    import jax.numpy as jnp
    jax.config.update("jax_default_matmul_precision", "highest")

    def mlp(p, x):
        h = jax.nn.relu(x @ p["fc1.weight"] + p["fc1.bias"])
        h = jax.nn.relu(h @ p["fc2.weight"] + p["fc2.bias"])
        return jax.nn.softmax(h @ p["fc3.weight"] + p["fc3.bias"], axis=-1)

    def ln(x, g, b):
        m = x.mean(-1, keepdims=True)
        v = ((x - m) ** 2).mean(-1, keepdims=True)
        return (x - m) / jnp.sqrt(v + 1e-5) * g + b

    def encoder(p, x):
        b, s, d = x.shape
        h, dh = 4, d // 4

        def lin(n, t):
            return t @ p[n + ".weight"] + p[n + ".bias"]

        def split(t):
            return t.reshape(b, s, h, dh).transpose(0, 2, 1, 3)
        a = ln(x, p["ln1.weight"], p["ln1.bias"])
        q, k, v = (split(lin(n, a)) for n in ("attn.q", "attn.k", "attn.v"))
        sc = (q @ k.transpose(0, 1, 3, 2)) * np.float32(1.0 / np.sqrt(dh))
        mask = jnp.tril(jnp.ones((s, s), bool))
        sc = jnp.where(mask, sc, -jnp.inf)
        pr = jax.nn.softmax(sc, axis=-1)
        o = (pr @ v).transpose(0, 2, 1, 3).reshape(b, s, d)
        r = x + lin("attn.out", o)
        u = jax.nn.gelu(lin("ff.up", ln(r, p["ln2.weight"], p["ln2.bias"])),
                        approximate=False)
        return r + lin("ff.down", u)
    return jax, {"mlp": jax.jit(mlp), "encoder": jax.jit(encoder)}


def gpu_memory_used():
    try:
        out = subprocess.run(["nvidia-smi", "--query-compute-apps=pid,"
                              "used_memory", "--format=csv,noheader"],
                             capture_output=True, text=True).stdout
        for line in out.splitlines():
            pid, mem = [x.strip() for x in line.split(",")]
            if int(pid) == os.getpid():
                return mem
    except (OSError, ValueError):
        pass
    return "?"


def main(examples):
    models = [("mlp", "mlp/mlp.yaml", "mlp/mlp.safetensors", "mlp/x.npy",
               (8, 10)),
              ("encoder", "transformer/encoder.yaml",
               "transformer/encoder.safetensors", "transformer/x.npy",
               (2, 64, 256))]
    rt = C.c_void_p()
    ck(lib.rlx_runtime_create(C.byref(rt), 0))
    rows = []
    outs = {}
    for name, yaml, st, xf, oshape in models:
        x = np.ascontiguousarray(np.load(os.path.join(examples, xf)))
        for dev in ("pjrt-cuda", "cuda"):
            m = RlxModel(rt, dev, os.path.join(examples, yaml))
            outs[(name, dev)] = m.run(x, oshape)
            ms = timed(lambda: m.run(x, oshape))
            rows.append((name, "rlx " + dev, "host->host", ms, m.compile_s))
            m.out_name = OUT_NAMES[name]
            m.bind_out(x, oshape)
            ms = timed(m.run_bound)
            bound = m.read_bound(oshape)
            if not np.array_equal(bound, outs[(name, dev)]):
                print(f"# {name} {dev}: device-tensor output differs from "
                      f"the host run", flush=True)
                AGREE.append(1.0)
            rows.append((name, "rlx " + dev, "device->device", ms,
                         m.compile_s))
            # the same runs queued (rlx_program_submit), one wait a round
            ms = timed(lambda: ck(lib.rlx_program_submit(m.p)),
                       lambda: ck(lib.rlx_program_wait(m.p)))
            if not np.array_equal(m.read_bound(oshape), bound):
                print(f"# {name} {dev}: queued output differs", flush=True)
                AGREE.append(1.0)
            rows.append((name, "rlx " + dev, "device,queued", ms,
                         m.compile_s))
            if dev == "pjrt-cuda" and name == "mlp":
                print(f"# GPU memory held by this process after the "
                      f"pjrt-cuda client: {gpu_memory_used()} "
                      f"(no preallocation)", flush=True)
    try:
        jax_rows(examples, models, rows, outs)
    except Exception as e:  # noqa: BLE001 - report and go on
        print(f"# JAX in this process failed ({e!r}); rerunning it alone",
              flush=True)
        r = subprocess.run([sys.executable, __file__, examples, "--jax"],
                           capture_output=True, text=True)
        sys.stderr.write(r.stderr[-2000:])
        for line in r.stdout.splitlines():
            if line.startswith("JAXROW "):
                name, io, ms, comp = line.split()[1:]
                rows.append((name, "JAX jit (own process)", io, float(ms),
                             float(comp)))
            if line.startswith("JAXOUT "):
                name, path = line.split()[1:]
                outs[(name, "jax")] = np.load(path)
    report(rows, outs, models)
    return 0 if all(d <= 1e-4 for d in AGREE) else 1


AGREE = []
OUT_NAMES = {"mlp": "probs", "encoder": "y"}


def report(rows, outs, models):
    print("# model    runtime         I/O              median ms  "
          "first compile+load s")
    for r in rows:
        print(f"{r[0]:9s}  {r[1]:14s}  {r[2]:15s}  {r[3]:9.4f}  {r[4]:8.3f}")
    print("# agreement (max |diff| against rlx cuda)")
    for name, *_ in models:
        ref = outs[(name, "cuda")].astype(np.float64)
        for dev in ("pjrt-cuda", "jax"):
            if (name, dev) not in outs:
                print(f"{name:9s}  {dev:10s} no output")
                AGREE.append(1.0)
                continue
            d = np.abs(outs[(name, dev)] - ref).max()
            AGREE.append(d)
            print(f"{name:9s}  {dev:10s} max|diff| {d:.2e}")


def jax_rows(examples, models, rows, outs):
    jax, fns = jax_models(None)
    for name, yaml, st, xf, oshape in models:
        x = np.ascontiguousarray(np.load(os.path.join(examples, xf)))
        w = {k: jax.device_put(v) for k, v in
             load_safetensors(os.path.join(examples, st)).items()}
        f = fns[name]
        t0 = time.perf_counter()
        outs[(name, "jax")] = np.asarray(f(w, x))
        comp = time.perf_counter() - t0
        rows.append((name, "JAX jit", "host->host",
                     timed(lambda: np.asarray(f(w, x))), comp))
        xd = jax.device_put(x)
        rows.append((name, "JAX jit", "device->device",
                     timed(lambda: f(w, xd).block_until_ready()), comp))
        last = [None]

        def step():
            last[0] = f(w, xd)
        rows.append((name, "JAX jit", "device,queued",
                     timed(step, lambda: last[0].block_until_ready()),
                     comp))
    print(f"# jax {jax.__version__}, devices {jax.devices()}")


def jax_only(examples):
    models = [("mlp", "mlp/mlp.safetensors", "mlp/x.npy"),
              ("encoder", "transformer/encoder.safetensors",
               "transformer/x.npy")]
    rows, outs = [], {}
    jax_rows(examples, [(n, None, st, xf, None) for n, st, xf in models],
             rows, outs)
    for r in rows:
        print(f"JAXROW {r[0]} {r[2]} {r[3]} {r[4]}")
    for (name, _), a in outs.items():
        path = f"/tmp/rlx-bench-jax-{name}.npy"
        np.save(path, a)
        print(f"JAXOUT {name} {path}")


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[2] == "--jax":
        jax_only(sys.argv[1])
        sys.exit(0)
    sys.exit(main(sys.argv[1]))
