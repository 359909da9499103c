/*
 * vk_memory.c - device memory: buffers with their own allocation
 * (device-local for values and params, host-visible for staging), and
 * blocking one-shot copies between host and device for params, constants
 * and buffer_read.
 */
#include <string.h>

#include "vk_internal.h"

static int pick_type(const rlxv_ctx *c, uint32_t bits, int host)
{
    const VkPhysicalDeviceMemoryProperties *mp = &c->info->mem;
    const VkMemoryPropertyFlags need =
        host ? VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                   VK_MEMORY_PROPERTY_HOST_COHERENT_BIT
             : VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
    const VkMemoryPropertyFlags nice =
        host ? VK_MEMORY_PROPERTY_HOST_CACHED_BIT : 0;
    int fallback = -1;
    for (uint32_t i = 0; i < mp->memoryTypeCount; i++) {
        if (!(bits & (1u << i)))
            continue;
        VkMemoryPropertyFlags f = mp->memoryTypes[i].propertyFlags;
        if ((f & need) != need)
            continue;
        if ((f & nice) == nice)
            return (int)i;
        if (fallback < 0)
            fallback = (int)i;
    }
    if (fallback < 0 && !host) /* no device-local type: take any */
        for (uint32_t i = 0; i < mp->memoryTypeCount && fallback < 0; i++)
            if (bits & (1u << i))
                fallback = (int)i;
    return fallback;
}

rlx_status rlxv_mem_create(rlxv_ctx *c, VkDeviceSize size,
                              int host_visible, rlxv_mem *out)
{
    memset(out, 0, sizeof *out);
    if (size < 16)
        size = 16;
    size = (size + 15) & ~(VkDeviceSize)15;
    const VkBufferCreateInfo bci = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
        .size = size,
        .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                 VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                 VK_BUFFER_USAGE_TRANSFER_DST_BIT,
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE };
    VkResult r = c->fn.vkCreateBuffer(c->dev, &bci, NULL, &out->buf);
    if (r != VK_SUCCESS) {
        out->buf = VK_NULL_HANDLE;
        return rlxv_fail_vk(c, r, "vkCreateBuffer");
    }
    VkMemoryRequirements req;
    c->fn.vkGetBufferMemoryRequirements(c->dev, out->buf, &req);
    int type = pick_type(c, req.memoryTypeBits, host_visible);
    if (type < 0) {
        rlxv_mem_destroy(c, out);
        return rlx_kit_fail(c->vk->host, RLX_ERR_UNSUPPORTED,
                            "vulkan:%u has no %s memory type for buffers. "
                            "Fix: use another device", (unsigned)c->index,
                            host_visible ? "host-visible" : "usable");
    }
    const VkMemoryAllocateInfo mai = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .allocationSize = req.size, .memoryTypeIndex = (uint32_t)type };
    r = c->fn.vkAllocateMemory(c->dev, &mai, NULL, &out->mem);
    if (r != VK_SUCCESS) {
        out->mem = VK_NULL_HANDLE;
        rlxv_mem_destroy(c, out);
        return rlxv_fail_vk(c, r, "vkAllocateMemory");
    }
    if ((r = c->fn.vkBindBufferMemory(c->dev, out->buf, out->mem, 0)) ||
        (host_visible &&
         (r = c->fn.vkMapMemory(c->dev, out->mem, 0, VK_WHOLE_SIZE, 0,
                                &out->map)))) {
        out->map = NULL;
        rlxv_mem_destroy(c, out);
        return rlxv_fail_vk(c, r, host_visible ? "vkMapMemory"
                                                  : "vkBindBufferMemory");
    }
    out->size = size;
    return RLX_OK;
}

void rlxv_mem_destroy(rlxv_ctx *c, rlxv_mem *m)
{
    if (m->buf)
        c->fn.vkDestroyBuffer(c->dev, m->buf, NULL);
    if (m->mem)
        c->fn.vkFreeMemory(c->dev, m->mem, NULL); /* unmaps too */
    memset(m, 0, sizeof *m);
}

