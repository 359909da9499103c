/*
 * cpu_ref_execute.c - run a compiled graph once: check the arguments,
 * then walk the nodes in order, then copy the outputs out.
 *
 * Every argument is checked before the first node runs, so a bad call
 * changes nothing. Host pointers are read and written with memcpy, which
 * needs no alignment. An input or output bound to one of our buffers
 * (ABI 1.2 device I/O) is read from or written to that buffer instead.
 */
#include <string.h>

#include "cpu_ref_internal.h"

static rlx_status check_bound(const rlx_host *host, const char *what,
                              const rlx__cpu_ref_node *n, uint32_t s,
                              const rlx_buffer *b)
{
    if (b->dtype == n->dtype && b->nbytes == n->count * n->elem)
        return RLX_OK;
    return rlx_kit_fail(host, RLX_ERR_INVALID_ARGUMENT,
                        "cpu-ref execute: %s '%s' (slot %u) is bound "
                        "to a buffer of dtype %d and %zu bytes, the "
                        "slot is dtype %d and %zu bytes. Fix: bind a "
                        "cpu-ref buffer of the slot's dtype and size",
                        what, n->name, (unsigned)s, (int)b->dtype,
                        b->nbytes, (int)n->dtype, n->count * n->elem);
}

static rlx_status check_args(const rlx_host *host, const rlx_executable *exe,
                             const rlx_execute_args *args)
{
    rlx_status st = rlx_kit_check_execute_args(host, "cpu-ref execute", args,
                                               exe->n_params, exe->n_inputs,
                                               exe->n_outputs);
    if (st != RLX_OK)
        return st;
    for (uint32_t s = 0; s < exe->n_params; s++) {
        const rlx__cpu_ref_node *n = &exe->nodes[exe->param_nodes[s]];
        const rlx_buffer *b = args->params[s];
        if (!b || b->dtype != n->dtype || b->nbytes != n->count * n->elem)
            return rlx_kit_fail(host, RLX_ERR_INVALID_ARGUMENT,
                                "cpu-ref execute: param '%s' (slot %u) "
                                "%s. Fix: set the param from a buffer "
                                "of dtype %d and %zu bytes made by "
                                "cpu-ref", n->name, (unsigned)s,
                                !b ? "has no buffer"
                                   : "has a buffer of another dtype or "
                                     "size",
                                (int)n->dtype, n->count * n->elem);
    }
    for (uint32_t s = 0; s < exe->n_inputs; s++) {
        const rlx__cpu_ref_node *n = &exe->nodes[exe->input_nodes[s]];
        const rlx_buffer *b = rlx_kit_bound_input(args, s);
        if (b) {
            st = check_bound(host, "input", n, s, b);
            if (st != RLX_OK)
                return st;
            continue;
        }
        if (n->count && !args->inputs[s])
            return rlx_kit_fail(host, RLX_ERR_INVALID_ARGUMENT,
                                "cpu-ref execute: input '%s' (slot %u) "
                                "is NULL. Fix: set every input before "
                                "running", n->name, (unsigned)s);
    }
    for (uint32_t i = 0; i < exe->n_outputs; i++) {
        const rlx__cpu_ref_node *n = &exe->nodes[exe->output_nodes[i]];
        const rlx_buffer *b = rlx_kit_bound_output(args, i);
        if (b) {
            st = check_bound(host, "output", n, i, b);
            if (st != RLX_OK)
                return st;
            continue;
        }
        if (n->count && !args->outputs[i])
            return rlx_kit_fail(host, RLX_ERR_INVALID_ARGUMENT,
                                "cpu-ref execute: output %u ('%s') has "
                                "no destination. Fix: pass host memory "
                                "for every output", (unsigned)i,
                                n->name);
    }
    return RLX_OK;
}

/* The f32 view of input J of N (a float op's inputs all have one). */
static const float *in_f32(const rlx_executable *exe,
                           const rlx__cpu_ref_node *n, uint32_t j)
{
    return j < n->n_inputs ? exe->nodes[n->inputs[j]].f32 : NULL;
}

