/*
 * test-sdk.c - what a backend author relies on: messages that embed a
 * backend's report keep it whole (reason and Fix) with one backend
 * prefix; plugin settings through the compile options (session, then
 * environment, then config file) and the host's get_option (no session); rlx_backend_get_extension; and
 * `rlx conformance` / `rlx run` behaviour a vendor hits first. The
 * testsdk plugin (test/plugins/sdk.c) reads its switches through
 * get_option only (the host's or the compile options').
 */
#include <pthread.h>

#include <rlx/backend.h>

#include "test-tool.h"
#include "test-util.h"

static rlx_runtime *sdk_runtime(void)
{
    rlx_runtime *rt = test_runtime();
    if (rlx_runtime_load_plugin(rt, test_plugin("testsdk")) != RLX_OK)
        FAIL("loading testsdk: %s", rlx_last_error());
    return rt;
}

/* x + x on an [N] f32 input. */
static rlx_graph *add_graph(void)
{
    rlx_graph *g = NULL;
    rlx_value x, y;
    ASSERT_OK(rlx_graph_create(&g));
    ASSERT_OK(rlx_graph_input(g, "x", RLX_DTYPE_F32, 1, (int64_t[]){ 4 },
                              &x));
    ASSERT_OK(rlx_graph_add_node(g, "sum", RLX_OP_ADD, 2,
                                 (rlx_value[]){ x, x }, NULL, &y));
    ASSERT_OK(rlx_graph_output(g, "y", y));
    return g;
}

/* Regression: the probe's message was formatted into the buffer it was
 * read from (vsnprintf with overlapping arguments), losing the reason and
 * the Fix. */
TEST(probe_failure_message_kept_whole)
{
    rlx_runtime *rt = sdk_runtime();
    rlx_session *s = NULL;
    char msg[2048];
    setenv("RLX_TEST_SDK_OFF", "1", 1);
    rlx_status st = rlx_session_create(rt, "test-sdk", &s);
    snprintf(msg, sizeof msg, "%s", rlx_last_error());
    unsetenv("RLX_TEST_SDK_OFF");
    ASSERT_EQ(st, RLX_ERR_UNAVAILABLE);
    ASSERT(s == NULL);
    ASSERT_STREQ(msg, "backend 'test-sdk' is unavailable: switched off by "
                      "option test_sdk.off. Fix: unset RLX_TEST_SDK_OFF");
    /* the same through a tuned CPU backend of the simple kind */
    ASSERT_OK(rlx_runtime_load_plugin(rt, test_plugin("testfastcpu")));
    setenv("RLX_TEST_FASTCPU_OFF", "1", 1);
    st = rlx_session_create(rt, "test-fastcpu", &s);
    snprintf(msg, sizeof msg, "%s", rlx_last_error());
    unsetenv("RLX_TEST_FASTCPU_OFF");
    ASSERT_EQ(st, RLX_ERR_UNAVAILABLE);
    ASSERT_CONTAINS(msg, "backend 'test-fastcpu' is unavailable: test "
                         "device switched off by the environment. Fix: "
                         "unset the variable");
    rlx_runtime_destroy(rt);
}

/* Regression: "backend 'x': compile failed: x: ..." named it twice. */
TEST(one_backend_prefix)
{
    rlx_runtime *rt = sdk_runtime();
    rlx_session *s = NULL;
    rlx_program *p = NULL;
    rlx_graph *g = add_graph();
    ASSERT_OK(rlx_session_create(rt, "test-sdk", &s));
    setenv("RLX_TEST_SDK_REFUSE", "1", 1);
    rlx_status st = rlx_session_compile(s, g, &p);
    unsetenv("RLX_TEST_SDK_REFUSE");
    ASSERT_EQ(st, RLX_ERR_UNSUPPORTED);
    const char *msg = rlx_last_error();
    ASSERT_CONTAINS(msg, "backend 'test-sdk': compile failed: refusing "
                         "every graph on purpose. Fix: unset "
                         "RLX_TEST_SDK_REFUSE");
    ASSERT(strstr(msg, "test-sdk: ") == NULL);
    /* and compiles again once the setting is gone */
    ASSERT_OK(rlx_session_compile(s, g, &p));
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_graph_destroy(g);
    rlx_runtime_destroy(rt);
}

/* Session options win over the environment, which wins over the config
 * file; every name asked for is listed. */
