/*
 * session.c - rlx._rlx.Session: one model compiled on one device, run
 * with NumPy arrays. It owns an rlx_model, an rlx_session and the
 * program rlx_model_compile made (which follows its inputs' shapes). A
 * program is used by one thread at a time (rlx.h), so each Session holds
 * a lock around setting inputs, running and reading outputs; the GIL is
 * released while the program runs and while a thread waits for the lock.
 */
#include "ext.h"

#include <pythread.h>
#include <string.h>

typedef struct {
    PyObject_HEAD
    rlx_model *model;
    rlx_session *session;
    rlx_program *program;
    PyThread_type_lock lock;
    uint32_t n_in, n_out;
    PyObject *in_names;  /* tuple of str, the program's inputs */
    PyObject *out_names; /* tuple of str */
    PyObject *path;      /* str */
    PyObject *graph;     /* the rlx.Graph compiled, kept alive with it */
} session_obj;

static int closed_error(session_obj *self)
{
    if (self->program)
        return 0;
    rlxpy_raisef(RLX_ERR_STATE, "this rlx.Session is closed. Fix: open a "
                 "new rlx.Session for the model, and close it only when no "
                 "thread uses it any more");
    return -1;
}

/* Take the session's lock, letting other threads run while waiting. */
static void lock_take(session_obj *self)
{
    if (!PyThread_acquire_lock(self->lock, NOWAIT_LOCK)) {
        Py_BEGIN_ALLOW_THREADS
        PyThread_acquire_lock(self->lock, WAIT_LOCK);
        Py_END_ALLOW_THREADS
    }
}

static void release_handles(session_obj *self)
{
    rlx_program_destroy(self->program);
    self->program = NULL;
    rlx_session_destroy(self->session);
    self->session = NULL;
    rlx_model_destroy(self->model);
    self->model = NULL;
    Py_CLEAR(self->graph);
}

