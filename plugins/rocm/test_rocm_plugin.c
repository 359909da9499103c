/*
 * test_rocm_plugin.c - loads librlx-backend-rocm.so through the public
 * API and checks what every machine can check: the file loads quickly
 * without touching HIP (libamdhip64 is not even mapped), registers
 * backend "rocm" on device rocm, answers supports_op, and its probe
 * tells the truth. With the HIP runtime pointed at a missing file
 * (RLX_ROCM_HIP_LIBRARY) the probe must name the Debian package; with
 * the real runtime and no AMD GPU it must fail with RLX_ERR_UNAVAILABLE,
 * the runtime's error (hipErrorNoDevice) and a Fix, and a session on
 * rocm must fail the same way. With an AMD GPU a small graph must run
 * and match the CPU. Prints TAP.
 *
 * Then the rocBLAS loader and argument translation (test_rocm_rocblas.c)
 * against the fake librocblas builds named by the second and third
 * arguments.
 *
 * Whether a GPU is expected: RLX_TEST_ROCM_EXPECT=gpu|none, else the
 * presence of /dev/kfd.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rlx/rlx.h>

static int n_test, n_fail;

void rocm_rocblas_tests(void (*ok)(int, const char *, const char *),
                        const char *fake, const char *partial);

static void ok(int cond, const char *fmt, const char *detail)
{
    n_test++;
    if (!cond)
        n_fail++;
    printf("%s %d - %s", cond ? "ok" : "not ok", n_test, fmt);
    if (detail && *detail)
        printf(" (%s)", detail);
    printf("\n");
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int expect_gpu(void)
{
    const char *e = getenv("RLX_TEST_ROCM_EXPECT");
    if (e && !strcmp(e, "gpu"))
        return 1;
    if (e && !strcmp(e, "none"))
        return 0;
    return access("/dev/kfd", F_OK) == 0;
}

/* Is a library whose path holds NAME mapped into this process? */
static int mapped(const char *name)
{
    FILE *f = fopen("/proc/self/maps", "r");
    char line[1024];
    int found = 0;
    while (f && !found && fgets(line, sizeof line, f))
        found = strstr(line, name) != NULL;
    if (f)
        fclose(f);
    return found;
}

/* y = relu(x @ w + b) on DEVICE, x also output as "xo"; returns 0 on
 * success. BIND: x, y and xo live in device tensors (rlx_program_bind),
 * and a second run with x doubled, in another tensor, lands in Y2 (the
 * rebinding must re-capture the graph). */
