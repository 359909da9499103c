/* model_run.c - see model_run.h. */
#include "model_run.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

double cli_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

int cli_model_open(const char *path, rlx_model **out)
{
    *out = NULL;
    if (rlx_model_load(path, out) != RLX_OK) {
        const char *msg = rlx_last_error();
        fprintf(stderr, "rlx: %s\n",
                msg && *msg ? cli_message(msg) : "cannot load model");
        return CLI_EXIT_FAILURE;
    }
    return CLI_EXIT_OK;
}

void cli_model_close(rlx_model *m)
{
    if (m)
        rlx_model_destroy(m);
}

const char *cli_model_name(const rlx_model *m)
{
    return cli_text(rlx_model_name(m));
}

int cli_fallback_parse(const char *s)
{
    static const char *const names[] = { "split", "whole", "none" };
    for (int i = 0; i < 3; i++)
        if (!strcmp(s, names[i]))
            return i; /* RLX_FALLBACK_SPLIT, _WHOLE, _NONE */
    return -1;
}

/* The session's explanation on stderr, indented, one line each. */
static void explain_print_stderr(const char *why)
{
    fputs("rlx: how the device was chosen:\n", stderr);
    while (why && *why) {
        const char *end = strchr(why, '\n');
        int n = end ? (int)(end - why) : (int)strlen(why);
        fprintf(stderr, "  %.*s\n", n, why);
        why = end ? end + 1 : NULL;
    }
}

int cli_model_exec_create(rlx_runtime *rt, const rlx_model *m,
                          const char *device, cli_model_exec *x)
{
    return cli_model_exec_create_ex(rt, m, device, -1, x);
}

int cli_model_exec_create_ex(rlx_runtime *rt, const rlx_model *m,
                             const char *device, int fallback,
                             cli_model_exec *x)
{
    rlx_status st;
    memset(x, 0, sizeof *x);
    /* no graph: an ONNX model that runs in stages (rlx_model_compile
     * drives it; it changes nothing in the model), or one waiting for a
     * value (rlx_model_compile says which) */
    int staged = !rlx_model_graph(m);
    if ((st = rlx_session_create(rt, device, &x->session)) != RLX_OK) {
        x->status = st;
        snprintf(x->error, sizeof x->error, "%s", rlx_last_error());
        return cli_runtime_error("cannot open a session");
    }
    if (fallback >= 0 &&
        (st = rlx_session_set_fallback(x->session, (rlx_fallback)fallback)) !=
            RLX_OK) {
        int rc = cli_runtime_error("cannot set the fallback policy");
        cli_model_exec_destroy(x);
        x->status = st;
        return rc;
    }
    double t0 = cli_now_ms();
    if (staged) {
        if ((st = rlx_model_compile((rlx_model *)m, x->session,
                                    &x->program)) != RLX_OK) {
            char msg[sizeof x->error];
            snprintf(msg, sizeof msg, "%s", rlx_last_error());
            int rc = cli_runtime_error("cannot build the model's graph");
            cli_model_exec_destroy(x);
            x->status = st;
            memcpy(x->error, msg, sizeof x->error);
            return rc;
        }
    } else if ((st = rlx_session_compile(x->session, rlx_model_graph(m),
                                  &x->program)) != RLX_OK ||
        (st = rlx_model_set_params(m, x->program)) != RLX_OK) {
        int rc = cli_runtime_error(x->program ? "cannot set the model's "
                                                "weights"
                                              : "cannot compile the model");
        char msg[sizeof x->error];
        snprintf(msg, sizeof msg, "%s", rlx_last_error());
        /* the session chose the device and every candidate failed: its
         * explanation says what each one did */
        if (!device && !x->program)
            explain_print_stderr(rlx_session_explain(x->session));
        cli_model_exec_destroy(x);
        x->status = st;
        memcpy(x->error, msg, sizeof x->error);
        return rc;
    }
    x->compile_ms = cli_now_ms() - t0;
    return CLI_EXIT_OK;
}

void cli_model_exec_destroy(cli_model_exec *x)
{
    rlx_program_destroy(x->program);
    rlx_session_destroy(x->session);
    memset(x, 0, sizeof *x);
}

