/*
 * onnx_walk.c - the walker: lowers a graph and its subgraphs node by node
 * in scopes (a subgraph sees its outer names), and, at run time, drives a
 * model in stages. While lowering at load, a node that needs run-time
 * data (an If on a run-time condition, Loop, Scan, an op whose result
 * size depends on data) stops it: the model then runs through
 * rlx__onnx_exec. There each such node ends the current stage: the graph
 * lowered so far is compiled on the session (the usual path: placement,
 * fallback), run, and every value used later comes back to the host; the
 * node runs on the host (onnx_control.c, onnx_host.c) and the next stage
 * starts with those values as its graph inputs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "onnx.h"
#include "onnx_walk.h"

rlx_session *rlx__onnx_walk_session(const rlx__onnx_walk *w)
{
    return w->s;
}

rlx__onnx_ctx *rlx__onnx_walk_ctx(rlx__onnx_walk *w)
{
    return &w->c;
}

size_t rlx__onnx_val_bytes(const rlx__onnx_val *v)
{
    int64_t n = rlx__onnx_elements(v->rank, v->dims);
    return n < 0 ? 0 : (size_t)n * rlx_dtype_size(v->dtype);
}

rlx__onnx_val *rlx__onnx_scope_lookup(rlx__onnx_scope *s, const char *name)
{
    for (; s; s = s->parent) {
        int32_t i = rlx__onnx_names_get(&s->names, name);
        if (i >= 0)
            return &s->vals[i];
    }
    return NULL;
}

static void scope_free(rlx__onnx_scope *s)
{
    rlx__onnx_qdq_free(s->qdq);
    for (size_t i = 0; s->vals && i < s->n_vals; i++)
        free(s->vals[i].owned);
    free(s->vals);
    for (uint32_t i = 0; i < s->n_inits; i++)
        free(s->inits[i].owned);
    free(s->inits);
    rlx__onnx_names_free(&s->names);
}

/* Names and values of graph GP (a subgraph) under PARENT. */
static rlx_status scope_init(rlx__onnx_walk *w, rlx__onnx_scope *s,
                             rlx__onnx_scope *parent,
                             const Onnx__GraphProto *gp)
{
    memset(s, 0, sizeof *s);
    s->parent = parent;
    s->gp = gp;
    s->depth = parent ? parent->depth + 1 : 0;
    s->nodes = (const Onnx__NodeProto *const *)gp->node;
    s->n_nodes = (uint32_t)gp->n_node;
    if (s->depth > RLX__ONNX_MAX_DEPTH)
        return rlx__onnx_fail(&w->c, RLX_ERR_UNSUPPORTED,
                              "subgraphs are nested more than %d deep. Fix: "
                              "flatten the model's control flow",
                              RLX__ONNX_MAX_DEPTH);
    size_t total = gp->n_input + gp->n_initializer;
    for (size_t i = 0; i < gp->n_node; i++) {
        const Onnx__NodeProto *n = gp->node[i];
        /* what the loader checks of the top graph's nodes */
        if (!n->op_type || !*n->op_type)
            return rlx__onnx_fail(&w->c, RLX_ERR_FORMAT,
                                  "node %zu of its subgraph '%s' has no "
                                  "op_type. Fix: the model is damaged; "
                                  "re-export it", i, gp->name ? gp->name
                                                              : "");
        if (n->domain && *n->domain && strcmp(n->domain, "ai.onnx") != 0)
            return rlx__onnx_fail(&w->c, RLX_ERR_UNSUPPORTED,
                                  "its subgraph's node %zu (%s) is in "
                                  "domain '%s', which rlx does not "
                                  "support. Fix: export the model with "
                                  "standard ONNX operators only", i,
                                  n->op_type, n->domain);
        total += n->n_output;
    }
    s->n_vals = total;
    rlx_status st = rlx__onnx_names_init(&s->names, total);
    if (st != RLX_OK)
        return st;
    s->vals = calloc(total ? total : 1, sizeof *s->vals);
    s->inits = calloc(gp->n_initializer ? gp->n_initializer : 1,
                      sizeof *s->inits);
    if (!s->vals || !s->inits)
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    uint32_t nv = 0;
    for (size_t i = 0; i < gp->n_initializer; i++) {
        rlx__onnx_tensor *t = &s->inits[s->n_inits];
        if ((st = rlx__onnx_tensor_decode(w->m->proto->graph->name
                                              ? w->m->proto->graph->name
                                              : "subgraph",
                                          w->m, gp->initializer[i], t)) !=
            RLX_OK)
            return st;
        s->n_inits++;
        rlx__onnx_val *v = &s->vals[nv];
        v->name = t->name;
        v->known = 1;
        v->dtype = t->dtype;
        v->rank = t->rank;
        memcpy(v->dims, t->dims, sizeof v->dims);
        v->data = t->data; /* a constant: the top graph's params only */
        rlx__onnx_names_put(&s->names, t->name, (int32_t)nv++);
    }
    for (size_t i = 0; i < gp->n_input; i++) {
        const char *nm = gp->input[i]->name ? gp->input[i]->name : "";
        s->vals[nv].name = nm;
        rlx__onnx_names_put(&s->names, nm, (int32_t)nv++);
    }
    for (size_t i = 0; i < gp->n_node; i++)
        for (size_t k = 0; k < gp->node[i]->n_output; k++) {
            const char *o = gp->node[i]->output[k];
            if (o && *o) {
                s->vals[nv].name = o;
                rlx__onnx_names_put(&s->names, o, (int32_t)nv++);
            }
        }
    return RLX_OK;
}

