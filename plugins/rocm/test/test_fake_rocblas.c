/*
 * test_fake_rocblas.c - a stand-in librocblas for the rocm plugin's unit
 * test (no AMD GPU and no rocBLAS package here): exports the functions
 * rocm_rocblas.c resolves, with the signatures it declares, records
 * each call's arguments, and runs f32 GEMMs for real on host memory with
 * column-major BLAS semantics, so the row-major swap is checked by
 * numbers, not only by the arguments. Built without rocblas_sgemm when
 * FAKE_NO_SGEMM is defined (the incomplete-library case).
 */
#include <stdint.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))

typedef struct fake_call {
    char fn[40];
    int trans_a, trans_b;
    int32_t m, n, k, lda, ldb, ldc, batch;
    int64_t stride_a, stride_b, stride_c;
    int a_type, c_type, compute_type, algo;
    const void *a, *b;
    void *c;
    void *stream;
    int n_calls;
} fake_call;

static fake_call last;
static int handle_storage;

EXPORT const fake_call *fake_rocblas_last(void)
{
    return &last;
}

static void note(const char *fn)
{
    int n = last.n_calls;
    memset(&last, 0, sizeof last);
    strncpy(last.fn, fn, sizeof last.fn - 1);
    last.n_calls = n + 1;
}

EXPORT int rocblas_create_handle(void **handle)
{
    *handle = &handle_storage;
    return 0;
}

EXPORT int rocblas_destroy_handle(void *handle)
{
    return handle == &handle_storage ? 0 : 1; /* invalid_handle */
}

EXPORT int rocblas_set_stream(void *handle, void *stream)
{
    (void)handle;
    last.stream = stream;
    return 0;
}

/* column-major: element (r, c) of op(X), X with leading dimension ld */
static float at(const float *x, int trans, int32_t ld, int32_t r, int32_t c)
{
    return trans == 112 ? x[(int64_t)r * ld + c] : x[(int64_t)c * ld + r];
}

static void gemm(int ta, int tb, int32_t m, int32_t n, int32_t k,
                 const float *alpha, const float *a, int32_t lda,
                 const float *b, int32_t ldb, const float *beta, float *c,
                 int32_t ldc)
{
    for (int32_t j = 0; j < n; j++)
        for (int32_t i = 0; i < m; i++) {
            float s = 0;
            for (int32_t p = 0; p < k; p++)
                s += at(a, ta, lda, i, p) * at(b, tb, ldb, p, j);
            float *y = &c[(int64_t)j * ldc + i];
            *y = *alpha * s + (*beta != 0 ? *beta * *y : 0);
        }
}

static void record(int ta, int tb, int32_t m, int32_t n, int32_t k,
                   const void *a, int32_t lda, const void *b, int32_t ldb,
                   void *c, int32_t ldc)
{
    last.trans_a = ta;
    last.trans_b = tb;
    last.m = m;
    last.n = n;
    last.k = k;
    last.a = a;
    last.lda = lda;
    last.b = b;
    last.ldb = ldb;
    last.c = c;
    last.ldc = ldc;
    last.batch = 1;
}

#ifndef FAKE_NO_SGEMM
EXPORT int rocblas_sgemm(void *h, int ta, int tb, int32_t m, int32_t n,
                         int32_t k, const float *alpha, const float *a,
                         int32_t lda, const float *b, int32_t ldb,
                         const float *beta, float *c, int32_t ldc)
{
    (void)h;
    void *stream = last.stream;
    note("rocblas_sgemm");
    last.stream = stream;
    record(ta, tb, m, n, k, a, lda, b, ldb, c, ldc);
    gemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    return 0;
}
#endif

EXPORT int rocblas_sgemm_strided_batched(
    void *h, int ta, int tb, int32_t m, int32_t n, int32_t k,
    const float *alpha, const float *a, int32_t lda, int64_t sa,
    const float *b, int32_t ldb, int64_t sb, const float *beta, float *c,
    int32_t ldc, int64_t sc, int32_t batch)
{
    (void)h;
    note("rocblas_sgemm_strided_batched");
    record(ta, tb, m, n, k, a, lda, b, ldb, c, ldc);
    last.stride_a = sa;
    last.stride_b = sb;
    last.stride_c = sc;
    last.batch = batch;
    for (int32_t t = 0; t < batch; t++)
        gemm(ta, tb, m, n, k, alpha, a + t * sa, lda, b + t * sb, ldb, beta,
             c + t * sc, ldc);
    return 0;
}

EXPORT int rocblas_gemm_ex(void *h, int ta, int tb, int32_t m, int32_t n,
                           int32_t k, const void *alpha, const void *a,
                           int a_type, int32_t lda, const void *b,
                           int b_type, int32_t ldb, const void *beta,
                           const void *c, int c_type, int32_t ldc, void *d,
                           int d_type, int32_t ldd, int compute_type,
                           int algo, int32_t solution_index, uint32_t flags)
{
    (void)h, (void)alpha, (void)beta, (void)solution_index, (void)flags;
    note("rocblas_gemm_ex");
    record(ta, tb, m, n, k, a, lda, b, ldb, d, ldd);
    /* types agree, C is D (written in place) */
    last.a_type = a_type == b_type && c_type == d_type && c == d && ldc == ldd
                      ? a_type
                      : -1;
    last.c_type = d_type;
    last.compute_type = compute_type;
    last.algo = algo;
    return 0;
}

EXPORT int rocblas_gemm_strided_batched_ex(
    void *h, int ta, int tb, int32_t m, int32_t n, int32_t k,
    const void *alpha, const void *a, int a_type, int32_t lda, int64_t sa,
    const void *b, int b_type, int32_t ldb, int64_t sb, const void *beta,
    const void *c, int c_type, int32_t ldc, int64_t sc, void *d, int d_type,
    int32_t ldd, int64_t sd, int32_t batch, int compute_type, int algo,
    int32_t solution_index, uint32_t flags)
{
    (void)h, (void)alpha, (void)beta, (void)solution_index, (void)flags;
    note("rocblas_gemm_strided_batched_ex");
    record(ta, tb, m, n, k, a, lda, b, ldb, d, ldd);
    last.a_type = a_type == b_type && c_type == d_type && c == d &&
                          ldc == ldd && sc == sd
                      ? a_type
                      : -1;
    last.c_type = d_type;
    last.stride_a = sa;
    last.stride_b = sb;
    last.stride_c = sd;
    last.batch = batch;
    last.compute_type = compute_type;
    last.algo = algo;
    return 0;
}
