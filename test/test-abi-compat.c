/*
 * test-abi-compat.c - plugins built against other minors of the plugin
 * ABI load in this core and run a graph, with host inputs and with bound
 * tensors: test/abi/1.0 (the headers of the first frozen version; tensors
 * go through host copies), test/abi/1.2 (the real 1.2 headers, from git
 * history: device I/O, no 1.3 slots), test/abi/1.3 (the real 1.3
 * headers: no 1.4 ops, so placement moves a conv off it) and test/abi/1.5
 * (a hypothetical newer minor with a vtable slot appended after
 * get_extension and an info field). A plugin that claims major 2 (test/plugins/wrong_abi.c) is
 * refused with both versions named. RLX_TEST_ABI_DIR is where the compat plugins were
 * built.
 */
#include "test-util.h"

static const char *abi_plugin(const char *name)
{
    static char buf[1024];
    const char *dir = getenv("RLX_TEST_ABI_DIR");
    snprintf(buf, sizeof buf, "%s/librlx-backend-%s.so", dir ? dir : ".",
             name);
    return buf;
}

/* Load plugin NAME, check its backend ID reports ABI MAJOR.MINOR, and run
 * z = x + y on it, then again with x and z bound to tensors. */
static void load_and_run(const char *name, const char *id, uint32_t major,
                         uint32_t minor)
{
    rlx_runtime *rt = test_runtime();
    ASSERT_OK(rlx_runtime_load_plugin(rt, abi_plugin(name)));
    const rlx_backend *b = rlx_runtime_find_backend(rt, id);
    ASSERT(b);
    ASSERT_EQ(rlx_backend_abi_version(b), RLX_ABI_VERSION_MAKE(major, minor));
    ASSERT_EQ(rlx_runtime_diag_count(rt), 0);

    rlx_graph *g = NULL;
    rlx_value x, y, z;
    const int64_t dims[2] = { 2, 3 };
    ASSERT_OK(rlx_graph_create(&g));
    ASSERT_OK(rlx_graph_input(g, "x", RLX_DTYPE_F32, 2, dims, &x));
    ASSERT_OK(rlx_graph_param(g, "y", RLX_DTYPE_F32, 2, dims, &y));
    ASSERT_OK(rlx_graph_add_node(g, "z", RLX_OP_ADD, 2,
                                 (rlx_value[]){ x, y }, NULL, &z));
    ASSERT_OK(rlx_graph_output(g, "z", z));

    rlx_session *s = NULL;
    rlx_program *p = NULL;
    ASSERT_OK(rlx_session_create(rt, id, &s));
    ASSERT(rlx_session_backend(s) == b);
    ASSERT_OK(rlx_session_compile(s, g, &p));
    const float xv[6] = { 1, 2, 3, 4, 5, 6 };
    const float yv[6] = { 10, 20, 30, 40, 50, 60 };
    ASSERT_OK(rlx_program_set_param(p, "y", yv, sizeof yv));
    for (int round = 0; round < 2; round++) { /* params stay resident */
        ASSERT_OK(rlx_program_set_input(p, "x", xv, sizeof xv));
        ASSERT_OK(rlx_program_run(p));
        size_t nbytes = 0;
        const float *out = rlx_program_output_data(p, 0, &nbytes);
        ASSERT(out);
        ASSERT_EQ(nbytes, sizeof xv);
        for (int i = 0; i < 6; i++)
            ASSERT_NEAR(out[i], xv[i] + yv[i], 0);
    }

    /* device I/O from 1.2 on; the core copies for older plugins */
    ASSERT_EQ(rlx_backend_device_io(b), minor >= 2);
    const float x2[6] = { -1, -2, -3, 0.5f, 0.25f, 8 };
    rlx_tensor *tx = NULL, *tz = NULL;
    ASSERT_OK(rlx_tensor_create(p, RLX_DTYPE_F32, 2, dims, x2, &tx));
    ASSERT_OK(rlx_tensor_create(p, RLX_DTYPE_F32, 2, dims, NULL, &tz));
    ASSERT_OK(rlx_program_bind(p, RLX_SLOT_INPUT, "x", tx));
    ASSERT_OK(rlx_program_bind(p, RLX_SLOT_OUTPUT, "z", tz));
    ASSERT_OK(rlx_program_run(p));
    float z2[6];
    ASSERT_OK(rlx_tensor_read(tz, z2, sizeof z2));
    for (int i = 0; i < 6; i++)
        ASSERT_NEAR(z2[i], x2[i] + yv[i], 0);
    ASSERT_OK(rlx_tensor_write(tx, xv, sizeof xv));
    ASSERT_OK(rlx_program_run(p));
    ASSERT_OK(rlx_tensor_read(tz, z2, sizeof z2));
    for (int i = 0; i < 6; i++)
        ASSERT_NEAR(z2[i], xv[i] + yv[i], 0);
    rlx_tensor_destroy(tx);
    rlx_tensor_destroy(tz);
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_graph_destroy(g);
    rlx_runtime_destroy(rt);
}

TEST(abi_1_0_plugin_loads_and_runs)
{
    load_and_run("testabi10", "test-abi10", 1, 0);
}

TEST(abi_1_2_plugin_loads_and_runs)
{
    load_and_run("testabi12", "test-abi12", 1, 2);
}

TEST(abi_1_3_plugin_loads_and_runs)
{
    load_and_run("testabi13", "test-abi13", 1, 3);
}

TEST(abi_1_5_plugin_loads_and_runs)
{
    load_and_run("testabi15", "test-abi15", 1, 5);
}

/* A 1.3 plugin never heard of 1.4's ops: it answers no for conv, and a
 * graph of add then conv on it runs split, the conv on the CPU. */
