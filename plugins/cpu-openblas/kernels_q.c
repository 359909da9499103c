/*
 * kernels_q.c - matmul_integer and conv_integer on the integer GEMM of
 * qgemm.c, threaded over column chunks like sgemm.c, with the fused
 * requantization epilogue (qfuse.c) applied while a tile is hot.
 *
 * A (conv weights) is packed once per bound buffer, B (a matmul's
 * weights) likewise; a conv's B is its columns, built per chunk of
 * output pixels (im2col; a 1x1 conv packs straight from x) and packed
 * into panels in the thread's slot. Zero points are applied at the end:
 * sum (a - za)(b - zb) = sum ab - zb sum a - za sum b + k za zb, every
 * term wrapping in i32 exactly as the reference's sum does. The
 * epilogue does cpu-ref's float operations in its order: f32(acc +
 * bias), one f32 multiply, the divide by the quantize scale, round half
 * to even (nearbyintf in the default rounding mode), + zero point,
 * saturate, then the clamps of a fused relu or clip.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <rlx/kit_spatial.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "blas_internal.h"
#include "cpu_ref_reuse.h"

#define MR RLXB_QMR
#define NR RLXB_QNR

static int is_byte(rlx_dtype t)
{
    return t == RLX_DTYPE_U8 || t == RLX_DTYPE_I8;
}

static size_t numel(const rlx_node_view *v)
{
    size_t n = 1;
    for (uint32_t d = 0; d < v->rank; d++)
        n *= (size_t)v->shape[d];
    return n;
}

static int32_t load_byte(rlx_dtype t, const void *p, size_t i)
{
    return t == RLX_DTYPE_U8 ? (int32_t)((const uint8_t *)p)[i]
                             : (int32_t)((const int8_t *)p)[i];
}

/* ---- plans -------------------------------------------------------------- */

static rlx_status oom(const rlxb_backend *be, const char *name)
{
    return rlx_kit_fail(be->host, RLX_ERR_OUT_OF_MEMORY,
                        "cpu-openblas compile: out of memory planning '%s'. "
                        "Fix: free memory", name);
}

static void sides(rlxb_qplan *p)
{
    /* B keeps its bytes; A takes the other signedness */
    p->a_u8 = p->tb == RLX_DTYPE_I8;
    p->xb = 0;
    p->xa = p->ta == p->tb ? 0x80 : 0;
    p->kp = (p->k + 3) / 4 * 4;
    p->mp = (p->m + MR - 1) / MR * MR;
}

