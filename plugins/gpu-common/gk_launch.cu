/*
 * gk_launch.cu - whether the current device runs the kernels' code that
 * takes part in programmatic dependent launch (gpu_kernels.h,
 * rlxg_dep_launch_ok).
 */
#include "gk_common.cuh"

#ifndef RLXG_HIP
namespace {

__global__ void dep_probe_kernel() {}

} /* namespace */
#endif

extern "C" int rlxg_dep_launch_ok(void)
{
#ifdef RLXG_HIP
    return 0;
#else
    /* The PTX version the device's code for our kernels came from: 90
     * where it runs the sm_90 build, whose kernels wait with
     * griddepcontrol; 80 where the driver compiled the compute_80 PTX (a
     * newer GPU), whose kernels do not wait and so must never be launched
     * as dependents. */
    cudaFuncAttributes fa;
    if (cudaFuncGetAttributes(&fa, dep_probe_kernel) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return fa.ptxVersion >= 90;
#endif
}
