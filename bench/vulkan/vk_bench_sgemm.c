/*
 * vk_bench_sgemm.c - f32 matmul throughput of the Vulkan backend's
 * shaders, timed on the GPU with timestamp queries (no host transfers
 * in the timed region), with a sampled check against a double-precision
 * reference. Uses the plugin's own internals (context, pipelines,
 * memory), so it measures exactly the code rlx runs.
 *
 * Before timing, every sgemm variant is checked in full against a
 * double-precision reference on small batched products (odd sizes for
 * the checked variants), with the output poisoned first; and where the
 * driver has VK_KHR_pipeline_executable_properties, each pipeline's
 * compiler statistics (registers, local memory, ...) are printed.
 *
 * usage: vk_bench_sgemm [N ...]     (default 1024 2048 4096)
 * env:   RLX_VULKAN_DEVICE picks the device as in the plugin;
 *        RLX_BENCH_VARIANTS=name,name,... times only those (sgemm
 *        variant names as in vk_plan_matmul.c, or "general");
 *        RLX_BENCH_STATS=0 skips the pipeline statistics.
 * Exit status 1 if any check fails.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vk_internal.h"
#include "vk_shaders.h"

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

#define NV RLXV_SGEMM_VARIANTS
#define GENERAL NV /* index of the general shader in the tables below */

static const char *vname(int v)
{
    return v == GENERAL ? "general" : rlxv_sgemm_variants[v].name;
}

static rlxv_pipe vpipe(int v)
{
    return v == GENERAL ? RLXV_PIPE_MATMUL
                        : (rlxv_pipe)(RLXV_PIPE_SGEMM0 + v);
}

/* Push words and groups for C[batch] = A[batch] B[batch], row-major. */
static void setup(int v, uint32_t m, uint32_t n, uint32_t k, uint32_t batch,
                  uint32_t *push, uint32_t *groups)
{
    memset(push, 0, RLXV_PUSH_WORDS * 4);
    push[0] = m;
    push[1] = n;
    push[2] = k;
    groups[2] = batch;
    if (v == GENERAL) {
        push[3] = k;
        push[4] = 1;
        push[5] = n;
        push[6] = 1;
        push[8] = batch > 1;
        push[9] = batch;
        push[15] = m * k;
        push[21] = k * n;
        groups[0] = (n + 15) / 16;
        groups[1] = (m + 15) / 16;
    } else {
        const rlxv_sgemm_variant *s = &rlxv_sgemm_variants[v];
        push[3] = m * k;
        push[4] = k * n;
        push[5] = m * n;
        groups[0] = (n + s->bn - 1) / s->bn;
        groups[1] = (m + s->bm - 1) / s->bm;
    }
}

/* Record REPS dispatches of variant V, submit 6 times (the first a
 * warm-up); returns ms per dispatch (median of 5), or -1. */
