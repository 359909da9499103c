/* test-placement.c - capability reports, and graphs split between a
 * partial accelerator (test-npu: add, mul, relu, 2-D matmul) and the CPU
 * backends: results, the placement report, the fallback policies and
 * RLX_OPS_DISABLE. */
#include <math.h>

#include "test-tool.h"
#include "test-util.h"

#define B 4
#define IN 8
#define HID 16
#define OUT 5

/* y = softmax(gelu(x @ w1 + b1) @ w2 + b2): the npu has everything but
 * gelu and softmax. */
typedef struct mlp {
    rlx_graph *g;
    rlx_value x, mm1, add1, gelu, mm2, add2, soft;
} mlp;

static mlp mlp_graph(void)
{
    mlp m;
    rlx_value w1, b1, w2, b2;
    ASSERT_OK(rlx_graph_create(&m.g));
    ASSERT_OK(rlx_graph_input(m.g, "x", RLX_DTYPE_F32, 2,
                              (int64_t[]){ B, IN }, &m.x));
    ASSERT_OK(rlx_graph_param(m.g, "w1", RLX_DTYPE_F32, 2,
                              (int64_t[]){ IN, HID }, &w1));
    ASSERT_OK(rlx_graph_param(m.g, "b1", RLX_DTYPE_F32, 1,
                              (int64_t[]){ HID }, &b1));
    ASSERT_OK(rlx_graph_param(m.g, "w2", RLX_DTYPE_F32, 2,
                              (int64_t[]){ HID, OUT }, &w2));
    ASSERT_OK(rlx_graph_constant(m.g, "b2", RLX_DTYPE_F32, 1,
                                 (int64_t[]){ OUT },
                                 (float[]){ 0.1f, -0.2f, 0.3f, 0, 0.5f },
                                 &b2));
    ASSERT_OK(rlx_graph_add_node(m.g, "mm1", RLX_OP_MATMUL, 2,
                                 (rlx_value[]){ m.x, w1 }, NULL, &m.mm1));
    ASSERT_OK(rlx_graph_add_node(m.g, "add1", RLX_OP_ADD, 2,
                                 (rlx_value[]){ m.mm1, b1 }, NULL, &m.add1));
    ASSERT_OK(rlx_graph_add_node(m.g, "gelu1", RLX_OP_GELU, 1, &m.add1,
                                 NULL, &m.gelu));
    ASSERT_OK(rlx_graph_add_node(m.g, "mm2", RLX_OP_MATMUL, 2,
                                 (rlx_value[]){ m.gelu, w2 }, NULL, &m.mm2));
    ASSERT_OK(rlx_graph_add_node(m.g, "add2", RLX_OP_ADD, 2,
                                 (rlx_value[]){ m.mm2, b2 }, NULL, &m.add2));
    ASSERT_OK(rlx_graph_add_node(m.g, "soft", RLX_OP_SOFTMAX, 1, &m.add2,
                                 NULL, &m.soft));
    ASSERT_OK(rlx_graph_output(m.g, "y", m.soft));
    ASSERT_OK(rlx_graph_output(m.g, "hidden", m.add1));
    return m;
}

static float W1[IN * HID], B1[HID], W2[HID * OUT], X[B * IN];

static void fill_data(void)
{
    uint32_t s = 12345;
    float *arrs[] = { W1, B1, W2, X };
    size_t ns[] = { IN * HID, HID, HID * OUT, B * IN };
    for (int a = 0; a < 4; a++)
        for (size_t i = 0; i < ns[a]; i++) {
            s = s * 1664525u + 1013904223u;
            arrs[a][i] = (float)((s >> 8) % 2000) / 1000.0f - 1.0f;
        }
}

static void set_params(rlx_program *p)
{
    ASSERT_OK(rlx_program_set_param(p, "w1", W1, sizeof W1));
    ASSERT_OK(rlx_program_set_param(p, "b1", B1, sizeof B1));
    ASSERT_OK(rlx_program_set_param(p, "w2", W2, sizeof W2));
}

/* Outputs y and hidden of the MLP on DEVICE with POLICY. */
static rlx_program *run_mlp(rlx_runtime *rt, const mlp *m, const char *device,
                            rlx_fallback policy)
{
    rlx_session *s;
    rlx_program *p;
    ASSERT_OK(rlx_session_create(rt, device, &s));
    ASSERT_OK(rlx_session_set_fallback(s, policy));
    ASSERT_OK(rlx_session_compile(s, m->g, &p));
    rlx_session_destroy(s);
    set_params(p);
    ASSERT_OK(rlx_program_set_input(p, "x", X, sizeof X));
    ASSERT_OK(rlx_program_run(p));
    return p;
}

static void assert_same_outputs(const rlx_program *a, const rlx_program *b)
{
    for (uint32_t o = 0; o < 2; o++) {
        size_t na, nb;
        const float *ya = rlx_program_output_data(a, o, &na);
        const float *yb = rlx_program_output_data(b, o, &nb);
        ASSERT(ya && yb);
        ASSERT_EQ(na, nb);
        for (size_t i = 0; i < na / sizeof(float); i++)
            ASSERT_NEAR(ya[i], yb[i], 1e-5);
    }
}

static rlx_runtime *npu_runtime(void)
{
    rlx_runtime *rt = test_runtime();
    ASSERT_OK(rlx_runtime_load_plugin(rt, test_plugin("testnpupart")));
    fill_data();
    return rt;
}

