/* test-blas-qchain.c - cpu-openblas's byte-in, byte-out QDQ chains
 * against cpu-ref's separate ops, bit for bit. Built once per variant
 * (level in RLX_TEST_BLAS_LEVEL; the avx512 one takes the VBMI lookup
 * where the CPU has it): dequantize -> unary ops -> quantize as one
 * table (qchain.c) for each activation of the mobile nets, u8 and i8,
 * scales that saturate and scales read at run time that change between
 * runs (the table must be remade), and a SiLU (x times a sigmoid
 * chain of x) as one table; a global average pool on bytes (qgap.c).
 * Every byte value is an input. The
 * debug log must say the chain was fused, or, where a value is read
 * twice, that it was not. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "blas-test-util.h"
#include "hostfit.h"

#ifndef RLX_TEST_BLAS_LEVEL
#define RLX_TEST_BLAS_LEVEL 0
#endif

#define U8 RLX_DTYPE_U8
#define I8 RLX_DTYPE_I8

static const char *const suffix[] = { "", "-avx2", "-avx512" };

static void need_variant(void)
{
    rlxb_cpu_bits bits;
    rlxb_cpu_bits_read(&bits);
    if (rlxb_host_fit_decide(RLX_TEST_BLAS_LEVEL, &bits) == 0)
        SKIP("this CPU cannot run variant level %d", RLX_TEST_BLAS_LEVEL);
}

static rlx_value node(rlx_graph *g, rlx_op op, uint32_t n,
                      const rlx_value *in, const rlx_attrs *at)
{
    rlx_value v, copy[4];
    memcpy(copy, in, n * sizeof *in);
    if (rlx_graph_add_node(g, NULL, op, n, copy, at, &v) != RLX_OK)
        FAIL("node %d: %s", (int)op, rlx_last_error());
    return v;
}

static rlx_value constant(rlx_graph *g, const char *name, rlx_dtype t,
                          const void *data)
{
    rlx_value v;
    if (rlx_graph_constant(g, name, t, 0, NULL, data, &v) != RLX_OK)
        FAIL("constant %s: %s", name, rlx_last_error());
    return v;
}

typedef struct qcase {
    const rlx_op *ops;        /* the unary chain */
    uint32_t n_ops;
    rlx_dtype tx, ty;
    float sx, sy;
    int zx, zy;
    int scale_inputs;         /* scales are graph inputs, not constants */
    int dq_out;               /* the dequantize is also an output */
    int read_twice;           /* the last op is also an output: no fusion */
} qcase;

/* x [2, 3, 300]: every byte value, then a pattern. */
static void fill(uint8_t *x, size_t n, unsigned salt)
{
    for (size_t i = 0; i < n; i++)
        x[i] = (uint8_t)(i < 256 ? i : (i * 37u + salt * 101u) >> 1);
}

