/*
 * session.c - rlx._rlx.Session: one model compiled on one device, run
 * with NumPy arrays (run.c). It owns an rlx_model, an rlx_session and the
 * program rlx_model_compile made (which follows its inputs' shapes). A
 * program is used by one thread at a time (rlx.h), so each Session holds
 * a lock around setting inputs, running and reading outputs; the GIL is
 * released while the program runs and while a thread waits for the lock.
 */
#include "session.h"

#include <string.h>

int rlxpy_session_closed_error(session_obj *self)
{
    if (self->program)
        return 0;
    rlxpy_raisef(RLX_ERR_STATE, "this rlx.Session is closed. Fix: open a "
                 "new rlx.Session for the model, and close it only when no "
                 "thread uses it any more");
    return -1;
}

/* Take the session's lock, letting other threads run while waiting. */
void rlxpy_session_lock(session_obj *self)
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

int rlxpy_parse_fallback(PyObject *o, rlx_fallback *out, int *given)
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

/* shapes={'x': (1, 3, 48, 320)}: the inputs' real shapes before the
 * first compile, for models whose symbolic dimensions cannot be 1. */
int rlxpy_model_set_shapes(rlx_model *model, PyObject *shapes)
{
    if (!model || !PyDict_Check(shapes)) {
        rlxpy_raisef(RLX_ERR_INVALID_ARGUMENT, "shapes must be a dict of "
                     "input name to shape, for a model file. Fix: pass e.g. "
                     "{'x': (1, 3, 224, 224)}, or leave it out for an "
                     "rlx.Graph");
        return -1;
    }
    Py_ssize_t pos = 0;
    PyObject *k, *v;
    while (PyDict_Next(shapes, &pos, &k, &v)) {
        const char *name = PyUnicode_Check(k) ? PyUnicode_AsUTF8(k) : NULL;
        PyObject *seq = name ? PySequence_Fast(v, "a shape is a sequence of "
                                               "int")
                             : NULL;
        if (!seq) {
            if (!name)
                rlxpy_raisef(RLX_ERR_INVALID_ARGUMENT, "shapes: keys must "
                             "be input names. Fix: pass {'x': (1, 3)}");
            return -1;
        }
        Py_ssize_t rank = PySequence_Fast_GET_SIZE(seq);
        int64_t dims[64];
        if (rank > 64) {
            Py_DECREF(seq);
            rlxpy_raisef(RLX_ERR_SHAPE, "shapes: '%s' has %zd dimensions. "
                         "Fix: give at most 64", name, rank);
            return -1;
        }
        for (Py_ssize_t d = 0; d < rank; d++) {
            dims[d] = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(seq, d));
            if (dims[d] == -1 && PyErr_Occurred()) {
                Py_DECREF(seq);
                return -1;
            }
        }
        Py_DECREF(seq);
        rlx_status st = rlx_model_set_input_shape(model, name,
                                                  (uint32_t)rank, dims);
        if (st != RLX_OK) {
            rlxpy_raise(st, NULL);
            return -1;
        }
    }
    return 0;
}

/* values={'shape': np.array([1, -1])}: inputs fixed to constants before
 * compiling (rlx_model_set_input_value), so shape arguments fed as
 * inputs fold; they are no longer inputs of the Session. */
static int set_values(session_obj *self, PyObject *values)
{
    if (!self->model || !PyDict_Check(values)) {
        rlxpy_raisef(RLX_ERR_INVALID_ARGUMENT, "values must be a dict of "
                     "input name to array, for a model file. Fix: pass e.g. "
                     "{'shape': numpy.array([1, -1])}");
        return -1;
    }
    Py_ssize_t pos = 0;
    PyObject *k, *v;
    while (PyDict_Next(values, &pos, &k, &v)) {
        const char *name = PyUnicode_Check(k) ? PyUnicode_AsUTF8(k) : NULL;
        PyObject *arr = name && rlxpy_coerce
                            ? PyObject_CallFunction(rlxpy_coerce, "Os", v,
                                                    "int64")
                            : NULL;
        if (!arr) {
            if (!name)
                rlxpy_raisef(RLX_ERR_INVALID_ARGUMENT, "values: keys must "
                             "be input names. Fix: pass {'shape': [1, -1]}");
            return -1;
        }
        Py_buffer b;
        if (PyObject_GetBuffer(arr, &b, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT)) {
            Py_DECREF(arr);
            return -1;
        }
        int64_t dims[16];
        rlx_dtype dt = rlxpy_dtype_of_buffer(&b);
        rlx_status st = RLX_ERR_DTYPE;
        if (dt != RLX_DTYPE_INVALID && b.ndim <= 16) {
            for (int d = 0; d < b.ndim; d++)
                dims[d] = (int64_t)b.shape[d];
            st = rlx_model_set_input_value(self->model, name,
                                           dt, (uint32_t)b.ndim, dims,
                                           b.buf);
        }
        PyBuffer_Release(&b);
        Py_DECREF(arr);
        if (st != RLX_OK) {
            if (st == RLX_ERR_DTYPE && dt == RLX_DTYPE_INVALID)
                rlxpy_raisef(st, "values: '%s' has no rlx dtype. Fix: pass "
                             "an array of the input's dtype", name);
            else
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
                              "options", "allow_custom_ops", "shapes",
                              "values", NULL };
    PyObject *path_obj = NULL, *fallback = Py_None, *precision = Py_None,
             *options = Py_None, *allow = Py_None, *shapes = Py_None,
             *values = Py_None;
    const char *device = NULL;
    if (self->lock) {
        PyErr_SetString(PyExc_RuntimeError, "rlx.Session is initialised once");
        return -1;
    }
    PyObject *source = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|zOOOOOO", kwlist,
                                     &source, &device, &fallback, &precision,
                                     &options, &allow, &shapes, &values))
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
    if (!rt || rlxpy_parse_fallback(fallback, &fb, &fb_given) ||
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
    if (shapes != Py_None && rlxpy_model_set_shapes(self->model, shapes))
        goto out;
    if (values != Py_None && set_values(self, values))
        goto out;
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
    if (rlxpy_session_closed_error(self))
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
    if (rlxpy_session_closed_error(self))
        return NULL;
    long k = PyLong_AsLong(arg);
    if (k == -1 && PyErr_Occurred())
        return NULL;
    rlx_slot_kind kind = k == 0 ? RLX_SLOT_INPUT : k == 1 ? RLX_SLOT_OUTPUT
                                                          : RLX_SLOT_PARAM;
    rlxpy_session_lock(self);
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

static PyObject *session_close(session_obj *self, PyObject *unused)
{
    (void)unused;
    if (self->lock) {
        rlxpy_session_lock(self);
        release_handles(self);
        PyThread_release_lock(self->lock);
    }
    Py_RETURN_NONE;
}

static PyObject *session_info(session_obj *self, PyObject *unused)
{
    (void)unused;
    if (rlxpy_session_closed_error(self))
        return NULL;
    rlxpy_session_lock(self);
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
    { "run", (PyCFunction)(void (*)(void))rlxpy_session_run,
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
