/*
 * module.c - the rlx._rlx extension module: the process-wide runtime,
 * the exception hierarchy (one class per rlx_status, each carrying the
 * reason and the Fix of rlx_last_error()), and what the package says
 * about the machine: version(), backends(), devices() and check().
 */
#include "ext.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static rlx_runtime *g_runtime;
static PyObject *g_numpy;
PyObject *rlxpy_coerce;
PyObject *rlxpy_host_copy;

/* rlx.Error and one subclass per status, indexed by the status value. */
#define N_STATUS 17
static PyObject *g_error;
static PyObject *g_errors[N_STATUS];

static const struct {
    rlx_status st;
    const char *name;  /* rlx.NAME */
    const char *also;  /* a builtin base it also has, or NULL */
    const char *doc;
} error_table[] = {
    { RLX_ERR_INVALID_ARGUMENT, "InvalidArgumentError", "ValueError",
      "An argument was not valid (RLX_ERR_INVALID_ARGUMENT)." },
    { RLX_ERR_OUT_OF_MEMORY, "OutOfMemoryError", "MemoryError",
      "Memory ran out (RLX_ERR_OUT_OF_MEMORY)." },
    { RLX_ERR_NOT_FOUND, "NotFoundError", "LookupError",
      "A file, name, tensor or device was not found (RLX_ERR_NOT_FOUND)." },
    { RLX_ERR_UNSUPPORTED, "UnsupportedError", NULL,
      "An op, dtype or format is not supported (RLX_ERR_UNSUPPORTED)." },
    { RLX_ERR_UNAVAILABLE, "UnavailableError", NULL,
      "A backend or device is not available (RLX_ERR_UNAVAILABLE)." },
    { RLX_ERR_ABI_MISMATCH, "AbiMismatchError", NULL,
      "A plugin's ABI does not match (RLX_ERR_ABI_MISMATCH)." },
    { RLX_ERR_PLUGIN, "PluginError", NULL,
      "A plugin could not be loaded (RLX_ERR_PLUGIN)." },
    { RLX_ERR_DUPLICATE, "DuplicateError", "ValueError",
      "A name or id was given twice (RLX_ERR_DUPLICATE)." },
    { RLX_ERR_SHAPE, "ShapeError", "ValueError",
      "A shape does not match (RLX_ERR_SHAPE)." },
    { RLX_ERR_DTYPE, "DtypeError", "TypeError",
      "A dtype does not match (RLX_ERR_DTYPE)." },
    { RLX_ERR_BACKEND, "BackendError", NULL,
      "A backend failed (RLX_ERR_BACKEND)." },
    { RLX_ERR_DEVICE, "DeviceError", NULL,
      "A device failed (RLX_ERR_DEVICE)." },
    { RLX_ERR_STATE, "StateError", NULL,
      "The call is not valid in this state, e.g. a closed session "
      "(RLX_ERR_STATE)." },
    { RLX_ERR_IO, "IOError", "OSError",
      "Reading or writing a file failed (RLX_ERR_IO)." },
    { RLX_ERR_FORMAT, "FormatError", "ValueError",
      "A file or its data is malformed (RLX_ERR_FORMAT)." },
    { RLX_ERR_INTERNAL, "InternalError", NULL,
      "An internal error of rlx (RLX_ERR_INTERNAL)." },
};

PyObject *rlxpy_reason_fix(const char *msg)
{
    const char *fix = strstr(msg, "Fix:");
    if (!fix)
        return Py_BuildValue("(sO)", msg, Py_None);
    size_t n = (size_t)(fix - msg);
    while (n && (msg[n - 1] == ' ' || msg[n - 1] == '\n' ||
                 msg[n - 1] == '.'))
        n--;
    fix += 4;
    while (*fix == ' ')
        fix++;
    return Py_BuildValue("(s#s)", msg, (Py_ssize_t)n, fix);
}

