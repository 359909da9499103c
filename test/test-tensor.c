/*
 * test-tensor.c - rlx_tensor and rlx_program_bind: run inputs and outputs
 * kept in the device's memory (ABI 1.2 device I/O). On cpu-ref and the
 * test-io12 test plugin, bound slots go to the backend as buffers; on
 * test-good, cpu-openblas and a 1.1 plugin that sets the flag anyway the
 * core copies through host memory. Either way a bound run must give the
 * bytes the host path gives.
 */
#include <pthread.h>

#include "test-tensor.h"

/* ---- graphs and data ------------------------------------------------- */

static const float XA[8] = { 1, 2, -1, 0.5f, -3, 0.25f, 2, 1 };
static const float XB[8] = { -1, 0.5f, 3, -2, 1, 1, -0.5f, 4 };

/* y = relu(x @ w) + b, x [2,4], w [4,3], b [3]; outputs y, then h = x @ w */
static rlx_graph *mlp_graph(void)
{
    rlx_graph *g = NULL;
    rlx_value x, w, b, h, r, y;
    ASSERT_OK(rlx_graph_create(&g));
    ASSERT_OK(rlx_graph_input(g, "x", RLX_DTYPE_F32, 2, X_DIMS, &x));
    ASSERT_OK(rlx_graph_param(g, "w", RLX_DTYPE_F32, 2, W_DIMS, &w));
    ASSERT_OK(rlx_graph_param(g, "b", RLX_DTYPE_F32, 1, B_DIMS, &b));
    ASSERT_OK(rlx_graph_add_node(g, "h", RLX_OP_MATMUL, 2,
                                 (rlx_value[]){ x, w }, NULL, &h));
    ASSERT_OK(rlx_graph_add_node(g, "r", RLX_OP_RELU, 1, &h, NULL, &r));
    ASSERT_OK(rlx_graph_add_node(g, "y", RLX_OP_ADD, 2,
                                 (rlx_value[]){ r, b }, NULL, &y));
    ASSERT_OK(rlx_graph_output(g, "y", y));
    ASSERT_OK(rlx_graph_output(g, "h", h));
    return g;
}

/* The two halves of mlp_graph: h = relu(x @ w), then y = h + b. */
static rlx_graph *first_half(void)
{
    rlx_graph *g = NULL;
    rlx_value x, w, h, r;
    ASSERT_OK(rlx_graph_create(&g));
    ASSERT_OK(rlx_graph_input(g, "x", RLX_DTYPE_F32, 2, X_DIMS, &x));
    ASSERT_OK(rlx_graph_param(g, "w", RLX_DTYPE_F32, 2, W_DIMS, &w));
    ASSERT_OK(rlx_graph_add_node(g, "h", RLX_OP_MATMUL, 2,
                                 (rlx_value[]){ x, w }, NULL, &h));
    ASSERT_OK(rlx_graph_add_node(g, "r", RLX_OP_RELU, 1, &h, NULL, &r));
    ASSERT_OK(rlx_graph_output(g, "r", r));
    return g;
}

static rlx_graph *second_half(void)
{
    rlx_graph *g = NULL;
    rlx_value r, b, y;
    ASSERT_OK(rlx_graph_create(&g));
    ASSERT_OK(rlx_graph_input(g, "r", RLX_DTYPE_F32, 2, Y_DIMS, &r));
    ASSERT_OK(rlx_graph_param(g, "b", RLX_DTYPE_F32, 1, B_DIMS, &b));
    ASSERT_OK(rlx_graph_add_node(g, "y", RLX_OP_ADD, 2,
                                 (rlx_value[]){ r, b }, NULL, &y));
    ASSERT_OK(rlx_graph_output(g, "y", y));
    return g;
}

/* ---- create, write, read --------------------------------------------- */

