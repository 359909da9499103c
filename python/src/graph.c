/*
 * graph.c - rlx._rlx._Graph: a graph built from Python through the
 * rlx_graph_* calls (inputs, params with their data, constants, op
 * nodes, outputs), which rlx.Session compiles like a model. Values are
 * the C API's rlx_value numbers. Params keep their arrays here until a
 * Session sets them on its program.
 */
#include "ext.h"

#include <string.h>

typedef struct {
    PyObject_HEAD
    rlx_graph *graph;
    PyObject *params; /* dict: name -> C-contiguous array of its data */
} graph_obj;

rlx_graph *rlxpy_graph_handle(PyObject *o)
{
    return ((graph_obj *)o)->graph;
}

PyObject *rlxpy_graph_params(PyObject *o)
{
    return ((graph_obj *)o)->params;
}

static void graph_dealloc(graph_obj *self)
{
    rlx_graph_destroy(self->graph);
    Py_XDECREF(self->params);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int graph_init(graph_obj *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = { NULL };
    if (!PyArg_ParseTupleAndKeywords(args, kw, "", kwlist))
        return -1;
    if (self->graph)
        return 0;
    rlx_status st = rlx_graph_create(&self->graph);
    if (st != RLX_OK) {
        rlxpy_raise(st, NULL);
        return -1;
    }
    self->params = PyDict_New();
    return self->params ? 0 : -1;
}

static int ready(graph_obj *self)
{
    if (self->graph)
        return 0;
    rlxpy_raisef(RLX_ERR_STATE, "this rlx.Graph was not initialised. Fix: "
                 "make graphs with rlx.Graph()");
    return -1;
}

/* dtype name (NumPy's, "float32", or rlx's, "f32") -> rlx_dtype */
static int dtype_arg(PyObject *o, rlx_dtype *out)
{
    PyObject *s = PyObject_Str(o); /* numpy.dtype and type objects too */
    if (!s)
        return -1;
    const char *n = PyUnicode_AsUTF8(s);
    static const struct { const char *np; rlx_dtype dt; } map[] = {
        { "float32", RLX_DTYPE_F32 }, { "float16", RLX_DTYPE_F16 },
        { "float64", RLX_DTYPE_F64 }, { "int32", RLX_DTYPE_I32 },
        { "int64", RLX_DTYPE_I64 }, { "uint8", RLX_DTYPE_U8 },
        { "int8", RLX_DTYPE_I8 }, { "bool", RLX_DTYPE_BOOL },
        { "int16", RLX_DTYPE_I16 }, { "uint16", RLX_DTYPE_U16 },
        { "uint32", RLX_DTYPE_U32 }, { "uint64", RLX_DTYPE_U64 },
        { "<class 'numpy.float32'>", RLX_DTYPE_F32 },
        { "<class 'numpy.float16'>", RLX_DTYPE_F16 },
        { "<class 'numpy.float64'>", RLX_DTYPE_F64 },
        { "<class 'numpy.int32'>", RLX_DTYPE_I32 },
        { "<class 'numpy.int64'>", RLX_DTYPE_I64 },
        { "<class 'numpy.uint8'>", RLX_DTYPE_U8 },
        { "<class 'numpy.int8'>", RLX_DTYPE_I8 },
        { "<class 'numpy.bool_'>", RLX_DTYPE_BOOL },
        { "<class 'numpy.int16'>", RLX_DTYPE_I16 },
        { "<class 'numpy.uint16'>", RLX_DTYPE_U16 },
        { "<class 'numpy.uint32'>", RLX_DTYPE_U32 },
        { "<class 'numpy.uint64'>", RLX_DTYPE_U64 },
    };
    for (size_t i = 0; n && i < sizeof map / sizeof *map; i++)
        if (!strcmp(n, map[i].np)) {
            *out = map[i].dt;
            Py_DECREF(s);
            return 0;
        }
    if (n && rlx_dtype_from_name(n, out) == RLX_OK) {
        Py_DECREF(s);
        return 0;
    }
    rlxpy_raisef(RLX_ERR_DTYPE, "unknown dtype '%s'. Fix: pass one of "
                 "float32, float16, float64, int32, int64, uint8, int8, "
                 "bool (or rlx's names: f32, bf16, ...)", n ? n : "?");
    Py_DECREF(s);
    return -1;
}

static int dims_arg(PyObject *o, int64_t *dims, uint32_t *rank)
{
    PyObject *seq = PySequence_Fast(o, "shape must be a tuple of ints");
    if (!seq)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > 8) {
        Py_DECREF(seq);
        rlxpy_raisef(RLX_ERR_SHAPE, "a shape has at most 8 dimensions, not "
                     "%zd. Fix: reshape the tensor", n);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long long d = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(seq, i));
        if (d == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        dims[i] = d;
    }
    *rank = (uint32_t)n;
    Py_DECREF(seq);
    return 0;
}

