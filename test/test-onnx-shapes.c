/*
 * test-onnx-shapes.c - a model whose symbolic dimension, at the 1 it has
 * when loaded, cannot be lowered (a pooling window wider than the side)
 * still loads: the failure waits for the real shape, and surfaces only
 * when that shape really cannot work. A failure no shape can cure is
 * still reported at load. An input nothing reads takes any shape.
 */
#include <math.h>
#include <string.h>

#include <rlx/rlx.h>

#include "harness.h"
#include "onnx-util.h"

#define N(...) (const char *[]){ __VA_ARGS__, NULL }

/* y = AveragePool(x, 2x2, stride 2) for x [1, 1, 4, W], W symbolic. */
static const char *pool_model(const char *file, int with_indices)
{
    ox_model *x = ox_new(8, 13);
    int64_t dx[4] = { 1, 1, 4, -1 }, dy[4] = { 1, 1, 2, -1 };
    /* with indices: on u8, for which they are not computed */
    int32_t t = with_indices ? ONNX__TENSOR_PROTO__DATA_TYPE__UINT8 : OX_F32;
    ox_input(x, "x", t, 4, dx);
    Onnx__NodeProto *p = ox_node(x, with_indices ? "MaxPool" : "AveragePool",
                                 N("x"), with_indices ? N("y", "idx")
                                                      : N("y"));
    ox_attr_ints(x, p, "kernel_shape", 2, (int64_t[]){ 2, 2 });
    ox_attr_ints(x, p, "strides", 2, (int64_t[]){ 2, 2 });
    ox_output(x, "y", t, 4, dy);
    if (with_indices)
        ox_output(x, "idx", OX_I64, 4, dy);
    const char *path = ox_write(x, file);
    ox_free(x);
    return path;
}

TEST(pool_wider_than_a_symbolic_side_of_1_waits_for_the_shape)
{
    rlx_model *m;
    rlx_runtime *rt;
    rlx_session *s;
    rlx_program *p = NULL;
    ASSERT_OK(rlx_model_load(pool_model("pool-sym.onnx", 0), &m));
    ASSERT_OK(rlx_runtime_create(&rt, RLX_RUNTIME_NO_DISCOVERY));
    ASSERT_OK(rlx_session_create(rt, "cpu-ref", &s));
    /* no shape given yet: compiling says why and what to do */
    ASSERT(rlx_model_graph(m) == NULL);
    ASSERT(rlx_model_compile(m, s, &p) != RLX_OK);
    ASSERT(p == NULL);
    ASSERT_CONTAINS(rlx_last_error(), "AveragePool");
    ASSERT_CONTAINS(rlx_last_error(), "symbolic dimensions at 1");
    ASSERT_CONTAINS(rlx_last_error(), "rlx_model_set_input_shape");
    /* a width the window fits: it lowers, compiles and runs */
    int64_t d6[4] = { 1, 1, 4, 6 };
    ASSERT_OK(rlx_model_set_input_shape(m, "x", 4, d6));
    ASSERT(rlx_model_graph(m) != NULL);
    ASSERT_OK(rlx_model_compile(m, s, &p));
    float in[24], want[6];
    for (int i = 0; i < 24; i++)
        in[i] = (float)(i * 7 % 11) - 3;
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 3; j++)
            want[i * 3 + j] = (in[12 * i + 2 * j] + in[12 * i + 2 * j + 1] +
                               in[12 * i + 6 + 2 * j] +
                               in[12 * i + 6 + 2 * j + 1]) / 4;
    ASSERT_OK(rlx_program_set_input(p, "x", in, sizeof in));
    ASSERT_OK(rlx_program_run(p));
    size_t nb;
    const float *got = rlx_program_output_data(p, 0, &nb);
    ASSERT_EQ(nb, sizeof want);
    for (int i = 0; i < 6; i++)
        if (!(fabsf(got[i] - want[i]) <= 1e-5f))
            FAIL("element %d: %g, expected %g", i, got[i], want[i]);
    /* a width that really cannot work fails when the program switches
     * to it (the next set_input or run), naming the node */
    int64_t d1[4] = { 1, 1, 4, 1 };
    float in1[4] = { 0 };
    rlx_status st = rlx_program_set_input_shape(p, "x", 4, d1);
    if (st == RLX_OK)
        st = rlx_program_set_input(p, "x", in1, sizeof in1);
    ASSERT(st != RLX_OK);
    ASSERT_CONTAINS(rlx_last_error(), "AveragePool");
    ASSERT_CONTAINS(rlx_last_error(), "Fix:");
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_runtime_destroy(rt);
    rlx_model_destroy(m);
}

TEST(a_failure_no_shape_cures_is_still_reported_at_load)
{
    /* MaxPool's Indices output of u8 input is refused at every width */
    ox_expect_fail(pool_model("pool-idx.onnx", 1), RLX_ERR_UNSUPPORTED,
                   "Indices output is computed for float inputs only");
}

/* An input nothing reads takes any shape (ONNX's expanded CastLike
 * tests feed theirs at [1] against a declared [3, 4]); one that is read
 * keeps its declared shape. */
TEST(an_unread_input_takes_any_shape)
{
    ox_model *x = ox_new(8, 13);
    int64_t dx[1] = { 2 }, dl[2] = { 3, 4 };
    ox_input(x, "x", OX_F32, 1, dx);
    ox_input(x, "like", OX_F32, 2, dl);
    ox_input(x, "flag", OX_F32, 2, dl);
    ox_node(x, "Neg", N("x"), N("y"));
    ox_output(x, "y", OX_F32, 1, dx);
    const char *path = ox_write(x, "unread.onnx");
    ox_free(x);
    rlx_model *m;
    ASSERT_OK(rlx_model_load(path, &m));
    int64_t one[1] = { 1 };
    float v = 7;
    ASSERT_OK(rlx_model_set_input_shape(m, "like", 1, one));
    ASSERT_OK(rlx_model_set_input_value(m, "flag", RLX_DTYPE_F32, 1, one,
                                        &v));
    ASSERT(rlx_model_set_input_shape(m, "x", 1, (int64_t[]){ 3 }) != RLX_OK);
    ASSERT_CONTAINS(rlx_last_error(), "Fix:");
    ASSERT(rlx_model_set_input_shape(m, "x", 2, (int64_t[]){ 1, 2 }) !=
           RLX_OK);
    rlx_runtime *rt;
    rlx_session *s;
    rlx_program *p;
    ASSERT_OK(rlx_runtime_create(&rt, RLX_RUNTIME_NO_DISCOVERY));
    ASSERT_OK(rlx_session_create(rt, "cpu-ref", &s));
    ASSERT_OK(rlx_model_compile(m, s, &p));
    float xv[2] = { 1, -2 }, lv = 5;
    ASSERT_OK(rlx_program_set_input(p, "x", xv, sizeof xv));
    ASSERT_OK(rlx_program_set_input(p, "like", &lv, sizeof lv));
    ASSERT_OK(rlx_program_run(p));
    size_t nb;
    const float *y = rlx_program_output_data(p, 0, &nb);
    ASSERT_EQ(nb, sizeof xv);
    ASSERT(y[0] == -1 && y[1] == 2);
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_runtime_destroy(rt);
    rlx_model_destroy(m);
}

RLX_TEST_LIST(
    TEST_ENTRY(pool_wider_than_a_symbolic_side_of_1_waits_for_the_shape),
    TEST_ENTRY(a_failure_no_shape_cures_is_still_reported_at_load),
    TEST_ENTRY(an_unread_input_takes_any_shape))
