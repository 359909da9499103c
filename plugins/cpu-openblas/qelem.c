/*
 * qelem.c - the QDQ form of an elementwise add or mul, folded into one
 * byte-in, byte-out step. A QDQ model (and the importer) leaves
 *
 *   y = quantize_linear(dequantize_linear(a) OP dequantize_linear(b))
 *
 * for each residual Add: three f32 tensors written and read per
 * element. Here the quantize step reads a and b directly and does
 * cpu-ref's float operations in cpu-ref's order: (f32(x) - f32(zp)) *
 * scale for each side, one f32 add or multiply, the divide by the
 * output scale, round half to even (nearbyintf in the default rounding
 * mode), NaN to the zero point, + zero point, saturate; so the bytes
 * are those of the separate ops. Taken only for per-tensor scales and
 * an OP result read once (operands broadcast as the f32 op's plan says:
 * the per-channel mul of a squeeze-excite block); a dequantize read only
 * by OP is retired with it. The divide is qround.h's (the same results),
 * and a long row with one operand a single value is a table of the other
 * operand's 256 byte values, made by the same code.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "blas_internal.h"
#include "qround.h"

/* The plugin builds with -ffp-contract=fast; here a multiply feeding an
 * add must round on its own, as cpu-ref's separate ops do. */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

static size_t numel(const rlx_node_view *v)
{
    size_t n = 1;
    for (uint32_t d = 0; d < v->rank; d++)
        n *= (size_t)v->shape[d];
    return n;
}

static int per_tensor(const rlxb_step *s, int quantize)
{
    const rlxb_qlin *q = &s->plan.qlin;
    return s->kind == RLXB_K_QLINEAR && s->n_inputs == 3 &&
           q->quantize == quantize && q->outer == 1 && q->len == 1 &&
           (q->tx == RLX_DTYPE_U8 || q->tx == RLX_DTYPE_I8);
}

static void retire(rlxb_step *s)
{
    memset(&s->plan, 0, sizeof s->plan);
    s->kind = RLXB_K_SOURCE;
    s->where = RLXB_FUSED;
    s->n_inputs = 0;
}

/* Step QI, a quantize: folds OP and its dequantizes into it. USES: how
 * many times each step is read (outputs included). */
static rlx_status fuse_one(rlxb_backend *be, const rlx_graph_view *g,
                           rlxb_exe *x, const uint32_t *uses, uint32_t qi,
                           unsigned *n_fused)
{
    rlxb_step *q = &x->steps[qi];
    if (!per_tensor(q, 1) || q->where != RLXB_ARENA)
        return RLX_OK;
    uint32_t fi = q->inputs[0];
    rlxb_step *f = &x->steps[fi];
    if (f->kind != RLXB_K_BINARY || f->n_inputs != 2 ||
        (f->op != RLX_OP_ADD && f->op != RLX_OP_MUL) ||
        f->where != RLXB_ARENA || uses[fi] != 1 ||
        numel(g->nodes[fi]) != numel(g->nodes[qi]))
        return RLX_OK;
    uint32_t d[2] = { f->inputs[0], f->inputs[1] };
    for (int j = 0; j < 2; j++) {
        const rlxb_step *s = &x->steps[d[j]];
        if (!per_tensor(s, 0) || x->steps[s->inputs[0]].where == RLXB_FUSED)
            return RLX_OK;
    }
    uint32_t *ins = calloc(8, sizeof *ins);
    if (!ins)
        return rlx_kit_fail(be->host, RLX_ERR_OUT_OF_MEMORY,
                            "cpu-openblas compile: out of memory fusing "
                            "'%s'. Fix: free memory", g->nodes[qi]->name);
    for (int j = 0; j < 2; j++)
        memcpy(ins + 3 * j, x->steps[d[j]].inputs, 3 * sizeof *ins);
    ins[6] = q->inputs[1];
    ins[7] = q->inputs[2];
    rlxb_qelem e = { .op = f->op, .ta = x->steps[d[0]].plan.qlin.tx,
                     .tb = x->steps[d[1]].plan.qlin.tx,
                     .ty = q->plan.qlin.tx, .bin = f->plan.binary };
    /* a dequantize read only by OP goes with it */
    for (int j = 0; j < 2; j++) {
        uint32_t by_f = 1 + (d[0] == d[1]);
        if (uses[d[j]] == by_f && x->steps[d[j]].where == RLXB_ARENA)
            retire(&x->steps[d[j]]);
    }
    retire(f);
    free(q->inputs);
    q->inputs = ins;
    q->n_inputs = 8;
    q->kind = RLXB_K_QELEM;
    q->plan.qelem = e;
    (*n_fused)++;
    return RLX_OK;
}

rlx_status rlxb_qelem_fuse(rlxb_backend *be, const rlx_graph_view *g,
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
                    "cpu-openblas: %u quantized adds and muls fused", n);
    return st;
}

typedef struct qerun {
    const rlxb_qelem *p;
    const uint8_t *a, *b;
    float sa, sb, sy, fza, fzb, flo, fhi;
    int32_t zy;
    uint8_t *y;
} qerun;

#define QE_RUN 256 /* elements dequantized at a time */

/* D[i] = (f32(x[i * step]) - z) * s for i < N: step 1, or 0 (one value
 * broadcast). Loops without branches inside, so they vectorise. */
static void deq(rlx_dtype t, const uint8_t *x, size_t step, size_t n,
                float z, float s, float *restrict d)
{
    if (!step) {
        float v = t == RLX_DTYPE_U8 ? (float)x[0] : (float)(int8_t)x[0];
        v = (v - z) * s;
        for (size_t i = 0; i < n; i++)
            d[i] = v;
    } else if (t == RLX_DTYPE_U8) {
        for (size_t i = 0; i < n; i++)
            d[i] = ((float)x[i] - z) * s;
    } else {
        const int8_t *xs = (const int8_t *)x;
        for (size_t i = 0; i < n; i++)
            d[i] = ((float)xs[i] - z) * s;
    }
}

