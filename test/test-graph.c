/* test-graph.c - graph building: shape and dtype inference, the errors
 * that name the node and the mismatch, and that a failed call changes
 * nothing. */
#include <stdint.h>

#include "test-util.h"

static rlx_value input(rlx_graph *g, const char *name, uint32_t rank,
                       const int64_t *dims)
{
    rlx_value v;
    if (rlx_graph_input(g, name, RLX_DTYPE_F32, rank, dims, &v) != RLX_OK)
        FAIL("input %s: %s", name, rlx_last_error());
    return v;
}

static void expect_shape(rlx_graph *g, rlx_value v, uint32_t rank,
                         const int64_t *want)
{
    uint32_t r;
    const int64_t *d;
    ASSERT_OK(rlx_graph_value_shape(g, v, NULL, &r, &d));
    ASSERT_EQ(r, rank);
    for (uint32_t i = 0; i < rank; i++)
        ASSERT_EQ(d[i], want[i]);
}

TEST(matmul_shapes)
{
    rlx_graph *g;
    ASSERT_OK(rlx_graph_create(&g));
    rlx_value a = input(g, "a", 3, (int64_t[]){ 2, 3, 4 });
    rlx_value b = input(g, "b", 2, (int64_t[]){ 4, 5 });
    rlx_value c = input(g, "c", 4, (int64_t[]){ 7, 1, 5, 4 });
    rlx_value v = input(g, "v", 1, (int64_t[]){ 4 });
    rlx_value out;
    ASSERT_OK(rlx_graph_add_node(g, "ab", RLX_OP_MATMUL, 2,
                                 (rlx_value[]){ a, b }, NULL, &out));
    expect_shape(g, out, 3, (int64_t[]){ 2, 3, 5 });
    /* batch dims broadcast; transpose_b makes c [7,1,4,5] */
    rlx_attrs tb = { .n_ints = 2, .ints = (int64_t[]){ 0, 1 } };
    ASSERT_OK(rlx_graph_add_node(g, "ac", RLX_OP_MATMUL, 2,
                                 (rlx_value[]){ a, c }, &tb, &out));
    expect_shape(g, out, 4, (int64_t[]){ 7, 2, 3, 5 });
    ASSERT_OK(rlx_graph_add_node(g, "av", RLX_OP_MATMUL, 2,
                                 (rlx_value[]){ a, v }, NULL, &out));
    expect_shape(g, out, 2, (int64_t[]){ 2, 3 });
    ASSERT_OK(rlx_graph_add_node(g, "vb", RLX_OP_MATMUL, 2,
                                 (rlx_value[]){ v, b }, NULL, &out));
    expect_shape(g, out, 1, (int64_t[]){ 5 });
    rlx_graph_destroy(g);
}

TEST(matmul_mismatch_names_node_and_shapes)
{
    rlx_graph *g;
    ASSERT_OK(rlx_graph_create(&g));
    rlx_value x = input(g, "x", 2, (int64_t[]){ 2, 784 });
    rlx_value w = input(g, "w", 2, (int64_t[]){ 512, 10 });
    uint32_t before = rlx_graph_node_count(g);
    rlx_value out = 0;
    ASSERT_STATUS(rlx_graph_add_node(g, "fc1", RLX_OP_MATMUL, 2,
                                     (rlx_value[]){ x, w }, NULL, &out),
                  RLX_ERR_SHAPE);
    const char *e = rlx_last_error();
    ASSERT_CONTAINS(e, "node 'fc1' (matmul)");
    ASSERT_CONTAINS(e, "[2,784]");
    ASSERT_CONTAINS(e, "[512,10]");
    ASSERT_CONTAINS(e, "k=784");
    ASSERT_CONTAINS(e, "Fix:");
    ASSERT_EQ(out, RLX_VALUE_NONE);
    ASSERT_EQ(rlx_graph_node_count(g), before);
    rlx_graph_destroy(g);
}

TEST(broadcasting)
{
    rlx_graph *g;
    ASSERT_OK(rlx_graph_create(&g));
    rlx_value a = input(g, "a", 2, (int64_t[]){ 2, 3 });
    rlx_value b = input(g, "b", 1, (int64_t[]){ 3 });
    rlx_value c = input(g, "c", 3, (int64_t[]){ 4, 2, 1 });
    rlx_value s = input(g, "s", 0, NULL);
    rlx_value d = input(g, "d", 1, (int64_t[]){ 4 });
    rlx_value out;
    ASSERT_OK(rlx_graph_add_node(g, NULL, RLX_OP_ADD, 2,
                                 (rlx_value[]){ a, b }, NULL, &out));
    expect_shape(g, out, 2, (int64_t[]){ 2, 3 });
    ASSERT_OK(rlx_graph_add_node(g, NULL, RLX_OP_MUL, 2,
                                 (rlx_value[]){ a, c }, NULL, &out));
    expect_shape(g, out, 3, (int64_t[]){ 4, 2, 3 });
    ASSERT_OK(rlx_graph_add_node(g, NULL, RLX_OP_SUB, 2,
                                 (rlx_value[]){ s, a }, NULL, &out));
    expect_shape(g, out, 2, (int64_t[]){ 2, 3 });
    ASSERT_STATUS(rlx_graph_add_node(g, "bad_add", RLX_OP_ADD, 2,
                                     (rlx_value[]){ a, d }, NULL, &out),
                  RLX_ERR_SHAPE);
    ASSERT_CONTAINS(rlx_last_error(), "node 'bad_add' (add)");
    ASSERT_CONTAINS(rlx_last_error(), "do not broadcast: dimension 3 vs 4");
    rlx_graph_destroy(g);
}

