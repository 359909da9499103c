/*
 * cuda_matmul.c - matmul through cuBLASLt (or our own rlxg_gemm with
 * RLX_CUDA_MATMUL=kernel): descriptors, layouts and the
 * algorithm are chosen once at compile time; enqueue only calls
 * cublasLtMatmul (inside the CUDA graph capture).
 *
 * rlx is row-major and cuBLAS column-major, so Y = A B is computed as
 * Y^T = B^T A^T: cuBLAS' A is our b, its B is our a, and no data moves.
 * Batch dims that only a carries fold into m (one large GEMM); other
 * batches use the strided-batch attributes when the offsets are regular,
 * else one call per batch. f32 uses the plain f32 compute type unless the
 * precision allows TF32; f16 and bf16 accumulate in f32. Under strict
 * precision an f32 matmul also has our 3xTF32 tensor-core GEMM
 * (gk_gemm_tf32x3.cu, as accurate as FP32) among the autotuner's
 * candidates (cuda_autotune.c).
 */
#include <stdlib.h>
#include <string.h>

#include "cuda_gemv_chain.h"
#include "cuda_matmul.h"
#include "gpu_internal.h"

static cudaDataType_t data_type(rlx_dtype t)
{
    switch (t) {
    case RLX_DTYPE_F16: return CUDA_R_16F;
    case RLX_DTYPE_BF16: return CUDA_R_16BF;
    default: return CUDA_R_32F;
    }
}

static const char *blas_name(const rlxg_backend *be, cublasStatus_t cs)
{
    return be->blas.status_name ? be->blas.status_name(cs) : "error";
}

static rlx_status blas_fail(rlx_executable *exe, cublasStatus_t cs,
                            const char *what)
{
    return rlx_kit_fail(exe->be->host,
                        cs == CUBLAS_STATUS_ALLOC_FAILED ? RLX_ERR_OUT_OF_MEMORY
                                                         : RLX_ERR_DEVICE,
                        "cuda: %s failed: %s (%d). Fix: check nvidia-smi; if "
                        "it repeats, report it with RLX_LOG=debug output",
                        what, blas_name(exe->be, cs), (int)cs);
}

/* Free what describe made; MM can be described again. */
static void reset(rlxg_backend *be, rlxg_matmul *mm)
{
    if (mm->desc)
        be->blas.desc_destroy(mm->desc);
    if (mm->la)
        be->blas.layout_destroy(mm->la);
    if (mm->lb)
        be->blas.layout_destroy(mm->lb);
    if (mm->ld)
        be->blas.layout_destroy(mm->ld);
    mm->desc = NULL;
    mm->la = mm->lb = mm->ld = NULL;
    free(mm->a_off);
    free(mm->b_off);
    free(mm->y_off);
    mm->a_off = mm->b_off = mm->y_off = NULL;
}

void rlxg_matmul_free(rlxg_backend *be, rlxg_matmul *mm)
{
    if (!mm)
        return;
    reset(be, mm);
    if (mm->chain_scratch)
        cudaFree(mm->chain_scratch);
    free(mm);
}

static int set_layout_batch(rlxg_backend *be, cublasLtMatrixLayout_t l,
                            int32_t count, int64_t stride)
{
    return be->blas.layout_set(l, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &count,
                               sizeof count) == CUBLAS_STATUS_SUCCESS &&
           be->blas.layout_set(l, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET,
                               &stride, sizeof stride) ==
               CUBLAS_STATUS_SUCCESS;
}

/* Setting cuda.matmul (RLX_CUDA_MATMUL), read from the compile options
 * (the host's sources outside compile): 1 when it is MODE. */
static int matmul_mode(const rlx_executable *exe, const char *mode)
{
    char v[32];
    return rlx_compile_get_option(exe->options, exe->be->host, "cuda.matmul",
                                  v, sizeof v) == RLX_OK &&
           strcmp(v, mode) == 0;
}

/* cuda.matmul=heuristic: only cuBLASLt's own candidates, no split-K
 * variants and no GEMV (the plan before they existed, for comparison). */
static int heuristic_only(const rlx_executable *exe)
{
    return matmul_mode(exe, "heuristic");
}

/* cuda.matmul=kernel: every matmul through our own rlxg_gemm, the rocm
 * plugin's GEMM, and cuBLASLt not loaded; this is how that shared kernel
 * runs on real hardware. */
static int kernel_only(const rlx_executable *exe)
{
    return matmul_mode(exe, "kernel");
}

