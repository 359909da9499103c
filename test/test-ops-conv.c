/*
 * test-ops-conv.c - conv and conv_transpose on the reference CPU backend
 * through the public API: 1-d, 2-d and 3-d, strides, dilations,
 * asymmetric and huge pads, groups and depthwise, bias, output padding,
 * f16/bf16 and empty batches, against references in double written here
 * as direct sums (conv_transpose as a gather over the output, where the
 * kernel scatters), plus hand-worked cases and attribute errors.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <rlx/rlx.h>

#include "harness.h"
#include "ops-util.h"

/* One conv case: x [n, c, in...], w, optional bias, attributes. */
typedef struct conv_case {
    int transpose;
    uint32_t s;
    int64_t n, c, m, group;
    int64_t in[3], k[3], stride[3], dil[3], pb[3], pe[3], op[3];
    int bias;
} conv_case;

static int64_t out_size(const conv_case *t, uint32_t i)
{
    int64_t ext = (t->k[i] - 1) * t->dil[i] + 1;
    if (t->transpose)
        return t->stride[i] * (t->in[i] - 1) + t->op[i] + ext - t->pb[i] -
               t->pe[i];
    return (t->in[i] + t->pb[i] + t->pe[i] - ext) / t->stride[i] + 1;
}

/* Direct reference: y[n, m, o] = bias[m] + sum over (ci, k) of
 * x[n, ci, pos] * w, for pos = o*stride - pb + k*dil (conv), or over the
 * input positions i with i*stride - pb + k*dil == o (conv_transpose). */
static double *reference(const conv_case *t, const float *x, const float *w,
                         const float *b, size_t *count)
{
    uint32_t s = t->s;
    int64_t out[3], osz = 1, isz = 1, ksz = 1;
    for (uint32_t i = 0; i < s; i++) {
        out[i] = out_size(t, i);
        osz *= out[i];
        isz *= t->in[i];
        ksz *= t->k[i];
    }
    int64_t cg = t->c / t->group, mg = t->m / t->group;
    *count = (size_t)(t->n * t->m * osz);
    double *y = calloc(*count ? *count : 1, sizeof *y);
    for (int64_t n = 0; n < t->n; n++)
        for (int64_t m = 0; m < t->m; m++)
            for (int64_t o = 0; o < osz; o++) {
                int64_t oi[3], rem = o;
                for (uint32_t d = s; d-- > 0;) {
                    oi[d] = rem % out[d];
                    rem /= out[d];
                }
                int64_t g = m / mg;
                double acc = b ? b[m] : 0;
                for (int64_t cl = 0; cl < cg; cl++)
                    for (int64_t kk = 0; kk < ksz; kk++) {
                        int64_t ki[3], r2 = kk, off = 0, ok = 1;
                        for (uint32_t d = s; d-- > 0;) {
                            ki[d] = r2 % t->k[d];
                            r2 /= t->k[d];
                        }
                        for (uint32_t d = 0; d < s; d++) {
                            int64_t pos;
                            if (!t->transpose) {
                                pos = oi[d] * t->stride[d] - t->pb[d] +
                                      ki[d] * t->dil[d];
                            } else {
                                int64_t num = oi[d] + t->pb[d] -
                                              ki[d] * t->dil[d];
                                if (num < 0 || num % t->stride[d]) {
                                    ok = 0;
                                    break;
                                }
                                pos = num / t->stride[d];
                            }
                            if (pos < 0 || pos >= t->in[d]) {
                                ok = 0;
                                break;
                            }
                            off = off * t->in[d] + pos;
                        }
                        if (!ok)
                            continue;
                        int64_t ci = g * cg + cl;
                        double xv = x[(n * t->c + ci) * isz + off];
                        double wv = t->transpose
                            ? w[(ci * mg + (m - g * mg)) * ksz + kk]
                            : w[(m * cg + cl) * ksz + kk];
                        acc += xv * wv;
                    }
                y[(n * t->m + m) * osz + o] = acc;
            }
    return y;
}

static void attrs_of(const conv_case *t, int64_t *ints, uint32_t *n)
{
    uint32_t s = t->s, k = 0;
    ints[k++] = t->group;
    for (uint32_t i = 0; i < s; i++) ints[k++] = t->stride[i];
    for (uint32_t i = 0; i < s; i++) ints[k++] = t->dil[i];
    for (uint32_t i = 0; i < s; i++) ints[k++] = t->pb[i];
    for (uint32_t i = 0; i < s; i++) ints[k++] = t->pe[i];
    if (t->transpose)
        for (uint32_t i = 0; i < s; i++) ints[k++] = t->op[i];
    *n = k;
}

