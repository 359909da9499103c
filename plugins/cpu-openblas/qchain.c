/*
 * qchain.c - QDQ elementwise chains of one byte tensor folded into one
 * byte-in, byte-out table lookup. A QDQ model leaves each activation
 * that is not a Relu or Clip after a conv (the sigmoid, hard sigmoid
 * and hard swish of the mobile nets) as
 *
 *   y = quantize_linear(op_k(... op_1(dequantize_linear(x))))
 *
 * three f32 passes or more, and a SiLU (x * sigmoid(x)) as such a chain
 * s of x and then quantize(dequantize(x) * dequantize(s)). With
 * per-tensor scales each output byte depends on the input byte alone,
 * so the whole is a 256-entry table. The table is made by cpu-ref
 * itself: the nodes are compiled by cpu-ref on a [256] input (every byte
 * value), their scales and zero points made inputs, and run once, so
 * every entry is what cpu-ref's separate ops give, bit for bit, whatever
 * the ops. It is remade when an operand read at run time is not the one
 * it was made for (they are constants in QDQ models, so in practice
 * once). A value read outside the chain, or a graph output, ends it (no
 * fusion); a dequantize read elsewhere too stays.
 */
#include <stdlib.h>
#include <string.h>

#include "blas_internal.h"
#include "cpu_ref_reuse.h"

#if defined(__x86_64__) && defined(__GNUC__) && defined(__AVX512F__)
#include <immintrin.h>
#define QLUT_VBMI 1
#else
#define QLUT_VBMI 0
#endif

#define MAX_CHAIN 4 /* unary ops between the dequantize and quantize */

static int per_tensor(const rlx_graph_view *g, const rlxb_step *s,
                      uint32_t i, int quantize)
{
    const rlxb_qlin *q = &s->plan.qlin;
    if (s->kind != RLXB_K_QLINEAR || s->n_inputs != 3 ||
        q->quantize != quantize || q->outer != 1 || q->len != 1 ||
        (q->tx != RLX_DTYPE_U8 && q->tx != RLX_DTYPE_I8))
        return 0;
    const rlx_node_view *v = g->nodes[i];
    const rlx_node_view *sc = g->nodes[v->inputs[1]];
    const rlx_node_view *zp = g->nodes[v->inputs[2]];
    return sc->dtype == RLX_DTYPE_F32 && zp->dtype == q->tx;
}

static void retire(rlxb_backend *be, rlxb_step *s)
{
    rlxb_fallback_destroy(be, s->fallback);
    s->fallback = NULL;
    memset(&s->plan, 0, sizeof s->plan);
    s->kind = RLXB_K_SOURCE;
    s->where = RLXB_FUSED;
    s->n_inputs = 0;
}

static size_t dtype_bytes(rlx_dtype t)
{
    return t == RLX_DTYPE_F32 || t == RLX_DTYPE_I32 ? 4
           : t == RLX_DTYPE_U8 || t == RLX_DTYPE_I8 ? 1
                                                    : 0;
}

static size_t count_of(const rlx_node_view *v)
{
    size_t n = 1;
    for (uint32_t d = 0; d < v->rank; d++)
        n *= (size_t)v->shape[d];
    return n;
}

static int in_set(const uint32_t *set, uint32_t n, uint32_t v)
{
    for (uint32_t k = 0; k < n; k++)
        if (set[k] == v)
            return 1;
    return 0;
}

/* cpu-ref's executable of NODES (graph order, the last the result) on
 * x [256]: its inputs x, then each one-element operand outside NODES,
 * listed in P. 0 when an operand is not one element of 1 or 4 bytes, or
 * is not stored (nothing compiled), else the compile's status. */