static double run(rlxv_ctx *c, int v, uint32_t m, uint32_t n, uint32_t k,
                  uint32_t batch, rlxv_mem *mc, rlxv_mem *ma,
                  rlxv_mem *mb, int reps, int submits)
{
    VkPipeline pl;
    if (rlxv_pipeline(c, vpipe(v), &pl) != RLX_OK)
        return -1;
    uint32_t push[RLXV_PUSH_WORDS], groups[3];
    setup(v, m, n, k, batch, push, groups);
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
    rlxv_mem *bufs[5] = { mc, ma, mb, mc, mc };
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
    if (submits > 6)
        submits = 6;
    for (int t = 0; t < submits && ok; t++) {
        if (rlxv_submit_wait(c, cb, fence) != RLX_OK) {
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
    if (submits < 6)
        return ms[submits - 1];
    qsort(ms + 1, 5, sizeof *ms, cmp_double);
    return ms[3];
}

/* Full check of variant V on a batched m x n x k product against a
 * double-precision reference, with the output poisoned (NaN) first.
 * Returns max |err| / max |ref| or -1 if unwritten/failed. */
static double check(rlxv_ctx *c, int v, uint32_t m, uint32_t n,
                    uint32_t k, uint32_t batch)
{
    size_t na = (size_t)batch * m * k, nb = (size_t)batch * k * n,
           nc = (size_t)batch * m * n;
    float *a = malloc(na * 4), *b = malloc(nb * 4), *y = malloc(nc * 4);
    for (size_t i = 0; i < na; i++)
        a[i] = frand();
    for (size_t i = 0; i < nb; i++)
        b[i] = frand();
    for (size_t i = 0; i < nc; i++)
        y[i] = NAN;
    rlxv_mem ma, mb, mc;
    double worst = -1;
    if (rlxv_mem_create(c, na * 4, 0, &ma) ||
        rlxv_mem_create(c, nb * 4, 0, &mb) ||
        rlxv_mem_create(c, nc * 4, 0, &mc) ||
        rlxv_upload(c, ma.buf, 0, a, na * 4) ||
        rlxv_upload(c, mb.buf, 0, b, nb * 4) ||
        rlxv_upload(c, mc.buf, 0, y, nc * 4))
        goto done;
    if (run(c, v, m, n, k, batch, &mc, &ma, &mb, 1, 1) < 0 ||
        rlxv_download(c, mc.buf, 0, y, nc * 4))
        goto done;
    double err = 0, mag = 0;
    for (uint32_t z = 0; z < batch; z++)
        for (uint32_t i = 0; i < m; i++)
            for (uint32_t j = 0; j < n; j++) {
                double ref = 0;
                const float *ar = a + ((size_t)z * m + i) * k;
                const float *bc = b + (size_t)z * k * n + j;
                for (uint32_t q = 0; q < k; q++)
                    ref += (double)ar[q] * bc[(size_t)q * n];
                double e = fabs(y[((size_t)z * m + i) * n + j] - ref);
                if (!(e <= err))
                    err = e; /* NaN (unwritten) sticks */
                if (fabs(ref) > mag)
                    mag = fabs(ref);
            }
    worst = isnan(err) ? -1 : err / (mag > 0 ? mag : 1);
done:
    rlxv_mem_destroy(c, &ma);
    rlxv_mem_destroy(c, &mb);
    rlxv_mem_destroy(c, &mc);
    free(a);
    free(b);
    free(y);
    return worst;
}

/* ---- compiler statistics (VK_KHR_pipeline_executable_properties) ---- */

static void pipeline_stats(rlx__vk *vk, rlxv_ctx *c, const int *sel)
{
    const rlxv_device_info *d = c->info;
    uint32_t ne = 0;
    vk->fn.vkEnumerateDeviceExtensionProperties(d->phys, NULL, &ne, NULL);
    VkExtensionProperties *ep = calloc(ne ? ne : 1, sizeof *ep);
    vk->fn.vkEnumerateDeviceExtensionProperties(d->phys, NULL, &ne, ep);
    int have = 0;
    for (uint32_t i = 0; i < ne; i++)
        have |= !strcmp(ep[i].extensionName,
                        VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
    free(ep);
    if (!have) {
        printf("# pipeline statistics: driver lacks %s\n",
               VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
        return;
    }
    const float prio = 1.0f;
    VkDeviceQueueCreateInfo qci = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
        .queueFamilyIndex = d->queue_family, .queueCount = 1,
        .pQueuePriorities = &prio };
    VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR pf = {
        .sType =
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR,
        .pipelineExecutableInfo = VK_TRUE };
    const char *ext = VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME;
    VkDeviceCreateInfo dci = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .pNext = &pf,
        .queueCreateInfoCount = 1, .pQueueCreateInfos = &qci,
        .enabledExtensionCount = 1, .ppEnabledExtensionNames = &ext };
    VkDevice dev;
    if (vk->fn.vkCreateDevice(d->phys, &dci, NULL, &dev) != VK_SUCCESS) {
        printf("# pipeline statistics: vkCreateDevice failed\n");
        return;
    }
#define DFN(name) PFN_##name name = (PFN_##name)vk->fn.vkGetDeviceProcAddr(dev, #name)
    DFN(vkDestroyDevice);
    DFN(vkCreateShaderModule);
    DFN(vkDestroyShaderModule);
    DFN(vkCreateDescriptorSetLayout);
    DFN(vkDestroyDescriptorSetLayout);
    DFN(vkCreatePipelineLayout);
    DFN(vkDestroyPipelineLayout);
    DFN(vkCreateComputePipelines);
    DFN(vkDestroyPipeline);
    DFN(vkGetPipelineExecutablePropertiesKHR);
    DFN(vkGetPipelineExecutableStatisticsKHR);
#undef DFN
    if (!vkGetPipelineExecutablePropertiesKHR ||
        !vkGetPipelineExecutableStatisticsKHR) {
        vkDestroyDevice(dev, NULL);
        return;
    }
    VkDescriptorSetLayoutBinding b[5];
    for (uint32_t i = 0; i < 5; i++)
        b[i] = (VkDescriptorSetLayoutBinding){
            .binding = i, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
            .descriptorCount = 1, .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT };
    VkDescriptorSetLayoutCreateInfo sci = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        .bindingCount = 5, .pBindings = b };
    VkDescriptorSetLayout sl;
    vkCreateDescriptorSetLayout(dev, &sci, NULL, &sl);
    VkPushConstantRange pcr = { VK_SHADER_STAGE_COMPUTE_BIT, 0,
                                RLXV_PUSH_WORDS * 4 };
    VkPipelineLayoutCreateInfo lci = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
        .setLayoutCount = 1, .pSetLayouts = &sl,
        .pushConstantRangeCount = 1, .pPushConstantRanges = &pcr };
    VkPipelineLayout pl;
    vkCreatePipelineLayout(dev, &lci, NULL, &pl);
    for (int v = 0; v <= NV; v++) {
        if (!sel[v])
            continue;
        const rlxv_shader *s = &rlxv_shaders[vpipe(v)];
        VkShaderModuleCreateInfo mci = {
            .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
            .codeSize = s->size, .pCode = s->code };
        VkShaderModule mod;
        if (vkCreateShaderModule(dev, &mci, NULL, &mod) != VK_SUCCESS)
            continue;
        VkComputePipelineCreateInfo ci = {
            .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
            .flags = VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR,
            .stage = {
                .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                .stage = VK_SHADER_STAGE_COMPUTE_BIT, .module = mod,
                .pName = "main" },
            .layout = pl };
        VkPipeline p;
        VkResult r = vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &ci,
                                              NULL, &p);
        vkDestroyShaderModule(dev, mod, NULL);
        if (r != VK_SUCCESS)
            continue;
        VkPipelineInfoKHR pi = { .sType = VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR,
                                 .pipeline = p };
        uint32_t nx = 0;
        vkGetPipelineExecutablePropertiesKHR(dev, &pi, &nx, NULL);
        for (uint32_t x = 0; x < nx && x < 4; x++) {
            VkPipelineExecutableInfoKHR ei = {
                .sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR,
                .pipeline = p, .executableIndex = x };
            VkPipelineExecutableStatisticKHR st[32];
            uint32_t ns = 32;
            for (uint32_t i = 0; i < ns; i++)
                st[i] = (VkPipelineExecutableStatisticKHR){
                    .sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR };
            vkGetPipelineExecutableStatisticsKHR(dev, &ei, &ns, st);
            printf("stats %-22s", vname(v));
            for (uint32_t i = 0; i < ns; i++) {
                printf(" | %s=", st[i].name);
                switch (st[i].format) {
                case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR:
                    printf("%u", (unsigned)st[i].value.b32);
                    break;
                case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR:
                    printf("%lld", (long long)st[i].value.i64);
                    break;
                case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR:
                    printf("%llu", (unsigned long long)st[i].value.u64);
                    break;
                default:
                    printf("%g", st[i].value.f64);
                }
            }
            printf("\n");
        }
        vkDestroyPipeline(dev, p, NULL);
    }
    vkDestroyPipelineLayout(dev, pl, NULL);
    vkDestroyDescriptorSetLayout(dev, sl, NULL);
    vkDestroyDevice(dev, NULL);
    fflush(stdout);
}