/* cuda.matmul=tf32x3: every matmul the 3xTF32 GEMM takes goes through
 * it, timed only among its own tiles (how it is tested on hardware). */
static int tf32x3_only(const rlx_executable *exe)
{
    return matmul_mode(exe, "tf32x3");
}

static uint32_t epilogue_of(int epi)
{
    switch (epi) {
    case RLXG_EPI_BIAS: return CUBLASLT_EPILOGUE_BIAS;
    case RLXG_EPI_RELU_BIAS: return CUBLASLT_EPILOGUE_RELU_BIAS;
    case RLXG_EPI_GELU_BIAS: return CUBLASLT_EPILOGUE_GELU_BIAS;
    default: return CUBLASLT_EPILOGUE_DEFAULT;
    }
}

rlx_status rlxg_matmul_prepare(rlx_executable *exe)
{
    if (kernel_only(exe) || exe->lt)
        return RLX_OK;
    cublasLtHandle_t lt = NULL;
    rlx_status st = rlxg_device_blas(exe->be, exe->device, &lt);
    if (st == RLX_OK) {
        exe->lt = lt;
        exe->workspace_bytes = (size_t)32 << 20;
    }
    return st;
}

/* The batch as rlxg_gemm takes it: a strided batch in one launch, else
 * one launch per batch at its offsets. */
static rlx_status plan_kernel(rlx_executable *exe, rlxg_matmul *mm,
                              rlxg_mm_shape *sh)
{
    mm->m = sh->m;
    mm->n = sh->n;
    mm->k = sh->k;
    if (sh->regular) {
        mm->batch = sh->n_batch;
        mm->sa = sh->n_batch > 1 ? sh->a_off[1] : 0;
        mm->sb = sh->n_batch > 1 ? sh->b_off[1] : 0;
        mm->n_calls = 1;
        free(sh->a_off);
        free(sh->b_off);
        mm->use_kernel = 1;
        return RLX_OK;
    }
    mm->batch = 1;
    mm->n_calls = sh->n_batch;
    mm->a_off = sh->a_off;
    mm->b_off = sh->b_off;
    mm->y_off = calloc((size_t)sh->n_batch, sizeof *mm->y_off);
    if (!mm->y_off)
        return rlx_host_report(exe->be->host, RLX_ERR_OUT_OF_MEMORY,
                               "cuda compile: out of memory. Fix: free "
                               "memory");
    for (int64_t t = 0; t < sh->n_batch; t++)
        mm->y_off[t] = t * sh->m * sh->n;
    mm->use_kernel = 1;
    return RLX_OK;
}

static int gemm_act(int epi)
{
    return epi == RLXG_EPI_RELU_BIAS   ? RLXG_GEMM_RELU
           : epi == RLXG_EPI_GELU_BIAS ? RLXG_GEMM_GELU_TANH
                                       : RLXG_GEMM_NONE;
}

/* Split-K candidates for the autotuner: the heuristic sizes its picks
 * for big problems, so a GEMM with few output tiles (a batch-1 layer, a
 * wide K) leaves most SMs idle unless K is split across CTAs. Variants
 * of the best few heuristic algorithms with 2-16 splits, each checked by
 * cuBLASLt for this problem and workspace. */
