/* test-session.c - device choice, explanations, fallback, legalization,
 * params and runs, on the built-in backend and through a plugin. */
#include <pthread.h>

#include <rlx/backend.h>

#include "test-util.h"

/* y = relu(x * w + b) with x [2,3], w [3], b [3]; or a matmul graph. */
static rlx_graph *small_graph(int with_matmul)
{
    rlx_graph *g;
    rlx_value x, w, b, t, y;
    if (rlx_graph_create(&g) != RLX_OK)
        FAIL("graph: %s", rlx_last_error());
    rlx_graph_input(g, "x", RLX_DTYPE_F32, 2, (int64_t[]){ 2, 3 }, &x);
    if (with_matmul) {
        rlx_graph_param(g, "w", RLX_DTYPE_F32, 2, (int64_t[]){ 3, 3 }, &w);
        rlx_graph_add_node(g, "mm", RLX_OP_MATMUL, 2, (rlx_value[]){ x, w },
                           NULL, &t);
    } else {
        rlx_graph_param(g, "w", RLX_DTYPE_F32, 2, (int64_t[]){ 2, 3 }, &w);
        rlx_graph_add_node(g, "mul", RLX_OP_MUL, 2, (rlx_value[]){ x, w },
                           NULL, &t);
    }
    rlx_graph_constant(g, "b", RLX_DTYPE_F32, 2, (int64_t[]){ 2, 3 },
                       (float[]){ 1, -1, 1, -1, 1, -1 }, &b);
    rlx_graph_add_node(g, "add", RLX_OP_ADD, 2, (rlx_value[]){ t, b }, NULL,
                       &t);
    rlx_graph_add_node(g, "relu", RLX_OP_RELU, 1, &t, NULL, &y);
    if (rlx_graph_output(g, "y", y) != RLX_OK)
        FAIL("graph: %s", rlx_last_error());
    return g;
}

static const float X[6] = { 1, 2, 3, -4, 5, -6 };
static const float W6[6] = { 2, 2, 2, 0.5f, 0.5f, 0.5f };

static void check_elementwise_output(rlx_program *p)
{
    ASSERT_OK(rlx_program_set_param(p, "w", W6, sizeof W6));
    ASSERT_OK(rlx_program_set_input(p, "x", X, sizeof X));
    ASSERT_OK(rlx_program_run(p));
    size_t n;
    const float *y = rlx_program_output_data(p, 0, &n);
    ASSERT(y && n == sizeof(float) * 6);
    static const float b[6] = { 1, -1, 1, -1, 1, -1 };
    for (int i = 0; i < 6; i++) {
        float v = X[i] * W6[i] + b[i];
        ASSERT_NEAR(y[i], v > 0 ? v : 0, 1e-6);
    }
}

TEST(auto_choice_is_explained)
{
    rlx_runtime *rt = test_runtime();
    rlx_session *s;
    ASSERT_OK(rlx_session_create(rt, NULL, &s));
    ASSERT_STREQ(rlx_backend_id(rlx_session_backend(s)), "cpu-ref");
    const char *why = rlx_session_explain(s);
    ASSERT_CONTAINS(why, "cuda: no backend registered");
    ASSERT_CONTAINS(why, "chose backend 'cpu-ref' for cpu:0");
    rlx_session_destroy(s);
    rlx_runtime_destroy(rt);
}

TEST(auto_prefers_accelerators_over_cpu)
{
    rlx_runtime *rt = test_runtime();
    ASSERT_OK(rlx_runtime_load_plugin(rt, test_plugin("testgood")));
    rlx_session *s;
    ASSERT_OK(rlx_session_create(rt, "", &s));
    ASSERT_STREQ(rlx_backend_id(rlx_session_backend(s)), "test-good");
    rlx_session_destroy(s);
    rlx_runtime_destroy(rt);
}

TEST(software_devices_rank_after_the_cpu)
{
    rlx_runtime *rt = test_runtime();
    ASSERT_OK(rlx_runtime_load_plugin(rt, test_plugin("testsoftgpu")));
    const rlx_backend *soft = rlx_runtime_find_backend(rt, "test-softgpu");
    uint32_t count = 0, flags = 0;
    ASSERT_OK(rlx_backend_probe_ex(soft, &count, &flags));
    ASSERT_EQ(flags, RLX_PROBE_SOFTWARE);
    rlx_session *s;
    ASSERT_OK(rlx_session_create(rt, NULL, &s));
    ASSERT_STREQ(rlx_backend_id(rlx_session_backend(s)), "cpu-ref");
    ASSERT_CONTAINS(rlx_session_explain(s), "runs on a software device");
    /* still a fallback candidate, after the CPU */
    ASSERT_EQ(s ? 1 : 0, 1);
    rlx_session_destroy(s);
    ASSERT_OK(rlx_session_create(rt, "vulkan", &s));
    ASSERT_STREQ(rlx_backend_id(rlx_session_backend(s)), "test-softgpu");
    rlx_session_destroy(s);
    rlx_runtime_destroy(rt);
}

