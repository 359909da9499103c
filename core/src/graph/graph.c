/*
 * graph.c - building graphs: sources, op nodes, outputs. Each call checks
 * its arguments fully before it changes anything, so a failed call leaves
 * the graph exactly as it was.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph.h"

int64_t rlx__shape_elements(uint32_t rank, const int64_t *dims)
{
    /* The product of the non-zero dims must fit too: a zero dim must not
     * let [0, 9223372036854775807, 4] through as "no elements". */
    int64_t nonzero = 1;
    int empty = 0;
    for (uint32_t i = 0; i < rank; i++) {
        if (dims[i] < 0)
            return -1;
        if (dims[i] == 0) {
            empty = 1;
            continue;
        }
        if (nonzero > INT64_MAX / dims[i])
            return -1;
        nonzero *= dims[i];
    }
    return empty ? 0 : nonzero;
}

rlx_status rlx_graph_create(rlx_graph **out)
{
    if (!out)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "rlx_graph_create: OUT is NULL");
    *out = calloc(1, sizeof **out);
    if (!*out)
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    return RLX_OK;
}

static void node_free(rlx__node *n)
{
    free(n->name);
    free(n->inputs);
    free(n->ints);
    free(n->floats);
    free(n->data);
    rlx__custom_free(n->custom);
}

void rlx_graph_destroy(rlx_graph *g)
{
    if (!g)
        return;
    for (uint32_t i = 0; i < g->n_nodes; i++)
        node_free(&g->nodes[i]);
    for (uint32_t i = 0; i < g->n_outputs; i++)
        free(g->outputs[i].name);
    free(g->nodes);
    free(g->outputs);
    rlx__hash_free(&g->node_names);
    rlx__hash_free(&g->output_names);
    free(g);
}

/* Index the nodes added since the last call; 0 on out of memory. A scan
 * of every node per new name made a 100,000-node model take 20 s. */
static int index_nodes(rlx_graph *g)
{
    while (g->node_names.count < g->n_nodes) {
        uint32_t i = g->node_names.count;
        /* names are unique (checked below), so each add adds */
        if (rlx__hash_add(&g->node_names, g->nodes[i].name, i, NULL) < 0)
            return 0;
    }
    return 1;
}

rlx_status rlx__graph_check_name(rlx_graph *g, const char *name)
{
    if (!name || !*name)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "empty name. Fix: give inputs, params and "
                          "constants a name");
    if (strlen(name) > 255)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "name '%.40s...' is longer than 255 bytes. Fix: "
                          "use a shorter name", name);
    if (!index_nodes(g))
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    uint32_t at = 0;
    const rlx__node *n = rlx__hash_get(&g->node_names, name, &at)
                             ? &g->nodes[at]
                             : NULL;
    if (n)
        return rlx__error(RLX_ERR_DUPLICATE,
                          "the graph already has a node named '%s' (%s). "
                          "Fix: give each node a unique name",
                          name, rlx_op_name(n->op));
    return RLX_OK;
}

int rlx__graph_push(rlx_graph *g, const rlx__node *node)
{
    if (g->n_nodes == g->cap_nodes) {
        uint32_t cap = g->cap_nodes ? g->cap_nodes * 2 : 16;
        rlx__node *grown = realloc(g->nodes, cap * sizeof *grown);
        if (!grown)
            return 0;
        g->nodes = grown;
        g->cap_nodes = cap;
    }
    g->nodes[g->n_nodes++] = *node;
    return 1;
}

rlx_status rlx__shape_check(const char *name, rlx_dtype dtype,
                            uint32_t rank, const int64_t *dims,
                            size_t *nbytes)
{
    if (!rlx__dtype_is_known(dtype))
        return rlx__error(RLX_ERR_DTYPE,
                          "'%s': unknown dtype %d. Fix: use an RLX_DTYPE_* "
                          "value", name, (int)dtype);
    if (rank > RLX_MAX_RANK)
        return rlx__error(RLX_ERR_SHAPE,
                          "'%s': rank %u is above the limit of %d. Fix: "
                          "reshape to at most %d dimensions",
                          name, rank, RLX_MAX_RANK, RLX_MAX_RANK);
    if (rank > 0 && !dims)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "'%s': rank %u but DIMS is NULL", name, rank);
    for (uint32_t i = 0; i < rank; i++)
        if (dims[i] < 0)
            return rlx__error(RLX_ERR_SHAPE,
                              "'%s': dimension %u is negative (%lld). Fix: "
                              "dimensions are sizes, 0 or more",
                              name, i, (long long)dims[i]);
    int64_t n = rlx__shape_elements(rank, dims);
    size_t esize = rlx_dtype_size(dtype);
    uint64_t span = 1; /* the non-zero dims, which must fit in bytes too */
    for (uint32_t i = 0; n >= 0 && i < rank; i++)
        span *= dims[i] ? (uint64_t)dims[i] : 1;
    if (n < 0 || (uint64_t)n > SIZE_MAX / esize ||
        span > (uint64_t)INT64_MAX / esize)
        return rlx__error(RLX_ERR_SHAPE,
                          "'%s': the shape's size overflows. Fix: use "
                          "smaller dimensions", name);
    *nbytes = (size_t)n * esize;
    return RLX_OK;
}