TEST(round_trip)
{
    rlx_runtime *rt = test_runtime();
    fixture f = fx_open(rt, "cpu-ref", ew_graph);
    ASSERT_EQ(rlx_backend_device_io(rlx_session_backend(f.s)), 1);

    rlx_tensor *t = tensor_new(f.p, 2, Y_DIMS, E1);
    tensor_expect(t, E1, 6);
    ASSERT_OK(rlx_tensor_write(t, E2, sizeof E2));
    tensor_expect(t, E2, 6);
    rlx_dtype dtype = RLX_DTYPE_INVALID;
    uint32_t rank = 0;
    const int64_t *dims = NULL;
    ASSERT_OK(rlx_tensor_shape(t, &dtype, &rank, &dims));
    ASSERT_EQ(dtype, RLX_DTYPE_F32);
    ASSERT_EQ(rank, 2);
    ASSERT(dims && dims[0] == 2 && dims[1] == 3);
    ASSERT_OK(rlx_tensor_shape(t, NULL, NULL, NULL));
    rlx_tensor_destroy(t);

    /* no data: zeros */
    static const float zeros[6];
    t = tensor_new(f.p, 2, Y_DIMS, NULL);
    tensor_expect(t, zeros, 6);
    rlx_tensor_destroy(t);

    /* other dtypes, and an empty tensor */
    const int64_t i64[3] = { -1, 1LL << 40, 7 };
    int64_t back[3] = { 0 };
    ASSERT_OK(rlx_tensor_create(f.p, RLX_DTYPE_I64, 1, B_DIMS, i64, &t));
    ASSERT_OK(rlx_tensor_read(t, back, sizeof back));
    ASSERT(memcmp(back, i64, sizeof back) == 0);
    rlx_tensor_destroy(t);
    const int64_t empty[2] = { 0, 3 };
    t = tensor_new(f.p, 2, empty, NULL);
    ASSERT_OK(rlx_tensor_read(t, NULL, 0));
    ASSERT_OK(rlx_tensor_write(t, NULL, 0));
    rlx_tensor_destroy(t);
    rlx_tensor_destroy(NULL);

    fx_close(&f);
    rlx_runtime_destroy(rt);
}

/* ---- runs with bound inputs and outputs ------------------------------ */

/* On P (mlp_graph), a run with x and y bound gives the host path's bytes,
 * reads x from the tensor (not the stale host slot) and leaves h, which
 * stays unbound, to rlx_program_output_data. */
static void check_bound_mlp(rlx_program *p)
{
    float ya[6], ha[6], yb[6], hb[6], got[6];
    host_run(p, XB, sizeof XB, yb, hb, 6);
    host_run(p, XA, sizeof XA, ya, ha, 6);
    ASSERT(memcmp(ya, yb, sizeof ya) != 0); /* the inputs tell apart */

    /* the host slot holds XA now; the tensor XB */
    rlx_tensor *tx = tensor_new(p, 2, X_DIMS, XB);
    rlx_tensor *ty = tensor_new(p, 2, Y_DIMS, NULL);
    ASSERT_OK(rlx_program_bind(p, RLX_SLOT_INPUT, "x", tx));
    ASSERT_OK(rlx_program_bind(p, RLX_SLOT_OUTPUT, "y", ty));
    ASSERT_OK(rlx_program_run(p));
    tensor_expect(ty, yb, 6);
    output_copy(p, 1, got, sizeof got);
    ASSERT(memcmp(got, hb, sizeof got) == 0);

    /* a new input written into the tensor is seen by the next run */
    ASSERT_OK(rlx_tensor_write(tx, XA, sizeof XA));
    ASSERT_OK(rlx_program_run(p));
    tensor_expect(ty, ya, 6);
    output_copy(p, 1, got, sizeof got);
    ASSERT(memcmp(got, ha, sizeof got) == 0);
    rlx_tensor_destroy(tx);
    rlx_tensor_destroy(ty);
    ASSERT_OK(rlx_program_bind(p, RLX_SLOT_INPUT, "x", NULL));
    ASSERT_OK(rlx_program_bind(p, RLX_SLOT_OUTPUT, "y", NULL));
}

