/*
 * run.c - Session.run: feeds (a dict of arrays) checked against the
 * program's inputs and copied in, the program run with the GIL released,
 * the outputs copied into new NumPy arrays. All of it under the session's
 * lock, as one program runs one run at a time.
 */
#include "session.h"

#include <string.h>

/* Does buffer format FMT (struct syntax) hold DT in native byte order? */
int rlxpy_format_matches(const char *fmt, Py_ssize_t itemsize,
                         rlx_dtype dt)
{
    if (!fmt)
        fmt = "B";
    if (*fmt == '@' || *fmt == '=')
        fmt++;
    else if (*fmt == '<' || *fmt == '>' || *fmt == '!') {
        const union { uint16_t u; uint8_t b[2]; } probe = { 1 };
        int little = probe.b[0] == 1;
        if ((*fmt == '<') != little)
            return 0;
        fmt++;
    }
    if (!fmt[0] || fmt[1])
        return 0;
    char c = fmt[0];
    switch (dt) {
    case RLX_DTYPE_F32: return c == 'f';
    case RLX_DTYPE_F64: return c == 'd';
    case RLX_DTYPE_F16: return c == 'e';
    case RLX_DTYPE_BF16: return c == 'H';
    case RLX_DTYPE_I32: return strchr("ilq", c) && itemsize == 4;
    case RLX_DTYPE_I64: return strchr("ilq", c) && itemsize == 8;
    case RLX_DTYPE_U8: return c == 'B';
    case RLX_DTYPE_I8: return c == 'b';
    case RLX_DTYPE_BOOL: return c == '?';
    case RLX_DTYPE_I16: return c == 'h';
    case RLX_DTYPE_U16: return c == 'H';
    case RLX_DTYPE_U32: return strchr("ILQ", c) && itemsize == 4;
    case RLX_DTYPE_U64: return strchr("ILQ", c) && itemsize == 8;
    default: return 0;
    }
}

rlx_dtype rlxpy_dtype_of_buffer(const Py_buffer *v)
{
    for (int dt = 1; dt <= RLX_DTYPE_LAST; dt++)
        if (dt != RLX_DTYPE_BF16 && /* NumPy has none: 'H' is uint16 */
            rlxpy_format_matches(v->format, v->itemsize, (rlx_dtype)dt))
            return (rlx_dtype)dt;
    return RLX_DTYPE_INVALID;
}

typedef struct {
    uint32_t slot;
    Py_buffer view;
    int have_view;
    PyObject *keep;     /* the coerced array, when one was made */
    rlx_tensor *tensor; /* bound instead of copied: an rlx.Tensor's, or */
    int owned;          /* ours, wrapping another library's DLPack tensor */
} feed;

static Py_ssize_t find_name(PyObject *names, PyObject *key)
{
    Py_ssize_t n = PyTuple_GET_SIZE(names);
    for (Py_ssize_t i = 0; i < n; i++) {
        int eq = PyUnicode_Compare(PyTuple_GET_ITEM(names, i), key);
        if (eq == 0)
            return i;
        if (eq == -1 && PyErr_Occurred())
            return -2;
    }
    return -1;
}

static PyObject *names_list(PyObject *names)
{
    PyObject *sep = PyUnicode_FromString("', '");
    PyObject *j = sep ? PyUnicode_Join(sep, names) : NULL;
    Py_XDECREF(sep);
    return j;
}

static int not_found(PyObject *names, PyObject *key, const char *what,
                     const char *arg)
{
    PyObject *j = names_list(names);
    if (!j)
        return -1;
    PyObject *r = PyObject_Repr(key);
    rlxpy_raisef(RLX_ERR_NOT_FOUND, "the model has no %s %s (its %ss: "
                 "'%s'). Fix: name one of its %ss in %s",
                 what, r ? PyUnicode_AsUTF8(r) : "?", what,
                 PyUnicode_AsUTF8(j), what, arg);
    Py_XDECREF(r);
    Py_DECREF(j);
    return -1;
}

/* Get a C-contiguous native buffer of the slot's dtype from VALUE,
 * through rlx._coerce where the object is no such buffer itself. */