static PyObject *graph_input(graph_obj *self, PyObject *args)
{
    const char *name;
    PyObject *dt_o, *shape_o;
    if (!PyArg_ParseTuple(args, "sOO", &name, &dt_o, &shape_o) || ready(self))
        return NULL;
    rlx_dtype dt;
    int64_t dims[8];
    uint32_t rank;
    rlx_value v;
    if (dtype_arg(dt_o, &dt) || dims_arg(shape_o, dims, &rank))
        return NULL;
    rlx_status st = rlx_graph_input(self->graph, name, dt, rank, dims, &v);
    if (st != RLX_OK)
        return rlxpy_raise(st, NULL);
    return PyLong_FromUnsignedLong(v);
}

/* An array's C-contiguous native bytes, dtype and shape (NumPy calls). */
static PyObject *as_array(PyObject *data)
{
    /* rlx._coerce: arrays keep their dtype, lists become float32 */
    if (!rlxpy_coerce) {
        PyErr_SetString(PyExc_RuntimeError, "rlx._rlx used without rlx");
        return NULL;
    }
    return PyObject_CallFunction(rlxpy_coerce, "Os", data, "float32");
}

static int array_meta(PyObject *a, rlx_dtype *dt, int64_t *dims,
                      uint32_t *rank)
{
    PyObject *d = PyObject_GetAttrString(a, "dtype");
    PyObject *s = PyObject_GetAttrString(a, "shape");
    int rc = (!d || !s || dtype_arg(d, dt) || dims_arg(s, dims, rank)) ? -1 : 0;
    Py_XDECREF(d);
    Py_XDECREF(s);
    return rc;
}

static PyObject *graph_param_or_constant(graph_obj *self, PyObject *args,
                                         int constant)
{
    const char *name;
    PyObject *data;
    if (!PyArg_ParseTuple(args, "sO", &name, &data) || ready(self))
        return NULL;
    PyObject *a = as_array(data);
    if (!a)
        return NULL;
    rlx_dtype dt;
    int64_t dims[8];
    uint32_t rank;
    rlx_value v = RLX_VALUE_NONE;
    Py_buffer view;
    if (array_meta(a, &dt, dims, &rank) ||
        PyObject_GetBuffer(a, &view, PyBUF_C_CONTIGUOUS)) {
        Py_DECREF(a);
        return NULL;
    }
    rlx_status st = constant
        ? rlx_graph_constant(self->graph, name, dt, rank, dims, view.buf, &v)
        : rlx_graph_param(self->graph, name, dt, rank, dims, &v);
    PyBuffer_Release(&view);
    if (st == RLX_OK && !constant &&
        PyDict_SetItemString(self->params, name, a)) {
        Py_DECREF(a);
        return NULL;
    }
    Py_DECREF(a);
    if (st != RLX_OK)
        return rlxpy_raise(st, NULL);
    return PyLong_FromUnsignedLong(v);
}

static PyObject *graph_param(graph_obj *self, PyObject *args)
{
    return graph_param_or_constant(self, args, 0);
}

static PyObject *graph_constant(graph_obj *self, PyObject *args)
{
    return graph_param_or_constant(self, args, 1);
}

static int value_arg(PyObject *o, rlx_value *v)
{
    unsigned long x = PyLong_AsUnsignedLong(o);
    if (x == (unsigned long)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        rlxpy_raisef(RLX_ERR_INVALID_ARGUMENT, "a value must be what "
                     "Graph.input, param, constant or node returned. Fix: "
                     "pass that number");
        return -1;
    }
    *v = (rlx_value)x;
    return 0;
}

