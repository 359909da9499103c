/*
 * test_pjrt_run.c - running graphs through the PJRT bridge: with the fake
 * plugin (fake_pjrt.c), a PJRT error turned into a rlx error with a Fix,
 * host and device-resident inputs and outputs, queued runs, and
 * concurrent sessions sharing one PJRT client; with a real PJRT plugin (RLX_TEST_PJRT_REAL,
 * scripts/gpu-pjrt.sh), rlx's edge-case semantics against cpu-ref. The
 * bridge's registration, probes and StableHLO: test_pjrt.c.
 *
 * argv: as test_pjrt.c's.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rlx/rlx.h>

#include "../../../test/harness.h"
#include "pjrt_test_util.h"

/* y = x0 [2,3] + x1 [3], f32: the fake plugin compiles it and then
 * refuses to run it with a PJRT error. */
static rlx_graph *add_broadcast_graph(void)
{
    rlx_graph *g = NULL;
    rlx_value x0, x1, y;
    if (rlx_graph_create(&g) != RLX_OK ||
        rlx_graph_input(g, "x0", RLX_DTYPE_F32, 2, (int64_t[]){ 2, 3 },
                        &x0) != RLX_OK ||
        rlx_graph_input(g, "x1", RLX_DTYPE_F32, 1, (int64_t[]){ 3 },
                        &x1) != RLX_OK ||
        rlx_graph_add_node(g, "y", RLX_OP_ADD, 2, (rlx_value[]){ x0, x1 },
                           NULL, &y) != RLX_OK ||
        rlx_graph_output(g, "y", y) != RLX_OK)
        FAIL("graph: %s", rlx_last_error());
    return g;
}

TEST(pjrt_error_becomes_rlx_error_with_fix)
{
    rlx_runtime *rt = runtime_with(fake);
    rlx_graph *g = add_broadcast_graph();
    rlx_session *s = NULL;
    ASSERT_EQ(rlx_session_create(rt, "pjrt", &s), RLX_OK);
    rlx_program *p = NULL;
    if (rlx_session_compile(s, g, &p) != RLX_OK)
        FAIL("compile: %s", rlx_last_error());
    float x[6] = { 0 }, b[3] = { 0 };
    ASSERT_EQ(rlx_program_set_input(p, "x0", x, sizeof x), RLX_OK);
    ASSERT_EQ(rlx_program_set_input(p, "x1", b, sizeof b), RLX_OK);
    rlx_status st = rlx_program_run(p);
    char msg[2048];
    snprintf(msg, sizeof msg, "%s", rlx_last_error());
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_graph_destroy(g);
    rlx_runtime_destroy(rt);
    ASSERT(st != RLX_OK);
    if (!strstr(msg, "executes nothing") || !strstr(msg, "Fix:"))
        FAIL("run said '%s'; want the PJRT message and a Fix", msg);
}
/* y = reshape(x): the fake plugin runs it as a copy. */
static rlx_graph *reshape_graph(void)
{
    int64_t xs[2] = { 2, 3 }, ys[2] = { 3, 2 };
    return one_node_shape(xs, ys);
}

