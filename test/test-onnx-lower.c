/*
 * test-onnx-lower.c - ONNX operators lowered onto rlx's op set, one case
 * per family, run on cpu-ref against values computed here: elementwise
 * with broadcasting, the opset-dependent forms (Softmax before and after
 * opset 13, axes as attribute or input), data movement with negative
 * axes and indices, shape subgraphs folded for concrete shapes, a
 * program fed batch 1 then batch 4, and `rlx run --output` files.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <rlx/rlx.h>

#include "harness.h"
#include "onnx-util.h"

#define N(...) (const char *[]){ __VA_ARGS__, NULL }

static const int64_t d23[2] = { 2, 3 };
static const float x23[6] = { -1.5f, 0.5f, 2, -0.25f, 3, -4 };

TEST(elementwise_broadcasting)
{
    ox_model *x = ox_new(8, 14);
    ox_input(x, "x", OX_F32, 2, d23);
    int64_t d3[1] = { 3 }, d1[1] = { 1 };
    float w[3] = { 1, 2, 4 }, two[1] = { 2 };
    ox_init(x, "w", OX_F32, 1, d3, w, sizeof w);
    ox_init(x, "two", OX_F32, 1, d1, two, sizeof two);
    const char *outs[] = { "add", "sub", "mul", "div", "pow", "max", "mean" };
    ox_node(x, "Add", N("x", "w"), N("add"));
    ox_node(x, "Sub", N("w", "x"), N("sub"));
    ox_node(x, "Mul", N("x", "w"), N("mul"));
    ox_node(x, "Div", N("x", "w"), N("div"));
    ox_node(x, "Pow", N("x", "two"), N("pow"));
    ox_node(x, "Max", N("x", "w", "two"), N("max"));
    ox_node(x, "Mean", N("x", "w"), N("mean"));
    for (int i = 0; i < 7; i++)
        ox_output(x, outs[i], OX_F32, 2, d23);
    run r;
    run_open(&r, x, "ew.onnx");
    ASSERT_OK(rlx_program_set_input(r.p, "x", x23, sizeof x23));
    ASSERT_OK(rlx_program_run(r.p));
    float want[7][6];
    for (int i = 0; i < 6; i++) {
        float a = x23[i], b = w[i % 3];
        want[0][i] = a + b, want[1][i] = b - a, want[2][i] = a * b;
        want[3][i] = a / b, want[4][i] = a * a;
        want[5][i] = fmaxf(fmaxf(a, b), 2), want[6][i] = (a + b) / 2;
    }
    for (int k = 0; k < 7; k++)
        expect(out(&r, outs[k], RLX_DTYPE_F32, 6), want[k], 6);
    run_close(&r);
}

TEST(activations)
{
    ox_model *x = ox_new(8, 16);
    ox_input(x, "x", OX_F32, 2, d23);
    const char *ops[] = { "Relu", "Sigmoid", "HardSwish", "LeakyRelu",
                          "Softplus", "Reciprocal", "Tanh", "Neg" };
    for (int i = 0; i < 8; i++) {
        Onnx__NodeProto *n = ox_node(x, ops[i], N("x"), N(ops[i]));
        if (i == 3)
            ox_attr_float(x, n, "alpha", 0.1f);
        ox_output(x, ops[i], OX_F32, 2, d23);
    }
    run r;
    run_open(&r, x, "act.onnx");
    ASSERT_OK(rlx_program_set_input(r.p, "x", x23, sizeof x23));
    ASSERT_OK(rlx_program_run(r.p));
    for (int k = 0; k < 8; k++) {
        float want[6];
        for (int i = 0; i < 6; i++) {
            double a = x23[i];
            double hs = fmin(1, fmax(0, a / 6 + 0.5));
            double v[8] = { fmax(a, 0), 1 / (1 + exp(-a)), a * hs,
                            a < 0 ? 0.1 * a : a, log1p(exp(a)), 1 / a,
                            tanh(a), -a };
            want[i] = (float)v[k];
        }
        expect(out(&r, ops[k], RLX_DTYPE_F32, 6), want, 6);
    }
    run_close(&r);
}

TEST(gemm_and_matmul)
{
    ox_model *x = ox_new(8, 13);
    ox_input(x, "x", OX_F32, 2, d23);
    int64_t d43[2] = { 4, 3 }, d4[1] = { 4 }, d32[2] = { 3, 2 };
    float b[12], c[4] = { 1, -1, 0.5f, 2 }, m[6] = { 1, 0, 0, 1, 1, 1 };
    for (int i = 0; i < 12; i++)
        b[i] = (float)(i % 5) - 2;
    ox_init(x, "B", OX_F32, 2, d43, b, sizeof b);
    ox_init(x, "C", OX_F32, 1, d4, c, sizeof c);
    ox_init(x, "M", OX_F32, 2, d32, m, sizeof m);
    Onnx__NodeProto *g = ox_node(x, "Gemm", N("x", "B", "C"), N("gemm"));
    ox_attr_int(x, g, "transB", 1);
    ox_attr_float(x, g, "alpha", 2);
    ox_attr_float(x, g, "beta", 0.5f);
    ox_node(x, "MatMul", N("x", "M"), N("mm"));
    int64_t d24[2] = { 2, 4 }, d22[2] = { 2, 2 };
    ox_output(x, "gemm", OX_F32, 2, d24);
    ox_output(x, "mm", OX_F32, 2, d22);
    run r;
    run_open(&r, x, "gemm.onnx");
    ASSERT_OK(rlx_program_set_input(r.p, "x", x23, sizeof x23));
    ASSERT_OK(rlx_program_run(r.p));
    float wg[8], wm[4];
    for (int i = 0; i < 2; i++) {
        for (int j = 0; j < 4; j++) {
            float s = 0;
            for (int k = 0; k < 3; k++)
                s += x23[i * 3 + k] * b[j * 3 + k];
            wg[i * 4 + j] = 2 * s + 0.5f * c[j];
        }
        for (int j = 0; j < 2; j++) {
            float s = 0;
            for (int k = 0; k < 3; k++)
                s += x23[i * 3 + k] * m[k * 2 + j];
            wm[i * 2 + j] = s;
        }
    }
    expect(out(&r, "gemm", RLX_DTYPE_F32, 8), wg, 8);
    expect(out(&r, "mm", RLX_DTYPE_F32, 4), wm, 4);
    run_close(&r);
}

/* Softmax over groups of GROUP consecutive elements (stride STRIDE). */
static void softmax_ref(const float *x, float *y, int n, int group,
                        int stride, int is_log)
{
    for (int base = 0; base < n; base++) {
        if ((base / stride) % group != 0)
            continue;
        double mx = -INFINITY, sum = 0;
        for (int k = 0; k < group; k++)
            mx = fmax(mx, x[base + k * stride]);
        for (int k = 0; k < group; k++)
            sum += exp(x[base + k * stride] - mx);
        for (int k = 0; k < group; k++) {
            double v = x[base + k * stride] - mx;
            y[base + k * stride] =
                (float)(is_log ? v - log(sum) : exp(v) / sum);
        }
    }
}

