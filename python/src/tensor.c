/*
 * tensor.c - rlx.Tensor: an rlx_tensor (data in the memory of a
 * program's device) as a Python object, shared with NumPy, PyTorch, CuPy
 * and JAX through DLPack with no copy (__dlpack__, __dlpack_device__;
 * DLPack 1.x's versioned capsule when the consumer asks for it, the
 * unversioned one otherwise), and the other way: a DLPack tensor of
 * another library, in either capsule, wrapped as an rlx_tensor for
 * Session.run to bind (rlxpy_tensor_import, rlx.from_dlpack).
 */
#include "session.h"
#include "dlpack.h"

#include <string.h>

typedef struct {
    PyObject_HEAD
    rlx_tensor *t;
    int readonly;   /* imported from a DLPack 1.x producer marking it so */
} tensor_obj;

static int is_tensor(PyObject *o)
{
    return PyObject_TypeCheck(o, &rlxpy_tensor_type);
}

rlx_tensor *rlxpy_tensor_handle(PyObject *o)
{
    return is_tensor(o) ? ((tensor_obj *)o)->t : NULL;
}

PyObject *rlxpy_tensor_new(rlx_tensor *t)
{
    tensor_obj *o = PyObject_New(tensor_obj, &rlxpy_tensor_type);
    if (!o) {
        rlx_tensor_destroy(t);
        return NULL;
    }
    o->t = t;
    o->readonly = 0;
    return (PyObject *)o;
}

static void tensor_dealloc(tensor_obj *self)
{
    rlx_tensor_destroy(self->t);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int tensor_ready(tensor_obj *self)
{
    if (self->t)
        return 1;
    rlxpy_raisef(RLX_ERR_STATE, "this rlx.Tensor was not made. Fix: make "
                 "tensors with rlx.Tensor(array, session) or "
                 "Session.run(..., keep_on_device=True)");
    return 0;
}

/* Tensor(array, session): ARRAY (C-contiguous, native byte order: the
 * Python side makes it so) copied to SESSION's device. */
static int tensor_init(tensor_obj *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = { "array", "session", NULL };
    PyObject *value = NULL, *sess = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO!", kwlist, &value,
                                     &rlxpy_session_type, &sess))
        return -1;
    if (self->t) {
        rlx_tensor_destroy(self->t);
        self->t = NULL;
    }
    session_obj *s = (session_obj *)sess;
    if (rlxpy_session_closed_error(s))
        return -1;
    /* a C-contiguous native array: lists and scalars become float32 */
    PyObject *arr = rlxpy_coerce ? PyObject_CallFunction(rlxpy_coerce, "Os",
                                                         value, "float32")
                                 : NULL;
    if (!arr)
        return -1;
    Py_buffer v;
    if (PyObject_GetBuffer(arr, &v, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT)) {
        Py_DECREF(arr);
        return -1;
    }
    rlx_dtype dt = rlxpy_dtype_of_buffer(&v);
    int rc = -1;
    if (dt == RLX_DTYPE_INVALID) {
        rlxpy_raisef(RLX_ERR_DTYPE, "rlx.Tensor: arrays of format '%s' have "
                     "no rlx dtype. Fix: use float32, float16, float64, "
                     "int8, int32, int64, uint8 or bool",
                     v.format ? v.format : "B");
        goto out;
    }
    if (v.ndim > 16) {
        rlxpy_raisef(RLX_ERR_SHAPE, "rlx.Tensor: %d dimensions. Fix: pass "
                     "at most 16", v.ndim);
        goto out;
    }
    int64_t dims[16];
    for (int d = 0; d < v.ndim; d++)
        dims[d] = (int64_t)v.shape[d];
    rlxpy_session_lock(s);
    rlx_status st = s->program
                        ? rlx_tensor_create(s->program, dt, (uint32_t)v.ndim,
                                            dims, v.buf, &self->t)
                        : RLX_ERR_STATE;
    PyThread_release_lock(s->lock);
    if (st == RLX_ERR_STATE && !s->program)
        rlxpy_session_closed_error(s);
    else if (st != RLX_OK)
        rlxpy_raise(st, NULL);
    else
        rc = 0;
out:
    PyBuffer_Release(&v);
    Py_DECREF(arr);
    return rc;
}

