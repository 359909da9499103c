/*
 * test_cuda_gemm.c - f32 matmuls on the cuda backend under strict
 * precision against a float64 reference computed here: each case once
 * with cuda.matmul=tf32x3 (the 3xTF32 tensor-core GEMM wherever it takes
 * the layout) and once as tuned (whichever candidate is fastest: the
 * batch-1 shapes' is usually our GEMV). Shapes
 * that are no multiple of the GEMM's tiles, both layouts of the weight,
 * a fused bias + relu, a batched matmul, a K the GEMM declines (not
 * a multiple of 4: cuBLASLt computes it), and an infinite input (its
 * infs and NaNs must be IEEE's, as SGEMM's are). The bound is FP32's, not
 * TF32's: a relative error TF32 alone (10-bit mantissa) would exceed.
 * Then MLPs at batch 1 to 8 as tuned, run twice: their layers are
 * mostly our GEMV, each launched as the programmatic dependent of the
 * one before (on sm_90) and reading the input that one wrote; the
 * batch-1 ones again with consecutive GEMVs as one chain wherever they
 * fit (cuda.gemv_chain=1).
 * Without a GPU it checks that the plugin loads and says why a session
 * cannot start, then skips. Prints TAP.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rlx/rlx.h>

#include "gpu_plugin_check.h"
#include "test_cuda_expect.h"

static double frand(uint64_t *st)
{
    *st = *st * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(*st >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

/* ||o - ref|| / ||ref|| over N elements; where REF is inf or NaN, O
 * must be exactly that (IEEE's), and a NaN where REF is finite never
 * passes */
static double rel_error(const float *o, const double *ref, int64_t n)
{
    double num = 0, den = 0;
    for (int64_t i = 0; i < n; i++) {
        if (!isfinite(ref[i])) {
            if (isnan(ref[i]) ? !isnan(o[i]) : o[i] != ref[i])
                num = INFINITY;
            continue;
        }
        double e = (double)o[i] - ref[i];
        num += isnan(e) ? INFINITY : e * e;
        den += ref[i] * ref[i];
    }
    return sqrt(num) / fmax(sqrt(den), 1e-300);
}

/* REL: rel_error of P's first output (NY floats) against REF; 0, or -1
 * with WHY when the output is not there */
static int output_error(rlx_program *p, const double *ref, int64_t ny,
                        double *rel, char *why, size_t nwhy)
{
    size_t n = 0;
    const float *o = rlx_program_output_data(p, 0, &n);
    if (!o || n != (size_t)ny * 4) {
        snprintf(why, nwhy, "output of %zu bytes", n);
        return -1;
    }
    *rel = rel_error(o, ref, ny);
    return 0;
}

/* One TAP line: WHAT passed when the run succeeded (R 0) within TOL. */
static void report(int r, double rel, double tol, const char *what,
                   const char *why)
{
    char detail[600];
    if (r)
        snprintf(detail, sizeof detail, "%s", why);
    else
        snprintf(detail, sizeof detail, "rel.err %.2e (bound %.0e)", rel,
                 tol);
    gpu_check(r == 0 && rel <= tol, what, detail);
}

typedef struct {
    int64_t batch, m, n, k;
    int tb;        /* w stored [n, k] (a Linear weight) */
    int bias_relu; /* relu(x w + b) */
    int inf;       /* x's first element +inf, w exact in TF32 (its lo
                      parts zero): IEEE's inf and NaN, not the split's */
} gcase;