static void run_case(const conv_case *t, unsigned seed)
{
    int64_t xd[5] = { t->n, t->c }, wd[5], bd[1] = { t->m };
    uint32_t r = t->s + 2;
    wd[0] = t->transpose ? t->c : t->m;
    wd[1] = t->transpose ? t->m / t->group : t->c / t->group;
    for (uint32_t i = 0; i < t->s; i++) {
        xd[2 + i] = t->in[i];
        wd[2 + i] = t->k[i];
    }
    size_t nx = count_of(r, xd), nw = count_of(r, wd);
    float *x = pattern(nx, 2.0f, seed), *w = pattern(nw, 1.0f, seed + 7);
    float *b = pattern((size_t)t->m, 1.0f, seed + 13);
    int64_t ints[32];
    uint32_t n_ints;
    attrs_of(t, ints, &n_ints);
    rlx_attrs attrs = { n_ints, ints, 0, NULL };
    tensor in[3] = { make(r, xd, x), make(r, wd, w), make(1, bd, b) };
    tensor out;
    const float *y = run_op(t->transpose ? RLX_OP_CONV_TRANSPOSE
                                         : RLX_OP_CONV,
                            t->bias ? 3 : 2, in, &attrs, &out);
    size_t n;
    double *want = reference(t, x, w, t->bias ? b : NULL, &n);
    ASSERT_EQ(out.rank, r);
    ASSERT_EQ(out.dims[1], t->m);
    for (uint32_t i = 0; i < t->s; i++)
        ASSERT_EQ(out.dims[2 + i], out_size(t, i));
    check_values(t->transpose ? "conv_transpose" : "conv", y, want, n,
                 REL_TOL, 1e-5);
    free(want);
    free(x);
    free(w);
    free(b);
}

#define V3(a, b, c) { a, b, c }

TEST(conv_hand_worked)
{
    /* x = 1..5, w = [1, 0, -1], pads 1/1: y[o] = x[o-1] - x[o+1] */
    static const float x[5] = { 1, 2, 3, 4, 5 }, w[3] = { 1, 0, -1 };
    int64_t ints[] = { 1, 1, 1, 1, 1 };
    rlx_attrs attrs = { 5, ints, 0, NULL };
    tensor in[2] = { make(3, DIMS(1, 1, 5), x), make(3, DIMS(1, 1, 3), w) };
    tensor out;
    const float *y = run_op(RLX_OP_CONV, 2, in, &attrs, &out);
    ASSERT_SHAPE(out, 3, 1, 1, 5);
    static const double want[5] = { -2, -2, -2, -2, 4 };
    check_values("conv 1-d", y, want, 5, 0, 0);

    /* stride 2 and no attributes beyond group: [1,3,5] - [3,5,...] */
    int64_t s2[] = { 1, 2 };
    rlx_attrs a2 = { 2, s2, 0, NULL };
    y = run_op(RLX_OP_CONV, 2, in, &a2, &out);
    ASSERT_SHAPE(out, 3, 1, 1, 2);
    static const double want2[2] = { -2, -2 };
    check_values("conv stride 2", y, want2, 2, 0, 0);
}

TEST(conv_against_reference)
{
    const conv_case cases[] = {
        /* 1-d, bias, stride, asymmetric pads */
        { 0, 1, 2, 3, 4, 1, V3(9, 1, 1), V3(3, 1, 1), V3(2, 1, 1),
          V3(1, 1, 1), V3(1, 0, 0), V3(2, 0, 0), V3(0, 0, 0), 1 },
        /* 2-d, dilation 2, groups 2 */
        { 0, 2, 1, 4, 6, 2, V3(7, 6, 1), V3(3, 2, 1), V3(1, 2, 1),
          V3(2, 1, 1), V3(1, 0, 1), V3(0, 2, 1), V3(0, 0, 0), 1 },
        /* 2-d depthwise (group = channels), stride 2 */
        { 0, 2, 2, 3, 3, 3, V3(6, 5, 1), V3(3, 3, 1), V3(2, 2, 1),
          V3(1, 1, 1), V3(1, 1, 1), V3(1, 1, 1), V3(0, 0, 0), 0 },
        /* depthwise with channel multiplier 2 */
        { 0, 2, 1, 2, 4, 2, V3(5, 5, 1), V3(3, 3, 1), V3(1, 1, 1),
          V3(1, 1, 1), V3(0, 0, 1), V3(0, 0, 1), V3(0, 0, 0), 1 },
        /* 3-d */
        { 0, 3, 1, 2, 3, 1, V3(4, 5, 3), V3(2, 3, 2), V3(1, 2, 1),
          V3(1, 1, 2), V3(1, 0, 1), V3(0, 1, 1), V3(0, 0, 0), 1 },
        /* 1x1 */
        { 0, 2, 2, 5, 3, 1, V3(3, 4, 1), V3(1, 1, 1), V3(1, 1, 1),
          V3(1, 1, 1), V3(0, 0, 0), V3(0, 0, 0), V3(0, 0, 0), 1 },
    };
    for (size_t i = 0; i < N_OF(cases); i++)
        run_case(&cases[i], (unsigned)(11 + i));
}