/* ---- nodes ----------------------------------------------------------- */

static int all_known(rlx__onnx_val **in, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (in[i] && !in[i]->known)
            return 0;
    return 1;
}

/* A host op (onnx_host.c): folded when its inputs are known, else run
 * on the host at run time. */
static rlx_status host_node(rlx__onnx_walk *w, rlx__onnx_scope *s,
                            rlx__onnx_val **in, uint32_t n_in,
                            rlx__onnx_val *out, uint32_t n_out, char **rep)
{
    int known = all_known(in, n_in);
    rlx_status st;
    if (!known && !w->s) {
        w->c.needs_runtime = 1;
        return rlx__onnx_fail(&w->c, RLX_ERR_UNSUPPORTED,
                              "its result size depends on run-time data, "
                              "so the model runs in stages. Fix: compile "
                              "it with rlx_model_compile");
    }
    if (!known && (st = rlx__onnx_walk_flush(w, s)) != RLX_OK)
        return st;
    if ((st = rlx__onnx_host_op(&w->c, in, n_in, out, n_out, known)) !=
        RLX_OK)
        return st;
    *rep = rlx__strdup(known ? "constant (computed on the host)"
                             : "a host step between stages");
    return RLX_OK;
}

/* An ONNX node lowered into the stage's graph. One that needs an
 * input's value (a Reshape's shape, Range's limit computed from data)
 * ends the stage at run time: its small inputs (rank 0 or 1, at most
 * VALUE_MAX elements) become known host values, and it is lowered again
 * into the next stage. While lowering at load that makes the model one
 * that runs in stages. */
#define VALUE_MAX 1024

static rlx_status lower_plain(rlx__onnx_walk *w, rlx__onnx_scope *s,
                              rlx__onnx_val **in, uint32_t n_in,
                              rlx__onnx_val *out, uint32_t n_out, char **rep)
{
    rlx_status st = RLX_OK;
    for (int attempt = 0;; attempt++) {
        for (uint32_t i = 0; i < n_in && st == RLX_OK; i++)
            if (in[i])
                st = rlx__onnx_walk_rt_input(w, in[i]);
        w->c.needs_value = 0;
        if (st == RLX_OK)
            st = rlx__onnx_lower_node(&w->c, &w->f, in, n_in, out, n_out,
                                      rep);
        if (st == RLX_OK || !w->c.needs_value || attempt)
            return st;
        if (!w->s) {
            w->c.needs_runtime = 1;
            return st;
        }
        /* what the failed attempt made goes; the stage ends */
        for (uint32_t i = 0; i < n_out; i++) {
            const char *nm = out[i].name;
            free(out[i].owned);
            memset(&out[i], 0, sizeof out[i]);
            out[i].name = nm;
        }
        w->c.needs_value = 0;
        if ((st = rlx__onnx_walk_flush(w, s)) != RLX_OK)
            return st;
        int any = 0;
        for (uint32_t i = 0; i < n_in; i++) {
            rlx__onnx_val *v = in[i];
            if (v && v->rt && v->rank <= 1 &&
                rlx__onnx_elements(v->rank, v->dims) <= VALUE_MAX) {
                v->rt = 0;
                v->known = 1;
                any = 1;
            }
        }
        if (!any)
            return rlx__onnx_fail(&w->c, RLX_ERR_UNSUPPORTED,
                                  "it needs the value of an input that is "
                                  "not a small shape argument (rank 0 or "
                                  "1, at most %d elements). Fix: compute "
                                  "that argument from shapes or constants "
                                  "in the model", VALUE_MAX);
    }
}

