/* test-blas-winograd.c - cpu-openblas's Winograd F(4x4, 3x3) kernel
 * (kernels_wino.c) against cpu-ref: 3x3 stride-1 convs forced onto it
 * with cpu-openblas.winograd=1 over random shapes (channels that are no
 * multiple of 16, odd and tiny planes, batch, pads 0 to 2 on each side,
 * input channels over one K slice), every fused epilogue (batch norm,
 * residual before and after relu, hard_swish), weights set again and as
 * a graph input; which convs the default picks by shape; the setting. */
#include <math.h>

#include "blas-test-util.h"

typedef struct wcase {
    int64_t n, c, h, w, m, pt, pl, pb, pr;
    int bias, bn, res, act; /* act: 0 none, 1 before res, 2 after res */
    int hswish;             /* the activation hard_swish, not relu */
    int w_input;            /* weights a graph input */
} wcase;

typedef struct built {
    rlx_graph *g;
    size_t nx, nw, ny;
} built;

static rlx_value add(rlx_graph *g, rlx_op o, uint32_t n, rlx_value *ins,
                     uint32_t n_ints, const int64_t *ints, double eps)
{
    rlx_value v;
    rlx_attrs at = { .n_ints = n_ints, .ints = ints, .n_floats = eps > 0,
                     .floats = &eps };
    if (rlx_graph_add_node(g, NULL, o, n, ins,
                           n_ints || eps > 0 ? &at : NULL, &v) != RLX_OK)
        FAIL("node: %s", rlx_last_error());
    return v;
}

static rlx_value src(rlx_graph *g, int param, const char *name,
                     uint32_t rank, const int64_t *dims)
{
    rlx_value v;
    rlx_status st = param ? rlx_graph_param(g, name, RLX_DTYPE_F32, rank,
                                            dims, &v)
                          : rlx_graph_input(g, name, RLX_DTYPE_F32, rank,
                                            dims, &v);
    if (st != RLX_OK)
        FAIL("source %s: %s", name, rlx_last_error());
    return v;
}

static rlx_value act(rlx_graph *g, const wcase *k, rlx_value y)
{
    return add(g, k->hswish ? RLX_OP_HARD_SWISH : RLX_OP_RELU, 1, &y, 0,
               NULL, 0);
}

static built build(const wcase *k)
{
    built b = { 0 };
    ASSERT_OK(rlx_graph_create(&b.g));
    int64_t oh = k->h + k->pt + k->pb - 2, ow = k->w + k->pl + k->pr - 2;
    rlx_value ins[5];
    ins[0] = src(b.g, 0, "x", 4, (int64_t[]){ k->n, k->c, k->h, k->w });
    ins[1] = src(b.g, !k->w_input, "w", 4,
                 (int64_t[]){ k->m, k->c, 3, 3 });
    if (k->bias)
        ins[2] = src(b.g, 1, "b", 1, (int64_t[]){ k->m });
    int64_t at[9] = { 1, 1, 1, 1, 1, k->pt, k->pl, k->pb, k->pr };
    rlx_value y = add(b.g, RLX_OP_CONV, k->bias ? 3 : 2, ins, 9, at, 0);
    if (k->bn) {
        static const char *const nm[4] = { "s", "bb", "mu", "var" };
        ins[0] = y;
        for (int i = 0; i < 4; i++)
            ins[1 + i] = src(b.g, 1, nm[i], 1, (int64_t[]){ k->m });
        y = add(b.g, RLX_OP_BATCH_NORM, 5, ins, 0, NULL, 1e-3);
    }
    if (k->act == 1)
        y = act(b.g, k, y);
    if (k->res) {
        ins[0] = src(b.g, 0, "r", 4, (int64_t[]){ k->n, k->m, oh, ow });
        ins[1] = y;
        y = add(b.g, RLX_OP_ADD, 2, ins, 0, NULL, 0);
    }
    if (k->act == 2)
        y = act(b.g, k, y);
    ASSERT_OK(rlx_graph_output(b.g, "y", y));
    b.nx = (size_t)(k->n * k->c * k->h * k->w);
    b.nw = (size_t)(k->m * k->c * 9);
    b.ny = (size_t)(k->n * k->m * oh * ow);
    return b;
}

