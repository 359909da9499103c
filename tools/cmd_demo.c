/*
 * cmd_demo.c - `rlx demo [--device D] [--batch N] [--why]`: the whole public API
 * path in one command (runtime, graph, session, compile, params, run),
 * showing which backend ran it and why, how long it took, and a checksum
 * to compare backends by.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rlx/rlx.h>

#include "cli.h"
#include "demo_mlp.h"

#define DEMO_BATCH_DEFAULT 4
#define DEMO_BATCH_MAX 65536

typedef struct demo_options {
    const char *device; /* NULL: let the session choose */
    int64_t batch;
    int why;            /* --why: every candidate, as `rlx run --why` */
} demo_options;

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int demo_options_parse(int argc, char **argv, demo_options *o)
{
    o->device = NULL;
    o->batch = DEMO_BATCH_DEFAULT;
    o->why = 0;
    for (int i = 1; i < argc; i++) {
        int missing = 0;
        const char *v;
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            cli_usage_print(stdout);
            return -1;
        } else if ((v = cli_option_value(argc, argv, &i, "--device", &missing))) {
            if (cli_device_check("demo", v) != 0)
                return CLI_EXIT_USAGE;
            o->device = v;
        } else if ((v = cli_option_value(argc, argv, &i, "--batch", &missing))) {
            uint64_t b;
            if (cli_parse_u64(v, 1, DEMO_BATCH_MAX, &b) != 0)
                return cli_usage_error("demo: --batch wants a number from 1 "
                                       "to %d, not '%s'", DEMO_BATCH_MAX, v);
            o->batch = (int64_t)b;
        } else if (!strcmp(argv[i], "--why") || !strcmp(argv[i], "-v") ||
                   !strcmp(argv[i], "--verbose")) {
            o->why = 1;
        } else if (missing) {
            return cli_usage_error("demo: option '%s' needs a value", argv[i]);
        } else if (argv[i][0] == '-') {
            return cli_usage_error("demo: unknown option '%s'", argv[i]);
        } else {
            return cli_usage_error("demo: unexpected argument '%s'", argv[i]);
        }
    }
    return 0;
}

/* The session's explanation, each line indented under a heading: when
 * the choice failed (on stderr) */
static void demo_explain_print(const rlx_session *s, FILE *out)
{
    const char *text = rlx_session_explain(s);
    text = text ? cli_message(text) : NULL; /* printed to a terminal */

    fprintf(out, "Why this backend:\n");
    while (text && *text) {
        const char *nl = strchr(text, '\n');
        int n = nl ? (int)(nl - text) : (int)strlen(text);
        fprintf(out, "  %.*s\n", n, text);
        text += n + (nl ? 1 : 0);
    }
}

static int demo_output_print(const rlx_program *p, int64_t batch)
{
    const char *name = NULL;
    rlx_dtype dtype = RLX_DTYPE_INVALID;
    uint32_t rank = 0;
    const int64_t *dims = NULL;
    size_t nbytes = 0;

    if (rlx_program_slot(p, RLX_SLOT_OUTPUT, 0, &name, &dtype, &rank,
                         &dims) != RLX_OK)
        return cli_runtime_error("cannot describe the output");
    const float *out = rlx_program_output_data(p, 0, &nbytes);
    size_t expect = (size_t)batch * CLI_MLP_OUT * sizeof(float);
    if (!out || dtype != RLX_DTYPE_F32 || nbytes != expect) {
        fprintf(stderr, "rlx: output has %zu bytes of %s, expected %zu of "
                "f32\n", nbytes, rlx_dtype_name(dtype), expect);
        return CLI_EXIT_FAILURE;
    }

    printf("Output \"%s\": [", name ? name : "?");
    for (uint32_t d = 0; d < rank; d++)
        printf("%s%lld", d ? ", " : "", (long long)dims[d]);
    printf("] %s\n", rlx_dtype_name(dtype));

    double sum = 0.0, sum_sq = 0.0;
    for (int64_t r = 0; r < batch; r++) {
        const float *row = out + r * CLI_MLP_OUT;
        int argmax = 0;
        printf("  row %lld:", (long long)r);
        for (int c = 0; c < CLI_MLP_OUT; c++) {
            printf(" %.4f", row[c]);
            if (row[c] > row[argmax])
                argmax = c;
            sum += row[c];
            sum_sq += (double)row[c] * row[c];
        }
        printf("  argmax %d\n", argmax);
    }
    printf("Checksum: sum %.6f, sum of squares %.6f\n", sum, sum_sq);
    return CLI_EXIT_OK;
}