static rlx_status walk_node(rlx__onnx_walk *w, rlx__onnx_scope *s,
                            char **rep)
{
    const Onnx__NodeProto *n = s->nodes[s->pos];
    uint32_t n_in = (uint32_t)n->n_input, n_out = (uint32_t)n->n_output;
    rlx__onnx_val **in = calloc(n_in ? n_in : 1, sizeof *in);
    rlx__onnx_val *out = calloc(n_out ? n_out : 1, sizeof *out);
    rlx_status st = RLX_OK;
    int64_t opset = w->c.opset; /* a function's body has its own */
    w->c.node = n;
    w->c.opset = rlx__onnx_node_opset(w->m, n);
    if (!in || !out) {
        st = rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
        goto done;
    }
    for (uint32_t i = 0; i < n_in; i++) {
        const char *nm = n->input[i];
        if (!nm || !*nm)
            continue;
        if (!(in[i] = rlx__onnx_scope_lookup(s, nm))) {
            st = rlx__onnx_fail(&w->c, RLX_ERR_NOT_FOUND,
                                "it reads '%s', which no input, "
                                "initializer or node of its graph or an "
                                "enclosing one makes. Fix: the model is "
                                "damaged; re-export it", nm);
            goto done;
        }
    }
    for (uint32_t i = 0; i < n_out; i++)
        out[i].name = n->output[i];
    if (rlx__onnx_is_control(n->op_type)) {
        st = rlx__onnx_control(w, s, in, n_in, out, n_out);
        if (st == RLX_OK)
            *rep = rlx__strdup(strcmp(n->op_type, "If") == 0
                                   ? "the chosen branch, inlined"
                                   : "a host loop over its body's stages");
    } else if (rlx__onnx_is_host_op(n->op_type)) {
        st = host_node(w, s, in, n_in, out, n_out, rep);
    } else {
        st = lower_plain(w, s, in, n_in, out, n_out, rep);
    }
    if (st != RLX_OK)
        goto done;
    for (uint32_t i = 0; i < n_out; i++) {
        const char *nm = n->output[i];
        if (!nm || !*nm)
            continue;
        rlx__onnx_val *dst = &s->vals[rlx__onnx_names_get(&s->names, nm)];
        free(dst->owned);
        *dst = out[i];
        out[i].owned = NULL;
    }
done:
    /* a node with no outputs still had one slot a lowering may fill */
    if (out)
        for (uint32_t i = 0; i < (n_out ? n_out : 1); i++)
            free(out[i].owned);
    free(out);
    free(in);
    w->c.opset = opset;
    return st;
}

/* What onnx_qdq_lower.c needs of the walker: values by name (a run-time
 * one becomes a stage input), their slots, and node I lowered as usual. */
typedef struct group_env {
    rlx__onnx_walk *w;
    rlx__onnx_scope *s;
} group_env;

static rlx_status group_get(void *arg, const char *name, rlx__onnx_val **out)
{
    group_env *e = arg;
    if (!(*out = rlx__onnx_scope_lookup(e->s, name)))
        return rlx__onnx_fail(&e->w->c, RLX_ERR_NOT_FOUND,
                              "it reads '%s', which nothing makes. Fix: the "
                              "model is damaged; re-export it", name);
    return rlx__onnx_walk_rt_input(e->w, *out);
}

static rlx__onnx_val *group_slot(void *arg, const char *name)
{
    return rlx__onnx_scope_lookup(((group_env *)arg)->s, name);
}

