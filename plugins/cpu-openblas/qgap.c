/*
 * qgap.c - the QDQ form of a global average pool (the squeeze of a
 * squeeze-excite block) on bytes. A QDQ model leaves it as
 *
 *   y = quantize_linear(reduce_mean(dequantize_linear(x)))
 *
 * over the trailing dims: the whole of x dequantized to f32 only to be
 * summed. Here the quantize step reads x's bytes. cpu-ref sums the f32
 * values in double: each is (f32(x) - f32(zp)) * scale, one of at most
 * 256 values, all integer multiples of the smallest one's last bit and
 * at most 2^33 of it, so any sum of fewer than 2^20 of them is exact in
 * double, in any order. The sum here is that exact sum in integers
 * (byte sums and each byte's rounding error; see below), then cpu-ref's
 * divide, rounding to f32 and quantize, so the bytes are those
 * of the separate ops. Taken for per-tensor scales, a mean over a
 * contiguous block that ends x (inner 1) of fewer than 2^20 elements and
 * a mean read only by its quantize; a dequantize read only here goes.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "blas_internal.h"

/* The table and the divide must round on their own, as cpu-ref's
 * separate ops do. */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

#define QGAP_MAX_LEN ((size_t)1 << 20) /* sums exact in double below */

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

/* Step QI, a quantize: folds a mean of a dequantize into it. */
static rlx_status fuse_one(rlxb_backend *be, const rlx_graph_view *g,
                           rlxb_exe *x, const uint32_t *uses, uint32_t qi,
                           unsigned *n_fused)
{
    rlxb_step *q = &x->steps[qi];
    if (!per_tensor(q, 1) || q->where != RLXB_ARENA)
        return RLX_OK;
    uint32_t ri = q->inputs[0];
    const rlxb_step *r = &x->steps[ri];
    if (r->kind != RLXB_K_REDUCE || g->nodes[ri]->op != RLX_OP_REDUCE_MEAN ||
        r->where != RLXB_ARENA || uses[ri] != 1 || r->n_inputs != 1)
        return RLX_OK;
    const rlxb_axis *a = &r->plan.axis;
    uint32_t di = r->inputs[0];
    const rlxb_step *d = &x->steps[di];
    if (a->inner != 1 || a->len == 0 || a->len >= QGAP_MAX_LEN ||
        a->outer != q->count || a->outer * a->len != d->count ||
        !per_tensor(d, 0) || x->steps[d->inputs[0]].where == RLXB_FUSED ||
        g->nodes[d->inputs[1]]->dtype != RLX_DTYPE_F32 ||
        g->nodes[q->inputs[1]]->dtype != RLX_DTYPE_F32)
        return RLX_OK;
    uint32_t *ins = calloc(5, sizeof *ins);
    if (!ins)
        return rlx_kit_fail(be->host, RLX_ERR_OUT_OF_MEMORY,
                            "cpu-openblas compile: out of memory fusing "
                            "'%s'. Fix: free memory", g->nodes[qi]->name);
    memcpy(ins, d->inputs, 3 * sizeof *ins);
    ins[3] = q->inputs[1];
    ins[4] = q->inputs[2];
    rlxb_qgap p = { .tx = d->plan.qlin.tx, .ty = q->plan.qlin.tx,
                    .outer = a->outer, .len = a->len };
    if (uses[di] == 1 && d->where == RLXB_ARENA)
        retire(&x->steps[di]);
    retire(&x->steps[ri]);
    free(q->inputs);
    q->inputs = ins;
    q->n_inputs = 5;
    q->kind = RLXB_K_QGAP;
    q->plan.qgap = p;
    (*n_fused)++;
    return RLX_OK;
}

rlx_status rlxb_qgap_fuse(rlxb_backend *be, const rlx_graph_view *g,
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
                    "cpu-openblas: %u quantized means on bytes", n);
    return st;
}

/* ---- run ------------------------------------------------------------- */

/* The sum without a table per element: write the scale s = ms * u (ms an
 * integer of 24 bits, u a power of two) and each dequantized value
 * d(b) = (b - zp) * ms * u + r(b) * u, r(b) its rounding error in units
 * of u, an integer of at most 2^8 / 2 (d is at most 2^8 times s, so its
 * last bit at most 2^8 u). The sum of d over a plane is then
 * u * (ms * sum(b - zp) + sum(r(b))): byte sums and small integer sums,
 * exact in int64 and, below 2^53, in double. A scale where that does not
 * hold (infinite, NaN, or r out of range) takes the double sum of d. */