/* Runs one case; fills REL (Frobenius, relative) or returns -1. */
static int run_case(rlx_runtime *rt, const gcase *c, const char *mode,
                    uint64_t seed, double *rel, char *why, size_t nwhy)
{
    int64_t nx = c->batch * c->m * c->k, nw = c->batch * c->k * c->n,
            ny = c->batch * c->m * c->n;
    float *x = malloc((size_t)nx * 4), *w = malloc((size_t)nw * 4),
          *b = malloc((size_t)c->n * 4);
    double *ref = calloc((size_t)ny, sizeof *ref);
    rlx_graph *g = NULL;
    rlx_session *s = NULL;
    rlx_program *p = NULL;
    int rc = -1;
    if (!x || !w || !b || !ref)
        goto out;
    for (int64_t i = 0; i < nx; i++)
        x[i] = (float)frand(&seed);
    for (int64_t i = 0; i < nw; i++)
        w[i] = c->inf ? (float)(round(frand(&seed) * 8) / 8)
                      : (float)frand(&seed);
    if (c->inf)
        x[0] = INFINITY;
    for (int64_t i = 0; i < c->n; i++)
        b[i] = (float)frand(&seed);
    for (int64_t t = 0; t < c->batch; t++)
        for (int64_t r = 0; r < c->m; r++)
            for (int64_t j = 0; j < c->n; j++) {
                double acc = 0;
                for (int64_t kk = 0; kk < c->k; kk++)
                    acc += (double)x[(t * c->m + r) * c->k + kk] *
                           w[t * c->k * c->n +
                             (c->tb ? j * c->k + kk : kk * c->n + j)];
                if (c->bias_relu) {
                    acc += b[j];
                    acc = acc > 0 || isnan(acc) ? acc : 0; /* NaN stays */
                }
                ref[(t * c->m + r) * c->n + j] = acc;
            }

    int rank = c->batch > 1 ? 3 : 2;
    int64_t dx[3], dw[3], db[1] = { c->n };
    dx[0] = dw[0] = c->batch;
    dx[rank - 2] = c->m;
    dx[rank - 1] = c->k;
    dw[rank - 2] = c->tb ? c->n : c->k;
    dw[rank - 1] = c->tb ? c->k : c->n;
    int64_t tr[2] = { 0, c->tb };
    rlx_attrs a_tr = { 2, tr, 0, NULL };
    rlx_value vx, vw, vb, mm, add, y;
    if (rlx_graph_create(&g) ||
        rlx_graph_input(g, "x", RLX_DTYPE_F32, (uint32_t)rank, dx, &vx) ||
        rlx_graph_param(g, "w", RLX_DTYPE_F32, (uint32_t)rank, dw, &vw) ||
        rlx_graph_add_node(g, "mm", RLX_OP_MATMUL, 2,
                           (rlx_value[]){ vx, vw }, &a_tr, &mm))
        goto fail;
    y = mm;
    if (c->bias_relu &&
        (rlx_graph_param(g, "b", RLX_DTYPE_F32, 1, db, &vb) ||
         rlx_graph_add_node(g, "add", RLX_OP_ADD, 2, (rlx_value[]){ mm, vb },
                            NULL, &add) ||
         rlx_graph_add_node(g, "relu", RLX_OP_RELU, 1, &add, NULL, &y)))
        goto fail;
    if (rlx_graph_output(g, "y", y) || rlx_session_create(rt, "cuda", &s) ||
        (mode && rlx_session_set_option(s, "cuda.matmul", mode)) ||
        rlx_session_compile(s, g, &p) ||
        rlx_program_set_param(p, "w", w, (size_t)nw * 4) ||
        (c->bias_relu && rlx_program_set_param(p, "b", b, (size_t)c->n * 4)) ||
        rlx_program_set_input(p, "x", x, (size_t)nx * 4) ||
        rlx_program_run(p))
        goto fail;
    rc = output_error(p, ref, ny, rel, why, nwhy);
    goto out;
fail:
    snprintf(why, nwhy, "%s", rlx_last_error());
out:
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_graph_destroy(g);
    free(x);
    free(w);
    free(b);
    free(ref);
    return rc;
}

/* An MLP: LAYERS linear layers (Linear-layout weights) on ROWS rows,
 * DIMS[0] inputs to DIMS[LAYERS] outputs; relu after all but the last,
 * layer NO_BIAS (if >= 0) without a bias (its relu a step of its own). */
typedef struct {
    int64_t rows;
    int layers;
    int64_t dims[7];
    int no_bias;
} mlpcase;

