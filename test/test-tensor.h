/* test-tensor.h - the data and fixtures that test-tensor.c and
 * test-tensor-errors.c share: a compiled program with its params set, a
 * tensor of it, a runtime with a test plugin. */
#ifndef RLX_TEST_TENSOR_H
#define RLX_TEST_TENSOR_H

#include "test-ew.h"

/* the MLP's shapes and params (mlp_graph in test-tensor.c) */
static const int64_t X_DIMS[2] = { 2, 4 }, W_DIMS[2] = { 4, 3 };
static const int64_t B_DIMS[1] = { 3 }, Y_DIMS[2] = { 2, 3 };
static const float W[12] = { 0.5f, -1, 2, 1, 0.25f, -0.5f,
                             -2, 1.5f, 1, 0.75f, -1, 0.125f };
static const float B[3] = { 0.25f, -0.5f, 1 };

/* A compiled program and what it needs, closed in one call. */
typedef struct fixture {
    rlx_session *s;
    rlx_graph *g;
    rlx_program *p;
} fixture;

static inline fixture fx_open(rlx_runtime *rt, const char *device,
                              rlx_graph *(*make)(void))
{
    fixture f = { 0 };
    f.g = make();
    ASSERT_OK(rlx_session_create(rt, device, &f.s));
    ASSERT_OK(rlx_session_compile(f.s, f.g, &f.p));
    for (uint32_t i = 0; i < rlx_program_param_count(f.p); i++) {
        const char *name;
        ASSERT_OK(rlx_program_slot(f.p, RLX_SLOT_PARAM, i, &name, NULL, NULL,
                                   NULL));
        if (strcmp(name, "w") == 0)
            ASSERT_OK(rlx_program_set_param(f.p, name, W, sizeof W));
        else if (strcmp(name, "b") == 0)
            ASSERT_OK(rlx_program_set_param(f.p, name, B, sizeof B));
        else
            ASSERT_OK(rlx_program_set_param(f.p, name, EW_V, sizeof EW_V));
    }
    return f;
}

static inline void fx_close(fixture *f)
{
    rlx_program_destroy(f->p);
    rlx_session_destroy(f->s);
    rlx_graph_destroy(f->g);
}

/* Copy output INDEX of the last run of P to DST (NBYTES exactly). */
static inline void output_copy(const rlx_program *p, uint32_t index,
                               void *dst, size_t nbytes)
{
    size_t got = 0;
    const void *out = rlx_program_output_data(p, index, &got);
    if (!out)
        FAIL("output %u: %s", index, rlx_last_error());
    ASSERT_EQ(got, nbytes);
    memcpy(dst, out, nbytes);
}

/* Run P on host input X; copy outputs 0 and 1 (each N floats). */
static inline void host_run(rlx_program *p, const void *x, size_t xbytes,
                            float *out0, float *out1, size_t n)
{
    ASSERT_OK(rlx_program_set_input(p, "x", x, xbytes));
    ASSERT_OK(rlx_program_run(p));
    output_copy(p, 0, out0, n * sizeof(float));
    if (out1)
        output_copy(p, 1, out1, n * sizeof(float));
}

static inline rlx_tensor *tensor_new(rlx_program *p, uint32_t rank,
                                     const int64_t *dims, const void *data)
{
    rlx_tensor *t = NULL;
    ASSERT_OK(rlx_tensor_create(p, RLX_DTYPE_F32, rank, dims, data, &t));
    ASSERT(t);
    return t;
}

/* A runtime with cpu-ref and the test plugin NAME. */
static inline rlx_runtime *runtime_with(const char *name)
{
    rlx_runtime *rt = test_runtime();
    ASSERT(getenv("RLX_TEST_PLUGIN_DIR"));
    ASSERT_OK(rlx_runtime_load_plugin(rt, test_plugin(name)));
    return rt;
}

#endif
