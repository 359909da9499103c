/*
 * onnx_function.c - model-local functions (ModelProto.functions) expanded
 * before the checks: every node whose (domain, op_type) names a function
 * of the model is replaced by a copy of the function's body. Formal
 * inputs and outputs become the call's names (an absent optional input
 * stays absent), every other name of the body gets a prefix unique to the
 * call site, attribute references (ref_attr_name) take the caller's value
 * or the function's default, and nested calls expand in turn up to a
 * depth limit (so recursion is refused). The body's nodes keep the
 * function's own default-domain opset, which the walker asks for per
 * node (rlx__onnx_node_opset). The expanded node lists replace the
 * graphs' own for the model's lifetime; the proto's arrays come back
 * before it is freed, and everything made here lives in one arena.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "onnx.h"

#define FN_MAX_DEPTH 32 /* nested calls: deeper is taken as recursion */
#define FN_MAX_NODES (1u << 20) /* nodes of one expanded graph */
#define FN_MAX_CALLS (1u << 20) /* call sites expanded in the model */

typedef struct swapped {
    Onnx__GraphProto *g;
    Onnx__NodeProto **node;
    size_t n_node;
} swapped;

typedef struct node_opset {
    const Onnx__NodeProto *n;
    int64_t opset;
} node_opset;

struct rlx__onnx_fnx {
    void **allocs;          /* the arena: every block made here */
    size_t n_allocs, cap_allocs;
    swapped *sw;            /* graphs whose node list was replaced */
    size_t n_sw, cap_sw;
    node_opset *ops;        /* body nodes, sorted by pointer */
    size_t n_ops, cap_ops;
    Onnx__AttributeProto **decoded; /* attribute_proto defaults used */
    size_t n_decoded, cap_decoded;
    uint32_t calls;         /* call sites so far: the unique prefixes */
};

/* A growing list of expanded nodes. */
typedef struct node_vec {
    Onnx__NodeProto **v;
    size_t n, cap;
} node_vec;

typedef struct fn_ctx {
    const char *what;
    rlx__onnx_model *m;
    rlx__onnx_fnx *x;
    node_vec out;
} fn_ctx;

static rlx_status oom(void)
{
    return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
}

static void *grow(void *p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return p;
    size_t c = *cap ? *cap : 8;
    while (c < need)
        c *= 2;
    void *q = realloc(p, c * elem);
    if (q)
        *cap = c;
    return q;
}

static void *arena(rlx__onnx_fnx *x, size_t nb)
{
    void **a = grow(x->allocs, &x->cap_allocs, x->n_allocs + 1, sizeof *a);
    if (!a)
        return NULL;
    x->allocs = a;
    void *p = calloc(1, nb ? nb : 1);
    if (p)
        x->allocs[x->n_allocs++] = p;
    return p;
}

static char *arena_cat(rlx__onnx_fnx *x, const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    char *s = arena(x, la + lb + 1);
    if (s) {
        memcpy(s, a, la);
        memcpy(s + la, b, lb + 1);
    }
    return s;
}

static int default_domain(const char *d)
{
    return !d || !*d || strcmp(d, "ai.onnx") == 0;
}

static int same_domain(const char *a, const char *b)
{
    if (default_domain(a) || default_domain(b))
        return default_domain(a) && default_domain(b);
    return strcmp(a, b) == 0;
}

static const char *str(const char *s)
{
    return s ? s : "";
}

/* Fields newer than Debian's onnx.proto (1.12) arrive as unknown fields:
 * FunctionProto.attribute_proto (11) and overload (13), NodeProto's
 * overload (8). The first length-prefixed field TAG of M, or NULL. */
#define TAG_FN_ATTRIBUTE_PROTO 11
#define TAG_FN_OVERLOAD 13
#define TAG_NODE_OVERLOAD 8

static const ProtobufCMessageUnknownField *
unknown(const ProtobufCMessage *m, uint32_t tag, unsigned *from)
{
    for (; *from < m->n_unknown_fields; (*from)++) {
        const ProtobufCMessageUnknownField *u = &m->unknown_fields[*from];
        if (u->tag == tag &&
            u->wire_type == PROTOBUF_C_WIRE_TYPE_LENGTH_PREFIXED)
            return u;
    }
    return NULL;
}

