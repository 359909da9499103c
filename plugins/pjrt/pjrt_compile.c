/*
 * pjrt_compile.c - one rlx program, one PJRT executable: the graph is
 * lowered to StableHLO text (pjrt_emit*.c) and handed to
 * PJRT_Client_Compile with program format "mlir". RLX_PJRT_DUMP (the
 * setting pjrt.dump) names a directory that receives each module as
 * <n>.mlir, for debugging and for the golden tests.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pjrt_internal.h"

/* A serialized CompileOptionsProto: executable_build_options (field 3)
 * { num_replicas (4) = 1, num_partitions (5) = 1 }. */
static const char compile_options[] = { 0x1a, 0x04, 0x20, 0x01, 0x28, 0x01 };

/* Setting pjrt.dump: from the compile's options (the session's value
 * first, ABI 1.4), else as rlxp_setting reads it. */
static void dump(const rlxp_backend *be, const rlx_compile_options *o,
                 const char *text)
{
    char dir[1024];
    if (o && RLX_HAS_FIELD(o->struct_size, rlx_compile_options,
                           option_context) && o->get_option) {
        if (o->get_option(o->option_context, "pjrt.dump", dir,
                          sizeof dir) != RLX_OK)
            dir[0] = '\0';
    } else {
        rlxp_setting(be, "pjrt.dump", "RLX_PJRT_DUMP", dir, sizeof dir);
    }
    if (!dir[0])
        return;
    static unsigned counter; /* file names only; races are harmless */
    char path[1200];
    snprintf(path, sizeof path, "%s/%u.mlir", dir, __atomic_fetch_add(
                                                       &counter, 1,
                                                       __ATOMIC_RELAXED));
    FILE *f = fopen(path, "w");
    if (!f) {
        rlxp_log(be, RLX_LOG_WARN, "%s: cannot write %s", be->id, path);
        return;
    }
    fputs(text, f);
    fclose(f);
}

static void slot_of(rlxp_slot *s, const rlx_node_view *n)
{
    s->dtype = n->dtype;
    s->rank = n->rank;
    size_t count = 1;
    for (uint32_t i = 0; i < n->rank && i < RLXP_MAX_RANK; i++) {
        s->dims[i] = n->shape[i];
        count *= (size_t)n->shape[i];
    }
    s->nbytes = count * rlx_dtype_size(n->dtype);
}

void rlxp_executable_destroy(void *backend, rlx_executable *exe)
{
    rlxp_backend *be = backend;
    if (!exe)
        return;
    if (exe->exe) {
        RLXP_ARGS(PJRT_LoadedExecutable_Destroy_Args, d);
        d->executable = exe->exe;
        PJRT_Error *err = be->api->LoadedExecutable_Destroy(d);
        if (err) {
            RLXP_ARGS(PJRT_Error_Destroy_Args, x);
            x->error = err;
            be->api->Error_Destroy(x);
        }
    }
    if (exe->check_what)
        for (uint32_t i = 0; i < exe->n_checks; i++)
            free(exe->check_what[i]);
    free(exe->check_what);
    free(exe->inputs);
    free(exe->outputs);
    free(exe);
}

rlx_status rlxp_compile(void *backend, const rlx_graph_view *graph,
                        const rlx_compile_options *options,
                        rlx_executable **out)
{
    rlxp_backend *be = backend;
    uint32_t index = options ? options->device_index : 0;
    rlx_precision precision = options && RLX_HAS_FIELD(options->struct_size,
                                                      rlx_compile_options,
                                                      precision)
                                  ? options->precision
                                  : RLX_PRECISION_STRICT;
    pthread_mutex_lock(&be->lock);
    rlx_status st = rlxp_client(be);
    pthread_mutex_unlock(&be->lock);
    if (st != RLX_OK)
        return st;
    if (index >= be->n_devices)
        return rlxp_report(be, RLX_ERR_INVALID_ARGUMENT, "%s: no device %u; "
                           "the PJRT plugin has %zu. Fix: use %s:0 to "
                           "%s:%zu", be->id, index, be->n_devices, be->id,
                           be->id, be->n_devices - 1);
    rlxp_emit e;
    st = rlxp_emit_graph(&e, graph, precision);
    if (st != RLX_OK) {
        st = rlxp_report(be, st, "%s", e.error);
        rlxp_emit_free(&e);
        return st;
    }
    dump(be, options, e.buf);
    rlx_executable *exe = calloc(1, sizeof *exe);
    if (exe) {
        exe->inputs = calloc(graph->n_inputs + 1, sizeof *exe->inputs);
        exe->outputs = calloc(graph->n_outputs + 1, sizeof *exe->outputs);
        exe->check_what = calloc(e.n_checks + 1, sizeof *exe->check_what);
    }
    if (!exe || !exe->inputs || !exe->outputs || !exe->check_what) {
        rlxp_executable_destroy(be, exe);
        rlxp_emit_free(&e);
        return rlxp_report(be, RLX_ERR_OUT_OF_MEMORY, "%s: out of memory. "
                           "Fix: free memory", be->id);
    }
    exe->n_inputs = graph->n_inputs;
    exe->n_params = graph->n_params;
    exe->n_outputs = graph->n_outputs;
    for (uint32_t i = 0; i < graph->n_inputs; i++)
        slot_of(&exe->inputs[i], graph->nodes[graph->inputs[i]]);
    for (uint32_t i = 0; i < graph->n_outputs; i++)
        slot_of(&exe->outputs[i], graph->nodes[graph->outputs[i]]);
    for (uint32_t i = 0; i < e.n_checks; i++) {
        exe->check_what[i] = strdup(e.check_what[i]);
        exe->n_checks = i + 1;
        if (!exe->check_what[i]) {
            rlxp_executable_destroy(be, exe);
            rlxp_emit_free(&e);
            return rlxp_report(be, RLX_ERR_OUT_OF_MEMORY, "%s: out of "
                               "memory. Fix: free memory", be->id);
        }
    }
    exe->device = be->devices[index];
    exe->device_is_default = index == 0;

    RLXP_ARGS(PJRT_Program, prog);
    prog->code = e.buf;
    prog->code_size = e.len;
    prog->format = "mlir";
    prog->format_size = 4;
    RLXP_ARGS(PJRT_Client_Compile_Args, c);
    c->client = be->client;
    c->program = prog;
    c->compile_options = compile_options;
    c->compile_options_size = sizeof compile_options;
    PJRT_Error *err = be->api->Client_Compile(c);
    rlxp_emit_free(&e);
    if (err) {
        rlxp_executable_destroy(be, exe);
        return rlxp_error(be, err, "compiling the StableHLO program failed "
                          "(RLX_PJRT_DUMP=<dir> writes the program there)");
    }
    exe->exe = c->executable;
    *out = exe;
    return RLX_OK;
}