static rlx_status table_compile(rlxb_backend *be, const rlx_graph_view *g,
                                const rlxb_exe *x, rlxb_qlut *p, void **out,
                                int *ok)
{
    static const int64_t n256 = 256;
    enum { MAXN = 1 + RLXB_QLUT_INS + RLXB_QLUT_NODES };
    rlx_node_view nodes[MAXN];
    const rlx_node_view *ptrs[MAXN];
    uint32_t ins[RLXB_QLUT_NODES][4], in_idx[1 + RLXB_QLUT_INS];
    uint32_t outside[RLXB_QLUT_INS];
    *ok = 0;
    p->n_scalars = 0;
    /* the operands from outside, in order of first use */
    for (uint32_t k = 0; k < p->n_nodes; k++) {
        const rlx_node_view *v = g->nodes[p->nodes[k]];
        if (v->n_inputs > 4)
            return RLX_OK;
        for (uint32_t j = 0; j < v->n_inputs; j++) {
            uint32_t a = v->inputs[j];
            if (a == p->x || in_set(p->nodes, p->n_nodes, a) ||
                in_set(outside, p->n_scalars, a))
                continue;
            const rlx_node_view *o = g->nodes[a];
            size_t sz = dtype_bytes(o->dtype);
            if (p->n_scalars == RLXB_QLUT_INS || count_of(o) != 1 || !sz ||
                x->steps[a].where == RLXB_FUSED)
                return RLX_OK;
            p->size[p->n_scalars] = (uint8_t)sz;
            outside[p->n_scalars++] = a;
        }
    }
    uint32_t n_in = 1 + p->n_scalars, n = n_in + p->n_nodes;
    memset(nodes, 0, sizeof nodes);
    for (uint32_t j = 0; j < n_in; j++) {
        const rlx_node_view *src = g->nodes[j ? outside[j - 1] : p->x];
        nodes[j] = (rlx_node_view){
            .struct_size = sizeof(rlx_node_view),
            .op = RLX_OP_INPUT,
            .name = src->name,
            .dtype = src->dtype,
            .rank = j == 0 ? 1 : 0,
            .shape = j == 0 ? &n256 : NULL,
            .slot = j,
        };
        in_idx[j] = j;
    }
    /* the nodes, as far as their writer's struct reaches, on [256] */
    for (uint32_t k = 0; k < p->n_nodes; k++) {
        const rlx_node_view *v = g->nodes[p->nodes[k]];
        rlx_node_view *d = &nodes[n_in + k];
        size_t have = v->struct_size < sizeof *v ? v->struct_size
                                                 : sizeof *v;
        memcpy(d, v, have);
        d->struct_size = (uint32_t)have;
        d->rank = 1;
        d->shape = &n256;
        for (uint32_t j = 0; j < v->n_inputs; j++) {
            uint32_t a = v->inputs[j], to = 0;
            for (uint32_t m = 0; m < p->n_nodes; m++)
                if (p->nodes[m] == a)
                    to = n_in + m;
            for (uint32_t m = 0; m < p->n_scalars; m++)
                if (outside[m] == a)
                    to = 1 + m;
            ins[k][j] = to; /* x: 0 */
        }
        d->inputs = ins[k];
    }
    for (uint32_t j = 0; j < n; j++)
        ptrs[j] = &nodes[j];
    uint32_t out_idx = n - 1;
    const rlx_graph_view sub = {
        .struct_size = sizeof sub,
        .n_nodes = n,
        .nodes = ptrs,
        .n_inputs = n_in,
        .inputs = in_idx,
        .n_params = 0,
        .outputs = &out_idx,
        .n_outputs = 1,
    };
    const rlx_compile_options opts = { .struct_size = sizeof opts };
    rlx_executable *exe = NULL;
    rlx_status st = rlx__cpu_ref_compile(be->ref, &sub, &opts, &exe);
    if (st != RLX_OK)
        return st;
    *out = exe;
    *ok = 1;
    return RLX_OK;
}