TEST(compute_only_backend_runs_whole_graphs)
{
    /* test-npu declares only compute ops: the core never asks it about
     * inputs, params or constants (a defect once found here) */
    rlx_runtime *rt = npu_runtime();
    rlx_graph *g;
    rlx_value x, c, a, r;
    ASSERT_OK(rlx_graph_create(&g));
    ASSERT_OK(rlx_graph_input(g, "x", RLX_DTYPE_F32, 1, (int64_t[]){ 3 }, &x));
    ASSERT_OK(rlx_graph_constant(g, "c", RLX_DTYPE_F32, 1, (int64_t[]){ 3 },
                                 (float[]){ 1, -5, 2 }, &c));
    ASSERT_OK(rlx_graph_add_node(g, "a", RLX_OP_ADD, 2, (rlx_value[]){ x, c },
                                 NULL, &a));
    ASSERT_OK(rlx_graph_add_node(g, "r", RLX_OP_RELU, 1, &a, NULL, &r));
    ASSERT_OK(rlx_graph_output(g, "y", r));
    rlx_session *s;
    rlx_program *p;
    ASSERT_OK(rlx_session_create(rt, "npu", &s));
    ASSERT_OK(rlx_session_set_fallback(s, RLX_FALLBACK_NONE));
    ASSERT_OK(rlx_session_compile(s, g, &p));
    ASSERT_EQ(rlx_program_piece_count(p), 1);
    ASSERT_EQ(rlx_program_transfer_count(p), 0);
    ASSERT_EQ(rlx_program_fallback_count(p), 0);
    ASSERT_STREQ(rlx_program_placement_summary(p),
                 "2 nodes on npu:0, 0 transfers");
    ASSERT_OK(rlx_program_set_input(p, "x", (float[]){ 1, 2, 3 },
                                    3 * sizeof(float)));
    ASSERT_OK(rlx_program_run(p));
    const float *y = rlx_program_output_data(p, 0, NULL);
    ASSERT(y && y[0] == 2 && y[1] == 0 && y[2] == 5);
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_graph_destroy(g);
    rlx_runtime_destroy(rt);
}

TEST(capability_report_names_each_node)
{
    rlx_runtime *rt = npu_runtime();
    mlp m = mlp_graph();
    rlx_capability *c;
    const char *why;
    int yes;
    ASSERT_OK(rlx_capability_create(rlx_runtime_find_backend(rt, "test-npu"),
                                    m.g, &c));
    ASSERT_EQ(rlx_capability_node_count(c), rlx_graph_node_count(m.g));
    ASSERT_EQ(rlx_capability_unsupported_count(c), 2);
    ASSERT_EQ(rlx_capability_first_unsupported(c, &why), m.gelu);
    ASSERT_CONTAINS(why, "backend 'test-npu' has no gelu on f32");
    ASSERT_OK(rlx_capability_node(c, m.mm1, &yes, &why));
    ASSERT(yes == 1 && !*why);
    ASSERT_OK(rlx_capability_node(c, m.x, &yes, &why));
    ASSERT_EQ(yes, -1); /* a source: never asked */
    ASSERT_OK(rlx_capability_node(c, m.soft, &yes, &why));
    ASSERT(yes == 0 && strstr(why, "softmax"));
    ASSERT_STATUS(rlx_capability_node(c, 999, &yes, &why), RLX_ERR_NOT_FOUND);
    rlx_capability_destroy(c);
    /* cpu-ref runs all of it */
    ASSERT_OK(rlx_capability_create(rlx_runtime_find_backend(rt, "cpu-ref"),
                                    m.g, &c));
    ASSERT_EQ(rlx_capability_first_unsupported(c, NULL), RLX_VALUE_NONE);
    rlx_capability_destroy(c);
    ASSERT_STATUS(rlx_capability_create(NULL, m.g, &c),
                  RLX_ERR_INVALID_ARGUMENT);
    ASSERT(c == NULL);
    rlx_graph_destroy(m.g);
    rlx_runtime_destroy(rt);
}

TEST(supports_node_declines_with_a_reason)
{
    /* a batched (3-D) matmul passes supports_op but not supports_node */
    rlx_runtime *rt = npu_runtime();
    rlx_graph *g;
    rlx_value a, b, mm;
    ASSERT_OK(rlx_graph_create(&g));
    ASSERT_OK(rlx_graph_input(g, "a", RLX_DTYPE_F32, 3,
                              (int64_t[]){ 2, 3, 4 }, &a));
    ASSERT_OK(rlx_graph_input(g, "b", RLX_DTYPE_F32, 3,
                              (int64_t[]){ 2, 4, 5 }, &b));
    ASSERT_OK(rlx_graph_add_node(g, "bmm", RLX_OP_MATMUL, 2,
                                 (rlx_value[]){ a, b }, NULL, &mm));
    ASSERT_OK(rlx_graph_output(g, "y", mm));
    rlx_capability *c;
    const char *why;
    ASSERT_OK(rlx_capability_create(rlx_runtime_find_backend(rt, "test-npu"),
                                    g, &c));
    ASSERT_EQ(rlx_capability_first_unsupported(c, &why), mm);
    ASSERT_CONTAINS(why, "declines it: matmul only on 2-D operands");
    rlx_capability_destroy(c);
    rlx_graph_destroy(g);
    rlx_runtime_destroy(rt);
}