TEST(input_written_in_place)
{
    rlx_runtime *rt = test_runtime();
    rlx_graph *g = small_graph(0);
    rlx_session *s;
    rlx_program *p;
    ASSERT_OK(rlx_session_create(rt, "cpu-ref", &s));
    ASSERT_OK(rlx_session_compile(s, g, &p));
    ASSERT_OK(rlx_program_set_param(p, "w", W6, sizeof W6));
    size_t n = 0;
    float *x = rlx_program_input_buffer(p, "x", &n);
    ASSERT(x && n == sizeof X);
    ASSERT(rlx_program_input_buffer(p, "x", NULL) == x); /* stable */
    memcpy(x, X, sizeof X);
    ASSERT_OK(rlx_program_run(p));
    const float *y = rlx_program_output_data(p, 0, NULL);
    ASSERT_NEAR(y[2], 7.0, 1e-6); /* 3 * 2 + 1 */
    x[2] = 4;
    ASSERT_OK(rlx_program_run(p));
    ASSERT_NEAR(y[2], 9.0, 1e-6);
    ASSERT(rlx_program_input_buffer(p, "nope", &n) == NULL && n == 0);
    ASSERT_CONTAINS(rlx_last_error(), "no input named 'nope'");
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_graph_destroy(g);
    rlx_runtime_destroy(rt);
}

TEST(precision_setting)
{
    rlx_runtime *rt = test_runtime();
    rlx_session *s = NULL;
    ASSERT_OK(rlx_session_create(rt, "cpu", &s));
    ASSERT_EQ(rlx_session_precision(s), RLX_PRECISION_STRICT);
    ASSERT_OK(rlx_session_set_precision(s, RLX_PRECISION_ALLOW_TF32));
    ASSERT_EQ(rlx_session_precision(s), RLX_PRECISION_ALLOW_TF32);
    ASSERT_STATUS(rlx_session_set_precision(s, (rlx_precision)9),
                  RLX_ERR_INVALID_ARGUMENT);
    ASSERT_EQ(rlx_session_precision(s), RLX_PRECISION_ALLOW_TF32);
    rlx_session_destroy(s);
    setenv("RLX_PRECISION", "reduced", 1);
    rlx_status st = rlx_session_create(rt, "cpu", &s);
    rlx_precision got = rlx_session_precision(s);
    rlx_session_destroy(s);
    setenv("RLX_PRECISION", "fast", 1);
    rlx_status bad = rlx_session_create(rt, "cpu", &s);
    unsetenv("RLX_PRECISION");
    ASSERT_OK(st);
    ASSERT_EQ(got, RLX_PRECISION_ALLOW_REDUCED);
    ASSERT_EQ(bad, RLX_ERR_INVALID_ARGUMENT);
    ASSERT(s == NULL);
    ASSERT_CONTAINS(rlx_last_error(), "RLX_PRECISION='fast'");
    rlx_runtime_destroy(rt);
}

TEST(device_environment_variable)
{
    rlx_runtime *rt = test_runtime();
    ASSERT_OK(rlx_runtime_load_plugin(rt, test_plugin("testgood")));
    setenv("RLX_DEVICE", "cpu", 1);
    rlx_session *s = NULL;
    rlx_status st = rlx_session_create(rt, NULL, &s);
    unsetenv("RLX_DEVICE");
    ASSERT_OK(st);
    ASSERT_STREQ(rlx_backend_id(rlx_session_backend(s)), "cpu-ref");
    ASSERT_CONTAINS(rlx_session_explain(s), "RLX_DEVICE=cpu");
    rlx_session_destroy(s);
    /* an explicit argument beats the environment */
    setenv("RLX_DEVICE", "cpu", 1);
    st = rlx_session_create(rt, "npu", &s);
    unsetenv("RLX_DEVICE");
    ASSERT_OK(st);
    ASSERT_STREQ(rlx_backend_id(rlx_session_backend(s)), "test-good");
    rlx_session_destroy(s);
    rlx_runtime_destroy(rt);
}

