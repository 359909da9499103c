/*
 * pjrt_execute.c - params as PJRT device buffers (uploaded once and
 * kept), and one run: upload the inputs, PJRT_LoadedExecutable_Execute,
 * wait for it, copy the outputs back, check the gather range flags.
 *
 * Device I/O (rlx_tensor): a bound input is passed as its PJRT buffer;
 * a bound output takes the PJRT buffer the run produced (PJRT allocates
 * results itself), and its previous one is freed. buffer_write swaps in
 * a freshly uploaded buffer the same way. Queued (pjrt_queue.c), a run
 * whose inputs and outputs are all bound is not waited for: its
 * completion event is kept, and PJRT itself orders later runs that read
 * its results after it.
 */
#include <stdlib.h>
#include <string.h>

#include "pjrt_internal.h"

static void pjrt_buffer_free(rlxp_backend *be, PJRT_Buffer *b)
{
    if (!b)
        return;
    RLXP_ARGS(PJRT_Buffer_Destroy_Args, d);
    d->buffer = b;
    PJRT_Error *err = be->api->Buffer_Destroy(d);
    if (err) {
        RLXP_ARGS(PJRT_Error_Destroy_Args, x);
        x->error = err;
        be->api->Error_Destroy(x);
    }
}

rlx_status rlxp_buffer_create(void *backend, uint32_t device_index,
                              const rlx_tensor_desc *desc, const void *data,
                              rlx_buffer **out)
{
    rlxp_backend *be = backend;
    pthread_mutex_lock(&be->lock);
    rlx_status st = rlxp_client(be);
    pthread_mutex_unlock(&be->lock);
    if (st != RLX_OK)
        return st;
    if (device_index >= be->n_devices)
        return rlxp_report(be, RLX_ERR_INVALID_ARGUMENT, "%s: no device %u. "
                           "Fix: use an index below %zu", be->id,
                           device_index, be->n_devices);
    if (!rlxp_mlir_dtype(desc->dtype) || desc->rank > RLXP_MAX_RANK)
        return rlxp_report(be, RLX_ERR_UNSUPPORTED, "%s: no device buffer "
                           "of dtype %d and rank %u. Fix: use a dtype of "
                           "rlx/types.h and rank up to %d", be->id,
                           (int)desc->dtype, desc->rank, RLXP_MAX_RANK);
    size_t count = 1;
    for (uint32_t i = 0; i < desc->rank; i++)
        count *= (size_t)desc->shape[i];
    rlx_buffer *b = calloc(1, sizeof *b);
    if (!b)
        return rlxp_report(be, RLX_ERR_OUT_OF_MEMORY, "%s: out of memory. "
                           "Fix: free memory", be->id);
    void *zeros = NULL;
    b->dtype = desc->dtype;
    b->device = be->devices[device_index];
    b->rank = desc->rank;
    for (uint32_t i = 0; i < desc->rank; i++)
        b->dims[i] = desc->shape[i];
    b->nbytes = count * rlx_dtype_size(desc->dtype);
    if (!data && b->nbytes) {
        zeros = calloc(1, b->nbytes);
        if (!zeros) {
            free(b);
            return rlxp_report(be, RLX_ERR_OUT_OF_MEMORY, "%s: out of "
                               "memory. Fix: free memory", be->id);
        }
    }
    st = rlxp_upload(be, be->devices[device_index], desc->dtype, desc->rank,
                     desc->shape, data ? data : zeros, &b->buf);
    free(zeros);
    if (st != RLX_OK) {
        free(b);
        return st;
    }
    *out = b;
    return RLX_OK;
}

rlx_status rlxp_buffer_read(void *backend, rlx_buffer *buffer, void *dst,
                            size_t nbytes)
{
    rlxp_backend *be = backend;
    if (nbytes != buffer->nbytes)
        return rlxp_report(be, RLX_ERR_INVALID_ARGUMENT, "%s: reading %zu "
                           "bytes of a %zu-byte buffer. Fix: read the whole "
                           "buffer", be->id, nbytes, buffer->nbytes);
    return rlxp_download(be, buffer->buf, dst, nbytes);
}

rlx_status rlxp_buffer_write(void *backend, rlx_buffer *buffer,
                             const void *src, size_t nbytes)
{
    rlxp_backend *be = backend;
    if (nbytes != buffer->nbytes)
        return rlxp_report(be, RLX_ERR_INVALID_ARGUMENT, "%s: writing %zu "
                           "bytes to a %zu-byte buffer. Fix: write the whole "
                           "buffer", be->id, nbytes, buffer->nbytes);
    PJRT_Buffer *fresh = NULL;
    rlx_status st = rlxp_upload(be, buffer->device, buffer->dtype,
                                buffer->rank, buffer->dims, src, &fresh);
    if (st != RLX_OK)
        return st;
    pjrt_buffer_free(be, buffer->buf);
    buffer->buf = fresh;
    return RLX_OK;
}

void rlxp_buffer_destroy(void *backend, rlx_buffer *buffer)
{
    if (!buffer)
        return;
    pjrt_buffer_free(backend, buffer->buf);
    free(buffer);
}

