/*
 * vk_context.c - one logical device per physical device, made on first
 * use: its compute queue, the descriptor-set and pipeline layouts every
 * shader shares, a pipeline cache, and the pipelines themselves, each
 * created once on first use and kept for the backend's life.
 */
#include <stdlib.h>
#include <string.h>

#include "vk_internal.h"
#include "vk_shaders.h"

static void ctx_free(rlxv_ctx *c)
{
    if (c->dev) {
        for (int p = 0; p < RLXV_PIPE_COUNT; p++)
            if (c->pipes[p])
                c->fn.vkDestroyPipeline(c->dev, c->pipes[p], NULL);
        if (c->cache)
            c->fn.vkDestroyPipelineCache(c->dev, c->cache, NULL);
        if (c->layout)
            c->fn.vkDestroyPipelineLayout(c->dev, c->layout, NULL);
        if (c->set_layout)
            c->fn.vkDestroyDescriptorSetLayout(c->dev, c->set_layout, NULL);
        if (c->pool)
            c->fn.vkDestroyCommandPool(c->dev, c->pool, NULL);
        c->fn.vkDestroyDevice(c->dev, NULL);
    }
    pthread_mutex_destroy(&c->lock);
    free(c);
}

void rlxv_context_destroy(rlxv_ctx *ctx)
{
    if (ctx->dev)
        ctx->fn.vkDeviceWaitIdle(ctx->dev);
    ctx_free(ctx);
}

static rlx_status ctx_init(rlxv_ctx *c)
{
    rlx__vk *vk = c->vk;
    const rlxv_device_info *d = c->info;
    const float prio = 1.0f;
    const VkDeviceQueueCreateInfo qci = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
        .queueFamilyIndex = d->queue_family, .queueCount = 1,
        .pQueuePriorities = &prio };
    VkPhysicalDeviceFeatures feat = { 0 };
    feat.shaderInt64 = d->has_int64 ? VK_TRUE : VK_FALSE;
    feat.shaderFloat64 = d->has_float64 ? VK_TRUE : VK_FALSE;
    /* integer dot products for matmul_integer, where the device has them */
    VkPhysicalDeviceShaderIntegerDotProductFeaturesKHR dot = {
        .sType =
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_INTEGER_DOT_PRODUCT_FEATURES_KHR,
        .shaderIntegerDotProduct = VK_TRUE };
    const char *const ext[] = {
        VK_KHR_SHADER_INTEGER_DOT_PRODUCT_EXTENSION_NAME };
    const VkDeviceCreateInfo dci = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
        .pNext = d->has_int_dot ? &dot : NULL,
        .queueCreateInfoCount = 1, .pQueueCreateInfos = &qci,
        .enabledExtensionCount = d->has_int_dot ? 1 : 0,
        .ppEnabledExtensionNames = d->has_int_dot ? ext : NULL,
        .pEnabledFeatures = &feat };
    VkResult r = vk->fn.vkCreateDevice(d->phys, &dci, NULL, &c->dev);
    if (r != VK_SUCCESS) {
        c->dev = VK_NULL_HANDLE;
        return rlxv_fail_vk(c, r, "vkCreateDevice");
    }
    const char *missing = NULL;
    if (rlxv_device_fns_load(&vk->fn, c->dev, &c->fn, &missing) != 0)
        return rlx_kit_fail(vk->host, RLX_ERR_UNAVAILABLE,
                            "vulkan:%u: the driver lacks %s. Fix: update "
                            "the Vulkan driver", (unsigned)c->index, missing);
    c->int64 = d->has_int64;
    c->float64 = d->has_float64;
    c->int_dot = d->has_int_dot;
    c->fn.vkGetDeviceQueue(c->dev, d->queue_family, 0, &c->queue);

    const VkCommandPoolCreateInfo pci = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
        .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT |
                 VK_COMMAND_POOL_CREATE_TRANSIENT_BIT,
        .queueFamilyIndex = d->queue_family };
    if ((r = c->fn.vkCreateCommandPool(c->dev, &pci, NULL, &c->pool)))
        return rlxv_fail_vk(c, r, "vkCreateCommandPool");

    VkDescriptorSetLayoutBinding b[5];
    for (uint32_t i = 0; i < 5; i++)
        b[i] = (VkDescriptorSetLayoutBinding){
            .binding = i, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
            .descriptorCount = 1, .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT };
    const VkDescriptorSetLayoutCreateInfo sci = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        .bindingCount = 5, .pBindings = b };
    if ((r = c->fn.vkCreateDescriptorSetLayout(c->dev, &sci, NULL,
                                               &c->set_layout)))
        return rlxv_fail_vk(c, r, "vkCreateDescriptorSetLayout");
    const VkPushConstantRange pcr = {
        .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT, .offset = 0,
        .size = RLXV_PUSH_WORDS * 4 };
    const VkPipelineLayoutCreateInfo lci = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
        .setLayoutCount = 1, .pSetLayouts = &c->set_layout,
        .pushConstantRangeCount = 1, .pPushConstantRanges = &pcr };
    if ((r = c->fn.vkCreatePipelineLayout(c->dev, &lci, NULL, &c->layout)))
        return rlxv_fail_vk(c, r, "vkCreatePipelineLayout");
    const VkPipelineCacheCreateInfo cci = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO };
    if ((r = c->fn.vkCreatePipelineCache(c->dev, &cci, NULL, &c->cache)))
        return rlxv_fail_vk(c, r, "vkCreatePipelineCache");
    return RLX_OK;
}

