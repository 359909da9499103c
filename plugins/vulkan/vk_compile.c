/*
 * vk_compile.c - turn a borrowed graph view into an executable: one
 * device value per node in a single device-local arena (reshape aliases
 * its input, params stay in their own buffers), constants and fills
 * uploaded once, the op planners' dispatches with one descriptor set
 * each, and staging space for inputs and outputs. The command buffer is
 * recorded at the first run, once the param buffers are known.
 */
#include <stdlib.h>
#include <string.h>

#include "vk_internal.h"

#define FIX_REPORT " Fix: report this as a bug in the rlx core"
#define ERR_BYTES 256 /* the run's error flag, at arena offset 0 */

static rlx_status oom(const rlx_host *host)
{
    return rlx_host_report(host, RLX_ERR_OUT_OF_MEMORY,
                           "vulkan compile: out of host memory. Fix: free "
                           "memory, or compile a smaller graph");
}

rlxv_dispatch *rlxv_dispatch_add(const rlx_host *host,
                                       rlx_executable *exe, rlxv_pipe p)
{
    if (exe->n_dispatch == exe->cap_dispatch) {
        uint32_t cap = exe->cap_dispatch ? 2 * exe->cap_dispatch : 16;
        rlxv_dispatch *d = realloc(exe->dispatch, cap * sizeof *d);
        if (!d) {
            oom(host);
            return NULL;
        }
        exe->dispatch = d;
        exe->cap_dispatch = cap;
    }
    rlxv_dispatch *d = &exe->dispatch[exe->n_dispatch++];
    memset(d, 0, sizeof *d);
    d->pipe = p;
    for (int i = 0; i < 5; i++)
        d->bind[i] = RLXV_BIND_NONE;
    d->groups[0] = d->groups[1] = d->groups[2] = 1;
    return d;
}

rlx_status rlxv_aux_add(const rlx_host *host, rlx_executable *exe,
                           const void *data, VkDeviceSize bytes,
                           uint32_t *bind)
{
    if (exe->n_aux == exe->cap_aux) {
        uint32_t cap = exe->cap_aux ? 2 * exe->cap_aux : 8;
        rlxv_aux *a = realloc(exe->aux, cap * sizeof *a);
        if (!a)
            return oom(host);
        exe->aux = a;
        exe->cap_aux = cap;
    }
    VkDeviceSize size = bytes < 16 ? 16 : bytes;
    rlxv_aux *a = &exe->aux[exe->n_aux];
    a->data = NULL;
    if (data) {
        if (!(a->data = calloc(1, size)))
            return oom(host);
        memcpy(a->data, data, bytes);
    }
    bytes = size;
    a->offset = (exe->arena_end + 255) & ~(VkDeviceSize)255;
    a->bytes = bytes;
    exe->arena_end = a->offset + bytes;
    *bind = RLXV_BIND_AUX0 + exe->n_aux++;
    return RLX_OK;
}

void rlxv_grid(rlxv_dispatch *d, uint64_t n, uint32_t local)
{
    uint64_t g = (n + local - 1) / local;
    if (g == 0)
        g = 1;
    d->groups[0] = g < 65535 ? (uint32_t)g : 65535u;
    d->groups[1] = (uint32_t)((g + d->groups[0] - 1) / d->groups[0]);
    d->groups[2] = 1;
}

static uint32_t round_of(rlx_dtype t)
{
    return t == RLX_DTYPE_F16 ? RLXV_ROUND_F16
         : t == RLX_DTYPE_BF16 ? RLXV_ROUND_BF16 : RLXV_ROUND_NONE;
}