TEST(dtype_mismatch)
{
    rlx_graph *g;
    rlx_value a, b, out;
    ASSERT_OK(rlx_graph_create(&g));
    ASSERT_OK(rlx_graph_input(g, "a", RLX_DTYPE_F32, 1, (int64_t[]){ 3 }, &a));
    ASSERT_OK(rlx_graph_input(g, "b", RLX_DTYPE_I32, 1, (int64_t[]){ 3 }, &b));
    ASSERT_STATUS(rlx_graph_add_node(g, "mix", RLX_OP_ADD, 2,
                                     (rlx_value[]){ a, b }, NULL, &out),
                  RLX_ERR_DTYPE);
    ASSERT_CONTAINS(rlx_last_error(), "'a' is f32, 'b' is i32");
    rlx_graph_destroy(g);
}

TEST(bad_nodes_rejected)
{
    rlx_graph *g;
    ASSERT_OK(rlx_graph_create(&g));
    rlx_value a = input(g, "a", 2, (int64_t[]){ 2, 3 });
    rlx_value out;
    ASSERT_STATUS(rlx_graph_add_node(g, "u", (rlx_op)4242, 1, &a, NULL, &out),
                  RLX_ERR_UNSUPPORTED);
    ASSERT_CONTAINS(rlx_last_error(), "unknown op 4242");
    ASSERT_STATUS(rlx_graph_add_node(g, "r", RLX_OP_RELU, 2,
                                     (rlx_value[]){ a, a }, NULL, &out),
                  RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(rlx_last_error(), "takes 1 input, got 2");
    ASSERT_STATUS(rlx_graph_add_node(g, "r2", RLX_OP_RELU, 1,
                                     (rlx_value[]){ 99 }, NULL, &out),
                  RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(rlx_last_error(), "value 99, which does not exist");
    ASSERT_STATUS(rlx_graph_add_node(g, "in", RLX_OP_INPUT, 0, NULL, NULL,
                                     &out),
                  RLX_ERR_INVALID_ARGUMENT);
    rlx_attrs axis = { .n_ints = 1, .ints = (int64_t[]){ 2 } };
    ASSERT_STATUS(rlx_graph_add_node(g, "sm", RLX_OP_SOFTMAX, 1, &a, &axis,
                                     &out),
                  RLX_ERR_SHAPE);
    ASSERT_CONTAINS(rlx_last_error(), "axis 2 is out of range for rank 2");
    rlx_attrs approx = { .n_ints = 1, .ints = (int64_t[]){ 5 } };
    ASSERT_STATUS(rlx_graph_add_node(g, "ge", RLX_OP_GELU, 1, &a, &approx,
                                     &out),
                  RLX_ERR_INVALID_ARGUMENT);
    rlx_attrs many = { .n_ints = 3, .ints = (int64_t[]){ 0, 0, 0 } };
    ASSERT_STATUS(rlx_graph_add_node(g, "mm", RLX_OP_MATMUL, 2,
                                     (rlx_value[]){ a, a }, &many, &out),
                  RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(rlx_last_error(), "at most 2 integer");
    ASSERT_STATUS(rlx_graph_add_node(g, "a", RLX_OP_RELU, 1, &a, NULL, &out),
                  RLX_ERR_DUPLICATE);
    ASSERT_EQ(rlx_graph_node_count(g), 1);
    rlx_graph_destroy(g);
}

TEST(bad_sources_rejected)
{
    rlx_graph *g;
    rlx_value v;
    ASSERT_OK(rlx_graph_create(&g));
    ASSERT_STATUS(rlx_graph_input(g, "neg", RLX_DTYPE_F32, 1,
                                  (int64_t[]){ -1 }, &v),
                  RLX_ERR_SHAPE);
    ASSERT_CONTAINS(rlx_last_error(), "negative");
    ASSERT_STATUS(rlx_graph_input(g, "big", RLX_DTYPE_F32, 9,
                                  (int64_t[]){ 1, 1, 1, 1, 1, 1, 1, 1, 1 }, &v),
                  RLX_ERR_SHAPE);
    ASSERT_STATUS(rlx_graph_input(g, "huge", RLX_DTYPE_F32, 3,
                                  (int64_t[]){ INT64_MAX / 2, 4, 4 }, &v),
                  RLX_ERR_SHAPE);
    ASSERT_CONTAINS(rlx_last_error(), "overflows");
    ASSERT_STATUS(rlx_graph_input(g, "t", (rlx_dtype)77, 0, NULL, &v),
                  RLX_ERR_DTYPE);
    ASSERT_STATUS(rlx_graph_input(g, "", RLX_DTYPE_F32, 0, NULL, &v),
                  RLX_ERR_INVALID_ARGUMENT);
    ASSERT_STATUS(rlx_graph_input(g, NULL, RLX_DTYPE_F32, 0, NULL, &v),
                  RLX_ERR_INVALID_ARGUMENT);
    ASSERT_STATUS(rlx_graph_constant(g, "c", RLX_DTYPE_F32, 1,
                                     (int64_t[]){ 2 }, NULL, &v),
                  RLX_ERR_INVALID_ARGUMENT);
    ASSERT_OK(rlx_graph_param(g, "w", RLX_DTYPE_F32, 1, (int64_t[]){ 2 }, &v));
    ASSERT_STATUS(rlx_graph_input(g, "w", RLX_DTYPE_F32, 0, NULL, &v),
                  RLX_ERR_DUPLICATE);
    ASSERT_CONTAINS(rlx_last_error(), "already has a node named 'w' (param)");
    ASSERT_EQ(rlx_graph_node_count(g), 1);
    ASSERT_STATUS(rlx_graph_output(g, "o", 5), RLX_ERR_INVALID_ARGUMENT);
    ASSERT_OK(rlx_graph_output(g, "o", 0));
    ASSERT_STATUS(rlx_graph_output(g, "o", 0), RLX_ERR_DUPLICATE);
    ASSERT_STATUS(rlx_graph_create(NULL), RLX_ERR_INVALID_ARGUMENT);
    rlx_graph_destroy(g);
    rlx_graph_destroy(NULL);
}

TEST(dead_code_elimination)
{
    rlx_runtime *rt = test_runtime();
    rlx_graph *g;
    ASSERT_OK(rlx_graph_create(&g));
    rlx_value x = input(g, "x", 1, (int64_t[]){ 4 });
    rlx_value unused_in = input(g, "unused", 1, (int64_t[]){ 4 });
    (void)unused_in;
    rlx_value live, dead1, dead2;
    ASSERT_OK(rlx_graph_add_node(g, "live", RLX_OP_RELU, 1, &x, NULL, &live));
    ASSERT_OK(rlx_graph_add_node(g, "dead1", RLX_OP_EXP, 1, &x, NULL, &dead1));
    ASSERT_OK(rlx_graph_add_node(g, "dead2", RLX_OP_SIN, 1, &dead1, NULL,
                                 &dead2));
    ASSERT_OK(rlx_graph_output(g, "y", live));
    rlx_session *s;
    rlx_program *p;
    ASSERT_OK(rlx_session_create(rt, "cpu", &s));
    ASSERT_OK(rlx_session_compile(s, g, &p));
    /* x, unused (inputs stay) and live; the exp/sin chain is gone */
    ASSERT_EQ(rlx_program_node_count(p), 3);
    ASSERT_EQ(rlx_program_input_count(p), 2);
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_graph_destroy(g);
    rlx_runtime_destroy(rt);
}

TEST(graph_without_outputs)
{
    rlx_runtime *rt = test_runtime();
    rlx_graph *g;
    rlx_session *s;
    rlx_program *p = (rlx_program *)1;
    ASSERT_OK(rlx_graph_create(&g));
    input(g, "x", 1, (int64_t[]){ 4 });
    ASSERT_OK(rlx_session_create(rt, NULL, &s));
    ASSERT_STATUS(rlx_session_compile(s, g, &p), RLX_ERR_INVALID_ARGUMENT);
    ASSERT(p == NULL);
    ASSERT_CONTAINS(rlx_last_error(), "no outputs");
    rlx_session_destroy(s);
    rlx_graph_destroy(g);
    rlx_runtime_destroy(rt);
}

/* ---- the ops added with the transformer op set ----------------------- */

static rlx_value typed(rlx_graph *g, const char *name, rlx_dtype t,
                       uint32_t rank, const int64_t *dims)
{
    rlx_value v;
    if (rlx_graph_input(g, name, t, rank, dims, &v) != RLX_OK)
        FAIL("input %s: %s", name, rlx_last_error());
    return v;
}

/* Adding NAME must fail with ST and a message holding "node 'NAME' (op)",
 * each of the NEEDLES and a Fix, leaving the graph as it was. */
static void expect_fail(rlx_graph *g, const char *name, rlx_op op,
                        uint32_t n, const rlx_value *in, const rlx_attrs *a,
                        rlx_status st, const char *needle1,
                        const char *needle2)
{
    uint32_t before = rlx_graph_node_count(g);
    rlx_value out = 0;
    char head[128];
    ASSERT_STATUS(rlx_graph_add_node(g, name, op, n, in, a, &out), st);
    snprintf(head, sizeof head, "node '%s' (%s)", name, rlx_op_name(op));
    ASSERT_CONTAINS(rlx_last_error(), head);
    if (needle1)
        ASSERT_CONTAINS(rlx_last_error(), needle1);
    if (needle2)
        ASSERT_CONTAINS(rlx_last_error(), needle2);
    ASSERT_CONTAINS(rlx_last_error(), "Fix:");
    ASSERT_EQ(out, RLX_VALUE_NONE);
    ASSERT_EQ(rlx_graph_node_count(g), before);
}

#define ATTRS_I(...)                                                        \
    (&(rlx_attrs){ .n_ints = sizeof((int64_t[]){ __VA_ARGS__ }) /          \
                             sizeof(int64_t),                              \
                   .ints = (int64_t[]){ __VA_ARGS__ } })
#define VALS(...) (rlx_value[]){ __VA_ARGS__ }
#define D(...) (int64_t[]){ __VA_ARGS__ }

TEST(float_ops_reject_other_dtypes)
{
    rlx_graph *g;
    ASSERT_OK(rlx_graph_create(&g));
    rlx_value i = typed(g, "ids", RLX_DTYPE_I32, 1, D(4));
    rlx_value h = typed(g, "h", RLX_DTYPE_F16, 1, D(4));
    rlx_value f = typed(g, "f", RLX_DTYPE_F32, 1, D(4));
    expect_fail(g, "e", RLX_OP_EXP, 1, &i, NULL, RLX_ERR_DTYPE, "'ids' is i32",
                NULL);
    /* since 1.4 the sums, arithmetic and comparisons take integers, but
     * not bool; comparisons give bool and argmax i64 */
    rlx_value bo = typed(g, "bo", RLX_DTYPE_BOOL, 1, D(4));
    expect_fail(g, "s", RLX_OP_REDUCE_SUM, 1, &bo, NULL, RLX_ERR_DTYPE,
                "'bo' is bool", "a float or integer dtype");
    expect_fail(g, "lt", RLX_OP_LESS, 2, VALS(i, f), NULL, RLX_ERR_DTYPE,
                "'ids' is i32, 'f' is f32", NULL);
    expect_fail(g, "bn", RLX_OP_BITWISE_NOT, 1, &f, NULL, RLX_ERR_DTYPE,
                "'f' is f32", NULL);
    expect_fail(g, "ng", RLX_OP_NEG, 1, &bo, NULL, RLX_ERR_DTYPE,
                "a float or signed integer dtype", NULL);
    rlx_value si, cmp, am;
    rlx_dtype st;
    ASSERT_OK(rlx_graph_add_node(g, "si", RLX_OP_REDUCE_SUM, 1, &i, NULL,
                                 &si));
    ASSERT_OK(rlx_graph_value_shape(g, si, &st, NULL, NULL));
    ASSERT_EQ(st, RLX_DTYPE_I32);
    ASSERT_OK(rlx_graph_add_node(g, "cmp", RLX_OP_GREATER, 2, VALS(h, h),
                                 NULL, &cmp));
    ASSERT_OK(rlx_graph_value_shape(g, cmp, &st, NULL, NULL));
    ASSERT_EQ(st, RLX_DTYPE_BOOL);
    ASSERT_OK(rlx_graph_add_node(g, "am", RLX_OP_ARGMAX, 1, &h, NULL, &am));
    ASSERT_OK(rlx_graph_value_shape(g, am, &st, NULL, NULL));
    ASSERT_EQ(st, RLX_DTYPE_I64);
    expect_fail(g, "m", RLX_OP_MUL, 2, VALS(h, f), NULL, RLX_ERR_DTYPE,
                "'h' is f16, 'f' is f32", NULL);
    rlx_value out;
    rlx_dtype t;
    ASSERT_OK(rlx_graph_add_node(g, "hh", RLX_OP_ADD, 2, VALS(h, h), NULL,
                                 &out));
    ASSERT_OK(rlx_graph_value_shape(g, out, &t, NULL, NULL));
    ASSERT_EQ(t, RLX_DTYPE_F16);
    rlx_graph_destroy(g);
}

TEST(norm_shapes)
{
    rlx_graph *g;
    rlx_value out;
    ASSERT_OK(rlx_graph_create(&g));
    rlx_value x = input(g, "x", 3, D(2, 5, 8));
    rlx_value g8 = input(g, "g8", 1, D(8));
    rlx_value g5 = input(g, "g5", 1, D(5));
    rlx_value g18 = input(g, "g18", 2, D(1, 8));
    rlx_value s = input(g, "s", 0, NULL);
    rlx_value h8 = typed(g, "h8", RLX_DTYPE_F16, 1, D(8));
    ASSERT_OK(rlx_graph_add_node(g, "ln", RLX_OP_LAYER_NORM, 3,
                                 VALS(x, g8, g8), NULL, &out));
    expect_shape(g, out, 3, D(2, 5, 8));
    ASSERT_OK(rlx_graph_add_node(g, "rms", RLX_OP_RMS_NORM, 2, VALS(x, g8),
                                 &(rlx_attrs){ .n_floats = 1,
                                               .floats = (double[]){ 1e-5 } },
                                 &out));
    expect_shape(g, out, 3, D(2, 5, 8));
    expect_fail(g, "ln_g", RLX_OP_LAYER_NORM, 3, VALS(x, g5, g8), NULL,
                RLX_ERR_SHAPE, "gamma 'g5' is [5]", "[2,5,8]");
    expect_fail(g, "ln_b", RLX_OP_LAYER_NORM, 3, VALS(x, g8, g18), NULL,
                RLX_ERR_SHAPE, "beta 'g18' is [1,8]", "must be [8]");
    expect_fail(g, "rms_g", RLX_OP_RMS_NORM, 2, VALS(x, g5), NULL,
                RLX_ERR_SHAPE, "gamma 'g5'", NULL);
    expect_fail(g, "ln_t", RLX_OP_LAYER_NORM, 3, VALS(x, h8, g8), NULL,
                RLX_ERR_DTYPE, "'h8' is f16", NULL);
    expect_fail(g, "ln_s", RLX_OP_RMS_NORM, 2, VALS(s, g8), NULL,
                RLX_ERR_SHAPE, "'s' is a scalar", NULL);
    expect_fail(g, "ln_n", RLX_OP_LAYER_NORM, 2, VALS(x, g8), NULL,
                RLX_ERR_INVALID_ARGUMENT, "takes 3 inputs, got 2", NULL);
    rlx_graph_destroy(g);
}

TEST(reduce_shapes)
{
    rlx_graph *g;
    rlx_value out;
    ASSERT_OK(rlx_graph_create(&g));
    rlx_value x = input(g, "x", 3, D(2, 3, 4));
    ASSERT_OK(rlx_graph_add_node(g, "all", RLX_OP_REDUCE_SUM, 1, &x, NULL,
                                 &out));
    expect_shape(g, out, 0, NULL);
    ASSERT_OK(rlx_graph_add_node(g, "all_k", RLX_OP_REDUCE_MAX, 1, &x,
                                 ATTRS_I(1), &out));
    expect_shape(g, out, 3, D(1, 1, 1));
    ASSERT_OK(rlx_graph_add_node(g, "mid", RLX_OP_REDUCE_MEAN, 1, &x,
                                 ATTRS_I(0, 1), &out));
    expect_shape(g, out, 2, D(2, 4));
    ASSERT_OK(rlx_graph_add_node(g, "two_k", RLX_OP_REDUCE_SUM, 1, &x,
                                 ATTRS_I(1, -1, 0), &out));
    expect_shape(g, out, 3, D(1, 3, 1));
    expect_fail(g, "r_ax", RLX_OP_REDUCE_SUM, 1, &x, ATTRS_I(0, 3),
                RLX_ERR_SHAPE, "axis 3 is out of range for rank 3", NULL);
    expect_fail(g, "r_neg", RLX_OP_REDUCE_SUM, 1, &x, ATTRS_I(0, -4),
                RLX_ERR_SHAPE, "axis -4", NULL);
    expect_fail(g, "r_rep", RLX_OP_REDUCE_MEAN, 1, &x, ATTRS_I(0, 1, -2),
                RLX_ERR_INVALID_ARGUMENT, "already reduced", NULL);
    expect_fail(g, "r_keep", RLX_OP_REDUCE_MAX, 1, &x, ATTRS_I(2),
                RLX_ERR_INVALID_ARGUMENT, "keepdims is 2", NULL);
    expect_fail(g, "r_many", RLX_OP_REDUCE_MAX, 1, &x,
                ATTRS_I(0, 0, 1, 2, 0, 1, 2, 0, 1, 2), RLX_ERR_INVALID_ARGUMENT,
                "at most 9 integer", NULL);
    rlx_graph_destroy(g);
}

TEST(reshape_transpose_shapes)
{
    rlx_graph *g;
    rlx_value out;
    rlx_dtype t;
    ASSERT_OK(rlx_graph_create(&g));
    rlx_value x = typed(g, "x", RLX_DTYPE_I64, 3, D(2, 3, 4));
    rlx_value e = input(g, "e", 2, D(0, 3));
    ASSERT_OK(rlx_graph_add_node(g, "r1", RLX_OP_RESHAPE, 1, &x,
                                 ATTRS_I(-1, 4), &out));
    expect_shape(g, out, 2, D(6, 4));
    ASSERT_OK(rlx_graph_value_shape(g, out, &t, NULL, NULL));
    ASSERT_EQ(t, RLX_DTYPE_I64);
    ASSERT_OK(rlx_graph_add_node(g, "r0", RLX_OP_RESHAPE, 1, &e,
                                 ATTRS_I(3, 0, 5), &out));
    expect_shape(g, out, 3, D(3, 0, 5));
    expect_fail(g, "r_count", RLX_OP_RESHAPE, 1, &x, ATTRS_I(5, 5),
                RLX_ERR_SHAPE, "[2,3,4] (24 elements) to [5,5] (25", NULL);
    expect_fail(g, "r_div", RLX_OP_RESHAPE, 1, &x, ATTRS_I(-1, 5),
                RLX_ERR_SHAPE, "not a multiple of 5", NULL);
    expect_fail(g, "r_two", RLX_OP_RESHAPE, 1, &x, ATTRS_I(-1, -1),
                RLX_ERR_SHAPE, "-1 at both 0 and 1", NULL);
    expect_fail(g, "r_neg", RLX_OP_RESHAPE, 1, &x, ATTRS_I(-2, -12),
                RLX_ERR_SHAPE, "is -2", NULL);
    expect_fail(g, "r_zero", RLX_OP_RESHAPE, 1, &e, ATTRS_I(0, -1),
                RLX_ERR_SHAPE, "cannot infer the -1 in [0,-1]", NULL);

    ASSERT_OK(rlx_graph_add_node(g, "t_rev", RLX_OP_TRANSPOSE, 1, &x, NULL,
                                 &out));
    expect_shape(g, out, 3, D(4, 3, 2));
    ASSERT_OK(rlx_graph_add_node(g, "t_p", RLX_OP_TRANSPOSE, 1, &x,
                                 ATTRS_I(0, -1, 1), &out));
    expect_shape(g, out, 3, D(2, 4, 3));
    expect_fail(g, "t_dup", RLX_OP_TRANSPOSE, 1, &x, ATTRS_I(0, 1, 1),
                RLX_ERR_SHAPE, "names axis 1 twice", "[2,3,4]");
    expect_fail(g, "t_len", RLX_OP_TRANSPOSE, 1, &x, ATTRS_I(1, 0),
                RLX_ERR_SHAPE, "2 entries", "rank 3");
    expect_fail(g, "t_ax", RLX_OP_TRANSPOSE, 1, &x, ATTRS_I(0, 1, 3),
                RLX_ERR_SHAPE, "entry 3 is out of range", NULL);
    rlx_graph_destroy(g);
}

TEST(concat_slice_shapes)
{
    rlx_graph *g;
    rlx_value out;
    ASSERT_OK(rlx_graph_create(&g));
    rlx_value a = input(g, "a", 2, D(2, 3));
    rlx_value b = input(g, "b", 2, D(2, 5));
    rlx_value c = input(g, "c", 2, D(2, 0));
    rlx_value r1 = input(g, "r1", 1, D(3));
    rlx_value i = typed(g, "i", RLX_DTYPE_I32, 2, D(2, 3));
    ASSERT_OK(rlx_graph_add_node(g, "cat3", RLX_OP_CONCAT, 3, VALS(a, b, c),
                                 ATTRS_I(1), &out));
    expect_shape(g, out, 2, D(2, 8));
    ASSERT_OK(rlx_graph_add_node(g, "cat1", RLX_OP_CONCAT, 1, &a, NULL,
                                 &out));
    expect_shape(g, out, 2, D(2, 3));
    ASSERT_OK(rlx_graph_add_node(g, "cat0", RLX_OP_CONCAT, 2, VALS(a, a),
                                 ATTRS_I(-2), &out));
    expect_shape(g, out, 2, D(4, 3));
    expect_fail(g, "cat_none", RLX_OP_CONCAT, 0, NULL, NULL,
                RLX_ERR_INVALID_ARGUMENT, "one or more inputs", NULL);
    expect_fail(g, "cat_dim", RLX_OP_CONCAT, 2, VALS(a, b), NULL,
                RLX_ERR_SHAPE, "'a' [2,3] and 'b' [2,5] (input 1)",
                "outside axis 0");
    expect_fail(g, "cat_rank", RLX_OP_CONCAT, 2, VALS(a, r1), ATTRS_I(1),
                RLX_ERR_SHAPE, "'r1' [3]", NULL);
    expect_fail(g, "cat_t", RLX_OP_CONCAT, 2, VALS(a, i), NULL,
                RLX_ERR_DTYPE, "'i' (input 1) is i32", NULL);
    expect_fail(g, "cat_ax", RLX_OP_CONCAT, 2, VALS(a, a), ATTRS_I(2),
                RLX_ERR_SHAPE, "axis 2 is out of range", NULL);

    ASSERT_OK(rlx_graph_add_node(g, "sl", RLX_OP_SLICE, 1, &b,
                                 ATTRS_I(1, 1, -1, 0, -5, 100), &out));
    expect_shape(g, out, 2, D(2, 3));
    ASSERT_OK(rlx_graph_add_node(g, "sl_empty", RLX_OP_SLICE, 1, &b,
                                 ATTRS_I(-1, 4, 2), &out));
    expect_shape(g, out, 2, D(2, 0));
    ASSERT_OK(rlx_graph_add_node(g, "sl_int", RLX_OP_SLICE, 1, &i,
                                 ATTRS_I(0, 1, 2), &out));
    expect_shape(g, out, 2, D(1, 3));
    expect_fail(g, "sl_n", RLX_OP_SLICE, 1, &b, ATTRS_I(0, 1),
                RLX_ERR_INVALID_ARGUMENT, "triples", NULL);
    expect_fail(g, "sl_twice", RLX_OP_SLICE, 1, &b, ATTRS_I(1, 0, 1, -1, 0, 2),
                RLX_ERR_INVALID_ARGUMENT, "axis 1 of 'b' [2,5] is sliced twice",
                NULL);
    expect_fail(g, "sl_ax", RLX_OP_SLICE, 1, &b, ATTRS_I(2, 0, 1),
                RLX_ERR_SHAPE, "slice axis 2 is out of range", NULL);
    rlx_graph_destroy(g);
}

TEST(gather_cast_fill_shapes)
{
    rlx_graph *g;
    rlx_value out;
    rlx_dtype t;
    ASSERT_OK(rlx_graph_create(&g));
    rlx_value emb = input(g, "emb", 2, D(100, 16));
    rlx_value ids = typed(g, "ids", RLX_DTYPE_I64, 2, D(2, 7));
    rlx_value fid = input(g, "fid", 1, D(7));
    rlx_value big = typed(g, "big", RLX_DTYPE_I32, 8,
                          D(1, 1, 1, 1, 1, 1, 1, 1));
    ASSERT_OK(rlx_graph_add_node(g, "g0", RLX_OP_GATHER, 2, VALS(emb, ids),
                                 NULL, &out));
    expect_shape(g, out, 3, D(2, 7, 16));
    ASSERT_OK(rlx_graph_value_shape(g, out, &t, NULL, NULL));
    ASSERT_EQ(t, RLX_DTYPE_F32);
    ASSERT_OK(rlx_graph_add_node(g, "g1", RLX_OP_GATHER, 2, VALS(emb, ids),
                                 ATTRS_I(-1), &out));
    expect_shape(g, out, 3, D(100, 2, 7));
    expect_fail(g, "g_t", RLX_OP_GATHER, 2, VALS(emb, fid), NULL,
                RLX_ERR_DTYPE, "indices 'fid' are f32", "i32 or i64");
    expect_fail(g, "g_ax", RLX_OP_GATHER, 2, VALS(emb, ids), ATTRS_I(2),
                RLX_ERR_SHAPE, "axis 2 is out of range for rank 2", NULL);
    expect_fail(g, "g_rank", RLX_OP_GATHER, 2, VALS(emb, big), NULL,
                RLX_ERR_SHAPE, "gives rank 9", NULL);

    ASSERT_OK(rlx_graph_add_node(g, "c16", RLX_OP_CAST, 1, &ids,
                                 ATTRS_I(RLX_DTYPE_BF16), &out));
    ASSERT_OK(rlx_graph_value_shape(g, out, &t, NULL, NULL));
    ASSERT_EQ(t, RLX_DTYPE_BF16);
    expect_shape(g, out, 2, D(2, 7));
    expect_fail(g, "c_none", RLX_OP_CAST, 1, &ids, NULL,
                RLX_ERR_INVALID_ARGUMENT, "no target dtype", NULL);
    expect_fail(g, "c_bad", RLX_OP_CAST, 1, &ids, ATTRS_I(42), RLX_ERR_DTYPE,
                "target dtype 42 is unknown", NULL);

    /* fill has no inputs and still goes through rlx_graph_add_node */
    ASSERT_OK(rlx_graph_add_node(g, "f", RLX_OP_FILL, 0, NULL,
                                 ATTRS_I(RLX_DTYPE_I32, 3, 0, 2), &out));
    expect_shape(g, out, 3, D(3, 0, 2));
    ASSERT_OK(rlx_graph_value_shape(g, out, &t, NULL, NULL));
    ASSERT_EQ(t, RLX_DTYPE_I32);
    ASSERT_OK(rlx_graph_add_node(g, "f0", RLX_OP_FILL, 0, NULL,
                                 ATTRS_I(RLX_DTYPE_F32), &out));
    expect_shape(g, out, 0, NULL);
    expect_fail(g, "f_neg", RLX_OP_FILL, 0, NULL,
                ATTRS_I(RLX_DTYPE_F32, 2, -3), RLX_ERR_SHAPE,
                "dimension 1 is negative (-3)", NULL);
    expect_fail(g, "f_t", RLX_OP_FILL, 0, NULL, ATTRS_I(0, 2), RLX_ERR_DTYPE,
                "dtype 0 is unknown", NULL);
    expect_fail(g, "f_none", RLX_OP_FILL, 0, NULL, NULL,
                RLX_ERR_INVALID_ARGUMENT, "has no dtype", NULL);
    expect_fail(g, "f_big", RLX_OP_FILL, 0, NULL,
                ATTRS_I(RLX_DTYPE_F32, INT64_MAX / 2, 4), RLX_ERR_SHAPE,
                "overflows", NULL);
    expect_fail(g, "f_big2", RLX_OP_FILL, 0, NULL,
                ATTRS_I(RLX_DTYPE_F64, INT64_MAX / 4 + 1), RLX_ERR_SHAPE,
                "overflows the address space", NULL);
    expect_fail(g, "f_in", RLX_OP_FILL, 1, &fid, ATTRS_I(RLX_DTYPE_F32),
                RLX_ERR_INVALID_ARGUMENT, "takes 0 inputs, got 1", NULL);
    /* the real sources still refuse add_node */
    expect_fail(g, "p", RLX_OP_PARAM, 0, NULL, NULL,
                RLX_ERR_INVALID_ARGUMENT, "is a source", NULL);
    expect_fail(g, "k", RLX_OP_CONSTANT, 0, NULL, NULL,
                RLX_ERR_INVALID_ARGUMENT, "rlx_graph_constant", NULL);
    rlx_graph_destroy(g);
}

TEST(softmax_causal_rules)
{
    rlx_graph *g;
    rlx_value out;
    ASSERT_OK(rlx_graph_create(&g));
    rlx_value x = input(g, "x", 3, D(2, 4, 4));
    rlx_value v = input(g, "v", 1, D(4));
    ASSERT_OK(rlx_graph_add_node(g, "sm", RLX_OP_SOFTMAX, 1, &x,
                                 ATTRS_I(-1, 1), &out));
    expect_shape(g, out, 3, D(2, 4, 4));
    ASSERT_OK(rlx_graph_add_node(g, "sm2", RLX_OP_SOFTMAX, 1, &x,
                                 ATTRS_I(2, 1), &out));
    expect_fail(g, "sm_ax", RLX_OP_SOFTMAX, 1, &x, ATTRS_I(1, 1),
                RLX_ERR_SHAPE, "causal softmax of 'x' [2,4,4] along axis 1",
                "last axis");
    expect_fail(g, "sm_r1", RLX_OP_SOFTMAX, 1, &v, ATTRS_I(-1, 1),
                RLX_ERR_SHAPE, "rank 2 or more", NULL);
    expect_fail(g, "sm_c", RLX_OP_SOFTMAX, 1, &x, ATTRS_I(-1, 2),
                RLX_ERR_INVALID_ARGUMENT, "causal is 2", NULL);
    expect_fail(g, "sm_n", RLX_OP_SOFTMAX, 1, &x, ATTRS_I(-1, 0, 0),
                RLX_ERR_INVALID_ARGUMENT, "at most 2 integer", NULL);
    rlx_graph_destroy(g);
}

TEST(new_ops_compile_and_run)
{
    /* a graph mixing dtypes end to end: ids -> gather -> cast -> layer_norm
     * -> concat with a fill -> reduce */
    rlx_runtime *rt = test_runtime();
    rlx_graph *g;
    rlx_session *s;
    rlx_program *p;
    rlx_value out, ids, emb, e, h, gam, n, z, cat, r;
    ASSERT_OK(rlx_graph_create(&g));
    ASSERT_OK(rlx_graph_input(g, "ids", RLX_DTYPE_I32, 1, D(2), &ids));
    ASSERT_OK(rlx_graph_param(g, "emb", RLX_DTYPE_F32, 2, D(3, 4), &emb));
    ASSERT_OK(rlx_graph_param(g, "gamma", RLX_DTYPE_F16, 1, D(4), &gam));
    ASSERT_OK(rlx_graph_add_node(g, "e", RLX_OP_GATHER, 2, VALS(emb, ids),
                                 NULL, &e));
    ASSERT_OK(rlx_graph_add_node(g, "h", RLX_OP_CAST, 1, &e,
                                 ATTRS_I(RLX_DTYPE_F16), &h));
    ASSERT_OK(rlx_graph_add_node(g, "n", RLX_OP_RMS_NORM, 2, VALS(h, gam),
                                 NULL, &n));
    ASSERT_OK(rlx_graph_add_node(g, "z", RLX_OP_FILL, 0, NULL,
                                 &(rlx_attrs){ 3, D(RLX_DTYPE_F16, 1, 4), 1,
                                               (double[]){ 2.0 } }, &z));
    ASSERT_OK(rlx_graph_add_node(g, "cat", RLX_OP_CONCAT, 2, VALS(n, z), NULL,
                                 &cat));
    ASSERT_OK(rlx_graph_add_node(g, "r", RLX_OP_REDUCE_SUM, 1, &cat,
                                 ATTRS_I(0, 1), &r));
    ASSERT_OK(rlx_graph_add_node(g, "out", RLX_OP_CAST, 1, &r,
                                 ATTRS_I(RLX_DTYPE_F32), &out));
    ASSERT_OK(rlx_graph_output(g, "y", out));
    ASSERT_OK(rlx_session_create(rt, "cpu-ref", &s));
    ASSERT_OK(rlx_session_compile(s, g, &p));
    static const float table[12] = { 1, 1, 1, 1, 2, -2, 2, -2, 0, 0, 0, 3 };
    static const uint16_t ones[4] = { 0x3C00, 0x3C00, 0x3C00, 0x3C00 };
    static const int32_t which[2] = { 2, 1 };
    ASSERT_OK(rlx_program_set_param(p, "emb", table, sizeof table));
    ASSERT_OK(rlx_program_set_param(p, "gamma", ones, sizeof ones));
    ASSERT_OK(rlx_program_set_input(p, "ids", which, sizeof which));
    ASSERT_OK(rlx_program_run(p));
    size_t nb = 0;
    const float *y = rlx_program_output_data(p, 0, &nb);
    ASSERT_EQ(nb, 3 * sizeof(float));
    /* row [0,0,0,3]: rms = 1.5, normalized sum = 2 (in f16) */
    ASSERT_NEAR(y[0], 2.0, 2e-3);
    /* row [2,-2,2,-2]: rms = 2, normalized sum = 0 */
    ASSERT_NEAR(y[1], 0.0, 1e-6);
    ASSERT_NEAR(y[2], 8.0, 0);
    /* an index out of range fails the run, naming the node */
    static const int32_t bad[2] = { 0, 3 };
    ASSERT_OK(rlx_program_set_input(p, "ids", bad, sizeof bad));
    ASSERT_STATUS(rlx_program_run(p), RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(rlx_last_error(), "gather 'e'");
    ASSERT_CONTAINS(rlx_last_error(), "index 3");
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_graph_destroy(g);
    rlx_runtime_destroy(rt);
}

/* A zero dimension does not excuse the others: their product must fit. */
TEST(zero_dim_does_not_hide_overflow)
{
    rlx_graph *g;
    rlx_value x;
    ASSERT_EQ(rlx_graph_create(&g), RLX_OK);
    ASSERT_EQ(rlx_graph_input(g, "x", RLX_DTYPE_F32, 3,
                              (int64_t[]){ 0, INT64_MAX, 4 }, &x),
              RLX_ERR_SHAPE);
    ASSERT_CONTAINS(rlx_last_error(), "overflows");
    ASSERT_EQ(rlx_graph_input(g, "y", RLX_DTYPE_F32, 3,
                              (int64_t[]){ 4, INT64_MAX, 0 }, &x),
              RLX_ERR_SHAPE);
    ASSERT_EQ(rlx_graph_input(g, "w", RLX_DTYPE_F32, 2,
                              (int64_t[]){ 0, INT64_MAX }, &x),
              RLX_ERR_SHAPE);
    /* an empty tensor of sane dims is fine */
    ASSERT_EQ(rlx_graph_input(g, "z", RLX_DTYPE_F32, 3,
                              (int64_t[]){ 0, 1 << 20, 4 }, &x),
              RLX_OK);
    rlx_graph_destroy(g);
}

/* Many nodes and outputs: names stay unique through the hash index, also
 * in a graph grown past its table's first sizes. */
TEST(many_names_stay_unique)
{
    rlx_graph *g;
    rlx_value x, v;
    char name[32];
    ASSERT_EQ(rlx_graph_create(&g), RLX_OK);
    ASSERT_EQ(rlx_graph_input(g, "x", RLX_DTYPE_F32, 1, (int64_t[]){ 2 },
                              &x),
              RLX_OK);
    for (int i = 0; i < 3000; i++) {
        snprintf(name, sizeof name, "n%d", i);
        ASSERT_EQ(rlx_graph_add_node(g, name, RLX_OP_RELU, 1, &x, NULL, &v),
                  RLX_OK);
        ASSERT_EQ(rlx_graph_output(g, name, v), RLX_OK);
    }
    ASSERT_EQ(rlx_graph_add_node(g, "n1234", RLX_OP_RELU, 1, &x, NULL, &v),
              RLX_ERR_DUPLICATE);
    ASSERT_CONTAINS(rlx_last_error(), "already has a node named 'n1234'");
    ASSERT_EQ(rlx_graph_add_node(g, "x", RLX_OP_RELU, 1, &x, NULL, &v),
              RLX_ERR_DUPLICATE);
    ASSERT_EQ(rlx_graph_output(g, "n2999", x), RLX_ERR_DUPLICATE);
    ASSERT_EQ(rlx_graph_output(g, "fresh", x), RLX_OK);
    ASSERT_EQ(rlx_graph_node_count(g), 3001u);
    rlx_graph_destroy(g);
}

RLX_TEST_LIST(
    TEST_ENTRY(zero_dim_does_not_hide_overflow),
    TEST_ENTRY(many_names_stay_unique),
    TEST_ENTRY(matmul_shapes),
    TEST_ENTRY(matmul_mismatch_names_node_and_shapes),
    TEST_ENTRY(broadcasting),
    TEST_ENTRY(dtype_mismatch),
    TEST_ENTRY(bad_nodes_rejected),
    TEST_ENTRY(bad_sources_rejected),
    TEST_ENTRY(dead_code_elimination),
    TEST_ENTRY(graph_without_outputs),
    TEST_ENTRY(float_ops_reject_other_dtypes),
    TEST_ENTRY(norm_shapes),
    TEST_ENTRY(reduce_shapes),
    TEST_ENTRY(reshape_transpose_shapes),
    TEST_ENTRY(concat_slice_shapes),
    TEST_ENTRY(gather_cast_fill_shapes),
    TEST_ENTRY(softmax_causal_rules),
    TEST_ENTRY(new_ops_compile_and_run),
)
