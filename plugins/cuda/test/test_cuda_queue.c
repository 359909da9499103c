/*
 * test_cuda_queue.c - queued runs (rlx_program_submit) launched step by
 * step instead of as a graph (setting cuda.queue_launch=direct, the
 * default for short batch-1 chains). A run may then start while the
 * queue's previous run finishes: its first GEMV loads its weight early.
 * Checked against a float64 reference computed here:
 * - a batch-1 MLP queued many times back to back (each run's first GEMV
 *   overlaps the previous run's last one; they share the intermediates);
 * - the same with its first two layers as one chain (cuda_gemv_chain.c);
 * - a batch-1 GEMV whose input another program's queued run writes just
 *   before it;
 * - a setting value that does not exist fails the compile with a Fix.
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

enum { K = 512, H = 1024, O = 16, RUNS = 40 };

static float frand(uint64_t *st)
{
    *st = *st * 6364136223846793005ull + 1442695040888963407ull;
    return (float)((double)(*st >> 11) / 9007199254740992.0 * 2.0 - 1.0);
}

/* One TAP line: WHAT passed when the runs went through (ST) and the N
 * outputs O are within 1e-5 of REF (max |o - ref| / max |ref|). */
static void report(rlx_status st, const float *o, const double *ref, int n,
                   const char *what)
{
    double e = 0, m = 0;
    for (int i = 0; st == RLX_OK && i < n; i++) {
        e = fmax(e, fabs((double)o[i] - ref[i]));
        m = fmax(m, fabs(ref[i]));
    }
    double rel = st != RLX_OK || isnan(e) ? INFINITY : e / fmax(m, 1e-300);
    char detail[256];
    snprintf(detail, sizeof detail, "%s; max rel.err %.2e",
             st == RLX_OK ? "ran" : rlx_last_error(), rel);
    gpu_check(st == RLX_OK && rel < 1e-5, what, detail);
}

/* y[n] = sum_k x[k] w[n, k] + b[n] (b may be NULL), relu if RELU */
static void ref_layer(const double *x, const float *w, const float *b,
                      int n, int k, int relu, double *y)
{
    for (int j = 0; j < n; j++) {
        double acc = b ? b[j] : 0;
        for (int i = 0; i < k; i++)
            acc += x[i] * w[(size_t)j * k + i];
        y[j] = relu && acc < 0 ? 0 : acc;
    }
}

/* P compiled on cuda with setting cuda.queue_launch MODE and (unless
 * NULL) cuda.gemv_chain CHAIN */
static rlx_status compile_on(rlx_runtime *rt, rlx_graph *g, const char *mode,
                             const char *chain, rlx_session **s,
                             rlx_program **p)
{
    rlx_status st = rlx_session_create(rt, "cuda", s);
    if (st == RLX_OK && mode)
        st = rlx_session_set_option(*s, "cuda.queue_launch", mode);
    if (st == RLX_OK && chain)
        st = rlx_session_set_option(*s, "cuda.gemv_chain", chain);
    return st == RLX_OK ? rlx_session_compile(*s, g, p) : st;
}

/* x [1, k] @ w^T, w a Linear weight [n, k] named WN; + bias BN unless
 * NULL, relu if RELU */
static rlx_status linear(rlx_graph *g, rlx_value x, const char *wn,
                         const char *bn, int64_t n, int64_t k, int relu,
                         rlx_value *out)
{
    int64_t tr[2] = { 0, 1 }, dw[2] = { n, k }, db[1] = { n };
    rlx_attrs a_tr = { 2, tr, 0, NULL };
    rlx_value w, b, mm, add, act;
    rlx_status st = rlx_graph_param(g, wn, RLX_DTYPE_F32, 2, dw, &w);
    if (st == RLX_OK)
        st = rlx_graph_add_node(g, NULL, RLX_OP_MATMUL, 2,
                                (rlx_value[]){ x, w }, &a_tr, &mm);
    *out = mm;
    if (st == RLX_OK && bn &&
        (st = rlx_graph_param(g, bn, RLX_DTYPE_F32, 1, db, &b)) == RLX_OK &&
        (st = rlx_graph_add_node(g, NULL, RLX_OP_ADD, 2,
                                 (rlx_value[]){ mm, b }, NULL, &add)) ==
            RLX_OK)
        *out = add;
    if (st == RLX_OK && relu &&
        (st = rlx_graph_add_node(g, NULL, RLX_OP_RELU, 1, out, NULL,
                                 &act)) == RLX_OK)
        *out = act;
    return st;
}

/* The MLP K-H-H-O at batch 1, x and y in bound tensors, queued RUNS
 * times and waited for once; its first two layers as one chain
 * (cuda_gemv_chain.c) or not, as setting cuda.gemv_chain CHAIN says. */