/* Fill VALUE for node I; checks what the planners rely on. */
static rlx_status value_init(const rlx_host *host, const rlx_graph_view *g,
                             uint32_t i, rlx_executable *exe)
{
    const rlx_node_view *v = g->nodes[i];
    rlxv_value *val = &exe->values[i];
    if (!v || v->struct_size < RLX_STRUCT_SIZE_TO(rlx_node_view, slot))
        return rlx_kit_fail(host, RLX_ERR_INVALID_ARGUMENT,
                            "vulkan compile: node %u is missing or "
                            "truncated." FIX_REPORT, (unsigned)i);
    const char *name = v->name ? v->name : "?";
    size_t len = strlen(name) + 1;
    if (!(exe->names[i] = malloc(len)))
        return oom(host);
    memcpy(exe->names[i], name, len);
    val->op = v->op;
    val->dtype = v->dtype;
    val->words = rlxv_dtype_words(v->dtype);
    val->alias = i;
    val->param_slot = -1;
    if (!val->words)
        return rlx_kit_fail(host, RLX_ERR_UNSUPPORTED,
                            "vulkan compile: node '%s' has dtype %d, which "
                            "the Vulkan backend does not know. Fix: cast it "
                            "to a dtype of rlx/types.h", name, (int)v->dtype);
    int arity = rlx_kit_op_arity(v->op);
    if (arity < -1 || (arity >= 0 && v->n_inputs != (uint32_t)arity) ||
        (arity == -1 && v->n_inputs == 0) || (v->n_inputs && !v->inputs))
        return rlx_kit_fail(host, RLX_ERR_UNSUPPORTED,
                            "vulkan compile: node '%s' is op %s (%d) with %u "
                            "inputs, which the Vulkan backend does not "
                            "execute. Fix: choose another backend",
                            name, rlx_kit_op_name(v->op), (int)v->op,
                            (unsigned)v->n_inputs);
    for (uint32_t j = 0; j < v->n_inputs; j++)
        if (v->inputs[j] >= i)
            return rlx_kit_fail(host, RLX_ERR_INVALID_ARGUMENT,
                                "vulkan compile: node '%s' reads node %u, "
                                "which does not come after it." FIX_REPORT,
                                name, (unsigned)v->inputs[j]);
    size_t c = 1;
    if (v->rank > 16 || (v->rank && !v->shape))
        return rlx_kit_fail(host, RLX_ERR_UNSUPPORTED,
                            "vulkan compile: node '%s' has rank %u; the "
                            "Vulkan backend takes at most 16. Fix: reshape "
                            "to fewer dims", name, (unsigned)v->rank);
    for (uint32_t d = 0; d < v->rank; d++) {
        if (v->shape[d] < 0 || (v->shape[d] && c > (UINT32_MAX / 2) /
                                                       (size_t)v->shape[d]))
            return rlx_kit_fail(host, RLX_ERR_UNSUPPORTED,
                                "vulkan compile: node '%s' has more than "
                                "2^31 elements or a negative dim. Fix: "
                                "split the tensor", name);
        c *= (size_t)v->shape[d];
    }
    val->count = c;
    val->bytes = (VkDeviceSize)c * val->words * 4;
    if (v->op == RLX_OP_RESHAPE)
        val->alias = exe->values[v->inputs[0]].alias;
    return RLX_OK;
}

