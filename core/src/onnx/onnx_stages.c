/*
 * onnx_stages.c - the compiled stages a staged program keeps from run to
 * run. Each stage's graph is lowered again at every run (cheap: it is
 * what tells the stage's shapes and the host values it needs), but
 * compiled only when no earlier stage had the same content: the key is
 * the whole graph written out (ops, attributes, shapes, input and param
 * names, constants' bytes, outputs), so a hit is always the same program,
 * never a near one. At most RLX__ONNX_STAGES programs, least recently
 * used evicted.
 */
#include <stdlib.h>
#include <string.h>

#include "onnx.h"

#define RLX__ONNX_STAGES 64

typedef struct stage {
    unsigned char *key;
    size_t len;
    rlx_program *p;
    uint64_t used;
} stage;

struct rlx__onnx_stages {
    stage e[RLX__ONNX_STAGES];
    uint32_t n;
    uint64_t clock;
};

typedef struct buf {
    unsigned char *d;
    size_t len, cap;
    int oom;
} buf;

static void put(buf *b, const void *p, size_t n)
{
    if (b->oom || !n)
        return;
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + n)
            cap *= 2;
        unsigned char *g = realloc(b->d, cap);
        if (!g) {
            b->oom = 1;
            return;
        }
        b->d = g;
        b->cap = cap;
    }
    memcpy(b->d + b->len, p, n);
    b->len += n;
}

static void put_u64(buf *b, uint64_t v)
{
    put(b, &v, sizeof v);
}

static void put_str(buf *b, const char *s)
{
    size_t n = s ? strlen(s) : 0;
    put_u64(b, n);
    put(b, s, n);
}

/* G written out: what decides the program compiled from it. */
static rlx_status graph_key(const rlx_graph *g, buf *b)
{
    put_u64(b, g->n_nodes);
    for (uint32_t i = 0; i < g->n_nodes; i++) {
        const rlx__node *n = &g->nodes[i];
        put_u64(b, (uint64_t)n->op);
        put_u64(b, (uint64_t)n->dtype);
        put_u64(b, n->rank);
        put(b, n->shape, n->rank * sizeof *n->shape);
        put_u64(b, n->n_inputs);
        put(b, n->inputs, n->n_inputs * sizeof *n->inputs);
        put_u64(b, n->n_ints);
        put(b, n->ints, n->n_ints * sizeof *n->ints);
        put_u64(b, n->n_floats);
        put(b, n->floats, n->n_floats * sizeof *n->floats);
        if (n->op == RLX_OP_INPUT || n->op == RLX_OP_PARAM)
            put_str(b, n->name); /* bound by name */
        if (n->op == RLX_OP_CONSTANT) {
            int64_t k = rlx__shape_elements(n->rank, n->shape);
            put(b, n->data, k > 0 ? (size_t)k * rlx_dtype_size(n->dtype)
                                  : 0);
        }
        if (n->custom) /* the importer makes none; never share one */
            put_u64(b, (uint64_t)(uintptr_t)n);
    }
    put_u64(b, g->n_outputs);
    for (uint32_t i = 0; i < g->n_outputs; i++) {
        put_str(b, g->outputs[i].name);
        put_u64(b, g->outputs[i].node);
    }
    return b->oom ? rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory")
                  : RLX_OK;
}

rlx_status rlx__onnx_stages_create(rlx__onnx_stages **out)
{
    *out = calloc(1, sizeof **out);
    return *out ? RLX_OK
                : rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
}

void rlx__onnx_stages_free(rlx__onnx_stages *c)
{
    if (!c)
        return;
    for (uint32_t i = 0; i < c->n; i++) {
        rlx_program_destroy(c->e[i].p);
        free(c->e[i].key);
    }
    free(c);
}

rlx_status rlx__onnx_stages_get(rlx__onnx_stages *c, rlx_session *s,
                                const rlx_graph *g, int *fresh,
                                rlx_program **out)
{
    buf b = { 0 };
    rlx_status st = graph_key(g, &b);
    *out = NULL;
    *fresh = 0;
    if (st != RLX_OK) {
        free(b.d);
        return st;
    }
    for (uint32_t i = 0; i < c->n; i++)
        if (c->e[i].len == b.len && memcmp(c->e[i].key, b.d, b.len) == 0) {
            c->e[i].used = ++c->clock;
            free(b.d);
            *out = c->e[i].p;
            return RLX_OK;
        }
    rlx_program *p;
    if ((st = rlx_session_compile(s, g, &p)) != RLX_OK) {
        free(b.d);
        return st;
    }
    if (c->n == RLX__ONNX_STAGES) { /* evict the least recently used */
        uint32_t lru = 0;
        for (uint32_t i = 1; i < c->n; i++)
            if (c->e[i].used < c->e[lru].used)
                lru = i;
        rlx_program_destroy(c->e[lru].p);
        free(c->e[lru].key);
        c->e[lru] = c->e[--c->n];
    }
    c->e[c->n++] = (stage){ b.d, b.len, p, ++c->clock };
    *fresh = 1;
    *out = p;
    return RLX_OK;
}
