/* test-blas-swap.c - swapping cpu-ref and cpu-openblas back and forth in
 * a live process: threads keep compiling and running graphs on "cpu"
 * (matmul, softmax, layer_norm, add, gelu, transpose) and check every
 * result against values computed here in double, while the main thread
 * loads and unloads the plugin. Run under ASan and under TSan. */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>

#include "blas-test-util.h"

enum { M = 8, K = 24, N = 16 };

static float X[M * K], W[K * N], B[N], G[N], BETA[N];
static double WANT[M * N];

/* y = gelu(layer_norm(softmax(x @ w + b))), then transposed twice */
/* add node OP reading IN..., its value into *T (inputs copied first: the
 * API clears the output before it reads the inputs) */
static void node(rlx_graph *g, const char *name, rlx_op op, uint32_t n,
                 const rlx_value *in, rlx_value *t)
{
    rlx_value copy[3];
    memcpy(copy, in, n * sizeof *in);
    if (rlx_graph_add_node(g, name, op, n, copy, NULL, t) != RLX_OK)
        FAIL("node %s: %s", name, rlx_last_error());
}

static rlx_graph *graph(void)
{
    rlx_graph *g;
    rlx_value x, w, b, ga, be, t;
    if (rlx_graph_create(&g) != RLX_OK)
        FAIL("graph: %s", rlx_last_error());
    rlx_graph_input(g, "x", RLX_DTYPE_F32, 2, (int64_t[]){ M, K }, &x);
    rlx_graph_param(g, "w", RLX_DTYPE_F32, 2, (int64_t[]){ K, N }, &w);
    rlx_graph_param(g, "b", RLX_DTYPE_F32, 1, (int64_t[]){ N }, &b);
    rlx_graph_param(g, "g", RLX_DTYPE_F32, 1, (int64_t[]){ N }, &ga);
    rlx_graph_param(g, "beta", RLX_DTYPE_F32, 1, (int64_t[]){ N }, &be);
    node(g, "mm", RLX_OP_MATMUL, 2, (rlx_value[]){ x, w }, &t);
    node(g, "add", RLX_OP_ADD, 2, (rlx_value[]){ t, b }, &t);
    node(g, "sm", RLX_OP_SOFTMAX, 1, &t, &t);
    node(g, "ln", RLX_OP_LAYER_NORM, 3, (rlx_value[]){ t, ga, be }, &t);
    node(g, "gelu", RLX_OP_GELU, 1, &t, &t);
    node(g, "t1", RLX_OP_TRANSPOSE, 1, &t, &t);
    node(g, "t2", RLX_OP_TRANSPOSE, 1, &t, &t);
    if (rlx_graph_output(g, "y", t) != RLX_OK)
        FAIL("graph: %s", rlx_last_error());
    return g;
}

static void expected(void)
{
    for (int i = 0; i < M * K; i++)
        X[i] = (float)sin(0.37 * i);
    for (int i = 0; i < K * N; i++)
        W[i] = (float)cos(0.11 * i) * 0.5f;
    for (int j = 0; j < N; j++) {
        B[j] = 0.1f * (float)j - 0.7f;
        G[j] = 1.0f + 0.05f * (float)j;
        BETA[j] = 0.01f * (float)j;
    }
    for (int i = 0; i < M; i++) {
        double r[N], mx = -INFINITY, sum = 0, mean = 0, var = 0;
        for (int j = 0; j < N; j++) {
            double acc = B[j];
            for (int q = 0; q < K; q++)
                acc += (double)X[i * K + q] * W[q * N + j];
            r[j] = acc;
            mx = acc > mx ? acc : mx;
        }
        for (int j = 0; j < N; j++)
            sum += (r[j] = exp(r[j] - mx));
        for (int j = 0; j < N; j++)
            mean += (r[j] /= sum) / N;
        for (int j = 0; j < N; j++)
            var += (r[j] - mean) * (r[j] - mean) / N;
        for (int j = 0; j < N; j++) {
            double v = (r[j] - mean) / sqrt(var + 1e-5) * G[j] + BETA[j];
            WANT[i * N + j] = 0.5 * v * erfc(-v / sqrt(2.0));
        }
    }
}

static rlx_runtime *live_rt;
static atomic_int stop, runs, wrong, on_blas, on_ref;

static int run_ok(rlx_program *p)
{
    if (rlx_program_set_input(p, "x", X, sizeof X) != RLX_OK ||
        rlx_program_run(p) != RLX_OK)
        return 0;
    const float *y = rlx_program_output_data(p, 0, NULL);
    for (int i = 0; y && i < M * N; i++)
        if (fabs(y[i] - WANT[i]) > 1e-4 + 1e-4 * fabs(WANT[i]))
            return 0;
    return y != NULL;
}