TEST(mlp_splits_and_matches_cpu_ref)
{
    rlx_runtime *rt = npu_runtime();
    mlp m = mlp_graph();
    rlx_program *ref = run_mlp(rt, &m, "cpu-ref", RLX_FALLBACK_NONE);
    rlx_program *p = run_mlp(rt, &m, "npu", RLX_FALLBACK_SPLIT);
    assert_same_outputs(p, ref);
    /* npu, cpu (gelu), npu, cpu (softmax): three values cross */
    ASSERT_EQ(rlx_program_piece_count(p), 4);
    ASSERT_EQ(rlx_program_transfer_count(p), 3);
    ASSERT_EQ(rlx_program_fallback_count(p), 2);
    ASSERT_STREQ(rlx_program_placement_summary(p),
                 "4 nodes on npu:0, 2 on cpu-ref (gelu x1, softmax x1), "
                 "3 transfers");
    const rlx_backend *b;
    uint32_t piece, dev;
    ASSERT_OK(rlx_program_placement(p, m.gelu, &b, &dev, &piece));
    ASSERT_STREQ(rlx_backend_id(b), "cpu-ref");
    ASSERT_EQ(piece, 1);
    ASSERT_OK(rlx_program_placement(p, m.mm2, &b, &dev, &piece));
    ASSERT_STREQ(rlx_backend_id(b), "test-npu");
    ASSERT_EQ(piece, 2);
    ASSERT_OK(rlx_program_placement(p, m.x, &b, &dev, &piece));
    ASSERT(b == NULL && piece == RLX_PIECE_NONE);
    ASSERT_STATUS(rlx_program_placement(p, 1000, &b, &dev, &piece),
                  RLX_ERR_NOT_FOUND);
    /* runs repeat; new inputs flow through every piece */
    for (int i = 0; i < B * IN; i++)
        X[i] = -X[i];
    ASSERT_OK(rlx_program_set_input(p, "x", X, sizeof X));
    ASSERT_OK(rlx_program_run(p));
    ASSERT_OK(rlx_program_set_input(ref, "x", X, sizeof X));
    ASSERT_OK(rlx_program_run(ref));
    assert_same_outputs(p, ref);
    rlx_program_destroy(p);
    rlx_program_destroy(ref);
    rlx_graph_destroy(m.g);
    rlx_runtime_destroy(rt);
}

/* The 1.4 indexing ops a backend lacks run on the CPU: matmul on the npu,
 * then topk (i64 indices) and gather_elements (its values) on cpu-ref. */
TEST(indexing_ops_a_backend_lacks_run_on_the_cpu)
{
    rlx_runtime *rt = npu_runtime();
    rlx_graph *g;
    rlx_value x, w, mm, idx, top;
    ASSERT_OK(rlx_graph_create(&g));
    ASSERT_OK(rlx_graph_input(g, "x", RLX_DTYPE_F32, 2,
                              (int64_t[]){ B, IN }, &x));
    ASSERT_OK(rlx_graph_param(g, "w1", RLX_DTYPE_F32, 2,
                              (int64_t[]){ IN, HID }, &w));
    ASSERT_OK(rlx_graph_add_node(g, "mm", RLX_OP_MATMUL, 2,
                                 (rlx_value[]){ x, w }, NULL, &mm));
    ASSERT_OK(rlx_graph_add_node(g, "topk", RLX_OP_TOPK, 1, &mm,
                                 &(rlx_attrs){ 1, (int64_t[]){ 3 }, 0, NULL },
                                 &idx));
    ASSERT_OK(rlx_graph_add_node(g, "values", RLX_OP_GATHER_ELEMENTS, 2,
                                 (rlx_value[]){ mm, idx },
                                 &(rlx_attrs){ 1, (int64_t[]){ 1 }, 0, NULL },
                                 &top));
    ASSERT_OK(rlx_graph_output(g, "top", top));
    rlx_program *p[2];
    const char *devices[2] = { "npu", "cpu-ref" };
    for (int k = 0; k < 2; k++) {
        rlx_session *s;
        ASSERT_OK(rlx_session_create(rt, devices[k], &s));
        ASSERT_OK(rlx_session_set_fallback(s, RLX_FALLBACK_SPLIT));
        ASSERT_OK(rlx_session_compile(s, g, &p[k]));
        rlx_session_destroy(s);
        ASSERT_OK(rlx_program_set_param(p[k], "w1", W1, sizeof W1));
        ASSERT_OK(rlx_program_set_input(p[k], "x", X, sizeof X));
        ASSERT_OK(rlx_program_run(p[k]));
    }
    ASSERT_EQ(rlx_program_fallback_count(p[0]), 2);
    const rlx_backend *b;
    uint32_t piece, dev;
    ASSERT_OK(rlx_program_placement(p[0], idx, &b, &dev, &piece));
    ASSERT_STREQ(rlx_backend_id(b), "cpu-ref");
    ASSERT_OK(rlx_program_placement(p[0], mm, &b, &dev, &piece));
    ASSERT_STREQ(rlx_backend_id(b), "test-npu");
    size_t na, nb;
    const float *ya = rlx_program_output_data(p[0], 0, &na);
    const float *yb = rlx_program_output_data(p[1], 0, &nb);
    ASSERT(ya && yb);
    ASSERT_EQ(na, (size_t)B * 3 * sizeof(float));
    ASSERT_EQ(na, nb);
    for (size_t i = 0; i < na / sizeof(float); i++) {
        ASSERT_NEAR(ya[i], yb[i], 1e-5);
        if (i % 3) /* each row's top 3 in descending order */
            ASSERT(ya[i] <= ya[i - 1]);
    }
    rlx_program_destroy(p[0]);
    rlx_program_destroy(p[1]);
    rlx_graph_destroy(g);
    rlx_runtime_destroy(rt);
}