static rlx_status prepare_conv(const rlxb_backend *be, const rlx_graph_view *g,
                               const rlx_node_view *v, rlxb_qplan *p)
{
    const rlx_node_view *x = g->nodes[v->inputs[0]];
    const rlx_node_view *w = g->nodes[v->inputs[1]];
    uint32_t r = v->rank;
    if ((r != 4 && r != 3) || x->rank != r || w->rank != r)
        return RLX_ERR_UNSUPPORTED;
    rlx_kit_spatial sp;
    char err[256];
    uint32_t n_ints = 0;
    const int64_t *ints = NULL;
    if (RLX_HAS_FIELD(v->struct_size, rlx_node_view, int_attrs)) {
        n_ints = v->n_int_attrs;
        ints = v->int_attrs;
    }
    if (rlx_kit_spatial_parse(RLX_OP_CONV, r, n_ints, ints, &sp, err,
                              sizeof err) != 0)
        return rlx_kit_fail(be->host, RLX_ERR_INVALID_ARGUMENT,
                            "cpu-openblas compile: conv_integer '%s': %s",
                            v->name, err);
    if (r == 3) { /* 1-d as 2-d of height 1 */
        sp.stride[1] = sp.stride[0];
        sp.dilation[1] = sp.dilation[0];
        sp.pad_begin[1] = sp.pad_begin[0];
        sp.stride[0] = sp.dilation[0] = 1;
        sp.pad_begin[0] = 0;
    }
    p->is_conv = 1;
    p->nb = (size_t)x->shape[0];
    p->c = (size_t)x->shape[1];
    p->ih = r == 4 ? (size_t)x->shape[2] : 1;
    p->iw = (size_t)x->shape[r - 1];
    p->oh = r == 4 ? (size_t)v->shape[2] : 1;
    p->ow = (size_t)v->shape[r - 1];
    p->kh = r == 4 ? (size_t)w->shape[2] : 1;
    p->kw = (size_t)w->shape[r - 1];
    p->groups = (size_t)sp.group;
    p->sh = (size_t)sp.stride[0];
    p->sw = (size_t)sp.stride[1];
    p->dh = (size_t)sp.dilation[0];
    p->dw = (size_t)sp.dilation[1];
    p->ph = (size_t)sp.pad_begin[0];
    p->pw = (size_t)sp.pad_begin[1];
    size_t mm = (size_t)v->shape[1];
    if (p->groups == 0 || p->c % p->groups || mm % p->groups ||
        (size_t)w->shape[0] != mm || (size_t)w->shape[1] * p->groups != p->c ||
        numel(g->nodes[v->inputs[2]]) != 1)
        return RLX_ERR_UNSUPPORTED; /* cpu-ref reports it */
    size_t nz = numel(g->nodes[v->inputs[3]]);
    if (nz != 1 && nz != mm)
        return RLX_ERR_UNSUPPORTED;
    p->cg = p->c / p->groups;
    p->m = mm / p->groups;
    p->k = p->cg * p->kh * p->kw;
    p->n = p->oh * p->ow;
    p->ta = w->dtype;
    p->tb = x->dtype;
    p->za_count = nz;
    p->zb_count = 1;
    return RLX_OK;
}

static rlx_status prepare_matmul(const rlxb_backend *be,
                                 const rlx_graph_view *g,
                                 const rlx_node_view *v, rlxb_qplan *p)
{
    const rlx_node_view *a = g->nodes[v->inputs[0]];
    const rlx_node_view *b = g->nodes[v->inputs[1]];
    rlx__cpu_ref_matmul m;
    size_t *scratch = NULL;
    rlx_status st = rlx__cpu_ref_matmul_prepare(
        be->host, v->name, rlx__cpu_ref_shape_of(a), rlx__cpu_ref_shape_of(b),
        rlx__cpu_ref_shape_of(v), 0, 0, &m, &scratch);
    if (st != RLX_OK) {
        free(scratch);
        return RLX_ERR_UNSUPPORTED; /* cpu-ref reports it */
    }
    size_t za = numel(g->nodes[v->inputs[2]]);
    size_t zb = numel(g->nodes[v->inputs[3]]);
    if ((m.a_col != 1 && m.k > 1) || (m.b_col != 1 && m.n > 1) ||
        (za != 1 && za != m.m) || (zb != 1 && zb != m.n)) {
        free(scratch);
        return RLX_ERR_UNSUPPORTED;
    }
    p->m = m.m;
    p->k = m.k;
    p->n = m.n;
    p->a_row = m.a_row;
    p->b_row = m.b_row;
    p->n_batch = m.n_batch;
    size_t nb = m.n_batch ? m.n_batch : 1;
    p->a_off = calloc(nb, sizeof *p->a_off);
    p->b_off = calloc(nb, sizeof *p->b_off);
    if (!p->a_off || !p->b_off) {
        free(scratch);
        return oom(be, v->name);
    }
    size_t ia = 0, ib = 0;
    uint32_t r = m.batch_rank;
    if (r)
        memset(m.index, 0, r * sizeof *m.index);
    for (size_t t = 0; t < m.n_batch; t++) {
        p->a_off[t] = ia;
        p->b_off[t] = ib;
        for (uint32_t d = r; d-- > 0;) {
            ia += (size_t)m.a_batch_stride[d];
            ib += (size_t)m.b_batch_stride[d];
            if (++m.index[d] < m.batch_dims[d])
                break;
            ia -= (size_t)m.a_batch_stride[d] * m.batch_dims[d];
            ib -= (size_t)m.b_batch_stride[d] * m.batch_dims[d];
            m.index[d] = 0;
        }
    }
    free(scratch);
    p->ta = a->dtype;
    p->tb = b->dtype;
    p->za_count = za;
    p->zb_count = zb;
    return RLX_OK;
}

