/*
 * rocm_rocblas.c - rocBLAS opened with dlopen (see rocm_rocblas.h for
 * where each declaration comes from). Optional: when the library or a
 * required symbol is missing the plugin keeps its own GEMM kernel, and
 * says so at info level. Free of HIP: streams are opaque here.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "rocm_rocblas.h"

static const char *const rocblas_sonames[] = {
    "librocblas.so.4", "librocblas.so.3", "librocblas.so.0",
};

static void info(const rlx_host *host, const char *msg)
{
    rlx_host_log(host, RLX_LOG_INFO, msg);
}

void rlxr_rocblas_close(rlxr_rocblas *rb)
{
    if (rb->lib)
        dlclose(rb->lib);
    memset(rb, 0, sizeof *rb);
}

/* dlsym into a function pointer without the object-to-function cast
 * ISO C does not define. */
static void sym(void *lib, const char *name, void *fn_out)
{
    void *p = dlsym(lib, name);
    memcpy(fn_out, &p, sizeof p);
}

int rlxr_rocblas_open(const rlx_host *host, rlxr_rocblas *rb, char *why,
                      size_t why_size)
{
    char opt[256] = "";
    char msg[600];
    memset(rb, 0, sizeof *rb);
    if (rlx_host_get_option(host, "rocm.rocblas_library", opt,
                            sizeof opt) == RLX_OK && opt[0]) {
        rb->lib = dlopen(opt, RTLD_NOW | RTLD_LOCAL);
        snprintf(rb->path, sizeof rb->path, "%s", opt);
    }
    for (size_t i = 0; !opt[0] && !rb->lib &&
                       i < sizeof rocblas_sonames / sizeof *rocblas_sonames;
         i++) {
        rb->lib = dlopen(rocblas_sonames[i], RTLD_NOW | RTLD_LOCAL);
        snprintf(rb->path, sizeof rb->path, "%s", rocblas_sonames[i]);
    }
    if (!rb->lib) {
        if (opt[0])
            snprintf(why, why_size, "rocm.rocblas_library=%s: %s", opt,
                     dlerror());
        else
            snprintf(why, why_size, "looked for librocblas.so.4, .so.3, "
                     ".so.0");
        memset(rb, 0, sizeof *rb);
        snprintf(msg, sizeof msg, "rocm: rocBLAS not found, using the own "
                 "GEMM (%s). Fix: install rocBLAS from ROCm, or set "
                 "rocm.rocblas_library (RLX_ROCM_ROCBLAS_LIBRARY) to its "
                 "path", why);
        info(host, msg);
        return 0;
    }
    sym(rb->lib, "rocblas_create_handle", &rb->create_handle);
    sym(rb->lib, "rocblas_destroy_handle", &rb->destroy_handle);
    sym(rb->lib, "rocblas_set_stream", &rb->set_stream);
    sym(rb->lib, "rocblas_sgemm", &rb->sgemm);
    sym(rb->lib, "rocblas_sgemm_strided_batched", &rb->sgemm_sb);
    sym(rb->lib, "rocblas_gemm_ex", &rb->gemm_ex);
    sym(rb->lib, "rocblas_gemm_strided_batched_ex", &rb->gemm_sb_ex);
    const char *missing = !rb->create_handle    ? "rocblas_create_handle"
                          : !rb->destroy_handle ? "rocblas_destroy_handle"
                          : !rb->set_stream     ? "rocblas_set_stream"
                          : !rb->sgemm          ? "rocblas_sgemm"
                                                : NULL;
    if (missing) {
        snprintf(why, why_size, "rocBLAS at %s lacks %s", rb->path, missing);
        rlxr_rocblas_close(rb);
        snprintf(msg, sizeof msg, "rocm: %s, using the own GEMM. Fix: "
                 "install a complete rocBLAS", why);
        info(host, msg);
        return 0;
    }
    snprintf(why, why_size, "rocBLAS %s", rb->path);
    snprintf(msg, sizeof msg, "rocm: matmuls through rocBLAS (%s; f16/bf16 "
             "%s, strided batches %s)", rb->path,
             rb->gemm_ex ? "gemm_ex" : "own GEMM",
             rb->sgemm_sb ? "rocBLAS" : "own GEMM");
    info(host, msg);
    return 1;
}

