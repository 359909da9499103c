/* test-blas-sgemm.c - the matmul step of one cpu-openblas variant (this
 * executable is built once per variant, linked with its kernels, level
 * in RLX_TEST_BLAS_LEVEL) against a double-precision reference: shapes
 * around the tile sizes, K = 0, both transposes, padded leading
 * dimensions, batches, every epilogue, 1 and 2 threads, and the packed-B
 * cache following the buffer's key; and the pool under them. */
#include <math.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "blas_internal.h"
#include "harness.h"
#include "hostfit.h"

#ifndef RLX_TEST_BLAS_LEVEL
#define RLX_TEST_BLAS_LEVEL 0
#endif

static void need_variant(void)
{
    rlxb_cpu_bits bits;
    rlxb_cpu_bits_read(&bits);
    if (rlxb_host_fit_decide(RLX_TEST_BLAS_LEVEL, &bits) == 0)
        SKIP("this CPU cannot run variant level %d", RLX_TEST_BLAS_LEVEL);
}

static uint64_t rng = 0x9e3779b97f4a7c15u;
static float frand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (float)((double)(rng >> 11) / (double)(1ull << 53) * 2.0 - 1.0);
}

typedef struct shape {
    size_t m, k, n, batch;
    int ta, tb;
    size_t pad_a, pad_b;      /* extra elements per leading dimension */
    int bias, res;
    rlx_op act;
    int64_t approx;
    int shared_b;             /* every batch uses B's first matrix */
} shape;

static double gelu_ref(double x, int64_t approx)
{
    if (isinf(x))
        return x > 0 ? x : 0.0;
    if (approx == RLX_GELU_TANH)
        return 0.5 * x *
               (1.0 + tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)));
    return 0.5 * x * erfc(-x / sqrt(2.0));
}

/* Runs S through rlxb_gemm_run on POOL (three times: B packed, B
 * from the cache, B packed per run) and compares with the reference. */
static void check(rlxb_pool *pool, const shape *s)
{
    size_t lda = (s->ta ? s->m : s->k) + s->pad_a;
    size_t ldb = (s->tb ? s->k : s->n) + s->pad_b;
    size_t a_rows = s->ta ? s->k : s->m, b_rows = s->tb ? s->n : s->k;
    size_t a_mat = a_rows * lda, b_mat = b_rows * ldb;
    size_t nb = s->shared_b ? 1 : s->batch;
    size_t mn = s->m * s->n;
    float *a = malloc((a_mat * s->batch + 1) * sizeof *a);
    float *b = malloc((b_mat * nb + 1) * sizeof *b);
    float *bias = malloc((s->n + 1) * sizeof *bias);
    float *res = malloc((mn * s->batch + 1) * sizeof *res);
    float *y = malloc((mn * s->batch + 1) * sizeof *y);
    double *want = malloc((mn * s->batch + 1) * sizeof *want);
    double *mag = malloc((mn * s->batch + 1) * sizeof *mag);
    ASSERT(a && b && bias && res && y && want && mag);
    for (size_t i = 0; i < a_mat * s->batch; i++)
        a[i] = frand();
    for (size_t i = 0; i < b_mat * nb; i++)
        b[i] = frand();
    for (size_t i = 0; i < s->n; i++)
        bias[i] = frand();
    for (size_t i = 0; i < mn * s->batch; i++)
        res[i] = frand();

    for (size_t t = 0; t < s->batch; t++) {
        const float *at = a + t * a_mat, *bt = b + (s->shared_b ? 0 : t) * b_mat;
        for (size_t i = 0; i < s->m; i++)
            for (size_t j = 0; j < s->n; j++) {
                double acc = 0, g = 0;
                for (size_t q = 0; q < s->k; q++) {
                    double x = s->ta ? at[q * lda + i] : at[i * lda + q];
                    double w = s->tb ? bt[j * ldb + q] : bt[q * ldb + j];
                    acc += x * w;
                    g += fabs(x * w);
                }
                if (s->bias) {
                    acc += bias[j];
                    g += fabs(bias[j]);
                }
                if (s->act == RLX_OP_RELU)
                    acc = acc > 0 ? acc : 0;
                else if (s->act == RLX_OP_GELU)
                    acc = gelu_ref(acc, s->approx);
                size_t o = t * mn + i * s->n + j;
                if (s->res) {
                    acc += res[o];
                    g += fabs(res[o]);
                }
                want[o] = acc;
                mag[o] = g;
            }
    }

    rlxb_gemm p = { 0 };
    p.m = s->m;
    p.k = s->k;
    p.n = s->n;
    p.trans_a = s->ta;
    p.trans_b = s->tb;
    p.lda = lda;
    p.ldb = ldb;
    p.n_batch = s->batch;
    p.a_off = calloc(s->batch, sizeof *p.a_off);
    p.b_off = calloc(s->batch, sizeof *p.b_off);
    ASSERT(p.a_off && p.b_off);
    for (size_t t = 0; t < s->batch; t++) {
        p.a_off[t] = t * a_mat;
        p.b_off[t] = s->shared_b ? 0 : t * b_mat;
    }
    const float *in[4] = { a, b, NULL, NULL };
    uint32_t next = 2;
    p.epi.bias_in = p.epi.res_in = -1;
    if (s->bias) {
        p.epi.bias_in = (int32_t)next;
        in[next++] = bias;
    }
    if (s->res) {
        p.epi.res_in = (int32_t)next;
        in[next++] = res;
    }
    p.epi.act = s->act;
    p.epi.approx = s->approx;

    for (int round = 0; round < 3; round++) {
        /* a param's buffer id (packed in round 0, cached in round 1),
         * then a B that changes between runs (packed per run) */
        p.b_key = round < 2 ? 7 : 0;
        for (size_t i = 0; i < mn * s->batch; i++)
            y[i] = NAN;
        rlxb_gemm_run(pool, &p, in, y);
        for (size_t o = 0; o < mn * s->batch; o++) {
            double tol = 2e-6 * (mag[o] + 1.0) + 1e-6 * fabs(want[o]);
            if (!(fabs((double)y[o] - want[o]) <= tol))
                FAIL("m %zu k %zu n %zu batch %zu ta %d tb %d pads %zu/%zu "
                     "bias %d res %d act %d threads %u round %d: y[%zu] = "
                     "%.8g, want %.8g",
                     s->m, s->k, s->n, s->batch, s->ta, s->tb, s->pad_a,
                     s->pad_b, s->bias, s->res, (int)s->act,
                     rlxb_pool_threads(pool), round, o, (double)y[o],
                     want[o]);
        }
    }
    rlxb_gemm_free(&p);
    free(a);
    free(b);
    free(bias);
    free(res);
    free(y);
    free(want);
    free(mag);
}