static rlx_status add_source(rlx_graph *g, rlx_op op, const char *name,
                             rlx_dtype dtype, uint32_t rank,
                             const int64_t *dims, const void *data,
                             rlx_value *out)
{
    size_t nbytes = 0;
    if (out)
        *out = RLX_VALUE_NONE;
    if (!g || !out)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "rlx_graph_%s: graph or OUT is NULL",
                          rlx_op_name(op));
    rlx_status st = rlx__graph_check_name(g, name);
    if (st == RLX_OK)
        st = rlx__shape_check(name, dtype, rank, dims, &nbytes);
    if (st != RLX_OK)
        return st;
    if (op == RLX_OP_CONSTANT && nbytes > 0 && !data)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "constant '%s': DATA is NULL", name);

    rlx__node n = { .op = op, .dtype = dtype, .rank = rank };
    if (rank)
        memcpy(n.shape, dims, rank * sizeof *dims);
    n.name = rlx__strdup(name);
    if (op == RLX_OP_CONSTANT) {
        n.data = malloc(nbytes ? nbytes : 1);
        if (n.data && nbytes)
            memcpy(n.data, data, nbytes);
    }
    if (op == RLX_OP_INPUT)
        n.slot = g->n_inputs;
    if (op == RLX_OP_PARAM)
        n.slot = g->n_params;
    if (!n.name || (op == RLX_OP_CONSTANT && !n.data) ||
        !rlx__graph_push(g, &n)) {
        node_free(&n);
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    }
    g->n_inputs += op == RLX_OP_INPUT;
    g->n_params += op == RLX_OP_PARAM;
    *out = g->n_nodes - 1;
    return RLX_OK;
}

rlx_status rlx_graph_input(rlx_graph *g, const char *name, rlx_dtype dtype,
                           uint32_t rank, const int64_t *dims, rlx_value *out)
{
    return add_source(g, RLX_OP_INPUT, name, dtype, rank, dims, NULL, out);
}

rlx_status rlx_graph_param(rlx_graph *g, const char *name, rlx_dtype dtype,
                           uint32_t rank, const int64_t *dims, rlx_value *out)
{
    return add_source(g, RLX_OP_PARAM, name, dtype, rank, dims, NULL, out);
}

rlx_status rlx_graph_constant(rlx_graph *g, const char *name, rlx_dtype dtype,
                              uint32_t rank, const int64_t *dims,
                              const void *data, rlx_value *out)
{
    return add_source(g, RLX_OP_CONSTANT, name, dtype, rank, dims, data, out);
}

rlx_status rlx_graph_add_node(rlx_graph *g, const char *name, rlx_op op,
                              uint32_t n_inputs, const rlx_value *inputs,
                              const rlx_attrs *attrs, rlx_value *out)
{
    char auto_name[64];
    if (out)
        *out = RLX_VALUE_NONE;
    if (!g || !out || (n_inputs && !inputs))
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "rlx_graph_add_node: graph, OUT or INPUTS is NULL");
    if (attrs && ((attrs->n_ints && !attrs->ints) ||
                  (attrs->n_floats && !attrs->floats)))
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "rlx_graph_add_node: attribute counts without "
                          "arrays");
    if (!name) {
        snprintf(auto_name, sizeof auto_name, "%s_%u", rlx_op_name(op),
                 g->n_nodes);
        name = auto_name;
    }
    rlx_status st = rlx__graph_check_name(g, name);
    if (st != RLX_OK)
        return st;

    rlx__node n = { .op = op };
    st = rlx__shape_infer(g, name, op, n_inputs, inputs, attrs, &n);
    if (st != RLX_OK)
        return st;

    n.name = rlx__strdup(name);
    n.n_inputs = n_inputs;
    n.inputs = malloc((n_inputs ? n_inputs : 1) * sizeof *n.inputs);
    int ok = n.name && n.inputs;
    if (ok && n_inputs)
        memcpy(n.inputs, inputs, n_inputs * sizeof *inputs);
    if (ok && attrs && attrs->n_ints) {
        n.ints = malloc(attrs->n_ints * sizeof *n.ints);
        ok = n.ints != NULL;
        if (ok) {
            memcpy(n.ints, attrs->ints, attrs->n_ints * sizeof *n.ints);
            n.n_ints = attrs->n_ints;
        }
    }
    if (ok && attrs && attrs->n_floats) {
        n.floats = malloc(attrs->n_floats * sizeof *n.floats);
        ok = n.floats != NULL;
        if (ok) {
            memcpy(n.floats, attrs->floats,
                   attrs->n_floats * sizeof *n.floats);
            n.n_floats = attrs->n_floats;
        }
    }
    if (!ok || !rlx__graph_push(g, &n)) {
        node_free(&n);
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    }
    *out = g->n_nodes - 1;
    return RLX_OK;
}