TEST(host_and_device_io_through_the_bridge)
{
    rlx_runtime *rt = runtime_with(fake);
    ASSERT(rlx_backend_device_io(rlx_runtime_find_backend(rt, "pjrt")));
    rlx_graph *g = reshape_graph();
    rlx_session *s = NULL;
    ASSERT_EQ(rlx_session_create(rt, "pjrt", &s), RLX_OK);
    rlx_program *p = NULL;
    if (rlx_session_compile(s, g, &p) != RLX_OK)
        FAIL("compile: %s", rlx_last_error());
    float x[6] = { 1, 2, 3, 4, 5, 6 }, x2[6] = { -1, -2, -3, -4, -5, -6 };
    float y[6] = { 0 };
    /* host in, host out */
    ASSERT_EQ(rlx_program_set_input(p, "x", x, sizeof x), RLX_OK);
    if (rlx_program_run(p) != RLX_OK)
        FAIL("run: %s", rlx_last_error());
    size_t n = 0;
    const void *o = rlx_program_output_data(p, 0, &n);
    ASSERT(o != NULL && n == sizeof x && memcmp(o, x, n) == 0);
    /* device tensors bound to both */
    int64_t xs[2] = { 2, 3 }, ys[2] = { 3, 2 };
    rlx_tensor *tx = NULL, *ty = NULL;
    ASSERT_EQ(rlx_tensor_create(p, RLX_DTYPE_F32, 2, xs, x, &tx), RLX_OK);
    ASSERT_EQ(rlx_tensor_create(p, RLX_DTYPE_F32, 2, ys, NULL, &ty), RLX_OK);
    ASSERT_EQ(rlx_tensor_read(ty, y, sizeof y), RLX_OK);
    ASSERT(y[0] == 0 && y[5] == 0);
    ASSERT_EQ(rlx_program_bind(p, RLX_SLOT_INPUT, "x", tx), RLX_OK);
    ASSERT_EQ(rlx_program_bind(p, RLX_SLOT_OUTPUT, "y", ty), RLX_OK);
    if (rlx_program_run(p) != RLX_OK)
        FAIL("bound run: %s", rlx_last_error());
    ASSERT_EQ(rlx_tensor_read(ty, y, sizeof y), RLX_OK);
    ASSERT(memcmp(y, x, sizeof y) == 0);
    ASSERT_EQ(rlx_tensor_write(tx, x2, sizeof x2), RLX_OK);
    ASSERT_EQ(rlx_program_run(p), RLX_OK);
    ASSERT_EQ(rlx_tensor_read(ty, y, sizeof y), RLX_OK);
    ASSERT(memcmp(y, x2, sizeof y) == 0);
    rlx_tensor_destroy(tx);
    rlx_tensor_destroy(ty);
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_graph_destroy(g);
    rlx_runtime_destroy(rt);
}

/* Every dtype the bridge lowers travels as a PJRT buffer type: f64 and
 * the 16-, 32- and 64-bit integer widths through a reshape (a copy on
 * the fake plugin, which refuses unknown buffer types as XLA's does). */
TEST(every_lowered_dtype_uploads_and_downloads)
{
    static const rlx_dtype dts[] = { RLX_DTYPE_F64, RLX_DTYPE_I16,
                                     RLX_DTYPE_U16, RLX_DTYPE_U32,
                                     RLX_DTYPE_U64, RLX_DTYPE_I8 };
    rlx_runtime *rt = runtime_with(fake);
    for (size_t k = 0; k < sizeof dts / sizeof *dts; k++) {
        int64_t xs[2] = { 2, 3 }, ys[2] = { 3, 2 };
        rlx_graph *g = NULL;
        rlx_value x, y;
        rlx_attrs a = { 2, ys, 0, NULL };
        if (rlx_graph_create(&g) != RLX_OK ||
            rlx_graph_input(g, "x", dts[k], 2, xs, &x) != RLX_OK ||
            rlx_graph_add_node(g, "y", RLX_OP_RESHAPE, 1, &x, &a, &y) !=
                RLX_OK ||
            rlx_graph_output(g, "y", y) != RLX_OK)
            FAIL("graph: %s", rlx_last_error());
        rlx_session *s = NULL;
        ASSERT_EQ(rlx_session_create(rt, "pjrt", &s), RLX_OK);
        rlx_program *p = NULL;
        if (rlx_session_compile(s, g, &p) != RLX_OK)
            FAIL("%s: compile: %s", rlx_dtype_name(dts[k]),
                 rlx_last_error());
        unsigned char in[6 * 8];
        size_t bytes = 6 * rlx_dtype_size(dts[k]);
        for (size_t i = 0; i < bytes; i++)
            in[i] = (unsigned char)(i * 37 + 11);
        ASSERT_EQ(rlx_program_set_input(p, "x", in, bytes), RLX_OK);
        if (rlx_program_run(p) != RLX_OK)
            FAIL("%s: run: %s", rlx_dtype_name(dts[k]), rlx_last_error());
        size_t n = 0;
        const void *o = rlx_program_output_data(p, 0, &n);
        ASSERT(o != NULL && n == bytes && memcmp(o, in, n) == 0);
        rlx_program_destroy(p);
        rlx_session_destroy(s);
        rlx_graph_destroy(g);
    }
    rlx_runtime_destroy(rt);
}

/* Sessions on one bridge backend compiling and running at once (the
 * client is created once, under the backend's lock). */
typedef struct worker {
    rlx_runtime *rt;
    int ok;
    char msg[512];
} worker;