static void check(const qcase *k)
{
    const int64_t dims[3] = { 2, 3, 300 };
    const size_t n = 2 * 3 * 300;
    rlx_graph *g = NULL;
    ASSERT_OK(rlx_graph_create(&g));
    rlx_value x, sx, sy, v;
    uint8_t zx = (uint8_t)k->zx, zy = (uint8_t)k->zy;
    ASSERT_OK(rlx_graph_input(g, "x", k->tx, 3, dims, &x));
    if (k->scale_inputs) {
        ASSERT_OK(rlx_graph_input(g, "sx", RLX_DTYPE_F32, 0, NULL, &sx));
        ASSERT_OK(rlx_graph_input(g, "sy", RLX_DTYPE_F32, 0, NULL, &sy));
    } else {
        sx = constant(g, "sx", RLX_DTYPE_F32, &k->sx);
        sy = constant(g, "sy", RLX_DTYPE_F32, &k->sy);
    }
    const int64_t q_at[2] = { 1, 0 };
    const rlx_attrs qa = { .n_ints = 2, .ints = q_at };
    rlx_value d = node(g, RLX_OP_DEQUANTIZE_LINEAR, 3,
                       (rlx_value[]){ x, sx, constant(g, "zx", k->tx, &zx) },
                       &qa);
    v = d;
    for (uint32_t j = 0; j < k->n_ops; j++)
        v = node(g, k->ops[j], 1, &v, NULL);
    rlx_value last = v;
    v = node(g, RLX_OP_QUANTIZE_LINEAR, 3,
             (rlx_value[]){ v, sy, constant(g, "zy", k->ty, &zy) }, &qa);
    ASSERT_OK(rlx_graph_output(g, "y", v));
    if (k->dq_out)
        ASSERT_OK(rlx_graph_output(g, "d", d));
    if (k->read_twice)
        ASSERT_OK(rlx_graph_output(g, "d", last));
    rlx_runtime *rt = blas_runtime();
    ASSERT_OK(rlx_runtime_load_plugin(
        rt, blas_variant_path(suffix[RLX_TEST_BLAS_LEVEL])));
    rlx_session *sb = NULL, *sr = NULL;
    static char log[1 << 16];
    rlx_program *pb = blas_compile(rt, "cpu-openblas", &sb, g, log,
                                   sizeof log);
    rlx_program *pr = blas_compile(rt, "cpu-ref", &sr, g, NULL, 0);
    int fused = strstr(log, "1 quantized unary chains as tables") != NULL;
    if (fused == k->read_twice)
        FAIL("the chain was %sfused; log:\n%s", fused ? "" : "not ", log);
    uint8_t *xb = malloc(n);
    ASSERT(xb);
    uint32_t n_out = 1 + (k->dq_out || k->read_twice);
    for (unsigned round = 0; round < (k->scale_inputs ? 3u : 2u); round++) {
        /* inputs scales: a new pair each round but the last, which
         * repeats the first (the table is remade both times) */
        float s[2] = { k->sx * (round == 1 ? 3.0f : 1.0f),
                       k->sy / (round == 1 ? 7.0f : 1.0f) };
        fill(xb, n, round);
        rlx_program *ps[2] = { pb, pr };
        for (int i = 0; i < 2; i++) {
            ASSERT_OK(rlx_program_set_input(ps[i], "x", xb, n));
            if (k->scale_inputs) {
                ASSERT_OK(rlx_program_set_input(ps[i], "sx", &s[0], 4));
                ASSERT_OK(rlx_program_set_input(ps[i], "sy", &s[1], 4));
            }
            ASSERT_OK(rlx_program_run(ps[i]));
        }
        for (uint32_t o = 0; o < n_out; o++) {
            size_t nb = 0, nr = 0;
            const uint8_t *got = rlx_program_output_data(pb, o, &nb);
            const uint8_t *want = rlx_program_output_data(pr, o, &nr);
            ASSERT(got && want);
            ASSERT_EQ(nb, o ? n * 4 : n);
            ASSERT_EQ(nr, nb);
            /* an f32 output read twice runs through cpu-openblas's own
             * unary kernels: close to cpu-ref, not bit for bit */
            if (o && k->read_twice) {
                const float *gf = (const float *)got;
                const float *wf = (const float *)want;
                for (size_t i = 0; i < n; i++)
                    if (!(fabsf(gf[i] - wf[i]) <= 1e-5f * (1 + fabsf(wf[i]))))
                        FAIL("round %u: f32 output %zu is %g, cpu-ref %g",
                             round, i, gf[i], wf[i]);
                continue;
            }
            /* unfused, the op is cpu-openblas's own: a step at most */
            for (size_t i = 0; k->read_twice && i < nb; i++)
                if (abs((int)got[i] - (int)want[i]) > 1)
                    FAIL("round %u: unfused byte %zu is %u, cpu-ref %u",
                         round, i, got[i], want[i]);
            if (!k->read_twice && memcmp(got, want, nb) != 0) {
                size_t i = 0;
                while (got[i] == want[i])
                    i++;
                FAIL("op %d dtypes %d/%d round %u: output %u byte %zu "
                     "differs (%u, cpu-ref %u; x %u)", (int)k->ops[0],
                     (int)k->tx, (int)k->ty, round, o, i, got[i], want[i],
                     xb[o ? i / 4 : i]);
            }
        }
    }
    free(xb);
    rlx_program_destroy(pb);
    rlx_program_destroy(pr);
    rlx_session_destroy(sb);
    rlx_session_destroy(sr);
    rlx_runtime_destroy(rt);
    rlx_graph_destroy(g);
}

