/* test-blas-quant.c - cpu-openblas's 8-bit integer kernels against
 * cpu-ref, bit for bit. Built once per variant (its kernels linked in,
 * level in RLX_TEST_BLAS_LEVEL): the micro-kernel of every path this
 * CPU runs (forced one by one, the exact AVX2 path included) against a
 * plain sum, then, through the runtime with this variant's plugin
 * loaded, matmul_integer and conv_integer (i32 results) and the fused
 * requantization chain the ONNX importer lowers QLinearConv and
 * QLinearMatMul to, on odd sizes, u8 and s8 on each side, zero points
 * at the extremes, results that saturate, relu and clip clamps, per
 * channel and per column scales and biases. The debug log must say
 * that every chain was fused, so the fused kernel is what was checked. */
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blas-test-util.h"
#include "hostfit.h"
#include "qgemm.h"

#ifndef RLX_TEST_BLAS_LEVEL
#define RLX_TEST_BLAS_LEVEL 0
#endif

static const char *const suffix[] = { "", "-avx2", "-avx512" };

static void need_variant(void)
{
    rlxb_cpu_bits bits;
    rlxb_cpu_bits_read(&bits);
    if (rlxb_host_fit_decide(RLX_TEST_BLAS_LEVEL, &bits) == 0)
        SKIP("this CPU cannot run variant level %d", RLX_TEST_BLAS_LEVEL);
}

static uint64_t rng = 0x2545f4914f6cdd1du;
static uint32_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 16);
}

/* ---- micro-kernels ------------------------------------------------------ */

static void check_tiles(int path)
{
    size_t kps[] = { 0, 4, 8, 36, 260 };
    for (size_t t = 0; t < sizeof kps / sizeof *kps; t++)
        for (int a_u8 = 0; a_u8 < 2; a_u8++) {
            size_t kp = kps[t];
            uint8_t *a = malloc(RLXB_QMR * kp + 1);
            uint8_t *rows = malloc(kp * RLXB_QNR + 1);
            uint8_t *pb = malloc(kp * RLXB_QNR + 1);
            int32_t c[RLXB_QMR * RLXB_QNR];
            ASSERT(a && rows && pb);
            for (size_t i = 0; i < RLXB_QMR * kp; i++)
                a[i] = (uint8_t)(i % 7 == 0 ? 255 : i % 11 == 0 ? 128
                                                                 : next());
            for (size_t i = 0; i < kp * RLXB_QNR; i++)
                rows[i] = (uint8_t)(i % 5 == 0 ? 255 : i % 13 == 0 ? 128
                                                                    : next());
            rlxb_qpack_b(rows, RLXB_QNR, kp, 1, 0x80, pb);
            rlxb_qgemm_tile(path, a, pb, kp, a_u8, c);
            for (size_t r = 0; r < RLXB_QMR; r++)
                for (size_t j = 0; j < RLXB_QNR; j++) {
                    int64_t s = 0;
                    for (size_t q = 0; q < kp; q++) {
                        uint8_t bv = rows[q * RLXB_QNR + j] ^ 0x80;
                        int64_t av = a_u8 ? a[r * kp + q]
                                          : (int8_t)a[r * kp + q];
                        s += av * (a_u8 ? (int8_t)bv : (int64_t)bv);
                    }
                    if (c[r * RLXB_QNR + j] != (int32_t)s)
                        FAIL("path %d kp %zu a_u8 %d: C[%zu][%zu] is %d, "
                             "want %lld", path, kp, a_u8, r, j,
                             c[r * RLXB_QNR + j], (long long)s);
                }
            free(a);
            free(rows);
            free(pb);
        }
}

TEST(tiles_every_path)
{
    need_variant();
    int ran = 0;
    for (int path = RLXB_QPATH_SCALAR; path <= RLXB_QPATH_VNNI512; path++) {
        if (rlxb_qgemm_force(path) != 0)
            continue;
        ASSERT_EQ(rlxb_qgemm_path(), path);
        check_tiles(path);
        ran++;
    }
    ASSERT_OK(rlxb_qgemm_force(-1));
    ASSERT(ran >= 1);
    /* a path past the widest is refused */
    ASSERT(rlxb_qgemm_force(RLXB_QPATH_VNNI512 + 1) != 0);
}

/* ---- graphs through the runtime --------------------------------------- */

typedef struct gcase {
    int conv;
    /* conv: x [n, c, h, w], w [m, c / group, kh, kw] */
    int64_t n, c, h, w, m, kh, kw, group, s, d, pad;
    /* matmul: a [batch, mm, k], b [k, nn] */
    int64_t batch, mm, k, nn;
    rlx_dtype tx, tw, ty;     /* ty: the quantized result; 0: i32 */
    int zx, zw;               /* zero points; zw < -1000: per channel */
    int bias, mult_per, clamp; /* clamp 1 relu, 2 clip */
    float mult;
} gcase;

typedef struct graph {
    rlx_graph *g;
    size_t nx, nw, ny, ny_bytes, n_zw, n_mult, n_bias;
    int64_t out_c;
} graph;