static void session_dealloc(session_obj *self)
{
    release_handles(self);
    if (self->lock)
        PyThread_free_lock(self->lock);
    Py_XDECREF(self->in_names);
    Py_XDECREF(self->out_names);
    Py_XDECREF(self->path);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int parse_fallback(PyObject *o, rlx_fallback *out, int *given)
{
    *given = 0;
    if (o == Py_None)
        return 0;
    const char *s = PyUnicode_Check(o) ? PyUnicode_AsUTF8(o) : NULL;
    if (s && !strcmp(s, "split"))
        *out = RLX_FALLBACK_SPLIT;
    else if (s && !strcmp(s, "whole"))
        *out = RLX_FALLBACK_WHOLE;
    else if (s && !strcmp(s, "none"))
        *out = RLX_FALLBACK_NONE;
    else {
        if (!s)
            PyErr_Clear();
        rlxpy_raisef(RLX_ERR_INVALID_ARGUMENT, "fallback must be None, "
                     "'split', 'whole' or 'none'. Fix: pass one of those");
        return -1;
    }
    *given = 1;
    return 0;
}

static int parse_precision(PyObject *o, rlx_precision *out, int *given)
{
    *given = 0;
    if (o == Py_None)
        return 0;
    const char *s = PyUnicode_Check(o) ? PyUnicode_AsUTF8(o) : NULL;
    if (s && !strcmp(s, "strict"))
        *out = RLX_PRECISION_STRICT;
    else if (s && !strcmp(s, "tf32"))
        *out = RLX_PRECISION_ALLOW_TF32;
    else if (s && !strcmp(s, "reduced"))
        *out = RLX_PRECISION_ALLOW_REDUCED;
    else {
        if (!s)
            PyErr_Clear();
        rlxpy_raisef(RLX_ERR_INVALID_ARGUMENT, "precision must be None, "
                     "'strict', 'tf32' or 'reduced'. Fix: pass one of those");
        return -1;
    }
    *given = 1;
    return 0;
}

static int set_options(session_obj *self, PyObject *options)
{
    if (options == Py_None)
        return 0;
    if (!PyDict_Check(options)) {
        rlxpy_raisef(RLX_ERR_INVALID_ARGUMENT, "options must be a dict of "
                     "setting name to value, not %s. Fix: pass e.g. "
                     "{'cuda.matmul': 'cublas'}", Py_TYPE(options)->tp_name);
        return -1;
    }
    Py_ssize_t pos = 0;
    PyObject *k, *v;
    while (PyDict_Next(options, &pos, &k, &v)) {
        PyObject *vs = PyObject_Str(v);
        const char *ks = PyUnicode_Check(k) ? PyUnicode_AsUTF8(k) : NULL;
        const char *vv = vs ? PyUnicode_AsUTF8(vs) : NULL;
        if (!ks || !vv) {
            Py_XDECREF(vs);
            PyErr_Clear();
            rlxpy_raisef(RLX_ERR_INVALID_ARGUMENT, "options: keys must be "
                         "str setting names. Fix: pass e.g. "
                         "{'cuda.matmul': 'cublas'}");
            return -1;
        }
        rlx_status st = rlx_session_set_option(self->session, ks, vv);
        Py_DECREF(vs);
        if (st != RLX_OK) {
            rlxpy_raise(st, NULL);
            return -1;
        }
    }
    return 0;
}

static PyObject *slot_names(rlx_program *p, rlx_slot_kind kind, uint32_t n)
{
    PyObject *t = PyTuple_New(n);
    for (uint32_t i = 0; t && i < n; i++) {
        const char *name = NULL;
        rlx_program_slot(p, kind, i, &name, NULL, NULL, NULL);
        PyObject *s = PyUnicode_FromString(name ? name : "");
        if (!s) {
            Py_CLEAR(t);
            break;
        }
        PyTuple_SET_ITEM(t, i, s);
    }
    return t;
}

static int session_init(session_obj *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = { "path", "device", "fallback", "precision",
                              "options", "allow_custom_ops", NULL };
    PyObject *path_obj = NULL, *fallback = Py_None, *precision = Py_None,
             *options = Py_None, *allow = Py_None;
    const char *device = NULL;
    if (self->lock) {
        PyErr_SetString(PyExc_RuntimeError, "rlx.Session is initialised once");
        return -1;
    }
    PyObject *source = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|zOOOO", kwlist, &source,
                                     &device, &fallback, &precision,
                                     &options, &allow))
        return -1;
    PyObject *graph = PyObject_TypeCheck(source, &rlxpy_graph_type) ? source
                                                                    : NULL;
    if (!graph && !PyUnicode_FSConverter(source, &path_obj))
        return -1;
    int rc = -1;
    rlx_fallback fb = RLX_FALLBACK_SPLIT;
    rlx_precision pr = RLX_PRECISION_STRICT;
    int fb_given, pr_given;
    rlx_runtime *rt = rlxpy_runtime();
    self->lock = PyThread_allocate_lock();
    if (!self->lock) {
        PyErr_NoMemory();
        goto out;
    }
    if (!rt || parse_fallback(fallback, &fb, &fb_given) ||
        parse_precision(precision, &pr, &pr_given))
        goto out;
    const char *path = graph ? NULL : PyBytes_AS_STRING(path_obj);
    self->path = graph ? PyUnicode_FromString("<rlx.Graph>")
                       : PyUnicode_DecodeFSDefault(path);
    if (!self->path)
        goto out;
    rlx_status st = RLX_OK;
    Py_BEGIN_ALLOW_THREADS
    if (path)
        st = rlx_model_load(path, &self->model);
    if (st == RLX_OK)
        st = rlx_session_create(rt, device, &self->session);
    Py_END_ALLOW_THREADS
    if (st == RLX_OK && fb_given)
        st = rlx_session_set_fallback(self->session, fb);
    if (st == RLX_OK && pr_given)
        st = rlx_session_set_precision(self->session, pr);
    if (st != RLX_OK) {
        rlxpy_raise(st, NULL);
        goto out;
    }
    if (set_options(self, options))
        goto out;
    if (allow != Py_None) {
        PyObject *seq = PySequence_Fast(allow, "allow_custom_ops must be a "
                                        "list of paths");
        if (!seq)
            goto out;
        for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq); i++) {
            PyObject *b = NULL;
            if (!PyUnicode_FSConverter(PySequence_Fast_GET_ITEM(seq, i), &b)) {
                Py_DECREF(seq);
                goto out;
            }
            st = rlx_session_allow_custom_ops(self->session,
                                              PyBytes_AS_STRING(b));
            Py_DECREF(b);
            if (st != RLX_OK) {
                Py_DECREF(seq);
                rlxpy_raise(st, NULL);
                goto out;
            }
        }
        Py_DECREF(seq);
    }
    if (graph) {
        Py_INCREF(graph);
        self->graph = graph;
        /* the graph is only read while compiling; the GIL keeps other
         * threads from changing it meanwhile */
        st = rlx_session_compile(self->session, rlxpy_graph_handle(graph),
                                 &self->program);
        Py_ssize_t pos = 0;
        PyObject *k, *v;
        while (st == RLX_OK &&
               PyDict_Next(rlxpy_graph_params(graph), &pos, &k, &v)) {
            Py_buffer view;
            if (PyObject_GetBuffer(v, &view, PyBUF_C_CONTIGUOUS))
                goto out;
            st = rlx_program_set_param(self->program, PyUnicode_AsUTF8(k),
                                       view.buf, (size_t)view.len);
            PyBuffer_Release(&view);
        }
    } else {
        Py_BEGIN_ALLOW_THREADS
        st = rlx_model_compile(self->model, self->session, &self->program);
        Py_END_ALLOW_THREADS
    }
    if (st != RLX_OK) {
        rlxpy_raise(st, NULL);
        goto out;
    }
    self->n_in = rlx_program_input_count(self->program);
    self->n_out = rlx_program_output_count(self->program);
    self->in_names = slot_names(self->program, RLX_SLOT_INPUT, self->n_in);
    self->out_names = slot_names(self->program, RLX_SLOT_OUTPUT, self->n_out);
    if (self->in_names && self->out_names)
        rc = 0;