/* Makes step I a table over P (x, nodes set), its operands as inputs. */
static rlx_status make_table(rlxb_backend *be, const rlx_graph_view *g,
                             rlxb_exe *x, uint32_t i, rlxb_qlut *p,
                             int *done)
{
    void *exe = NULL;
    int ok = 0;
    *done = 0;
    rlx_status st = table_compile(be, g, x, p, &exe, &ok);
    if (st != RLX_OK || !ok)
        return st;
    uint32_t *ins = calloc(1 + p->n_scalars, sizeof *ins);
    if (!ins) {
        rlxb_fallback_destroy(be, exe);
        return rlx_kit_fail(be->host, RLX_ERR_OUT_OF_MEMORY,
                            "cpu-openblas compile: out of memory fusing "
                            "'%s'. Fix: free memory", g->nodes[i]->name);
    }
    /* the operands again, in table_compile's order */
    uint32_t n = 0;
    ins[n++] = p->x;
    for (uint32_t k = 0; k < p->n_nodes; k++) {
        const rlx_node_view *v = g->nodes[p->nodes[k]];
        for (uint32_t j = 0; j < v->n_inputs; j++) {
            uint32_t a = v->inputs[j];
            if (a == p->x || in_set(p->nodes, p->n_nodes, a) ||
                in_set(ins + 1, n - 1, a))
                continue;
            ins[n++] = a;
        }
    }
    rlxb_step *s = &x->steps[i];
    rlxb_fallback_destroy(be, s->fallback);
    free(s->inputs);
    s->inputs = ins;
    s->n_inputs = n;
    s->kind = RLXB_K_QLUT;
    p->built = 0;
    s->plan.qlut = *p;
    s->fallback = exe; /* destroyed with the step */
    *done = 1;
    return RLX_OK;
}

/* Step QI, a quantize: folds its unary chain and dequantize into it.
 * USES: how many times each step is read (outputs counted twice). */
static rlx_status fuse_chain(rlxb_backend *be, const rlx_graph_view *g,
                             rlxb_exe *x, const uint32_t *uses, uint32_t qi,
                             unsigned *n_fused)
{
    rlxb_step *q = &x->steps[qi];
    if (!per_tensor(g, q, qi, 1) || q->where != RLXB_ARENA)
        return RLX_OK;
    uint32_t chain[MAX_CHAIN], n_chain = 0, at = q->inputs[0];
    while (x->steps[at].kind == RLXB_K_UNARY) {
        const rlxb_step *u = &x->steps[at];
        if (n_chain == MAX_CHAIN || u->where != RLXB_ARENA ||
            uses[at] != 1 || u->dtype != RLX_DTYPE_F32 ||
            u->n_inputs != 1 || u->count != q->count)
            return RLX_OK;
        chain[n_chain++] = at;
        at = u->inputs[0];
    }
    const rlxb_step *d = &x->steps[at];
    if (n_chain == 0 || !per_tensor(g, d, at, 0) ||
        d->count != q->count ||
        x->steps[d->inputs[0]].where == RLXB_FUSED)
        return RLX_OK;
    rlxb_qlut p = { .x = d->inputs[0] };
    p.nodes[p.n_nodes++] = at;
    for (uint32_t k = n_chain; k-- > 0;)
        p.nodes[p.n_nodes++] = chain[k];
    p.nodes[p.n_nodes++] = qi;
    int done = 0;
    rlx_status st = make_table(be, g, x, qi, &p, &done);
    if (st != RLX_OK || !done)
        return st;
    if (uses[at] == 1 && x->steps[at].where == RLXB_ARENA)
        retire(be, &x->steps[at]);
    for (uint32_t k = 0; k < n_chain; k++)
        retire(be, &x->steps[chain[k]]);
    (*n_fused)++;
    return RLX_OK;
}

/* Step EI, a quantized add or mul (qelem.c) of x and a table step over
 * the same x (a SiLU: x * sigmoid(x)), shaped alike: one table. */
