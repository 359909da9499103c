/*
 * qchain.c - a QDQ unary chain folded into one byte-in, byte-out table
 * lookup. A QDQ model leaves each activation that is not a Relu or Clip
 * after a conv (the sigmoid, hard sigmoid and hard swish of the mobile
 * nets) as
 *
 *   y = quantize_linear(op_k(... op_1(dequantize_linear(x))))
 *
 * three f32 passes or more. With per-tensor scales each output byte
 * depends on the input byte alone, so the chain is a 256-entry table.
 * The table is made by cpu-ref itself: the chain's nodes are compiled
 * by cpu-ref on a [256] input (every byte value) and run once, so every
 * entry is what cpu-ref's separate ops give, bit for bit, whatever the
 * ops. It is remade when a scale or zero point read at run time is not
 * the one it was made for (they are constants in QDQ models, so in
 * practice once). A unary step read elsewhere, or a graph output, ends
 * the chain (no fusion); a dequantize read elsewhere too stays.
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

static void retire(rlxb_step *s)
{
    memset(&s->plan, 0, sizeof s->plan);
    s->kind = RLXB_K_SOURCE;
    s->where = RLXB_FUSED;
    s->n_inputs = 0;
}

/* cpu-ref's executable of dequantize -> CHAIN -> quantize on x [256]:
 * inputs x, x scale, x zero point, y scale, y zero point (scalars). */
static rlx_status table_compile(rlxb_backend *be, const rlx_graph_view *g,
                                uint32_t dq, const uint32_t *chain,
                                uint32_t n_chain, uint32_t q, void **out)
{
    static const int64_t n256 = 256;
    enum { N_IN = 5 };
    uint32_t n = N_IN + 1 + n_chain + 1;
    rlx_node_view nodes[N_IN + 2 + MAX_CHAIN];
    const rlx_node_view *ptrs[N_IN + 2 + MAX_CHAIN];
    uint32_t ins[N_IN + 2 + MAX_CHAIN][3];
    static const uint32_t in_idx[N_IN] = { 0, 1, 2, 3, 4 };
    const rlx_node_view *dqv = g->nodes[dq], *qv = g->nodes[q];
    const rlx_node_view *src[N_IN] = {
        g->nodes[dqv->inputs[0]], g->nodes[dqv->inputs[1]],
        g->nodes[dqv->inputs[2]], g->nodes[qv->inputs[1]],
        g->nodes[qv->inputs[2]]
    };
    memset(nodes, 0, sizeof nodes);
    for (uint32_t j = 0; j < N_IN; j++)
        nodes[j] = (rlx_node_view){
            .struct_size = sizeof(rlx_node_view),
            .op = RLX_OP_INPUT,
            .name = src[j]->name,
            .dtype = src[j]->dtype,
            .rank = j == 0 ? 1 : 0,
            .shape = j == 0 ? &n256 : NULL,
            .slot = j,
        };
    /* the chain's nodes, as far as their writer's struct reaches, on
     * [256] */
    for (uint32_t k = 0; k < 2 + n_chain; k++) {
        uint32_t gi = k == 0 ? dq : k <= n_chain ? chain[k - 1] : q;
        const rlx_node_view *v = g->nodes[gi];
        rlx_node_view *d = &nodes[N_IN + k];
        size_t have = v->struct_size < sizeof *v ? v->struct_size
                                                 : sizeof *v;
        memcpy(d, v, have);
        d->struct_size = (uint32_t)have;
        d->rank = 1;
        d->shape = &n256;
        ins[k][0] = k == 0 ? 0 : N_IN + k - 1;
        ins[k][1] = k == 0 ? 1 : 3;
        ins[k][2] = k == 0 ? 2 : 4;
        d->inputs = ins[k];
    }
    for (uint32_t j = 0; j < n; j++)
        ptrs[j] = &nodes[j];
    uint32_t out_idx = n - 1;
    const rlx_graph_view sub = {
        .struct_size = sizeof sub,
        .n_nodes = n,
        .nodes = ptrs,
        .n_inputs = N_IN,
        .inputs = in_idx,
        .n_params = 0,
        .outputs = &out_idx,
        .n_outputs = 1,
    };
    const rlx_compile_options opts = { .struct_size = sizeof opts };
    rlx_executable *exe = NULL;
    rlx_status st = rlx__cpu_ref_compile(be->ref, &sub, &opts, &exe);
    if (st == RLX_OK)
        *out = exe;
    return st;
}

/* Step QI, a quantize: folds its unary chain and dequantize into it.
 * USES: how many times each step is read (outputs counted twice). */