out:
    if (rc)
        release_handles(self);
    Py_XDECREF(path_obj);
    return rc;
}

static PyObject *session_slots(session_obj *self, PyObject *arg);

/* The model's declared inputs: (name, dtype, shape) with a str for a
 * named symbolic dimension and None for an unknown one. */
static PyObject *session_model_inputs(session_obj *self, PyObject *unused)
{
    (void)unused;
    if (closed_error(self))
        return NULL;
    if (!self->model) { /* a graph's inputs are what its program has */
        PyObject *zero = PyLong_FromLong(0);
        PyObject *r = zero ? session_slots(self, zero) : NULL;
        Py_XDECREF(zero);
        return r;
    }
    uint32_t n = rlx_model_input_count(self->model);
    PyObject *list = PyList_New(0);
    for (uint32_t i = 0; list && i < n; i++) {
        const char *name = NULL;
        rlx_dtype dt = RLX_DTYPE_INVALID;
        uint32_t rank = 0;
        const int64_t *dims = NULL;
        const char *const *sym = NULL;
        if (rlx_model_input(self->model, i, &name, &dt, &rank, &dims,
                            &sym) != RLX_OK) {
            Py_CLEAR(list);
            return rlxpy_raise(RLX_ERR_INTERNAL, NULL);
        }
        PyObject *shape = PyTuple_New(rank);
        for (uint32_t k = 0; shape && k < rank; k++) {
            PyObject *d;
            if (dims[k] >= 0)
                d = PyLong_FromLongLong(dims[k]);
            else if (sym && sym[k])
                d = PyUnicode_FromString(sym[k]);
            else
                d = (Py_INCREF(Py_None), Py_None);
            if (!d) {
                Py_CLEAR(shape);
                break;
            }
            PyTuple_SET_ITEM(shape, k, d);
        }
        const char *npd = rlxpy_numpy_dtype(dt);
        PyObject *row = shape ? Py_BuildValue("(ssO)", name ? name : "",
                                              npd ? npd : rlx_dtype_name(dt),
                                              shape)
                              : NULL;
        Py_XDECREF(shape);
        if (!row || PyList_Append(list, row)) {
            Py_XDECREF(row);
            Py_CLEAR(list);
        }
        Py_XDECREF(row);
    }
    return list;
}

/* The program's slots of KIND as (name, dtype, shape) for the shapes it
 * runs with now. */
static PyObject *session_slots(session_obj *self, PyObject *arg)
{
    if (closed_error(self))
        return NULL;
    long k = PyLong_AsLong(arg);
    if (k == -1 && PyErr_Occurred())
        return NULL;
    rlx_slot_kind kind = k == 0 ? RLX_SLOT_INPUT : k == 1 ? RLX_SLOT_OUTPUT
                                                          : RLX_SLOT_PARAM;
    lock_take(self);
    uint32_t n = kind == RLX_SLOT_INPUT    ? rlx_program_input_count(self->program)
                 : kind == RLX_SLOT_OUTPUT ? rlx_program_output_count(self->program)
                                           : rlx_program_param_count(self->program);
    PyObject *list = PyList_New(0);
    for (uint32_t i = 0; list && i < n; i++) {
        const char *name = NULL;
        rlx_dtype dt = RLX_DTYPE_INVALID;
        uint32_t rank = 0;
        const int64_t *dims = NULL;
        rlx_program_slot(self->program, kind, i, &name, &dt, &rank, &dims);
        PyObject *shape = rlxpy_shape(rank, dims);
        const char *npd = rlxpy_numpy_dtype(dt);
        PyObject *row = shape ? Py_BuildValue("(ssO)", name ? name : "",
                                              npd ? npd : rlx_dtype_name(dt),
                                              shape)
                              : NULL;
        Py_XDECREF(shape);
        if (!row || PyList_Append(list, row))
            Py_CLEAR(list);
        Py_XDECREF(row);
    }
    PyThread_release_lock(self->lock);
    return list;
}