TEST(conv_transpose_against_reference)
{
    const conv_case cases[] = {
        /* 1-d, stride 2, output padding 1, bias */
        { 1, 1, 2, 3, 2, 1, V3(4, 1, 1), V3(3, 1, 1), V3(2, 1, 1),
          V3(1, 1, 1), V3(1, 0, 0), V3(0, 0, 0), V3(1, 0, 0), 1 },
        /* 2-d, groups 2, dilation, pads */
        { 1, 2, 1, 4, 6, 2, V3(3, 4, 1), V3(3, 2, 1), V3(2, 1, 1),
          V3(1, 2, 1), V3(1, 0, 1), V3(0, 1, 1), V3(1, 0, 0), 1 },
        /* 3-d, stride 2 on every axis */
        { 1, 3, 1, 2, 2, 1, V3(2, 3, 2), V3(2, 2, 3), V3(2, 2, 2),
          V3(1, 1, 1), V3(0, 1, 0), V3(1, 0, 0), V3(0, 1, 1), 0 },
    };
    for (size_t i = 0; i < N_OF(cases); i++)
        run_case(&cases[i], (unsigned)(31 + i));
}

TEST(conv_huge_pads_and_empty_batch)
{
    /* pads of 1000 around 2 values: 2001 outputs, all bias but 3 */
    static const float x[2] = { 1, 2 }, w[2] = { 10, 1 }, b[1] = { 0.5f };
    int64_t ints[] = { 1, 1, 1, 1000, 1000 };
    rlx_attrs attrs = { 5, ints, 0, NULL };
    tensor in[3] = { make(3, DIMS(1, 1, 2), x), make(3, DIMS(1, 1, 2), w),
                     make(1, DIMS(1), b) };
    tensor out;
    const float *y = run_op(RLX_OP_CONV, 3, in, &attrs, &out);
    ASSERT_SHAPE(out, 3, 1, 1, 2001);
    ASSERT(y[0] == 0.5f && y[2000] == 0.5f);
    ASSERT(y[998] == 0.5f);
    ASSERT(y[999] == 0.5f + 1.0f);       /* w[1] * x[0] */
    ASSERT(y[1000] == 0.5f + 10 + 2);    /* w[0] * x[0] + w[1] * x[1] */
    ASSERT(y[1001] == 0.5f + 20);        /* w[0] * x[1] */
    ASSERT(y[1002] == 0.5f);

    /* an empty batch: [0, 1, 2] -> [0, 1, 2001] */
    in[0] = make(3, DIMS(0, 1, 2), NULL);
    run_op(RLX_OP_CONV, 3, in, &attrs, &out);
    ASSERT_SHAPE(out, 3, 0, 1, 2001);
}

TEST(conv_half_precision)
{
    /* f16 and bf16 compute in f32 and round the result once */
    static const float xf[4] = { 0.5f, 1.25f, -2.0f, 3.0f };
    static const float wf[2] = { 1.5f, -0.75f };
    for (int h = 0; h < 2; h++) {
        rlx_dtype t = h ? RLX_DTYPE_BF16 : RLX_DTYPE_F16;
        uint16_t x[4], w[2];
        for (int i = 0; i < 4; i++)
            x[i] = ref_half(t, xf[i]);
        for (int i = 0; i < 2; i++)
            w[i] = ref_half(t, wf[i]);
        source s[2] = { src('i', t, 3, DIMS(1, 1, 4), x),
                        src('i', t, 3, DIMS(1, 1, 2), w) };
        const result *r = run_any(RLX_OP_CONV, 2, s, NULL);
        ASSERT_EQ(r->dtype, t);
        ASSERT_RSHAPE(r, 3, 1, 1, 3);
        const uint16_t *y = r->data;
        for (int o = 0; o < 3; o++) {
            double want = ref_half_value(t, x[o]) * ref_half_value(t, w[0]) +
                          ref_half_value(t, x[o + 1]) *
                              ref_half_value(t, w[1]);
            ASSERT_EQ(y[o], ref_half(t, want));
        }
    }
}

