/*
 * test-vulkan-qfuse.c - conv_integer with the requantization chain the
 * ONNX importer writes after it (add bias, cast, mul, quantize_linear,
 * max/min), which the Vulkan backend fuses into the conv's epilogue, the
 * implicit GEMM's and the direct conv's (vk_plan_qfuse.c): the result must be cpu-ref's bits with the fusion
 * and without it (RLX_VULKAN_QFUSE=off), on both integer paths
 * (RLX_VULKAN_INT_DOT), and the debug log must say whether the chain was
 * fused: not when a link is also a graph output. Skipped when no Vulkan
 * device exists.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rlx/rlx.h>

#include "harness.h"

enum { C = 8, M = 24, H = 10, W = 9 };

typedef struct variant {
    int64_t group;        /* 1: the GEMM; 8: 3 channels a group, direct */
    rlx_dtype out;        /* quantize_linear's dtype */
    int bias_per, mult_per;
    double scale;         /* quantize_linear's scale */
    int n_clamp;          /* max(zp-ish), then min */
    int link_output;      /* the cast is a graph output too: no fusion */
    const char *what;
} variant;

static const variant variants[] = {
    { 1, RLX_DTYPE_U8, 1, 1, 1.0, 2, 0, "GEMM, u8, per-channel bias and "
                                        "multiplier, max and min" },
    { 1, RLX_DTYPE_I8, 0, 0, 0.75, 0, 0, "GEMM, i8, one bias and "
                                         "multiplier, scale 0.75, no clamp" },
    { 1, RLX_DTYPE_U8, 1, 0, 1.0, 1, 0, "GEMM, u8, one multiplier computed "
                                        "after the conv, max" },
    { 1, RLX_DTYPE_U8, 1, 1, 1.0, 1, 1, "GEMM, u8, the cast also an "
                                        "output" },
    { 8, RLX_DTYPE_U8, 1, 1, 1.0, 2, 0, "direct (8 groups), u8, "
                                        "per-channel bias and multiplier, "
                                        "max and min" },
};

static void ok(rlx_status st, const char *what)
{
    if (st != RLX_OK)
        FAIL("%s: %s", what, rlx_last_error());
}

static rlx_value constant(rlx_graph *g, rlx_dtype t, uint32_t rank,
                          const int64_t *dims, const void *data)
{
    static unsigned k;
    char name[32];
    rlx_value v;
    snprintf(name, sizeof name, "c%u", k++);
    ok(rlx_graph_constant(g, name, t, rank, dims, data, &v), "constant");
    return v;
}

static rlx_value node(rlx_graph *g, rlx_op op, uint32_t n,
                      const rlx_value *in, const rlx_attrs *a)
{
    rlx_value v;
    ok(rlx_graph_add_node(g, NULL, op, n, in, a, &v), rlx_op_name(op));
    return v;
}

/* The chain of variant V after a GEMM-sized conv_integer of input x. */
static rlx_graph *build(const variant *v)
{
    static uint8_t w[M * C * 9];
    static int32_t bias[M];
    static float sa[M], sb[M];
    unsigned s = 17;
    for (size_t i = 0; i < sizeof w; i++) {
        s = s * 1103515245u + 12345u;
        w[i] = (uint8_t)(s >> 16);
    }
    for (int m = 0; m < M; m++) {
        bias[m] = (m * 7919) % 20001 - 10000;
        sa[m] = 1.0f / 1024 + (float)m / 65536;
        sb[m] = 0.5f + (float)(m % 5) / 8;
    }
    rlx_graph *g = NULL;
    ok(rlx_graph_create(&g), "graph");
    const int64_t xd[4] = { 2, C, H, W }, wd[4] = { M, C / v->group, 3, 3 };
    const int64_t cd[4] = { 1, M, 1, 1 };
    rlx_value x, in[4];
    ok(rlx_graph_input(g, "x", RLX_DTYPE_U8, 4, xd, &x), "input");
    const uint8_t xz = 129;
    const int8_t wz = 3;
    const int64_t conv_attrs[9] = { v->group, 1, 1, 1, 1, 1, 1, 1, 1 };
    const rlx_attrs ca = { .n_ints = 9, .ints = conv_attrs };
    in[0] = x;
    in[1] = constant(g, RLX_DTYPE_I8, 4, wd, w);
    in[2] = constant(g, RLX_DTYPE_U8, 0, NULL, &xz);
    in[3] = constant(g, RLX_DTYPE_I8, 0, NULL, &wz);
    rlx_value acc = node(g, RLX_OP_CONV_INTEGER, 4, in, &ca);
    in[0] = acc;
    in[1] = constant(g, RLX_DTYPE_I32, v->bias_per ? 4 : 0, cd, bias);
    acc = node(g, RLX_OP_ADD, 2, in, NULL);
    const int64_t to_f32 = RLX_DTYPE_F32;
    const rlx_attrs cast = { .n_ints = 1, .ints = &to_f32 };
    rlx_value d = node(g, RLX_OP_CAST, 1, &acc, &cast);
    if (v->link_output)
        ok(rlx_graph_output(g, "d", d), "output");
    /* the multiplier made after the conv, as the importer does */
    in[0] = constant(g, RLX_DTYPE_F32, v->mult_per ? 4 : 0, cd, sa);
    in[1] = constant(g, RLX_DTYPE_F32, v->mult_per ? 4 : 0, cd, sb);
    rlx_value mult = node(g, RLX_OP_MUL, 2, in, NULL);
    in[0] = d;
    in[1] = mult;
    d = node(g, RLX_OP_MUL, 2, in, NULL);
    const float scale = (float)v->scale;
    const uint8_t zp = v->out == RLX_DTYPE_U8 ? 100 : (uint8_t)-20;
    in[0] = d;
    in[1] = constant(g, RLX_DTYPE_F32, 0, NULL, &scale);
    in[2] = constant(g, v->out, 0, NULL, &zp);
    const int64_t qa[2] = { 1, 0 };
    const rlx_attrs qattrs = { .n_ints = 2, .ints = qa };
    rlx_value y = node(g, RLX_OP_QUANTIZE_LINEAR, 3, in, &qattrs);
    static const uint8_t lo = 110, hi = 200;
    for (int k = 0; k < v->n_clamp; k++) {
        in[0] = y;
        in[1] = constant(g, v->out, 0, NULL, k ? &hi : &lo);
        y = node(g, k ? RLX_OP_MIN : RLX_OP_MAX, 2, in, NULL);
    }
    ok(rlx_graph_output(g, "y", y), "output");
    return g;
}

