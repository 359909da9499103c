/*
 * onnx_walk.h - the walker's scope and state, shared by its two halves:
 * onnx_walk.c (nodes, subgraphs, the whole model) and onnx_walk_stage.c
 * (a model's run-time stages).
 */
#ifndef RLX_ONNX_WALK_H
#define RLX_ONNX_WALK_H

#include "onnx.h"

struct rlx__onnx_scope {
    rlx__onnx_scope *parent;
    const Onnx__GraphProto *gp;  /* its outputs */
    const Onnx__NodeProto *const *nodes;
    uint32_t n_nodes, pos;       /* pos: the node being walked */
    uint32_t depth;
    rlx__onnx_names names;
    rlx__onnx_val *vals;
    size_t n_vals;
    rlx__onnx_tensor *inits;     /* a subgraph's decoded initializers */
    uint32_t n_inits;
    char **report;               /* the top scope: per node, or NULL */
    rlx__onnx_qdq *qdq;          /* the top scope: its QDQ groups */
};

struct rlx__onnx_walk {
    rlx__onnx_model *m;
    rlx__onnx_ctx c;             /* c.g: the current stage's graph */
    rlx__onnx_folder f;
    rlx_session *s;              /* run time; NULL while lowering */
    rlx__onnx_stages *stages;    /* run time: compiled stages */
    rlx__onnx_val **seg_in;      /* run-time values fed to the stage */
    uint32_t n_seg_in, cap_seg_in;
};

/* NAME as SCOPE or an outer scope sees it, or NULL */
rlx__onnx_val *rlx__onnx_scope_lookup(rlx__onnx_scope *s, const char *name);
/* V, known only at run time, as an input of the current stage's graph */
rlx_status rlx__onnx_walk_rt_input(rlx__onnx_walk *w, rlx__onnx_val *v);
/* a malloc'ed copy of NB bytes at D (NULL when out of memory) */
void *rlx__onnx_dup_bytes(const void *d, size_t nb);

#endif