static const rlx_op sigmoid[] = { RLX_OP_SIGMOID };
static const rlx_op hsig[] = { RLX_OP_HARD_SIGMOID };
static const rlx_op hswish[] = { RLX_OP_HARD_SWISH };
static const rlx_op two[] = { RLX_OP_TANH, RLX_OP_SIGMOID };

TEST(unary_chains)
{
    need_variant();
    /* the mobile nets' activations, u8 -> u8 as the QDQ exports have
     * them; i8 sides; a small output scale saturates, one near the
     * input's rounds many halves */
    check(&(qcase){ sigmoid, 1, U8, U8, 0.0731f, 0.0039216f, 117,
                    0, 0, 0, 0 });
    check(&(qcase){ hsig, 1, U8, U8, 0.0412f, 0.0039216f, 140, 0, 0, 0, 0 });
    check(&(qcase){ hswish, 1, U8, U8, 0.0517f, 0.0344f, 99, 11, 0, 0, 0 });
    check(&(qcase){ hswish, 1, I8, U8, 0.031f, 0.002f, 0xfb, 3, 0, 0, 0 });
    check(&(qcase){ sigmoid, 1, U8, I8, 0.11f, 0.0039f, 0, 0x80, 0, 0, 0 });
    check(&(qcase){ two, 2, I8, I8, 0.02f, 0.0078125f, 0x7f, 0, 0, 0, 0 });
}

TEST(unary_chain_scales_at_run_time)
{
    need_variant();
    check(&(qcase){ hswish, 1, U8, U8, 0.0517f, 0.0344f, 99, 11, 1, 0, 0 });
    check(&(qcase){ sigmoid, 1, I8, U8, 0.05f, 0.004f, 0, 0, 1, 0, 0 });
}

TEST(unary_chain_shared_values)
{
    need_variant();
    /* a dequantize that is also an output stays, the chain still fuses */
    check(&(qcase){ sigmoid, 1, U8, U8, 0.0731f, 0.0039f, 117, 0, 0, 1, 0 });
    /* an op read twice ends the chain: nothing fused, same bytes */
    check(&(qcase){ hsig, 1, U8, U8, 0.0412f, 0.0039f, 140, 0, 0, 0, 1 });
}

/* SiLU as a QDQ export leaves it: s = q(sigmoid(dq(x))), then
 * q(dq(x) * dq(s)), all one table. SWAP: the mul reads s first; OWN: the
 * mul's x has its own dequantize with another scale; OP: mul or add. */
