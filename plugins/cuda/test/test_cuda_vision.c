/*
 * test_cuda_vision.c - the vision kernels of the shared GPU code
 * (gk_conv.cu, gk_pool.cu, gk_chnorm.cu) on cuda, each against a
 * float64 reference computed here:
 * - conv 2-d with stride 2, padding, dilation and bias (the implicit
 *   GEMM: 32 output channels a group);
 * - depthwise conv (group = channels: the direct kernel);
 * - conv_transpose 2-d with stride 2, output padding and two groups;
 * - conv with the residual add and relu after it, fused into one step
 *   (gpu_fuse.c): with and without bias and relu, and two convs meeting
 *   at one add (the later one takes the other's result as residual);
 *   each conv on our kernels (RLX_CUDA_CONV=kernel), then through
 *   cuDNN where one is installed (cuda_cudnn.c), then through cuDNN on
 *   channels-last buffers (RLX_CUDA_CONV_LAYOUT=nhwc);
 * - max_pool with ceil mode and avg_pool with count_include_pad;
 * - group_norm.
 * `rlx conformance --backend cuda` checks every op against cpu-ref; this
 * test pins the kernels' paths with shapes that take each of them.
 * Without a GPU it checks that the plugin loads and says why a session
 * cannot start, then skips. Prints TAP.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rlx/rlx.h>

#include "gpu_plugin_check.h"
#include "test_cuda_expect.h"

enum { N = 2, C = 8, H = 13, W = 11 };

static float frand(uint64_t *st)
{
    *st = *st * 6364136223846793005ull + 1442695040888963407ull;
    return (float)((double)(*st >> 11) / 9007199254740992.0 * 2.0 - 1.0);
}

/* One TAP line: the run went through (ST) and the N outputs O are
 * within TOL of REF (max |o - ref| / max |ref|). */
static void report(rlx_status st, const float *o, const double *ref, size_t n,
                   double tol, const char *what)
{
    double e = 0, m = 0;
    for (size_t i = 0; st == RLX_OK && i < n; i++) {
        e = fmax(e, fabs((double)o[i] - ref[i]));
        m = fmax(m, fabs(ref[i]));
    }
    double rel = st != RLX_OK || isnan(e) ? INFINITY : e / fmax(m, 1e-300);
    char detail[256];
    snprintf(detail, sizeof detail, "%s; max rel.err %.2e",
             st == RLX_OK ? "ran" : rlx_last_error(), rel);
    gpu_check(st == RLX_OK && rel < tol, what, detail);
}

/* Runs OP on cuda: x (dims XD) and up to two params w, b (dims WD, BD;
 * rank 0 leaves them out), attributes A; the result (NY floats) into Y. */
static rlx_status run_op(rlx_runtime *rt, rlx_op op, const int64_t *xd,
                         const float *x, uint32_t wr, const int64_t *wd,
                         const float *w, uint32_t br, const int64_t *bd,
                         const float *b, const rlx_attrs *a, float *y,
                         size_t ny)
{
    rlx_graph *g = NULL;
    rlx_session *s = NULL;
    rlx_program *p = NULL;
    rlx_value in[3], out;
    uint32_t n = 1;
    size_t nx = (size_t)(xd[0] * xd[1] * xd[2] * xd[3]), nw = 1, nb = 1;
    for (uint32_t d = 0; d < wr; d++)
        nw *= (size_t)wd[d];
    for (uint32_t d = 0; d < br; d++)
        nb *= (size_t)bd[d];
    rlx_status st = rlx_graph_create(&g);
    if (st == RLX_OK)
        st = rlx_graph_input(g, "x", RLX_DTYPE_F32, 4, xd, &in[0]);
    if (st == RLX_OK && wr)
        st = rlx_graph_param(g, "w", RLX_DTYPE_F32, wr, wd, &in[n++]);
    if (st == RLX_OK && br)
        st = rlx_graph_param(g, "b", RLX_DTYPE_F32, br, bd, &in[n++]);
    if (st == RLX_OK)
        st = rlx_graph_add_node(g, NULL, op, n, in, a, &out);
    if (st == RLX_OK)
        st = rlx_graph_output(g, "y", out);
    if (st == RLX_OK)
        st = rlx_session_create(rt, "cuda", &s);
    if (st == RLX_OK)
        st = rlx_session_compile(s, g, &p);
    if (st == RLX_OK && wr)
        st = rlx_program_set_param(p, "w", w, nw * sizeof(float));
    if (st == RLX_OK && br)
        st = rlx_program_set_param(p, "b", b, nb * sizeof(float));
    if (st == RLX_OK)
        st = rlx_program_set_input(p, "x", x, nx * sizeof(float));
    if (st == RLX_OK)
        st = rlx_program_run(p);
    size_t got = 0;
    const void *data = st == RLX_OK ? rlx_program_output_data(p, 0, &got)
                                    : NULL;
    if (st == RLX_OK && (!data || got != ny * sizeof(float)))
        st = RLX_ERR_SHAPE;
    if (st == RLX_OK)
        memcpy(y, data, got);
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_graph_destroy(g);
    return st;
}

