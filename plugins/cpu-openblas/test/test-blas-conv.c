/* test-blas-conv.c - cpu-openblas's 2-d convolution (kernels_conv.c) and
 * the conv epilogues fused into it (fuse.c) against cpu-ref: many
 * shapes (strides, pads, dilations, groups, depthwise, 1x1, odd sizes,
 * batch), weights as params (packed once, repacked when set again) and
 * as inputs, and the chains conv -> batch_norm -> add -> relu, with the
 * plugin's debug log reporting how many conv epilogues were fused. Then
 * the 2-d pools and a batch norm of its own (kernels_window.c), and the
 * setting cpu-openblas.conv. */
#include <fcntl.h>
#include <math.h>
#include <unistd.h>

#include "blas-test-util.h"

typedef struct conv_case {
    int64_t n, c, h, w, m, kh, kw, sh, sw, dh, dw, pt, pl, pb, pr, group;
    int bias;
    int w_input;     /* weights as a graph input, not a param */
    int bn, res, act; /* act: 0 none, 1 relu before res, 2 relu after */
    int act_kind;     /* 0 relu, 1 hard_swish, 2 silu as x * sigmoid(x) */
} conv_case;

typedef struct graph {
    rlx_graph *g;
    int64_t oh, ow;
    size_t nx, nw, ny;
} graph;

static rlx_value node(rlx_graph *g, rlx_op o, uint32_t n,
                      const rlx_value *ins, uint32_t n_ints,
                      const int64_t *ints, uint32_t n_f, const double *fl)
{
    rlx_value v, copy[5];
    memcpy(copy, ins, n * sizeof *ins);
    rlx_attrs at = { .n_ints = n_ints, .ints = ints, .n_floats = n_f,
                     .floats = fl };
    if (rlx_graph_add_node(g, NULL, o, n, copy, n_ints || n_f ? &at : NULL,
                           &v) != RLX_OK)
        FAIL("node: %s", rlx_last_error());
    return v;
}

static rlx_value source(rlx_graph *g, int param, const char *name,
                        uint32_t rank, const int64_t *dims)
{
    rlx_value v;
    rlx_status st = param ? rlx_graph_param(g, name, RLX_DTYPE_F32, rank,
                                            dims, &v)
                          : rlx_graph_input(g, name, RLX_DTYPE_F32, rank,
                                            dims, &v);
    if (st != RLX_OK)
        FAIL("source %s: %s", name, rlx_last_error());
    return v;
}

/* The activation KIND of conv_case on Y. */
static rlx_value activation(rlx_graph *g, int kind, rlx_value y)
{
    if (kind == 1)
        return node(g, RLX_OP_HARD_SWISH, 1, &y, 0, NULL, 0, NULL);
    if (kind == 2) {
        rlx_value s = node(g, RLX_OP_SIGMOID, 1, &y, 0, NULL, 0, NULL);
        return node(g, RLX_OP_MUL, 2, (rlx_value[]){ y, s }, 0, NULL, 0,
                    NULL);
    }
    return node(g, RLX_OP_RELU, 1, &y, 0, NULL, 0, NULL);
}

static graph build(const conv_case *k)
{
    graph b = { 0 };
    ASSERT_OK(rlx_graph_create(&b.g));
    b.oh = (k->h + k->pt + k->pb - ((k->kh - 1) * k->dh + 1)) / k->sh + 1;
    b.ow = (k->w + k->pl + k->pr - ((k->kw - 1) * k->dw + 1)) / k->sw + 1;
    rlx_value x = source(b.g, 0, "x", 4,
                         (int64_t[]){ k->n, k->c, k->h, k->w });
    rlx_value w = source(b.g, !k->w_input, "w", 4,
                         (int64_t[]){ k->m, k->c / k->group, k->kh, k->kw });
    rlx_value ins[3] = { x, w };
    if (k->bias)
        ins[2] = source(b.g, 1, "b", 1, (int64_t[]){ k->m });
    int64_t at[9] = { k->group, k->sh, k->sw, k->dh, k->dw,
                      k->pt, k->pl, k->pb, k->pr };
    rlx_value y = node(b.g, RLX_OP_CONV, k->bias ? 3 : 2, ins, 9, at, 0,
                       NULL);
    if (k->bn) {
        static const char *const nm[4] = { "bn_s", "bn_b", "bn_m", "bn_v" };
        rlx_value bi[5] = { y };
        for (int i = 0; i < 4; i++)
            bi[1 + i] = source(b.g, 1, nm[i], 1, (int64_t[]){ k->m });
        y = node(b.g, RLX_OP_BATCH_NORM, 5, bi, 0, NULL, 1,
                 (double[]){ 1e-3 });
    }
    rlx_value r = { 0 };
    if (k->res)
        r = source(b.g, 0, "r", 4, (int64_t[]){ k->n, k->m, b.oh, b.ow });
    if (k->act == 1)
        y = activation(b.g, k->act_kind, y);
    if (k->res)
        y = node(b.g, RLX_OP_ADD, 2, (rlx_value[]){ r, y }, 0, NULL, 0,
                 NULL);
    if (k->act == 2)
        y = activation(b.g, k->act_kind, y);
    ASSERT_OK(rlx_graph_output(b.g, "y", y));
    b.nx = (size_t)(k->n * k->c * k->h * k->w);
    b.nw = (size_t)(k->m * (k->c / k->group) * k->kh * k->kw);
    b.ny = (size_t)(k->n * k->m * b.oh * b.ow);
    return b;
}