rlx_status rlxb_q_prepare(rlxb_backend *be, const rlx_graph_view *g,
                          uint32_t i, rlxb_qplan *p)
{
    const rlx_node_view *v = g->nodes[i];
    if ((v->op != RLX_OP_MATMUL_INTEGER && v->op != RLX_OP_CONV_INTEGER) ||
        v->n_inputs != 4 || v->dtype != RLX_DTYPE_I32)
        return RLX_ERR_UNSUPPORTED;
    rlx_dtype t[4];
    for (int j = 0; j < 4; j++)
        t[j] = g->nodes[v->inputs[j]]->dtype;
    if (!is_byte(t[0]) || !is_byte(t[1]) || t[2] != t[0] || t[3] != t[1])
        return RLX_ERR_UNSUPPORTED; /* cpu-ref reports it */
    memset(p, 0, sizeof *p);
    p->epi.bias_in = p->epi.mult_in = p->epi.scale_in = p->epi.zp_in = -1;
    rlx_status st = v->op == RLX_OP_CONV_INTEGER ? prepare_conv(be, g, v, p)
                                                 : prepare_matmul(be, g, v, p);
    if (st != RLX_OK) {
        rlxb_q_free(p);
        return st;
    }
    sides(p);
    return RLX_OK;
}

void rlxb_q_free(rlxb_qplan *p)
{
    free(p->a_off);
    free(p->b_off);
    free(p->pa);
    free(p->rsa);
    free(p->za);
    free(p->pb);
    free(p->csb);
    free(p->scratch);
    free(p->busy);
    rlxb_qconv_free(p->direct);
    memset(p, 0, sizeof *p);
    p->epi.bias_in = p->epi.mult_in = p->epi.scale_in = p->epi.zp_in = -1;
}

/* ---- packing A ---------------------------------------------------------- */

/* Rows [0, m) of a [m][k] matrix at SRC (row stride LD) into DST
 * ([mp][kp], flipped by p->xa, zero-padded) with their sums. */
static void pack_a(const rlxb_qplan *p, const uint8_t *src, size_t ld,
                   uint8_t *dst, int32_t *sums)
{
    memset(dst, 0, p->mp * p->kp);
    for (size_t i = 0; i < p->mp; i++)
        sums[i] = 0;
    for (size_t i = 0; i < p->m; i++) {
        uint8_t *d = dst + i * p->kp;
        const uint8_t *s = src + i * ld;
        uint32_t sum = 0; /* wraps, as every sum here */
        for (size_t q = 0; q < p->k; q++) {
            d[q] = s[q] ^ p->xa;
            sum += (uint32_t)(p->a_u8 ? (int32_t)d[q] : (int8_t)d[q]);
        }
        sums[i] = (int32_t)sum;
    }
}

/* A's packing for every group or batch, kept while its key stays. */
static int ensure_a(rlxb_qplan *p, const uint8_t *a)
{
    size_t blocks = p->is_conv ? p->groups : p->n_batch;
    size_t size = blocks * p->mp * p->kp;
    if (p->pa && p->a_key && p->a_key == p->a_packed_key)
        return 0;
    if (!p->pa || p->pa_size < size) {
        free(p->pa);
        free(p->rsa);
        p->pa = malloc(size ? size : 1);
        p->rsa = malloc((blocks * p->mp + 1) * sizeof *p->rsa);
        if (!p->pa || !p->rsa) {
            free(p->pa);
            free(p->rsa);
            p->pa = NULL;
            p->rsa = NULL;
            p->pa_size = 0;
            return -1;
        }
        p->pa_size = size;
    }
    for (size_t t = 0; t < blocks; t++) {
        const uint8_t *src = p->is_conv ? a + t * p->m * p->k
                                        : a + p->a_off[t];
        pack_a(p, src, p->is_conv ? p->k : p->a_row,
               p->pa + t * p->mp * p->kp, p->rsa + t * p->mp);
    }
    p->a_packed_key = p->a_key;
    return 0;
}

