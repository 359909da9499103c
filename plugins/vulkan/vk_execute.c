/*
 * vk_execute.c - run an executable once: check the arguments, widen the
 * inputs into staging, submit the recorded command buffer and wait,
 * check the error flag, narrow the outputs.
 */
#include <string.h>

#include "vk_internal.h"

static rlx_status check_args(const rlx_host *host, const rlx_executable *exe,
                             const rlx_execute_args *a)
{
    rlx_status st = rlx_kit_check_execute_args(host, "vulkan execute", a,
                                               exe->n_params, exe->n_inputs,
                                               exe->n_outputs);
    if (st != RLX_OK)
        return st;
    for (uint32_t s = 0; s < exe->n_params; s++) {
        const rlxv_value *v = &exe->values[exe->param_nodes[s]];
        const rlx_buffer *b = a->params[s];
        if (!b || b->ctx != exe->ctx || b->dtype != v->dtype ||
            b->count != v->count)
            return rlx_kit_fail(host, RLX_ERR_INVALID_ARGUMENT,
                                "vulkan execute: param '%s' (slot %u) %s. "
                                "Fix: set the param from a buffer of its "
                                "dtype and shape made by this backend on "
                                "this device",
                                exe->names[exe->param_nodes[s]], (unsigned)s,
                                !b ? "has no buffer"
                                   : "has a buffer of another dtype, size or "
                                     "device");
    }
    for (uint32_t s = 0; s < exe->n_inputs; s++)
        if (exe->values[exe->inputs[s].node].count && !a->inputs[s])
            return rlx_kit_fail(host, RLX_ERR_INVALID_ARGUMENT,
                                "vulkan execute: input '%s' is NULL. Fix: "
                                "set every input before running",
                                exe->names[exe->inputs[s].node]);
    for (uint32_t s = 0; s < exe->n_outputs; s++)
        if (exe->values[exe->outputs[s].node].count && !a->outputs[s])
            return rlx_kit_fail(host, RLX_ERR_INVALID_ARGUMENT,
                                "vulkan execute: output %u has no "
                                "destination. Fix: pass host memory for "
                                "every output", (unsigned)s);
    return RLX_OK;
}

rlx_status rlxv_execute(void *backend, rlx_executable *exe,
                           const rlx_execute_args *args)
{
    rlx__vk *vk = backend;
    if (!exe)
        return rlx_host_report(vk->host, RLX_ERR_INVALID_ARGUMENT,
                               "vulkan execute: NULL executable. Fix: pass "
                               "an executable made by this backend");
    rlx_status st = check_args(vk->host, exe, args);
    if (st != RLX_OK)
        return st;
    int stale = !exe->recorded;
    for (uint32_t s = 0; s < exe->n_params && !stale; s++)
        stale = exe->bound[s] != args->params[s];
    if (stale && (st = rlxv_record(exe, args->params)) != RLX_OK) {
        exe->recorded = 0;
        return st;
    }
    unsigned char *map = exe->staging.map;
    for (uint32_t s = 0; s < exe->n_inputs; s++) {
        const rlxv_value *v = &exe->values[exe->inputs[s].node];
        if (v->count)
            rlxv_widen(v->dtype, args->inputs[s],
                          (uint32_t *)(void *)(map + exe->inputs[s].staging),
                          v->count);
    }
    if ((st = rlxv_submit_wait(exe->ctx, exe->cb, exe->fence)) != RLX_OK)
        return st;
    if (exe->uses_err) {
        uint32_t flag;
        memcpy(&flag, map, 4);
        if (flag == 2) /* shaders/roi.comp */
            return rlx_host_report(vk->host, RLX_ERR_INVALID_ARGUMENT,
                                   "vulkan execute: a roi_align batch "
                                   "index is outside [0, N). Fix: give "
                                   "batch indices in [0, N)");
        if (flag)
            return rlx_host_report(vk->host, RLX_ERR_INVALID_ARGUMENT,
                                   "vulkan execute: a gather index is "
                                   "outside [0, dim) of its axis. Fix: "
                                   "pass indices within the gathered "
                                   "axis");
    }
    for (uint32_t s = 0; s < exe->n_outputs; s++) {
        const rlxv_value *v = &exe->values[exe->outputs[s].node];
        if (v->count)
            rlxv_narrow(v->dtype,
                           (const uint32_t *)(const void *)(
                               map + exe->outputs[s].staging),
                           args->outputs[s], v->count);
    }
    return RLX_OK;
}