static rlx_status group_node(void *arg, uint32_t i, char **rep)
{
    group_env *e = arg;
    uint32_t at = e->s->pos;
    e->s->pos = i;
    rlx_status st = walk_node(e->w, e->s, rep);
    e->s->pos = at;
    return st;
}

static rlx_status walk(rlx__onnx_walk *w, rlx__onnx_scope *s)
{
    for (s->pos = 0; s->pos < s->n_nodes; s->pos++) {
        char *rep = NULL;
        int role = rlx__onnx_qdq_role(s->qdq, s->pos);
        if (role == RLX__QDQ_DEFER)
            continue; /* lowered with its group, or at its anchor */
        group_env e = { w, s };
        rlx__onnx_qdq_env env = { group_get, group_slot, group_node, &e };
        rlx_status st =
            role == RLX__QDQ_ANCHOR
                ? rlx__onnx_qdq_walk(&w->c, &w->f, s->qdq, s->pos, &env,
                                     s->report, &rep)
                : walk_node(w, s, &rep);
        if (st != RLX_OK) {
            free(rep);
            return st;
        }
        if (role == RLX__QDQ_PLAIN)
            rep = rlx__onnx_qdq_prefix(rlx__onnx_qdq_why(s->qdq, s->pos),
                                       rep);
        if (s->report)
            s->report[s->pos] = rep;
        else
            free(rep);
    }
    /* a member fused away says what it was folded into */
    for (uint32_t i = 0; s->report && i < s->n_nodes; i++)
        if (!s->report[i] && rlx__onnx_qdq_why(s->qdq, i))
            s->report[i] = rlx__strdup(rlx__onnx_qdq_why(s->qdq, i));
    return RLX_OK;
}

rlx_status rlx__onnx_walk_subgraph(rlx__onnx_walk *w, rlx__onnx_scope *parent,
                                   const Onnx__GraphProto *gp,
                                   rlx__onnx_val *const *bind,
                                   uint32_t n_bind, rlx__onnx_val *outs,
                                   int to_host)
{
    const Onnx__NodeProto *at = w->c.node;
    rlx__onnx_scope s;
    rlx_status st = scope_init(w, &s, parent, gp);
    if (st == RLX_OK && n_bind != gp->n_input)
        st = rlx__onnx_fail(&w->c, RLX_ERR_INVALID_ARGUMENT,
                            "its subgraph '%s' has %zu inputs; %u are "
                            "given. Fix: the model is damaged; re-export it",
                            gp->name ? gp->name : "", gp->n_input, n_bind);
    for (uint32_t i = 0; st == RLX_OK && i < n_bind; i++) {
        rlx__onnx_val *v = &s.vals[rlx__onnx_names_get(&s.names,
                                                       s.vals[s.n_inits + i]
                                                           .name)];
        const char *nm = v->name;
        *v = *bind[i];
        v->name = nm;
        v->owned = NULL; /* borrowed from the caller */
        v->param = NULL;
    }
    if (st == RLX_OK)
        st = walk(w, &s);
    w->c.node = at;
    /* a run-time body hands its outputs back as host data */
    if (st == RLX_OK && w->s && to_host) {
        s.pos = s.n_nodes;
        st = rlx__onnx_walk_flush(w, &s);
    }
    for (size_t i = 0; st == RLX_OK && i < gp->n_output; i++) {
        const char *nm = gp->output[i]->name ? gp->output[i]->name : "";
        rlx__onnx_val *v = rlx__onnx_scope_lookup(&s, nm);
        if (!v || (!v->known && !v->rt && !v->has_v)) {
            st = rlx__onnx_fail(&w->c, RLX_ERR_NOT_FOUND,
                                "its subgraph's output '%s' is not "
                                "computed. Fix: the model is damaged; "
                                "re-export it", nm);
            break;
        }
        const char *keep = outs[i].name;
        outs[i] = *v;
        outs[i].name = keep;
        outs[i].param = NULL;
        if (v >= s.vals && v < s.vals + s.n_vals)
            v->owned = NULL; /* moved */
        else
            outs[i].owned = NULL;
        /* data the scope or a bound input holds goes with them: a copy */
        if (!outs[i].owned && (outs[i].known || outs[i].rt)) {
            outs[i].owned = rlx__onnx_dup_bytes(outs[i].data, rlx__onnx_val_bytes(v));
            outs[i].data = outs[i].owned;
            if (!outs[i].owned)
                st = rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
        }
    }
    scope_free(&s);
    return st;
}

