/*
 * rocm_rocblas.h - rocBLAS, opened with dlopen when a compile first
 * needs a matmul: the handful of functions the rocm plugin calls, and
 * the pure translation of a row-major matmul into rocBLAS's
 * column-major arguments (rlxr_rocblas_gemm_args), kept free of HIP so
 * the unit test can check it without a GPU.
 *
 * The types and values below are our own declarations of rocBLAS's
 * published C API (never its headers, which Debian 12 does not package):
 * enum values from ROCm/rocBLAS library/include/internal/rocblas-types.h
 * (rocblas_operation_none 111, _transpose 112; rocblas_datatype_f16_r
 * 150, f32_r 151, bf16_r 168; rocblas_status_success 0;
 * rocblas_gemm_algo_standard 0), signatures from
 * library/include/internal/rocblas-functions.h (rocblas_int is int32_t,
 * rocblas_stride int64_t, handles and streams opaque pointers).
 */
#ifndef RLX_ROCM_ROCBLAS_H
#define RLX_ROCM_ROCBLAS_H

#include <stddef.h>
#include <stdint.h>

#include <rlx/plugin.h>

enum {
    RLXR_RB_SUCCESS = 0,       /* rocblas_status_success */
    RLXR_RB_OP_N = 111,        /* rocblas_operation_none */
    RLXR_RB_OP_T = 112,        /* rocblas_operation_transpose */
    RLXR_RB_F16 = 150,         /* rocblas_datatype_f16_r */
    RLXR_RB_F32 = 151,         /* rocblas_datatype_f32_r */
    RLXR_RB_BF16 = 168,        /* rocblas_datatype_bf16_r */
    RLXR_RB_ALGO_STANDARD = 0, /* rocblas_gemm_algo_standard */
};

typedef void *rlxr_rb_handle; /* rocblas_handle */
typedef int rlxr_rb_status;   /* rocblas_status (a C enum) */
typedef int rlxr_rb_enum;     /* rocblas_operation, _datatype, _gemm_algo */

typedef rlxr_rb_status (*rlxr_rb_create_fn)(rlxr_rb_handle *handle);
typedef rlxr_rb_status (*rlxr_rb_destroy_fn)(rlxr_rb_handle handle);
typedef rlxr_rb_status (*rlxr_rb_set_stream_fn)(rlxr_rb_handle handle,
                                                void *stream);
typedef rlxr_rb_status (*rlxr_rb_sgemm_fn)(
    rlxr_rb_handle handle, rlxr_rb_enum trans_a, rlxr_rb_enum trans_b,
    int32_t m, int32_t n, int32_t k, const float *alpha, const float *a,
    int32_t lda, const float *b, int32_t ldb, const float *beta, float *c,
    int32_t ldc);
typedef rlxr_rb_status (*rlxr_rb_sgemm_sb_fn)(
    rlxr_rb_handle handle, rlxr_rb_enum trans_a, rlxr_rb_enum trans_b,
    int32_t m, int32_t n, int32_t k, const float *alpha, const float *a,
    int32_t lda, int64_t stride_a, const float *b, int32_t ldb,
    int64_t stride_b, const float *beta, float *c, int32_t ldc,
    int64_t stride_c, int32_t batch_count);
typedef rlxr_rb_status (*rlxr_rb_gemm_ex_fn)(
    rlxr_rb_handle handle, rlxr_rb_enum trans_a, rlxr_rb_enum trans_b,
    int32_t m, int32_t n, int32_t k, const void *alpha, const void *a,
    rlxr_rb_enum a_type, int32_t lda, const void *b, rlxr_rb_enum b_type,
    int32_t ldb, const void *beta, const void *c, rlxr_rb_enum c_type,
    int32_t ldc, void *d, rlxr_rb_enum d_type, int32_t ldd,
    rlxr_rb_enum compute_type, rlxr_rb_enum algo, int32_t solution_index,
    uint32_t flags);