/* ---- B: a matmul's, packed per batch ----------------------------------- */

static size_t panels(const rlxb_qplan *p)
{
    return (p->n + NR - 1) / NR;
}

static int ensure_b(rlxb_qplan *p, const uint8_t *b)
{
    size_t np = panels(p), wide = np * NR;
    size_t size = p->n_batch * np * NR * p->kp;
    if (p->pb && p->b_key && p->b_key == p->b_packed_key)
        return 0;
    uint8_t *rows = calloc(p->kp * wide + 1, 1);
    if (!p->pb || p->pb_size < size) {
        free(p->pb);
        free(p->csb);
        p->pb = malloc(size ? size : 1);
        p->csb = malloc((p->n_batch * wide + 1) * sizeof *p->csb);
        p->pb_size = p->pb && p->csb ? size : 0;
    }
    if (!rows || !p->pb || !p->csb) {
        free(rows);
        free(p->pb);
        free(p->csb);
        p->pb = NULL;
        p->csb = NULL;
        p->pb_size = 0;
        return -1;
    }
    for (size_t t = 0; t < p->n_batch; t++) {
        int32_t *cs = p->csb + t * wide;
        memset(cs, 0, wide * sizeof *cs);
        for (size_t q = 0; q < p->k; q++) {
            const uint8_t *s = b + p->b_off[t] + q * p->b_row;
            memcpy(rows + q * wide, s, p->n);
            for (size_t j = 0; j < p->n; j++)
                cs[j] = (int32_t)((uint32_t)cs[j] +
                                  (uint32_t)load_byte(p->tb, s, j));
        }
        rlxb_qpack_b(rows, wide, p->kp, np, p->xb,
                     p->pb + t * np * NR * p->kp);
    }
    free(rows);
    p->b_packed_key = p->b_key;
    return 0;
}

/* ---- the epilogue ------------------------------------------------------- */

typedef struct qrun {
    rlxb_qplan *p;
    int path;
    const uint8_t *a, *b;     /* sources */
    const int32_t *za;        /* moved A zero point per (global) row */
    const void *zb;           /* B's zero point(s), B's dtype */
    size_t zb_step;           /* 0: one, 1: per column */
    int any_za;
    void *y;
    /* epilogue operands, resolved per run */
    const int32_t *bias;
    const float *mult;
    float scale;
    int32_t zp;
    float flo, fhi;           /* bounds of round(q), before + zp */
    size_t chunk;             /* columns per task, a multiple of NR */
    size_t n_chunks;
} qrun;

/* Rows [i0, i0 + mr) (of block BLK, global row base RBASE) by columns
 * [j0, j0 + nc) of tile C into the result. CS: the columns' B sums.
 * Loops run over the whole tile width (QNR, columns past NC computed
 * and dropped) so they vectorise. */
