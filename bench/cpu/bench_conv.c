/*
 * bench_conv.c - one run, one machine: latency of single conv layers
 * (conv + bias + relu, weights as params) of ResNet-18 and
 * MobileNetV3-small at batch 1 and 8, on cpu-openblas's own conv kernels
 * (1 and 2 pool threads), on cpu-openblas with them switched off (the
 * cpu-ref fallback, setting cpu-openblas.conv=0) and on cpu-ref itself.
 * Also the best own time as GFLOP/s and the largest difference from
 * cpu-ref's output. Built by meson, never run as a test:
 *
 *   build/plugins/cpu-openblas/rlx-bench-conv [--plugin-dir DIR]
 *       [--repeat N] [--slow-repeat N]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rlx/rlx.h>

#ifndef RLX_BENCH_PLUGIN_DIR
#define RLX_BENCH_PLUGIN_DIR "."
#endif

static double bench_now_ms(void)
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

static double bench_median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* N floats uniform in [-1, 1) from SEED. */
static void bench_fill(float *x, size_t n, unsigned seed)
{
    unsigned long long s = seed * 0x9e3779b97f4a7c15ull + 1;
    for (size_t i = 0; i < n; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        x[i] = (float)((double)(s >> 40) / (double)(1ull << 24) * 2.0 - 1.0);
    }
}

typedef struct layer {
    const char *name;
    int64_t c, hw, m, k, stride, pad, group;
} layer;

static const layer layers[] = {
    { "r18 conv1 7x7/2 3->64 @224", 3, 224, 64, 7, 2, 3, 1 },
    { "r18 l1 3x3 64->64 @56", 64, 56, 64, 3, 1, 1, 1 },
    { "r18 l2 3x3/2 64->128 @56", 64, 56, 128, 3, 2, 1, 1 },
    { "r18 l2 down 1x1/2 64->128", 64, 56, 128, 1, 2, 0, 1 },
    { "r18 l2 3x3 128->128 @28", 128, 28, 128, 3, 1, 1, 1 },
    { "r18 l3 3x3 256->256 @14", 256, 14, 256, 3, 1, 1, 1 },
    { "r18 l4 3x3 512->512 @7", 512, 7, 512, 3, 1, 1, 1 },
    { "mv3 stem 3x3/2 3->16 @224", 3, 224, 16, 3, 2, 1, 1 },
    { "mv3 dw 3x3/2 16 @112", 16, 112, 16, 3, 2, 1, 16 },
    { "mv3 pw 1x1 16->72 @56", 16, 56, 72, 1, 1, 0, 1 },
    { "mv3 dw 3x3/2 72 @56", 72, 56, 72, 3, 2, 1, 72 },
    { "mv3 dw 5x5 240 @14", 240, 14, 240, 5, 1, 2, 240 },
    { "mv3 pw 1x1 96->576 @7", 96, 7, 576, 1, 1, 0, 1 },
};
#define N_LAYERS (sizeof layers / sizeof *layers)

enum { OWN1, OWN2, FALLBACK, REF, N_CFG };
static const char *const cfg_name[N_CFG] = {
    "openblas 1t", "openblas 2t", "fallback", "cpu-ref"
};

/* Median ms of one run of layer L at BATCH on BACKEND (0 when it cannot
 * run); the last output into Y. */
