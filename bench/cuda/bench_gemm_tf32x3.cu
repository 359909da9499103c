/*
 * bench_gemm_tf32x3.cu - the 3xTF32 GEMM of plugins/gpu-common
 * (gk_gemm_tf32x3.cu) against cuBLAS: on the encoder block's four f32
 * GEMMs (1024 tokens, Linear weights, so b is stored [n, k]) and 1024 /
 * 2048 squares, cuBLAS SGEMM (FP32), cuBLAS TF32 (one product, for
 * reference only: strict precision may not use it) and each block tile
 * of our kernel, timed, with their error against a float64 reference
 * computed on the GPU. Errors: Frobenius norm of the difference over
 * the reference's, and the largest |y - ref| / (|a| |b|) per element
 * (the componentwise bound a GEMM is judged by). Then correctness of the
 * plugin's entry point on odd shapes, all four transposes, bias + relu
 * and a strided batch. Times: 20 launches captured in a CUDA graph,
 * replayed, event-timed; the median of 15 replays, per launch.
 *
 * The kernel comes from the cuda plugin's kernel library (gpu_kernels.h);
 * built with -Dbench=true, run by bench/run.sh.
 * Exits 1 when a check fails.
 */
#include <rlx/types.h>

#include "gpu_kernels.h"

#include <cublas_v2.h>

#include "bench_util.cuh"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

static int failures;

/* ref = op(a) op(b) and mag = |op(a)| |op(b)| in float64, per element */
__global__ void ref_kernel(const float *a, const float *b, double *ref,
                           double *mag, int64_t m, int64_t n, int64_t k,
                           int ta, int tb)
{
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= m * n)
        return;
    int64_t r = i / n, c = i % n;
    double s = 0, w = 0;
    for (int64_t kk = 0; kk < k; kk++) {
        double x = a[ta ? kk * m + r : r * k + kk];
        double z = b[tb ? c * k + kk : kk * n + c];
        s += x * z;
        w += fabs(x * z);
    }
    ref[i] = s;
    mag[i] = w;
}

struct Err {
    double fro, comp;
};

/* y (m x n) against ref; BIAS_RELU: ref gets + bias[c], then relu */
static Err error_of(const float *dy, const std::vector<double> &ref,
                    const std::vector<double> &mag, int64_t m, int64_t n,
                    const std::vector<float> *bias = nullptr)
{
    std::vector<float> y((size_t)(m * n));
    CK(cudaMemcpy(y.data(), dy, y.size() * 4, cudaMemcpyDeviceToHost));
    double num = 0, den = 0, comp = 0;
    for (size_t i = 0; i < y.size(); i++) {
        double r = ref[i];
        if (bias) {
            r += (*bias)[i % (size_t)n];
            r = r > 0 ? r : 0;
        }
        double d = (double)y[i] - r;
        if (std::isnan(d))
            return { INFINITY, INFINITY };
        num += d * d;
        den += r * r;
        double w = mag[i] + (bias ? fabs((*bias)[i % (size_t)n]) : 0);
        if (w > 0)
            comp = std::max(comp, fabs(d) / w);
    }
    return { den > 0 ? sqrt(num / den) : sqrt(num), comp };
}

static void fill(std::vector<float> &v, unsigned long long seed)
{
    for (auto &x : v) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        x = (float)((seed >> 40) / 16777216.0 * 2 - 1);
    }
}

struct Problem {
    int64_t m, n, k, batch;
    int ta, tb;
    float *a, *b, *y;
    std::vector<double> ref, mag;