static int feed_get(session_obj *self, feed *f, PyObject *name,
                    PyObject *value, rlx_dtype dt)
{
    const char *npd = rlxpy_numpy_dtype(dt);
    if (PyObject_CheckBuffer(value) &&
        PyObject_GetBuffer(value, &f->view, PyBUF_C_CONTIGUOUS |
                                           PyBUF_FORMAT) == 0) {
        if (rlxpy_format_matches(f->view.format, f->view.itemsize, dt)) {
            f->have_view = 1;
            return 0;
        }
        PyBuffer_Release(&f->view);
    }
    PyErr_Clear();
    if (!rlxpy_coerce) {
        PyErr_SetString(PyExc_RuntimeError, "rlx._rlx used without rlx");
        return -1;
    }
    /* coerce(value, dtype) -> a C-contiguous native array (kept dtype
     * for arrays, DTYPE for lists and scalars) */
    f->keep = PyObject_CallFunction(rlxpy_coerce, "Os", value,
                                    npd ? npd : "uint8");
    if (!f->keep)
        return -1;
    if (PyObject_GetBuffer(f->keep, &f->view, PyBUF_C_CONTIGUOUS |
                                              PyBUF_FORMAT) != 0)
        return -1;
    f->have_view = 1;
    if (rlxpy_format_matches(f->view.format, f->view.itemsize, dt))
        return 0;
    PyObject *got = PyObject_GetAttrString(f->keep, "dtype");
    PyObject *gs = got ? PyObject_Str(got) : NULL;
    PyErr_Clear();
    rlxpy_raisef(RLX_ERR_DTYPE, "input '%s' is %s, but the model takes %s. "
                 "Fix: convert it, e.g. x.astype(numpy.%s)",
                 PyUnicode_AsUTF8(name), gs ? PyUnicode_AsUTF8(gs) : "?",
                 npd ? npd : rlx_dtype_name(dt), npd ? npd : "uint8");
    Py_XDECREF(gs);
    Py_XDECREF(got);
    (void)self;
    return -1;
}

static PyObject *output_array(session_obj *self, uint32_t i)
{
    const char *name = NULL;
    rlx_dtype dt = RLX_DTYPE_INVALID;
    uint32_t rank = 0;
    const int64_t *dims = NULL;
    size_t nbytes = 0;
    rlx_program_slot(self->program, RLX_SLOT_OUTPUT, i, &name, &dt, &rank,
                     &dims);
    const void *data = rlx_program_output_data(self->program, i, &nbytes);
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
    if ((size_t)v.len != nbytes || (!data && nbytes)) {
        PyBuffer_Release(&v);
        Py_DECREF(arr);
        return rlxpy_raisef(RLX_ERR_INTERNAL, "output '%s' has %zu bytes, "
                            "its shape wants %zd. Fix: report this as a bug",
                            name ? name : "?", nbytes, v.len);
    }
    if (nbytes)
        memcpy(v.buf, data, nbytes);
    PyBuffer_Release(&v);
    return arr;
}

/* Where feed F's data comes from: an rlx.Tensor to bind; a DLPack
 * tensor on a device (CUDA) wrapped to bind, or copied to the host
 * when the program is elsewhere; else a host buffer (feed_get). */