/* conv (TRANSPOSE 0) or conv_transpose reference over x [N, C, H, W]:
 * M output channels, kernel KxK, GROUP groups, stride ST, pad P (both
 * sides), dilation DL, output padding OP; y [N, M, OH, OW]. */
static void ref_conv(int transpose, const float *x, const float *w,
                     const float *b, int m, int k, int group, int st, int p,
                     int dl, int oh, int ow, double *y)
{
    int cg = C / group, mg = m / group;
    for (int n = 0; n < N; n++)
        for (int o = 0; o < m; o++)
            for (int i = 0; i < oh; i++)
                for (int j = 0; j < ow; j++) {
                    int g = o / mg;
                    double acc = b ? b[o] : 0;
                    for (int c = g * cg; c < (g + 1) * cg; c++)
                        for (int u = 0; u < k; u++)
                            for (int v = 0; v < k; v++) {
                                int hi, wi;
                                double wv;
                                if (!transpose) {
                                    hi = i * st - p + u * dl;
                                    wi = j * st - p + v * dl;
                                    wv = w[((o * cg + c - g * cg) * k + u) * k + v];
                                } else {
                                    int th = i + p - u * dl, tw = j + p - v * dl;
                                    if (th < 0 || tw < 0 || th % st || tw % st)
                                        continue;
                                    hi = th / st;
                                    wi = tw / st;
                                    wv = w[((c * mg + o - g * mg) * k + u) * k + v];
                                }
                                if (hi < 0 || hi >= H || wi < 0 || wi >= W)
                                    continue;
                                acc += wv * x[((n * C + c) * H + hi) * W + wi];
                            }
                    y[((n * m + o) * oh + i) * ow + j] = acc;
                }
}

static void check_conv(rlx_runtime *rt, const float *x, int transpose,
                       int m, int k, int group, int st, int p, int dl,
                       int op, const char *what)
{
    int oh = transpose ? st * (H - 1) + op + (k - 1) * dl + 1 - 2 * p
                       : (H + 2 * p - ((k - 1) * dl + 1)) / st + 1;
    int ow = transpose ? st * (W - 1) + op + (k - 1) * dl + 1 - 2 * p
                       : (W + 2 * p - ((k - 1) * dl + 1)) / st + 1;
    int64_t wd[4] = { transpose ? C : m, transpose ? m / group : C / group,
                      k, k };
    int64_t bd[1] = { m };
    size_t nw = (size_t)(wd[0] * wd[1] * k * k), ny = (size_t)N * m * oh * ow;
    float *w = malloc(nw * sizeof *w), *b = malloc((size_t)m * sizeof *b);
    float *y = malloc(ny * sizeof *y);
    double *ref = malloc(ny * sizeof *ref);
    uint64_t seed = 5;
    for (size_t i = 0; w && i < nw; i++)
        w[i] = frand(&seed);
    for (int i = 0; b && i < m; i++)
        b[i] = frand(&seed);
    int64_t ints[1 + 5 * 2] = { group, st, st, dl, dl, p, p, p, p, op, op };
    rlx_attrs a = { transpose ? 11 : 9, ints, 0, NULL };
    rlx_status s = RLX_ERR_OUT_OF_MEMORY;
    if (w && b && y && ref) {
        ref_conv(transpose, x, w, b, m, k, group, st, p, dl, oh, ow, ref);
        s = run_op(rt, transpose ? RLX_OP_CONV_TRANSPOSE : RLX_OP_CONV,
                   (int64_t[]){ N, C, H, W }, x, 4, wd, w, 1, bd, b, &a, y,
                   ny);
    }
    report(s, y, ref, ny, 1e-5, what);
    free(w);
    free(b);
    free(y);
    free(ref);
}

