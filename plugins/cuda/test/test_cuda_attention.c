/*
 * test_cuda_attention.c - fused attention in f16, bf16 and f32 on the
 * cuda backend (the tensor-core kernels where the GPU has them; 3xTF32
 * for f32) against a float64 reference computed here from the same
 * rounded inputs.
 * softmax(q k^T * scale [causal]) v with fresh random data per case;
 * shapes cover sequences that are no multiple of the kernel's tiles,
 * head sizes 32, 64 and 128, causal masks with more keys than queries
 * and fewer (rows that see no key give zeros), and each block shape
 * (64, 32 or 16 query rows); for f32 also an infinite key or value
 * element, which IEEE arithmetic turns into inf or NaN only where the
 * reference does.
 * Without a GPU it says so and skips (nothing here can run on a CPU).
 * RLX_TEST_CUDA_CASES=N runs only the first N cases (the small
 * ones, for compute-sanitizer's racecheck). Prints TAP.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rlx/rlx.h>

#include "gpu_plugin_check.h"
#include "test_cuda_expect.h"

/* ---- 16-bit floats on the host (round to nearest even) ---------------- */

static uint16_t f2bf(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    u += 0x7fffu + ((u >> 16) & 1u);
    return (uint16_t)(u >> 16);
}

static float bf2f(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static float h2f(uint16_t h)
{
    int e = (h >> 10) & 31, m = h & 1023;
    float v = e == 0 ? ldexpf((float)m, -24)
                     : ldexpf((float)(m | 1024), e - 25);
    return (h & 0x8000) ? -v : v;
}

static uint16_t f2h(float f) /* |f| well inside f16's normal range here */
{
    uint16_t best = 0;
    float bd = INFINITY;
    /* exact search near the truncated value: slow but obviously right */
    uint32_t u;
    memcpy(&u, &f, 4);
    int e = (int)((u >> 23) & 255) - 127 + 15;
    uint16_t s = (uint16_t)((u >> 16) & 0x8000);
    if (f == 0.f || e < 1)
        return s;
    uint16_t base = (uint16_t)(s | (e << 10) | ((u >> 13) & 1023));
    for (int d = -1; d <= 1; d++) {
        uint16_t c = (uint16_t)(base + d);
        float df = fabsf(h2f(c) - f);
        if (df < bd || (df == bd && !(c & 1))) {
            bd = df;
            best = c;
        }
    }
    return best;
}

static double frand(uint64_t *st)
{
    *st = *st * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(*st >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

typedef struct {
    int64_t b, h, sq, sk, d;
    int causal;
    rlx_dtype dt;
    int inf; /* 1: one element of k is +inf, 2: one of v */
} acase;

/* element I of a buffer of DT as a float, and back (rounded) */
static float get_el(rlx_dtype dt, const void *buf, int64_t i)
{
    const uint16_t *h = buf;
    return dt == RLX_DTYPE_F32   ? ((const float *)buf)[i]
           : dt == RLX_DTYPE_BF16 ? bf2f(h[i])
                                  : h2f(h[i]);
}

static void put_el(rlx_dtype dt, void *buf, int64_t i, float f)
{
    if (dt == RLX_DTYPE_F32)
        ((float *)buf)[i] = f;
    else
        ((uint16_t *)buf)[i] = dt == RLX_DTYPE_BF16 ? f2bf(f) : f2h(f);
}

/* Runs one case on cuda; returns 0 and fills REL and MAXERR, or -1. */
static int run_case(rlx_runtime *rt, const acase *c, uint64_t seed,
                    double *rel, double *maxerr, char *why, size_t nwhy)
{
    int64_t nq = c->b * c->h * c->sq * c->d, nk = c->b * c->h * c->sk * c->d;
    size_t es = rlx_dtype_size(c->dt);
    void *q = malloc(nq * es), *k = malloc(nk * es), *v = malloc(nk * es),
         *o = malloc(nq * es);
    double *ref = calloc((size_t)nq, sizeof *ref);
    double *sc = malloc((size_t)c->sk * sizeof *sc);
    rlx_graph *g = NULL;
    rlx_session *s = NULL;
    rlx_program *p = NULL;
    int rc = -1;
    const rlx_dtype dt = c->dt;
    if (!q || !k || !v || !o || !ref || !sc)
        goto out;
    for (int64_t i = 0; i < nq; i++)
        put_el(dt, q, i, (float)(2.0 * frand(&seed)));
    for (int64_t i = 0; i < nk; i++) {
        put_el(dt, k, i, (float)(2.0 * frand(&seed)));
        put_el(dt, v, i, (float)frand(&seed));
    }
    if (c->inf) /* key 3, column 5 of the first (batch, head) */
        put_el(dt, c->inf == 1 ? k : v, 3 * c->d + 5, INFINITY);
    memset(o, 0xff, (size_t)nq * es); /* NaN: unwritten elements fail */
    float scale = (float)(1.0 / sqrt((double)c->d));
    unsigned char scale_el[4];
    put_el(dt, scale_el, 0, scale);
    double scale_d = get_el(dt, scale_el, 0);

    /* float64 reference from the rounded inputs */
    for (int64_t bh = 0; bh < c->b * c->h; bh++)
        for (int64_t i = 0; i < c->sq; i++) {
            int64_t qi = (bh * c->sq + i) * c->d;
            int64_t last = c->causal ? i + c->sk - c->sq : c->sk - 1;
            double mx = -INFINITY, sum = 0;
            for (int64_t j = 0; j <= last && j < c->sk; j++) {
                int64_t kj = (bh * c->sk + j) * c->d;
                double a = 0;
                for (int64_t d = 0; d < c->d; d++)
                    a += (double)get_el(dt, q, qi + d) * get_el(dt, k, kj + d);
                sc[j] = a * scale_d;
                mx = isnan(sc[j]) || sc[j] > mx ? sc[j] : mx;
            }
            double *ri = ref + (bh * c->sq + i) * c->d;
            for (int64_t j = 0; j <= last && j < c->sk; j++) {
                double w = sc[j] == -INFINITY ? 0 : exp(sc[j] - mx);
                sum += w;
                int64_t vj = (bh * c->sk + j) * c->d;
                for (int64_t d = 0; d < c->d; d++) {
                    double x = get_el(dt, v, vj + d);
                    ri[d] += w == 0 && isinf(x) ? 0 : w * x;
                }
            }
            for (int64_t d = 0; sum > 0 && d < c->d; d++)
                ri[d] /= sum;
        }

    int64_t dq[4] = { c->b, c->h, c->sq, c->d }, dk[4] = { c->b, c->h, c->sk, c->d };
    int64_t one[1] = { 1 }, tb[2] = { 0, 1 }, sm[2] = { -1, c->causal };
    rlx_attrs a_tb = { 2, tb, 0, NULL }, a_sm = { 2, sm, 0, NULL };
    rlx_value xq, xk, xv, cs, s1, s2, pr, y;
    if (rlx_graph_create(&g) ||
        rlx_graph_input(g, "q", c->dt, 4, dq, &xq) ||
        rlx_graph_input(g, "k", c->dt, 4, dk, &xk) ||
        rlx_graph_input(g, "v", c->dt, 4, dk, &xv) ||
        rlx_graph_constant(g, "scale", c->dt, 1, one, scale_el, &cs) ||
        rlx_graph_add_node(g, "qk", RLX_OP_MATMUL, 2, (rlx_value[]){ xq, xk },
                           &a_tb, &s1) ||
        rlx_graph_add_node(g, "scaled", RLX_OP_MUL, 2, (rlx_value[]){ s1, cs },
                           NULL, &s2) ||
        rlx_graph_add_node(g, "p", RLX_OP_SOFTMAX, 1, &s2, &a_sm, &pr) ||
        rlx_graph_add_node(g, "pv", RLX_OP_MATMUL, 2, (rlx_value[]){ pr, xv },
                           NULL, &y) ||
        rlx_graph_output(g, "y", y) ||
        rlx_session_create(rt, "cuda", &s) || rlx_session_compile(s, g, &p) ||
        rlx_program_set_input(p, "q", q, nq * es) ||
        rlx_program_set_input(p, "k", k, nk * es) ||
        rlx_program_set_input(p, "v", v, nk * es) || rlx_program_run(p)) {
        snprintf(why, nwhy, "%s", rlx_last_error());
        goto out;
    }
    size_t n = 0;
    const void *od = rlx_program_output_data(p, 0, &n);
    if (!od || n != (size_t)nq * es) {
        snprintf(why, nwhy, "output of %zu bytes", n);
        goto out;
    }
    memcpy(o, od, n);
    double num = 0, den = 0, mxe = 0;
    for (int64_t i = 0; i < nq; i++) {
        double y = get_el(dt, o, i);
        if (!isfinite(ref[i])) { /* inf or NaN: exactly what IEEE gives */
            if (!(y == ref[i] || (isnan(y) && isnan(ref[i]))))
                mxe = INFINITY;
            continue;
        }
        double e = y - ref[i];
        if (isnan(e))
            e = INFINITY; /* NaN never passes */
        num += e * e;
        den += ref[i] * ref[i];
        mxe = fmax(mxe, fabs(e));
    }
    *rel = sqrt(num) / fmax(sqrt(den), 1e-300);
    *maxerr = mxe;
    rc = 0;
out:
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_graph_destroy(g);
    free(q);
    free(k);
    free(v);
    free(o);
    free(ref);
    free(sc);
    return rc;
}

TEST(attention_matches_float64)
{
    GPU_CHECKS_BEGIN();
    setvbuf(stdout, NULL, _IOLBF, 0); /* each result out as it comes */
    CUDA_TEST_NEED_GPU();
    rlx_runtime *rt = cuda_test_runtime();
    const rlx_dtype BF = RLX_DTYPE_BF16, HF = RLX_DTYPE_F16,
                    F32 = RLX_DTYPE_F32;
    static const acase cases[] = {
        { 2, 3, 77, 77, 64, 0, RLX_DTYPE_BF16, 0 },
        { 2, 3, 77, 77, 64, 1, RLX_DTYPE_BF16, 0 },
        { 2, 3, 77, 77, 64, 1, RLX_DTYPE_F16, 0 },
        { 1, 2, 40, 100, 64, 1, RLX_DTYPE_F16, 0 },   /* more keys than queries */
        { 1, 2, 100, 40, 64, 1, RLX_DTYPE_BF16, 0 },  /* rows with no key */
        { 1, 4, 130, 130, 32, 0, RLX_DTYPE_F16, 0 },
        { 2, 2, 65, 97, 128, 0, RLX_DTYPE_BF16, 0 },
        { 2, 2, 65, 65, 128, 1, RLX_DTYPE_F16, 0 },
        { 8, 8, 128, 128, 64, 0, RLX_DTYPE_BF16, 0 }, /* the encoder's shape */
        { 6, 8, 333, 333, 64, 1, RLX_DTYPE_BF16, 0 }, /* 64-row blocks */
        { 6, 8, 333, 333, 128, 1, RLX_DTYPE_F16, 0 },
        { 3, 5, 20, 50, 64, 1, RLX_DTYPE_BF16, 0 },    /* 32-row blocks */
        { 2, 3, 9, 33, 128, 0, RLX_DTYPE_F16, 0 },     /* 16-row blocks */
        /* the softmax's masked tiles (causal diagonals, a ragged last
         * tile, head size 32) and an infinite key in 16 bits */
        { 2, 4, 128, 128, 64, 1, RLX_DTYPE_F16, 0 },
        { 1, 4, 100, 120, 32, 1, RLX_DTYPE_F16, 0 },
        { 1, 2, 70, 70, 64, 1, RLX_DTYPE_BF16, 1 }, /* an infinite key */
        /* f32: CUDA cores below 128 keys and for head size 128, else
         * 3xTF32 tensor cores: a warp per block below 2048 keys, four
         * (or two for few rows) from there */
        { 8, 8, 128, 128, 64, 0, RLX_DTYPE_F32, 0 },  /* the encoder's shape */
        { 2, 3, 77, 77, 64, 1, RLX_DTYPE_F32, 0 },
        { 1, 2, 100, 40, 64, 1, RLX_DTYPE_F32, 0 },   /* rows with no key */
        { 1, 4, 130, 130, 32, 0, RLX_DTYPE_F32, 0 },
        { 3, 5, 20, 50, 64, 1, RLX_DTYPE_F32, 0 },    /* 32-row blocks */
        { 2, 3, 9, 33, 32, 0, RLX_DTYPE_F32, 0 },     /* 16-row blocks */
        { 2, 2, 65, 97, 128, 0, RLX_DTYPE_F32, 0 },
        { 1, 2, 70, 70, 64, 0, RLX_DTYPE_F32, 2 }, /* an infinite value */
        { 1, 2, 70, 70, 64, 1, RLX_DTYPE_F32, 1 }, /* an infinite key */
        { 1, 2, 100, 1030, 64, 1, RLX_DTYPE_F32, 0 },
        { 1, 2, 9, 1100, 64, 0, RLX_DTYPE_F32, 0 },
        { 1, 2, 40, 1030, 64, 0, RLX_DTYPE_F32, 2 },
        { 1, 2, 70, 2050, 64, 1, RLX_DTYPE_F32, 0 }, /* 64-row blocks */
        { 2, 3, 20, 2050, 32, 0, RLX_DTYPE_F32, 0 }, /* 32-row blocks */
        { 1, 2, 70, 2050, 64, 1, RLX_DTYPE_F32, 1 },
    };
    uint64_t seed = 0x9e3779b97f4a7c15ull ^ (uint64_t)getpid();
    size_t n_cases = sizeof cases / sizeof *cases;
    const char *only = getenv("RLX_TEST_CUDA_CASES");
    if (only && atoi(only) > 0 && (size_t)atoi(only) < n_cases)
        n_cases = (size_t)atoi(only);
    for (size_t i = 0; i < n_cases; i++) {
        const acase *c = &cases[i];
        double rel = 0, mxe = 0;
        char why[512] = "", what[160], detail[600];
        int r = run_case(rt, c, seed + i, &rel, &mxe, why, sizeof why);
        /* bf16 keeps 8 bits, f16 11: inputs are exact in both; the
         * kernel rounds p to the dtype and the output once more. f32:
         * FP32 arithmetic throughout (3xTF32 products) */
        double tol = c->dt == BF ? 6e-3 : c->dt == HF ? 1.5e-3 : 2e-6;
        snprintf(what, sizeof what,
                 "%s attention b%lld h%lld sq%lld sk%lld d%lld%s%s matches "
                 "float64",
                 c->dt == HF ? "f16" : c->dt == F32 ? "f32" : "bf16",
                 (long long)c->b, (long long)c->h, (long long)c->sq,
                 (long long)c->sk, (long long)c->d,
                 c->causal ? " causal" : "",
                 c->inf == 1 ? " inf key" : c->inf == 2 ? " inf value" : "");
        if (r)
            snprintf(detail, sizeof detail, "%s", why);
        else
            snprintf(detail, sizeof detail, "rel.err %.2e (bound %.0e), "
                     "max|err| %.2e", rel, tol, mxe);
        gpu_check(r == 0 && rel <= tol && mxe <= 8 * tol, what, detail);
    }
    rlx_runtime_destroy(rt);
    GPU_CHECKS_END();
}

TEST(without_gpu)
{
    cuda_test_without_gpu();
}

RLX_TEST_LIST(TEST_ENTRY(without_gpu), TEST_ENTRY(attention_matches_float64));