/* ---- the whole model ------------------------------------------------- */

/* The top scope: initializers (params), inputs (graph inputs while
 * lowering; run-time data IN at run time; fixed values known), nodes in
 * topological order. */
static rlx_status top_init(rlx__onnx_walk *w, rlx__onnx_scope *s,
                           const rlx__onnx_host *in)
{
    const rlx__onnx_model *m = w->m;
    memset(s, 0, sizeof *s);
    s->gp = m->proto->graph;
    s->nodes = m->nodes;
    s->n_nodes = m->n_nodes;
    rlx_status st = rlx__onnx_qdq_find(m, &s->qdq);
    if (st != RLX_OK)
        return st;
    size_t total = m->n_inputs + m->n_inits;
    for (uint32_t i = 0; i < m->n_nodes; i++)
        total += m->nodes[i]->n_output;
    s->n_vals = total;
    if ((st = rlx__onnx_names_init(&s->names, total)) != RLX_OK)
        return st;
    if (!(s->vals = calloc(total ? total : 1, sizeof *s->vals)))
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    uint32_t nv = 0, k = 0;
    for (uint32_t i = 0; i < m->n_inits; i++) {
        const rlx__onnx_tensor *t = &m->inits[i];
        rlx__onnx_val *v = &s->vals[nv];
        v->name = t->name;
        v->known = 1;
        v->dtype = t->dtype;
        v->rank = t->rank;
        memcpy(v->dims, t->dims, sizeof v->dims);
        v->data = t->data;
        v->param = t->name;
        rlx__onnx_names_put(&s->names, t->name, (int32_t)nv++);
    }
    for (uint32_t i = 0; i < m->n_inputs; i++) {
        const rlx__onnx_input *mi = &m->inputs[i];
        rlx__onnx_val *v = &s->vals[nv];
        v->name = mi->name;
        v->dtype = mi->dtype;
        v->rank = mi->rank;
        memcpy(v->dims, mi->dims, sizeof v->dims);
        if (mi->value) { /* fixed by the application: a constant */
            v->known = 1;
            v->data = mi->value;
        } else if (in) {
            v->rt = 1;
            v->rank = in[k].rank;
            memcpy(v->dims, in[k].dims, sizeof v->dims);
            v->data = in[k++].data;
        } else if ((st = rlx_graph_input(w->c.g, mi->name, mi->dtype,
                                         mi->rank, mi->dims, &v->v)) !=
                   RLX_OK) {
            return st;
        } else {
            v->has_v = 1;
        }
        rlx__onnx_names_put(&s->names, mi->name, (int32_t)nv++);
    }
    for (uint32_t i = 0; i < m->n_nodes; i++)
        for (size_t o = 0; o < m->nodes[i]->n_output; o++) {
            const char *nm = m->nodes[i]->output[o];
            if (nm && *nm) {
                s->vals[nv].name = nm;
                rlx__onnx_names_put(&s->names, nm, (int32_t)nv++);
            }
        }
    return RLX_OK;
}

static void walk_free(rlx__onnx_walk *w)
{
    rlx_graph_destroy(w->c.g);
    w->c.g = NULL;
    free(w->seg_in);
    rlx__onnx_folder_free(&w->f);
}