TEST(abi_1_3_plugin_conv_placed_on_cpu)
{
    rlx_runtime *rt = test_runtime();
    ASSERT_OK(rlx_runtime_load_plugin(rt, abi_plugin("testabi13")));
    const rlx_backend *b = rlx_runtime_find_backend(rt, "test-abi13");
    ASSERT(b);
    ASSERT(!rlx_backend_supports_op(b, RLX_OP_CONV, RLX_DTYPE_F32));

    rlx_graph *g = NULL;
    rlx_value x, y, w, z, c;
    const int64_t xd[3] = { 1, 1, 4 }, wd[3] = { 1, 1, 2 };
    ASSERT_OK(rlx_graph_create(&g));
    ASSERT_OK(rlx_graph_input(g, "x", RLX_DTYPE_F32, 3, xd, &x));
    ASSERT_OK(rlx_graph_input(g, "y", RLX_DTYPE_F32, 3, xd, &y));
    ASSERT_OK(rlx_graph_input(g, "w", RLX_DTYPE_F32, 3, wd, &w));
    ASSERT_OK(rlx_graph_add_node(g, "z", RLX_OP_ADD, 2,
                                 (rlx_value[]){ x, y }, NULL, &z));
    ASSERT_OK(rlx_graph_add_node(g, "c", RLX_OP_CONV, 2,
                                 (rlx_value[]){ z, w }, NULL, &c));
    ASSERT_OK(rlx_graph_output(g, "c", c));
    rlx_session *s = NULL;
    rlx_program *p = NULL;
    ASSERT_OK(rlx_session_create(rt, "test-abi13", &s));
    ASSERT_OK(rlx_session_compile(s, g, &p));
    const rlx_backend *zb = NULL, *cb = NULL;
    ASSERT_OK(rlx_program_placement(p, z, &zb, NULL, NULL));
    ASSERT_OK(rlx_program_placement(p, c, &cb, NULL, NULL));
    ASSERT(zb == b);
    ASSERT(cb != NULL && cb != b);
    ASSERT_EQ(rlx_program_fallback_count(p), 1);
    const float xv[4] = { 1, 2, 3, 4 }, yv[4] = { 10, 20, 30, 40 };
    const float wv[2] = { 1, -1 };
    ASSERT_OK(rlx_program_set_input(p, "x", xv, sizeof xv));
    ASSERT_OK(rlx_program_set_input(p, "y", yv, sizeof yv));
    ASSERT_OK(rlx_program_set_input(p, "w", wv, sizeof wv));
    ASSERT_OK(rlx_program_run(p));
    size_t nbytes = 0;
    const float *out = rlx_program_output_data(p, 0, &nbytes);
    ASSERT(out);
    ASSERT_EQ(nbytes, 3 * sizeof(float));
    for (int i = 0; i < 3; i++) /* (x+y)[i] - (x+y)[i+1] = -11 */
        ASSERT_NEAR(out[i], -11, 0);
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_graph_destroy(g);
    rlx_runtime_destroy(rt);
}

/* A 1.2 plugin's vtable ends before the 1.3 slots: the core's zero-filled
 * copy reads them as absent, so no extension and no supports_node. */
TEST(abi_1_2_plugin_has_no_1_3_slots)
{
    rlx_runtime *rt = test_runtime();
    ASSERT_OK(rlx_runtime_load_plugin(rt, abi_plugin("testabi12")));
    const rlx_backend *b = rlx_runtime_find_backend(rt, "test-abi12");
    ASSERT(b);
    ASSERT(rlx_backend_get_extension(b, "rlx.test.answer.v1") == NULL);
    ASSERT(rlx_backend_supports_op(b, RLX_OP_ADD, RLX_DTYPE_F32));
    rlx_runtime_destroy(rt);
}

TEST(abi_major_2_refused_with_both_versions)
{
    rlx_runtime *rt = test_runtime();
    const char *path = test_plugin("testwrongabi");
    ASSERT_STATUS(rlx_runtime_load_plugin(rt, path), RLX_ERR_ABI_MISMATCH);
    char want[128];
    snprintf(want, sizeof want, "this librlx implements ABI %d.%d",
             RLX_ABI_MAJOR, RLX_ABI_MINOR);
    const char *reason = NULL, *fix = NULL;
    ASSERT(test_find_diag(rt, path, NULL, &reason, &fix) >= 0);
    ASSERT_CONTAINS(reason, "plugin built for rlx plugin ABI 2.0");
    ASSERT_CONTAINS(reason, want);
    ASSERT_CONTAINS(fix, "rebuild the plugin");
    ASSERT_EQ(rlx_runtime_backend_count(rt), 1); /* cpu-ref only */
    rlx_runtime_destroy(rt);
}

TEST(core_is_abi_1_4)
{
    /* The frozen version this tree declares; test/abi/baseline matches. */
    ASSERT_EQ(rlx_abi_version(), RLX_ABI_VERSION_MAKE(1, 4));
}

RLX_TEST_LIST(TEST_ENTRY(abi_1_0_plugin_loads_and_runs),
              TEST_ENTRY(abi_1_2_plugin_loads_and_runs),
              TEST_ENTRY(abi_1_3_plugin_loads_and_runs),
              TEST_ENTRY(abi_1_5_plugin_loads_and_runs),
              TEST_ENTRY(abi_1_3_plugin_conv_placed_on_cpu),
              TEST_ENTRY(abi_1_2_plugin_has_no_1_3_slots),
              TEST_ENTRY(abi_major_2_refused_with_both_versions),
              TEST_ENTRY(core_is_abi_1_4));
