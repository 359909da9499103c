/*
 * gpu_execute.c - run an executable: copy inputs into pinned staging,
 * replay the CUDA or HIP graph (input uploads, every step, output downloads),
 * wait, and copy outputs out of staging. Inputs and outputs bound to
 * device buffers (ABI 1.2 device I/O) skip the host entirely: the steps
 * read and write the buffers in place.
 *
 * The graph is captured at the first run and again only when a param
 * buffer, a bound buffer or the host side of a copy differs from the one
 * it was captured with, so a run costs one graph launch and one
 * synchronization whatever the number of kernels.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rlx/kit_args.h>

#include "gpu_internal.h"

void *rlxg_value_ptr(const rlx_executable *exe, int v, void *const *params)
{
    if (v < 0)
        return NULL;
    const rlxg_value *x = &exe->values[v];
    switch (x->loc) {
    case RLXG_LOC_ARENA:
        if (exe->storage_bind[x->storage])
            return exe->storage_bind[x->storage];
        return (char *)exe->arena + exe->storages[x->storage].offset;
    case RLXG_LOC_PARAM:
        return params[x->slot];
    case RLXG_LOC_CONST:
        return (char *)exe->consts + x->offset;
    default:
        return NULL;
    }
}

rlx_status rlxg_step_enqueue(rlx_executable *exe, const rlxg_step *s,
                             void *const *params, gpuStream_t st, int dep)
{
    const rlxg_value *y = &exe->values[s->out];
    void *out = rlxg_value_ptr(exe, s->out, params);
    const void *in0 = rlxg_value_ptr(exe, s->in[0], params);
    const void *in1 = rlxg_value_ptr(exe, s->in[1], params);
    const void *in2 = rlxg_value_ptr(exe, s->in[2], params);
    const void *in3 = rlxg_value_ptr(exe, s->in[3], params);
    gpuError_t err = gpuSuccess;
    /* norm and attention kernels wait before reading anything, so they
     * may start as the kernel before finishes, where its sm_90 code runs */
    const int pdl = dep && exe->dep_launch;
    switch (s->kind) {
    case RLXG_STEP_UNARY:
        err = rlxg_unary(st, y->dtype, s->op, s->approx, in0, out, y->count);
        break;
    case RLXG_STEP_BINARY:
        err = rlxg_binary(st, y->dtype, s->op, in0, in1, out, y->count,
                          &s->bcast);
        break;
    case RLXG_STEP_MATMUL:
        return rlxg_matmul_enqueue(exe, s, params, st, dep);
    case RLXG_STEP_SOFTMAX:
        err = rlxg_softmax(st, y->dtype, in0, out, s->outer, s->len, s->inner,
                           s->causal_rows);
        break;
    case RLXG_STEP_NORM:
        err = rlxg_norm(st, y->dtype, s->op == RLX_OP_RMS_NORM, in0, in3, in1,
                        in2, out, s->outer, s->len, s->eps, pdl);
        break;
    case RLXG_STEP_REDUCE:
        err = rlxg_reduce(st, y->dtype, s->op, in0, out, &s->reduce);
        break;
    case RLXG_STEP_COPY: {
        size_t elem = rlx_dtype_size(y->dtype);
        const char *src = (const char *)in0 + s->src_offset;
        char *dst = (char *)out + s->dst_offset;
        const rlxg_copy_plan *p = &s->copy;
        if (p->rank == 0 || (p->rank == 1 && p->src_stride[0] == 1 &&
                             p->dst_stride[0] == 1))
            err = gpuMemcpyAsync(dst, src, (size_t)p->count * elem,
                                  gpuMemcpyDeviceToDevice, st);
        else
            err = rlxg_copy(st, elem, src, dst, p);
        break;
    }
    case RLXG_STEP_GATHER:
        err = rlxg_gather(st, rlx_dtype_size(y->dtype), in0, in1,
                          s->idx_is_i64, out, s->outer, s->len, s->n_idx,
                          s->inner, exe->dev_flag);
        break;
    case RLXG_STEP_CAST:
        err = rlxg_cast(st, exe->values[s->in[0]].dtype, y->dtype, in0, out,
                        y->count);
        break;
    case RLXG_STEP_FILL:
        err = rlxg_fill(st, y->dtype, out, y->count, s->fill);
        break;
    case RLXG_STEP_ZERO:
        err = gpuMemsetAsync(out, 0, y->nbytes, st);
        break;
    case RLXG_STEP_ATTENTION:
        err = rlxg_attention(st, y->dtype, in0, in1, in2, out, &s->attn, pdl);
        break;
    case RLXG_STEP_CONV:
        err = s->dnn ? rlxg_dnn_conv_enqueue(exe, s, in0, in1, in2, in3, out,
                                             st)
                     : rlxg_conv(st, y->dtype, in0, in1, in2, in3, out,
                                 &s->win);
        break;
    case RLXG_STEP_CONV_TRANSPOSE:
        err = s->dnn ? rlxg_dnn_conv_enqueue(exe, s, in0, in1, in2, NULL, out,
                                             st)
                     : rlxg_conv_transpose(st, y->dtype, in0, in1, in2, out,
                                           &s->win);
        break;
    case RLXG_STEP_POOL:
        err = rlxg_pool(st, y->dtype, in0, out, &s->win);
        break;
    case RLXG_STEP_BATCH_NORM:
        err = rlxg_batch_norm(st, y->dtype, in0, in1, in2, in3,
                              rlxg_value_ptr(exe, s->in5, params), out,
                              s->outer, s->len, s->inner, s->eps);
        break;
    case RLXG_STEP_GROUP_NORM:
        /* n_idx: the groups; idx_is_i64: scale and bias per group */
        err = rlxg_group_norm(st, y->dtype, in0, in1, in2, out, s->outer,
                              s->len, s->inner, s->n_idx, s->idx_is_i64,
                              s->eps);
        break;
    case RLXG_STEP_RESIZE:
        err = rlxg_resize(st, y->dtype, in0, out, &s->rs);
        break;
    default:
        err = rlxg_step_enqueue_more(exe, s, params, st);
        break;
    }
    if (err != gpuSuccess)
        return rlxg_gpu_fail(exe->be->host, err, "cannot launch a kernel");
    return RLX_OK;
}