static void add_split_k(rlx_executable *exe, rlxg_matmul *mm, int64_t k,
                        uint64_t ws)
{
    static const int32_t splits[] = { 2, 3, 4, 6, 8, 12, 16 };
    static const uint32_t schemes[] = { CUBLASLT_REDUCTION_SCHEME_INPLACE,
                                        CUBLASLT_REDUCTION_SCHEME_COMPUTE_TYPE };
    const rlxg_blas *bl = &exe->be->blas;
    if (heuristic_only(exe))
        return;
    int n_base = mm->n_algos < 3 ? mm->n_algos : 3;
    for (int a = 0; a < n_base; a++) {
        int32_t support = 0, cur = 1;
        uint32_t mask = 0;
        size_t got = 0;
        if (bl->algo_cap_get(&mm->algos[a], CUBLASLT_ALGO_CAP_SPLITK_SUPPORT,
                             &support, sizeof support, &got) !=
                CUBLAS_STATUS_SUCCESS ||
            !support ||
            bl->algo_cap_get(&mm->algos[a],
                             CUBLASLT_ALGO_CAP_REDUCTION_SCHEME_MASK, &mask,
                             sizeof mask, &got) != CUBLAS_STATUS_SUCCESS ||
            bl->algo_config_get(&mm->algos[a], CUBLASLT_ALGO_CONFIG_SPLITK_NUM,
                                &cur, sizeof cur, &got) !=
                CUBLAS_STATUS_SUCCESS ||
            cur > 1)
            continue;
        for (size_t si = 0; si < sizeof splits / sizeof *splits; si++) {
            if (k / splits[si] < 32)
                break;
            for (size_t r = 0; r < 2 && mm->n_algos < RLXG_MAX_ALGOS; r++) {
                if (!(mask & schemes[r]))
                    continue;
                cublasLtMatmulAlgo_t x = mm->algos[a];
                cublasLtMatmulHeuristicResult_t chk;
                memset(&chk, 0, sizeof chk);
                if (bl->algo_config_set(&x, CUBLASLT_ALGO_CONFIG_SPLITK_NUM,
                                        &splits[si], sizeof splits[si]) !=
                        CUBLAS_STATUS_SUCCESS ||
                    bl->algo_config_set(&x,
                                        CUBLASLT_ALGO_CONFIG_REDUCTION_SCHEME,
                                        &schemes[r], sizeof schemes[r]) !=
                        CUBLAS_STATUS_SUCCESS ||
                    bl->algo_check(exe->lt, mm->desc, mm->la, mm->lb, mm->ld,
                                   mm->ld, &x, &chk) != CUBLAS_STATUS_SUCCESS ||
                    chk.workspaceSize > ws)
                    continue;
                mm->algos[mm->n_algos++] = x;
            }
        }
    }
}

/* Make descriptors for (M, N, K) and ask for an algorithm. Returns
 * RLX_ERR_UNSUPPORTED, unreported, when cuBLASLt has none. */
static rlx_status describe(rlx_executable *exe, rlxg_matmul *mm,
                           rlx_dtype dtype, int64_t m, int64_t n, int64_t k,
                           int ta, int tb, int32_t batch, int64_t sa,
                           int64_t sb, uint32_t align, int precision)
{
    rlxg_backend *be = exe->be;
    const rlxg_blas *bl = &be->blas;
    cudaDataType_t t = data_type(dtype);
    cublasComputeType_t ct = CUBLAS_COMPUTE_32F;
    if (dtype == RLX_DTYPE_F32 && (precision == RLX_PRECISION_ALLOW_TF32 ||
                                   precision == RLX_PRECISION_ALLOW_REDUCED))
        ct = CUBLAS_COMPUTE_32F_FAST_TF32;
    cublasStatus_t cs;
    if ((cs = bl->desc_create(&mm->desc, ct, CUDA_R_32F)) !=
        CUBLAS_STATUS_SUCCESS)
        return blas_fail(exe, cs, "cublasLtMatmulDescCreate");
    int32_t op_a = tb ? CUBLAS_OP_T : CUBLAS_OP_N; /* cuBLAS A = our b */
    int32_t op_b = ta ? CUBLAS_OP_T : CUBLAS_OP_N; /* cuBLAS B = our a */
    uint32_t epi = epilogue_of(mm->epilogue);
    bl->desc_set(mm->desc, CUBLASLT_MATMUL_DESC_TRANSA, &op_a, sizeof op_a);
    bl->desc_set(mm->desc, CUBLASLT_MATMUL_DESC_TRANSB, &op_b, sizeof op_b);
    if (epi != CUBLASLT_EPILOGUE_DEFAULT) {
        bl->desc_set(mm->desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi,
                     sizeof epi);
        int32_t bt = (int32_t)t;
        bl->desc_set(mm->desc, CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE, &bt,
                     sizeof bt);
    }
    /* our b: [k, n] row-major is n x k column-major (ld n); transposed,
     * [n, k] is k x n (ld k). Likewise a. */
    if ((cs = bl->layout_create(&mm->la, t, (uint64_t)(tb ? k : n),
                                (uint64_t)(tb ? n : k), tb ? k : n)) !=
            CUBLAS_STATUS_SUCCESS ||
        (cs = bl->layout_create(&mm->lb, t, (uint64_t)(ta ? m : k),
                                (uint64_t)(ta ? k : m), ta ? m : k)) !=
            CUBLAS_STATUS_SUCCESS ||
        (cs = bl->layout_create(&mm->ld, t, (uint64_t)n, (uint64_t)m, n)) !=
            CUBLAS_STATUS_SUCCESS)
        return blas_fail(exe, cs, "cublasLtMatrixLayoutCreate");
    if (batch > 1 && !(set_layout_batch(be, mm->la, batch, sb) &&
                       set_layout_batch(be, mm->lb, batch, sa) &&
                       set_layout_batch(be, mm->ld, batch, m * n)))
        return RLX_ERR_UNSUPPORTED;

    cublasLtMatmulPreference_t pref;
    if ((cs = bl->pref_create(&pref)) != CUBLAS_STATUS_SUCCESS)
        return blas_fail(exe, cs, "cublasLtMatmulPreferenceCreate");
    uint64_t ws = exe->workspace_bytes ? exe->workspace_bytes
                                       : ((uint64_t)32 << 20);
    bl->pref_set(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws,
                 sizeof ws);
    if (align < 256) {
        bl->pref_set(pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES,
                     &align, sizeof align);
        bl->pref_set(pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES,
                     &align, sizeof align);
        bl->pref_set(pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES,
                     &align, sizeof align);
        bl->pref_set(pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES,
                     &align, sizeof align);
    }
    cublasLtMatmulHeuristicResult_t res[RLXG_MAX_HEURISTIC];
    int found = 0;
    memset(res, 0, sizeof res);
    cs = bl->heuristic(exe->lt, mm->desc, mm->la, mm->lb, mm->ld, mm->ld,
                       pref, RLXG_MAX_HEURISTIC, res, &found);
    bl->pref_destroy(pref);
    if (cs != CUBLAS_STATUS_SUCCESS || found < 1)
        return RLX_ERR_UNSUPPORTED;
    mm->n_algos = 0;
    for (int i = 0; i < found && i < RLXG_MAX_HEURISTIC; i++)
        if (res[i].state == CUBLAS_STATUS_SUCCESS)
            mm->algos[mm->n_algos++] = res[i].algo;
    if (mm->n_algos == 0)
        return RLX_ERR_UNSUPPORTED;
    add_split_k(exe, mm, k, ws);
    mm->algo = mm->algos[0];
    mm->m = m;
    mm->n = n;
    mm->k = k;
    mm->batch = batch;
    return RLX_OK;
}