TEST(softmax_before_and_after_opset_13)
{
    int64_t d234[3] = { 2, 3, 4 };
    float xin[24];
    for (int i = 0; i < 24; i++)
        xin[i] = sinf((float)i) * 3;
    for (int opset = 11; opset <= 13; opset += 2) {
        ox_model *x = ox_new(8, opset);
        ox_input(x, "x", OX_F32, 3, d234);
        ox_attr_int(x, ox_node(x, "Softmax", N("x"), N("sm")), "axis", 1);
        ox_attr_int(x, ox_node(x, "LogSoftmax", N("x"), N("lsm")), "axis",
                    1);
        ox_output(x, "sm", OX_F32, 3, d234);
        ox_output(x, "lsm", OX_F32, 3, d234);
        run r;
        run_open(&r, x, "softmax.onnx");
        ASSERT_OK(rlx_program_set_input(r.p, "x", xin, sizeof xin));
        ASSERT_OK(rlx_program_run(r.p));
        float want[24], wlog[24];
        if (opset < 13) { /* coerced to [2, 12]: over axes 1 and 2 */
            softmax_ref(xin, want, 24, 12, 1, 0);
            softmax_ref(xin, wlog, 24, 12, 1, 1);
        } else { /* over axis 1 alone */
            softmax_ref(xin, want, 24, 3, 4, 0);
            softmax_ref(xin, wlog, 24, 3, 4, 1);
        }
        expect(out(&r, "sm", RLX_DTYPE_F32, 24), want, 24);
        expect(out(&r, "lsm", RLX_DTYPE_F32, 24), wlog, 24);
        run_close(&r);
    }
}

