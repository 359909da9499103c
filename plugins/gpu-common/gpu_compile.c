/*
 * gpu_compile.c - turn a graph view into an executable: values, fusions,
 * lowering, the memory plan (gpu_*.c), then device memory, constants,
 * pinned staging and the stream, all made here so runs allocate
 * nothing. The driver: rlxg_compile and rlxg_executable_destroy.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_compile.h"

/* Queued runs of at most this many steps that start with a GEMV may be
 * launched step by step (queue_mode). Each costs the host one launch
 * where a graph costs one for all, so only short chains gain. */
#define DIRECT_MAX_STEPS 4
/* ... and only when the GPU takes longer than the host's launches: at
 * least this many µs of timed kernels per step. One launch cost the host
 * about 3 µs on an H200's machine (the example MLP, 784-512-512-10,
 * queued at batch 1: 9.1 µs a run step by step, 6.5 as a graph). */
#define DIRECT_GPU_US_PER_STEP 4.0

/* How queued runs launch: setting cuda.queue_launch (RLX_CUDA_QUEUE_LAUNCH)
 * "graph" or "direct"; by default ("auto") directly for a short chain
 * whose first step is a batch-1 GEMV launched as a programmatic
 * dependent, since only then can a run start inside the one before it
 * (gpu_execute.c), and whose kernels keep the GPU busier than the
 * host's launches; a graph otherwise. Read after the autotuner chose
 * (and timed) each matmul's kernel. */
static rlx_status queue_mode(ctx *c)
{
    rlx_executable *exe = c->exe;
    static uint64_t serials;
    exe->serial = __atomic_add_fetch(&serials, 1, __ATOMIC_RELAXED);
    char mode[16] = "auto";
    if (rlx_compile_get_option(exe->options, c->host,
                               RLXG_NAME ".queue_launch", mode,
                               sizeof mode) != RLX_OK)
        snprintf(mode, sizeof mode, "auto");
    const rlxg_step *first = exe->n_steps ? &exe->steps[0] : NULL;
    if (strcmp(mode, "auto") == 0)
        exe->queue_direct =
            exe->dep_launch && first && exe->n_steps <= DIRECT_MAX_STEPS &&
            first->kind == RLXG_STEP_MATMUL && first->mm->use_gemv &&
            exe->tuned_ms * 1e3 >= DIRECT_GPU_US_PER_STEP * exe->n_steps;
    else if (strcmp(mode, "direct") == 0 || strcmp(mode, "graph") == 0)
        exe->queue_direct = mode[0] == 'd';
    else
        return rlx_kit_fail(c->host, RLX_ERR_INVALID_ARGUMENT,
                            RLXG_NAME " compile: setting " RLXG_NAME
                            ".queue_launch is '%s'. Fix: set it to auto, "
                            "graph or direct", mode);
    return RLX_OK;
}

