/*
 * test-vulkan-vision.c - checks the Vulkan shaders of the ABI 1.4 ops
 * where `rlx conformance` (small random cases) does not reach: each path
 * of the convolution planner (the implicit GEMM with ragged and
 * multi-tile sizes, groups, and the direct form for depthwise and
 * transposed convolutions, 1-d to 3-d) and 3-d pools against cpu-ref,
 * scatter duplicates resolved in order, indices out of range failing
 * the run, and non_zero's columns. On test/harness.h; skipped when no
 * Vulkan device exists.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rlx/rlx.h>

#include "harness.h"

/* A failed check ends its test case, naming the check and rlx's error. */
static void ok(int cond, const char *what)
{
    if (!cond)
        FAIL("%s (last error: %s)", what, rlx_last_error());
}

/* One op node over up to 3 inputs; input J is f32 random data unless
 * DATA[J] is given (then of dtype TYPES[J]). */
typedef struct op_case {
    rlx_op op;
    uint32_t n_in;
    uint32_t rank[3];
    int64_t shape[3][5];
    rlx_dtype types[3];        /* 0: f32 */
    const void *data[3];
    rlx_attrs attrs;
} op_case;

static size_t count_of(uint32_t rank, const int64_t *shape)
{
    size_t n = 1;
    for (uint32_t d = 0; d < rank; d++)
        n *= (size_t)shape[d];
    return n;
}

static size_t dtype_size(rlx_dtype t)
{
    return t == RLX_DTYPE_I64 ? 8 : 4;
}

/* Run C on DEVICE; the f32 result (N elements) into Y. 0 on success,
 * else the failing status. */
static rlx_status run_case(rlx_runtime *rt, const char *device,
                           const op_case *c, float *y, size_t *n)
{
    rlx_graph *g = NULL;
    rlx_session *s = NULL;
    rlx_program *p = NULL;
    rlx_value in[3], out;
    static const char *const names[3] = { "a", "b", "c" };
    float *rnd[3] = { NULL, NULL, NULL };
    unsigned seed = 11;
    rlx_status st = rlx_graph_create(&g);
    for (uint32_t j = 0; j < c->n_in && st == RLX_OK; j++) {
        rlx_dtype t = c->types[j] ? c->types[j] : RLX_DTYPE_F32;
        st = rlx_graph_input(g, names[j], t, c->rank[j], c->shape[j], &in[j]);
    }
    if (st == RLX_OK)
        st = rlx_graph_add_node(g, "y", c->op, c->n_in, in, &c->attrs, &out);
    if (st == RLX_OK)
        st = rlx_graph_output(g, "y", out);
    if (st == RLX_OK)
        st = rlx_session_create(rt, device, &s);
    if (st == RLX_OK)
        st = rlx_session_compile(s, g, &p);
    for (uint32_t j = 0; j < c->n_in && st == RLX_OK; j++) {
        size_t k = count_of(c->rank[j], c->shape[j]);
        const void *d = c->data[j];
        if (!d) {
            if (!(rnd[j] = malloc(k * sizeof(float)))) {
                st = RLX_ERR_OUT_OF_MEMORY;
                break;
            }
            for (size_t i = 0; i < k; i++) {
                seed = seed * 1103515245u + 12345u;
                rnd[j][i] = (float)((seed >> 8) & 0xffff) / 32768.0f - 1.0f;
            }
            d = rnd[j];
        }
        rlx_dtype t = c->types[j] ? c->types[j] : RLX_DTYPE_F32;
        st = rlx_program_set_input(p, names[j], d, k * dtype_size(t));
    }
    if (st == RLX_OK)
        st = rlx_program_run(p);
    if (st == RLX_OK) {
        size_t bytes = 0;
        const void *o = rlx_program_output_data(p, 0, &bytes);
        *n = bytes / sizeof(float);
        memcpy(y, o, bytes);
    }
    for (int j = 0; j < 3; j++)
        free(rnd[j]);
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_graph_destroy(g);
    return st;
}

#define MAX_OUT 40000