PyObject *rlxpy_raise(rlx_status st, const char *msg)
{
    if (!msg)
        msg = rlx_last_error();
    if (!msg || !*msg)
        msg = rlx_status_string(st);
    PyObject *cls = (unsigned)st < N_STATUS && g_errors[st] ? g_errors[st]
                                                            : g_error;
    PyObject *exc = PyObject_CallFunction(cls, "s", msg);
    PyObject *rf = exc ? rlxpy_reason_fix(msg) : NULL;
    if (!rf) {
        Py_XDECREF(exc);
        return NULL;
    }
    if (PyObject_SetAttrString(exc, "reason", PyTuple_GET_ITEM(rf, 0)) ||
        PyObject_SetAttrString(exc, "fix", PyTuple_GET_ITEM(rf, 1))) {
        Py_DECREF(rf);
        Py_DECREF(exc);
        return NULL;
    }
    PyObject *name = PyUnicode_FromString(rlx_status_name(st));
    if (!name || PyObject_SetAttrString(exc, "status", name)) {
        Py_XDECREF(name);
        Py_DECREF(rf);
        Py_DECREF(exc);
        return NULL;
    }
    Py_DECREF(name);
    Py_DECREF(rf);
    PyErr_SetObject(cls, exc);
    Py_DECREF(exc);
    return NULL;
}

PyObject *rlxpy_raisef(rlx_status st, const char *fmt, ...)
{
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return rlxpy_raise(st, buf);
}

rlx_runtime *rlxpy_runtime(void)
{
    if (!g_runtime) {
        rlx_status st = rlx_runtime_create(&g_runtime, 0);
        if (st != RLX_OK) {
            g_runtime = NULL;
            rlxpy_raise(st, NULL);
        }
    }
    return g_runtime;
}

PyObject *rlxpy_numpy(void)
{
    if (!g_numpy)
        g_numpy = PyImport_ImportModule("numpy");
    return g_numpy;
}

const char *rlxpy_numpy_dtype(rlx_dtype dt)
{
    switch (dt) {
    case RLX_DTYPE_F32: return "float32";
    case RLX_DTYPE_F16: return "float16";
    case RLX_DTYPE_BF16: return "uint16"; /* NumPy has no bfloat16 */
    case RLX_DTYPE_I32: return "int32";
    case RLX_DTYPE_I64: return "int64";
    case RLX_DTYPE_U8: return "uint8";
    case RLX_DTYPE_BOOL: return "bool";
    case RLX_DTYPE_F64: return "float64";
    case RLX_DTYPE_I8: return "int8";
    case RLX_DTYPE_I16: return "int16";
    case RLX_DTYPE_U16: return "uint16";
    case RLX_DTYPE_U32: return "uint32";
    case RLX_DTYPE_U64: return "uint64";
    default: return NULL;
    }
}

PyObject *rlxpy_shape(uint32_t rank, const int64_t *dims)
{
    PyObject *t = PyTuple_New(rank);
    for (uint32_t i = 0; t && i < rank; i++) {
        PyObject *d = PyLong_FromLongLong(dims[i]);
        if (!d) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, d);
    }
    return t;
}

static PyObject *py_version(PyObject *self, PyObject *args)
{
    (void)self; (void)args;
    return PyUnicode_FromString(rlx_version());
}

/* Set KEY of dict D to V, stealing V. */
static int put(PyObject *d, const char *key, PyObject *v)
{
    if (!v)
        return -1;
    int rc = PyDict_SetItemString(d, key, v);
    Py_DECREF(v);
    return rc;
}

static PyObject *str_or_none(const char *s)
{
    if (!s)
        Py_RETURN_NONE;
    return PyUnicode_FromString(s);
}

static PyObject *backend_dict(rlx_runtime *rt, const rlx_backend *b)
{
    PyObject *d = PyDict_New();
    if (!d)
        return NULL;
    uint32_t count = 0;
    rlx_status st = rlx_backend_probe(b, &count);
    PyObject *rf = st == RLX_OK ? Py_BuildValue("(OO)", Py_None, Py_None)
                                : rlxpy_reason_fix(rlx_last_error());
    const char *dev = rlx_backend_device_name(b);
    const rlx_backend *chosen = NULL;
    if (st == RLX_OK && rlx_backend_executes(b))
        chosen = rlx_runtime_choose(rt, dev);
    const char *why = NULL;
    int allowed = rlx_runtime_backend_allowed(rt, b, &why);
    if (!rf ||
        put(d, "id", PyUnicode_FromString(rlx_backend_id(b))) ||
        put(d, "device", PyUnicode_FromString(dev)) ||
        put(d, "priority", PyLong_FromLong(rlx_backend_priority(b))) ||
        put(d, "executes", PyBool_FromLong(rlx_backend_executes(b))) ||
        put(d, "device_io", PyBool_FromLong(rlx_backend_device_io(b))) ||
        put(d, "available", PyBool_FromLong(st == RLX_OK)) ||
        put(d, "device_count", PyLong_FromUnsignedLong(count)) ||
        PyDict_SetItemString(d, "reason", PyTuple_GET_ITEM(rf, 0)) ||
        PyDict_SetItemString(d, "fix", PyTuple_GET_ITEM(rf, 1)) ||
        put(d, "chosen", PyBool_FromLong(chosen == b)) ||
        put(d, "allowed", PyBool_FromLong(allowed)) ||
        put(d, "policy", str_or_none(why)) ||
        put(d, "plugin", PyUnicode_FromString(rlx_backend_plugin_path(b))) ||
        put(d, "description",
            str_or_none(rlx_backend_description(b)))) {
        Py_XDECREF(rf);
        Py_DECREF(d);
        return NULL;
    }
    Py_DECREF(rf);
    return d;
}