/* Uniform in [lo, hi) from a small LCG (the same values every run). */
static float *fill(size_t n, uint32_t seed, float lo, float hi)
{
    float *v = malloc((n ? n : 1) * sizeof *v);
    ASSERT(v);
    for (size_t i = 0; i < n; i++) {
        seed = seed * 1664525u + 1013904223u;
        v[i] = lo + (hi - lo) * (float)(seed >> 8) / (float)(1u << 24);
    }
    return v;
}

static void set(rlx_program *p, const char *name, int param, float *v,
                size_t n)
{
    rlx_status st = param ? rlx_program_set_param(p, name, v, n * sizeof *v)
                          : rlx_program_set_input(p, name, v, n * sizeof *v);
    if (st != RLX_OK)
        FAIL("set %s: %s", name, rlx_last_error());
    free(v);
}

static void set_all(rlx_program *p, const wcase *k, const built *b,
                    uint32_t seed)
{
    size_t m = (size_t)k->m;
    set(p, "x", 0, fill(b->nx, 1, -1.0f, 1.0f), b->nx);
    set(p, "w", !k->w_input, fill(b->nw, seed, -0.5f, 0.5f), b->nw);
    if (k->bias)
        set(p, "b", 1, fill(m, seed + 1, -0.3f, 0.3f), m);
    if (k->bn) {
        set(p, "s", 1, fill(m, seed + 2, 0.5f, 1.5f), m);
        set(p, "bb", 1, fill(m, seed + 3, -0.5f, 0.5f), m);
        set(p, "mu", 1, fill(m, seed + 4, -0.2f, 0.2f), m);
        set(p, "var", 1, fill(m, seed + 5, 0.3f, 1.3f), m);
    }
    if (k->res)
        set(p, "r", 0, fill(b->ny, 7, -1.0f, 1.0f), b->ny);
}

/* Within what the conformance and torchvision checks allow: a few 1e-5
 * of the output's largest magnitude (Winograd rounds differently from
 * the direct sum); a wrong tap or tile is off by far more. */
static void compare(const float *got, const float *want, size_t n,
                    const char *what)
{
    float big = 1.0f;
    for (size_t i = 0; i < n; i++)
        if (fabsf(want[i]) > big)
            big = fabsf(want[i]);
    for (size_t i = 0; i < n; i++)
        if (!(fabsf(got[i] - want[i]) <= 2e-5f * big + 1e-5f * fabsf(want[i])))
            FAIL("%s: element %zu is %.8g, cpu-ref has %.8g (largest %g)",
                 what, i, (double)got[i], (double)want[i], (double)big);
}

/* K on the best variant with SETTING (NULL: unset) and on cpu-ref, twice
 * (weights set again); 1 when the log says the conv ran by Winograd. */
static int check(const wcase *k, const char *setting)
{
    built b = build(k);
    rlx_runtime *rt = blas_runtime();
    const char *best = blas_expected_suffix(&(int){ 0 });
    ASSERT_OK(rlx_runtime_load_plugin(rt, blas_variant_path(best)));
    rlx_session *sb = NULL, *sr = NULL;
    static char log[1 << 16];
    if (setting)
        setenv("RLX_CPU_OPENBLAS_WINOGRAD", setting, 1);
    rlx_program *pb = blas_compile(rt, "cpu-openblas", &sb, b.g, log,
                                   sizeof log);
    unsetenv("RLX_CPU_OPENBLAS_WINOGRAD");
    rlx_program *pr = blas_compile(rt, "cpu-ref", &sr, b.g, NULL, 0);
    int wino = strstr(log, "by Winograd F(4x4, 3x3)") != NULL;
    if (*best) /* every step on the plugin's own kernels */
        ASSERT(strstr(log, " 0 through cpu-ref"));
    for (int round = 0; round < 2; round++) {
        uint32_t seed = round ? 99 : 3;
        set_all(pb, k, &b, seed);
        set_all(pr, k, &b, seed);
        ASSERT_OK(rlx_program_run(pb));
        if (round == 0) /* twice on the same (packed) weights */
            ASSERT_OK(rlx_program_run(pb));
        ASSERT_OK(rlx_program_run(pr));
        float *got = blas_output(pb, b.ny), *want = blas_output(pr, b.ny);
        compare(got, want, b.ny, round ? "weights set again" : "first");
        free(got);
        free(want);
    }
    rlx_program_destroy(pb);
    rlx_program_destroy(pr);
    rlx_session_destroy(sb);
    rlx_session_destroy(sr);
    rlx_runtime_destroy(rt);
    rlx_graph_destroy(b.g);
    return wino;
}