rlx_status rlxp_execute_on(rlxp_backend *be, rlx_executable *exe,
                           const rlx_execute_args *args, int queue)
{
    uint32_t nargs = exe->n_inputs + exe->n_params;
    uint32_t nres = exe->n_outputs + exe->n_checks;
    if (args->n_inputs != exe->n_inputs || args->n_params != exe->n_params ||
        args->n_outputs != exe->n_outputs)
        return rlxp_report(be, RLX_ERR_INVALID_ARGUMENT, "%s: execute got "
                           "%u inputs, %u params, %u outputs; the program "
                           "has %u, %u, %u. Fix: report this as a bug",
                           be->id, args->n_inputs, args->n_params,
                           args->n_outputs, exe->n_inputs, exe->n_params,
                           exe->n_outputs);
    PJRT_Buffer **argv = calloc(nargs + 1, sizeof *argv);
    PJRT_Buffer **resv = calloc(nres + 1, sizeof *resv);
    if (!argv || !resv) {
        free(argv);
        free(resv);
        return rlxp_report(be, RLX_ERR_OUT_OF_MEMORY, "%s: out of memory. "
                           "Fix: free memory", be->id);
    }
    int io = RLX_HAS_FIELD(args->struct_size, rlx_execute_args,
                           output_buffers);
    rlx_buffer *const *bin = io ? args->input_buffers : NULL;
    rlx_buffer *const *bout = io ? args->output_buffers : NULL;
    /* Queued, the run is left to finish on its own when nothing comes
     * back to the host: every input and output bound, no range check. */
    for (uint32_t i = 0; queue && i < exe->n_inputs; i++)
        queue = bin && bin[i];
    for (uint32_t i = 0; queue && i < exe->n_outputs; i++)
        queue = bout && bout[i];
    queue = queue && !exe->n_checks;
    rlx_status st = RLX_OK;
    for (uint32_t i = 0; i < exe->n_inputs && st == RLX_OK; i++) {
        const rlxp_slot *s = &exe->inputs[i];
        if (bin && bin[i])
            continue; /* bound: passed as is below, never freed here */
        st = rlxp_upload(be, exe->device, s->dtype, s->rank, s->dims,
                         args->inputs[i], &argv[i]);
    }
    for (uint32_t i = 0; i < exe->n_params; i++)
        argv[exe->n_inputs + i] = args->params[i]->buf;
    /* the argument list with bound inputs in place */
    PJRT_Buffer **call = calloc(nargs + 1, sizeof *call);
    if (!call && st == RLX_OK)
        st = rlxp_report(be, RLX_ERR_OUT_OF_MEMORY, "%s: out of memory. "
                         "Fix: free memory", be->id);
    for (uint32_t i = 0; call && i < nargs; i++)
        call[i] = i < exe->n_inputs && bin && bin[i] ? bin[i]->buf : argv[i];
    if (st == RLX_OK) {
        RLXP_ARGS(PJRT_ExecuteOptions, opts);
        PJRT_Buffer *const *alists[1] = { call };
        PJRT_Buffer **rlists[1] = { resv };
        PJRT_Event *done[1] = { NULL };
        RLXP_ARGS(PJRT_LoadedExecutable_Execute_Args, x);
        x->executable = exe->exe;
        x->options = opts;
        x->argument_lists = alists;
        x->num_devices = 1;
        x->num_args = nargs;
        x->output_lists = rlists;
        x->device_complete_events = done;
        /* device 0 is the one compiled for; others are named per run */
        x->execute_device = exe->device_is_default ? NULL : exe->device;
        PJRT_Error *err = be->api->LoadedExecutable_Execute(x);
        if (err)
            st = rlxp_error(be, err, "running the program failed");
        else if (!queue || !rlxp_queue_add(be, done[0]))
            st = rlxp_await(be, done[0], "running the program failed");
    }
    for (uint32_t i = 0; i < exe->n_outputs && st == RLX_OK; i++) {
        if (bout && bout[i]) { /* the result becomes the bound buffer */
            pjrt_buffer_free(be, bout[i]->buf);
            bout[i]->buf = resv[i];
            resv[i] = NULL;
            continue;
        }
        st = rlxp_download(be, resv[i], args->outputs[i],
                           exe->outputs[i].nbytes);
    }
    for (uint32_t i = 0; i < exe->n_checks && st == RLX_OK; i++) {
        unsigned char bad = 0;
        st = rlxp_download(be, resv[exe->n_outputs + i], &bad, 1);
        if (st == RLX_OK && bad)
            st = rlxp_report(be, RLX_ERR_INVALID_ARGUMENT, "%s: node '%s' "
                             "got an index outside its range (a gather's "
                             "outside [0, dim) of its axis, a roi_align "
                             "batch index outside [0, N)) or, for "
                             "non_zero, more nonzeros than columns. Fix: "
                             "check that node's index input (gather does "
                             "not wrap negative indices) or give non_zero "
                             "more columns", be->id, exe->check_what[i]);
    }
    for (uint32_t i = 0; i < nres; i++)
        pjrt_buffer_free(be, resv[i]);
    for (uint32_t i = 0; i < exe->n_inputs; i++)
        pjrt_buffer_free(be, argv[i]);
    free(call);
    free(argv);
    free(resv);
    return st;
}

rlx_status rlxp_execute(void *backend, rlx_executable *exe,
                        const rlx_execute_args *args)
{
    return rlxp_execute_on(backend, exe, args, 0);
}