typedef rlxr_rb_status (*rlxr_rb_gemm_sb_ex_fn)(
    rlxr_rb_handle handle, rlxr_rb_enum trans_a, rlxr_rb_enum trans_b,
    int32_t m, int32_t n, int32_t k, const void *alpha, const void *a,
    rlxr_rb_enum a_type, int32_t lda, int64_t stride_a, const void *b,
    rlxr_rb_enum b_type, int32_t ldb, int64_t stride_b, const void *beta,
    const void *c, rlxr_rb_enum c_type, int32_t ldc, int64_t stride_c,
    void *d, rlxr_rb_enum d_type, int32_t ldd, int64_t stride_d,
    int32_t batch_count, rlxr_rb_enum compute_type, rlxr_rb_enum algo,
    int32_t solution_index, uint32_t flags);

/* The opened library; a NULL function is a symbol this build lacks. */
typedef struct rlxr_rocblas {
    void *lib;
    char path[256];
    rlxr_rb_create_fn create_handle;
    rlxr_rb_destroy_fn destroy_handle;
    rlxr_rb_set_stream_fn set_stream;
    rlxr_rb_sgemm_fn sgemm;
    rlxr_rb_sgemm_sb_fn sgemm_sb;          /* optional: batched */
    rlxr_rb_gemm_ex_fn gemm_ex;            /* optional: f16/bf16 */
    rlxr_rb_gemm_sb_ex_fn gemm_sb_ex;      /* optional: batched f16/bf16 */
} rlxr_rocblas;

/* Open rocBLAS: the setting rocm.rocblas_library when set, else
 * librocblas.so.4, .so.3, .so.0. 1 when the library and the required
 * symbols (create/destroy handle, set_stream, sgemm) resolved; else 0,
 * RB cleared, and WHY says what was missing. Logs the outcome at info
 * level through HOST. */
int rlxr_rocblas_open(const rlx_host *host, rlxr_rocblas *rb, char *why,
                      size_t why_size);
void rlxr_rocblas_close(rlxr_rocblas *rb);

/* One row-major matmul y[m,n] = op(a) op(b) (a stored [k,m] when ta, b
 * stored [n,k] when tb; BATCH matrices at element strides SA, SB, m*n)
 * as rocBLAS's column-major call computing y^T = op(b)^T op(a)^T: the
 * "a" of the call is our b and its "b" our a. */
typedef struct rlxr_rocblas_args {
    rlxr_rb_enum trans_a, trans_b;
    int32_t m, n, k;       /* the call's: m = our n, n = our m */
    int32_t lda, ldb, ldc; /* of the call's a (our b), b (our a), c (y) */
    int64_t stride_a, stride_b, stride_c;
    int32_t batch;
} rlxr_rocblas_args;

/* 1 when the shape fits rocBLAS's 32-bit sizes (and is not empty), with
 * OUT filled; 0 otherwise (the caller uses its own kernel). */
int rlxr_rocblas_gemm_args(int64_t m, int64_t n, int64_t k, int ta, int tb,
                           int64_t batch, int64_t sa, int64_t sb,
                           rlxr_rocblas_args *out);

/* Enqueue G on HANDLE (already bound to the stream) for rlx dtype DT
 * (f32: sgemm; f16/bf16: gemm_ex with f32 compute). A and B are our
 * operands; the swap happens here. Returns the rocBLAS status, or -1
 * when the library lacks the function this case needs (no call made). */
int rlxr_rocblas_gemm(const rlxr_rocblas *rb, rlxr_rb_handle handle, int dt,
                      const void *a, const void *b, void *y,
                      const rlxr_rocblas_args *g);

/* 1 when rlxr_rocblas_gemm can run this dtype and batch. */
int rlxr_rocblas_can(const rlxr_rocblas *rb, int dt, int32_t batch);

#endif /* RLX_ROCM_ROCBLAS_H */
