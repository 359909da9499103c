/*
 * kit_attrs.h - plugin kit: a node's attributes with their defaults,
 * reading only what the node view's struct_size says the core filled.
 *
 * Not ABI (see kit.h): header-only over graph_view.h.
 */
#ifndef RLX_KIT_ATTRS_H
#define RLX_KIT_ATTRS_H

#include "abi.h"
#include "graph_view.h"

/* How many integer / float attributes V carries (0 for a view too old
 * to have them or a NULL array). */
static inline uint32_t rlx_kit_n_int_attrs(const rlx_node_view *v)
{
    return RLX_HAS_FIELD(v->struct_size, rlx_node_view, int_attrs) &&
                   v->int_attrs
               ? v->n_int_attrs
               : 0;
}

static inline uint32_t rlx_kit_n_float_attrs(const rlx_node_view *v)
{
    return RLX_HAS_FIELD(v->struct_size, rlx_node_view, float_attrs) &&
                   v->float_attrs
               ? v->n_float_attrs
               : 0;
}

/* Integer attribute I of V, or DEF when V has fewer. */
static inline int64_t rlx_kit_int_attr(const rlx_node_view *v, uint32_t i,
                                       int64_t def)
{
    return i < rlx_kit_n_int_attrs(v) ? v->int_attrs[i] : def;
}

/* Float attribute I of V, or DEF when V has fewer. */
static inline double rlx_kit_float_attr(const rlx_node_view *v, uint32_t i,
                                        double def)
{
    return i < rlx_kit_n_float_attrs(v) ? v->float_attrs[i] : def;
}

/* A node's input J as a view (J < v->n_inputs; the graph is the one V
 * belongs to). */
static inline const rlx_node_view *rlx_kit_input(const rlx_graph_view *g,
                                                 const rlx_node_view *v,
                                                 uint32_t j)
{
    return g->nodes[v->inputs[j]];
}

#endif /* RLX_KIT_ATTRS_H */
