/*
 * bench_placement.c - what placement costs and what the multi-device
 * runner picks, through the public API only:
 *   1. the runner's benchmark-based choice among DEVICES (a chain, e.g.
 *      "cuda,cpu") for an MLP 784-4096-4096-10 (gelu) at batch 64 and for
 *      a tiny graph where launch overhead dominates, with its table;
 *   2. the MLP on the first device of DEVICES unsplit, then split with
 *      gelu masked off the device (RLX_OPS_DISABLE=<device>:gelu, gelu on
 *      the CPU), side by side in the same run, with the largest output
 *      difference between the two.
 *
 *   bench_placement [DEVICES] [RUNS] [HIDDEN]  (default "cuda,cpu", 20,
 *                                              4096)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rlx/rlx.h>

#define CHECK(call)                                                         \
    do {                                                                    \
        if ((call) != RLX_OK) {                                             \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,              \
                    rlx_last_error());                                      \
            exit(1);                                                        \
        }                                                                   \
    } while (0)

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static float *random_floats(size_t n, float scale, unsigned seed)
{
    float *v = malloc(n * sizeof *v);
    for (size_t i = 0; v && i < n; i++) {
        seed = seed * 1664525u + 1013904223u;
        v[i] = ((float)(seed >> 8) / 16777216.0f * 2 - 1) * scale;
    }
    return v;
}

static int64_t SIZES[4] = { 784, 4096, 4096, 10 }; /* argv[3]: hidden */
#define BATCH 64

/* x [BATCH, 784] -> (matmul + bias, gelu) x2 -> matmul + bias -> softmax */
static rlx_graph *mlp_graph(void)
{
    rlx_graph *g;
    rlx_value h, w, b, t;
    char name[32];
    CHECK(rlx_graph_create(&g));
    CHECK(rlx_graph_input(g, "x", RLX_DTYPE_F32, 2,
                          (int64_t[]){ BATCH, SIZES[0] }, &h));
    for (int l = 0; l < 3; l++) {
        snprintf(name, sizeof name, "w%d", l);
        CHECK(rlx_graph_param(g, name, RLX_DTYPE_F32, 2,
                              (int64_t[]){ SIZES[l], SIZES[l + 1] }, &w));
        snprintf(name, sizeof name, "b%d", l);
        CHECK(rlx_graph_param(g, name, RLX_DTYPE_F32, 1, &SIZES[l + 1], &b));
        CHECK(rlx_graph_add_node(g, NULL, RLX_OP_MATMUL, 2,
                                 (rlx_value[]){ h, w }, NULL, &t));
        CHECK(rlx_graph_add_node(g, NULL, RLX_OP_ADD, 2,
                                 (rlx_value[]){ t, b }, NULL, &h));
        if (l < 2) {
            CHECK(rlx_graph_add_node(g, NULL, RLX_OP_GELU, 1, &h, NULL, &t));
            h = t;
        }
    }
    CHECK(rlx_graph_add_node(g, NULL, RLX_OP_SOFTMAX, 1, &h, NULL, &t));
    CHECK(rlx_graph_output(g, "probs", t));
    return g;
}

/* y = relu(x + c) on 16 floats: nothing but launch and copy overhead */
static rlx_graph *tiny_graph(void)
{
    rlx_graph *g;
    rlx_value x, c, a, y;
    float cv[16];
    for (int i = 0; i < 16; i++)
        cv[i] = (float)i / 8 - 1;
    CHECK(rlx_graph_create(&g));
    CHECK(rlx_graph_input(g, "x", RLX_DTYPE_F32, 1, (int64_t[]){ 16 }, &x));
    CHECK(rlx_graph_constant(g, "c", RLX_DTYPE_F32, 1, (int64_t[]){ 16 }, cv,
                             &c));
    CHECK(rlx_graph_add_node(g, "a", RLX_OP_ADD, 2, (rlx_value[]){ x, c },
                             NULL, &a));
    CHECK(rlx_graph_add_node(g, "y", RLX_OP_RELU, 1, &a, NULL, &y));
    CHECK(rlx_graph_output(g, "y", y));
    return g;
}

static float *mlp_params[6];

static void mlp_params_make(void)
{
    for (int l = 0; l < 3; l++) {
        float s = 1.0f / sqrtf((float)SIZES[l]);
        mlp_params[2 * l] = random_floats((size_t)(SIZES[l] * SIZES[l + 1]),
                                          s, 11u + (unsigned)l);
        mlp_params[2 * l + 1] = random_floats((size_t)SIZES[l + 1], s,
                                              21u + (unsigned)l);
    }
}

static void runner_mlp_params(rlx_runner *r)
{
    char name[32];
    for (int l = 0; l < 3; l++) {
        snprintf(name, sizeof name, "w%d", l);
        CHECK(rlx_runner_set_param(r, name, mlp_params[2 * l],
                                   (size_t)(SIZES[l] * SIZES[l + 1]) * 4));
        snprintf(name, sizeof name, "b%d", l);
        CHECK(rlx_runner_set_param(r, name, mlp_params[2 * l + 1],
                                   (size_t)SIZES[l + 1] * 4));
    }
}