static rlx_value node(rlx_graph *g, rlx_op op, uint32_t n,
                      const rlx_value *in, uint32_t n_ints,
                      const int64_t *ints)
{
    rlx_value v, copy[4];
    memcpy(copy, in, n * sizeof *in);
    rlx_attrs at = { .n_ints = n_ints, .ints = ints };
    if (rlx_graph_add_node(g, NULL, op, n, copy, n_ints ? &at : NULL, &v) !=
        RLX_OK)
        FAIL("node %d: %s", (int)op, rlx_last_error());
    return v;
}

static rlx_value constant(rlx_graph *g, const char *name, rlx_dtype t,
                          uint32_t rank, const int64_t *dims,
                          const void *data)
{
    rlx_value v;
    if (rlx_graph_constant(g, name, t, rank, dims, data, &v) != RLX_OK)
        FAIL("constant %s: %s", name, rlx_last_error());
    return v;
}

static int zw_at(const gcase *k, size_t i)
{
    if (k->zw >= -1000)
        return k->zw;
    /* per channel, the extremes and between */
    int lo = k->tw == RLX_DTYPE_U8 ? 0 : -128;
    int v[4] = { lo, lo + 255, lo + 1, lo + 100 };
    return v[i % 4];
}

static graph build(const gcase *k)
{
    graph b = { 0 };
    ASSERT_OK(rlx_graph_create(&b.g));
    rlx_value x, w, acc;
    size_t rows;
    if (k->conv) {
        int64_t eh = (k->kh - 1) * k->d + 1, ew = (k->kw - 1) * k->d + 1;
        int64_t oh = (k->h + 2 * k->pad - eh) / k->s + 1;
        int64_t ow = (k->w + 2 * k->pad - ew) / k->s + 1;
        ASSERT_OK(rlx_graph_input(b.g, "x", k->tx, 4,
                                  (int64_t[]){ k->n, k->c, k->h, k->w }, &x));
        ASSERT_OK(rlx_graph_param(b.g, "w", k->tw, 4,
                                  (int64_t[]){ k->m, k->c / k->group, k->kh,
                                               k->kw }, &w));
        b.nx = (size_t)(k->n * k->c * k->h * k->w);
        b.nw = (size_t)(k->m * (k->c / k->group) * k->kh * k->kw);
        b.ny = (size_t)(k->n * k->m * oh * ow);
        rows = (size_t)k->m;
        b.out_c = k->m;
    } else {
        ASSERT_OK(rlx_graph_input(b.g, "x", k->tx, 3,
                                  (int64_t[]){ k->batch, k->mm, k->k }, &x));
        ASSERT_OK(rlx_graph_param(b.g, "w", k->tw, 2,
                                  (int64_t[]){ k->k, k->nn }, &w));
        b.nx = (size_t)(k->batch * k->mm * k->k);
        b.nw = (size_t)(k->k * k->nn);
        b.ny = (size_t)(k->batch * k->mm * k->nn);
        rows = (size_t)k->nn; /* per column for a matmul */
        b.out_c = k->nn;
    }
    int8_t zx = (int8_t)k->zx;
    uint8_t zxu = (uint8_t)k->zx;
    rlx_value zxv = constant(b.g, "zx", k->tx, 0, NULL,
                             k->tx == RLX_DTYPE_U8 ? (void *)&zxu
                                                   : (void *)&zx);
    /* w's zero point: one, or per channel (conv only) */
    uint8_t zwb[512];
    b.n_zw = k->zw < -1000 && k->conv ? rows : 1;
    for (size_t i = 0; i < b.n_zw; i++)
        zwb[i] = (uint8_t)zw_at(k, i);
    rlx_value zwv = constant(b.g, "zw", k->tw, b.n_zw == 1 ? 0 : 1,
                             (int64_t[]){ (int64_t)b.n_zw }, zwb);
    if (k->conv) {
        int64_t at[9] = { k->group, k->s, k->s, k->d, k->d,
                          k->pad, k->pad, k->pad, k->pad };
        acc = node(b.g, RLX_OP_CONV_INTEGER, 4,
                   (rlx_value[]){ x, w, zxv, zwv }, 9, at);
    } else {
        acc = node(b.g, RLX_OP_MATMUL_INTEGER, 4,
                   (rlx_value[]){ x, w, zxv, zwv }, 0, NULL);
    }
    rlx_value y = acc;
    if (k->ty) {
        int64_t bdims[4] = { 1, 1, 1, 1 };
        uint32_t brank = k->conv ? 4 : 1;
        if (k->conv)
            bdims[1] = (int64_t)rows;
        else
            bdims[0] = (int64_t)rows;
        if (k->bias) {
            int32_t bias[512];
            for (size_t i = 0; i < rows; i++)
                bias[i] = (int32_t)(next() % 20001) - 10000;
            bias[0] = INT32_MAX - 5; /* wraps, as the reference's add */
            rlx_value bv = constant(b.g, "bias", RLX_DTYPE_I32, brank, bdims,
                                    bias);
            y = node(b.g, RLX_OP_ADD, 2, (rlx_value[]){ y, bv }, 0, NULL);
            b.n_bias = rows;
        }
        y = node(b.g, RLX_OP_CAST, 1, &y, 1,
                 (int64_t[]){ RLX_DTYPE_F32 });
        float mult[512];
        b.n_mult = k->mult_per ? rows : 1;
        for (size_t i = 0; i < b.n_mult; i++)
            mult[i] = k->mult * (float)(1.0 + 0.37 * (double)(i % 5));
        rlx_value mv = k->mult_per
                           ? constant(b.g, "mult", RLX_DTYPE_F32, brank,
                                      bdims, mult)
                           : constant(b.g, "mult", RLX_DTYPE_F32, 0, NULL,
                                      mult);
        y = node(b.g, RLX_OP_MUL, 2, (rlx_value[]){ y, mv }, 0, NULL);
        float one = 1.0f;
        rlx_value sv = constant(b.g, "one", RLX_DTYPE_F32, 0, NULL, &one);
        uint8_t zy = k->ty == RLX_DTYPE_U8 ? 3 : (uint8_t)(int8_t)-7;
        rlx_value zyv = constant(b.g, "zy", k->ty, 0, NULL, &zy);
        y = node(b.g, RLX_OP_QUANTIZE_LINEAR, 3,
                 (rlx_value[]){ y, sv, zyv }, 2, (int64_t[]){ 1, 0 });
        if (k->clamp >= 1)
            y = node(b.g, RLX_OP_MAX, 2, (rlx_value[]){ y, zyv }, 0, NULL);
        if (k->clamp == 2) {
            uint8_t hi = k->ty == RLX_DTYPE_U8 ? 200 : 90;
            rlx_value hv = constant(b.g, "hi", k->ty, 0, NULL, &hi);
            y = node(b.g, RLX_OP_MIN, 2, (rlx_value[]){ y, hv }, 0, NULL);
        }
    }
    ASSERT_OK(rlx_graph_output(b.g, "y", y));
    b.ny_bytes = b.ny * (k->ty ? 1 : 4);
    return b;
}

