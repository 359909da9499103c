/*
 * cmd_check.c - `rlx check MODEL.yaml [--device D] [--fallback MODE]`:
 * before running anything, say for every node whether the device's
 * backend can run it (and why not), where placement puts it, and the
 * one-line placement summary, so a user sees what an accelerator will
 * and will not do with a model.
 */
#include <stdio.h>
#include <string.h>

#include <rlx/rlx.h>

#include "cli.h"
#include "model_run.h"

typedef struct check_options {
    const char *model, *device;
    int fallback;
    cli_allow allow;
    const char *shapes[64]; /* --shape NAME=d0,d1,... */
    int n_shapes;
} check_options;

static int parse(int argc, char **argv, check_options *o)
{
    memset(o, 0, sizeof *o);
    o->fallback = -1;
    for (int i = 1; i < argc; i++) {
        int missing = 0, rc;
        const char *v;
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            cli_usage_print(stdout);
            return -1;
        } else if ((rc = cli_allow_option(argc, argv, &i, "check",
                                          &o->allow)) != 0) {
            if (rc < 0)
                return -rc;
        } else if ((v = cli_option_value(argc, argv, &i, "--device",
                                          &missing))) {
            if (cli_device_check("check", v) != 0)
                return CLI_EXIT_USAGE;
            o->device = v;
        } else if ((v = cli_option_value(argc, argv, &i, "--shape",
                                         &missing))) {
            if (o->n_shapes == 64)
                return cli_usage_error("check: at most 64 --shape options");
            o->shapes[o->n_shapes++] = v;
        } else if ((v = cli_option_value(argc, argv, &i, "--fallback",
                                         &missing))) {
            if ((o->fallback = cli_fallback_parse(v)) < 0)
                return cli_usage_error("check: --fallback wants split, "
                                       "whole or none, not '%s'", v);
        } else if (missing) {
            return cli_usage_error("check: %s needs a value", argv[i]);
        } else if (argv[i][0] == '-') {
            return cli_usage_error("check: unknown option '%s'", argv[i]);
        } else if (o->model) {
            return cli_usage_error("check: one model at a time ('%s' and "
                                   "'%s')", o->model, argv[i]);
        } else {
            o->model = argv[i];
        }
    }
    if (!o->model)
        return cli_usage_error("check: which model? rlx check MODEL.yaml "
                               "[--device D]");
    return CLI_EXIT_OK;
}

/* Where PLACED puts node V: "test-npu (piece 1)", "the host (piece 2)",
 * or "-" for sources and dead nodes. */
static void where_format(char *buf, size_t size, const rlx_program *placed,
                         rlx_value v)
{
    const rlx_backend *b = NULL;
    uint32_t piece = RLX_PIECE_NONE, dev = 0;
    if (!placed ||
        rlx_program_placement(placed, v, &b, &dev, &piece) != RLX_OK ||
        piece == RLX_PIECE_NONE) {
        cli_format(buf, size, "-");
        return;
    }
    cli_format(buf, size, "%s:%u (piece %u)", b ? rlx_backend_id(b)
                                                : "the host",
               (unsigned)dev, (unsigned)piece + 1);
}

/* ONNX models: per ONNX node, what it was lowered to and where the last
 * rlx node made for it runs. */
static void source_print(const rlx_model *m, const rlx_graph *g,
                         const rlx_program *placed)
{
    uint32_t n = rlx_model_source_node_count(m);
    if (!n)
        return;
    printf("  %-24s %-18s %-28s %s\n", "ONNX NODE", "OP", "RUNS ON",
           "LOWERED TO");
    for (uint32_t i = 0; i < n; i++) {
        const char *name, *op, *out, *lowered;
        rlx_model_source_node(m, i, &name, &op, &out, &lowered);
        size_t len = strlen(out);
        rlx_value last = RLX_VALUE_NONE;
        for (rlx_value v = 0; v < rlx_graph_node_count(g); v++) {
            const char *nm;
            rlx_graph_node(g, v, &nm, NULL);
            if (!strncmp(nm, out, len) && nm[len] == '#')
                last = v;
        }
        char where[160] = "- (folded or passed through)";
        if (last != RLX_VALUE_NONE)
            where_format(where, sizeof where, placed, last);
        printf("  %-24s %-18s %-28s %s\n", name, op, where, lowered);
    }
}

static void report_print(const rlx_graph *g, const rlx_capability *c,
                         const rlx_program *placed)
{
    printf("  %-20s %-12s %-5s %-28s %s\n", "NODE", "OP", "DTYPE",
           "PLACED ON", "SUPPORTED");
    for (rlx_value v = 0; v < rlx_graph_node_count(g); v++) {
        const char *name, *why;
        rlx_op op;
        rlx_dtype dtype;
        int yes;
        char where[160];
        rlx_graph_node(g, v, &name, &op);
        rlx_graph_value_shape(g, v, &dtype, NULL, NULL);
        rlx_capability_node(c, v, &yes, &why);
        where_format(where, sizeof where, placed, v);
        printf("  %-20s %-12s %-5s %-28s %s%s\n", cli_text(name),
               rlx_op_name(op), rlx_dtype_name(dtype), where,
               yes > 0 ? "yes" : yes == 0 ? "no: " : "-",
               yes == 0 ? cli_message(why) : "");
    }
}

