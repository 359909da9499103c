"""DLPack 1.x: rlx.Tensor.__dlpack__ hands out the versioned capsule
('dltensor_versioned') when the consumer's max_version is 1.0 or later
and the unversioned one otherwise; rlx.from_dlpack takes both kinds, from
producers that know max_version and from older ones. Debian 12's NumPy
(1.24) and PyTorch (1.13) predate DLPack 1.x, so versioned producers here
are fakes handing out capsules rlx made, or built with ctypes from the
DLPack specification's layout (the read-only flag, another major
version)."""
import ctypes
import gc
import sys

import numpy as np
import pytest

import rlx

# ---- the DLPack layout, from the specification ------------------------------


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


class DLVersion(ctypes.Structure):
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32)]


DELETER = ctypes.CFUNCTYPE(None, ctypes.c_void_p)


class DLManagedVersioned(ctypes.Structure):
    _fields_ = [("version", DLVersion), ("manager_ctx", ctypes.c_void_p),
                ("deleter", DELETER), ("flags", ctypes.c_uint64), ("dl_tensor", DLTensor)]


READ_ONLY = 1

_api = ctypes.pythonapi
_api.PyCapsule_New.restype = ctypes.py_object
_api.PyCapsule_New.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
_api.PyCapsule_GetName.restype = ctypes.c_char_p
_api.PyCapsule_GetName.argtypes = [ctypes.py_object]
_api.PyCapsule_GetPointer.restype = ctypes.c_void_p
_api.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]

_VERSIONED = b"dltensor_versioned"  # alive as long as the module


def capsule_name(cap):
    return _api.PyCapsule_GetName(cap).decode()


class Made:
    """A versioned capsule over ARRAY built here, whose deleter counts
    its calls."""

    def __init__(self, array, flags=0, major=1, device=(1, 0)):
        self.array = np.ascontiguousarray(array, np.float32)
        self.shape = (ctypes.c_int64 * self.array.ndim)(*self.array.shape)
        self.deleted = 0

        def deleter(_ptr):
            self.deleted += 1
        self.deleter = DELETER(deleter)
        self.m = DLManagedVersioned(
            DLVersion(major, 0), None, self.deleter, flags,
            DLTensor(self.array.ctypes.data, DLDevice(*device), self.array.ndim,
                     DLDataType(2, 32, 1), self.shape, None, 0))
        self.capsule = _api.PyCapsule_New(ctypes.addressof(self.m), _VERSIONED, None)


class Producer:
    """Hands out CAPSULE from __dlpack__, recording how it was asked."""

    def __init__(self, capsule, device=(1, 0)):
        self.capsule, self.device, self.asked = capsule, device, []

    def __dlpack__(self, stream=None, max_version=None, dl_device=None, copy=None):
        self.asked.append(max_version)
        return self.capsule

    def __dlpack_device__(self):
        return self.device


class OldProducer(Producer):
    """A producer from before DLPack 1.x: no max_version keyword."""

    def __dlpack__(self, stream=None):
        self.asked.append("old")
        return self.capsule


def xb():
    return np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3)


@pytest.fixture
def sess(onnx_model):
    with rlx.Session(onnx_model[0], device="cpu-ref") as s:
        yield s


# ---- export -------------------------------------------------------------------

def test_versioned_capsule_when_asked(sess):
    t = rlx.Tensor(xb(), sess)
    assert capsule_name(t.__dlpack__()) == "dltensor"
    assert capsule_name(t.__dlpack__(max_version=(0, 8))) == "dltensor"
    cap = t.__dlpack__(max_version=(1, 0))
    assert capsule_name(cap) == "dltensor_versioned"
    assert capsule_name(t.__dlpack__(max_version=(1, 3))) == "dltensor_versioned"
    m = DLManagedVersioned.from_address(_api.PyCapsule_GetPointer(cap, _VERSIONED))
    assert (m.version.major, m.version.minor) == (1, 0)
    assert m.flags == 0 and not t.readonly
    d = m.dl_tensor
    assert d.data == t.data_ptr and d.ndim == 2 and (d.shape[0], d.shape[1]) == (2, 3)
    assert (d.dtype.code, d.dtype.bits, d.dtype.lanes) == (2, 32, 1)
    assert (d.device.device_type, d.device.device_id) == (1, 0)
    with pytest.raises(TypeError):
        t.__dlpack__(max_version=1)


