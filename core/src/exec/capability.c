/*
 * capability.c - the one answer to "can backend B run node I of this
 * graph, and if not, why": op and dtype (supports_op), then the node's
 * shapes and attributes (the ABI 1.3 supports_node slot, when present),
 * then the user's mask (RLX_OPS_DISABLE). The session, placement, the
 * multi-device runner and `rlx check` all ask here, so they agree.
 * Sources (input, param, constant) are fed by the core: never asked.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec.h"

int rlx__op_is_source(rlx_op op)
{
    return op == RLX_OP_INPUT || op == RLX_OP_PARAM || op == RLX_OP_CONSTANT;
}

/* ---- RLX_OPS_DISABLE = "target:op,op,target:op,..." ------------------ */

/* TARGET (a backend id, a device name or "*") and OP of entry [S, E).
 * An entry without a colon continues the previous entry's target. */
static int mask_entry(const char *s, const char *e, char *target,
                      size_t tsize, char *op, size_t osize)
{
    const char *colon = memchr(s, ':', (size_t)(e - s));
    if (colon) {
        size_t tl = (size_t)(colon - s);
        if (tl == 0 || tl >= tsize)
            return -1;
        memcpy(target, s, tl);
        target[tl] = '\0';
        s = colon + 1;
    } else if (!target[0]) {
        return -1;
    }
    size_t ol = (size_t)(e - s);
    if (ol == 0 || ol >= osize)
        return -1;
    memcpy(op, s, ol);
    op[ol] = '\0';
    return 0;
}

rlx_status rlx__ops_mask_check(void)
{
    const char *env = rlx__env("RLX_OPS_DISABLE");
    char target[64] = "", op[64];
    for (const char *s = env; s && *s;) {
        const char *e = strchr(s, ',');
        if (!e)
            e = s + strlen(s);
        rlx_op parsed;
        if (e == s) {
            s = *e ? e + 1 : e;
            continue; /* ",," is harmless */
        }
        if (mask_entry(s, e, target, sizeof target, op, sizeof op) != 0)
            return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                              "RLX_OPS_DISABLE: '%.*s' is not BACKEND:OP. "
                              "Fix: write entries such as cuda:gelu or "
                              "cpu-openblas:softmax,matmul (a backend id, "
                              "a device name or *)", (int)(e - s), s);
        if (strcmp(op, "*") != 0 && rlx_op_from_name(op, &parsed) != RLX_OK)
            return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                              "RLX_OPS_DISABLE: '%s' is not an op. Fix: use "
                              "an op name such as gelu or matmul (`rlx "
                              "ops` or docs/ops.md lists them)", op);
        s = *e ? e + 1 : e;
    }
    return RLX_OK;
}

/* 1 when RLX_OPS_DISABLE masks OP on B; RULE gets the entry. */
static int mask_hit(const rlx_backend *b, rlx_op op, char *rule, size_t size)
{
    const char *env = rlx__env("RLX_OPS_DISABLE");
    char target[64] = "", name[64];
    for (const char *s = env; s && *s;) {
        const char *e = strchr(s, ',');
        if (!e)
            e = s + strlen(s);
        if (e > s &&
            mask_entry(s, e, target, sizeof target, name, sizeof name) == 0) {
            int who = !strcmp(target, "*") || !strcmp(target, b->id) ||
                      !strcmp(target, b->device_name);
            int what = !strcmp(name, "*") || !strcmp(name, rlx_op_name(op));
            if (who && what) {
                snprintf(rule, size, "%s:%s", target, name);
                return 1;
            }
        }
        s = *e ? e + 1 : e;
    }
    return 0;
}

/* ---- the capability question ----------------------------------------- */

int rlx__capability_node(const rlx_backend *b, const rlx_graph_view *v,
                         uint32_t node, char *why, size_t why_size)
{
    const rlx_node_view *n = v->nodes[node];
    why[0] = '\0';
    if (rlx__op_is_source(n->op))
        return 1;
    /* a node the core runs itself (a custom op): no backend is asked */
    const rlx__host_kind *hk = rlx__host_kind_for(v, node);
    if (hk) {
        snprintf(why, why_size, "the core runs it on the host (%s)",
                 hk->name);
        return 0;
    }
    if (!(b->flags & RLX_BACKEND_EXECUTES)) {
        snprintf(why, why_size, "backend '%s' is emission-only", b->id);
        return 0;
    }
    if (!b->vt.supports_op(b->backend, n->op, n->dtype)) {
        snprintf(why, why_size, "backend '%s' has no %s on %s", b->id,
                 rlx_op_name(n->op), rlx_dtype_name(n->dtype));
        return 0;
    }
    if (b->vt.supports_node) {
        char said[256] = "";
        rlx__report_clear();
        if (!b->vt.supports_node(b->backend, v, node, said, sizeof said)) {
            said[sizeof said - 1] = '\0';
            snprintf(why, why_size, "backend '%s' declines it: %s", b->id,
                     said[0] ? said : "(no reason given)");
            return 0;
        }
    }
    char rule[160];
    if (mask_hit(b, n->op, rule, sizeof rule)) {
        snprintf(why, why_size, "masked by RLX_OPS_DISABLE (%s)", rule);
        return 0;
    }
    return 1;
}

