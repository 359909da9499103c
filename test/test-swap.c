/* test-swap.c - loading and unloading plugins in a live process: new
 * sessions follow the registry, compiled programs keep working on the
 * backend they were compiled for, and a plugin's file closes only after
 * its last user is gone, never under running code. */
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#include "test-util.h"

/* y = relu(x * w + b) on [2,3]: the ops test-fastcpu supports. */
static rlx_graph *graph(void)
{
    rlx_graph *g;
    rlx_value x, w, b, t, y;
    if (rlx_graph_create(&g) != RLX_OK)
        FAIL("graph: %s", rlx_last_error());
    rlx_graph_input(g, "x", RLX_DTYPE_F32, 2, (int64_t[]){ 2, 3 }, &x);
    rlx_graph_param(g, "w", RLX_DTYPE_F32, 2, (int64_t[]){ 2, 3 }, &w);
    rlx_graph_add_node(g, "mul", RLX_OP_MUL, 2, (rlx_value[]){ x, w }, NULL,
                       &t);
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
static const float W[6] = { 2, 2, 2, 0.5f, 0.5f, 0.5f };
static const float WANT[6] = { 3, 3, 7, 0, 3.5f, 0 };

/* Run P once; 1 when the output is right. */
static int run_ok(rlx_program *p)
{
    if (rlx_program_set_input(p, "x", X, sizeof X) != RLX_OK ||
        rlx_program_run(p) != RLX_OK)
        return 0;
    const float *y = rlx_program_output_data(p, 0, NULL);
    return y && memcmp(y, WANT, sizeof WANT) == 0;
}

static rlx_program *compile_on(rlx_runtime *rt, const char *device,
                               rlx_session **s)
{
    rlx_graph *g = graph();
    rlx_program *p = NULL;
    if (rlx_session_create(rt, device, s) != RLX_OK ||
        rlx_session_compile(*s, g, &p) != RLX_OK ||
        rlx_program_set_param(p, "w", W, sizeof W) != RLX_OK) {
        rlx_graph_destroy(g);
        FAIL("compile on %s: %s", device, rlx_last_error());
    }
    rlx_graph_destroy(g);
    return p;
}

TEST(unload_keeps_running_programs)
{
    rlx_runtime *rt = test_runtime();
    const char *path = test_plugin("testfastcpu");
    ASSERT_OK(rlx_runtime_load_plugin(rt, path));
    const rlx_backend *fast = rlx_runtime_find_backend(rt, "test-fastcpu");
    rlx_session *s1;
    rlx_program *p1 = compile_on(rt, "cpu", &s1);
    ASSERT_STREQ(rlx_backend_id(rlx_session_backend(s1)), "test-fastcpu");
    ASSERT(run_ok(p1));

    ASSERT_OK(rlx_runtime_unload_plugin(rt, path));
    ASSERT(!rlx_backend_is_loaded(fast));
    ASSERT(rlx_runtime_find_backend(rt, "test-fastcpu") == NULL);
    /* a new session gets the reference backend */
    rlx_session *s2;
    rlx_program *p2 = compile_on(rt, "cpu", &s2);
    ASSERT_STREQ(rlx_backend_id(rlx_session_backend(s2)), "cpu-ref");
    ASSERT(run_ok(p2));
    /* the old program still runs on the unloaded plugin's code */
    ASSERT(run_ok(p1));
    ASSERT(run_ok(p1));
    rlx_program_destroy(p1);
    rlx_session_destroy(s1); /* last user: the file closes here */
    ASSERT_STATUS(rlx_backend_probe(fast, NULL), RLX_ERR_UNAVAILABLE);
    ASSERT_CONTAINS(rlx_last_error(), "unloaded");
    ASSERT(!rlx_backend_supports_op(fast, RLX_OP_ADD, RLX_DTYPE_F32));
    /* and it can come back */
    ASSERT_OK(rlx_runtime_load_plugin(rt, path));
    ASSERT(rlx_runtime_choose(rt, "cpu") ==
           rlx_runtime_find_backend(rt, "test-fastcpu"));
    rlx_program_destroy(p2);
    rlx_session_destroy(s2);
    rlx_runtime_destroy(rt);
}

TEST(unload_errors)
{
    rlx_runtime *rt = test_runtime();
    ASSERT_STATUS(rlx_runtime_unload_plugin(rt, "(built-in)"),
                  RLX_ERR_NOT_FOUND);
    ASSERT_CONTAINS(rlx_last_error(), "cannot be unloaded");
    ASSERT_STATUS(rlx_runtime_unload_plugin(rt, test_plugin("testgood")),
                  RLX_ERR_NOT_FOUND);
    ASSERT_STATUS(rlx_runtime_unload_plugin(rt, NULL),
                  RLX_ERR_INVALID_ARGUMENT);
    ASSERT_OK(rlx_runtime_load_plugin(rt, test_plugin("testgood")));
    ASSERT_OK(rlx_runtime_unload_plugin(rt, test_plugin("testgood")));
    ASSERT_STATUS(rlx_runtime_unload_plugin(rt, test_plugin("testgood")),
                  RLX_ERR_NOT_FOUND);
    rlx_runtime_destroy(rt);
}

/* ---- swapping back and forth under load ------------------------------ */

static rlx_runtime *live_rt;
static atomic_int stop;
static atomic_int runs, wrong;

static void *worker(void *arg)
{
    (void)arg;
    while (!atomic_load(&stop)) {
        rlx_graph *g = graph();
        rlx_session *s = NULL;
        rlx_program *p = NULL;
        int ok = rlx_session_create(live_rt, "cpu", &s) == RLX_OK &&
                 rlx_session_compile(s, g, &p) == RLX_OK &&
                 rlx_program_set_param(p, "w", W, sizeof W) == RLX_OK;
        rlx_graph_destroy(g);
        /* several runs per compile, some after the next swap */
        for (int i = 0; ok && i < 5; i++)
            ok = run_ok(p);
        rlx_program_destroy(p);
        rlx_session_destroy(s);
        atomic_fetch_add(&runs, 1);
        if (!ok)
            atomic_fetch_add(&wrong, 1);
    }
    return NULL;
}

TEST(swap_while_threads_run)
{
    live_rt = test_runtime();
    const char *path = test_plugin("testfastcpu");
    pthread_t t[3];
    atomic_store(&stop, 0);
    atomic_store(&runs, 0);
    atomic_store(&wrong, 0);
    for (int i = 0; i < 3; i++)
        ASSERT(pthread_create(&t[i], NULL, worker, NULL) == 0);
    /* Swap at least 40 times, and on until the workers have compiled and
     * run 30 programs across the swaps (bounded, for a stalled machine). */
    int load_fail = 0, unload_fail = 0, swaps = 0;
    struct timespec pause = { 0, 200 * 1000 };
    while ((swaps < 40 || atomic_load(&runs) < 30) && swaps < 200000) {
        load_fail += rlx_runtime_load_plugin(live_rt, path) != RLX_OK;
        nanosleep(&pause, NULL);
        unload_fail += rlx_runtime_unload_plugin(live_rt, path) != RLX_OK;
        swaps++;
    }
    atomic_store(&stop, 1);
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], NULL);
    rlx_runtime_destroy(live_rt);
    ASSERT_EQ(load_fail, 0);
    ASSERT_EQ(unload_fail, 0);
    ASSERT_EQ(atomic_load(&wrong), 0);
    ASSERT(atomic_load(&runs) >= 30);
}

RLX_TEST_LIST(
    TEST_ENTRY(unload_keeps_running_programs),
    TEST_ENTRY(unload_errors),
    TEST_ENTRY(swap_while_threads_run),
)