def test_unconsumed_capsules_release_the_tensor(sess):
    t = rlx.Tensor(xb(), sess)
    gc.collect()
    before = sys.getrefcount(t)
    for _ in range(100):
        t.__dlpack__(max_version=(1, 0))
        t.__dlpack__()
    gc.collect()
    assert sys.getrefcount(t) == before


# ---- import -------------------------------------------------------------------

def test_import_both_capsule_kinds_without_a_copy(sess):
    t = rlx.Tensor(xb(), sess)
    for asked, capsule in (((1, 0), t.__dlpack__(max_version=(1, 0))),
                           ((1, 0), t.__dlpack__())):
        p = Producer(capsule)
        u = rlx.from_dlpack(p, sess)
        assert p.asked == [asked]  # rlx asks for DLPack 1.x
        assert u.data_ptr == t.data_ptr and u.shape == (2, 3) and not u.readonly
        assert capsule_name(capsule).startswith("used_")
        np.testing.assert_array_equal(u.numpy(), xb())
        y, z = sess.run({"x": u})
        np.testing.assert_array_equal(z, xb() * 2)
    # a used capsule is not taken again
    with pytest.raises(rlx.InvalidArgumentError) as e:
        rlx.from_dlpack(Producer(capsule), sess)
    assert "used_dltensor" in e.value.reason and e.value.fix


def test_a_producer_without_max_version(sess):
    t = rlx.Tensor(xb(), sess)
    p = OldProducer(t.__dlpack__())
    u = rlx.from_dlpack(p, sess)
    assert p.asked == ["old"] and u.data_ptr == t.data_ptr


def test_read_only_is_kept_and_said(sess):
    made = Made(xb() * 3, flags=READ_ONLY)
    u = rlx.from_dlpack(Producer(made.capsule), sess)
    assert u.readonly and u.data_ptr == made.array.ctypes.data
    np.testing.assert_array_equal(u.numpy(), xb() * 3)
    # rlx only reads it: a run takes it as an input
    y, z = sess.run({"x": u})
    np.testing.assert_array_equal(z, xb() * 6)
    # exported again: only DLPack 1.x can say read-only
    cap = u.__dlpack__(max_version=(1, 0))
    m = DLManagedVersioned.from_address(_api.PyCapsule_GetPointer(cap, _VERSIONED))
    assert m.flags & READ_ONLY
    with pytest.raises(BufferError, match="read-only"):
        u.__dlpack__()
    del cap, m
    assert made.deleted == 0
    del u
    gc.collect()
    assert made.deleted == 1  # the producer's deleter, once


def test_another_major_version_is_refused(sess):
    made = Made(xb(), major=2)
    with pytest.raises(rlx.UnsupportedError) as e:
        rlx.from_dlpack(Producer(made.capsule), sess)
    assert "DLPack 2.0" in e.value.reason and "max_version" in e.value.fix
    assert made.deleted == 1  # released at once


def test_what_from_dlpack_refuses(sess):
    with pytest.raises(rlx.InvalidArgumentError) as e:
        rlx.from_dlpack(xb().tolist(), sess)
    assert "__dlpack__" in e.value.reason
    with pytest.raises(rlx.InvalidArgumentError):
        rlx.from_dlpack(Producer("not a capsule"), sess)
    with pytest.raises(TypeError):
        rlx.from_dlpack(rlx.Tensor(xb(), sess), "not a session")
    # memory of another device (CUDA here): refused, and released
    made = Made(xb(), device=(2, 0))
    with pytest.raises(rlx.Error) as e:
        rlx.from_dlpack(Producer(made.capsule, device=(2, 0)), sess)
    assert e.value.fix
    assert made.deleted == 1
    t = rlx.Tensor(xb(), sess)
    sess.close()
    with pytest.raises(rlx.StateError):
        rlx.from_dlpack(t, sess)


def test_torch_tensor_through_from_dlpack(sess):
    import torch
    x = torch.from_numpy(xb().copy())
    u = rlx.from_dlpack(x, sess)  # torch 1.13 has no max_version: retried
    assert u.data_ptr == x.data_ptr()
    y, z = sess.run({"x": u})
    np.testing.assert_array_equal(z, xb() * 2)
    # and back: torch takes the unversioned capsule of an rlx.Tensor
    back = torch.from_dlpack(u)
    assert back.data_ptr() == x.data_ptr()
