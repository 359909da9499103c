/*
 * test_rocm_rocblas.c - the rocm plugin's rocBLAS loader and argument
 * translation, without a GPU (part of test-rocm-plugin): the lookup with
 * no rocBLAS installed, a library lacking a required symbol, and a fake
 * librocblas (test_fake_rocblas.c, loaded through rocm.rocblas_library)
 * whose f32 GEMMs compute on host memory with column-major semantics, so
 * every transpose combination of the row-major swap is checked by value
 * against a row-major reference.
 */
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocm_rocblas.h"

typedef void (*ok_fn)(int cond, const char *what, const char *detail);

/* the fake's record (test_fake_rocblas.c) */
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

static const char *opt_library; /* rocm.rocblas_library, or NULL */
static char last_log[1024];

static rlx_status t_get_option(const rlx_host *host, const char *name,
                               char *value, size_t value_size)
{
    (void)host;
    if (strcmp(name, "rocm.rocblas_library") != 0 || !opt_library)
        return RLX_ERR_NOT_FOUND;
    if (strlen(opt_library) >= value_size)
        return RLX_ERR_INVALID_ARGUMENT;
    strcpy(value, opt_library);
    return RLX_OK;
}

static void t_log(const rlx_host *host, rlx_log_level level, const char *m)
{
    (void)host;
    snprintf(last_log, sizeof last_log, "%d %s", (int)level, m);
}

static const rlx_host test_host = {
    .struct_size = sizeof(rlx_host),
    .log = t_log,
    .get_option = t_get_option,
};

/* row-major y[m,n] = op(a) op(b), a [m,k] ([k,m] when ta), b [k,n]
 * ([n,k] when tb) */
static void ref(int ta, int tb, int m, int n, int k, const float *a,
                const float *b, float *y)
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            float s = 0;
            for (int p = 0; p < k; p++)
                s += (ta ? a[p * m + i] : a[i * k + p]) *
                     (tb ? b[j * k + p] : b[p * n + j]);
            y[i * n + j] = s;
        }
}

static void check_values(ok_fn ok, rlxr_rocblas *rb, const fake_call *last)
{
    enum { M = 3, N = 5, K = 4, B = 2 };
    float a[B * M * K], b[B * K * N], y[B * M * N], want[B * M * N];
    char what[160], detail[160];
    for (int i = 0; i < B * M * K; i++)
        a[i] = (float)((i * 7) % 11) - 5.0f;
    for (int i = 0; i < B * K * N; i++)
        b[i] = (float)((i * 5) % 13) - 6.0f;
    for (int ta = 0; ta < 2; ta++)
        for (int tb = 0; tb < 2; tb++)
            for (int batch = 1; batch <= B; batch++) {
                rlxr_rocblas_args g;
                int got = rlxr_rocblas_gemm_args(M, N, K, ta, tb, batch,
                                                 M * K, K * N, &g);
                memset(y, 0, sizeof y);
                int rs = got ? rlxr_rocblas_gemm(rb, NULL, RLX_DTYPE_F32, a,
                                                 b, y, &g)
                             : -2;
                double err = 0;
                for (int t = 0; t < batch; t++)
                    ref(ta, tb, M, N, K, a + t * M * K, b + t * K * N,
                        want + t * M * N);
                for (int i = 0; i < batch * M * N; i++)
                    err = fmax(err, fabs((double)y[i] - want[i]));
                snprintf(what, sizeof what, "f32 %s%s batch %d through %s "
                         "matches the row-major product", ta ? "a^T" : "a",
                         tb ? " b^T" : " b", batch, last->fn);
                snprintf(detail, sizeof detail, "status %d, max |diff| %g",
                         rs, err);
                ok(rs == 0 && err == 0 &&
                       !strcmp(last->fn, batch == 1
                                             ? "rocblas_sgemm"
                                             : "rocblas_sgemm_strided_batched")
                       /* the swap: the call's a is our b */
                       && last->a == b && last->b == a && last->c == y,
                   what, detail);
            }
}

