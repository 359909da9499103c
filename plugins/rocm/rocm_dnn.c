/*
 * rocm_dnn.c - the DNN-library hooks of the shared compiler for rocm:
 * no MIOpen path yet, so every conv runs on our kernels (gk_conv.cu).
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
