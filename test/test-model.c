/*
 * test-model.c - model files: YAML graphs with safetensors weights. A
 * valid model loads, compiles and computes the right numbers; the API's
 * arguments are checked. Every class of bad file: test-model-errors.c.
 * Fixtures (model-util.h) are written to a fresh temporary directory.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test-util.h"
#include "model-util.h"

/* ---- valid models ----------------------------------------------------- */

static const char *const MLP_YAML =
    "# a 2-layer MLP\n"
    "rlx_model: 1\n"
    "name: tiny-mlp\n"
    "weights: mlp.safetensors\n"
    "inputs:\n"
    "  - {name: x, dtype: f32, shape: [1, 2]}\n"
    "params:\n"
    "  - {name: w1, dtype: f32, shape: [2, 3]}\n"
    "  - {name: b1}\n"
    "  - {name: w2}\n"
    "  - name: b2\n"
    "    shape: [2]\n"
    "constants:\n"
    "  - {name: scale, dtype: f32, shape: [], value: 2.0}\n"
    "nodes:\n"
    "  - {name: h, op: matmul, inputs: [x, w1]}\n"
    "  - {name: hb, op: add, inputs: [h, b1]}\n"
    "  - {name: r, op: relu, inputs: [hb]}\n"
    "  - {name: o, op: matmul, inputs: [r, w2], "
    "attrs: {transpose_a: false, transpose_b: false}}\n"
    "  - {name: ob, op: add, inputs: [o, b2]}\n"
    "  - {name: y, op: mul, inputs: [ob, scale]}\n"
    "  - {name: p, op: softmax, inputs: [y], attrs: {axis: -1}}\n"
    "outputs:\n"
    "  - y\n"
    "  - {name: probs, value: p}\n";

TEST(valid_mlp_runs)
{
    write_mlp_weights("mlp.safetensors");
    rlx_model *m = load_ok("mlp.yaml", MLP_YAML);
    ASSERT_STREQ(rlx_model_name(m), "tiny-mlp");
    const rlx_graph *g = rlx_model_graph(m);
    ASSERT(g != NULL);
    ASSERT_EQ(rlx_graph_node_count(g), 13);

    rlx_runtime *rt = test_runtime();
    rlx_session *s = NULL;
    rlx_program *p = NULL;
    ASSERT_OK(rlx_session_create(rt, "cpu-ref", &s));
    ASSERT_OK(rlx_session_compile(s, g, &p));
    ASSERT_EQ(rlx_program_param_count(p), 4);
    ASSERT_OK(rlx_model_set_params(m, p));
    const float x[] = { 1, 2 };
    ASSERT_OK(rlx_program_set_input(p, "x", x, sizeof x));
    ASSERT_OK(rlx_program_run(p));

    /* x@w1 = [2, 2, 3]; +b1 = [2.5, -1, 3]; relu = [2.5, 0, 3];
     * @w2 = [2.5, 0.5]; +b2 = [2.75, 1]; *2 = [5.5, 2] */
    size_t nb = 0;
    const float *y = rlx_program_output_data(p, 0, &nb);
    ASSERT_EQ(nb, 8);
    ASSERT_NEAR(y[0], 5.5, 1e-6);
    ASSERT_NEAR(y[1], 2.0, 1e-6);
    const float *pr = rlx_program_output_data(p, 1, &nb);
    const char *oname = NULL;
    ASSERT_OK(rlx_program_slot(p, RLX_SLOT_OUTPUT, 1, &oname, NULL, NULL,
                               NULL));
    ASSERT_STREQ(oname, "probs");
    double e = exp(-3.5);
    ASSERT_NEAR(pr[0], 1 / (1 + e), 1e-6);
    ASSERT_NEAR(pr[1], e / (1 + e), 1e-6);

    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_runtime_destroy(rt);
    rlx_model_destroy(m);
}