typedef struct qgrun {
    const rlxb_qgap *p;
    const uint8_t *x;
    uint8_t *y;
    int exact;                /* the integer form holds */
    int64_t ms, zval;         /* ms; the zero point */
    int x_signed;
    double u;
    int16_t r[256];           /* r(b), by byte */
    uint8_t r1[256], r2[256]; /* r(b) as r1 - 128 + r2: r1 a byte, r2 0/1 */
    double d[256];            /* d(b), for the double form */
    float sy;
    double zy, lo, hi;
} qgrun;

static int32_t byte_at(rlx_dtype t, const void *p)
{
    return t == RLX_DTYPE_U8 ? (int32_t)*(const uint8_t *)p
                             : (int32_t)*(const int8_t *)p;
}

/* cpu-ref's rounding of a double to f32 (to_f32 in cpu_ref_shape.c):
 * the nearest, infinity only past FLT_MAX plus half an ulp. */
static float to_f32(double v)
{
    if (v > FLT_MAX)
        return v >= 0x1.ffffffp+127 ? INFINITY : FLT_MAX;
    if (v < -FLT_MAX)
        return v <= -0x1.ffffffp+127 ? -INFINITY : -FLT_MAX;
    return (float)v;
}

#if defined(__x86_64__) && defined(__GNUC__) && defined(__AVX512F__)
#include <immintrin.h>
#define QGAP_VBMI 1
#define TVBMI __attribute__((target("avx512f,avx512bw,avx512vbmi")))