/* The fusable chains of conv 3x3 pad 1 over x (C channels in and out):
 * VARIANT 0: relu(conv(x, w, b) + x); 1: conv(x, w, b) + x; 2:
 * relu(conv(x, w)); 3: relu(conv(x, w, b) + conv(x, w2)). */
static void check_fused(rlx_runtime *rt, const float *x, int variant,
                        const char *what)
{
    enum { NY = N * C * H * W, NW = C * C * 9 };
    static float w[2][NW], b[C], y[NY];
    static double ref[NY], ref2[NY];
    uint64_t seed = 11;
    for (int i = 0; i < NW; i++) {
        w[0][i] = frand(&seed);
        w[1][i] = frand(&seed);
    }
    for (int i = 0; i < C; i++)
        b[i] = frand(&seed);
    int has_bias = variant != 2;
    ref_conv(0, x, w[0], has_bias ? b : NULL, C, 3, 1, 1, 1, 1, H, W, ref);
    if (variant == 3)
        ref_conv(0, x, w[1], NULL, C, 3, 1, 1, 1, 1, H, W, ref2);
    for (int i = 0; i < NY; i++) {
        ref[i] += variant == 3 ? ref2[i] : variant < 2 ? x[i] : 0;
        if (variant != 1 && !(ref[i] > 0))
            ref[i] = 0;
    }
    int64_t xd[4] = { N, C, H, W }, wd[4] = { C, C, 3, 3 }, bd[1] = { C };
    int64_t ints[9] = { 1, 1, 1, 1, 1, 1, 1, 1, 1 };
    rlx_attrs a = { 9, ints, 0, NULL };
    rlx_graph *g = NULL;
    rlx_session *s = NULL;
    rlx_program *p = NULL;
    rlx_value in[3], c1, c2, out;
    rlx_status st = rlx_graph_create(&g);
    if (st == RLX_OK)
        st = rlx_graph_input(g, "x", RLX_DTYPE_F32, 4, xd, &in[0]);
    if (st == RLX_OK)
        st = rlx_graph_param(g, "w", RLX_DTYPE_F32, 4, wd, &in[1]);
    if (st == RLX_OK && has_bias)
        st = rlx_graph_param(g, "b", RLX_DTYPE_F32, 1, bd, &in[2]);
    if (st == RLX_OK)
        st = rlx_graph_add_node(g, NULL, RLX_OP_CONV, has_bias ? 3 : 2, in,
                                &a, &c1);
    out = c1;
    if (st == RLX_OK && variant == 3) {
        rlx_value in2[2] = { in[0], 0 };
        st = rlx_graph_param(g, "w2", RLX_DTYPE_F32, 4, wd, &in2[1]);
        if (st == RLX_OK)
            st = rlx_graph_add_node(g, NULL, RLX_OP_CONV, 2, in2, &a, &c2);
        rlx_value ab[2] = { c1, c2 };
        if (st == RLX_OK)
            st = rlx_graph_add_node(g, NULL, RLX_OP_ADD, 2, ab, NULL, &out);
    } else if (st == RLX_OK && variant < 2) {
        rlx_value ab[2] = { c1, in[0] };
        st = rlx_graph_add_node(g, NULL, RLX_OP_ADD, 2, ab, NULL, &out);
    }
    rlx_value pre = out;
    if (st == RLX_OK && variant != 1)
        st = rlx_graph_add_node(g, NULL, RLX_OP_RELU, 1, &pre, NULL, &out);
    if (st == RLX_OK)
        st = rlx_graph_output(g, "y", out);
    if (st == RLX_OK)
        st = rlx_session_create(rt, "cuda", &s);
    if (st == RLX_OK)
        st = rlx_session_compile(s, g, &p);
    if (st == RLX_OK)
        st = rlx_program_set_param(p, "w", w[0], sizeof w[0]);
    if (st == RLX_OK && has_bias)
        st = rlx_program_set_param(p, "b", b, sizeof b);
    if (st == RLX_OK && variant == 3)
        st = rlx_program_set_param(p, "w2", w[1], sizeof w[1]);
    if (st == RLX_OK)
        st = rlx_program_set_input(p, "x", x, sizeof y);
    if (st == RLX_OK)
        st = rlx_program_run(p);
    size_t got = 0;
    const void *data = st == RLX_OK ? rlx_program_output_data(p, 0, &got)
                                    : NULL;
    if (st == RLX_OK && (!data || got != sizeof y))
        st = RLX_ERR_SHAPE;
    if (st == RLX_OK)
        memcpy(y, data, got);
    report(st, y, ref, NY, 1e-5, what);
    /* the filter param written again: the next run computes with the
     * new one (no filter reordered from the old bytes is kept) */
    ref_conv(0, x, w[1], has_bias ? b : NULL, C, 3, 1, 1, 1, 1, H, W, ref);
    if (variant == 3)
        ref_conv(0, x, w[0], NULL, C, 3, 1, 1, 1, 1, H, W, ref2);
    for (int i = 0; i < NY; i++) {
        ref[i] += variant == 3 ? ref2[i] : variant < 2 ? x[i] : 0;
        if (variant != 1 && !(ref[i] > 0))
            ref[i] = 0;
    }
    if (st == RLX_OK)
        st = rlx_program_set_param(p, "w", w[1], sizeof w[1]);
    if (st == RLX_OK && variant == 3)
        st = rlx_program_set_param(p, "w2", w[0], sizeof w[0]);
    if (st == RLX_OK)
        st = rlx_program_run(p);
    data = st == RLX_OK ? rlx_program_output_data(p, 0, &got) : NULL;
    if (st == RLX_OK && (!data || got != sizeof y))
        st = RLX_ERR_SHAPE;
    if (st == RLX_OK)
        memcpy(y, data, got);
    char again[320];
    snprintf(again, sizeof again, "%s, then with its filter param "
             "written again", what);
    report(st, y, ref, NY, 1e-5, again);
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_graph_destroy(g);
}

