"""rlx.Runner: the C API's multi-device runner from Python: a model or
rlx.Graph on every device the policy allows, runs on a named device, the
best one or along a chain, device timing, and what is refused. The
chain and benchmark cases run in a child process whose plugin path holds
the test suite's pretend accelerators (one that works, one whose every
run fails)."""
import os
import subprocess
import sys
import threading

import numpy as np
import pytest

import rlx


def xb():
    return np.linspace(-2, 2, 12, dtype=np.float32).reshape(4, 3)


def test_runner_runs_a_model_as_the_session_does(mlp, monkeypatch):
    monkeypatch.delenv("RLX_DEVICE_CHAIN", raising=False)
    monkeypatch.delenv("RLX_DEVICE_POLICY", raising=False)
    path, ref = mlp
    with rlx.Runner(path) as r:
        assert "cpu:0" in r.devices
        assert r.last_device is None
        assert r.inputs == [rlx.TensorInfo("x", "float32", (4, 3))]
        assert [o.name for o in r.outputs] == ["probs", "hidden"]
        probs, hidden = r.run({"x": xb()})
        want_p, want_h = ref(xb())
        np.testing.assert_allclose(probs, want_p, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(hidden, want_h, rtol=1e-5, atol=1e-6)
        assert r.last_device == "cpu:0"
        # the same answer as a Session on the same device
        s_probs, = rlx.Session(path, device="cpu").run({"x": xb()}, outputs=["probs"])
        np.testing.assert_array_equal(probs, s_probs)
        # outputs by name, in the order asked
        h, p = r.run(outputs=["hidden", "probs"])
        np.testing.assert_array_equal(h, hidden)
        np.testing.assert_array_equal(p, probs)
        # a chain of none: the policy's order (RLX_DEVICE_CHAIN is unset)
        p, = r.run_chain(outputs=["probs"])
        np.testing.assert_array_equal(p, probs)
        assert r.attempts == [rlx.Attempt("cpu:0", None, None)]
        with pytest.raises(rlx.NotFoundError):
            r.run_chain(outputs=["nope"])


def test_inputs_are_kept_between_runs(mlp):
    path, ref = mlp
    r = rlx.Runner(path)
    first, _ = r.run({"x": xb()})
    again, _ = r.run()  # no feeds: the kept input
    np.testing.assert_array_equal(first, again)
    other, _ = r.run({"x": xb() * -1})
    np.testing.assert_allclose(other, ref(xb() * -1)[0], rtol=1e-5, atol=1e-6)
    assert not np.allclose(other, first)
    r.set_inputs({"x": xb().tolist()})  # a list takes the input's dtype
    np.testing.assert_array_equal(r.run(device="cpu")[0], first)


def test_runner_over_a_graph_with_params():
    w = np.arange(12, dtype=np.float32).reshape(3, 4) / 10
    g = rlx.Graph()
    x = g.input("x", "float32", (4, 3))
    y = g.node("matmul", [x, g.param("w", w)])
    g.output("y", y)
    r = rlx.Runner(g, policy="cpu-only")
    g.input("later", "float32", (1,))  # the runner copied the graph
    assert r.inputs == [rlx.TensorInfo("x", "float32", (4, 3))]
    del g  # and keeps the params
    y, = r.run({"x": xb()}, device="cpu-ref")
    np.testing.assert_allclose(y, xb() @ w, rtol=1e-6)
    assert r.compile_all() >= 1


def test_symbolic_shapes_are_fixed_when_made(onnx_model):
    path, W, B = onnx_model
    r = rlx.Runner(path, shapes={"x": (4, 3)})
    assert r.inputs == [rlx.TensorInfo("x", "float32", (4, 3))]
    y, z = r.run({"x": xb()})
    np.testing.assert_allclose(y, np.maximum(xb() @ W + B, 0), rtol=1e-6)
    np.testing.assert_array_equal(z, xb() * 2)
    with pytest.raises(rlx.ShapeError) as e:
        r.run({"x": np.zeros((2, 3), np.float32)})
    assert "(2, 3)" in e.value.reason and "shapes=" in e.value.fix


def test_bad_input_is_refused_with_a_fix(mlp):
    path, _ = mlp
    r = rlx.Runner(path)
    with pytest.raises(rlx.DtypeError) as e:
        r.run({"x": xb().astype(np.float64)})
    assert e.value.status == "RLX_ERR_DTYPE" and "astype" in e.value.fix
    with pytest.raises(rlx.ShapeError):
        r.run({"x": np.zeros((3, 3), np.float32)})
    with pytest.raises(rlx.NotFoundError) as e:
        r.run({"nope": xb()})
    assert "'x'" in e.value.reason
    with pytest.raises(rlx.InvalidArgumentError):
        r.run({"x": xb()}, device="cpu", chain="cpu")
    with pytest.raises(rlx.InvalidArgumentError):
        r.run([xb()])
    with pytest.raises(rlx.NotFoundError):
        r.run({"x": xb()}, outputs=["nope"])
    with pytest.raises(rlx.InvalidArgumentError):
        r.run({"x": xb()}, outputs="probs")
    # a device no backend has, and a chain naming one
    with pytest.raises(rlx.Error) as e:
        r.run(device="no-such-device")
    assert e.value.fix
    with pytest.raises(rlx.NotFoundError):
        r.run(chain="no-such-device,cpu")
    with pytest.raises(rlx.InvalidArgumentError):
        rlx.Runner(path, fallback="sometimes")
    with pytest.raises(rlx.Error):
        rlx.Runner(path, policy="no-such-policy")
    with pytest.raises(rlx.Error):
        rlx.Runner(path, shapes={"x": (5, 3)})  # a YAML model's are fixed
    with pytest.raises(rlx.NotFoundError):
        rlx.Runner(os.path.join(os.path.dirname(path), "missing.onnx"))


def test_a_policy_no_device_satisfies(mlp):
    with pytest.raises(rlx.UnavailableError) as e:
        rlx.Runner(mlp[0], policy="npu-only")
    assert e.value.fix


def test_closed_runner(mlp):
    r = rlx.Runner(mlp[0])
    r.run({"x": xb()})
    r.close()
    assert r.closed and repr(r) == "<rlx.Runner (closed)>"
    r.close()  # twice is fine
    for call in (lambda: r.run({"x": xb()}), lambda: r.devices, r.compile_all,
                 lambda: r.benchmark(), r.clear, lambda: r.attempts,
                 lambda: r.inputs):
        with pytest.raises(rlx.StateError):
            call()
    assert r.last_device is None


def test_threads_share_a_runner(mlp):
    path, ref = mlp
    r = rlx.Runner(path)
    want = ref(xb())[0]
    bad = []

    def worker():
        for _ in range(20):
            p, _ = r.run(device="cpu")
            if not np.allclose(p, want, rtol=1e-5, atol=1e-6):
                bad.append(p)
    r.set_inputs({"x": xb()})
    ts = [threading.Thread(target=worker) for _ in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert not bad


def test_a_staged_model_is_refused(tmp_path):
    import onnx
    from onnx import TensorProto, helper
    g = helper.make_graph(
        [helper.make_node("NonZero", ["x"], ["y"])], "nz",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4])],
        [helper.make_tensor_value_info("y", TensorProto.INT64, [1, None])])
    path = tmp_path / "nonzero.onnx"
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), str(path))
    # a Session runs it in stages
    y, = rlx.Session(str(path), device="cpu").run({"x": np.array([0, 2, 0, 3], np.float32)})
    np.testing.assert_array_equal(y, [[1, 3]])
    with pytest.raises(rlx.UnsupportedError) as e:
        rlx.Runner(str(path))
    assert "rlx.Session" in e.value.fix


