/*
 * test-blas-scale.c - squeeze-excite's channel scale fused into the
 * pointwise conv that reads it (fuse.c, kernels_conv.c): conv1x1(x *
 * sigmoid(g)) with g [n, c, 1, 1], against cpu-ref, with the compile log
 * saying whether the mul was folded into the conv's weights.
 */
#include <math.h>

#include "blas-test-util.h"

typedef struct scale_case {
    int64_t n, c, h, w, m;
    int bias, res;  /* a bias; a residual added after the conv */
    int x_output;   /* the mul's result is also a graph output */
    int gate_first; /* mul(gate, x) rather than mul(x, gate) */
} scale_case;

static rlx_value op(rlx_graph *g, rlx_op o, uint32_t n, const rlx_value *in,
                    uint32_t n_ints, const int64_t *ints)
{
    rlx_value v, copy[3];
    memcpy(copy, in, n * sizeof *in);
    rlx_attrs at = { .n_ints = n_ints, .ints = ints };
    if (rlx_graph_add_node(g, NULL, o, n, copy, n_ints ? &at : NULL, &v) !=
        RLX_OK)
        FAIL("node: %s", rlx_last_error());
    return v;
}

static rlx_graph *build(const scale_case *k)
{
    rlx_graph *g = NULL;
    ASSERT_OK(rlx_graph_create(&g));
    rlx_value x, gt, w, b, r;
    ASSERT_OK(rlx_graph_input(g, "x", RLX_DTYPE_F32, 4,
                              (int64_t[]){ k->n, k->c, k->h, k->w }, &x));
    ASSERT_OK(rlx_graph_input(g, "g", RLX_DTYPE_F32, 4,
                              (int64_t[]){ k->n, k->c, 1, 1 }, &gt));
    ASSERT_OK(rlx_graph_param(g, "w", RLX_DTYPE_F32, 4,
                              (int64_t[]){ k->m, k->c, 1, 1 }, &w));
    ASSERT_OK(rlx_graph_param(g, "b", RLX_DTYPE_F32, 1,
                              (int64_t[]){ k->m }, &b));
    ASSERT_OK(rlx_graph_input(g, "r", RLX_DTYPE_F32, 4,
                              (int64_t[]){ k->n, k->m, k->h, k->w }, &r));
    rlx_value gate = op(g, RLX_OP_SIGMOID, 1, &gt, 0, NULL);
    rlx_value xs = k->gate_first
                       ? op(g, RLX_OP_MUL, 2, (rlx_value[]){ gate, x }, 0,
                            NULL)
                       : op(g, RLX_OP_MUL, 2, (rlx_value[]){ x, gate }, 0,
                            NULL);
    int64_t at[9] = { 1, 1, 1, 1, 1, 0, 0, 0, 0 };
    rlx_value y = op(g, RLX_OP_CONV, k->bias ? 3 : 2,
                     (rlx_value[]){ xs, w, b }, 9, at);
    if (k->res)
        y = op(g, RLX_OP_ADD, 2, (rlx_value[]){ y, r }, 0, NULL);
    ASSERT_OK(rlx_graph_output(g, "y", y));
    if (k->x_output)
        ASSERT_OK(rlx_graph_output(g, "xs", xs));
    return g;
}

static float *fill(size_t n, double seed, double scale)
{
    float *v = malloc((n ? n : 1) * sizeof *v);
    ASSERT(v);
    for (size_t i = 0; i < n; i++)
        v[i] = (float)(sin(0.7311 * (double)i + seed) * scale);
    return v;
}

static void set(rlx_program *p, const char *name, int param, size_t n,
                double seed, double scale)
{
    float *v = fill(n, seed, scale);
    ASSERT_OK(param ? rlx_program_set_param(p, name, v, n * sizeof *v)
                    : rlx_program_set_input(p, name, v, n * sizeof *v));
    free(v);
}

/* K on variant SUFFIX and on cpu-ref, over two runs with other gates
 * (the scaled weights are made per run); FUSED: the log must say the
 * scale was folded (when the variant has conv kernels). */