static void mlp_queued(rlx_runtime *rt, const char *chain)
{
    uint64_t seed = 7;
    static float x[K], w0[H * K], b0[H], w1[H * H], b1[H], w2[O * H], b2[O];
    float *ws[3] = { w0, w1, w2 }, *bs[3] = { b0, b1, b2 };
    const int dims[4] = { K, H, H, O };
    for (int i = 0; i < K; i++)
        x[i] = frand(&seed);
    for (int l = 0; l < 3; l++) {
        for (int i = 0; i < dims[l + 1] * dims[l]; i++)
            ws[l][i] = frand(&seed) * 2.f / sqrtf((float)dims[l]);
        for (int i = 0; i < dims[l + 1]; i++)
            bs[l][i] = frand(&seed);
    }
    static double h[2][H];
    for (int i = 0; i < K; i++)
        h[0][i] = x[i];
    for (int l = 0; l < 3; l++) {
        ref_layer(h[l & 1], ws[l], bs[l], dims[l + 1], dims[l], l < 2,
                  h[(l + 1) & 1]);
        for (int i = 0; l < 2 && i < dims[l + 1]; i++)
            h[(l + 1) & 1][i] = (float)h[(l + 1) & 1][i]; /* f32 between */
    }
    rlx_graph *g = NULL;
    rlx_session *s = NULL;
    rlx_program *p = NULL;
    rlx_tensor *tx = NULL, *ty = NULL;
    float y[O];
    rlx_value v;
    rlx_status st = rlx_graph_create(&g);
    if (st == RLX_OK)
        st = rlx_graph_input(g, "x", RLX_DTYPE_F32, 2, (int64_t[]){ 1, K },
                             &v);
    static const char *wn[3] = { "w0", "w1", "w2" }, *bn[3] = { "b0", "b1",
                                                                "b2" };
    for (int l = 0; st == RLX_OK && l < 3; l++)
        st = linear(g, v, wn[l], bn[l], dims[l + 1], dims[l], l < 2, &v);
    if (st == RLX_OK)
        st = rlx_graph_output(g, "y", v);
    if (st == RLX_OK)
        st = compile_on(rt, g, "direct", chain, &s, &p);
    for (int l = 0; st == RLX_OK && l < 3; l++) {
        st = rlx_program_set_param(p, wn[l], ws[l],
                                   (size_t)dims[l + 1] * dims[l] * 4);
        if (st == RLX_OK)
            st = rlx_program_set_param(p, bn[l], bs[l],
                                       (size_t)dims[l + 1] * 4);
    }
    if (st == RLX_OK)
        st = rlx_tensor_create(p, RLX_DTYPE_F32, 2, (int64_t[]){ 1, K }, x,
                               &tx);
    if (st == RLX_OK)
        st = rlx_tensor_create(p, RLX_DTYPE_F32, 2, (int64_t[]){ 1, O },
                               NULL, &ty);
    if (st == RLX_OK)
        st = rlx_program_bind(p, RLX_SLOT_INPUT, "x", tx);
    if (st == RLX_OK)
        st = rlx_program_bind(p, RLX_SLOT_OUTPUT, "y", ty);
    for (int r = 0; st == RLX_OK && r < RUNS; r++)
        st = rlx_program_submit(p);
    if (st == RLX_OK)
        st = rlx_tensor_read(ty, y, sizeof y);
    char what[160];
    snprintf(what, sizeof what, "a batch-1 MLP queued 40 times, launched "
             "step by step, %s, matches float64",
             chain[0] == '1' ? "its first two layers as one chain"
                             : "as three GEMVs");
    report(st, y, h[1], O, what);
    rlx_tensor_destroy(tx);
    rlx_tensor_destroy(ty);
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_graph_destroy(g);
}

/* Programs "bump" add 1 to an [1, K] input into their output; two of
 * them ping-pong between tensors C and D, and a batch-1 GEMV whose input
 * is C runs right after the one that wrote C, each round, all queued. */