rlx_status rlxg_steps_enqueue(rlx_executable *exe, void *const *params,
                              gpuStream_t stream, int chained)
{
    for (uint32_t i = 0; i < exe->n_steps; i++) {
        rlx_status st = rlxg_step_enqueue(exe, &exe->steps[i], params,
                                          stream, i > 0 || chained);
        if (st != RLX_OK)
            return st;
    }
    return RLX_OK;
}

/* Record the whole run on S: uploads, steps, downloads (CHAINED: as
 * rlxg_steps_enqueue's). */
static rlx_status record(rlx_executable *exe, void *const *params,
                         gpuStream_t s, int chained)
{
    gpuError_t err = gpuSuccess;
    if (exe->dev_flag)
        err = gpuMemsetAsync(exe->dev_flag, 0, sizeof(int), s);
    for (uint32_t i = 0; err == gpuSuccess && i < exe->n_inputs; i++) {
        int v = (int)exe->input_values[i];
        if (exe->values[v].nbytes && !exe->io_dev[i])
            err = gpuMemcpyAsync(rlxg_value_ptr(exe, v, params),
                                  exe->io_host[i],
                                  exe->values[v].nbytes,
                                  gpuMemcpyHostToDevice, s);
    }
    if (err != gpuSuccess)
        return rlxg_gpu_fail(exe->be->host, err, "cannot upload inputs");
    rlx_status st = rlxg_steps_enqueue(exe, params, s, chained);
    if (st != RLX_OK)
        return st;
    for (uint32_t i = 0; err == gpuSuccess && i < exe->n_outputs; i++) {
        int v = (int)exe->output_values[i];
        void *dev = exe->io_dev[exe->n_inputs + i];
        if (!exe->values[v].nbytes || exe->out_direct[i])
            continue;
        err = gpuMemcpyAsync(dev ? dev : exe->io_host[exe->n_inputs + i],
                              rlxg_value_ptr(exe, v, params),
                              exe->values[v].nbytes,
                              dev ? gpuMemcpyDeviceToDevice
                                  : gpuMemcpyDeviceToHost, s);
    }
    if (err == gpuSuccess && exe->dev_flag)
        err = gpuMemcpyAsync(exe->stage + exe->flag_stage, exe->dev_flag,
                              sizeof(int), gpuMemcpyDeviceToHost, s);
    if (err != gpuSuccess)
        return rlxg_gpu_fail(exe->be->host, err, "cannot download outputs");
    return RLX_OK;
}

