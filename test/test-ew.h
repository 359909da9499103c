/* test-ew.h - the elementwise graph the test plugins can run (add, mul,
 * relu on same-shaped f32 tensors; see plugins/simple_backend.h), its
 * expected results, and a bit-exact check of a tensor's contents: shared
 * by test-tensor.c and test-queue.c. */
#ifndef RLX_TEST_EW_H
#define RLX_TEST_EW_H

#include "test-util.h"

/* z = relu(x * v), z2 = x + v; x and the param v are [2,3]. */
static const int64_t EW_DIMS[2] = { 2, 3 };
static const float EW_V[6] = { 1, -2, 0.5f, 3, -1, 2 };
/* two inputs x */
static const float E1[6] = { 1, 2, 3, -4, 5, -6 };
static const float E2[6] = { -0.5f, 4, 2, 1, -3, 0.25f };

/* Builds without asserting, so that worker threads can call it too. */
static inline rlx_graph *ew_build(void)
{
    rlx_graph *g = NULL;
    rlx_value x, v, m, z, z2;
    if (rlx_graph_create(&g) != RLX_OK)
        return NULL;
    if (rlx_graph_input(g, "x", RLX_DTYPE_F32, 2, EW_DIMS, &x) != RLX_OK ||
        rlx_graph_param(g, "v", RLX_DTYPE_F32, 2, EW_DIMS, &v) != RLX_OK ||
        rlx_graph_add_node(g, "m", RLX_OP_MUL, 2, (rlx_value[]){ x, v },
                           NULL, &m) != RLX_OK ||
        rlx_graph_add_node(g, "z", RLX_OP_RELU, 1, &m, NULL, &z) != RLX_OK ||
        rlx_graph_add_node(g, "z2", RLX_OP_ADD, 2, (rlx_value[]){ x, v },
                           NULL, &z2) != RLX_OK ||
        rlx_graph_output(g, "z", z) != RLX_OK ||
        rlx_graph_output(g, "z2", z2) != RLX_OK) {
        rlx_graph_destroy(g);
        return NULL;
    }
    return g;
}

static inline rlx_graph *ew_graph(void)
{
    rlx_graph *g = ew_build();
    if (!g)
        FAIL("building the elementwise graph: %s", rlx_last_error());
    return g;
}

/* What the graph gives for input X. */
static inline void ew_expect(const float x[6], float z[6], float z2[6])
{
    for (int i = 0; i < 6; i++) {
        float m = x[i] * EW_V[i];
        z[i] = m > 0 ? m : 0;
        z2[i] = x[i] + EW_V[i];
    }
}

/* T holds exactly the N floats of WANT (at most 16). */
static inline void tensor_expect(const rlx_tensor *t, const float *want,
                                 size_t n)
{
    float got[16];
    ASSERT(n <= 16);
    memset(got, 0xa5, sizeof got);
    ASSERT_OK(rlx_tensor_read(t, got, n * sizeof(float)));
    for (size_t i = 0; i < n; i++)
        if (memcmp(&got[i], &want[i], sizeof(float)) != 0)
            FAIL("element %zu: got %.9g, want %.9g", i, got[i], want[i]);
}

#endif