/* max_pool 3x3 stride 2 ceil mode, pad 1; avg_pool 3x3 stride 2 pad 1
 * count_include_pad. */
static void check_pools(rlx_runtime *rt, const float *x)
{
    for (int avg = 0; avg < 2; avg++) {
        int oh = avg ? (H + 2 - 3) / 2 + 1 : (H + 2 - 3 + 1) / 2 + 1;
        int ow = avg ? (W + 2 - 3) / 2 + 1 : (W + 2 - 3 + 1) / 2 + 1;
        /* ceil mode drops a last window that starts in the end padding */
        if (!avg && (oh - 1) * 2 >= H + 1)
            oh--;
        if (!avg && (ow - 1) * 2 >= W + 1)
            ow--;
        size_t ny = (size_t)N * C * oh * ow;
        float *y = malloc(ny * sizeof *y);
        double *ref = malloc(ny * sizeof *ref);
        for (size_t o = 0; ref && o < ny; o++) {
            size_t nc = o / (size_t)(oh * ow);
            int i = (int)(o / (size_t)ow % (size_t)oh), j = (int)(o % (size_t)ow);
            double best = -INFINITY, sum = 0;
            int padded = 0;
            for (int u = 0; u < 3; u++)
                for (int v = 0; v < 3; v++) {
                    int hi = i * 2 - 1 + u, wi = j * 2 - 1 + v;
                    padded += hi < H + 1 && wi < W + 1;
                    if (hi < 0 || hi >= H || wi < 0 || wi >= W)
                        continue;
                    double e = x[(nc * H + (size_t)hi) * W + (size_t)wi];
                    best = e > best ? e : best;
                    sum += e;
                }
            ref[o] = avg ? sum / padded : best;
        }
        int64_t ints[3 + 5 * 2] = { avg ? 0 : 1, avg, 2, 3, 3, 2, 2, 1, 1,
                                    1, 1, 1, 1 };
        rlx_attrs a = { 13, ints, 0, NULL };
        rlx_status s = y && ref ? run_op(rt, avg ? RLX_OP_AVG_POOL
                                                 : RLX_OP_MAX_POOL,
                                         (int64_t[]){ N, C, H, W }, x, 0,
                                         NULL, NULL, 0, NULL, NULL, &a, y, ny)
                                : RLX_ERR_OUT_OF_MEMORY;
        report(s, y, ref, ny, 1e-6,
               avg ? "avg_pool 3x3/2 pad 1 count_include_pad matches float64"
                   : "max_pool 3x3/2 pad 1 ceil mode matches float64");
        free(y);
        free(ref);
    }
}