static int run_mlp(rlx_runtime *rt, const mlpcase *c, const char *chain,
                   uint64_t seed, double *rel, char *why, size_t nwhy)
{
    float *w[6] = { 0 }, *b[6] = { 0 }, *x = NULL;
    double *h = NULL, *t = NULL;
    int64_t widest = 0;
    for (int l = 0; l <= c->layers; l++)
        widest = c->dims[l] > widest ? c->dims[l] : widest;
    rlx_graph *g = NULL;
    rlx_session *s = NULL;
    rlx_program *p = NULL;
    int rc = -1;
    int64_t nx = c->rows * c->dims[0];
    x = malloc((size_t)nx * 4);
    h = malloc((size_t)(c->rows * widest) * sizeof *h);
    t = malloc((size_t)(c->rows * widest) * sizeof *t);
    if (!x || !h || !t)
        goto out;
    for (int64_t i = 0; i < nx; i++)
        h[i] = x[i] = (float)frand(&seed);
    for (int l = 0; l < c->layers; l++) {
        int64_t k = c->dims[l], n = c->dims[l + 1];
        w[l] = malloc((size_t)(n * k) * 4);
        b[l] = malloc((size_t)n * 4);
        if (!w[l] || !b[l])
            goto out;
        /* scaled so the activations stay near 1 through the layers */
        for (int64_t i = 0; i < n * k; i++)
            w[l][i] = (float)(frand(&seed) * 2.0 / sqrt((double)k));
        for (int64_t i = 0; i < n; i++)
            b[l][i] = l == c->no_bias ? 0.f : (float)frand(&seed);
        for (int64_t r = 0; r < c->rows; r++)
            for (int64_t j = 0; j < n; j++) {
                double acc = b[l][j];
                for (int64_t kk = 0; kk < k; kk++)
                    acc += h[r * k + kk] * w[l][j * k + kk];
                if (l + 1 < c->layers && acc < 0)
                    acc = 0;
                /* stored as f32 between layers, as the graph does */
                t[r * n + j] = l + 1 < c->layers ? (double)(float)acc : acc;
            }
        double *sw = h;
        h = t;
        t = sw;
    }

    int64_t dx[2] = { c->rows, c->dims[0] };
    int64_t tr[2] = { 0, 1 };
    rlx_attrs a_tr = { 2, tr, 0, NULL };
    rlx_value v;
    if (rlx_graph_create(&g) ||
        rlx_graph_input(g, "x", RLX_DTYPE_F32, 2, dx, &v))
        goto fail;
    for (int l = 0; l < c->layers; l++) {
        char wn[16], bn[16];
        snprintf(wn, sizeof wn, "w%d", l);
        snprintf(bn, sizeof bn, "b%d", l);
        int64_t dw[2] = { c->dims[l + 1], c->dims[l] }, db[1] = { dw[0] };
        rlx_value vw, vb, mm = 0, add = 0, act = 0;
        if (rlx_graph_param(g, wn, RLX_DTYPE_F32, 2, dw, &vw) ||
            rlx_graph_add_node(g, NULL, RLX_OP_MATMUL, 2,
                               (rlx_value[]){ v, vw }, &a_tr, &mm))
            goto fail;
        v = mm;
        if (l != c->no_bias &&
            (rlx_graph_param(g, bn, RLX_DTYPE_F32, 1, db, &vb) ||
             rlx_graph_add_node(g, NULL, RLX_OP_ADD, 2,
                                (rlx_value[]){ v, vb }, NULL, &add)))
            goto fail;
        v = l != c->no_bias ? add : v;
        if (l + 1 < c->layers &&
            rlx_graph_add_node(g, NULL, RLX_OP_RELU, 1, &v, NULL, &act))
            goto fail;
        v = l + 1 < c->layers ? act : v;
    }
    if (rlx_graph_output(g, "y", v) || rlx_session_create(rt, "cuda", &s) ||
        (chain && rlx_session_set_option(s, "cuda.gemv_chain", chain)) ||
        rlx_session_compile(s, g, &p))
        goto fail;
    for (int l = 0; l < c->layers; l++) {
        char wn[16], bn[16];
        snprintf(wn, sizeof wn, "w%d", l);
        snprintf(bn, sizeof bn, "b%d", l);
        if (rlx_program_set_param(p, wn, w[l],
                                  (size_t)(c->dims[l + 1] * c->dims[l]) * 4) ||
            (l != c->no_bias &&
             rlx_program_set_param(p, bn, b[l], (size_t)c->dims[l + 1] * 4)))
            goto fail;
    }
    /* twice: the second run replays the captured graph */
    for (int run = 0; run < 2; run++)
        if (rlx_program_set_input(p, "x", x, (size_t)nx * 4) ||
            rlx_program_run(p))
            goto fail;
    int64_t ny = c->rows * c->dims[c->layers];
    rc = output_error(p, h, ny, rel, why, nwhy);
    goto out;
fail:
    snprintf(why, nwhy, "%s", rlx_last_error());
out:
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_graph_destroy(g);
    for (int l = 0; l < 6; l++) {
        free(w[l]);
        free(b[l]);
    }
    free(x);
    free(h);
    free(t);
    return rc;
}