TEST(unknown_or_bad_device)
{
    rlx_runtime *rt = test_runtime();
    rlx_session *s = (rlx_session *)1;
    ASSERT_STATUS(rlx_session_create(rt, "cuda", &s), RLX_ERR_NOT_FOUND);
    ASSERT(s == NULL);
    ASSERT_CONTAINS(rlx_last_error(), "no backend for device 'cuda'");
    ASSERT_CONTAINS(rlx_last_error(), "Fix:");
    ASSERT_STATUS(rlx_session_create(rt, "cpu:3", &s), RLX_ERR_UNAVAILABLE);
    ASSERT_CONTAINS(rlx_last_error(), "no cpu:3");
    ASSERT_STATUS(rlx_session_create(rt, ":1", &s), RLX_ERR_INVALID_ARGUMENT);
    ASSERT_STATUS(rlx_session_create(rt, "cpu-ref:1", &s),
                  RLX_ERR_UNAVAILABLE);
    ASSERT_STATUS(rlx_session_create(NULL, "cpu", &s),
                  RLX_ERR_INVALID_ARGUMENT);
    ASSERT_OK(rlx_runtime_load_plugin(rt, test_plugin("testgood")));
    ASSERT_STATUS(rlx_session_create(rt, "test-emit", &s),
                  RLX_ERR_UNSUPPORTED);
    ASSERT_CONTAINS(rlx_last_error(), "does not execute graphs");
    rlx_runtime_destroy(rt);
}

TEST(runs_on_reference_backend)
{
    rlx_runtime *rt = test_runtime();
    rlx_graph *g = small_graph(0);
    rlx_session *s;
    rlx_program *p;
    ASSERT_OK(rlx_session_create(rt, "cpu-ref", &s));
    ASSERT_OK(rlx_session_compile(s, g, &p));
    rlx_graph_destroy(g); /* a program does not need its graph */
    check_elementwise_output(p);
    check_elementwise_output(p); /* again: params persist, runs repeat */
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_runtime_destroy(rt);
}

TEST(runs_through_a_plugin)
{
    rlx_runtime *rt = test_runtime();
    ASSERT_OK(rlx_runtime_load_plugin(rt, test_plugin("testgood")));
    rlx_graph *g = small_graph(0);
    rlx_session *s;
    rlx_program *p;
    ASSERT_OK(rlx_session_create(rt, "npu:1", &s));
    ASSERT_EQ(rlx_session_device_index(s), 1);
    ASSERT_OK(rlx_session_compile(s, g, &p));
    check_elementwise_output(p);
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_graph_destroy(g);
    rlx_runtime_destroy(rt);
}

TEST(fallback_when_backend_cannot_compile)
{
    rlx_runtime *rt = test_runtime();
    ASSERT_OK(rlx_runtime_load_plugin(rt, test_plugin("testfastcpu")));
    rlx_graph *g = small_graph(1);
    rlx_session *s;
    rlx_program *p;
    ASSERT_OK(rlx_session_create(rt, "cpu", &s));
    ASSERT_STREQ(rlx_backend_id(rlx_session_backend(s)), "test-fastcpu");
    /* the whole graph moves (the default, split, is test-placement's) */
    ASSERT_OK(rlx_session_set_fallback(s, RLX_FALLBACK_WHOLE));
    ASSERT_OK(rlx_session_compile(s, g, &p));
    ASSERT_STREQ(rlx_backend_id(rlx_session_backend(s)), "cpu-ref");
    const char *why = rlx_session_explain(s);
    ASSERT_CONTAINS(why, "node 'mm' (op matmul, f32) is not supported by "
                         "backend 'test-fastcpu'");
    ASSERT_CONTAINS(why, "fell back to backend 'cpu-ref'");
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_graph_destroy(g);
    rlx_runtime_destroy(rt);
}

TEST(explicit_backend_names_first_unsupported_op)
{
    rlx_runtime *rt = test_runtime();
    ASSERT_OK(rlx_runtime_load_plugin(rt, test_plugin("testfastcpu")));
    rlx_graph *g = small_graph(1);
    rlx_session *s;
    rlx_program *p = (rlx_program *)1;
    ASSERT_OK(rlx_session_create(rt, "test-fastcpu", &s));
    ASSERT_OK(rlx_session_set_fallback(s, RLX_FALLBACK_NONE));
    ASSERT_STATUS(rlx_session_compile(s, g, &p), RLX_ERR_UNSUPPORTED);
    ASSERT(p == NULL);
    ASSERT_CONTAINS(rlx_last_error(), "node 'mm' (op matmul, f32)");
    ASSERT_CONTAINS(rlx_last_error(), "on device cpu");
    ASSERT_CONTAINS(rlx_last_error(), "Fix:");
    rlx_session_destroy(s);
    rlx_graph_destroy(g);
    rlx_runtime_destroy(rt);
}