static int feed_source(session_obj *self, feed *f, PyObject *name,
                       PyObject *value, rlx_dtype dt)
{
    rlx_tensor *t = rlxpy_tensor_handle(value);
    if (t) {
        rlx_dtype have = RLX_DTYPE_INVALID;
        rlx_tensor_shape(t, &have, NULL, NULL);
        if (have != dt) {
            rlxpy_raisef(RLX_ERR_DTYPE, "input '%s' is an rlx.Tensor of %s, "
                         "but the model takes %s. Fix: make the tensor from "
                         "an array of the input's dtype",
                         PyUnicode_AsUTF8(name), rlx_dtype_name(have),
                         rlx_dtype_name(dt));
            return -1;
        }
        f->tensor = t;
        return 0;
    }
    if (!PyObject_CheckBuffer(value) &&
        PyObject_HasAttrString(value, "__dlpack_device__")) {
        PyObject *dev = PyObject_CallMethod(value, "__dlpack_device__", "()");
        int kind = 0, id = 0;
        if (!dev || !PyArg_ParseTuple(dev, "ii", &kind, &id)) {
            Py_XDECREF(dev);
            return -1;
        }
        Py_DECREF(dev);
        if (kind != RLX_MEMORY_CPU) {
            rlx_status st = rlxpy_tensor_import(self->program, value, kind,
                                                &f->tensor, NULL);
            if (st == RLX_OK) {
                f->owned = 1;
                rlx_dtype have = RLX_DTYPE_INVALID;
                rlx_tensor_shape(f->tensor, &have, NULL, NULL);
                if (have == dt)
                    return 0;
                rlxpy_raisef(RLX_ERR_DTYPE, "input '%s' is a DLPack tensor "
                             "of %s, but the model takes %s. Fix: convert "
                             "it first", PyUnicode_AsUTF8(name),
                             rlx_dtype_name(have), rlx_dtype_name(dt));
                return -1;
            }
            if (PyErr_Occurred())
                return -1;
            /* another device: copied through the host (docs/python.md) */
            if (!rlxpy_host_copy) {
                rlxpy_raise(st, NULL);
                return -1;
            }
            f->keep = PyObject_CallFunctionObjArgs(rlxpy_host_copy, value,
                                                   NULL);
            if (!f->keep)
                return -1;
            return feed_get(self, f, name, f->keep, dt);
        }
    }
    return feed_get(self, f, name, value, dt);
}

/* keep_on_device: a new tensor bound to each output asked for. */
static int bind_outputs(session_obj *self, const uint32_t *want,
                        uint32_t n_want, rlx_tensor **outs)
{
    for (uint32_t i = 0; i < n_want; i++) {
        int dup = 0;
        for (uint32_t j = 0; j < i; j++)
            dup |= want[j] == want[i];
        if (dup)
            continue;
        const char *name = NULL;
        rlx_dtype dt = RLX_DTYPE_INVALID;
        uint32_t rank = 0;
        const int64_t *dims = NULL;
        rlx_status st = rlx_program_slot(self->program, RLX_SLOT_OUTPUT,
                                         want[i], &name, &dt, &rank, &dims);
        if (st == RLX_OK)
            st = rlx_tensor_create(self->program, dt, rank, dims, NULL,
                                   &outs[i]);
        if (st == RLX_OK)
            st = rlx_program_bind(self->program, RLX_SLOT_OUTPUT, name,
                                  outs[i]);
        if (st != RLX_OK) {
            rlxpy_raise(st, NULL);
            return -1;
        }
    }
    return 0;
}

/* After a run: the program lets go of every tensor bound for it, so the
 * next run with arrays copies again and wrapped memory goes back. */
static void unbind_all(session_obj *self, const feed *fs, Py_ssize_t nf,
                       const uint32_t *want, uint32_t n_want, int keep)
{
    const char *name = NULL;
    for (Py_ssize_t i = 0; i < nf; i++)
        if (fs[i].tensor &&
            rlx_program_slot(self->program, RLX_SLOT_INPUT, fs[i].slot,
                             &name, NULL, NULL, NULL) == RLX_OK)
            rlx_program_bind(self->program, RLX_SLOT_INPUT, name, NULL);
    for (uint32_t i = 0; keep && i < n_want; i++)
        if (rlx_program_slot(self->program, RLX_SLOT_OUTPUT, want[i], &name,
                             NULL, NULL, NULL) == RLX_OK)
            rlx_program_bind(self->program, RLX_SLOT_OUTPUT, name, NULL);
}