TEST(inline_constants)
{
    rlx_model *m = load_ok(
        "const.yaml",
        "rlx_model: 1\n"
        "inputs:\n"
        "  - {name: x, dtype: f32, shape: [2, 2]}\n"
        "constants:\n"
        "  - {name: c, dtype: f32, shape: [2, 2], value: [[1, 2], [3, 4]]}\n"
        "  - {name: f, dtype: f32, shape: [2, 2], value: [10, 20, 30, 40]}\n"
        "  - {name: s, dtype: f32, shape: [], value: -0.5}\n"
        "  - {name: one, dtype: f32, shape: [1], value: [1e0]}\n"
        "  - {name: ints, dtype: i32, shape: [3], value: [-1, 0, 7]}\n"
        "  - {name: bytes, dtype: u8, shape: [2], value: [0, 255]}\n"
        "  - {name: flags, dtype: bool, shape: [2], value: [true, 0]}\n"
        "  - {name: half, dtype: f16, shape: [2], value: [1.5, .inf]}\n"
        "  - {name: empty, dtype: f32, shape: [0], value: []}\n"
        "nodes:\n"
        "  - {name: a, op: add, inputs: [x, c]}\n"
        "  - {name: b, op: add, inputs: [a, f]}\n"
        "  - {name: y, op: mul, inputs: [b, s]}\n"
        "  - {name: z, op: mul, inputs: [y, one]}\n"
        "outputs: [z]\n");
    /* no name key: the file's base name */
    ASSERT_STREQ(rlx_model_name(m), "const");
    rlx_runtime *rt = test_runtime();
    rlx_session *s = NULL;
    rlx_program *p = NULL;
    ASSERT_OK(rlx_session_create(rt, "cpu-ref", &s));
    ASSERT_OK(rlx_session_compile(s, rlx_model_graph(m), &p));
    ASSERT_EQ(rlx_program_param_count(p), 0);
    ASSERT_OK(rlx_model_set_params(m, p)); /* nothing to set */
    const float x[] = { 0, 1, 2, 3 };
    ASSERT_OK(rlx_program_set_input(p, "x", x, sizeof x));
    ASSERT_OK(rlx_program_run(p));
    const float *z = rlx_program_output_data(p, 0, NULL);
    for (int i = 0; i < 4; i++)
        ASSERT_NEAR(z[i], -0.5 * (x[i] + (i + 1) + 10 * (i + 1)), 1e-6);
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_runtime_destroy(rt);
    rlx_model_destroy(m);
}

TEST(block_style_and_attrs)
{
    /* block style, comments, output named differently, attr lists */
    rlx_model *m = load_ok(
        "block.yaml",
        "rlx_model: 1\n"
        "name: 'quoted name'\n"
        "inputs:\n"
        "  - name: x\n"
        "    dtype: f32\n"
        "    shape:\n"
        "      - 2\n"
        "      - 6\n"
        "params: []\n"
        "nodes:\n"
        "  - name: r\n"
        "    op: reshape\n"
        "    inputs: [x]\n"
        "    attrs:\n"
        "      shape: [3, -1]\n"
        "  - name: t\n"
        "    op: transpose\n"
        "    inputs: [r]\n"
        "    attrs: {perm: [1, 0]}\n"
        "  - {name: sl, op: slice, inputs: [t], "
        "attrs: {axes: [1], starts: [1]}}\n"
        "  - {name: sm, op: reduce_sum, inputs: [sl], "
        "attrs: {axes: [0], keepdims: true}}\n"
        "  - {name: g, op: gelu, inputs: [sm], "
        "attrs: {approximate: tanh}}\n"
        "outputs:\n"
        "  - {name: out, value: g}\n");
    ASSERT_STREQ(rlx_model_name(m), "quoted name");
    const rlx_graph *g = rlx_model_graph(m);
    rlx_dtype dt;
    uint32_t rank;
    const int64_t *dims;
    /* x [2,6] -> [3,4] -> [4,3] -> [4,2] -> [1,2] */
    ASSERT_OK(rlx_graph_value_shape(g, 5, &dt, &rank, &dims));
    ASSERT_EQ(rank, 2);
    ASSERT_EQ(dims[0], 1);
    ASSERT_EQ(dims[1], 2);
    rlx_model_destroy(m);
}