static const char *step_name(const rlxg_step *s)
{
    static const char *const names[] = {
        "?", "unary", "binary", "matmul", "softmax", "norm", "reduce",
        "copy", "gather", "cast", "fill", "zero", "attn", "conv",
        "conv_transpose", "pool", "batch_norm", "group_norm", "resize", "ew",
        "reduce", "arg", "layout", "gather", "scatter", "cumsum", "topk",
        "range", "non_zero", "quant"
    };
    if (s->dnn)
        return "conv_dnn"; /* through the vendor's DNN library */
    return (unsigned)s->kind < sizeof names / sizeof names[0]
               ? names[s->kind] : "?";
}

void rlxg_profile(rlx_executable *exe, void *const *params)
{
    const rlx_host *host = exe->be->host;
    gpuEvent_t ev[2];
    if (gpuEventCreate(&ev[0]) != gpuSuccess)
        return;
    if (gpuEventCreate(&ev[1]) != gpuSuccess) {
        gpuEventDestroy(ev[0]);
        return;
    }
    /* Each step is timed over REPS back-to-back launches after one to
     * warm up, so the GPU is busy from the first event to the last and
     * the host's launch latency is not counted (steps never write their
     * own inputs, so repeating one is harmless). */
    enum { REPS = 5 };
    float total = 0.f;
    for (uint32_t i = 0; i < exe->n_steps; i++) {
        const rlxg_step *s = &exe->steps[i];
        const rlxg_value *y = &exe->values[s->out];
        rlx_status st = rlxg_step_enqueue(exe, s, params, exe->stream, 1);
        gpuEventRecord(ev[0], exe->stream);
        for (int r = 0; r < REPS && st == RLX_OK; r++)
            st = rlxg_step_enqueue(exe, s, params, exe->stream, 1);
        gpuEventRecord(ev[1], exe->stream);
        float ms = 0.f;
        if (st != RLX_OK || gpuEventSynchronize(ev[1]) != gpuSuccess)
            break;
        gpuEventElapsedTime(&ms, ev[0], ev[1]);
        ms /= REPS;
        total += ms;
        char shape[96];
        int at = snprintf(shape, sizeof shape, "[");
        for (uint32_t d = 0; d < y->rank && at < 80; d++)
            at += snprintf(shape + at, sizeof shape - (size_t)at, "%s%lld",
                           d ? ", " : "", (long long)y->dims[d]);
        snprintf(shape + at, sizeof shape - (size_t)at, "]");
        rlx_kit_log(host, RLX_LOG_INFO,
                    RLXG_NAME " profile: step %3u %-8s op %3d dtype %d -> %-20s "
                    "%8.4f ms", (unsigned)i, step_name(s), s->op,
                    (int)y->dtype, shape, (double)ms);
    }
    rlx_kit_log(host, RLX_LOG_INFO,
                RLXG_NAME " profile: %u steps, %.4f ms of GPU time, each step "
                "timed on its own",
                (unsigned)exe->n_steps, (double)total);
    gpuEventDestroy(ev[0]);
    gpuEventDestroy(ev[1]);
}