static PyObject *tensor_shape(tensor_obj *self, void *unused)
{
    (void)unused;
    uint32_t rank = 0;
    const int64_t *dims = NULL;
    if (!tensor_ready(self))
        return NULL;
    rlx_tensor_shape(self->t, NULL, &rank, &dims);
    return rlxpy_shape(rank, dims);
}

static PyObject *tensor_dtype(tensor_obj *self, void *unused)
{
    (void)unused;
    rlx_dtype dt = RLX_DTYPE_INVALID;
    if (!tensor_ready(self))
        return NULL;
    rlx_tensor_shape(self->t, &dt, NULL, NULL);
    const char *n = rlxpy_numpy_dtype(dt);
    return PyUnicode_FromString(n ? n : rlx_dtype_name(dt));
}

/* (kind, id) of the tensor's memory, or NULL with rlx's error raised. */
static PyObject *tensor_dlpack_device(tensor_obj *self, PyObject *unused)
{
    (void)unused;
    void *a = NULL;
    int32_t kind = 0, id = 0;
    if (!tensor_ready(self))
        return NULL;
    rlx_status st = rlx_tensor_memory(self->t, &a, &kind, &id);
    if (st != RLX_OK)
        return rlxpy_raise(st, NULL);
    return Py_BuildValue("(ii)", (int)kind, (int)id);
}

static PyObject *tensor_data_ptr(tensor_obj *self, void *unused)
{
    (void)unused;
    void *a = NULL;
    int32_t kind = 0, id = 0;
    if (!tensor_ready(self))
        return NULL;
    rlx_status st = rlx_tensor_memory(self->t, &a, &kind, &id);
    if (st != RLX_OK)
        return rlxpy_raise(st, NULL);
    return PyLong_FromVoidPtr(a);
}

static PyObject *tensor_device(tensor_obj *self, void *unused)
{
    (void)unused;
    PyObject *dev = tensor_dlpack_device(self, NULL);
    if (!dev)
        return NULL;
    long kind = PyLong_AsLong(PyTuple_GET_ITEM(dev, 0));
    long id = PyLong_AsLong(PyTuple_GET_ITEM(dev, 1));
    Py_DECREF(dev);
    const char *name = kind == RLX_MEMORY_CUDA ? "cuda"
                       : kind == RLX_MEMORY_ROCM ? "rocm"
                                                 : "cpu";
    return PyUnicode_FromFormat("%s:%ld", name, id);
}

/* A new NumPy array with the tensor's contents. */
static PyObject *tensor_numpy(tensor_obj *self, PyObject *unused)
{
    (void)unused;
    rlx_dtype dt = RLX_DTYPE_INVALID;
    uint32_t rank = 0;
    const int64_t *dims = NULL;
    if (!tensor_ready(self))
        return NULL;
    rlx_tensor_shape(self->t, &dt, &rank, &dims);
    PyObject *np = rlxpy_numpy();
    PyObject *shape = np ? rlxpy_shape(rank, dims) : NULL;
    const char *npd = rlxpy_numpy_dtype(dt);
    PyObject *arr = shape ? PyObject_CallMethod(np, "empty", "(Os)", shape,
                                                npd ? npd : "uint8")
                          : NULL;
    Py_XDECREF(shape);
    if (!arr)
        return NULL;
    Py_buffer v;
    if (PyObject_GetBuffer(arr, &v, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE)) {
        Py_DECREF(arr);
        return NULL;
    }
    rlx_status st;
    Py_BEGIN_ALLOW_THREADS
    st = rlx_tensor_read(self->t, v.buf, (size_t)v.len);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&v);
    if (st != RLX_OK) {
        Py_DECREF(arr);
        return rlxpy_raise(st, NULL);
    }
    return arr;
}

/* ---- export: __dlpack__ ---------------------------------------------- */

/* One export: the capsule points at M (unversioned) or MV (1.x). */
typedef struct {
    rlxpy_dl_managed m;
    rlxpy_dl_managed_v mv;
    PyObject *owner;    /* the rlx.Tensor, alive while the consumer uses it */
    int64_t shape[];
} export_ctx;

static void export_free(export_ctx *c)
{
    PyGILState_STATE g = PyGILState_Ensure();
    Py_XDECREF(c->owner);
    PyGILState_Release(g);
    PyMem_RawFree(c);
}

