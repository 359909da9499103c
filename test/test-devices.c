/* test-devices.c - the multi-device runner: device policies, params set
 * once for every device, fallback chains (a device that fails at run
 * time included), benchmark-based choice, and bad input. Test devices:
 * "npu" (partial: add, mul, relu, 2-D matmul), "flaky" (every run
 * fails), "slow" (every run sleeps 20 ms), and cpu-ref. */
#include <math.h>

#include "test-util.h"

/* y = gelu(x @ w + b): gelu runs on the CPU when the device lacks it. */
static rlx_graph *mlp(void)
{
    rlx_graph *g;
    rlx_value x, w, b, mm, add, y;
    ASSERT_OK(rlx_graph_create(&g));
    ASSERT_OK(rlx_graph_input(g, "x", RLX_DTYPE_F32, 2, (int64_t[]){ 2, 3 },
                              &x));
    ASSERT_OK(rlx_graph_param(g, "w", RLX_DTYPE_F32, 2, (int64_t[]){ 3, 2 },
                              &w));
    ASSERT_OK(rlx_graph_param(g, "b", RLX_DTYPE_F32, 1, (int64_t[]){ 2 },
                              &b));
    ASSERT_OK(rlx_graph_add_node(g, "mm", RLX_OP_MATMUL, 2,
                                 (rlx_value[]){ x, w }, NULL, &mm));
    ASSERT_OK(rlx_graph_add_node(g, "add", RLX_OP_ADD, 2,
                                 (rlx_value[]){ mm, b }, NULL, &add));
    ASSERT_OK(rlx_graph_add_node(g, "gelu", RLX_OP_GELU, 1, &add, NULL, &y));
    ASSERT_OK(rlx_graph_output(g, "y", y));
    return g;
}

static const float X[6] = { 1, -2, 0.5f, 3, 0, -1 };
static const float W[6] = { 0.5f, -1, 1, 0.25f, -0.5f, 2 };
static const float Bv[2] = { 0.1f, -0.3f };

static double gelu(double v)
{
    return 0.5 * v * (1 + erf(v / sqrt(2.0)));
}

/* y for weights W scaled by SCALE. */
static void assert_result(rlx_program *p, float scale)
{
    const float *y = rlx_program_output_data(p, 0, NULL);
    ASSERT(y != NULL);
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
            double s = Bv[j];
            for (int k = 0; k < 3; k++)
                s += X[i * 3 + k] * W[k * 2 + j] * scale;
            ASSERT_NEAR(y[i * 2 + j], gelu(s), 1e-5);
        }
}

static rlx_runtime *devices_runtime(void)
{
    rlx_runtime *rt = test_runtime();
    ASSERT_OK(rlx_runtime_load_plugin(rt, test_plugin("testnpupart")));
    ASSERT_OK(rlx_runtime_load_plugin(rt, test_plugin("testflakypart")));
    ASSERT_OK(rlx_runtime_load_plugin(rt, test_plugin("testslowpart")));
    return rt;
}

static rlx_runner *ready_runner(rlx_runtime *rt, rlx_graph *g,
                                const char *policy)
{
    rlx_runner *r;
    ASSERT_OK(rlx_runner_create(rt, g, policy, &r));
    ASSERT_OK(rlx_runner_set_param(r, "w", W, sizeof W));
    ASSERT_OK(rlx_runner_set_param(r, "b", Bv, sizeof Bv));
    ASSERT_OK(rlx_runner_set_input(r, "x", X, sizeof X));
    return r;
}