static void check_silu(rlx_dtype tx, rlx_dtype ty, int swap, int own,
                       rlx_op op)
{
    const int64_t dims[2] = { 5, 301 };
    const size_t n = 5 * 301;
    rlx_graph *g = NULL;
    ASSERT_OK(rlx_graph_create(&g));
    rlx_value x;
    ASSERT_OK(rlx_graph_input(g, "x", tx, 2, dims, &x));
    float sx = 0.0613f, sx2 = 0.0311f, ss = 0.0039216f, sy = 0.0457f;
    uint8_t zx = tx == U8 ? 133 : 0xf0, zs = 0, zy = ty == U8 ? 21 : 0x90;
    const int64_t q_at[2] = { 1, 0 };
    const rlx_attrs qa = { .n_ints = 2, .ints = q_at };
    rlx_value zxv = constant(g, "zx", tx, &zx);
    rlx_value d = node(g, RLX_OP_DEQUANTIZE_LINEAR, 3,
                       (rlx_value[]){ x, constant(g, "sx", RLX_DTYPE_F32,
                                                  &sx), zxv }, &qa);
    rlx_value sg = node(g, RLX_OP_SIGMOID, 1, &d, NULL);
    sg = node(g, RLX_OP_QUANTIZE_LINEAR, 3,
              (rlx_value[]){ sg, constant(g, "ss", RLX_DTYPE_F32, &ss),
                             constant(g, "zs", U8, &zs) }, &qa);
    sg = node(g, RLX_OP_DEQUANTIZE_LINEAR, 3,
              (rlx_value[]){ sg, constant(g, "ss2", RLX_DTYPE_F32, &ss),
                             constant(g, "zs2", U8, &zs) }, &qa);
    rlx_value dm = own ? node(g, RLX_OP_DEQUANTIZE_LINEAR, 3,
                              (rlx_value[]){ x, constant(g, "sx2",
                                                         RLX_DTYPE_F32,
                                                         &sx2), zxv }, &qa)
                       : d;
    rlx_value m = node(g, op, 2,
                       swap ? (rlx_value[]){ sg, dm }
                            : (rlx_value[]){ dm, sg }, NULL);
    rlx_value y = node(g, RLX_OP_QUANTIZE_LINEAR, 3,
                       (rlx_value[]){ m, constant(g, "sy", RLX_DTYPE_F32,
                                                  &sy),
                                      constant(g, "zy", ty, &zy) }, &qa);
    ASSERT_OK(rlx_graph_output(g, "y", y));
    rlx_runtime *rt = blas_runtime();
    ASSERT_OK(rlx_runtime_load_plugin(
        rt, blas_variant_path(suffix[RLX_TEST_BLAS_LEVEL])));
    rlx_session *sb = NULL, *sr = NULL;
    static char log[1 << 16];
    rlx_program *pb = blas_compile(rt, "cpu-openblas", &sb, g, log,
                                   sizeof log);
    rlx_program *pr = blas_compile(rt, "cpu-ref", &sr, g, NULL, 0);
    if (!strstr(log, "1 quantized unary chains as tables, 1 of them with "
                     "the add or mul after them"))
        FAIL("the SiLU was not one table; log:\n%s", log);
    uint8_t *xb = malloc(n);
    ASSERT(xb);
    fill(xb, n, 3);
    rlx_program *ps[2] = { pb, pr };
    for (int i = 0; i < 2; i++) {
        ASSERT_OK(rlx_program_set_input(ps[i], "x", xb, n));
        ASSERT_OK(rlx_program_run(ps[i]));
    }
    size_t nb = 0, nr = 0;
    const uint8_t *got = rlx_program_output_data(pb, 0, &nb);
    const uint8_t *want = rlx_program_output_data(pr, 0, &nr);
    ASSERT(got && want);
    ASSERT_EQ(nb, n);
    ASSERT_EQ(nr, n);
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i])
            FAIL("swap %d own %d: byte %zu is %u, cpu-ref %u (x %u)", swap,
                 own, i, got[i], want[i], xb[i]);
    free(xb);
    rlx_program_destroy(pb);
    rlx_program_destroy(pr);
    rlx_session_destroy(sb);
    rlx_session_destroy(sr);
    rlx_runtime_destroy(rt);
    rlx_graph_destroy(g);
}

TEST(silu_one_table)
{
    need_variant();
    check_silu(U8, U8, 0, 0, RLX_OP_MUL);
    check_silu(U8, I8, 1, 0, RLX_OP_MUL);
    check_silu(I8, U8, 0, 1, RLX_OP_MUL);
    check_silu(U8, U8, 1, 1, RLX_OP_ADD);
}

/* A QDQ global average pool, q(reduce_mean(dq(x))) over the last two
 * dims, on bytes (qgap.c), against cpu-ref. SX is x's scale (an
 * infinite one takes the double sum). RESIDUAL: planes of triples
 * (zx + 2a, zx - a, zx - a), whose values sum to 0 but whose
 * dequantized values do not (each rounds on its own), the mean only the
 * rounding errors: with a tiny output scale every byte shows them; 2:
 * triples (zx + 155, zx - 100, zx - 55), for a scale where 155 rounds
 * up by half its last bit (the largest error, 2^7 of the scale's last
 * bit). */