static rlx_status fuse_pair(rlxb_backend *be, const rlx_graph_view *g,
                            rlxb_exe *x, const uint32_t *uses, uint32_t ei,
                            unsigned *n_fused)
{
    rlxb_step *e = &x->steps[ei];
    if (e->kind != RLXB_K_QELEM || e->where != RLXB_ARENA ||
        e->n_inputs != 8)
        return RLX_OK;
    uint32_t op = g->nodes[ei]->inputs[0];
    const rlx_node_view *ov = g->nodes[op];
    if (ov->n_inputs != 2)
        return RLX_OK;
    for (int j = 0; j < 2; j++) {
        uint32_t t = e->inputs[3 * j], other = e->inputs[3 * (1 - j)];
        const rlxb_step *s = &x->steps[t];
        if (s->kind != RLXB_K_QLUT || s->where != RLXB_ARENA ||
            uses[t] != 1 || s->plan.qlut.x != other ||
            s->count != e->count || x->steps[other].count != e->count)
            continue;
        rlxb_qlut p = s->plan.qlut;
        uint32_t add[4] = { ov->inputs[0], ov->inputs[1], op, ei };
        for (int k = 0; k < 4; k++) {
            if (in_set(p.nodes, p.n_nodes, add[k]))
                continue;
            if (p.n_nodes == RLXB_QLUT_NODES)
                return RLX_OK;
            /* graph order: insert sorted */
            uint32_t m = p.n_nodes++;
            while (m > 0 && p.nodes[m - 1] > add[k]) {
                p.nodes[m] = p.nodes[m - 1];
                m--;
            }
            p.nodes[m] = add[k];
        }
        int done = 0;
        rlx_status st = make_table(be, g, x, ei, &p, &done);
        if (st != RLX_OK || !done)
            return st;
        retire(be, &x->steps[t]);
        (*n_fused)++;
        return RLX_OK;
    }
    return RLX_OK;
}

static uint32_t *count_uses(rlxb_backend *be, const rlxb_exe *x)
{
    uint32_t *uses = calloc((size_t)x->n_steps + 1, sizeof *uses);
    if (!uses) {
        rlx_kit_fail(be->host, RLX_ERR_OUT_OF_MEMORY,
                     "cpu-openblas compile: out of memory planning "
                     "fusion. Fix: free memory");
        return NULL;
    }
    for (uint32_t j = 0; j < x->n_steps; j++)
        for (uint32_t k = 0; k < x->steps[j].n_inputs; k++)
            uses[x->steps[j].inputs[k]]++;
    for (uint32_t o = 0; o < x->n_outputs; o++)
        uses[x->output_steps[o]] += 2; /* never retired */
    return uses;
}

rlx_status rlxb_qchain_fuse(rlxb_backend *be, const rlx_graph_view *g,
                            rlxb_exe *x)
{
    uint32_t *uses = count_uses(be, x);
    if (!uses)
        return RLX_ERR_OUT_OF_MEMORY;
    unsigned n = 0, n_pair = 0;
    rlx_status st = RLX_OK;
    for (uint32_t i = 0; st == RLX_OK && i < x->n_steps; i++)
        st = fuse_chain(be, g, x, uses, i, &n);
    free(uses);
    if (st == RLX_OK && n) {
        if (!(uses = count_uses(be, x)))
            return RLX_ERR_OUT_OF_MEMORY;
        for (uint32_t i = 0; st == RLX_OK && i < x->n_steps; i++)
            st = fuse_pair(be, g, x, uses, i, &n_pair);
        free(uses);
    }
    if (st == RLX_OK && n)
        rlx_kit_log(be->host, RLX_LOG_DEBUG,
                    "cpu-openblas: %u quantized unary chains as tables, %u "
                    "of them with the add or mul after them", n, n_pair);
    return st;
}

/* ---- run ------------------------------------------------------------- */

/* The table for the operands of this run, made by cpu-ref when they are
 * not those of the last one. */
