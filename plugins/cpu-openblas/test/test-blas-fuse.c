/* test-blas-fuse.c - cpu-openblas's compile-time fusion (fuse.c): each
 * graph runs on cpu-openblas and on cpu-ref with the same inputs and
 * must agree, and the plugin's debug log must report the fusions that
 * should (and only those) have happened, with the fused-away values
 * gone from the memory plan. Patterns: matmul -> bias -> relu/gelu ->
 * residual in every legal order and operand side, attention with and
 * without the per-head transposes; non-patterns: an intermediate read
 * twice or that is an output, a bias of the wrong shape, a broadcast
 * residual. */
#include <fcntl.h>
#include <math.h>
#include <unistd.h>

#include "blas-test-util.h"

#define MAX_IN 8
#define MAX_OUT 3

typedef struct built {
    rlx_graph *g;
    uint32_t n_in;
    char names[MAX_IN][16];
    size_t counts[MAX_IN];
} built;

typedef struct observed {
    unsigned epi, attn, values;
} observed;

static rlx_value in(built *b, const char *name, uint32_t rank,
                    const int64_t *dims)
{
    rlx_value v;
    if (rlx_graph_input(b->g, name, RLX_DTYPE_F32, rank, dims, &v) != RLX_OK)
        FAIL("input %s: %s", name, rlx_last_error());
    size_t n = 1;
    for (uint32_t d = 0; d < rank; d++)
        n *= (size_t)dims[d];
    snprintf(b->names[b->n_in], sizeof b->names[0], "%s", name);
    b->counts[b->n_in++] = n;
    return v;
}

static rlx_value op(built *b, rlx_op o, uint32_t n, const rlx_value *ins,
                    uint32_t n_ints, const int64_t *ints)
{
    rlx_value v, copy[3];
    memcpy(copy, ins, n * sizeof *ins);
    rlx_attrs at = { .n_ints = n_ints, .ints = ints };
    if (rlx_graph_add_node(b->g, NULL, o, n, copy, n_ints ? &at : NULL,
                           &v) != RLX_OK)
        FAIL("node: %s", rlx_last_error());
    return v;
}

static rlx_value mm(built *b, rlx_value a, rlx_value w, int trans_b)
{
    return op(b, RLX_OP_MATMUL, 2, (rlx_value[]){ a, w }, 2,
              (int64_t[]){ 0, trans_b });
}

static rlx_value add(built *b, rlx_value x, rlx_value y)
{
    return op(b, RLX_OP_ADD, 2, (rlx_value[]){ x, y }, 0, NULL);
}

static void out(built *b, const char *name, rlx_value v)
{
    if (rlx_graph_output(b->g, name, v) != RLX_OK)
        FAIL("output %s: %s", name, rlx_last_error());
}

/* Compile on DEVICE (catching the debug log when LOG), run on the
 * seeded inputs, copy the outputs into Y. */
static void run_on(rlx_runtime *rt, const char *device, built *b,
                   observed *obs, float **y, size_t *n_y, uint32_t n_out)
{
    char path[] = "/tmp/rlx-blas-fuse-XXXXXX";
    int fd = obs ? mkstemp(path) : -1, saved = -1;
    if (obs) {
        ASSERT(fd >= 0);
        fflush(stderr);
        saved = dup(2);
        dup2(fd, 2);
        setenv("RLX_LOG", "debug", 1);
    }
    rlx_session *s = NULL;
    rlx_program *p = NULL;
    rlx_status st = rlx_session_create(rt, device, &s);
    if (st == RLX_OK)
        st = rlx_session_compile(s, b->g, &p);
    if (obs) {
        unsetenv("RLX_LOG");
        fflush(stderr);
        dup2(saved, 2);
        close(saved);
    }
    ASSERT_OK(st);
    if (obs) {
        static char log[65536];
        memset(log, 0, sizeof log);
        lseek(fd, 0, SEEK_SET);
        ssize_t got = read(fd, log, sizeof log - 1);
        close(fd);
        unlink(path);
        ASSERT(got > 0);
        obs->epi = obs->attn = 0;
        const char *f = strstr(log, "cpu-openblas: fused ");
        if (f)
            ASSERT_EQ(sscanf(f, "cpu-openblas: fused %u matmul epilogues "
                                "and %u attentions", &obs->epi, &obs->attn),
                      2);
        const char *m = strstr(log, "memory plan of ");
        ASSERT(m);
        m = strstr(m, "; ");
        ASSERT(m && sscanf(m, "; %u values", &obs->values) == 1);
    }
    for (uint32_t k = 0; k < b->n_in; k++) {
        float *x = malloc(b->counts[k] * sizeof *x);
        ASSERT(x);
        for (size_t i = 0; i < b->counts[k]; i++)
            x[i] = (float)sin(0.731 * (double)i + 1.3 * k) *
                   (k % 2 ? 0.5f : 1.0f);
        ASSERT_OK(rlx_program_set_input(p, b->names[k], x,
                                        b->counts[k] * sizeof *x));
        free(x);
    }
    ASSERT_OK(rlx_program_run(p));
    for (uint32_t o = 0; o < n_out; o++) {
        size_t nbytes = 0;
        const float *v = rlx_program_output_data(p, o, &nbytes);
        ASSERT(v);
        n_y[o] = nbytes / sizeof *v;
        y[o] = malloc(nbytes ? nbytes : 1);
        ASSERT(y[o]);
        memcpy(y[o], v, nbytes);
    }
    rlx_program_destroy(p);
    rlx_session_destroy(s);
}

