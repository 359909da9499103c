#!/usr/bin/python3
"""export_qdq_models.py - the QDQ torchvision models of
test/onnx/qdq_models.py (resnet18, mobilenet_v3_small, efficientnet_b0:
int8 activations and weights, every Conv/Gemm between DequantizeLinear
and QuantizeLinear) for bench/quant/run.sh, each with its f32 original
and seeded input, at batch 1 (the exports' fixed batch) and at batch 8
(the same files with the batch dimension set to 8, the input repeated).

Writes into DIR what qdq_models.py writes into its cache (the float
exports in DIR/torchvision), then DIR/qmodels.txt with lines "name
int8.onnx f32.onnx input.npy":

    QMODEL_SCRIPT=bench/quant/export_qdq_models.py bash bench/quant/run.sh
"""
import os
import sys

import numpy as np
import onnx

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "test", "onnx"))
import qdq_models  # noqa: E402


def batched(src, dst, n):
    """SRC with its inputs' and outputs' first dimension set to N (every
    shape inside is inferred again by whoever runs it)."""
    model = onnx.load(src)
    for v in list(model.graph.input) + list(model.graph.output):
        v.type.tensor_type.shape.dim[0].dim_value = n
    del model.graph.value_info[:]
    onnx.save(model, dst + ".part")
    os.replace(dst + ".part", dst)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: export_qdq_models.py DIR")
    out = os.path.abspath(sys.argv[1])
    tv = os.path.join(out, "torchvision")
    qdq_models.write(out, tv)
    lines = []
    for m in qdq_models.MODELS:
        i8 = os.path.join(out, f"{m}.qdq.onnx")
        f32 = os.path.join(tv, f"{m}.onnx")
        x = os.path.join(out, f"{m}.qdq.input.npy")
        for p in (i8, f32, x):
            if not os.path.exists(p):
                sys.exit(f"export_qdq_models.py: {p} was not written. "
                         "Fix: run test/onnx/qdq_models.py once to see why")
        lines.append(f"{m}-qdq-b1 {i8} {f32} {x}\n")
        i8b, f32b = (os.path.join(out, f"{m}.{k}.b8.onnx")
                     for k in ("qdq", "f32"))
        xb = os.path.join(out, f"{m}.qdq.b8.input.npy")
        batched(i8, i8b, 8)
        batched(f32, f32b, 8)
        np.save(xb, np.repeat(np.load(x), 8, axis=0), allow_pickle=False)
        lines.append(f"{m}-qdq-b8 {i8b} {f32b} {xb}\n")
    part = os.path.join(out, "qmodels.txt.part")
    with open(part, "w", encoding="utf-8") as f:
        f.writelines(lines)
    os.replace(part, os.path.join(out, "qmodels.txt"))


if __name__ == "__main__":
    main()
