/*
 * vk_bench_sgemm.c - f32 matmul throughput of the Vulkan backend's
 * shaders, timed on the GPU with timestamp queries (no host transfers
 * in the timed region), with a sampled check against a double-precision
 * reference. Uses the plugin's own internals (context, pipelines,
 * memory), so it measures exactly the code rlx runs.
 *
 * usage: vk_bench_sgemm [N ...]     (default 1024 2048 4096)
 * env:   RLX_VULKAN_DEVICE picks the device as in the plugin.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vk_internal.h"

static rlx_status report(const rlx_host *h, rlx_status st, const char *msg)
{
    (void)h;
    fprintf(stderr, "error: %s\n", msg);
    return st;
}

static void log_msg(const rlx_host *h, rlx_log_level l, const char *msg)
{
    (void)h;
    (void)l;
    printf("# %s\n", msg);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static uint64_t rng = 88172645463325252ull;
static float frand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (float)((rng >> 40) / (double)(1ull << 24)) * 2.0f - 1.0f;
}

/* Time REPS dispatches of PIPE on C = A B (n x n); returns ms per
 * product (median of 5 submissions), or -1. */
static double time_pipe(rlx__vk_ctx *c, rlx__vk_pipe pipe, uint32_t n,
                        rlx__vk_mem *mc, rlx__vk_mem *ma, rlx__vk_mem *mb,
                        int reps)
{
    VkPipeline pl;
    if (rlx__vk_pipeline(c, pipe, &pl) != RLX_OK)
        return -1;
    uint32_t push[RLX_VK_PUSH_WORDS] = { 0 };
    uint32_t groups[3] = { n / 128, n / 128, 1 };
    if (pipe == RLX_VK_PIPE_MATMUL) {
        uint32_t g[] = { n, n, n, n, 1, n, 1, 0, 0 };
        memcpy(push, g, sizeof g);
        groups[0] = groups[1] = (n + 15) / 16;
    } else {
        uint32_t g[] = { n, n, n, 0, 0, 0, 0 };
        memcpy(push, g, sizeof g);
    }
    VkDescriptorPool dp;
    VkDescriptorSet set;
    VkDescriptorPoolSize ps = { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 5 };
    VkDescriptorPoolCreateInfo dpi = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
        .maxSets = 1, .poolSizeCount = 1, .pPoolSizes = &ps };
    c->fn.vkCreateDescriptorPool(c->dev, &dpi, NULL, &dp);
    VkDescriptorSetAllocateInfo ai = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
        .descriptorPool = dp, .descriptorSetCount = 1,
        .pSetLayouts = &c->set_layout };
    c->fn.vkAllocateDescriptorSets(c->dev, &ai, &set);
    rlx__vk_mem *bufs[5] = { mc, ma, mb, mc, mc };
    VkDescriptorBufferInfo bi[5];
    VkWriteDescriptorSet w[5];
    for (int i = 0; i < 5; i++) {
        bi[i] = (VkDescriptorBufferInfo){ bufs[i]->buf, 0, VK_WHOLE_SIZE };
        w[i] = (VkWriteDescriptorSet){
            .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set,
            .dstBinding = (uint32_t)i, .descriptorCount = 1,
            .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
            .pBufferInfo = &bi[i] };
    }
    c->fn.vkUpdateDescriptorSets(c->dev, 5, w, 0, NULL);
    VkQueryPool qp;
    VkQueryPoolCreateInfo qi = {
        .sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
        .queryType = VK_QUERY_TYPE_TIMESTAMP, .queryCount = 2 };
    c->fn.vkCreateQueryPool(c->dev, &qi, NULL, &qp);
    VkCommandBuffer cb;
    VkCommandBufferAllocateInfo cai = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
        .commandPool = c->pool, .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
        .commandBufferCount = 1 };
    c->fn.vkAllocateCommandBuffers(c->dev, &cai, &cb);
    VkFence fence;
    VkFenceCreateInfo fci = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
    c->fn.vkCreateFence(c->dev, &fci, NULL, &fence);
    VkCommandBufferBeginInfo cbi = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO };
    c->fn.vkBeginCommandBuffer(cb, &cbi);
    c->fn.vkCmdResetQueryPool(cb, qp, 0, 2);
    c->fn.vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pl);
    c->fn.vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE,
                                  c->layout, 0, 1, &set, 0, NULL);
    c->fn.vkCmdPushConstants(cb, c->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0,
                             sizeof push, push);
    c->fn.vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, qp, 0);
    VkMemoryBarrier bar = { .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                           .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
                           .dstAccessMask = VK_ACCESS_SHADER_WRITE_BIT };
    for (int r = 0; r < reps; r++) {
        c->fn.vkCmdDispatch(cb, groups[0], groups[1], groups[2]);
        c->fn.vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                                   VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0,
                                   1, &bar, 0, NULL, 0, NULL);
    }
    c->fn.vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, qp,
                              1);
    c->fn.vkEndCommandBuffer(cb);
    double ms[6];
    int ok = 1;
    for (int t = 0; t < 6 && ok; t++) { /* first is a warm-up */
        if (rlx__vk_submit_wait(c, cb, fence) != RLX_OK) {
            ok = 0;
            break;
        }
        uint64_t ts[2];
        c->fn.vkGetQueryPoolResults(c->dev, qp, 0, 2, sizeof ts, ts, 8,
                                    VK_QUERY_RESULT_64_BIT |
                                        VK_QUERY_RESULT_WAIT_BIT);
        ms[t] = (double)(ts[1] - ts[0]) *
                c->info->props.limits.timestampPeriod / 1e6 / reps;
    }
    c->fn.vkDestroyFence(c->dev, fence, NULL);
    c->fn.vkFreeCommandBuffers(c->dev, c->pool, 1, &cb);
    c->fn.vkDestroyQueryPool(c->dev, qp, NULL);
    c->fn.vkDestroyDescriptorPool(c->dev, dp, NULL);
    if (!ok)
        return -1;
    qsort(ms + 1, 5, sizeof *ms, cmp_double);
    return ms[3];
}