/* Run B on cpu-openblas VARIANT and on cpu-ref; outputs must agree; the
 * log must report EPI epilogue and ATTN attention fusions and VALUES
 * arena values (-1: not checked). */
static void check_variant(const char *variant, built *b, uint32_t n_out,
                          unsigned epi, unsigned attn, int values)
{
    rlx_runtime *rt = blas_runtime();
    ASSERT_OK(rlx_runtime_load_plugin(rt, blas_variant_path(variant)));
    const rlx_backend *be = rlx_runtime_find_backend(rt, "cpu-openblas");
    ASSERT(be);
    ASSERT_STREQ(rlx_backend_plugin_path(be), blas_variant_path(variant));
    observed obs;
    float *got[MAX_OUT], *want[MAX_OUT];
    size_t n_got[MAX_OUT], n_want[MAX_OUT];
    run_on(rt, "cpu-openblas", b, &obs, got, n_got, n_out);
    run_on(rt, "cpu-ref", b, NULL, want, n_want, n_out);
    printf("# %s: fused %u epilogues, %u attentions, %u arena values\n",
           *variant ? variant + 1 : "portable", obs.epi, obs.attn,
           obs.values);
    ASSERT_EQ(obs.epi, epi);
    ASSERT_EQ(obs.attn, attn);
    if (values >= 0)
        ASSERT_EQ(obs.values, (unsigned)values);
    for (uint32_t o = 0; o < n_out; o++) {
        ASSERT_EQ(n_got[o], n_want[o]);
        ASSERT(n_got[o] > 0);
        for (size_t i = 0; i < n_got[o]; i++)
            ASSERT_NEAR(got[o][i], want[o][i], 2e-5 + 2e-5 * fabs(want[o][i]));
        free(got[o]);
        free(want[o]);
    }
    rlx_runtime_destroy(rt);
}

/* Every variant built that this host can run (each has its own vector
 * width in the kernels), then B is destroyed. */
static void check(built *b, uint32_t n_out, unsigned epi, unsigned attn,
                  int values)
{
    static const char *const all[] = { "", "-avx2", "-avx512" };
    const char *best = blas_expected_suffix(&(int){ 0 });
    for (int i = 0; i < 3; i++) {
        if (blas_file_exists(blas_variant_path(all[i])))
            check_variant(all[i], b, n_out, epi, attn, values);
        if (!strcmp(all[i], best))
            break; /* the ones above need a newer CPU */
    }
    rlx_graph_destroy(b->g);
}

static built start(void)
{
    built b;
    memset(&b, 0, sizeof b);
    if (rlx_graph_create(&b.g) != RLX_OK)
        FAIL("graph: %s", rlx_last_error());
    return b;
}

#define M 6
#define K 37
#define N 19

/* ---- epilogue patterns -------------------------------------------- */

TEST(bias_relu_residual)
{
    built b = start();
    rlx_value x = in(&b, "x", 2, (int64_t[]){ M, K });
    rlx_value w = in(&b, "w", 2, (int64_t[]){ K, N });
    rlx_value bi = in(&b, "b", 1, (int64_t[]){ N });
    rlx_value r = in(&b, "r", 2, (int64_t[]){ M, N });
    rlx_value t = add(&b, mm(&b, x, w, 0), bi);
    t = op(&b, RLX_OP_RELU, 1, &t, 0, NULL);
    out(&b, "y", add(&b, t, r));
    check(&b, 1, 1, 0, 1); /* one value: the result; no intermediates */
}