static void pick(const char *title, rlx_runtime *rt, rlx_graph *g,
                 int is_mlp, const float *x, size_t x_bytes,
                 const char *devices, unsigned runs)
{
    rlx_runner *r;
    const char *winner;
    CHECK(rlx_runner_create(rt, g, NULL, &r));
    if (is_mlp)
        runner_mlp_params(r);
    CHECK(rlx_runner_set_input(r, "x", x, x_bytes));
    printf("\n%s: benchmark choice among %s (median of %u runs)\n", title,
           devices, runs);
    rlx_status st = rlx_runner_benchmark(r, devices, runs, &winner);
    for (uint32_t i = 0; i < rlx_runner_bench_count(r); i++) {
        const char *device, *why;
        double ms;
        rlx_status rs;
        rlx_runner_bench_result(r, i, &device, &ms, &rs, &why);
        if (rs == RLX_OK)
            printf("  %-10s %10.4f ms%s\n", device, ms,
                   st == RLX_OK && !strcmp(device, winner) ? "  <- picked"
                                                           : "");
        else
            printf("  %-10s failed: %s\n", device, why);
    }
    rlx_runner_destroy(r);
}

/* Median ms of RUNS runs of the MLP on DEVICE; *OUT gets the output. */
static double time_mlp(rlx_runtime *rt, rlx_graph *g, const char *device,
                       const float *x, unsigned runs, float **out,
                       char *summary, size_t summary_size)
{
    rlx_session *s;
    rlx_program *p;
    char name[32];
    CHECK(rlx_session_create(rt, device, &s));
    CHECK(rlx_session_compile(s, g, &p));
    rlx_session_destroy(s);
    snprintf(summary, summary_size, "%s", rlx_program_placement_summary(p));
    for (int l = 0; l < 3; l++) {
        snprintf(name, sizeof name, "w%d", l);
        CHECK(rlx_program_set_param(p, name, mlp_params[2 * l],
                                    (size_t)(SIZES[l] * SIZES[l + 1]) * 4));
        snprintf(name, sizeof name, "b%d", l);
        CHECK(rlx_program_set_param(p, name, mlp_params[2 * l + 1],
                                    (size_t)SIZES[l + 1] * 4));
    }
    double *t = malloc(runs * sizeof *t);
    for (unsigned i = 0; i <= runs; i++) {
        double t0 = now_ms();
        CHECK(rlx_program_set_input(p, "x", x, BATCH * SIZES[0] * 4));
        CHECK(rlx_program_run(p));
        if (i)
            t[i - 1] = now_ms() - t0;
    }
    for (unsigned i = 1; i < runs; i++) /* insertion sort, small */
        for (unsigned j = i; j > 0 && t[j] < t[j - 1]; j--) {
            double v = t[j];
            t[j] = t[j - 1];
            t[j - 1] = v;
        }
    double median = t[runs / 2];
    size_t n;
    const float *y = rlx_program_output_data(p, 0, &n);
    *out = malloc(n);
    memcpy(*out, y, n);
    free(t);
    rlx_program_destroy(p);
    return median;
}

int main(int argc, char **argv)
{
    const char *devices = argc > 1 ? argv[1] : "cuda,cpu";
    unsigned runs = argc > 2 ? (unsigned)atoi(argv[2]) : 20;
    if (runs == 0)
        runs = 20;
    if (argc > 3 && atoi(argv[3]) > 0)
        SIZES[1] = SIZES[2] = atoi(argv[3]);
    char first[64];
    snprintf(first, sizeof first, "%.*s", (int)strcspn(devices, ","),
             devices);
    rlx_runtime *rt;
    CHECK(rlx_runtime_create(&rt, 0));
    mlp_params_make();
    float *x = random_floats(BATCH * SIZES[0], 1, 7);
    rlx_graph *mlp = mlp_graph(), *tiny = tiny_graph();

    char title[96];
    snprintf(title, sizeof title, "MLP 784-%lld-%lld-10 (gelu), batch 64",
             (long long)SIZES[1], (long long)SIZES[2]);
    pick(title, rt, mlp, 1, x,
         BATCH * SIZES[0] * 4, devices, runs);
    pick("tiny graph (add + relu on 16 floats)", rt, tiny, 0, x, 16 * 4,
         devices, runs);

    char mask[96], s_whole[512], s_split[512];
    float *y_whole, *y_split;
    printf("\nsplit cost on %s: MLP batch 64, median of %u runs (input "
           "copy included)\n", first, runs);
    double whole = time_mlp(rt, mlp, first, x, runs, &y_whole, s_whole,
                            sizeof s_whole);
    snprintf(mask, sizeof mask, "%s:gelu", first);
    setenv("RLX_OPS_DISABLE", mask, 1);
    double split = time_mlp(rt, mlp, first, x, runs, &y_split, s_split,
                            sizeof s_split);
    unsetenv("RLX_OPS_DISABLE");
    double diff = 0;
    for (int i = 0; i < BATCH * 10; i++)
        diff = fmax(diff, fabs((double)y_whole[i] - y_split[i]));
    printf("  unsplit  %10.4f ms   %s\n", whole, s_whole);
    printf("  split    %10.4f ms   %s (RLX_OPS_DISABLE=%s)\n", split,
           s_split, mask);
    printf("  split / unsplit: %.2fx; max |diff| of the outputs %.3g\n",
           split / whole, diff);
    free(y_whole);
    free(y_split);
    free(x);
    for (int i = 0; i < 6; i++)
        free(mlp_params[i]);
    rlx_graph_destroy(mlp);
    rlx_graph_destroy(tiny);
    rlx_runtime_destroy(rt);
    return diff < 1e-4 ? 0 : 1;
}