static void export_delete(rlxpy_dl_managed *m)
{
    export_free(m->manager_ctx);
}

static void export_delete_v(rlxpy_dl_managed_v *m)
{
    export_free(m->manager_ctx);
}

/* A capsule nobody consumed (still under its first name) frees its
 * tensor; a consumer renames it "used_..." and calls the deleter. */
static void capsule_destroy(PyObject *cap)
{
    if (PyCapsule_IsValid(cap, RLXPY_DL_CAPSULE)) {
        rlxpy_dl_managed *m = PyCapsule_GetPointer(cap, RLXPY_DL_CAPSULE);
        if (m && m->deleter)
            m->deleter(m);
    } else if (PyCapsule_IsValid(cap, RLXPY_DL_CAPSULE_V)) {
        rlxpy_dl_managed_v *m = PyCapsule_GetPointer(cap, RLXPY_DL_CAPSULE_V);
        if (m && m->deleter)
            m->deleter(m);
    }
}

/* max_version: None (an older consumer) or (major, minor). 1 when the
 * consumer takes DLPack 1.x, 0 when not, -1 with an exception. */
static int wants_versioned(PyObject *maxv)
{
    if (maxv == Py_None)
        return 0;
    int major = 0, minor = 0;
    if (!PyTuple_Check(maxv) || !PyArg_ParseTuple(maxv, "ii", &major, &minor)) {
        PyErr_Clear();
        PyErr_SetString(PyExc_TypeError, "rlx.Tensor.__dlpack__: max_version "
                        "must be None or a (major, minor) tuple of int. Fix: "
                        "pass e.g. max_version=(1, 0)");
        return -1;
    }
    return major >= 1;
}

static int dl_dtype(rlx_dtype dt, rlxpy_dl_dtype *out)
{
    out->lanes = 1;
    switch (dt) {
    case RLX_DTYPE_F32: *out = (rlxpy_dl_dtype){ RLXPY_DL_FLOAT, 32, 1 }; return 1;
    case RLX_DTYPE_F16: *out = (rlxpy_dl_dtype){ RLXPY_DL_FLOAT, 16, 1 }; return 1;
    case RLX_DTYPE_F64: *out = (rlxpy_dl_dtype){ RLXPY_DL_FLOAT, 64, 1 }; return 1;
    case RLX_DTYPE_BF16: *out = (rlxpy_dl_dtype){ RLXPY_DL_BFLOAT, 16, 1 }; return 1;
    case RLX_DTYPE_I8: *out = (rlxpy_dl_dtype){ RLXPY_DL_INT, 8, 1 }; return 1;
    case RLX_DTYPE_I32: *out = (rlxpy_dl_dtype){ RLXPY_DL_INT, 32, 1 }; return 1;
    case RLX_DTYPE_I64: *out = (rlxpy_dl_dtype){ RLXPY_DL_INT, 64, 1 }; return 1;
    case RLX_DTYPE_U8: *out = (rlxpy_dl_dtype){ RLXPY_DL_UINT, 8, 1 }; return 1;
    case RLX_DTYPE_BOOL: *out = (rlxpy_dl_dtype){ RLXPY_DL_BOOL, 8, 1 }; return 1;
    default: return 0;
    }
}

static rlx_dtype rlx_of_dl(rlxpy_dl_dtype d)
{
    for (int dt = 1; dt <= RLX_DTYPE_LAST; dt++) {
        rlxpy_dl_dtype x;
        if (dl_dtype((rlx_dtype)dt, &x) && x.code == d.code &&
            x.bits == d.bits && d.lanes == 1)
            return (rlx_dtype)dt;
    }
    return RLX_DTYPE_INVALID;
}

/* __dlpack__(stream=None, max_version=None, dl_device=None, copy=None):
 * the tensor's memory itself. Runs finish before rlx returns them, so
 * there is no stream to order against. */