static float *fill(size_t n, double seed, double scale, double shift)
{
    float *v = malloc((n ? n : 1) * sizeof *v);
    ASSERT(v);
    for (size_t i = 0; i < n; i++)
        v[i] = (float)(sin(0.7311 * (double)i + seed) * scale + shift);
    return v;
}

/* Set every source of K's graph from SEED; WSEED for the weights. */
static void set_all(rlx_program *p, const conv_case *k, const graph *b,
                    double wseed)
{
    float *x = fill(b->nx, 0.3, 1.0, 0.0);
    float *w = fill(b->nw, wseed, 0.5, 0.0);
    ASSERT_OK(rlx_program_set_input(p, "x", x, b->nx * sizeof *x));
    if (k->w_input)
        ASSERT_OK(rlx_program_set_input(p, "w", w, b->nw * sizeof *w));
    else
        ASSERT_OK(rlx_program_set_param(p, "w", w, b->nw * sizeof *w));
    free(x);
    free(w);
    size_t m = (size_t)k->m;
    if (k->bias) {
        float *v = fill(m, 2.1 + wseed, 0.3, 0.0);
        ASSERT_OK(rlx_program_set_param(p, "b", v, m * sizeof *v));
        free(v);
    }
    if (k->bn) {
        static const char *const nm[4] = { "bn_s", "bn_b", "bn_m", "bn_v" };
        for (int i = 0; i < 4; i++) {
            /* the variance positive */
            float *v = fill(m, 1.0 + i, i == 3 ? 0.4 : 0.8,
                            i == 3 ? 0.6 : 0.0);
            ASSERT_OK(rlx_program_set_param(p, nm[i], v, m * sizeof *v));
            free(v);
        }
    }
    if (k->res) {
        float *r = fill(b->ny, 4.2, 1.0, 0.0);
        ASSERT_OK(rlx_program_set_input(p, "r", r, b->ny * sizeof *r));
        free(r);
    }
}

static void compare(const float *got, const float *want, size_t n,
                    const char *what)
{
    for (size_t i = 0; i < n; i++)
        if (!(fabsf(got[i] - want[i]) <= 1e-4f + 1e-4f * fabsf(want[i])))
            FAIL("%s: element %zu is %.8g, cpu-ref has %.8g", what, i,
                 (double)got[i], (double)want[i]);
}

/* K on the best cpu-openblas variant and on cpu-ref, twice: the second
 * time with other weights (a param set again must be repacked). */
static void check(const conv_case *k, unsigned fused)
{
    graph b = build(k);
    rlx_runtime *rt = blas_runtime();
    const char *best = blas_expected_suffix(&(int){ 0 });
    ASSERT_OK(rlx_runtime_load_plugin(rt, blas_variant_path(best)));
    rlx_session *sb = NULL, *sr = NULL;
    static char log[1 << 16];
    rlx_program *pb = blas_compile(rt, "cpu-openblas", &sb, b.g,
                                   log, sizeof log);
    rlx_program *pr = blas_compile(rt, "cpu-ref", &sr, b.g, NULL, 0);
    if (*best) { /* the portable variant has no conv kernel */
        unsigned n = 0;
        const char *f = strstr(log, "cpu-openblas: fused ");
        f = f ? strstr(log, "conv epilogues") : NULL;
        if (f) {
            while (f > log && f[-1] != ' ')
                f--;
            f -= 2;
            while (f > log && f[-1] != ' ')
                f--;
            ASSERT_EQ(sscanf(f, "%u", &n), 1);
        }
        ASSERT_EQ(n, fused);
        /* every step ran by the plugin's own kernels */
        ASSERT(strstr(log, " 0 through cpu-ref"));
    }
    for (int round = 0; round < 2; round++) {
        double wseed = round ? 5.5 : 1.7;
        set_all(pb, k, &b, wseed);
        set_all(pr, k, &b, wseed);
        ASSERT_OK(rlx_program_run(pb));
        if (round == 0) /* twice on the same weights: the packed copy */
            ASSERT_OK(rlx_program_run(pb));
        ASSERT_OK(rlx_program_run(pr));
        float *got = blas_output(pb, b.ny), *want = blas_output(pr, b.ny);
        compare(got, want, b.ny, round ? "weights set again" : "first");
        free(got);
        free(want);
    }
    rlx_program_destroy(pb);
    rlx_program_destroy(pr);
    rlx_session_destroy(sb);
    rlx_session_destroy(sr);
    rlx_runtime_destroy(rt);
    rlx_graph_destroy(b.g);
}

