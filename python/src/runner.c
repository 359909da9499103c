/*
 * runner.c - rlx._rlx._Runner, the C half of rlx.Runner: the C API's
 * multi-device runner (rlx_runner, docs/multi-device.md) over one model
 * or rlx.Graph. Programs are compiled per device on first use and
 * cached; inputs given once go to every device; a run goes to a named
 * device, the policy's best, or along a fallback chain, and the runner
 * can time the devices and keep the fastest. The runner is used by one
 * thread at a time (rlx.h), so each object holds a lock around every
 * call into it; the GIL is released while programs compile and run.
 */
#include "ext.h"

#include <pythread.h>
#include <string.h>

typedef struct {
    PyObject_HEAD
    rlx_runner *r;
    rlx_model *model;        /* a model file: its weights go to every
                              * program through the compile hook */
    PyObject *graph;         /* an rlx.Graph, kept alive */
    PyObject *inputs;        /* [(name, dtype, shape)] of the graph the
                              * runner copied (the rlx.Graph may change) */
    PyThread_type_lock lock;
    rlx_program *last;       /* the program of the last run (runner's) */
} runner_obj;

static int closed_error(runner_obj *self)
{
    if (self->r)
        return 0;
    rlxpy_raisef(RLX_ERR_STATE, "this rlx.Runner is closed. Fix: make a new "
                 "rlx.Runner for the model, and close it only when no "
                 "thread uses it any more");
    return -1;
}

static void lock(runner_obj *self)
{
    if (!PyThread_acquire_lock(self->lock, NOWAIT_LOCK)) {
        Py_BEGIN_ALLOW_THREADS
        PyThread_acquire_lock(self->lock, WAIT_LOCK);
        Py_END_ALLOW_THREADS
    }
}

/* Lock SELF for a call into its runner: 0, or -1 (unlocked, StateError
 * raised) when another thread closed it meanwhile. */
static int lock_open(runner_obj *self)
{
    if (closed_error(self))
        return -1;
    lock(self);
    if (self->r)
        return 0;
    PyThread_release_lock(self->lock);
    return closed_error(self);
}

static void release_handles(runner_obj *self)
{
    rlx_runner_destroy(self->r);
    self->r = NULL;
    self->last = NULL;
    rlx_model_destroy(self->model);
    self->model = NULL;
    Py_CLEAR(self->graph);
    Py_CLEAR(self->inputs);
}

static void runner_dealloc(runner_obj *self)
{
    release_handles(self);
    if (self->lock)
        PyThread_free_lock(self->lock);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static rlx_status model_hook(void *ctx, rlx_program *p)
{
    return rlx_model_set_params(ctx, p);
}

static const rlx_graph *graph_of(runner_obj *self)
{
    return self->model ? rlx_model_graph(self->model)
                       : rlxpy_graph_handle(self->graph);
}

/* G's inputs as a list of (name, dtype, shape). */
static PyObject *graph_inputs(const rlx_graph *g)
{
    PyObject *list = PyList_New(0);
    for (uint32_t v = 0; list && v < rlx_graph_node_count(g); v++) {
        const char *name = NULL;
        rlx_op op;
        rlx_dtype dt = RLX_DTYPE_INVALID;
        uint32_t rank = 0;
        const int64_t *dims = NULL;
        if (rlx_graph_node(g, v, &name, &op) != RLX_OK ||
            op != RLX_OP_INPUT ||
            rlx_graph_value_shape(g, v, &dt, &rank, &dims) != RLX_OK)
            continue;
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
    return list;
}

/* _Runner(source, policy=None, fallback=None, shapes=None) */
static int runner_init(runner_obj *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = { "source", "policy", "fallback", "shapes",
                              NULL };
    PyObject *source = NULL, *fallback = Py_None, *shapes = Py_None;
    PyObject *path_obj = NULL;
    const char *policy = NULL;
    if (self->lock) {
        PyErr_SetString(PyExc_RuntimeError, "rlx.Runner is initialised once");
        return -1;
    }
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|zOO", kwlist, &source,
                                     &policy, &fallback, &shapes))
        return -1;
    rlx_fallback fb = RLX_FALLBACK_SPLIT;
    int fb_given;
    if (rlxpy_parse_fallback(fallback, &fb, &fb_given))
        return -1;
    PyObject *graph = PyObject_TypeCheck(source, &rlxpy_graph_type) ? source
                                                                    : NULL;
    if (!graph && !PyUnicode_FSConverter(source, &path_obj))
        return -1;
    int rc = -1;
    rlx_runtime *rt = rlxpy_runtime();
    self->lock = PyThread_allocate_lock();
    if (!self->lock) {
        PyErr_NoMemory();
        goto out;
    }
    if (!rt)
        goto out;
    rlx_status st = RLX_OK;
    if (!graph) {
        const char *path = PyBytes_AS_STRING(path_obj);
        Py_BEGIN_ALLOW_THREADS
        st = rlx_model_load(path, &self->model);
        Py_END_ALLOW_THREADS
        if (st != RLX_OK) {
            rlxpy_raise(st, NULL);
            goto out;
        }
    } else {
        Py_INCREF(graph);
        self->graph = graph;
    }
    if (shapes != Py_None && rlxpy_model_set_shapes(self->model, shapes))
        goto out;
    const rlx_graph *g = graph_of(self);
    if (!g) {
        rlxpy_raisef(RLX_ERR_UNSUPPORTED, "this model runs in stages (it "
                     "needs run-time data to lower: control flow or "
                     "data-dependent shapes), which the multi-device runner "
                     "cannot compile per device. Fix: use rlx.Session(path, "
                     "device=...) for it");
        goto out;
    }
    /* the graph is copied; the GIL keeps other threads from changing an
     * rlx.Graph meanwhile */
    if (!(self->inputs = graph_inputs(g)))
        goto out;
    st = rlx_runner_create(rt, g, policy, &self->r);
    if (st == RLX_OK && fb_given)
        st = rlx_runner_set_fallback(self->r, fb);
    if (st == RLX_OK && self->model)
        st = rlx_runner_set_compile_hook(self->r, model_hook, self->model);
    Py_ssize_t pos = 0;
    PyObject *k, *v;
    while (st == RLX_OK && graph &&
           PyDict_Next(rlxpy_graph_params(graph), &pos, &k, &v)) {
        Py_buffer view;
        if (PyObject_GetBuffer(v, &view, PyBUF_C_CONTIGUOUS))
            goto out;
        st = rlx_runner_set_param(self->r, PyUnicode_AsUTF8(k), view.buf,
                                  (size_t)view.len);
        PyBuffer_Release(&view);
    }
    if (st != RLX_OK) {
        rlxpy_raise(st, NULL);
        goto out;
    }
    rc = 0;
out:
    if (rc)
        release_handles(self);
    Py_XDECREF(path_obj);
    return rc;
}