static PyObject *tensor_dlpack(tensor_obj *self, PyObject *args,
                               PyObject *kw)
{
    static char *kwlist[] = { "stream", "max_version", "dl_device", "copy",
                              NULL };
    PyObject *stream = Py_None, *maxv = Py_None, *dev = Py_None;
    PyObject *copy = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|$OOOO", kwlist, &stream,
                                     &maxv, &dev, &copy))
        return NULL;
    if (!tensor_ready(self))
        return NULL;
    int versioned = wants_versioned(maxv);
    if (versioned < 0)
        return NULL;
    if (self->readonly && !versioned) {
        PyErr_SetString(PyExc_BufferError, "rlx.Tensor.__dlpack__: the "
                        "tensor is read-only, which only DLPack 1.x can say. "
                        "Fix: ask for max_version=(1, 0), or copy it with "
                        "t.numpy()");
        return NULL;
    }
    if (copy == Py_True) {
        PyErr_SetString(PyExc_BufferError, "rlx.Tensor.__dlpack__: "
                        "copy=True is not offered. Fix: t.numpy() copies");
        return NULL;
    }
    void *a = NULL;
    int32_t kind = 0, id = 0;
    rlx_status st = rlx_tensor_memory(self->t, &a, &kind, &id);
    if (st != RLX_OK) {
        PyErr_Format(PyExc_BufferError, "%s", rlx_last_error());
        return NULL;
    }
    if (dev != Py_None) {
        int want_kind = 0, want_id = 0;
        if (!PyArg_ParseTuple(dev, "ii", &want_kind, &want_id))
            return NULL;
        if (want_kind != kind || want_id != id) {
            PyErr_Format(PyExc_BufferError, "rlx.Tensor.__dlpack__: the "
                         "tensor is on device (%d, %d), not (%d, %d). Fix: "
                         "t.numpy() copies to the host", (int)kind, (int)id,
                         want_kind, want_id);
            return NULL;
        }
    }
    rlx_dtype dt = RLX_DTYPE_INVALID;
    uint32_t rank = 0;
    const int64_t *dims = NULL;
    rlx_tensor_shape(self->t, &dt, &rank, &dims);
    rlxpy_dl_dtype dd;
    if (!dl_dtype(dt, &dd)) {
        PyErr_Format(PyExc_BufferError, "rlx.Tensor.__dlpack__: dtype %s "
                     "has no DLPack type", rlx_dtype_name(dt));
        return NULL;
    }
    export_ctx *c = PyMem_RawCalloc(1, sizeof *c + (rank + 1) *
                                               sizeof(int64_t));
    if (!c)
        return PyErr_NoMemory();
    if (rank)
        memcpy(c->shape, dims, rank * sizeof *dims);
    rlxpy_dl_tensor dl = {
        .data = a,
        .device = { kind, id },
        .ndim = (int32_t)rank,
        .dtype = dd,
        .shape = c->shape,
        .strides = NULL,
        .byte_offset = 0,
    };
    Py_INCREF(self);
    c->owner = (PyObject *)self;
    PyObject *cap;
    if (versioned) {
        c->mv.version = (rlxpy_dl_version){ RLXPY_DL_MAJOR, RLXPY_DL_MINOR };
        c->mv.manager_ctx = c;
        c->mv.deleter = export_delete_v;
        c->mv.flags = self->readonly ? RLXPY_DL_FLAG_READ_ONLY : 0;
        c->mv.dl_tensor = dl;
        cap = PyCapsule_New(&c->mv, RLXPY_DL_CAPSULE_V, capsule_destroy);
    } else {
        c->m.dl_tensor = dl;
        c->m.manager_ctx = c;
        c->m.deleter = export_delete;
        cap = PyCapsule_New(&c->m, RLXPY_DL_CAPSULE, capsule_destroy);
    }
    if (!cap)
        export_free(c);
    (void)stream;
    return cap;
}

/* ---- import: a DLPack tensor of another library as an rlx_tensor ---- */

/* What an imported capsule hands over: the tensor and how to free it. */
typedef struct {
    rlxpy_dl_tensor *d;
    void *managed;
    int versioned;
} imported;

static void import_release(void *ctx)
{
    rlxpy_dl_managed *m = ctx;
    if (m->deleter)
        m->deleter(m);
}

static void import_release_v(void *ctx)
{
    rlxpy_dl_managed_v *m = ctx;
    if (m->deleter)
        m->deleter(m);
}

/* OBJ.__dlpack__(...) asking for DLPack 1.x, and again without
 * max_version for a producer older than that (a TypeError). */