rlx_status rlxv_context(rlx__vk *vk, uint32_t index, rlxv_ctx **out)
{
    rlx_status st = rlxv_discover(vk);
    if (st != RLX_OK)
        return st;
    if (index >= vk->n_devices)
        return rlx_kit_fail(vk->host, RLX_ERR_INVALID_ARGUMENT,
                            "vulkan:%u does not exist: there %s %u Vulkan "
                            "device%s. Fix: use an index below %u (RLX_LOG="
                            "info lists them)", (unsigned)index,
                            vk->n_devices == 1 ? "is" : "are",
                            (unsigned)vk->n_devices,
                            vk->n_devices == 1 ? "" : "s",
                            (unsigned)vk->n_devices);
    pthread_mutex_lock(&vk->lock);
    if (!vk->ctx[index]) {
        rlxv_ctx *c = calloc(1, sizeof *c);
        if (!c) {
            pthread_mutex_unlock(&vk->lock);
            return rlx_kit_fail(vk->host, RLX_ERR_OUT_OF_MEMORY,
                                "vulkan: out of memory. Fix: free memory");
        }
        c->vk = vk;
        c->info = &vk->devices[index];
        c->index = index;
        pthread_mutex_init(&c->lock, NULL);
        st = ctx_init(c);
        if (st != RLX_OK) {
            ctx_free(c);
            pthread_mutex_unlock(&vk->lock);
            return st;
        }
        vk->ctx[index] = c;
    }
    *out = vk->ctx[index];
    pthread_mutex_unlock(&vk->lock);
    return RLX_OK;
}

rlx_status rlxv_pipeline(rlxv_ctx *c, rlxv_pipe pipe,
                            VkPipeline *out)
{
    pthread_mutex_lock(&c->lock);
    if (c->pipes[pipe]) {
        *out = c->pipes[pipe];
        pthread_mutex_unlock(&c->lock);
        return RLX_OK;
    }
    const rlxv_shader *s = &rlxv_shaders[pipe];
    rlx_status st = RLX_OK;
    const VkShaderModuleCreateInfo mci = {
        .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
        .codeSize = s->size, .pCode = s->code };
    VkShaderModule mod;
    VkResult r = c->fn.vkCreateShaderModule(c->dev, &mci, NULL, &mod);
    if (r != VK_SUCCESS) {
        pthread_mutex_unlock(&c->lock);
        return rlxv_fail_vk(c, r, "vkCreateShaderModule");
    }
    VkSpecializationMapEntry me[4];
    for (uint32_t i = 0; i < s->n_spec; i++)
        me[i] = (VkSpecializationMapEntry){ .constantID = i,
                                            .offset = 4 * i, .size = 4 };
    const VkSpecializationInfo si = {
        .mapEntryCount = s->n_spec, .pMapEntries = me,
        .dataSize = 4 * s->n_spec, .pData = s->spec };
    const VkComputePipelineCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = {
            .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
            .stage = VK_SHADER_STAGE_COMPUTE_BIT, .module = mod,
            .pName = "main", .pSpecializationInfo = s->n_spec ? &si : NULL },
        .layout = c->layout };
    r = c->fn.vkCreateComputePipelines(c->dev, c->cache, 1, &ci, NULL,
                                       &c->pipes[pipe]);
    c->fn.vkDestroyShaderModule(c->dev, mod, NULL);
    if (r != VK_SUCCESS) {
        c->pipes[pipe] = VK_NULL_HANDLE;
        st = rlxv_fail_vk(c, r, "vkCreateComputePipelines");
    } else {
        *out = c->pipes[pipe];
    }
    pthread_mutex_unlock(&c->lock);
    return st;
}