static rlx_status fuse_one(rlxb_backend *be, const rlx_graph_view *g,
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
    /* the chain in graph order */
    for (uint32_t k = 0; k < n_chain / 2; k++) {
        uint32_t t = chain[k];
        chain[k] = chain[n_chain - 1 - k];
        chain[n_chain - 1 - k] = t;
    }
    void *exe = NULL;
    rlx_status st = table_compile(be, g, at, chain, n_chain, qi, &exe);
    if (st != RLX_OK)
        return st;
    uint32_t *ins = calloc(5, sizeof *ins);
    if (!ins) {
        rlxb_fallback_destroy(be, exe);
        return rlx_kit_fail(be->host, RLX_ERR_OUT_OF_MEMORY,
                            "cpu-openblas compile: out of memory fusing "
                            "'%s'. Fix: free memory", g->nodes[qi]->name);
    }
    memcpy(ins, d->inputs, 3 * sizeof *ins);
    ins[3] = q->inputs[1];
    ins[4] = q->inputs[2];
    rlxb_qlut p = { .tx = d->plan.qlin.tx, .ty = q->plan.qlin.tx };
    if (uses[at] == 1 && d->where == RLXB_ARENA)
        retire(&x->steps[at]);
    for (uint32_t k = 0; k < n_chain; k++)
        retire(&x->steps[chain[k]]);
    free(q->inputs);
    q->inputs = ins;
    q->n_inputs = 5;
    q->kind = RLXB_K_QLUT;
    q->plan.qlut = p;
    q->fallback = exe; /* destroyed with the step */
    (*n_fused)++;
    return RLX_OK;
}

rlx_status rlxb_qchain_fuse(rlxb_backend *be, const rlx_graph_view *g,
                            rlxb_exe *x)
{
    uint32_t *uses = calloc((size_t)x->n_steps + 1, sizeof *uses);
    if (!uses)
        return rlx_kit_fail(be->host, RLX_ERR_OUT_OF_MEMORY,
                            "cpu-openblas compile: out of memory planning "
                            "fusion. Fix: free memory");
    for (uint32_t j = 0; j < x->n_steps; j++)
        for (uint32_t k = 0; k < x->steps[j].n_inputs; k++)
            uses[x->steps[j].inputs[k]]++;
    for (uint32_t o = 0; o < x->n_outputs; o++)
        uses[x->output_steps[o]] += 2; /* never retired */
    unsigned n = 0;
    rlx_status st = RLX_OK;
    for (uint32_t i = 0; st == RLX_OK && i < x->n_steps; i++)
        st = fuse_one(be, g, x, uses, i, &n);
    free(uses);
    if (st == RLX_OK && n)
        rlx_kit_log(be->host, RLX_LOG_DEBUG,
                    "cpu-openblas: %u quantized unary chains as tables", n);
    return st;
}

/* ---- run ------------------------------------------------------------- */

static int32_t byte_at(rlx_dtype t, const void *p)
{
    return t == RLX_DTYPE_U8 ? (int32_t)*(const uint8_t *)p
                             : (int32_t)*(const int8_t *)p;
}

/* The table for the scales and zero points of this run, made by cpu-ref
 * when they are not those of the last one. */
static rlx_status table_make(rlxb_backend *be, void *exe, rlxb_qlut *p,
                             const void *const *in)
{
    float xs, ys;
    memcpy(&xs, in[1], sizeof xs);
    memcpy(&ys, in[3], sizeof ys);
    int32_t xz = byte_at(p->tx, in[2]), yz = byte_at(p->ty, in[4]);
    if (p->built && memcmp(&xs, &p->xs, sizeof xs) == 0 &&
        memcmp(&ys, &p->ys, sizeof ys) == 0 && xz == p->xz && yz == p->yz)
        return RLX_OK;
    uint8_t all[256];
    for (int b = 0; b < 256; b++)
        all[b] = (uint8_t)b;
    const void *args[5] = { all, in[1], in[2], in[3], in[4] };
    p->built = 0;
    rlx_status st = rlxb_fallback_run(be, exe, args, 5, p->lut);
    if (st != RLX_OK)
        return st;
    p->xs = xs;
    p->ys = ys;
    p->xz = xz;
    p->yz = yz;
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

static void look(void *arg, size_t begin, size_t end)
{
    const lutrun *r = arg;
#if QLUT_VBMI
    if (have_vbmi()) {
        look_vbmi(r->lut, r->x + begin, r->y + begin, end - begin);
        return;
    }
#endif
    const uint8_t *lut = r->lut, *x = r->x;
    uint8_t *y = r->y;
    for (size_t i = begin; i < end; i++)
        y[i] = lut[x[i]];
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