rlx_status rlx__onnx_lower(const rlx__onnx_model *m, rlx_graph **out,
                           rlx__onnx_report *rep)
{
    *out = NULL;
    /* subgraph initializers with external data map through M */
    rlx__onnx_walk w = { .m = (rlx__onnx_model *)m };
    w.c.m = m;
    w.c.opset = m->opset;
    rlx__onnx_scope s;
    memset(&s, 0, sizeof s);
    rlx_status st = rlx_graph_create(&w.c.g);
    if (st == RLX_OK)
        st = top_init(&w, &s, NULL);
    if (st == RLX_OK && rep) {
        rep->n = m->n_nodes;
        rep->lowered = calloc(m->n_nodes ? m->n_nodes : 1,
                              sizeof *rep->lowered);
        s.report = rep->lowered;
        if (!rep->lowered)
            st = rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    }
    if (st == RLX_OK)
        st = walk(&w, &s);
    if (st != RLX_OK && rep) {
        rep->needs_value = w.c.needs_value;
        rep->needs_runtime = w.c.needs_runtime;
    }
    const Onnx__GraphProto *gp = m->proto->graph;
    w.c.node = NULL;
    for (size_t i = 0; st == RLX_OK && i < gp->n_output; i++) {
        rlx__onnx_val *v = rlx__onnx_scope_lookup(&s, gp->output[i]->name);
        if (v && !v->has_v && v->known) {
            st = v->param ? rlx_graph_param(w.c.g, v->name, v->dtype,
                                            v->rank, v->dims, &v->v)
                          : rlx_graph_constant(w.c.g, v->name, v->dtype,
                                               v->rank, v->dims, v->data,
                                               &v->v);
            if (st != RLX_OK)
                break;
            v->has_v = 1;
        }
        if (!v || !v->has_v) {
            st = rlx__error(RLX_ERR_UNSUPPORTED,
                            "graph output '%s' is an optional output rlx "
                            "does not compute. Fix: export the model "
                            "without it", gp->output[i]->name);
            break;
        }
        st = rlx_graph_output(w.c.g, gp->output[i]->name, v->v);
    }
    if (st == RLX_OK) {
        *out = w.c.g;
        w.c.g = NULL;
    }
    scope_free(&s);
    walk_free(&w);
    if (st != RLX_OK && rep && rep->needs_runtime && rep->lowered) {
        /* the nodes from the first that needs run-time data on are
         * lowered at run time, stage by stage */
        for (uint32_t i = s.pos; i < rep->n; i++) {
            free(rep->lowered[i]);
            rep->lowered[i] = rlx__strdup(
                i == s.pos ? "a stage boundary (needs run-time data)"
                           : "lowered at run time, in a later stage");
        }
    } else if (st != RLX_OK && rep) {
        int nv = rep->needs_value, nr = rep->needs_runtime;
        rlx__onnx_report_free(rep);
        rep->needs_value = nv;
        rep->needs_runtime = nr;
    }
    return st;
}

rlx_status rlx__onnx_exec(rlx__onnx_model *m, rlx_session *s,
                          rlx__onnx_stages *stages,
                          const rlx__onnx_host *in, rlx__onnx_host *out)
{
    rlx__onnx_walk w = { .m = m, .s = s, .stages = stages };
    w.c.m = m;
    w.c.opset = m->opset;
    rlx__onnx_scope top;
    memset(&top, 0, sizeof top);
    const Onnx__GraphProto *gp = m->proto->graph;
    memset(out, 0, gp->n_output * sizeof *out);
    rlx_status st = rlx_graph_create(&w.c.g);
    if (st == RLX_OK)
        st = top_init(&w, &top, in);
    if (st == RLX_OK)
        st = walk(&w, &top);
    if (st == RLX_OK) {
        top.pos = top.n_nodes;
        st = rlx__onnx_walk_flush(&w, &top);
    }
    for (size_t i = 0; st == RLX_OK && i < gp->n_output; i++) {
        rlx__onnx_val *v = rlx__onnx_scope_lookup(&top, gp->output[i]->name);
        if (!v || (!v->known && !v->rt)) {
            st = rlx__error(RLX_ERR_UNSUPPORTED,
                            "graph output '%s' is an optional output rlx "
                            "does not compute. Fix: export the model "
                            "without it", gp->output[i]->name);
            break;
        }
        out[i].dtype = v->dtype;
        out[i].rank = v->rank;
        memcpy(out[i].dims, v->dims, sizeof out[i].dims);
        out[i].nbytes = rlx__onnx_val_bytes(v);
        if (!(out[i].data = rlx__onnx_dup_bytes(v->data, out[i].nbytes)))
            st = rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    }
    if (st != RLX_OK)
        for (size_t i = 0; i < gp->n_output; i++) {
            free(out[i].data);
            out[i].data = NULL;
        }
    scope_free(&top);
    walk_free(&w);
    return st;
}