static rlx_status table_make(rlxb_backend *be, void *exe, rlxb_qlut *p,
                             const void *const *in)
{
    unsigned char now[RLXB_QLUT_INS * 8];
    size_t off = 0;
    for (uint32_t k = 0; k < p->n_scalars; k++) {
        memcpy(now + off, in[1 + k], p->size[k]);
        off += p->size[k];
    }
    if (p->built && memcmp(now, p->seen, off) == 0)
        return RLX_OK;
    uint8_t all[256];
    for (int b = 0; b < 256; b++)
        all[b] = (uint8_t)b;
    const void *args[1 + RLXB_QLUT_INS];
    args[0] = all;
    for (uint32_t k = 0; k < p->n_scalars; k++)
        args[1 + k] = in[1 + k];
    p->built = 0;
    rlx_status st = rlxb_fallback_run(be, exe, args, 1 + p->n_scalars,
                                      p->lut);
    if (st != RLX_OK)
        return st;
    memcpy(p->seen, now, off);
    p->built = 1;
    return RLX_OK;
}

typedef struct lutrun {
    const uint8_t *lut, *x;
    uint8_t *y;
} lutrun;

#if QLUT_VBMI
#define TVBMI __attribute__((target("avx512f,avx512bw,avx512vbmi")))

/* 64 bytes at a time: two 128-entry vpermi2b lookups, picked by each
 * index's top bit. */
TVBMI static void look_vbmi(const uint8_t *lut, const uint8_t *x,
                            uint8_t *y, size_t n)
{
    __m512i t0 = _mm512_loadu_si512(lut), t1 = _mm512_loadu_si512(lut + 64);
    __m512i t2 = _mm512_loadu_si512(lut + 128);
    __m512i t3 = _mm512_loadu_si512(lut + 192);
    size_t i = 0;
    for (; i + 64 <= n; i += 64) {
        __m512i v = _mm512_loadu_si512(x + i);
        __m512i lo = _mm512_permutex2var_epi8(t0, v, t1);
        __m512i hi = _mm512_permutex2var_epi8(t2, v, t3);
        __mmask64 top = _mm512_movepi8_mask(v);
        _mm512_storeu_si512(y + i, _mm512_mask_blend_epi8(top, lo, hi));
    }
    if (i < n) {
        __mmask64 m = ~0ull >> (64 - (n - i)); /* 0 < n - i < 64 */
        __m512i v = _mm512_maskz_loadu_epi8(m, x + i);
        __m512i lo = _mm512_permutex2var_epi8(t0, v, t1);
        __m512i hi = _mm512_permutex2var_epi8(t2, v, t3);
        __mmask64 top = _mm512_movepi8_mask(v);
        _mm512_mask_storeu_epi8(y + i, m,
                                _mm512_mask_blend_epi8(top, lo, hi));
    }
}

static int have_vbmi(void)
{
    static _Atomic int have = -1;
    int h = have;
    if (h < 0) {
        __builtin_cpu_init();
        h = __builtin_cpu_supports("avx512f") &&
            __builtin_cpu_supports("avx512bw") &&
            __builtin_cpu_supports("avx512vbmi");
        have = h;
    }
    return h;
}
#endif

void rlxb_qlut_look(const uint8_t *lut, const uint8_t *x, uint8_t *y,
                    size_t n)
{
#if QLUT_VBMI
    if (have_vbmi()) {
        look_vbmi(lut, x, y, n);
        return;
    }
#endif
    for (size_t i = 0; i < n; i++)
        y[i] = lut[x[i]];
}

static void look(void *arg, size_t begin, size_t end)
{
    const lutrun *r = arg;
    rlxb_qlut_look(r->lut, r->x + begin, r->y + begin, end - begin);
}

rlx_status rlxb_qlut_run(rlxb_backend *be, void *exe, rlxb_qlut *p,
                         const void *const *in, void *y, size_t count)
{
    rlx_status st = table_make(be, exe, p, in);
    if (st != RLX_OK || count == 0)
        return st;
    lutrun r = { .lut = p->lut, .x = in[0], .y = y };
    rlxb_parallel_for(be->pool, count, (size_t)1 << 16, look, &r);
    return RLX_OK;
}