/* A case; n, strides, dilations and group left 0 mean 1. */
#define CONV(...) (conv_norm((conv_case){ __VA_ARGS__ }))

static const conv_case *conv_norm(conv_case k)
{
    static conv_case keep;
    int64_t *const ones[] = { &k.n, &k.sh, &k.sw, &k.dh, &k.dw, &k.group };
    for (size_t i = 0; i < sizeof ones / sizeof *ones; i++)
        if (*ones[i] == 0)
            *ones[i] = 1;
    keep = k;
    return &keep;
}

TEST(plain_3x3_same)
{
    check(CONV(.c = 3, .h = 9, .w = 11, .m = 5, .kh = 3, .kw = 3, .pt = 1,
                .pl = 1, .pb = 1, .pr = 1, .bias = 1), 0);
}

TEST(stride_dilation_asymmetric_pads)
{
    check(CONV(.n = 2, .c = 4, .h = 13, .w = 10, .m = 7, .kh = 3, .kw = 2,
                .sh = 2, .sw = 3, .dh = 2, .dw = 1, .pt = 2, .pl = 0,
                .pb = 1, .pr = 3), 0);
}

TEST(large_k_many_channels)
{
    /* K = 64 * 9 spans several KC slices; m spans many MR tiles */
    check(CONV(.n = 2, .c = 64, .h = 12, .w = 12, .m = 70, .kh = 3,
                .kw = 3, .pt = 1, .pl = 1, .pb = 1, .pr = 1, .bias = 1), 0);
}

TEST(pointwise_1x1)
{
    check(CONV(.n = 3, .c = 33, .h = 7, .w = 9, .m = 41, .kh = 1, .kw = 1,
                .bias = 1), 0);
}

TEST(pointwise_1x1_strided)
{
    check(CONV(.c = 16, .h = 14, .w = 14, .m = 24, .kh = 1, .kw = 1,
                .sh = 2, .sw = 2), 0);
}

TEST(groups)
{
    check(CONV(.n = 2, .c = 12, .h = 8, .w = 7, .m = 18, .kh = 3, .kw = 3,
                .pt = 1, .pl = 1, .pb = 1, .pr = 1, .group = 3, .bias = 1),
          0);
}

TEST(depthwise_3x3)
{
    check(CONV(.n = 2, .c = 16, .h = 15, .w = 17, .m = 16, .kh = 3,
                .kw = 3, .pt = 1, .pl = 1, .pb = 1, .pr = 1, .group = 16,
                .bias = 1), 0);
}

TEST(depthwise_5x5_stride2_dilated)
{
    check(CONV(.c = 8, .h = 20, .w = 23, .m = 8, .kh = 5, .kw = 5,
                .sh = 2, .sw = 2, .dh = 2, .dw = 1, .pt = 2, .pl = 3,
                .pb = 0, .pr = 2, .group = 8), 0);
}

TEST(depthwise_multiplier_goes_general)
{
    /* two outputs per input channel: the im2col path with groups */
    check(CONV(.c = 4, .h = 9, .w = 9, .m = 8, .kh = 3, .kw = 3,
                .group = 4), 0);
}

TEST(kernel_as_large_as_input)
{
    check(CONV(.n = 2, .c = 5, .h = 4, .w = 6, .m = 3, .kh = 4, .kw = 6,
                .bias = 1), 0);
}

TEST(weights_as_input)
{
    check(CONV(.c = 6, .h = 10, .w = 10, .m = 9, .kh = 3, .kw = 3,
                .pt = 1, .pl = 1, .pb = 1, .pr = 1, .w_input = 1), 0);
}

