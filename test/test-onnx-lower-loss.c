/*
 * test-onnx-lower-loss.c - NegativeLogLikelihoodLoss and
 * SoftmaxCrossEntropyLoss lowered by composition, run on cpu-ref against
 * losses worked out here from their definitions: class weights,
 * ignore_index (out of the class range too), the none/sum/mean
 * reductions, [N, C, d] and [N, C] inputs, int32 targets and SCE's
 * log_prob output; and a float target refused with a Fix.
 */
#include <math.h>
#include <string.h>

#include <rlx/rlx.h>

#include "harness.h"
#include "onnx-util.h"

#define N(...) (const char *[]){ __VA_ARGS__, NULL }

/* x [2, 3, 2]: N 2, C 3, d 2 */
static const int64_t dx[3] = { 2, 3, 2 }, dt[2] = { 2, 2 };
static const float X[12] = { -1.0f, 0.5f, 2.0f, -0.25f, 0.75f, 1.5f,
                             0.1f, -2.0f, 1.25f, 0.3f, -0.6f, 2.2f };
static const int64_t T[4] = { 2, 0, 1, 7 }; /* 7: the ignore_index */
static const float W[3] = { 0.5f, 2.0f, 1.5f };

static float at(const float *x, int n, int c, int d)
{
    return x[(n * 3 + c) * 2 + d];
}

/* The per-element loss and weight of scores S at (n, d). */
static void ref(const float *s, int n, int d, int weighted, float *loss,
                float *w)
{
    int64_t t = T[n * 2 + d];
    if (t == 7) {
        *loss = 0;
        *w = 0;
        return;
    }
    *w = weighted ? W[t] : 1.0f;
    *loss = -at(s, n, (int)t, d) * *w;
}

static ox_model *loss_model(const char *op, int with_weight)
{
    ox_model *x = ox_new(8, 13);
    ox_input(x, "x", OX_F32, 3, dx);
    ox_input(x, "t", OX_I64, 2, dt);
    if (with_weight) {
        int64_t d3[1] = { 3 };
        ox_init(x, "w", OX_F32, 1, d3, W, sizeof W);
    }
    const char *red[3] = { "none", "sum", "mean" };
    for (int i = 0; i < 3; i++) {
        Onnx__NodeProto *n = ox_node(x, op, with_weight ? N("x", "t", "w")
                                                        : N("x", "t"),
                                     i == 2 && op[0] == 'S'
                                         ? N(red[i], "log_prob")
                                         : N(red[i]));
        ox_attr_string(x, n, "reduction", red[i]);
        ox_attr_int(x, n, "ignore_index", 7);
        ox_output(x, red[i], OX_F32, i ? 0 : 2, i ? NULL : dt);
    }
    if (op[0] == 'S')
        ox_output(x, "log_prob", OX_F32, 3, dx);
    return x;
}

static void check(run *r, const float *scores, int weighted)
{
    float none[4], sum = 0, wsum = 0;
    for (int n = 0; n < 2; n++)
        for (int d = 0; d < 2; d++) {
            float l, w;
            ref(scores, n, d, weighted, &l, &w);
            none[n * 2 + d] = l;
            sum += l;
            wsum += w;
        }
    float mean = sum / wsum;
    expect(out(r, "none", RLX_DTYPE_F32, 4), none, 4);
    expect(out(r, "sum", RLX_DTYPE_F32, 1), &sum, 1);
    expect(out(r, "mean", RLX_DTYPE_F32, 1), &mean, 1);
}

TEST(nll_weight_ignore_index_and_reductions)
{
    run r;
    run_open(&r, loss_model("NegativeLogLikelihoodLoss", 1), "nll.onnx");
    ASSERT_OK(rlx_program_set_input(r.p, "x", X, sizeof X));
    ASSERT_OK(rlx_program_set_input(r.p, "t", T, sizeof T));
    ASSERT_OK(rlx_program_run(r.p));
    check(&r, X, 1);
    run_close(&r);
}

TEST(softmax_cross_entropy_and_log_prob)
{
    run r;
    run_open(&r, loss_model("SoftmaxCrossEntropyLoss", 0), "sce.onnx");
    ASSERT_OK(rlx_program_set_input(r.p, "x", X, sizeof X));
    ASSERT_OK(rlx_program_set_input(r.p, "t", T, sizeof T));
    ASSERT_OK(rlx_program_run(r.p));
    float lp[12];
    for (int n = 0; n < 2; n++)
        for (int d = 0; d < 2; d++) {
            double s = 0;
            for (int c = 0; c < 3; c++)
                s += exp(at(X, n, c, d));
            for (int c = 0; c < 3; c++)
                lp[(n * 3 + c) * 2 + d] = (float)(at(X, n, c, d) - log(s));
        }
    expect(out(&r, "log_prob", RLX_DTYPE_F32, 12), lp, 12);
    check(&r, lp, 0);
    run_close(&r);
}

/* [N, C] scores, int32 targets, no weight, the default mean: the
 * average over the targets not ignored. */
TEST(nll_of_rank_2_with_int32_targets)
{
    ox_model *x = ox_new(8, 12);
    int64_t d3[1] = { 3 }, d33[2] = { 3, 3 };
    ox_input(x, "x", OX_F32, 2, d33);
    ox_input(x, "t", ONNX__TENSOR_PROTO__DATA_TYPE__INT32, 1, d3);
    Onnx__NodeProto *n = ox_node(x, "NegativeLogLikelihoodLoss",
                                 N("x", "t"), N("y"));
    ox_attr_int(x, n, "ignore_index", -1);
    ox_output(x, "y", OX_F32, 0, NULL);
    run r;
    run_open(&r, x, "nll2.onnx");
    float xs[9] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
    int32_t t[3] = { 1, -1, 2 };
    ASSERT_OK(rlx_program_set_input(r.p, "x", xs, sizeof xs));
    ASSERT_OK(rlx_program_set_input(r.p, "t", t, sizeof t));
    ASSERT_OK(rlx_program_run(r.p));
    float want = -(2 + 9) / 2.0f;
    expect(out(&r, "y", RLX_DTYPE_F32, 1), &want, 1);
    run_close(&r);
}

TEST(float_target_is_refused)
{
    ox_model *x = ox_new(8, 13);
    int64_t d23[2] = { 2, 3 }, d2[1] = { 2 };
    ox_input(x, "x", OX_F32, 2, d23);
    ox_input(x, "t", OX_F32, 1, d2);
    ox_node(x, "NegativeLogLikelihoodLoss", N("x", "t"), N("y"));
    ox_output(x, "y", OX_F32, 0, NULL);
    const char *path = ox_write(x, "nll-float-target.onnx");
    ox_free(x);
    ox_expect_fail(path, RLX_ERR_DTYPE, "int32 or int64 class indices");
}

RLX_TEST_LIST(TEST_ENTRY(nll_weight_ignore_index_and_reductions),
              TEST_ENTRY(softmax_cross_entropy_and_log_prob),
              TEST_ENTRY(nll_of_rank_2_with_int32_targets),
              TEST_ENTRY(float_target_is_refused))