static void epilogue(const qrun *r, const int32_t *c, size_t blk,
                     size_t rbase, size_t i0, size_t mr, size_t j0,
                     size_t nc, const int32_t *cs, const int32_t *rsa)
{
    const rlxb_qplan *p = r->p;
    const rlxb_qepi *e = &p->epi;
    size_t n = p->n;
    uint32_t k = (uint32_t)p->k;
    uint32_t zb[NR];
    for (size_t jj = 0; jj < NR; jj++)
        zb[jj] = (uint32_t)load_byte(p->tb, r->zb,
                                     jj < nc ? r->zb_step * (j0 + jj) : 0);
    for (size_t ii = 0; ii < mr; ii++) {
        size_t i = i0 + ii, row = rbase + i;
        uint32_t za = (uint32_t)r->za[row];
        uint32_t ra = (uint32_t)rsa[i];
        size_t out = (blk * p->m + i) * n + j0;
        const int32_t *cr = c + ii * NR;
        uint32_t v[NR];
        for (size_t jj = 0; jj < NR; jj++)
            v[jj] = (uint32_t)cr[jj] - zb[jj] * ra + k * za * zb[jj];
        if (r->any_za)
            for (size_t jj = 0; jj < NR; jj++)
                v[jj] -= za * (uint32_t)cs[jj];
        if (!e->on) {
            memcpy((int32_t *)r->y + out, v, nc * sizeof *v);
            continue;
        }
        if (r->bias && e->bias_col)
            for (size_t jj = 0; jj < nc; jj++)
                v[jj] += (uint32_t)r->bias[j0 + jj];
        else if (r->bias) {
            uint32_t bv = (uint32_t)r->bias[row];
            for (size_t jj = 0; jj < NR; jj++)
                v[jj] += bv;
        }
        float q[NR];
        if (e->mult_mode == 2) {
            for (size_t jj = 0; jj < nc; jj++)
                q[jj] = (float)(int32_t)v[jj] * r->mult[j0 + jj];
            for (size_t jj = nc; jj < NR; jj++)
                q[jj] = 0.0f;
        } else {
            float mu = r->mult[e->mult_mode == 1 ? row : 0];
            for (size_t jj = 0; jj < NR; jj++)
                q[jj] = (float)(int32_t)v[jj] * mu;
        }
        if (r->scale != 1.0f)
            for (size_t jj = 0; jj < NR; jj++)
                q[jj] = q[jj] / r->scale;
        float flo = r->flo, fhi = r->fhi;
        int32_t zp = r->zp, res[NR];
        for (size_t jj = 0; jj < NR; jj++) {
            float t = q[jj] == q[jj] ? nearbyintf(q[jj]) : 0.0f;
            t = t < flo ? flo : t;
            t = t > fhi ? fhi : t;
            res[jj] = (int32_t)t + zp;
        }
        uint8_t b8[NR];
        for (size_t jj = 0; jj < NR; jj++)
            b8[jj] = (uint8_t)res[jj]; /* i8: the same two's complement */
        memcpy((uint8_t *)r->y + out, b8, nc);
    }
}

/* The tiles of one block of A against NP panels (columns from J0). */
static void tiles(const qrun *r, const uint8_t *pa, const int32_t *rsa,
                  const uint8_t *pb, size_t np, size_t blk, size_t rbase,
                  size_t j0, const int32_t *cs)
{
    const rlxb_qplan *p = r->p;
    int32_t c[MR * NR];
    for (size_t i0 = 0; i0 < p->m; i0 += MR) {
        size_t mr = p->m - i0 < MR ? p->m - i0 : MR;
        for (size_t q = 0; q < np; q++) {
            size_t j = j0 + q * NR;
            if (j >= p->n)
                break;
            size_t nc = p->n - j < NR ? p->n - j : NR;
            rlxb_qgemm_tile(r->path, pa + i0 * p->kp, pb + q * NR * p->kp,
                            p->kp, p->a_u8, c);
            epilogue(r, c, blk, rbase, i0, mr, j, nc, cs + q * NR, rsa);
        }
    }
}

/* ---- conv columns -------------------------------------------------------- */

/* Rows of the columns [p0, p0 + w) of image X (group G) into ROWS
 * ([kp][w]): padding reads x's zero point; rows past k are zero. Each
 * row is built a run of output columns at a time (one output row of the
 * image), with the columns whose tap falls inside the input found once
 * per row of ROWS. */
/* Output columns [*a, *b) of any output row whose tap KX reads inside
 * the input row. */
