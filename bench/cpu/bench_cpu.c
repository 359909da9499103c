/*
 * bench_cpu.c - one run, one machine: matmul GFLOP/s of cpu-openblas
 * (through rlx: compile once, run many) against cpu-ref and against a
 * direct cblas_sgemm call on the same data, square sizes 64..2048; then
 * the example models' latency on both CPU backends (bench_models.c).
 * Built by meson, never run as a test:
 *
 *   build/bench/rlx-bench-cpu [--plugin-dir DIR]   (-Dbench=true)
 *       [--examples DIR] [--repeat N]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cblas.h>

#include "bench_cpu.h"

#ifndef RLX_BENCH_PLUGIN_DIR
#define RLX_BENCH_PLUGIN_DIR "."
#endif
#ifndef RLX_BENCH_EXAMPLES_DIR
#define RLX_BENCH_EXAMPLES_DIR "examples"
#endif

double bench_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double bench_median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

void bench_fill(float *x, size_t n, unsigned seed)
{
    unsigned long long s = seed * 0x9e3779b97f4a7c15ull + 1;
    for (size_t i = 0; i < n; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        x[i] = (float)((double)(s >> 40) / (double)(1ull << 24) * 2.0 - 1.0);
    }
}

/* Repeats for size N: enough for a stable median, bounded time. */
static int reps_for(int n, int repeat)
{
    int r = n <= 256 ? repeat * 5 : n <= 1024 ? repeat * 2 : repeat;
    return r < 3 ? 3 : r;
}

/* Median ms of one [n, n] x [n, n] matmul through rlx on BACKEND (and,
 * when C is given, of a direct cblas_sgemm on the same data, timed in
 * alternation with it so both see the same machine load); 0 when it
 * cannot run. */
static double rlx_matmul_ms(rlx_runtime *rt, const char *backend, int n,
                            const float *a, const float *b, float *c,
                            int reps, double *direct_ms)
{
    rlx_graph *g;
    rlx_value x, w, y;
    rlx_session *s = NULL;
    rlx_program *p = NULL;
    double ms = 0, *t = calloc(2 * (size_t)reps, sizeof *t);
    int64_t dims[2] = { n, n };
    size_t bytes = (size_t)n * (size_t)n * sizeof(float);
    rlx_graph_create(&g);
    rlx_graph_input(g, "a", RLX_DTYPE_F32, 2, dims, &x);
    rlx_graph_input(g, "b", RLX_DTYPE_F32, 2, dims, &w);
    rlx_graph_add_node(g, "y", RLX_OP_MATMUL, 2, (rlx_value[]){ x, w }, NULL,
                       &y);
    rlx_graph_output(g, "y", y);
    if (t && rlx_session_create(rt, backend, &s) == RLX_OK &&
        rlx_session_compile(s, g, &p) == RLX_OK &&
        rlx_program_set_input(p, "a", a, bytes) == RLX_OK &&
        rlx_program_set_input(p, "b", b, bytes) == RLX_OK &&
        rlx_program_run(p) == RLX_OK) { /* warm-up */
        if (c)
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n,
                        1.0f, a, n, b, n, 0.0f, c, n);
        for (int i = 0; i < reps; i++) {
            double t0 = bench_now_ms();
            rlx_program_run(p);
            t[i] = bench_now_ms() - t0;
            if (!c)
                continue;
            t0 = bench_now_ms();
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n,
                        1.0f, a, n, b, n, 0.0f, c, n);
            t[reps + i] = bench_now_ms() - t0;
        }
        ms = bench_median(t, (size_t)reps);
        if (c)
            *direct_ms = bench_median(t + reps, (size_t)reps);
    } else {
        fprintf(stderr, "matmul %d on %s: %s\n", n, backend,
                rlx_last_error());
    }
    free(t);
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_graph_destroy(g);
    return ms;
}

static double gflops(int n, double ms)
{
    return ms > 0 ? 2.0 * n * (double)n * n / (ms * 1e6) : 0.0;
}

int main(int argc, char **argv)
{
    const char *dir = RLX_BENCH_PLUGIN_DIR, *ex = RLX_BENCH_EXAMPLES_DIR;
    int repeat = 10, ref_max = 1024;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--plugin-dir"))
            dir = argv[i + 1];
        else if (!strcmp(argv[i], "--examples"))
            ex = argv[i + 1];
        else if (!strcmp(argv[i], "--repeat"))
            repeat = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--ref-max"))
            ref_max = atoi(argv[i + 1]);
    }
    rlx_runtime *rt;
    if (rlx_runtime_create(&rt, RLX_RUNTIME_NO_DISCOVERY) != RLX_OK ||
        rlx_runtime_discover(rt, dir) != RLX_OK ||
        !rlx_runtime_find_backend(rt, "cpu-openblas")) {
        fprintf(stderr, "no cpu-openblas in %s: %s\n", dir, rlx_last_error());
        return 1;
    }
    const rlx_backend *be = rlx_runtime_find_backend(rt, "cpu-openblas");
    printf("cpu-openblas: %s (host-fit score %d)\n",
           rlx_backend_plugin_path(be), (int)rlx_backend_host_fit(be));
    printf("OpenBLAS: %s, %d threads\n\n", openblas_get_config(),
           openblas_get_num_threads());

    printf("matmul [n,n]x[n,n] f32, GFLOP/s (median of runs)\n");
    printf("%6s %12s %12s %12s %14s %14s\n", "n", "cblas", "cpu-openblas",
           "cpu-ref", "openblas/cblas", "openblas/ref");
    for (int n = 64; n <= 2048; n *= 2) {
        size_t cnt = (size_t)n * (size_t)n;
        float *a = malloc(cnt * 4), *b = malloc(cnt * 4), *c = malloc(cnt * 4);
        if (!a || !b || !c)
            return 1;
        bench_fill(a, cnt, 1);
        bench_fill(b, cnt, 2);
        int reps = reps_for(n, repeat);
        double direct_ms = 0;
        double ob = gflops(n, rlx_matmul_ms(rt, "cpu-openblas", n, a, b, c,
                                            reps, &direct_ms));
        double direct = gflops(n, direct_ms);
        double ref = n <= ref_max
                         ? gflops(n, rlx_matmul_ms(rt, "cpu-ref", n, a, b,
                                                   NULL, n >= 512 ? 3 : reps,
                                                   NULL))
                         : 0.0;
        char rs[32] = "skipped", rr[32] = "-";
        if (ref > 0) {
            snprintf(rs, sizeof rs, "%.2f", ref);
            snprintf(rr, sizeof rr, "%.1fx", ob / ref);
        }
        printf("%6d %12.2f %12.2f %12s %13.1f%% %14s\n", n, direct, ob, rs,
               100.0 * ob / direct, rr);
        fflush(stdout);
        free(a);
        free(b);
        free(c);
    }
    printf("(cpu-ref above n=%d skipped: minutes per run)\n\n", ref_max);
    int rc = bench_models(rt, ex, repeat);
    rlx_runtime_destroy(rt);
    return rc;
}