static PyObject *call_dlpack(PyObject *obj, int32_t kind)
{
    PyObject *fn = PyObject_GetAttrString(obj, "__dlpack__");
    if (!fn)
        return NULL;
    PyObject *noargs = PyTuple_New(0);
    PyObject *cap = NULL;
    for (int versioned = 1; noargs && versioned >= 0 && !cap; versioned--) {
        /* CUDA: stream 1, the legacy default stream, which the plugins'
         * streams wait for, so the producer's pending work comes first */
        PyObject *kwargs = PyDict_New();
        PyObject *mv = Py_BuildValue("(ii)", RLXPY_DL_MAJOR, RLXPY_DL_MINOR);
        PyObject *one = PyLong_FromLong(1);
        if (kwargs && mv && one &&
            (!versioned || !PyDict_SetItemString(kwargs, "max_version", mv)) &&
            (kind != RLX_MEMORY_CUDA ||
             !PyDict_SetItemString(kwargs, "stream", one)))
            cap = PyObject_Call(fn, noargs, kwargs);
        Py_XDECREF(kwargs);
        Py_XDECREF(mv);
        Py_XDECREF(one);
        if (cap || !versioned || !PyErr_ExceptionMatches(PyExc_TypeError))
            break;
        PyErr_Clear();
    }
    Py_DECREF(fn);
    Py_XDECREF(noargs);
    return cap;
}

/* Take the managed tensor out of capsule CAP (either kind), renaming it
 * "used_..." so that its destructor leaves it to us. 0, or -1 with an
 * exception set (a capsule of a major version rlx does not know is
 * released at once). */
static int take_capsule(PyObject *cap, imported *im, int *readonly)
{
    *readonly = 0;
    if (PyCapsule_IsValid(cap, RLXPY_DL_CAPSULE_V)) {
        rlxpy_dl_managed_v *m = PyCapsule_GetPointer(cap, RLXPY_DL_CAPSULE_V);
        if (!m || PyCapsule_SetName(cap, RLXPY_DL_CAPSULE_V_USED))
            return -1;
        if (m->version.major != RLXPY_DL_MAJOR) {
            unsigned major = m->version.major, minor = m->version.minor;
            import_release_v(m);
            rlxpy_raisef(RLX_ERR_UNSUPPORTED, "a DLPack %u.%u tensor; rlx "
                         "takes DLPack %d.x. Fix: ask the producer for "
                         "max_version=(%d, %d), or pass a NumPy copy",
                         major, minor, RLXPY_DL_MAJOR, RLXPY_DL_MAJOR,
                         RLXPY_DL_MINOR);
            return -1;
        }
        *readonly = (m->flags & RLXPY_DL_FLAG_READ_ONLY) != 0;
        *im = (imported){ &m->dl_tensor, m, 1 };
        return 0;
    }
    if (PyCapsule_IsValid(cap, RLXPY_DL_CAPSULE)) {
        rlxpy_dl_managed *m = PyCapsule_GetPointer(cap, RLXPY_DL_CAPSULE);
        if (!m || PyCapsule_SetName(cap, RLXPY_DL_CAPSULE_USED))
            return -1;
        *im = (imported){ &m->dl_tensor, m, 0 };
        return 0;
    }
    const char *name = PyCapsule_CheckExact(cap) ? PyCapsule_GetName(cap)
                                                 : NULL;
    PyErr_Clear();
    rlxpy_raisef(RLX_ERR_INVALID_ARGUMENT, "__dlpack__ returned %s%s%s, not "
                 "a DLPack capsule ('dltensor' or 'dltensor_versioned'), or "
                 "one already used. Fix: pass the producer's tensor itself, "
                 "once per capsule", name ? "a capsule named '" : "a ",
                 name ? name : Py_TYPE(cap)->tp_name, name ? "'" : "");
    return -1;
}

