/*
 * bench_matmul.c - square matmul, f32 and bf16, through rlx's cuda
 * backend and through cuBLAS called directly (cublasGemmEx, f32
 * accumulation, default math mode: no TF32, like rlx's strict precision).
 *
 * A run of an rlx program always copies its inputs from and outputs to
 * host memory (the plugin ABI hands execute host pointers), so a single
 * matmul's run time is mostly PCIe traffic at large sizes. To measure
 * what the backend does on the GPU, each size is compiled twice: a chain
 * of 1 and of R+1 matmuls by the same resident weight (y = x W W ... W),
 * and the matmul cost is (T(R+1) - T(1)) / R: the copies cancel out. The
 * end-to-end time of the single matmul is printed too.
 *
 * Built with -Dbench=true (rlx-bench-cuda-matmul); run by bench/run.sh.
 * Usage: rlx-bench-cuda-matmul [max_size]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <rlx/rlx.h>

#define CHAIN 8

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_d);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static uint16_t to_bf16(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    u += 0x7fffu + ((u >> 16) & 1u);
    return (uint16_t)(u >> 16);
}

static float from_bf16(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static float frand(void) /* uniform in [-1, 1) */
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (float)((rng >> 11) * (1.0 / 9007199254740992.0)) * 2.f - 1.f;
}

#define CK(x)                                                               \
    do {                                                                    \
        if ((x) != 0) {                                                     \
            fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__,   \
                    #x, rlx_last_error());                                  \
            exit(1);                                                        \
        }                                                                   \
    } while (0)

/* Compile x @ W repeated LEN times on cuda; returns the program. */
static rlx_program *chain(rlx_session *s, rlx_dtype dt, int64_t n, int len,
                          const void *w, size_t wbytes)
{
    rlx_graph *g;
    rlx_value x, wv, y;
    CK(rlx_graph_create(&g));
    CK(rlx_graph_input(g, "x", dt, 2, (int64_t[]){ n, n }, &x));
    CK(rlx_graph_param(g, "w", dt, 2, (int64_t[]){ n, n }, &wv));
    y = x;
    for (int i = 0; i < len; i++)
        CK(rlx_graph_add_node(g, NULL, RLX_OP_MATMUL, 2,
                              (rlx_value[]){ y, wv }, NULL, &y));
    CK(rlx_graph_output(g, "y", y));
    rlx_program *p;
    CK(rlx_session_compile(s, g, &p));
    CK(rlx_program_set_param(p, "w", w, wbytes));
    rlx_graph_destroy(g);
    return p;
}

static double time_run(rlx_program *p, const void *x, size_t xbytes,
                       int reps)
{
    double t[64];
    CK(rlx_program_set_input(p, "x", x, xbytes));
    for (int i = 0; i < 3; i++)
        CK(rlx_program_run(p));
    for (int i = 0; i < reps; i++) {
        double t0 = now_ms();
        CK(rlx_program_run(p));
        t[i] = now_ms() - t0;
    }
    return median(t, reps);
}