static void *work(void *arg)
{
    worker *w = arg;
    int64_t xs[2] = { 2, 3 }, ys[2] = { 3, 2 };
    rlx_graph *g = NULL;
    rlx_value x, y;
    rlx_attrs a = { 2, ys, 0, NULL };
    rlx_session *s = NULL;
    rlx_program *p = NULL;
    float in[6] = { 1, 2, 3, 4, 5, 6 };
    w->ok = rlx_graph_create(&g) == RLX_OK &&
            rlx_graph_input(g, "x", RLX_DTYPE_F32, 2, xs, &x) == RLX_OK &&
            rlx_graph_add_node(g, "y", RLX_OP_RESHAPE, 1, &x, &a, &y) ==
                RLX_OK &&
            rlx_graph_output(g, "y", y) == RLX_OK &&
            rlx_session_create(w->rt, "pjrt", &s) == RLX_OK &&
            rlx_session_compile(s, g, &p) == RLX_OK;
    for (int i = 0; w->ok && i < 20; i++) {
        in[0] = (float)i;
        size_t n = 0;
        w->ok = rlx_program_set_input(p, "x", in, sizeof in) == RLX_OK &&
                rlx_program_run(p) == RLX_OK;
        const float *o = w->ok ? rlx_program_output_data(p, 0, &n) : NULL;
        w->ok = o && n == sizeof in && o[0] == (float)i && o[5] == 6.0f;
    }
    if (!w->ok)
        snprintf(w->msg, sizeof w->msg, "%s", rlx_last_error());
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_graph_destroy(g);
    return NULL;
}

TEST(concurrent_sessions_share_one_client)
{
    rlx_runtime *rt = runtime_with(fake);
    unsetenv("RLX_PJRT_DUMP"); /* keep the dump directory for goldens */
    worker w[4];
    pthread_t t[4];
    for (int i = 0; i < 4; i++) {
        w[i].rt = rt;
        w[i].ok = 0;
        w[i].msg[0] = '\0';
        ASSERT_EQ(pthread_create(&t[i], NULL, work, &w[i]), 0);
    }
    for (int i = 0; i < 4; i++)
        pthread_join(t[i], NULL);
    setenv("RLX_PJRT_DUMP", dump_dir, 1);
    rlx_runtime_destroy(rt);
    for (int i = 0; i < 4; i++)
        if (!w[i].ok)
            FAIL("thread %d: %s", i, w[i].msg);
}
/* ---- with a real PJRT plugin (scripts/gpu-pjrt.sh sets
 * RLX_TEST_PJRT_REAL to one): rlx's edge-case semantics, which XLA alone
 * would not give, against cpu-ref ------------------------------------ */

typedef struct real_run {
    rlx_status st;
    char msg[1024];
    unsigned char out[256];
    size_t nbytes;
} real_run;

/* Run G (one input "x" of XB bytes, optional "i" of IB bytes, one
 * output) on DEVICE. */
static real_run run_on(rlx_runtime *rt, const char *device,
                       const rlx_graph *g, const void *x, size_t xb,
                       const void *i, size_t ib)
{
    real_run r;
    memset(&r, 0, sizeof r);
    rlx_session *s = NULL;
    rlx_program *p = NULL;
    r.st = rlx_session_create(rt, device, &s);
    if (r.st == RLX_OK)
        r.st = rlx_session_compile(s, g, &p);
    if (r.st == RLX_OK)
        r.st = rlx_program_set_input(p, "x", x, xb);
    if (r.st == RLX_OK && i)
        r.st = rlx_program_set_input(p, "i", i, ib);
    if (r.st == RLX_OK)
        r.st = rlx_program_run(p);
    if (r.st == RLX_OK) {
        const void *o = rlx_program_output_data(p, 0, &r.nbytes);
        if (o && r.nbytes <= sizeof r.out)
            memcpy(r.out, o, r.nbytes);
    }
    if (r.st != RLX_OK)
        snprintf(r.msg, sizeof r.msg, "%s", rlx_last_error());
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    return r;
}

static const char *real_device(void)
{
    const char *d = getenv("RLX_TEST_PJRT_DEVICE");
    return d && d[0] ? d : "pjrt-cuda";
}

static rlx_runtime *real_runtime(void)
{
    const char *plugin = getenv("RLX_TEST_PJRT_REAL");
    if (!plugin || !plugin[0])
        SKIP("RLX_TEST_PJRT_REAL names no PJRT plugin (scripts/gpu-pjrt.sh "
             "sets it on a GPU machine)");
    return runtime_with(plugin);
}