static int run_small(rlx_runtime *rt, const char *device, int bind, float *y,
                     float *y2, float *xo)
{
    rlx_graph *g = NULL;
    rlx_session *s = NULL;
    rlx_program *p = NULL;
    rlx_tensor *tx = NULL, *tx2 = NULL, *ty = NULL, *txo = NULL;
    rlx_value x, w, b, mm, add, r;
    float xs[2 * 3] = { 1, -2, 3, 0.5f, 0.25f, -1 }, xs2[2 * 3];
    for (int i = 0; i < 6; i++)
        xs2[i] = 2 * xs[i];
    float ws[3 * 4], bs[4] = { 0.1f, -0.2f, 0.3f, -0.4f };
    for (int i = 0; i < 12; i++)
        ws[i] = (float)(i % 5) * 0.5f - 1.0f;
    int rc = 1;
    if (rlx_graph_create(&g) != RLX_OK ||
        rlx_graph_input(g, "x", RLX_DTYPE_F32, 2, (int64_t[]){ 2, 3 }, &x) ||
        rlx_graph_param(g, "w", RLX_DTYPE_F32, 2, (int64_t[]){ 3, 4 }, &w) ||
        rlx_graph_param(g, "b", RLX_DTYPE_F32, 1, (int64_t[]){ 4 }, &b) ||
        rlx_graph_add_node(g, "mm", RLX_OP_MATMUL, 2,
                           (rlx_value[]){ x, w }, NULL, &mm) ||
        rlx_graph_add_node(g, "add", RLX_OP_ADD, 2, (rlx_value[]){ mm, b },
                           NULL, &add) ||
        rlx_graph_add_node(g, "relu", RLX_OP_RELU, 1, &add, NULL, &r) ||
        rlx_graph_output(g, "y", r) || rlx_graph_output(g, "xo", x))
        goto out;
    if (rlx_session_create(rt, device, &s) || rlx_session_compile(s, g, &p) ||
        rlx_program_set_param(p, "w", ws, sizeof ws) ||
        rlx_program_set_param(p, "b", bs, sizeof bs))
        goto out;
    if (!bind) {
        if (rlx_program_set_input(p, "x", xs, sizeof xs))
            goto out;
        for (int rep = 0; rep < 3; rep++) /* replays the captured graph */
            if (rlx_program_run(p))
                goto out;
        memcpy(y, rlx_program_output_data(p, 0, NULL), 8 * sizeof(float));
        memcpy(xo, rlx_program_output_data(p, 1, NULL), 6 * sizeof(float));
        if (rlx_program_set_input(p, "x", xs2, sizeof xs2) ||
            rlx_program_run(p))
            goto out;
        memcpy(y2, rlx_program_output_data(p, 0, NULL), 8 * sizeof(float));
        rc = 0;
        goto out;
    }
    const int64_t dx[] = { 2, 3 }, dy[] = { 2, 4 };
    if (rlx_tensor_create(p, RLX_DTYPE_F32, 2, dx, xs, &tx) ||
        rlx_tensor_create(p, RLX_DTYPE_F32, 2, dx, NULL, &tx2) ||
        rlx_tensor_write(tx2, xs2, sizeof xs2) ||
        rlx_tensor_create(p, RLX_DTYPE_F32, 2, dy, NULL, &ty) ||
        rlx_tensor_create(p, RLX_DTYPE_F32, 2, dx, NULL, &txo) ||
        rlx_program_bind(p, RLX_SLOT_INPUT, "x", tx) ||
        rlx_program_bind(p, RLX_SLOT_OUTPUT, "y", ty) ||
        rlx_program_bind(p, RLX_SLOT_OUTPUT, "xo", txo))
        goto out;
    for (int rep = 0; rep < 3; rep++)
        if (rlx_program_run(p))
            goto out;
    if (rlx_tensor_read(ty, y, 8 * sizeof(float)) ||
        rlx_tensor_read(txo, xo, 6 * sizeof(float)) ||
        rlx_program_bind(p, RLX_SLOT_INPUT, "x", tx2) || rlx_program_run(p) ||
        rlx_tensor_read(ty, y2, 8 * sizeof(float)))
        goto out;
    rc = 0;
out:
    if (rc)
        fprintf(stderr, "# %s%s: %s\n", device, bind ? " (bound)" : "",
                rlx_last_error());
    rlx_tensor_destroy(tx);
    rlx_tensor_destroy(tx2);
    rlx_tensor_destroy(ty);
    rlx_tensor_destroy(txo);
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_graph_destroy(g);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: %s PLUGIN.so FAKE-ROCBLAS.so "
                "FAKE-ROCBLAS-NO-SGEMM.so\n", argv[0]);
        return 2;
    }
    int gpu = expect_gpu();
    printf("# expecting %s\n", gpu ? "an AMD GPU" : "no AMD GPU");
    rlx_runtime *rt = NULL;
    ok(rlx_runtime_create(&rt, RLX_RUNTIME_NO_DISCOVERY) == RLX_OK,
       "runtime created without discovery", rlx_last_error());
    if (!rt) {
        printf("1..%d\n", n_test);
        return 1;
    }
    double t0 = now_ms();
    rlx_status st = rlx_runtime_load_plugin(rt, argv[1]);
    double dt = now_ms() - t0;
    ok(st == RLX_OK, "plugin loads", st ? rlx_last_error() : "");
    char ms[64];
    snprintf(ms, sizeof ms, "%.2f ms", dt);
    ok(dt < 200.0, "loading takes little time", ms);
    ok(!mapped("libamdhip64"), "loading does not load the HIP runtime", "");

    const rlx_backend *b = rlx_runtime_find_backend(rt, "rocm");
    ok(b != NULL, "backend 'rocm' registered", "");
    if (b) {
        ok(rlx_backend_device_kind(b) == RLX_DEVICE_ROCM,
           "device kind is rocm", "");
        ok(!strcmp(rlx_backend_device_name(b), "rocm"), "device name rocm",
           rlx_backend_device_name(b));
        ok(rlx_backend_executes(b), "backend executes", "");
        ok(rlx_backend_supports_op(b, RLX_OP_MATMUL, RLX_DTYPE_F32) &&
               rlx_backend_supports_op(b, RLX_OP_MATMUL, RLX_DTYPE_BF16),
           "matmul on f32 and bf16", "");
        ok(!rlx_backend_supports_op(b, RLX_OP_MATMUL, RLX_DTYPE_I32),
           "no float ops on integer dtypes", "");

        /* a HIP runtime that is not there: the message names the package */
        uint32_t count = 0;
        char detail[1024];
        setenv("RLX_ROCM_HIP_LIBRARY", "/nonexistent/libamdhip64.so.5", 1);
        st = rlx_backend_probe(b, &count);
        snprintf(detail, sizeof detail, "%s: %s", rlx_status_name(st),
                 st ? rlx_last_error() : "");
        ok(st == RLX_ERR_UNAVAILABLE &&
               strstr(rlx_last_error(), "libamdhip64-5") &&
               strstr(rlx_last_error(), "Fix:"),
           "without the HIP runtime: unavailable, naming its package",
           detail);
        unsetenv("RLX_ROCM_HIP_LIBRARY");

        t0 = now_ms();
        st = rlx_backend_probe(b, &count);
        dt = now_ms() - t0;
        snprintf(detail, sizeof detail, "%s, %u devices, %.1f ms: %s",
                 rlx_status_name(st), (unsigned)count, dt,
                 st ? rlx_last_error() : "");
        if (gpu) {
            ok(st == RLX_OK && count >= 1, "probe finds a GPU", detail);
            float y[2][8], y2[2][8], xo[2][6];
            int rc = run_small(rt, "cpu-ref", 0, y[0], y2[0], xo[0]);
            int rg = run_small(rt, "rocm", 0, y[1], y2[1], xo[1]);
            ok(rg == 0 && rc == 0, "a small graph runs on rocm and cpu-ref",
               rg ? rlx_last_error() : "");
            double err = 0;
            for (int i = 0; i < 8 && !rg && !rc; i++)
                err = fmax(err, fmax(fabs((double)y[1][i] - y[0][i]),
                                     fabs((double)y2[1][i] - y2[0][i])));
            snprintf(detail, sizeof detail, "max |diff| %g", err);
            ok(!rg && !rc && err < 1e-5, "rocm matches cpu-ref", detail);
        } else if (strstr(rlx_last_error(), "could not be loaded")) {
            /* no HIP runtime installed on this machine */
            ok(st == RLX_ERR_UNAVAILABLE &&
                   strstr(rlx_last_error(), "libamdhip64-5"),
               "no HIP runtime here: unavailable, naming its package",
               detail);
        } else {
            ok(st == RLX_ERR_UNAVAILABLE, "probe fails with "
               "RLX_ERR_UNAVAILABLE", detail);
            ok(st != RLX_OK && strstr(rlx_last_error(), "Fix:") != NULL,
               "the probe's message has a Fix", rlx_last_error());
            ok(st != RLX_OK &&
                   strstr(rlx_last_error(), "hipGetDeviceCount returned "
                                            "hipError") != NULL,
               "the message gives the runtime's reason", "");
            rlx_session *s = NULL;
            st = rlx_session_create(rt, "rocm", &s);
            snprintf(detail, sizeof detail, "%s: %s", rlx_status_name(st),
                     rlx_last_error());
            ok(st != RLX_OK && s == NULL &&
                   strstr(rlx_last_error(), "Fix:") != NULL,
               "a session on rocm fails with a Fix", detail);
            rlx_session_destroy(s);
        }
    }
    rlx_runtime_destroy(rt);
    rocm_rocblas_tests(ok, argv[2], argv[3]);
    printf("1..%d\n", n_test);
    return n_fail != 0;
}