static void check_on(const char *suffix, const scale_case *k, int fused)
{
    rlx_graph *g = build(k);
    rlx_runtime *rt = blas_runtime();
    const char *best = suffix;
    ASSERT_OK(rlx_runtime_load_plugin(rt, blas_variant_path(best)));
    rlx_session *sb = NULL, *sr = NULL;
    static char log[1 << 16];
    rlx_program *pb = blas_compile(rt, "cpu-openblas", &sb, g, log,
                                   sizeof log);
    rlx_program *pr = blas_compile(rt, "cpu-ref", &sr, g, NULL, 0);
    if (*best)
        ASSERT_EQ(strstr(log, "fused 1 channel scales into convs") != NULL,
                  fused);
    size_t nx = (size_t)(k->n * k->c * k->h * k->w);
    size_t ny = (size_t)(k->n * k->m * k->h * k->w);
    for (int round = 0; round < 2; round++) {
        rlx_program *both[2] = { pb, pr };
        for (int i = 0; i < 2; i++) {
            set(both[i], "x", 0, nx, 0.3, 1.0);
            set(both[i], "g", 0, (size_t)(k->n * k->c), 1.1 + round, 3.0);
            set(both[i], "w", 1, (size_t)(k->m * k->c), 2.3, 0.5);
            set(both[i], "b", 1, (size_t)k->m, 0.9, 0.3);
            set(both[i], "r", 0, ny, 4.2, 1.0);
            ASSERT_OK(rlx_program_run(both[i]));
        }
        float *got = blas_output(pb, ny), *want = blas_output(pr, ny);
        for (size_t i = 0; i < ny; i++)
            if (!(fabsf(got[i] - want[i]) <= 1e-4f + 1e-4f * fabsf(want[i])))
                FAIL("round %d: element %zu is %.8g, cpu-ref has %.8g",
                     round, i, (double)got[i], (double)want[i]);
        free(got);
        free(want);
    }
    rlx_program_destroy(pb);
    rlx_program_destroy(pr);
    rlx_session_destroy(sb);
    rlx_session_destroy(sr);
    rlx_runtime_destroy(rt);
    rlx_graph_destroy(g);
}

/* K on the best variant, and on the AVX2 one too when that is not the
 * best and this CPU runs it (its conv takes the scaled weights through
 * the im2col path). */
static void check(const scale_case *k, int fused)
{
    const char *best = blas_expected_suffix(&(int){ 0 });
    check_on(best, k, fused);
    __builtin_cpu_init();
    if (strcmp(best, "-avx2") && *best &&
        __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
        blas_file_exists(blas_variant_path("-avx2")))
        check_on("-avx2", k, fused);
}

TEST(scale_folded_into_pointwise_conv)
{
    /* EfficientNet's projection after squeeze-excite: batch 2 (each
     * image its own gate), a K over several slices, M of one and a half
     * weight tiles, an output row count that is not whole panels */
    check(&(scale_case){ .n = 2, .c = 300, .h = 9, .w = 11, .m = 24,
                         .bias = 1 }, 1);
    check(&(scale_case){ .n = 1, .c = 40, .h = 14, .w = 14, .m = 40,
                         .gate_first = 1, .res = 1 }, 1);
}

TEST(scale_not_folded_when_weights_are_larger)
{
    /* M above the output pixels: scaling the weights costs more than the
     * mul, which stays */
    check(&(scale_case){ .n = 2, .c = 48, .h = 3, .w = 3, .m = 16,
                         .bias = 1 }, 0);
}

TEST(scale_not_folded_when_mul_is_an_output)
{
    check(&(scale_case){ .n = 1, .c = 16, .h = 8, .w = 8, .m = 8,
                         .x_output = 1 }, 0);
}

RLX_TEST_LIST(TEST_ENTRY(scale_folded_into_pointwise_conv),
              TEST_ENTRY(scale_not_folded_when_weights_are_larger),
              TEST_ENTRY(scale_not_folded_when_mul_is_an_output))
