/*
 * test-run-chain.c - the multi-device runner's settings as `rlx run` and
 * an application see them: RLX_DEVICE_CHAIN is followed by plain
 * `rlx run` (or said to be unused), and the runner's fallback policy is
 * an API call (rlx_runner_set_fallback), not an environment variable a
 * set-user-ID process would ignore.
 *
 * RLX_TEST_RLX_BIN is the tool, RLX_TEST_EXAMPLES_DIR the examples.
 */
#include "test-tool.h"
#include "test-util.h"

static const char *mlp_quoted(void)
{
    static char q[1100];
    char m[1024];
    snprintf(m, sizeof m, "%s/mlp/mlp.yaml",
             tool_env("RLX_TEST_EXAMPLES_DIR"));
    if (access(m, R_OK) != 0)
        FAIL("%s is missing: were the examples generated (NumPy)?", m);
    tool_quote(q, sizeof q, m);
    return q;
}

/* gelu, which test-npu lacks, then relu, which it has. */
static rlx_graph *partial_graph(void)
{
    rlx_graph *g;
    rlx_value x, h, r;
    ASSERT_OK(rlx_graph_create(&g));
    ASSERT_OK(rlx_graph_input(g, "x", RLX_DTYPE_F32, 2, (int64_t[]){ 2, 3 },
                              &x));
    ASSERT_OK(rlx_graph_add_node(g, "h", RLX_OP_GELU, 1, &x, NULL, &h));
    ASSERT_OK(rlx_graph_add_node(g, "r", RLX_OP_RELU, 1, &h, NULL, &r));
    ASSERT_OK(rlx_graph_output(g, "y", r));
    return g;
}

/* Plain `rlx run` follows RLX_DEVICE_CHAIN instead of ignoring it. */
TEST(plain_run_follows_device_chain)
{
    char args[2048];
    snprintf(args, sizeof args, "run %s", mlp_quoted());
    setenv("RLX_DEVICE_CHAIN", "no-such-device", 1);
    int rc = tool_run(args, 1);
    unsetenv("RLX_DEVICE_CHAIN");
    if (rc != 1)
        FAIL("a bad RLX_DEVICE_CHAIN was ignored (exit %d):\n%s", rc,
             tool_out);
    ASSERT_CONTAINS(tool_out, "device chain 'no-such-device'");
    ASSERT_CONTAINS(tool_out, "Fix:");

    setenv("RLX_DEVICE_CHAIN", "cpu-ref", 1);
    rc = tool_run(args, 1);
    unsetenv("RLX_DEVICE_CHAIN");
    if (rc != 0)
        FAIL("exit %d:\n%s", rc, tool_out);
    ASSERT_CONTAINS(tool_out, "Devices: RLX_DEVICE_CHAIN=cpu-ref\n");
    ASSERT_CONTAINS(tool_out, "  cpu-ref          ran\n");
    ASSERT_CONTAINS(tool_out, "Backend: cpu-ref on cpu:0\n");
    ASSERT_CONTAINS(tool_out, "checksum: sum ");

    /* unset: the session chooses, as before */
    rc = tool_run(args, 1);
    ASSERT_EQ(rc, 0);
    ASSERT(strstr(tool_out, "RLX_DEVICE_CHAIN") == NULL);
    ASSERT(strstr(tool_out, "Chain:") == NULL);
}

/* --device names one device: the chain is not used, and rlx says so. */
TEST(device_flag_says_chain_unused)
{
    char args[2048];
    snprintf(args, sizeof args, "run %s --device cpu", mlp_quoted());
    setenv("RLX_DEVICE_CHAIN", "cpu-ref", 1);
    int rc = tool_run(args, 1);
    unsetenv("RLX_DEVICE_CHAIN");
    if (rc != 0)
        FAIL("exit %d:\n%s", rc, tool_out);
    ASSERT_CONTAINS(tool_out, "rlx: note: RLX_DEVICE_CHAIN='cpu-ref' is not "
                              "used: --device cpu names the device\n");
    ASSERT_CONTAINS(tool_out, "Backend: cpu-ref on cpu:0");
}

/* The default chain the runner would use, through the API. */
TEST(default_chain_api)
{
    unsetenv("RLX_DEVICE_CHAIN");
    ASSERT(rlx_runner_default_chain() == NULL);
    setenv("RLX_DEVICE_CHAIN", "", 1);
    ASSERT(rlx_runner_default_chain() == NULL);
    setenv("RLX_DEVICE_CHAIN", "npu,cpu", 1);
    ASSERT_STREQ(rlx_runner_default_chain(), "npu,cpu");
    unsetenv("RLX_DEVICE_CHAIN");
}

/* rlx_runner_set_fallback decides for every program the runner compiles,
 * whatever RLX_FALLBACK says, and drops programs placed under another
 * policy. */
