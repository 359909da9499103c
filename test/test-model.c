/*
 * test-model.c - model files: YAML graphs with safetensors weights. A
 * valid model loads, compiles and computes the right numbers; every class
 * of bad file gets an error naming the file, the place and a Fix.
 * Fixtures are written to a fresh temporary directory.
 */
#define _GNU_SOURCE
#include <ftw.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test-util.h"

/* ---- fixtures --------------------------------------------------------- */

static char tmp_dir[64];

static int rm_entry(const char *path, const struct stat *sb, int flag,
                    struct FTW *ftw)
{
    (void)sb; (void)flag; (void)ftw;
    return remove(path);
}

static void rm_tmp(void)
{
    if (tmp_dir[0])
        nftw(tmp_dir, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
}

/* Path of NAME in the fixture directory (a few rotating buffers). */
static const char *fx(const char *name)
{
    static char buf[8][512];
    static int next;
    if (!tmp_dir[0]) {
        const char *t = getenv("TMPDIR");
        snprintf(tmp_dir, sizeof tmp_dir, "%s/rlx-model-XXXXXX",
                 t && *t && strlen(t) < 40 ? t : "/tmp");
        if (!mkdtemp(tmp_dir))
            FAIL("mkdtemp failed");
        atexit(rm_tmp);
    }
    char *out = buf[next++ % 8];
    snprintf(out, sizeof buf[0], "%s/%s", tmp_dir, name);
    return out;
}

static void write_bytes(const char *name, const void *data, size_t n)
{
    FILE *f = fopen(fx(name), "wb");
    if (!f || fwrite(data, 1, n, f) != n || fclose(f) != 0)
        FAIL("cannot write fixture %s", name);
}

static void write_text(const char *name, const char *text)
{
    write_bytes(name, text, strlen(text));
}

/* A safetensors file: the header length (LEN_OVERRIDE if nonzero), the
 * header text as given, then DATA. */
static void write_st_raw(const char *name, const char *header,
                         uint64_t len_override, const void *data,
                         size_t n)
{
    size_t hn = strlen(header);
    unsigned char *buf = malloc(8 + hn + n + 1);
    uint64_t len = len_override ? len_override : hn;
    for (int i = 0; i < 8; i++)
        buf[i] = (unsigned char)(len >> (8 * i));
    memcpy(buf + 8, header, hn);
    if (n)
        memcpy(buf + 8 + hn, data, n);
    write_bytes(name, buf, 8 + hn + n);
    free(buf);
}

typedef struct st_tensor {
    const char *name;
    int rank;
    int64_t dims[4];
    const float *data; /* numel floats */
} st_tensor;

/* A valid F32 safetensors file holding TENSORS, packed in order. */
static void write_st(const char *name, const st_tensor *t, int n)
{
    char header[4096];
    unsigned char data[4096];
    size_t used = 0, off = 0;
    used += (size_t)snprintf(header + used, sizeof header - used,
                             "{\"__metadata__\": {\"format\": \"pt\"}");
    for (int i = 0; i < n; i++) {
        int64_t numel = 1;
        char dims[128] = "";
        size_t dn = 0;
        for (int d = 0; d < t[i].rank; d++) {
            numel *= t[i].dims[d];
            dn += (size_t)snprintf(dims + dn, sizeof dims - dn, "%s%lld",
                                   d ? ", " : "", (long long)t[i].dims[d]);
        }
        size_t nb = (size_t)numel * 4;
        used += (size_t)snprintf(
            header + used, sizeof header - used,
            ", \"%s\": {\"dtype\": \"F32\", \"shape\": [%s], "
            "\"data_offsets\": [%zu, %zu]}", t[i].name, dims, off, off + nb);
        memcpy(data + off, t[i].data, nb);
        off += nb;
    }
    snprintf(header + used, sizeof header - used, "}");
    write_st_raw(name, header, 0, data, off);
}

static rlx_model *load_ok(const char *name, const char *yaml)
{
    rlx_model *m = NULL;
    write_text(name, yaml);
    ASSERT_OK(rlx_model_load(fx(name), &m));
    ASSERT(m != NULL);
    return m;
}

/* Load YAML (written as NAME); expect STATUS; return the message, which
 * must start with the model path and hold a Fix. */
static const char *load_fail(const char *name, const char *yaml,
                             rlx_status status)
{
    rlx_model *m = (rlx_model *)&m;
    if (yaml)
        write_text(name, yaml);
    rlx_status st = rlx_model_load(fx(name), &m);
    if (st != status)
        FAIL("rlx_model_load(%s) returned %s, expected %s: %s", name,
             rlx_status_name(st), rlx_status_name(status),
             rlx_last_error());
    ASSERT(m == NULL);
    const char *e = rlx_last_error();
    if (strncmp(e, fx(name), strlen(fx(name))) != 0)
        FAIL("error does not start with the model path %s: %s", fx(name),
             e);
    ASSERT_CONTAINS(e, "Fix:");
    return e;
}

/* The MLP's weights (see test valid_mlp_runs). */
static const float W1[] = { 1, 0, -1, 0.5f, 1, 2 };
static const float B1[] = { 0.5f, -3, 0 };
static const float W2[] = { 1, -1, 2, 0, 0, 1 };
static const float B2[] = { 0.25f, 0.5f };

static void write_mlp_weights(const char *name)
{
    const st_tensor t[] = {
        { "w1", 2, { 2, 3 }, W1 }, { "b1", 1, { 3 }, B1 },
        { "w2", 2, { 3, 2 }, W2 }, { "b2", 1, { 2 }, B2 },
    };
    write_st(name, t, 4);
}

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

/* ---- valid models ----------------------------------------------------- */

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

/* ---- bad YAML --------------------------------------------------------- */

TEST(yaml_syntax_error)
{
    const char *e = load_fail("syntax.yaml",
                              "rlx_model: 1\n"
                              "inputs:\n"
                              "  - {name: x, dtype: f32, shape: [1, 2}\n"
                              "outputs: [x]\n",
                              RLX_ERR_FORMAT);
    ASSERT_CONTAINS(e, "syntax.yaml:3:");
    ASSERT_CONTAINS(e, "YAML syntax error");
}

TEST(yaml_bad_indentation)
{
    const char *e = load_fail("indent.yaml",
                              "rlx_model: 1\n"
                              "outputs:\n"
                              "  - a\n"
                              " b: 2\n",
                              RLX_ERR_FORMAT);
    ASSERT_CONTAINS(e, "indent.yaml:4:");
    ASSERT_CONTAINS(e, "YAML syntax error");
}

TEST(yaml_duplicate_key_and_alias)
{
    const char *e = load_fail("dupkey.yaml",
                              "rlx_model: 1\n"
                              "outputs: [a]\n"
                              "outputs: [b]\n",
                              RLX_ERR_DUPLICATE);
    ASSERT_CONTAINS(e, "dupkey.yaml:3:1: duplicate key 'outputs'");
    e = load_fail("alias.yaml",
                  "rlx_model: 1\n"
                  "inputs: [&i {name: x, dtype: f32, shape: [1]}]\n"
                  "outputs: [*i]\n",
                  RLX_ERR_UNSUPPORTED);
    ASSERT_CONTAINS(e, "alias.yaml:3:11: YAML aliases");
}

TEST(empty_file)
{
    const char *e = load_fail("empty.yaml", "# nothing\n", RLX_ERR_FORMAT);
    ASSERT_CONTAINS(e, "empty.yaml:1:1: the model file is empty");
}

TEST(missing_top_level_key)
{
    const char *e = load_fail("noout.yaml",
                              "rlx_model: 1\n"
                              "inputs: [{name: x, dtype: f32, shape: [1]}]\n",
                              RLX_ERR_FORMAT);
    ASSERT_CONTAINS(e, "noout.yaml:1:1: the model has no outputs");
    e = load_fail("nover.yaml", "outputs: [x]\n", RLX_ERR_FORMAT);
    ASSERT_CONTAINS(e, "nover.yaml:1:1: missing the key 'rlx_model'");
    e = load_fail("noshape.yaml",
                  "rlx_model: 1\n"
                  "inputs:\n"
                  "  - {name: x, dtype: f32}\n"
                  "outputs: [x]\n",
                  RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(e, "noshape.yaml:3:5: input 'x' has no 'shape'");
}

TEST(unknown_top_level_key)
{
    const char *e = load_fail("topkey.yaml",
                              "rlx_model: 1\n"
                              "output: [x]\n",
                              RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(e, "topkey.yaml:2:1: the model: unknown key 'output'");
    ASSERT_CONTAINS(e, "outputs");
}

TEST(wrong_format_version)
{
    const char *e = load_fail("v2.yaml",
                              "rlx_model: 2\noutputs: [x]\n",
                              RLX_ERR_UNSUPPORTED);
    ASSERT_CONTAINS(e, "v2.yaml:1:12: model format version '2'");
    ASSERT_CONTAINS(e, "rlx_model: 1");
}

static const char *one_node(const char *file, const char *node,
                            rlx_status st)
{
    char yaml[1024];
    snprintf(yaml, sizeof yaml,
             "rlx_model: 1\n"
             "inputs:\n"
             "  - {name: x, dtype: f32, shape: [2, 3]}\n"
             "  - {name: w, dtype: f32, shape: [3, 4]}\n"
             "  - {name: i, dtype: i32, shape: [2, 3]}\n"
             "nodes:\n"
             "%s"
             "outputs: [y]\n", node);
    return load_fail(file, yaml, st);
}

TEST(unknown_op)
{
    const char *e = one_node(
        "op.yaml", "  - {name: y, op: matmull, inputs: [x, w]}\n",
        RLX_ERR_UNSUPPORTED);
    ASSERT_CONTAINS(e, "op.yaml:7:19: node 'y': unknown op 'matmull'");
    ASSERT_CONTAINS(e, "matmul");
    e = one_node("srcop.yaml", "  - {name: y, op: input}\n",
                 RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(e, "srcop.yaml:7:19: node 'y': op 'input' is a source");
}

TEST(unknown_attribute)
{
    const char *e = one_node(
        "attr.yaml",
        "  - {name: y, op: matmul, inputs: [x, w], "
        "attrs: {transpose_c: true}}\n",
        RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(e, "attr.yaml:7:51: node 'y': op matmul has no "
                       "attribute 'transpose_c'");
    ASSERT_CONTAINS(e, "transpose_a, transpose_b");
    e = one_node("attr2.yaml",
                 "  - {name: y, op: relu, inputs: [x], attrs: {axis: 1}}\n",
                 RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(e, "no attribute 'axis'");
    ASSERT_CONTAINS(e, "Fix: remove 'attrs' (op relu takes none)");
    e = one_node("nodekey.yaml",
                 "  - {name: y, op: relu, input: [x]}\n",
                 RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(e, "nodekey.yaml:7:25: node 'y': unknown key 'input'");
}

TEST(wrong_attribute_type)
{
    const char *e = one_node(
        "attrtype.yaml",
        "  - {name: y, op: matmul, inputs: [x, w], "
        "attrs: {transpose_b: 3}}\n",
        RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(e, "attrtype.yaml:7:64: node 'y': attribute "
                       "'transpose_b' must be true or false, got '3'");
    e = one_node("attrtype2.yaml",
                 "  - {name: y, op: softmax, inputs: [x], "
                 "attrs: {axis: '1'}}\n",
                 RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(e, "attribute 'axis' must be an integer, got the "
                       "string '1'");
    e = one_node("attrtype3.yaml",
                 "  - {name: y, op: gelu, inputs: [x], "
                 "attrs: {approximate: fast}}\n",
                 RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(e, "must be erf or tanh, got 'fast'");
    e = one_node("attrtype4.yaml",
                 "  - {name: y, op: reshape, inputs: [x], "
                 "attrs: {shape: 6}}\n",
                 RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(e, "attribute 'shape' must be a list of integers");
    e = one_node("attrreq.yaml",
                 "  - {name: y, op: cast, inputs: [x]}\n",
                 RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(e, "attrreq.yaml:7:5: node 'y': op cast needs the "
                       "attribute 'to'");
    e = one_node("attrcast.yaml",
                 "  - {name: y, op: cast, inputs: [x], attrs: {to: f33}}\n",
                 RLX_ERR_DTYPE);
    ASSERT_CONTAINS(e, "unknown dtype 'f33'");
    e = one_node("slicelen.yaml",
                 "  - {name: y, op: slice, inputs: [x], "
                 "attrs: {axes: [0, 1], starts: [0]}}\n",
                 RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(e, "slice 'axes' has 2 entries but 'starts' has 1");
}

TEST(unknown_dtype)
{
    const char *e = load_fail("dtype.yaml",
                              "rlx_model: 1\n"
                              "inputs:\n"
                              "  - {name: x, dtype: f33, shape: [1]}\n"
                              "outputs: [x]\n",
                              RLX_ERR_DTYPE);
    ASSERT_CONTAINS(e, "dtype.yaml:3:22: input 'x': unknown dtype 'f33'");
    ASSERT_CONTAINS(e, "f32");
}

TEST(undefined_value)
{
    const char *e = one_node(
        "undef.yaml", "  - {name: y, op: matmul, inputs: [x, nope]}\n",
        RLX_ERR_NOT_FOUND);
    ASSERT_CONTAINS(e, "undef.yaml:7:39: node 'y': input 'nope' is not "
                       "defined");
    e = load_fail("undefout.yaml",
                  "rlx_model: 1\n"
                  "inputs: [{name: x, dtype: f32, shape: [1]}]\n"
                  "outputs: [x, {name: q, value: z}]\n",
                  RLX_ERR_NOT_FOUND);
    ASSERT_CONTAINS(e, "undefout.yaml:3:31: output 'q': value 'z' is not "
                       "defined");
}

TEST(duplicate_name)
{
    const char *e = one_node(
        "dup.yaml", "  - {name: x, op: relu, inputs: [x]}\n",
        RLX_ERR_DUPLICATE);
    ASSERT_CONTAINS(e, "dup.yaml:7:5: node 'x': ");
    ASSERT_CONTAINS(e, "already has a node named 'x'");
    e = load_fail("dupout.yaml",
                  "rlx_model: 1\n"
                  "inputs: [{name: x, dtype: f32, shape: [1]}]\n"
                  "outputs: [x, x]\n",
                  RLX_ERR_DUPLICATE);
    ASSERT_CONTAINS(e, "dupout.yaml:3:14: output 'x'");
}

TEST(shape_mismatch)
{
    const char *e = one_node(
        "shape.yaml", "  - {name: y, op: matmul, inputs: [w, x]}\n",
        RLX_ERR_SHAPE);
    ASSERT_CONTAINS(e, "shape.yaml:7:5: node 'y' (matmul): ");
    ASSERT_CONTAINS(e, "inner dimensions differ");
    ASSERT_CONTAINS(e, "[3,4]");
}

TEST(dtype_mismatch)
{
    const char *e = one_node(
        "dtypemis.yaml", "  - {name: y, op: add, inputs: [x, i]}\n",
        RLX_ERR_DTYPE);
    ASSERT_CONTAINS(e, "dtypemis.yaml:7:5: node 'y' (add): ");
    ASSERT_CONTAINS(e, "f32");
    ASSERT_CONTAINS(e, "i32");
}

TEST(constant_value_count)
{
    const char *e = load_fail(
        "count.yaml",
        "rlx_model: 1\n"
        "constants:\n"
        "  - {name: c, dtype: f32, shape: [2, 2], value: [1, 2, 3]}\n"
        "outputs: [c]\n",
        RLX_ERR_SHAPE);
    ASSERT_CONTAINS(e, "count.yaml:3:49: constant 'c': the value has 3 "
                       "elements, but shape [2,2] needs 4");
    e = load_fail("nested.yaml",
                  "rlx_model: 1\n"
                  "constants:\n"
                  "  - name: c\n"
                  "    dtype: f32\n"
                  "    shape: [2, 2]\n"
                  "    value: [[1, 2], [3, 4, 5]]\n"
                  "outputs: [c]\n",
                  RLX_ERR_SHAPE);
    ASSERT_CONTAINS(e, "nested.yaml:6:21: constant 'c': at dimension 1 the "
                       "value has 3 entries");
    e = load_fail("range.yaml",
                  "rlx_model: 1\n"
                  "constants:\n"
                  "  - {name: c, dtype: u8, shape: [2], value: [1, 256]}\n"
                  "outputs: [c]\n",
                  RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(e, "range.yaml:3:49: constant 'c': element 1: 256 does "
                       "not fit in u8");
    e = load_fail("cstr.yaml",
                  "rlx_model: 1\n"
                  "constants:\n"
                  "  - {name: c, dtype: f32, shape: [1], value: [abc]}\n"
                  "outputs: [c]\n",
                  RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(e, "cstr.yaml:3:47: constant 'c': element 0 must be a "
                       "number, got 'abc'");
}

TEST(dimension_overflow_in_yaml)
{
    const char *e = load_fail(
        "ovf.yaml",
        "rlx_model: 1\n"
        "inputs:\n"
        "  - {name: x, dtype: f32, shape: [99999999999999999999]}\n"
        "outputs: [x]\n",
        RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(e, "ovf.yaml:3:35: input 'x': a dimension: "
                       "99999999999999999999 overflows a 64-bit integer");
    e = load_fail("ovf2.yaml",
                  "rlx_model: 1\n"
                  "inputs:\n"
                  "  - {name: x, dtype: f32, shape: [4294967296, "
                  "4294967296]}\n"
                  "outputs: [x]\n",
                  RLX_ERR_SHAPE);
    ASSERT_CONTAINS(e, "ovf2.yaml:3:34: input 'x': shape "
                       "[4294967296,4294967296] has more elements than fit "
                       "in 64 bits");
    e = load_fail("ovf3.yaml",
                  "rlx_model: 1\n"
                  "inputs:\n"
                  "  - {name: x, dtype: f32, shape: [2, -1]}\n"
                  "outputs: [x]\n",
                  RLX_ERR_SHAPE);
    ASSERT_CONTAINS(e, "ovf3.yaml:3:38: input 'x': dimension 1 is negative");
}

/* ---- weights ---------------------------------------------------------- */

static const char *const PARAM_YAML =
    "rlx_model: 1\n"
    "weights: %s\n"
    "inputs: [{name: x, dtype: f32, shape: [1, 2]}]\n"
    "params:\n"
    "  - {name: w1, dtype: f32, shape: [2, 3]}\n"
    "nodes: [{name: y, op: matmul, inputs: [x, w1]}]\n"
    "outputs: [y]\n";

/* Load a model whose weights file is WEIGHTS; expect STATUS. */
static const char *weights_fail(const char *yaml_name, const char *weights,
                                rlx_status status)
{
    char yaml[1024];
    snprintf(yaml, sizeof yaml, PARAM_YAML, weights);
    const char *e = load_fail(yaml_name, yaml, status);
    char where[600];
    snprintf(where, sizeof where, "%s:2:10: weights: %s: ", fx(yaml_name),
             fx(weights));
    ASSERT_CONTAINS(e, where);
    return e;
}

TEST(missing_weights_file)
{
    const char *e = weights_fail("nowfile.yaml", "absent.safetensors",
                                 RLX_ERR_NOT_FOUND);
    ASSERT_CONTAINS(e, "cannot open the weights file");
    e = load_fail("noweights.yaml",
                  "rlx_model: 1\n"
                  "params: [{name: w}]\n"
                  "outputs: [w]\n",
                  RLX_ERR_NOT_FOUND);
    ASSERT_CONTAINS(e, "noweights.yaml:2:10: param 'w': the model names no "
                       "weights file");
}

TEST(tensor_missing_from_weights)
{
    const st_tensor t[] = { { "b1", 1, { 3 }, B1 } };
    write_st("only_b1.safetensors", t, 1);
    char yaml[1024];
    snprintf(yaml, sizeof yaml, PARAM_YAML, "only_b1.safetensors");
    const char *e = load_fail("tmiss.yaml", yaml, RLX_ERR_NOT_FOUND);
    ASSERT_CONTAINS(e, "tmiss.yaml:5:5: param 'w1' is not in the weights "
                       "file");
    ASSERT_CONTAINS(e, "only_b1.safetensors");
    ASSERT_CONTAINS(e, "'b1'");
}

TEST(param_differs_from_file)
{
    write_mlp_weights("pd.safetensors");
    const char *e = load_fail(
        "pshape.yaml",
        "rlx_model: 1\n"
        "weights: pd.safetensors\n"
        "params:\n"
        "  - {name: w1, dtype: f32, shape: [3, 2]}\n"
        "outputs: [w1]\n",
        RLX_ERR_SHAPE);
    ASSERT_CONTAINS(e, "pshape.yaml:4:35: param 'w1' is declared with shape "
                       "[3,2], but ");
    ASSERT_CONTAINS(e, "stores it with shape [2,3]");
    e = load_fail("pdtype.yaml",
                  "rlx_model: 1\n"
                  "weights: pd.safetensors\n"
                  "params:\n"
                  "  - {name: w1, dtype: f16}\n"
                  "outputs: [w1]\n",
                  RLX_ERR_DTYPE);
    ASSERT_CONTAINS(e, "pdtype.yaml:4:23: param 'w1' is declared f16, but ");
    ASSERT_CONTAINS(e, "stores it as f32");
}

TEST(safetensors_header_not_json)
{
    const unsigned char data[24] = { 0 };
    write_st_raw("notjson.safetensors", "{\"w1\": {\"dtype\": \"F32\",, }}",
                 0, data, sizeof data);
    const char *e = weights_fail("notjson.yaml", "notjson.safetensors",
                                 RLX_ERR_FORMAT);
    ASSERT_CONTAINS(e, "the header is not valid JSON: expected a string "
                       "key at byte 23 of the header");
    write_st_raw("deep.safetensors",
                 "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["
                 "[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]"
                 "]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
                 0, NULL, 0);
    e = weights_fail("deep.yaml", "deep.safetensors", RLX_ERR_FORMAT);
    ASSERT_CONTAINS(e, "nesting deeper than 64 levels");
    write_st_raw("dupname.safetensors",
                 "{\"w1\": {\"dtype\": \"F32\", \"shape\": [0], "
                 "\"data_offsets\": [0, 0]}, \"w1\": {}}",
                 0, NULL, 0);
    e = weights_fail("dupname.yaml", "dupname.safetensors", RLX_ERR_FORMAT);
    ASSERT_CONTAINS(e, "duplicate key");
    write_st_raw("short.safetensors", "", 0, NULL, 0);
    /* 8 bytes of zero length: an empty header is not JSON either */
    e = weights_fail("short.yaml", "short.safetensors", RLX_ERR_FORMAT);
    ASSERT_CONTAINS(e, "not valid JSON");
    write_bytes("tiny.safetensors", "abc", 3);
    e = weights_fail("tiny.yaml", "tiny.safetensors", RLX_ERR_FORMAT);
    ASSERT_CONTAINS(e, "the file is 3 bytes, too short");
}

TEST(safetensors_truncated)
{
    unsigned char data[16] = { 0 };
    write_st_raw("trunc.safetensors",
                 "{\"w1\": {\"dtype\": \"F32\", \"shape\": [2, 3], "
                 "\"data_offsets\": [0, 24]}}",
                 0, data, sizeof data);
    const char *e = weights_fail("trunc.yaml", "trunc.safetensors",
                                 RLX_ERR_FORMAT);
    ASSERT_CONTAINS(e, "the file is truncated: it is ");
    ASSERT_CONTAINS(e, "tensor 'w1' (data_offsets [0, 24])");
}

TEST(safetensors_overlap)
{
    unsigned char data[48] = { 0 };
    write_st_raw("overlap.safetensors",
                 "{\"w1\": {\"dtype\": \"F32\", \"shape\": [2, 3], "
                 "\"data_offsets\": [0, 24]}, "
                 "\"b1\": {\"dtype\": \"F32\", \"shape\": [3], "
                 "\"data_offsets\": [16, 28]}}",
                 0, data, sizeof data);
    const char *e = weights_fail("overlap.yaml", "overlap.safetensors",
                                 RLX_ERR_FORMAT);
    ASSERT_CONTAINS(e, "tensors 'w1' (bytes 0..24) and 'b1' (bytes 16..28) "
                       "overlap");
}

TEST(safetensors_size_inconsistent)
{
    unsigned char data[48] = { 0 };
    write_st_raw("incons.safetensors",
                 "{\"w1\": {\"dtype\": \"F16\", \"shape\": [2, 3], "
                 "\"data_offsets\": [0, 24]}}",
                 0, data, sizeof data);
    const char *e = weights_fail("incons.yaml", "incons.safetensors",
                                 RLX_ERR_FORMAT);
    ASSERT_CONTAINS(e, "tensor 'w1': data_offsets [0, 24] hold 24 bytes, but "
                       "dtype F16 and shape [2,3] need 12 bytes");
    write_st_raw("baddt.safetensors",
                 "{\"w1\": {\"dtype\": \"U16\", \"shape\": [2, 3], "
                 "\"data_offsets\": [0, 12]}}",
                 0, data, sizeof data);
    e = weights_fail("baddt.yaml", "baddt.safetensors", RLX_ERR_UNSUPPORTED);
    ASSERT_CONTAINS(e, "tensor 'w1' has dtype 'U16'");
    write_st_raw("badoff.safetensors",
                 "{\"w1\": {\"dtype\": \"F32\", \"shape\": [2, 3], "
                 "\"data_offsets\": [24, 0]}}",
                 0, data, sizeof data);
    e = weights_fail("badoff.yaml", "badoff.safetensors", RLX_ERR_FORMAT);
    ASSERT_CONTAINS(e, "end before they begin");
}

TEST(safetensors_header_length_too_large)
{
    unsigned char data[24] = { 0 };
    write_st_raw("hlen.safetensors",
                 "{\"w1\": {\"dtype\": \"F32\", \"shape\": [2, 3], "
                 "\"data_offsets\": [0, 24]}}",
                 100000, data, sizeof data);
    const char *e = weights_fail("hlen.yaml", "hlen.safetensors",
                                 RLX_ERR_FORMAT);
    ASSERT_CONTAINS(e, "the header length is 100000 bytes, but the file is "
                       "only ");
    write_st_raw("hlen2.safetensors", "{}", UINT64_MAX, NULL, 0);
    e = weights_fail("hlen2.yaml", "hlen2.safetensors", RLX_ERR_FORMAT);
    ASSERT_CONTAINS(e, "above the limit");
}

TEST(safetensors_dimension_overflow)
{
    write_st_raw("dimovf.safetensors",
                 "{\"w1\": {\"dtype\": \"F32\", "
                 "\"shape\": [4611686018427387904, 4], "
                 "\"data_offsets\": [0, 0]}}",
                 0, NULL, 0);
    const char *e = weights_fail("dimovf.yaml", "dimovf.safetensors",
                                 RLX_ERR_FORMAT);
    ASSERT_CONTAINS(e, "tensor 'w1': shape [4611686018427387904,4] has more "
                       "elements than fit in 64 bits");
    write_st_raw("dimovf2.safetensors",
                 "{\"w1\": {\"dtype\": \"F32\", "
                 "\"shape\": [0, 99999999999999999999999], "
                 "\"data_offsets\": [0, 0]}}",
                 0, NULL, 0);
    e = weights_fail("dimovf2.yaml", "dimovf2.safetensors", RLX_ERR_FORMAT);
    ASSERT_CONTAINS(e, "more elements than fit in 64 bits");
    write_st_raw("dimneg.safetensors",
                 "{\"w1\": {\"dtype\": \"F32\", \"shape\": [-1, 3], "
                 "\"data_offsets\": [0, 0]}}",
                 0, NULL, 0);
    e = weights_fail("dimneg.yaml", "dimneg.safetensors", RLX_ERR_FORMAT);
    ASSERT_CONTAINS(e, "shape entry 0 is not a non-negative integer");
}

RLX_TEST_LIST(
    TEST_ENTRY(valid_mlp_runs),
    TEST_ENTRY(inline_constants),
    TEST_ENTRY(block_style_and_attrs),
    TEST_ENTRY(norm_softmax_cast_fill_attrs),
    TEST_ENTRY(weights_without_params_and_unused_tensors),
    TEST_ENTRY(argument_errors),
    TEST_ENTRY(missing_model_file),
    TEST_ENTRY(set_params_param_not_in_model),
    TEST_ENTRY(yaml_syntax_error),
    TEST_ENTRY(yaml_bad_indentation),
    TEST_ENTRY(yaml_duplicate_key_and_alias),
    TEST_ENTRY(empty_file),
    TEST_ENTRY(missing_top_level_key),
    TEST_ENTRY(unknown_top_level_key),
    TEST_ENTRY(wrong_format_version),
    TEST_ENTRY(unknown_op),
    TEST_ENTRY(unknown_attribute),
    TEST_ENTRY(wrong_attribute_type),
    TEST_ENTRY(unknown_dtype),
    TEST_ENTRY(undefined_value),
    TEST_ENTRY(duplicate_name),
    TEST_ENTRY(shape_mismatch),
    TEST_ENTRY(dtype_mismatch),
    TEST_ENTRY(constant_value_count),
    TEST_ENTRY(dimension_overflow_in_yaml),
    TEST_ENTRY(missing_weights_file),
    TEST_ENTRY(tensor_missing_from_weights),
    TEST_ENTRY(param_differs_from_file),
    TEST_ENTRY(safetensors_header_not_json),
    TEST_ENTRY(safetensors_truncated),
    TEST_ENTRY(safetensors_overlap),
    TEST_ENTRY(safetensors_size_inconsistent),
    TEST_ENTRY(safetensors_header_length_too_large),
    TEST_ENTRY(safetensors_dimension_overflow))