TEST(norm_softmax_cast_fill_attrs)
{
    /* ops whose attributes are floats, dtypes or flags */
    rlx_model *m = load_ok(
        "attrs.yaml",
        "rlx_model: 1\n"
        "inputs:\n"
        "  - {name: x, dtype: f32, shape: [3, 4]}\n"
        "  - {name: idx, dtype: i64, shape: [2]}\n"
        "constants:\n"
        "  - {name: g, dtype: f32, shape: [4], value: [1, 1, 1, 1]}\n"
        "  - {name: b, dtype: f32, shape: [4], value: [0, 0, 0, 0]}\n"
        "nodes:\n"
        "  - {name: ln, op: layer_norm, inputs: [x, g, b], "
        "attrs: {epsilon: 1e-3}}\n"
        "  - {name: rn, op: rms_norm, inputs: [ln, g]}\n"
        "  - {name: sm, op: softmax, inputs: [rn], "
        "attrs: {axis: -1, causal: true}}\n"
        "  - {name: ga, op: gather, inputs: [sm, idx], attrs: {axis: 0}}\n"
        "  - {name: cc, op: concat, inputs: [ga, sm], attrs: {axis: 0}}\n"
        "  - {name: c16, op: cast, inputs: [cc], attrs: {to: f16}}\n"
        "  - {name: f, op: fill, attrs: {dtype: i32, shape: [2, 5], "
        "value: 7}}\n"
        "outputs: [c16, f]\n");
    const rlx_graph *g = rlx_model_graph(m);
    rlx_dtype dt;
    uint32_t rank;
    const int64_t *dims;
    ASSERT_OK(rlx_graph_value_shape(g, 9, &dt, &rank, &dims));
    ASSERT_EQ(dt, RLX_DTYPE_F16);
    ASSERT_EQ(rank, 2);
    ASSERT_EQ(dims[0], 5);
    ASSERT_EQ(dims[1], 4);
    ASSERT_OK(rlx_graph_value_shape(g, 10, &dt, &rank, &dims));
    ASSERT_EQ(dt, RLX_DTYPE_I32);
    ASSERT_EQ(rank, 2);
    ASSERT_EQ(dims[1], 5);
    rlx_model_destroy(m);
}

TEST(channel_norm_attrs)
{
    /* group_norm needs its groups (the load fails without them) */
    rlx_model *m = load_ok(
        "chnorm.yaml",
        "rlx_model: 1\n"
        "inputs:\n"
        "  - {name: x, dtype: f32, shape: [2, 4, 3]}\n"
        "constants:\n"
        "  - {name: s, dtype: f32, shape: [4], value: [1, 1, 1, 1]}\n"
        "  - {name: b, dtype: f32, shape: [4], value: [0, 0, 0, 0]}\n"
        "  - {name: s2, dtype: f32, shape: [2], value: [1, 2]}\n"
        "nodes:\n"
        "  - {name: gn, op: group_norm, inputs: [x, s, b], "
        "attrs: {groups: 2, epsilon: 1e-3}}\n"
        "  - {name: gg, op: group_norm, inputs: [gn, s2, s2], "
        "attrs: {groups: 2}}\n"
        "  - {name: in, op: instance_norm, inputs: [gg, s, b], "
        "attrs: {epsilon: 1e-4}}\n"
        "  - {name: bn, op: batch_norm, inputs: [in, s, b, b, s], "
        "attrs: {epsilon: 0.5}}\n"
        "outputs: [bn]\n");
    const rlx_graph *g = rlx_model_graph(m);
    rlx_dtype dt;
    uint32_t rank;
    const int64_t *dims;
    ASSERT_OK(rlx_graph_value_shape(g, 7, &dt, &rank, &dims));
    ASSERT_EQ(rank, 3);
    ASSERT_EQ(dims[1], 4);
    rlx_model_destroy(m);
}

