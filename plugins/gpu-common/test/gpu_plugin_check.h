/*
 * gpu_plugin_check.h - the scenarios the CUDA and ROCm plugins' tests
 * (plugins/cuda/test/, plugins/rocm/test/) share, on test/harness.h and
 * the public API: the plugin's registration, a small graph on the GPU
 * against cpu-ref (with bound device tensors where the backend keeps run
 * inputs and outputs on the device), and the answers without a GPU. Each
 * test keeps what is its vendor's own (its op support, its runtime
 * library's absence).
 *
 * A TEST that checks many cases (every shape of a kernel) calls
 * gpu_check once per case: each prints a TAP comment line, "# ok: ..."
 * or "# not ok: ...", and GPU_CHECKS_END() fails the TEST when any of
 * its cases failed, so one bad case does not hide the others.
 */
#ifndef RLX_TEST_GPU_PLUGIN_CHECK_H
#define RLX_TEST_GPU_PLUGIN_CHECK_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rlx/rlx.h>

#include "harness.h"

static int gpu_checks_failed;

static inline void gpu_check(int cond, const char *what, const char *detail)
{
    if (!cond)
        gpu_checks_failed++;
    printf("# %s: %s", cond ? "ok" : "not ok", what);
    if (detail && *detail)
        printf(" (%s)", detail);
    printf("\n");
}

/* Start counting a TEST's checks (a TEST ended by FAIL leaves a count
 * behind), and fail the TEST when one of them failed. */
#define GPU_CHECKS_BEGIN() (gpu_checks_failed = 0)

#define GPU_CHECKS_END()                                                    \
    do {                                                                    \
        int rlx__bad = gpu_checks_failed;                                   \
        gpu_checks_failed = 0;                                              \
        if (rlx__bad)                                                       \
            FAIL("%d check(s) failed: the '# not ok' lines above", rlx__bad); \
    } while (0)

/* The plugin file the test loads: $VAR, set by the plugin's meson.build. */
static inline const char *gpu_test_plugin(const char *var)
{
    const char *path = getenv(var);
    if (!path || !*path)
        FAIL("%s is not set. Fix: run the test through meson test, which "
             "sets it to the plugin's path", var);
    return path;
}

static inline double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* A runtime without discovery with plugin PATH loaded, *MS the load's
 * time; NULL (the reason the last error) when either fails. */
static inline rlx_runtime *gpu_load_timed(const char *path, double *ms)
{
    rlx_runtime *rt = NULL;
    if (rlx_runtime_create(&rt, RLX_RUNTIME_NO_DISCOVERY) != RLX_OK)
        return NULL;
    double t0 = now_ms();
    rlx_status st = rlx_runtime_load_plugin(rt, path);
    *ms = now_ms() - t0;
    if (st != RLX_OK) {
        rlx_runtime_destroy(rt);
        return NULL;
    }
    return rt;
}

/* Backend B probed, timed: its status, *COUNT its devices, DETAIL (N
 * bytes) a line with both, the time and the probe's message. */
static inline rlx_status gpu_probe_timed(const rlx_backend *b,
                                         uint32_t *count, char *detail,
                                         size_t n)
{
    double t0 = now_ms();
    rlx_status st = rlx_backend_probe(b, count);
    double dt = now_ms() - t0;
    snprintf(detail, n, "%s, %u devices, %.1f ms: %s", rlx_status_name(st),
             (unsigned)*count, dt, st ? rlx_last_error() : "");
    return st;
}

/* y = relu(x @ w + b) on DEVICE, x also output as "xo"; returns 0 on
 * success. BIND: x, y and xo live in device tensors (rlx_program_bind),
 * and a second run with x doubled, in another tensor, lands in Y2 (the
 * rebinding must re-capture the graph); BIND 2: the same with the runs
 * queued (rlx_program_submit), read back with no explicit wait. */