int main(int argc, char **argv)
{
    rlx_host host = { .struct_size = sizeof host,
                      .abi_version = RLX_ABI_VERSION, .report = report,
                      .log = log_msg };
    rlx__vk *vk = calloc(1, sizeof *vk);
    vk->host = &host;
    pthread_mutex_init(&vk->lock, NULL);
    rlx__vk_ctx *c;
    if (rlx__vk_context(vk, 0, &c) != RLX_OK)
        return 1;
    printf("device: %s (%s)\n", c->info->props.deviceName, c->info->driver);
    uint32_t sizes[8] = { 1024, 2048, 4096 };
    int ns = 3;
    if (argc > 1) {
        ns = 0;
        for (int i = 1; i < argc && ns < 8; i++)
            sizes[ns++] = (uint32_t)atoi(argv[i]);
    }
    size_t shmem = c->info->props.limits.maxComputeSharedMemorySize;
    printf("%-6s %-12s %10s %10s %10s\n", "n", "shader", "ms", "GFLOP/s",
           "max rel err");
    int status = 0;
    for (int si = 0; si < ns; si++) {
        uint32_t n = sizes[si];
        size_t bytes = (size_t)n * n * 4;
        float *a = malloc(bytes), *b = malloc(bytes), *out = malloc(bytes);
        for (size_t i = 0; i < (size_t)n * n; i++) {
            a[i] = frand();
            b[i] = frand();
        }
        rlx__vk_mem ma, mb, mc;
        if (rlx__vk_mem_create(c, bytes, 0, &ma) ||
            rlx__vk_mem_create(c, bytes, 0, &mb) ||
            rlx__vk_mem_create(c, bytes, 0, &mc) ||
            rlx__vk_upload(c, ma.buf, 0, a, bytes) ||
            rlx__vk_upload(c, mb.buf, 0, b, bytes))
            return 1;
        const rlx__vk_pipe pipes[] = { RLX_VK_PIPE_SGEMM,
                                       RLX_VK_PIPE_SGEMM_BK16,
                                       RLX_VK_PIPE_MATMUL };
        const char *names[] = { "sgemm-bk8", "sgemm-bk16", "general" };
        const size_t need[] = { 2 * 8 * (33 + 32) * 16,
                                2 * 16 * (33 + 32) * 16, 2 * 16 * 17 * 4 };
        for (int p = 0; p < 3; p++) {
            if (need[p] > shmem || (p < 2 && n % 128))
                continue;
            int reps = n >= 4096 ? 10 : n >= 2048 ? 20 : 50;
            if (p == 2 && n >= 4096)
                reps = 3;
            double ms = time_pipe(c, pipes[p], n, &mc, &ma, &mb, reps);
            if (ms < 0) {
                status = 1;
                continue;
            }
            rlx__vk_download(c, mc.buf, 0, out, bytes);
            double worst = 0;
            for (int s = 0; s < 256; s++) {
                size_t i = (size_t)((s * 7919u) % n);
                size_t j = (size_t)((frand() * 0.5 + 0.5) * (n - 1));
                double ref = 0, mag = 0;
                for (uint32_t k = 0; k < n; k++) {
                    ref += (double)a[i * n + k] * b[(size_t)k * n + j];
                    mag += fabs((double)a[i * n + k] * b[(size_t)k * n + j]);
                }
                double e = fabs(out[i * n + j] - ref) / (mag > 0 ? mag : 1);
                if (!(e <= worst))
                    worst = e;
            }
            if (!(worst < 1e-5))
                status = 1;
            printf("%-6u %-12s %10.3f %10.1f %10.2e\n", (unsigned)n,
                   names[p], ms, 2.0 * n * (double)n * n / ms / 1e6, worst);
            fflush(stdout);
        }
        rlx__vk_mem_destroy(c, &ma);
        rlx__vk_mem_destroy(c, &mb);
        rlx__vk_mem_destroy(c, &mc);
        free(a);
        free(b);
        free(out);
    }
    rlx__vk_teardown(vk);
    free(vk);
    return status;
}