/* Bytes of N elements: the extremes first, then random. */
static uint8_t *bytes(size_t n, uint32_t salt)
{
    uint8_t *v = malloc(n ? n : 1);
    ASSERT(v);
    for (size_t i = 0; i < n; i++)
        v[i] = (uint8_t)(i % 9 == 0 ? 0 : i % 9 == 1 ? 255 : i % 9 == 2
                                                             ? 128
                                                             : next() ^ salt);
    return v;
}

static void check(const gcase *k)
{
    graph b = build(k);
    rlx_runtime *rt = blas_runtime();
    ASSERT_OK(rlx_runtime_load_plugin(
        rt, blas_variant_path(suffix[RLX_TEST_BLAS_LEVEL])));
    rlx_session *sb = NULL, *sr = NULL;
    static char log[1 << 16];
    rlx_program *pb = blas_compile(rt, "cpu-openblas", &sb, b.g,
                                   log, sizeof log);
    rlx_program *pr = blas_compile(rt, "cpu-ref", &sr, b.g, NULL, 0);
    if (!strstr(log, k->ty ? "integer matmuls and convs, 1 with their "
                             "requantization fused"
                           : "integer matmuls and convs, 0 with"))
        FAIL("the chain was not fused as expected; log:\n%s", log);
    int dw = k->conv && k->group == k->c && k->m == k->c;
    if (!strstr(log, dw ? "1 depthwise direct" : "0 depthwise direct"))
        FAIL("the depthwise kernel was %s; log:\n%s",
             dw ? "not used" : "used", log);
    for (int round = 0; round < 2; round++) {
        uint8_t *x = bytes(b.nx, 0x5a + (uint32_t)round);
        uint8_t *w = bytes(b.nw, 0x33 * (uint32_t)round);
        rlx_program *ps[2] = { pb, pr };
        for (int i = 0; i < 2; i++) {
            ASSERT_OK(rlx_program_set_input(ps[i], "x", x, b.nx));
            ASSERT_OK(rlx_program_set_param(ps[i], "w", w, b.nw));
            ASSERT_OK(rlx_program_run(ps[i]));
        }
        ASSERT_OK(rlx_program_run(pb)); /* again, on the packed weights */
        size_t nb = 0, nr = 0;
        const uint8_t *got = rlx_program_output_data(pb, 0, &nb);
        const uint8_t *want = rlx_program_output_data(pr, 0, &nr);
        ASSERT(got && want);
        ASSERT_EQ(nb, b.ny_bytes);
        ASSERT_EQ(nr, b.ny_bytes);
        if (memcmp(got, want, nb) != 0) {
            size_t i = 0;
            while (got[i] == want[i])
                i++;
            FAIL("round %d: byte %zu differs (%u, cpu-ref %u)", round, i,
                 got[i], want[i]);
        }
        free(x);
        free(w);
    }
    rlx_program_destroy(pb);
    rlx_program_destroy(pr);
    rlx_session_destroy(sb);
    rlx_session_destroy(sr);
    rlx_runtime_destroy(rt);
    rlx_graph_destroy(b.g);
}

#define U8 RLX_DTYPE_U8
#define I8 RLX_DTYPE_I8

TEST(conv_integer_i32)
{
    need_variant();
    /* 3x3 pad 1, odd sizes; every signedness pair */
    rlx_dtype t[2] = { U8, I8 };
    for (int a = 0; a < 2; a++)
        for (int c = 0; c < 2; c++)
            check(&(gcase){ .conv = 1, .n = 2, .c = 5, .h = 7, .w = 9,
                            .m = 11, .kh = 3, .kw = 3, .group = 1, .s = 1,
                            .d = 1, .pad = 1, .tx = t[a], .tw = t[c],
                            .zx = t[a] == U8 ? 255 : -128,
                            .zw = t[c] == U8 ? 1 : 127 });
}