static int slot_tensor(const rlx_program *p, rlx_slot_kind kind, uint32_t i,
                       const char **name, cli_tensor *out)
{
    rlx_dtype dtype;
    uint32_t rank;
    const int64_t *dims;
    if (rlx_program_slot(p, kind, i, name, &dtype, &rank, &dims) != RLX_OK)
        return cli_runtime_error("cannot describe a program slot");
    if (cli_tensor_alloc(out, dtype, rank, dims) != 0) {
        char shape[256];
        size_t k = 0;
        double bytes = (double)rlx_dtype_size(dtype);
        for (uint32_t d = 0; d < rank && k < sizeof shape - 24; d++) {
            k += (size_t)snprintf(shape + k, sizeof shape - k, "%s%lld",
                                  d ? "," : "", (long long)dims[d]);
            bytes *= (double)dims[d];
        }
        shape[k] = '\0';
        fprintf(stderr, "rlx: cannot allocate %.3g GiB for %s '%s' (%s "
                "[%s]): out of memory. Fix: free memory, or give the model "
                "a smaller shape for it\n", bytes / 1073741824.0,
                kind == RLX_SLOT_INPUT ? "input" : "output",
                cli_text(*name ? *name : "?"), rlx_dtype_name(dtype), shape);
        return CLI_EXIT_FAILURE;
    }
    return CLI_EXIT_OK;
}

int cli_input_seeded(const rlx_program *p, uint32_t i, uint64_t seed,
                     cli_tensor *out)
{
    const char *name = NULL;
    int rc = slot_tensor(p, RLX_SLOT_INPUT, i, &name, out);
    if (rc != CLI_EXIT_OK)
        return rc;
    uint64_t state = cli_rng_seed(seed, name);
    int is_float = out->dtype == RLX_DTYPE_F32 ||
                   out->dtype == RLX_DTYPE_F16 ||
                   out->dtype == RLX_DTYPE_BF16 ||
                   out->dtype == RLX_DTYPE_F64;
    cli_tensor_fill_uniform(out, &state, is_float ? -1.0 : 0.0,
                            is_float ? 1.0 : 2.0);
    return CLI_EXIT_OK;
}

int cli_input_set(rlx_program *p, const char *name, const cli_tensor *t)
{
    if (rlx_program_set_input(p, name, t->data, t->nbytes) != RLX_OK) {
        char what[300];
        cli_format(what, sizeof what, "cannot set input '%s'", name);
        return cli_runtime_error(what);
    }
    return CLI_EXIT_OK;
}

int cli_output_copy(const rlx_program *p, uint32_t i, cli_tensor *out)
{
    const char *name = NULL;
    size_t nbytes = 0;
    int rc = slot_tensor(p, RLX_SLOT_OUTPUT, i, &name, out);
    if (rc != CLI_EXIT_OK)
        return rc;
    const void *data = rlx_program_output_data(p, i, &nbytes);
    if ((!data && out->nbytes) || nbytes != out->nbytes) {
        fprintf(stderr, "rlx: output '%s' has %zu bytes, expected %zu\n",
                cli_text(name ? name : "?"), nbytes, out->nbytes);
        cli_tensor_free(out);
        return CLI_EXIT_FAILURE;
    }
    if (nbytes)
        memcpy(out->data, data, nbytes);
    return CLI_EXIT_OK;
}

int cli_allow_option(int argc, char **argv, int *i, const char *cmd,
                     cli_allow *a)
{
    int missing = 0;
    const char *v = cli_option_value(argc, argv, i, "--allow-custom-ops",
                                     &missing);
    if (missing)
        return -cli_usage_error("%s: --allow-custom-ops needs a library "
                                "file or directory", cmd);
    if (!v)
        return 0;
    if (a->n >= CLI_ALLOW_MAX)
        return -cli_usage_error("%s: at most %d --allow-custom-ops", cmd,
                                CLI_ALLOW_MAX);
    a->paths[a->n++] = v;
    return 1;
}

int cli_allow_apply(rlx_runtime *rt, const cli_allow *a)
{
    for (int k = 0; k < a->n; k++)
        if (rlx_runtime_allow_custom_ops(rt, a->paths[k]) != RLX_OK)
            return cli_runtime_error("--allow-custom-ops");
    return CLI_EXIT_OK;
}

int cli_model_shape(rlx_model *m, const char *spec)
{
    const char *eq = strchr(spec, '=');
    int64_t dims[8];
    uint32_t rank = 0;
    char name[256];
    if (!eq || eq == spec || (size_t)(eq - spec) >= sizeof name)
        return cli_usage_error("--shape wants NAME=d0,d1,..., not '%s'",
                               spec);
    memcpy(name, spec, (size_t)(eq - spec));
    name[eq - spec] = '\0';
    const char *p = eq + 1;
    while (*p) { /* "" is a 0-d input */
        char *end;
        errno = 0;
        long long d = strtoll(p, &end, 10);
        if (end == p || errno || d < 0 || rank == 8 ||
            (*end && *end != ','))
            return cli_usage_error("--shape %s: dims are up to 8 "
                                   "non-negative integers separated by "
                                   "commas", spec);
        dims[rank++] = d;
        p = *end ? end + 1 : end;
    }
    if (rlx_model_set_input_shape(m, name, rank, dims) != RLX_OK) {
        fprintf(stderr, "rlx: %s\n", rlx_last_error());
        return CLI_EXIT_FAILURE;
    }
    return CLI_EXIT_OK;
}