/* Point the storages of bound slots at their buffers. An output is
 * written in place when it has a storage of its own (not an input's,
 * not one an earlier bound output took) and its buffer is not also bound
 * to an input or an earlier output; otherwise the run ends with a copy
 * into it, after every step has read its inputs. */
static void bind_storages(rlx_executable *exe)
{
    memset(exe->storage_bind, 0, exe->n_storages * sizeof(void *));
    for (uint32_t i = 0; i < exe->n_inputs; i++) {
        const rlxg_value *v = &exe->values[exe->input_values[i]];
        if (exe->io_dev[i] && v->loc == RLXG_LOC_ARENA)
            exe->storage_bind[v->storage] = exe->io_dev[i];
    }
    for (uint32_t o = 0; o < exe->n_outputs; o++) {
        const rlxg_value *v = &exe->values[exe->output_values[o]];
        void *dev = exe->io_dev[exe->n_inputs + o];
        int own = v->loc == RLXG_LOC_ARENA;
        for (uint32_t i = 0; own && i < exe->n_inputs; i++)
            own = exe->values[exe->input_values[i]].storage != v->storage;
        for (uint32_t j = 0; own && j < exe->n_inputs + o; j++)
            own = exe->io_dev[j] != dev;
        exe->out_direct[o] = dev && own && !exe->storage_bind[v->storage];
        if (exe->out_direct[o])
            exe->storage_bind[v->storage] = dev;
    }
}

/* Setting cuda.graph_dot (rocm.graph_dot): where each captured graph is
 * written in Graphviz's form, every node with its kernel, launch shape
 * and edges' kinds, for a performance person to read: a file, or a
 * folder (ending in '/') that gets graph-N.dot for executable N. */
static void dump_graph(const rlx_executable *exe, gpuGraph_t graph)
{
    const rlx_host *host = exe->be->host;
    const char *dest = exe->graph_dot;
    if (!dest)
        return;
    char path[512];
    size_t n = strlen(dest);
    if (dest[n - 1] == '/')
        snprintf(path, sizeof path, "%sgraph-%llu.dot", dest,
                 (unsigned long long)exe->serial);
    else
        snprintf(path, sizeof path, "%s", dest);
    gpuError_t err = gpu_graph_dot(graph, path);
    if (err == gpuSuccess)
        rlx_kit_log(host, RLX_LOG_INFO, RLXG_NAME ": wrote the captured graph "
                    "to %s", path);
    else
        rlx_kit_log(host, RLX_LOG_WARN, RLXG_NAME ": could not write the "
                    "captured graph to %s: %s", path, gpuGetErrorString(err));
}

static rlx_status capture(rlx_executable *exe, void *const *params)
{
    const rlx_host *host = exe->be->host;
    if (exe->graph) {
        gpuGraphExecDestroy(exe->graph);
        exe->graph = NULL;
    }
    bind_storages(exe); /* the pointers record() resolves */
    gpuError_t err = gpuStreamBeginCapture(exe->stream,
                                             gpuStreamCaptureModeThreadLocal);
    if (err != gpuSuccess)
        return rlxg_gpu_fail(host, err, "cannot start a graph capture");
    /* the graph's first kernel has no kernel before it: chained or not
     * is the same */
    rlx_status st = record(exe, params, exe->stream, 1);
    gpuGraph_t graph = NULL;
    err = gpuStreamEndCapture(exe->stream, &graph);
    if (st != RLX_OK) {
        if (graph)
            gpuGraphDestroy(graph);
        return st;
    }
    if (err == gpuSuccess)
        err = gpu_graph_instantiate(&exe->graph, graph);
    if (err == gpuSuccess)
        dump_graph(exe, graph);
    if (graph)
        gpuGraphDestroy(graph);
    if (err != gpuSuccess) {
        exe->graph = NULL;
        return rlxg_gpu_fail(host, err, "cannot capture the graph");
    }
    memcpy(exe->graph_params, params, exe->n_params * sizeof *params);
    memcpy(exe->graph_io, exe->io_host,
           (exe->n_inputs + exe->n_outputs) * sizeof *exe->io_host);
    memcpy(exe->graph_dev, exe->io_dev,
           (exe->n_inputs + exe->n_outputs) * sizeof *exe->io_dev);
    rlx_kit_log(host, RLX_LOG_DEBUG, RLXG_NAME ": captured a graph of %u steps",
                (unsigned)exe->n_steps);
    return RLX_OK;
}

