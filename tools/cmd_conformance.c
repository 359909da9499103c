/*
 * cmd_conformance.c - `rlx conformance [--backend ID] [--seed N] [--json]
 * [--models FILE.yaml ...]`: tells a backend author whether their backend
 * computes what the reference backend computes, op by op and dtype by
 * dtype, then for whole models. Exit 0 when something passed and
 * nothing failed, 1 otherwise (a backend that passes nothing, or cannot
 * be opened, is not conformant; --json then still prints a report).
 * See docs/conformance.md.
 */
#include <stdio.h>
#include <string.h>

#include <rlx/rlx.h>

#include "cli.h"
#include "conformance.h"

#define CONF_MODELS_MAX 64

typedef struct conf_options {
    const char *backend; /* NULL: the backend chosen for cpu */
    uint64_t seed;
    int json;
    const char *models[CONF_MODELS_MAX];
    int n_models;
} conf_options;

static int conf_options_parse(int argc, char **argv, conf_options *o)
{
    int in_models = 0;
    memset(o, 0, sizeof *o);
    o->seed = 1;
    for (int i = 1; i < argc; i++) {
        int missing = 0;
        const char *v;
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            cli_usage_print(stdout);
            return -1;
        } else if ((v = cli_option_value(argc, argv, &i, "--backend",
                                         &missing))) {
            o->backend = v;
            in_models = 0;
        } else if ((v = cli_option_value(argc, argv, &i, "--seed",
                                         &missing))) {
            if (cli_parse_u64(v, 0, UINT64_MAX, &o->seed) != 0)
                return cli_usage_error("conformance: --seed wants a "
                                       "non-negative integer, not '%s'", v);
            in_models = 0;
        } else if (!strcmp(argv[i], "--json")) {
            o->json = 1;
            in_models = 0;
        } else if (!strcmp(argv[i], "--models")) {
            in_models = 1;
        } else if (!strncmp(argv[i], "--models=", 9) && argv[i][9]) {
            in_models = 1;
            if (o->n_models >= CONF_MODELS_MAX)
                return cli_usage_error("conformance: at most %d models",
                                       CONF_MODELS_MAX);
            o->models[o->n_models++] = argv[i] + 9;
        } else if (missing) {
            return cli_usage_error("conformance: option '%s' needs a value",
                                   argv[i]);
        } else if (argv[i][0] == '-') {
            return cli_usage_error("conformance: unknown option '%s'",
                                   argv[i]);
        } else if (in_models) {
            if (o->n_models >= CONF_MODELS_MAX)
                return cli_usage_error("conformance: at most %d models",
                                       CONF_MODELS_MAX);
            o->models[o->n_models++] = argv[i];
        } else {
            return cli_usage_error("conformance: unexpected argument '%s' "
                                   "(models follow --models)", argv[i]);
        }
    }
    return 0;
}

/* The backend under test: by id, or the one chosen for cpu. NULL with
 * the reason in R->error. */
static const rlx_backend *conf_backend_find(rlx_runtime *rt,
                                            const char *id, conf_report *r)
{
    const rlx_backend *b;
    if (!id) {
        b = rlx_runtime_choose(rt, "cpu");
        if (!b)
            cli_format(r->error, sizeof r->error, "no backend for cpu: %s",
                       rlx_last_error());
        return b;
    }
    b = rlx_runtime_find_backend(rt, id);
    if (!b) {
        int n = snprintf(r->error, sizeof r->error,
                         "no backend '%s'. Registered:", id);
        for (uint32_t i = 0; n > 0 && (size_t)n < sizeof r->error &&
                             i < rlx_runtime_backend_count(rt); i++)
            n += snprintf(r->error + n, sizeof r->error - (size_t)n, " %s",
                          rlx_backend_id(rlx_runtime_backend(rt, i)));
        if (n > 0 && (size_t)n < sizeof r->error)
            snprintf(r->error + n, sizeof r->error - (size_t)n,
                     ". Fix: put its plugin in a directory named by "
                     "RLX_PLUGIN_PATH and check `rlx devices`");
        return NULL;
    }
    if (!rlx_backend_executes(b)) {
        cli_format(r->error, sizeof r->error,
                   "backend '%s' does not execute graphs; there is nothing to run. "
                   "Fix: test a backend that executes", id);
        return NULL;
    }
    return b;
}

/* Prints R (text or JSON); the exit code: 0 only when conformant. */
static int conf_finish(const conf_report *r, const conf_options *o)
{
    if (r->error[0] && !o->json)
        fprintf(stderr, "rlx: conformance: %s\n", r->error);
    if (o->json)
        cli_conf_report_print_json(r, stdout);
    else if (!r->error[0])
        cli_conf_report_print_text(r, stdout);
    return cli_conf_report_conformant(r) ? CLI_EXIT_OK : CLI_EXIT_FAILURE;
}

static int conf_run(rlx_runtime *rt, const conf_options *o)
{
    rlx_session *ts = NULL, *rs = NULL;
    conf_report r;
    int rc = CLI_EXIT_OK;

    memset(&r, 0, sizeof r);
    r.backend = o->backend;
    r.seed = o->seed;
    const rlx_backend *b = conf_backend_find(rt, o->backend, &r);
    if (b) {
        r.backend = rlx_backend_id(b);
        r.device = rlx_backend_device_name(b);
        r.plugin = rlx_backend_plugin_path(b);
        if (rlx_session_create(rt, r.backend, &ts) != RLX_OK)
            cli_format(r.error, sizeof r.error, "cannot open a session on "
                       "the backend under test: %s", rlx_last_error());
        else if (rlx_session_create(rt, "cpu-ref", &rs) != RLX_OK)
            cli_format(r.error, sizeof r.error, "cannot open a session on "
                       "cpu-ref: %s", rlx_last_error());
    }
    if (!r.error[0] && (cli_conf_ops_check(rt, b, ts, rs, o->seed, &r) != 0 ||
                        cli_conf_edge_check(b, ts, &r) != 0)) {
        fputs("rlx: conformance: out of memory\n", stderr);
        rc = CLI_EXIT_FAILURE;
    }
    for (int i = 0; !r.error[0] && rc == CLI_EXIT_OK && i < o->n_models; i++)
        if (cli_conf_model_check(rt, o->models[i], r.backend, o->seed,
                                 &r) != 0) {
            fputs("rlx: conformance: out of memory\n", stderr);
            rc = CLI_EXIT_FAILURE;
        }
    if (rc == CLI_EXIT_OK)
        rc = conf_finish(&r, o);
    cli_conf_report_free(&r);
    rlx_session_destroy(ts);
    rlx_session_destroy(rs);
    return rc;
}

int cli_cmd_conformance(int argc, char **argv)
{
    conf_options o;
    rlx_runtime *rt = NULL;
    int rc = conf_options_parse(argc, argv, &o);

    if (rc != 0)
        return rc < 0 ? CLI_EXIT_OK : rc;
    if (rlx_runtime_create(&rt, 0) != RLX_OK)
        return cli_runtime_error("cannot create the runtime");
    rc = conf_run(rt, &o);
    rlx_runtime_destroy(rt);
    if (rc == CLI_EXIT_OK && fflush(stdout) != 0)
        rc = CLI_EXIT_FAILURE;
    return rc;
}
