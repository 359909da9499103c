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
from ._rlx import Graph, Tensor, from_dlpack  # noqa: F401
from ._rlx import (  # noqa: F401  (the exception hierarchy)
    AbiMismatchError, BackendError, DeviceError, DtypeError, DuplicateError,
    Error, FormatError, InternalError, InvalidArgumentError, IOError,
    NotFoundError, OutOfMemoryError, PluginError, ShapeError, StateError,
    UnavailableError, UnsupportedError,
)

__all__ = [
    "version", "devices", "backends", "check", "Session", "TensorInfo", "Graph", "Tensor",
    "Runner", "Attempt", "BenchResult", "from_dlpack",
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


def _error(cls: type, status: str, msg: str) -> Error:
    """An rlx error raised from Python, with .reason, .fix and .status as
    the extension's errors have them."""
    exc = cls(msg)
    reason, _, fix = msg.partition("Fix:")
    exc.reason = reason.rstrip(" .\n")
    exc.fix = fix.strip() or None
    exc.status = status
    return exc


class Attempt(NamedTuple):
    """One device tried by Runner.run(chain=...): its name, the error's
    status name ('RLX_ERR_UNAVAILABLE') or None for the device that ran,
    and the reason it failed (None when it ran)."""
    device: str
    error: Optional[str]
    reason: Optional[str]


class BenchResult(NamedTuple):
    """One device timed by Runner.benchmark: median milliseconds per run
    (negative when it failed), and the error's status name and reason."""
    device: str
    ms: float
    error: Optional[str]
    reason: Optional[str]


def _chain_arg(chain: Union[None, str, Sequence[str]]) -> Optional[str]:
    if chain is None or isinstance(chain, str):
        return chain
    return ",".join(chain)


class Runner(_rlx._Runner):
    """One model (ONNX or rlx YAML, or an rlx.Graph) on every device it may
    run on: the C API's multi-device runner (docs/multi-device.md).

    Runner(path_or_graph, policy=None, fallback=None, shapes=None)

    policy: which devices, in which order: None (RLX_DEVICE_POLICY, else
    'default'), 'default', 'prefer-cpu', 'prefer-gpu', 'prefer-npu',
    'max-performance' (benchmark() picks the best), 'cpu-only', 'gpu-only'
    or 'npu-only'; rlx.UnavailableError when no device satisfies it.
    fallback: 'split', 'whole' or 'none' for every program it compiles
    (None: each session's default). shapes: the inputs' shapes for an ONNX
    model with symbolic dimensions ({'x': (4, 3)}); the runner runs the
    shapes it was made for (rlx.Session follows other shapes). A model
    that runs in stages (control flow on run-time data) is refused: use
    rlx.Session for it.

    A program is compiled per device on first use and cached; the inputs
    given to run() are kept and go to every device. Runs take turns
    across threads, with the GIL released while a program compiles or
    runs. Use it as a context manager, or call close(), to free it at once.
    """

    def __init__(self, path: Union[str, os.PathLike, Graph], policy: Optional[str] = None,
                 fallback: Optional[str] = None,
                 shapes: Optional[Mapping[str, Sequence[int]]] = None) -> None:
        super().__init__(path if isinstance(path, Graph) else os.fspath(path), policy,
                         fallback, None if shapes is None else dict(shapes))

    @property
    def devices(self) -> List[str]:
        """The devices the policy allows, best first ('cuda:0', 'cpu:0')."""
        return self._devices()

    @property
    def inputs(self) -> List[TensorInfo]:
        """The inputs, with the shapes the runner runs."""
        return [TensorInfo(n, d, s) for n, d, s in self._slots(0)]

    @property
    def outputs(self) -> List[TensorInfo]:
        """The outputs (compiles for the best device if nothing has yet)."""
        return [TensorInfo(n, d, s) for n, d, s in self._slots(1)]

    def set_inputs(self, feeds: Mapping[str, Any]) -> None:
        """Give inputs by name (arrays, anything with __array__ or
        __dlpack__, lists); each is kept, for every device, until given
        again. The dtype must be the input's (never cast), the shape the
        one the runner runs."""
        if not isinstance(feeds, Mapping):
            raise _error(InvalidArgumentError, "RLX_ERR_INVALID_ARGUMENT",
                f"feeds must be a dict of input name to array, not {type(feeds).__name__}. "
                "Fix: pass {'name': array, ...}")
        kinds = {i.name: i for i in self.inputs}
        for name, value in feeds.items():
            info = kinds.get(name)
            if info is None:
                raise _error(NotFoundError, "RLX_ERR_NOT_FOUND",
                    f"the model has no input {name!r}; it has {sorted(kinds)}. "
                    "Fix: use one of those names")
            arr = _coerce(value, info.dtype)
            if arr.dtype != _np.dtype(info.dtype):
                raise _error(DtypeError, "RLX_ERR_DTYPE",
                    f"input {name!r} is {arr.dtype}, but the model takes {info.dtype}. "
                    f"Fix: convert it, e.g. x.astype(numpy.{info.dtype})")
            if tuple(arr.shape) != tuple(info.shape):
                raise _error(ShapeError, "RLX_ERR_SHAPE",
                    f"input {name!r} has shape {tuple(arr.shape)}; the runner runs "
                    f"{tuple(info.shape)}. Fix: pass that shape, or make the Runner "
                    f"with shapes={{{name!r}: {tuple(arr.shape)}}}")
            self._set_input(name, arr)

    def run(self, feeds: Optional[Mapping[str, Any]] = None, device: Optional[str] = None,
            chain: Union[None, str, Sequence[str]] = None,
            outputs: Optional[Sequence[str]] = None) -> List[_np.ndarray]:
        """Run once and return the outputs as NumPy arrays (OUTPUTS names
        which, in that order; None: all, in the model's order).

        FEEDS: inputs to give first (set_inputs); inputs given before are
        kept. device: run there ('cpu', 'cuda:0', a backend id);
        chain: try each device of the chain ('cuda,vulkan,cpu' or a list)
        until one compiles and runs (attempts says what happened; an
        empty chain raises); neither: the best device (the policy's first,
        or benchmark()'s winner). last_device says which device ran."""
        if device is not None and chain is not None:
            raise _error(InvalidArgumentError, "RLX_ERR_INVALID_ARGUMENT",
                "run: give device or chain, not both. Fix: drop one of them")
        if feeds:
            self.set_inputs(feeds)
        _dev, res = self._run(device, _chain_arg(chain), chain is not None)
        return self._pick(res, outputs)

    def run_chain(self, chain: Union[None, str, Sequence[str]] = None,
                  feeds: Optional[Mapping[str, Any]] = None,
                  outputs: Optional[Sequence[str]] = None) -> List[_np.ndarray]:
        """run() along CHAIN; None: RLX_DEVICE_CHAIN, else the policy's
        order."""
        if feeds:
            self.set_inputs(feeds)
        _dev, res = self._run(None, _chain_arg(chain), True)
        return self._pick(res, outputs)

    @staticmethod
    def _pick(res: Dict[str, _np.ndarray],
              outputs: Optional[Sequence[str]]) -> List[_np.ndarray]:
        if outputs is None:
            return list(res.values())
        if isinstance(outputs, str):
            raise _error(InvalidArgumentError, "RLX_ERR_INVALID_ARGUMENT",
                f"outputs must be a list of output names, not a str. Fix: pass outputs=[{outputs!r}]")
        missing = [o for o in outputs if o not in res]
        if missing:
            raise _error(NotFoundError, "RLX_ERR_NOT_FOUND",
                f"the model has no output {missing[0]!r}; it has {list(res)}. "
                "Fix: use one of those names")
        return [res[o] for o in outputs]

    @property
    def attempts(self) -> List[Attempt]:
        """The devices the last chain run tried, in order."""
        return [Attempt(*a) for a in self._attempts()]

    def compile_all(self) -> int:
        """Compile for every device the policy allows now, so later runs
        start at once; returns how many compiled (raises when none)."""
        return self._compile_all()

    def benchmark(self, devices: Union[None, str, Sequence[str]] = None,
                  runs: int = 5) -> Tuple[str, List[BenchResult]]:
        """Time DEVICES (a chain; None: RLX_DEVICE_CHAIN, else every allowed
        device) on the inputs given so far: one warm-up, then RUNS timed
        runs each. The fastest becomes the device run() uses by default.
        Returns (winner, one BenchResult per device)."""
        winner, rows = self._benchmark(_chain_arg(devices), int(runs))
        return winner, [BenchResult(*r) for r in rows]

    def __enter__(self) -> "Runner":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        if self.closed:
            return "<rlx.Runner (closed)>"
        return f"<rlx.Runner on {', '.join(self.devices)}>"