rlx_status rlx_graph_output(rlx_graph *g, const char *name, rlx_value value)
{
    if (!g || !name || !*name)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "rlx_graph_output: graph or name missing. Fix: "
                          "name every output");
    if (value >= g->n_nodes)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "output '%s': value %u does not exist (the graph "
                          "has %u nodes)", name, value, g->n_nodes);
    while (g->output_names.count < g->n_outputs) { /* a clone's outputs */
        uint32_t i = g->output_names.count;
        if (rlx__hash_add(&g->output_names, g->outputs[i].name, i, NULL) < 0)
            return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    }
    if (rlx__hash_get(&g->output_names, name, NULL))
        return rlx__error(RLX_ERR_DUPLICATE,
                          "the graph already has an output named '%s'. "
                          "Fix: give each output a unique name", name);
    uint32_t n = g->n_outputs;
    rlx__output *grown = realloc(g->outputs, (n + 1) * sizeof *grown);
    if (!grown)
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    g->outputs = grown;
    char *copy = rlx__strdup(name);
    if (!copy || rlx__hash_add(&g->output_names, copy, n, NULL) < 0) {
        free(copy);
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    }
    g->outputs[g->n_outputs++] = (rlx__output){ .name = copy, .node = value };
    return RLX_OK;
}

uint32_t rlx_graph_node_count(const rlx_graph *g)
{
    return g ? g->n_nodes : 0;
}

rlx_status rlx_graph_value_shape(const rlx_graph *g, rlx_value v,
                                 rlx_dtype *dtype, uint32_t *rank,
                                 const int64_t **dims)
{
    if (!g || v >= g->n_nodes)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "rlx_graph_value_shape: no value %u", v);
    const rlx__node *n = &g->nodes[v];
    if (dtype)
        *dtype = n->dtype;
    if (rank)
        *rank = n->rank;
    if (dims)
        *dims = n->shape;
    return RLX_OK;
}

rlx_status rlx_graph_node(const rlx_graph *g, rlx_value v, const char **name,
                          rlx_op *op)
{
    if (name)
        *name = NULL;
    if (op)
        *op = RLX_OP_INVALID;
    if (!g || v >= g->n_nodes)
        return rlx__error(RLX_ERR_NOT_FOUND,
                          "rlx_graph_node: no node %u. Fix: pass a value "
                          "below rlx_graph_node_count", v);
    if (name)
        *name = g->nodes[v].name;
    if (op)
        *op = g->nodes[v].op;
    return RLX_OK;
}

/* ---- a private copy of the graph (programs that keep their own) ------ */

rlx_status rlx__graph_clone(const rlx_graph *g, rlx_graph **out)
{
    rlx_graph *c = calloc(1, sizeof *c);
    if (!c)
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    c->nodes = calloc(g->n_nodes + 1, sizeof *c->nodes);
    c->outputs = calloc(g->n_outputs + 1, sizeof *c->outputs);
    int ok = c->nodes && c->outputs;
    for (uint32_t i = 0; ok && i < g->n_nodes; i++) {
        const rlx__node *s = &g->nodes[i];
        rlx__node *d = &c->nodes[i];
        *d = *s;
        d->custom = NULL;
        d->name = rlx__strdup(s->name);
        d->inputs = malloc((s->n_inputs + 1) * sizeof *d->inputs);
        d->ints = s->n_ints ? malloc(s->n_ints * sizeof *d->ints) : NULL;
        d->floats = s->n_floats ? malloc(s->n_floats * sizeof *d->floats)
                                : NULL;
        size_t nbytes = s->data ? (size_t)rlx__shape_elements(s->rank,
                                                              s->shape) *
                                      rlx_dtype_size(s->dtype)
                                : 0;
        d->data = s->data ? malloc(nbytes + 1) : NULL;
        c->n_nodes = i + 1; /* so destroy frees what was copied */
        ok = d->name && d->inputs && (!s->n_ints || d->ints) &&
             (!s->n_floats || d->floats) && (!s->data || d->data);
        if (!ok)
            break;
        if (s->n_inputs)
            memcpy(d->inputs, s->inputs, s->n_inputs * sizeof *d->inputs);
        if (s->n_ints)
            memcpy(d->ints, s->ints, s->n_ints * sizeof *d->ints);
        if (s->n_floats)
            memcpy(d->floats, s->floats, s->n_floats * sizeof *d->floats);
        /* a custom node's spec: the program's own, prepared later */
        if (s->custom && !(d->custom = rlx__custom_dup(s->custom))) {
            ok = 0;
            break;
        }
        if (s->data && nbytes)
            memcpy(d->data, s->data, nbytes);
    }
    for (uint32_t i = 0; ok && i < g->n_outputs; i++) {
        c->outputs[i].node = g->outputs[i].node;
        c->outputs[i].name = rlx__strdup(g->outputs[i].name);
        c->n_outputs = i + 1;
        ok = c->outputs[i].name != NULL;
    }
    c->cap_nodes = c->n_nodes;
    c->n_inputs = g->n_inputs;
    c->n_params = g->n_params;
    if (!ok) {
        rlx_graph_destroy(c);
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    }
    *out = c;
    return RLX_OK;
}
