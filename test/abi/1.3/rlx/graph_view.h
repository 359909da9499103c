/*
 * rlx/graph_view.h - the read-only graph a backend receives in compile().
 *
 * The core validates the graph, infers every shape and dtype and removes
 * dead nodes before a backend sees it, so a backend may trust the shapes.
 * Everything here is borrowed for the duration of the compile() call: a
 * backend copies what it wants to keep.
 *
 * Nodes are reached through an array of pointers (not an array of
 * structs) so that rlx_node_view can grow without changing the stride an
 * older plugin indexes with.
 */
#ifndef RLX_GRAPH_VIEW_H
#define RLX_GRAPH_VIEW_H

#include <stdint.h>

#include "ops.h"
#include "types.h"

typedef struct rlx_node_view {
    uint32_t struct_size;
    /* --- since 1.0 --- */
    rlx_op op;
    const char *name;        /* unique within the graph, never NULL */
    rlx_dtype dtype;         /* of this node's result */
    uint32_t rank;
    const int64_t *shape;    /* rank entries, each >= 0 */
    uint32_t n_inputs;
    const uint32_t *inputs;  /* node indices, each smaller than this one */
    uint32_t n_int_attrs;
    const int64_t *int_attrs;
    uint32_t n_float_attrs;
    const double *float_attrs;
    const void *data;        /* CONSTANT: row-major elements; else NULL */
    uint32_t slot;           /* INPUT/PARAM: index among inputs/params */
} rlx_node_view;

typedef struct rlx_graph_view {
    uint32_t struct_size;
    /* --- since 1.0 --- */
    uint32_t n_nodes;
    const rlx_node_view *const *nodes; /* topologically ordered */
    uint32_t n_inputs;
    const uint32_t *inputs;            /* node index of input slot i */
    uint32_t n_params;
    const uint32_t *params;            /* node index of param slot i */
    uint32_t n_outputs;
    const uint32_t *outputs;           /* node index of output i */
} rlx_graph_view;

#endif /* RLX_GRAPH_VIEW_H */