static PyObject *runner_devices(runner_obj *self, PyObject *unused)
{
    (void)unused;
    if (closed_error(self))
        return NULL;
    uint32_t n = rlx_runner_device_count(self->r);
    PyObject *list = PyList_New(n);
    for (uint32_t i = 0; list && i < n; i++) {
        PyObject *s = PyUnicode_FromString(rlx_runner_device(self->r, i));
        if (!s)
            Py_CLEAR(list);
        else
            PyList_SET_ITEM(list, i, s);
    }
    return list;
}

/* The graph's inputs (0) or outputs (1) as (name, dtype, shape). */
static PyObject *runner_slots(runner_obj *self, PyObject *arg)
{
    long kind = PyLong_AsLong(arg);
    if (kind == -1 && PyErr_Occurred())
        return NULL;
    if (closed_error(self))
        return NULL;
    PyObject *list = PyList_New(0);
    if (!list)
        return NULL;
    if (kind == 0)
        return PySequence_List(self->inputs);
    /* outputs: the program of the best device says them */
    rlx_program *p = NULL;
    if (lock_open(self)) {
        Py_DECREF(list);
        return NULL;
    }
    rlx_status st;
    Py_BEGIN_ALLOW_THREADS
    st = rlx_runner_program(self->r, rlx_runner_device(self->r, 0), &p);
    Py_END_ALLOW_THREADS
    for (uint32_t i = 0; st == RLX_OK && list &&
                         i < rlx_program_output_count(p); i++) {
        const char *name = NULL;
        rlx_dtype dt = RLX_DTYPE_INVALID;
        uint32_t rank = 0;
        const int64_t *dims = NULL;
        rlx_program_slot(p, RLX_SLOT_OUTPUT, i, &name, &dt, &rank, &dims);
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
    if (st != RLX_OK) {
        Py_XDECREF(list);
        return rlxpy_raise(st, NULL);
    }
    return list;
}

/* _set_input(name, array): ARRAY is C-contiguous of the input's dtype
 * (rlx.Runner.run makes it so); the runner keeps a copy for every
 * device. */
static PyObject *runner_set_input(runner_obj *self, PyObject *args)
{
    const char *name;
    PyObject *arr;
    if (!PyArg_ParseTuple(args, "sO", &name, &arr))
        return NULL;
    if (closed_error(self))
        return NULL;
    Py_buffer v;
    if (PyObject_GetBuffer(arr, &v, PyBUF_C_CONTIGUOUS))
        return NULL;
    lock(self);
    rlx_status st = self->r ? rlx_runner_set_input(self->r, name, v.buf,
                                                   (size_t)v.len)
                            : RLX_ERR_STATE;
    PyThread_release_lock(self->lock);
    PyBuffer_Release(&v);
    if (st == RLX_ERR_STATE && !self->r)
        return closed_error(self), NULL;
    if (st != RLX_OK)
        return rlxpy_raise(st, NULL);
    Py_RETURN_NONE;
}

/* "cpu:0": the device program P runs on. */
static PyObject *device_of(rlx_program *p)
{
    const rlx_backend *b = rlx_program_backend(p);
    return PyUnicode_FromFormat("%s:%u", rlx_backend_device_name(b),
                                (unsigned)rlx_program_device_index(p));
}

static PyObject *output_array(rlx_program *p, uint32_t i)
{
    const char *name = NULL;
    rlx_dtype dt = RLX_DTYPE_INVALID;
    uint32_t rank = 0;
    const int64_t *dims = NULL;
    size_t nbytes = 0;
    rlx_program_slot(p, RLX_SLOT_OUTPUT, i, &name, &dt, &rank, &dims);
    const void *data = rlx_program_output_data(p, i, &nbytes);
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

/* (device, {name: array}) of the program that ran. */
static PyObject *results(rlx_program *p)
{
    PyObject *dev = device_of(p);
    PyObject *d = dev ? PyDict_New() : NULL;
    for (uint32_t i = 0; d && i < rlx_program_output_count(p); i++) {
        const char *name = NULL;
        rlx_program_slot(p, RLX_SLOT_OUTPUT, i, &name, NULL, NULL, NULL);
        PyObject *a = output_array(p, i);
        if (!a || PyDict_SetItemString(d, name ? name : "", a))
            Py_CLEAR(d);
        Py_XDECREF(a);
    }
    PyObject *r = d ? PyTuple_Pack(2, dev, d) : NULL;
    Py_XDECREF(dev);
    Py_XDECREF(d);
    return r;
}

/* _run(device=None, chain=None, use_chain=False) */
static PyObject *runner_run(runner_obj *self, PyObject *args)
{
    const char *device = NULL, *chain = NULL;
    int use_chain = 0;
    if (!PyArg_ParseTuple(args, "zzp", &device, &chain, &use_chain))
        return NULL;
    if (closed_error(self))
        return NULL;
    lock(self);
    rlx_program *p = NULL;
    rlx_status st = RLX_ERR_STATE;
    if (self->r) {
        rlx_runner *r = self->r;
        Py_BEGIN_ALLOW_THREADS
        st = use_chain ? rlx_runner_run_chain(r, chain, &p)
                       : rlx_runner_run(r, device, &p);
        Py_END_ALLOW_THREADS
    }
    PyObject *res = NULL;
    if (st == RLX_OK) {
        self->last = p;
        res = results(p);
    }
    PyThread_release_lock(self->lock);
    if (st == RLX_ERR_STATE && !self->r)
        return closed_error(self), NULL;
    if (st != RLX_OK)
        return rlxpy_raise(st, NULL);
    return res;
}

/* The last chain run's attempts: (device, error or None, reason). */
static PyObject *runner_attempts(runner_obj *self, PyObject *unused)
{
    (void)unused;
    if (lock_open(self))
        return NULL;
    uint32_t n = rlx_runner_attempt_count(self->r);
    PyObject *list = PyList_New(0);
    for (uint32_t i = 0; list && i < n; i++) {
        const char *dev = NULL, *why = NULL;
        rlx_status as = RLX_OK;
        if (rlx_runner_attempt(self->r, i, &dev, &as, &why) != RLX_OK)
            continue;
        PyObject *row = Py_BuildValue("(szz)", dev ? dev : "",
                                      as == RLX_OK ? NULL
                                                   : rlx_status_name(as),
                                      as == RLX_OK ? NULL : why);
        if (!row || PyList_Append(list, row))
            Py_CLEAR(list);
        Py_XDECREF(row);
    }
    PyThread_release_lock(self->lock);
    return list;
}

static PyObject *runner_compile_all(runner_obj *self, PyObject *unused)
{
    (void)unused;
    if (lock_open(self))
        return NULL;
    uint32_t n = 0;
    rlx_runner *r = self->r;
    rlx_status st;
    Py_BEGIN_ALLOW_THREADS
    st = rlx_runner_compile_all(r, &n);
    Py_END_ALLOW_THREADS
    PyThread_release_lock(self->lock);
    if (st != RLX_OK)
        return rlxpy_raise(st, NULL);
    return PyLong_FromUnsignedLong(n);
}

/* _benchmark(devices=None, runs=5) -> (winner, [(device, ms, error,
 * reason)]) */
static PyObject *runner_benchmark(runner_obj *self, PyObject *args)
{
    const char *devices = NULL;
    unsigned int runs = 5;
    if (!PyArg_ParseTuple(args, "zI", &devices, &runs))
        return NULL;
    if (runs < 1)
        return rlxpy_raisef(RLX_ERR_INVALID_ARGUMENT, "runs must be at "
                            "least 1. Fix: pass runs=5");
    if (lock_open(self))
        return NULL;
    const char *winner = NULL;
    rlx_runner *r = self->r;
    rlx_status st;
    Py_BEGIN_ALLOW_THREADS
    st = rlx_runner_benchmark(r, devices, runs, &winner);
    Py_END_ALLOW_THREADS
    PyObject *rows = PyList_New(0);
    for (uint32_t i = 0; rows && i < rlx_runner_bench_count(r); i++) {
        const char *dev = NULL, *why = NULL;
        double ms = -1;
        rlx_status bs = RLX_OK;
        if (rlx_runner_bench_result(r, i, &dev, &ms, &bs, &why) != RLX_OK)
            continue;
        PyObject *row = Py_BuildValue("(sdzz)", dev ? dev : "", ms,
                                      bs == RLX_OK ? NULL
                                                   : rlx_status_name(bs),
                                      bs == RLX_OK ? NULL : why);
        if (!row || PyList_Append(rows, row))
            Py_CLEAR(rows);
        Py_XDECREF(row);
    }
    PyObject *res = rows && st == RLX_OK
                        ? Py_BuildValue("(sO)", winner ? winner : "", rows)
                        : NULL;
    PyThread_release_lock(self->lock);
    Py_XDECREF(rows);
    if (st != RLX_OK)
        return rlxpy_raise(st, NULL);
    return res;
}

static PyObject *runner_clear(runner_obj *self, PyObject *unused)
{
    (void)unused;
    if (lock_open(self))
        return NULL;
    rlx_runner_clear(self->r);
    self->last = NULL;
    PyThread_release_lock(self->lock);
    Py_RETURN_NONE;
}

static PyObject *runner_close(runner_obj *self, PyObject *unused)
{
    (void)unused;
    if (self->lock) {
        lock(self);
        release_handles(self);
        PyThread_release_lock(self->lock);
    }
    Py_RETURN_NONE;
}

static PyObject *runner_closed(runner_obj *self, void *unused)
{
    (void)unused;
    return PyBool_FromLong(self->r == NULL);
}

static PyObject *runner_last_device(runner_obj *self, void *unused)
{
    (void)unused;
    if (!self->r || !self->last)
        Py_RETURN_NONE;
    return device_of(self->last);
}

static PyMethodDef runner_methods[] = {
    { "_devices", (PyCFunction)runner_devices, METH_NOARGS, NULL },
    { "_slots", (PyCFunction)runner_slots, METH_O, NULL },
    { "_set_input", (PyCFunction)runner_set_input, METH_VARARGS, NULL },
    { "_run", (PyCFunction)runner_run, METH_VARARGS, NULL },
    { "_attempts", (PyCFunction)runner_attempts, METH_NOARGS, NULL },
    { "_compile_all", (PyCFunction)runner_compile_all, METH_NOARGS, NULL },
    { "_benchmark", (PyCFunction)runner_benchmark, METH_VARARGS, NULL },
    { "clear", (PyCFunction)runner_clear, METH_NOARGS,
      "clear() -> None\n\nDrop every compiled program and the benchmark's "
      "winner (after plugins changed, say); inputs are kept." },
    { "close", (PyCFunction)runner_close, METH_NOARGS,
      "close() -> None\n\nFree the runner, its programs and the model now "
      "(also done when it is collected). Later calls raise "
      "rlx.StateError." },
    { NULL, NULL, 0, NULL }
};

static PyGetSetDef runner_getset[] = {
    { "closed", (getter)runner_closed, NULL,
      "True once close() was called or opening failed.", NULL },
    { "last_device", (getter)runner_last_device, NULL,
      "The device the last run ran on ('cpu:0'), or None before any.",
      NULL },
    { NULL, NULL, NULL, NULL, NULL }
};

PyTypeObject rlxpy_runner_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "rlx._rlx._Runner",
    .tp_basicsize = sizeof(runner_obj),
    .tp_dealloc = (destructor)runner_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "The C half of rlx.Runner.",
    .tp_methods = runner_methods,
    .tp_getset = runner_getset,
    .tp_init = (initproc)runner_init,
    .tp_new = PyType_GenericNew,
};

int rlxpy_runner_ready(PyObject *module)
{
    if (PyType_Ready(&rlxpy_runner_type) < 0)
        return -1;
    Py_INCREF(&rlxpy_runner_type);
    if (PyModule_AddObject(module, "_Runner",
                           (PyObject *)&rlxpy_runner_type) < 0) {
        Py_DECREF(&rlxpy_runner_type);
        return -1;
    }
    return 0;
}