#define QTAPS 16
static void tap_cols(const rlxb_qplan *p, size_t kx, long *a, long *b)
{
    long sw = (long)p->sw, off = (long)(kx * p->dw) - (long)p->pw;
    long lo = off >= 0 ? 0 : (-off + sw - 1) / sw;
    long last = (long)p->iw - 1 - off;
    long hi = last < 0 ? 0 : last / sw + 1;
    if (hi > (long)p->ow)
        hi = (long)p->ow;
    *a = lo > hi ? hi : lo;
    *b = hi;
}

static void im2col(const qrun *r, const uint8_t *x, size_t p0, size_t w,
                   uint8_t *rows)
{
    const rlxb_qplan *p = r->p;
    uint8_t pad = (uint8_t)load_byte(p->tb, r->zb, 0);
    size_t npix = p->n;
    size_t valid = npix - p0 < w ? npix - p0 : w;
    size_t oy0 = p0 / p->ow, ox00 = p0 % p->ow;
    long sw = (long)p->sw;
    long ta[QTAPS], tb[QTAPS]; /* tap_cols of the first taps, once */
    for (size_t t = 0; t < p->kw && t < QTAPS; t++)
        tap_cols(p, t, &ta[t], &tb[t]);
    size_t ch = 0, ky = 0, kx = 0; /* of row q, stepped without division */
    for (size_t q = 0; q < p->k; q++) {
        if (q) {
            if (++kx == p->kw) {
                kx = 0;
                if (++ky == p->kh) {
                    ky = 0;
                    ch++;
                }
            }
        }
        const uint8_t *plane = x + ch * p->ih * p->iw;
        uint8_t *d = rows + q * w;
        long off = (long)(kx * p->dw) - (long)p->pw, a, b;
        if (kx < QTAPS) {
            a = ta[kx];
            b = tb[kx];
        } else {
            tap_cols(p, kx, &a, &b);
        }
        size_t j = 0, oy = oy0, ox0 = ox00;
        while (j < valid) {
            size_t len = p->ow - ox0;
            if (len > valid - j)
                len = valid - j;
            long iy = (long)(oy * p->sh + ky * p->dh) - (long)p->ph;
            uint8_t *dd = d + j; /* column o at dd[o - o0] */
            if (iy < 0 || iy >= (long)p->ih) {
                memset(dd, pad, len);
            } else {
                const uint8_t *src = plane + (size_t)iy * p->iw;
                long o0 = (long)ox0, o1 = (long)(ox0 + len);
                long ca = a < o0 ? o0 : a > o1 ? o1 : a;
                long cb = b < ca ? ca : b > o1 ? o1 : b;
                for (long o = o0; o < ca; o++)
                    dd[o - o0] = pad;
                long o = ca;
                if (sw == 1) {
                    memcpy(dd + (ca - o0), src + ca + off, (size_t)(cb - ca));
                    o = cb;
                }
#if defined(__SSE2__)
                /* stride 2 (stems, downsampling): the even bytes of 32,
                 * while all 32 lie inside the row */
                if (sw == 2) {
                    const __m128i even = _mm_set1_epi16(0x00ff);
                    for (; o + 16 <= cb && o * 2 + off + 32 <= (long)p->iw;
                         o += 16) {
                        const uint8_t *sp = src + o * 2 + off;
                        __m128i lo = _mm_loadu_si128((const __m128i *)sp);
                        __m128i hi = _mm_loadu_si128(
                            (const __m128i *)(sp + 16));
                        _mm_storeu_si128(
                            (__m128i *)(dd + (o - o0)),
                            _mm_packus_epi16(_mm_and_si128(lo, even),
                                             _mm_and_si128(hi, even)));
                    }
                }
#endif
                for (; o < cb; o++)
                    dd[o - o0] = src[o * sw + off];
                for (long o = cb; o < o1; o++)
                    dd[o - o0] = pad;
            }
            j += len;
            oy++;
            ox0 = 0;
        }
        if (valid < w)
            memset(d + valid, 0, w - valid);
    }
    memset(rows + p->k * w, 0, (p->kp - p->k) * w);
}