/* Pools and resize: float dtypes compute on the f32 views; i8 and u8
 * (max_pool, nearest resize) go through f32 copies, which hold them
 * exactly, and come back unchanged since those ops only pick values. */
static rlx_status vision_bytes_run(const rlx_executable *exe,
                                   rlx__cpu_ref_node *n)
{
    const rlx__cpu_ref_node *in = &exe->nodes[n->inputs[0]];
    rlx__cpu_ref_vision *p = n->vis;
    const float *x = in->f32;
    float *y = n->f32;
    if (!y) {
        rlx__cpu_ref_convert(in->dtype, in->data, RLX_DTYPE_F32, p->xin,
                             in->count);
        x = p->xin;
        y = p->yout;
    }
    if (n->op == RLX_OP_RESIZE)
        rlx__cpu_ref_resize_run(p, x, y);
    else
        rlx__cpu_ref_pool_run(n->op, p, x, y);
    if (!n->f32)
        rlx__cpu_ref_convert(RLX_DTYPE_F32, p->yout, n->dtype, n->data,
                             n->count);
    else
        rlx__cpu_ref_node_narrow(n);
    return RLX_OK;
}

static rlx_status node_run(const rlx_host *host, rlx_executable *exe,
                           rlx__cpu_ref_node *n, const rlx_execute_args *args)
{
    size_t nbytes = n->count * n->elem;
    const float *x = in_f32(exe, n, 0), *y = in_f32(exe, n, 1);

    switch (n->ext) {
    case RLX__CPU_REF_EXT_EW: rlx__cpu_ref_ew_run(exe, n); return RLX_OK;
    case RLX__CPU_REF_EXT_REDUCE:
        rlx__cpu_ref_reduce_ext_run(exe, n);
        return RLX_OK;
    case RLX__CPU_REF_EXT_ARG: rlx__cpu_ref_arg_run(exe, n); return RLX_OK;
    case RLX__CPU_REF_EXT_QUANT:
        rlx__cpu_ref_quant_run(exe, n);
        return RLX_OK;
    default: break;
    }
    switch (n->op) {
    case RLX_OP_INPUT: {
        const rlx_buffer *b = rlx_kit_bound_input(args, n->slot);
        if (nbytes)
            memcpy(n->data, b ? b->bytes : args->inputs[n->slot], nbytes);
        rlx__cpu_ref_node_widen(n);
        return RLX_OK;
    }
    case RLX_OP_PARAM:
        if (nbytes)
            memcpy(n->data, args->params[n->slot]->bytes, nbytes);
        rlx__cpu_ref_node_widen(n);
        return RLX_OK;
    case RLX_OP_CONSTANT:
    case RLX_OP_FILL:
        return RLX_OK; /* filled at compile time */
    case RLX_OP_CAST: {
        const rlx__cpu_ref_node *in = &exe->nodes[n->inputs[0]];
        rlx__cpu_ref_convert(n->from, in->data, n->dtype, n->data, n->count);
        rlx__cpu_ref_node_widen(n);
        return RLX_OK;
    }
    case RLX_OP_RESHAPE: case RLX_OP_TRANSPOSE: case RLX_OP_CONCAT:
    case RLX_OP_SLICE: case RLX_OP_GATHER: {
        rlx_status st = rlx__cpu_ref_movement_run(host, exe, n);
        if (st == RLX_OK)
            rlx__cpu_ref_node_widen(n);
        return st;
    }
    case RLX_OP_PAD: case RLX_OP_EXPAND: case RLX_OP_TILE:
    case RLX_OP_STRIDED_SLICE: case RLX_OP_GATHER_ELEMENTS:
    case RLX_OP_GATHER_ND: case RLX_OP_SCATTER_ELEMENTS:
    case RLX_OP_SCATTER_ND: case RLX_OP_CUMSUM: case RLX_OP_TOPK:
    case RLX_OP_RANGE: case RLX_OP_ONE_HOT: case RLX_OP_TRILU:
    case RLX_OP_NON_ZERO: {
        rlx_status st = rlx__cpu_ref_index_run(host, exe, n);
        if (st == RLX_OK)
            rlx__cpu_ref_node_widen(n);
        return st;
    }
    case RLX_OP_ADD: case RLX_OP_SUB: case RLX_OP_MUL: case RLX_OP_DIV:
    case RLX_OP_MAX: case RLX_OP_MIN: case RLX_OP_POW:
        rlx__cpu_ref_binary(n->op, &n->plan.bcast, x, y, n->f32, n->count);
        break;
    case RLX_OP_MATMUL:
        rlx__cpu_ref_matmul_run(&n->plan.matmul, x, y, n->f32, n->count);
        break;
    case RLX_OP_SOFTMAX:
        rlx__cpu_ref_softmax_run(&n->plan.softmax, x, n->f32);
        break;
    case RLX_OP_LAYER_NORM: case RLX_OP_RMS_NORM:
        rlx__cpu_ref_norm_run(n->op, &n->plan.norm, x, y, in_f32(exe, n, 2),
                              n->f32);
        break;
    case RLX_OP_REDUCE_SUM: case RLX_OP_REDUCE_MEAN: case RLX_OP_REDUCE_MAX:
        rlx__cpu_ref_reduce_run(n, x, exe->nodes[n->inputs[0]].count);
        break;
    case RLX_OP_CONV: case RLX_OP_CONV_TRANSPOSE:
        rlx__cpu_ref_conv_run(n->op, n->vis, x, y, in_f32(exe, n, 2),
                              n->f32);
        break;
    case RLX_OP_MAX_POOL: case RLX_OP_AVG_POOL: case RLX_OP_LP_POOL:
    case RLX_OP_RESIZE:
        return vision_bytes_run(exe, n);
    case RLX_OP_DET:
        rlx__cpu_ref_det_run(exe, n);
        return RLX_OK;
    case RLX_OP_ROI_ALIGN: {
        rlx_status st = rlx__cpu_ref_roi_run(host, exe, n);
        if (st == RLX_OK)
            rlx__cpu_ref_node_narrow(n);
        return st;
    }
    case RLX_OP_GRID_SAMPLE:
        rlx__cpu_ref_grid_run(n, x, y, n->f32);
        break;
    case RLX_OP_MAX_POOL_INDEX: /* i64 result, a float input */
        rlx__cpu_ref_pool_index_run(n->vis, x, (int64_t *)(void *)n->data);
        return RLX_OK;
    case RLX_OP_BATCH_NORM: case RLX_OP_INSTANCE_NORM:
    case RLX_OP_GROUP_NORM: {
        const float *in[5];
        for (uint32_t j = 0; j < 5; j++)
            in[j] = in_f32(exe, n, j);
        rlx__cpu_ref_chnorm_run(n->op, n->vis, in, n->f32);
        break;
    }
    default: /* compile admitted only known ops: the rest are unary */
        rlx__cpu_ref_unary(n->op, n->gelu_approx, x, n->f32, n->count);
        break;
    }
    /* float ops computed in f32: round to f16/bf16 where needed */
    rlx__cpu_ref_node_narrow(n);
    return RLX_OK;
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
    /* Only an index out of range (gather and the 1.4 indexing ops) or
     * too many nonzeros for non_zero fails a node; the outputs are
     * copied after every node ran, so a failed run writes none. */
    for (uint32_t i = 0; i < exe->n_nodes; i++)
        if ((st = node_run(host, exe, &exe->nodes[i], args)) != RLX_OK)
            return st;
    for (uint32_t i = 0; i < exe->n_outputs; i++) {
        const rlx__cpu_ref_node *n = &exe->nodes[exe->output_nodes[i]];
        rlx_buffer *b = rlx_kit_bound_output(args, i);
        if (n->count)
            memcpy(b ? (void *)b->bytes : args->outputs[i], n->data,
                   n->count * n->elem);
    }
    return RLX_OK;
}