static rlx_status check_args(rlx_executable *exe,
                             const rlx_execute_args *args, void **params,
                             uint64_t *versions)
{
    const rlx_host *host = exe->be->host;
    rlx_status st = rlx_kit_check_execute_args(host, RLXG_NAME " execute",
                                               args, exe->n_params,
                                               exe->n_inputs, exe->n_outputs);
    if (st != RLX_OK)
        return st;
    for (uint32_t s = 0; s < exe->n_params; s++) {
        const rlxg_value *v = &exe->values[exe->param_values[s]];
        const rlx_buffer *b = args->params[s];
        if (!b || b->dtype != v->dtype || b->nbytes != v->nbytes ||
            b->device != exe->device)
            return rlx_kit_fail(host, RLX_ERR_INVALID_ARGUMENT,
                                RLXG_NAME " execute: param slot %u %s. Fix: set the "
                                "param from a buffer of %zu bytes made by the "
                                RLXG_NAME " backend on " RLXG_NAME ":%u", (unsigned)s,
                                !b ? "has no buffer"
                                   : "has a buffer of another dtype, size or "
                                     "device",
                                v->nbytes, (unsigned)exe->device);
        params[s] = b->ptr;
        versions[s] = b->version;
    }
    for (uint32_t j = 0; j < exe->n_inputs + exe->n_outputs; j++) {
        int is_in = j < exe->n_inputs;
        uint32_t s = is_in ? j : j - exe->n_inputs;
        const rlxg_value *v = &exe->values[is_in ? exe->input_values[s]
                                                 : exe->output_values[s]];
        const rlx_buffer *b = is_in ? rlx_kit_bound_input(args, s)
                                    : rlx_kit_bound_output(args, s);
        const void *h = is_in ? args->inputs[s] : args->outputs[s];
        exe->io_dev[j] = NULL;
        if (b && (b->dtype != v->dtype || b->nbytes != v->nbytes ||
                  b->device != exe->device))
            return rlx_kit_fail(host, RLX_ERR_INVALID_ARGUMENT,
                                RLXG_NAME " execute: %s %u is bound to a buffer of "
                                "another dtype, size or device. Fix: bind a "
                                "buffer of %zu bytes made by the " RLXG_NAME " backend "
                                "on " RLXG_NAME ":%u", is_in ? "input" : "output",
                                (unsigned)s, v->nbytes, (unsigned)exe->device);
        if (b)
            exe->io_dev[j] = b->ptr;
        else if (v->nbytes && !h)
            return rlx_kit_fail(host, RLX_ERR_INVALID_ARGUMENT,
                                RLXG_NAME " execute: %s %u has neither host memory "
                                "nor a bound buffer. Fix: %s",
                                is_in ? "input" : "output", (unsigned)s,
                                is_in ? "set every input before running"
                                      : "pass host memory or a buffer for "
                                     "every output");
    }
    /* this run writes its bound outputs: what is derived from them
     * (another executable's filters) is stale from now on */
    for (uint32_t o = 0; o < exe->n_outputs; o++) {
        rlx_buffer *b = rlx_kit_bound_output(args, o);
        if (b && b->version)
            b->version = rlxg_version_next();
    }
    return RLX_OK;
}

/* Inputs and outputs of at least this many bytes are copied by DMA
 * straight from and to the caller's memory once it is page-locked. */
#define DIRECT_MIN_BYTES ((size_t)256 << 10)

/* Choose the host side of every input and output copy; returns nonzero
 * when it differs from what the graph was captured with. */