static PyObject *py_backends(PyObject *self, PyObject *args)
{
    (void)self; (void)args;
    rlx_runtime *rt = rlxpy_runtime();
    if (!rt)
        return NULL;
    uint32_t n = rlx_runtime_backend_count(rt);
    PyObject *list = PyList_New(0);
    for (uint32_t i = 0; list && i < n; i++) {
        PyObject *d = backend_dict(rt, rlx_runtime_backend(rt, i));
        if (!d || PyList_Append(list, d)) {
            Py_XDECREF(d);
            Py_CLEAR(list);
            break;
        }
        Py_DECREF(d);
    }
    return list;
}

static PyObject *device_dict(const rlx_backend *b, uint32_t index,
                             int chosen)
{
    rlx_device_info info;
    memset(&info, 0, sizeof info);
    info.struct_size = sizeof info;
    int described = rlx_backend_device(b, index, &info) == RLX_OK;
    char name[160];
    snprintf(name, sizeof name, "%s:%u", rlx_backend_device_name(b),
             (unsigned)index);
    const char *desc = rlx_backend_description(b);
    PyObject *d = PyDict_New();
    if (!d ||
        put(d, "name", PyUnicode_FromString(name)) ||
        put(d, "kind", PyUnicode_FromString(rlx_backend_device_name(b))) ||
        put(d, "index", PyLong_FromUnsignedLong(index)) ||
        put(d, "backend", PyUnicode_FromString(rlx_backend_id(b))) ||
        put(d, "chosen", PyBool_FromLong(chosen)) ||
        put(d, "description",
            PyUnicode_FromString(described && info.name[0] ? info.name
                                 : desc ? desc : "")) ||
        put(d, "type", PyUnicode_FromString(described ? info.type : "")) ||
        put(d, "memory_total",
            PyLong_FromUnsignedLongLong(described ? info.memory_total : 0)) ||
        put(d, "memory_free",
            PyLong_FromUnsignedLongLong(described ? info.memory_free : 0)) ||
        put(d, "detail",
            PyUnicode_FromString(described ? info.detail : ""))) {
        Py_XDECREF(d);
        return NULL;
    }
    return d;
}

static PyObject *py_devices(PyObject *self, PyObject *args)
{
    (void)self; (void)args;
    rlx_runtime *rt = rlxpy_runtime();
    if (!rt)
        return NULL;
    uint32_t n = rlx_runtime_backend_count(rt);
    PyObject *list = PyList_New(0);
    for (uint32_t i = 0; list && i < n; i++) {
        const rlx_backend *b = rlx_runtime_backend(rt, i);
        uint32_t count = 0;
        if (!rlx_backend_executes(b) || rlx_backend_probe(b, &count) != RLX_OK)
            continue;
        int chosen = rlx_runtime_choose(rt, rlx_backend_device_name(b)) == b;
        for (uint32_t k = 0; k < count; k++) {
            PyObject *d = device_dict(b, k, chosen);
            if (!d || PyList_Append(list, d)) {
                Py_XDECREF(d);
                Py_CLEAR(list);
                break;
            }
            Py_DECREF(d);
        }
    }
    return list;
}

