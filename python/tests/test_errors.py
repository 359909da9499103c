"""Bad input of every kind raises an rlx.Error subclass whose message says
what is wrong and whose .fix says what to do; nothing crashes, and the
session keeps working after each error."""
import numpy as np
import pytest

import rlx


def x4():
    return np.linspace(-1, 1, 12, dtype=np.float32).reshape(4, 3)


def fixed(e):
    assert isinstance(e.value, rlx.Error)
    assert e.value.reason and e.value.fix and e.value.status.startswith("RLX_")
    assert "Fix:" in str(e.value)


def test_hierarchy():
    assert issubclass(rlx.ShapeError, rlx.Error)
    assert issubclass(rlx.ShapeError, ValueError)
    assert issubclass(rlx.DtypeError, TypeError)
    assert issubclass(rlx.NotFoundError, LookupError)
    assert issubclass(rlx.Error, Exception)
    assert rlx.StateError.__module__ == "rlx"


def test_wrong_dtype(mlp):
    s = rlx.Session(mlp[0])
    for bad in (x4().astype(np.float64), x4().astype(np.int32),
                x4().astype(np.float16)):
        with pytest.raises(rlx.DtypeError) as e:
            s.run({"x": bad})
        fixed(e)
        assert "float32" in str(e.value) and str(bad.dtype) in str(e.value)
    assert s.run({"x": x4()})[0].shape == (4, 2)


def test_wrong_shape_yaml(mlp):
    s = rlx.Session(mlp[0])
    for bad in (np.zeros((4, 4), np.float32), np.zeros((2, 3), np.float32),
                np.zeros((12,), np.float32), np.float32(1.0)):
        with pytest.raises(rlx.Error) as e:
            s.run({"x": bad})
        fixed(e)
    assert s.run({"x": x4()})[0].shape == (4, 2)


def test_wrong_shape_onnx(onnx_model):
    s = rlx.Session(onnx_model[0])
    for bad in (np.zeros((2, 4), np.float32), np.zeros((3,), np.float32),
                np.zeros((1, 2, 3), np.float32)):
        with pytest.raises(rlx.Error) as e:
            s.run({"x": bad})
        fixed(e)
    assert s.run({"x": x4()})[0].shape == (4, 2)


def test_unknown_and_missing_names(mlp):
    s = rlx.Session(mlp[0])
    with pytest.raises(rlx.NotFoundError) as e:
        s.run({"x": x4(), "nope": x4()})
    fixed(e)
    assert "'nope'" in str(e.value) and "'x'" in str(e.value)
    with pytest.raises(rlx.InvalidArgumentError) as e:
        s.run({})
    fixed(e)
    assert "'x'" in str(e.value)
    with pytest.raises(rlx.NotFoundError) as e:
        s.run({"x": x4()}, outputs=["probs", "logits"])
    fixed(e)
    assert "'logits'" in str(e.value) and "'hidden'" in str(e.value)
    with pytest.raises(rlx.NotFoundError):
        s.run({1: x4()})


def test_wrong_argument_types(mlp):
    s = rlx.Session(mlp[0])
    with pytest.raises(rlx.InvalidArgumentError) as e:
        s.run([x4()])
    fixed(e)
    with pytest.raises(rlx.InvalidArgumentError) as e:
        s.run({"x": x4()}, outputs="probs")
    fixed(e)
    with pytest.raises(rlx.Error):
        s.run({"x": object()})
    with pytest.raises(TypeError):
        s.run()
    assert s.run({"x": x4()})[0].shape == (4, 2)


def test_closed_session(mlp):
    s = rlx.Session(mlp[0])
    s.close()
    assert s.closed
    for call in (lambda: s.run({"x": x4()}), lambda: s.inputs,
                 lambda: s.outputs, lambda: s.backend, lambda: s.placement):
        with pytest.raises(rlx.StateError) as e:
            call()
        fixed(e)
    s.close()  # twice is fine
    assert repr(s) == "<rlx.Session (closed)>"
    with rlx.Session(mlp[0]) as s2:
        pass
    assert s2.closed


def test_bad_session_arguments(mlp, tmp_path):
    with pytest.raises(rlx.InvalidArgumentError) as e:
        rlx.Session(mlp[0], fallback="sometimes")
    fixed(e)
    with pytest.raises(rlx.InvalidArgumentError) as e:
        rlx.Session(mlp[0], precision="fp8")
    fixed(e)
    with pytest.raises(rlx.InvalidArgumentError) as e:
        rlx.Session(mlp[0], options=[("a", "b")])
    fixed(e)
    with pytest.raises(rlx.Error) as e:
        rlx.Session(mlp[0], device="no-such-device")
    fixed(e)
    with pytest.raises(rlx.Error) as e:
        rlx.Session(tmp_path / "missing.onnx")
    fixed(e)
    assert "missing.onnx" in str(e.value)
    (tmp_path / "junk.yaml").write_text("rlx_model: [\n")
    with pytest.raises(rlx.FormatError) as e:
        rlx.Session(tmp_path / "junk.yaml")
    fixed(e)
    (tmp_path / "lib.so").write_bytes(b"\x7fELF\x02\x01\x01\x00" * 8)
    with pytest.raises(rlx.FormatError) as e:
        rlx.Session(tmp_path / "lib.so")
    fixed(e)
    with pytest.raises(TypeError):
        rlx.Session(42)


def test_failed_session_is_closed(mlp):
    with pytest.raises(rlx.Error):
        s = rlx.Session(mlp[0], device="no-such-device")
    s = rlx.Session.__new__(rlx.Session)
    assert s.closed
    with pytest.raises(rlx.StateError):
        s.run({"x": x4()})


def test_feed_that_changes_the_feeds(mlp):
    """An __array__ that adds to the caller's dict while run() reads it."""
    s = rlx.Session(mlp[0])
    feeds = {}

    class Meddler:
        def __array__(self, dtype=None):
            for i in range(100):
                feeds[f"extra{i}"] = i
            return x4()

    feeds["x"] = Meddler()
    (p, _) = s.run(feeds)
    assert p.shape == (4, 2) and len(feeds) == 101


def test_array_that_raises(mlp):
    s = rlx.Session(mlp[0])

    class Broken:
        def __array__(self, dtype=None):
            raise RuntimeError("no data today")

    with pytest.raises(RuntimeError, match="no data today"):
        s.run({"x": Broken()})
    assert s.run({"x": x4()})[0].shape == (4, 2)