static int compile_on(rlx_runtime *rt, const char *device, rlx_session **s,
                      rlx_program **p)
{
    rlx_graph *g = graph();
    int ok = rlx_session_create(rt, device, s) == RLX_OK &&
             rlx_session_compile(*s, g, p) == RLX_OK &&
             rlx_program_set_param(*p, "w", W, sizeof W) == RLX_OK &&
             rlx_program_set_param(*p, "b", B, sizeof B) == RLX_OK &&
             rlx_program_set_param(*p, "g", G, sizeof G) == RLX_OK &&
             rlx_program_set_param(*p, "beta", BETA, sizeof BETA) == RLX_OK;
    rlx_graph_destroy(g);
    return ok;
}

static void *worker(void *arg)
{
    (void)arg;
    while (!atomic_load(&stop)) {
        rlx_session *s = NULL;
        rlx_program *p = NULL;
        int ok = compile_on(live_rt, "cpu", &s, &p);
        if (ok) {
            const char *id = rlx_backend_id(rlx_session_backend(s));
            atomic_fetch_add(strcmp(id, "cpu-openblas") ? &on_ref : &on_blas,
                             1);
        }
        /* several runs per compile, some after the next swap */
        for (int i = 0; ok && i < 4; i++)
            ok = run_ok(p);
        rlx_program_destroy(p);
        rlx_session_destroy(s);
        atomic_fetch_add(&runs, 1);
        if (!ok)
            atomic_fetch_add(&wrong, 1);
    }
    return NULL;
}

static const char *best_path(void)
{
    int score;
    return blas_variant_path(blas_expected_suffix(&score));
}

TEST(program_outlives_unload)
{
    expected();
    rlx_runtime *rt = blas_runtime();
    const char *path = best_path();
    ASSERT_OK(rlx_runtime_load_plugin(rt, path));
    rlx_session *s;
    rlx_program *p;
    ASSERT(compile_on(rt, "cpu", &s, &p));
    ASSERT_STREQ(rlx_backend_id(rlx_session_backend(s)), "cpu-openblas");
    ASSERT(run_ok(p));
    ASSERT_OK(rlx_runtime_unload_plugin(rt, path));
    ASSERT_STREQ(rlx_backend_id(rlx_runtime_choose(rt, "cpu")), "cpu-ref");
    ASSERT(run_ok(p)); /* still on the unloaded plugin's code */
    rlx_program_destroy(p);
    rlx_session_destroy(s); /* last user: backend_destroy joins the pool */
    ASSERT_OK(rlx_runtime_load_plugin(rt, path));
    ASSERT_STREQ(rlx_backend_id(rlx_runtime_choose(rt, "cpu")),
                 "cpu-openblas");
    rlx_runtime_destroy(rt);
}

TEST(swap_while_threads_run)
{
    expected();
    live_rt = blas_runtime();
    const char *path = best_path();
    enum { THREADS = 3, SWAPS = 25 };
    pthread_t t[THREADS];
    atomic_store(&stop, 0);
    atomic_store(&runs, 0);
    atomic_store(&wrong, 0);
    atomic_store(&on_blas, 0);
    atomic_store(&on_ref, 0);
    for (int i = 0; i < THREADS; i++)
        ASSERT(pthread_create(&t[i], NULL, worker, NULL) == 0);
    int load_fail = 0, unload_fail = 0;
    struct timespec pause = { 0, 2 * 1000 * 1000 };
    for (int i = 0; i < SWAPS; i++) {
        load_fail += rlx_runtime_load_plugin(live_rt, path) != RLX_OK;
        nanosleep(&pause, NULL);
        unload_fail += rlx_runtime_unload_plugin(live_rt, path) != RLX_OK;
        nanosleep(&pause, NULL);
    }
    atomic_store(&stop, 1);
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);
    rlx_runtime_destroy(live_rt);
    printf("# %d compiles: %d on cpu-openblas, %d on cpu-ref, %d wrong\n",
           atomic_load(&runs), atomic_load(&on_blas), atomic_load(&on_ref),
           atomic_load(&wrong));
    ASSERT_EQ(load_fail, 0);
    ASSERT_EQ(unload_fail, 0);
    ASSERT_EQ(atomic_load(&wrong), 0);
    ASSERT(atomic_load(&on_blas) > 0);
    ASSERT(atomic_load(&on_ref) > 0);
}

RLX_TEST_LIST(
    TEST_ENTRY(program_outlives_unload),
    TEST_ENTRY(swap_while_threads_run),
)
