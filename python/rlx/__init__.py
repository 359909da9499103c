"""rlx for Python: load ONNX or rlx YAML models and run them with NumPy.

    import numpy as np, rlx
    sess = rlx.Session("model.onnx")            # best device, or device="cpu"
    (y,) = sess.run({"x": np.ones((1, 3), np.float32)})

rlx.devices() and rlx.backends() say what this machine can run on;
rlx.check(path) says whether and where a model runs. Errors are rlx.Error
subclasses carrying .reason and .fix. See docs/python.md.
"""
from __future__ import annotations

import os
from typing import Any, Dict, List, Mapping, NamedTuple, Optional, Sequence, Tuple, Union

import numpy as _np

from . import _rlx
from ._rlx import Graph, Tensor  # noqa: F401
from ._rlx import (  # noqa: F401  (the exception hierarchy)
    AbiMismatchError, BackendError, DeviceError, DtypeError, DuplicateError,
    Error, FormatError, InternalError, InvalidArgumentError, IOError,
    NotFoundError, OutOfMemoryError, PluginError, ShapeError, StateError,
    UnavailableError, UnsupportedError,
)

__all__ = [
    "version", "devices", "backends", "check", "Session", "TensorInfo", "Graph", "Tensor",
    "Error", "InvalidArgumentError", "OutOfMemoryError", "NotFoundError",
    "UnsupportedError", "UnavailableError", "AbiMismatchError", "PluginError",
    "DuplicateError", "ShapeError", "DtypeError", "BackendError",
    "DeviceError", "StateError", "IOError", "FormatError", "InternalError",
]

__version__ = _rlx.version()


def _coerce(value: Any, dtype: str) -> _np.ndarray:
    """Called by the extension for a feed that is not already a C-contiguous
    native buffer of the input's dtype: arrays keep their dtype (a wrong one
    is refused, never cast), lists and scalars take the input's."""
    if isinstance(value, (list, tuple, int, float, bool)):
        arr = _np.asarray(value, dtype=dtype)
    elif not hasattr(value, "__array__") and hasattr(value, "__dlpack__"):
        arr = _np.from_dlpack(value)  # a host DLPack tensor: no copy here
    else:
        arr = _np.asarray(value)
    if not arr.dtype.isnative:
        arr = arr.astype(arr.dtype.newbyteorder("="))
    return _np.ascontiguousarray(arr)


_rlx._set_coerce(_coerce)


def _host_copy(value: Any) -> _np.ndarray:
    """A device tensor of another library (DLPack) as a host array, for a
    program on another device: the one copy rlx makes then."""
    for method in ("cpu", "get"):  # PyTorch, CuPy
        fn = getattr(value, method, None)
        if callable(fn):
            value = fn()
            break
    return _np.ascontiguousarray(_np.asarray(value))


_rlx._set_host_copy(_host_copy)


def version() -> str:
    """The version of librlx, e.g. '0.1.0'."""
    return _rlx.version()


def devices() -> List[Dict[str, Any]]:
    """Every device of every available executing backend, as `rlx devices`
    lists them: name ('cpu:0', usable as Session(device=...)), kind, index,
    backend, chosen, description, type, memory_total, memory_free, detail."""
    return _rlx.devices()


def backends() -> List[Dict[str, Any]]:
    """Every registered backend: id, device, priority, executes, device_io,
    available, device_count, reason and fix (why it is not available and
    what to do; None when it is), chosen, allowed, policy, plugin,
    description."""
    return _rlx.backends()


def check(path: Union[str, os.PathLike], device: Optional[str] = None) -> Dict[str, Any]:
    """What `rlx check` reports for the model at PATH on DEVICE (None: the
    best available): ok (it compiles), error (why not, or None), backend,
    device, nodes, unsupported ((node, op, why) tuples), placement,
    explain, model, format. Raises rlx.Error when the model does not load."""
    return _rlx.check(os.fspath(path), device)


Dim = Union[int, str, None]


class TensorInfo(NamedTuple):
    """An input or output of a Session: its name, NumPy dtype name and
    shape. In Session.inputs a dimension is an int, the name of a symbolic
    dimension (str) or None (unknown); in Session.outputs the shape is the
    one the program produces for the shapes it last ran with."""
    name: str
    dtype: str
    shape: Tuple[Dim, ...]


class Session(_rlx._Session):
    """A model (ONNX or rlx YAML, or an rlx.Graph) compiled on one device.

    Session(path_or_graph, device=None, fallback=None, precision=None, options=None,
    allow_custom_ops=None, shapes=None, values=None)

    device: None for the best available, a device name ('cpu', 'cuda:1')
    or a backend id ('cpu-ref'). fallback: what to do with nodes the device
    cannot run: 'split' (those nodes go to the CPU; the default), 'whole'
    or 'none' (refuse). precision: 'strict' (default), 'tf32' or
    'reduced'. options: plugin settings for this session
    ({'cuda.matmul': 'cublas'}). allow_custom_ops: libraries or directories
    the model's custom ops may load from (docs/security.md). shapes: the
    inputs' shapes to compile for first ({'x': (1, 3, 224, 224)}), for an
    ONNX model whose symbolic dimensions cannot be 1; a run with other
    shapes compiles again, as always. values: inputs fixed to constant
    arrays before compiling ({'shape': [1, -1]}), so shape arguments fed as
    inputs fold; they are then no inputs of the Session.

    A Session may be shared by threads: runs take turns (one program runs
    one run at a time) and the GIL is released while a program runs. Use
    it as a context manager, or call close(), to free it at once.
    """

    def __init__(self, path: Union[str, os.PathLike, Graph], device: Optional[str] = None,
                 fallback: Optional[str] = None, precision: Optional[str] = None,
                 options: Optional[Mapping[str, Any]] = None,
                 allow_custom_ops: Optional[Sequence[Union[str, os.PathLike]]] = None,
                 shapes: Optional[Mapping[str, Sequence[int]]] = None,
                 values: Optional[Mapping[str, Any]] = None) -> None:
        super().__init__(path if isinstance(path, Graph) else os.fspath(path), device, fallback, precision,
                         dict(options) if isinstance(options, Mapping) else options,
                         None if allow_custom_ops is None
                         else [os.fspath(p) for p in allow_custom_ops],
                         None if shapes is None else dict(shapes),
                         None if values is None else dict(values))

    @property
    def inputs(self) -> List[TensorInfo]:
        """The model's inputs as declared, symbolic dimensions by name."""
        return [TensorInfo(n, d, s) for n, d, s in self._model_inputs()]

    @property
    def outputs(self) -> List[TensorInfo]:
        """The outputs, with the shapes of the last run's input shapes."""
        return [TensorInfo(n, d, s) for n, d, s in self._slots(1)]

    @property
    def backend(self) -> str:
        """The id of the backend the program runs on ('cpu-ref')."""
        return self._info()["backend"]

    @property
    def device(self) -> str:
        """The device the program runs on ('cpu:0')."""
        return self._info()["device"]

    @property
    def placement(self) -> str:
        """One line saying where the nodes run ('9 nodes on cpu:0')."""
        return self._info()["placement"]

    @property
    def explain(self) -> str:
        """Why this backend was chosen: the candidates and why each lost."""
        return self._info()["explain"]

    @property
    def format(self) -> str:
        """'onnx', 'rlx' (YAML) or 'graph' (an rlx.Graph)."""
        return self._info()["format"]

    def __enter__(self) -> "Session":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        if self.closed:
            return "<rlx.Session (closed)>"
        i = self._info()
        return f"<rlx.Session {i['path']!r} on {i['device']} ({i['backend']})>"