TEST(conv_integer_shapes)
{
    need_variant();
    /* 1x1 (packed straight from x), strided, dilated, grouped,
     * depthwise, per channel weight zero points */
    check(&(gcase){ .conv = 1, .n = 1, .c = 12, .h = 8, .w = 8, .m = 9,
                    .kh = 1, .kw = 1, .group = 1, .s = 1, .d = 1,
                    .tx = U8, .tw = I8, .zx = 0, .zw = 0 });
    check(&(gcase){ .conv = 1, .n = 1, .c = 6, .h = 11, .w = 10, .m = 17,
                    .kh = 3, .kw = 2, .group = 1, .s = 2, .d = 2, .pad = 2,
                    .tx = U8, .tw = I8, .zx = 17, .zw = -2000 });
    check(&(gcase){ .conv = 1, .n = 3, .c = 8, .h = 5, .w = 6, .m = 12,
                    .kh = 3, .kw = 3, .group = 4, .s = 1, .d = 1, .pad = 1,
                    .tx = I8, .tw = U8, .zx = -3, .zw = -2000 });
    /* a stem: 7x7 stride 2 over rows wide enough for the vector copy */
    check(&(gcase){ .conv = 1, .n = 2, .c = 3, .h = 9, .w = 75, .m = 8,
                    .kh = 7, .kw = 7, .group = 1, .s = 2, .d = 1, .pad = 3,
                    .tx = U8, .tw = I8, .zx = 9, .zw = 0 });
    check(&(gcase){ .conv = 1, .n = 1, .c = 7, .h = 9, .w = 9, .m = 7,
                    .kh = 3, .kw = 3, .group = 7, .s = 2, .d = 1, .pad = 1,
                    .tx = U8, .tw = U8, .zx = 128, .zw = 255 });
}

TEST(conv_requant_fused)
{
    need_variant();
    /* per tensor and per channel multipliers, bias, relu, clip, both
     * result dtypes; large multipliers saturate, small ones round */
    float mults[3] = { 0.00731f, 0.5f, 3.0f };
    for (int i = 0; i < 3; i++)
        for (int clamp = 0; clamp < 3; clamp++)
            check(&(gcase){ .conv = 1, .n = 2, .c = 9, .h = 6, .w = 7,
                            .m = 19, .kh = 3, .kw = 3, .group = 1, .s = 1,
                            .d = 1, .pad = 1, .tx = U8, .tw = I8,
                            .ty = clamp == 1 ? I8 : U8, .zx = 200,
                            .zw = clamp == 2 ? -2000 : 0, .bias = i != 1,
                            .mult_per = i != 0, .clamp = clamp,
                            .mult = mults[i] });
    /* 1x1 over many pixels: several chunks and both threads */
    check(&(gcase){ .conv = 1, .n = 1, .c = 64, .h = 29, .w = 31, .m = 40,
                    .kh = 1, .kw = 1, .group = 1, .s = 1, .d = 1,
                    .tx = U8, .tw = I8, .ty = U8, .zx = 7, .zw = 0,
                    .bias = 1, .mult_per = 1, .clamp = 1,
                    .mult = 0.001f });
}

TEST(conv_channel_last)
{
    need_variant();
    /* the AVX-512 VNNI conv from a channel-last copy of x
     * (kernels_qconv.c, taken when every weight zero point is 0 once
     * the weights are s8): output channels past a 32-wide panel, pixel
     * counts past 8-pixel tiles, channels padded to 4, s8 activations
     * and u8 weights with zero point 128 (both flipped), groups, 1x1
     * stride 2, dilation, a stem, a batch of images over both threads */
    float mults[3] = { 0.00731f, 0.5f, 3.0f };
    for (int i = 0; i < 3; i++)
        check(&(gcase){ .conv = 1, .n = 2, .c = 64, .h = 13, .w = 21,
                        .m = 70, .kh = 3, .kw = 3, .group = 1, .s = 1,
                        .d = 1, .pad = 1, .tx = U8, .tw = I8,
                        .ty = i == 1 ? I8 : U8, .zx = i == 2 ? 255 : 11,
                        .zw = 0, .bias = i != 1, .mult_per = i != 0,
                        .clamp = i, .mult = mults[i] });
    check(&(gcase){ .conv = 1, .n = 1, .c = 10, .h = 9, .w = 7, .m = 33,
                    .kh = 3, .kw = 3, .group = 1, .s = 2, .d = 1, .pad = 1,
                    .tx = I8, .tw = U8, .zx = -128, .zw = 128 });
    check(&(gcase){ .conv = 1, .n = 3, .c = 12, .h = 6, .w = 9, .m = 20,
                    .kh = 3, .kw = 3, .group = 2, .s = 1, .d = 2, .pad = 2,
                    .tx = I8, .tw = I8, .ty = U8, .zx = 100, .zw = 0,
                    .bias = 1, .mult_per = 1, .clamp = 1,
                    .mult = 0.01f });
    check(&(gcase){ .conv = 1, .n = 2, .c = 40, .h = 15, .w = 35, .m = 64,
                    .kh = 1, .kw = 1, .group = 1, .s = 2, .d = 1,
                    .tx = U8, .tw = I8, .ty = I8, .zx = 0, .zw = 0,
                    .bias = 1, .mult_per = 1, .mult = 0.02f });
    check(&(gcase){ .conv = 1, .n = 1, .c = 3, .h = 40, .w = 38, .m = 16,
                    .kh = 7, .kw = 7, .group = 1, .s = 2, .d = 1, .pad = 3,
                    .tx = U8, .tw = I8, .ty = U8, .zx = 128, .zw = 0,
                    .bias = 1, .mult_per = 1, .clamp = 1,
                    .mult = 0.003f });
    /* infinite and NaN multipliers: inf saturates, NaN (and inf * 0)
     * gives the zero point, clamped */
    check(&(gcase){ .conv = 1, .n = 1, .c = 32, .h = 5, .w = 5, .m = 8,
                    .kh = 3, .kw = 3, .group = 1, .s = 1, .d = 1, .pad = 1,
                    .tx = U8, .tw = I8, .ty = U8, .zx = 0, .zw = 0,
                    .clamp = 2, .mult = INFINITY });
    check(&(gcase){ .conv = 1, .n = 1, .c = 32, .h = 5, .w = 5, .m = 8,
                    .kh = 3, .kw = 3, .group = 1, .s = 1, .d = 1, .pad = 1,
                    .tx = U8, .tw = I8, .ty = U8, .zx = 0, .zw = 0,
                    .mult = NAN });
}