uint32_t rlx__view_first_unsupported(const rlx__view *v, const rlx_backend *b,
                                     char *why, size_t why_size)
{
    for (uint32_t i = 0; i < v->view.n_nodes; i++)
        if (!rlx__capability_node(b, &v->view, i, why, why_size))
            return i;
    return UINT32_MAX;
}

/* ---- the public report ----------------------------------------------- */

struct rlx_capability {
    uint32_t n_nodes;          /* of the graph */
    signed char *state;        /* 1 yes, 0 no, -1 not asked */
    char **why;                /* per graph node, NULL when none */
    uint32_t first;            /* graph node, or RLX_VALUE_NONE */
    uint32_t n_unsupported;
};

void rlx_capability_destroy(rlx_capability *c)
{
    if (!c)
        return;
    for (uint32_t i = 0; c->why && i < c->n_nodes; i++)
        free(c->why[i]);
    free(c->why);
    free(c->state);
    free(c);
}

rlx_status rlx_capability_create(const rlx_backend *b, const rlx_graph *g,
                                 rlx_capability **out)
{
    if (out)
        *out = NULL;
    if (!b || !g || !out)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "rlx_capability_create: NULL argument. Fix: pass "
                          "a backend, a graph and OUT");
    rlx_status st = rlx__ops_mask_check();
    if (st != RLX_OK)
        return st;
    rlx__view v;
    if ((st = rlx__view_build(g, &v)) != RLX_OK)
        return st;
    if (!rlx__backend_acquire(b)) {
        rlx__view_free(&v);
        return rlx__error(RLX_ERR_UNAVAILABLE,
                          "backend '%s' was unloaded. Fix: load its plugin "
                          "again", b->id);
    }
    rlx_capability *c = calloc(1, sizeof *c);
    if (c) {
        c->n_nodes = g->n_nodes;
        c->state = malloc(g->n_nodes + 1);
        c->why = calloc(g->n_nodes + 1, sizeof *c->why);
    }
    if (!c || !c->state || !c->why) {
        rlx__backend_release(b);
        rlx__view_free(&v);
        rlx_capability_destroy(c);
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    }
    c->first = RLX_VALUE_NONE;
    for (uint32_t i = 0; i < g->n_nodes; i++) {
        uint32_t k = v.remap[i];
        char why[512];
        if (k == UINT32_MAX || rlx__op_is_source(g->nodes[i].op) ||
            rlx__host_kind_for(&v.view, k)) {
            c->state[i] = -1;
            c->why[i] = rlx__strdup(
                k == UINT32_MAX ? "dead: no output depends on it"
                : rlx__op_is_source(g->nodes[i].op)
                    ? "source: the core feeds it"
                    : "the core runs it on the host (a custom op)");
            continue;
        }
        c->state[i] = (signed char)rlx__capability_node(b, &v.view, k, why,
                                                        sizeof why);
        if (!c->state[i]) {
            c->why[i] = rlx__strdup(why);
            c->n_unsupported++;
            if (c->first == RLX_VALUE_NONE)
                c->first = i;
        }
    }
    rlx__backend_release(b);
    rlx__view_free(&v);
    rlx__error_clear();
    *out = c;
    return RLX_OK;
}

uint32_t rlx_capability_node_count(const rlx_capability *c)
{
    return c ? c->n_nodes : 0;
}

uint32_t rlx_capability_unsupported_count(const rlx_capability *c)
{
    return c ? c->n_unsupported : 0;
}

rlx_status rlx_capability_node(const rlx_capability *c, rlx_value node,
                               int *supported, const char **why)
{
    if (!c || node >= c->n_nodes)
        return rlx__error(RLX_ERR_NOT_FOUND,
                          "rlx_capability_node: no node %u. Fix: use a "
                          "value below rlx_capability_node_count", node);
    if (supported)
        *supported = c->state[node];
    if (why)
        *why = c->why[node] ? c->why[node] : "";
    return RLX_OK;
}

rlx_value rlx_capability_first_unsupported(const rlx_capability *c,
                                           const char **why)
{
    if (why)
        *why = c && c->first != RLX_VALUE_NONE ? c->why[c->first] : NULL;
    return c ? c->first : RLX_VALUE_NONE;
}