/* A split program keeps nothing of the caller's graph: after the graph
 * is gone it still runs, its outputs that are a constant, a param and an
 * input come out right, and a param set again reaches every piece and
 * the output that names it. Pieces are compiled from slices of the
 * program's own view, so this is where a dangling pointer would show
 * (under ASan). */
TEST(split_program_outlives_its_graph)
{
    rlx_runtime *rt = npu_runtime();
    rlx_graph *g;
    rlx_value x, w, c, mm, idx, top, r;
    const float cs[3] = { 4, -1, 0.5f };
    ASSERT_OK(rlx_graph_create(&g));
    ASSERT_OK(rlx_graph_input(g, "x", RLX_DTYPE_F32, 2,
                              (int64_t[]){ B, IN }, &x));
    ASSERT_OK(rlx_graph_param(g, "w1", RLX_DTYPE_F32, 2,
                              (int64_t[]){ IN, HID }, &w));
    ASSERT_OK(rlx_graph_constant(g, "c", RLX_DTYPE_F32, 1, (int64_t[]){ 3 },
                                 cs, &c));
    ASSERT_OK(rlx_graph_add_node(g, "mm", RLX_OP_MATMUL, 2,
                                 (rlx_value[]){ x, w }, NULL, &mm));
    ASSERT_OK(rlx_graph_add_node(g, "topk", RLX_OP_TOPK, 1, &mm,
                                 &(rlx_attrs){ 1, (int64_t[]){ 3 }, 0, NULL },
                                 &idx));
    ASSERT_OK(rlx_graph_add_node(g, "values", RLX_OP_GATHER_ELEMENTS, 2,
                                 (rlx_value[]){ mm, idx },
                                 &(rlx_attrs){ 1, (int64_t[]){ 1 }, 0, NULL },
                                 &top));
    ASSERT_OK(rlx_graph_add_node(g, "r", RLX_OP_RELU, 1, &top, NULL, &r));
    ASSERT_OK(rlx_graph_output(g, "r", r));
    ASSERT_OK(rlx_graph_output(g, "c", c));
    ASSERT_OK(rlx_graph_output(g, "w", w));
    ASSERT_OK(rlx_graph_output(g, "x", x));
    rlx_program *p[2];
    const char *devices[2] = { "npu", "cpu-ref" };
    for (int k = 0; k < 2; k++) {
        rlx_session *s;
        ASSERT_OK(rlx_session_create(rt, devices[k], &s));
        ASSERT_OK(rlx_session_compile(s, g, &p[k]));
        rlx_session_destroy(s);
    }
    rlx_graph_destroy(g);
    ASSERT(rlx_program_piece_count(p[0]) >= 3); /* npu, cpu, npu */
    ASSERT_EQ(rlx_program_piece_count(p[1]), 1);
    static float w2[IN * HID];
    for (size_t i = 0; i < IN * HID; i++)
        w2[i] = -W1[i];
    for (int round = 0; round < 2; round++) {
        const float *wv = round ? w2 : W1;
        for (int k = 0; k < 2; k++) {
            ASSERT_OK(rlx_program_set_param(p[k], "w1", wv, sizeof W1));
            ASSERT_OK(rlx_program_set_input(p[k], "x", X, sizeof X));
            ASSERT_OK(rlx_program_run(p[k]));
        }
        assert_same_outputs(p[0], p[1]);
        size_t n;
        const float *out = rlx_program_output_data(p[0], 1, &n);
        ASSERT(out && n == sizeof cs && !memcmp(out, cs, sizeof cs));
        out = rlx_program_output_data(p[0], 2, &n);
        ASSERT(out && n == sizeof W1 && !memcmp(out, wv, sizeof W1));
        out = rlx_program_output_data(p[0], 3, &n);
        ASSERT(out && n == sizeof X && !memcmp(out, X, sizeof X));
    }
    rlx_program_destroy(p[0]);
    rlx_program_destroy(p[1]);
    rlx_runtime_destroy(rt);
}

/* An accelerator that lacks the ABI 1.4 ops (every one it was built
 * without) keeps its own nodes; comparisons and where run on the CPU. */