void rocm_rocblas_tests(ok_fn ok, const char *fake, const char *partial)
{
    rlxr_rocblas rb;
    rlxr_rocblas_args g;
    char why[400], detail[1100];

    /* (a) nothing installed (Debian 12 packages no rocBLAS), or a path
     * that does not exist: a clean 0, the own GEMM, said at info level */
    int have_system = 0;
    for (int i = 0; i < 3 && !have_system; i++) {
        const char *n[] = {"librocblas.so.4", "librocblas.so.3",
                           "librocblas.so.0"};
        void *h = dlopen(n[i], RTLD_LAZY | RTLD_NOLOAD);
        if (!h)
            h = dlopen(n[i], RTLD_LAZY);
        if (h) {
            have_system = 1;
            dlclose(h);
        }
    }
    opt_library = NULL;
    last_log[0] = 0;
    int r = rlxr_rocblas_open(&test_host, &rb, why, sizeof why);
    snprintf(detail, sizeof detail, "%s", last_log);
    if (!have_system)
        ok(r == 0 && rb.lib == NULL && rb.sgemm == NULL &&
               strstr(last_log, "rocBLAS not found, using the own GEMM") &&
               strstr(last_log, "Fix:") &&
               atoi(last_log) == RLX_LOG_INFO,
           "no rocBLAS installed: 'rocBLAS not found, using the own GEMM' "
           "at info level", detail);
    else
        ok(r == 1 && rb.sgemm != NULL, "a system rocBLAS is found", detail);
    rlxr_rocblas_close(&rb);

    opt_library = "/nonexistent/librocblas.so.4";
    r = rlxr_rocblas_open(&test_host, &rb, why, sizeof why);
    snprintf(detail, sizeof detail, "%s", last_log);
    ok(r == 0 && rb.lib == NULL &&
           strstr(last_log, "rocBLAS not found, using the own GEMM") &&
           strstr(last_log, "/nonexistent/librocblas.so.4"),
       "rocm.rocblas_library pointing nowhere: the own GEMM, naming the "
       "path", detail);

    /* a library without rocblas_sgemm */
    opt_library = partial;
    r = rlxr_rocblas_open(&test_host, &rb, why, sizeof why);
    snprintf(detail, sizeof detail, "%s", last_log);
    ok(r == 0 && rb.lib == NULL && strstr(last_log, "lacks rocblas_sgemm") &&
           strstr(last_log, "using the own GEMM"),
       "a rocBLAS lacking rocblas_sgemm: the own GEMM, naming the symbol",
       detail);

    /* (b) the fake: every symbol resolves */
    opt_library = fake;
    r = rlxr_rocblas_open(&test_host, &rb, why, sizeof why);
    snprintf(detail, sizeof detail, "%s", last_log);
    ok(r == 1 && rb.create_handle && rb.destroy_handle && rb.set_stream &&
           rb.sgemm && rb.sgemm_sb && rb.gemm_ex && rb.gemm_sb_ex &&
           strstr(last_log, "matmuls through rocBLAS"),
       "the fake rocBLAS loads through rocm.rocblas_library, all 7 symbols",
       detail);
    if (r != 1)
        return;
    const fake_call *(*last_fn)(void) = NULL;
    void *p = dlsym(rb.lib, "fake_rocblas_last");
    memcpy(&last_fn, &p, sizeof p);
    const fake_call *last = last_fn ? last_fn() : NULL;
    ok(last != NULL, "the fake's record is reachable", "");
    if (!last) {
        rlxr_rocblas_close(&rb);
        return;
    }
    rlxr_rb_handle h = NULL;
    int cs = rb.create_handle(&h);
    int ss = rb.set_stream(h, (void *)&rb);
    ok(cs == 0 && h != NULL && ss == 0 && last->stream == (void *)&rb,
       "create_handle and set_stream reach the library", "");

    /* the pure translation: y[m,n] row-major = y^T column-major */
    ok(rlxr_rocblas_gemm_args(3, 5, 4, 0, 0, 1, 0, 0, &g) &&
           g.trans_a == RLXR_RB_OP_N && g.trans_b == RLXR_RB_OP_N &&
           g.m == 5 && g.n == 3 && g.k == 4 && g.lda == 5 && g.ldb == 4 &&
           g.ldc == 5 && g.batch == 1,
       "a [3,4] b [4,5]: N N, m=5 n=3 k=4, lda=5 ldb=4 ldc=5", "");
    ok(rlxr_rocblas_gemm_args(3, 5, 4, 1, 1, 2, 12, 20, &g) &&
           g.trans_a == RLXR_RB_OP_T && g.trans_b == RLXR_RB_OP_T &&
           g.lda == 4 && g.ldb == 3 && g.ldc == 5 && g.stride_a == 20 &&
           g.stride_b == 12 && g.stride_c == 15 && g.batch == 2,
       "a^T [4,3] b^T [5,4], batch 2: T T, lda=4 ldb=3, strides swapped",
       "");
    ok(!rlxr_rocblas_gemm_args((int64_t)1 << 31, 5, 4, 0, 0, 1, 0, 0, &g) &&
           !rlxr_rocblas_gemm_args(3, 5, 0, 0, 0, 1, 0, 0, &g),
       "sizes over rocBLAS's 32 bits or empty: not translated (own GEMM)",
       "");

    check_values(ok, &rb, last);

    /* f16 and bf16: gemm_ex with f32 compute, in place (c = d) */
    static uint16_t a16[12], b16[20], y16[30];
    rlxr_rocblas_gemm_args(3, 5, 4, 0, 1, 1, 0, 0, &g);
    int rs = rlxr_rocblas_gemm(&rb, h, RLX_DTYPE_F16, a16, b16, y16, &g);
    snprintf(detail, sizeof detail, "%s types %d/%d compute %d algo %d",
             last->fn, last->a_type, last->c_type, last->compute_type,
             last->algo);
    ok(rs == 0 && !strcmp(last->fn, "rocblas_gemm_ex") &&
           last->a_type == RLXR_RB_F16 && last->c_type == RLXR_RB_F16 &&
           last->compute_type == RLXR_RB_F32 &&
           last->algo == RLXR_RB_ALGO_STANDARD &&
           last->trans_a == RLXR_RB_OP_T && last->lda == 4 &&
           last->a == b16 && last->b == a16,
       "f16: rocblas_gemm_ex, f16_r data, f32_r compute, standard algo",
       detail);
    rlxr_rocblas_gemm_args(3, 5, 4, 0, 0, 2, 12, 20, &g);
    static uint16_t a2[24], b2[40], y2[30];
    rs = rlxr_rocblas_gemm(&rb, h, RLX_DTYPE_BF16, a2, b2, y2, &g);
    snprintf(detail, sizeof detail, "%s types %d batch %d strides %lld "
             "%lld %lld", last->fn, last->a_type, last->batch,
             (long long)last->stride_a, (long long)last->stride_b,
             (long long)last->stride_c);
    ok(rs == 0 && !strcmp(last->fn, "rocblas_gemm_strided_batched_ex") &&
           last->a_type == RLXR_RB_BF16 && last->compute_type == RLXR_RB_F32 &&
           last->batch == 2 && last->stride_a == 20 && last->stride_b == 12 &&
           last->stride_c == 15,
       "bf16 batch 2: rocblas_gemm_strided_batched_ex, bf16_r", detail);
    int n_before = last->n_calls;
    rs = rlxr_rocblas_gemm(&rb, h, RLX_DTYPE_I32, a2, b2, y2, &g);
    ok(rs == -1 && last->n_calls == n_before &&
           !rlxr_rocblas_can(&rb, RLX_DTYPE_I32, 1),
       "i32: no call made (the own kernels' business)", "");
    ok(rb.destroy_handle(h) == 0, "destroy_handle reaches the library", "");
    rlxr_rocblas_close(&rb);
    ok(rb.lib == NULL && rb.sgemm == NULL, "close clears the table", "");
}
