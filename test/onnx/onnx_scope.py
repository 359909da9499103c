"""onnx_scope.py - decide from a model itself whether an ONNX test is in scope.

The conformance suites run every model of Debian's ONNX backend test data,
but some of it tests what rlx does not mean to run (training, random
numbers, strings, sequences and optionals, the ai.onnx.ml domain). Each is detected from the model's
op types, domains and value types, so a new test data release is sorted
without a hand-kept list, and every skip comes with its reason.
"""

import onnx

# Domains whose ops rlx runs: the default one under both of its names.
DEFAULT_DOMAINS = ("", "ai.onnx")

# Ops whose output is drawn at random: no expected output can match.
RANDOM_OPS = {"RandomNormal", "RandomNormalLike", "RandomUniform",
              "RandomUniformLike", "Multinomial", "Bernoulli"}

# Ops that make or take sequences or optionals even where the graph's own
# inputs and outputs are plain tensors.
SEQUENCE_OPS = {"SequenceAt", "SequenceConstruct", "SequenceEmpty",
                "SequenceErase", "SequenceInsert", "SequenceLength",
                "SequenceMap", "SplitToSequence", "ConcatFromSequence",
                "Optional", "OptionalGetElement", "OptionalHasElement"}

# String-only ops (their tensors are strings; caught by type as well).
STRING_OPS = {"StringNormalizer", "RegexFullMatch", "StringConcat",
              "StringSplit", "TfIdfVectorizer"}


def _type_reason(tp):
    """Why a TypeProto is out of scope, or None for a plain tensor."""
    which = tp.WhichOneof("value")
    if which == "sequence_type":
        return "sequence type"
    if which == "optional_type":
        return "optional type"
    if which == "map_type":
        return "map type (ai.onnx.ml)"
    if which == "sparse_tensor_type":
        return "sparse tensor type"
    if which == "tensor_type" and tp.tensor_type.elem_type == onnx.TensorProto.STRING:
        return "string type"
    return None


def _graph_reason(graph, opset_default):
    for vi in list(graph.input) + list(graph.output) + list(graph.value_info):
        why = _type_reason(vi.type)
        if why:
            return f"{why} ('{vi.name}')"
    for init in graph.initializer:
        if init.data_type == onnx.TensorProto.STRING:
            return f"string type (initializer '{init.name}')"
    for node in graph.node:
        why = _node_reason(node, opset_default)
        if why:
            return why
    return None


def _node_reason(node, opset_default):
    op, domain = node.op_type, node.domain
    if domain == "ai.onnx.ml":
        return f"ai.onnx.ml domain ({op})"
    if domain.startswith("ai.onnx.preview.training"):
        return f"training op ({op}, {domain})"
    if domain not in DEFAULT_DOMAINS:
        return f"domain '{domain}' ({op})"
    if op in RANDOM_OPS:
        return f"random op ({op})"
    # Dropout is deterministic at inference; given a training_mode input
    # it draws a random mask.
    if op == "Dropout" and len(node.input) > 2 and node.input[2]:
        return "random op (Dropout in training mode)"
    if op in SEQUENCE_OPS:
        return f"sequence or optional op ({op})"
    if op in STRING_OPS:
        return f"string op ({op})"
    for attr in node.attribute:
        if attr.type == onnx.AttributeProto.TENSOR and \
                attr.t.data_type == onnx.TensorProto.STRING:
            return f"string type ({op} attribute '{attr.name}')"
        for sub in ([attr.g] if attr.type == onnx.AttributeProto.GRAPH else []) + \
                list(attr.graphs):
            why = _graph_reason(sub, opset_default)
            if why:
                return why
    if op == "Cast" and any(a.name == "to" and a.i == onnx.TensorProto.STRING
                            for a in node.attribute):
        return "string type (Cast to string)"
    return None


def out_of_scope(model):
    """The reason MODEL (a ModelProto) is out of scope, or None."""
    opset_default = None
    for imp in model.opset_import:
        if imp.domain == "ai.onnx.ml":
            return "ai.onnx.ml domain"
        if imp.domain in DEFAULT_DOMAINS:
            opset_default = imp.version
    for fn in model.functions:
        for node in fn.node:
            why = _node_reason(node, opset_default)
            if why:
                return why
    return _graph_reason(model.graph, opset_default)