TEST(bias_left_gelu_residual_left)
{
    built b = start();
    rlx_value x = in(&b, "x", 2, (int64_t[]){ M, K });
    rlx_value w = in(&b, "w", 2, (int64_t[]){ K, N });
    rlx_value bi = in(&b, "b", 1, (int64_t[]){ N });
    rlx_value r = in(&b, "r", 2, (int64_t[]){ M, N });
    rlx_value t = add(&b, bi, mm(&b, x, w, 0));
    t = op(&b, RLX_OP_GELU, 1, &t, 1, (int64_t[]){ RLX_GELU_ERF });
    out(&b, "y", add(&b, r, t));
    check(&b, 1, 1, 0, 1);
}

TEST(bias_row_gelu_tanh)
{
    built b = start();
    rlx_value x = in(&b, "x", 2, (int64_t[]){ M, K });
    rlx_value w = in(&b, "w", 2, (int64_t[]){ K, N });
    rlx_value bi = in(&b, "b", 2, (int64_t[]){ 1, N });
    rlx_value t = add(&b, mm(&b, x, w, 0), bi);
    out(&b, "y", op(&b, RLX_OP_GELU, 1, &t, 1, (int64_t[]){ RLX_GELU_TANH }));
    check(&b, 1, 1, 0, 1);
}

TEST(residual_only_and_batched_bias)
{
    built b = start();
    rlx_value x = in(&b, "x", 3, (int64_t[]){ 2, M, K });
    rlx_value w = in(&b, "w", 2, (int64_t[]){ K, N });
    rlx_value r = in(&b, "r", 3, (int64_t[]){ 2, M, N });
    rlx_value bi = in(&b, "b", 1, (int64_t[]){ N });
    out(&b, "y", add(&b, r, mm(&b, x, w, 0)));
    rlx_value t = add(&b, mm(&b, x, w, 0), bi);
    out(&b, "z", op(&b, RLX_OP_RELU, 1, &t, 0, NULL));
    check(&b, 2, 2, 0, 2);
}

/* cpu-openblas.fuse = 0: the same graph, nothing fused, same results */
TEST(setting_turns_fusion_off)
{
    setenv("RLX_CPU_OPENBLAS_FUSE", "0", 1);
    built b = start();
    rlx_value x = in(&b, "x", 2, (int64_t[]){ M, K });
    rlx_value w = in(&b, "w", 2, (int64_t[]){ K, N });
    rlx_value bi = in(&b, "b", 1, (int64_t[]){ N });
    rlx_value t = add(&b, mm(&b, x, w, 0), bi);
    out(&b, "y", op(&b, RLX_OP_RELU, 1, &t, 0, NULL));
    check(&b, 1, 0, 0, 3);
    unsetenv("RLX_CPU_OPENBLAS_FUSE");
}

/* ---- epilogue non-patterns ------------------------------------------ */

TEST(matmul_read_twice_is_not_fused)
{
    built b = start();
    rlx_value x = in(&b, "x", 2, (int64_t[]){ M, K });
    rlx_value w = in(&b, "w", 2, (int64_t[]){ K, N });
    rlx_value bi = in(&b, "b", 1, (int64_t[]){ N });
    rlx_value m = mm(&b, x, w, 0);
    out(&b, "y", add(&b, m, bi));
    out(&b, "z", op(&b, RLX_OP_NEG, 1, &m, 0, NULL));
    check(&b, 2, 0, 0, 3);
}

TEST(intermediate_output_ends_the_chain)
{
    built b = start();
    rlx_value x = in(&b, "x", 2, (int64_t[]){ M, K });
    rlx_value w = in(&b, "w", 2, (int64_t[]){ K, N });
    rlx_value bi = in(&b, "b", 1, (int64_t[]){ N });
    rlx_value r = in(&b, "r", 2, (int64_t[]){ M, N });
    rlx_value t = add(&b, mm(&b, x, w, 0), bi);
    out(&b, "t", t); /* bias folds; relu and residual do not */
    t = op(&b, RLX_OP_RELU, 1, &t, 0, NULL);
    out(&b, "y", add(&b, t, r));
    rlx_value m = mm(&b, x, w, 0); /* a matmul that is an output */
    out(&b, "m", m);
    out(&b, "z", add(&b, m, bi)); /* add(m, bi) stays an add */
    check(&b, 3, 1, 0, 5);
}