static double layer_ms(rlx_runtime *rt, const char *backend, const layer *l,
                       int64_t batch, int reps, float *y, size_t ny)
{
    int64_t oh = (l->hw + 2 * l->pad - l->k) / l->stride + 1;
    int64_t xd[4] = { batch, l->c, l->hw, l->hw };
    int64_t wd[4] = { l->m, l->c / l->group, l->k, l->k };
    int64_t bd[1] = { l->m };
    int64_t at[9] = { l->group, l->stride, l->stride, 1, 1,
                      l->pad, l->pad, l->pad, l->pad };
    size_t nx = (size_t)(batch * l->c * l->hw * l->hw);
    size_t nw = (size_t)(wd[0] * wd[1] * wd[2] * wd[3]);
    rlx_graph *g = NULL;
    rlx_value x, w, b, c, r;
    rlx_session *s = NULL;
    rlx_program *p = NULL;
    double ms = 0, *t = calloc((size_t)reps, sizeof *t);
    float *xv = malloc(nx * sizeof *xv), *wv = malloc(nw * sizeof *wv);
    float *bv = malloc((size_t)l->m * sizeof *bv);
    rlx_attrs attrs = { .n_ints = 9, .ints = at };
    int ok = t && xv && wv && bv && rlx_graph_create(&g) == RLX_OK &&
             rlx_graph_input(g, "x", RLX_DTYPE_F32, 4, xd, &x) == RLX_OK &&
             rlx_graph_param(g, "w", RLX_DTYPE_F32, 4, wd, &w) == RLX_OK &&
             rlx_graph_param(g, "b", RLX_DTYPE_F32, 1, bd, &b) == RLX_OK &&
             rlx_graph_add_node(g, "conv", RLX_OP_CONV, 3,
                                (rlx_value[]){ x, w, b }, &attrs,
                                &c) == RLX_OK &&
             rlx_graph_add_node(g, "relu", RLX_OP_RELU, 1, &c, NULL,
                                &r) == RLX_OK &&
             rlx_graph_output(g, "y", r) == RLX_OK;
    if (ok) {
        bench_fill(xv, nx, 1);
        bench_fill(wv, nw, 2);
        bench_fill(bv, (size_t)l->m, 3);
        float scale = 1.0f / sqrtf((float)(wd[1] * wd[2] * wd[3]));
        for (size_t i = 0; i < nw; i++)
            wv[i] *= scale;
    }
    ok = ok && rlx_session_create(rt, backend, &s) == RLX_OK &&
         rlx_session_compile(s, g, &p) == RLX_OK &&
         rlx_program_set_input(p, "x", xv, nx * sizeof *xv) == RLX_OK &&
         rlx_program_set_param(p, "w", wv, nw * sizeof *wv) == RLX_OK &&
         rlx_program_set_param(p, "b", bv, (size_t)l->m * sizeof *bv) ==
             RLX_OK &&
         rlx_program_run(p) == RLX_OK; /* warm-up: packs the weights */
    if (ok) {
        for (int i = 0; i < reps; i++) {
            double t0 = bench_now_ms();
            rlx_program_run(p);
            t[i] = bench_now_ms() - t0;
        }
        ms = bench_median(t, (size_t)reps);
        size_t nbytes = 0;
        const float *out = rlx_program_output_data(p, 0, &nbytes);
        if (out && nbytes == ny * sizeof *y)
            memcpy(y, out, nbytes);
    } else {
        fprintf(stderr, "%s on %s: %s\n", l->name, backend,
                rlx_last_error());
    }
    (void)oh;
    free(t);
    free(xv);
    free(wv);
    free(bv);
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_graph_destroy(g);
    return ms;
}

/* A runtime that sees the plugins in DIR with the cpu-openblas settings
 * of configuration CFG (read from the environment at creation). */
static rlx_runtime *runtime_for(const char *dir, int cfg)
{
    setenv("RLX_CPU_OPENBLAS_THREADS", cfg == OWN1 ? "1" : "2", 1);
    setenv("RLX_CPU_OPENBLAS_CONV", cfg == FALLBACK ? "0" : "1", 1);
    rlx_runtime *rt = NULL;
    if (rlx_runtime_create(&rt, RLX_RUNTIME_NO_DISCOVERY) != RLX_OK ||
        rlx_runtime_discover(rt, dir) != RLX_OK ||
        !rlx_runtime_find_backend(rt, "cpu-openblas")) {
        fprintf(stderr, "no cpu-openblas in %s: %s\n", dir, rlx_last_error());
        rlx_runtime_destroy(rt);
        return NULL;
    }
    return rt;
}