static void input_written_before(rlx_runtime *rt)
{
    uint64_t seed = 11;
    static float x0[K], w[H * K];
    for (int i = 0; i < K; i++)
        x0[i] = (float)(int)(frand(&seed) * 64); /* sums stay exact */
    for (int i = 0; i < H * K; i++)
        w[i] = frand(&seed);
    rlx_graph *gb = NULL, *gm = NULL;
    rlx_session *sb = NULL, *sm = NULL;
    rlx_program *pcd = NULL, *pdc = NULL, *pm = NULL;
    rlx_tensor *tc = NULL, *td = NULL, *ty = NULL;
    rlx_value in, one, sum, vx, vy;
    float fone = 1.f;
    int64_t dx[2] = { 1, K };
    rlx_status st = rlx_graph_create(&gb);
    if (st == RLX_OK)
        st = rlx_graph_input(gb, "in", RLX_DTYPE_F32, 2, dx, &in);
    if (st == RLX_OK)
        st = rlx_graph_constant(gb, "one", RLX_DTYPE_F32, 0, NULL, &fone,
                                &one);
    if (st == RLX_OK)
        st = rlx_graph_add_node(gb, NULL, RLX_OP_ADD, 2,
                                (rlx_value[]){ in, one }, NULL, &sum);
    if (st == RLX_OK)
        st = rlx_graph_output(gb, "out", sum);
    if (st == RLX_OK)
        st = rlx_graph_create(&gm);
    if (st == RLX_OK)
        st = rlx_graph_input(gm, "x", RLX_DTYPE_F32, 2, dx, &vx);
    if (st == RLX_OK)
        st = linear(gm, vx, "w", NULL, H, K, 0, &vy);
    if (st == RLX_OK)
        st = rlx_graph_output(gm, "y", vy);
    if (st == RLX_OK)
        st = compile_on(rt, gb, NULL, NULL, &sb, &pcd);
    if (st == RLX_OK)
        st = rlx_session_compile(sb, gb, &pdc);
    if (st == RLX_OK)
        st = compile_on(rt, gm, "direct", NULL, &sm, &pm);
    if (st == RLX_OK)
        st = rlx_program_set_param(pm, "w", w, sizeof w);
    if (st == RLX_OK)
        st = rlx_tensor_create(pm, RLX_DTYPE_F32, 2, dx, x0, &tc);
    if (st == RLX_OK)
        st = rlx_tensor_create(pm, RLX_DTYPE_F32, 2, dx, NULL, &td);
    if (st == RLX_OK)
        st = rlx_tensor_create(pm, RLX_DTYPE_F32, 2, (int64_t[]){ 1, H },
                               NULL, &ty);
    if (st == RLX_OK)
        st = rlx_program_bind(pcd, RLX_SLOT_INPUT, "in", tc);
    if (st == RLX_OK)
        st = rlx_program_bind(pcd, RLX_SLOT_OUTPUT, "out", td);
    if (st == RLX_OK)
        st = rlx_program_bind(pdc, RLX_SLOT_INPUT, "in", td);
    if (st == RLX_OK)
        st = rlx_program_bind(pdc, RLX_SLOT_OUTPUT, "out", tc);
    if (st == RLX_OK)
        st = rlx_program_bind(pm, RLX_SLOT_INPUT, "x", tc);
    if (st == RLX_OK)
        st = rlx_program_bind(pm, RLX_SLOT_OUTPUT, "y", ty);
    /* round r: D = C + 1, C = D + 1, y = C w^T with C = x0 + 2 (r + 1) */
    for (int r = 0; st == RLX_OK && r < RUNS; r++) {
        st = rlx_program_submit(pcd);
        if (st == RLX_OK)
            st = rlx_program_submit(pdc);
        if (st == RLX_OK)
            st = rlx_program_submit(pm);
    }
    static float y[H];
    if (st == RLX_OK)
        st = rlx_tensor_read(ty, y, sizeof y);
    static double xd[K], ref[H];
    for (int i = 0; i < K; i++)
        xd[i] = x0[i] + 2.0 * RUNS;
    ref_layer(xd, w, NULL, H, K, 0, ref);
    report(st, y, ref, H,
           "a queued GEMV reads the input another program's queued run "
           "wrote just before it");
    rlx_tensor_destroy(tc);
    rlx_tensor_destroy(td);
    rlx_tensor_destroy(ty);
    rlx_program_destroy(pcd);
    rlx_program_destroy(pdc);
    rlx_program_destroy(pm);
    rlx_session_destroy(sb);
    rlx_session_destroy(sm);
    rlx_graph_destroy(gb);
    rlx_graph_destroy(gm);
}

static void bad_setting(rlx_runtime *rt)
{
    rlx_graph *g = NULL;
    rlx_session *s = NULL;
    rlx_program *p = NULL;
    rlx_status st = cuda_test_relu_graph(&g);
    rlx_status cs = st == RLX_OK
                        ? compile_on(rt, g, "sometimes", NULL, &s, &p)
                        : st;
    const char *e = rlx_last_error();
    gpu_check(cs != RLX_OK && !p && strstr(e, "queue_launch") &&
                  strstr(e, "Fix:"),
              "cuda.queue_launch=sometimes fails the compile with a Fix", e);
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_graph_destroy(g);
}

TEST(queued_runs)
{
    GPU_CHECKS_BEGIN();
    setvbuf(stdout, NULL, _IOLBF, 0);
    CUDA_TEST_NEED_GPU();
    rlx_runtime *rt = cuda_test_runtime();
    mlp_queued(rt, "0");
    mlp_queued(rt, "1");
    input_written_before(rt);
    bad_setting(rt);
    rlx_runtime_destroy(rt);
    GPU_CHECKS_END();
}

TEST(without_gpu)
{
    cuda_test_without_gpu();
}

RLX_TEST_LIST(TEST_ENTRY(without_gpu), TEST_ENTRY(queued_runs));