rlx_status rlxpy_tensor_import(rlx_program *p, PyObject *obj, int32_t kind,
                               rlx_tensor **out, int *readonly)
{
    *out = NULL;
    int ro = 0;
    PyObject *cap = call_dlpack(obj, kind);
    if (!cap)
        return RLX_ERR_INVALID_ARGUMENT; /* the exception is set */
    imported im;
    int rc = take_capsule(cap, &im, &ro);
    Py_DECREF(cap); /* the managed tensor is ours now */
    if (rc)
        return RLX_ERR_INVALID_ARGUMENT;
    if (readonly)
        *readonly = ro;
    void (*release)(void *) = im.versioned ? import_release_v
                                           : import_release;
    rlxpy_dl_tensor *d = im.d;
    rlx_dtype dt = rlx_of_dl(d->dtype);
    /* row-major compact, or refused: the copy path takes it instead */
    int compact = d->ndim >= 0 && d->ndim <= 16;
    int64_t expect = 1;
    for (int32_t i = d->ndim - 1; compact && d->strides && i >= 0; i--) {
        if (d->shape[i] != 1 && d->strides[i] != expect)
            compact = 0;
        expect *= d->shape[i];
    }
    if (dt == RLX_DTYPE_INVALID || !compact) {
        unsigned code = d->dtype.code, bits = d->dtype.bits;
        release(im.managed);
        rlxpy_raisef(RLX_ERR_DTYPE, "a DLPack tensor of type (%u, %u bits) "
                     "or with strides rlx cannot wrap. Fix: pass a "
                     "contiguous tensor of an rlx dtype (x.contiguous())",
                     code, bits);
        return RLX_ERR_DTYPE;
    }
    rlx_status st = rlx_tensor_wrap(p, dt, (uint32_t)d->ndim, d->shape,
                                    (char *)d->data + d->byte_offset,
                                    d->device.device_type,
                                    d->device.device_id, release,
                                    im.managed, out);
    /* on failure the release already ran; the caller decides to copy */
    return st;
}

/* rlx.from_dlpack(obj, session): OBJ's memory (DLPack, either capsule
 * kind) as an rlx.Tensor of SESSION's device, no copy. */
PyObject *rlxpy_from_dlpack(PyObject *mod, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = { "obj", "session", NULL };
    PyObject *obj = NULL, *sess = NULL;
    (void)mod;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO!", kwlist, &obj,
                                     &rlxpy_session_type, &sess))
        return NULL;
    session_obj *s = (session_obj *)sess;
    if (rlxpy_session_closed_error(s))
        return NULL;
    if (!PyObject_HasAttrString(obj, "__dlpack__"))
        return rlxpy_raisef(RLX_ERR_INVALID_ARGUMENT, "rlx.from_dlpack: %s "
                            "has no __dlpack__. Fix: pass a DLPack tensor "
                            "(torch, CuPy, JAX, rlx.Tensor), or an array to "
                            "rlx.Tensor(array, session)",
                            Py_TYPE(obj)->tp_name);
    int32_t kind = RLX_MEMORY_CPU;
    if (PyObject_HasAttrString(obj, "__dlpack_device__")) {
        PyObject *dev = PyObject_CallMethod(obj, "__dlpack_device__", "()");
        int k = 0, id = 0;
        if (!dev || !PyArg_ParseTuple(dev, "ii", &k, &id)) {
            Py_XDECREF(dev);
            return NULL;
        }
        Py_DECREF(dev);
        kind = k;
    }
    rlx_tensor *t = NULL;
    int ro = 0;
    rlxpy_session_lock(s);
    rlx_status st = s->program ? rlxpy_tensor_import(s->program, obj, kind,
                                                     &t, &ro)
                               : RLX_ERR_STATE;
    PyThread_release_lock(s->lock);
    if (st != RLX_OK) {
        if (PyErr_Occurred())
            return NULL;
        if (st == RLX_ERR_STATE && !s->program)
            return rlxpy_session_closed_error(s), NULL;
        return rlxpy_raise(st, NULL);
    }
    tensor_obj *o = (tensor_obj *)rlxpy_tensor_new(t);
    if (o)
        o->readonly = ro;
    return (PyObject *)o;
}

static PyObject *tensor_repr(tensor_obj *self)
{
    if (!self->t)
        return PyUnicode_FromString("<rlx.Tensor (empty)>");
    PyObject *shape = tensor_shape(self, NULL);
    PyObject *dtype = tensor_dtype(self, NULL);
    PyObject *dev = tensor_device(self, NULL);
    if (!dev)
        PyErr_Clear();
    PyObject *r = shape && dtype
                      ? PyUnicode_FromFormat("<rlx.Tensor %U %R on %s>", dtype,
                                             shape,
                                             dev ? PyUnicode_AsUTF8(dev)
                                                 : "a device")
                      : NULL;
    Py_XDECREF(shape);
    Py_XDECREF(dtype);
    Py_XDECREF(dev);
    return r;
}