static int fits32(int64_t v)
{
    return v > 0 && v <= INT32_MAX;
}

int rlxr_rocblas_gemm_args(int64_t m, int64_t n, int64_t k, int ta, int tb,
                           int64_t batch, int64_t sa, int64_t sb,
                           rlxr_rocblas_args *out)
{
    if (!fits32(m) || !fits32(n) || !fits32(k) || !fits32(batch) ||
        sa < 0 || sb < 0)
        return 0;
    /* Row-major y [m, n] is column-major y^T with leading dimension n,
     * and y^T = op(b)^T op(a)^T. Row-major b [k, n] read column-major is
     * b^T (ld n): no transpose; stored [n, k] (tb) it is b (ld k):
     * transpose. The same for a with m. */
    out->trans_a = tb ? RLXR_RB_OP_T : RLXR_RB_OP_N;
    out->trans_b = ta ? RLXR_RB_OP_T : RLXR_RB_OP_N;
    out->m = (int32_t)n;
    out->n = (int32_t)m;
    out->k = (int32_t)k;
    out->lda = (int32_t)(tb ? k : n);
    out->ldb = (int32_t)(ta ? m : k);
    out->ldc = (int32_t)n;
    out->stride_a = sb;
    out->stride_b = sa;
    out->stride_c = m * n;
    out->batch = (int32_t)batch;
    return 1;
}

static int rb_type(int dt)
{
    return dt == RLX_DTYPE_F32    ? RLXR_RB_F32
           : dt == RLX_DTYPE_F16  ? RLXR_RB_F16
           : dt == RLX_DTYPE_BF16 ? RLXR_RB_BF16
                                  : -1;
}

int rlxr_rocblas_can(const rlxr_rocblas *rb, int dt, int32_t batch)
{
    if (!rb->lib)
        return 0;
    if (dt == RLX_DTYPE_F32)
        return batch == 1 ? rb->sgemm != NULL : rb->sgemm_sb != NULL;
    if (rb_type(dt) < 0)
        return 0;
    return batch == 1 ? rb->gemm_ex != NULL : rb->gemm_sb_ex != NULL;
}

int rlxr_rocblas_gemm(const rlxr_rocblas *rb, rlxr_rb_handle handle, int dt,
                      const void *a, const void *b, void *y,
                      const rlxr_rocblas_args *g)
{
    const float one = 1.0f, zero = 0.0f; /* host pointer mode: default */
    if (!rlxr_rocblas_can(rb, dt, g->batch))
        return -1;
    if (dt == RLX_DTYPE_F32 && g->batch == 1)
        return rb->sgemm(handle, g->trans_a, g->trans_b, g->m, g->n, g->k,
                         &one, b, g->lda, a, g->ldb, &zero, y, g->ldc);
    if (dt == RLX_DTYPE_F32)
        return rb->sgemm_sb(handle, g->trans_a, g->trans_b, g->m, g->n, g->k,
                            &one, b, g->lda, g->stride_a, a, g->ldb,
                            g->stride_b, &zero, y, g->ldc, g->stride_c,
                            g->batch);
    int t = rb_type(dt);
    if (g->batch == 1)
        return rb->gemm_ex(handle, g->trans_a, g->trans_b, g->m, g->n, g->k,
                           &one, b, t, g->lda, a, t, g->ldb, &zero, y, t,
                           g->ldc, y, t, g->ldc, RLXR_RB_F32,
                           RLXR_RB_ALGO_STANDARD, 0, 0);
    return rb->gemm_sb_ex(handle, g->trans_a, g->trans_b, g->m, g->n, g->k,
                          &one, b, t, g->lda, g->stride_a, a, t, g->ldb,
                          g->stride_b, &zero, y, t, g->ldc, g->stride_c, y, t,
                          g->ldc, g->stride_c, g->batch, RLXR_RB_F32,
                          RLXR_RB_ALGO_STANDARD, 0, 0);
}