/* The payload of length-prefixed field U: protobuf-c keeps the varint
 * length in front of it. 0, or -1 when it does not add up. */
static int payload(const ProtobufCMessageUnknownField *u,
                   const uint8_t **data, size_t *len)
{
    uint64_t v = 0;
    size_t i = 0;
    for (; i < u->len && i < 10; i++) {
        v |= (uint64_t)(u->data[i] & 0x7f) << (7 * i);
        if (!(u->data[i] & 0x80))
            break;
    }
    if (i >= u->len || i == 10 || v != u->len - i - 1)
        return -1;
    *data = u->data + i + 1;
    *len = (size_t)v;
    return 0;
}

static int same_overload(const Onnx__FunctionProto *f,
                         const Onnx__NodeProto *n)
{
    unsigned i = 0, k = 0;
    const ProtobufCMessageUnknownField *a =
        unknown(&f->base, TAG_FN_OVERLOAD, &i);
    const ProtobufCMessageUnknownField *b =
        unknown(&n->base, TAG_NODE_OVERLOAD, &k);
    const uint8_t *da = NULL, *db = NULL;
    size_t la = 0, lb = 0;
    if ((a && payload(a, &da, &la)) || (b && payload(b, &db, &lb)))
        return 0;
    return la == lb && (!la || memcmp(da, db, la) == 0);
}

static const Onnx__FunctionProto *find_fn(const rlx__onnx_model *m,
                                          const Onnx__NodeProto *n)
{
    const Onnx__ModelProto *p = m->proto;
    if (!n->op_type)
        return NULL;
    for (size_t i = 0; i < p->n_functions; i++) {
        const Onnx__FunctionProto *f = p->functions[i];
        if (f->name && strcmp(f->name, n->op_type) == 0 &&
            same_domain(f->domain, n->domain) && same_overload(f, n))
            return f;
    }
    return NULL;
}

static int has_graph(const Onnx__NodeProto *n)
{
    for (size_t a = 0; a < n->n_attribute; a++)
        if (n->attribute[a]->g || n->attribute[a]->n_graphs)
            return 1;
    return 0;
}

static rlx_status push(fn_ctx *c, Onnx__NodeProto *n)
{
    node_vec *o = &c->out;
    if (o->n >= FN_MAX_NODES)
        return rlx__error(RLX_ERR_UNSUPPORTED,
                          "%s: expanding the model's functions makes more "
                          "than %u nodes in one graph. Fix: check the "
                          "model's function calls", c->what, FN_MAX_NODES);
    Onnx__NodeProto **v = grow(o->v, &o->cap, o->n + 1, sizeof *v);
    if (!v)
        return oom();
    o->v = v;
    o->v[o->n++] = n;
    return RLX_OK;
}

static rlx_status note_opset(rlx__onnx_fnx *x, const Onnx__NodeProto *n,
                             int64_t opset)
{
    node_opset *v = grow(x->ops, &x->cap_ops, x->n_ops + 1, sizeof *v);
    if (!v)
        return oom();
    x->ops = v;
    x->ops[x->n_ops++] = (node_opset){ n, opset };
    return RLX_OK;
}

/* The function's default-domain opset, or the caller's. */
static rlx_status fn_opset(fn_ctx *c, const Onnx__FunctionProto *f,
                           int64_t caller, int64_t *out)
{
    *out = caller;
    for (size_t i = 0; i < f->n_opset_import; i++) {
        const Onnx__OperatorSetIdProto *o = f->opset_import[i];
        if (default_domain(o->domain))
            *out = o->has_version ? o->version : 0;
    }
    if (*out < RLX__ONNX_OPSET_MIN || *out > RLX__ONNX_OPSET_MAX)
        return rlx__error(RLX_ERR_UNSUPPORTED,
                          "%s: function '%s' imports opset %lld of the "
                          "default domain; rlx takes %d to %d. Fix: convert "
                          "the model (onnx.version_converter) or re-export "
                          "it", c->what, str(f->name), (long long)*out,
                          RLX__ONNX_OPSET_MIN, RLX__ONNX_OPSET_MAX);
    return RLX_OK;
}