/* Value V of G has dtype DT and rank R with the dims given. */
#define ASSERT_VALUE(g, v, dt, r, ...)                                      \
    do {                                                                    \
        rlx_dtype vt_;                                                      \
        uint32_t vr_;                                                       \
        const int64_t *vd_, want_[] = { __VA_ARGS__ };                      \
        ASSERT_OK(rlx_graph_value_shape(g, v, &vt_, &vr_, &vd_));          \
        ASSERT_EQ(vt_, dt);                                                 \
        ASSERT_EQ(vr_, r);                                                  \
        for (uint32_t k_ = 0; k_ < (r); k_++)                               \
            ASSERT_EQ(vd_[k_], want_[k_]);                                  \
    } while (0)

TEST(indexing_op_attrs)
{
    /* the 1.4 data movement and indexing ops by their attribute names */
    rlx_model *m = load_ok(
        "index.yaml",
        "rlx_model: 1\n"
        "inputs:\n"
        "  - {name: x, dtype: f32, shape: [3, 4]}\n"
        "  - {name: i, dtype: i64, shape: [3, 2]}\n"
        "constants:\n"
        "  - {name: v, dtype: f32, shape: [2], value: [0, 1]}\n"
        "nodes:\n"
        "  - {name: p, op: pad, inputs: [x], "
        "attrs: {mode: 1, pads: [1, 0, 1, 2], value: 0}}\n"
        "  - {name: e, op: expand, inputs: [x], attrs: {shape: [2, 1, 4]}}\n"
        "  - {name: t, op: tile, inputs: [x], attrs: {repeats: [2, 1]}}\n"
        "  - {name: s, op: strided_slice, inputs: [x], "
        "attrs: {quadruples: [1, -1, -100, -2]}}\n"
        "  - {name: c, op: cumsum, inputs: [x], "
        "attrs: {axis: 1, exclusive: true, reverse: true}}\n"
        "  - {name: k, op: topk, inputs: [x], attrs: {k: 2, largest: false}}\n"
        "  - {name: r, op: range, attrs: {dtype: i32, count: 5, "
        "int_start: 3, int_delta: -1}}\n"
        "  - {name: ge, op: gather_elements, inputs: [x, i], "
        "attrs: {axis: 1}}\n"
        "  - {name: tr, op: trilu, inputs: [x], attrs: {upper: false, k: 1}}\n"
        "  - {name: nz, op: non_zero, inputs: [x], attrs: {columns: -1}}\n"
        "  - {name: oh, op: one_hot, inputs: [i, v], "
        "attrs: {depth: 4, axis: 0}}\n"
        "outputs: [p, e, t, s, c, k, r, ge, tr, nz, oh]\n");
    const rlx_graph *g = rlx_model_graph(m);
    ASSERT_VALUE(g, 3, RLX_DTYPE_F32, 2, 5, 6);
    ASSERT_VALUE(g, 4, RLX_DTYPE_F32, 3, 2, 3, 4);
    ASSERT_VALUE(g, 5, RLX_DTYPE_F32, 2, 6, 4);
    ASSERT_VALUE(g, 6, RLX_DTYPE_F32, 2, 3, 2);
    ASSERT_VALUE(g, 8, RLX_DTYPE_I64, 2, 3, 2);
    ASSERT_VALUE(g, 9, RLX_DTYPE_I32, 1, 5);
    ASSERT_VALUE(g, 12, RLX_DTYPE_I64, 2, 2, 12);
    ASSERT_VALUE(g, 13, RLX_DTYPE_F32, 3, 4, 3, 2);
    rlx_model_destroy(m);
    const char *err = load_fail(
        "topk.yaml",
        "rlx_model: 1\n"
        "inputs:\n"
        "  - {name: x, dtype: f32, shape: [3, 4]}\n"
        "nodes:\n"
        "  - {name: k, op: topk, inputs: [x], attrs: {axis: 0}}\n"
        "outputs: [k]\n", RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(err, "needs the attribute 'k'");
}

TEST(weights_without_params_and_unused_tensors)
{
    write_mlp_weights("unused.safetensors");
    rlx_model *m = load_ok("unused.yaml",
                           "rlx_model: 1\n"
                           "weights: unused.safetensors\n"
                           "inputs: [{name: x, dtype: f32, shape: [3]}]\n"
                           "params: [{name: b1, shape: [3]}]\n"
                           "nodes: [{name: y, op: add, inputs: [x, b1]}]\n"
                           "outputs: [y]\n");
    rlx_model_destroy(m);
}

/* ---- arguments -------------------------------------------------------- */

TEST(argument_errors)
{
    rlx_model *m = (rlx_model *)&m;
    ASSERT_STATUS(rlx_model_load(NULL, &m), RLX_ERR_INVALID_ARGUMENT);
    ASSERT(m == NULL);
    ASSERT_CONTAINS(rlx_last_error(), "Fix:");
    ASSERT_STATUS(rlx_model_load("x.yaml", NULL), RLX_ERR_INVALID_ARGUMENT);
    m = (rlx_model *)&m;
    ASSERT_STATUS(rlx_model_load("", &m), RLX_ERR_INVALID_ARGUMENT);
    ASSERT(m == NULL);
    ASSERT_STATUS(rlx_model_set_params(NULL, NULL),
                  RLX_ERR_INVALID_ARGUMENT);
    ASSERT(rlx_model_graph(NULL) == NULL);
    ASSERT(rlx_model_name(NULL) == NULL);
    rlx_model_destroy(NULL);
}

TEST(missing_model_file)
{
    const char *e = load_fail("does-not-exist.yaml", NULL,
                              RLX_ERR_NOT_FOUND);
    ASSERT_CONTAINS(e, "cannot open the model file");
}

TEST(set_params_param_not_in_model)
{
    rlx_model *m = load_ok("noparams.yaml",
                           "rlx_model: 1\n"
                           "inputs: [{name: x, dtype: f32, shape: [2]}]\n"
                           "nodes: [{name: y, op: relu, inputs: [x]}]\n"
                           "outputs: [y]\n");
    rlx_graph *g;
    rlx_value x, w, y;
    ASSERT_OK(rlx_graph_create(&g));
    ASSERT_OK(rlx_graph_input(g, "x", RLX_DTYPE_F32, 1, (int64_t[]){ 2 },
                              &x));
    ASSERT_OK(rlx_graph_param(g, "w", RLX_DTYPE_F32, 1, (int64_t[]){ 2 },
                              &w));
    ASSERT_OK(rlx_graph_add_node(g, "y", RLX_OP_ADD, 2,
                                 (rlx_value[]){ x, w }, NULL, &y));
    ASSERT_OK(rlx_graph_output(g, "y", y));
    rlx_runtime *rt = test_runtime();
    rlx_session *s = NULL;
    rlx_program *p = NULL;
    ASSERT_OK(rlx_session_create(rt, "cpu-ref", &s));
    ASSERT_OK(rlx_session_compile(s, g, &p));
    ASSERT_STATUS(rlx_model_set_params(m, p), RLX_ERR_NOT_FOUND);
    ASSERT_CONTAINS(rlx_last_error(), "param 'w'");
    ASSERT_CONTAINS(rlx_last_error(), "Fix:");
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_runtime_destroy(rt);
    rlx_graph_destroy(g);
    rlx_model_destroy(m);
}

RLX_TEST_LIST(
    TEST_ENTRY(valid_mlp_runs),
    TEST_ENTRY(inline_constants),
    TEST_ENTRY(block_style_and_attrs),
    TEST_ENTRY(norm_softmax_cast_fill_attrs),
    TEST_ENTRY(channel_norm_attrs),
    TEST_ENTRY(indexing_op_attrs),
    TEST_ENTRY(weights_without_params_and_unused_tensors),
    TEST_ENTRY(argument_errors),
    TEST_ENTRY(missing_model_file),
    TEST_ENTRY(set_params_param_not_in_model))