/* C on vulkan against cpu-ref: max error over max |ref| below 1e-5. */
static void check(rlx_runtime *rt, const op_case *c, const char *what)
{
    float *y0 = malloc(MAX_OUT * sizeof(float)),
          *y1 = malloc(MAX_OUT * sizeof(float));
    size_t n0 = 0, n1 = 0;
    rlx_status s0 = y0 ? run_case(rt, "cpu-ref", c, y0, &n0) : 1;
    rlx_status s1 = y1 ? run_case(rt, "vulkan", c, y1, &n1) : 1;
    double worst = 0, mag = 0;
    for (size_t i = 0; !s0 && !s1 && n0 == n1 && i < n0; i++) {
        double e = fabs((double)y0[i] - y1[i]);
        if (!(e <= worst))
            worst = e;
        if (fabs(y0[i]) > mag)
            mag = fabs(y0[i]);
    }
    worst = isnan(worst) ? 1 : worst / (mag > 0 ? mag : 1);
    printf("# %s: %zu elements, max error / max |ref| = %.3g\n", what, n1,
           worst);
    ok(!s0 && !s1 && n0 == n1 && n0 > 0 && worst < 1e-5, what);
    free(y0);
    free(y1);
}

static void check_conv(rlx_runtime *rt)
{
    /* implicit GEMM: 70 output channels (two row tiles, the second
     * ragged), 42 positions, stride 2, pads 1, bias */
    op_case c = { RLX_OP_CONV, 3, { 4, 4, 1 },
                  { { 2, 8, 13, 11 }, { 70, 8, 3, 3 }, { 70 } }, { 0 },
                  { 0 }, { 9, (int64_t[]){ 1, 2, 2, 1, 1, 1, 1, 1, 1 }, 0,
                           NULL } };
    check(rt, &c, "conv 2-d as implicit GEMM, ragged tiles, bias");
    /* 400 positions (7 column tiles), K = 36: not a multiple of 16 */
    op_case c2 = { RLX_OP_CONV, 2, { 4, 4 },
                   { { 1, 4, 20, 20 }, { 32, 4, 3, 3 } }, { 0 }, { 0 },
                   { 9, (int64_t[]){ 1, 1, 1, 1, 1, 1, 1, 1, 1 }, 0,
                     NULL } };
    check(rt, &c2, "conv 2-d as implicit GEMM, 7 column tiles, no bias");
    /* groups 2, 32 rows per group, dilation 2, asymmetric pads */
    op_case c3 = { RLX_OP_CONV, 2, { 4, 4 },
                   { { 2, 6, 9, 10 }, { 64, 3, 3, 2 } }, { 0 }, { 0 },
                   { 9, (int64_t[]){ 2, 1, 1, 2, 2, 0, 1, 2, 0 }, 0,
                     NULL } };
    check(rt, &c3, "grouped conv (group 2), dilation 2, asymmetric pads");
    /* depthwise: one output channel per group, the direct shader */
    op_case c4 = { RLX_OP_CONV, 3, { 4, 4, 1 },
                   { { 2, 6, 11, 9 }, { 6, 1, 5, 5 }, { 6 } }, { 0 }, { 0 },
                   { 9, (int64_t[]){ 6, 2, 1, 1, 1, 2, 2, 2, 2 }, 0,
                     NULL } };
    check(rt, &c4, "depthwise conv (direct), stride 2, pads 2, bias");
    op_case c5 = { RLX_OP_CONV, 2, { 3, 3 }, { { 2, 5, 40 }, { 24, 5, 4 } },
                   { 0 }, { 0 },
                   { 5, (int64_t[]){ 1, 3, 2, 3, 1 }, 0, NULL } };
    check(rt, &c5, "conv 1-d, stride 3, dilation 2");
    op_case c6 = { RLX_OP_CONV, 2, { 5, 5 },
                   { { 1, 3, 6, 7, 5 }, { 20, 3, 2, 3, 2 } }, { 0 }, { 0 },
                   { 13, (int64_t[]){ 1, 1, 2, 1, 1, 1, 1, 1, 0, 1, 0, 1,
                                      1 }, 0, NULL } };
    check(rt, &c6, "conv 3-d, mixed strides and pads");
    op_case c7 = { RLX_OP_CONV_TRANSPOSE, 3, { 4, 4, 1 },
                   { { 2, 4, 5, 6 }, { 4, 3, 3, 3 }, { 6 } }, { 0 }, { 0 },
                   { 11, (int64_t[]){ 2, 2, 2, 1, 1, 1, 0, 0, 1, 1, 0 }, 0,
                     NULL } };
    check(rt, &c7, "conv_transpose 2-d, group 2, stride 2, output_padding");
}

