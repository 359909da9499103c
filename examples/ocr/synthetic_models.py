#!/usr/bin/python3
"""synthetic_models.py DIR - stand-in PP-OCR models for rlx-ocr's own test.

Writes a detector, a recogniser and a character list with PP-OCRv4's file
names and interfaces (x [N, 3, H, W] with symbolic sides; a probability
map [N, 1, H, W]; scores [N, steps, classes]) made only of ops the ONNX
importer lowers today, so rlx-ocr's use of the model API (a program per
input shape, recompiled for each crop width) runs end to end whatever the
op set can do. The "detector" marks dark pixels; the "recogniser" maps
each column of the crop to a class through fixed weights.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

KEYS = list("abcdefghij")


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    f = TensorProto.FLOAT
    # detector: sigmoid(-4 * mean over channels): ink (normalised < 0) -> ~1
    x = helper.make_tensor_value_info("x", f, ["n", 3, "h", "w"])
    y = helper.make_tensor_value_info("prob", f, ["n", 1, "h", "w"])
    k = numpy_helper.from_array(np.array(-4.0, np.float32), "k")
    det = helper.make_graph([
        helper.make_node("ReduceMean", ["x"], ["m"], axes=[1], keepdims=1),
        helper.make_node("Mul", ["m", "k"], ["s"]),
        helper.make_node("Sigmoid", ["s"], ["prob"]),
    ], "det", [x], [y], [k])
    # recogniser: mean over channels and height per column, a fixed affine
    # map onto the classes (blank, the keys, space), softmax: one step per
    # column (PP-OCR's has one per 8; rlx-ocr takes the steps it is given)
    x = helper.make_tensor_value_info("x", f, ["n", 3, 48, "w"])
    y = helper.make_tensor_value_info("scores", f, ["n", "w", len(KEYS) + 2])
    rng = np.random.default_rng(7)
    proj = numpy_helper.from_array(
        rng.standard_normal((1, len(KEYS) + 2)).astype(np.float32) * 4, "proj")
    bias = numpy_helper.from_array(
        rng.standard_normal(len(KEYS) + 2).astype(np.float32), "bias")
    axes = numpy_helper.from_array(np.array([2], np.int64), "axes")
    rec = helper.make_graph([
        helper.make_node("ReduceMean", ["x"], ["m"], axes=[1, 2], keepdims=0),
        helper.make_node("Unsqueeze", ["m", "axes"], ["cols"]),
        helper.make_node("MatMul", ["cols", "proj"], ["p"]),
        helper.make_node("Add", ["p", "bias"], ["logits"]),
        helper.make_node("Softmax", ["logits"], ["scores"], axis=-1),
    ], "rec", [x], [y], [proj, bias, axes])
    for graph, name in ((det, "ch_PP-OCRv4_det_infer.onnx"),
                        (rec, "ch_PP-OCRv4_rec_infer.onnx")):
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
        onnx.checker.check_model(model)
        onnx.save(model, os.path.join(out, name))
    with open(os.path.join(out, "ppocr_keys_v1.txt"), "w", encoding="utf-8") as fk:
        fk.write("\n".join(KEYS) + "\n")


if __name__ == "__main__":
    main()
