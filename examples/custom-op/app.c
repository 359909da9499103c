/*
 * app.c - a custom op whose kernel is a function of the application
 * itself, added with rlx_graph_add_custom and a signature string, then
 * both example models run and each custom output compared with the rlx
 * op it matches. Exits 0 when everything agrees.
 *
 *   custom-op-app [MODEL_DIR]   (default: examples/custom-op)
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rlx/rlx.h>

/* softplus(x) = log(1 + exp(x)), n elements, beta scaling; 0 = success */
static int32_t softplus(int64_t n, double beta, const float *x, float *y)
{
    for (int64_t i = 0; i < n; i++)
        y[i] = (float)(log1p(exp(beta * x[i])) / beta);
    return 0;
}

#define CHECK(call)                                                         \
    do {                                                                    \
        if ((call) != RLX_OK) {                                             \
            fprintf(stderr, "%s: %s\n", #call, rlx_last_error());           \
            exit(1);                                                        \
        }                                                                   \
    } while (0)

/* Run G (or model M) on DEVICE with every input filled from a ramp; copy
 * outputs A and B and return their largest difference. */
static double run_compare(rlx_runtime *rt, const rlx_graph *g,
                          const char *device, uint32_t a, uint32_t b)
{
    rlx_session *s;
    rlx_program *p;
    CHECK(rlx_session_create(rt, device, &s));
    CHECK(rlx_session_compile(s, g, &p));
    for (uint32_t i = 0; i < rlx_program_input_count(p); i++) {
        const char *name;
        size_t nbytes;
        CHECK(rlx_program_slot(p, RLX_SLOT_INPUT, i, &name, NULL, NULL,
                               NULL));
        float *in = rlx_program_input_buffer(p, name, &nbytes);
        for (size_t k = 0; k < nbytes / sizeof *in; k++)
            in[k] = (float)((k * 7919 + i * 31) % 200) / 50.0f - 2.0f;
    }
    CHECK(rlx_program_run(p));
    size_t na, nb;
    const float *oa = rlx_program_output_data(p, a, &na);
    const float *ob = rlx_program_output_data(p, b, &nb);
    double worst = na == nb ? 0 : INFINITY;
    for (size_t k = 0; na == nb && k < na / sizeof *oa; k++)
        worst = fmax(worst, fabs((double)oa[k] - ob[k]));
    printf("  %s: %s\n", device, rlx_program_placement_summary(p));
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    return worst;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "examples/custom-op";
    rlx_runtime *rt;
    CHECK(rlx_runtime_create(&rt, 0));
    /* A model file cannot load code by itself: the application names the
     * libraries its models may call, here by their exact sonames. */
    CHECK(rlx_runtime_allow_custom_ops(rt, "libm.so.6"));
    CHECK(rlx_runtime_allow_custom_ops(rt, "libopenblas.so.0"));
    int bad = 0;

    /* the application's own kernel: softplus(x), against log(1 + exp) */
    rlx_graph *g;
    rlx_value x, sp, ex, ex1, lg;
    int64_t dims[] = { 3, 100 };
    float one = 1.0f;
    rlx_value c1;
    CHECK(rlx_graph_create(&g));
    CHECK(rlx_graph_input(g, "x", RLX_DTYPE_F32, 2, dims, &x));
    CHECK(rlx_graph_constant(g, "one", RLX_DTYPE_F32, 0, NULL, &one, &c1));
    rlx_custom_arg args[] = {
        { .kind = RLX_CUSTOM_ARG_NUMEL, .index = 0 },
        { .kind = RLX_CUSTOM_ARG_FLOAT, .f = 1.0 },
        { .kind = RLX_CUSTOM_ARG_TENSOR, .index = 0 },
        { .kind = RLX_CUSTOM_ARG_TENSOR, .index = RLX_CUSTOM_OUTPUT },
    };
    rlx_custom_op op = {
        .struct_size = sizeof op,
        .fn = (rlx_custom_fn)softplus,
        .signature = "i32(i64, f64, f32*, f32*)",
        .n_args = 4, .args = args,
        .dtype = RLX_DTYPE_F32, .rank = 2, .dims = dims,
        .init_input = -1,
    };
    CHECK(rlx_graph_add_custom(g, "softplus", 1, &x, &op, &sp));
    CHECK(rlx_graph_add_node(g, "ex", RLX_OP_EXP, 1, &x, NULL, &ex));
    CHECK(rlx_graph_add_node(g, "ex1", RLX_OP_ADD, 2,
                             (rlx_value[]){ ex, c1 }, NULL, &ex1));
    CHECK(rlx_graph_add_node(g, "log", RLX_OP_LOG, 1, &ex1, NULL, &lg));
    CHECK(rlx_graph_output(g, "softplus", sp));
    CHECK(rlx_graph_output(g, "reference", lg));
    printf("softplus (application function):\n");
    double d = run_compare(rt, g, "cpu", 0, 1);
    printf("  largest difference %.3g\n", d);
    bad |= !(d < 1e-5);
    rlx_graph_destroy(g);

    /* the models: libm's erff, OpenBLAS's saxpy and sgemv */
    const char *models[] = { "gelu-erff.yaml", "blas.yaml", "blas.yaml" };
    const uint32_t pairs[][2] = { { 0, 1 }, { 0, 1 }, { 2, 3 } };
    for (int i = 0; i < 3; i++) {
        char path[1024];
        rlx_model *m;
        snprintf(path, sizeof path, "%s/%s", dir, models[i]);
        CHECK(rlx_model_load(path, &m));
        printf("%s, outputs %u and %u:\n", models[i], pairs[i][0],
               pairs[i][1]);
        d = run_compare(rt, rlx_model_graph(m), "cpu", pairs[i][0],
                        pairs[i][1]);
        printf("  largest difference %.3g\n", d);
        bad |= !(d < 1e-4);
        rlx_model_destroy(m);
    }
    rlx_runtime_destroy(rt);
    printf(bad ? "MISMATCH\n" : "all custom ops match rlx's own ops\n");
    return bad;
}