static int bind_io(rlx_executable *exe, const rlx_execute_args *args)
{
    uint32_t n_io = exe->n_inputs + exe->n_outputs;
    for (uint32_t j = 0; j < n_io; j++) {
        int is_in = j < exe->n_inputs;
        uint32_t k = is_in ? j : j - exe->n_inputs;
        size_t n = exe->values[is_in ? exe->input_values[k]
                                     : exe->output_values[k]].nbytes;
        void *user = is_in ? (void *)args->inputs[k] : args->outputs[k];
        if (exe->io_dev[j]) {
            exe->io_host[j] = NULL;
            continue;
        }
        void *stage = exe->stage + (is_in ? exe->input_stage[k]
                                          : exe->output_stage[k]);
        if (n >= DIRECT_MIN_BYTES && user != exe->io_user[j]) {
            if (exe->io_reg[j])
                gpuHostUnregister(exe->io_user[j]);
            exe->io_reg[j] = 0;
            exe->io_user[j] = user;
            if (gpuHostRegister(user, n, gpuHostRegisterDefault) ==
                gpuSuccess)
                exe->io_reg[j] = 1;
            gpuGetLastError(); /* not registered: use the staging */
        }
        exe->io_host[j] = n >= DIRECT_MIN_BYTES && exe->io_reg[j] &&
                                  user == exe->io_user[j]
                              ? user : stage;
    }
    return memcmp(exe->io_host, exe->graph_io, n_io * sizeof(void *)) ||
           memcmp(exe->io_dev, exe->graph_dev, n_io * sizeof(void *));
}

/* Check ARGS, choose the host side of the copies and capture the graph
 * again where anything it was captured over moved. QUEUE: the device's
 * queue stream, where runs of the old graph may still be in flight. */
static rlx_status prepare(rlxg_backend *be, rlx_executable *exe,
                          const rlx_execute_args *args, gpuStream_t queue)
{
    void *stack_params[16];
    uint64_t stack_versions[16];
    int heap = exe->n_params > 16;
    void **params = heap ? calloc(exe->n_params, sizeof *params)
                         : stack_params;
    uint64_t *versions = heap ? calloc(exe->n_params, sizeof *versions)
                              : stack_versions;
    if (!params || !versions) {
        if (heap) {
            free(params);
            free(versions);
        }
        return rlx_host_report(be->host, RLX_ERR_OUT_OF_MEMORY,
                               RLXG_NAME " execute: out of memory. Fix: free "
                               "memory");
    }
    rlx_status st = check_args(exe, args, params, versions);
    if (st == RLX_OK && gpuSetDevice((int)exe->device) != gpuSuccess)
        st = rlxg_device_use(be, exe->device);
    int io_moved = st == RLX_OK ? bind_io(exe, args) : 0;
    if (st == RLX_OK &&
        (!exe->graph || io_moved ||
         memcmp(exe->graph_params, params, exe->n_params * sizeof *params))) {
        gpuError_t err = queue && exe->graph ? gpuStreamSynchronize(queue)
                                             : gpuSuccess;
        st = err == gpuSuccess
                 ? capture(exe, params)
                 : rlxg_gpu_fail(be->host, err, "a queued run failed on "
                                                "the GPU");
    }
    if (st == RLX_OK) { /* filters reordered once per param write */
        gpuError_t err = rlxg_dnn_refresh(exe, params, versions,
                                          queue ? queue : exe->stream);
        if (err != gpuSuccess)
            st = rlxg_gpu_fail(be->host, err, "cannot prepare a conv's "
                                              "filter");
    }
    if (st == RLX_OK && exe->profile) {
        exe->profile = 0;
        rlxg_profile(exe, params);
    }
    if (heap) {
        free(params);
        free(versions);
    }
    return st;
}

/* Launch a run on QUEUE: its graph, or (exe->queue_direct, nothing
 * staged) its steps one by one. Launched directly, the first step may
 * start while the queue's previous run finishes when that run was this
 * executable's: a batch-1 GEMV then loads its weight, a param, during
 * the previous run's last kernel, which a graph launch (a full barrier)
 * does not allow. A run never writes its own params (the ABI binds an
 * output's buffer to no other slot); another executable's run might
 * write them, so a run after one of another executable waits in full. */