/* A model with no single graph: rlx_model_compile runs it in stages
 * (graph stages compiled for the session's device as each run reaches
 * them), or says which input's value it waits for. */
static int staged_print(rlx_model *m, rlx_session *s, const char *path)
{
    rlx_program *p = NULL;
    if (rlx_model_compile(m, s, &p) != RLX_OK)
        return cli_runtime_error("cannot build the model's graph");
    rlx_program_destroy(p);
    const rlx_backend *b = rlx_session_backend(s);
    printf("Model:   %s (%s)\n", cli_model_name(m), cli_message(path));
    printf("Backend: %s on %s:%u\n", rlx_backend_id(b),
           rlx_backend_device_name(b),
           (unsigned)rlx_session_device_index(s));
    printf("Stages:  the model needs run-time data to go on (control flow "
           "or data-dependent shapes): it runs as graph stages compiled "
           "for this backend as each run reaches them, with host steps "
           "between them\n");
    uint32_t n = rlx_model_source_node_count(m);
    printf("  %-24s %-18s %s\n", "ONNX NODE", "OP", "LOWERED TO");
    for (uint32_t i = 0; i < n; i++) {
        const char *name, *op, *lowered;
        rlx_model_source_node(m, i, &name, &op, NULL, &lowered);
        printf("  %-24s %-18s %s\n", cli_text(name), cli_text(op),
               lowered);
    }
    return CLI_EXIT_OK;
}

int cli_cmd_check(int argc, char **argv)
{
    check_options o;
    int rc = parse(argc, argv, &o);
    if (rc != CLI_EXIT_OK)
        return rc < 0 ? CLI_EXIT_OK : rc;
    rlx_runtime *rt = NULL;
    rlx_model *m = NULL;
    rlx_session *s = NULL;
    rlx_capability *c = NULL;
    rlx_program *p = NULL;
    if ((rc = cli_model_open(o.model, &m)) != CLI_EXIT_OK)
        return rc;
    for (int i = 0; i < o.n_shapes; i++)
        if ((rc = cli_model_shape(m, o.shapes[i])) != CLI_EXIT_OK)
            goto done;
    int staged = !rlx_model_graph(m);
    if (rlx_runtime_create(&rt, 0) != RLX_OK) {
        rc = cli_runtime_error("cannot create the runtime");
        goto done;
    }
    if ((rc = cli_allow_apply(rt, &o.allow)) != CLI_EXIT_OK)
        goto done;
    if (rlx_session_create(rt, o.device, &s) != RLX_OK) {
        rc = cli_runtime_error("cannot open a session");
        goto done;
    }
    if (o.fallback >= 0 &&
        rlx_session_set_fallback(s, (rlx_fallback)o.fallback) != RLX_OK) {
        rc = cli_runtime_error("cannot set the fallback policy");
        goto done;
    }
    if (staged) { /* runs in stages, or waits for an input's value */
        rc = staged_print(m, s, o.model);
        goto done;
    }
    /* compile first: a session that chose its device may move on, and
     * the report is about the backend that placement used */
    const rlx_graph *g = rlx_model_graph(m);
    rlx_status st = rlx_session_compile(s, g, &p);
    char error[2048] = "";
    if (st != RLX_OK)
        cli_format(error, sizeof error, "%s", rlx_last_error());
    const rlx_backend *b = p ? rlx_program_backend(p) : rlx_session_backend(s);
    if (rlx_capability_create(b, g, &c) != RLX_OK) {
        rc = cli_runtime_error("cannot check the model");
        goto done;
    }
    printf("Model:   %s (%s)\n", cli_model_name(m), cli_message(o.model));
    printf("Backend: %s on %s:%u\n", rlx_backend_id(b),
           rlx_backend_device_name(b),
           (unsigned)(p ? rlx_program_device_index(p)
                        : rlx_session_device_index(s)));
    source_print(m, g, p);
    report_print(g, c, p);
    const char *why;
    rlx_value first = rlx_capability_first_unsupported(c, &why);
    const char *first_name = NULL;
    if (first != RLX_VALUE_NONE)
        rlx_graph_node(g, first, &first_name, NULL);
    uint32_t n_bad = rlx_capability_unsupported_count(c);
    printf("Unsupported on %s: %u node%s", rlx_backend_id(b), n_bad,
           n_bad == 1 ? "" : "s");
    if (first_name)
        printf("; the first is '%s': %s", cli_text(first_name),
               cli_message(why));
    printf("\n");
    if (st != RLX_OK) {
        fprintf(stderr, "rlx: check: the model cannot be placed: %s\n",
                cli_message(error));
        rc = CLI_EXIT_FAILURE;
    } else {
        printf("Placement: %s\n",
               cli_message(rlx_program_placement_summary(p)));
    }
done:
    rlx_program_destroy(p);
    rlx_capability_destroy(c);
    rlx_session_destroy(s);
    rlx_runtime_destroy(rt);
    cli_model_close(m);
    return rc;
}