int main(int argc, char **argv)
{
    int64_t max_n = argc > 1 ? atoll(argv[1]) : 8192;
    rlx_runtime *rt;
    rlx_session *s;
    CK(rlx_runtime_create(&rt, 0));
    CK(rlx_session_create(rt, "cuda", &s));
    cublasHandle_t h;
    if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS)
        return 1;
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);

    printf("%-5s %6s | %10s %8s | %10s %8s %6s | %10s | %9s\n", "dtype",
           "n", "cuBLAS ms", "TFLOP/s", "rlx ms", "TFLOP/s", "ratio",
           "rlx e2e ms", "rel.err");
    for (int di = 0; di < 2; di++) {
        rlx_dtype dt = di == 0 ? RLX_DTYPE_F32 : RLX_DTYPE_BF16;
        size_t es = di == 0 ? 4 : 2;
        cudaDataType_t ct = di == 0 ? CUDA_R_32F : CUDA_R_16BF;
        for (int64_t n = 256; n <= max_n; n *= 2) {
            size_t cnt = (size_t)(n * n), bytes = cnt * es;
            float *xf = malloc(cnt * 4), *wf = malloc(cnt * 4);
            void *x = malloc(bytes), *w = malloc(bytes), *ref = malloc(bytes);
            float scale = sqrtf(3.0f / (float)n);
            for (size_t i = 0; i < cnt; i++) {
                xf[i] = frand();
                wf[i] = frand() * scale;
            }
            for (size_t i = 0; i < cnt; i++) {
                if (di == 0) {
                    ((float *)x)[i] = xf[i];
                    ((float *)w)[i] = wf[i];
                } else {
                    ((uint16_t *)x)[i] = to_bf16(xf[i]);
                    ((uint16_t *)w)[i] = to_bf16(wf[i]);
                }
            }
            /* cuBLAS direct: C = A B row-major as C^T = B^T A^T. */
            void *da, *db, *dc;
            cudaMalloc(&da, bytes);
            cudaMalloc(&db, bytes);
            cudaMalloc(&dc, bytes);
            cudaMemcpy(da, x, bytes, cudaMemcpyHostToDevice);
            cudaMemcpy(db, w, bytes, cudaMemcpyHostToDevice);
            const float one = 1.f, zero = 0.f;
            int reps = n >= 4096 ? 10 : 30;
            double tc[64];
            for (int i = 0; i < reps + 3; i++) {
                cudaEventRecord(e0, 0);
                cublasStatus_t cs = cublasGemmEx(
                    h, CUBLAS_OP_N, CUBLAS_OP_N, (int)n, (int)n, (int)n,
                    &one, db, ct, (int)n, da, ct, (int)n, &zero, dc, ct,
                    (int)n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
                cudaEventRecord(e1, 0);
                cudaEventSynchronize(e1);
                if (cs != CUBLAS_STATUS_SUCCESS) {
                    fprintf(stderr, "cublasGemmEx failed: %d\n", (int)cs);
                    return 1;
                }
                float ms;
                cudaEventElapsedTime(&ms, e0, e1);
                if (i >= 3)
                    tc[i - 3] = ms;
            }
            double t_cublas = median(tc, reps);
            cudaMemcpy(ref, dc, bytes, cudaMemcpyDeviceToHost);
            cudaFree(da);
            cudaFree(db);
            cudaFree(dc);

            rlx_program *p1 = chain(s, dt, n, 1, w, bytes);
            rlx_program *pr = chain(s, dt, n, CHAIN + 1, w, bytes);
            double t1 = time_run(p1, x, bytes, reps);
            double tr = time_run(pr, x, bytes, reps);
            double t_rlx = (tr - t1) / CHAIN;
            /* accuracy of the single matmul against cuBLAS */
            const void *y = rlx_program_output_data(p1, 0, NULL);
            double num = 0, den = 0;
            for (size_t i = 0; i < cnt; i++) {
                double a = di == 0 ? ((const float *)y)[i]
                                   : from_bf16(((const uint16_t *)y)[i]);
                double b = di == 0 ? ((const float *)ref)[i]
                                   : from_bf16(((const uint16_t *)ref)[i]);
                num += (a - b) * (a - b);
                den += b * b;
            }
            double flop = 2.0 * n * n * n;
            printf("%-5s %6lld | %10.4f %8.1f | %10.4f %8.1f %5.0f%% | "
                   "%10.3f | %9.2e\n", di == 0 ? "f32" : "bf16",
                   (long long)n, t_cublas, flop / t_cublas / 1e9, t_rlx,
                   flop / t_rlx / 1e9, 100.0 * t_cublas / t_rlx, t1,
                   sqrt(num / (den > 0 ? den : 1)));
            fflush(stdout);
            rlx_program_destroy(p1);
            rlx_program_destroy(pr);
            free(xf);
            free(wf);
            free(x);
            free(w);
            free(ref);
        }
    }
    cublasDestroy(h);
    rlx_session_destroy(s);
    rlx_runtime_destroy(rt);
    return 0;
}