TEST(reductions_axes_attribute_or_input)
{
    int64_t one[1] = { 1 }, axes[1] = { -1 };
    for (int opset = 11; opset <= 18; opset += 7) {
        ox_model *x = ox_new(8, opset);
        ox_input(x, "x", OX_F32, 2, d23);
        ox_init(x, "axes", OX_I64, 1, one, axes, sizeof axes);
        const char *ops[] = { "ReduceSum", "ReduceMean", "ReduceMin",
                              "ReduceL2", "ReduceLogSumExp" };
        for (int i = 0; i < 5; i++) {
            int input = opset >= 18 || (i == 0 && opset >= 13);
            Onnx__NodeProto *n = ox_node(x, ops[i],
                                         input ? N("x", "axes") : N("x"),
                                         N(ops[i]));
            if (!input)
                ox_attr_ints(x, n, "axes", 1, axes);
            ox_attr_int(x, n, "keepdims", 0);
            int64_t d2[1] = { 2 };
            ox_output(x, ops[i], OX_F32, 1, d2);
        }
        run r;
        run_open(&r, x, "reduce.onnx");
        ASSERT_OK(rlx_program_set_input(r.p, "x", x23, sizeof x23));
        ASSERT_OK(rlx_program_run(r.p));
        for (int k = 0; k < 5; k++) {
            float want[2];
            for (int i = 0; i < 2; i++) {
                const float *row = x23 + 3 * i;
                double s = 0, mn = INFINITY, sq = 0, se = 0;
                for (int j = 0; j < 3; j++) {
                    s += row[j], mn = fmin(mn, row[j]);
                    sq += row[j] * row[j], se += exp(row[j]);
                }
                double v[5] = { s, s / 3, mn, sqrt(sq), log(se) };
                want[i] = (float)v[k];
            }
            expect(out(&r, ops[k], RLX_DTYPE_F32, 2), want, 2);
        }
        run_close(&r);
    }
}

TEST(layer_and_batch_norm)
{
    ox_model *x = ox_new(8, 17);
    int64_t d4[4] = { 1, 2, 1, 3 }, d2[1] = { 2 }, d3[1] = { 3 };
    ox_input(x, "x", OX_F32, 4, d4);
    float sc[2] = { 1, 2 }, bi[2] = { 0.5f, -1 }, mu[2] = { 1, -1 },
          var[2] = { 4, 0.25f }, g[3] = { 1, 2, 3 }, b[3] = { 0, 1, 0 };
    ox_init(x, "s", OX_F32, 1, d2, sc, sizeof sc);
    ox_init(x, "bi", OX_F32, 1, d2, bi, sizeof bi);
    ox_init(x, "mu", OX_F32, 1, d2, mu, sizeof mu);
    ox_init(x, "var", OX_F32, 1, d2, var, sizeof var);
    ox_init(x, "g", OX_F32, 1, d3, g, sizeof g);
    ox_init(x, "b", OX_F32, 1, d3, b, sizeof b);
    ox_node(x, "BatchNormalization", N("x", "s", "bi", "mu", "var"),
            N("bn"));
    ox_node(x, "LayerNormalization", N("x", "g", "b"), N("ln"));
    ox_output(x, "bn", OX_F32, 4, d4);
    ox_output(x, "ln", OX_F32, 4, d4);
    run r;
    run_open(&r, x, "norm.onnx");
    ASSERT_OK(rlx_program_set_input(r.p, "x", x23, sizeof x23));
    ASSERT_OK(rlx_program_run(r.p));
    float wbn[6], wln[6];
    for (int c = 0; c < 2; c++) {
        double mean = 0, v = 0;
        for (int j = 0; j < 3; j++)
            mean += x23[c * 3 + j] / 3.0;
        for (int j = 0; j < 3; j++)
            v += (x23[c * 3 + j] - mean) * (x23[c * 3 + j] - mean) / 3.0;
        for (int j = 0; j < 3; j++) {
            float a = x23[c * 3 + j];
            wbn[c * 3 + j] = (float)((a - mu[c]) / sqrt(var[c] + 1e-5) *
                                     sc[c] + bi[c]);
            wln[c * 3 + j] = (float)((a - mean) / sqrt(v + 1e-5) * g[j] +
                                     b[j]);
        }
    }
    expect(out(&r, "bn", RLX_DTYPE_F32, 6), wbn, 6);
    expect(out(&r, "ln", RLX_DTYPE_F32, 6), wln, 6);
    run_close(&r);
}

