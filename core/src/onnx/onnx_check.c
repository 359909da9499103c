/*
 * onnx_check.c - what a ModelProto must satisfy before lowering: IR and
 * opset versions rlx knows, operators of domains it can run, every name
 * produced once and defined before use (no cycle), declared input types
 * and shapes rlx can hold, bounded subgraph nesting. Each refusal names
 * the node or tensor and says what to do.
 */
#include <stdlib.h>
#include <string.h>

#include "onnx.h"

/* ---- a small string table -------------------------------------------- */

static uint32_t hash(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

rlx_status rlx__onnx_names_init(rlx__onnx_names *t, size_t n)
{
    uint32_t cap = 16;
    while (cap < 2 * n + 1 && cap < (1u << 30))
        cap <<= 1;
    t->cap = cap;
    t->keys = calloc(cap, sizeof *t->keys);
    t->vals = calloc(cap, sizeof *t->vals);
    if (!t->keys || !t->vals) {
        rlx__onnx_names_free(t);
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    }
    return RLX_OK;
}

void rlx__onnx_names_free(rlx__onnx_names *t)
{
    free(t->keys);
    free(t->vals);
    t->keys = NULL;
    t->vals = NULL;
    t->cap = 0;
}

int32_t rlx__onnx_names_get(const rlx__onnx_names *t, const char *key)
{
    if (!t->cap)
        return -1;
    for (uint32_t i = hash(key) & (t->cap - 1);; i = (i + 1) & (t->cap - 1)) {
        if (!t->keys[i])
            return -1;
        if (strcmp(t->keys[i], key) == 0)
            return t->vals[i];
    }
}

int rlx__onnx_names_put(rlx__onnx_names *t, const char *key, int32_t val)
{
    for (uint32_t i = hash(key) & (t->cap - 1);; i = (i + 1) & (t->cap - 1)) {
        if (!t->keys[i]) {
            t->keys[i] = key;
            t->vals[i] = val;
            return 0;
        }
        if (strcmp(t->keys[i], key) == 0)
            return 1;
    }
}

/* ---- versions and domains -------------------------------------------- */

static int default_domain(const char *d)
{
    return !d || !*d || strcmp(d, "ai.onnx") == 0;
}

static rlx_status check_domain(const char *what, const Onnx__NodeProto *n)
{
    if (default_domain(n->domain))
        return RLX_OK;
    const char *name = n->name && *n->name ? n->name : "(unnamed)";
    if (strcmp(n->domain, "ai.onnx.ml") == 0)
        return rlx__error(RLX_ERR_UNSUPPORTED,
                          "%s: node '%s' (%s) is in the ai.onnx.ml domain, "
                          "which rlx does not support. Fix: export the "
                          "model without classic-ML operators", what, name,
                          n->op_type ? n->op_type : "?");
    return rlx__error(RLX_ERR_UNSUPPORTED,
                      "%s: node '%s' (%s) is in custom domain '%s', and no "
                      "kernel is registered for it. Fix: export the model "
                      "with standard ONNX operators only", what, name,
                      n->op_type ? n->op_type : "?", n->domain);
}

/* Subgraphs (If/Loop/Scan bodies) nested at most RLX__ONNX_MAX_DEPTH. */
static rlx_status check_depth(const char *what, const Onnx__GraphProto *g,
                              int depth)
{
    if (depth > RLX__ONNX_MAX_DEPTH)
        return rlx__error(RLX_ERR_UNSUPPORTED,
                          "%s: subgraphs are nested more than %d deep "
                          "(graph '%s'). Fix: flatten the model's control "
                          "flow", what, RLX__ONNX_MAX_DEPTH,
                          g->name ? g->name : "(unnamed)");
    for (size_t i = 0; i < g->n_node; i++) {
        const Onnx__NodeProto *n = g->node[i];
        for (size_t a = 0; a < n->n_attribute; a++) {
            const Onnx__AttributeProto *at = n->attribute[a];
            rlx_status st = RLX_OK;
            if (at->g)
                st = check_depth(what, at->g, depth + 1);
            for (size_t k = 0; st == RLX_OK && k < at->n_graphs; k++)
                st = check_depth(what, at->graphs[k], depth + 1);
            if (st != RLX_OK)
                return st;
        }
    }
    return RLX_OK;
}

static rlx_status check_versions(const char *what, rlx__onnx_model *m)
{
    const Onnx__ModelProto *p = m->proto;
    if (!p->has_ir_version || p->ir_version < RLX__ONNX_IR_MIN ||
        p->ir_version > RLX__ONNX_IR_MAX)
        return rlx__error(RLX_ERR_UNSUPPORTED,
                          "%s: ONNX IR version %lld%s; rlx takes %d to %d. "
                          "Fix: convert the model (onnx.version_converter) "
                          "or re-export it with a supported IR version",
                          what, (long long)p->ir_version,
                          p->has_ir_version ? "" : " (missing)",
                          RLX__ONNX_IR_MIN, RLX__ONNX_IR_MAX);
    m->opset = -1;
    for (size_t i = 0; i < p->n_opset_import; i++) {
        const Onnx__OperatorSetIdProto *o = p->opset_import[i];
        if (default_domain(o->domain))
            m->opset = o->has_version ? o->version : 0;
    }
    if (m->opset < 0)
        return rlx__error(RLX_ERR_FORMAT,
                          "%s: the model imports no opset of the default "
                          "ONNX domain. Fix: re-export it (opset_import "
                          "must name the ai.onnx version)", what);
    if (m->opset < RLX__ONNX_OPSET_MIN || m->opset > RLX__ONNX_OPSET_MAX)
        return rlx__error(RLX_ERR_UNSUPPORTED,
                          "%s: opset %lld of the default domain; rlx takes "
                          "%d to %d. Fix: convert the model "
                          "(onnx.version_converter.convert_version)", what,
                          (long long)m->opset, RLX__ONNX_OPSET_MIN,
                          RLX__ONNX_OPSET_MAX);
    if (!p->graph)
        return rlx__error(RLX_ERR_FORMAT,
                          "%s: the model has no graph. Fix: check that the "
                          "file is a whole ONNX model", what);
    rlx_status st = rlx__onnx_functions_expand(what, m);
    if (st != RLX_OK)
        return st;
    return check_depth(what, p->graph, 1);
}

/* ---- inputs ----------------------------------------------------------- */

static rlx_status check_input(const char *what, const Onnx__ValueInfoProto *vi,
                              rlx__onnx_input *in)
{
    const char *name = vi->name;
    in->name = name;
    const Onnx__TypeProto *tp = vi->type;
    if (!tp || tp->value_case != ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE ||
        !tp->tensor_type)
        return rlx__error(RLX_ERR_UNSUPPORTED,
                          "%s: input '%s' is not a tensor (sequences, maps "
                          "and optionals are not supported). Fix: export "
                          "the model with tensor inputs", what, name);
    const Onnx__TypeProto__Tensor *tt = tp->tensor_type;
    in->dtype = rlx__onnx_dtype(tt->elem_type);
    if (in->dtype == RLX_DTYPE_INVALID)
        return rlx__error(RLX_ERR_UNSUPPORTED,
                          "%s: input '%s' has element type %s, which rlx "
                          "does not have. Fix: export it as float, double, "
                          "float16, bfloat16, an integer type of 8 to 64 "
                          "bits or bool", what, name,
                          rlx__onnx_type_name(tt->elem_type));
    if (!tt->shape)
        return rlx__error(RLX_ERR_UNSUPPORTED,
                          "%s: input '%s' declares no shape (not even its "
                          "rank). Fix: export the model with input shapes "
                          "(dynamic axes may stay symbolic)", what, name);
    if (tt->shape->n_dim > RLX_MAX_RANK)
        return rlx__error(RLX_ERR_UNSUPPORTED,
                          "%s: input '%s' has rank %zu; rlx takes at most "
                          "%d. Fix: reshape the input", what, name,
                          tt->shape->n_dim, RLX_MAX_RANK);
    in->rank = (uint32_t)tt->shape->n_dim;
    for (uint32_t i = 0; i < in->rank; i++) {
        const Onnx__TensorShapeProto__Dimension *d = tt->shape->dim[i];
        in->decl[i] = -1;
        if (d->value_case ==
            ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE) {
            if (d->dim_value < 0)
                return rlx__error(RLX_ERR_SHAPE,
                                  "%s: input '%s' dimension %u is %lld. "
                                  "Fix: dimensions are >= 0 or symbolic",
                                  what, name, i, (long long)d->dim_value);
            in->decl[i] = d->dim_value;
        } else if (d->value_case ==
                   ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM) {
            in->sym[i] = d->dim_param;
        }
        /* a symbolic or unknown dim is 1 until the application sets it */
        in->dims[i] = in->decl[i] >= 0 ? in->decl[i] : 1;
    }
    if (rlx__onnx_elements(in->rank, in->dims) < 0) {
        char sb[160];
        return rlx__error(RLX_ERR_SHAPE,
                          "%s: input '%s' has shape %s, more than %lld "
                          "elements. Fix: check the model's input shapes",
                          what, name,
                          rlx__shape_str(sb, sizeof sb, in->rank, in->dims),
                          (long long)RLX__ONNX_MAX_ELEMENTS);
    }
    return RLX_OK;
}

/* ---- names, order ----------------------------------------------------- */

static const char *node_name(const Onnx__NodeProto *n)
{
    return n->name && *n->name ? n->name
           : n->n_output && n->output[0] ? n->output[0] : "(unnamed)";
}

/* The top-level nodes that node SELF's subgraphs read (their outer
 * names), each passed to EDGE: a Loop body reading a value must come
 * after the node making it. Depth is bounded by check_depth. */
static void outer_reads(const rlx__onnx_names *prod,
                        const Onnx__GraphProto *g, uint32_t self,
                        void (*edge)(void *, uint32_t, uint32_t), void *ctx)
{
    for (size_t i = 0; i < g->n_node; i++) {
        const Onnx__NodeProto *n = g->node[i];
        for (size_t k = 0; k < n->n_input; k++) {
            int32_t p = n->input[k] && *n->input[k]
                            ? rlx__onnx_names_get(prod, n->input[k]) : -1;
            if (p >= 0 && (uint32_t)p != self)
                edge(ctx, (uint32_t)p, self);
        }
        for (size_t a = 0; a < n->n_attribute; a++) {
            const Onnx__AttributeProto *at = n->attribute[a];
            if (at->g)
                outer_reads(prod, at->g, self, edge, ctx);
            for (size_t k = 0; k < at->n_graphs; k++)
                outer_reads(prod, at->graphs[k], self, edge, ctx);
        }
    }
    for (size_t i = 0; i < g->n_output; i++) {
        const char *o = g->output[i]->name;
        int32_t p = o && *o ? rlx__onnx_names_get(prod, o) : -1;
        if (p >= 0 && (uint32_t)p != self)
            edge(ctx, (uint32_t)p, self);
    }
}

static void node_outer_reads(const rlx__onnx_names *prod,
                             const Onnx__NodeProto *n, uint32_t self,
                             void (*edge)(void *, uint32_t, uint32_t),
                             void *ctx)
{
    for (size_t a = 0; a < n->n_attribute; a++) {
        const Onnx__AttributeProto *at = n->attribute[a];
        if (at->g)
            outer_reads(prod, at->g, self, edge, ctx);
        for (size_t k = 0; k < at->n_graphs; k++)
            outer_reads(prod, at->graphs[k], self, edge, ctx);
    }
}

typedef struct edge_set {
    uint32_t *pending, *ucount, *ustart, *users;
    size_t n;
} edge_set;

static void edge_count(void *ctx, uint32_t from, uint32_t to)
{
    edge_set *e = ctx;
    e->pending[to]++;
    e->ucount[from]++;
    e->n++;
}

static void edge_fill(void *ctx, uint32_t from, uint32_t to)
{
    edge_set *e = ctx;
    e->users[e->ustart[from] + e->ucount[from]++] = to;
}

/* Kahn's algorithm over the producer table: every input of a node must
 * be an input, an initializer or another node's output; a node with
 * subgraphs comes after the nodes making the outer names they read. */
static rlx_status order_nodes(const char *what, rlx__onnx_model *m,
                              rlx__onnx_names *prod)
{
    const Onnx__GraphProto *g = m->proto->graph;
    size_t nn = g->n_node;
    uint32_t *pending = calloc(nn ? nn : 1, sizeof *pending);
    uint32_t *queue = calloc(nn ? nn : 1, sizeof *queue);
    /* users: CSR of node -> nodes using its outputs */
    uint32_t *ucount = calloc(nn + 1, sizeof *ucount);
    size_t edges = 0;
    rlx_status st = RLX_OK;
    if (!pending || !queue || !ucount)
        goto oom;
    for (size_t i = 0; i < nn; i++) {
        const Onnx__NodeProto *n = g->node[i];
        for (size_t k = 0; k < n->n_input; k++) {
            const char *in = n->input[k];
            if (!in || !*in)
                continue; /* an optional input left out */
            int32_t p = rlx__onnx_names_get(prod, in);
            if (p == -1) {
                st = rlx__error(RLX_ERR_NOT_FOUND,
                                "%s: node '%s' (%s) reads '%s', which no "
                                "input, initializer or node makes. Fix: "
                                "the model is damaged; re-export it",
                                what, node_name(n),
                                n->op_type ? n->op_type : "?", in);
                goto done;
            }
            if (p >= 0) {
                pending[i]++;
                ucount[p]++;
                edges++;
            }
        }
        edge_set e = { pending, ucount, NULL, NULL, 0 };
        node_outer_reads(prod, n, (uint32_t)i, edge_count, &e);
        edges += e.n;
    }
    uint32_t *ustart = calloc(nn + 1, sizeof *ustart);
    uint32_t *users = calloc(edges ? edges : 1, sizeof *users);
    if (!ustart || !users) {
        free(ustart);
        free(users);
        goto oom;
    }
    for (size_t i = 0; i < nn; i++)
        ustart[i + 1] = ustart[i] + ucount[i];
    memset(ucount, 0, (nn + 1) * sizeof *ucount);
    for (size_t i = 0; i < nn; i++) {
        const Onnx__NodeProto *n = g->node[i];
        for (size_t k = 0; k < n->n_input; k++) {
            const char *in = n->input[k];
            int32_t p = in && *in ? rlx__onnx_names_get(prod, in) : -1;
            if (p >= 0)
                users[ustart[p] + ucount[p]++] = (uint32_t)i;
        }
        edge_set e = { pending, ucount, ustart, users, 0 };
        node_outer_reads(prod, n, (uint32_t)i, edge_fill, &e);
    }
    size_t head = 0, tail = 0;
    for (size_t i = 0; i < nn; i++)
        if (!pending[i])
            queue[tail++] = (uint32_t)i;
    m->nodes = calloc(nn ? nn : 1, sizeof *m->nodes);
    if (!m->nodes) {
        free(ustart);
        free(users);
        goto oom;
    }
    while (head < tail) {
        uint32_t i = queue[head++];
        m->nodes[m->n_nodes++] = g->node[i];
        for (uint32_t u = ustart[i]; u < ustart[i + 1]; u++)
            if (--pending[users[u]] == 0)
                queue[tail++] = users[u];
    }
    free(ustart);
    free(users);
    if (m->n_nodes != nn) {
        const Onnx__NodeProto *stuck = NULL;
        for (size_t i = 0; i < nn && !stuck; i++)
            if (pending[i])
                stuck = g->node[i];
        st = rlx__error(RLX_ERR_FORMAT,
                        "%s: the graph has a cycle through node '%s' (%s). "
                        "Fix: an ONNX graph must be acyclic; re-export "
                        "the model", what, node_name(stuck),
                        stuck->op_type ? stuck->op_type : "?");
    }
    goto done;
oom:
    st = rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
done:
    free(pending);
    free(queue);
    free(ucount);
    return st;
}

rlx_status rlx__onnx_check_model(const char *what, rlx__onnx_model *m)
{
    rlx_status st = check_versions(what, m);
    if (st != RLX_OK)
        return st;
    const Onnx__GraphProto *g = m->proto->graph;
    for (size_t i = 0; i < g->n_node; i++) {
        const Onnx__NodeProto *n = g->node[i];
        if (!n->op_type || !*n->op_type)
            return rlx__error(RLX_ERR_FORMAT,
                              "%s: node %zu ('%s') has no op_type. Fix: "
                              "the model is damaged; re-export it", what, i,
                              node_name(n));
        if ((st = check_domain(what, n)) != RLX_OK)
            return st;
    }
    if (g->n_sparse_initializer)
        return rlx__error(RLX_ERR_UNSUPPORTED,
                          "%s: the graph has sparse initializers, which rlx "
                          "does not support. Fix: store them dense", what);
    /* producers: -2 inputs and initializers, else the node index */
    rlx__onnx_names prod = { 0 };
    size_t total = g->n_input + g->n_initializer;
    for (size_t i = 0; i < g->n_node; i++)
        total += g->node[i]->n_output;
    if ((st = rlx__onnx_names_init(&prod, total)) != RLX_OK)
        return st;
    m->inits = calloc(g->n_initializer ? g->n_initializer : 1,
                      sizeof *m->inits);
    m->inputs = calloc(g->n_input ? g->n_input : 1, sizeof *m->inputs);
    if (!m->inits || !m->inputs) {
        st = rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < g->n_initializer; i++) {
        const Onnx__TensorProto *t = g->initializer[i];
        if (!t->name || !*t->name) {
            st = rlx__error(RLX_ERR_FORMAT,
                            "%s: initializer %zu has no name. Fix: the "
                            "model is damaged; re-export it", what, i);
            goto done;
        }
        if (rlx__onnx_names_put(&prod, t->name, -2)) {
            st = rlx__error(RLX_ERR_DUPLICATE,
                            "%s: two initializers are named '%s'. Fix: the "
                            "model is damaged; re-export it", what, t->name);
            goto done;
        }
        st = rlx__onnx_tensor_decode(what, m, t, &m->inits[m->n_inits]);
        if (st != RLX_OK)
            goto done;
        m->n_inits++;
    }
    for (size_t i = 0; i < g->n_input; i++) {
        const Onnx__ValueInfoProto *vi = g->input[i];
        if (!vi->name || !*vi->name) {
            st = rlx__error(RLX_ERR_FORMAT,
                            "%s: graph input %zu has no name. Fix: the "
                            "model is damaged; re-export it", what, i);
            goto done;
        }
        /* IR < 4 lists initializers among the inputs: they stay weights */
        if (rlx__onnx_names_get(&prod, vi->name) == -2)
            continue;
        if ((st = check_input(what, vi, &m->inputs[m->n_inputs])) != RLX_OK)
            goto done;
        if (rlx__onnx_names_put(&prod, vi->name, -3)) {
            st = rlx__error(RLX_ERR_DUPLICATE,
                            "%s: two graph inputs are named '%s'. Fix: the "
                            "model is damaged; re-export it", what,
                            vi->name);
            goto done;
        }
        m->n_inputs++;
    }
    for (size_t i = 0; i < g->n_node; i++) {
        const Onnx__NodeProto *n = g->node[i];
        for (size_t k = 0; k < n->n_output; k++) {
            const char *o = n->output[k];
            if (!o || !*o)
                continue;
            if (rlx__onnx_names_put(&prod, o, (int32_t)i)) {
                st = rlx__error(RLX_ERR_DUPLICATE,
                                "%s: node '%s' (%s) makes '%s', which is "
                                "already defined. Fix: every name in an "
                                "ONNX graph is assigned once; re-export the "
                                "model", what, node_name(n), n->op_type, o);
                goto done;
            }
        }
    }
    for (size_t i = 0; i < g->n_output; i++) {
        const char *o = g->output[i]->name;
        if (!o || rlx__onnx_names_get(&prod, o) == -1) {
            st = rlx__error(RLX_ERR_NOT_FOUND,
                            "%s: graph output '%s' is made by no node, "
                            "input or initializer. Fix: the model is "
                            "damaged; re-export it", what, o ? o : "");
            goto done;
        }
    }
    st = order_nodes(what, m, &prod);
done:
    rlx__onnx_names_free(&prod);
    return st;
}