TEST(new_ops_missing_on_a_device_run_on_the_cpu)
{
    rlx_runtime *rt = npu_runtime();
    rlx_graph *g;
    rlx_value x, a, c, w, y;
    ASSERT_OK(rlx_graph_create(&g));
    ASSERT_OK(rlx_graph_input(g, "x", RLX_DTYPE_F32, 2,
                              (int64_t[]){ B, IN }, &x));
    ASSERT_OK(rlx_graph_add_node(g, "a", RLX_OP_ADD, 2,
                                 (rlx_value[]){ x, x }, NULL, &a));
    ASSERT_OK(rlx_graph_add_node(g, "c", RLX_OP_GREATER, 2,
                                 (rlx_value[]){ a, x }, NULL, &c));
    ASSERT_OK(rlx_graph_add_node(g, "w", RLX_OP_WHERE, 3,
                                 (rlx_value[]){ c, a, x }, NULL, &w));
    ASSERT_OK(rlx_graph_add_node(g, "y", RLX_OP_ADD, 2,
                                 (rlx_value[]){ w, w }, NULL, &y));
    ASSERT_OK(rlx_graph_output(g, "y", y));
    rlx_session *s;
    rlx_program *p;
    ASSERT_OK(rlx_session_create(rt, "npu", &s));
    ASSERT_OK(rlx_session_set_fallback(s, RLX_FALLBACK_SPLIT));
    ASSERT_OK(rlx_session_compile(s, g, &p));
    rlx_session_destroy(s);
    ASSERT_OK(rlx_program_set_input(p, "x", X, sizeof X));
    ASSERT_OK(rlx_program_run(p));
    const rlx_backend *b;
    uint32_t piece, dev;
    ASSERT_OK(rlx_program_placement(p, c, &b, &dev, &piece));
    ASSERT_STREQ(rlx_backend_id(b), "cpu-ref");
    ASSERT_OK(rlx_program_placement(p, w, &b, &dev, &piece));
    ASSERT_STREQ(rlx_backend_id(b), "cpu-ref");
    ASSERT_OK(rlx_program_placement(p, y, &b, &dev, &piece));
    ASSERT_STREQ(rlx_backend_id(b), "test-npu");
    ASSERT_EQ(rlx_program_fallback_count(p), 2);
    size_t n;
    const float *out = rlx_program_output_data(p, 0, &n);
    ASSERT(out && n == sizeof X);
    for (int i = 0; i < B * IN; i++) /* 2x > x when x > 0 */
        ASSERT_NEAR(out[i], X[i] > 0 ? 4 * X[i] : 2 * X[i], 1e-6);
    rlx_program_destroy(p);
    rlx_graph_destroy(g);
    rlx_runtime_destroy(rt);
}

TEST(automatic_choice_splits_too)
{
    rlx_runtime *rt = npu_runtime();
    mlp m = mlp_graph();
    rlx_session *s;
    rlx_program *p;
    ASSERT_OK(rlx_session_create(rt, NULL, &s));
    ASSERT_STREQ(rlx_backend_id(rlx_session_backend(s)), "test-npu");
    ASSERT_OK(rlx_session_compile(s, m.g, &p));
    ASSERT_STREQ(rlx_backend_id(rlx_session_backend(s)), "test-npu");
    ASSERT_CONTAINS(rlx_session_explain(s), "placed over 4 pieces");
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_graph_destroy(m.g);
    rlx_runtime_destroy(rt);
}

TEST(unset_param_is_refused_before_any_piece_runs)
{
    rlx_runtime *rt = npu_runtime();
    mlp m = mlp_graph();
    rlx_session *s;
    rlx_program *p;
    ASSERT_OK(rlx_session_create(rt, "npu", &s));
    ASSERT_OK(rlx_session_compile(s, m.g, &p));
    ASSERT_OK(rlx_program_set_param(p, "w1", W1, sizeof W1));
    ASSERT_OK(rlx_program_set_input(p, "x", X, sizeof X));
    ASSERT_STATUS(rlx_program_run(p), RLX_ERR_STATE);
    ASSERT_CONTAINS(rlx_last_error(), "param 'b1' has not been set");
    ASSERT_STATUS(rlx_program_set_param(p, "w2", W1, sizeof W1),
                  RLX_ERR_SHAPE);
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_graph_destroy(m.g);
    rlx_runtime_destroy(rt);
}