static unsigned take_slot(rlxb_qplan *p)
{
    for (;;)
        for (unsigned s = 0; s < p->n_slots; s++)
            if (!atomic_flag_test_and_set_explicit(&p->busy[s],
                                                   memory_order_acquire))
                return s;
}

static void conv_task(void *arg, size_t begin, size_t end)
{
    const qrun *r = arg;
    rlxb_qplan *p = r->p;
    unsigned slot = take_slot(p);
    unsigned char *mem = p->scratch + slot * p->slot_bytes;
    size_t w = r->chunk, np = w / NR;
    uint8_t *rows = mem, *pb = mem + p->kp * w;
    int32_t *cs = (int32_t *)(void *)(pb + p->kp * w);
    int direct = p->kh == 1 && p->kw == 1 && p->sh == 1 && p->sw == 1 &&
                 p->ph == 0 && p->pw == 0 && p->oh == p->ih &&
                 p->ow == p->iw && p->k == p->kp;
    for (size_t t = begin; t < end; t++) {
        size_t ch = t % r->n_chunks, bg = t / r->n_chunks;
        size_t g = bg % p->groups, img = bg / p->groups;
        size_t p0 = ch * w;
        const uint8_t *x = r->b + (img * p->c + g * p->cg) * p->ih * p->iw;
        const uint8_t *src = rows;
        size_t ld = w;
        if (direct && p0 + w <= p->n) { /* x is already the columns */
            src = x + p0;
            ld = p->n;
        } else {
            im2col(r, x, p0, w, rows);
        }
        if (r->any_za) {
            memset(cs, 0, w * sizeof *cs);
            for (size_t q = 0; q < p->k; q++) {
                const uint8_t *s = src + q * ld;
                /* wrapping sums (uint32_t), as the result's */
                if (p->tb == RLX_DTYPE_U8)
                    for (size_t j = 0; j < w; j++)
                        cs[j] = (int32_t)((uint32_t)cs[j] + s[j]);
                else
                    for (size_t j = 0; j < w; j++)
                        cs[j] = (int32_t)((uint32_t)cs[j] +
                                          (uint32_t)(int8_t)s[j]);
            }
        }
        rlxb_qpack_b(src, ld, p->kp, np, p->xb, pb);
        tiles(r, p->pa + g * p->mp * p->kp, p->rsa + g * p->mp, pb, np,
              img * p->groups + g, g * p->m, p0, cs);
    }
    atomic_flag_clear_explicit(&p->busy[slot], memory_order_release);
}

static void matmul_task(void *arg, size_t begin, size_t end)
{
    const qrun *r = arg;
    const rlxb_qplan *p = r->p;
    size_t np = panels(p), per = r->chunk / NR;
    for (size_t t = begin; t < end; t++) {
        size_t ch = t % r->n_chunks, b = t / r->n_chunks;
        size_t q0 = ch * per, nq = np - q0 < per ? np - q0 : per;
        const uint8_t *pb = p->pb + (b * np + q0) * NR * p->kp;
        tiles(r, p->pa + b * p->mp * p->kp, p->rsa + b * p->mp, pb, nq, b,
              0, q0 * NR, p->csb + b * np * NR + q0 * NR);
    }
}

static int ensure_slots(rlxb_qplan *p, unsigned slots, size_t bytes)
{
    if (p->scratch && p->slot_bytes >= bytes && p->n_slots >= slots)
        return 0;
    free(p->scratch);
    free(p->busy);
    bytes = (bytes + RLXB_ALIGN - 1) / RLXB_ALIGN * RLXB_ALIGN;
    p->scratch = aligned_alloc(RLXB_ALIGN, slots * bytes);
    p->busy = malloc(slots * sizeof *p->busy);
    if (!p->scratch || !p->busy) {
        free(p->scratch);
        free(p->busy);
        p->scratch = NULL;
        p->busy = NULL;
        p->n_slots = 0;
        p->slot_bytes = 0;
        return -1;
    }
    for (unsigned s = 0; s < slots; s++)
        atomic_flag_clear(&p->busy[s]);
    p->n_slots = slots;
    p->slot_bytes = bytes;
    return 0;
}

