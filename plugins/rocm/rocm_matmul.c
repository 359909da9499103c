/*
 * rocm_matmul.c - matmul on AMD GPUs: the shared GEMV (few rows times
 * a Linear-layout weight, a batch-1 layer) where it applies; else
 * rocBLAS, opened with dlopen at the first compile (rocm_rocblas.c),
 * for matmuls without a fused bias or activation; else our own tiled
 * GEMM, with bias and activation fused. The GEMV and GEMM run on NVIDIA
 * hardware in the cuda plugin too (the GEMM with RLX_CUDA_MATMUL=kernel),
 * which is where they are tested; the rocBLAS path has never run on AMD
 * hardware (only against a fake library in the unit test).
 *
 * rocm.matmul=kernel (RLX_ROCM_MATMUL) keeps rocBLAS unloaded.
 */
#include <stdlib.h>
#include <string.h>

#include "gpu_internal.h"

static int kernel_only(const rlx_executable *exe)
{
    char v[32];
    return rlx_compile_get_option(exe->options, exe->be->host, "rocm.matmul",
                                  v, sizeof v) == RLX_OK &&
           strcmp(v, "kernel") == 0;
}

/* Look for rocBLAS once per backend and make the device's handle once;
 * exe->lt is that handle, or NULL for our own kernels. Never fails the
 * compile: without rocBLAS the own GEMM is the plan. */