TEST(options_precedence)
{
    const char *dir = tool_tmp_make();
    char cfg[256], value[64], source[512];
    snprintf(cfg, sizeof cfg, "%s/config.yaml", dir);
    const char *yaml = "options:\n  test_sdk.refuse: \"1\"\n"
                       "  other.setting: from-file\n";
    tool_file_write(cfg, yaml, strlen(yaml));
    setenv("RLX_CONFIG", cfg, 1);
    rlx_runtime *rt = sdk_runtime();
    unsetenv("RLX_CONFIG");
    ASSERT_EQ(rlx_runtime_diag_count(rt), 0);

    /* config file: refuses */
    rlx_session *s = NULL;
    rlx_program *p = NULL;
    rlx_graph *g = add_graph();
    ASSERT_OK(rlx_session_create(rt, "test-sdk", &s));
    ASSERT_STATUS(rlx_session_compile(s, g, &p), RLX_ERR_UNSUPPORTED);
    ASSERT_OK(rlx_runtime_get_option(rt, "other.setting", value,
                                     sizeof value, source, sizeof source));
    ASSERT_STREQ(value, "from-file");
    ASSERT_STREQ(source, cfg);
    /* environment over the file */
    setenv("RLX_TEST_SDK_REFUSE", "0", 1);
    ASSERT_OK(rlx_runtime_get_option(rt, "test_sdk.refuse", value,
                                     sizeof value, source, sizeof source));
    ASSERT_STREQ(value, "0");
    ASSERT_STREQ(source, "RLX_TEST_SDK_REFUSE");
    ASSERT_OK(rlx_session_compile(s, g, &p));
    rlx_program_destroy(p);
    p = NULL;
    /* the session over the environment, and only for that session */
    ASSERT_OK(rlx_session_set_option(s, "test_sdk.refuse", "yes"));
    ASSERT_STATUS(rlx_session_compile(s, g, &p), RLX_ERR_UNSUPPORTED);
    rlx_session *other = NULL;
    ASSERT_OK(rlx_session_create(rt, "test-sdk", &other));
    ASSERT_OK(rlx_session_compile(other, g, &p));
    rlx_program_destroy(p);
    p = NULL;
    ASSERT_OK(rlx_session_set_option(s, "test_sdk.refuse", NULL));
    ASSERT_OK(rlx_session_compile(s, g, &p));
    rlx_program_destroy(p);
    unsetenv("RLX_TEST_SDK_REFUSE");
    /* bad names are refused, unset ones are NOT_FOUND */
    ASSERT_STATUS(rlx_session_set_option(s, "Bad Name", "x"),
                  RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(rlx_last_error(), "Fix:");
    ASSERT_STATUS(rlx_runtime_get_option(rt, "never.set", value,
                                         sizeof value, source,
                                         sizeof source),
                  RLX_ERR_NOT_FOUND);
    ASSERT_STREQ(source, "RLX_NEVER_SET");
    /* what the plugin asked for is listed, once each */
    int off = 0, refuse = 0;
    for (uint32_t i = 0; i < rlx_runtime_option_count(rt); i++) {
        const char *n = rlx_runtime_option_name(rt, i);
        off += strcmp(n, "test_sdk.off") == 0;
        refuse += strcmp(n, "test_sdk.refuse") == 0;
    }
    ASSERT_EQ(off, 1);
    ASSERT_EQ(refuse, 1);
    ASSERT(rlx_runtime_option_name(rt, rlx_runtime_option_count(rt)) ==
           NULL);
    rlx_session_destroy(other);
    rlx_session_destroy(s);
    rlx_graph_destroy(g);
    rlx_runtime_destroy(rt);
}

/* Sessions compiling at once on several threads each see their own
 * options: each compile's options carry its session. */
typedef struct opt_thread {
    rlx_runtime *rt;
    int refuse;
    int wrong; /* compiles whose outcome did not match REFUSE */
} opt_thread;

static void *opt_thread_main(void *arg)
{
    opt_thread *t = arg;
    rlx_graph *g = add_graph();
    rlx_session *s = NULL;
    if (rlx_session_create(t->rt, "test-sdk", &s) != RLX_OK ||
        rlx_session_set_option(s, "test_sdk.refuse",
                               t->refuse ? "1" : "0") != RLX_OK) {
        t->wrong = -1;
    } else {
        for (int i = 0; i < 50; i++) {
            rlx_program *p = NULL;
            rlx_status st = rlx_session_compile(s, g, &p);
            t->wrong += (st == RLX_OK) == t->refuse;
            rlx_program_destroy(p);
            (void)rlx_runtime_option_count(t->rt);
        }
    }
    rlx_session_destroy(s);
    rlx_graph_destroy(g);
    return NULL;
}

TEST(options_per_session_across_threads)
{
    rlx_runtime *rt = sdk_runtime();
    pthread_t th[4];
    opt_thread t[4];
    for (int i = 0; i < 4; i++) {
        t[i] = (opt_thread){ .rt = rt, .refuse = i % 2 };
        ASSERT(pthread_create(&th[i], NULL, opt_thread_main, &t[i]) == 0);
    }
    for (int i = 0; i < 4; i++)
        pthread_join(th[i], NULL);
    for (int i = 0; i < 4; i++)
        ASSERT_EQ(t[i].wrong, 0);
    rlx_runtime_destroy(rt);
}

/* The session's settings reach a compile through its options, so a
 * thread the backend starts while compiling reads them too; the host's
 * get_option answers for no session (environment and config file only). */
TEST(options_reach_compile_threads)
{
    rlx_runtime *rt = sdk_runtime();
    rlx_session *s = NULL;
    rlx_program *p = NULL;
    rlx_graph *g = add_graph();
    ASSERT_OK(rlx_session_create(rt, "test-sdk", &s));
    ASSERT_OK(rlx_session_set_option(s, "test_sdk.refuse_thread", "1"));
    ASSERT_STATUS(rlx_session_compile(s, g, &p), RLX_ERR_UNSUPPORTED);
    ASSERT(p == NULL);
    ASSERT_OK(rlx_session_set_option(s, "test_sdk.refuse_thread", NULL));
    /* read through the host: a session's value is not the host's */
    ASSERT_OK(rlx_session_set_option(s, "test_sdk.host_refuse", "1"));
    ASSERT_OK(rlx_session_compile(s, g, &p));
    rlx_program_destroy(p);
    p = NULL;
    setenv("RLX_TEST_SDK_HOST_REFUSE", "1", 1);
    rlx_status st = rlx_session_compile(s, g, &p);
    unsetenv("RLX_TEST_SDK_HOST_REFUSE");
    ASSERT_EQ(st, RLX_ERR_UNSUPPORTED);
    rlx_session_destroy(s);
    rlx_graph_destroy(g);
    rlx_runtime_destroy(rt);
}

/* A broken options section is a diagnostic, never a failure. */
TEST(options_config_errors)
{
    const char *dir = tool_tmp_make();
    char cfg[256];
    snprintf(cfg, sizeof cfg, "%s/config.yaml", dir);
    const char *yaml = "options:\n  \"Not Valid\": 1\n  ok.one: yes\n";
    tool_file_write(cfg, yaml, strlen(yaml));
    setenv("RLX_CONFIG", cfg, 1);
    rlx_runtime *rt = test_runtime();
    unsetenv("RLX_CONFIG");
    rlx_diag_kind kind;
    const char *reason, *fix;
    ASSERT(test_find_diag(rt, cfg, &kind, &reason, &fix) >= 0);
    ASSERT_CONTAINS(reason, "options entries are name: value");
    char value[16];
    ASSERT_OK(rlx_runtime_get_option(rt, "ok.one", value, sizeof value,
                                     NULL, 0));
    ASSERT_STREQ(value, "yes");
    ASSERT_STATUS(rlx_runtime_get_option(rt, "ok.one", value, 2, NULL, 0),
                  RLX_ERR_INVALID_ARGUMENT);
    rlx_runtime_destroy(rt);
}

TEST(get_extension)
{
    rlx_runtime *rt = sdk_runtime();
    const rlx_backend *b = rlx_runtime_find_backend(rt, "test-sdk");
    const struct {
        uint32_t struct_size;
        int32_t answer;
    } *ext = rlx_backend_get_extension(b, "rlx.test.answer.v1");
    ASSERT(ext != NULL);
    ASSERT_EQ(ext->struct_size, 8);
    ASSERT_EQ(ext->answer, 42);
    ASSERT(rlx_backend_get_extension(b, "rlx.test.none.v1") == NULL);
    ASSERT(rlx_backend_get_extension(b, "") == NULL);
    ASSERT(rlx_backend_get_extension(b, NULL) == NULL);
    ASSERT(rlx_backend_get_extension(NULL, "rlx.test.answer.v1") == NULL);
    /* cpu-ref has no extensions */
    ASSERT(rlx_backend_get_extension(rlx_runtime_find_backend(rt, "cpu-ref"),
                                     "rlx.test.answer.v1") == NULL);
    rlx_runtime_destroy(rt);
}

/* Copies the testsdk plugin into a fresh directory for the tool. */
static void sdk_plugin_dir(void)
{
    char src[1024], dst[1024];
    const char *dir = tool_tmp_make();
    snprintf(src, sizeof src, "%s/librlx-backend-testsdk.so",
             tool_env("RLX_TEST_PLUGIN_DIR"));
    snprintf(dst, sizeof dst, "%s/librlx-backend-testsdk.so", dir);
    tool_file_copy(src, dst);
    ASSERT(setenv("RLX_PLUGIN_PATH", dir, 1) == 0);
}

/* Regression: a backend that passed nothing was "(conformant)", exit 0. */
TEST(conformance_fails_a_backend_that_passes_nothing)
{
    sdk_plugin_dir();
    setenv("RLX_TEST_SDK_REFUSE", "1", 1);
    int rc = tool_run("conformance --backend test-sdk", 1);
    unsetenv("RLX_TEST_SDK_REFUSE");
    if (rc != 1)
        FAIL("exit %d, expected 1:\n%s", rc, tool_out);
    ASSERT_CONTAINS(tool_out, " 0 PASS, 0 FAIL");
    ASSERT_CONTAINS(tool_out, "not conformant: the backend passed nothing");
    ASSERT(strstr(tool_out, "(conformant)") == NULL);
    /* and passes its own ops once it compiles */
    rc = tool_run("conformance --backend test-sdk", 1);
    if (rc != 0)
        FAIL("exit %d, expected 0:\n%s", rc, tool_out);
    ASSERT_CONTAINS(tool_out, "(conformant)");
    ASSERT_CONTAINS(tool_out, "relu of NaN, -0, -1, 2.5: PASS");
    /* an edge case it gets wrong fails, naming the section of ops.md */
    setenv("RLX_TEST_SDK_RELU_NAN_ZERO", "1", 1);
    rc = tool_run("conformance --backend test-sdk", 1);
    unsetenv("RLX_TEST_SDK_RELU_NAN_ZERO");
    unsetenv("RLX_PLUGIN_PATH");
    if (rc != 1)
        FAIL("exit %d, expected 1:\n%s", rc, tool_out);
    ASSERT_CONTAINS(tool_out, "relu of NaN, -0, -1, 2.5: FAIL got 0 at [0], "
                              "want nan; see "
                              "ops.md#edge-nan-and-signed-zero");
}

/* Regression: --json printed nothing when the backend could not be
 * opened. */
TEST(conformance_json_when_the_backend_cannot_open)
{
    sdk_plugin_dir();
    setenv("RLX_TEST_SDK_OFF", "1", 1);
    int rc = tool_run("conformance --backend test-sdk --json", 0);
    unsetenv("RLX_TEST_SDK_OFF");
    if (rc != 1)
        FAIL("exit %d, expected 1:\n%s", rc, tool_out);
    ASSERT(tool_out[0] == '{');
    ASSERT_CONTAINS(tool_out, "\"backend\": \"test-sdk\"");
    ASSERT_CONTAINS(tool_out, "\"error\": \"cannot open a session on the "
                              "backend under test: backend 'test-sdk' is "
                              "unavailable: switched off by option "
                              "test_sdk.off. Fix: unset RLX_TEST_SDK_OFF\"");
    ASSERT_CONTAINS(tool_out, "\"conformant\": false");
    rc = tool_run("conformance --backend no-such --json", 0);
    unsetenv("RLX_PLUGIN_PATH");
    ASSERT_EQ(rc, 1);
    ASSERT(tool_out[0] == '{');
    ASSERT_CONTAINS(tool_out, "\"error\": \"no backend 'no-such'.");
}

/* The reason a model is UNSUPPORTED goes into the JSON, not only to
 * stderr. */
TEST(conformance_json_unsupported_model_reason)
{
    char model[1024], q[1100], args[2048];
    snprintf(model, sizeof model, "%s/mlp/mlp.yaml",
             tool_env("RLX_TEST_EXAMPLES_DIR"));
    tool_quote(q, sizeof q, model);
    sdk_plugin_dir();
    snprintf(args, sizeof args,
             "conformance --backend test-sdk --json --models %s", q);
    int rc = tool_run(args, 0);
    unsetenv("RLX_PLUGIN_PATH");
    ASSERT(rc == 0 || rc == 1);
    ASSERT_CONTAINS(tool_out, "\"kind\": \"model\"");
    ASSERT_CONTAINS(tool_out, "\"verdict\": \"UNSUPPORTED\"");
    ASSERT_CONTAINS(tool_out, "the backend cannot take the graph: ");
    ASSERT_CONTAINS(tool_out, "is not supported by backend 'test-sdk'");
}

/* `rlx devices` lists the settings plugins asked for, with their source,
 * and whether each backend has device I/O. */
TEST(devices_settings_and_io)
{
    sdk_plugin_dir();
    setenv("RLX_TEST_SDK_OFF", "0", 1);
    int rc = tool_run("devices", 1);
    if (rc != 0)
        FAIL("exit %d:\n%s", rc, tool_out);
    ASSERT_CONTAINS(tool_out, "test_sdk.off = 0  (from RLX_TEST_SDK_OFF)");
    ASSERT_CONTAINS(tool_out, "io:     host copies");
    ASSERT_CONTAINS(tool_out, "io:     device (bound tensors");
    unsetenv("RLX_TEST_SDK_OFF");
    rc = tool_run("devices --json", 0);
    unsetenv("RLX_PLUGIN_PATH");
    ASSERT_EQ(rc, 0);
    ASSERT_CONTAINS(tool_out, "\"device_io\": false");
    ASSERT_CONTAINS(tool_out, "\"name\": \"test_sdk.off\"");
    ASSERT_CONTAINS(tool_out, "\"variable\": \"RLX_TEST_SDK_OFF\"");
}

/* `rlx ops`: the op x dtype matrix as supports_op answers it. */
TEST(ops_matrix)
{
    sdk_plugin_dir();
    int rc = tool_run("ops --backend test-sdk", 1);
    if (rc != 0)
        FAIL("exit %d:\n%s", rc, tool_out);
    ASSERT_CONTAINS(tool_out, "test-sdk (device sdknpu, executes, plugin ");
    ASSERT_CONTAINS(tool_out, "  op           f32  f16  bf16 i32  i64  u8   "
                              "bool f64  i8   i16  u16  u32  u64\n");
    ASSERT_CONTAINS(tool_out, "  add          y    -    -    -    -    -    "
                              "-    -    -    -    -    -    -\n");
    ASSERT_CONTAINS(tool_out, "  matmul       -    -    -");
    ASSERT(strstr(tool_out, "  input ") == NULL); /* sources left out */
    ASSERT(strstr(tool_out, "cpu-ref (device") == NULL);
    rc = tool_run("ops --json", 0);
    ASSERT_EQ(rc, 0);
    ASSERT_CONTAINS(tool_out, "\"id\": \"test-sdk\"");
    ASSERT_CONTAINS(tool_out, "\"id\": \"cpu-ref\"");
    ASSERT_CONTAINS(tool_out, "\"relu\": [\n          \"f32\"\n        ],");
    ASSERT_CONTAINS(tool_out, "\"gelu\": []");
    ASSERT_EQ(tool_run("ops --backend no-such", 1), 1);
    ASSERT_CONTAINS(tool_out, "no backend 'no-such'. Fix:");
    ASSERT_EQ(tool_run("ops --bogus", 1), 2);
    unsetenv("RLX_PLUGIN_PATH");
}

/* Regression: `rlx run --output DIR` failed when DIR did not exist. */
TEST(run_output_creates_dir)
{
    char model[1024], q[1100], qd[400], args[4096], out[300], npy[400];
    snprintf(model, sizeof model, "%s/mlp/mlp.yaml",
             tool_env("RLX_TEST_EXAMPLES_DIR"));
    tool_quote(q, sizeof q, model);
    snprintf(out, sizeof out, "%s/new/deeper", tool_tmp_make());
    tool_quote(qd, sizeof qd, out);
    unsetenv("RLX_PLUGIN_PATH");
    snprintf(args, sizeof args, "run %s --device cpu-ref --output %s", q,
             qd);
    int rc = tool_run(args, 1);
    if (rc != 0)
        FAIL("exit %d:\n%s", rc, tool_out);
    snprintf(npy, sizeof npy, "%s/probs.npy", out);
    ASSERT(access(npy, R_OK) == 0);
    /* a path through a file is refused with a Fix */
    snprintf(args, sizeof args, "run %s --device cpu-ref --output %s/x", q,
             npy);
    ASSERT_EQ(tool_run(args, 1), 1);
    ASSERT_CONTAINS(tool_out, "Fix:");
}

RLX_TEST_LIST(TEST_ENTRY(probe_failure_message_kept_whole),
              TEST_ENTRY(one_backend_prefix),
              TEST_ENTRY(options_precedence),
              TEST_ENTRY(options_config_errors),
              TEST_ENTRY(options_per_session_across_threads),
              TEST_ENTRY(options_reach_compile_threads),
              TEST_ENTRY(get_extension),
              TEST_ENTRY(conformance_fails_a_backend_that_passes_nothing),
              TEST_ENTRY(conformance_json_when_the_backend_cannot_open),
              TEST_ENTRY(conformance_json_unsupported_model_reason),
              TEST_ENTRY(devices_settings_and_io),
              TEST_ENTRY(ops_matrix),
              TEST_ENTRY(run_output_creates_dir));
