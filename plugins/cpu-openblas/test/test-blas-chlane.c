/* test-blas-chlane.c - cpu-openblas's convs with the output channels on
 * the vector lanes (kernels_chlane.c) against cpu-ref: convs of few
 * output pixels (3x3 at stride 1 and 2, 1x1 stride 2, 7x7) over channel
 * counts that are no multiple of 16, 14x14 at stride 2, odd planes,
 * pads, batch, input channels over one K slice, every fused epilogue
 * (batch norm, residual before and after relu, hard_swish), weights set
 * again and as a graph input; which convs take it by default; the
 * setting. */
#include <math.h>

#include "blas-test-util.h"

typedef struct wcase {
    int64_t n, c, h, w, m, pt, pl, pb, pr;
    int64_t kh, kw, s; /* kernel (0: 3) and stride (0: 1) */
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

static built build(const wcase *in)
{
    wcase kk = *in;
    const wcase *k = &kk;
    if (!kk.kh)
        kk.kh = kk.kw = 3;
    if (!kk.s)
        kk.s = 1;
    built b = { 0 };
    ASSERT_OK(rlx_graph_create(&b.g));
    int64_t oh = (k->h + k->pt + k->pb - k->kh) / k->s + 1,
            ow = (k->w + k->pl + k->pr - k->kw) / k->s + 1;
    rlx_value ins[5];
    ins[0] = src(b.g, 0, "x", 4, (int64_t[]){ k->n, k->c, k->h, k->w });
    ins[1] = src(b.g, !k->w_input, "w", 4,
                 (int64_t[]){ k->m, k->c, k->kh, k->kw });
    if (k->bias)
        ins[2] = src(b.g, 1, "b", 1, (int64_t[]){ k->m });
    int64_t at[9] = { 1, k->s, k->s, 1, 1, k->pt, k->pl, k->pb, k->pr };
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
    b.nw = (size_t)(k->m * k->c * k->kh * k->kw);
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

/* The sums run in another order than cpu-ref's: a few 1e-6 of the
 * output's largest magnitude; a wrong tap, pixel or channel is off by far
 * more. */
static void compare(const float *got, const float *want, size_t n,
                    const char *what)
{
    float big = 1.0f;
    for (size_t i = 0; i < n; i++)
        if (fabsf(want[i]) > big)
            big = fabsf(want[i]);
    for (size_t i = 0; i < n; i++)
        if (!(fabsf(got[i] - want[i]) <= 5e-6f * big + 1e-6f * fabsf(want[i])))
            FAIL("%s: element %zu is %.8g, cpu-ref has %.8g (largest %g)",
                 what, i, (double)got[i], (double)want[i], (double)big);
}

/* K on the best variant with SETTING (NULL: unset) and on cpu-ref, twice
 * (weights set again); 1 when the log says the conv ran with the
 * channels on the lanes. Winograd off, so a 3x3 stride-1 conv cannot go
 * there instead. */
static int check(const wcase *k, const char *setting)
{
    built b = build(k);
    rlx_runtime *rt = blas_runtime();
    const char *best = blas_expected_suffix(&(int){ 0 });
    ASSERT_OK(rlx_runtime_load_plugin(rt, blas_variant_path(best)));
    rlx_session *sb = NULL, *sr = NULL;
    static char log[1 << 16];
    setenv("RLX_CPU_OPENBLAS_WINOGRAD", "0", 1);
    if (setting)
        setenv("RLX_CPU_OPENBLAS_CHLANE", setting, 1);
    rlx_program *pb = blas_compile(rt, "cpu-openblas", &sb, b.g, log,
                                   sizeof log);
    unsetenv("RLX_CPU_OPENBLAS_CHLANE");
    unsetenv("RLX_CPU_OPENBLAS_WINOGRAD");
    rlx_program *pr = blas_compile(rt, "cpu-ref", &sr, b.g, NULL, 0);
    int wino = strstr(log, "with channels on the lanes") != NULL;
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
static int has_kernel(void)
{
    return !strcmp(blas_expected_suffix(&(int){ 0 }), "-avx512");
}

/* By default (the setting unset): K must take the kernel. */
static void taken(const wcase *k)
{
    ASSERT_EQ(check(k, NULL), has_kernel());
}

TEST(resnet_7x7_stage_shapes)
{
    /* 3x3 stride 1 pad 1 at 7x7, stride 2 from 14x14, 1x1 stride 2;
     * channels cut down, no multiple of 16 */
    taken(&(wcase){ .n = 1, .c = 70, .h = 7, .w = 7, .m = 83, .pt = 1,
                    .pl = 1, .pb = 1, .pr = 1, .bias = 1, .act = 2 });
    taken(&(wcase){ .n = 1, .c = 37, .h = 14, .w = 14, .m = 64, .pt = 1,
                    .pl = 1, .pb = 1, .pr = 1, .s = 2, .bn = 1, .act = 2 });
    taken(&(wcase){ .n = 1, .c = 65, .h = 14, .w = 14, .m = 97, .kh = 1,
                    .kw = 1, .s = 2, .bn = 1 });
    /* the 14x14 stage: 196 pixels, from 28x28 at stride 2 */
    taken(&(wcase){ .n = 1, .c = 29, .h = 28, .w = 27, .m = 70, .pt = 1,
                    .pl = 1, .pb = 1, .pr = 1, .s = 2, .bias = 1,
                    .res = 1, .act = 2 });
}

TEST(odd_planes_pads_batch)
{
    /* 2 pixels, 5x9 with asymmetric pads, a 7x7 kernel, batch 3 */
    taken(&(wcase){ .n = 1, .c = 9, .h = 1, .w = 2, .m = 64, .pt = 1,
                    .pl = 1, .pb = 1, .pr = 1, .bias = 1 });
    taken(&(wcase){ .n = 3, .c = 11, .h = 5, .w = 9, .m = 70, .pt = 2,
                    .pl = 0, .pb = 0, .pr = 2, .bias = 1 });
    taken(&(wcase){ .n = 2, .c = 3, .h = 13, .w = 11, .m = 66, .kh = 7,
                    .kw = 7, .s = 2, .pt = 3, .pl = 3, .pb = 3, .pr = 3,
                    .bias = 1, .act = 2 });
}

TEST(input_channels_over_one_slice)
{
    /* K = 2700: eleven slices, the next slice prefetched across panels */
    taken(&(wcase){ .n = 1, .c = 300, .h = 6, .w = 7, .m = 130, .pt = 1,
                    .pl = 1, .pb = 1, .pr = 1, .bias = 1 });
}

TEST(fused_epilogues)
{
    wcase k = { .n = 2, .c = 21, .h = 7, .w = 7, .m = 75, .pt = 1,
                .pl = 1, .pb = 1, .pr = 1, .bias = 1, .bn = 1 };
    taken(&k); /* batch norm folded */
    k.act = 2;
    taken(&k); /* relu */
    k.res = 1;
    taken(&k); /* relu(bn(conv) + r): ResNet's */
    k.act = 1;
    taken(&k); /* relu(bn(conv)) + r */
    k.act = 0;
    taken(&k); /* bn(conv) + r */
    k.act = 2;
    k.hswish = 1;
    taken(&k); /* hard_swish(bn(conv) + r): the generic epilogue */
    k.act = 1;
    taken(&k);
}

TEST(weights_as_input)
{
    taken(&(wcase){ .n = 2, .c = 10, .h = 6, .w = 6, .m = 67, .pt = 1,
                    .pl = 1, .pb = 1, .pr = 1, .bias = 1, .w_input = 1,
                    .act = 2 });
}

TEST(random_shapes)
{
    uint32_t s = 777;
    for (int i = 0; i < 12; i++) {
        uint32_t r[11];
        for (int j = 0; j < 11; j++) {
            s = s * 1664525u + 1013904223u;
            r[j] = s >> 16;
        }
        wcase k = { .n = 1 + r[0] % 3, .c = 8 + r[1] % 60,
                    .h = 1 + r[2] % 8, .w = 2 + r[3] % 8,
                    .m = 64 + r[4] % 70, .pt = r[5] % 2, .pl = r[6] % 2,
                    .pb = r[7] % 2, .pr = r[8] % 2, .bias = r[9] & 1,
                    .bn = (r[9] >> 1) & 1, .res = (r[9] >> 2) & 1,
                    .act = (r[9] >> 3) % 3, .kh = 1 + 2 * (r[10] % 2),
                    .s = 1 + (r[10] >> 1) % 2 };
        k.kw = k.kh;
        if (k.h + k.pt + k.pb < k.kh)
            k.pt = k.pb = 1;
        if (k.w + k.pl + k.pr < k.kw)
            k.pl = k.pr = 1;
        fprintf(stderr, "# n %d c %d h %d w %d m %d k %d s %d pads %d %d "
                "%d %d bias %d bn %d res %d act %d\n", (int)k.n, (int)k.c,
                (int)k.h, (int)k.w, (int)k.m, (int)k.kh, (int)k.s,
                (int)k.pt, (int)k.pl, (int)k.pb, (int)k.pr, k.bias, k.bn,
                k.res, k.act);
        /* taken when it fits: 2..196 pixels, not a multiple of 32, K of
         * 64 and up, not pointwise at stride 1 */
        int64_t oh = (k.h + k.pt + k.pb - k.kh) / k.s + 1,
                ow = (k.w + k.pl + k.pr - k.kw) / k.s + 1;
        int64_t px = oh * ow, kk = k.c * k.kh * k.kw;
        int pw = k.kh == 1 && k.s == 1 && !k.pt && !k.pl && !k.pb && !k.pr;
        int fits = px >= 2 && px <= 196 && px % 32 && kk >= 64 && !pw;
        ASSERT_EQ(check(&k, NULL), fits && has_kernel());
    }
}

TEST(default_leaves_other_shapes)
{
    /* many pixels (15x15), few output channels, pointwise, or 0: the
     * gemm paths */
    ASSERT_EQ(check(&(wcase){ .n = 1, .c = 64, .h = 15, .w = 15, .m = 64,
                              .pt = 1, .pl = 1, .pb = 1, .pr = 1 }, NULL),
              0);
    ASSERT_EQ(check(&(wcase){ .n = 1, .c = 64, .h = 7, .w = 7, .m = 40,
                              .pt = 1, .pl = 1, .pb = 1, .pr = 1 }, NULL),
              0);
    ASSERT_EQ(check(&(wcase){ .n = 1, .c = 96, .h = 7, .w = 7, .m = 96,
                              .kh = 1, .kw = 1 }, NULL),
              0);
    ASSERT_EQ(check(&(wcase){ .n = 1, .c = 64, .h = 7, .w = 7, .m = 64,
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
    setenv("RLX_CPU_OPENBLAS_CHLANE", "yes", 1);
    rlx_status st = rlx_session_create(rt, "cpu-openblas", &s);
    if (st == RLX_OK)
        st = rlx_session_compile(s, b.g, &p);
    unsetenv("RLX_CPU_OPENBLAS_CHLANE");
    if (*best) { /* only variants with conv kernels read the setting */
        ASSERT(st != RLX_OK);
        ASSERT(strstr(rlx_last_error(), "cpu-openblas.chlane"));
        ASSERT(strstr(rlx_last_error(), "Fix:"));
    }
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_runtime_destroy(rt);
    rlx_graph_destroy(b.g);
}

RLX_TEST_LIST(TEST_ENTRY(resnet_7x7_stage_shapes),
              TEST_ENTRY(odd_planes_pads_batch),
              TEST_ENTRY(input_channels_over_one_slice),
              TEST_ENTRY(fused_epilogues), TEST_ENTRY(weights_as_input),
              TEST_ENTRY(random_shapes),
              TEST_ENTRY(default_leaves_other_shapes),
              TEST_ENTRY(setting_bad))