static gpuError_t launch_queued(rlxg_backend *be, rlx_executable *exe,
                                gpuStream_t queue, int direct,
                                rlx_status *st)
{
    gpuError_t err = gpuSuccess;
    pthread_mutex_lock(&rlxg_queue_lock);
    rlxg_device *d = &be->devices[exe->device];
    if (direct)
        *st = record(exe, exe->graph_params, queue,
                     d->queue_last == exe->serial);
    else
        err = gpuGraphLaunch(exe->graph, queue);
    d->queue_last = err == gpuSuccess && *st == RLX_OK ? exe->serial : 0;
    pthread_mutex_unlock(&rlxg_queue_lock);
    return err;
}

rlx_status rlxg_execute_on(rlxg_backend *be, rlx_executable *exe,
                           const rlx_execute_args *args, gpuStream_t queue)
{
    if (!exe)
        return rlx_host_report(be->host, RLX_ERR_INVALID_ARGUMENT,
                               RLXG_NAME " execute: NULL executable. Fix: pass an "
                               "executable made by the " RLXG_NAME " backend");
    rlx_status st = prepare(be, exe, args, queue);
    if (st != RLX_OK)
        return st;
    /* Queued, the run returns at launch; unless the host must look at it
     * afterwards (staged inputs or outputs, the gather flag): then it
     * waits on the queue, which also orders it after earlier queued runs. */
    int host_io = 0;
    for (uint32_t j = 0; j < exe->n_inputs + exe->n_outputs; j++)
        host_io |= exe->io_host[j] != NULL;
    int wait = !queue || host_io || exe->dev_flag;
    gpuStream_t stream = queue ? queue : exe->stream;
    gpuError_t err = queue && wait ? gpuStreamSynchronize(queue) : gpuSuccess;
    if (err != gpuSuccess)
        return rlxg_gpu_fail(be->host, err, "a queued run failed on the GPU");

    for (uint32_t i = 0; i < exe->n_inputs; i++) {
        size_t n = exe->values[exe->input_values[i]].nbytes;
        if (n && exe->io_host[i] && exe->io_host[i] != args->inputs[i])
            memcpy(exe->io_host[i], args->inputs[i], n);
    }
    if (queue) {
        err = launch_queued(be, exe, queue, exe->queue_direct && !wait, &st);
        if (st != RLX_OK)
            return st;
    } else {
        err = gpuGraphLaunch(exe->graph, stream);
    }
    if (err == gpuSuccess && wait)
        err = gpuStreamSynchronize(stream);
    if (err != gpuSuccess)
        return rlxg_gpu_fail(be->host, err, "the run failed on the GPU");
    if (!wait)
        return RLX_OK;
    if (exe->dev_flag) {
        int flag;
        memcpy(&flag, exe->stage + exe->flag_stage, sizeof flag);
        if (flag)
            return rlx_host_report(be->host, RLX_ERR_INVALID_ARGUMENT,
                                   RLXG_NAME " execute: an index (gather, "
                                   "gather_elements, gather_nd, a "
                                   "scatter or roi_align's batch index) "
                                   "is outside its axis, or "
                                   "non_zero found more nonzeros than its "
                                   "result has columns. Fix: check the "
                                   "index input's values, or give "
                                   "non_zero n = -1");
    }
    for (uint32_t i = 0; i < exe->n_outputs; i++) {
        size_t n = exe->values[exe->output_values[i]].nbytes;
        void *h = exe->io_host[exe->n_inputs + i];
        if (n && h && h != args->outputs[i])
            memcpy(args->outputs[i], h, n);
    }
    return RLX_OK;
}

rlx_status rlxg_execute(void *backend, rlx_executable *exe,
                        const rlx_execute_args *args)
{
    return rlxg_execute_on(backend, exe, args, NULL);
}