static void sweep(unsigned threads)
{
    need_variant();
    rlxb_pool *pool = rlxb_pool_create(threads);
    ASSERT(pool);
    static const size_t dims[] = { 1, 2, 5, 6, 7, 11, 12, 13, 16, 17,
                                   31, 32, 33, 47, 64, 97 };
    size_t nd = sizeof dims / sizeof *dims;
    for (size_t im = 0; im < nd; im++)
        for (size_t in = 0; in < nd; in += 2) {
            size_t k = dims[(im * 7 + in * 3) % nd];
            shape s = { .m = dims[im], .k = k, .n = dims[in], .batch = 1,
                        .act = RLX_OP_INVALID };
            check(pool, &s);
            s.tb = 1;
            s.pad_b = 3;
            check(pool, &s);
        }
    /* bigger than a tile and a KC slice, M over one and several MC
     * blocks */
    static const size_t big[][3] = { { 200, 300, 70 }, { 1, 300, 257 },
                                     { 8, 784, 100 }, { 300, 260, 33 },
                                     { 193, 257, 65 }, { 13, 513, 40 },
                                     { 777, 45, 65 }, { 400, 520, 70 } };
    for (size_t i = 0; i < sizeof big / sizeof *big; i++)
        for (int tb = 0; tb < 2; tb++) {
            shape s = { .m = big[i][0], .k = big[i][1], .n = big[i][2],
                        .batch = 1, .tb = tb, .pad_a = 5, .pad_b = 1,
                        .act = RLX_OP_INVALID };
            check(pool, &s);
        }
    rlxb_pool_destroy(pool);
}

TEST(shapes_one_thread) { sweep(1); }
TEST(shapes_two_threads) { sweep(2); }

TEST(empty_sum_and_transposed_a)
{
    need_variant();
    rlxb_pool *pool = rlxb_pool_create(2);
    ASSERT(pool);
    shape z = { .m = 5, .k = 0, .n = 9, .batch = 2, .bias = 1, .res = 1,
                .act = RLX_OP_GELU };
    check(pool, &z);
    for (int tb = 0; tb < 2; tb++) {
        shape s = { .m = 37, .k = 45, .n = 50, .batch = 1, .ta = 1,
                    .tb = tb, .pad_a = 2, .pad_b = 2, .bias = 1,
                    .act = RLX_OP_RELU };
        check(pool, &s);
        s.m = 1;
        check(pool, &s);
    }
    rlxb_pool_destroy(pool);
}