PyObject *rlxpy_session_run(session_obj *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = { "feeds", "outputs", "keep_on_device", NULL };
    PyObject *feeds = NULL, *want = Py_None;
    int keep = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|Op", kwlist, &feeds, &want,
                                     &keep))
        return NULL;
    if (rlxpy_session_closed_error(self))
        return NULL;
    if (!PyDict_Check(feeds))
        return rlxpy_raisef(RLX_ERR_INVALID_ARGUMENT, "feeds must be a dict "
                            "of input name to array, not %s. Fix: pass "
                            "{'name': array, ...}", Py_TYPE(feeds)->tp_name);
    /* which outputs, in the order asked */
    uint32_t n_want = self->n_out;
    uint32_t want_idx[256];
    PyObject *want_seq = NULL;
    if (want != Py_None) {
        if (PyUnicode_Check(want))
            return rlxpy_raisef(RLX_ERR_INVALID_ARGUMENT, "outputs must be "
                                "a list of output names, not a str. Fix: "
                                "pass outputs=['%s']", PyUnicode_AsUTF8(want));
        want_seq = PySequence_Fast(want, "outputs must be a list of names");
        if (!want_seq)
            return NULL;
        Py_ssize_t n = PySequence_Fast_GET_SIZE(want_seq);
        if (n > 256) {
            Py_DECREF(want_seq);
            return rlxpy_raisef(RLX_ERR_INVALID_ARGUMENT, "at most 256 "
                                "outputs at once. Fix: ask for fewer");
        }
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *k = PySequence_Fast_GET_ITEM(want_seq, i);
            Py_ssize_t at = PyUnicode_Check(k) ? find_name(self->out_names, k)
                                               : -1;
            if (at < 0) {
                if (at == -1)
                    not_found(self->out_names, k, "output", "outputs=");
                Py_DECREF(want_seq);
                return NULL;
            }
            want_idx[i] = (uint32_t)at;
        }
        n_want = (uint32_t)n;
        Py_DECREF(want_seq);
    } else if (n_want > 256) {
        return rlxpy_raisef(RLX_ERR_INVALID_ARGUMENT, "the model has %u "
                            "outputs; at most 256 at once. Fix: pass "
                            "outputs=[...]", self->n_out);
    } else {
        for (uint32_t i = 0; i < n_want; i++)
            want_idx[i] = i;
    }

    /* our own copy: an __array__ called below may change the caller's */
    feeds = PyDict_Copy(feeds);
    if (!feeds)
        return NULL;
    Py_ssize_t n_feeds = PyDict_Size(feeds);
    feed *fs = PyMem_Calloc(n_feeds ? (size_t)n_feeds : 1, sizeof *fs);
    rlx_tensor **outs = PyMem_Calloc(n_want ? n_want : 1, sizeof *outs);
    if (!fs || !outs) {
        PyMem_Free(fs);
        PyMem_Free(outs);
        Py_DECREF(feeds);
        return PyErr_NoMemory();
    }
    PyObject *result = NULL;
    Py_ssize_t pos = 0, nf = 0;
    PyObject *k, *v;
    char seen[1024] = { 0 };
    int locked = 0;
    while (PyDict_Next(feeds, &pos, &k, &v)) {
        feed *f = &fs[nf++];
        Py_ssize_t at = PyUnicode_Check(k) ? find_name(self->in_names, k) : -1;
        if (at < 0) {
            if (at == -1)
                not_found(self->in_names, k, "input", "feeds");
            goto out;
        }
        f->slot = (uint32_t)at;
        if (at < (Py_ssize_t)sizeof seen)
            seen[at] = 1;
    }
    for (uint32_t i = 0; i < self->n_in && i < sizeof seen; i++)
        if (!seen[i]) {
            rlxpy_raisef(RLX_ERR_INVALID_ARGUMENT, "input '%s' is not "
                         "given. Fix: feed every input of the model "
                         "(session.inputs lists them)",
                         PyUnicode_AsUTF8(PyTuple_GET_ITEM(self->in_names, i)));
            goto out;
        }
    /* the lock from the first slot query on: another thread's run may
     * change the shapes */
    rlxpy_session_lock(self);
    locked = 1;
    if (!self->program) {
        rlxpy_session_closed_error(self);
        goto out;
    }
    pos = 0;
    nf = 0;
    while (PyDict_Next(feeds, &pos, &k, &v)) {
        feed *f = &fs[nf++];
        rlx_dtype dt = RLX_DTYPE_INVALID;
        if (rlx_program_slot(self->program, RLX_SLOT_INPUT, f->slot, NULL,
                             &dt, NULL, NULL) != RLX_OK) {
            rlxpy_raise(RLX_ERR_INTERNAL, NULL);
            goto out;
        }
        if (feed_source(self, f, k, v, dt))
            goto out;
        /* another shape: the program follows it, as in the C API */
        uint32_t rank = 0;
        const int64_t *dims = NULL;
        int64_t vdims[64];
        if (f->tensor) {
            rlx_tensor_shape(f->tensor, NULL, &rank, &dims);
        } else {
            rank = (uint32_t)f->view.ndim;
            if (rank > 64) {
                rlxpy_raisef(RLX_ERR_SHAPE, "input '%s' has %u dimensions. "
                             "Fix: pass at most 64", PyUnicode_AsUTF8(k),
                             rank);
                goto out;
            }
            for (uint32_t d = 0; d < rank; d++)
                vdims[d] = f->view.shape ? (int64_t)f->view.shape[d] : 0;
            dims = vdims;
        }
        const int64_t *cur = NULL;
        uint32_t cur_rank = 0;
        rlx_program_slot(self->program, RLX_SLOT_INPUT, f->slot, NULL, NULL,
                         &cur_rank, &cur);
        int same = rank == cur_rank;
        for (uint32_t d = 0; same && d < rank; d++)
            same = dims[d] == cur[d];
        if (!same) {
            rlx_status st = rlx_program_set_input_shape(
                self->program, PyUnicode_AsUTF8(k), rank, dims);
            if (st != RLX_OK) {
                rlxpy_raise(st, NULL);
                goto out;
            }
        }
    }
    /* host arrays first (they switch to new shapes), then bindings */
    for (Py_ssize_t i = 0; i < nf; i++) {
        if (fs[i].tensor)
            continue;
        rlx_status st = rlx_program_set_input(
            self->program,
            PyUnicode_AsUTF8(PyTuple_GET_ITEM(self->in_names, fs[i].slot)),
            fs[i].view.buf, (size_t)fs[i].view.len);
        if (st != RLX_OK) {
            rlxpy_raise(st, NULL);
            goto out;
        }
    }
    for (Py_ssize_t i = 0; i < nf; i++) {
        if (!fs[i].tensor)
            continue;
        rlx_status st = rlx_program_bind(
            self->program, RLX_SLOT_INPUT,
            PyUnicode_AsUTF8(PyTuple_GET_ITEM(self->in_names, fs[i].slot)),
            fs[i].tensor);
        if (st != RLX_OK) {
            rlxpy_raise(st, NULL);
            goto out;
        }
    }
    if (keep && bind_outputs(self, want_idx, n_want, outs))
        goto out;
    rlx_status st;
    Py_BEGIN_ALLOW_THREADS
    st = rlx_program_run(self->program);
    Py_END_ALLOW_THREADS
    if (st != RLX_OK) {
        rlxpy_raise(st, NULL);
        goto out;
    }
    result = PyList_New(n_want);
    for (uint32_t i = 0; result && i < n_want; i++) {
        PyObject *a = NULL;
        if (keep) {
            uint32_t first = 0;
            while (want_idx[first] != want_idx[i])
                first++;
            if (first < i) { /* asked twice: the same tensor */
                a = PyList_GET_ITEM(result, first);
                Py_INCREF(a);
            } else {
                a = rlxpy_tensor_new(outs[i]);
                outs[i] = NULL;
            }
        } else {
            a = output_array(self, want_idx[i]);
        }
        if (!a) {
            Py_CLEAR(result);
            break;
        }
        PyList_SET_ITEM(result, i, a);
    }
out:
    if (locked && self->program)
        unbind_all(self, fs, nf, want_idx, n_want, keep);
    if (locked)
        PyThread_release_lock(self->lock);
    for (Py_ssize_t i = 0; i < n_feeds; i++) {
        if (fs[i].have_view)
            PyBuffer_Release(&fs[i].view);
        Py_XDECREF(fs[i].keep);
        if (fs[i].owned)
            rlx_tensor_destroy(fs[i].tensor);
    }
    for (uint32_t i = 0; i < n_want; i++)
        rlx_tensor_destroy(outs[i]);
    PyMem_Free(outs);
    PyMem_Free(fs);
    Py_DECREF(feeds);
    return result;
}