/* A weight that no step writes (a param or a constant) can be loaded
 * before the previous kernel is done; where the device runs our sm_90
 * code the GEMV is then launched as its programmatic dependent,
 * overlapping the two (also when it is timed alone). */
static int gemv_flags(const rlx_executable *exe, const rlxg_matmul *mm,
                      const rlx_node_view *w)
{
    int flags = mm->epilogue == RLXG_EPI_RELU_BIAS
                    ? RLXG_GEMV_RELU : 0;
    if (w->op == RLX_OP_PARAM || w->op == RLX_OP_CONSTANT)
        flags |= RLXG_GEMV_EARLY;
    if (exe->dep_launch)
        flags |= RLXG_GEMV_PDL;
    return flags;
}

static uint32_t offset_align(const int64_t *off, int64_t n, size_t elem)
{
    uint32_t align = 256;
    for (int64_t t = 0; t < n; t++)
        while (align > 1 && ((uint64_t)off[t] * elem) % align)
            align /= 2;
    return align;
}

rlx_status rlxg_matmul_plan(rlx_executable *exe, rlxg_step *step,
                            const rlx_node_view *v, const rlx_node_view *a,
                            const rlx_node_view *b, int64_t transpose_a,
                            int64_t transpose_b, int precision)
{
    rlxg_backend *be = exe->be;
    rlxg_matmul *mm = step->mm;
    rlxg_mm_shape sh;
    rlx_status st = rlxg_matmul_shape(be->host, v, a, b, transpose_a,
                                      transpose_b, &sh);
    if (st != RLX_OK)
        return st;
    int ta = sh.ta, tb = sh.tb, regular = sh.regular;
    int64_t m = sh.m, n = sh.n, k = sh.k, n_batch = sh.n_batch;
    int64_t *ao = sh.a_off, *bo = sh.b_off;
    /* batch strides when regular (describe's and the 3xTF32 GEMM's) */
    int64_t sa = regular && n_batch > 1 ? ao[1] : 0;
    int64_t sb = regular && n_batch > 1 ? bo[1] : 0;
    mm->ta = ta;
    mm->tb = tb;
    if (kernel_only(exe)) /* our rlxg_gemm: no cuBLASLt */
        return plan_kernel(exe, mm, &sh);

    st = RLX_ERR_UNSUPPORTED;
    mm->n_calls = 1;
    if (regular)
        st = describe(exe, mm, v->dtype, m, n, k, ta, tb, (int32_t)n_batch,
                      sa, sb, 256, precision);
    if (st == RLX_ERR_UNSUPPORTED && n_batch > 1 &&
        mm->epilogue == RLXG_EPI_NONE) {
        /* one call per batch */
        reset(be, mm);
        size_t elem = rlx_dtype_size(v->dtype);
        mm->y_off = calloc((size_t)n_batch, sizeof *mm->y_off);
        if (!mm->y_off) {
            free(ao);
            free(bo);
            return rlx_host_report(be->host, RLX_ERR_OUT_OF_MEMORY,
                                   "cuda compile: out of memory. Fix: free "
                                   "memory");
        }
        for (int64_t t = 0; t < n_batch; t++)
            mm->y_off[t] = t * m * n;
        uint32_t align = offset_align(ao, n_batch, elem);
        uint32_t al2 = offset_align(bo, n_batch, elem);
        uint32_t al3 = offset_align(mm->y_off, n_batch, elem);
        align = align < al2 ? align : al2;
        align = align < al3 ? align : al3;
        mm->a_off = ao;
        mm->b_off = bo;
        ao = bo = NULL;
        mm->n_calls = n_batch;
        st = describe(exe, mm, v->dtype, m, n, k, ta, tb, 1, 0, 0, align,
                      precision);
    }
    free(ao);
    free(bo);
    /* x @ w^T with w [n, k] and a few rows: a GEMV candidate, chosen
     * outright when too small to tune (see rlxg_matmul_autotune). */
    mm->gemv_ok = st == RLX_OK && !heuristic_only(exe) && mm->n_calls == 1 &&
                  mm->batch == 1 &&
                  !ta && tb && m <= RLXG_GEMV_MAX_ROWS &&
                  (mm->epilogue == RLXG_EPI_NONE ||
                   mm->epilogue == RLXG_EPI_BIAS ||
                   mm->epilogue == RLXG_EPI_RELU_BIAS);
    mm->use_gemv = mm->gemv_ok;
    if (mm->gemv_ok)
        mm->gemv_flags = gemv_flags(exe, mm, b);
    /* f32 under strict precision: the 3xTF32 GEMM is a candidate (its
     * error measures like FP32 SGEMM's, bench_gemm_tf32x3.cu) */
    mm->sa = mm->batch > 1 ? sa : 0;
    mm->sb = mm->batch > 1 ? sb : 0;
    mm->tf32x3_ok = st == RLX_OK && !heuristic_only(exe) &&
                    v->dtype == RLX_DTYPE_F32 &&
                    precision == RLX_PRECISION_STRICT && mm->n_calls == 1 &&
                    rlxg_gemm_tf32x3_ok(m, n, k, ta, tb, mm->batch, mm->sa,
                                        mm->sb);
    cudaGetLastError();
    mm->use_tf32x3 = mm->tf32x3_ok && tf32x3_only(exe);
    mm->tf32x3_cfg = 0;
    if (mm->use_tf32x3)
        mm->use_gemv = 0;
    if (st == RLX_ERR_UNSUPPORTED) {
        if (mm->epilogue != RLXG_EPI_NONE) {
            reset(be, mm);
            return RLX_ERR_UNSUPPORTED; /* the caller unfuses */
        }
        return rlx_kit_fail(be->host, RLX_ERR_UNSUPPORTED,
                            "cuda compile: cuBLASLt has no algorithm for "
                            "matmul '%s' (m %lld, n %lld, k %lld, batch %lld, "
                            "dtype %d). Fix: run this graph on another device, "
                            "or report it", v->name, (long long)m,
                            (long long)n, (long long)k, (long long)n_batch,
                            (int)v->dtype);
    }
    return st;
}