rlx_status rlxv_submit_wait(rlxv_ctx *c, VkCommandBuffer cb,
                               VkFence fence)
{
    const VkSubmitInfo si = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                              .commandBufferCount = 1,
                              .pCommandBuffers = &cb };
    VkResult r = c->fn.vkResetFences(c->dev, 1, &fence);
    if (r == VK_SUCCESS) {
        pthread_mutex_lock(&c->lock);
        r = c->fn.vkQueueSubmit(c->queue, 1, &si, fence);
        pthread_mutex_unlock(&c->lock);
    }
    if (r != VK_SUCCESS)
        return rlxv_fail_vk(c, r, "vkQueueSubmit");
    r = c->fn.vkWaitForFences(c->dev, 1, &fence, VK_TRUE, UINT64_MAX);
    if (r != VK_SUCCESS)
        return rlxv_fail_vk(c, r, "vkWaitForFences");
    return RLX_OK;
}

/* One blocking copy between the staging buffer S and BUF. */
static rlx_status one_shot_copy(rlxv_ctx *c, VkBuffer src, VkDeviceSize so,
                                VkBuffer dst, VkDeviceSize dof, size_t n)
{
    VkCommandBuffer cb = VK_NULL_HANDLE;
    VkFence fence = VK_NULL_HANDLE;
    const VkCommandBufferAllocateInfo ai = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
        .commandPool = c->pool, .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
        .commandBufferCount = 1 };
    const VkFenceCreateInfo fci = { .sType =
                                        VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
    rlx_status st = RLX_OK;
    VkResult r;
    pthread_mutex_lock(&c->lock); /* the pool is shared */
    r = c->fn.vkAllocateCommandBuffers(c->dev, &ai, &cb);
    pthread_mutex_unlock(&c->lock);
    if (r != VK_SUCCESS)
        return rlxv_fail_vk(c, r, "vkAllocateCommandBuffers");
    if ((r = c->fn.vkCreateFence(c->dev, &fci, NULL, &fence))) {
        fence = VK_NULL_HANDLE;
        st = rlxv_fail_vk(c, r, "vkCreateFence");
        goto done;
    }
    const VkCommandBufferBeginInfo bi = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
        .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT };
    c->fn.vkBeginCommandBuffer(cb, &bi);
    const VkMemoryBarrier before = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
        .srcAccessMask = VK_ACCESS_HOST_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT,
        .dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT |
                         VK_ACCESS_TRANSFER_WRITE_BIT };
    c->fn.vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_HOST_BIT |
                                       VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                               VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &before,
                               0, NULL, 0, NULL);
    if (n) {
        const VkBufferCopy region = { .srcOffset = so, .dstOffset = dof,
                                      .size = n };
        c->fn.vkCmdCopyBuffer(cb, src, dst, 1, &region);
    }
    const VkMemoryBarrier after = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
        .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
        .dstAccessMask = VK_ACCESS_HOST_READ_BIT | VK_ACCESS_SHADER_READ_BIT };
    c->fn.vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT,
                               VK_PIPELINE_STAGE_HOST_BIT |
                                   VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                               0, 1, &after, 0, NULL, 0, NULL);
    if ((r = c->fn.vkEndCommandBuffer(cb))) {
        st = rlxv_fail_vk(c, r, "vkEndCommandBuffer");
        goto done;
    }
    st = rlxv_submit_wait(c, cb, fence);
done:
    if (fence)
        c->fn.vkDestroyFence(c->dev, fence, NULL);
    pthread_mutex_lock(&c->lock);
    c->fn.vkFreeCommandBuffers(c->dev, c->pool, 1, &cb);
    pthread_mutex_unlock(&c->lock);
    return st;
}

rlx_status rlxv_upload(rlxv_ctx *c, VkBuffer dst, VkDeviceSize off,
                          const void *src, size_t n)
{
    rlxv_mem s;
    rlx_status st = rlxv_mem_create(c, n, 1, &s);
    if (st != RLX_OK)
        return st;
    if (n)
        memcpy(s.map, src, n);
    st = one_shot_copy(c, s.buf, 0, dst, off, n);
    rlxv_mem_destroy(c, &s);
    return st;
}

rlx_status rlxv_download(rlxv_ctx *c, VkBuffer src, VkDeviceSize off,
                            void *dst, size_t n)
{
    rlxv_mem s;
    rlx_status st = rlxv_mem_create(c, n, 1, &s);
    if (st != RLX_OK)
        return st;
    st = one_shot_copy(c, src, off, s.buf, 0, n);
    if (st == RLX_OK && n)
        memcpy(dst, s.map, n);
    rlxv_mem_destroy(c, &s);
    return st;
}