TEST(fused_relu)
{
    check(CONV(.c = 8, .h = 9, .w = 9, .m = 12, .kh = 3, .kw = 3,
                .bias = 1, .act = 1), 1);
}

TEST(fused_bn_relu)
{
    check(CONV(.n = 2, .c = 8, .h = 10, .w = 9, .m = 20, .kh = 3, .kw = 3,
                .sh = 2, .sw = 2, .pt = 1, .pl = 1, .pb = 1, .pr = 1,
                .bn = 1, .act = 1), 1);
}

TEST(fused_bn_residual_relu)
{
    /* the ResNet block's tail: relu(bn(conv(x)) + identity) */
    check(CONV(.n = 2, .c = 16, .h = 8, .w = 8, .m = 16, .kh = 3, .kw = 3,
                .pt = 1, .pl = 1, .pb = 1, .pr = 1, .bn = 1, .res = 1,
                .act = 2), 1);
}

TEST(fused_relu_then_residual)
{
    check(CONV(.c = 6, .h = 7, .w = 7, .m = 10, .kh = 1, .kw = 1,
                .bias = 1, .act = 1, .res = 1), 1);
}

TEST(fused_depthwise_bn_relu)
{
    check(CONV(.c = 24, .h = 11, .w = 11, .m = 24, .kh = 3, .kw = 3,
                .pt = 1, .pl = 1, .pb = 1, .pr = 1, .group = 24, .bn = 1,
                .act = 1), 1);
}

TEST(depthwise_phased_strides_pads)
{
    /* stride 1 and 2 without dilation: the phase-plane kernel, with
     * odd sizes, asymmetric pads and a kernel wider than the pads */
    for (int64_t s = 1; s <= 2; s++)
        for (int64_t k = 3; k <= 5; k += 2) {
            check(CONV(.n = 2, .c = 5, .h = 9 + s, .w = 12 - s, .m = 5,
                        .kh = k, .kw = k, .sh = s, .sw = s, .pt = k / 2,
                        .pl = k / 2 + 1 - s, .pb = 0, .pr = k / 2,
                        .group = 5, .bias = 1), 0);
            check(CONV(.c = 3, .h = 1, .w = 1, .m = 3, .kh = k, .kw = k,
                        .sh = s, .sw = s, .pt = k / 2, .pl = k / 2,
                        .pb = k / 2, .pr = k / 2, .group = 3), 0);
        }
}

TEST(depthwise_16_channel_groups)
{
    /* the 16-channel kernel (AVX-512): a last group of fewer than 16
     * channels, planes of several bands (rows past one band's L2
     * budget), widths not a multiple of its 8-pixel blocks, both
     * strides, 3x3 and 5x5, batch, a folded batch norm, and every
     * epilogue (relu, hard_swish, silu, residual before and after) */
    for (int64_t s = 1; s <= 2; s++)
        for (int64_t k = 3; k <= 5; k += 2) {
            check(CONV(.n = 2, .c = 40, .h = 45 + s, .w = 37 - s, .m = 40,
                        .kh = k, .kw = k, .sh = s, .sw = s, .pt = k / 2,
                        .pl = k / 2, .pb = k / 2 - 1 + s, .pr = k / 2,
                        .group = 40, .bias = 1, .act = 1,
                        .act_kind = (int)(s + k) % 3), 1);
            check(CONV(.c = 7, .h = 7, .w = 7, .m = 7, .kh = k, .kw = k,
                        .sh = s, .sw = s, .pt = k / 2, .pl = k / 2,
                        .pb = k / 2, .pr = k / 2, .group = 7, .bn = 1,
                        .res = 1, .act = (int)s, .act_kind = 2), 1);
        }
    check(CONV(.c = 33, .h = 120, .w = 121, .m = 33, .kh = 3, .kw = 3,
                .sh = 2, .sw = 2, .pt = 0, .pl = 1, .pb = 1, .pr = 1,
                .group = 33, .bias = 1), 0);
}