TEST(data_movement)
{
    ox_model *x = ox_new(8, 13);
    ox_input(x, "x", OX_F32, 2, d23);
    int64_t one[1] = { 1 }, two[1] = { 2 };
    int64_t shape[2] = { 0, -1 }, st[1] = { -2 }, en[1] = { 100 },
            ax[1] = { -1 }, idx[2] = { -1, 0 }, zero[1] = { 0 },
            ex[3] = { 2, 2, 3 };
    ox_init(x, "shape", OX_I64, 1, two, shape, sizeof shape);
    ox_init(x, "st", OX_I64, 1, one, st, sizeof st);
    ox_init(x, "en", OX_I64, 1, one, en, sizeof en);
    ox_init(x, "ax", OX_I64, 1, one, ax, sizeof ax);
    ox_init(x, "idx", OX_I64, 1, two, idx, sizeof idx);
    ox_init(x, "zero", OX_I64, 1, one, zero, sizeof zero);
    int64_t three[1] = { 3 };
    ox_init(x, "ex", OX_I64, 1, three, ex, sizeof ex);
    ox_node(x, "Reshape", N("x", "shape"), N("reshape"));
    ox_node(x, "Transpose", N("x"), N("transpose"));
    ox_attr_int(x, ox_node(x, "Concat", N("x", "x"), N("concat")), "axis",
                -1);
    ox_node(x, "Slice", N("x", "st", "en", "ax"), N("slice"));
    ox_attr_int(x, ox_node(x, "Gather", N("x", "idx"), N("gather")), "axis",
                1);
    ox_node(x, "Unsqueeze", N("x", "zero"), N("unsq"));
    ox_node(x, "Squeeze", N("unsq", "zero"), N("sq"));
    ox_attr_int(x, ox_node(x, "Flatten", N("unsq"), N("flat")), "axis", 0);
    ox_node(x, "Split", N("x"), N("left", "right"));
    ox_attr_int(x, ox_node(x, "Cast", N("x"), N("cast")), "to", OX_I64);
    ox_node(x, "Expand", N("x", "ex"), N("expand"));
    int64_t d32[2] = { 3, 2 }, d26[2] = { 2, 6 }, d22[2] = { 2, 2 },
            d123[3] = { 1, 2, 3 }, d16[2] = { 1, 6 }, d13[2] = { 1, 3 },
            d223[3] = { 2, 2, 3 };
    ox_output(x, "reshape", OX_F32, 2, d23);
    ox_output(x, "transpose", OX_F32, 2, d32);
    ox_output(x, "concat", OX_F32, 2, d26);
    ox_output(x, "slice", OX_F32, 2, d22);
    ox_output(x, "gather", OX_F32, 2, d22);
    ox_output(x, "unsq", OX_F32, 3, d123);
    ox_output(x, "sq", OX_F32, 2, d23);
    ox_output(x, "flat", OX_F32, 2, d16);
    ox_output(x, "left", OX_F32, 2, d13);
    ox_output(x, "right", OX_F32, 2, d13);
    ox_output(x, "cast", OX_I64, 2, d23);
    ox_output(x, "expand", OX_F32, 3, d223);
    run r;
    run_open(&r, x, "move.onnx");
    ASSERT_OK(rlx_program_set_input(r.p, "x", x23, sizeof x23));
    ASSERT_OK(rlx_program_run(r.p));
    const float *X = x23;
    expect(out(&r, "reshape", RLX_DTYPE_F32, 6), X, 6);
    float tr[6] = { X[0], X[3], X[1], X[4], X[2], X[5] };
    expect(out(&r, "transpose", RLX_DTYPE_F32, 6), tr, 6);
    float cc[12] = { X[0], X[1], X[2], X[0], X[1], X[2],
                     X[3], X[4], X[5], X[3], X[4], X[5] };
    expect(out(&r, "concat", RLX_DTYPE_F32, 12), cc, 12);
    float sl[4] = { X[1], X[2], X[4], X[5] };
    expect(out(&r, "slice", RLX_DTYPE_F32, 4), sl, 4);
    float ga[4] = { X[2], X[0], X[5], X[3] };
    expect(out(&r, "gather", RLX_DTYPE_F32, 4), ga, 4);
    expect(out(&r, "unsq", RLX_DTYPE_F32, 6), X, 6);
    expect(out(&r, "sq", RLX_DTYPE_F32, 6), X, 6);
    expect(out(&r, "flat", RLX_DTYPE_F32, 6), X, 6);
    expect(out(&r, "left", RLX_DTYPE_F32, 3), X, 3);
    expect(out(&r, "right", RLX_DTYPE_F32, 3), X + 3, 3);
    const int64_t *ci = out(&r, "cast", RLX_DTYPE_I64, 6);
    int64_t wc[6] = { -1, 0, 2, 0, 3, -4 }; /* toward zero */
    for (int i = 0; i < 6; i++)
        ASSERT_EQ(ci[i], wc[i]);
    const float *e = out(&r, "expand", RLX_DTYPE_F32, 12);
    expect(e, X, 6);
    expect(e + 6, X, 6);
    run_close(&r);
}

/* x [batch, 4] -> Reshape to [batch, 2, 2] through Shape, Gather,
 * Unsqueeze and Concat -> ReduceSum over the last axis; n = Size(x). */