TEST(depthwise_direct)
{
    need_variant();
    /* the direct depthwise kernel (kernels_qdw.c): 3x3 and 5x5, strides
     * 1 and 2, every signedness, per channel weight zero points, i32
     * and requantized results; rows wider than one run of columns */
    rlx_dtype t[2] = { U8, I8 };
    for (int a = 0; a < 2; a++)
        for (int c = 0; c < 2; c++)
            for (int s = 1; s <= 2; s++)
                check(&(gcase){ .conv = 1, .n = 2, .c = 6, .h = 9, .w = 11,
                                .m = 6, .kh = 3, .kw = 3, .group = 6,
                                .s = s, .d = 1, .pad = 1, .tx = t[a],
                                .tw = t[c], .zx = t[a] == U8 ? 255 : -128,
                                .zw = s == 2 ? -2000 : t[c] == U8 ? 1 : 127 });
    check(&(gcase){ .conv = 1, .n = 1, .c = 5, .h = 13, .w = 300, .m = 5,
                    .kh = 5, .kw = 5, .group = 5, .s = 1, .d = 1, .pad = 2,
                    .tx = U8, .tw = I8, .zx = 3, .zw = 0 });
    /* taps in pairs: even kernels (no odd last tap), 7x7, 1x1, no
     * padding, strides 1 and 2, a 1-row kernel */
    const int64_t kk[6][4] = { { 2, 2, 2, 0 }, { 4, 4, 1, 1 },
                               { 7, 7, 2, 3 }, { 1, 1, 2, 0 },
                               { 3, 3, 2, 0 }, { 1, 5, 1, 2 } };
    for (int i = 0; i < 6; i++)
        check(&(gcase){ .conv = 1, .n = 1, .c = 3, .h = 17 - i,
                        .w = 23 + 3 * i, .m = 3, .kh = kk[i][0],
                        .kw = kk[i][1], .group = 3, .s = kk[i][2], .d = 1,
                        .pad = kk[i][3], .tx = i & 1 ? I8 : U8,
                        .tw = I8, .ty = i & 2 ? U8 : 0, .zx = 9 * i,
                        .zw = i == 4 ? -2000 : 0, .mult = 0.013f });
    /* dilated (the row-run path): wider than one run, and stride 3 */
    check(&(gcase){ .conv = 1, .n = 1, .c = 4, .h = 6, .w = 290, .m = 4,
                    .kh = 3, .kw = 3, .group = 4, .s = 1, .d = 2, .pad = 2,
                    .tx = U8, .tw = U8, .zx = 77, .zw = 130 });
    check(&(gcase){ .conv = 1, .n = 1, .c = 4, .h = 11, .w = 13, .m = 4,
                    .kh = 5, .kw = 5, .group = 4, .s = 3, .d = 1, .pad = 2,
                    .tx = I8, .tw = I8, .zx = -5, .zw = 3 });
    /* dilated, unpadded, 1-pixel wide output */
    check(&(gcase){ .conv = 1, .n = 1, .c = 3, .h = 7, .w = 5, .m = 3,
                    .kh = 3, .kw = 3, .group = 3, .s = 1, .d = 2, .pad = 0,
                    .tx = I8, .tw = I8, .zx = 0, .zw = -2000 });
    float mults[3] = { 0.00731f, 0.5f, 3.0f };
    for (int i = 0; i < 3; i++)
        for (int clamp = 0; clamp < 3; clamp++)
            check(&(gcase){ .conv = 1, .n = 2, .c = 19, .h = 10, .w = 270,
                            .m = 19, .kh = i == 2 ? 5 : 3,
                            .kw = i == 2 ? 5 : 3, .group = 19,
                            .s = 1 + (clamp == 1), .d = 1, .pad = 1 + (i == 2),
                            .tx = U8, .tw = I8, .ty = clamp == 1 ? I8 : U8,
                            .zx = 200, .zw = clamp == 2 ? -2000 : 0,
                            .bias = i != 1, .mult_per = i != 0,
                            .clamp = clamp, .mult = mults[i] });
}