int main(int argc, char **argv)
{
    const char *dir = RLX_BENCH_PLUGIN_DIR;
    int repeat = 20, slow = 2;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--plugin-dir"))
            dir = argv[i + 1];
        else if (!strcmp(argv[i], "--repeat"))
            repeat = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--slow-repeat"))
            slow = atoi(argv[i + 1]);
    }
    if (repeat < 3)
        repeat = 3;
    if (slow < 1)
        slow = 1;
    static const int64_t batches[2] = { 1, 8 };
    double ms[2][N_LAYERS][N_CFG];
    double diff[2][N_LAYERS];
    for (int bi = 0; bi < 2; bi++)
        for (size_t li = 0; li < N_LAYERS; li++)
            diff[bi][li] = 0.0;
    for (int cfg = 0; cfg < N_CFG; cfg++) {
        rlx_runtime *rt = runtime_for(dir, cfg);
        if (!rt)
            return 1;
        if (cfg == OWN1) {
            const rlx_backend *be = rlx_runtime_find_backend(rt,
                                                             "cpu-openblas");
            printf("cpu-openblas: %s (host-fit score %d)\n",
                   rlx_backend_plugin_path(be),
                   (int)rlx_backend_host_fit(be));
        }
        for (int bi = 0; bi < 2; bi++)
            for (size_t li = 0; li < N_LAYERS; li++) {
                const layer *l = &layers[li];
                int64_t oh = (l->hw + 2 * l->pad - l->k) / l->stride + 1;
                size_t ny = (size_t)(batches[bi] * l->m * oh * oh);
                float *y = calloc(ny, sizeof *y);
                static float *keep[2][N_LAYERS];
                if (!y)
                    return 1;
                ms[bi][li][cfg] = layer_ms(
                    rt, cfg == REF ? "cpu-ref" : "cpu-openblas", l,
                    batches[bi], cfg >= FALLBACK ? slow : repeat, y, ny);
                if (cfg == OWN1) {
                    keep[bi][li] = y;
                    continue;
                }
                if (cfg == REF && keep[bi][li]) {
                    for (size_t i = 0; i < ny; i++) {
                        double d = fabs((double)y[i] - keep[bi][li][i]);
                        if (d > diff[bi][li])
                            diff[bi][li] = d;
                    }
                    free(keep[bi][li]);
                    keep[bi][li] = NULL;
                }
                free(y);
            }
        rlx_runtime_destroy(rt);
    }
    for (int bi = 0; bi < 2; bi++) {
        printf("\nconv + bias + relu, batch %lld, ms (median)\n",
               (long long)batches[bi]);
        printf("%-28s", "layer");
        for (int cfg = 0; cfg < N_CFG; cfg++)
            printf(" %12s", cfg_name[cfg]);
        printf(" %10s %10s %9s %10s\n", "vs fallbk", "vs ref", "GFLOP/s",
               "max diff");
        double tot[N_CFG] = { 0 };
        for (size_t li = 0; li < N_LAYERS; li++) {
            printf("%-28s", layers[li].name);
            for (int cfg = 0; cfg < N_CFG; cfg++) {
                printf(" %12.3f", ms[bi][li][cfg]);
                tot[cfg] += ms[bi][li][cfg];
            }
            double best = ms[bi][li][OWN2] < ms[bi][li][OWN1]
                              ? ms[bi][li][OWN2] : ms[bi][li][OWN1];
            const layer *l = &layers[li];
            double oh = (double)((l->hw + 2 * l->pad - l->k) / l->stride +
                                 1);
            double flop = 2.0 * (double)batches[bi] * (double)l->m * oh *
                          oh * (double)(l->c / l->group * l->k * l->k);
            printf(" %9.1fx %9.1fx %9.1f %10.2g\n",
                   ms[bi][li][FALLBACK] / best, ms[bi][li][REF] / best,
                   best > 0 ? flop / (best * 1e6) : 0.0, diff[bi][li]);
        }
        printf("%-28s", "total");
        for (int cfg = 0; cfg < N_CFG; cfg++)
            printf(" %12.3f", tot[cfg]);
        printf("\n");
    }
    return 0;
}