TEST(bound_run_matches_host_path)
{
    rlx_runtime *rt = test_runtime();
    fixture f = fx_open(rt, "cpu-ref", mlp_graph);
    check_bound_mlp(f.p);

    /* and the host path is right: y = relu(x @ w) + b */
    float y[6];
    host_run(f.p, XA, sizeof XA, y, NULL, 6);
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 3; j++) {
            double h = 0;
            for (int k = 0; k < 4; k++)
                h += (double)XA[i * 4 + k] * W[k * 3 + j];
            ASSERT_NEAR(y[i * 3 + j], (h > 0 ? h : 0) + B[j], 1e-6);
        }
    fx_close(&f);
    rlx_runtime_destroy(rt);
}

/* Program A's output tensor is program B's input: A then B equals the
 * whole graph in one program. */
static void check_chain(rlx_runtime *rt, const char *device)
{
    float want[6];
    fixture whole = fx_open(rt, device, mlp_graph);
    host_run(whole.p, XA, sizeof XA, want, NULL, 6);
    fx_close(&whole);

    fixture a = fx_open(rt, device, first_half);
    fixture b = fx_open(rt, device, second_half);
    rlx_tensor *x = tensor_new(a.p, 2, X_DIMS, XA);
    rlx_tensor *mid = tensor_new(a.p, 2, Y_DIMS, NULL);
    rlx_tensor *y = tensor_new(b.p, 2, Y_DIMS, NULL);
    ASSERT_OK(rlx_program_bind(a.p, RLX_SLOT_INPUT, "x", x));
    ASSERT_OK(rlx_program_bind(a.p, RLX_SLOT_OUTPUT, "r", mid));
    ASSERT_OK(rlx_program_bind(b.p, RLX_SLOT_INPUT, "r", mid));
    ASSERT_OK(rlx_program_bind(b.p, RLX_SLOT_OUTPUT, "y", y));
    rlx_tensor_destroy(x);
    rlx_tensor_destroy(mid);
    ASSERT_OK(rlx_program_run(a.p));
    ASSERT_OK(rlx_program_run(b.p));
    tensor_expect(y, want, 6);
    rlx_tensor_destroy(y);
    fx_close(&a);
    fx_close(&b);
}

TEST(chained_programs)
{
    rlx_runtime *rt = test_runtime();
    check_chain(rt, "cpu-ref");
    rlx_runtime_destroy(rt);
}

TEST(rebind_and_unbind)
{
    rlx_runtime *rt = test_runtime();
    fixture f = fx_open(rt, "cpu-ref", ew_graph);
    float z1[6], z21[6], z2[6], z22[6], got[6];
    ew_expect(E1, z1, z21);
    ew_expect(E2, z2, z22);

    rlx_tensor *t1 = tensor_new(f.p, 2, Y_DIMS, E1);
    rlx_tensor *t2 = tensor_new(f.p, 2, Y_DIMS, E2);
    ASSERT_OK(rlx_program_bind(f.p, RLX_SLOT_INPUT, "x", t1));
    ASSERT_OK(rlx_program_run(f.p));
    output_copy(f.p, 0, got, sizeof got);
    ASSERT(memcmp(got, z1, sizeof got) == 0);

    /* rebinding releases T1: its last reference, after this destroy */
    rlx_tensor_destroy(t1);
    ASSERT_OK(rlx_program_bind(f.p, RLX_SLOT_INPUT, "x", t2));
    ASSERT_OK(rlx_program_bind(f.p, RLX_SLOT_INPUT, "x", t2)); /* again */
    ASSERT_OK(rlx_program_run(f.p));
    output_copy(f.p, 0, got, sizeof got);
    ASSERT(memcmp(got, z2, sizeof got) == 0);

    /* unbound, the input is unset until set again */
    ASSERT_OK(rlx_program_bind(f.p, RLX_SLOT_INPUT, "x", NULL));
    ASSERT_OK(rlx_program_bind(f.p, RLX_SLOT_INPUT, "x", NULL));
    ASSERT_STATUS(rlx_program_run(f.p), RLX_ERR_STATE);
    ASSERT_CONTAINS(rlx_last_error(), "input 'x' has not been set");
    ASSERT_OK(rlx_program_set_input(f.p, "x", E1, sizeof E1));
    ASSERT_OK(rlx_program_run(f.p));
    output_copy(f.p, 0, got, sizeof got);
    ASSERT(memcmp(got, z1, sizeof got) == 0);

    /* an output bound during the last run is not in host memory */
    rlx_tensor *u = tensor_new(f.p, 2, Y_DIMS, NULL);
    ASSERT_OK(rlx_program_bind(f.p, RLX_SLOT_OUTPUT, "z", u));
    ASSERT_OK(rlx_program_set_input(f.p, "x", E2, sizeof E2));
    ASSERT_OK(rlx_program_run(f.p));
    tensor_expect(u, z2, 6);
    output_copy(f.p, 1, got, sizeof got); /* z2 is unbound */
    ASSERT(memcmp(got, z22, sizeof got) == 0);
    ASSERT_OK(rlx_program_bind(f.p, RLX_SLOT_OUTPUT, "z", NULL));
    ASSERT(rlx_program_output_data(f.p, 0, NULL) == NULL);
    ASSERT_CONTAINS(rlx_last_error(), "output 'z' was bound to a tensor "
                                      "during the last run");
    ASSERT_CONTAINS(rlx_last_error(), "Fix:");
    ASSERT_OK(rlx_program_run(f.p));
    output_copy(f.p, 0, got, sizeof got);
    ASSERT(memcmp(got, z2, sizeof got) == 0);
    tensor_expect(u, z2, 6);
    rlx_tensor_destroy(u);
    rlx_tensor_destroy(t2);
    fx_close(&f);
    rlx_runtime_destroy(rt);
}