/* Only the AVX-512 variant has the kernel: elsewhere the same convs
 * still match cpu-ref, by im2col. */
static int has_wino(void)
{
    return !strcmp(blas_expected_suffix(&(int){ 0 }), "-avx512");
}

static void forced(const wcase *k)
{
    ASSERT_EQ(check(k, "1"), has_wino());
}

TEST(odd_small_planes)
{
    /* planes smaller than one tile, one tile row, odd sizes */
    forced(&(wcase){ .n = 1, .c = 3, .h = 1, .w = 1, .m = 5, .pt = 1,
                     .pl = 1, .pb = 1, .pr = 1, .bias = 1 });
    forced(&(wcase){ .n = 2, .c = 5, .h = 3, .w = 7, .m = 7, .pt = 1,
                     .pl = 1, .pb = 1, .pr = 1, .bias = 1 });
    forced(&(wcase){ .n = 1, .c = 7, .h = 9, .w = 11, .m = 13, .pt = 1,
                     .pl = 1, .pb = 1, .pr = 1 });
}

TEST(pads_zero_to_two_asymmetric)
{
    forced(&(wcase){ .n = 1, .c = 6, .h = 10, .w = 9, .m = 9 }); /* valid */
    forced(&(wcase){ .n = 2, .c = 4, .h = 8, .w = 13, .m = 6, .pt = 2,
                     .pl = 0, .pb = 0, .pr = 2, .bias = 1 });
    forced(&(wcase){ .n = 1, .c = 9, .h = 11, .w = 5, .m = 4, .pt = 0,
                     .pl = 2, .pb = 1, .pr = 0 });
}

TEST(many_panels_segments_cross_halves)
{
    /* 14 tile columns: tile rows straddle the 16-tile halves and the
     * 32-tile panels; batch 3 crosses images inside a panel */
    forced(&(wcase){ .n = 3, .c = 17, .h = 23, .w = 54, .m = 19, .pt = 1,
                     .pl = 1, .pb = 1, .pr = 1, .bias = 1 });
    forced(&(wcase){ .n = 2, .c = 33, .h = 29, .w = 31, .m = 40, .pt = 1,
                     .pl = 1, .pb = 1, .pr = 1, .bias = 1, .act = 2 });
}

TEST(input_channels_over_one_slice)
{
    forced(&(wcase){ .n = 1, .c = 300, .h = 6, .w = 7, .m = 13, .pt = 1,
                     .pl = 1, .pb = 1, .pr = 1, .bias = 1 });
}

TEST(fused_epilogues)
{
    wcase k = { .n = 2, .c = 21, .h = 15, .w = 18, .m = 27, .pt = 1,
                .pl = 1, .pb = 1, .pr = 1, .bias = 1, .bn = 1 };
    forced(&k); /* batch norm folded */
    k.act = 2;
    forced(&k); /* relu */
    k.res = 1;
    forced(&k); /* relu(bn(conv) + r): ResNet's */
    k.act = 1;
    forced(&k); /* relu(bn(conv)) + r */
    k.act = 0;
    forced(&k); /* bn(conv) + r */
    k.act = 2;
    k.hswish = 1;
    forced(&k); /* hard_swish(bn(conv) + r): the generic epilogue */
    k.act = 1;
    forced(&k);
}

TEST(weights_as_input)
{
    forced(&(wcase){ .n = 2, .c = 10, .h = 12, .w = 12, .m = 11, .pt = 1,
                     .pl = 1, .pb = 1, .pr = 1, .bias = 1, .w_input = 1,
                     .act = 2 });
}

