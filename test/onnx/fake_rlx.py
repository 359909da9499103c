#!/usr/bin/python3
"""fake_rlx.py - a stand-in for `rlx run` that the runner's self-test drives.

It answers `fake_rlx.py run MODEL --device D --input N=F ... --output DIR`
the way FAKE_RLX_PLAN (JSON: test folder name -> behaviour) says: "pass"
writes the test's expected outputs, "wrong" perturbs them, "dtype" writes
them as another dtype, "fail" exits 1 with a message, "segv" dies by
SIGSEGV, "asan" prints a sanitizer report and exits 1, "hang" sleeps
(with a child that keeps its stderr open).
This checks that onnx_suite.py tells those apart, without the importer.
"""
import json
import os
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import onnx  # noqa: E402
import onnx_compare  # noqa: E402


def main():
    argv = sys.argv[1:]
    if not argv or argv[0] != "run":
        print("fake rlx: only 'run'", file=sys.stderr)
        return 2
    model_path = argv[1]
    out_dir = argv[argv.index("--output") + 1]
    inputs = [argv[i + 1] for i, a in enumerate(argv) if a == "--input"]
    test = os.path.basename(os.path.dirname(model_path))
    mode = json.loads(os.environ.get("FAKE_RLX_PLAN", "{}")).get(test, "fail")
    for spec in inputs:  # the runner must hand over readable .npy files
        np.load(spec.split("=", 1)[1], allow_pickle=False)
    if mode == "segv":
        os.kill(os.getpid(), signal.SIGSEGV)
    if mode == "hang":
        # a helper process holding our stderr, as the plugin scanner would:
        # the runner must kill it too, not wait for its pipe to close
        subprocess.Popen(["sleep", "3600"])
        time.sleep(3600)
    if mode == "asan":
        print("==1==ERROR: AddressSanitizer: heap-buffer-overflow", file=sys.stderr)
        return 1
    if mode == "fail":
        print(f"rlx: {model_path}: not a model rlx can load", file=sys.stderr)
        return 1
    model = onnx.load(model_path)
    data_set = os.path.join(os.path.dirname(model_path), "test_data_set_0")
    for name, arr in onnx_compare.expected_outputs(model, data_set):
        if mode == "wrong" and arr.dtype.kind == "f":
            arr = arr + np.float32(1.0) + arr * np.float32(0.01)
        if mode == "dtype":
            arr = arr.astype(np.float64 if arr.dtype != np.float64 else np.float32)
        np.save(os.path.join(out_dir, onnx_compare.npy_name(name)), arr,
                allow_pickle=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