static rlx_status allocate(ctx *c)
{
    rlx_executable *exe = c->exe;
    const rlx_graph_view *g = c->g;
    gpuError_t err = gpuSuccess;
    exe->arena_bytes = rlx_kit_plan_memory(exe->storages, exe->n_storages,
                                           ALIGN);
    exe->storage_bind = calloc(exe->n_storages + 1, sizeof(void *));
    if (!exe->storage_bind)
        return rlx_host_report(c->host, RLX_ERR_OUT_OF_MEMORY,
                               RLXG_NAME " compile: out of memory. Fix: free "
                               "memory");
    if (exe->arena_bytes)
        err = gpuMalloc(&exe->arena, exe->arena_bytes);
    if (err == gpuSuccess && exe->const_bytes) {
        err = gpuMalloc(&exe->consts, exe->const_bytes);
        for (uint32_t i = 0; err == gpuSuccess && i < g->n_nodes; i++) {
            const rlx_node_view *v = g->nodes[i];
            const rlxg_value *x = &exe->values[i];
            if (v->op != RLX_OP_CONSTANT || !x->count)
                continue;
            if (!RLX_HAS_FIELD(v->struct_size, rlx_node_view, data) ||
                !v->data)
                return rlx_kit_fail(c->host, RLX_ERR_INVALID_ARGUMENT,
                                    RLXG_NAME " compile: constant '%s' has no "
                                    "data." FIX_BUG, v->name);
            err = gpuMemcpy((char *)exe->consts + x->offset, v->data,
                             x->nbytes, gpuMemcpyHostToDevice);
        }
    }
    /* Pinned staging: inputs, outputs, then the gather flag. */
    size_t at = 0;
    for (uint32_t i = 0; i < exe->n_inputs; i++) {
        exe->input_stage[i] = at;
        at = rlx_kit_align_up(at + exe->values[exe->input_values[i]].nbytes, 64);
    }
    for (uint32_t i = 0; i < exe->n_outputs; i++) {
        exe->output_stage[i] = at;
        at = rlx_kit_align_up(at + exe->values[exe->output_values[i]].nbytes, 64);
    }
    exe->flag_stage = at;
    exe->stage_bytes = at + 64;
    if (err == gpuSuccess)
        err = gpuHostAlloc((void **)&exe->stage, exe->stage_bytes,
                            gpuHostAllocDefault);
    if (err == gpuSuccess && exe->workspace_bytes) /* the matmul's */
        err = gpuMalloc(&exe->workspace, exe->workspace_bytes);
    if (err == gpuSuccess)
        err = gpuStreamCreateWithFlags(&exe->stream, gpuStreamNonBlocking);
    if (err != gpuSuccess)
        return rlxg_gpu_fail(c->host, err,
                              "compile: cannot allocate device memory for "
                              "the graph");
    rlxg_matmul_autotune(exe);
    char prof[16]; /* setting cuda.profile / rocm.profile */
    exe->profile = rlx_compile_get_option(exe->options, c->host,
                                          RLXG_NAME ".profile", prof,
                                          sizeof prof) == RLX_OK &&
                   *prof && strcmp(prof, "0") != 0;
    char dot[480]; /* setting cuda.graph_dot / rocm.graph_dot */
    if (rlx_compile_get_option(exe->options, c->host,
                               RLXG_NAME ".graph_dot", dot,
                               sizeof dot) == RLX_OK && *dot &&
        !(exe->graph_dot = strdup(dot)))
        return rlx_host_report(c->host, RLX_ERR_OUT_OF_MEMORY,
                               RLXG_NAME " compile: out of memory. Fix: "
                               "free memory");
    rlx_kit_log(c->host, RLX_LOG_DEBUG,
                RLXG_NAME " compile: %u nodes, %u steps, %u intermediates in a "
                "%zu-byte arena, %zu bytes of constants",
                (unsigned)g->n_nodes, (unsigned)exe->n_steps,
                (unsigned)exe->n_storages, exe->arena_bytes, exe->const_bytes);
    return RLX_OK;
}