TEST(backend_compile_error_is_reported)
{
    /* test-good refuses broadcasting inside compile, with a Fix */
    rlx_runtime *rt = test_runtime();
    ASSERT_OK(rlx_runtime_load_plugin(rt, test_plugin("testgood")));
    rlx_graph *g;
    rlx_value a, b, c;
    ASSERT_OK(rlx_graph_create(&g));
    ASSERT_OK(rlx_graph_input(g, "a", RLX_DTYPE_F32, 2, (int64_t[]){ 2, 3 }, &a));
    ASSERT_OK(rlx_graph_input(g, "b", RLX_DTYPE_F32, 1, (int64_t[]){ 3 }, &b));
    ASSERT_OK(rlx_graph_add_node(g, "add", RLX_OP_ADD, 2,
                                 (rlx_value[]){ a, b }, NULL, &c));
    ASSERT_OK(rlx_graph_output(g, "c", c));
    rlx_session *s;
    rlx_program *p;
    ASSERT_OK(rlx_session_create(rt, "npu", &s));
    ASSERT_STATUS(rlx_session_compile(s, g, &p), RLX_ERR_UNSUPPORTED);
    ASSERT_CONTAINS(rlx_last_error(), "backend 'test-good': compile failed: "
                                      "broadcasting is not supported");
    rlx_session_destroy(s);
    /* chosen automatically, it falls back to the CPU */
    ASSERT_OK(rlx_session_create(rt, NULL, &s));
    ASSERT_STREQ(rlx_backend_id(rlx_session_backend(s)), "test-good");
    ASSERT_OK(rlx_session_compile(s, g, &p));
    ASSERT_STREQ(rlx_backend_id(rlx_session_backend(s)), "cpu-ref");
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_graph_destroy(g);
    rlx_runtime_destroy(rt);
}

TEST(param_and_input_errors)
{
    rlx_runtime *rt = test_runtime();
    rlx_graph *g = small_graph(0);
    rlx_session *s;
    rlx_program *p;
    ASSERT_OK(rlx_session_create(rt, "cpu", &s));
    ASSERT_OK(rlx_session_compile(s, g, &p));
    ASSERT_STATUS(rlx_program_run(p), RLX_ERR_STATE);
    ASSERT_CONTAINS(rlx_last_error(), "param 'w' has not been set");
    ASSERT_STATUS(rlx_program_set_param(p, "w", W6, 5), RLX_ERR_SHAPE);
    ASSERT_CONTAINS(rlx_last_error(), "f32 [2,3] (24 bytes), got 5 bytes");
    ASSERT_STATUS(rlx_program_set_param(p, "nope", W6, sizeof W6),
                  RLX_ERR_NOT_FOUND);
    ASSERT_STATUS(rlx_program_set_param(p, "x", X, sizeof X),
                  RLX_ERR_NOT_FOUND); /* x is an input, not a param */
    ASSERT_OK(rlx_program_set_param(p, "w", W6, sizeof W6));
    ASSERT_STATUS(rlx_program_run(p), RLX_ERR_STATE);
    ASSERT_CONTAINS(rlx_last_error(), "input 'x' has not been set");
    ASSERT(rlx_program_output_data(p, 0, NULL) == NULL);
    ASSERT(rlx_program_output_data(p, 9, NULL) == NULL);
    /* slots describe the signature */
    const char *name;
    uint32_t rank;
    const int64_t *dims;
    ASSERT_OK(rlx_program_slot(p, RLX_SLOT_OUTPUT, 0, &name, NULL, &rank,
                               &dims));
    ASSERT_STREQ(name, "y");
    ASSERT(rank == 2 && dims[0] == 2 && dims[1] == 3);
    ASSERT_STATUS(rlx_program_slot(p, RLX_SLOT_INPUT, 1, &name, NULL, NULL,
                                   NULL),
                  RLX_ERR_NOT_FOUND);
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_graph_destroy(g);
    rlx_runtime_destroy(rt);
}

/* Threads compile and run while the main thread loads plugins: registry
 * readers take no lock, so this is what ASan (and TSan) must find clean. */
static rlx_runtime *shared_rt;

static void *worker(void *arg)
{
    (void)arg;
    for (int i = 0; i < 40; i++) {
        rlx_graph *g = small_graph(0);
        rlx_session *s = NULL;
        rlx_program *p = NULL;
        float y[6];
        int ok = rlx_session_create(shared_rt, "cpu", &s) == RLX_OK &&
                 rlx_session_compile(s, g, &p) == RLX_OK &&
                 rlx_program_set_param(p, "w", W6, sizeof W6) == RLX_OK &&
                 rlx_program_set_input(p, "x", X, sizeof X) == RLX_OK &&
                 rlx_program_run(p) == RLX_OK;
        if (ok)
            memcpy(y, rlx_program_output_data(p, 0, NULL), sizeof y);
        rlx_program_destroy(p);
        rlx_session_destroy(s);
        rlx_graph_destroy(g);
        /* x*w+b for element 0 is 1*2+1 = 3 */
        if (!ok || y[0] != 3.0f)
            return (void *)1;
    }
    return NULL;
}