/* N results from A and B (each stepping by 1, or 0: one value) into Y:
 * cpu-ref's operations, the divide by the output scale as qround.h
 * does it (the same bytes). N is at most QE_RUN. */
static void chunk(const qerun *r, const uint8_t *a, size_t sa,
                  const uint8_t *b, size_t sb, size_t n, uint8_t *y)
{
    const rlxb_qelem *p = r->p;
    float fa[QE_RUN], fb[QE_RUN];
    deq(p->ta, a, sa, n, r->fza, r->sa, fa);
    deq(p->tb, b, sb, n, r->fzb, r->sb, fb);
    if (p->op == RLX_OP_ADD)
        for (size_t i = 0; i < n; i++)
            fa[i] = fa[i] + fb[i];
    else
        for (size_t i = 0; i < n; i++)
            fa[i] = fa[i] * fb[i];
    float sy = r->sy, flo = r->flo, fhi = r->fhi;
    int32_t zy = r->zy;
    size_t i = 0;
#if defined(__AVX512F__)
    /* the divide's results 16 at a time (qround.h) */
    __m512 vs = _mm512_set1_ps(sy), vinv = _mm512_set1_ps(1.0f / sy);
    __m512 vlo = _mm512_set1_ps(flo), vhi = _mm512_set1_ps(fhi);
    __m512i vz = _mm512_set1_epi32(zy);
    int mode = rlxb_qdiv_mode(sy);
    for (; i + 16 <= n; i += 16) {
        __m512 t = rlxb_qdiv_round(_mm512_loadu_ps(fa + i), vs, vinv, mode);
        t = _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(t, t, _CMP_ORD_Q), t);
        t = _mm512_min_ps(_mm512_max_ps(t, vlo), vhi);
        _mm512_mask_cvtepi32_storeu_epi8(
            y + i, 0xffff, _mm512_add_epi32(_mm512_cvttps_epi32(t), vz));
    }
#endif
    for (; i < n; i++) {
        float q = fa[i] / sy;
        float t = q == q ? nearbyintf(q) : 0.0f;
        t = t < flo ? flo : t;
        t = t > fhi ? fhi : t;
        y[i] = (uint8_t)((int32_t)t + zy); /* i8: two's complement */
    }
}

/* A row this long with one operand a single value (a squeeze-excite
 * mul) is a function of the other operand's byte: its 256 results are
 * made once (by chunk, so the same bytes) and looked up. */
#define QE_TABLE_ROW 512
_Static_assert(QE_RUN == 256, "a table is one run of every byte");

/* Rows [begin, end) of the f32 op's plan (kernels_ew.c's walk). */
static void task(void *arg, size_t begin, size_t end)
{
    const qerun *r = arg;
    const rlxb_binary *bp = &r->p->bin;
    size_t sa = bp->a_inner ? 1 : 0, sb = bp->b_inner ? 1 : 0;
    int table = bp->len >= QE_TABLE_ROW && sa != sb;
    uint8_t all[QE_RUN], lut[QE_RUN];
    for (int v = 0; v < QE_RUN; v++)
        all[v] = (uint8_t)v;
    for (size_t row = begin; row < end; row++) {
        size_t ia = 0, ib = 0, rest = row;
        for (uint32_t d = bp->rank; d-- > 0;) {
            size_t idx = rest % bp->dims[d];
            rest /= bp->dims[d];
            ia += idx * bp->a_stride[d];
            ib += idx * bp->b_stride[d];
        }
        uint8_t *y = r->y + row * bp->len;
        if (table) {
            if (sa)
                chunk(r, all, 1, r->b + ib, 0, QE_RUN, lut);
            else
                chunk(r, r->a + ia, 0, all, 1, QE_RUN, lut);
            rlxb_qlut_look(lut, sa ? r->a + ia : r->b + ib, y, bp->len);
            continue;
        }
        for (size_t i0 = 0; i0 < bp->len; i0 += QE_RUN) {
            size_t n = bp->len - i0 < QE_RUN ? bp->len - i0 : QE_RUN;
            chunk(r, r->a + ia + i0 * sa, sa, r->b + ib + i0 * sb, sb, n,
                  y + i0);
        }
    }
}

static int32_t byte_at(rlx_dtype t, const void *p)
{
    return t == RLX_DTYPE_U8 ? (int32_t)*(const uint8_t *)p
                             : (int32_t)*(const int8_t *)p;
}

void rlxb_qelem_run(rlxb_pool *pool, const rlxb_qelem *p,
                    const void *const *in, void *y)
{
    qerun r = { .p = p, .a = in[0], .b = in[3], .y = y };
    r.sa = *(const float *)in[1];
    r.fza = (float)byte_at(p->ta, in[2]);
    r.sb = *(const float *)in[4];
    r.fzb = (float)byte_at(p->tb, in[5]);
    r.sy = *(const float *)in[6];
    r.zy = byte_at(p->ty, in[7]);
    r.flo = (float)((p->ty == RLX_DTYPE_U8 ? 0 : -128) - r.zy);
    r.fhi = (float)((p->ty == RLX_DTYPE_U8 ? 255 : 127) - r.zy);
    if (p->bin.len == 0 || p->bin.rows == 0)
        return;
    size_t grain = ((size_t)1 << 14) / p->bin.len + 1;
    rlxb_parallel_for(pool, p->bin.rows, grain, task, &r);
}