TEST(few_input_channels_16_lanes)
{
    /* a stem (3 channels, 3x3, stride 2) on the 16-output-channel kernel
     * (AVX-512): 16 and 20 (a part group) outputs, bands of 8 rows and a
     * last short one, widths past whole 8-pixel blocks, batch, silu with
     * a folded batch norm, a residual, dilation and asymmetric pads */
    check(CONV(.n = 2, .c = 3, .h = 37, .w = 29, .m = 16, .kh = 3, .kw = 3,
                .sh = 2, .sw = 2, .pt = 1, .pl = 1, .pb = 1, .pr = 1,
                .bias = 1, .act = 1, .act_kind = 1), 1);
    check(CONV(.c = 3, .h = 30, .w = 41, .m = 20, .kh = 3, .kw = 3,
                .sh = 2, .sw = 2, .pt = 0, .pl = 1, .pb = 1, .pr = 0,
                .bn = 1, .act = 1, .act_kind = 2), 1);
    check(CONV(.c = 2, .h = 19, .w = 18, .m = 9, .kh = 5, .kw = 3,
                .dh = 2, .pt = 3, .pl = 2, .pb = 1, .pr = 2, .bias = 1,
                .res = 1, .act = 2), 1);
    check(CONV(.c = 4, .h = 9, .w = 9, .m = 33, .kh = 2, .kw = 4, .sh = 3,
                .sw = 1, .pr = 2), 0);
}

TEST(fused_depthwise_hard_swish_no_residual)
{
    /* the activation applied while the rows leave the accumulator */
    check(CONV(.n = 2, .c = 10, .h = 13, .w = 12, .m = 10, .kh = 3,
                .kw = 3, .sh = 2, .sw = 2, .pt = 1, .pl = 1, .pb = 1,
                .pr = 1, .group = 10, .bias = 1, .act = 1, .act_kind = 1),
          1);
}

TEST(fused_depthwise_hard_swish_residual)
{
    check(CONV(.c = 16, .h = 14, .w = 14, .m = 16, .kh = 5, .kw = 5,
                .pt = 2, .pl = 2, .pb = 2, .pr = 2, .group = 16, .bias = 1,
                .res = 1, .act = 2, .act_kind = 1), 1);
}

TEST(fused_conv_silu)
{
    /* x * sigmoid(x) becomes silu, then the conv's epilogue */
    check(CONV(.c = 8, .h = 9, .w = 9, .m = 20, .kh = 3, .kw = 3,
                .sh = 2, .sw = 2, .pt = 1, .pl = 1, .pb = 1, .pr = 1,
                .bias = 1, .bn = 1, .act = 1, .act_kind = 2), 1);
    check(CONV(.c = 12, .h = 10, .w = 10, .m = 12, .kh = 3, .kw = 3,
                .sh = 2, .sw = 2, .pt = 1, .pl = 1, .pb = 1, .pr = 1,
                .group = 12, .act = 1, .act_kind = 2), 1);
}

TEST(squeeze_excite_1x1_on_one_pixel)
{
    /* [n, c, 1, 1]: one output pixel, the dot-product path; m spans
     * several weight tiles and a partial one */
    check(CONV(.n = 3, .c = 40, .h = 1, .w = 1, .m = 29, .kh = 1, .kw = 1,
                .bias = 1, .act = 1), 1);
    check(CONV(.n = 1, .c = 300, .h = 1, .w = 1, .m = 7, .kh = 1, .kw = 1,
                .bias = 1, .act = 1, .act_kind = 2), 1);
    check(CONV(.n = 2, .c = 6, .h = 1, .w = 1, .m = 6, .kh = 1, .kw = 1,
                .group = 3, .bias = 1), 0);
}

/* Stride 1 and no padding: the implicit GEMM reading x in place
 * (kernels_igemm.c), over K slices, tail tiles and panel edges. */
TEST(implicit_gemm_pointwise_slices_and_edges)
{
    /* K = 600: three slices; 29 rows: a tail tile of 5; 77 outputs: a
     * last panel of 13 (one half-vector); batch norm, residual, relu */
    check(CONV(.n = 2, .c = 600, .h = 7, .w = 11, .m = 29, .kh = 1,
                .kw = 1, .bias = 1, .bn = 1, .res = 1, .act = 2), 1);
    /* 50 outputs: a last panel of 18 (both halves, the second masked) */
    check(CONV(.n = 3, .c = 40, .h = 5, .w = 10, .m = 12, .kh = 1,
                .kw = 1, .bias = 1, .act = 1, .act_kind = 1), 1);
    /* bias and relu, or silu, applied by the tile itself */
    check(CONV(.n = 2, .c = 20, .h = 6, .w = 9, .m = 30, .kh = 1,
                .kw = 1, .bias = 1, .act = 1), 1);
    check(CONV(.n = 2, .c = 20, .h = 6, .w = 9, .m = 30, .kh = 1,
                .kw = 1, .bias = 1, .bn = 1, .act = 1, .act_kind = 2), 1);
    /* exactly one panel, and groups */
    check(CONV(.n = 1, .c = 24, .h = 4, .w = 8, .m = 36, .kh = 1,
                .kw = 1, .group = 3), 0);
}