static void check_gap(rlx_dtype tx, rlx_dtype ty, int64_t h, int64_t w,
                      float sx, int zx, float sy, int zy, int residual)
{
    const int64_t dims[4] = { 2, 7, h, w };
    const size_t n = (size_t)(2 * 7 * h * w);
    rlx_graph *g = NULL;
    ASSERT_OK(rlx_graph_create(&g));
    rlx_value x;
    ASSERT_OK(rlx_graph_input(g, "x", tx, 4, dims, &x));
    uint8_t zxb = (uint8_t)zx, zyb = (uint8_t)zy;
    const int64_t q_at[2] = { 1, 0 }, r_at[3] = { 1, 2, 3 };
    const rlx_attrs qa = { .n_ints = 2, .ints = q_at };
    const rlx_attrs ra = { .n_ints = 3, .ints = r_at };
    rlx_value d = node(g, RLX_OP_DEQUANTIZE_LINEAR, 3,
                       (rlx_value[]){ x, constant(g, "sx", RLX_DTYPE_F32,
                                                  &sx),
                                      constant(g, "zx", tx, &zxb) }, &qa);
    rlx_value m = node(g, RLX_OP_REDUCE_MEAN, 1, &d, &ra);
    rlx_value y = node(g, RLX_OP_QUANTIZE_LINEAR, 3,
                       (rlx_value[]){ m, constant(g, "sy", RLX_DTYPE_F32,
                                                  &sy),
                                      constant(g, "zy", ty, &zyb) }, &qa);
    ASSERT_OK(rlx_graph_output(g, "y", y));
    rlx_runtime *rt = blas_runtime();
    ASSERT_OK(rlx_runtime_load_plugin(
        rt, blas_variant_path(suffix[RLX_TEST_BLAS_LEVEL])));
    rlx_session *sb = NULL, *sr = NULL;
    static char log[1 << 16];
    rlx_program *pb = blas_compile(rt, "cpu-openblas", &sb, g, log,
                                   sizeof log);
    rlx_program *pr = blas_compile(rt, "cpu-ref", &sr, g, NULL, 0);
    if (!strstr(log, "1 quantized means on bytes"))
        FAIL("the mean was not fused; log:\n%s", log);
    uint8_t *xb = malloc(n);
    ASSERT(xb);
    for (unsigned round = 0; round < 2; round++) {
        /* round 0: a pattern with every byte; 1: planes of one value
         * each (the extremes: sums that round most) */
        if (residual == 2)
            for (size_t i = 0; i < n; i++)
                xb[i] = (uint8_t)(zx + (i % 3 == 0 ? 155 : i % 3 == 1
                                                            ? -100
                                                            : -55));
        else if (residual)
            for (size_t i = 0; i < n; i++) {
                int a = 1 + (int)((i / 3 * 7 + round * 13) % 63);
                xb[i] = (uint8_t)(zx + (i % 3 == 0 ? 2 * a : -a));
            }
        else if (round == 0)
            fill(xb, n, 5);
        else
            for (size_t i = 0; i < n; i++)
                xb[i] = (uint8_t)((i / (size_t)(h * w)) * 37 % 256);
        rlx_program *ps[2] = { pb, pr };
        for (int i = 0; i < 2; i++) {
            ASSERT_OK(rlx_program_set_input(ps[i], "x", xb, n));
            ASSERT_OK(rlx_program_run(ps[i]));
        }
        size_t nb = 0, nr = 0;
        const uint8_t *got = rlx_program_output_data(pb, 0, &nb);
        const uint8_t *want = rlx_program_output_data(pr, 0, &nr);
        ASSERT(got && want);
        ASSERT_EQ(nb, 14u);
        ASSERT_EQ(nr, 14u);
        for (size_t i = 0; i < 14; i++)
            if (got[i] != want[i])
                FAIL("%lldx%lld scale %g round %u: mean %zu is %u, cpu-ref "
                     "%u", (long long)h, (long long)w, (double)sx, round, i,
                     got[i], want[i]);
    }
    free(xb);
    rlx_program_destroy(pb);
    rlx_program_destroy(pr);
    rlx_session_destroy(sb);
    rlx_session_destroy(sr);
    rlx_runtime_destroy(rt);
    rlx_graph_destroy(g);
}