TEST(epilogues)
{
    need_variant();
    rlxb_pool *pool = rlxb_pool_create(2);
    ASSERT(pool);
    static const rlx_op acts[] = { RLX_OP_INVALID, RLX_OP_RELU,
                                   RLX_OP_GELU, RLX_OP_GELU };
    static const size_t sizes[][3] = { { 1, 40, 33 }, { 8, 70, 100 },
                                       { 30, 300, 45 }, { 130, 64, 64 } };
    for (size_t z = 0; z < 4; z++)
        for (int e = 0; e < 16; e++) {
            shape s = { .m = sizes[z][0], .k = sizes[z][1],
                        .n = sizes[z][2], .batch = 1, .bias = e & 1,
                        .res = (e >> 1) & 1, .act = acts[e >> 2],
                        .approx = (e >> 2) == 3 ? RLX_GELU_TANH : 0,
                        .tb = (int)(z & 1) };
            check(pool, &s);
        }
    rlxb_pool_destroy(pool);
}

TEST(batches)
{
    need_variant();
    for (unsigned threads = 1; threads <= 2; threads++) {
        rlxb_pool *pool = rlxb_pool_create(threads);
        ASSERT(pool);
        for (int tb = 0; tb < 2; tb++)
            for (int shared = 0; shared < 2; shared++) {
                shape s = { .m = 33, .k = 64, .n = 40, .batch = 6, .tb = tb,
                            .shared_b = shared, .bias = 1, .res = 1,
                            .act = RLX_OP_GELU };
                check(pool, &s);
                s.m = 3;
                s.k = 300;
                check(pool, &s);
            }
        rlxb_pool_destroy(pool);
    }
}

/* The packed copy of B follows the key: a new key (another buffer,
 * maybe at the same address) is repacked, the same key is reused. */
TEST(packed_b_follows_the_key)
{
    need_variant();
    rlxb_pool *pool = rlxb_pool_create(1);
    ASSERT(pool);
    enum { M = 3, K = 20, N = 40 };
    float a[M * K], b[K * N], y[M * N];
    for (size_t i = 0; i < M * K; i++)
        a[i] = frand();
    for (size_t i = 0; i < K * N; i++)
        b[i] = 1.0f;
    size_t off = 0;
    rlxb_gemm p = { .m = M, .k = K, .n = N, .lda = K, .ldb = N,
                         .n_batch = 1, .a_off = &off, .b_off = &off };
    p.epi.bias_in = p.epi.res_in = -1;
    p.epi.act = RLX_OP_INVALID;
    const float *in[2] = { a, b };
    float row0 = 0;
    for (size_t q = 0; q < K; q++)
        row0 += a[q];
    p.b_key = 11;
    rlxb_gemm_run(pool, &p, in, y);
    ASSERT(fabsf(y[0] - row0) < 1e-4f);
    for (size_t i = 0; i < K * N; i++) /* new bytes, new buffer id */
        b[i] = 2.0f;
    p.b_key = 12;
    rlxb_gemm_run(pool, &p, in, y);
    ASSERT(fabsf(y[0] - 2 * row0) < 1e-4f);
    p.b_key = 0; /* not cacheable: packed this run */
    for (size_t i = 0; i < K * N; i++)
        b[i] = 3.0f;
    rlxb_gemm_run(pool, &p, in, y);
    ASSERT(fabsf(y[0] - 3 * row0) < 1e-4f);
    p.a_off = p.b_off = NULL; /* on the stack */
    rlxb_gemm_free(&p);
    rlxb_pool_destroy(pool);
}

/* The pool (pool.c): every item exactly once, loop after loop, with
 * workers spinning (back-to-back loops) or asleep (after a pause). */
static void count_items(void *ctx, size_t begin, size_t end)
{
    atomic_uint *hits = ctx;
    for (size_t i = begin; i < end; i++)
        atomic_fetch_add(&hits[i], 1);
}

TEST(pool_runs_every_item_once)
{
    rlxb_pool *pool = rlxb_pool_create(3);
    ASSERT(pool);
    enum { N = 1000 };
    static atomic_uint hits[N];
    for (int loop = 0; loop < 300; loop++) {
        size_t n = (size_t)(loop * 37 % N) + 1;
        for (size_t i = 0; i < n; i++)
            atomic_store(&hits[i], 0);
        rlxb_parallel_for(pool, n, (size_t)(loop % 5), count_items,
                               hits);
        for (size_t i = 0; i < n; i++)
            ASSERT_EQ(atomic_load(&hits[i]), 1);
        if (loop % 50 == 49) /* let the workers fall asleep */
            nanosleep(&(struct timespec){ .tv_nsec = 20000000 }, NULL);
    }
    rlxb_pool_destroy(pool);
}

RLX_TEST_LIST(TEST_ENTRY(pool_runs_every_item_once),
              TEST_ENTRY(shapes_one_thread), TEST_ENTRY(shapes_two_threads),
              TEST_ENTRY(empty_sum_and_transposed_a), TEST_ENTRY(epilogues),
              TEST_ENTRY(batches), TEST_ENTRY(packed_b_follows_the_key))