cudaError_t rlxg_matmul_gemv(rlx_executable *exe, const rlxg_step *step,
                             const void *a, const void *b, const void *bias,
                             void *y, cudaStream_t stream, int dep)
{
    const rlxg_matmul *mm = step->mm;
    return rlxg_gemv(stream, (int)exe->values[step->out].dtype, a, b, bias,
                     y, mm->m, mm->n, mm->k, mm->gemv_wpc,
                     dep ? mm->gemv_flags : mm->gemv_flags & ~RLXG_GEMV_PDL);
}

/* The 3xTF32 GEMM for this step; it needs 16-byte aligned operands
 * (else it declines, and cuBLASLt computes the step). */
static int tf32x3_fits(const void *a, const void *b)
{
    return ((uintptr_t)a | (uintptr_t)b) % 16 == 0;
}

cudaError_t rlxg_matmul_tf32x3(const rlxg_matmul *mm, const void *a,
                               const void *b, const void *bias, void *y,
                               cudaStream_t stream)
{
    return rlxg_gemm_tf32x3(stream, a, b, bias, y, mm->m, mm->n, mm->k,
                            mm->ta, mm->tb, mm->batch, mm->sa, mm->sb,
                            mm->m * mm->n, gemm_act(mm->epilogue),
                            mm->tf32x3_cfg);
}