TEST(gemm_matches_float64)
{
    GPU_CHECKS_BEGIN();
    setvbuf(stdout, NULL, _IOLBF, 0);
    CUDA_TEST_NEED_GPU();
    rlx_runtime *rt = cuda_test_runtime();
    static const gcase cases[] = {
        { 1, 1000, 1532, 508, 1, 1, 0 }, /* odd tiles, Linear weight */
        { 1, 77, 36, 20, 0, 0, 0 },
        { 1, 129, 260, 1028, 1, 0, 0 },
        { 1, 256, 512, 2048, 1, 1, 0 },  /* the encoder's FF2, fewer rows */
        { 1, 200, 100, 36, 0, 1, 0 },
        { 3, 96, 72, 40, 0, 0, 0 },      /* batched */
        { 2, 33, 8, 12, 1, 0, 0 },
        { 1, 50, 30, 7, 1, 0, 0 },       /* K % 4: cuBLASLt */
        { 1, 64, 96, 32, 1, 0, 1 },   /* an inf in x */
        { 1, 128, 512, 2048, 0, 1, 1 },
        { 1, 1, 4096, 4096, 1, 1, 0 },   /* batch-1 MLP layer 2: GEMV */
        { 1, 3, 1001, 2048, 1, 0, 0 },   /* columns not a multiple of 8 */
        { 1, 8, 24, 1024, 1, 1, 0 },
    };
    static const char *modes[] = { "tf32x3", NULL };
    uint64_t seed = 0x9e3779b97f4a7c15ull;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        for (int md = 0; md < 2; md++) {
            const gcase *c = &cases[i];
            double rel = 0;
            char why[512] = "", what[200];
            int r = run_case(rt, c, modes[md], seed + i, &rel, why,
                             sizeof why);
            /* FP32 accumulation over K <= 2048 stays near 1e-6 here;
             * TF32 alone is near 1e-3 */
            double tol = 1e-5;
            snprintf(what, sizeof what,
                     "f32 matmul b%lld m%lld n%lld k%lld%s%s%s (%s) matches "
                     "float64",
                     (long long)c->batch, (long long)c->m, (long long)c->n,
                     (long long)c->k, c->tb ? " w^T" : "",
                     c->bias_relu ? " +bias relu" : "",
                     c->inf ? " with an inf" : "",
                     modes[md] ? modes[md] : "tuned");
            report(r, rel, tol, what, why);
        }
    static const mlpcase mlps[] = {
        { 1, 3, { 784, 4096, 4096, 10 }, -1 },  /* the bench's MLP */
        { 3, 3, { 256, 512, 300, 10 }, 1 },
        { 8, 5, { 128, 64, 64, 64, 64, 32 }, -1 },
        { 2, 3, { 102, 64, 40, 12 }, 2 },       /* K 102: scalar loads */
        { 1, 3, { 256, 1000, 1000, 10 }, -1 }, /* 1000: not 32 units */
        { 1, 4, { 100, 64, 36, 20, 7 }, 1 },    /* two chains, no bias */
        { 1, 3, { 102, 64, 40, 12 }, -1 },      /* K 102: layers 2-3 chain */
    };
    /* with cuda.gemv_chain=1, consecutive batch-1 GEMVs run as one chain
     * wherever they fit (cuda_gemv_chain.c), timed or not */
    for (size_t i = 0; i < 2 * (sizeof mlps / sizeof *mlps); i++) {
        const mlpcase *c = &mlps[i / 2];
        const char *chain = i % 2 ? "1" : NULL;
        if (chain && c->rows != 1)
            continue;
        double rel = 0;
        char why[512] = "", what[200];
        int r = run_mlp(rt, c, chain, seed + 100 + i / 2, &rel, why,
                        sizeof why);
        int at = snprintf(what, sizeof what, "f32 MLP of %lld rows %lld",
                          (long long)c->rows, (long long)c->dims[0]);
        for (int l = 1; l <= c->layers && at < 150; l++)
            at += snprintf(what + at, sizeof what - (size_t)at, "-%lld",
                           (long long)c->dims[l]);
        snprintf(what + at, sizeof what - (size_t)at, " (%s) matches float64",
                 chain ? "gemv_chain=1" : "tuned");
        report(r, rel, 1e-5, what, why);
    }
    rlx_runtime_destroy(rt);
    GPU_CHECKS_END();
}

TEST(without_gpu)
{
    cuda_test_without_gpu();
}

RLX_TEST_LIST(TEST_ENTRY(without_gpu), TEST_ENTRY(gemm_matches_float64));