static rlx_status plan_node(rlxv_ctx *ctx, const rlx_graph_view *g,
                            uint32_t i, rlx_executable *exe)
{
    if (exe->values[i].fused)
        return RLX_OK; /* planned at its chain's end (vk_plan_qfuse.c) */
    if (exe->values[i].qconv) {
        uint32_t c = exe->values[i].qconv - 1;
        rlxv_plan_ctx pc = {
            .host = ctx->vk->host, .ctx = ctx, .g = g, .exe = exe, .i = c,
            .v = g->nodes[c], .round = RLXV_ROUND_NONE,
            .name = exe->names[c], .at_chain_end = 1 };
        return rlxv_plan_conv(&pc);
    }
    rlxv_plan_ctx pc = {
        .host = ctx->vk->host, .ctx = ctx, .g = g, .exe = exe, .i = i,
        .v = g->nodes[i], .round = round_of(g->nodes[i]->dtype),
        .name = exe->names[i] };
    switch (pc.v->op) {
    case RLX_OP_INPUT: case RLX_OP_PARAM: case RLX_OP_CONSTANT:
    case RLX_OP_FILL: case RLX_OP_RESHAPE:
        return RLX_OK;
    case RLX_OP_MATMUL: case RLX_OP_MATMUL_INTEGER:
        return rlxv_plan_matmul(&pc);
    case RLX_OP_QUANTIZE_LINEAR: case RLX_OP_DEQUANTIZE_LINEAR:
        return rlxv_plan_quant(&pc);
    case RLX_OP_SOFTMAX: case RLX_OP_LAYER_NORM: case RLX_OP_RMS_NORM:
        return rlxv_plan_rows(&pc);
    case RLX_OP_REDUCE_SUM: case RLX_OP_REDUCE_MEAN: case RLX_OP_REDUCE_MAX:
    case RLX_OP_REDUCE_MIN: case RLX_OP_REDUCE_PROD: case RLX_OP_REDUCE_L1:
    case RLX_OP_REDUCE_L2: case RLX_OP_REDUCE_LOG_SUM_EXP:
    case RLX_OP_REDUCE_SUM_SQUARE:
        return rlxv_plan_reduce(&pc);
    case RLX_OP_TRANSPOSE: case RLX_OP_CONCAT: case RLX_OP_SLICE:
    case RLX_OP_GATHER:
        return rlxv_plan_movement(&pc);
    case RLX_OP_CONV: case RLX_OP_CONV_TRANSPOSE: case RLX_OP_CONV_INTEGER:
        return rlxv_plan_conv(&pc);
    case RLX_OP_MAX_POOL: case RLX_OP_AVG_POOL: case RLX_OP_LP_POOL:
    case RLX_OP_MAX_POOL_INDEX:
        return rlxv_plan_pool(&pc);
    case RLX_OP_BATCH_NORM: case RLX_OP_INSTANCE_NORM:
    case RLX_OP_GROUP_NORM:
        return rlxv_plan_chnorm(&pc);
    case RLX_OP_RESIZE:
        return rlxv_plan_resize(&pc);
    case RLX_OP_GRID_SAMPLE:
        return rlxv_plan_grid_sample(&pc);
    case RLX_OP_DET:
        return rlxv_plan_det(&pc);
    case RLX_OP_ROI_ALIGN:
        return rlxv_plan_roi_align(&pc);
    case RLX_OP_EQUAL: case RLX_OP_LESS: case RLX_OP_LESS_EQUAL:
    case RLX_OP_GREATER: case RLX_OP_GREATER_EQUAL: case RLX_OP_LOGICAL_AND:
    case RLX_OP_LOGICAL_OR: case RLX_OP_LOGICAL_XOR: case RLX_OP_LOGICAL_NOT:
    case RLX_OP_ISNAN: case RLX_OP_ISINF: case RLX_OP_WHERE:
        return rlxv_plan_logic(&pc);
    case RLX_OP_PAD: case RLX_OP_EXPAND: case RLX_OP_TILE:
    case RLX_OP_STRIDED_SLICE: case RLX_OP_ARGMAX: case RLX_OP_ARGMIN:
    case RLX_OP_RANGE: case RLX_OP_TRILU: case RLX_OP_NON_ZERO:
        return rlxv_plan_index(&pc);
    case RLX_OP_GATHER_ELEMENTS: case RLX_OP_GATHER_ND:
    case RLX_OP_SCATTER_ELEMENTS: case RLX_OP_SCATTER_ND: case RLX_OP_CUMSUM:
    case RLX_OP_TOPK: case RLX_OP_ONE_HOT:
        return rlxv_plan_gather(&pc);
    default:
        return rlxv_plan_elementwise(&pc);
    }
}

