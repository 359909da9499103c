"""rlx.Graph: a model written in Python, op by op, compiled by a Session."""
import numpy as np
import pytest

import rlx


def linear_graph(w, b):
    g = rlx.Graph()
    x = g.input("x", "float32", (2, 3))
    wv = g.param("w", w)
    bv = g.constant("b", b)
    m = g.node("matmul", [x, wv], name="m")
    y = g.node("add", [m, bv])
    s = g.node("softmax", [y], ints=[-1])
    g.output("y", y)
    g.output("p", s)
    return g


def test_graph_runs_like_numpy():
    w = np.arange(12, dtype=np.float32).reshape(3, 4) / 10
    b = np.array([1, -1, 0.5, 0], np.float32)
    g = linear_graph(w, b)
    assert g.shape(g.node_count() - 1) == ("float32", (2, 4))
    s = rlx.Session(g, device="cpu")
    assert s.format == "graph"
    assert s.inputs == [rlx.TensorInfo("x", "float32", (2, 3))]
    x = np.array([[1, 2, 3], [-1, 0, 1]], np.float32)
    y, p = s.run({"x": x})
    np.testing.assert_allclose(y, x @ w + b, rtol=1e-6)
    e = np.exp(y - y.max(-1, keepdims=True))
    np.testing.assert_allclose(p, e / e.sum(-1, keepdims=True), rtol=1e-5)
    del g  # the session keeps what it needs
    np.testing.assert_allclose(s.run({"x": x})[0], y)


def test_graph_errors():
    g = rlx.Graph()
    x = g.input("x", np.float32, (2, 3))
    with pytest.raises(rlx.DuplicateError) as e:
        g.input("x", "float32", (2, 3))
    assert e.value.fix
    w = g.param("w", np.zeros((4, 4), np.float32))
    with pytest.raises(rlx.ShapeError) as e:
        g.node("matmul", [x, w])
    assert "matmul" in str(e.value) and e.value.fix
    with pytest.raises(rlx.NotFoundError):
        g.node("no_such_op", [x])
    with pytest.raises(rlx.DtypeError) as e:
        g.input("z", "complex64", (1,))
    assert e.value.fix
    with pytest.raises(rlx.Error):
        g.output("y", 12345)
    with pytest.raises(rlx.InvalidArgumentError):
        g.node("relu", ["x"])
    g.output("y", g.node("relu", [x]))
    s = rlx.Session(g)
    (y,) = s.run({"x": -np.ones((2, 3), np.float32)})
    np.testing.assert_array_equal(y, np.zeros((2, 3), np.float32))


def cos_graph(**kw):
    g = rlx.Graph()
    x = g.input("x", "float32", (2, 3))
    y = g.custom([x], "f32(f32)", "float32", (2, 3), elementwise=True, **kw)
    g.output("y", y)
    return g


X23 = np.array([[0.0, 0.5, 1.0], [-1.0, 2.0, 3.0]], np.float32)


def test_custom_op_from_an_allowed_library():
    g = cos_graph(library="libm.so.6", symbol="cosf")
    s = rlx.Session(g, device="cpu", allow_custom_ops=["libm.so.6"])
    (y,) = s.run({"x": X23})
    np.testing.assert_allclose(y, np.cos(X23), rtol=1e-6)


def test_custom_op_from_a_function_address():
    import ctypes
    cosf = ctypes.CDLL("libm.so.6").cosf
    g = cos_graph(fn=ctypes.cast(cosf, ctypes.c_void_p).value)
    (y,) = rlx.Session(g, device="cpu").run({"x": X23})  # no allowance needed
    np.testing.assert_allclose(y, np.cos(X23), rtol=1e-6)


def test_custom_op_library_not_allowed():
    g = cos_graph(library="libm.so.6", symbol="cosf")
    with pytest.raises(rlx.Error) as e:
        rlx.Session(g, device="cpu")
    assert e.value.fix and "allow" in str(e.value).lower()


def test_custom_op_with_explicit_args():
    # saxpy-like: void f(float *y, const float *x, int64_t n) is not in libm;
    # use libm's ldexpf(x, 2) elementwise: an int literal argument
    g = rlx.Graph()
    x = g.input("x", "float32", (2, 3))
    y = g.custom([x], "f32(f32, i32)", "float32", (2, 3), library="libm.so.6",
                 symbol="ldexpf", args=[("tensor", 0), 2], elementwise=True)
    g.output("y", y)
    (out,) = rlx.Session(g, device="cpu", allow_custom_ops=["libm.so.6"]).run({"x": X23})
    np.testing.assert_array_equal(out, X23 * 4)


def test_custom_op_bad_specs():
    g = rlx.Graph()
    x = g.input("x", "float32", (2, 3))
    with pytest.raises(rlx.InvalidArgumentError, match="argument"):
        g.custom([x], "f32(f32)", "float32", (2, 3), symbol="cosf",
                 library="libm.so.6", args=[("nonsense", 0)], elementwise=True)
    with pytest.raises(rlx.Error):  # the signature's arity is checked now
        g.custom([x], "f32(f32, f32)", "float32", (2, 3), symbol="cosf",
                 library="libm.so.6", elementwise=True)
