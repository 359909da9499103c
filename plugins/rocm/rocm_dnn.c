/*
 * rocm_dnn.c - the DNN-library hooks of the shared compiler for rocm:
 * no MIOpen path yet, so every conv runs on our kernels (gk_conv.cu),
 * and every fused quantized conv on conv_integer's kernel and the
 * chain's epilogue (gk_qconv.cu).
 */
#include "gpu_internal.h"

rlx_status rlxg_dnn_conv_plan(rlx_executable *exe, rlxg_step *step,
                              int precision)
{
    (void)exe;
    (void)step;
    (void)precision;
    return RLX_OK; /* step->dnn stays NULL: our kernel */
}

gpuError_t rlxg_dnn_conv_enqueue(rlx_executable *exe, const rlxg_step *step,
                                 const void *x, const void *w,
                                 const void *bias, const void *res, void *y,
                                 gpuStream_t stream)
{
    (void)exe;
    (void)step;
    (void)x;
    (void)w;
    (void)bias;
    (void)res;
    (void)y;
    (void)stream;
    return gpuErrorInvalidValue; /* never planned */
}

rlx_status rlxg_dnn_layout(rlx_executable *exe, const rlx_graph_view *g)
{
    (void)exe;
    (void)g;
    return RLX_OK; /* no DNN steps */
}

void rlxg_dnn_release(rlx_executable *exe)
{
    (void)exe;
}

gpuError_t rlxg_dnn_refresh(rlx_executable *exe, void *const *params,
                            const uint64_t *versions, gpuStream_t stream)
{
    (void)exe;
    (void)params;
    (void)versions;
    (void)stream;
    return gpuSuccess; /* nothing derived */
}

rlx_status rlxg_dnn_qconv_plan(rlx_executable *exe, rlxg_step *step)
{
    (void)exe;
    (void)step;
    return RLX_OK; /* step->dnn stays NULL: our kernel and epilogue */
}

gpuError_t rlxg_dnn_qconv_enqueue(rlx_executable *exe, const rlxg_step *step,
                                  void *const *params, gpuStream_t stream)
{
    (void)exe;
    (void)step;
    (void)params;
    (void)stream;
    return gpuErrorInvalidValue; /* never planned */
}
