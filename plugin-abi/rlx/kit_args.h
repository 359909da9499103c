/*
 * kit_args.h - plugin kit: the checks every execute starts with (the
 * argument struct is present and large enough, one entry per slot, no
 * NULL array where slots exist) and the ABI 1.2 bound-buffer lookups
 * that read only what the caller's struct_size carries.
 *
 * Per-slot checks (a param buffer's dtype, size and device) stay in
 * the backend: its rlx_buffer is its own type. Not ABI (see kit.h).
 */
#ifndef RLX_KIT_ARGS_H
#define RLX_KIT_ARGS_H

#include "backend.h"
#include "kit_error.h"

/* Check ARGS against an executable of N_PARAMS params, N_INPUTS inputs
 * and N_OUTPUTS outputs; WHO starts the message ("cpu-ref execute").
 * Reports and returns RLX_ERR_INVALID_ARGUMENT, or returns RLX_OK. */
static inline rlx_status rlx_kit_check_execute_args(
    const rlx_host *host, const char *who, const rlx_execute_args *args,
    uint32_t n_params, uint32_t n_inputs, uint32_t n_outputs)
{
    if (!args || !RLX_HAS_FIELD(args->struct_size, rlx_execute_args, outputs))
        return rlx_kit_fail(host, RLX_ERR_INVALID_ARGUMENT,
                            "%s: missing or truncated arguments. Fix: pass "
                            "an rlx_execute_args with struct_size = sizeof "
                            "(rlx_execute_args)", who);
    if (args->n_params != n_params || args->n_inputs != n_inputs ||
        args->n_outputs != n_outputs)
        return rlx_kit_fail(host, RLX_ERR_INVALID_ARGUMENT,
                            "%s: got %u params, %u inputs, %u outputs; the "
                            "graph has %u, %u, %u. Fix: pass one entry per "
                            "slot of the compiled graph", who,
                            (unsigned)args->n_params, (unsigned)args->n_inputs,
                            (unsigned)args->n_outputs, (unsigned)n_params,
                            (unsigned)n_inputs, (unsigned)n_outputs);
    if ((n_params && !args->params) || (n_inputs && !args->inputs) ||
        (n_outputs && !args->outputs))
        return rlx_kit_fail(host, RLX_ERR_INVALID_ARGUMENT,
                            "%s: a params, inputs or outputs array is NULL. "
                            "Fix: pass arrays with one entry per slot", who);
    return RLX_OK;
}

/* The buffer bound to input / output slot S (ABI 1.2 device I/O), or
 * NULL when none is or the caller's struct predates the arrays. */
static inline rlx_buffer *rlx_kit_bound_input(const rlx_execute_args *args,
                                              uint32_t s)
{
    return RLX_HAS_FIELD(args->struct_size, rlx_execute_args,
                         input_buffers) && args->input_buffers
               ? args->input_buffers[s]
               : NULL;
}

static inline rlx_buffer *rlx_kit_bound_output(const rlx_execute_args *args,
                                               uint32_t s)
{
    return RLX_HAS_FIELD(args->struct_size, rlx_execute_args,
                         output_buffers) && args->output_buffers
               ? args->output_buffers[s]
               : NULL;
}

#endif /* RLX_KIT_ARGS_H */
