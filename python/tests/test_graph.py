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