/* check(path, device=None): what `rlx check` says, as a dict. */
static PyObject *py_check(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *kwlist[] = { "path", "device", NULL };
    PyObject *path_obj = NULL;
    const char *device = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O&|z", kwlist,
                                     PyUnicode_FSConverter, &path_obj,
                                     &device))
        return NULL;
    rlx_runtime *rt = rlxpy_runtime();
    if (!rt) {
        Py_DECREF(path_obj);
        return NULL;
    }
    const char *path = PyBytes_AS_STRING(path_obj);
    rlx_model *m = NULL;
    rlx_session *s = NULL;
    rlx_capability *cap = NULL;
    rlx_program *p = NULL;
    PyObject *res = NULL, *bad = NULL;
    rlx_status st = rlx_model_load(path, &m);
    if (st == RLX_OK)
        st = rlx_session_create(rt, device, &s);
    const rlx_graph *g = st == RLX_OK ? rlx_model_graph(m) : NULL;
    if (st == RLX_OK && !g)
        st = RLX_ERR_STATE;
    if (st == RLX_OK)
        st = rlx_capability_create(rlx_session_backend(s), g, &cap);
    if (st != RLX_OK) {
        rlxpy_raise(st, NULL);
        goto out;
    }
    bad = PyList_New(0);
    uint32_t nodes = bad ? rlx_capability_node_count(cap) : 0;
    for (uint32_t v = 0; v < nodes; v++) {
        int supported = 0;
        const char *why = NULL, *name = NULL;
        rlx_op op = 0;
        if (rlx_capability_node(cap, v, &supported, &why) != RLX_OK ||
            supported != 0)
            continue;
        rlx_graph_node(g, v, &name, &op);
        PyObject *row = Py_BuildValue("(sss)", name ? name : "",
                                      rlx_op_name(op), why ? why : "");
        if (!row || PyList_Append(bad, row)) {
            Py_XDECREF(row);
            Py_CLEAR(bad);
            break;
        }
        Py_DECREF(row);
    }
    if (!bad)
        goto out;
    /* Compiling says whether it runs, and where each node goes. */
    rlx_status cst = rlx_model_compile(m, s, &p);
    PyObject *err = cst == RLX_OK ? (Py_INCREF(Py_None), Py_None)
                                  : PyUnicode_FromString(rlx_last_error());
    const rlx_backend *b = p ? rlx_program_backend(p) : rlx_session_backend(s);
    char dev[160];
    snprintf(dev, sizeof dev, "%s:%u", rlx_backend_device_name(b),
             (unsigned)(p ? rlx_program_device_index(p)
                          : rlx_session_device_index(s)));
    res = PyDict_New();
    if (!err || !res ||
        put(res, "model", PyUnicode_FromString(path)) ||
        put(res, "format", PyUnicode_FromString(rlx_model_format(m))) ||
        put(res, "ok", PyBool_FromLong(cst == RLX_OK)) ||
        put(res, "backend", PyUnicode_FromString(rlx_backend_id(b))) ||
        put(res, "device", PyUnicode_FromString(dev)) ||
        put(res, "nodes", PyLong_FromUnsignedLong(rlx_graph_node_count(g))) ||
        PyDict_SetItemString(res, "unsupported", bad) ||
        put(res, "placement",
            str_or_none(p ? rlx_program_placement_summary(p) : NULL)) ||
        put(res, "explain", str_or_none(rlx_session_explain(s))) ||
        PyDict_SetItemString(res, "error", err))
        Py_CLEAR(res);
    Py_XDECREF(err);
out:
    Py_XDECREF(bad);
    rlx_program_destroy(p);
    rlx_capability_destroy(cap);
    rlx_session_destroy(s);
    rlx_model_destroy(m);
    Py_DECREF(path_obj);
    return res;
}

static PyObject *py_set_coerce(PyObject *self, PyObject *fn)
{
    (void)self;
    if (!PyCallable_Check(fn))
        return PyErr_Format(PyExc_TypeError, "_set_coerce wants a callable");
    Py_INCREF(fn);
    Py_XSETREF(rlxpy_coerce, fn);
    Py_RETURN_NONE;
}