TEST(set_input_after_bind_unbinds)
{
    rlx_runtime *rt = test_runtime();
    fixture f = fx_open(rt, "cpu-ref", ew_graph);
    float z1[6], z21[6], got[6];
    ew_expect(E1, z1, z21);

    rlx_tensor *t = tensor_new(f.p, 2, Y_DIMS, E2);
    ASSERT_OK(rlx_program_bind(f.p, RLX_SLOT_INPUT, "x", t));
    size_t nbytes = 1;
    ASSERT(rlx_program_input_buffer(f.p, "x", &nbytes) == NULL);
    ASSERT_EQ(nbytes, 0);
    ASSERT_CONTAINS(rlx_last_error(), "input 'x' is bound to a tensor. Fix:");

    /* host data given after the bind wins, and the tensor is let go */
    ASSERT_OK(rlx_program_set_input(f.p, "x", E1, sizeof E1));
    ASSERT_OK(rlx_program_run(f.p));
    output_copy(f.p, 0, got, sizeof got);
    ASSERT(memcmp(got, z1, sizeof got) == 0);
    tensor_expect(t, E2, 6);
    float *in = rlx_program_input_buffer(f.p, "x", &nbytes);
    ASSERT(in);
    ASSERT_EQ(nbytes, sizeof E1);
    rlx_tensor_destroy(t); /* the last reference: ASan sees a leak else */
    fx_close(&f);
    rlx_runtime_destroy(rt);
}

TEST(output_data_of_bound_output_fails)
{
    rlx_runtime *rt = test_runtime();
    fixture f = fx_open(rt, "cpu-ref", ew_graph);
    rlx_tensor *t = tensor_new(f.p, 2, Y_DIMS, NULL);
    ASSERT_OK(rlx_program_bind(f.p, RLX_SLOT_OUTPUT, "z", t));
    size_t nbytes = 1;
    ASSERT(rlx_program_output_data(f.p, 0, &nbytes) == NULL);
    ASSERT_EQ(nbytes, 0);
    ASSERT_CONTAINS(rlx_last_error(), "output 'z' is bound to a tensor. "
                                      "Fix: read it with rlx_tensor_read");
    ASSERT_OK(rlx_program_set_input(f.p, "x", E1, sizeof E1));
    ASSERT_OK(rlx_program_run(f.p));
    ASSERT(rlx_program_output_data(f.p, 0, NULL) == NULL);
    ASSERT_CONTAINS(rlx_last_error(), "output 'z' is bound to a tensor");
    ASSERT(rlx_program_output_data(f.p, 1, NULL) != NULL);
    rlx_tensor_destroy(t);
    fx_close(&f);
    rlx_runtime_destroy(rt);
}

