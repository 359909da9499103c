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

RLX_TEST_LIST(
    TEST_ENTRY(matmul_shapes),
    TEST_ENTRY(matmul_mismatch_names_node_and_shapes),
    TEST_ENTRY(broadcasting),
    TEST_ENTRY(dtype_mismatch),
    TEST_ENTRY(bad_nodes_rejected),
    TEST_ENTRY(bad_sources_rejected),
    TEST_ENTRY(dead_code_elimination),
    TEST_ENTRY(graph_without_outputs),
)