/* Run G on DEVICE; the output "y" into Y (*N bytes). LOG (SIZE bytes):
 * the compile's debug log, or NULL. */
static void run(rlx_runtime *rt, const char *device, rlx_graph *g,
                void *y, size_t *n, char *log, size_t size)
{
    static uint8_t x[2 * C * H * W];
    unsigned s = 23;
    for (size_t i = 0; i < sizeof x; i++) {
        s = s * 1103515245u + 12345u;
        x[i] = (uint8_t)(s >> 16);
    }
    char path[] = "/tmp/rlx-vk-qfuse-XXXXXX";
    int fd = log ? mkstemp(path) : -1, saved = -1;
    if (log) {
        ASSERT(fd >= 0);
        fflush(stderr);
        saved = dup(2);
        dup2(fd, 2);
        setenv("RLX_LOG", "debug", 1);
    }
    rlx_session *ses = NULL;
    rlx_program *p = NULL;
    rlx_status st = rlx_session_create(rt, device, &ses);
    if (st == RLX_OK)
        st = rlx_session_compile(ses, g, &p);
    if (log) {
        unsetenv("RLX_LOG");
        fflush(stderr);
        dup2(saved, 2);
        close(saved);
        memset(log, 0, size);
        lseek(fd, 0, SEEK_SET);
        ssize_t got = read(fd, log, size - 1);
        close(fd);
        unlink(path);
        ASSERT(got > 0);
    }
    ok(st, "compile");
    ok(rlx_program_set_input(p, "x", x, sizeof x), "set input");
    ok(rlx_program_run(p), "run");
    /* "y" is the last output */
    const void *o = rlx_program_output_data(
        p, rlx_program_output_count(p) - 1, n);
    ASSERT(o && *n == 2 * M * H * W);
    memcpy(y, o, *n);
    rlx_program_destroy(p);
    rlx_session_destroy(ses);
}

static int vulkan_available(rlx_runtime *rt)
{
    uint32_t n = 0;
    const rlx_backend *b = rlx_runtime_find_backend(rt, "vulkan");
    return b && rlx_backend_probe(b, &n) == RLX_OK;
}

TEST(requantization_fused)
{
    rlx_runtime *rt = NULL;
    unsetenv("RLX_VULKAN_DEVICE");
    if (rlx_runtime_create(&rt, 0) != RLX_OK || !vulkan_available(rt)) {
        rlx_runtime_destroy(rt);
        SKIP("no usable Vulkan device: %s", rlx_last_error());
    }
    static uint8_t want[2 * M * H * W], got[2 * M * H * W];
    static char log[16384];
    static const char *const dots[2] = { "auto", "off" };
    static const char *const fuses[2] = { "auto", "off" };
    for (size_t k = 0; k < sizeof variants / sizeof *variants; k++) {
        const variant *v = &variants[k];
        rlx_graph *g = build(v);
        size_t n0 = 0, n1 = 0;
        run(rt, "cpu-ref", g, want, &n0, NULL, 0);
        /* the case reaches many steps, not only the clamps */
        int seen[256] = { 0 }, distinct = 0;
        for (size_t i = 0; i < n0; i++)
            distinct += !seen[want[i]]++;
        printf("# %s: %d distinct values\n", v->what, distinct);
        ASSERT(distinct >= 32);
        for (int dt = 0; dt < 2; dt++)
            for (int fu = 0; fu < 2; fu++) {
                setenv("RLX_VULKAN_INT_DOT", dots[dt], 1);
                setenv("RLX_VULKAN_QFUSE", fuses[fu], 1);
                run(rt, "vulkan", g, got, &n1, log, sizeof log);
                int fused = strstr(log, "1 conv_integer, 1 with their "
                                        "requantization fused") != NULL;
                int want_fused = fu == 0 && !v->link_output;
                size_t diff = 0;
                for (size_t i = 0; i < n0; i++)
                    diff += want[i] != got[i];
                printf("# %s (int_dot %s, qfuse %s): %zu of %zu differ, "
                       "%sfused\n", v->what, dots[dt], fuses[fu], diff, n0,
                       fused ? "" : "not ");
                if (diff || n0 != n1)
                    FAIL("%s (int_dot %s, qfuse %s): %zu of %zu bytes "
                         "differ from cpu-ref", v->what, dots[dt],
                         fuses[fu], diff, n0);
                if (fused != want_fused)
                    FAIL("%s (int_dot %s, qfuse %s): the chain was%s "
                         "fused; the log says: %s", v->what, dots[dt],
                         fuses[fu], fused ? "" : " not", log);
            }
        rlx_graph_destroy(g);
    }
    unsetenv("RLX_VULKAN_INT_DOT");
    unsetenv("RLX_VULKAN_QFUSE");
    rlx_runtime_destroy(rt);
}

RLX_TEST_LIST(TEST_ENTRY(requantization_fused));