TEST(matmul_integer)
{
    need_variant();
    rlx_dtype t[2] = { U8, I8 };
    for (int a = 0; a < 2; a++)
        for (int c = 0; c < 2; c++)
            check(&(gcase){ .batch = 2, .mm = 13, .k = 37, .nn = 45,
                            .tx = t[a], .tw = t[c],
                            .zx = t[a] == U8 ? 0 : 127,
                            .zw = t[c] == U8 ? 255 : -128 });
    check(&(gcase){ .batch = 1, .mm = 1, .k = 3, .nn = 1, .tx = U8,
                    .tw = I8, .zx = 5, .zw = 0 });
}

TEST(matmul_requant_fused)
{
    need_variant();
    for (int clamp = 0; clamp < 3; clamp++)
        check(&(gcase){ .batch = 3, .mm = 9, .k = 70, .nn = 77, .tx = U8,
                        .tw = I8, .ty = clamp == 1 ? I8 : U8, .zx = 131,
                        .zw = 0, .bias = clamp != 0, .mult_per = clamp != 1,
                        .clamp = clamp, .mult = 0.004f });
}

/* q(dq(a) OP dq(b)) as one step (qelem.c), against cpu-ref's separate
 * ops. SAME: b is a itself (add(d, d)); KEEP: dq(a) is also an output,
 * so it stays; BCAST: b is [1, 7, 1], one value per channel. */
static void check_qelem(rlx_op op, rlx_dtype ta, rlx_dtype tb, rlx_dtype ty,
                        float sy, int same, int keep, int bcast)
{
    /* BCAST 2: rows long enough for a table per row; 3: so, and a is
     * the per-channel one */
    int64_t w = bcast >= 2 ? 700 : 301;
    const int64_t dims[3] = { 2, 7, w }, bdims[3] = { 1, 7, 1 };
    int a_one = bcast == 3, b_one = bcast && bcast != 3;
    size_t n = 2 * 7 * (size_t)w, na_in = a_one ? 7 : n;
    size_t nb_in = b_one ? 7 : n;
    rlx_graph *g = NULL;
    ASSERT_OK(rlx_graph_create(&g));
    rlx_value a, b, y, da, db;
    ASSERT_OK(rlx_graph_input(g, "a", ta, 3, a_one ? bdims : dims, &a));
    ASSERT_OK(rlx_graph_input(g, "b", tb, 3, b_one ? bdims : dims, &b));
    float sa = 0.0371f, sb = 0.0129f;
    uint8_t za = ta == U8 ? 131 : (uint8_t)(int8_t)-3;
    uint8_t zb = tb == U8 ? 0 : 127;
    uint8_t zy = ty == U8 ? 250 : (uint8_t)(int8_t)-128;
    int64_t q_at[2] = { 1, 0 };
    da = node(g, RLX_OP_DEQUANTIZE_LINEAR, 3,
              (rlx_value[]){ a, constant(g, "sa", RLX_DTYPE_F32, 0, NULL, &sa),
                             constant(g, "za", ta, 0, NULL, &za) },
              2, q_at);
    db = same ? da
              : node(g, RLX_OP_DEQUANTIZE_LINEAR, 3,
                     (rlx_value[]){ b, constant(g, "sb", RLX_DTYPE_F32, 0,
                                                NULL, &sb),
                                    constant(g, "zb", tb, 0, NULL, &zb) },
                     2, q_at);
    y = node(g, op, 2, (rlx_value[]){ da, db }, 0, NULL);
    y = node(g, RLX_OP_QUANTIZE_LINEAR, 3,
             (rlx_value[]){ y, constant(g, "sy", RLX_DTYPE_F32, 0, NULL, &sy),
                            constant(g, "zy", ty, 0, NULL, &zy) },
             2, q_at);
    ASSERT_OK(rlx_graph_output(g, "y", y));
    if (keep)
        ASSERT_OK(rlx_graph_output(g, "da", da));
    graph gb = { .g = g };
    rlx_runtime *rt = blas_runtime();
    ASSERT_OK(rlx_runtime_load_plugin(
        rt, blas_variant_path(suffix[RLX_TEST_BLAS_LEVEL])));
    rlx_session *sb_ = NULL, *sr = NULL;
    static char log[1 << 16];
    rlx_program *pb = blas_compile(rt, "cpu-openblas", &sb_, gb.g,
                                   log, sizeof log);
    rlx_program *pr = blas_compile(rt, "cpu-ref", &sr, gb.g, NULL, 0);
    if (!strstr(log, "1 quantized adds and muls fused"))
        FAIL("the QDQ %s was not fused; log:\n%s",
             op == RLX_OP_ADD ? "add" : "mul", log);
    uint8_t *xa = bytes(n, 0x11), *xb = bytes(n, 0x77);
    rlx_program *ps[2] = { pb, pr };
    for (int i = 0; i < 2; i++) {
        ASSERT_OK(rlx_program_set_input(ps[i], "a", xa, na_in));
        ASSERT_OK(rlx_program_set_input(ps[i], "b", xb, nb_in));
        ASSERT_OK(rlx_program_run(ps[i]));
    }
    for (uint32_t o = 0; o < (keep ? 2u : 1u); o++) {
        size_t nb = 0, nr = 0;
        const uint8_t *got = rlx_program_output_data(pb, o, &nb);
        const uint8_t *want = rlx_program_output_data(pr, o, &nr);
        ASSERT(got && want);
        ASSERT_EQ(nb, o ? n * 4 : n);
        ASSERT_EQ(nr, nb);
        if (memcmp(got, want, nb) != 0) {
            size_t i = 0;
            while (got[i] == want[i])
                i++;
            FAIL("output %u byte %zu differs (%u, cpu-ref %u)", o, i, got[i],
                 want[i]);
        }
    }
    free(xa);
    free(xb);
    rlx_program_destroy(pb);
    rlx_program_destroy(pr);
    rlx_session_destroy(sb_);
    rlx_session_destroy(sr);
    rlx_runtime_destroy(rt);
    rlx_graph_destroy(g);
}