/* group_norm, 4 groups of 2 channels, per-channel scale and bias */
static void check_group_norm(rlx_runtime *rt, const float *x)
{
    enum { G = 4 };
    size_t ny = (size_t)N * C * H * W, len = (size_t)C / G * H * W;
    float sc[C], bi[C];
    uint64_t seed = 9;
    for (int i = 0; i < C; i++) {
        sc[i] = frand(&seed);
        bi[i] = frand(&seed);
    }
    float *y = malloc(ny * sizeof *y);
    double *ref = malloc(ny * sizeof *ref);
    for (size_t ng = 0; ref && ng < (size_t)N * G; ng++) {
        const float *xs = x + ng * len;
        double mean = 0, var = 0;
        for (size_t i = 0; i < len; i++)
            mean += xs[i];
        mean /= (double)len;
        for (size_t i = 0; i < len; i++)
            var += (xs[i] - mean) * (xs[i] - mean);
        var /= (double)len;
        for (size_t i = 0; i < len; i++) {
            size_t c = ng % G * (C / G) + i / (H * W);
            ref[ng * len + i] = (xs[i] - mean) / sqrt(var + 1e-5) * sc[c] +
                                bi[c];
        }
    }
    /* scale and bias as the two params: w = scale, b = bias */
    int64_t ints[1] = { G };
    rlx_attrs a = { 1, ints, 0, NULL };
    rlx_status s = y && ref ? run_op(rt, RLX_OP_GROUP_NORM,
                                     (int64_t[]){ N, C, H, W }, x, 1,
                                     (int64_t[]){ C }, sc, 1,
                                     (int64_t[]){ C }, bi, &a, y, ny)
                            : RLX_ERR_OUT_OF_MEMORY;
    report(s, y, ref, ny, 1e-5, "group_norm, 4 groups, matches float64");
    free(y);
    free(ref);
}

TEST(vision_matches_float64)
{
    GPU_CHECKS_BEGIN();
    setvbuf(stdout, NULL, _IOLBF, 0);
    CUDA_TEST_NEED_GPU();
    rlx_runtime *rt = cuda_test_runtime();
    static float x[N * C * H * W];
    uint64_t seed = 3;
    for (size_t i = 0; i < sizeof x / sizeof x[0]; i++)
        x[i] = frand(&seed);
    /* each conv on our kernels (RLX_CUDA_CONV=kernel), then as the plugin
     * chooses: through cuDNN where a libcudnn is installed */
    for (int mode = 0; mode < 3; mode++) {
        const char *how = mode == 2 ? "channels last (cuDNN where installed)"
                          : mode ? "as chosen (cuDNN where installed)"
                                 : "on our kernels";
        char what[200];
        if (mode)
            unsetenv("RLX_CUDA_CONV");
        else
            setenv("RLX_CUDA_CONV", "kernel", 1);
        if (mode == 2)
            setenv("RLX_CUDA_CONV_LAYOUT", "nhwc", 1);
        snprintf(what, sizeof what, "conv 3x3 stride 2 pad 1 dilation 2 "
                 "with bias, %s, matches float64", how);
        check_conv(rt, x, 0, 32, 3, 1, 2, 1, 2, 0, what);
        snprintf(what, sizeof what, "depthwise conv 3x3 pad 1, %s, "
                 "matches float64", how);
        check_conv(rt, x, 0, C, 3, C, 1, 1, 1, 0, what);
        snprintf(what, sizeof what, "conv_transpose 3x3 stride 2 pad 1 "
                 "output_padding 1, 2 groups, %s, matches float64", how);
        check_conv(rt, x, 1, 6, 3, 2, 2, 1, 1, 1, what);
        static const char *const chains[] = {
            "relu(conv + bias + x)", "conv + bias + x",
            "relu(conv) without bias", "relu(conv + bias + conv)"
        };
        for (int v = 0; v < 4; v++) {
            snprintf(what, sizeof what, "fused %s, %s, matches float64",
                     chains[v], how);
            check_fused(rt, x, v, what);
        }
        unsetenv("RLX_CUDA_CONV_LAYOUT");
    }
    check_pools(rt, x);
    check_group_norm(rt, x);
    rlx_runtime_destroy(rt);
    GPU_CHECKS_END();
}

TEST(without_gpu)
{
    cuda_test_without_gpu();
}

RLX_TEST_LIST(TEST_ENTRY(without_gpu), TEST_ENTRY(vision_matches_float64));