/* One-node graph: x (XDT, XSHAPE) -> OP -> y. */
static rlx_graph *one_node(rlx_op op, rlx_dtype xdt, uint32_t rank,
                           const int64_t *shape, const int64_t *ints,
                           uint32_t n_ints)
{
    rlx_graph *g = NULL;
    rlx_value x, y;
    if (rlx_graph_create(&g) != RLX_OK ||
        rlx_graph_input(g, "x", xdt, rank, shape, &x) != RLX_OK)
        FAIL("graph: %s", rlx_last_error());
    rlx_attrs a = { n_ints, ints, 0, NULL };
    if (rlx_graph_add_node(g, "y", op, 1, &x, &a, &y) != RLX_OK ||
        rlx_graph_output(g, "y", y) != RLX_OK)
        FAIL("node: %s", rlx_last_error());
    return g;
}

static void same_as_cpu_ref(rlx_runtime *rt, const char *what,
                            const rlx_graph *g, const void *x, size_t xb)
{
    real_run want = run_on(rt, "cpu-ref", g, x, xb, NULL, 0);
    real_run got = run_on(rt, real_device(), g, x, xb, NULL, 0);
    if (want.st != RLX_OK)
        FAIL("%s on cpu-ref: %s", what, want.msg);
    if (got.st != RLX_OK)
        FAIL("%s on %s: %s", what, real_device(), got.msg);
    ASSERT_EQ(got.nbytes, want.nbytes);
    if (memcmp(got.out, want.out, want.nbytes) != 0) {
        /* floats: allow the last bit or two */
        const float *a = (const float *)got.out, *b = (const float *)want.out;
        for (size_t k = 0; k < want.nbytes / 4; k++)
            if (!(a[k] == b[k] || (a[k] != a[k] && b[k] != b[k]) ||
                  (a[k] - b[k] < 1e-6f && b[k] - a[k] < 1e-6f)))
                FAIL("%s: element %zu is %g on %s, %g on cpu-ref", what, k,
                     (double)a[k], real_device(), (double)b[k]);
    }
}

TEST(real_cast_saturates_and_zeroes_nan)
{
    rlx_runtime *rt = real_runtime();
    int64_t shape[1] = { 6 };
    float x[6] = { 0.0f / 0.0f, 3e9f, -3e9f, -1.7f, 2.9f, 1.0f / 0.0f };
    int64_t to_i32 = RLX_DTYPE_I32, to_u8 = RLX_DTYPE_U8,
            to_bool = RLX_DTYPE_BOOL;
    rlx_graph *g = one_node(RLX_OP_CAST, RLX_DTYPE_F32, 1, shape, &to_i32, 1);
    same_as_cpu_ref(rt, "cast f32->i32", g, x, sizeof x);
    rlx_graph_destroy(g);
    g = one_node(RLX_OP_CAST, RLX_DTYPE_F32, 1, shape, &to_u8, 1);
    same_as_cpu_ref(rt, "cast f32->u8", g, x, sizeof x);
    rlx_graph_destroy(g);
    g = one_node(RLX_OP_CAST, RLX_DTYPE_F32, 1, shape, &to_bool, 1);
    same_as_cpu_ref(rt, "cast f32->bool", g, x, sizeof x);
    rlx_graph_destroy(g);
    rlx_runtime_destroy(rt);
}