/* Adding the node fails with CODE and a message containing WANT. */
static void expect_error(rlx_op op, uint32_t n, const source *in,
                         const rlx_attrs *attrs, rlx_status code,
                         const char *want)
{
    result r = { 0 };
    ASSERT_STATUS(run_any_try(op, n, in, attrs, &r), code);
    ASSERT_CONTAINS(run_error, want);
    ASSERT_CONTAINS(run_error, "Fix:");
}

TEST(conv_errors)
{
    static const float z[64] = { 0 };
    source x = src('i', RLX_DTYPE_F32, 4, DIMS(1, 4, 3, 3), z);
    source w = src('i', RLX_DTYPE_F32, 4, DIMS(2, 2, 2, 2), z);
    source s[3] = { x, w, src('i', RLX_DTYPE_F32, 1, DIMS(3), z) };
    int64_t g2[] = { 2 }, g3[] = { 3 }, neg[] = { 1, 1, 1, 1, 1, -1, 0 };
    int64_t part[] = { 1, 1 }, op_big[] = { 1, 2, 2, 1, 1, 0, 0, 0, 0, 2, 0 };
    rlx_attrs a2 = { 1, g2, 0, NULL }, a3 = { 1, g3, 0, NULL };
    rlx_attrs an = { 7, neg, 0, NULL }, ap = { 2, part, 0, NULL };
    rlx_attrs ao = { 11, op_big, 0, NULL };
    /* w [2, 2, ...] needs C = 2 * group: 4 channels need group 2 */
    expect_error(RLX_OP_CONV, 2, s, NULL, RLX_ERR_SHAPE, "group 1");
    expect_error(RLX_OP_CONV, 2, s, &a3, RLX_ERR_SHAPE, "group 3");
    expect_error(RLX_OP_CONV, 3, s, &a2, RLX_ERR_SHAPE, "bias");
    expect_error(RLX_OP_CONV, 1, s, NULL, RLX_ERR_INVALID_ARGUMENT,
                 "2 or 3 inputs");
    expect_error(RLX_OP_CONV, 2, s, &an, RLX_ERR_INVALID_ARGUMENT,
                 "pads_begin[0] is -1");
    expect_error(RLX_OP_CONV, 2, s, &ap, RLX_ERR_INVALID_ARGUMENT,
                 "blocks of 2");
    expect_error(RLX_OP_CONV_TRANSPOSE, 2, s, &ao, RLX_ERR_INVALID_ARGUMENT,
                 "output_padding[0]");
    /* rank 2 input: no spatial axis */
    source flat[2] = { src('i', RLX_DTYPE_F32, 2, DIMS(1, 4), z), w };
    expect_error(RLX_OP_CONV, 2, flat, NULL, RLX_ERR_SHAPE, "rank 2");
    /* a kernel larger than the padded input */
    source big[2] = { x, src('i', RLX_DTYPE_F32, 4, DIMS(2, 4, 4, 4), z) };
    expect_error(RLX_OP_CONV, 2, big, NULL, RLX_ERR_SHAPE, "larger than");
    /* sizes far past any real tensor (the graph refuses int64 overflow on
     * its own): refused by the conv rules, not wrapped */
    int64_t g4[] = { 4 };
    rlx_attrs ag4 = { 1, g4, 0, NULL };
    source huge[2] = { src('i', RLX_DTYPE_F32, 3, DIMS(1, 4, 3), z),
                       src('i', RLX_DTYPE_F32, 3,
                           DIMS(1, (int64_t)1 << 40, 1), z) };
    expect_error(RLX_OP_CONV, 2, huge, &ag4, RLX_ERR_SHAPE, "group 4");
    expect_error(RLX_OP_CONV_TRANSPOSE, 2, huge, &ag4, RLX_ERR_SHAPE,
                 "group 4");
    source longx[2] = { src('i', RLX_DTYPE_F32, 3,
                            DIMS(1, 1, ((int64_t)1 << 30) + 1), z),
                        src('i', RLX_DTYPE_F32, 3, DIMS(1, 1, 1), z) };
    expect_error(RLX_OP_CONV, 2, longx, NULL, RLX_ERR_SHAPE, "up to 2^30");
    /* integer data */
    source ints[2] = { src('i', RLX_DTYPE_I32, 4, DIMS(1, 4, 3, 3), z),
                       src('i', RLX_DTYPE_I32, 4, DIMS(2, 4, 2, 2), z) };
    expect_error(RLX_OP_CONV, 2, ints, NULL, RLX_ERR_DTYPE, "i32");
}

RLX_TEST_LIST(TEST_ENTRY(conv_hand_worked),
              TEST_ENTRY(conv_against_reference),
              TEST_ENTRY(conv_transpose_against_reference),
              TEST_ENTRY(conv_huge_pads_and_empty_batch),
              TEST_ENTRY(conv_half_precision), TEST_ENTRY(conv_errors))