TEST(runner_fallback_policy_api)
{
    rlx_runtime *rt = test_runtime();
    ASSERT_OK(rlx_runtime_load_plugin(rt, test_plugin("testnpupart")));
    rlx_graph *g = partial_graph();
    static const float x[6] = { 1, -2, 0.5f, 3, 0, -1 };
    rlx_runner *r;
    rlx_program *p;
    setenv("RLX_FALLBACK", "split", 1);
    ASSERT_OK(rlx_runner_create(rt, g, NULL, &r));
    ASSERT_OK(rlx_runner_set_input(r, "x", x, sizeof x));
    /* split (the environment's): the npu runs relu, the CPU gelu */
    ASSERT_OK(rlx_runner_run_chain(r, "npu", &p));
    ASSERT_EQ(rlx_program_piece_count(p), 2);
    /* none: the npu refuses the graph, so the chain fails */
    ASSERT_OK(rlx_runner_set_fallback(r, RLX_FALLBACK_NONE));
    ASSERT_STATUS(rlx_runner_run_chain(r, "npu", &p), RLX_ERR_UNSUPPORTED);
    ASSERT(p == NULL);
    ASSERT_CONTAINS(rlx_last_error(), "npu");
    ASSERT_EQ(rlx_runner_attempt_count(r), 1);
    /* whole: the graph moves to the CPU */
    ASSERT_OK(rlx_runner_set_fallback(r, RLX_FALLBACK_WHOLE));
    ASSERT_OK(rlx_runner_run_chain(r, "npu", &p));
    ASSERT_EQ(rlx_program_piece_count(p), 1);
    ASSERT_STREQ(rlx_backend_device_name(rlx_program_backend(p)), "cpu");
    /* a value that is no policy */
    ASSERT_STATUS(rlx_runner_set_fallback(r, (rlx_fallback)7),
                  RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(rlx_last_error(), "Fix:");
    ASSERT_STATUS(rlx_runner_set_fallback(NULL, RLX_FALLBACK_NONE),
                  RLX_ERR_INVALID_ARGUMENT);
    unsetenv("RLX_FALLBACK");
    rlx_runner_destroy(r);
    rlx_graph_destroy(g);
    rlx_runtime_destroy(rt);
}

/* `rlx run --fallback` with the runner: the flag decides, whatever
 * RLX_FALLBACK says. */
TEST(cli_fallback_reaches_runner)
{
    static const char yaml[] =
        "rlx_model: 1\nname: partial\ninputs:\n"
        "  - {name: x, dtype: f32, shape: [2, 3]}\n"
        "nodes:\n  - {name: h, op: gelu, inputs: [x]}\n"
        "  - {name: r, op: relu, inputs: [h]}\n"
        "outputs: [r]\n";
    char path[256], plugin[256], args[1200];
    const char *dir = tool_tmp_make();
    snprintf(path, sizeof path, "%s/partial.yaml", dir);
    tool_file_write(path, yaml, sizeof yaml - 1);
    snprintf(plugin, sizeof plugin, "%s/librlx-backend-testnpupart.so", dir);
    tool_file_copy(test_plugin("testnpupart"), plugin);
    ASSERT(setenv("RLX_PLUGIN_PATH", dir, 1) == 0);
    ASSERT(setenv("RLX_FALLBACK", "split", 1) == 0);

    snprintf(args, sizeof args, "run %s --device-chain npu --fallback none",
             path);
    int rc = tool_run(args, 1);
    if (rc != 1)
        FAIL("--fallback none did not reach the runner (exit %d):\n%s", rc,
             tool_out);
    ASSERT_CONTAINS(tool_out, "  npu:0            failed: node 'h' (op "
                              "gelu, f32) is not supported");
    snprintf(args, sizeof args, "run %s --device-chain npu", path);
    rc = tool_run(args, 1);
    if (rc != 0)
        FAIL("exit %d:\n%s", rc, tool_out);
    ASSERT_CONTAINS(tool_out, "  npu:0            ran\n");
    ASSERT_CONTAINS(tool_out, "Backend: test-npu on npu:0\n");
    snprintf(args, sizeof args, "run %s --device-chain npu --fallback whole",
             path);
    rc = tool_run(args, 1);
    if (rc != 0)
        FAIL("exit %d:\n%s", rc, tool_out);
    ASSERT_CONTAINS(tool_out, "2 nodes on cpu:0");
    ASSERT(unsetenv("RLX_FALLBACK") == 0);
    ASSERT(unsetenv("RLX_PLUGIN_PATH") == 0);
    tool_tmp_remove_all();
}

/* The tool sets no RLX_ variable for the core to read: a set-user-ID rlx
 * would have the core ignore it. */
TEST(tool_sets_no_settings)
{
    char cmd[4096];
    const char *src = tool_env("RLX_TEST_SOURCE_DIR");
    snprintf(cmd, sizeof cmd, "grep -rn 'setenv[[:space:]]*(\"RLX_' '%s/tools'",
             src);
    FILE *f = popen(cmd, "r");
    ASSERT(f);
    char line[512];
    int found = 0;
    while (fgets(line, sizeof line, f)) {
        printf("# %s", line);
        found++;
    }
    pclose(f);
    ASSERT_EQ(found, 0);
}

RLX_TEST_LIST(TEST_ENTRY(plain_run_follows_device_chain),
              TEST_ENTRY(device_flag_says_chain_unused),
              TEST_ENTRY(default_chain_api),
              TEST_ENTRY(runner_fallback_policy_api),
              TEST_ENTRY(cli_fallback_reaches_runner),
              TEST_ENTRY(tool_sets_no_settings));