TEST(destroyed_while_bound_stays_alive)
{
    rlx_runtime *rt = test_runtime();
    fixture f = fx_open(rt, "cpu-ref", ew_graph);
    float z1[6], z21[6], got[6];
    ew_expect(E1, z1, z21);

    rlx_tensor *t = tensor_new(f.p, 2, Y_DIMS, E1);
    rlx_tensor *u = tensor_new(f.p, 2, Y_DIMS, NULL);
    ASSERT_OK(rlx_program_bind(f.p, RLX_SLOT_INPUT, "x", t));
    ASSERT_OK(rlx_program_bind(f.p, RLX_SLOT_OUTPUT, "z", u));
    rlx_tensor_destroy(t);
    rlx_tensor_destroy(u);
    for (int round = 0; round < 2; round++) {
        ASSERT_OK(rlx_program_run(f.p));
        output_copy(f.p, 1, got, sizeof got);
        ASSERT(memcmp(got, z21, sizeof got) == 0);
    }

    /* a tensor outlives the program it came from */
    rlx_tensor *keep = tensor_new(f.p, 2, Y_DIMS, E2);
    fx_close(&f); /* frees T and U: ASan reports a leak otherwise */
    tensor_expect(keep, E2, 6);
    fixture g = fx_open(rt, "cpu-ref", ew_graph);
    ASSERT_OK(rlx_program_bind(g.p, RLX_SLOT_INPUT, "x", keep));
    ASSERT_OK(rlx_program_run(g.p));
    fx_close(&g);
    rlx_tensor_destroy(keep);
    rlx_runtime_destroy(rt);
}

/* ---- other backends: emulated and plugin device I/O ------------------ */

/* On DEVICE (ew_graph): host path and bound path give cpu-ref's bytes,
 * the bound input wins over a stale host slot, and outputs chain. */
static void check_bound_ew(rlx_runtime *rt, const char *device,
                           int device_io)
{
    float want_z[6], want_z2[6], z[6], z2[6];
    ew_expect(E2, want_z, want_z2);
    fixture f = fx_open(rt, device, ew_graph);
    ASSERT_EQ(rlx_backend_device_io(rlx_session_backend(f.s)), device_io);
    host_run(f.p, E2, sizeof E2, z, z2, 6);
    ASSERT(memcmp(z, want_z, sizeof z) == 0);
    ASSERT(memcmp(z2, want_z2, sizeof z2) == 0);

    ASSERT_OK(rlx_program_set_input(f.p, "x", E1, sizeof E1)); /* stale */
    rlx_tensor *x = tensor_new(f.p, 2, Y_DIMS, E2);
    rlx_tensor *tz = tensor_new(f.p, 2, Y_DIMS, NULL);
    rlx_tensor *tz2 = tensor_new(f.p, 2, Y_DIMS, NULL);
    ASSERT_OK(rlx_program_bind(f.p, RLX_SLOT_INPUT, "x", x));
    ASSERT_OK(rlx_program_bind(f.p, RLX_SLOT_OUTPUT, "z", tz));
    ASSERT_OK(rlx_program_bind(f.p, RLX_SLOT_OUTPUT, "z2", tz2));
    ASSERT_OK(rlx_program_run(f.p));
    tensor_expect(tz, want_z, 6);
    tensor_expect(tz2, want_z2, 6);

    /* chain: z2 of this run is x of another program's run */
    fixture g = fx_open(rt, device, ew_graph);
    rlx_tensor *out = tensor_new(g.p, 2, Y_DIMS, NULL);
    ASSERT_OK(rlx_program_bind(g.p, RLX_SLOT_INPUT, "x", tz2));
    ASSERT_OK(rlx_program_bind(g.p, RLX_SLOT_OUTPUT, "z2", out));
    ASSERT_OK(rlx_program_run(g.p));
    float again[6], again2[6];
    ew_expect(want_z2, again, again2);
    tensor_expect(out, again2, 6);
    output_copy(g.p, 0, z, sizeof z);
    ASSERT(memcmp(z, again, sizeof z) == 0);

    rlx_tensor_destroy(x);
    rlx_tensor_destroy(tz);
    rlx_tensor_destroy(tz2);
    rlx_tensor_destroy(out);
    fx_close(&g);
    fx_close(&f);
}

