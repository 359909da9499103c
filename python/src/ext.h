/*
 * ext.h - what the files of the rlx Python extension (rlx._rlx) share:
 * the process-wide runtime, the exception classes and the helpers that
 * turn an rlx_status and rlx_last_error() into a Python exception.
 * Only the public C API (rlx/rlx.h) is used; NumPy is reached through
 * Python calls, so the extension does not depend on NumPy's C ABI.
 */
#ifndef RLX_PY_EXT_H
#define RLX_PY_EXT_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <rlx/rlx.h>

/* The runtime every session of the process shares (created on first
 * use, under the GIL; never destroyed, as sessions may outlive the
 * module object at interpreter exit). NULL with an exception set when it
 * cannot be created. */
rlx_runtime *rlxpy_runtime(void);

/* Raise the exception class for ST with rlx_last_error() (or MSG when
 * not NULL) as its message; returns NULL. */
PyObject *rlxpy_raise(rlx_status st, const char *msg);
/* Raise the class for ST with a formatted message that ends in a Fix. */
PyObject *rlxpy_raisef(rlx_status st, const char *fmt, ...);

/* Split MSG at its "Fix:" into a (reason, fix) pair of str (fix None
 * when there is none). */
PyObject *rlxpy_reason_fix(const char *msg);

/* NumPy's name for an rlx dtype ("float32"), or NULL. */
const char *rlxpy_numpy_dtype(rlx_dtype dt);
/* A shape tuple from DIMS. */
PyObject *rlxpy_shape(uint32_t rank, const int64_t *dims);

/* The module's numpy, imported on first use (borrowed). */
PyObject *rlxpy_numpy(void);
/* rlx._coerce, registered by rlx/__init__.py (borrowed; may be NULL). */
extern PyObject *rlxpy_coerce;
/* rlx._host_copy: a device tensor of another library as a host array,
 * for programs on another device (borrowed; may be NULL). */
extern PyObject *rlxpy_host_copy;

extern PyTypeObject rlxpy_session_type;
int rlxpy_session_ready(PyObject *module);
/* shapes={'x': (1, 3, 224, 224)} onto MODEL's inputs before it compiles
 * (-1 with an exception set; MODEL NULL: not a model file) */
int rlxpy_model_set_shapes(rlx_model *model, PyObject *shapes);
/* fallback=None|'split'|'whole'|'none'; GIVEN says whether one was */
int rlxpy_parse_fallback(PyObject *o, rlx_fallback *out, int *given);

/* rlx.Graph (graph.c): its rlx_graph and its dict of param arrays. */
extern PyTypeObject rlxpy_graph_type;
int rlxpy_graph_ready(PyObject *module);
rlx_graph *rlxpy_graph_handle(PyObject *graph);
PyObject *rlxpy_graph_params(PyObject *graph);

/* rlx.Runner's C half (runner.c). */
extern PyTypeObject rlxpy_runner_type;
int rlxpy_runner_ready(PyObject *module);

/* rlx.Tensor (tensor.c). */
extern PyTypeObject rlxpy_tensor_type;
int rlxpy_tensor_ready(PyObject *module);
/* The rlx_tensor of an rlx.Tensor (borrowed), or NULL for other objects. */
rlx_tensor *rlxpy_tensor_handle(PyObject *obj);
/* A new rlx.Tensor owning T (destroyed if that fails). */
PyObject *rlxpy_tensor_new(rlx_tensor *t);
/* Wrap OBJ's DLPack tensor (on device KIND; DLPack 1.x asked for, the
 * unversioned capsule taken too) as a tensor of P with no copy; *READONLY
 * (may be NULL) says the producer marked it read-only. RLX_OK; an rlx
 * error (device mismatch: RLX_ERR_UNSUPPORTED) with no Python exception,
 * so the caller may copy instead; or another status with a Python
 * exception set. */
rlx_status rlxpy_tensor_import(rlx_program *p, PyObject *obj, int32_t kind,
                               rlx_tensor **out, int *readonly);
/* rlx.from_dlpack(obj, session) (tensor.c). */
PyObject *rlxpy_from_dlpack(PyObject *mod, PyObject *args, PyObject *kw);

/* Does the buffer format FMT hold DT in native byte order (run.c)? */
int rlxpy_format_matches(const char *fmt, Py_ssize_t itemsize,
                         rlx_dtype dt);
/* The rlx dtype a buffer holds, or RLX_DTYPE_INVALID. */
rlx_dtype rlxpy_dtype_of_buffer(const Py_buffer *v);

#endif