int main(int argc, char **argv)
{
    rlx_host host = { .struct_size = sizeof host,
                      .abi_version = RLX_ABI_VERSION, .report = report,
                      .log = log_msg };
    rlx__vk *vk = calloc(1, sizeof *vk);
    vk->host = &host;
    pthread_mutex_init(&vk->lock, NULL);
    rlxv_ctx *c;
    if (rlxv_context(vk, 0, &c) != RLX_OK)
        return 1;
    printf("device: %s (%s)\n", c->info->props.deviceName, c->info->driver);
    uint32_t sizes[8] = { 1024, 2048, 4096 };
    int ns = 3;
    if (argc > 1) {
        ns = 0;
        for (int i = 1; i < argc && ns < 8; i++)
            sizes[ns++] = (uint32_t)atoi(argv[i]);
    }
    int sel[NV + 1];
    const char *want = getenv("RLX_BENCH_VARIANTS");
    for (int v = 0; v <= NV; v++) {
        sel[v] = 1;
        if (want && *want) {
            const char *p = strstr(want, vname(v));
            size_t l = strlen(vname(v));
            sel[v] = 0;
            while (p && !sel[v]) {
                sel[v] = (p == want || p[-1] == ',') &&
                         (p[l] == ',' || p[l] == 0);
                p = strstr(p + 1, vname(v));
            }
        }
    }
    int status = 0;

    /* Correctness of every selected variant (sgemm ones) on small
     * batched products; odd sizes for the checked variants. */
    for (int v = 0; v < NV; v++) {
        if (!sel[v])
            continue;
        const rlxv_sgemm_variant *s = &rlxv_sgemm_variants[v];
        uint32_t m = 2 * s->bm, n = 3 * s->bn, k = 5 * s->bk, batch = 2;
        double e = check(c, v, m, n, k, batch);
        int good = e >= 0 && e < 1e-5;
        printf("check %-22s %4ux%4ux%4u x%u  err %9.2e  %s\n", vname(v),
               (unsigned)m, (unsigned)n, (unsigned)k, (unsigned)batch, e,
               good ? "PASS" : "FAIL");
        status |= !good;
        if (s->check) {
            static const uint32_t odd[][4] = { { 203, 148, 76, 2 },
                                               { 1, 4, 4, 1 },
                                               { 67, 260, 132, 3 } };
            for (size_t q = 0; q < sizeof odd / sizeof *odd; q++) {
                e = check(c, v, odd[q][0], odd[q][1], odd[q][2], odd[q][3]);
                good = e >= 0 && e < 1e-5;
                printf("check %-22s %4ux%4ux%4u x%u  err %9.2e  %s\n",
                       vname(v), (unsigned)odd[q][0], (unsigned)odd[q][1],
                       (unsigned)odd[q][2], (unsigned)odd[q][3], e,
                       good ? "PASS" : "FAIL");
                status |= !good;
            }
        }
        fflush(stdout);
    }
    const char *st = getenv("RLX_BENCH_STATS");
    if (!st || strcmp(st, "0") != 0)
        pipeline_stats(vk, c, sel);

    size_t shmem = c->info->props.limits.maxComputeSharedMemorySize;
    printf("# maxComputeSharedMemorySize %zu\n", shmem);
    printf("%-6s %-22s %10s %10s %10s\n", "n", "shader", "ms", "GFLOP/s",
           "max rel err");
    double gf[8][NV + 1];
    for (int si = 0; si < ns; si++) {
        uint32_t n = sizes[si];
        for (int v = 0; v <= NV; v++)
            gf[si][v] = -1;
        size_t bytes = (size_t)n * n * 4;
        float *a = malloc(bytes), *b = malloc(bytes), *out = malloc(bytes);
        for (size_t i = 0; i < (size_t)n * n; i++) {
            a[i] = frand();
            b[i] = frand();
        }
        rlxv_mem ma, mb, mc;
        if (rlxv_mem_create(c, bytes, 0, &ma) ||
            rlxv_mem_create(c, bytes, 0, &mb) ||
            rlxv_mem_create(c, bytes, 0, &mc) ||
            rlxv_upload(c, ma.buf, 0, a, bytes) ||
            rlxv_upload(c, mb.buf, 0, b, bytes))
            return 1;
        for (int v = 0; v <= NV; v++) {
            if (!sel[v] ||
                (v < NV && !rlxv_sgemm_fits(&rlxv_sgemm_variants[v],
                                               n, n, n)))
                continue;
            int reps = n >= 4096 ? 10 : n >= 2048 ? 20 : 50;
            if (v == GENERAL && n >= 4096)
                reps = 3;
            double ms = run(c, v, n, n, n, 1, &mc, &ma, &mb, reps, 6);
            if (ms < 0) {
                status = 1;
                continue;
            }
            rlxv_download(c, mc.buf, 0, out, bytes);
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
            gf[si][v] = 2.0 * n * (double)n * n / ms / 1e6;
            printf("%-6u %-22s %10.3f %10.1f %10.2e\n", (unsigned)n,
                   vname(v), ms, gf[si][v], worst);
            fflush(stdout);
        }
        rlxv_mem_destroy(c, &ma);
        rlxv_mem_destroy(c, &mb);
        rlxv_mem_destroy(c, &mc);
        free(a);
        free(b);
        free(out);
    }
    printf("\n== GFLOP/s (f32, n x n x n)\n%-22s", "shader");
    for (int si = 0; si < ns; si++)
        printf(" %9u", (unsigned)sizes[si]);
    printf("\n");
    for (int v = 0; v <= NV; v++) {
        if (!sel[v])
            continue;
        printf("%-22s", vname(v));
        for (int si = 0; si < ns; si++)
            if (gf[si][v] < 0)
                printf(" %9s", "-");
            else
                printf(" %9.1f", gf[si][v]);
        printf("\n");
    }
    printf("planner picks:");
    for (int si = 0; si < ns; si++) {
        int v = rlxv_sgemm_pick(c, NULL, sizes[si], sizes[si],
                                   sizes[si], 1);
        printf(" %u %s;", (unsigned)sizes[si], vname(v < 0 ? GENERAL : v));
    }
    printf("\n");
    rlxv_teardown(vk);
    free(vk);
    return status;
}