TEST(fallback_none_names_node_and_device)
{
    rlx_runtime *rt = npu_runtime();
    mlp m = mlp_graph();
    rlx_session *s;
    rlx_program *p = (rlx_program *)1;
    ASSERT_OK(rlx_session_create(rt, "npu", &s));
    ASSERT_OK(rlx_session_set_fallback(s, RLX_FALLBACK_NONE));
    ASSERT_EQ(rlx_session_fallback(s), RLX_FALLBACK_NONE);
    ASSERT_STATUS(rlx_session_compile(s, m.g, &p), RLX_ERR_UNSUPPORTED);
    ASSERT(p == NULL);
    ASSERT_CONTAINS(rlx_last_error(), "node 'gelu1' (op gelu, f32)");
    ASSERT_CONTAINS(rlx_last_error(), "on device npu");
    ASSERT_CONTAINS(rlx_last_error(), "Fix:");
    ASSERT_STATUS(rlx_session_set_fallback(s, (rlx_fallback)7),
                  RLX_ERR_INVALID_ARGUMENT);
    rlx_session_destroy(s);
    /* the same from the environment, even when the session chose */
    setenv("RLX_FALLBACK", "none", 1);
    ASSERT_OK(rlx_session_create(rt, NULL, &s));
    ASSERT_STATUS(rlx_session_compile(s, m.g, &p), RLX_ERR_UNSUPPORTED);
    ASSERT_CONTAINS(rlx_last_error(), "node 'gelu1'");
    rlx_session_destroy(s);
    setenv("RLX_FALLBACK", "sometimes", 1);
    ASSERT_STATUS(rlx_session_create(rt, "npu", &s),
                  RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(rlx_last_error(), "RLX_FALLBACK='sometimes'");
    ASSERT_CONTAINS(rlx_last_error(), "Fix:");
    unsetenv("RLX_FALLBACK");
    rlx_graph_destroy(m.g);
    rlx_runtime_destroy(rt);
}

TEST(fallback_whole_moves_everything_to_the_cpu)
{
    rlx_runtime *rt = npu_runtime();
    mlp m = mlp_graph();
    rlx_program *ref = run_mlp(rt, &m, "cpu-ref", RLX_FALLBACK_NONE);
    rlx_program *p = run_mlp(rt, &m, "npu", RLX_FALLBACK_WHOLE);
    assert_same_outputs(p, ref);
    ASSERT_EQ(rlx_program_piece_count(p), 1);
    ASSERT_EQ(rlx_program_transfer_count(p), 0);
    const rlx_backend *b;
    ASSERT_OK(rlx_program_placement(p, m.mm1, &b, NULL, NULL));
    ASSERT_STREQ(rlx_backend_id(b), "cpu-ref");
    ASSERT_STREQ(rlx_program_placement_summary(p),
                 "6 nodes on cpu:0, 0 transfers");
    rlx_program_destroy(p);
    rlx_program_destroy(ref);
    rlx_graph_destroy(m.g);
    rlx_runtime_destroy(rt);
}

TEST(ops_disable_masks_and_the_best_cpu_takes_over)
{
    /* relu masked on the npu goes to test-fastcpu (ranked above
     * cpu-ref), gelu, which fastcpu lacks, to cpu-ref */
    rlx_runtime *rt = npu_runtime();
    ASSERT_OK(rlx_runtime_load_plugin(rt, test_plugin("testfastcpu")));
    rlx_graph *g;
    rlx_value x, r, a, ge;
    ASSERT_OK(rlx_graph_create(&g));
    ASSERT_OK(rlx_graph_input(g, "x", RLX_DTYPE_F32, 1, (int64_t[]){ 4 }, &x));
    ASSERT_OK(rlx_graph_add_node(g, "r", RLX_OP_RELU, 1, &x, NULL, &r));
    ASSERT_OK(rlx_graph_add_node(g, "a", RLX_OP_ADD, 2, (rlx_value[]){ r, x },
                                 NULL, &a));
    ASSERT_OK(rlx_graph_add_node(g, "ge", RLX_OP_GELU, 1, &a, NULL, &ge));
    ASSERT_OK(rlx_graph_output(g, "y", ge));
    setenv("RLX_OPS_DISABLE", "npu:relu", 1);
    rlx_capability *c;
    const char *why;
    ASSERT_OK(rlx_capability_create(rlx_runtime_find_backend(rt, "test-npu"),
                                    g, &c));
    ASSERT_EQ(rlx_capability_first_unsupported(c, &why), r);
    ASSERT_CONTAINS(why, "masked by RLX_OPS_DISABLE (npu:relu)");
    rlx_capability_destroy(c);
    rlx_session *s;
    rlx_program *p;
    ASSERT_OK(rlx_session_create(rt, "npu", &s));
    ASSERT_OK(rlx_session_compile(s, g, &p));
    const rlx_backend *b;
    ASSERT_OK(rlx_program_placement(p, r, &b, NULL, NULL));
    ASSERT_STREQ(rlx_backend_id(b), "test-fastcpu");
    ASSERT_OK(rlx_program_placement(p, a, &b, NULL, NULL));
    ASSERT_STREQ(rlx_backend_id(b), "test-npu");
    ASSERT_OK(rlx_program_placement(p, ge, &b, NULL, NULL));
    ASSERT_STREQ(rlx_backend_id(b), "cpu-ref");
    ASSERT_EQ(rlx_program_transfer_count(p), 2); /* r and a cross */
    static const float xs[4] = { -1, 2, -3, 4 };
    ASSERT_OK(rlx_program_set_input(p, "x", xs, sizeof xs));
    ASSERT_OK(rlx_program_run(p));
    const float *y = rlx_program_output_data(p, 0, NULL);
    for (int i = 0; i < 4; i++) {
        double v = (xs[i] > 0 ? xs[i] : 0) + xs[i];
        ASSERT_NEAR(y[i], 0.5 * v * (1 + erf(v / sqrt(2.0))), 1e-5);
    }
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    /* a mask naming an unknown op is refused with a Fix */
    setenv("RLX_OPS_DISABLE", "npu:gelly", 1);
    ASSERT_STATUS(rlx_session_create(rt, "npu", &s),
                  RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(rlx_last_error(), "'gelly' is not an op");
    ASSERT_CONTAINS(rlx_last_error(), "Fix:");
    setenv("RLX_OPS_DISABLE", "relu", 1);
    ASSERT_STATUS(rlx_session_create(rt, "npu", &s),
                  RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(rlx_last_error(), "is not BACKEND:OP");
    unsetenv("RLX_OPS_DISABLE");
    rlx_graph_destroy(g);
    rlx_runtime_destroy(rt);
}

TEST(bound_tensors_work_at_a_split_programs_edges)
{
    rlx_runtime *rt = npu_runtime();
    mlp m = mlp_graph();
    rlx_program *ref = run_mlp(rt, &m, "cpu-ref", RLX_FALLBACK_NONE);
    rlx_session *s;
    rlx_program *p;
    ASSERT_OK(rlx_session_create(rt, "npu", &s));
    ASSERT_OK(rlx_session_compile(s, m.g, &p));
    set_params(p);
    rlx_tensor *tx, *ty;
    ASSERT_OK(rlx_tensor_create(p, RLX_DTYPE_F32, 2, (int64_t[]){ B, IN }, X,
                                &tx));
    ASSERT_OK(rlx_tensor_create(p, RLX_DTYPE_F32, 2, (int64_t[]){ B, OUT },
                                NULL, &ty));
    ASSERT_OK(rlx_program_bind(p, RLX_SLOT_INPUT, "x", tx));
    ASSERT_OK(rlx_program_bind(p, RLX_SLOT_OUTPUT, "y", ty));
    ASSERT_OK(rlx_program_run(p));
    float y[B * OUT];
    ASSERT_OK(rlx_tensor_read(ty, y, sizeof y));
    const float *want = rlx_program_output_data(ref, 0, NULL);
    for (int i = 0; i < B * OUT; i++)
        ASSERT_NEAR(y[i], want[i], 1e-5);
    ASSERT(rlx_program_output_data(p, 0, NULL) == NULL); /* it is bound */
    ASSERT(rlx_program_output_data(p, 1, NULL) != NULL);
    rlx_tensor_destroy(tx);
    rlx_tensor_destroy(ty);
    rlx_program_destroy(p);
    rlx_program_destroy(ref);
    rlx_session_destroy(s);
    rlx_graph_destroy(m.g);
    rlx_runtime_destroy(rt);
}

/* ---- the tool: rlx check, rlx run --fallback/--device-chain/--pick ---- */

static void tool_setup(char *model, size_t size)
{
    ASSERT(setenv("RLX_PLUGIN_PATH", tool_env("RLX_TEST_PLUGIN_DIR"), 1) == 0);
    char path[2048];
    snprintf(path, sizeof path, "%s/mlp/mlp.yaml",
             tool_env("RLX_TEST_EXAMPLES_DIR"));
    tool_quote(model, size, path);
}

TEST(rlx_check_reports_each_node_and_the_placement)
{
    char model[2300], args[2600];
    tool_setup(model, sizeof model);
    snprintf(args, sizeof args, "check %s --device test-npu", model);
    ASSERT_EQ(tool_run(args, 0), 0);
    ASSERT_CONTAINS(tool_out, "Placement: 8 nodes on npu:0, 1 on cpu-ref "
                              "(softmax x1), 1 transfer\n");
    ASSERT_CONTAINS(tool_line("  softmax "), "cpu-ref:0 (piece 2)");
    ASSERT_CONTAINS(tool_line("  softmax "),
                    "no: backend 'test-npu' has no softmax on f32");
    ASSERT_CONTAINS(tool_line("  fc1 "), "test-npu:0 (piece 1)");
    ASSERT_CONTAINS(tool_out, "Unsupported on test-npu: 1 node; the first "
                              "is 'softmax'");
    snprintf(args, sizeof args, "check %s --device test-npu --fallback none",
             model);
    ASSERT_EQ(tool_run(args, 1), 1);
    ASSERT_CONTAINS(tool_out, "node 'softmax' (op softmax, f32) is not "
                              "supported by backend 'test-npu' on device npu");
    ASSERT_CONTAINS(tool_out, "Fix:");
    snprintf(args, sizeof args, "check %s --fallback sometimes", model);
    ASSERT_EQ(tool_run(args, 1), 2);
    unsetenv("RLX_PLUGIN_PATH");
}

TEST(rlx_run_prints_the_placement_and_warns)
{
    char model[2300], args[2600];
    tool_setup(model, sizeof model);
    snprintf(args, sizeof args, "run %s --device test-npu", model);
    ASSERT_EQ(tool_run(args, 1), 0);
    ASSERT_CONTAINS(tool_out, "Placement: 8 nodes on npu:0, 1 on cpu-ref "
                              "(softmax x1), 1 transfer");
    ASSERT_CONTAINS(tool_out, "rlx: warning: 1 node of the model runs on "
                              "the CPU, not on npu");
    snprintf(args, sizeof args, "run %s --device-chain flaky,cpu", model);
    ASSERT_EQ(tool_run(args, 0), 0);
    ASSERT_CONTAINS(tool_line("  flaky:0"), "failed: ");
    ASSERT_CONTAINS(tool_line("  flaky:0"), "the flaky test device was lost");
    ASSERT_CONTAINS(tool_line("  cpu:0"), "ran");
    snprintf(args, sizeof args, "run %s --device-chain slow,test-npu "
                                "--pick fastest", model);
    ASSERT_EQ(tool_run(args, 0), 0);
    ASSERT_CONTAINS(tool_line("  test-npu"), "<- fastest");
    ASSERT(!strstr(tool_line("  slow:0"), "fastest"));
    ASSERT_CONTAINS(tool_out, "Backend: test-npu on npu:0");
    /* rlx bench compares placements */
    snprintf(args, sizeof args, "bench %s --backend test-npu --repeat 1 "
                                "--fallback split --fallback whole", model);
    ASSERT_EQ(tool_run(args, 0), 0);
    ASSERT(tool_line("test-npu/split ")[0] != '\0');
    ASSERT(tool_line("test-npu/whole ")[0] != '\0');
    ASSERT_CONTAINS(tool_out, "placement: 8 nodes on npu:0, 1 on cpu-ref "
                              "(softmax x1), 1 transfer");
    snprintf(args, sizeof args, "run %s --fallback maybe", model);
    ASSERT_EQ(tool_run(args, 1), 2);
    ASSERT_CONTAINS(tool_out, "--fallback wants split, whole or none");
    snprintf(args, sizeof args, "run %s --device-chain ,", model);
    ASSERT_EQ(tool_run(args, 1), 1);
    ASSERT_CONTAINS(tool_out, "names no device");
    unsetenv("RLX_PLUGIN_PATH");
}

/* ---- a real cross-memory split: Vulkan (lavapipe here) and the CPU ---- */

/* Outputs of MODEL's graph on DEVICE, params from the model, inputs
 * filled from a fixed pattern. */
static rlx_program *run_model_on(rlx_runtime *rt, const rlx_model *m,
                                 const char *device)
{
    rlx_session *s;
    rlx_program *p;
    ASSERT_OK(rlx_session_create(rt, device, &s));
    ASSERT_OK(rlx_session_compile(s, rlx_model_graph(m), &p));
    rlx_session_destroy(s);
    ASSERT_OK(rlx_model_set_params(m, p));
    for (uint32_t i = 0; i < rlx_program_input_count(p); i++) {
        const char *name;
        size_t n;
        ASSERT_OK(rlx_program_slot(p, RLX_SLOT_INPUT, i, &name, NULL, NULL,
                                   NULL));
        float *x = rlx_program_input_buffer(p, name, &n);
        ASSERT(x != NULL);
        for (size_t k = 0; k < n / sizeof(float); k++)
            x[k] = (float)((k * 37 % 101) / 50.0 - 1.0);
    }
    ASSERT_OK(rlx_program_run(p));
    return p;
}

TEST(vulkan_and_cpu_split_a_transformer)
{
    const char *vk = getenv("RLX_TEST_VULKAN_PLUGIN");
    if (!vk || !*vk)
        SKIP("the Vulkan plugin is not built (meson -Dvulkan=enabled)");
    rlx_runtime *rt = test_runtime();
    ASSERT_OK(rlx_runtime_load_plugin(rt, vk));
    uint32_t count = 0;
    if (rlx_backend_probe(rlx_runtime_find_backend(rt, "vulkan"), &count) !=
        RLX_OK)
        SKIP("no Vulkan device here: %s", rlx_last_error());
    char path[2048];
    snprintf(path, sizeof path, "%s/transformer/encoder.yaml",
             tool_env("RLX_TEST_EXAMPLES_DIR"));
    rlx_model *m;
    ASSERT_OK(rlx_model_load(path, &m));
    rlx_program *ref = run_model_on(rt, m, "cpu-ref");
    setenv("RLX_OPS_DISABLE", "vulkan:gelu", 1);
    rlx_program *p = run_model_on(rt, m, "vulkan");
    unsetenv("RLX_OPS_DISABLE");
    /* gelu on the CPU, the rest on the device: ff.up's result goes to
     * the CPU and gelu's back, and the residual h skips over gelu's
     * piece from the first device piece to the second */
    ASSERT_EQ(rlx_program_piece_count(p), 3);
    ASSERT_EQ(rlx_program_transfer_count(p), 3);
    ASSERT_CONTAINS(rlx_program_placement_summary(p),
                    " on cpu-ref (gelu x1), 3 transfers");
    ASSERT_EQ(rlx_program_fallback_count(p), 1);
    size_t na, nb;
    const float *a = rlx_program_output_data(p, 0, &na);
    const float *b = rlx_program_output_data(ref, 0, &nb);
    ASSERT(a && b && na == nb);
    for (size_t k = 0; k < na / sizeof(float); k++)
        ASSERT_NEAR(a[k], b[k], 2e-4);
    /* a tensor in the device's memory bound at the split program's
     * output gets the same result (read back from the host buffer) */
    const char *name;
    rlx_dtype dtype;
    uint32_t rank;
    const int64_t *dims;
    ASSERT_OK(rlx_program_slot(p, RLX_SLOT_OUTPUT, 0, &name, &dtype, &rank,
                               &dims));
    rlx_tensor *ty;
    ASSERT_OK(rlx_tensor_create(p, dtype, rank, dims, NULL, &ty));
    ASSERT_OK(rlx_program_bind(p, RLX_SLOT_OUTPUT, name, ty));
    ASSERT_OK(rlx_program_run(p));
    float *got = malloc(na);
    ASSERT(got != NULL);
    ASSERT_OK(rlx_tensor_read(ty, got, na));
    for (size_t k = 0; k < na / sizeof(float); k++)
        ASSERT_NEAR(got[k], b[k], 2e-4);
    free(got);
    rlx_tensor_destroy(ty);
    rlx_program_destroy(p);
    rlx_program_destroy(ref);
    rlx_model_destroy(m);
    rlx_runtime_destroy(rt);
}

RLX_TEST_LIST(TEST_ENTRY(compute_only_backend_runs_whole_graphs),
              TEST_ENTRY(capability_report_names_each_node),
              TEST_ENTRY(supports_node_declines_with_a_reason),
              TEST_ENTRY(mlp_splits_and_matches_cpu_ref),
              TEST_ENTRY(indexing_ops_a_backend_lacks_run_on_the_cpu),
              TEST_ENTRY(split_program_outlives_its_graph),
              TEST_ENTRY(new_ops_missing_on_a_device_run_on_the_cpu),
              TEST_ENTRY(automatic_choice_splits_too),
              TEST_ENTRY(unset_param_is_refused_before_any_piece_runs),
              TEST_ENTRY(fallback_none_names_node_and_device),
              TEST_ENTRY(fallback_whole_moves_everything_to_the_cpu),
              TEST_ENTRY(ops_disable_masks_and_the_best_cpu_takes_over),
              TEST_ENTRY(bound_tensors_work_at_a_split_programs_edges),
              TEST_ENTRY(rlx_check_reports_each_node_and_the_placement),
              TEST_ENTRY(rlx_run_prints_the_placement_and_warns),
              TEST_ENTRY(vulkan_and_cpu_split_a_transformer));
