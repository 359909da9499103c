/*
 * cuda_cudnn_api.h - our declarations of the part of cuDNN's legacy
 * convolution API the cuda plugin uses, written from cuDNN's published
 * API reference, and the table of its entry points, opened with dlopen
 * at the first conv (cuda_cudnn.c); shared by the float convs
 * (cuda_cudnn.c) and the int8 ones (cuda_qconv.c).
 */
#ifndef RLX_CUDA_CUDNN_API_H
#define RLX_CUDA_CUDNN_API_H

#include <stddef.h>

#include "gpu_internal.h"

/* cudnnDataType_t, cudnnTensorFormat_t, cudnnConvolutionMode_t and
 * cudnnMathType_t values we use */
enum {
    DNN_FLOAT = 0, DNN_HALF = 2, DNN_INT8 = 3, DNN_INT32 = 4,
    DNN_BFLOAT16 = 9,
    DNN_NCHW = 0, DNN_NHWC = 1,
    DNN_CROSS_CORRELATION = 1,
    DNN_DEFAULT_MATH = 0, DNN_TENSOR_OP_MATH = 1, DNN_FMA_MATH = 3,
    DNN_ACT_RELU = 1, DNN_ACT_IDENTITY = 5, DNN_PROPAGATE_NAN = 1,
    DNN_ALGO_IMPLICIT_PRECOMP_GEMM = 1
};

/* cudnnConvolutionFwdAlgoPerf_t and cudnnConvolutionBwdDataAlgoPerf_t
 * share this layout */
typedef struct dnn_perf {
    int algo;
    int status;
    float time;
    size_t memory;
    int determinism;
    int math_type;
    int reserved[3];
} dnn_perf;

typedef void *dnn_desc;

typedef struct rlxc_dnn_api {
    void *lib;
    int (*create)(dnn_desc *);
    int (*destroy)(dnn_desc);
    int (*set_stream)(dnn_desc, cudaStream_t);
    int (*tensor_create)(dnn_desc *);
    int (*tensor_set)(dnn_desc, int, int, const int *, const int *);
    int (*tensor_destroy)(dnn_desc);
    int (*filter_create)(dnn_desc *);
    int (*filter_set)(dnn_desc, int, int, int, const int *);
    int (*filter_destroy)(dnn_desc);
    int (*conv_create)(dnn_desc *);
    int (*conv_set)(dnn_desc, int, const int *, const int *, const int *,
                    int, int);
    int (*conv_group)(dnn_desc, int);
    int (*conv_math)(dnn_desc, int);
    int (*conv_destroy)(dnn_desc);
    int (*fwd_algos)(dnn_desc, dnn_desc, dnn_desc, dnn_desc, dnn_desc, int,
                     int *, dnn_perf *);
    int (*fwd_ws)(dnn_desc, dnn_desc, dnn_desc, dnn_desc, dnn_desc, int,
                  size_t *);
    int (*fwd)(dnn_desc, const void *, dnn_desc, const void *, dnn_desc,
               const void *, dnn_desc, int, void *, size_t, const void *,
               dnn_desc, void *);
    int (*bwd_algos)(dnn_desc, dnn_desc, dnn_desc, dnn_desc, dnn_desc, int,
                     int *, dnn_perf *);
    int (*bwd_ws)(dnn_desc, dnn_desc, dnn_desc, dnn_desc, dnn_desc, int,
                  size_t *);
    int (*bwd)(dnn_desc, const void *, dnn_desc, const void *, dnn_desc,
               const void *, dnn_desc, int, void *, size_t, const void *,
               dnn_desc, void *);
    int (*add)(dnn_desc, const void *, dnn_desc, const void *, const void *,
               dnn_desc, void *);
    /* optional: without them fused steps stay on our kernel, and the
     * heuristics choose */
    int (*fused)(dnn_desc, const void *, dnn_desc, const void *, dnn_desc,
                 const void *, dnn_desc, int, void *, size_t, const void *,
                 dnn_desc, const void *, dnn_desc, const void *, dnn_desc,
                 dnn_desc, void *);
    int (*act_create)(dnn_desc *);
    int (*act_set)(dnn_desc, int, int, double);
    int (*act_destroy)(dnn_desc);
    /* optional: the int8 convs describe x and y by format with it */
    int (*tensor_set4d)(dnn_desc, int, int, int, int, int, int);
    int (*find)(dnn_desc, dnn_desc, const void *, dnn_desc, const void *,
                dnn_desc, dnn_desc, void *, int, int *, dnn_perf *, void *,
                size_t);
} rlxc_dnn_api;

/* The entry points; lib NULL where no cuDNN could be opened. */
extern rlxc_dnn_api rlxc_dnn;
/* Open cuDNN once (the first call; later calls return at once). */
void rlxc_dnn_load(void);

/* Whether what a plan derives from value V (a filter) must be derived
 * inside every run: V is computed by the graph, not a param or a
 * constant. */
int rlxc_dnn_derived_live(const rlx_executable *exe, int v);
/* Whether param or constant V changed since *SRC / *VER (its bytes and
 * version) were recorded, recording the present ones; a version 0 (a
 * buffer written where we cannot see) is always stale. */
int rlxc_dnn_stale(const rlx_executable *exe, int v, void *const *params,
                   const uint64_t *versions, const void **src,
                   uint64_t *ver);

/* cuda_qconv.c: the int8 convs' refresh of their filters, the scratch
 * every int8 conv of EXE shares (its padded x), and a plan's release. */
gpuError_t rlxc_qconv_refresh(rlx_executable *exe, rlxg_step *s,
                              void *const *params, const uint64_t *versions,
                              gpuStream_t stream);
rlx_status rlxc_qconv_layout(rlx_executable *exe);
void rlxc_qconv_free(void *plan);

#endif /* RLX_CUDA_CUDNN_API_H */