TEST(implicit_gemm_valid_conv_drops_row_tails)
{
    /* 3 x 2 taps, width dilated by 2, no padding: each output row of 9
     * is read from input rows of 11 (2 columns computed and dropped);
     * K = 2 * 150 * 6 over groups, several slices each */
    check(CONV(.n = 2, .c = 300, .h = 8, .w = 11, .m = 26, .kh = 3,
                .kw = 2, .dw = 2, .group = 2, .bias = 1, .res = 1,
                .act = 2), 1);
    /* one output column per row: every panel spans many rows */
    check(CONV(.n = 1, .c = 5, .h = 40, .w = 3, .m = 13, .kh = 2,
                .kw = 3, .bias = 1), 0);
}

TEST(many_odd_shapes)
{
    /* a sweep of small odd shapes through both kernels */
    for (int64_t g = 1; g <= 3; g += 2)
        for (int64_t s = 1; s <= 2; s++)
            for (int64_t k = 1; k <= 3; k++) {
                int64_t c = 3 * g, m = g == 3 ? 3 : 5;
                check(CONV(.n = 1 + (k == 2), .c = c, .h = 5 + k,
                            .w = 7 - s, .m = m, .kh = k, .kw = 4 - k,
                            .sh = s, .sw = 3 - s, .dh = 1 + (k == 1),
                            .pt = k - 1, .pl = 1, .pb = 0, .pr = k / 2,
                            .group = g, .bias = (int)s - 1), 0);
            }
}

/* ---- pools and batch norm (kernels_window.c) ------------------------ */

/* OP (max_pool, avg_pool, or batch_norm when KH is 0) over x [N, C, H,
 * W] with INTS, on the best variant and on cpu-ref; X gets NaN at
 * element NAN_AT (when >= 0). */
static void check_window(rlx_op op, int64_t n, int64_t c, int64_t h,
                         int64_t w, uint32_t n_ints, const int64_t *ints,
                         long nan_at)
{
    rlx_graph *g = NULL;
    ASSERT_OK(rlx_graph_create(&g));
    rlx_value x = source(g, 0, "x", 4, (int64_t[]){ n, c, h, w }), y;
    if (op == RLX_OP_BATCH_NORM) {
        rlx_value bi[5] = { x };
        static const char *const nm[4] = { "bn_s", "bn_b", "bn_m", "bn_v" };
        for (int i = 0; i < 4; i++)
            bi[1 + i] = source(g, 1, nm[i], 1, (int64_t[]){ c });
        y = node(g, op, 5, bi, 0, NULL, 1, (double[]){ 1e-3 });
    } else {
        y = node(g, op, 1, &x, n_ints, ints, 0, NULL);
    }
    ASSERT_OK(rlx_graph_output(g, "y", y));
    graph b = { .g = g, .nx = (size_t)(n * c * h * w) };
    rlx_runtime *rt = blas_runtime();
    const char *best = blas_expected_suffix(&(int){ 0 });
    ASSERT_OK(rlx_runtime_load_plugin(rt, blas_variant_path(best)));
    rlx_session *sb = NULL, *sr = NULL;
    static char log[1 << 16];
    rlx_program *pb = blas_compile(rt, "cpu-openblas", &sb, b.g,
                                   log, sizeof log);
    rlx_program *pr = blas_compile(rt, "cpu-ref", &sr, b.g, NULL, 0);
    ASSERT(strstr(log, " 0 through cpu-ref"));
    float *xv = fill(b.nx, 0.9, 2.0, 0.0);
    if (nan_at >= 0)
        xv[nan_at] = NAN;
    rlx_program *both[2] = { pb, pr };
    for (int k = 0; k < 2; k++) {
        ASSERT_OK(rlx_program_set_input(both[k], "x", xv,
                                        b.nx * sizeof *xv));
        static const char *const nm[4] = { "bn_s", "bn_b", "bn_m", "bn_v" };
        for (int i = 0; op == RLX_OP_BATCH_NORM && i < 4; i++) {
            float *v = fill((size_t)c, 1.0 + i, i == 3 ? 0.4 : 0.8,
                            i == 3 ? 0.6 : 0.0);
            ASSERT_OK(rlx_program_set_param(both[k], nm[i], v,
                                            (size_t)c * sizeof *v));
            free(v);
        }
        ASSERT_OK(rlx_program_run(both[k]));
    }
    size_t nbytes = 0;
    ASSERT(rlx_program_output_data(pr, 0, &nbytes));
    size_t ny = nbytes / sizeof(float);
    float *got = blas_output(pb, ny), *want = blas_output(pr, ny);
    for (size_t i = 0; i < ny; i++)
        if (isnan(want[i]) != isnan(got[i]))
            FAIL("element %zu is %g, cpu-ref has %g", i, (double)got[i],
                 (double)want[i]);
        else if (!isnan(want[i]))
            compare(got + i, want + i, 1, rlx_op_name(op));
    free(got);
    free(want);
    free(xv);
    rlx_program_destroy(pb);
    rlx_program_destroy(pr);
    rlx_session_destroy(sb);
    rlx_session_destroy(sr);
    rlx_runtime_destroy(rt);
    rlx_graph_destroy(g);
}

