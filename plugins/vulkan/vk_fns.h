/*
 * vk_fns.h - the Vulkan entry points the backend calls, as one table per
 * level (loader, instance, device), filled through vkGetInstanceProcAddr
 * and vkGetDeviceProcAddr after libvulkan.so.1 is opened with dlopen.
 *
 * The plugin never links libvulkan and compiles with VK_NO_PROTOTYPES, so
 * it loads (and says why Vulkan is unusable) on hosts without a loader.
 */
#ifndef RLXV_FNS_H
#define RLXV_FNS_H

#define VK_NO_PROTOTYPES
#include <vulkan/vulkan.h>

/* X(name, required) */
#define RLXV_GLOBAL_FNS(X)                                                 \
    X(vkCreateInstance, 1)                                                   \
    X(vkEnumerateInstanceVersion, 0)

#define RLXV_INSTANCE_FNS(X)                                               \
    X(vkDestroyInstance, 1)                                                  \
    X(vkEnumeratePhysicalDevices, 1)                                         \
    X(vkGetPhysicalDeviceProperties, 1)                                      \
    X(vkGetPhysicalDeviceProperties2, 0)                                     \
    X(vkGetPhysicalDeviceFeatures, 1)                                        \
    X(vkGetPhysicalDeviceFeatures2, 0)                                       \
    X(vkGetPhysicalDeviceMemoryProperties, 1)                                \
    X(vkGetPhysicalDeviceQueueFamilyProperties, 1)                           \
    X(vkEnumerateDeviceExtensionProperties, 1)                               \
    X(vkCreateDevice, 1)                                                     \
    X(vkGetDeviceProcAddr, 1)

#define RLXV_DEVICE_FNS(X)                                                 \
    X(vkDestroyDevice, 1)                                                    \
    X(vkGetDeviceQueue, 1)                                                   \
    X(vkCreateBuffer, 1)                                                     \
    X(vkDestroyBuffer, 1)                                                    \
    X(vkGetBufferMemoryRequirements, 1)                                      \
    X(vkAllocateMemory, 1)                                                   \
    X(vkFreeMemory, 1)                                                       \
    X(vkBindBufferMemory, 1)                                                 \
    X(vkMapMemory, 1)                                                        \
    X(vkUnmapMemory, 1)                                                      \
    X(vkFlushMappedMemoryRanges, 1)                                          \
    X(vkInvalidateMappedMemoryRanges, 1)                                     \
    X(vkCreateShaderModule, 1)                                               \
    X(vkDestroyShaderModule, 1)                                              \
    X(vkCreateDescriptorSetLayout, 1)                                        \
    X(vkDestroyDescriptorSetLayout, 1)                                       \
    X(vkCreatePipelineLayout, 1)                                             \
    X(vkDestroyPipelineLayout, 1)                                            \
    X(vkCreatePipelineCache, 1)                                              \
    X(vkDestroyPipelineCache, 1)                                             \
    X(vkCreateComputePipelines, 1)                                           \
    X(vkDestroyPipeline, 1)                                                  \
    X(vkCreateDescriptorPool, 1)                                             \
    X(vkDestroyDescriptorPool, 1)                                            \
    X(vkAllocateDescriptorSets, 1)                                           \
    X(vkUpdateDescriptorSets, 1)                                             \
    X(vkCreateCommandPool, 1)                                                \
    X(vkDestroyCommandPool, 1)                                               \
    X(vkAllocateCommandBuffers, 1)                                           \
    X(vkFreeCommandBuffers, 1)                                               \
    X(vkBeginCommandBuffer, 1)                                               \
    X(vkEndCommandBuffer, 1)                                                 \
    X(vkResetCommandBuffer, 1)                                               \
    X(vkCmdBindPipeline, 1)                                                  \
    X(vkCmdBindDescriptorSets, 1)                                            \
    X(vkCmdPushConstants, 1)                                                 \
    X(vkCmdDispatch, 1)                                                      \
    X(vkCmdPipelineBarrier, 1)                                               \
    X(vkCmdCopyBuffer, 1)                                                    \
    X(vkCmdFillBuffer, 1)                                                    \
    X(vkCmdWriteTimestamp, 1)                                                \
    X(vkCmdResetQueryPool, 1)                                                \
    X(vkCreateQueryPool, 1)                                                  \
    X(vkDestroyQueryPool, 1)                                                 \
    X(vkGetQueryPoolResults, 1)                                              \
    X(vkCreateFence, 1)                                                      \
    X(vkDestroyFence, 1)                                                     \
    X(vkResetFences, 1)                                                      \
    X(vkWaitForFences, 1)                                                    \
    X(vkQueueSubmit, 1)                                                      \
    X(vkDeviceWaitIdle, 1)

#define RLXV_FN_MEMBER(name, required) PFN_##name name;

typedef struct rlxv_instance_fns {
    PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr;
    RLXV_GLOBAL_FNS(RLXV_FN_MEMBER)
    RLXV_INSTANCE_FNS(RLXV_FN_MEMBER)
} rlxv_instance_fns;

typedef struct rlxv_device_fns {
    RLXV_DEVICE_FNS(RLXV_FN_MEMBER)
} rlxv_device_fns;

/* Open libvulkan.so.1 and fill the global entry points. Returns 0 on success, else
 * writes why into WHY (a message with a Fix). *HANDLE receives the
 * dlopen handle. */
int rlxv_loader_open(void **handle, rlxv_instance_fns *fns, char *why,
                        size_t why_size);
/* Fill the instance-level entry points; 0 on success, else the name of
 * the first missing required one in *MISSING. */
int rlxv_instance_fns_load(VkInstance instance, rlxv_instance_fns *fns,
                              const char **missing);
int rlxv_device_fns_load(const rlxv_instance_fns *ifns, VkDevice dev,
                            rlxv_device_fns *fns, const char **missing);

/* "VK_ERROR_DEVICE_LOST" for a VkResult; "VK_RESULT(-n)" when unknown. */
const char *rlxv_result_name(VkResult r);

#endif /* RLXV_FNS_H */