/* ---- run ---------------------------------------------------------------- */

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

static PyObject *session_run(session_obj *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = { "feeds", "outputs", NULL };
    PyObject *feeds = NULL, *want = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|O", kwlist, &feeds, &want))
        return NULL;
    if (closed_error(self))
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
    lock_take(self);
    locked = 1;
    if (!self->program) {
        closed_error(self);
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

static PyObject *session_close(session_obj *self, PyObject *unused)
{
    (void)unused;
    if (self->lock) {
        lock_take(self);
        release_handles(self);
        PyThread_release_lock(self->lock);
    }
    Py_RETURN_NONE;
}

static PyObject *session_info(session_obj *self, PyObject *unused)
{
    (void)unused;
    if (closed_error(self))
        return NULL;
    lock_take(self);
    const rlx_backend *b = rlx_program_backend(self->program);
    char dev[160];
    snprintf(dev, sizeof dev, "%s:%u", rlx_backend_device_name(b),
             (unsigned)rlx_program_device_index(self->program));
    const char *fmt = self->model ? rlx_model_format(self->model) : "graph";
    PyObject *r = Py_BuildValue(
        "{s:s,s:s,s:s,s:s,s:I,s:I,s:I,s:s,s:O}",
        "backend", rlx_backend_id(b), "device", dev,
        "placement", rlx_program_placement_summary(self->program),
        "explain", rlx_session_explain(self->session),
        "pieces", rlx_program_piece_count(self->program),
        "transfers", rlx_program_transfer_count(self->program),
        "fallback_nodes", rlx_program_fallback_count(self->program),
        "format", fmt ? fmt : "", "path", self->path);
    PyThread_release_lock(self->lock);
    return r;
}

static PyObject *session_closed(session_obj *self, void *unused)
{
    (void)unused;
    return PyBool_FromLong(self->program == NULL);
}

static PyMethodDef session_methods[] = {
    { "run", (PyCFunction)(void (*)(void))session_run,
      METH_VARARGS | METH_KEYWORDS,
      "run(feeds, outputs=None) -> list[numpy.ndarray]\n\n"
      "Run the model once. FEEDS maps every input name to an array (a "
      "NumPy array, anything with __array__ or the buffer protocol, or a "
      "list). OUTPUTS names the outputs to return, in that order (None: all, "
      "in the model's order). Arrays of another shape are accepted where "
      "the model's shapes allow it (the program is compiled again for them "
      "and cached); the dtype must be the input's. The GIL is released while "
      "the program runs." },
    { "close", (PyCFunction)session_close, METH_NOARGS,
      "close() -> None\n\nFree the program, session and model now (also done "
      "when the Session is collected). Later calls raise rlx.StateError." },
    { "_model_inputs", (PyCFunction)session_model_inputs, METH_NOARGS, NULL },
    { "_slots", (PyCFunction)session_slots, METH_O, NULL },
    { "_info", (PyCFunction)session_info, METH_NOARGS, NULL },
    { NULL, NULL, 0, NULL }
};

static PyGetSetDef session_getset[] = {
    { "closed", (getter)session_closed, NULL,
      "True once close() was called or opening failed.", NULL },
    { NULL, NULL, NULL, NULL, NULL }
};

PyTypeObject rlxpy_session_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "rlx._rlx._Session",
    .tp_basicsize = sizeof(session_obj),
    .tp_dealloc = (destructor)session_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "The C half of rlx.Session.",
    .tp_methods = session_methods,
    .tp_getset = session_getset,
    .tp_init = (initproc)session_init,
    .tp_new = PyType_GenericNew,
};

int rlxpy_session_ready(PyObject *module)
{
    if (PyType_Ready(&rlxpy_session_type) < 0)
        return -1;
    Py_INCREF(&rlxpy_session_type);
    if (PyModule_AddObject(module, "_Session",
                           (PyObject *)&rlxpy_session_type) < 0) {
        Py_DECREF(&rlxpy_session_type);
        return -1;
    }
    return 0;
}