static PyObject *graph_node(graph_obj *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = { "op", "inputs", "name", "ints", "floats", NULL };
    const char *op_name, *name = NULL;
    PyObject *inputs, *ints_o = Py_None, *floats_o = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "sO|zOO", kwlist, &op_name,
                                     &inputs, &name, &ints_o, &floats_o) ||
        ready(self))
        return NULL;
    rlx_op op;
    if (rlx_op_from_name(op_name, &op) != RLX_OK)
        return rlxpy_raise(RLX_ERR_NOT_FOUND, NULL);
    rlx_value in[16];
    int64_t ints[32];
    double floats[16];
    rlx_attrs attrs = { 0, ints, 0, floats };
    PyObject *seq = PySequence_Fast(inputs, "inputs must be a list of values");
    if (!seq)
        return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > 16) {
        Py_DECREF(seq);
        return rlxpy_raisef(RLX_ERR_INVALID_ARGUMENT, "at most 16 inputs per "
                            "node. Fix: split the node");
    }
    for (Py_ssize_t i = 0; i < n; i++)
        if (value_arg(PySequence_Fast_GET_ITEM(seq, i), &in[i])) {
            Py_DECREF(seq);
            return NULL;
        }
    Py_DECREF(seq);
    if (ints_o != Py_None) {
        seq = PySequence_Fast(ints_o, "ints must be a list of ints");
        if (!seq)
            return NULL;
        Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
        for (Py_ssize_t i = 0; i < k && i < 32; i++)
            ints[i] = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(seq, i));
        Py_DECREF(seq);
        if (PyErr_Occurred())
            return NULL;
        if (k > 32)
            return rlxpy_raisef(RLX_ERR_INVALID_ARGUMENT, "at most 32 int "
                                "attributes. Fix: pass fewer");
        attrs.n_ints = (uint32_t)k;
    }
    if (floats_o != Py_None) {
        seq = PySequence_Fast(floats_o, "floats must be a list of floats");
        if (!seq)
            return NULL;
        Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
        for (Py_ssize_t i = 0; i < k && i < 16; i++)
            floats[i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(seq, i));
        Py_DECREF(seq);
        if (PyErr_Occurred())
            return NULL;
        if (k > 16)
            return rlxpy_raisef(RLX_ERR_INVALID_ARGUMENT, "at most 16 float "
                                "attributes. Fix: pass fewer");
        attrs.n_floats = (uint32_t)k;
    }
    rlx_value v;
    rlx_status st = rlx_graph_add_node(self->graph, name, op, (uint32_t)n, in,
                                       &attrs, &v);
    if (st != RLX_OK)
        return rlxpy_raise(st, NULL);
    return PyLong_FromUnsignedLong(v);
}

/* One argument spec of Graph.custom: "output", an int or float literal,
 * or a tuple ("tensor", i) / ("numel", i) / ("dim", i, axis), where i is
 * an input index or "output". */
static int custom_arg(PyObject *o, rlx_custom_arg *a)
{
    memset(a, 0, sizeof *a);
    if (PyUnicode_Check(o) && !strcmp(PyUnicode_AsUTF8(o), "output")) {
        a->kind = RLX_CUSTOM_ARG_TENSOR;
        a->index = RLX_CUSTOM_OUTPUT;
        return 0;
    }
    if (PyBool_Check(o) || PyLong_Check(o)) {
        a->kind = RLX_CUSTOM_ARG_INT;
        a->i = PyLong_AsLongLong(o);
        return PyErr_Occurred() ? -1 : 0;
    }
    if (PyFloat_Check(o)) {
        a->kind = RLX_CUSTOM_ARG_FLOAT;
        a->f = PyFloat_AsDouble(o);
        return 0;
    }
    const char *kind = NULL;
    PyObject *idx = NULL;
    int axis = 0;
    if (PyTuple_Check(o) && PyArg_ParseTuple(o, "sO|i", &kind, &idx, &axis)) {
        uint32_t index = RLX_CUSTOM_OUTPUT;
        if (!(PyUnicode_Check(idx) &&
              !strcmp(PyUnicode_AsUTF8(idx), "output"))) {
            long v = PyLong_AsLong(idx);
            if (v < 0 || PyErr_Occurred()) {
                PyErr_Clear();
                kind = NULL;
            } else {
                index = (uint32_t)v;
            }
        }
        a->index = index;
        a->axis = axis;
        if (kind && !strcmp(kind, "tensor"))
            a->kind = RLX_CUSTOM_ARG_TENSOR;
        else if (kind && !strcmp(kind, "numel"))
            a->kind = RLX_CUSTOM_ARG_NUMEL;
        else if (kind && !strcmp(kind, "dim"))
            a->kind = RLX_CUSTOM_ARG_DIM;
        if (a->kind)
            return 0;
    }
    PyErr_Clear();
    PyObject *r = PyObject_Repr(o);
    rlxpy_raisef(RLX_ERR_INVALID_ARGUMENT, "custom op argument %s is not "
                 "one rlx knows. Fix: pass 'output', an int, a float, "
                 "('tensor', i), ('numel', i) or ('dim', i, axis), i an "
                 "input index or 'output'", r ? PyUnicode_AsUTF8(r) : "?");
    Py_XDECREF(r);
    return -1;
}