static ox_model *batch_model(void)
{
    ox_model *x = ox_new(8, 13);
    int64_t dx[2] = { -1, 4 }, one[1] = { 1 }, two[2] = { 2, 2 },
            zero = 0, last[1] = { -1 }, dy[2] = { -1, 2 };
    ox_input(x, "x", OX_F32, 2, dx);
    ox_init(x, "zero", OX_I64, 0, NULL, &zero, sizeof zero);
    ox_init(x, "axes0", OX_I64, 1, one, &zero, sizeof zero);
    ox_init(x, "tail", OX_I64, 1, (int64_t[]){ 2 }, two, sizeof two);
    ox_init(x, "last", OX_I64, 1, one, last, sizeof last);
    ox_node(x, "Shape", N("x"), N("shape"));
    ox_node(x, "Gather", N("shape", "zero"), N("batch"));
    ox_node(x, "Unsqueeze", N("batch", "axes0"), N("batch1"));
    ox_attr_int(x, ox_node(x, "Concat", N("batch1", "tail"), N("dims")),
                "axis", 0);
    ox_node(x, "Reshape", N("x", "dims"), N("r"));
    ox_attr_int(x, ox_node(x, "ReduceSum", N("r", "last"), N("y")),
                "keepdims", 0);
    ox_node(x, "Size", N("x"), N("n"));
    ox_output(x, "y", OX_F32, 2, dy);
    ox_output(x, "n", OX_I64, 0, NULL);
    return x;
}

static void batch_check(run *r, int64_t batch)
{
    float in[16], want[8];
    for (int i = 0; i < 4 * batch; i++)
        in[i] = (float)(i * 3 % 7) - 2;
    for (int i = 0; i < 2 * batch; i++)
        want[i] = in[2 * i] + in[2 * i + 1];
    int64_t dims[2] = { batch, 4 };
    ASSERT_OK(rlx_program_set_input_shape(r->p, "x", 2, dims));
    ASSERT_OK(rlx_program_set_input(r->p, "x", in,
                                    (size_t)(4 * batch) * sizeof *in));
    ASSERT_OK(rlx_program_run(r->p));
    expect(out(r, "y", RLX_DTYPE_F32, (size_t)(2 * batch)), want,
           (size_t)(2 * batch));
    ASSERT_EQ(*(const int64_t *)out(r, "n", RLX_DTYPE_I64, 1), 4 * batch);
}

TEST(batch_1_then_4_on_one_program)
{
    run r;
    run_open(&r, batch_model(), "batch.onnx");
    /* the shape subgraph folded away: no shape op reached the graph */
    uint32_t n = rlx_model_source_node_count(r.m);
    for (uint32_t i = 0; i < n; i++) {
        const char *op, *lowered;
        ASSERT_OK(rlx_model_source_node(r.m, i, NULL, &op, NULL, &lowered));
        if (!strcmp(op, "Shape") || !strcmp(op, "Gather") ||
            !strcmp(op, "Concat") || !strcmp(op, "Size"))
            ASSERT_CONTAINS(lowered, "constant");
    }
    batch_check(&r, 1);
    batch_check(&r, 4);
    batch_check(&r, 1); /* from the cache */
    batch_check(&r, 3);
    /* a declared dimension cannot change */
    int64_t bad[2] = { 2, 5 };
    ASSERT_STATUS(rlx_program_set_input_shape(r.p, "x", 2, bad),
                  RLX_ERR_SHAPE);
    ASSERT_CONTAINS(rlx_last_error(), "declared 4");
    batch_check(&r, 2);
    run_close(&r);
}

TEST(inputs_sharing_a_dimension_change_together)
{
    ox_model *x = ox_new(8, 13);
    int64_t d[2] = { -1, 2 }, dy[2] = { -1, 4 };
    ox_input(x, "a", OX_F32, 2, d);
    ox_input(x, "b", OX_F32, 2, d);
    ox_attr_int(x, ox_node(x, "Concat", N("a", "b"), N("y")), "axis", 1);
    ox_output(x, "y", OX_F32, 2, dy);
    run r;
    run_open(&r, x, "two.onnx");
    int64_t three[2] = { 3, 2 };
    /* a alone at batch 3 could not concatenate with b at batch 1: the
     * switch waits for the next set_input */
    ASSERT_OK(rlx_program_set_input_shape(r.p, "a", 2, three));
    ASSERT_OK(rlx_program_set_input_shape(r.p, "b", 2, three));
    float a[6] = { 1, 2, 3, 4, 5, 6 }, b[6] = { -1, -2, -3, -4, -5, -6 };
    ASSERT_OK(rlx_program_set_input(r.p, "a", a, sizeof a));
    ASSERT_OK(rlx_program_set_input(r.p, "b", b, sizeof b));
    ASSERT_OK(rlx_program_run(r.p));
    const float *y = out(&r, "y", RLX_DTYPE_F32, 12);
    for (int i = 0; i < 3; i++) {
        ASSERT(y[4 * i] == a[2 * i] && y[4 * i + 1] == a[2 * i + 1]);
        ASSERT(y[4 * i + 2] == b[2 * i] && y[4 * i + 3] == b[2 * i + 1]);
    }
    /* only one of them changed: the switch fails, naming the node */
    int64_t five[2] = { 5, 2 };
    ASSERT_OK(rlx_program_set_input_shape(r.p, "a", 2, five));
    ASSERT(rlx_program_set_input(r.p, "a", a, sizeof a) != RLX_OK);
    ASSERT_CONTAINS(rlx_last_error(), "Concat");
    /* and the other one repairs it */
    ASSERT_OK(rlx_program_set_input_shape(r.p, "b", 2, five));
    float a5[10] = { 0 }, b5[10] = { 0 };
    ASSERT_OK(rlx_program_set_input(r.p, "a", a5, sizeof a5));
    ASSERT_OK(rlx_program_set_input(r.p, "b", b5, sizeof b5));
    ASSERT_OK(rlx_program_run(r.p));
    out(&r, "y", RLX_DTYPE_F32, 20);
    run_close(&r);
}