/* Look NAME up in the function's formals: the index, or -1. */
static int formal(char *const *list, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (list[i] && strcmp(list[i], name) == 0)
            return (int)i;
    return -1;
}

/* A body name at call CALL: the caller's name for a formal, else the
 * call site's unique one. */
static char *bind_name(fn_ctx *c, const Onnx__FunctionProto *f,
                       const Onnx__NodeProto *call, const char *prefix,
                       const char *name)
{
    if (!name || !*name)
        return (char *)"";
    int k = formal(f->input, f->n_input, name);
    if (k >= 0)
        return (size_t)k < call->n_input && call->input[k]
                   ? call->input[k] : (char *)"";
    k = formal(f->output, f->n_output, name);
    if (k >= 0 && (size_t)k < call->n_output && call->output[k] &&
        *call->output[k])
        return call->output[k];
    return arena_cat(c->x, prefix, name);
}

static const Onnx__AttributeProto *attr_named(Onnx__AttributeProto *const *a,
                                              size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (a[i]->name && strcmp(a[i]->name, name) == 0)
            return a[i];
    return NULL;
}

/* The function's default for attribute NAME (an attribute_proto entry),
 * or NULL. Decoded entries stay with the expansion. */
static const Onnx__AttributeProto *fn_default(rlx__onnx_fnx *x,
                                              const Onnx__FunctionProto *f,
                                              const char *name)
{
    const ProtobufCMessageUnknownField *u;
    for (unsigned i = 0;
         (u = unknown(&f->base, TAG_FN_ATTRIBUTE_PROTO, &i)) != NULL; i++) {
        const uint8_t *d;
        size_t len;
        if (payload(u, &d, &len))
            continue;
        Onnx__AttributeProto *a = onnx__attribute_proto__unpack(NULL, len, d);
        if (!a)
            continue;
        if (a->name && strcmp(a->name, name) == 0) {
            Onnx__AttributeProto **v = grow(x->decoded, &x->cap_decoded,
                                            x->n_decoded + 1, sizeof *v);
            if (!v) {
                onnx__attribute_proto__free_unpacked(a, NULL);
                return NULL;
            }
            x->decoded = v;
            x->decoded[x->n_decoded++] = a;
            return a;
        }
        onnx__attribute_proto__free_unpacked(a, NULL);
    }
    return NULL;
}

/* Body node B's attributes for call CALL into DST; *N the count. */
static rlx_status bind_attrs(fn_ctx *c, const Onnx__FunctionProto *f,
                             const Onnx__NodeProto *call,
                             const Onnx__NodeProto *b,
                             Onnx__AttributeProto **dst, size_t *n)
{
    *n = 0;
    for (size_t i = 0; i < b->n_attribute; i++) {
        Onnx__AttributeProto *a = b->attribute[i];
        if (!a->ref_attr_name || !*a->ref_attr_name) {
            dst[(*n)++] = a;
            continue;
        }
        const char *ref = a->ref_attr_name;
        const Onnx__AttributeProto *v =
            attr_named(call->attribute, call->n_attribute, ref);
        if (!v)
            v = fn_default(c->x, f, ref);
        if (!v) {
            if (formal(f->attribute, f->n_attribute, ref) >= 0)
                continue; /* declared, not given: the op's default */
            return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                              "%s: node '%s' of function '%s' refers to "
                              "attribute '%s', which the call '%s' does "
                              "not give and the function neither declares "
                              "nor defaults. Fix: give the attribute at "
                              "the call or declare it in the function",
                              c->what, str(b->name), str(f->name), ref,
                              str(call->name));
        }
        Onnx__AttributeProto *copy = arena(c->x, sizeof *copy);
        if (!copy)
            return oom();
        *copy = *v;
        copy->name = a->name;
        copy->ref_attr_name = NULL;
        dst[(*n)++] = copy;
    }
    return RLX_OK;
}