rlx_status rlxg_matmul_prepare(rlx_executable *exe)
{
    rlxg_backend *be = exe->be;
    if (exe->lt || kernel_only(exe))
        return RLX_OK;
    pthread_mutex_lock(&be->lock);
    if (!be->blas_tried) {
        char why[400];
        be->blas_tried = 1;
        rlxr_rocblas_open(be->host, &be->rocblas, why, sizeof why);
    }
    rlxg_device *d = be->devices && (int)exe->device < be->n_devices
                         ? &be->devices[exe->device]
                         : NULL;
    if (d && be->rocblas.lib && !d->blas &&
        hipSetDevice((int)exe->device) == hipSuccess) {
        rlxr_rb_handle h = NULL;
        int rs = be->rocblas.create_handle(&h);
        if (rs == RLXR_RB_SUCCESS)
            d->blas = h;
        else
            rlx_kit_log(be->host, RLX_LOG_INFO,
                        "rocm:%u: rocblas_create_handle failed (status %d), "
                        "using the own GEMM", (unsigned)exe->device, rs);
    }
    exe->lt = d ? d->blas : NULL;
    pthread_mutex_unlock(&be->lock);
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

/* One candidate per matmul: nothing to time; says which path each of
 * this compile's matmuls takes. */
rlx_status rlxg_matmul_autotune(rlx_executable *exe)
{
    int n_blas = 0, n_gemv = 0, n_gemm = 0;
    for (uint32_t s = 0; s < exe->n_steps; s++) {
        const rlxg_matmul *mm = exe->steps[s].mm;
        if (mm)
            (mm->use_blas ? &n_blas : mm->use_gemv ? &n_gemv : &n_gemm)[0]++;
    }
    if (n_blas + n_gemv + n_gemm)
        rlx_kit_log(exe->be->host, RLX_LOG_INFO,
                    "rocm compile: %d matmuls through rocBLAS, %d the own GEMV, "
                    "%d the own GEMM%s", n_blas, n_gemv, n_gemm,
                    exe->lt ? ""
                    : kernel_only(exe) ? " (rocm.matmul=kernel)"
                                       : " (rocBLAS not found, using the own "
                                         "GEMM)");
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
    /* rocBLAS for the rest, where no bias or activation is fused (its
     * GEMM has no epilogue) and the shape fits its 32-bit sizes */
    mm->use_blas = exe->lt && !mm->use_gemv &&
                   mm->epilogue == RLXG_EPI_NONE &&
                   rlxr_rocblas_can(&exe->be->rocblas, (int)v->dtype,
                                    mm->batch > INT32_MAX
                                        ? 0
                                        : (int32_t)mm->batch) &&
                   rlxr_rocblas_gemm_args(mm->m, mm->n, mm->k, mm->ta, mm->tb,
                                          mm->batch, mm->sa, mm->sb,
                                          &mm->blas_args);
    return RLX_OK;
}

/* Every call of MM through rocBLAS, under the backend lock: the device's
 * handle is shared by its executables and bound to a stream per call. */
static rlx_status blas_enqueue(rlx_executable *exe, const rlxg_matmul *mm,
                               int dt, size_t elem, const char *a,
                               const char *b, char *y, hipStream_t stream)
{
    rlxg_backend *be = exe->be;
    pthread_mutex_lock(&be->lock);
    int rs = be->rocblas.set_stream(exe->lt, (void *)stream);
    for (int64_t t = 0; rs == RLXR_RB_SUCCESS && t < mm->n_calls; t++) {
        size_t ao = mm->a_off ? (size_t)mm->a_off[t] * elem : 0;
        size_t bo = mm->b_off ? (size_t)mm->b_off[t] * elem : 0;
        size_t yo = mm->y_off ? (size_t)mm->y_off[t] * elem : 0;
        rs = rlxr_rocblas_gemm(&be->rocblas, exe->lt, dt, a + ao, b + bo,
                               y + yo, &mm->blas_args);
    }
    pthread_mutex_unlock(&be->lock);
    if (rs != RLXR_RB_SUCCESS)
        return rlx_kit_fail(be->host, RLX_ERR_BACKEND,
                            "rocm: rocBLAS failed with status %d on a %lldx%lldx"
                            "%lld matmul. Fix: set RLX_ROCM_MATMUL=kernel to use "
                            "the own GEMM, and report the shape", rs,
                            (long long)mm->m, (long long)mm->n,
                            (long long)mm->k);
    return RLX_OK;
}

static int gemm_act(int epi)
{
    return epi == RLXG_EPI_RELU_BIAS   ? RLXG_GEMM_RELU
           : epi == RLXG_EPI_GELU_BIAS ? RLXG_GEMM_GELU_TANH
                                       : RLXG_GEMM_NONE;
}

rlx_status rlxg_matmul_enqueue(rlx_executable *exe, const rlxg_step *step,
                               void *const *params, hipStream_t stream,
                               int dep)
{
    (void)dep; /* HIP has no programmatic dependent launch */
    const rlxg_matmul *mm = step->mm;
    int dt = (int)exe->values[step->out].dtype;
    size_t elem = rlx_dtype_size(exe->values[step->out].dtype);
    const char *a = rlxg_value_ptr(exe, step->in[0], params);
    const char *b = rlxg_value_ptr(exe, step->in[1], params);
    char *y = rlxg_value_ptr(exe, step->out, params);
    const void *bias = mm->bias_value >= 0
                           ? rlxg_value_ptr(exe, mm->bias_value, params)
                           : NULL;
    if (mm->use_blas)
        return blas_enqueue(exe, mm, dt, elem, a, b, y, stream);
    hipError_t err = hipSuccess;
    if (mm->use_gemv)
        err = rlxg_gemv(stream, dt, a, b, bias, y, mm->m, mm->n, mm->k,
                        0, mm->gemv_flags);
    for (int64_t t = 0; !mm->use_gemv && err == hipSuccess && t < mm->n_calls;
         t++) {
        size_t ao = mm->a_off ? (size_t)mm->a_off[t] * elem : 0;
        size_t bo = mm->b_off ? (size_t)mm->b_off[t] * elem : 0;
        size_t yo = mm->y_off ? (size_t)mm->y_off[t] * elem : 0;
        err = rlxg_gemm(stream, dt, a + ao, b + bo, bias, y + yo, mm->m,
                        mm->n, mm->k, mm->ta, mm->tb, mm->batch, mm->sa,
                        mm->sb, mm->m * mm->n, gemm_act(mm->epilogue));
    }
    if (err != hipSuccess)
        return rlxg_gpu_fail(exe->be->host, err, "cannot launch a kernel");
    return RLX_OK;
}
