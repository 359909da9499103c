/*
 * cmd_ops.c - `rlx ops [--backend ID] [--json]`: the op x dtype support
 * matrix of each backend, as its supports_op answers it (what ggml's
 * test-backend-ops support listing gives its users). Sources (input,
 * param, constant) are left out: the core never asks about them.
 */
#include <stdio.h>
#include <string.h>

#include <rlx/rlx.h>

#include "cli.h"
#include "json.h"

static const rlx_op ops[] = {
#define CLI__OP(name, value, text, arity) RLX_OP_##name,
    RLX_OP_MAP(CLI__OP)
#undef CLI__OP
};
#define N_OPS (sizeof ops / sizeof *ops)

static int is_source(rlx_op op)
{
    return op == RLX_OP_INPUT || op == RLX_OP_PARAM || op == RLX_OP_CONSTANT;
}

static void ops_text(const rlx_backend *b, FILE *out)
{
    int any = 0;
    fprintf(out, "%s (device %s, %s, plugin %s)\n", rlx_backend_id(b),
            rlx_backend_device_name(b),
            rlx_backend_executes(b) ? "executes" : "does not execute",
            rlx_backend_plugin_path(b));
    fprintf(out, "  %-12s", "op");
    for (int d = 1; d <= RLX_DTYPE_LAST; d++)
        fprintf(out, d < RLX_DTYPE_LAST ? " %-4s" : " %s",
                rlx_dtype_name((rlx_dtype)d));
    fputc('\n', out);
    for (size_t i = 0; i < N_OPS; i++) {
        if (is_source(ops[i]))
            continue;
        fprintf(out, "  %-12s", rlx_op_name(ops[i]));
        for (int d = 1; d <= RLX_DTYPE_LAST; d++) {
            int yes = rlx_backend_supports_op(b, ops[i], (rlx_dtype)d);
            any |= yes;
            fprintf(out, d < RLX_DTYPE_LAST ? " %-4s" : " %s",
                    yes ? "y" : "-");
        }
        fputc('\n', out);
    }
    if (!any)
        fprintf(out, "  (no op on any dtype)\n");
}

static void ops_json(cli_json *j, const rlx_backend *b)
{
    cli_json_object_begin(j);
    cli_json_member_string(j, "id", rlx_backend_id(b));
    cli_json_member_string(j, "device", rlx_backend_device_name(b));
    cli_json_member_bool(j, "executes", rlx_backend_executes(b));
    cli_json_member_string(j, "plugin", rlx_backend_plugin_path(b));
    cli_json_key(j, "ops");
    cli_json_object_begin(j);
    for (size_t i = 0; i < N_OPS; i++) {
        if (is_source(ops[i]))
            continue;
        cli_json_key(j, rlx_op_name(ops[i]));
        cli_json_array_begin(j);
        for (int d = 1; d <= RLX_DTYPE_LAST; d++)
            if (rlx_backend_supports_op(b, ops[i], (rlx_dtype)d))
                cli_json_string(j, rlx_dtype_name((rlx_dtype)d));
        cli_json_array_end(j);
    }
    cli_json_object_end(j);
    cli_json_object_end(j);
}

int cli_cmd_ops(int argc, char **argv)
{
    const char *id = NULL;
    int json = 0;

    for (int i = 1; i < argc; i++) {
        int missing = 0;
        const char *v;
        if (!strcmp(argv[i], "--json")) {
            json = 1;
        } else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            cli_usage_print(stdout);
            return CLI_EXIT_OK;
        } else if ((v = cli_option_value(argc, argv, &i, "--backend",
                                         &missing))) {
            id = v;
        } else if (missing) {
            return cli_usage_error("ops: option '%s' needs a value",
                                   argv[i]);
        } else if (argv[i][0] == '-') {
            return cli_usage_error("ops: unknown option '%s'", argv[i]);
        } else {
            return cli_usage_error("ops: unexpected argument '%s'", argv[i]);
        }
    }

    rlx_runtime *rt = NULL;
    if (rlx_runtime_create(&rt, 0) != RLX_OK)
        return cli_runtime_error("cannot create the runtime");
    const rlx_backend *only = id ? rlx_runtime_find_backend(rt, id) : NULL;
    if (id && !only) {
        fprintf(stderr, "rlx: ops: no backend '%s'. Fix: check `rlx devices` "
                "for the ids, and RLX_PLUGIN_PATH for its plugin\n", id);
        rlx_runtime_destroy(rt);
        return CLI_EXIT_FAILURE;
    }
    uint32_t n = rlx_runtime_backend_count(rt);
    cli_json j;
    if (json) {
        cli_json_init(&j, stdout);
        cli_json_object_begin(&j);
        cli_json_key(&j, "backends");
        cli_json_array_begin(&j);
    }
    for (uint32_t i = 0; i < n; i++) {
        const rlx_backend *b = rlx_runtime_backend(rt, i);
        if (!b || (only && b != only))
            continue;
        if (json) {
            ops_json(&j, b);
        } else {
            ops_text(b, stdout);
            if (!only && i + 1 < n)
                fputc('\n', stdout);
        }
    }
    if (json) {
        cli_json_array_end(&j);
        cli_json_object_end(&j);
        cli_json_finish(&j);
    }
    rlx_runtime_destroy(rt);
    return fflush(stdout) == 0 ? CLI_EXIT_OK : CLI_EXIT_FAILURE;
}