/* __array__(dtype=None, copy=None): numpy.asarray(t) copies. */
static PyObject *tensor_array(tensor_obj *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = { "dtype", "copy", NULL };
    PyObject *dtype = Py_None, *copy = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|OO", kwlist, &dtype, &copy))
        return NULL;
    PyObject *a = tensor_numpy(self, NULL);
    if (!a || dtype == Py_None)
        return a;
    PyObject *r = PyObject_CallMethod(a, "astype", "(O)", dtype);
    Py_DECREF(a);
    return r;
}

static PyMethodDef tensor_methods[] = {
    { "__array__", (PyCFunction)(void (*)(void))tensor_array,
      METH_VARARGS | METH_KEYWORDS,
      "__array__(dtype=None, copy=None) -> numpy.ndarray (a copy)" },
    { "numpy", (PyCFunction)tensor_numpy, METH_NOARGS,
      "numpy() -> numpy.ndarray\n\nA copy of the tensor in host memory." },
    { "__dlpack__", (PyCFunction)(void (*)(void))tensor_dlpack,
      METH_VARARGS | METH_KEYWORDS,
      "__dlpack__(stream=None, max_version=None, dl_device=None, copy=None)"
      "\n\nThe tensor as a DLPack capsule, no copy (numpy.from_dlpack, "
      "torch.from_dlpack, cupy.from_dlpack, jax.dlpack.from_dlpack): a "
      "DLPack 1.x capsule ('dltensor_versioned', with the read-only flag "
      "where the tensor is read-only) when max_version is (1, 0) or later, "
      "else the unversioned 'dltensor'." },
    { "__dlpack_device__", (PyCFunction)tensor_dlpack_device, METH_NOARGS,
      "__dlpack_device__() -> (kind, id)\n\nDLPack's numbers for the "
      "tensor's device: (1, 0) host memory, (2, n) CUDA device n." },
    { NULL, NULL, 0, NULL }
};

static PyObject *tensor_readonly(tensor_obj *self, void *unused)
{
    (void)unused;
    return PyBool_FromLong(self->readonly);
}

static PyGetSetDef tensor_getset[] = {
    { "readonly", (getter)tensor_readonly, NULL,
      "True for a tensor imported (rlx.from_dlpack) from a DLPack 1.x "
      "producer that marked it read-only: rlx only reads it, and exports "
      "it only as DLPack 1.x, flagged read-only.", NULL },
    { "shape", (getter)tensor_shape, NULL, "The shape, a tuple of int.",
      NULL },
    { "dtype", (getter)tensor_dtype, NULL, "NumPy's name of the dtype.",
      NULL },
    { "device", (getter)tensor_device, NULL,
      "Where the data is: 'cpu:0', 'cuda:1'.", NULL },
    { "data_ptr", (getter)tensor_data_ptr, NULL,
      "The address of the first byte in the device's memory.", NULL },
    { NULL, NULL, NULL, NULL, NULL }
};

PyTypeObject rlxpy_tensor_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "rlx.Tensor",
    .tp_basicsize = sizeof(tensor_obj),
    .tp_dealloc = (destructor)tensor_dealloc,
    .tp_repr = (reprfunc)tensor_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "Tensor(array, session) - data in the memory of SESSION's "
              "device (a copy of ARRAY), to feed Session.run with no copy "
              "per run; also what Session.run(..., keep_on_device=True) "
              "returns. Shared with NumPy, PyTorch, CuPy and JAX through "
              "DLPack (numpy.from_dlpack(t), torch.from_dlpack(t)) with no "
              "copy; t.numpy() copies to the host.",
    .tp_methods = tensor_methods,
    .tp_getset = tensor_getset,
    .tp_init = (initproc)tensor_init,
    .tp_new = PyType_GenericNew,
};

int rlxpy_tensor_ready(PyObject *module)
{
    if (PyType_Ready(&rlxpy_tensor_type) < 0)
        return -1;
    Py_INCREF(&rlxpy_tensor_type);
    if (PyModule_AddObject(module, "Tensor",
                           (PyObject *)&rlxpy_tensor_type) < 0) {
        Py_DECREF(&rlxpy_tensor_type);
        return -1;
    }
    return 0;
}
