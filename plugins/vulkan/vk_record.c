/*
 * vk_record.c - write every dispatch's descriptor set and record the
 * executable's one command buffer: clear the error flag, copy inputs in
 * from staging, run the dispatches with a barrier after each, copy
 * outputs back to staging. Runs resubmit it as is; it is recorded again
 * only when the application binds different param buffers.
 */
#include <string.h>

#include "vk_internal.h"

static void locate(const rlx_executable *exe, rlx_buffer *const *params,
                   uint32_t node, VkBuffer *buf, VkDeviceSize *off,
                   VkDeviceSize *range)
{
    if (node == RLXV_BIND_NONE || node == RLXV_BIND_ERR) {
        *buf = exe->arena.buf;
        *off = 0;
        *range = 16;
        return;
    }
    if (RLXV_BIND_IS_AUX(node)) {
        const rlxv_aux *a = &exe->aux[node - RLXV_BIND_AUX0];
        *buf = exe->arena.buf;
        *off = a->offset;
        *range = a->bytes;
        return;
    }
    const rlxv_value *v = &exe->values[exe->values[node].alias];
    if (v->param_slot >= 0) {
        *buf = params[v->param_slot]->m.buf;
        *off = 0;
    } else {
        *buf = exe->arena.buf;
        *off = v->offset;
    }
    *range = exe->values[node].bytes ? exe->values[node].bytes : 16;
}

static void barrier(const rlxv_ctx *c, VkCommandBuffer cb,
                    VkPipelineStageFlags src, VkAccessFlags src_access,
                    VkPipelineStageFlags dst, VkAccessFlags dst_access)
{
    const VkMemoryBarrier mb = { .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                                 .srcAccessMask = src_access,
                                 .dstAccessMask = dst_access };
    c->fn.vkCmdPipelineBarrier(cb, src, dst, 0, 1, &mb, 0, NULL, 0, NULL);
}

rlx_status rlxv_record(rlx_executable *exe, rlx_buffer *const *params)
{
    rlxv_ctx *c = exe->ctx;
    for (uint32_t k = 0; k < exe->n_dispatch; k++) {
        rlxv_dispatch *d = &exe->dispatch[k];
        VkDescriptorBufferInfo bi[5];
        VkWriteDescriptorSet w[5];
        for (uint32_t b = 0; b < 5; b++) {
            locate(exe, params, d->bind[b], &bi[b].buffer, &bi[b].offset,
                   &bi[b].range);
            w[b] = (VkWriteDescriptorSet){
                .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                .dstSet = d->set, .dstBinding = b, .descriptorCount = 1,
                .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                .pBufferInfo = &bi[b] };
        }
        c->fn.vkUpdateDescriptorSets(c->dev, 5, w, 0, NULL);
    }

    VkCommandBuffer cb = exe->cb;
    VkResult r = c->fn.vkResetCommandBuffer(cb, 0);
    const VkCommandBufferBeginInfo bi = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO };
    if (r == VK_SUCCESS)
        r = c->fn.vkBeginCommandBuffer(cb, &bi);
    if (r != VK_SUCCESS)
        return rlxv_fail_vk(c, r, "vkBeginCommandBuffer");

    const VkPipelineStageFlags xfer = VK_PIPELINE_STAGE_TRANSFER_BIT;
    const VkPipelineStageFlags comp = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
    barrier(c, cb, VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_WRITE_BIT,
            xfer, VK_ACCESS_TRANSFER_READ_BIT);
    if (exe->uses_err)
        c->fn.vkCmdFillBuffer(cb, exe->arena.buf, 0, 16, 0);
    for (uint32_t s = 0; s < exe->n_inputs; s++) {
        const rlxv_value *v = &exe->values[exe->inputs[s].node];
        if (!v->bytes)
            continue;
        const VkBufferCopy reg = { .srcOffset = exe->inputs[s].staging,
                                   .dstOffset = v->offset, .size = v->bytes };
        c->fn.vkCmdCopyBuffer(cb, exe->staging.buf, exe->arena.buf, 1, &reg);
    }
    barrier(c, cb, xfer, VK_ACCESS_TRANSFER_WRITE_BIT, comp,
            VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);

    VkPipelineStageFlags last = xfer;
    for (uint32_t k = 0; k < exe->n_dispatch; k++) {
        const rlxv_dispatch *d = &exe->dispatch[k];
        c->fn.vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE,
                                c->pipes[d->pipe]);
        c->fn.vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE,
                                      c->layout, 0, 1, &d->set, 0, NULL);
        c->fn.vkCmdPushConstants(cb, c->layout, VK_SHADER_STAGE_COMPUTE_BIT,
                                 0, RLXV_PUSH_WORDS * 4, d->push);
        c->fn.vkCmdDispatch(cb, d->groups[0], d->groups[1], d->groups[2]);
        barrier(c, cb, comp, VK_ACCESS_SHADER_WRITE_BIT, comp | xfer,
                VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                    VK_ACCESS_TRANSFER_READ_BIT);
        last = comp;
    }
    (void)last;

    for (uint32_t s = 0; s < exe->n_outputs; s++) {
        VkBuffer buf;
        VkDeviceSize off, range;
        uint32_t n = exe->outputs[s].node;
        if (!exe->values[n].bytes)
            continue;
        locate(exe, params, n, &buf, &off, &range);
        const VkBufferCopy reg = { .srcOffset = off,
                                   .dstOffset = exe->outputs[s].staging,
                                   .size = exe->values[n].bytes };
        c->fn.vkCmdCopyBuffer(cb, buf, exe->staging.buf, 1, &reg);
    }
    if (exe->uses_err) {
        const VkBufferCopy reg = { .srcOffset = 0, .dstOffset = 0,
                                   .size = 16 };
        c->fn.vkCmdCopyBuffer(cb, exe->arena.buf, exe->staging.buf, 1, &reg);
    }
    barrier(c, cb, xfer, VK_ACCESS_TRANSFER_WRITE_BIT,
            VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
    if ((r = c->fn.vkEndCommandBuffer(cb)) != VK_SUCCESS)
        return rlxv_fail_vk(c, r, "vkEndCommandBuffer");
    for (uint32_t s = 0; s < exe->n_params; s++)
        exe->bound[s] = params[s];
    exe->recorded = 1;
    return RLX_OK;
}