/* custom(inputs, signature, dtype, shape, library=None, symbol=None,
 * fn=None, args=None, elementwise=False, init_input=-1, name=None): a
 * node calling a C function by its signature (rlx_graph_add_custom). */
static PyObject *graph_custom(graph_obj *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = { "inputs", "signature", "dtype", "shape",
                              "library", "symbol", "fn", "args",
                              "elementwise", "init_input", "name", NULL };
    PyObject *inputs, *dtype_o, *shape_o, *fn_o = Py_None, *args_o = Py_None;
    const char *signature, *library = NULL, *symbol = NULL, *name = NULL;
    int elementwise = 0, init_input = -1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OsOO|zzOOpiz", kwlist,
                                     &inputs, &signature, &dtype_o, &shape_o,
                                     &library, &symbol, &fn_o, &args_o,
                                     &elementwise, &init_input, &name) ||
        ready(self))
        return NULL;
    rlx_custom_op op = {
        .struct_size = sizeof op,
        .library = library,
        .symbol = symbol,
        .signature = signature,
        .init_input = init_input,
        .flags = elementwise ? RLX_CUSTOM_ELEMENTWISE : 0,
    };
    int64_t dims[8];
    rlx_value in[16];
    rlx_custom_arg cargs[16];
    if (dtype_arg(dtype_o, &op.dtype) || dims_arg(shape_o, dims, &op.rank))
        return NULL;
    op.dims = dims;
    if (fn_o != Py_None) { /* an address: ctypes.cast(f, c_void_p).value */
        void *addr = PyLong_AsVoidPtr(fn_o);
        if (!addr)
            return PyErr_Occurred()
                       ? NULL
                       : rlxpy_raisef(RLX_ERR_INVALID_ARGUMENT, "fn is a "
                                      "NULL address. Fix: pass a C "
                                      "function's address");
        memcpy(&op.fn, &addr, sizeof addr);
    }
    PyObject *seq = PySequence_Fast(inputs, "inputs must be a list of values");
    if (!seq)
        return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    int bad = n > 16;
    for (Py_ssize_t i = 0; !bad && i < n; i++)
        bad = value_arg(PySequence_Fast_GET_ITEM(seq, i), &in[i]) ? -1 : 0;
    Py_DECREF(seq);
    if (bad)
        return bad > 0 ? rlxpy_raisef(RLX_ERR_INVALID_ARGUMENT, "at most 16 "
                                      "inputs per node. Fix: split the node")
                       : NULL;
    if (args_o == Py_None) { /* each input's data, in order */
        for (Py_ssize_t i = 0; i < n; i++)
            cargs[i] = (rlx_custom_arg){ .kind = RLX_CUSTOM_ARG_TENSOR,
                                         .index = (uint32_t)i };
        op.n_args = (uint32_t)n;
    } else {
        seq = PySequence_Fast(args_o, "args must be a list of argument specs");
        if (!seq)
            return NULL;
        Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
        bad = k > 16;
        for (Py_ssize_t i = 0; !bad && i < k; i++)
            bad = custom_arg(PySequence_Fast_GET_ITEM(seq, i), &cargs[i])
                      ? -1 : 0;
        Py_DECREF(seq);
        if (bad)
            return bad > 0 ? rlxpy_raisef(RLX_ERR_INVALID_ARGUMENT, "at most "
                                          "16 arguments. Fix: pass fewer")
                           : NULL;
        op.n_args = (uint32_t)k;
    }
    op.args = cargs;
    rlx_value v;
    rlx_status st = rlx_graph_add_custom(self->graph, name, (uint32_t)n, in,
                                         &op, &v);
    if (st != RLX_OK)
        return rlxpy_raise(st, NULL);
    return PyLong_FromUnsignedLong(v);
}