TEST(wrong_bias_or_residual_shape_is_not_fused)
{
    built b = start();
    rlx_value x = in(&b, "x", 2, (int64_t[]){ M, K });
    rlx_value w = in(&b, "w", 2, (int64_t[]){ K, N });
    rlx_value col = in(&b, "col", 2, (int64_t[]){ M, 1 });
    rlx_value bi = in(&b, "b", 1, (int64_t[]){ N });
    /* a per-row "bias" broadcasts along rows, not columns */
    out(&b, "y", add(&b, mm(&b, x, w, 0), col));
    /* relu(mm + b) + b: the second add broadcasts, no residual */
    rlx_value t = add(&b, mm(&b, x, w, 0), bi);
    t = op(&b, RLX_OP_RELU, 1, &t, 0, NULL);
    out(&b, "z", add(&b, t, bi));
    check(&b, 2, 1, 0, 4);
}

/* ---- attention -------------------------------------------------------- */

/* The encoder's form: [B, S, H*D] -> reshape [B, S, H, D] -> transpose
 * (0 2 1 3) for q, k, v; scores * scale; softmax; . v; transpose back;
 * reshape [B, S, H*D]. */
static void encoder_attention(int64_t bsz, int64_t s, int64_t h, int64_t d,
                              int causal, int use_div)
{
    built b = start();
    rlx_value x[3];
    const char *nm[3] = { "q", "k", "v" };
    for (int i = 0; i < 3; i++) {
        rlx_value t = in(&b, nm[i], 3, (int64_t[]){ bsz, s, h * d });
        t = op(&b, RLX_OP_RESHAPE, 1, &t, 4, (int64_t[]){ bsz, s, h, d });
        x[i] = op(&b, RLX_OP_TRANSPOSE, 1, &t, 4, (int64_t[]){ 0, 2, 1, 3 });
    }
    float sc = use_div ? sqrtf((float)d) : 1.0f / sqrtf((float)d);
    rlx_value scale;
    ASSERT_OK(rlx_graph_constant(b.g, "scale", RLX_DTYPE_F32, 0, NULL, &sc,
                                 &scale));
    rlx_value t = mm(&b, x[0], x[1], 1);
    t = op(&b, use_div ? RLX_OP_DIV : RLX_OP_MUL, 2,
           (rlx_value[]){ t, scale }, 0, NULL);
    t = op(&b, RLX_OP_SOFTMAX, 1, &t, 2, (int64_t[]){ -1, causal });
    t = mm(&b, t, x[2], 0);
    t = op(&b, RLX_OP_TRANSPOSE, 1, &t, 4, (int64_t[]){ 0, 2, 1, 3 });
    t = op(&b, RLX_OP_RESHAPE, 1, &t, 3, (int64_t[]){ bsz, s, h * d });
    out(&b, "y", t);
    check(&b, 1, 0, 1, 1);
}

TEST(attention_encoder_causal)
{
    encoder_attention(2, 64, 4, 64, 1, 0);
}

TEST(attention_odd_sizes_div)
{
    encoder_attention(1, 7, 3, 9, 0, 1);
    encoder_attention(3, 37, 2, 40, 1, 0);
}

/* Rank 3, no transposes, sq != sk (causal aligns the last rows), a
 * scale on the left, dv != dh. */
TEST(attention_plain_rank3)
{
    built b = start();
    rlx_value q = in(&b, "q", 3, (int64_t[]){ 3, 5, 12 });
    rlx_value k = in(&b, "k", 3, (int64_t[]){ 3, 9, 12 });
    rlx_value v = in(&b, "v", 3, (int64_t[]){ 3, 9, 35 });
    float sc = 0.3f;
    rlx_value scale;
    ASSERT_OK(rlx_graph_constant(b.g, "scale", RLX_DTYPE_F32, 1,
                                 (int64_t[]){ 1 }, &sc, &scale));
    rlx_value t = mm(&b, q, k, 1);
    t = op(&b, RLX_OP_MUL, 2, (rlx_value[]){ scale, t }, 0, NULL);
    t = op(&b, RLX_OP_SOFTMAX, 1, &t, 2, (int64_t[]){ -1, 1 });
    out(&b, "y", mm(&b, t, v, 0));
    check(&b, 1, 0, 1, 1);
}