    Problem(int64_t m_, int64_t n_, int64_t k_, int ta_, int tb_,
            int64_t batch_ = 1)
        : m(m_), n(n_), k(k_), batch(batch_), ta(ta_), tb(tb_)
    {
        std::vector<float> ha((size_t)(m * k * batch)),
            hb((size_t)(k * n * batch));
        fill(ha, (unsigned long long)(m * 7 + k));
        fill(hb, (unsigned long long)(n * 13 + k + 1));
        CK(cudaMalloc(&a, ha.size() * 4));
        CK(cudaMalloc(&b, hb.size() * 4));
        CK(cudaMalloc(&y, (size_t)(m * n * batch) * 4));
        CK(cudaMemcpy(a, ha.data(), ha.size() * 4, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(b, hb.data(), hb.size() * 4, cudaMemcpyHostToDevice));
        double *dr, *dm;
        size_t mn = (size_t)(m * n);
        CK(cudaMalloc(&dr, mn * 8 * batch));
        CK(cudaMalloc(&dm, mn * 8 * batch));
        for (int64_t t = 0; t < batch; t++)
            ref_kernel<<<(unsigned)((mn + 255) / 256), 256>>>(
                a + t * m * k, b + t * k * n, dr + t * mn, dm + t * mn, m, n,
                k, ta, tb);
        CK(cudaGetLastError());
        ref.resize(mn * batch);
        mag.resize(mn * batch);
        CK(cudaMemcpy(ref.data(), dr, mn * 8 * batch,
                      cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(mag.data(), dm, mn * 8 * batch,
                      cudaMemcpyDeviceToHost));
        CK(cudaFree(dr));
        CK(cudaFree(dm));
    }
    ~Problem()
    {
        cudaFree(a);
        cudaFree(b);
        cudaFree(y);
    }
    Err err(const std::vector<float> *bias = nullptr) const
    {
        return error_of(y, ref, mag, m, n, bias);
    }
    Err err_batch() const
    {
        Err worst = { 0, 0 };
        for (int64_t t = 0; t < batch; t++) {
            size_t mn = (size_t)(m * n);
            std::vector<double> r(ref.begin() + t * mn,
                                  ref.begin() + (t + 1) * mn),
                w(mag.begin() + t * mn, mag.begin() + (t + 1) * mn);
            Err e = error_of(y + t * mn, r, w, m, n);
            worst.fro = std::max(worst.fro, e.fro);
            worst.comp = std::max(worst.comp, e.comp);
        }
        return worst;
    }
};

/* row-major y = op(a) op(b) through column-major cuBLAS: y^T = op(b)^T
 * op(a)^T */
static void cublas_gemm(cublasHandle_t h, const Problem &p)
{
    const float one = 1.f, zero = 0.f;
    CKB(cublasSgemm(h, p.tb ? CUBLAS_OP_T : CUBLAS_OP_N,
                   p.ta ? CUBLAS_OP_T : CUBLAS_OP_N, (int)p.n, (int)p.m,
                   (int)p.k, &one, p.b, p.tb ? (int)p.k : (int)p.n, p.a,
                   p.ta ? (int)p.m : (int)p.k, &zero, p.y, (int)p.n));
}


static void bench_shape(cublasHandle_t h, cudaStream_t s, const char *name,
                        int64_t m, int64_t n, int64_t k)
{
    Problem p(m, n, k, 0, 1);
    double gflop = 2.0 * m * n * k * 1e-9;
    CKB(cublasSetMathMode(h, CUBLAS_DEFAULT_MATH));
    float t_sgemm = time_us(s, [&] { cublas_gemm(h, p); });
    Err e_sgemm = p.err();
    CKB(cublasSetMathMode(h, CUBLAS_TF32_TENSOR_OP_MATH));
    float t_tf32 = time_us(s, [&] { cublas_gemm(h, p); });
    Err e_tf32 = p.err();
    CKB(cublasSetMathMode(h, CUBLAS_DEFAULT_MATH));
    printf("\n%s: m %lld n %lld k %lld\n", name, (long long)m, (long long)n,
           (long long)k);
    printf("  %-28s %8.2f us %6.1f TFLOPS  err fro %.3e comp %.3e\n",
           "cublas sgemm (fp32)", t_sgemm, gflop * 1e3 / t_sgemm,
           e_sgemm.fro, e_sgemm.comp);
    printf("  %-28s %8.2f us %6.1f TFLOPS  err fro %.3e comp %.3e\n",
           "cublas tf32 (1x, not strict)", t_tf32, gflop * 1e3 / t_tf32,
           e_tf32.fro, e_tf32.comp);
    float best = 1e30f;
    double best_err = 0;
    std::string best_name;
    /* each of the plugin's block tiles, through its launcher (the split-K
     * tiles split as the plugin's autotuner would run them) */
    for (int cfg = 0; cfg < RLXG_TF32X3_CONFIGS; cfg++) {
        char vname[48];
        snprintf(vname, sizeof vname, "cfg %d (split %d)", cfg,
                 rlxg_gemm_tf32x3_splits(cfg));
        CK(cudaMemset(p.y, 0xff, (size_t)(m * n) * 4)); /* NaN */
        float t = time_us(s, [&] {
            CK(rlxg_gemm_tf32x3(s, p.a, p.b, nullptr, p.y, m, n, k, 0, 1, 1,
                                m * k, k * n, m * n, RLXG_GEMM_NONE, cfg));
        });
        Err e = p.err();
        bool ok = e.fro <= 2 * e_sgemm.fro + 1e-7 &&
                  e.comp <= 4 * e_sgemm.comp + 1e-7;
        printf("  3xtf32 %-21s %8.2f us %6.1f TFLOPS  err fro %.3e comp "
               "%.3e  %.2fx sgemm%s\n",
               vname, t, gflop * 1e3 / t, e.fro, e.comp, t_sgemm / t,
               ok ? "" : "  ERROR TOO LARGE");
        if (!ok) {
            failures++;
            continue; /* never the best */
        }
        if (t < best) {
            best = t;
            best_err = e.fro;
            best_name = vname;
        }
    }
    printf("  best 3xtf32: %s %.2f us (%.1f TFLOPS), %.2fx cublas sgemm "
           "%.2f us\n",
           best_name.c_str(), best, gflop * 1e3 / best, t_sgemm / best, t_sgemm);
    printf("RESULT %s sgemm_us %.2f tf32x3_us %.2f speedup %.2f "
           "err_sgemm %.3e err_tf32x3 %.3e\n",
           name, t_sgemm, best, t_sgemm / best, e_sgemm.fro, best_err);
}

/* The plugin's entry point: every config and transpose on odd shapes,
 * bias + relu, a strided batch; each against float64 (and SGEMM's error
 * on the same data, for scale). */
static void check_entry(cublasHandle_t h, int64_t m, int64_t n, int64_t k,
                        int ta, int tb, int64_t batch)
{
    Problem p(m, n, k, ta, tb, batch);
    std::vector<float> hbias((size_t)n);
    fill(hbias, 99);
    float *bias;
    CK(cudaMalloc(&bias, (size_t)n * 4));
    CK(cudaMemcpy(bias, hbias.data(), (size_t)n * 4, cudaMemcpyHostToDevice));
    double e_sgemm = 0;
    if (batch == 1) {
        cublas_gemm(h, p);
        e_sgemm = p.err().fro;
    }
    bool ok_shape = rlxg_gemm_tf32x3_ok(m, n, k, ta, tb, batch, m * k,
                                        k * n);
    for (int cfg = 0; cfg < RLXG_TF32X3_CONFIGS; cfg++)
        for (int relu = 0; relu < (batch == 1 ? 2 : 1); relu++) {
            /* the split-K tiles take no act (and no batch): declined */
            bool declines = rlxg_gemm_tf32x3_splits(cfg) > 1 &&
                            (relu || batch > 1);
            CK(cudaMemset(p.y, 0xff, (size_t)(m * n * batch) * 4));
            gpuError_t e = rlxg_gemm_tf32x3(
                0, p.a, p.b, relu ? bias : nullptr, p.y, m, n, k, ta, tb,
                batch, m * k, k * n, m * n,
                relu ? RLXG_GEMM_RELU : RLXG_GEMM_NONE, cfg);
            CK(cudaDeviceSynchronize());
            if (declines && ok_shape) {
                bool ok = e == cudaErrorInvalidValue;
                failures += !ok;
                if (!ok)
                    printf("FAIL: cfg %d with act/batch launched (%s)\n",
                           cfg, cudaGetErrorName(e));
                cudaGetLastError();
                continue;
            }
            if (!ok_shape) { /* must decline, launching nothing */
                bool ok = e == cudaErrorInvalidValue;
                printf("%s: m %lld n %lld k %lld ta %d tb %d: declined "
                       "(%s)\n",
                       ok ? "ok" : "FAIL", (long long)m, (long long)n,
                       (long long)k, ta, tb, cudaGetErrorName(e));
                failures += !ok;
                cudaGetLastError();
                return;
            }
            Err r = batch > 1 ? p.err_batch()
                              : p.err(relu ? &hbias : nullptr);
            bool ok = e == cudaSuccess && r.fro < std::max(1e-5, 4 * e_sgemm) &&
                      r.comp < 1e-5;
            printf("%s: m %lld n %lld k %lld ta %d tb %d batch %lld cfg %d "
                   "%s: err fro %.3e comp %.3e (sgemm fro %.3e)\n",
                   ok ? "ok" : "FAIL", (long long)m, (long long)n,
                   (long long)k, ta, tb, (long long)batch, cfg,
                   relu ? "bias+relu" : "plain", r.fro, r.comp, e_sgemm);
            failures += !ok;
        }
    CK(cudaFree(bias));
}

int main(int argc, char **argv)
{
    /* an argument: only the shapes whose name contains it, no checks */
    const char *only = argc > 1 ? argv[1] : NULL;
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    printf("device: %s (sm_%d%d, %d SMs)\n", prop.name, prop.major,
           prop.minor, prop.multiProcessorCount);
    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    cublasHandle_t h;
    CKB(cublasCreate(&h));
    CKB(cublasSetStream(h, s));
    void *ws;
    CK(cudaMalloc(&ws, 32 << 20));
    CKB(cublasSetWorkspace(h, ws, 32 << 20));

    static const struct {
        const char *name;
        int64_t m, n, k;
    } shapes_b[] = {
        { "encoder qkv", 1024, 1536, 512 },
        { "encoder out-proj", 1024, 512, 512 },
        { "encoder ff1", 1024, 2048, 512 },
        { "encoder ff2", 1024, 512, 2048 },
        { "square 1024", 1024, 1024, 1024 },
        { "square 2048", 2048, 2048, 2048 },
    };
    for (auto &b : shapes_b)
        if (!only || strstr(b.name, only))
            bench_shape(h, s, b.name, b.m, b.n, b.k);
    if (only)
        return failures ? 1 : 0;

    CKB(cublasSetStream(h, 0));
    printf("\nentry point checks\n");
    static const int64_t shapes[][3] = {
        { 1000, 1532, 508 }, { 77, 36, 20 }, { 129, 260, 1028 },
        { 1, 4, 4 },         { 33, 8, 12 },  { 200, 100, 36 },
    };
    for (auto &sh : shapes)
        for (int ta = 0; ta < 2; ta++)
            for (int tb = 0; tb < 2; tb++)
                check_entry(h, sh[0], sh[1], sh[2], ta, tb, 1);
    check_entry(h, 96, 72, 40, 0, 1, 3);
    check_entry(h, 64, 100, 48, 1, 0, 2);
    check_entry(h, 50, 30, 7, 0, 1, 1);  /* k % 4: declined */
    check_entry(h, 50, 30, 8, 0, 0, 1);  /* n % 4 with b [k, n]: declined */
    printf("\n%s: %d failures\n", failures ? "FAIL" : "PASS", failures);
    return failures ? 1 : 0;
}