static PyObject *graph_output(graph_obj *self, PyObject *args)
{
    const char *name;
    PyObject *vo;
    rlx_value v;
    if (!PyArg_ParseTuple(args, "sO", &name, &vo) || ready(self) ||
        value_arg(vo, &v))
        return NULL;
    rlx_status st = rlx_graph_output(self->graph, name, v);
    if (st != RLX_OK)
        return rlxpy_raise(st, NULL);
    Py_RETURN_NONE;
}

static PyObject *graph_shape(graph_obj *self, PyObject *vo)
{
    rlx_value v;
    if (ready(self) || value_arg(vo, &v))
        return NULL;
    rlx_dtype dt;
    uint32_t rank;
    const int64_t *dims;
    rlx_status st = rlx_graph_value_shape(self->graph, v, &dt, &rank, &dims);
    if (st != RLX_OK)
        return rlxpy_raise(st, NULL);
    const char *npd = rlxpy_numpy_dtype(dt);
    PyObject *shape = rlxpy_shape(rank, dims);
    PyObject *r = shape ? Py_BuildValue("(sO)", npd ? npd : rlx_dtype_name(dt),
                                        shape)
                        : NULL;
    Py_XDECREF(shape);
    return r;
}

static PyObject *graph_len(graph_obj *self, PyObject *unused)
{
    (void)unused;
    if (ready(self))
        return NULL;
    return PyLong_FromUnsignedLong(rlx_graph_node_count(self->graph));
}

static PyMethodDef graph_methods[] = {
    { "input", (PyCFunction)graph_input, METH_VARARGS,
      "input(name, dtype, shape) -> value\n\nA graph input." },
    { "param", (PyCFunction)graph_param, METH_VARARGS,
      "param(name, array) -> value\n\nA param with its data (dtype and shape "
      "from the array); a Session sets it once on its program." },
    { "constant", (PyCFunction)graph_constant, METH_VARARGS,
      "constant(name, array) -> value\n\nA constant (the data is copied)." },
    { "node", (PyCFunction)(void (*)(void))graph_node,
      METH_VARARGS | METH_KEYWORDS,
      "node(op, inputs, name=None, ints=None, floats=None) -> value\n\n"
      "An op node ('matmul', 'add', 'softmax', ...; docs/ops.md) on the "
      "given values, with its integer and float attributes in the C API's "
      "order. Shapes and dtypes are checked now." },
    { "custom", (PyCFunction)(void (*)(void))graph_custom,
      METH_VARARGS | METH_KEYWORDS,
      "custom(inputs, signature, dtype, shape, library=None, symbol=None, "
      "fn=None, args=None, elementwise=False, init_input=-1, name=None) -> "
      "value\n\nA node calling a C function by its signature, as "
      "rlx_graph_add_custom (docs/custom-ops.md): LIBRARY and SYMBOL (the "
      "Session must allow the library: allow_custom_ops), or FN, a "
      "function's address (ctypes). ARGS: 'output', ints, floats, "
      "('tensor', i), ('numel', i), ('dim', i, axis); None passes each "
      "input's data in order. The output is DTYPE and SHAPE." },
    { "output", (PyCFunction)graph_output, METH_VARARGS,
      "output(name, value) -> None\n\nMark VALUE as output NAME." },
    { "shape", (PyCFunction)graph_shape, METH_O,
      "shape(value) -> (dtype, shape)\n\nThe dtype and shape of a value." },
    { "node_count", (PyCFunction)graph_len, METH_NOARGS,
      "node_count() -> int\n\nNodes in the graph, sources included." },
    { NULL, NULL, 0, NULL }
};

PyTypeObject rlxpy_graph_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "rlx.Graph",
    .tp_basicsize = sizeof(graph_obj),
    .tp_dealloc = (destructor)graph_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "Graph() - a graph built op by op, as with the C API's "
              "rlx_graph_* calls; pass it to rlx.Session.",
    .tp_methods = graph_methods,
    .tp_init = (initproc)graph_init,
    .tp_new = PyType_GenericNew,
};

int rlxpy_graph_ready(PyObject *module)
{
    if (PyType_Ready(&rlxpy_graph_type) < 0)
        return -1;
    Py_INCREF(&rlxpy_graph_type);
    if (PyModule_AddObject(module, "Graph", (PyObject *)&rlxpy_graph_type) < 0) {
        Py_DECREF(&rlxpy_graph_type);
        return -1;
    }
    return 0;
}