TEST(shape_on_a_fixed_program_is_refused)
{
    ox_model *x = batch_model();
    const char *path = ox_write(x, "fixed.onnx");
    ox_free(x);
    rlx_model *m;
    rlx_runtime *rt;
    rlx_session *s;
    rlx_program *p;
    ASSERT_OK(rlx_model_load(path, &m));
    ASSERT_OK(rlx_runtime_create(&rt, RLX_RUNTIME_NO_DISCOVERY));
    ASSERT_OK(rlx_session_create(rt, "cpu-ref", &s));
    ASSERT_OK(rlx_session_compile(s, rlx_model_graph(m), &p));
    int64_t dims[2] = { 4, 4 };
    ASSERT_STATUS(rlx_program_set_input_shape(p, "x", 2, dims),
                  RLX_ERR_SHAPE);
    ASSERT_CONTAINS(rlx_last_error(), "rlx_model_compile");
    dims[0] = 1; /* its own shape is fine */
    ASSERT_OK(rlx_program_set_input_shape(p, "x", 2, dims));
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_runtime_destroy(rt);
    rlx_model_destroy(m);
}

TEST(constant_of_shape_and_range)
{
    ox_model *x = ox_new(8, 13);
    ox_input(x, "x", OX_F32, 2, d23);
    Onnx__NodeProto *c = ox_node(x, "ConstantOfShape", N("shape"), N("k"));
    Onnx__TensorProto *v = ox_keep(x, calloc(1, sizeof *v));
    onnx__tensor_proto__init(v);
    float two = 2;
    v->has_data_type = 1;
    v->data_type = OX_F32;
    v->n_dims = 1;
    v->dims = ox_keep(x, calloc(1, sizeof *v->dims));
    v->dims[0] = 1;
    v->n_float_data = 1;
    v->float_data = &two;
    Onnx__AttributeProto *a = ox_keep(x, calloc(1, sizeof *a));
    onnx__attribute_proto__init(a);
    a->name = "value";
    a->t = v;
    c->attribute = ox_keep(x, calloc(1, sizeof *c->attribute));
    c->attribute[0] = a;
    c->n_attribute = 1;
    ox_node(x, "Shape", N("x"), N("shape"));
    ox_node(x, "Mul", N("x", "k"), N("y"));
    int64_t s0 = 0, s3 = 3, s1 = 1;
    ox_init(x, "r0", OX_I64, 0, NULL, &s0, sizeof s0);
    ox_init(x, "r3", OX_I64, 0, NULL, &s3, sizeof s3);
    ox_init(x, "r1", OX_I64, 0, NULL, &s1, sizeof s1);
    ox_node(x, "Range", N("r0", "r3", "r1"), N("range"));
    ox_attr_int(x, ox_node(x, "Cast", N("range"), N("rf")), "to", OX_F32);
    ox_node(x, "Add", N("x", "rf"), N("z"));
    ox_output(x, "y", OX_F32, 2, d23);
    ox_output(x, "z", OX_F32, 2, d23);
    run r;
    run_open(&r, x, "cos.onnx");
    ASSERT_OK(rlx_program_set_input(r.p, "x", x23, sizeof x23));
    ASSERT_OK(rlx_program_run(r.p));
    float wy[6], wz[6];
    for (int i = 0; i < 6; i++)
        wy[i] = 2 * x23[i], wz[i] = x23[i] + (float)(i % 3);
    expect(out(&r, "y", RLX_DTYPE_F32, 6), wy, 6);
    expect(out(&r, "z", RLX_DTYPE_F32, 6), wz, 6);
    run_close(&r);
}