/* Bind slot lists to nodes; inputs and outputs get staging space. */
static rlx_status bind_slots(const rlx_host *host, const rlx_graph_view *g,
                             rlx_executable *exe, VkDeviceSize *staging)
{
    exe->n_inputs = g->n_inputs;
    exe->n_params = g->n_params;
    exe->n_outputs = g->n_outputs;
    exe->inputs = calloc(g->n_inputs + 1, sizeof *exe->inputs);
    exe->outputs = calloc(g->n_outputs + 1, sizeof *exe->outputs);
    exe->param_nodes = calloc(g->n_params + 1, sizeof *exe->param_nodes);
    exe->bound = calloc(g->n_params + 1, sizeof *exe->bound);
    if (!exe->inputs || !exe->outputs || !exe->param_nodes || !exe->bound)
        return oom(host);
    if ((g->n_inputs && !g->inputs) || (g->n_params && !g->params) ||
        (g->n_outputs && !g->outputs))
        return rlx_host_report(host, RLX_ERR_INVALID_ARGUMENT,
                               "vulkan compile: a slot list is NULL."
                               FIX_REPORT);
    VkDeviceSize off = ERR_BYTES;
    for (uint32_t s = 0; s < g->n_inputs; s++) {
        uint32_t n = g->inputs[s];
        if (n >= exe->n_nodes || exe->values[n].op != RLX_OP_INPUT)
            return rlx_kit_fail(host, RLX_ERR_INVALID_ARGUMENT,
                                "vulkan compile: input slot %u names node "
                                "%u, not an input." FIX_REPORT, (unsigned)s,
                                (unsigned)n);
        exe->inputs[s].node = n;
        exe->inputs[s].staging = off;
        off += (exe->values[n].bytes + 255) & ~(VkDeviceSize)255;
    }
    for (uint32_t s = 0; s < g->n_params; s++) {
        uint32_t n = g->params[s];
        if (n >= exe->n_nodes || exe->values[n].op != RLX_OP_PARAM)
            return rlx_kit_fail(host, RLX_ERR_INVALID_ARGUMENT,
                                "vulkan compile: param slot %u names node "
                                "%u, not a param." FIX_REPORT, (unsigned)s,
                                (unsigned)n);
        exe->param_nodes[s] = n;
        exe->values[n].param_slot = (int)s;
    }
    for (uint32_t s = 0; s < g->n_outputs; s++) {
        uint32_t n = g->outputs[s];
        if (n >= exe->n_nodes)
            return rlx_kit_fail(host, RLX_ERR_INVALID_ARGUMENT,
                                "vulkan compile: output %u names node %u of "
                                "%u." FIX_REPORT, (unsigned)s, (unsigned)n,
                                (unsigned)exe->n_nodes);
        exe->outputs[s].node = n;
        exe->outputs[s].staging = off;
        off += (exe->values[n].bytes + 255) & ~(VkDeviceSize)255;
    }
    *staging = off;
    return RLX_OK;
}

/* Constants and fills: widen on the host and upload once. */
static rlx_status upload_sources(rlxv_ctx *ctx, const rlx_graph_view *g,
                                 rlx_executable *exe)
{
    const rlx_host *host = ctx->vk->host;
    for (uint32_t i = 0; i < exe->n_nodes; i++) {
        const rlx_node_view *v = g->nodes[i];
        rlxv_value *val = &exe->values[i];
        if ((v->op != RLX_OP_CONSTANT && v->op != RLX_OP_FILL) || !val->count)
            continue;
        uint32_t *w = malloc(val->bytes);
        if (!w)
            return oom(host);
        if (v->op == RLX_OP_CONSTANT) {
            if (!v->data) {
                free(w);
                return rlx_kit_fail(host, RLX_ERR_INVALID_ARGUMENT,
                                    "vulkan compile: constant '%s' has no "
                                    "data." FIX_REPORT, exe->names[i]);
            }
            rlxv_widen(v->dtype, v->data, w, val->count);
        } else {
            double value = v->n_float_attrs && v->float_attrs
                               ? v->float_attrs[RLX_ATTR_FILL_VALUE] : 0.0;
            uint32_t s[2];
            rlxv_scalar_words(v->dtype, value, s);
            for (size_t e = 0; e < val->count; e++)
                for (uint32_t k = 0; k < val->words; k++)
                    w[e * val->words + k] = s[k];
        }
        rlx_status st = rlxv_upload(ctx, exe->arena.buf, val->offset, w,
                                       val->bytes);
        free(w);
        if (st != RLX_OK)
            return st;
    }
    for (uint32_t k = 0; k < exe->n_aux; k++) {
        const rlxv_aux *a = &exe->aux[k];
        rlx_status st = a->data ? rlxv_upload(ctx, exe->arena.buf,
                                                 a->offset, a->data, a->bytes)
                                : RLX_OK;
        if (st != RLX_OK)
            return st;
    }
    return RLX_OK;
}

