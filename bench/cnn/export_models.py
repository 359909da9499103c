#!/usr/bin/python3
"""export_models.py - ResNet-18, MobileNetV3-small and EfficientNet-B0 from
Debian's torchvision as ONNX files for bench/cnn/run.sh, at batch 1 and 8.

Random weights from a fixed seed (the benchmark times the graph, not the
accuracy; fixed so every machine runs the same files), batch norm in
inference mode (its running statistics randomised too, so folding it is
not a no-op), opset 17, each batch size its own file with static shapes.
Writes DIR/NAME-bN.onnx, DIR/NAME-bN.npy (a seeded input) and
DIR/models.txt (one model name per line), each file through a .part name
so an interrupted export leaves nothing half-written.

    /usr/bin/python3 bench/cnn/export_models.py DIR
"""
import os
import sys

import numpy as np
import torch
import torchvision

MODELS = {
    "resnet18": torchvision.models.resnet18,
    "mobilenet_v3_small": torchvision.models.mobilenet_v3_small,
    "efficientnet_b0": torchvision.models.efficientnet_b0,
}
BATCHES = (1, 8)


def build(name):
    torch.manual_seed(0)
    net = MODELS[name](weights=None)
    gen = torch.Generator().manual_seed(1)
    for mod in net.modules():
        if isinstance(mod, torch.nn.BatchNorm2d):
            n = mod.num_features
            mod.running_mean.copy_(torch.randn(n, generator=gen) * 0.1)
            mod.running_var.copy_(torch.rand(n, generator=gen) * 0.5 + 0.75)
            mod.weight.data.copy_(torch.rand(n, generator=gen) * 0.5 + 0.75)
            mod.bias.data.copy_(torch.randn(n, generator=gen) * 0.1)
    return net.eval()


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: export_models.py DIR")
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    names = []
    for name in MODELS:
        net = build(name)
        for b in BATCHES:
            stem = os.path.join(out, f"{name}-b{b}")
            x = np.random.default_rng(b).standard_normal((b, 3, 224, 224)).astype(np.float32)
            with open(stem + ".npy.part", "wb") as f:
                np.save(f, x)
            os.replace(stem + ".npy.part", stem + ".npy")
            with torch.no_grad():
                torch.onnx.export(net, torch.from_numpy(x), stem + ".onnx.part",
                                  input_names=["input"], output_names=["logits"],
                                  opset_version=17, do_constant_folding=True)
            os.replace(stem + ".onnx.part", stem + ".onnx")
            names.append(f"{name}-b{b}")
    with open(os.path.join(out, "models.txt.part"), "w") as f:
        f.write("\n".join(names) + "\n")
    os.replace(os.path.join(out, "models.txt.part"), os.path.join(out, "models.txt"))


if __name__ == "__main__":
    main()