TEST(conv_and_pools)
{
    ox_model *x = ox_new(8, 13);
    int64_t dx[4] = { 1, 1, 4, 4 }, dw[4] = { 1, 1, 3, 3 }, db[1] = { 1 };
    float w[9], b = 0.5f, in[16];
    for (int i = 0; i < 9; i++)
        w[i] = (float)(i % 3) - 1; /* -1 0 1 per row: a horizontal edge */
    for (int i = 0; i < 16; i++)
        in[i] = (float)(i * 5 % 7);
    ox_input(x, "x", OX_F32, 4, dx);
    ox_init(x, "w", OX_F32, 4, dw, w, sizeof w);
    ox_init(x, "b", OX_F32, 1, db, &b, sizeof b);
    Onnx__NodeProto *cv = ox_node(x, "Conv", N("x", "w", "b"), N("conv"));
    ox_attr_ints(x, cv, "pads", 4, (int64_t[]){ 1, 1, 1, 1 });
    Onnx__NodeProto *mp = ox_node(x, "MaxPool", N("x"), N("max"));
    ox_attr_ints(x, mp, "kernel_shape", 2, (int64_t[]){ 2, 2 });
    ox_attr_ints(x, mp, "strides", 2, (int64_t[]){ 2, 2 });
    Onnx__NodeProto *ap = ox_node(x, "AveragePool", N("x"), N("avg"));
    ox_attr_ints(x, ap, "kernel_shape", 2, (int64_t[]){ 3, 3 });
    ox_attr_str_same(x, ap);
    ox_node(x, "GlobalAveragePool", N("x"), N("gap"));
    int64_t d2[4] = { 1, 1, 2, 2 }, d1[4] = { 1, 1, 1, 1 };
    ox_output(x, "conv", OX_F32, 4, dx);
    ox_output(x, "max", OX_F32, 4, d2);
    ox_output(x, "avg", OX_F32, 4, dx);
    ox_output(x, "gap", OX_F32, 4, d1);
    run r;
    run_open(&r, x, "vision.onnx");
    ASSERT_OK(rlx_program_set_input(r.p, "x", in, sizeof in));
    ASSERT_OK(rlx_program_run(r.p));
    float wc[16], wm[4], wa[16], wg = 0;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            float s = b, t = 0;
            int n = 0;
            for (int di = -1; di <= 1; di++)
                for (int dj = -1; dj <= 1; dj++) {
                    int y = i + di, z = j + dj;
                    if (y < 0 || y > 3 || z < 0 || z > 3)
                        continue;
                    s += in[y * 4 + z] * w[(di + 1) * 3 + dj + 1];
                    t += in[y * 4 + z];
                    n++;
                }
            wc[i * 4 + j] = s;
            wa[i * 4 + j] = t / (float)n; /* SAME, pads not counted */
            wg += in[i * 4 + j] / 16;
        }
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
            float m = -INFINITY;
            for (int k = 0; k < 4; k++)
                m = fmaxf(m, in[(2 * i + k / 2) * 4 + 2 * j + k % 2]);
            wm[i * 2 + j] = m;
        }
    expect(out(&r, "conv", RLX_DTYPE_F32, 16), wc, 16);
    expect(out(&r, "max", RLX_DTYPE_F32, 4), wm, 4);
    expect(out(&r, "avg", RLX_DTYPE_F32, 16), wa, 16);
    expect(out(&r, "gap", RLX_DTYPE_F32, 1), &wg, 1);
    run_close(&r);
}

TEST(composed_activations_and_padding)
{
    ox_model *x = ox_new(8, 13);
    ox_input(x, "x", OX_F32, 2, d23);
    int64_t d1[1] = { 1 }, d4[1] = { 4 }, d2[1] = { 2 };
    float lo = -1, hi = 1, slope = 0.25f;
    int64_t pads[4] = { 0, 1, 1, -1 }, reps[2] = { 1, 2 };
    ox_init(x, "lo", OX_F32, 0, NULL, &lo, sizeof lo);
    ox_init(x, "hi", OX_F32, 0, NULL, &hi, sizeof hi);
    ox_init(x, "slope", OX_F32, 1, d1, &slope, sizeof slope);
    ox_init(x, "pads", OX_I64, 1, d4, pads, sizeof pads);
    ox_init(x, "reps", OX_I64, 1, d2, reps, sizeof reps);
    ox_attr_float(x, ox_node(x, "Elu", N("x"), N("elu")), "alpha", 0.5f);
    ox_node(x, "Clip", N("x", "lo", "hi"), N("clip"));
    ox_node(x, "PRelu", N("x", "slope"), N("prelu"));
    ox_node(x, "Pad", N("x", "pads"), N("pad"));
    ox_node(x, "Tile", N("x", "reps"), N("tile"));
    ox_output(x, "elu", OX_F32, 2, d23);
    ox_output(x, "clip", OX_F32, 2, d23);
    ox_output(x, "prelu", OX_F32, 2, d23);
    ox_output(x, "pad", OX_F32, 2, (int64_t[]){ 3, 3 });
    ox_output(x, "tile", OX_F32, 2, (int64_t[]){ 2, 6 });
    run r;
    run_open(&r, x, "composed.onnx");
    ASSERT_OK(rlx_program_set_input(r.p, "x", x23, sizeof x23));
    ASSERT_OK(rlx_program_run(r.p));
    float we[6], wc[6], wp[6];
    for (int i = 0; i < 6; i++) {
        float a = x23[i];
        we[i] = a > 0 ? a : 0.5f * (expf(a) - 1);
        wc[i] = fminf(fmaxf(a, -1), 1);
        wp[i] = a > 0 ? a : 0.25f * a;
    }
    expect(out(&r, "elu", RLX_DTYPE_F32, 6), we, 6);
    expect(out(&r, "clip", RLX_DTYPE_F32, 6), wc, 6);
    expect(out(&r, "prelu", RLX_DTYPE_F32, 6), wp, 6);
    /* rows: +0 before, +1 after; columns: +1 before, -1 after */
    const float *X = x23;
    float wpad[9] = { 0, X[0], X[1], 0, X[3], X[4], 0, 0, 0 };
    expect(out(&r, "pad", RLX_DTYPE_F32, 9), wpad, 9);
    float wt[12] = { X[0], X[1], X[2], X[0], X[1], X[2],
                     X[3], X[4], X[5], X[3], X[4], X[5] };
    expect(out(&r, "tile", RLX_DTYPE_F32, 12), wt, 12);
    run_close(&r);
}

