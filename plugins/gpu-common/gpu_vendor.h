/*
 * gpu_vendor.h - one set of names for the two GPU vendors, so the shared
 * kernels (gk_*.cu) and the shared host code (gpu_*.c) are written once:
 * gpu* names are the CUDA runtime's on NVIDIA and HIP's on AMD (built
 * with RLXG_HIP defined). Host side (C and C++) here; device-side
 * helpers (shuffles, bf16, warp sync) in gk_common.cuh.
 *
 * HIP has no programmatic dependent launch and no PTX: the places that
 * use them test RLXG_HIP (gk_gemv.cu, gk_common.cuh).
 */
#ifndef RLX_GPU_VENDOR_H
#define RLX_GPU_VENDOR_H

#ifdef RLXG_HIP

#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__ 1
#endif
#include <hip/hip_runtime_api.h>

#define RLXG_NAME "rocm"
#define RLXG_VISIBLE_DEVICES "HIP_VISIBLE_DEVICES"
typedef hipDeviceProp_t gpuDeviceProp;
#define gpuGetDeviceProperties hipGetDeviceProperties
#define gpuDeviceGetPCIBusId hipDeviceGetPCIBusId
typedef hipError_t gpuError_t;
typedef hipStream_t gpuStream_t;
typedef hipEvent_t gpuEvent_t;
typedef hipGraph_t gpuGraph_t;
typedef hipGraphExec_t gpuGraphExec_t;
#define gpuSuccess hipSuccess
#define gpuErrorInvalidValue hipErrorInvalidValue
#define gpuErrorMemoryAllocation hipErrorOutOfMemory
#define gpuGetLastError hipGetLastError
#define gpuGetErrorName hipGetErrorName
#define gpuGetErrorString hipGetErrorString
#define gpuSetDevice hipSetDevice
#define gpuMemGetInfo hipMemGetInfo
#define gpuMalloc hipMalloc
#define gpuFree hipFree
#define gpuMemcpy hipMemcpy
#define gpuMemset hipMemset
#define gpuMemcpyAsync hipMemcpyAsync
#define gpuMemsetAsync hipMemsetAsync
#define gpuMemcpyHostToDevice hipMemcpyHostToDevice
#define gpuMemcpyDeviceToHost hipMemcpyDeviceToHost
#define gpuMemcpyDeviceToDevice hipMemcpyDeviceToDevice
#define gpuHostAlloc hipHostMalloc
#define gpuHostAllocDefault hipHostMallocDefault
#define gpuFreeHost hipHostFree
#define gpuHostRegister hipHostRegister
#define gpuHostRegisterDefault hipHostRegisterDefault
#define gpuHostUnregister hipHostUnregister
#define gpuStreamCreateWithFlags hipStreamCreateWithFlags
#define gpuStreamNonBlocking hipStreamNonBlocking
#define gpuStreamSynchronize hipStreamSynchronize
#define gpuStreamDestroy hipStreamDestroy
#define gpuStreamBeginCapture hipStreamBeginCapture
#define gpuStreamEndCapture hipStreamEndCapture
#define gpuStreamCaptureModeThreadLocal hipStreamCaptureModeThreadLocal
#define gpuGraphLaunch hipGraphLaunch
#define gpuGraphDestroy hipGraphDestroy
#define gpuGraphExecDestroy hipGraphExecDestroy
#define gpuEventCreate hipEventCreate
#define gpuEventRecord hipEventRecord
#define gpuEventSynchronize hipEventSynchronize
#define gpuEventElapsedTime hipEventElapsedTime
#define gpuEventDestroy hipEventDestroy
static inline gpuError_t gpu_graph_instantiate(gpuGraphExec_t *exec,
                                               gpuGraph_t graph)
{
    return hipGraphInstantiate(exec, graph, NULL, NULL, 0);
}
/* the graph in Graphviz's form: not in every HIP the plugin loads */
static inline gpuError_t gpu_graph_dot(gpuGraph_t graph, const char *path)
{
    (void)graph;
    (void)path;
    return hipErrorNotSupported;
}

#else /* CUDA */

#include <cuda_runtime_api.h>

#define RLXG_NAME "cuda"
#define RLXG_VISIBLE_DEVICES "CUDA_VISIBLE_DEVICES"
typedef struct cudaDeviceProp gpuDeviceProp;
#define gpuGetDeviceProperties cudaGetDeviceProperties
#define gpuDeviceGetPCIBusId cudaDeviceGetPCIBusId
typedef cudaError_t gpuError_t;
typedef cudaStream_t gpuStream_t;
typedef cudaEvent_t gpuEvent_t;
typedef cudaGraph_t gpuGraph_t;
typedef cudaGraphExec_t gpuGraphExec_t;
#define gpuSuccess cudaSuccess
#define gpuErrorInvalidValue cudaErrorInvalidValue
#define gpuErrorMemoryAllocation cudaErrorMemoryAllocation
#define gpuGetLastError cudaGetLastError
#define gpuGetErrorName cudaGetErrorName
#define gpuGetErrorString cudaGetErrorString
#define gpuSetDevice cudaSetDevice
#define gpuMemGetInfo cudaMemGetInfo
#define gpuMalloc cudaMalloc
#define gpuFree cudaFree
#define gpuMemcpy cudaMemcpy
#define gpuMemset cudaMemset
#define gpuMemcpyAsync cudaMemcpyAsync
#define gpuMemsetAsync cudaMemsetAsync
#define gpuMemcpyHostToDevice cudaMemcpyHostToDevice
#define gpuMemcpyDeviceToHost cudaMemcpyDeviceToHost
#define gpuMemcpyDeviceToDevice cudaMemcpyDeviceToDevice
#define gpuHostAlloc cudaHostAlloc
#define gpuHostAllocDefault cudaHostAllocDefault
#define gpuFreeHost cudaFreeHost
#define gpuHostRegister cudaHostRegister
#define gpuHostRegisterDefault cudaHostRegisterDefault
#define gpuHostUnregister cudaHostUnregister
#define gpuStreamCreateWithFlags cudaStreamCreateWithFlags
#define gpuStreamNonBlocking cudaStreamNonBlocking
#define gpuStreamSynchronize cudaStreamSynchronize
#define gpuStreamDestroy cudaStreamDestroy
#define gpuStreamBeginCapture cudaStreamBeginCapture
#define gpuStreamEndCapture cudaStreamEndCapture
#define gpuStreamCaptureModeThreadLocal cudaStreamCaptureModeThreadLocal
#define gpuGraphLaunch cudaGraphLaunch
#define gpuGraphDestroy cudaGraphDestroy
#define gpuGraphExecDestroy cudaGraphExecDestroy
#define gpuEventCreate cudaEventCreate
#define gpuEventRecord cudaEventRecord
#define gpuEventSynchronize cudaEventSynchronize
#define gpuEventElapsedTime cudaEventElapsedTime
#define gpuEventDestroy cudaEventDestroy
static inline gpuError_t gpu_graph_instantiate(gpuGraphExec_t *exec,
                                               gpuGraph_t graph)
{
    return cudaGraphInstantiate(exec, graph, 0);
}
static inline gpuError_t gpu_graph_dot(gpuGraph_t graph, const char *path)
{
    return cudaGraphDebugDotPrint(graph, path, cudaGraphDebugDotFlagsVerbose);
}

#endif

#endif /* RLX_GPU_VENDOR_H */