static inline int run_small(rlx_runtime *rt, const char *device, int bind,
                            float *y, float *y2, float *xo)
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
    rlx_status (*go)(rlx_program *) = bind == 2 ? rlx_program_submit
                                                : rlx_program_run;
    for (int rep = 0; rep < 3; rep++)
        if (go(p))
            goto out;
    if (rlx_tensor_read(ty, y, 8 * sizeof(float)) ||
        rlx_tensor_read(txo, xo, 6 * sizeof(float)) ||
        go(p) || /* queued while x is rebound below */
        rlx_program_bind(p, RLX_SLOT_INPUT, "x", tx2) || go(p) ||
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

/* Backend ID registered, on device kind KIND named ID, executing. */
static inline void gpu_check_registered(const rlx_backend *b, const char *id,
                                        rlx_device_kind kind)
{
    char what[128];
    snprintf(what, sizeof what, "backend '%s' registered", id);
    gpu_check(b != NULL, what, "");
    if (!b)
        return;
    snprintf(what, sizeof what, "device kind is %s", id);
    gpu_check(rlx_backend_device_kind(b) == kind, what, "");
    snprintf(what, sizeof what, "device name %s", id);
    gpu_check(!strcmp(rlx_backend_device_name(b), id), what,
              rlx_backend_device_name(b));
    gpu_check(rlx_backend_executes(b), "backend executes", "");
}

/* With a GPU: the small graph on DEVICE matches cpu-ref, a second input
 * included; with BIND also through bound device tensors, run and queued. */
static inline void gpu_check_runs(rlx_runtime *rt, const char *device,
                                  int bind)
{
    char what[160], detail[256];
    float y[4][8], y2[4][8], xo[4][6];
    int rc = run_small(rt, "cpu-ref", 0, y[0], y2[0], xo[0]);
    int rg = run_small(rt, device, 0, y[1], y2[1], xo[1]);
    snprintf(what, sizeof what, "a small graph runs on %s and cpu-ref",
             device);
    gpu_check(rg == 0 && rc == 0, what, rg ? rlx_last_error() : "");
    int rb = 0;
    if (bind) {
        rb = run_small(rt, device, 1, y[2], y2[2], xo[2]);
        gpu_check(rb == 0, "it runs with x, y and xo in bound device tensors",
                  rb ? rlx_last_error() : "");
        rb |= run_small(rt, device, 2, y[3], y2[3], xo[3]);
        gpu_check(rb == 0, "and with those runs queued (rlx_program_submit)",
                  rb ? rlx_last_error() : "");
    }
    for (int v = 1; v <= (bind ? 3 : 1); v++) {
        double err = 0;
        int bad = rc || (v == 1 ? rg : rb);
        for (int i = 0; i < 8 && !bad; i++)
            err = fmax(err, fmax(fabs((double)y[v][i] - y[0][i]),
                                 fabs((double)y2[v][i] - y2[0][i])));
        for (int i = 0; i < 6 && !bad; i++)
            err = fmax(err, fabs((double)xo[v][i] - xo[0][i]));
        snprintf(detail, sizeof detail, "max |diff| %g", err);
        snprintf(what, sizeof what, v == 1
                 ? "%s matches cpu-ref, new input included"
                 : v == 2 ? "%s with bound tensors matches cpu-ref, rebound "
                            "input and copied-out input included"
                          : "%s with queued runs matches cpu-ref, the same",
                 device);
        gpu_check(!bad && err < 1e-5, what, detail);
    }
}

/* Without a GPU: the probe's status ST (its message the last error, and
 * DETAIL) is RLX_ERR_UNAVAILABLE with a Fix and holds REASON (what
 * REASON_WHAT says), and a session on DEVICE fails with a Fix. */
static inline void gpu_check_unavailable(rlx_runtime *rt, rlx_status st,
                                         const char *device,
                                         const char *detail,
                                         const char *reason,
                                         const char *reason_what)
{
    gpu_check(st == RLX_ERR_UNAVAILABLE, "probe fails with RLX_ERR_UNAVAILABLE",
              detail);
    gpu_check(st != RLX_OK && strstr(rlx_last_error(), "Fix:") != NULL,
              "the probe's message has a Fix", rlx_last_error());
    gpu_check(st != RLX_OK && strstr(rlx_last_error(), reason) != NULL,
              reason_what, "");
    rlx_session *s = NULL;
    char what[128], why[1024];
    st = rlx_session_create(rt, device, &s);
    snprintf(why, sizeof why, "%s: %s", rlx_status_name(st),
             rlx_last_error());
    snprintf(what, sizeof what, "a session on %s fails with a Fix", device);
    gpu_check(st != RLX_OK && s == NULL &&
                  strstr(rlx_last_error(), "Fix:") != NULL,
              what, why);
    rlx_session_destroy(s);
}

#endif