static PyObject *py_set_host_copy(PyObject *self, PyObject *fn)
{
    (void)self;
    if (!PyCallable_Check(fn))
        return PyErr_Format(PyExc_TypeError,
                            "_set_host_copy wants a callable");
    Py_INCREF(fn);
    Py_XSETREF(rlxpy_host_copy, fn);
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    { "version", py_version, METH_NOARGS,
      "version() -> str\n\nThe version of librlx, e.g. '0.1.0'." },
    { "backends", py_backends, METH_NOARGS,
      "backends() -> list[dict]\n\nEvery registered backend, as `rlx devices` "
      "lists them: id, device, priority, executes, device_io, available, "
      "device_count, reason and fix (why it is unavailable and what to do; "
      "None when available), chosen, allowed, policy, plugin, "
      "description." },
    { "devices", py_devices, METH_NOARGS,
      "devices() -> list[dict]\n\nEvery device of every available executing "
      "backend: name ('cpu:0', usable as Session(device=...)), kind, index, "
      "backend, chosen (its backend is the one picked for its kind), "
      "description, type, memory_total, memory_free, detail." },
    { "check", (PyCFunction)(void (*)(void))py_check,
      METH_VARARGS | METH_KEYWORDS,
      "check(path, device=None) -> dict\n\nWhat `rlx check` reports: whether "
      "the model at PATH compiles on DEVICE (ok, error), the backend and "
      "device, the node count, the nodes the backend cannot run as (node, "
      "op, why) tuples, the placement summary and why that backend was "
      "chosen (explain). Raises rlx.Error when the model does not load." },
    { "from_dlpack", (PyCFunction)(void (*)(void))rlxpy_from_dlpack,
      METH_VARARGS | METH_KEYWORDS,
      "from_dlpack(obj, session) -> rlx.Tensor\n\nOBJ's memory (a DLPack "
      "tensor: torch, CuPy, JAX, rlx.Tensor; DLPack 1.x or unversioned) as "
      "an rlx.Tensor on SESSION's device, no copy; refused when the memory "
      "is not on that device." },
    { "_set_coerce", py_set_coerce, METH_O, NULL },
    { "_set_host_copy", py_set_host_copy, METH_O, NULL },
    { NULL, NULL, 0, NULL }
};

static struct PyModuleDef moddef = {
    PyModuleDef_HEAD_INIT, "rlx._rlx",
    "The C extension behind the rlx package (use `import rlx`).", -1,
    methods, NULL, NULL, NULL, NULL
};

static int add_errors(PyObject *mod)
{
    PyObject *dict = Py_BuildValue("{s:O,s:O}", "reason", Py_None, "fix",
                                   Py_None);
    if (!dict || PyDict_SetItemString(dict, "status", Py_None) ||
        PyDict_SetItemString(dict, "__doc__",
            PyUnicode_FromString(
                "Base of every rlx error. .reason: what is wrong; .fix: what "
                "to do (the text after 'Fix:'), or None; .status: the "
                "rlx_status name ('RLX_ERR_SHAPE').")) < 0) {
        Py_XDECREF(dict);
        return -1;
    }
    g_error = PyErr_NewException("rlx.Error", NULL, dict);
    Py_DECREF(dict);
    if (!g_error || PyModule_AddObjectRef(mod, "Error", g_error))
        return -1;
    for (size_t i = 0; i < sizeof error_table / sizeof *error_table; i++) {
        char qual[64];
        snprintf(qual, sizeof qual, "rlx.%s", error_table[i].name);
        PyObject *bases;
        if (error_table[i].also) {
            PyObject *also = PyDict_GetItemString(PyEval_GetBuiltins(),
                                                  error_table[i].also);
            bases = PyTuple_Pack(2, g_error, also);
        } else {
            bases = PyTuple_Pack(1, g_error);
        }
        PyObject *cls = bases ? PyErr_NewExceptionWithDoc(
                                    qual, error_table[i].doc, bases, NULL)
                              : NULL;
        Py_XDECREF(bases);
        if (!cls || PyModule_AddObjectRef(mod, error_table[i].name, cls)) {
            Py_XDECREF(cls);
            return -1;
        }
        g_errors[error_table[i].st] = cls; /* keeps the reference */
    }
    return 0;
}

PyMODINIT_FUNC PyInit__rlx(void)
{
    PyObject *mod = PyModule_Create(&moddef);
    if (!mod)
        return NULL;
    if (add_errors(mod) || rlxpy_session_ready(mod) ||
        rlxpy_graph_ready(mod) || rlxpy_tensor_ready(mod) ||
        rlxpy_runner_ready(mod)) {
        Py_DECREF(mod);
        return NULL;
    }
    return mod;
}