static int demo_params_set(rlx_program *p, const cli_mlp *m)
{
    for (int i = 0; i < CLI_MLP_PARAMS; i++)
        if (rlx_program_set_param(p, m->params[i].name, m->params[i].data,
                                  m->params[i].nbytes) != RLX_OK)
            return cli_runtime_error("cannot set a param");
    if (rlx_program_set_input(p, "x", m->input, m->input_nbytes) != RLX_OK)
        return cli_runtime_error("cannot set input x");
    return CLI_EXIT_OK;
}

/* What ran, why, how fast, and what came out. */
static int demo_report_print(const rlx_session *s, const rlx_program *p,
                             const cli_mlp *m, double compile_ms,
                             double run_ms, int why)
{
    /* Read after compile: a session that chose its device may have moved
     * to the next candidate when the first could not take the graph. */
    const rlx_backend *b = rlx_session_backend(s);

    printf("Backend: %s on %s:%u\n", rlx_backend_id(b),
           rlx_backend_device_name(b), (unsigned)rlx_session_device_index(s));
    printf("Plugin:  %s\n", rlx_backend_plugin_path(b));
    /* one line, as `rlx run`: `rlx devices` lists every backend */
    if (why)
        cli_explain_print(rlx_session_explain(s));
    else
        cli_explain_brief_print(rlx_session_explain(s));
    printf("Program: %u nodes kept of %u\n", (unsigned)rlx_program_node_count(p),
           (unsigned)rlx_graph_node_count(m->graph));
    printf("Time:    compile %.3f ms, run %.3f ms\n", compile_ms, run_ms);
    return demo_output_print(p, m->batch);
}

/* Compile, load and run; prints as it goes. */
static int demo_run(rlx_runtime *rt, const cli_mlp *m, const char *device,
                    int why)
{
    rlx_session *s = NULL;
    rlx_program *p = NULL;
    double t0, t1, t2, t3;
    int rc;

    if (rlx_session_create(rt, device, &s) != RLX_OK)
        return cli_runtime_error("cannot open a session");
    t0 = now_ms();
    if (rlx_session_compile(s, m->graph, &p) != RLX_OK) {
        rc = cli_runtime_error("cannot compile the demo graph");
        demo_explain_print(s, stderr); /* the candidates and why each lost */
        goto out;
    }
    t1 = now_ms();
    rc = demo_params_set(p, m);
    if (rc != CLI_EXIT_OK)
        goto out;
    t2 = now_ms();
    if (rlx_program_run(p) != RLX_OK) {
        rc = cli_runtime_error("run failed");
        goto out;
    }
    t3 = now_ms();

    rc = demo_report_print(s, p, m, t1 - t0, t3 - t2, why);
out:
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    return rc;
}

int cli_cmd_demo(int argc, char **argv)
{
    demo_options o;
    rlx_runtime *rt = NULL;
    cli_mlp m;
    rlx_status st;
    int rc = demo_options_parse(argc, argv, &o);

    if (rc != 0)
        return rc < 0 ? CLI_EXIT_OK : rc;
    if (rlx_runtime_create(&rt, 0) != RLX_OK)
        return cli_runtime_error("cannot create the runtime");
    st = cli_mlp_create(&m, o.batch);
    if (st != RLX_OK) {
        if (st == RLX_ERR_OUT_OF_MEMORY)
            fputs("rlx: out of memory\n", stderr);
        else
            cli_runtime_error("cannot build the demo graph");
        rlx_runtime_destroy(rt);
        return CLI_EXIT_FAILURE;
    }
    printf("Model:   MLP %d -> %d (gelu) -> %d (relu) -> %d (softmax), "
           "batch %lld\n", CLI_MLP_IN, CLI_MLP_HIDDEN, CLI_MLP_HIDDEN,
           CLI_MLP_OUT, (long long)o.batch);
    rc = demo_run(rt, &m, o.device, o.why);
    cli_mlp_destroy(&m);
    rlx_runtime_destroy(rt);
    return rc;
}
