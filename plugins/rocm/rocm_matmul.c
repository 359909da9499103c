/*
 * rocm_matmul.c - matmul on AMD GPUs through the shared kernels: the
 * GEMV (few rows times a Linear-layout weight, a batch-1 layer) where it
 * applies, else our own tiled GEMM; bias and activation fused into
 * either. Both run on NVIDIA hardware in the cuda plugin too (the GEMM
 * with RLX_CUDA_MATMUL=kernel), which is where they are tested.
 *
 * rocBLAS and hipBLASLt are not used yet: Debian 12 packages neither,
 * so a dlopen-ed path could not be built or run anywhere here.
 */
#include <stdlib.h>

#include "gpu_internal.h"

rlx_status rlxg_matmul_prepare(rlx_executable *exe)
{
    (void)exe; /* no library to load */
    return RLX_OK;
}

void rlxg_matmul_free(rlxg_backend *be, rlxg_matmul *mm)
{
    (void)be;
    if (!mm)
        return;
    free(mm->a_off);
    free(mm->b_off);
    free(mm->y_off);
    free(mm);
}

rlx_status rlxg_matmul_autotune(rlx_executable *exe)
{
    (void)exe; /* one candidate per matmul: nothing to time */
    return RLX_OK;
}

rlx_status rlxg_matmul_plan(rlx_executable *exe, rlxg_step *step,
                            const rlx_node_view *v, const rlx_node_view *a,
                            const rlx_node_view *b, int64_t transpose_a,
                            int64_t transpose_b, int precision)
{
    rlxg_matmul *mm = step->mm;
    rlxg_mm_shape sh;
    (void)precision; /* f32 math throughout: strict */
    rlx_status st = rlxg_matmul_shape(exe->be->host, v, a, b, transpose_a,
                                      transpose_b, &sh);
    if (st != RLX_OK)
        return st;
    free(mm->a_off);
    free(mm->b_off);
    free(mm->y_off);
    mm->a_off = mm->b_off = mm->y_off = NULL;
    mm->m = sh.m;
    mm->n = sh.n;
    mm->k = sh.k;
    mm->ta = sh.ta;
    mm->tb = sh.tb;
    if (sh.regular) {
        mm->batch = sh.n_batch;
        mm->sa = sh.n_batch > 1 ? sh.a_off[1] : 0;
        mm->sb = sh.n_batch > 1 ? sh.b_off[1] : 0;
        mm->n_calls = 1;
        free(sh.a_off);
        free(sh.b_off);
    } else {
        mm->batch = 1;
        mm->n_calls = sh.n_batch;
        mm->a_off = sh.a_off;
        mm->b_off = sh.b_off;
        mm->y_off = calloc((size_t)sh.n_batch, sizeof *mm->y_off);
        if (!mm->y_off)
            return rlx_host_report(exe->be->host, RLX_ERR_OUT_OF_MEMORY,
                                   "rocm compile: out of memory. Fix: free "
                                   "memory");
        for (int64_t t = 0; t < sh.n_batch; t++)
            mm->y_off[t] = t * sh.m * sh.n;
    }
    /* x @ w^T, w [n, k], a few rows: the GEMV streams w once */
    mm->use_gemv = mm->n_calls == 1 && mm->batch == 1 && !mm->ta &&
                   mm->tb && mm->m <= RLXG_GEMV_MAX_ROWS &&
                   mm->epilogue != RLXG_EPI_GELU_BIAS;
    mm->gemv_flags = mm->epilogue == RLXG_EPI_RELU_BIAS ? RLXG_GEMV_RELU : 0;
    if (b->op == RLX_OP_PARAM || b->op == RLX_OP_CONSTANT)
        mm->gemv_flags |= RLXG_GEMV_EARLY;
    return RLX_OK;
}

static int gemm_act(int epi)
{
    return epi == RLXG_EPI_RELU_BIAS   ? RLXG_GEMM_RELU
           : epi == RLXG_EPI_GELU_BIAS ? RLXG_GEMM_GELU_TANH
                                       : RLXG_GEMM_NONE;
}

rlx_status rlxg_matmul_enqueue(rlx_executable *exe, const rlxg_step *step,
                               void *const *params)
{
    const rlxg_matmul *mm = step->mm;
    int dt = (int)exe->values[step->out].dtype;
    size_t elem = rlx_dtype_size(exe->values[step->out].dtype);
    const char *a = rlxg_value_ptr(exe, step->in[0], params);
    const char *b = rlxg_value_ptr(exe, step->in[1], params);
    char *y = rlxg_value_ptr(exe, step->out, params);
    const void *bias = mm->bias_value >= 0
                           ? rlxg_value_ptr(exe, mm->bias_value, params)
                           : NULL;
    hipError_t err = hipSuccess;
    if (mm->use_gemv)
        err = rlxg_gemv(exe->stream, dt, a, b, bias, y, mm->m, mm->n, mm->k,
                        0, mm->gemv_flags);
    for (int64_t t = 0; !mm->use_gemv && err == hipSuccess && t < mm->n_calls;
         t++) {
        size_t ao = mm->a_off ? (size_t)mm->a_off[t] * elem : 0;
        size_t bo = mm->b_off ? (size_t)mm->b_off[t] * elem : 0;
        size_t yo = mm->y_off ? (size_t)mm->y_off[t] * elem : 0;
        err = rlxg_gemm(exe->stream, dt, a + ao, b + bo, bias, y + yo, mm->m,
                        mm->n, mm->k, mm->ta, mm->tb, mm->batch, mm->sa,
                        mm->sb, mm->m * mm->n, gemm_act(mm->epilogue));
    }
    if (err != hipSuccess)
        return rlxg_gpu_fail(exe->be->host, err, "cannot launch a kernel");
    return RLX_OK;
}