static rlx_status build(rlxv_ctx *ctx, const rlx_graph_view *g,
                        rlx_executable *exe)
{
    const rlx_host *host = ctx->vk->host;
    rlx_status st;
    exe->n_nodes = g->n_nodes;
    exe->values = calloc(g->n_nodes + 1, sizeof *exe->values);
    exe->names = calloc(g->n_nodes + 1, sizeof *exe->names);
    if (!exe->values || !exe->names)
        return oom(host);
    for (uint32_t i = 0; i < g->n_nodes; i++)
        if ((st = value_init(host, g, i, exe)) != RLX_OK)
            return st;
    VkDeviceSize staging = 0;
    if ((st = bind_slots(host, g, exe, &staging)) != RLX_OK)
        return st;

    VkDeviceSize align = ctx->info->props.limits.minStorageBufferOffsetAlignment;
    if (align < 256)
        align = 256;
    VkDeviceSize off = ERR_BYTES;
    for (uint32_t i = 0; i < exe->n_nodes; i++) {
        rlxv_value *val = &exe->values[i];
        if (val->alias != i || val->param_slot >= 0)
            continue;
        off = (off + align - 1) / align * align;
        val->offset = off;
        off += val->bytes ? val->bytes : 16;
    }
    exe->arena_end = off;
    for (uint32_t i = 0; i < exe->n_nodes; i++)
        if ((st = plan_node(ctx, g, i, exe)) != RLX_OK)
            return st;
    unsigned n_convi = 0, n_fused = 0;
    for (uint32_t i = 0; i < exe->n_nodes; i++) {
        n_convi += exe->values[i].op == RLX_OP_CONV_INTEGER;
        n_fused += exe->values[i].qconv != 0;
    }
    if (n_convi)
        rlx_kit_log(host, RLX_LOG_DEBUG,
                    "vulkan: %u conv_integer, %u with their requantization "
                    "fused", n_convi, n_fused);

    if ((st = rlxv_mem_create(ctx, exe->arena_end, 0, &exe->arena)) !=
            RLX_OK ||
        (st = rlxv_mem_create(ctx, staging, 1, &exe->staging)) != RLX_OK ||
        (st = upload_sources(ctx, g, exe)) != RLX_OK)
        return st;

    const VkDescriptorPoolSize ps = {
        .type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
        .descriptorCount = 5 * (exe->n_dispatch + 1) };
    const VkDescriptorPoolCreateInfo dpi = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
        .maxSets = exe->n_dispatch + 1, .poolSizeCount = 1,
        .pPoolSizes = &ps };
    VkResult r = ctx->fn.vkCreateDescriptorPool(ctx->dev, &dpi, NULL,
                                                &exe->dpool);
    if (r != VK_SUCCESS) {
        exe->dpool = VK_NULL_HANDLE;
        return rlxv_fail_vk(ctx, r, "vkCreateDescriptorPool");
    }
    for (uint32_t k = 0; k < exe->n_dispatch; k++) {
        const VkDescriptorSetAllocateInfo ai = {
            .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
            .descriptorPool = exe->dpool, .descriptorSetCount = 1,
            .pSetLayouts = &ctx->set_layout };
        if ((r = ctx->fn.vkAllocateDescriptorSets(ctx->dev, &ai,
                                                  &exe->dispatch[k].set)))
            return rlxv_fail_vk(ctx, r, "vkAllocateDescriptorSets");
        VkPipeline p;
        if ((st = rlxv_pipeline(ctx, exe->dispatch[k].pipe, &p)) != RLX_OK)
            return st;
    }
    const VkCommandPoolCreateInfo pci = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
        .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
        .queueFamilyIndex = ctx->info->queue_family };
    if ((r = ctx->fn.vkCreateCommandPool(ctx->dev, &pci, NULL, &exe->pool))) {
        exe->pool = VK_NULL_HANDLE;
        return rlxv_fail_vk(ctx, r, "vkCreateCommandPool");
    }
    const VkCommandBufferAllocateInfo cai = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
        .commandPool = exe->pool, .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
        .commandBufferCount = 1 };
    if ((r = ctx->fn.vkAllocateCommandBuffers(ctx->dev, &cai, &exe->cb)))
        return rlxv_fail_vk(ctx, r, "vkAllocateCommandBuffers");
    const VkFenceCreateInfo fci = { .sType =
                                        VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
    if ((r = ctx->fn.vkCreateFence(ctx->dev, &fci, NULL, &exe->fence))) {
        exe->fence = VK_NULL_HANDLE;
        return rlxv_fail_vk(ctx, r, "vkCreateFence");
    }
    return RLX_OK;
}