rlx_status rlxg_compile(void *backend, const rlx_graph_view *graph,
                        const rlx_compile_options *options,
                        rlx_executable **out)
{
    rlxg_backend *be = backend;
    const rlx_host *host = be->host;
    if (!graph || !out ||
        !RLX_HAS_FIELD(graph->struct_size, rlx_graph_view, outputs) ||
        (graph->n_nodes && !graph->nodes))
        return rlx_host_report(host, RLX_ERR_INVALID_ARGUMENT,
                               RLXG_NAME " compile: missing or truncated graph "
                               "view." FIX_BUG);
    uint32_t device = 0;
    int precision = RLX_PRECISION_STRICT;
    if (options && RLX_HAS_FIELD(options->struct_size, rlx_compile_options,
                                 device_index))
        device = options->device_index;
    if (options && RLX_HAS_FIELD(options->struct_size, rlx_compile_options,
                                 precision))
        precision = (int)options->precision;
    rlx_status st = rlxg_device_use(be, device);
    if (st != RLX_OK)
        return st;

    rlx_executable *exe = calloc(1, sizeof *exe);
    size_t nn = (size_t)graph->n_nodes + 1;
    int *consumer = malloc(4 * nn * sizeof *consumer);
    if (exe)
        exe->values = calloc(nn, sizeof *exe->values);
    if (!exe || !consumer || !exe->values) {
        free(consumer);
        if (exe)
            free(exe->values);
        free(exe);
        return rlx_host_report(host, RLX_ERR_OUT_OF_MEMORY,
                               RLXG_NAME " compile: out of memory. Fix: free "
                               "memory");
    }
    for (size_t i = 0; i < 4 * nn; i++)
        consumer[i] = -1;
    exe->be = be;
    exe->device = device;
    exe->options = options;
    exe->n_values = graph->n_nodes;
    char dep[8]; /* setting cuda.dep_launch (RLX_CUDA_DEP_LAUNCH) */
    exe->dep_launch = rlxg_dep_launch_ok() &&
                      !(rlx_compile_get_option(options, host,
                                               RLXG_NAME ".dep_launch", dep,
                                               sizeof dep) == RLX_OK &&
                        strcmp(dep, "0") == 0);
    ctx c = { host, exe, graph, precision, consumer, consumer + nn,
              consumer + 2 * nn, NULL, 0, consumer + 3 * nn };

    st = rlxg_values_init(&c);
    if (st == RLX_OK)
        st = rlxg_values_slots(&c);
    if (st == RLX_OK)
        rlxg_fuse_plan(&c);
    for (uint32_t i = 0; st == RLX_OK && i < graph->n_nodes; i++)
        st = rlxg_node_emit(&c, i);
    if (st == RLX_OK)
        st = rlxg_dnn_layout(exe, graph);
    if (st == RLX_OK)
        st = rlxg_values_locate(&c);
    if (st == RLX_OK) {
        rlxg_liveness(&c);
        st = allocate(&c);
    }
    if (st == RLX_OK)
        st = queue_mode(&c);
    free(consumer);
    free(c.attn_plans);
    exe->options = NULL; /* the core's, valid during compile only */
    if (st != RLX_OK) {
        rlxg_executable_destroy(backend, exe);
        return st;
    }
    *out = exe;
    return RLX_OK;
}

void rlxg_executable_destroy(void *backend, rlx_executable *exe)
{
    rlxg_backend *be = backend;
    if (!exe)
        return;
    int have_device = rlxg_device_use(be, exe->device) == RLX_OK;
    if (have_device) {
        if (exe->stream)
            gpuStreamSynchronize(exe->stream);
        if (exe->graph)
            gpuGraphExecDestroy(exe->graph);
        if (exe->stream)
            gpuStreamDestroy(exe->stream);
        gpuFree(exe->arena);
        gpuFree(exe->consts);
        gpuFree(exe->workspace);
        gpuFree(exe->dev_flag);
        rlxg_dnn_release(exe);
        if (exe->stage)
            gpuFreeHost(exe->stage);
        for (uint32_t j = 0; exe->io_reg && j < exe->n_inputs + exe->n_outputs;
             j++)
            if (exe->io_reg[j])
                gpuHostUnregister(exe->io_user[j]);
        gpuGetLastError();
    }
    for (uint32_t s = 0; s < exe->n_steps; s++)
        if (exe->steps[s].mm)
            rlxg_matmul_free(be, exe->steps[s].mm);
    free(exe->steps);
    free(exe->storages);
    free(exe->values);
    free(exe->input_values);
    free(exe->param_values);
    free(exe->output_values);
    free(exe->input_stage);
    free(exe->output_stage);
    free(exe->graph_params);
    free(exe->graph_dot);
    free(exe->io_user);
    free(exe->io_reg);
    free(exe->io_host);
    free(exe->graph_io);
    free(exe->io_dev);
    free(exe->graph_dev);
    free(exe->storage_bind);
    free(exe->out_direct);
    free(exe);
}
