/*
 * run.c - Session.run: feeds (a dict of arrays) checked against the
 * program's inputs and copied in, the program run with the GIL released,
 * the outputs copied into new NumPy arrays. All of it under the session's
 * lock, as one program runs one run at a time.
 */
#include "session.h"

#include <string.h>

/* Does buffer format FMT (struct syntax) hold DT in native byte order? */
static int format_matches(const char *fmt, Py_ssize_t itemsize, rlx_dtype dt)
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

typedef struct {
    uint32_t slot;
    Py_buffer view;
    int have_view;
    PyObject *keep; /* the coerced array, when one was made */
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
        if (format_matches(f->view.format, f->view.itemsize, dt)) {
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
    if (format_matches(f->view.format, f->view.itemsize, dt))
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

PyObject *rlxpy_session_run(session_obj *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = { "feeds", "outputs", NULL };
    PyObject *feeds = NULL, *want = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|O", kwlist, &feeds, &want))
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
    if (!fs) {
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
        if (feed_get(self, f, k, v, dt))
            goto out;
        /* another shape: the program follows it, as in the C API */
        int64_t dims[64];
        uint32_t rank = (uint32_t)f->view.ndim;
        const int64_t *cur = NULL;
        uint32_t cur_rank = 0;
        rlx_program_slot(self->program, RLX_SLOT_INPUT, f->slot, NULL, NULL,
                         &cur_rank, &cur);
        if (rank > 64) {
            rlxpy_raisef(RLX_ERR_SHAPE, "input '%s' has %u dimensions. Fix: "
                         "pass at most 64", PyUnicode_AsUTF8(k), rank);
            goto out;
        }
        int same = rank == cur_rank;
        for (uint32_t d = 0; d < rank; d++) {
            dims[d] = f->view.shape ? (int64_t)f->view.shape[d] : 0;
            same = same && dims[d] == cur[d];
        }
        if (!same) {
            rlx_status st = rlx_program_set_input_shape(
                self->program, PyUnicode_AsUTF8(k), rank, dims);
            if (st != RLX_OK) {
                rlxpy_raise(st, NULL);
                goto out;
            }
        }
    }
    for (Py_ssize_t i = 0; i < nf; i++) {
        rlx_status st = rlx_program_set_input(
            self->program,
            PyUnicode_AsUTF8(PyTuple_GET_ITEM(self->in_names, fs[i].slot)),
            fs[i].view.buf, (size_t)fs[i].view.len);
        if (st != RLX_OK) {
            rlxpy_raise(st, NULL);
            goto out;
        }
    }
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
        PyObject *a = output_array(self, want_idx[i]);
        if (!a) {
            Py_CLEAR(result);
            break;
        }
        PyList_SET_ITEM(result, i, a);
    }
out:
    if (locked)
        PyThread_release_lock(self->lock);
    for (Py_ssize_t i = 0; i < n_feeds; i++) {
        if (fs[i].have_view)
            PyBuffer_Release(&fs[i].view);
        Py_XDECREF(fs[i].keep);
    }
    PyMem_Free(fs);
    Py_DECREF(feeds);
    return result;
}