/* More queries than keys, causal: the first rows see no key at all. */
TEST(attention_causal_more_queries_than_keys)
{
    built b = start();
    rlx_value q = in(&b, "q", 3, (int64_t[]){ 2, 11, 8 });
    rlx_value k = in(&b, "k", 3, (int64_t[]){ 2, 4, 8 });
    rlx_value v = in(&b, "v", 3, (int64_t[]){ 2, 4, 8 });
    rlx_value t = mm(&b, q, k, 1);
    t = op(&b, RLX_OP_SOFTMAX, 1, &t, 2, (int64_t[]){ -1, 1 });
    out(&b, "y", mm(&b, t, v, 0));
    check(&b, 1, 0, 1, 1);
}

TEST(attention_scores_output_is_not_fused)
{
    built b = start();
    rlx_value q = in(&b, "q", 3, (int64_t[]){ 2, 8, 16 });
    rlx_value k = in(&b, "k", 3, (int64_t[]){ 2, 8, 16 });
    rlx_value v = in(&b, "v", 3, (int64_t[]){ 2, 8, 16 });
    rlx_value kt = in(&b, "kt", 3, (int64_t[]){ 2, 16, 8 });
    rlx_value s = mm(&b, q, k, 1);
    rlx_value t = op(&b, RLX_OP_SOFTMAX, 1, &s, 2, (int64_t[]){ -1, 0 });
    out(&b, "y", mm(&b, t, v, 0));
    out(&b, "s", s);
    /* k not transposed (transpose_b = 0): not attention either */
    t = mm(&b, q, kt, 0);
    t = op(&b, RLX_OP_SOFTMAX, 1, &t, 2, (int64_t[]){ -1, 0 });
    out(&b, "z", mm(&b, t, v, 0));
    check(&b, 3, 0, 0, -1);
}

/* The example encoder (examples/transformer): every linear's bias, the
 * feed-forward's gelu and both residual adds fold into 6 matmuls, and
 * the attention into one step (docs/cpu-openblas.md says so). */
TEST(example_encoder_fuses)
{
    const char *ex = getenv("RLX_TEST_EXAMPLES_DIR");
    char model[1024], input[1024], cmd[4096];
    snprintf(model, sizeof model, "%s/transformer/encoder.yaml",
             ex ? ex : ".");
    snprintf(input, sizeof input, "%s/transformer/x.npy", ex ? ex : ".");
    if (!blas_file_exists(model) || !blas_file_exists(input)) {
        printf("# example models not generated: nothing to check\n");
        return;
    }
    snprintf(cmd, sizeof cmd,
             "RLX_LOG=debug RLX_PLUGIN_PATH='%s' '%s' run '%s' --device "
             "cpu-openblas --input 'x=%s' 2>&1", blas_dir(),
             getenv("RLX_TEST_RLX_BIN"), model, input);
    FILE *p = popen(cmd, "r");
    ASSERT(p);
    static char out[65536];
    size_t used = fread(out, 1, sizeof out - 1, p);
    out[used] = '\0';
    ASSERT_EQ(pclose(p), 0);
    ASSERT_CONTAINS(out, "cpu-openblas: fused 6 matmul epilogues and 1 "
                         "attentions");
}

RLX_TEST_LIST(
    TEST_ENTRY(bias_relu_residual),
    TEST_ENTRY(bias_left_gelu_residual_left),
    TEST_ENTRY(bias_row_gelu_tanh),
    TEST_ENTRY(residual_only_and_batched_bias),
    TEST_ENTRY(setting_turns_fusion_off),
    TEST_ENTRY(matmul_read_twice_is_not_fused),
    TEST_ENTRY(intermediate_output_ends_the_chain),
    TEST_ENTRY(wrong_bias_or_residual_shape_is_not_fused),
    TEST_ENTRY(attention_encoder_causal),
    TEST_ENTRY(attention_odd_sizes_div),
    TEST_ENTRY(attention_plain_rank3),
    TEST_ENTRY(attention_causal_more_queries_than_keys),
    TEST_ENTRY(attention_scores_output_is_not_fused),
    TEST_ENTRY(example_encoder_fuses),
)