TEST(emulated_on_plugin_without_device_io)
{
    rlx_runtime *rt = runtime_with("testgood");
    check_bound_ew(rt, "npu:1", 0);
    check_bound_ew(rt, "cpu-ref", 1);
    rlx_runtime_destroy(rt);
}

TEST(emulated_on_cpu_openblas)
{
    const char *dir = getenv("RLX_TEST_BLAS_DIR");
    if (!dir || !*dir)
        SKIP("cpu-openblas is not built");
    rlx_runtime *rt = test_runtime();
    ASSERT_OK(rlx_runtime_discover(rt, dir));
    const rlx_backend *b = rlx_runtime_find_backend(rt, "cpu-openblas");
    if (!b)
        FAIL("no cpu-openblas backend in %s", dir);
    ASSERT_EQ(rlx_backend_device_io(b), 0);
    fixture f = fx_open(rt, "cpu-openblas", mlp_graph);
    ASSERT(rlx_session_backend(f.s) == b);
    check_bound_mlp(f.p);
    fx_close(&f);
    check_chain(rt, "cpu-openblas");
    rlx_runtime_destroy(rt);
}

TEST(device_io_plugin_reads_and_writes_buffers)
{
    rlx_runtime *rt = runtime_with("testdeviceio");
    check_bound_ew(rt, "test-io12", 1);

    /* a tensor keeps its plugin loaded: reading it after the unload
     * calls the plugin's buffer_read */
    fixture f = fx_open(rt, "test-io12", ew_graph);
    rlx_tensor *t = tensor_new(f.p, 2, Y_DIMS, E1);
    fx_close(&f);
    ASSERT_OK(rlx_runtime_unload_plugin(rt, test_plugin("testdeviceio")));
    const rlx_backend *b = rlx_runtime_find_backend(rt, "test-io12");
    ASSERT(b == NULL);
    tensor_expect(t, E1, 6);
    ASSERT_OK(rlx_tensor_write(t, E2, sizeof E2));
    tensor_expect(t, E2, 6);
    rlx_tensor_destroy(t); /* closes the plugin */
    rlx_runtime_destroy(rt);
}

TEST(abi_1_1_device_io_bit_masked)
{
    rlx_runtime *rt = runtime_with("testdeviceio");
    const rlx_backend *b = rlx_runtime_find_backend(rt, "test-io11");
    ASSERT(b);
    ASSERT_EQ(rlx_backend_abi_version(b), RLX_ABI_VERSION_MAKE(1, 1));
    ASSERT_EQ(rlx_backend_executes(b), 1);
    ASSERT_EQ(rlx_backend_device_io(b), 0);
    /* the backend fails buffers, NULL pointers and data-less creates */
    check_bound_ew(rt, "test-io11", 0);

    /* device I/O means nothing without EXECUTES */
    b = rlx_runtime_find_backend(rt, "test-io-emit");
    ASSERT(b);
    ASSERT_EQ(rlx_backend_executes(b), 0);
    ASSERT_EQ(rlx_backend_device_io(b), 0);
    rlx_runtime_destroy(rt);
}

TEST(device_io_without_buffer_write_refused)
{
    rlx_runtime *rt = runtime_with("testdeviceio");
    ASSERT(rlx_runtime_find_backend(rt, "test-io-nowrite") == NULL);
    ASSERT(rlx_runtime_find_backend(rt, "test-io12")); /* the others stay */
    const char *reason = NULL, *fix = NULL;
    rlx_diag_kind kind = 0;
    ASSERT(test_find_diag(rt, test_plugin("testdeviceio"), &kind, &reason,
                          &fix) >= 0);
    ASSERT_EQ(kind, RLX_DIAG_REJECTED);
    ASSERT_CONTAINS(reason, "backend 'test-io-nowrite': malformed vtable: "
                            "required slot 'buffer_write' is missing");
    ASSERT_STREQ(fix, "implement buffer_write, or drop RLX_BACKEND_DEVICE_IO");
    ASSERT_EQ(rlx_backend_device_io(NULL), 0);
    rlx_runtime_destroy(rt);
}