rlx_status rlxg_matmul_enqueue(rlx_executable *exe, const rlxg_step *step,
                               void *const *params, cudaStream_t stream,
                               int dep)
{
    if (step->mm->chain)
        return rlxg_chain_enqueue(exe, step, params, stream, dep);
    const rlxg_blas *bl = &exe->be->blas;
    rlxg_matmul *mm = step->mm;
    size_t elem = rlx_dtype_size(exe->values[step->out].dtype);
    const char *a = rlxg_value_ptr(exe, step->in[0], params);
    const char *b = rlxg_value_ptr(exe, step->in[1], params);
    char *y = rlxg_value_ptr(exe, step->out, params);
    const float alpha = 1.0f, beta = 0.0f;
    if (mm->use_kernel) {
        const void *bias = mm->bias_value >= 0
                               ? rlxg_value_ptr(exe, mm->bias_value, params)
                               : NULL;
        for (int64_t t = 0; t < mm->n_calls; t++) {
            size_t ao = mm->a_off ? (size_t)mm->a_off[t] * elem : 0;
            size_t bo = mm->b_off ? (size_t)mm->b_off[t] * elem : 0;
            size_t yo = mm->y_off ? (size_t)mm->y_off[t] * elem : 0;
            cudaError_t err = rlxg_gemm(
                stream, (int)exe->values[step->out].dtype, a + ao,
                b + bo, bias, y + yo, mm->m, mm->n, mm->k, mm->ta, mm->tb,
                mm->batch, mm->sa, mm->sb, mm->m * mm->n,
                gemm_act(mm->epilogue));
            if (err != cudaSuccess)
                return rlxg_gpu_fail(exe->be->host, err,
                                     "cannot launch a kernel");
        }
        return RLX_OK;
    }
    if (mm->use_tf32x3 && tf32x3_fits(a, b)) {
        cudaError_t err = rlxg_matmul_tf32x3(
            mm, a, b,
            mm->bias_value >= 0 ? rlxg_value_ptr(exe, mm->bias_value, params)
                                : NULL,
            y, stream);
        if (err != cudaSuccess)
            return rlxg_gpu_fail(exe->be->host, err,
                                  "cannot launch a kernel");
        return RLX_OK;
    }
    if (mm->use_gemv) {
        cudaError_t err = rlxg_matmul_gemv(exe, step, a, b,
                               mm->bias_value >= 0
                                   ? rlxg_value_ptr(exe, mm->bias_value,
                                                    params)
                                   : NULL,
                               y, stream, dep);
        if (err != cudaSuccess)
            return rlxg_gpu_fail(exe->be->host, err,
                                  "cannot launch a kernel");
        return RLX_OK;
    }
    if (mm->bias_value >= 0) {
        const void *bias = rlxg_value_ptr(exe, mm->bias_value, params);
        bl->desc_set(mm->desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias,
                     sizeof bias);
    }
    for (int64_t t = 0; t < mm->n_calls; t++) {
        size_t ao = mm->a_off ? (size_t)mm->a_off[t] * elem : 0;
        size_t bo = mm->b_off ? (size_t)mm->b_off[t] * elem : 0;
        size_t yo = mm->y_off ? (size_t)mm->y_off[t] * elem : 0;
        cublasStatus_t cs = bl->matmul(exe->lt, mm->desc, &alpha, b + bo,
                                       mm->la, a + ao, mm->lb, &beta, y + yo,
                                       mm->ld, y + yo, mm->ld, &mm->algo,
                                       exe->workspace, exe->workspace_bytes,
                                       stream);
        if (cs != CUBLAS_STATUS_SUCCESS)
            return blas_fail(exe, cs, "cublasLtMatmul");
    }
    return RLX_OK;
}