TEST(random_shapes)
{
    uint32_t s = 12345;
    for (int i = 0; i < 12; i++) {
        uint32_t r[10];
        for (int j = 0; j < 10; j++) {
            s = s * 1664525u + 1013904223u;
            r[j] = s >> 16;
        }
        wcase k = { .n = 1 + r[0] % 3, .c = 1 + r[1] % 40,
                    .h = 1 + r[2] % 30, .w = 1 + r[3] % 40,
                    .m = 1 + r[4] % 45, .pt = r[5] % 3, .pl = r[6] % 3,
                    .pb = r[7] % 3, .pr = r[8] % 3, .bias = r[9] & 1,
                    .bn = (r[9] >> 1) & 1, .res = (r[9] >> 2) & 1,
                    .act = (r[9] >> 3) % 3 };
        if (k.h + k.pt + k.pb < 3)
            k.pt = k.pb = 1;
        if (k.w + k.pl + k.pr < 3)
            k.pl = k.pr = 1;
        fprintf(stderr, "# n %d c %d h %d w %d m %d pads %d %d %d %d "
                "bias %d bn %d res %d act %d\n", (int)k.n, (int)k.c,
                (int)k.h, (int)k.w, (int)k.m, (int)k.pt, (int)k.pl,
                (int)k.pb, (int)k.pr, k.bias, k.bn, k.res, k.act);
        forced(&k);
    }
}

TEST(default_picks_by_shape)
{
    /* ResNet-18's first stage: many tiles, 64 channels: Winograd */
    ASSERT_EQ(check(&(wcase){ .n = 1, .c = 64, .h = 56, .w = 56, .m = 64,
                              .pt = 1, .pl = 1, .pb = 1, .pr = 1,
                              .bias = 1, .act = 2 }, NULL),
              has_wino());
    /* few channels, or a 2x2-tile plane at batch 1: im2col */
    ASSERT_EQ(check(&(wcase){ .n = 1, .c = 3, .h = 32, .w = 32, .m = 8,
                              .pt = 1, .pl = 1, .pb = 1, .pr = 1 }, NULL),
              0);
    ASSERT_EQ(check(&(wcase){ .n = 1, .c = 64, .h = 7, .w = 7, .m = 64,
                              .pt = 1, .pl = 1, .pb = 1, .pr = 1 }, NULL),
              0);
    /* and 0 turns it off where it would pay */
    ASSERT_EQ(check(&(wcase){ .n = 1, .c = 32, .h = 40, .w = 40, .m = 32,
                              .pt = 1, .pl = 1, .pb = 1, .pr = 1 }, "0"),
              0);
}

TEST(setting_bad)
{
    wcase k = { .n = 1, .c = 4, .h = 6, .w = 6, .m = 4, .pt = 1, .pl = 1,
                .pb = 1, .pr = 1 };
    built b = build(&k);
    rlx_runtime *rt = blas_runtime();
    const char *best = blas_expected_suffix(&(int){ 0 });
    ASSERT_OK(rlx_runtime_load_plugin(rt, blas_variant_path(best)));
    rlx_session *s = NULL;
    rlx_program *p = NULL;
    setenv("RLX_CPU_OPENBLAS_WINOGRAD", "yes", 1);
    rlx_status st = rlx_session_create(rt, "cpu-openblas", &s);
    if (st == RLX_OK)
        st = rlx_session_compile(s, b.g, &p);
    unsetenv("RLX_CPU_OPENBLAS_WINOGRAD");
    if (*best) { /* only variants with conv kernels read the setting */
        ASSERT(st != RLX_OK);
        ASSERT(strstr(rlx_last_error(), "cpu-openblas.winograd"));
        ASSERT(strstr(rlx_last_error(), "Fix:"));
    }
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_runtime_destroy(rt);
    rlx_graph_destroy(b.g);
}

RLX_TEST_LIST(TEST_ENTRY(odd_small_planes),
              TEST_ENTRY(pads_zero_to_two_asymmetric),
              TEST_ENTRY(many_panels_segments_cross_halves),
              TEST_ENTRY(input_channels_over_one_slice),
              TEST_ENTRY(fused_epilogues), TEST_ENTRY(weights_as_input),
              TEST_ENTRY(random_shapes), TEST_ENTRY(default_picks_by_shape),
              TEST_ENTRY(setting_bad))