/* The epilogue's operands of this run, and its bounds. */
static void resolve_epi(qrun *r, const void *const *in)
{
    const rlxb_qepi *e = &r->p->epi;
    if (!e->on)
        return;
    r->bias = e->bias_in >= 0 ? in[e->bias_in] : NULL;
    r->mult = in[e->mult_in];
    r->scale = *(const float *)in[e->scale_in];
    r->zp = load_byte(e->out, in[e->zp_in], 0);
    int32_t lo = e->out == RLX_DTYPE_U8 ? 0 : -128;
    int32_t hi = e->out == RLX_DTYPE_U8 ? 255 : 127;
    for (uint32_t c = 0; c < e->n_clamp; c++) {
        int32_t v = load_byte(e->out, in[e->clamp_in[c]], 0);
        if (e->clamp_op[c] == RLX_OP_MAX) {
            lo = lo > v ? lo : v;
            hi = hi > v ? hi : v;
        } else {
            lo = lo < v ? lo : v;
            hi = hi < v ? hi : v;
        }
    }
    r->flo = (float)(lo - r->zp);
    r->fhi = (float)(hi - r->zp);
}

int rlxb_q_run(rlxb_pool *pool, rlxb_qplan *p, const void *const *in,
               void *y)
{
    qrun r = { .p = p, .path = rlxb_qgemm_path(), .y = y };
    int conv = p->is_conv;
    r.a = in[conv ? 1 : 0];
    r.b = in[conv ? 0 : 1];
    const void *za_src = in[conv ? 3 : 2];
    r.zb = in[conv ? 2 : 3];
    if (rlxb_qdw_fits(p)) /* depthwise: direct (kernels_qdw.c) */
        return rlxb_qdw_run(pool, p, in, y);
    int direct = rlxb_qconv_run(pool, p, in, y, r.path);
    if (direct != 1) /* done, or out of memory */
        return direct;
    resolve_epi(&r, in);
    size_t rows = conv ? p->groups * p->m : p->m;
    size_t blocks = conv ? p->nb * p->groups : p->n_batch;
    if (p->m == 0 || p->n == 0 || blocks == 0)
        return 0;
    /* zero points: A's moved to its side, B's as stored */
    if (!p->za && !(p->za = malloc(rows * sizeof *p->za)))
        return -1;
    int32_t move = !p->xa ? 0 : p->a_u8 ? 128 : -128;
    r.any_za = 0;
    for (size_t i = 0; i < rows; i++) {
        p->za[i] = move + load_byte(p->ta, za_src,
                                    p->za_count == 1 ? 0 : i);
        r.any_za |= p->za[i] != 0;
    }
    r.za = p->za;
    r.zb_step = p->zb_count == 1 ? 0 : 1;
    if (ensure_a(p, r.a) != 0)
        return -1;
    unsigned threads = rlxb_pool_threads(pool);
    if (conv) {
        size_t per = (size_t)131072 / (p->kp * NR + 1);
        per = per < 1 ? 1 : per > 8 ? 8 : per;
        r.chunk = per * NR;
        r.n_chunks = (p->n + r.chunk - 1) / r.chunk;
        size_t bytes = 2 * p->kp * r.chunk + r.chunk * sizeof(int32_t);
        if (ensure_slots(p, threads ? threads : 1, bytes) != 0)
            return -1;
        rlxb_parallel_for(pool, blocks * r.n_chunks, 1, conv_task, &r);
    } else {
        if (ensure_b(p, r.b) != 0)
            return -1;
        size_t np = panels(p), per = (np + 3) / 4;
        per = per < 1 ? 1 : per > 8 ? 8 : per;
        r.chunk = per * NR;
        r.n_chunks = (np + per - 1) / per;
        rlxb_parallel_for(pool, blocks * r.n_chunks, 1, matmul_task, &r);
    }
    return 0;
}