TEST(global_average_pool_bytes)
{
    need_variant();
    /* planes of 1, 49 (one partial vector), 117 and 3000 bytes; u8 and
     * i8; a scale with a full 24-bit significand (large rounding errors
     * per byte); an output scale the mean rounds on by halves */
    check_gap(U8, U8, 7, 7, 0.0713f, 131, 0.0713f, 131, 0);
    check_gap(U8, U8, 9, 13, 0x1.fffffep-5f, 0, 0.0078125f, 7, 0);
    check_gap(I8, U8, 1, 1, 0.02f, 0xfd, 0.01f, 0, 0);
    check_gap(I8, I8, 50, 60, 0.3333333f, 0x80, 0.05f, 0x85, 0);
    check_gap(U8, I8, 17, 19, 1e-30f, 255, 1e-31f, 0, 0);
    /* means of rounding errors alone, seen at their own scale */
    check_gap(U8, U8, 9, 13, 0x1.fffffep-5f, 128, 0x1p-30f, 128, 1);
    check_gap(I8, U8, 40, 30, 0x1.abcdefp-3f, 0, 0x1p-28f, 128, 1);
    check_gap(U8, U8, 3, 5, 0x1.fffdp-7f, 100, 0x1p-30f, 100, 2);
    /* an infinite scale: the double sum (NaN and infinities) */
    check_gap(U8, U8, 7, 7, INFINITY, 100, 0.5f, 9, 0);
}

/* qround.h: nearbyintf(q / s) by the reciprocal with its check, against
 * the divide, on random quotients and on ones at half integers (where
 * only the divide can say which way), for scales of every size. */
#if defined(__x86_64__) && defined(__GNUC__)
#pragma GCC push_options
#pragma GCC target("avx512f,avx512dq")
#include "qround.h"
static int qdiv_check(uint32_t *seed, float *bad_q, float *bad_s)
{
    int fails = 0;
    for (int i = 0; i < 200000 && !fails; i++) {
        *seed = *seed * 1664525u + 1013904223u;
        float s = ldexpf(1.0f + (float)(*seed >> 9) * 0x1p-23f,
                         (int)(*seed % 40) - 30);
        *seed = *seed * 1664525u + 1013904223u;
        float k = (float)((int)(*seed % 2400) - 1200);
        /* half of them at k + 1/2 exactly (as close as f32 gets) */
        float q = (i & 1) ? (k + 0.5f) * s
                          : (k + (float)(*seed >> 20) * 0x1p-12f) * s;
        float qs[16], r[16];
        for (int l = 0; l < 16; l++)
            qs[l] = l & 1 ? -q : q;
        int mode = rlxb_qdiv_mode(s);
        _mm512_storeu_ps(r, rlxb_qdiv_round(_mm512_loadu_ps(qs),
                                            _mm512_set1_ps(s),
                                            _mm512_set1_ps(1.0f / s),
                                            mode));
        for (int l = 0; l < 16; l++) {
            float want = nearbyintf(qs[l] / s);
            int same = memcmp(&want, &r[l], sizeof want) == 0 ||
                       (fabsf(want) >= 1000.0f && fabsf(r[l]) >= 1000.0f &&
                        (want < 0) == (r[l] < 0));
            if (!same) {
                *bad_q = qs[l];
                *bad_s = s;
                fails++;
            }
        }
    }
    return fails;
}
#pragma GCC pop_options

TEST(qdiv_round)
{
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("avx512f") ||
        !__builtin_cpu_supports("avx512dq"))
        SKIP("no AVX-512 on this CPU");
    uint32_t seed = 12345;
    float bq = 0, bs = 0;
    if (qdiv_check(&seed, &bq, &bs))
        FAIL("round(%a / %a) differs from the divide's", (double)bq,
             (double)bs);
}
#else
TEST(qdiv_round)
{
    SKIP("qround.h is AVX-512 code");
}
#endif

RLX_TEST_LIST(TEST_ENTRY(unary_chains),
              TEST_ENTRY(unary_chain_scales_at_run_time),
              TEST_ENTRY(unary_chain_shared_values),
              TEST_ENTRY(silu_one_table),
              TEST_ENTRY(global_average_pool_bytes),
              TEST_ENTRY(qdiv_round))
