"""Fixtures of the rlx Python tests, and a TAP printer so meson (protocol
'tap') and scripts/tap-count.py count one case per pytest test. Run with
-p no:terminal -s so TAP is all that reaches stdout."""
import json
import os
import struct
import sys

import numpy as np
import pytest

# ---- TAP -------------------------------------------------------------------

_tap = {"n": 0, "failed": 0}


def _emit(line):
    sys.__stdout__.write(line + "\n")
    sys.__stdout__.flush()


def pytest_configure(config):
    # without the terminal plugin (-p no:terminal) pytest's assertion
    # rewriting still asks for its verbosity
    if not hasattr(config.option, "verbose"):
        config.option.verbose = 0


def pytest_collection_finish(session):
    _emit(f"1..{len(session.items)}")


def pytest_runtest_logreport(report):
    # a case is one line: its call, or its setup when that failed or
    # skipped (a skip counts as a failure: no test here may skip)
    if report.when == "call" or (report.when == "setup" and not report.passed) \
            or (report.when == "teardown" and report.failed):
        _tap["n"] += 1
        name = report.nodeid.replace("#", "")
        if report.passed and report.when == "call":
            _emit(f"ok {_tap['n']} - {name}")
        else:
            _tap["failed"] += 1
            _emit(f"not ok {_tap['n']} - {name}")
            for line in str(report.longrepr).splitlines()[-40:]:
                _emit("# " + line)


def pytest_collectreport(report):
    if report.failed:
        _emit(f"not ok 0 - collecting {report.nodeid}")
        for line in str(report.longrepr).splitlines()[-40:]:
            _emit("# " + line)


# ---- models ----------------------------------------------------------------

def write_safetensors(path, tensors):
    """A safetensors file of TENSORS (name -> float32 array), packed in order."""
    header, blobs, off = {}, [], 0
    for name, a in tensors.items():
        a = np.ascontiguousarray(a, dtype=np.float32)
        header[name] = {"dtype": "F32", "shape": list(a.shape),
                        "data_offsets": [off, off + a.nbytes]}
        blobs.append(a.tobytes())
        off += a.nbytes
    h = json.dumps(header).encode()
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h)) + h + b"".join(blobs))


@pytest.fixture(scope="session")
def mlp(tmp_path_factory):
    """A YAML model: probs = softmax(relu(x @ w1 + b1) @ w2 + b2) for
    x [4, 3]; returns (path, reference function)."""
    d = tmp_path_factory.mktemp("mlp")
    rng = np.random.default_rng(7)
    w = {"w1": rng.standard_normal((3, 5)), "b1": rng.standard_normal(5),
         "w2": rng.standard_normal((5, 2)), "b2": rng.standard_normal(2)}
    w = {k: v.astype(np.float32) for k, v in w.items()}
    write_safetensors(d / "mlp.safetensors", w)
    (d / "mlp.yaml").write_text("""rlx_model: 1
name: tiny-mlp
weights: mlp.safetensors
inputs:
  - {name: x, dtype: f32, shape: [4, 3]}
params:
  - {name: w1, dtype: f32, shape: [3, 5]}
  - {name: b1, dtype: f32, shape: [5]}
  - {name: w2, dtype: f32, shape: [5, 2]}
  - {name: b2, dtype: f32, shape: [2]}
nodes:
  - {name: h, op: matmul, inputs: [x, w1]}
  - {name: hb, op: add, inputs: [h, b1]}
  - {name: r, op: relu, inputs: [hb]}
  - {name: o, op: matmul, inputs: [r, w2]}
  - {name: ob, op: add, inputs: [o, b2]}
  - {name: sm, op: softmax, inputs: [ob], attrs: {axis: -1}}
outputs:
  - {name: probs, value: sm}
  - {name: hidden, value: r}
""")

    def ref(x):
        r = np.maximum(x.astype(np.float64) @ w["w1"] + w["b1"], 0)
        o = r @ w["w2"] + w["b2"]
        e = np.exp(o - o.max(-1, keepdims=True))
        return e / e.sum(-1, keepdims=True), r
    return str(d / "mlp.yaml"), ref


@pytest.fixture(scope="session")
def onnx_model(tmp_path_factory):
    """An ONNX model with a symbolic batch: y = relu(x @ W + B) and
    z = x * 2 for x ['batch', 3]; returns (path, W, B)."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    d = tmp_path_factory.mktemp("onnx")
    W = np.arange(6, dtype=np.float32).reshape(3, 2) / 4 - 0.5
    B = np.array([0.25, -1.0], np.float32)
    g = helper.make_graph(
        [helper.make_node("MatMul", ["x", "W"], ["m"]),
         helper.make_node("Add", ["m", "B"], ["a"]),
         helper.make_node("Relu", ["a"], ["y"]),
         helper.make_node("Mul", ["x", "two"], ["z"])],
        "tiny",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", 2]),
         helper.make_tensor_value_info("z", TensorProto.FLOAT, ["batch", 3])],
        [numpy_helper.from_array(W, "W"), numpy_helper.from_array(B, "B"),
         numpy_helper.from_array(np.array(2, np.float32), "two")])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    path = d / "tiny.onnx"
    onnx.save(m, str(path))
    return str(path), W, B


@pytest.fixture(scope="session")
def big_matmul(tmp_path_factory):
    """A YAML model whose run takes a while on cpu-ref (y = x @ w,
    512x512 by 512x512), for the GIL test."""
    d = tmp_path_factory.mktemp("big")
    n = 512
    write_safetensors(d / "w.safetensors",
                      {"w": np.eye(n, dtype=np.float32)})
    (d / "big.yaml").write_text(f"""rlx_model: 1
name: big
weights: w.safetensors
inputs:
  - {{name: x, dtype: f32, shape: [{n}, {n}]}}
params:
  - {{name: w, dtype: f32, shape: [{n}, {n}]}}
nodes:
  - {{name: y, op: matmul, inputs: [x, w]}}
outputs:
  - {{name: y, value: y}}
""")
    return str(d / "big.yaml"), n
