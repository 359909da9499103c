/* test-blas-convt.c - cpu-openblas's 2-d conv_transpose (kernels_convt.c)
 * against cpu-ref: the detector head's kernel 2 stride 2, overlapping
 * taps (kernel 3 stride 2 with pads and output padding), dilation,
 * stride 1, batch, no bias, and weights set again (the transposed copy
 * must follow); each run on the plugin's own kernel (0 steps through
 * cpu-ref), and groups still go to cpu-ref. */
#include <fcntl.h>
#include <math.h>
#include <unistd.h>

#include "blas-test-util.h"

typedef struct tcase {
    int64_t n, c, h, w, m, kh, kw, sh, sw, dh, dw, pt, pl, pb, pr, oph, opw;
    int64_t group;
    int bias;
} tcase;

typedef struct graph {
    rlx_graph *g;
    size_t nx, nw, ny;
} graph;

static rlx_value source(rlx_graph *g, int param, const char *name,
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

static graph build(const tcase *k)
{
    graph b = { 0 };
    ASSERT_OK(rlx_graph_create(&b.g));
    int64_t oh = k->sh * (k->h - 1) + k->oph + (k->kh - 1) * k->dh + 1 -
                 k->pt - k->pb;
    int64_t ow = k->sw * (k->w - 1) + k->opw + (k->kw - 1) * k->dw + 1 -
                 k->pl - k->pr;
    rlx_value in[3];
    in[0] = source(b.g, 0, "x", 4, (int64_t[]){ k->n, k->c, k->h, k->w });
    in[1] = source(b.g, 1, "w", 4,
                   (int64_t[]){ k->c, k->m / k->group, k->kh, k->kw });
    if (k->bias)
        in[2] = source(b.g, 1, "b", 1, (int64_t[]){ k->m });
    int64_t at[11] = { k->group, k->sh, k->sw, k->dh, k->dw, k->pt,
                       k->pl, k->pb, k->pr, k->oph, k->opw };
    rlx_attrs a = { .n_ints = 11, .ints = at };
    rlx_value y;
    if (rlx_graph_add_node(b.g, "up", RLX_OP_CONV_TRANSPOSE,
                           k->bias ? 3 : 2, in, &a, &y) != RLX_OK)
        FAIL("conv_transpose: %s", rlx_last_error());
    ASSERT_OK(rlx_graph_output(b.g, "y", y));
    b.nx = (size_t)(k->n * k->c * k->h * k->w);
    b.nw = (size_t)(k->c * (k->m / k->group) * k->kh * k->kw);
    b.ny = (size_t)(k->n * k->m * oh * ow);
    return b;
}

static float *fill(size_t n, double seed, double scale)
{
    float *v = malloc((n ? n : 1) * sizeof *v);
    ASSERT(v);
    for (size_t i = 0; i < n; i++)
        v[i] = (float)(sin(0.7311 * (double)i + seed) * scale);
    return v;
}

static void set_all(rlx_program *p, const tcase *k, const graph *b,
                    double wseed)
{
    float *x = fill(b->nx, 0.3, 1.0), *w = fill(b->nw, wseed, 0.5);
    float *bv = fill((size_t)k->m, 2.1 + wseed, 0.3);
    ASSERT_OK(rlx_program_set_input(p, "x", x, b->nx * sizeof *x));
    ASSERT_OK(rlx_program_set_param(p, "w", w, b->nw * sizeof *w));
    if (k->bias)
        ASSERT_OK(rlx_program_set_param(p, "b", bv,
                                        (size_t)k->m * sizeof *bv));
    free(x);
    free(w);
    free(bv);
}

/* K on the best variant and on cpu-ref, with two sets of weights; the
 * plugin's own kernel when OWN (else cpu-ref's through the plugin). */
static void check(const tcase *k, int own)
{
    graph b = build(k);
    rlx_runtime *rt = blas_runtime();
    const char *best = blas_expected_suffix(&(int){ 0 });
    ASSERT_OK(rlx_runtime_load_plugin(rt, blas_variant_path(best)));
    rlx_session *sb = NULL, *sr = NULL;
    static char log[1 << 16];
    rlx_program *pb = blas_compile(rt, "cpu-openblas", &sb, b.g,
                                   log, sizeof log);
    rlx_program *pr = blas_compile(rt, "cpu-ref", &sr, b.g, NULL, 0);
    if (*best) /* the portable variant has no sgemm: always cpu-ref */
        ASSERT_CONTAINS(log, own ? " 0 through cpu-ref"
                                 : " 1 through cpu-ref");
    for (int round = 0; round < 2; round++) {
        double wseed = round ? 5.5 : 1.7;
        set_all(pb, k, &b, wseed);
        set_all(pr, k, &b, wseed);
        ASSERT_OK(rlx_program_run(pb));
        if (round == 0) /* twice on the same weights: the cached copy */
            ASSERT_OK(rlx_program_run(pb));
        ASSERT_OK(rlx_program_run(pr));
        float *got = blas_output(pb, b.ny), *want = blas_output(pr, b.ny);
        for (size_t i = 0; i < b.ny; i++)
            if (!(fabsf(got[i] - want[i]) <=
                  1e-4f + 1e-4f * fabsf(want[i])))
                FAIL("%s: element %zu is %.8g, cpu-ref has %.8g",
                     round ? "weights set again" : "first", i,
                     (double)got[i], (double)want[i]);
        free(got);
        free(want);
    }
    rlx_program_destroy(pb);
    rlx_program_destroy(pr);
    rlx_session_destroy(sb);
    rlx_session_destroy(sr);
    rlx_runtime_destroy(rt);
    rlx_graph_destroy(b.g);
}

/* strides, dilations and group left 0 mean 1 */
static const tcase *norm(tcase k)
{
    static tcase t;
    t = k;
    t.n = t.n ? t.n : 1;
    t.sh = t.sh ? t.sh : 1;
    t.sw = t.sw ? t.sw : 1;
    t.dh = t.dh ? t.dh : 1;
    t.dw = t.dw ? t.dw : 1;
    t.group = t.group ? t.group : 1;
    return &t;
}
#define TC(...) (norm((tcase){ __VA_ARGS__ }))

TEST(k2_s2_detector_head)
{
    check(TC(.c = 24, .h = 10, .w = 13, .m = 12, .kh = 2, .kw = 2,
             .sh = 2, .sw = 2, .bias = 1), 1);
}

TEST(k2_s2_batch_no_bias)
{
    check(TC(.n = 3, .c = 5, .h = 7, .w = 6, .m = 9, .kh = 2, .kw = 2,
             .sh = 2, .sw = 2), 1);
}

TEST(k3_s2_overlap_pads_output_padding)
{
    check(TC(.n = 2, .c = 7, .h = 9, .w = 11, .m = 6, .kh = 3, .kw = 3,
             .sh = 2, .sw = 2, .pt = 1, .pl = 1, .pb = 1, .pr = 1,
             .oph = 1, .opw = 1, .bias = 1), 1);
}

TEST(asymmetric_kernel_stride_dilation_pads)
{
    check(TC(.c = 4, .h = 6, .w = 8, .m = 5, .kh = 3, .kw = 2, .sh = 1,
             .sw = 3, .dh = 2, .dw = 1, .pt = 2, .pl = 0, .pb = 1, .pr = 2,
             .bias = 1), 1);
}

TEST(stride_1_large_pads_and_many_channels)
{
    check(TC(.c = 70, .h = 12, .w = 9, .m = 33, .kh = 4, .kw = 4,
             .pt = 3, .pl = 2, .pb = 3, .pr = 2, .bias = 1), 1);
}

TEST(groups_go_to_cpu_ref)
{
    check(TC(.c = 4, .h = 5, .w = 5, .m = 6, .kh = 2, .kw = 2, .sh = 2,
             .sw = 2, .group = 2, .bias = 1), 0);
}

RLX_TEST_LIST(
    TEST_ENTRY(k2_s2_detector_head),
    TEST_ENTRY(k2_s2_batch_no_bias),
    TEST_ENTRY(k3_s2_overlap_pads_output_padding),
    TEST_ENTRY(asymmetric_kernel_stride_dilation_pads),
    TEST_ENTRY(stride_1_large_pads_and_many_channels),
    TEST_ENTRY(groups_go_to_cpu_ref),
)