/* ---- threads --------------------------------------------------------- */

#define N_THREADS 4

typedef struct worker {
    rlx_runtime *rt;
    rlx_tensor *shared;          /* bound as every worker's input */
    pthread_barrier_t *bound;    /* all have bound it */
    int ok;
} worker;

static void *work(void *arg)
{
    worker *w = arg;
    rlx_session *s = NULL;
    rlx_program *p = NULL;
    rlx_tensor *out = NULL;
    rlx_graph *g = ew_build();
    float want_z[6], want_z2[6], got[6];
    ew_expect(E1, want_z, want_z2);
    int ok = g && rlx_session_create(w->rt, "cpu-ref", &s) == RLX_OK &&
             rlx_session_compile(s, g, &p) == RLX_OK &&
             rlx_program_set_param(p, "v", EW_V, sizeof EW_V) == RLX_OK &&
             rlx_tensor_create(p, RLX_DTYPE_F32, 2, Y_DIMS, NULL, &out) ==
                 RLX_OK &&
             rlx_program_bind(p, RLX_SLOT_INPUT, "x", w->shared) == RLX_OK &&
             rlx_program_bind(p, RLX_SLOT_OUTPUT, "z", out) == RLX_OK;
    pthread_barrier_wait(w->bound);
    for (int i = 0; ok && i < 50; i++)
        ok = rlx_program_run(p) == RLX_OK &&
             rlx_tensor_read(out, got, sizeof got) == RLX_OK &&
             memcmp(got, want_z, sizeof got) == 0;
    rlx_tensor_destroy(out);
    rlx_program_destroy(p); /* the last one frees the shared tensor */
    rlx_session_destroy(s);
    rlx_graph_destroy(g);
    w->ok = ok;
    return NULL;
}

TEST(shared_input_across_threads)
{
    rlx_runtime *rt = test_runtime();
    fixture f = fx_open(rt, "cpu-ref", ew_graph);
    rlx_tensor *shared = tensor_new(f.p, 2, Y_DIMS, E1);
    fx_close(&f);
    pthread_barrier_t bound;
    ASSERT(pthread_barrier_init(&bound, NULL, N_THREADS + 1) == 0);
    worker w[N_THREADS];
    pthread_t th[N_THREADS];
    for (int i = 0; i < N_THREADS; i++) {
        w[i] = (worker){ .rt = rt, .shared = shared, .bound = &bound };
        ASSERT(pthread_create(&th[i], NULL, work, &w[i]) == 0);
    }
    pthread_barrier_wait(&bound);
    rlx_tensor_destroy(shared); /* the workers' bindings keep it */
    for (int i = 0; i < N_THREADS; i++)
        pthread_join(th[i], NULL);
    pthread_barrier_destroy(&bound);
    for (int i = 0; i < N_THREADS; i++)
        ASSERT(w[i].ok);
    rlx_runtime_destroy(rt);
}

RLX_TEST_LIST(TEST_ENTRY(round_trip),
              TEST_ENTRY(bound_run_matches_host_path),
              TEST_ENTRY(chained_programs),
              TEST_ENTRY(rebind_and_unbind),
              TEST_ENTRY(set_input_after_bind_unbinds),
              TEST_ENTRY(output_data_of_bound_output_fails),
              TEST_ENTRY(destroyed_while_bound_stays_alive),
              TEST_ENTRY(emulated_on_plugin_without_device_io),
              TEST_ENTRY(emulated_on_cpu_openblas),
              TEST_ENTRY(device_io_plugin_reads_and_writes_buffers),
              TEST_ENTRY(abi_1_1_device_io_bit_masked),
              TEST_ENTRY(device_io_without_buffer_write_refused),
              TEST_ENTRY(shared_input_across_threads));