TEST(qdq_add_mul)
{
    need_variant();
    /* every signedness; a small output scale saturates, a large one
     * rounds many halves; add(d, d); a dequantize that is an output;
     * broadcast operands */
    check_qelem(RLX_OP_ADD, U8, U8, U8, 0.05f, 0, 0, 0);
    check_qelem(RLX_OP_ADD, I8, U8, I8, 0.003f, 0, 0, 0);
    check_qelem(RLX_OP_ADD, U8, I8, U8, 0.125f, 0, 1, 0);
    check_qelem(RLX_OP_MUL, U8, U8, I8, 0.0009f, 0, 0, 0);
    check_qelem(RLX_OP_MUL, I8, I8, U8, 0.25f, 0, 0, 0);
    check_qelem(RLX_OP_ADD, U8, U8, U8, 0.0742f, 1, 0, 0);
    /* a squeeze-excite mul: b per channel */
    check_qelem(RLX_OP_MUL, U8, U8, U8, 0.011f, 0, 0, 1);
    check_qelem(RLX_OP_ADD, I8, U8, I8, 0.02f, 0, 0, 1);
    /* rows of 700: one table per row, either side per channel */
    check_qelem(RLX_OP_MUL, U8, U8, U8, 0.011f, 0, 0, 2);
    check_qelem(RLX_OP_MUL, I8, U8, I8, 0.0007f, 0, 0, 3);
    check_qelem(RLX_OP_ADD, U8, I8, U8, 0.031f, 0, 0, 3);
}

/* max_pool of bytes (kernels_qpool.c): kernel, stride, dilation, pads,
 * ceil mode, against cpu-ref, and run by the plugin, not cpu-ref. */
static void check_pool(rlx_dtype t, const int64_t *at, uint32_t n_at,
                       int64_t width)
{
    rlx_graph *g = NULL;
    ASSERT_OK(rlx_graph_create(&g));
    rlx_value x, y;
    int64_t dims[4] = { 2, 5, 13, width };
    ASSERT_OK(rlx_graph_input(g, "x", t, 4, dims, &x));
    rlx_attrs a = { .n_ints = n_at, .ints = at };
    ASSERT_OK(rlx_graph_add_node(g, NULL, RLX_OP_MAX_POOL, 1, &x, &a, &y));
    ASSERT_OK(rlx_graph_output(g, "y", y));
    graph b = { .g = g };
    rlx_runtime *rt = blas_runtime();
    ASSERT_OK(rlx_runtime_load_plugin(
        rt, blas_variant_path(suffix[RLX_TEST_BLAS_LEVEL])));
    rlx_session *sb = NULL, *sr = NULL;
    static char log[1 << 16];
    rlx_program *pb = blas_compile(rt, "cpu-openblas", &sb, b.g,
                                   log, sizeof log);
    rlx_program *pr = blas_compile(rt, "cpu-ref", &sr, b.g, NULL, 0);
    if (!strstr(log, " 0 through cpu-ref"))
        FAIL("the byte max pool ran through cpu-ref; log:\n%s", log);
    size_t n = 2 * 5 * 13 * (size_t)width;
    uint8_t *v = bytes(n, 0x17);
    ASSERT_OK(rlx_program_set_input(pb, "x", v, n));
    ASSERT_OK(rlx_program_set_input(pr, "x", v, n));
    ASSERT_OK(rlx_program_run(pb));
    ASSERT_OK(rlx_program_run(pr));
    size_t nb = 0, nr = 0;
    const uint8_t *got = rlx_program_output_data(pb, 0, &nb);
    const uint8_t *want = rlx_program_output_data(pr, 0, &nr);
    ASSERT(got && want && nb == nr && nb > 0);
    for (size_t i = 0; i < nb; i++)
        if (got[i] != want[i])
            FAIL("dtype %d: byte %zu is %u, cpu-ref %u", (int)t, i, got[i],
                 want[i]);
    free(v);
    rlx_program_destroy(pb);
    rlx_program_destroy(pr);
    rlx_session_destroy(sb);
    rlx_session_destroy(sr);
    rlx_runtime_destroy(rt);
    rlx_graph_destroy(g);
}

