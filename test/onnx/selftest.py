#!/usr/bin/python3
"""selftest.py - TAP checks of the ONNX conformance runner itself.

The runner decides what CI reports about the importer, so its own logic
is tested without the importer: the comparison's tolerances (NaN, inf,
the absolute floor, dtype and shape), out-of-scope detection from a model,
and, through fake_rlx.py, that a pass, a wrong value, a wrong dtype, an
error exit, a SIGSEGV, a sanitizer report and a hang are each classified
as they should be and that the exit status follows the threshold.
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import numpy as np  # noqa: E402
from onnx import helper, TensorProto  # noqa: E402
import onnx_compare  # noqa: E402
import onnx_scope  # noqa: E402

n = 0
failed = 0


def check(cond, text):
    global n, failed
    n += 1
    if not cond:
        failed += 1
    print(f"{'ok' if cond else 'not ok'} {n} - {text}", flush=True)


f32 = np.float32
c = onnx_compare.compare
check(c("y", np.array([1.0, 2.0], f32), np.array([1.0, 2.0], f32)) is None,
      "equal f32 arrays match")
check(c("y", np.array([1.00005], f32), np.array([1.0], f32)) is None,
      "f32 within 1e-4 relative matches")
check(c("y", np.array([1.001], f32), np.array([1.0], f32)) is not None,
      "f32 off by 1e-3 relative fails")
check(c("y", np.array([3e-6], f32), np.array([0.0], f32)) is None,
      "a near-zero f32 within the absolute floor matches")
check(c("y", np.array([1e-3], f32), np.array([0.0], f32)) is not None,
      "a near-zero f32 past the absolute floor fails")
check(c("y", np.array([np.nan], f32), np.array([np.nan], f32)) is None,
      "NaN where NaN is expected matches")
check(c("y", np.array([0.0], f32), np.array([np.nan], f32)) is not None,
      "a number where NaN is expected fails")
check(c("y", np.array([-np.inf], f32), np.array([np.inf], f32)) is not None,
      "-inf where +inf is expected fails")
check("dtype" in (c("y", np.array([1.0]), np.array([1.0], f32)) or ""),
      "f64 where f32 is expected fails naming the dtype")
check("shape" in (c("y", np.zeros((2, 3), f32), np.zeros((3, 2), f32)) or ""),
      "a transposed shape fails naming the shape")
check(c("y", np.array([1, 2], np.int64), np.array([1, 3], np.int64)) is not None,
      "integers compare exactly")
check(c("y", np.array([True]), np.array([True])) is None, "bools compare")
bits = np.array([0x3F80, 0x3F81], np.uint16)  # bf16 1.0 and its next value
check(np.array_equal(onnx_compare.bf16_to_f32(bits), np.array([1.0, 1.0078125], f32)),
      "bf16 bits read as f32")
check(onnx_compare.npy_name("out:0/x") == "out_0_x.npy",
      "output file names replace characters outside [A-Za-z0-9._-]")
rough = onnx_compare.ROUGH_PI
check(all(rough.match(t) for t in ("test_hannwindow", "test_hammingwindow_expanded",
                                   "test_blackmanwindow_symmetric_expanded"))
      and not any(rough.match(t) for t in ("test_stft_with_window", "test_hannwindow_x",
                                           "test_add")),
      "only the window tests whose expected data used pi = 3.1415 are compared loosely")


def model(nodes, inputs, outputs, opsets=(("", 13),)):
    g = helper.make_graph(nodes, "g", inputs, outputs)
    return helper.make_model(g, opset_imports=[helper.make_opsetid(d, v)
                                               for d, v in opsets])


x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])
y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])
scope = onnx_scope.out_of_scope
check(scope(model([helper.make_node("Relu", ["x"], ["y"])], [x], [y])) is None,
      "a plain Relu model is in scope")
check("random" in (scope(model([helper.make_node("RandomUniformLike", ["x"], ["y"])],
                               [x], [y])) or ""), "a random op is out of scope")
check(scope(model([helper.make_node("QuantizeLinear", ["x", "x"], ["y"])],
                 [x], [y])) is None, "a quantized op is in scope")
s = helper.make_tensor_value_info("s", TensorProto.STRING, [2])
check("string" in (scope(model([helper.make_node("Identity", ["s"], ["y"])],
                               [s], [y])) or ""), "a string input is out of scope")
seq = helper.make_tensor_sequence_value_info("q", TensorProto.FLOAT, None)
check("sequence" in (scope(model([helper.make_node("SequenceConstruct", ["x"], ["q"])],
                                 [x], [seq])) or ""), "a sequence output is out of scope")
check("ai.onnx.ml" in (scope(model([helper.make_node("Binarizer", ["x"], ["y"],
                                                     domain="ai.onnx.ml")], [x], [y],
                                   (("", 13), ("ai.onnx.ml", 1)))) or ""),
      "the ai.onnx.ml domain is out of scope")
inner = helper.make_graph([helper.make_node("RandomNormal", [], ["z"], shape=[2])],
                          "then", [], [helper.make_tensor_value_info("z", TensorProto.FLOAT, [2])])
cond = helper.make_tensor_value_info("c", TensorProto.BOOL, [])
check("random" in (scope(model([helper.make_node("If", ["c"], ["y"], then_branch=inner,
                                                 else_branch=inner)], [cond], [y])) or ""),
      "a random op inside an If branch is out of scope")

# The runner end to end, on real test data, with the fake rlx.
data = "/usr/share/libonnx-testdata/data"
plan = {"test_abs": "pass", "test_add": "wrong", "test_relu": "dtype",
        "test_sigmoid": "fail", "test_tanh": "segv", "test_exp": "asan",
        "test_log": "hang", "test_cos": "pass"}
names = "|".join(plan)


def run(threshold, *extra):
    env = dict(os.environ, FAKE_RLX_PLAN=json.dumps(plan))
    return subprocess.run(
        [sys.executable, os.path.join(HERE, "onnx_suite.py"), "--rlx",
         os.path.join(HERE, "fake_rlx.py"), "--suite", "node", "--device",
         "fake", "--filter", f"^({names})$", "--timeout", "3", "--jobs", "4",
         "--min-pass-rate", str(threshold), "--data", data] + list(extra),
        capture_output=True, text=True, env=env, timeout=120)


if not os.path.isdir(os.path.join(data, "node", "test_abs")):
    check(False, f"no ONNX test data in {data}. Fix: apt-get install libonnx-testdata")
else:
    p = run(0)
    out = p.stdout
    check("ok 1 - node/test_abs on fake" in out, "a matching output passes")
    check("ok 2 - node/test_add" not in out and "FAIL node/test_add on fake: output" in out,
          "a wrong value is a failure naming the output")
    check("FAIL node/test_relu on fake: output 'y': dtype float64" in out,
          "a wrong dtype is a failure naming the dtype")
    check("FAIL node/test_sigmoid on fake: rlx:" in out,
          "an error exit is a failure with rlx's first error line")
    check("node/test_tanh on fake crashed: killed by SIGSEGV" in out,
          "a SIGSEGV is a crash")
    check("node/test_exp on fake crashed: ==1==ERROR: AddressSanitizer" in out,
          "a sanitizer report is a crash")
    check("node/test_log on fake hung: no result in 3 s" in out, "a hang is reported")
    check("# node on fake: 2 passed, 4 failed, 1 crashed, 1 hung" not in out and
          "# node on fake: 2 passed, 3 failed, 2 crashed, 1 hung, 0 out of scope" in out,
          "the summary line counts each outcome")
    check(p.returncode == 1, "a crash or hang fails the run even at threshold 0")
    plan = {k: v for k, v in plan.items() if v not in ("segv", "asan", "hang")}
    names = "|".join(plan)
    check(run(40).returncode == 0, "no crash, 40% passing, threshold 40%: the run passes")
    check(run(41).returncode == 1, "40% passing under a 41% threshold: the run fails")
    p = run(0, "--markdown", "/dev/stdout")
    check("| node | fake | 5 | 2 | 3 | 0 | 0 | 0 | 40.0% |" in p.stdout,
          "the markdown table has the suite's row")

print(f"1..{n}")
sys.exit(1 if failed else 0)
