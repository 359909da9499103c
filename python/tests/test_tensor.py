"""rlx.Tensor: outputs kept on the device (keep_on_device=True), tensors
fed back as inputs with no copy, DLPack both ways with NumPy and PyTorch
on the host (same addresses, checked), and what is refused."""
import gc
import os
import sys

import numpy as np
import pytest

import rlx


def xb(batch=2):
    return np.linspace(-1, 1, batch * 3, dtype=np.float32).reshape(batch, 3)


# cpu-ref's tensors are its buffers (rlx.memory.v1); cpu-openblas's are
# host memory the core holds: both must share memory the same way
BACKENDS = ["cpu-ref"] + (["cpu-openblas"] if os.environ.get("RLX_TEST_BLAS_DIR") else [])


@pytest.fixture(params=BACKENDS)
def sess(request, onnx_model):
    with rlx.Session(onnx_model[0], device=request.param) as s:
        yield s


def test_keep_on_device_returns_tensors(sess):
    y, z = sess.run({"x": xb()}, keep_on_device=True)
    assert isinstance(y, rlx.Tensor) and isinstance(z, rlx.Tensor)
    want_y, want_z = sess.run({"x": xb()})
    assert y.shape == (2, 2) and y.dtype == "float32" and y.device == "cpu:0"
    np.testing.assert_array_equal(y.numpy(), want_y)
    np.testing.assert_array_equal(np.asarray(z), want_z)
    # each run gives new tensors: the first ones keep their values
    y2, = sess.run({"x": xb() * 3}, outputs=["y"], keep_on_device=True)
    np.testing.assert_array_equal(y.numpy(), want_y)
    assert not np.array_equal(y2.numpy(), want_y)


def test_same_output_twice_is_one_tensor(sess):
    a, b = sess.run({"x": xb()}, outputs=["z", "z"], keep_on_device=True)
    assert a is b


def test_tensor_feeds_a_run(sess):
    t = rlx.Tensor(xb(), sess)
    assert t.shape == (2, 3) and t.dtype == "float32"
    np.testing.assert_array_equal(t.numpy(), xb())
    y1, z1 = sess.run({"x": t})
    y0, z0 = sess.run({"x": xb()})
    np.testing.assert_array_equal(y1, y0)
    np.testing.assert_array_equal(z1, z0)
    # an output tensor feeds the next run: z = 2x, then 2z = 4x
    (z,) = sess.run({"x": t}, outputs=["z"], keep_on_device=True)
    (zz,) = sess.run({"x": z}, outputs=["z"])
    np.testing.assert_allclose(zz, 4 * xb())
    # after binding, plain arrays work again
    y2, _ = sess.run({"x": xb(5)})
    assert y2.shape == (5, 2)


def test_tensor_of_another_batch_reshapes(sess):
    t = rlx.Tensor(xb(7), sess)
    y, z = sess.run({"x": t})
    assert y.shape == (7, 2)
    np.testing.assert_allclose(z, 2 * xb(7))


def test_numpy_from_dlpack_is_the_same_memory(sess):
    (z,) = sess.run({"x": xb()}, outputs=["z"], keep_on_device=True)
    assert z.__dlpack_device__() == (1, 0)
    a = np.from_dlpack(z)
    assert a.__array_interface__["data"][0] == z.data_ptr
    np.testing.assert_allclose(a, 2 * xb())
    del z
    gc.collect()
    np.testing.assert_allclose(a, 2 * xb())  # the array keeps it alive


def test_torch_shares_memory_both_ways(sess):
    import torch
    (z,) = sess.run({"x": xb()}, outputs=["z"], keep_on_device=True)
    tz = torch.from_dlpack(z)
    assert tz.data_ptr() == z.data_ptr
    assert torch.equal(tz, torch.from_numpy(2 * xb()))
    # a torch CPU tensor (with strides) feeds a run
    tx = torch.from_numpy(xb(4).T.copy()).T  # non-contiguous view
    y, zz = sess.run({"x": tx})
    np.testing.assert_allclose(zz, 2 * xb(4))


def test_dlpack_capsule_unconsumed_frees(sess):
    (z,) = sess.run({"x": xb()}, outputs=["z"], keep_on_device=True)
    before = sys.getrefcount(z)
    cap = z.__dlpack__()
    assert sys.getrefcount(z) == before + 1
    del cap
    assert sys.getrefcount(z) == before


def test_tensor_refusals(sess, mlp):
    with pytest.raises(rlx.DtypeError, match="float64.*float32|f64.*f32"):
        sess.run({"x": rlx.Tensor(xb().astype(np.float64), sess)})
    with pytest.raises(TypeError):
        rlx.Tensor(xb(), "not a session")
    with pytest.raises(rlx.DtypeError):
        rlx.Tensor(np.zeros(3, np.complex64), sess)
    (z,) = sess.run({"x": xb()}, outputs=["z"], keep_on_device=True)
    with pytest.raises(BufferError, match="copy"):
        z.__dlpack__(copy=True)
    with pytest.raises(BufferError):
        z.__dlpack__(dl_device=(2, 0))
    other = rlx.Session(mlp[0], device=sess.backend)
    other.close()
    with pytest.raises(rlx.StateError):
        rlx.Tensor(xb(), other)


def test_tensor_outlives_its_session(onnx_model):
    s = rlx.Session(onnx_model[0], device="cpu-ref")
    (z,) = s.run({"x": xb()}, outputs=["z"], keep_on_device=True)
    s.close()
    del s
    gc.collect()
    np.testing.assert_allclose(z.numpy(), 2 * xb())
    assert "float32" in repr(z)