/* pool int attrs: ceil, include_pad, p, kernel[2], strides[2],
 * dilations[2], pads_begin[2], pads_end[2] */
#define POOL(...) 13, (int64_t[]){ __VA_ARGS__ }

TEST(max_pool_resnet_stem)
{
    check_window(RLX_OP_MAX_POOL, 2, 5, 17, 16,
                 POOL(0, 0, 2, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1), -1);
}

TEST(max_pool_nan_wins_dilated_ceil)
{
    check_window(RLX_OP_MAX_POOL, 1, 3, 11, 13,
                 POOL(1, 0, 2, 2, 3, 2, 3, 2, 1, 0, 1, 1, 2), 40);
}

TEST(avg_pool_pads_both_counts)
{
    for (int64_t inc = 0; inc <= 1; inc++)
        for (int64_t ceil = 0; ceil <= 1; ceil++)
            check_window(RLX_OP_AVG_POOL, 2, 4, 10, 9,
                         POOL(ceil, inc, 2, 3, 2, 2, 2, 1, 1, 1, 0, 1, 1),
                         -1);
}

TEST(avg_pool_global)
{
    check_window(RLX_OP_AVG_POOL, 2, 7, 7, 7,
                 POOL(0, 0, 2, 7, 7, 1, 1, 1, 1, 0, 0, 0, 0), -1);
}

TEST(batch_norm_alone)
{
    check_window(RLX_OP_BATCH_NORM, 2, 6, 5, 7, 0, NULL, -1);
}

/* ---- 1-d convs (run as 2-d of height 1) ---------------------------- */

static void check_conv1d(int64_t n, int64_t c, int64_t len, int64_t m,
                         int64_t k, int64_t group, int64_t stride,
                         int64_t dil, int64_t pb, int64_t pe)
{
    rlx_graph *g = NULL;
    ASSERT_OK(rlx_graph_create(&g));
    rlx_value x = source(g, 0, "x", 3, (int64_t[]){ n, c, len });
    rlx_value w = source(g, 1, "w", 3, (int64_t[]){ m, c / group, k });
    rlx_value b = source(g, 1, "b", 1, (int64_t[]){ m });
    rlx_value y = node(g, RLX_OP_CONV, 3, (rlx_value[]){ x, w, b }, 5,
                       (int64_t[]){ group, stride, dil, pb, pe }, 0, NULL);
    ASSERT_OK(rlx_graph_output(g, "y", y));
    graph gb = { .g = g };
    size_t nx = (size_t)(n * c * len), nw = (size_t)(m * (c / group) * k);
    rlx_runtime *rt = blas_runtime();
    const char *best = blas_expected_suffix(&(int){ 0 });
    ASSERT_OK(rlx_runtime_load_plugin(rt, blas_variant_path(best)));
    rlx_session *sb = NULL, *sr = NULL;
    static char log[1 << 16];
    rlx_program *pb_ = blas_compile(rt, "cpu-openblas", &sb, gb.g, log,
                                    sizeof log);
    rlx_program *pr = blas_compile(rt, "cpu-ref", &sr, gb.g, NULL, 0);
    if (*best)
        ASSERT(strstr(log, " 0 through cpu-ref"));
    float *xv = fill(nx, 0.2, 1.0, 0.0), *wv = fill(nw, 1.1, 0.5, 0.0);
    float *bv = fill((size_t)m, 3.3, 0.2, 0.0);
    rlx_program *both[2] = { pb_, pr };
    for (int i = 0; i < 2; i++) {
        ASSERT_OK(rlx_program_set_input(both[i], "x", xv, nx * 4));
        ASSERT_OK(rlx_program_set_param(both[i], "w", wv, nw * 4));
        ASSERT_OK(rlx_program_set_param(both[i], "b", bv, (size_t)m * 4));
        ASSERT_OK(rlx_program_run(both[i]));
    }
    size_t nbytes = 0;
    ASSERT(rlx_program_output_data(pr, 0, &nbytes));
    float *got = blas_output(pb_, nbytes / 4);
    float *want = blas_output(pr, nbytes / 4);
    compare(got, want, nbytes / 4, "conv 1-d");
    free(got);
    free(want);
    free(xv);
    free(wv);
    free(bv);
    rlx_program_destroy(pb_);
    rlx_program_destroy(pr);
    rlx_session_destroy(sb);
    rlx_session_destroy(sr);
    rlx_runtime_destroy(rt);
    rlx_graph_destroy(g);
}

