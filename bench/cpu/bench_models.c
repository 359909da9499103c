/*
 * bench_models.c - latency of the example models (examples/generate.py:
 * the MLP 784-512-512-10 and the transformer encoder block) on cpu-ref
 * and cpu-openblas: same seeded inputs, median of runs (set inputs +
 * run), and the largest output difference.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_cpu.h"

typedef struct model_run {
    double ms;
    float *out;
    size_t n_out;
} model_run;

static int run_model(rlx_runtime *rt, const rlx_model *m, const char *be,
                     int reps, model_run *r)
{
    rlx_session *s = NULL;
    rlx_program *p = NULL;
    if (rlx_session_create(rt, be, &s) != RLX_OK ||
        rlx_session_compile(s, rlx_model_graph(m), &p) != RLX_OK ||
        rlx_model_set_params(m, p) != RLX_OK) {
        fprintf(stderr, "%s: %s\n", be, rlx_last_error());
        rlx_program_destroy(p);
        rlx_session_destroy(s);
        return 1;
    }
    uint32_t n_in = rlx_program_input_count(p);
    float *in[8] = { 0 };
    size_t bytes[8] = { 0 };
    const char *names[8] = { 0 };
    for (uint32_t i = 0; i < n_in && i < 8; i++) {
        rlx_dtype dt;
        uint32_t rank;
        const int64_t *dims;
        rlx_program_slot(p, RLX_SLOT_INPUT, i, &names[i], &dt, &rank, &dims);
        size_t cnt = 1;
        for (uint32_t d = 0; d < rank; d++)
            cnt *= (size_t)dims[d];
        bytes[i] = cnt * sizeof(float);
        in[i] = malloc(bytes[i] ? bytes[i] : 1);
        bench_fill(in[i], cnt, 7 + i);
    }
    double *t = calloc((size_t)reps, sizeof *t);
    for (int k = 0; k <= reps; k++) {
        double t0 = bench_now_ms();
        for (uint32_t i = 0; i < n_in && i < 8; i++)
            rlx_program_set_input(p, names[i], in[i], bytes[i]);
        rlx_program_run(p);
        if (k)
            t[k - 1] = bench_now_ms() - t0;
    }
    r->ms = bench_median(t, (size_t)reps);
    size_t nb = 0;
    const void *o = rlx_program_output_data(p, 0, &nb);
    r->n_out = nb / sizeof(float);
    r->out = malloc(nb ? nb : 1);
    if (o && r->out)
        memcpy(r->out, o, nb);
    free(t);
    for (uint32_t i = 0; i < n_in && i < 8; i++)
        free(in[i]);
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    return 0;
}

int bench_models(rlx_runtime *rt, const char *dir, int repeat)
{
    static const char *files[2] = { "mlp/mlp.yaml",
                                     "transformer/encoder.yaml" };
    int rc = 0;
    printf("example models, latency in ms (median of runs; inputs set + "
           "run)\n");
    printf("%-26s %12s %12s %9s %12s\n", "model", "cpu-ref", "cpu-openblas",
           "speed-up", "max |diff|");
    for (int f = 0; f < 2; f++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, files[f]);
        rlx_model *m = NULL;
        if (rlx_model_load(path, &m) != RLX_OK) {
            fprintf(stderr, "%s: %s\n", path, rlx_last_error());
            rc = 1;
            continue;
        }
        model_run ref = { 0 }, ob = { 0 };
        int reps = repeat < 3 ? 3 : repeat;
        if (run_model(rt, m, "cpu-ref", reps, &ref) ||
            run_model(rt, m, "cpu-openblas", reps * 5, &ob)) {
            rc = 1;
        } else {
            double d = 0;
            for (size_t i = 0; i < ob.n_out && i < ref.n_out; i++)
                if (fabs(ob.out[i] - ref.out[i]) > d)
                    d = fabs(ob.out[i] - ref.out[i]);
            printf("%-26s %12.3f %12.3f %8.1fx %12.3g\n", files[f], ref.ms,
                   ob.ms, ref.ms / ob.ms, d);
        }
        free(ref.out);
        free(ob.out);
        rlx_model_destroy(m);
    }
    return rc;
}
