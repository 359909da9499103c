#!/usr/bin/env python3
"""gpu-dlpack.py - torch -> rlx -> torch on one CUDA device moves no data.

Run by scripts/gpu-test.sh with PYTHONPATH at the build's python/ folder
and RLX_PLUGIN_PATH at the cuda plugin. Builds y = x * 2 + 1 with
rlx.Graph, feeds a torch CUDA tensor (wrapped, not copied: the plugin
reads torch's memory), keeps the output on the device, hands it to torch
through DLPack and checks by pointer that torch sees rlx's memory and by
value that the numbers are right. Exit status 0 when all holds.
"""
import os
import sys

import numpy as np
import torch

import rlx

os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")  # share the GPU


def main():
    g = rlx.Graph()
    x = g.input("x", "float32", (4, 256))
    two = g.constant("two", np.full((1,), 2, np.float32))
    one = g.constant("one", np.full((1,), 1, np.float32))
    y = g.node("add", [g.node("mul", [x, two]), one])
    g.output("y", y)
    s = rlx.Session(g, device="cuda:0", fallback="none")
    print("session:", s, s.placement)

    tx = torch.randn(4, 256, device="cuda:0")
    (ty,) = s.run({"x": tx}, keep_on_device=True)
    print("rlx output:", ty, "at", hex(ty.data_ptr))
    assert ty.__dlpack_device__() == (2, 0), ty.__dlpack_device__()
    back = torch.from_dlpack(ty)
    assert back.device.type == "cuda", back.device
    assert back.data_ptr() == ty.data_ptr, (hex(back.data_ptr()), hex(ty.data_ptr))
    torch.testing.assert_close(back, tx * 2 + 1)

    # torch's view of rlx's output feeds the next run (wrapped, no copy);
    # a run reads torch's memory as it is at the run
    (tz,) = s.run({"x": back}, keep_on_device=True)
    torch.testing.assert_close(torch.from_dlpack(tz), (tx * 2 + 1) * 2 + 1)
    tx.mul_(0)
    (t0,) = s.run({"x": tx})
    assert np.allclose(t0, 1.0), "the run did not read torch's memory"

    # another device's memory is copied, said so in docs/python.md: a CPU
    # session takes a CUDA tensor through the host
    c = rlx.Session(g, device="cpu")
    (yc,) = c.run({"x": tx + 3})
    assert np.allclose(yc, 7.0)
    print("PASS: torch -> rlx -> torch on cuda:0 with the same pointers")
    return jax_round_trip(s, tx)


def jax_round_trip(s, tx):
    """The same with JAX where its CUDA plugin is installed."""
    try:
        import jax
        import jax.numpy as jnp
        gpus = jax.devices("gpu")
    except Exception as e:  # no JAX, or JAX without a GPU here
        print(f"jax: not checked ({type(e).__name__}: {e})")
        return 0
    jx = jnp.asarray(np.arange(4 * 256, dtype=np.float32).reshape(4, 256), device=gpus[0])
    (ty,) = s.run({"x": jx}, keep_on_device=True)
    back = jax.dlpack.from_dlpack(ty)
    ptr = back.unsafe_buffer_pointer()
    assert ptr == ty.data_ptr, (hex(ptr), hex(ty.data_ptr))
    np.testing.assert_allclose(np.asarray(back), np.asarray(jx) * 2 + 1)
    print("PASS: jax -> rlx -> jax on the GPU with the same pointers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