TEST(max_pool_bytes)
{
    need_variant();
    /* ceil_mode, count_include_pad, p, kernel[2], strides[2],
     * dilations[2], pads_begin[2], pads_end[2] */
    int64_t plain[] = { 0, 0, 2, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1 };
    int64_t odd[] = { 1, 0, 2, 2, 3, 3, 1, 2, 1, 0, 2, 1, 0 };
    int64_t wide[] = { 0, 0, 2, 5, 4, 1, 1, 1, 1, 2, 2, 2, 1 };
    rlx_dtype ts[2] = { U8, I8 };
    int64_t one[] = { 0, 0, 2, 2, 3, 1, 1, 1, 1, 0, 1, 0, 1 };
    for (int i = 0; i < 2; i++) {
        /* narrow rows: scalar; wide ones: 16 columns at a time */
        for (int64_t w = 11; w <= 75; w += 64) {
            check_pool(ts[i], plain, 13, w);
            check_pool(ts[i], odd, 13, w);
            check_pool(ts[i], wide, 13, w);
            check_pool(ts[i], one, 13, w);
        }
    }
}

/* quantize_linear then dequantize_linear (kernels_qlinear.c), per
 * tensor and per axis, u8 and i8, on halves, NaN, infinities and values
 * far out of range; both results compared bit for bit with cpu-ref, and
 * neither ran through cpu-ref. */
static void check_qlinear(rlx_dtype t, int per_axis)
{
    rlx_graph *g = NULL;
    ASSERT_OK(rlx_graph_create(&g));
    int64_t dims[4] = { 2, 3, 5, 7 };
    size_t n = 2 * 3 * 5 * 7;
    rlx_value x, q, d;
    ASSERT_OK(rlx_graph_input(g, "x", RLX_DTYPE_F32, 4, dims, &x));
    float sc[3] = { 0.5f, 0.037f, 3.0f };
    uint8_t zu[3] = { 0, 128, 255 };
    int8_t zi[3] = { -128, 0, 127 };
    uint32_t r = per_axis ? 1 : 0;
    rlx_value sv = constant(g, "s", RLX_DTYPE_F32, r, (int64_t[]){ 3 }, sc);
    rlx_value zv = constant(g, "z", t, r, (int64_t[]){ 3 },
                            t == U8 ? (void *)zu : (void *)zi);
    q = node(g, RLX_OP_QUANTIZE_LINEAR, 3, (rlx_value[]){ x, sv, zv }, 2,
             (int64_t[]){ 1, 0 });
    d = node(g, RLX_OP_DEQUANTIZE_LINEAR, 3, (rlx_value[]){ q, sv, zv }, 2,
             (int64_t[]){ 1, 0 });
    ASSERT_OK(rlx_graph_output(g, "q", q));
    ASSERT_OK(rlx_graph_output(g, "d", d));
    graph b = { .g = g };
    rlx_runtime *rt = blas_runtime();
    ASSERT_OK(rlx_runtime_load_plugin(
        rt, blas_variant_path(suffix[RLX_TEST_BLAS_LEVEL])));
    rlx_session *sb = NULL, *sr = NULL;
    static char log[1 << 16];
    rlx_program *pb = blas_compile(rt, "cpu-openblas", &sb, b.g,
                                   log, sizeof log);
    rlx_program *pr = blas_compile(rt, "cpu-ref", &sr, b.g, NULL, 0);
    if (!strstr(log, " 0 through cpu-ref"))
        FAIL("quantize or dequantize ran through cpu-ref; log:\n%s", log);
    float *v = malloc(n * sizeof *v);
    ASSERT(v);
    for (size_t i = 0; i < n; i++)
        v[i] = (float)((double)(int)(i % 41) - 20.0) * 0.25f +
               (float)(i % 3) * 0.5f;
    v[0] = NAN;
    v[1] = INFINITY;
    v[2] = -INFINITY;
    v[3] = 1e30f;
    v[4] = -1e30f;
    v[5] = 2.5f;
    v[6] = -0.75f;
    ASSERT_OK(rlx_program_set_input(pb, "x", v, n * sizeof *v));
    ASSERT_OK(rlx_program_set_input(pr, "x", v, n * sizeof *v));
    ASSERT_OK(rlx_program_run(pb));
    ASSERT_OK(rlx_program_run(pr));
    for (uint32_t o = 0; o < 2; o++) {
        size_t nb = 0, nr = 0;
        const uint8_t *got = rlx_program_output_data(pb, o, &nb);
        const uint8_t *want = rlx_program_output_data(pr, o, &nr);
        ASSERT(got && want);
        ASSERT_EQ(nb, o ? n * 4 : n);
        ASSERT_EQ(nr, nb);
        if (memcmp(got, want, nb) != 0)
            FAIL("dtype %d per_axis %d: output %u differs from cpu-ref",
                 (int)t, per_axis, o);
    }
    free(v);
    rlx_program_destroy(pb);
    rlx_program_destroy(pr);
    rlx_session_destroy(sb);
    rlx_session_destroy(sr);
    rlx_runtime_destroy(rt);
    rlx_graph_destroy(g);
}

TEST(quantize_dequantize)
{
    need_variant();
    for (int axis = 0; axis < 2; axis++) {
        check_qlinear(U8, axis);
        check_qlinear(I8, axis);
    }
}

RLX_TEST_LIST(TEST_ENTRY(quantize_dequantize), TEST_ENTRY(max_pool_bytes),
              TEST_ENTRY(tiles_every_path), TEST_ENTRY(conv_integer_i32),
              TEST_ENTRY(conv_integer_shapes), TEST_ENTRY(conv_requant_fused),
              TEST_ENTRY(conv_channel_last), TEST_ENTRY(depthwise_direct),
              TEST_ENTRY(qdq_add_mul), TEST_ENTRY(matmul_integer),
              TEST_ENTRY(matmul_requant_fused))