static rlx_status expand_call(fn_ctx *c, const Onnx__NodeProto *call,
                              const Onnx__FunctionProto *f, int64_t opset,
                              int depth);

/* Node N (an expanded body node or a graph's own) into the output: a
 * call expands, anything else stays, noting OPSET when it is not the
 * model's. */
static rlx_status emit(fn_ctx *c, Onnx__NodeProto *n, int64_t opset,
                       int depth)
{
    const Onnx__FunctionProto *f = find_fn(c->m, n);
    if (f)
        return expand_call(c, n, f, opset, depth + 1);
    rlx_status st = push(c, n);
    if (st == RLX_OK && opset != c->m->opset)
        st = note_opset(c->x, n, opset);
    return st;
}

static rlx_status expand_call(fn_ctx *c, const Onnx__NodeProto *call,
                              const Onnx__FunctionProto *f, int64_t opset,
                              int depth)
{
    if (depth > FN_MAX_DEPTH)
        return rlx__error(RLX_ERR_UNSUPPORTED,
                          "%s: function '%s' is called more than %d deep "
                          "(at node '%s'): it calls itself, directly or "
                          "through other functions. Fix: ONNX functions "
                          "cannot recurse; unroll it in the model",
                          c->what, str(f->name), FN_MAX_DEPTH,
                          str(call->name));
    if (call->n_input > f->n_input || call->n_output > f->n_output)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "%s: node '%s' calls function '%s' with %zu "
                          "inputs and %zu outputs; it has %zu and %zu. "
                          "Fix: the model is damaged; re-export it",
                          c->what, str(call->name), str(f->name),
                          call->n_input, call->n_output, f->n_input,
                          f->n_output);
    if (c->x->calls >= FN_MAX_CALLS) /* calls fanning out, bodies empty */
        return rlx__error(RLX_ERR_UNSUPPORTED,
                          "%s: expanding the model's functions takes more "
                          "than %u calls (function '%s'). Fix: check the "
                          "model's function calls", c->what, FN_MAX_CALLS,
                          str(f->name));
    int64_t body_opset;
    rlx_status st = fn_opset(c, f, opset, &body_opset);
    if (st != RLX_OK)
        return st;
    char prefix[96];
    snprintf(prefix, sizeof prefix, "%.60s/%u/", str(f->name),
             ++c->x->calls);
    for (size_t i = 0; i < f->n_node; i++) {
        const Onnx__NodeProto *b = f->node[i];
        if (has_graph(b))
            return rlx__error(RLX_ERR_UNSUPPORTED,
                              "%s: node '%s' (%s) of function '%s' has a "
                              "subgraph; rlx does not expand control flow "
                              "inside functions. Fix: inline the function "
                              "(onnx.inliner.inline_local_functions)",
                              c->what, str(b->name), str(b->op_type),
                              str(f->name));
        Onnx__NodeProto *n = arena(c->x, sizeof *n);
        char **in = arena(c->x, (b->n_input + 1) * sizeof *in);
        char **out = arena(c->x, (b->n_output + 1) * sizeof *out);
        Onnx__AttributeProto **at =
            arena(c->x, (b->n_attribute + 1) * sizeof *at);
        if (!n || !in || !out || !at)
            return oom();
        *n = *b;
        /* an unnamed body node is named by its op within the call */
        n->name = arena_cat(c->x, prefix,
                            b->name && *b->name ? b->name : str(b->op_type));
        n->input = in;
        n->output = out;
        if (!n->name)
            return oom();
        for (size_t k = 0; k < b->n_input; k++)
            if (!(in[k] = bind_name(c, f, call, prefix, b->input[k])))
                return oom();
        for (size_t k = 0; k < b->n_output; k++)
            if (!(out[k] = bind_name(c, f, call, prefix, b->output[k])))
                return oom();
        n->attribute = at;
        if ((st = bind_attrs(c, f, call, b, at, &n->n_attribute)) != RLX_OK)
            return st;
        if ((st = emit(c, n, body_opset, depth)) != RLX_OK)
            return st;
    }
    return RLX_OK;
}