/* The first bytes of FILE in the fixture directory, as text. */
static void header_of(const char *file, char *buf, size_t n)
{
    FILE *f = fopen(rlx_test_path(file), "rb");
    if (!f)
        FAIL("rlx run wrote no %s", file);
    size_t got = fread(buf, 1, n - 1, f);
    fclose(f);
    buf[got] = 0;
    for (size_t i = 0; i < got; i++)
        if (!buf[i])
            buf[i] = ' ';
}

TEST(rlx_run_writes_every_output_as_npy)
{
    const char *bin = getenv("RLX_TEST_RLX_BIN");
    if (!bin)
        SKIP("RLX_TEST_RLX_BIN is not set");
    ox_model *x = ox_new(8, 13);
    int64_t dx[2] = { -1, 3 };
    ox_input(x, "x", OX_F32, 2, dx);
    ox_node(x, "Relu", N("x"), N("out/a:b"));
    ox_attr_int(x, ox_node(x, "Cast", N("x"), N("flag")), "to", OX_BOOL);
    ox_node(x, "Shape", N("x"), N("shape"));
    ox_node(x, "Size", N("x"), N("count"));
    ox_output(x, "out/a:b", OX_F32, 2, dx);
    ox_output(x, "flag", OX_BOOL, 2, dx);
    ox_output(x, "shape", OX_I64, 1, (int64_t[]){ 2 });
    ox_output(x, "count", OX_I64, 0, NULL);
    const char *model = ox_write(x, "outs.onnx");
    ox_free(x);
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "'%s' run '%s' --device cpu-ref --shape "
             "x=5,3 --output '%s' > /dev/null", bin, model, rlx_test_dir());
    int rc = system(cmd);
    ASSERT(WIFEXITED(rc) && WEXITSTATUS(rc) == 0);
    char h[256];
    header_of("out_a_b.npy", h, sizeof h);
    ASSERT_CONTAINS(h, "'descr': '<f4'");
    ASSERT_CONTAINS(h, "'shape': (5, 3)");
    header_of("flag.npy", h, sizeof h);
    ASSERT_CONTAINS(h, "'descr': '|b1'");
    header_of("shape.npy", h, sizeof h);
    ASSERT_CONTAINS(h, "'descr': '<i8'");
    header_of("count.npy", h, sizeof h);
    ASSERT_CONTAINS(h, "'shape': ()");
}

RLX_TEST_LIST(TEST_ENTRY(elementwise_broadcasting), TEST_ENTRY(activations),
              TEST_ENTRY(gemm_and_matmul),
              TEST_ENTRY(softmax_before_and_after_opset_13),
              TEST_ENTRY(reductions_axes_attribute_or_input),
              TEST_ENTRY(layer_and_batch_norm), TEST_ENTRY(data_movement),
              TEST_ENTRY(batch_1_then_4_on_one_program),
              TEST_ENTRY(inputs_sharing_a_dimension_change_together),
              TEST_ENTRY(shape_on_a_fixed_program_is_refused),
              TEST_ENTRY(constant_of_shape_and_range),
              TEST_ENTRY(conv_and_pools),
              TEST_ENTRY(composed_activations_and_padding),
              TEST_ENTRY(rlx_run_writes_every_output_as_npy))
