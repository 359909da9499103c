"""rlx.Session over YAML and ONNX models: inputs and outputs, runs with
NumPy arrays and other array-likes, shapes that follow the inputs, and
what the session says about where it runs."""
import numpy as np
import pytest

import rlx


def x4():
    return np.linspace(-1, 1, 12, dtype=np.float32).reshape(4, 3)


def test_yaml_inputs_outputs(mlp):
    with rlx.Session(mlp[0]) as s:
        assert s.inputs == [rlx.TensorInfo("x", "float32", (4, 3))]
        assert [o.name for o in s.outputs] == ["probs", "hidden"]
        assert s.outputs[0] == rlx.TensorInfo("probs", "float32", (4, 2))
        assert s.format == "rlx"


def test_yaml_run_matches_numpy(mlp):
    path, ref = mlp
    s = rlx.Session(path, device="cpu")
    probs, hidden = s.run({"x": x4()})
    want_p, want_h = ref(x4())
    assert probs.dtype == np.float32 and probs.shape == (4, 2)
    np.testing.assert_allclose(probs, want_p, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(hidden, want_h, rtol=1e-5, atol=1e-6)
    assert probs.flags.writeable and probs.flags.c_contiguous


def test_outputs_subset_and_order(mlp):
    s = rlx.Session(mlp[0])
    h, p = s.run({"x": x4()}, outputs=["hidden", "probs"])
    assert h.shape == (4, 5) and p.shape == (4, 2)
    (p2,) = s.run({"x": x4()}, ["probs"])
    np.testing.assert_array_equal(p, p2)


def test_backend_device_placement(mlp):
    s = rlx.Session(mlp[0], device="cpu-ref", fallback="none",
                    precision="strict")
    assert s.backend == "cpu-ref"
    assert s.device == "cpu:0"
    assert "nodes on cpu:0" in s.placement
    assert "cpu-ref" in s.explain
    assert "cpu:0" in repr(s)


def test_onnx_symbolic_inputs(onnx_model):
    s = rlx.Session(onnx_model[0])
    assert s.format == "onnx"
    assert s.inputs == [rlx.TensorInfo("x", "float32", ("batch", 3))]
    assert [o.name for o in s.outputs] == ["y", "z"]


def test_onnx_batch_sizes_follow_inputs(onnx_model):
    path, W, B = onnx_model
    s = rlx.Session(path)
    for n in (1, 2, 5, 2, 9):
        x = np.arange(n * 3, dtype=np.float32).reshape(n, 3) - 4
        y, z = s.run({"x": x})
        assert y.shape == (n, 2) and z.shape == (n, 3)
        np.testing.assert_allclose(y, np.maximum(x @ W + B, 0), rtol=1e-6)
        np.testing.assert_array_equal(z, x * 2)
        assert s.outputs[0].shape == (n, 2)


def test_array_likes(mlp):
    path, ref = mlp
    s = rlx.Session(path)
    want = ref(x4())[0]

    class HasArray:
        def __array__(self, dtype=None):
            return x4()

    for feed in (HasArray(), x4().tolist(), memoryview(x4())):
        (p, _) = s.run({"x": feed})
        np.testing.assert_allclose(p, want, rtol=1e-5, atol=1e-6)


def test_non_contiguous_read_only_and_byte_order(mlp):
    path, ref = mlp
    s = rlx.Session(path)
    want = ref(x4())[0]
    wide = np.zeros((4, 6), np.float32)
    wide[:, ::2] = x4()
    assert not wide[:, ::2].flags.c_contiguous
    fortran = np.asfortranarray(x4())
    ro = x4()
    ro.setflags(write=False)
    big = x4().astype(">f4")
    for feed in (wide[:, ::2], fortran, ro, big):
        (p, _) = s.run({"x": feed})
        np.testing.assert_allclose(p, want, rtol=1e-5, atol=1e-6)
    assert big.dtype == np.dtype(">f4")  # the caller's array is untouched


def test_inputs_are_copied(mlp):
    """Changing an array after run() does not change the next result."""
    path, ref = mlp
    s = rlx.Session(path)
    x = x4()
    (a, _) = s.run({"x": x})
    x[:] = 0
    (b, _) = s.run({"x": x4()})
    np.testing.assert_array_equal(a, b)


def test_sessions_are_independent(mlp, onnx_model):
    a = rlx.Session(mlp[0])
    b = rlx.Session(onnx_model[0])
    (p, _) = a.run({"x": x4()})
    (y, _) = b.run({"x": x4()})
    assert p.shape == (4, 2) and y.shape == (4, 2)
    a.close()
    (y2, _) = b.run({"x": x4()})
    np.testing.assert_array_equal(y, y2)


def test_options_reach_the_session(mlp):
    s = rlx.Session(mlp[0], options={"cpu-ref.unused": "1"})
    assert s.run({"x": x4()})[0].shape == (4, 2)


def test_values_fix_a_shape_input(tmp_path):
    """An ONNX Reshape whose shape is an input: values= fixes it, so it
    folds and runs are fed x alone."""
    import onnx
    from onnx import TensorProto, helper
    g = helper.make_graph(
        [helper.make_node("Reshape", ["x", "shape"], ["y"])], "reshape",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3]),
         helper.make_tensor_value_info("shape", TensorProto.INT64, [2])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
    path = tmp_path / "reshape.onnx"
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)],
                                ir_version=8), str(path))
    s = rlx.Session(path, device="cpu", values={"shape": [3, 2]})
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    (y,) = s.run({"x": x})
    np.testing.assert_array_equal(y, x.reshape(3, 2))
    with pytest.raises(rlx.Error):
        rlx.Session(path, device="cpu", values={"nope": [3, 2]})
    with pytest.raises(rlx.DtypeError, match="no rlx dtype"):
        rlx.Session(path, device="cpu", values={"shape": np.array(["3", "2"])})