TEST(real_causal_softmax_fully_masked_rows_and_empty_mean)
{
    rlx_runtime *rt = real_runtime();
    int64_t shape[2] = { 4, 2 };
    float x[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
    int64_t causal[2] = { -1, 1 };
    rlx_graph *g = one_node(RLX_OP_SOFTMAX, RLX_DTYPE_F32, 2, shape, causal,
                            2);
    same_as_cpu_ref(rt, "causal softmax, rows > cols", g, x, sizeof x);
    rlx_graph_destroy(g);
    int64_t empty[2] = { 2, 0 };
    int64_t axis1[2] = { 0, 1 };
    g = one_node(RLX_OP_REDUCE_MEAN, RLX_DTYPE_F32, 2, empty, axis1, 2);
    same_as_cpu_ref(rt, "mean over an empty axis", g, x, 0);
    rlx_graph_destroy(g);
    rlx_runtime_destroy(rt);
}

TEST(real_gather_checks_its_indices)
{
    rlx_runtime *rt = real_runtime();
    rlx_graph *g = NULL;
    rlx_value x, i, y;
    int64_t ds[2] = { 3, 2 }, is[1] = { 2 };
    ASSERT_EQ(rlx_graph_create(&g), RLX_OK);
    ASSERT_EQ(rlx_graph_input(g, "x", RLX_DTYPE_F32, 2, ds, &x), RLX_OK);
    ASSERT_EQ(rlx_graph_input(g, "i", RLX_DTYPE_I32, 1, is, &i), RLX_OK);
    rlx_value xi[2] = { x, i };
    ASSERT_EQ(rlx_graph_add_node(g, "y", RLX_OP_GATHER, 2, xi, NULL, &y),
              RLX_OK);
    ASSERT_EQ(rlx_graph_output(g, "y", y), RLX_OK);
    float data[6] = { 1, 2, 3, 4, 5, 6 };
    int32_t good[2] = { 2, 0 }, bad[2] = { 1, 3 };
    real_run r = run_on(rt, real_device(), g, data, sizeof data, good,
                        sizeof good);
    if (r.st != RLX_OK)
        FAIL("gather: %s", r.msg);
    const float *o = (const float *)r.out;
    ASSERT(o[0] == 5 && o[1] == 6 && o[2] == 1 && o[3] == 2);
    r = run_on(rt, real_device(), g, data, sizeof data, bad, sizeof bad);
    rlx_graph_destroy(g);
    rlx_runtime_destroy(rt);
    ASSERT_EQ(r.st, RLX_ERR_INVALID_ARGUMENT);
    if (!strstr(r.msg, "outside") || !strstr(r.msg, "Fix:"))
        FAIL("gather out of range said '%s'", r.msg);
}

TEST(real_device_io)
{
    rlx_runtime *rt = real_runtime();
    rlx_graph *g = reshape_graph();
    rlx_session *s = NULL;
    ASSERT_EQ(rlx_session_create(rt, real_device(), &s), RLX_OK);
    rlx_program *p = NULL;
    if (rlx_session_compile(s, g, &p) != RLX_OK)
        FAIL("compile: %s", rlx_last_error());
    float x[6] = { 1, 2, 3, 4, 5, 6 }, x2[6] = { 6, 5, 4, 3, 2, 1 }, y[6];
    int64_t xs[2] = { 2, 3 }, ys[2] = { 3, 2 };
    rlx_tensor *tx = NULL, *ty = NULL;
    ASSERT_EQ(rlx_tensor_create(p, RLX_DTYPE_F32, 2, xs, x, &tx), RLX_OK);
    ASSERT_EQ(rlx_tensor_create(p, RLX_DTYPE_F32, 2, ys, NULL, &ty), RLX_OK);
    ASSERT_EQ(rlx_program_bind(p, RLX_SLOT_INPUT, "x", tx), RLX_OK);
    ASSERT_EQ(rlx_program_bind(p, RLX_SLOT_OUTPUT, "y", ty), RLX_OK);
    if (rlx_program_run(p) != RLX_OK)
        FAIL("bound run: %s", rlx_last_error());
    ASSERT_EQ(rlx_tensor_read(ty, y, sizeof y), RLX_OK);
    ASSERT(memcmp(y, x, sizeof y) == 0);
    ASSERT_EQ(rlx_tensor_write(tx, x2, sizeof x2), RLX_OK);
    ASSERT_EQ(rlx_program_run(p), RLX_OK);
    ASSERT_EQ(rlx_tensor_read(ty, y, sizeof y), RLX_OK);
    ASSERT(memcmp(y, x2, sizeof y) == 0);
    rlx_tensor_destroy(tx);
    rlx_tensor_destroy(ty);
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_graph_destroy(g);
    rlx_runtime_destroy(rt);
}

/* Queued runs (rlx_program_submit) on DEVICE: a reshape and its inverse
 * chained through bound tensors, each input written while earlier runs
 * may still be queued; with NAN_FAILS (the fake plugin) a run whose input
 * starts with a NaN fails on the "device", reported by the next wait. */
static void check_queued(rlx_runtime *rt, const char *device, int nan_fails)
{
    int64_t xs[2] = { 2, 3 }, ys[2] = { 3, 2 };
    rlx_graph *g1 = one_node_shape(xs, ys), *g2 = one_node_shape(ys, xs);
    rlx_session *s = NULL;
    rlx_program *p1 = NULL, *p2 = NULL;
    ASSERT_EQ(rlx_session_create(rt, device, &s), RLX_OK);
    ASSERT_EQ(rlx_backend_queues(rlx_session_backend(s)), 1);
    if (rlx_session_compile(s, g1, &p1) != RLX_OK ||
        rlx_session_compile(s, g2, &p2) != RLX_OK)
        FAIL("compile: %s", rlx_last_error());
    rlx_tensor *tx = NULL, *ty = NULL, *tz = NULL;
    ASSERT_EQ(rlx_tensor_create(p1, RLX_DTYPE_F32, 2, xs, NULL, &tx), RLX_OK);
    ASSERT_EQ(rlx_tensor_create(p1, RLX_DTYPE_F32, 2, ys, NULL, &ty), RLX_OK);
    ASSERT_EQ(rlx_tensor_create(p1, RLX_DTYPE_F32, 2, xs, NULL, &tz), RLX_OK);
    ASSERT_EQ(rlx_program_bind(p1, RLX_SLOT_INPUT, "x", tx), RLX_OK);
    ASSERT_EQ(rlx_program_bind(p1, RLX_SLOT_OUTPUT, "y", ty), RLX_OK);
    ASSERT_EQ(rlx_program_bind(p2, RLX_SLOT_INPUT, "x", ty), RLX_OK);
    ASSERT_EQ(rlx_program_bind(p2, RLX_SLOT_OUTPUT, "y", tz), RLX_OK);
    float x[6], z[6];
    for (int it = 0; it < 5; it++) {
        for (int i = 0; i < 6; i++)
            x[i] = (float)(10 * it + i);
        ASSERT_EQ(rlx_tensor_write(tx, x, sizeof x), RLX_OK);
        for (int rep = 0; rep < 3; rep++) {
            if (rlx_program_submit(p1) != RLX_OK ||
                rlx_program_submit(p2) != RLX_OK)
                FAIL("submit: %s", rlx_last_error());
        }
    }
    if (rlx_program_wait(p2) != RLX_OK)
        FAIL("wait: %s", rlx_last_error());
    ASSERT_EQ(rlx_tensor_read(tz, z, sizeof z), RLX_OK);
    ASSERT(memcmp(z, x, sizeof z) == 0); /* the last input, through both */
    if (nan_fails) {
        x[0] = NAN;
        ASSERT_EQ(rlx_tensor_write(tx, x, sizeof x), RLX_OK);
        ASSERT_EQ(rlx_program_submit(p1), RLX_OK); /* fails on the device */
        rlx_status st = rlx_program_wait(p1);
        ASSERT(st != RLX_OK);
        ASSERT_CONTAINS(rlx_last_error(), "failed the run");
        ASSERT_CONTAINS(rlx_last_error(), "Fix:");
        ASSERT_EQ(rlx_program_wait(p1), RLX_OK); /* reported once */
    }
    rlx_tensor_destroy(tx);
    rlx_tensor_destroy(ty);
    rlx_tensor_destroy(tz);
    rlx_program_destroy(p1);
    rlx_program_destroy(p2);
    rlx_session_destroy(s);
    rlx_graph_destroy(g1);
    rlx_graph_destroy(g2);
}

TEST(queued_runs_through_the_bridge)
{
    rlx_runtime *rt = runtime_with(fake);
    check_queued(rt, "pjrt", 1);
    rlx_runtime_destroy(rt);
}

TEST(real_queued_runs)
{
    rlx_runtime *rt = real_runtime();
    check_queued(rt, real_device(), 0);
    rlx_runtime_destroy(rt);
}

static const rlx_test_case cases_list[] = {
    TEST_ENTRY(pjrt_error_becomes_rlx_error_with_fix),
    TEST_ENTRY(host_and_device_io_through_the_bridge),
    TEST_ENTRY(every_lowered_dtype_uploads_and_downloads),
    TEST_ENTRY(queued_runs_through_the_bridge),
    TEST_ENTRY(concurrent_sessions_share_one_client),
    TEST_ENTRY(real_device_io),
    TEST_ENTRY(real_queued_runs),
    TEST_ENTRY(real_cast_saturates_and_zeroes_nan),
    TEST_ENTRY(real_causal_softmax_fully_masked_rows_and_empty_mean),
    TEST_ENTRY(real_gather_checks_its_indices),
};

int main(int argc, char **argv)
{
    return pjrt_test_main(cases_list, sizeof cases_list / sizeof *cases_list,
                          argc, argv);
}