CHILD = r"""
import sys
import numpy as np
import rlx
sys.path.insert(0, sys.argv[2])
from conftest import write_safetensors  # noqa: E402

path = sys.argv[1]
x = np.linspace(-2, 2, 12, dtype=np.float32).reshape(4, 3)
r = rlx.Runner(path)
devs = r.devices
assert devs[-1] == "cpu:0" and "npu:0" in devs and "flaky:0" in devs, devs
want, _ = r.run({"x": x}, device="cpu")
# the flaky device fails every run: the chain moves on to the next
y, _ = r.run(chain=["flaky", "npu", "cpu"])
np.testing.assert_allclose(y, want, rtol=1e-5, atol=1e-6)
assert r.last_device == "npu:0", r.last_device
a = r.attempts
assert [t.device for t in a] == ["flaky:0", "npu:0"], a
assert a[0].error == "RLX_ERR_BACKEND" and "lost" in a[0].reason, a
assert a[1].error is None and a[1].reason is None, a
# every device failing: the error lists the attempts
try:
    r.run(chain="flaky")
    raise SystemExit("a chain of failing devices ran")
except rlx.BackendError as e:
    assert "flaky:0" in str(e) and e.fix, e
# timing: the flaky device fails, the others are timed; the winner is
# where run() goes by default from now on
winner, rows = r.benchmark(devices="flaky,npu,cpu", runs=2)
by = {row.device: row for row in rows}
assert by["flaky:0"].ms < 0 and by["flaky:0"].error, rows
assert by["npu:0"].ms >= 0 and by["cpu:0"].ms >= 0, rows
assert winner in ("npu:0", "cpu:0"), winner
y, _ = r.run()
assert r.last_device == winner, (r.last_device, winner)
np.testing.assert_allclose(y, want, rtol=1e-5, atol=1e-6)
r.clear()
y, _ = r.run(device="npu")
np.testing.assert_allclose(y, want, rtol=1e-5, atol=1e-6)
print("child ok")
"""


def test_chain_and_benchmark_over_pretend_devices(mlp, tmp_path):
    plugins = os.environ.get("RLX_TEST_PLUGIN_DIR")
    assert plugins, "run through meson test (RLX_TEST_PLUGIN_DIR)"
    d = tmp_path / "plugins"
    d.mkdir()
    for name in ("testnpupart", "testflakypart"):
        so = f"librlx-backend-{name}.so"
        os.symlink(os.path.join(plugins, so), d / so)
    env = dict(os.environ, RLX_PLUGIN_PATH=str(d), RLX_PLUGIN_SCAN="inprocess",
               RLX_DEVICE_CHAIN="", RLX_DEVICE_POLICY="")
    p = subprocess.run([sys.executable, "-c", CHILD, mlp[0],
                        os.path.dirname(os.path.abspath(__file__))],
                       env=env, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "child ok" in p.stdout
