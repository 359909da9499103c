"""ONNX model-local functions as exporters write them: onnx.helper's
make_function and torch.onnx.export(export_modules_as_functions=...),
expanded by rlx at load and compared with NumPy and torch."""
import numpy as np

import rlx


def test_helper_function_called_twice(tmp_path):
    import onnx
    from onnx import TensorProto, helper
    f = helper.make_function(
        "my.fns", "Swish", ["X"], ["Y"],
        [helper.make_node("Sigmoid", ["X"], ["S"]),
         helper.make_node("Mul", ["X", "S"], ["Y"])],
        [helper.make_opsetid("", 13)])
    g = helper.make_graph(
        [helper.make_node("Swish", ["x"], ["h"], domain="my.fns"),
         helper.make_node("Swish", ["h"], ["y"], domain="my.fns")], "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])])
    m = helper.make_model(g, functions=[f], opset_imports=[
        helper.make_opsetid("", 13), helper.make_opsetid("my.fns", 1)])
    onnx.checker.check_model(m)
    path = str(tmp_path / "swish.onnx")
    onnx.save(m, path)
    x = np.linspace(-3, 3, 6, dtype=np.float32).reshape(2, 3)
    y, = rlx.Session(path, device="cpu").run({"x": x})

    def sw(v):
        return v / (1 + np.exp(-v))
    np.testing.assert_allclose(y, sw(sw(x)), rtol=1e-5, atol=1e-6)
    assert rlx.check(path)["ok"]


def test_torch_modules_exported_as_functions(tmp_path):
    import onnx
    import torch
    torch.manual_seed(0)

    class Block(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = torch.nn.Linear(4, 4)

        def forward(self, x):
            return torch.nn.functional.gelu(self.lin(x)) + x

    class Net(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.a, self.b = Block(), Block()

        def forward(self, x):
            return self.b(self.a(x))

    net = Net().eval()
    x = torch.randn(2, 4)
    path = str(tmp_path / "blocks.onnx")
    torch.onnx.export(net, (x,), path, opset_version=15,
                      export_modules_as_functions={Block})
    proto = onnx.load(path)
    assert [f.name for f in proto.functions] == ["Block"]
    assert [n.op_type for n in proto.graph.node].count("Block") == 2
    y, = rlx.Session(path, device="cpu").run({proto.graph.input[0].name: x.numpy()})
    np.testing.assert_allclose(y, net(x).detach().numpy(), rtol=1e-4, atol=1e-5)