rlx_status rlxv_compile(void *backend, const rlx_graph_view *graph,
                           const rlx_compile_options *options,
                           rlx_executable **out)
{
    rlx__vk *vk = backend;
    if (!graph || !out ||
        !RLX_HAS_FIELD(graph->struct_size, rlx_graph_view, outputs) ||
        (graph->n_nodes && !graph->nodes))
        return rlx_host_report(vk->host, RLX_ERR_INVALID_ARGUMENT,
                               "vulkan compile: missing or truncated graph "
                               "view." FIX_REPORT);
    uint32_t index = 0;
    if (options && RLX_HAS_FIELD(options->struct_size, rlx_compile_options,
                                 device_index))
        index = options->device_index;
    /* Precision: f32 stays strict; the shaders use no reduced modes. */
    rlxv_ctx *ctx;
    rlx_status st = rlxv_context(vk, index, &ctx);
    if (st != RLX_OK)
        return st;
    rlx_executable *exe = calloc(1, sizeof *exe);
    if (!exe)
        return oom(vk->host);
    exe->ctx = ctx;
    exe->options = options;
    st = build(ctx, graph, exe);
    exe->options = NULL; /* the core's, valid during compile only */
    if (st != RLX_OK) {
        rlxv_executable_destroy(backend, exe);
        return st;
    }
    *out = exe;
    return RLX_OK;
}

void rlxv_executable_destroy(void *backend, rlx_executable *exe)
{
    (void)backend;
    if (!exe)
        return;
    rlxv_ctx *c = exe->ctx;
    if (exe->fence)
        c->fn.vkDestroyFence(c->dev, exe->fence, NULL);
    if (exe->pool)
        c->fn.vkDestroyCommandPool(c->dev, exe->pool, NULL);
    if (exe->dpool)
        c->fn.vkDestroyDescriptorPool(c->dev, exe->dpool, NULL);
    rlxv_mem_destroy(c, &exe->arena);
    rlxv_mem_destroy(c, &exe->staging);
    for (uint32_t i = 0; exe->names && i < exe->n_nodes; i++)
        free(exe->names[i]);
    free(exe->names);
    free(exe->values);
    free(exe->dispatch);
    for (uint32_t k = 0; k < exe->n_aux; k++)
        free(exe->aux[k].data);
    free(exe->aux);
    free(exe->inputs);
    free(exe->outputs);
    free(exe->param_nodes);
    free(exe->bound);
    free(exe);
}
