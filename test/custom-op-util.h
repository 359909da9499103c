/*
 * custom-op-util.h - what the custom-op tests share (test-custom-op.c,
 * test-custom-op-errors.c): models written into the harness's fixture
 * directory (rlx_test_path), the test kernel library's path, running a
 * graph or a YAML model on a device, and checking error messages.
 */
#ifndef RLX_TEST_CUSTOM_OP_UTIL_H
#define RLX_TEST_CUSTOM_OP_UTIL_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test-util.h"

#define OPENBLAS "libopenblas.so.0"
#define LIBM "libm.so.6"

/* ---- fixtures: models in the harness's fixture directory ------------ */

static inline const char *write_model(const char *name, const char *text)
{
    const char *path = rlx_test_path(name);
    FILE *f = fopen(path, "w");
    if (!f || fputs(text, f) < 0 || fclose(f) != 0)
        FAIL("cannot write %s", path);
    return path;
}

/* The test kernel library (test/custom/kernels.c). */
static inline const char *kernels_dir(void)
{
    const char *d = getenv("RLX_TEST_KERNELS_DIR");
    if (!d || !*d)
        FAIL("RLX_TEST_KERNELS_DIR is not set (run through meson test)");
    return d;
}

static inline const char *kernels_path(void)
{
    static char buf[1024];
    snprintf(buf, sizeof buf, "%s/librlx-test-kernels.so", kernels_dir());
    return buf;
}

/* A runtime that allows what these tests' models load: OpenBLAS and
 * libm by their exact sonames, the test kernel library by its file, and
 * the fixture directory (models and the copies placed next to them). */
static inline rlx_runtime *allowed_runtime(void)
{
    rlx_runtime *rt = test_runtime();
    const char *allow[] = { OPENBLAS, LIBM, kernels_path(), rlx_test_dir() };
    for (size_t i = 0; i < sizeof allow / sizeof *allow; i++)
        if (rlx_runtime_allow_custom_ops(rt, allow[i]) != RLX_OK)
            FAIL("allow %s: %s", allow[i], rlx_last_error());
    return rt;
}

#define ASSERT_MSG(...)                                                     \
    do {                                                                    \
        const char *needles_[] = { __VA_ARGS__ };                           \
        const char *e_ = rlx_last_error();                                  \
        for (size_t k_ = 0; k_ < sizeof needles_ / sizeof *needles_; k_++)  \
            if (!strstr(e_, needles_[k_]))                                  \
                FAIL("error lacks '%s': %s", needles_[k_], e_);             \
        if (!strstr(e_, "Fix:"))                                            \
            FAIL("error lacks a Fix: %s", e_);                              \
    } while (0)

/* ---- running ---------------------------------------------------------- */

typedef struct feed {
    const char *name;
    const void *data;
    size_t nbytes;
} feed;

/* Compile G on DEVICE, feed it, run it and copy output OUT (NBYTES). */
static inline rlx_status run_graph(rlx_runtime *rt, const rlx_graph *g,
                                   const char *device, const feed *in,
                                   size_t n_in, uint32_t out, void *dst,
                                   size_t nbytes)
{
    rlx_session *s = NULL;
    rlx_program *p = NULL;
    rlx_status st = rlx_session_create(rt, device, &s);
    if (st == RLX_OK)
        st = rlx_session_compile(s, g, &p);
    for (size_t i = 0; st == RLX_OK && i < n_in; i++)
        st = rlx_program_set_input(p, in[i].name, in[i].data, in[i].nbytes);
    if (st == RLX_OK)
        st = rlx_program_run(p);
    if (st == RLX_OK) {
        size_t got = 0;
        const void *data = rlx_program_output_data(p, out, &got);
        if (!data || got != nbytes)
            FAIL("output %u: %zu bytes, expected %zu", out, got, nbytes);
        memcpy(dst, data, nbytes);
    }
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    return st;
}

static inline void run_model(rlx_runtime *rt, const char *path,
                             const char *device, const feed *in, size_t n_in,
                             uint32_t out, void *dst, size_t nbytes)
{
    rlx_model *m = NULL;
    if (rlx_model_load(path, &m) != RLX_OK)
        FAIL("load %s: %s", path, rlx_last_error());
    rlx_status st = run_graph(rt, rlx_model_graph(m), device, in, n_in, out,
                              dst, nbytes);
    rlx_model_destroy(m);
    if (st != RLX_OK)
        FAIL("run %s on %s: %s", path, device, rlx_last_error());
}

static inline void assert_close(const float *a, const float *b, size_t n,
                                float tol)
{
    for (size_t i = 0; i < n; i++)
        if (!(fabsf(a[i] - b[i]) <= tol * (1.0f + fabsf(b[i]))))
            FAIL("element %zu: %.9g vs %.9g (tolerance %g)", i, a[i], b[i],
                 tol);
}


/* ---- the test kernel library: int, float and double arguments --------- */

/* A model calling two kernels of LIBRARY with int, float and double
 * arguments (check_kernel_model in test-custom-op.c runs it). */
static char kernel_yaml[4096];

static inline const char *kernel_model(const char *library)
{
    snprintf(kernel_yaml, sizeof kernel_yaml,
             "rlx_model: 1\n"
             "inputs:\n"
             "  - {name: x, dtype: f32, shape: [2, 3]}\n"
             "  - {name: m, dtype: i64, shape: [3, 4]}\n"
             "nodes:\n"
             "  - name: y\n"
             "    op: custom\n"
             "    library: %s\n"
             "    symbol: rlxk_scale_shift\n"
             "    signature: \"i32(i32, f32, f64, f32*, f32*)\"\n"
             "    dtype: f32\n"
             "    shape: [2, 3]\n"
             "    args: [$numel(x), 3, 0.1, x, y]\n"
             "  - name: s\n"
             "    op: custom\n"
             "    library: %s\n"
             "    symbol: rlxk_row_sums\n"
             "    signature: \"void(u64, i8, i64*, i64*)\"\n"
             "    dtype: i64\n"
             "    shape: [3]\n"
             "    args: [\"$dim(m, 0)\", \"$dim(m, 1)\", m, s]\n"
             "outputs: [y, s]\n",
             library, library);
    return write_model("kernels.yaml", kernel_yaml);
}

#endif