/* Expand the calls among G's nodes, and in its subgraphs. */
static rlx_status expand_graph(fn_ctx *c, Onnx__GraphProto *g, int depth)
{
    if (depth > RLX__ONNX_MAX_DEPTH)
        return RLX_OK; /* refused by the depth check that follows */
    int any = 0;
    for (size_t i = 0; i < g->n_node; i++) {
        const Onnx__NodeProto *n = g->node[i];
        for (size_t a = 0; a < n->n_attribute; a++) {
            Onnx__AttributeProto *at = n->attribute[a];
            rlx_status st = RLX_OK;
            if (at->g)
                st = expand_graph(c, at->g, depth + 1);
            for (size_t k = 0; st == RLX_OK && k < at->n_graphs; k++)
                st = expand_graph(c, at->graphs[k], depth + 1);
            if (st != RLX_OK)
                return st;
        }
        any |= find_fn(c->m, n) != NULL;
    }
    if (!any)
        return RLX_OK;
    c->out.n = 0;
    for (size_t i = 0; i < g->n_node; i++) {
        rlx_status st = emit(c, g->node[i], c->m->opset, 0);
        if (st != RLX_OK)
            return st;
    }
    rlx__onnx_fnx *x = c->x;
    Onnx__NodeProto **nodes = arena(x, c->out.n * sizeof *nodes);
    swapped *sw = grow(x->sw, &x->cap_sw, x->n_sw + 1, sizeof *sw);
    if (sw)
        x->sw = sw;
    if (!nodes || !sw)
        return oom();
    if (c->out.n)
        memcpy(nodes, c->out.v, c->out.n * sizeof *nodes);
    x->sw[x->n_sw++] = (swapped){ g, g->node, g->n_node };
    g->node = nodes;
    g->n_node = c->out.n;
    return RLX_OK;
}

static int by_node(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t)((const node_opset *)a)->n;
    uintptr_t y = (uintptr_t)((const node_opset *)b)->n;
    return x < y ? -1 : x > y;
}

rlx_status rlx__onnx_functions_expand(const char *what, rlx__onnx_model *m)
{
    const Onnx__ModelProto *p = m->proto;
    if (!p->n_functions || !p->graph)
        return RLX_OK;
    for (size_t i = 0; i < p->n_functions; i++)
        if (!p->functions[i]->name || !*p->functions[i]->name)
            return rlx__error(RLX_ERR_FORMAT,
                              "%s: local function %zu has no name. Fix: "
                              "the model is damaged; re-export it", what, i);
    if (!(m->fnx = calloc(1, sizeof *m->fnx)))
        return oom();
    fn_ctx c = { what, m, m->fnx, { 0 } };
    rlx_status st = expand_graph(&c, p->graph, 1);
    free(c.out.v);
    if (st == RLX_OK && m->fnx->n_ops)
        qsort(m->fnx->ops, m->fnx->n_ops, sizeof *m->fnx->ops, by_node);
    return st;
}

int64_t rlx__onnx_node_opset(const rlx__onnx_model *m,
                             const Onnx__NodeProto *n)
{
    const rlx__onnx_fnx *x = m->fnx;
    if (!x || !x->n_ops)
        return m->opset;
    node_opset key = { n, 0 };
    const node_opset *hit =
        bsearch(&key, x->ops, x->n_ops, sizeof key, by_node);
    return hit ? hit->opset : m->opset;
}

void rlx__onnx_functions_free(rlx__onnx_model *m)
{
    rlx__onnx_fnx *x = m->fnx;
    if (!x)
        return;
    /* the proto frees its own node lists: give them back, last first */
    for (size_t i = x->n_sw; i-- > 0;) {
        x->sw[i].g->node = x->sw[i].node;
        x->sw[i].g->n_node = x->sw[i].n_node;
    }
    for (size_t i = 0; i < x->n_allocs; i++)
        free(x->allocs[i]);
    free(x->allocs);
    for (size_t i = 0; i < x->n_decoded; i++)
        onnx__attribute_proto__free_unpacked(x->decoded[i], NULL);
    free(x->decoded);
    free(x->sw);
    free(x->ops);
    free(x);
    m->fnx = NULL;
}
