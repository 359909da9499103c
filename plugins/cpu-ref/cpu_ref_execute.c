/*
 * cpu_ref_execute.c - run a compiled graph once: check the arguments,
 * then walk the nodes in order, then copy the outputs out.
 *
 * Every argument is checked before the first node runs, so a bad call
 * changes nothing. Host pointers are read and written with memcpy, which
 * needs no alignment.
 */
#include <string.h>

#include "cpu_ref_internal.h"

static rlx_status check_args(const rlx_host *host, const rlx_executable *exe,
                             const rlx_execute_args *args)
{
    if (!args || !RLX_HAS_FIELD(args->struct_size, rlx_execute_args, outputs))
        return rlx_host_report(host, RLX_ERR_INVALID_ARGUMENT,
                               "cpu-ref execute: missing or truncated "
                               "arguments. Fix: pass an rlx_execute_args "
                               "with struct_size = sizeof (rlx_execute_args)");
    if (args->n_params != exe->n_params || args->n_inputs != exe->n_inputs ||
        args->n_outputs != exe->n_outputs)
        return rlx__cpu_ref_fail(host, RLX_ERR_INVALID_ARGUMENT,
                                 "cpu-ref execute: got %u params, %u inputs, "
                                 "%u outputs; the graph has %u, %u, %u. Fix: "
                                 "pass one entry per slot of the compiled "
                                 "graph", (unsigned)args->n_params,
                                 (unsigned)args->n_inputs,
                                 (unsigned)args->n_outputs,
                                 (unsigned)exe->n_params,
                                 (unsigned)exe->n_inputs,
                                 (unsigned)exe->n_outputs);
    if ((exe->n_params && !args->params) || (exe->n_inputs && !args->inputs) ||
        (exe->n_outputs && !args->outputs))
        return rlx_host_report(host, RLX_ERR_INVALID_ARGUMENT,
                               "cpu-ref execute: a params, inputs or outputs "
                               "array is NULL. Fix: pass arrays with one "
                               "entry per slot");
    for (uint32_t s = 0; s < exe->n_params; s++) {
        const rlx__cpu_ref_node *n = &exe->nodes[exe->param_nodes[s]];
        const rlx_buffer *b = args->params[s];
        if (!b || b->dtype != RLX_DTYPE_F32 ||
            b->nbytes != n->count * sizeof(float))
            return rlx__cpu_ref_fail(host, RLX_ERR_INVALID_ARGUMENT,
                                     "cpu-ref execute: param '%s' (slot %u) "
                                     "%s. Fix: set the param from an f32 "
                                     "buffer of %zu bytes made by cpu-ref",
                                     n->name, (unsigned)s,
                                     !b ? "has no buffer"
                                        : "has a buffer of another dtype or "
                                          "size",
                                     n->count * sizeof(float));
    }
    for (uint32_t s = 0; s < exe->n_inputs; s++) {
        const rlx__cpu_ref_node *n = &exe->nodes[exe->input_nodes[s]];
        if (n->count && !args->inputs[s])
            return rlx__cpu_ref_fail(host, RLX_ERR_INVALID_ARGUMENT,
                                     "cpu-ref execute: input '%s' (slot %u) "
                                     "is NULL. Fix: set every input before "
                                     "running", n->name, (unsigned)s);
    }
    for (uint32_t i = 0; i < exe->n_outputs; i++) {
        const rlx__cpu_ref_node *n = &exe->nodes[exe->output_nodes[i]];
        if (n->count && !args->outputs[i])
            return rlx__cpu_ref_fail(host, RLX_ERR_INVALID_ARGUMENT,
                                     "cpu-ref execute: output %u ('%s') has "
                                     "no destination. Fix: pass host memory "
                                     "for every output", (unsigned)i,
                                     n->name);
    }
    return RLX_OK;
}

static void node_run(rlx_executable *exe, rlx__cpu_ref_node *n,
                     const rlx_execute_args *args)
{
    size_t nbytes = n->count * sizeof(float);
    const float *x = n->n_inputs > 0 ? exe->nodes[n->inputs[0]].data : NULL;
    const float *y = n->n_inputs > 1 ? exe->nodes[n->inputs[1]].data : NULL;

    switch (n->op) {
    case RLX_OP_INPUT:
        if (nbytes)
            memcpy(n->data, args->inputs[n->slot], nbytes);
        break;
    case RLX_OP_PARAM:
        if (nbytes)
            memcpy(n->data, args->params[n->slot]->bytes, nbytes);
        break;
    case RLX_OP_CONSTANT:
        break; /* filled at compile time */
    case RLX_OP_ADD: case RLX_OP_SUB: case RLX_OP_MUL: case RLX_OP_DIV:
    case RLX_OP_MAX: case RLX_OP_MIN: case RLX_OP_POW:
        rlx__cpu_ref_binary(n->op, &n->plan.bcast, x, y, n->data, n->count);
        break;
    case RLX_OP_MATMUL:
        rlx__cpu_ref_matmul_run(&n->plan.matmul, x, y, n->data, n->count);
        break;
    case RLX_OP_SOFTMAX:
        rlx__cpu_ref_softmax_run(&n->plan.softmax, x, n->data);
        break;
    default: /* compile admitted only known ops: the rest are unary */
        rlx__cpu_ref_unary(n->op, n->gelu_approx, x, n->data, n->count);
        break;
    }
}

rlx_status rlx__cpu_ref_execute(void *backend, rlx_executable *exe,
                                const rlx_execute_args *args)
{
    const rlx_host *host = ((rlx__cpu_ref *)backend)->host;
    if (!exe)
        return rlx_host_report(host, RLX_ERR_INVALID_ARGUMENT,
                               "cpu-ref execute: NULL executable. Fix: pass "
                               "an executable made by cpu-ref's compile");
    rlx_status st = check_args(host, exe, args);
    if (st != RLX_OK)
        return st;
    for (uint32_t i = 0; i < exe->n_nodes; i++)
        node_run(exe, &exe->nodes[i], args);
    for (uint32_t i = 0; i < exe->n_outputs; i++) {
        const rlx__cpu_ref_node *n = &exe->nodes[exe->output_nodes[i]];
        if (n->count)
            memcpy(args->outputs[i], n->data, n->count * sizeof(float));
    }
    return RLX_OK;
}