static void check_pool(rlx_runtime *rt)
{
    /* ceil mode, count_include_pad: the last window reaches past the end
     * padding */
    int64_t a[] = { 1, 1, 2, 2, 3, 3, 2, 2, 2, 1, 1, 1, 1, 1, 1, 0, 1, 1 };
    op_case c = { RLX_OP_AVG_POOL, 1, { 5 }, { { 2, 3, 7, 8, 9 } }, { 0 },
                  { 0 }, { 18, a, 0, NULL } };
    check(rt, &c, "avg_pool 3-d, ceil mode, count_include_pad");
    c.op = RLX_OP_MAX_POOL;
    check(rt, &c, "max_pool 3-d, ceil mode, pads");
}

static void check_scatter(rlx_runtime *rt)
{
    /* duplicate indices: the updates add up in order */
    int32_t idx[6] = { 1, 0, 1, 1, 2, 1 };
    op_case c = { RLX_OP_SCATTER_ELEMENTS, 3, { 2, 2, 2 },
                  { { 3, 4 }, { 3, 2 }, { 3, 2 } },
                  { 0, RLX_DTYPE_I32, 0 }, { NULL, idx, NULL },
                  { 2, (int64_t[]){ 0, 1 }, 0, NULL } };
    check(rt, &c, "scatter_elements with duplicate indices, reduction add");
    int64_t bad[6] = { 1, 0, 1, 4, 2, 1 };
    c.types[1] = RLX_DTYPE_I64;
    c.data[1] = bad;
    float y[16];
    size_t n = 0;
    rlx_status st = run_case(rt, "vulkan", &c, y, &n);
    ok(st == RLX_ERR_INVALID_ARGUMENT &&
           strstr(rlx_last_error(), "Fix:") != NULL,
       "scatter_elements index out of range fails the run with a Fix");
    op_case g = { RLX_OP_GATHER_ELEMENTS, 2, { 2, 2 }, { { 3, 4 }, { 3, 2 } },
                  { 0, RLX_DTYPE_I64 }, { NULL, bad },
                  { 1, (int64_t[]){ 0 }, 0, NULL } };
    st = run_case(rt, "vulkan", &g, y, &n);
    ok(st == RLX_ERR_INVALID_ARGUMENT &&
           strstr(rlx_last_error(), "Fix:") != NULL,
       "gather_elements index out of range fails the run with a Fix");
    int64_t neg[6] = { -1, 0, -3, 2, 1, -2 };
    g.data[1] = neg;
    check(rt, &g, "gather_elements with negative indices");
    /* non_zero with room for 2 columns: 2 nonzeros fit, 3 fail */
    float nz[6] = { 0, 1, 0, 0, -2, 0 };
    op_case z = { RLX_OP_NON_ZERO, 1, { 2 }, { { 2, 3 } }, { 0 }, { nz },
                  { 1, (int64_t[]){ 2 }, 0, NULL } };
    int64_t got[4] = { 0 };
    st = run_case(rt, "vulkan", &z, (float *)got, &n);
    ok(st == RLX_OK && n == 8 && got[0] == 0 && got[1] == 1 &&
           got[2] == 1 && got[3] == 1,
       "non_zero writes the coordinates in row-major order");
    nz[5] = 3;
    st = run_case(rt, "vulkan", &z, (float *)got, &n);
    ok(st == RLX_ERR_INVALID_ARGUMENT,
       "non_zero with more nonzeros than columns fails the run");
}

/* A runtime whose vulkan backend has a usable device, or a skip: a
 * backend that cannot run here says so. */
static rlx_runtime *vk_runtime(void)
{
    rlx_runtime *rt = NULL;
    uint32_t n = 0;
    unsetenv("RLX_VULKAN_DEVICE");
    const rlx_backend *b = NULL;
    if (rlx_runtime_create(&rt, 0) != RLX_OK ||
        !(b = rlx_runtime_find_backend(rt, "vulkan")) ||
        rlx_backend_probe(b, &n) != RLX_OK) {
        rlx_runtime_destroy(rt);
        SKIP("no usable Vulkan device: %s", rlx_last_error());
    }
    return rt;
}

TEST(conv_paths_match_cpu_ref)
{
    rlx_runtime *rt = vk_runtime();
    check_conv(rt);
    rlx_runtime_destroy(rt);
}

TEST(pools_3d_match_cpu_ref)
{
    rlx_runtime *rt = vk_runtime();
    check_pool(rt);
    rlx_runtime_destroy(rt);
}

TEST(scatter_and_index_errors)
{
    rlx_runtime *rt = vk_runtime();
    check_scatter(rt);
    rlx_runtime_destroy(rt);
}

RLX_TEST_LIST(TEST_ENTRY(conv_paths_match_cpu_ref),
              TEST_ENTRY(pools_3d_match_cpu_ref),
              TEST_ENTRY(scatter_and_index_errors));