TEST(policies_order_and_filter_devices)
{
    rlx_runtime *rt = devices_runtime();
    rlx_graph *g = mlp();
    rlx_runner *r;
    ASSERT_OK(rlx_runner_create(rt, g, "default", &r));
    ASSERT_EQ(rlx_runner_device_count(r), 4);
    ASSERT_STREQ(rlx_runner_device(r, 0), "npu:0");
    ASSERT_STREQ(rlx_runner_device(r, 3), "cpu:0");
    ASSERT(rlx_runner_device(r, 4) == NULL);
    rlx_runner_destroy(r);
    ASSERT_OK(rlx_runner_create(rt, g, "prefer-cpu", &r));
    ASSERT_STREQ(rlx_runner_device(r, 0), "cpu:0");
    ASSERT_EQ(rlx_runner_device_count(r), 4);
    rlx_runner_destroy(r);
    ASSERT_OK(rlx_runner_create(rt, g, "npu-only", &r));
    ASSERT_EQ(rlx_runner_device_count(r), 3);
    /* a device the policy leaves out is refused with a Fix */
    rlx_program *p = (rlx_program *)1;
    ASSERT_STATUS(rlx_runner_program(r, "cpu", &p), RLX_ERR_UNAVAILABLE);
    ASSERT(p == NULL);
    ASSERT_CONTAINS(rlx_last_error(), "policy 'npu-only'");
    ASSERT_CONTAINS(rlx_last_error(), "Fix:");
    rlx_runner_destroy(r);
    /* a policy no device satisfies, and one that does not exist */
    r = (rlx_runner *)1;
    ASSERT_STATUS(rlx_runner_create(rt, g, "gpu-only", &r),
                  RLX_ERR_UNAVAILABLE);
    ASSERT(r == NULL);
    ASSERT_CONTAINS(rlx_last_error(), "no device satisfies the device "
                                      "policy 'gpu-only'");
    ASSERT_CONTAINS(rlx_last_error(), "Fix:");
    ASSERT_STATUS(rlx_runner_create(rt, g, "fastest-please", &r),
                  RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(rlx_last_error(), "Fix:");
    /* RLX_DEVICE_POLICY when none is given */
    setenv("RLX_DEVICE_POLICY", "cpu-only", 1);
    ASSERT_OK(rlx_runner_create(rt, g, NULL, &r));
    ASSERT_EQ(rlx_runner_device_count(r), 1);
    unsetenv("RLX_DEVICE_POLICY");
    rlx_runner_destroy(r);
    rlx_graph_destroy(g);
    rlx_runtime_destroy(rt);
}

TEST(policy_honours_backend_disable)
{
    setenv("RLX_BACKEND_DISABLE", "test-slow", 1);
    rlx_runtime *rt = devices_runtime();
    unsetenv("RLX_BACKEND_DISABLE");
    rlx_graph *g = mlp();
    rlx_runner *r;
    ASSERT_OK(rlx_runner_create(rt, g, NULL, &r));
    ASSERT_EQ(rlx_runner_device_count(r), 3);
    for (uint32_t i = 0; i < 3; i++)
        ASSERT(strcmp(rlx_runner_device(r, i), "slow:0") != 0);
    rlx_runner_destroy(r);
    rlx_graph_destroy(g);
    rlx_runtime_destroy(rt);
}

TEST(params_set_once_serve_every_device)
{
    rlx_runtime *rt = devices_runtime();
    rlx_graph *g = mlp();
    rlx_runner *r = ready_runner(rt, g, NULL);
    rlx_graph_destroy(g); /* the runner keeps its own copy */
    rlx_program *on_npu, *on_cpu, *again;
    ASSERT_OK(rlx_runner_run(r, "npu", &on_npu));
    assert_result(on_npu, 1);
    ASSERT_STREQ(rlx_program_placement_summary(on_npu),
                 "2 nodes on npu:0, 1 on cpu-ref (gelu x1), 1 transfer");
    ASSERT_OK(rlx_runner_run(r, "cpu", &on_cpu));
    assert_result(on_cpu, 1);
    ASSERT(on_npu != on_cpu);
    /* cached: the same program again */
    ASSERT_OK(rlx_runner_program(r, "npu:0", &again));
    ASSERT(again == on_npu);
    /* a new param reaches both compiled programs */
    float w2[6];
    for (int i = 0; i < 6; i++)
        w2[i] = W[i] * 2;
    ASSERT_OK(rlx_runner_set_param(r, "w", w2, sizeof w2));
    ASSERT_OK(rlx_runner_run(r, "npu", &on_npu));
    assert_result(on_npu, 2);
    ASSERT_OK(rlx_runner_run(r, "cpu-ref", &on_cpu));
    assert_result(on_cpu, 2);
    /* bad params and inputs change nothing */
    ASSERT_STATUS(rlx_runner_set_param(r, "w", w2, 5), RLX_ERR_SHAPE);
    ASSERT_STATUS(rlx_runner_set_param(r, "nope", w2, sizeof w2),
                  RLX_ERR_NOT_FOUND);
    ASSERT_STATUS(rlx_runner_set_input(r, "w", w2, sizeof w2),
                  RLX_ERR_NOT_FOUND);
    ASSERT_CONTAINS(rlx_last_error(), "Fix:");
    ASSERT_OK(rlx_runner_run(r, "npu", &on_npu));
    assert_result(on_npu, 2);
    rlx_runner_destroy(r);
    rlx_runtime_destroy(rt);
}

TEST(chain_falls_back_when_a_run_fails)
{
    rlx_runtime *rt = devices_runtime();
    rlx_graph *g = mlp();
    rlx_runner *r = ready_runner(rt, g, NULL);
    rlx_program *p;
    ASSERT_OK(rlx_runner_run_chain(r, "flaky, npu ,cpu", &p));
    assert_result(p, 1);
    ASSERT_EQ(rlx_runner_attempt_count(r), 2);
    const char *device, *reason;
    rlx_status st;
    ASSERT_OK(rlx_runner_attempt(r, 0, &device, &st, &reason));
    ASSERT_STREQ(device, "flaky:0");
    ASSERT_EQ(st, RLX_ERR_BACKEND);
    ASSERT_CONTAINS(reason, "the flaky test device was lost");
    ASSERT_OK(rlx_runner_attempt(r, 1, &device, &st, &reason));
    ASSERT_STREQ(device, "npu:0");
    ASSERT_EQ(st, RLX_OK);
    ASSERT_STATUS(rlx_runner_attempt(r, 2, &device, &st, &reason),
                  RLX_ERR_NOT_FOUND);
    /* from RLX_DEVICE_CHAIN */
    setenv("RLX_DEVICE_CHAIN", "flaky,cpu", 1);
    ASSERT_OK(rlx_runner_run_chain(r, NULL, &p));
    unsetenv("RLX_DEVICE_CHAIN");
    ASSERT_EQ(rlx_runner_attempt_count(r), 2);
    ASSERT_OK(rlx_runner_attempt(r, 1, &device, NULL, NULL));
    ASSERT_STREQ(device, "cpu:0");
    /* a device whose ops are all masked runs nothing: the chain moves on
     * (split never runs a whole graph on the CPU under a device's name) */
    rlx_runner *masked = ready_runner(rt, g, NULL); /* nothing cached */
    setenv("RLX_OPS_DISABLE", "npu:*", 1);
    ASSERT_OK(rlx_runner_run_chain(masked, "npu,cpu", &p));
    unsetenv("RLX_OPS_DISABLE");
    ASSERT_OK(rlx_runner_attempt(masked, 0, &device, &st, &reason));
    ASSERT_STREQ(device, "npu:0");
    ASSERT_EQ(st, RLX_ERR_UNSUPPORTED);
    ASSERT_CONTAINS(reason, "can run none of the graph's nodes");
    ASSERT_OK(rlx_runner_attempt(masked, 1, &device, &st, NULL));
    ASSERT_STREQ(device, "cpu:0");
    rlx_runner_destroy(masked);
    /* every device failing: the error lists them */
    ASSERT_STATUS(rlx_runner_run_chain(r, "flaky", &p), RLX_ERR_BACKEND);
    ASSERT(p == NULL);
    ASSERT_CONTAINS(rlx_last_error(), "every device of the chain failed");
    ASSERT_CONTAINS(rlx_last_error(), "flaky:0:");
    ASSERT_CONTAINS(rlx_last_error(), "Fix:");
    rlx_runner_destroy(r);
    rlx_graph_destroy(g);
    rlx_runtime_destroy(rt);
}

TEST(bad_chains_are_refused_before_anything_runs)
{
    rlx_runtime *rt = devices_runtime();
    rlx_graph *g = mlp();
    rlx_runner *r = ready_runner(rt, g, NULL);
    rlx_program *p;
    ASSERT_STATUS(rlx_runner_run_chain(r, "npu,warp-drive,cpu", &p),
                  RLX_ERR_NOT_FOUND);
    ASSERT_CONTAINS(rlx_last_error(), "unknown device 'warp-drive'");
    ASSERT_CONTAINS(rlx_last_error(), "Fix:");
    ASSERT_EQ(rlx_runner_attempt_count(r), 0);
    ASSERT_STATUS(rlx_runner_run_chain(r, " , ", &p),
                  RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(rlx_last_error(), "names no device");
    ASSERT_CONTAINS(rlx_last_error(), "Fix:");
    ASSERT_STATUS(rlx_runner_run_chain(r, "cuda:x", &p),
                  RLX_ERR_INVALID_ARGUMENT);
    ASSERT_STATUS(rlx_runner_run(r, "warp-drive", &p), RLX_ERR_NOT_FOUND);
    ASSERT_STATUS(rlx_runner_benchmark(r, "", 3, NULL),
                  RLX_ERR_INVALID_ARGUMENT);
    ASSERT_STATUS(rlx_runner_benchmark(r, NULL, 0, NULL),
                  RLX_ERR_INVALID_ARGUMENT);
    rlx_runner_destroy(r);
    rlx_graph_destroy(g);
    rlx_runtime_destroy(rt);
}

TEST(benchmark_picks_the_fast_device)
{
    rlx_runtime *rt = devices_runtime();
    rlx_graph *g = mlp();
    rlx_runner *r = ready_runner(rt, g, NULL);
    const char *winner;
    ASSERT_OK(rlx_runner_benchmark(r, "slow,npu", 3, &winner));
    ASSERT_STREQ(winner, "npu:0");
    ASSERT_EQ(rlx_runner_bench_count(r), 2);
    const char *device;
    double slow_ms, npu_ms;
    rlx_status st;
    ASSERT_OK(rlx_runner_bench_result(r, 0, &device, &slow_ms, &st, NULL));
    ASSERT_STREQ(device, "slow:0");
    ASSERT(st == RLX_OK && slow_ms >= 19.0);
    ASSERT_OK(rlx_runner_bench_result(r, 1, &device, &npu_ms, &st, NULL));
    ASSERT(npu_ms < slow_ms);
    /* the winner is now the best device */
    rlx_program *p;
    ASSERT_OK(rlx_runner_run(r, NULL, &p));
    ASSERT_OK(rlx_runner_attempt(r, 0, &device, NULL, NULL));
    ASSERT_STREQ(device, "npu:0");
    assert_result(p, 1);
    rlx_runner_destroy(r);
    rlx_graph_destroy(g);
    rlx_runtime_destroy(rt);
}

TEST(max_performance_measures_on_first_run)
{
    rlx_runtime *rt = devices_runtime();
    rlx_graph *g = mlp();
    rlx_runner *r = ready_runner(rt, g, "max-performance");
    rlx_program *p;
    ASSERT_OK(rlx_runner_run(r, NULL, &p));
    assert_result(p, 1);
    /* every allowed device has a row; the flaky one failed */
    ASSERT_EQ(rlx_runner_bench_count(r), rlx_runner_device_count(r));
    const char *device, *reason;
    int flaky_failed = 0;
    for (uint32_t i = 0; i < rlx_runner_bench_count(r); i++) {
        double ms;
        rlx_status st;
        ASSERT_OK(rlx_runner_bench_result(r, i, &device, &ms, &st, &reason));
        if (!strcmp(device, "flaky:0"))
            flaky_failed = st != RLX_OK && ms < 0 && strstr(reason, "lost");
    }
    ASSERT(flaky_failed);
    ASSERT_OK(rlx_runner_attempt(r, 0, &device, NULL, NULL));
    ASSERT(strcmp(device, "slow:0") != 0 && strcmp(device, "flaky:0") != 0);
    rlx_runner_destroy(r);
    rlx_graph_destroy(g);
    rlx_runtime_destroy(rt);
}

TEST(compile_all_then_clear)
{
    rlx_runtime *rt = devices_runtime();
    rlx_graph *g = mlp();
    rlx_runner *r = ready_runner(rt, g, NULL);
    uint32_t n = 0;
    ASSERT_OK(rlx_runner_compile_all(r, &n));
    /* flaky compiles (it fails only at run time): all four devices */
    ASSERT_EQ(n, 4);
    ASSERT_EQ(rlx_runner_attempt_count(r), 4);
    rlx_program *a, *b;
    ASSERT_OK(rlx_runner_program(r, "cpu", &a));
    rlx_runner_clear(r);
    ASSERT_OK(rlx_runner_program(r, "cpu", &b)); /* compiled anew */
    ASSERT_OK(rlx_runner_run(r, "cpu", &b));
    assert_result(b, 1); /* params survived the clear */
    rlx_runner_clear(NULL);
    ASSERT_STATUS(rlx_runner_compile_all(NULL, &n), RLX_ERR_INVALID_ARGUMENT);
    rlx_runner_destroy(r);
    rlx_graph_destroy(g);
    rlx_runtime_destroy(rt);
}

RLX_TEST_LIST(TEST_ENTRY(policies_order_and_filter_devices),
              TEST_ENTRY(policy_honours_backend_disable),
              TEST_ENTRY(params_set_once_serve_every_device),
              TEST_ENTRY(chain_falls_back_when_a_run_fails),
              TEST_ENTRY(bad_chains_are_refused_before_anything_runs),
              TEST_ENTRY(benchmark_picks_the_fast_device),
              TEST_ENTRY(max_performance_measures_on_first_run),
              TEST_ENTRY(compile_all_then_clear));