/* sum(value of x), sum(r1), sum(r2) over N bytes, 64 at a time. */
TVBMI static void sums_vbmi(const qgrun *r, const uint8_t *x, size_t n,
                            int64_t *sx, int64_t *s1, int64_t *s2)
{
    __m512i a0 = _mm512_loadu_si512(r->r1), a1 = _mm512_loadu_si512(r->r1 + 64);
    __m512i a2 = _mm512_loadu_si512(r->r1 + 128);
    __m512i a3 = _mm512_loadu_si512(r->r1 + 192);
    __m512i b0 = _mm512_loadu_si512(r->r2), b1 = _mm512_loadu_si512(r->r2 + 64);
    __m512i b2 = _mm512_loadu_si512(r->r2 + 128);
    __m512i b3 = _mm512_loadu_si512(r->r2 + 192);
    __m512i flip = _mm512_set1_epi8(r->x_signed ? (char)0x80 : 0);
    __m512i zero = _mm512_setzero_si512(), cx = zero, c1 = zero, c2 = zero;
    for (size_t i = 0; i < n; i += 64) {
        __mmask64 m = n - i >= 64 ? ~(__mmask64)0
                                  : ~(__mmask64)0 >> (64 - (n - i));
        __m512i v = _mm512_maskz_loadu_epi8(m, x + i);
        __mmask64 top = _mm512_movepi8_mask(v);
        __m512i l1 = _mm512_mask_blend_epi8(
            top, _mm512_permutex2var_epi8(a0, v, a1),
            _mm512_permutex2var_epi8(a2, v, a3));
        __m512i l2 = _mm512_mask_blend_epi8(
            top, _mm512_permutex2var_epi8(b0, v, b1),
            _mm512_permutex2var_epi8(b2, v, b3));
        __m512i vx = _mm512_maskz_mov_epi8(m, _mm512_xor_si512(v, flip));
        l1 = _mm512_maskz_mov_epi8(m, l1);
        l2 = _mm512_maskz_mov_epi8(m, l2);
        cx = _mm512_add_epi64(cx, _mm512_sad_epu8(vx, zero));
        c1 = _mm512_add_epi64(c1, _mm512_sad_epu8(l1, zero));
        c2 = _mm512_add_epi64(c2, _mm512_sad_epu8(l2, zero));
    }
    *sx = _mm512_reduce_add_epi64(cx);
    *s1 = _mm512_reduce_add_epi64(c1);
    *s2 = _mm512_reduce_add_epi64(c2);
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
#else
#define QGAP_VBMI 0
#endif

/* The exact sum of d over the N bytes at X. */
static double plane_sum(const qgrun *r, const uint8_t *x, size_t n)
{
    if (!r->exact) {
        double s = 0; /* cpu-ref's order */
        for (size_t i = 0; i < n; i++)
            s += r->d[x[i]];
        return s;
    }
    int64_t sv = 0, sr = 0;
#if QGAP_VBMI
    if (have_vbmi()) {
        int64_t sx, s1, s2;
        sums_vbmi(r, x, n, &sx, &s1, &s2);
        sv = sx - (r->x_signed ? 128 * (int64_t)n : 0);
        sr = s1 - 128 * (int64_t)n + s2;
        return (double)(r->ms * (sv - (int64_t)n * r->zval) + sr) * r->u;
    }
#endif
    for (size_t i = 0; i < n; i++) {
        sv += r->x_signed ? (int8_t)x[i] : x[i];
        sr += r->r[x[i]];
    }
    return (double)(r->ms * (sv - (int64_t)n * r->zval) + sr) * r->u;
}

static void task(void *arg, size_t begin, size_t end)
{
    const qgrun *r = arg;
    size_t len = r->p->len;
    for (size_t o = begin; o < end; o++) {
        double mean = plane_sum(r, r->x + o * len, len) / (double)len;
        float q = to_f32(mean) / r->sy;
        double v;
        if (isnan(q))
            v = r->zy;
        else {
            v = nearbyint((double)q) + r->zy; /* half to even */
            v = v <= r->lo ? r->lo : v >= r->hi ? r->hi : v;
        }
        r->y[o] = (uint8_t)(int32_t)v; /* i8: two's complement */
    }
}

/* The tables of R for scale SX and zero point ZX. */
static void tables(qgrun *r, float sx, int32_t zx)
{
    int lo = r->x_signed ? -128 : 0, e = 0;
    double f = frexp((double)sx, &e); /* sx = f 2^e, f in [0.5, 1) */
    r->zval = zx;
    r->ms = (int64_t)ldexp(f, 24);
    r->u = ldexp(1.0, e - 24);
    r->exact = isfinite(sx) && ldexp(f, 24) == (double)r->ms;
    for (int b = 0; b < 256; b++) {
        int v = lo + b;
        uint8_t key = (uint8_t)v;
        /* cpu-ref's dequantize: (f32(x) - f32(zp)) * scale, in f32 */
        float dq = ((float)v - (float)zx) * sx;
        r->d[key] = (double)dq;
        if (!r->exact)
            continue;
        double units = ldexp((double)dq, 24 - e); /* d / u, an integer */
        double rr = units - (double)((int64_t)(v - zx) * r->ms);
        if (!isfinite(dq) || rr != nearbyint(rr) || rr < -128 || rr > 128) {
            r->exact = 0;
            continue;
        }
        r->r[key] = (int16_t)rr;
        r->r1[key] = (uint8_t)((rr > 127 ? 127 : (int)rr) + 128);
        r->r2[key] = (uint8_t)(rr > 127);
    }
}

void rlxb_qgap_run(rlxb_pool *pool, const rlxb_qgap *p,
                   const void *const *in, void *y)
{
    qgrun local; /* about 4 KiB of tables */
    qgrun *rr = &local;
    memset(rr, 0, sizeof *rr);
    rr->p = p;
    rr->x = in[0];
    rr->y = y;
    rr->x_signed = p->tx == RLX_DTYPE_I8;
    float sx;
    memcpy(&sx, in[1], sizeof sx);
    tables(rr, sx, byte_at(p->tx, in[2]));
    memcpy(&rr->sy, in[3], sizeof rr->sy);
    rr->zy = (double)byte_at(p->ty, in[4]);
    rr->lo = p->ty == RLX_DTYPE_U8 ? 0.0 : -128.0;
    rr->hi = p->ty == RLX_DTYPE_U8 ? 255.0 : 127.0;
    if (p->outer) {
        size_t grain = ((size_t)1 << 14) / p->len + 1;
        rlxb_parallel_for(pool, p->outer, grain, task, rr);
    }
}
