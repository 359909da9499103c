/*
 * session.h - what session.c (the Session type) and run.c (its run
 * method) share: the object's layout, its lock and the closed check.
 */
#ifndef RLX_PY_SESSION_H
#define RLX_PY_SESSION_H

#include "ext.h"

#include <pythread.h>

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

/* Raise rlx.StateError and return -1 when SELF is closed; else 0. */
int rlxpy_session_closed_error(session_obj *self);
/* Take SELF's lock, letting other threads run while waiting. */
void rlxpy_session_lock(session_obj *self);
/* Session.run (run.c). */
PyObject *rlxpy_session_run(session_obj *self, PyObject *args, PyObject *kw);

#endif