TEST(conv_1d)
{
    check_conv1d(2, 6, 29, 10, 3, 1, 1, 1, 1, 1);
    check_conv1d(1, 8, 40, 4, 5, 2, 3, 2, 2, 0);
    check_conv1d(3, 12, 17, 12, 3, 12, 2, 1, 1, 2); /* depthwise */
    check_conv1d(1, 16, 9, 24, 1, 1, 1, 1, 0, 0);   /* pointwise */
}

/* ---- the setting ---------------------------------------------------- */

TEST(setting_conv_off_and_bad)
{
    conv_case k = *CONV(.c = 4, .h = 6, .w = 6, .m = 4, .kh = 3, .kw = 3);
    graph b = build(&k);
    rlx_runtime *rt = blas_runtime();
    const char *best = blas_expected_suffix(&(int){ 0 });
    ASSERT_OK(rlx_runtime_load_plugin(rt, blas_variant_path(best)));
    rlx_session *s = NULL;
    static char log[1 << 16];
    setenv("RLX_CPU_OPENBLAS_CONV", "0", 1);
    rlx_program *p = blas_compile(rt, "cpu-openblas", &s, b.g,
                                  log, sizeof log);
    ASSERT(strstr(log, " 1 through cpu-ref")); /* the conv */
    set_all(p, &k, &b, 1.0);
    ASSERT_OK(rlx_program_run(p));
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    s = NULL;
    p = NULL;
    setenv("RLX_CPU_OPENBLAS_CONV", "fast", 1);
    rlx_status st = rlx_session_create(rt, "cpu-openblas", &s);
    if (st == RLX_OK)
        st = rlx_session_compile(s, b.g, &p);
    unsetenv("RLX_CPU_OPENBLAS_CONV");
    if (*best) { /* only variants with the kernel read the setting */
        ASSERT(st != RLX_OK);
        ASSERT(strstr(rlx_last_error(), "cpu-openblas.conv"));
        ASSERT(strstr(rlx_last_error(), "Fix:"));
    }
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_runtime_destroy(rt);
    rlx_graph_destroy(b.g);
}

RLX_TEST_LIST(TEST_ENTRY(max_pool_resnet_stem),
              TEST_ENTRY(max_pool_nan_wins_dilated_ceil),
              TEST_ENTRY(avg_pool_pads_both_counts),
              TEST_ENTRY(avg_pool_global), TEST_ENTRY(batch_norm_alone),
              TEST_ENTRY(setting_conv_off_and_bad), TEST_ENTRY(conv_1d),
              TEST_ENTRY(plain_3x3_same),
              TEST_ENTRY(stride_dilation_asymmetric_pads),
              TEST_ENTRY(large_k_many_channels), TEST_ENTRY(pointwise_1x1),
              TEST_ENTRY(pointwise_1x1_strided), TEST_ENTRY(groups),
              TEST_ENTRY(depthwise_3x3),
              TEST_ENTRY(depthwise_5x5_stride2_dilated),
              TEST_ENTRY(depthwise_multiplier_goes_general),
              TEST_ENTRY(kernel_as_large_as_input),
              TEST_ENTRY(weights_as_input), TEST_ENTRY(fused_relu),
              TEST_ENTRY(fused_bn_relu), TEST_ENTRY(fused_bn_residual_relu),
              TEST_ENTRY(fused_relu_then_residual),
              TEST_ENTRY(fused_depthwise_bn_relu),
              TEST_ENTRY(depthwise_phased_strides_pads),
              TEST_ENTRY(depthwise_16_channel_groups),
              TEST_ENTRY(few_input_channels_16_lanes),
              TEST_ENTRY(fused_depthwise_hard_swish_no_residual),
              TEST_ENTRY(fused_depthwise_hard_swish_residual),
              TEST_ENTRY(fused_conv_silu),
              TEST_ENTRY(squeeze_excite_1x1_on_one_pixel),
              TEST_ENTRY(implicit_gemm_pointwise_slices_and_edges),
              TEST_ENTRY(implicit_gemm_valid_conv_drops_row_tails),
              TEST_ENTRY(many_odd_shapes))