TEST(concurrent_sessions_while_loading)
{
    shared_rt = test_runtime();
    pthread_t t[4];
    for (int i = 0; i < 4; i++)
        ASSERT(pthread_create(&t[i], NULL, worker, NULL) == 0);
    rlx_status a = rlx_runtime_load_plugin(shared_rt, test_plugin("testgood"));
    rlx_status b = rlx_runtime_load_plugin(shared_rt,
                                           test_plugin("testfastcpu"));
    int failed = 0;
    for (int i = 0; i < 4; i++) {
        void *r;
        pthread_join(t[i], &r);
        failed += r != NULL;
    }
    uint32_t n = rlx_runtime_backend_count(shared_rt);
    rlx_runtime_destroy(shared_rt);
    ASSERT_OK(a);
    ASSERT_OK(b);
    ASSERT_EQ(failed, 0);
    ASSERT_EQ(n, 4);
}

/* Messages quote user text first: a 100,000-character device, a 1 MB
 * setting name or a 5,000-entry device chain is cut short in the
 * message, which keeps its reason and its Fix. */
TEST(long_user_text_keeps_the_fix)
{
    rlx_runtime *rt = test_runtime();
    size_t n = 1000000;
    char *text = malloc(n + 1);
    ASSERT(text);
    memset(text, 'd', n);
    text[100000] = '\0';
    rlx_session *s = NULL;
    ASSERT(rlx_session_create(rt, text, &s) != RLX_OK);
    const char *e = rlx_last_error();
    ASSERT(strlen(e) < 2048);
    ASSERT_CONTAINS(e, "...(100000 bytes)' is not a device name. Fix: ");
    /* a UTF-8 name is not cut inside a character */
    text[0] = 'x'; /* so a 200-byte cut would fall inside a character */
    for (size_t i = 1; i + 2 <= n; i += 2)
        memcpy(text + i, "\xc3\xa9", 2);
    text[n - 1] = '\0';
    ASSERT(rlx_session_create(rt, "cpu", &s) == RLX_OK);
    ASSERT(rlx_session_set_option(s, text, "1") != RLX_OK);
    e = rlx_last_error();
    ASSERT(strlen(e) < 2048);
    ASSERT_CONTAINS(e, "...(999999 bytes)' is not a setting name. Fix: ");
    ASSERT(!strstr(e, "\xc3..."));
    rlx_session_destroy(s);
    /* a chain of 5,000 devices */
    rlx_graph *g = small_graph(0);
    rlx_runner *r = NULL;
    ASSERT(rlx_runner_create(rt, g, NULL, &r) == RLX_OK);
    for (size_t i = 0; i < 5000; i++)
        memcpy(text + 4 * i, "cpu,", 4);
    text[4 * 5000 - 1] = '\0';
    ASSERT(rlx_runner_run_chain(r, text, NULL) != RLX_OK);
    e = rlx_last_error();
    ASSERT(strlen(e) < 2048);
    ASSERT_CONTAINS(e, "...(19999 bytes)' is longer than 64 devices. Fix: ");
    rlx_runner_destroy(r);
    rlx_graph_destroy(g);
    free(text);
    rlx_runtime_destroy(rt);
}

RLX_TEST_LIST(
    TEST_ENTRY(long_user_text_keeps_the_fix),
    TEST_ENTRY(concurrent_sessions_while_loading),
    TEST_ENTRY(auto_choice_is_explained),
    TEST_ENTRY(auto_prefers_accelerators_over_cpu),
    TEST_ENTRY(software_devices_rank_after_the_cpu),
    TEST_ENTRY(input_written_in_place),
    TEST_ENTRY(precision_setting),
    TEST_ENTRY(device_environment_variable),
    TEST_ENTRY(unknown_or_bad_device),
    TEST_ENTRY(runs_on_reference_backend),
    TEST_ENTRY(runs_through_a_plugin),
    TEST_ENTRY(fallback_when_backend_cannot_compile),
    TEST_ENTRY(explicit_backend_names_first_unsupported_op),
    TEST_ENTRY(backend_compile_error_is_reported),
    TEST_ENTRY(param_and_input_errors),
)
