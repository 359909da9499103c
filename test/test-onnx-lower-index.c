/*
 * test-onnx-lower-index.c - ONNX indexing operators lowered onto rlx's
 * 1.4 primitives, run on cpu-ref against values worked out here:
 * GatherElements, GatherND, ScatterElements with a reduction, ScatterND,
 * CumSum, TopK's two outputs, Trilu, OneHot, Range, NonZero folded,
 * Pad in reflect mode, a Slice with step -1 and a Gather of negative
 * indices fed at run time; and NonZero of run-time data refused with a
 * Fix.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include <rlx/rlx.h>

#include "harness.h"
#include "onnx-util.h"

#define N(...) (const char *[]){ __VA_ARGS__, NULL }

static const int64_t d23[2] = { 2, 3 };
static const float x23[6] = { -1.5f, 0.5f, 2, -0.25f, 3, -4 };

static void expect_f(rlx_program *p, const char *name, const float *want,
                     size_t n)
{
    const float *got = ox_out(p, name, RLX_DTYPE_F32, n);
    for (size_t i = 0; i < n; i++)
        if (!(fabsf(got[i] - want[i]) <= 1e-5f))
            FAIL("%s[%zu]: %.7g, expected %.7g", name, i, got[i], want[i]);
}

static void expect_i(rlx_program *p, const char *name, const int64_t *want,
                     size_t n)
{
    const int64_t *got = ox_out(p, name, RLX_DTYPE_I64, n);
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i])
            FAIL("%s[%zu]: %lld, expected %lld", name, i,
                 (long long)got[i], (long long)want[i]);
}

TEST(indexing_ops_on_cpu_ref)
{
    ox_model *x = ox_new(8, 18);
    int64_t one[1] = { 1 }, two[1] = { 2 };
    int64_t d22[2] = { 2, 2 }, d21[2] = { 2, 1 }, d11[2] = { 1, 1 },
            d13[2] = { 1, 3 }, d4[1] = { 4 };
    ox_input(x, "x", OX_F32, 2, d23);
    ox_input(x, "gi", OX_I64, 1, two);
    int64_t ge[4] = { 2, 0, 1, 1 }, se[2] = { 0, 2 }, nd[4] = { 1, 2, 0, 0 },
            snd[1] = { 1 }, ax1[1] = { 1 }, k2[1] = { 2 }, k0[1] = { 0 },
            st[1] = { -1 }, en[1] = { INT64_MIN }, stp[1] = { -1 },
            dep[1] = { 3 }, nz[4] = { 1, 0, 0, 2 };
    float su[2] = { 10, 20 }, ndu[3] = { 7, 8, 9 }, oh[2] = { 0, 1 },
          rg[3] = { 1, 2, 0.25f };
    ox_init(x, "ge", OX_I64, 2, d22, ge, sizeof ge);
    ox_init(x, "se", OX_I64, 2, d21, se, sizeof se);
    ox_init(x, "su", OX_F32, 2, d21, su, sizeof su);
    ox_init(x, "nd", OX_I64, 2, d22, nd, sizeof nd);
    ox_init(x, "snd", OX_I64, 2, d11, snd, sizeof snd);
    ox_init(x, "ndu", OX_F32, 2, d13, ndu, sizeof ndu);
    ox_init(x, "ax1", OX_I64, 0, NULL, ax1, sizeof ax1);
    ox_init(x, "k2", OX_I64, 1, one, k2, sizeof k2);
    ox_init(x, "k0", OX_I64, 0, NULL, k0, sizeof k0);
    ox_init(x, "st", OX_I64, 1, one, st, sizeof st);
    ox_init(x, "en", OX_I64, 1, one, en, sizeof en);
    ox_init(x, "one", OX_I64, 1, one, ax1, sizeof ax1);
    ox_init(x, "stp", OX_I64, 1, one, stp, sizeof stp);
    ox_init(x, "dep", OX_I64, 0, NULL, dep, sizeof dep);
    ox_init(x, "oh", OX_F32, 1, two, oh, sizeof oh);
    ox_init(x, "r0", OX_F32, 0, NULL, &rg[0], sizeof(float));
    ox_init(x, "r1", OX_F32, 0, NULL, &rg[1], sizeof(float));
    ox_init(x, "r2", OX_F32, 0, NULL, &rg[2], sizeof(float));
    ox_init(x, "nz", OX_I64, 2, d22, nz, sizeof nz);
    ox_attr_int(x, ox_node(x, "GatherElements", N("x", "ge"), N("gel")),
                "axis", 1);
    ox_node(x, "GatherND", N("x", "nd"), N("gnd"));
    Onnx__NodeProto *n = ox_node(x, "ScatterElements", N("x", "se", "su"),
                                 N("sel"));
    ox_attr_int(x, n, "axis", 1);
    ox_node(x, "ScatterND", N("x", "snd", "ndu"), N("snd_out"));
    ox_attr_int(x, ox_node(x, "CumSum", N("x", "ax1"), N("cum")),
                "exclusive", 1);
    ox_node(x, "TopK", N("x", "k2"), N("topv", "topi"));
    ox_attr_int(x, ox_node(x, "Trilu", N("x", "k0"), N("tril")), "upper",
                0);
    ox_node(x, "Slice", N("x", "st", "en", "one", "stp"), N("rev"));
    ox_attr_int(x, ox_node(x, "Gather", N("x", "gi"), N("gat")), "axis", 1);
    ox_node(x, "OneHot", N("gi", "dep", "oh"), N("hot"));
    ox_node(x, "Range", N("r0", "r1", "r2"), N("rng"));
    ox_node(x, "NonZero", N("nz"), N("nzo"));
    int64_t pads[4] = { 0, 1, 0, 1 }, d4_[1] = { 4 };
    ox_init(x, "pads", OX_I64, 1, d4_, pads, sizeof pads);
    ox_attr_string(x, ox_node(x, "Pad", N("x", "pads"), N("refl")), "mode",
                   "reflect");
    ox_output(x, "gel", OX_F32, 2, d22);
    ox_output(x, "gnd", OX_F32, 1, two);
    ox_output(x, "sel", OX_F32, 2, d23);
    ox_output(x, "snd_out", OX_F32, 2, d23);
    ox_output(x, "cum", OX_F32, 2, d23);
    ox_output(x, "topv", OX_F32, 2, d22);
    ox_output(x, "topi", OX_I64, 2, d22);
    ox_output(x, "tril", OX_F32, 2, d23);
    ox_output(x, "rev", OX_F32, 2, d23);
    ox_output(x, "gat", OX_F32, 2, d22);
    ox_output(x, "hot", OX_F32, 2, d23);
    ox_output(x, "rng", OX_F32, 1, d4);
    ox_output(x, "nzo", OX_I64, 2, d22);
    int64_t d25[2] = { 2, 5 };
    ox_output(x, "refl", OX_F32, 2, d25);
    run r;
    run_open(&r, x, "index.onnx");
    rlx_program *p = r.p;
    int64_t gi[2] = { -1, 0 };
    ASSERT_OK(rlx_program_set_input(p, "x", x23, sizeof x23));
    ASSERT_OK(rlx_program_set_input(p, "gi", gi, sizeof gi));
    ASSERT_OK(rlx_program_run(p));
    const float *X = x23;
    float w_gel[4] = { X[2], X[0], X[4], X[4] };
    expect_f(p, "gel", w_gel, 4);
    float w_gnd[2] = { X[5], X[0] };
    expect_f(p, "gnd", w_gnd, 2);
    float w_sel[6] = { 10, X[1], X[2], X[3], X[4], 20 };
    expect_f(p, "sel", w_sel, 6);
    float w_snd[6] = { X[0], X[1], X[2], 7, 8, 9 };
    expect_f(p, "snd_out", w_snd, 6);
    float w_cum[6] = { 0, X[0], X[0] + X[1], 0, X[3], X[3] + X[4] };
    expect_f(p, "cum", w_cum, 6);
    float w_topv[4] = { 2, 0.5f, 3, -0.25f };
    int64_t w_topi[4] = { 2, 1, 1, 0 };
    expect_f(p, "topv", w_topv, 4);
    expect_i(p, "topi", w_topi, 4);
    float w_tril[6] = { X[0], 0, 0, X[3], X[4], 0 };
    expect_f(p, "tril", w_tril, 6);
    float w_rev[6] = { X[2], X[1], X[0], X[5], X[4], X[3] };
    expect_f(p, "rev", w_rev, 6);
    float w_gat[4] = { X[2], X[0], X[5], X[3] };
    expect_f(p, "gat", w_gat, 4);
    float w_hot[6] = { 0, 0, 1, 1, 0, 0 };
    expect_f(p, "hot", w_hot, 6);
    float w_rng[4] = { 1, 1.25f, 1.5f, 1.75f };
    expect_f(p, "rng", w_rng, 4);
    int64_t w_nz[4] = { 0, 1, 0, 1 };
    expect_i(p, "nzo", w_nz, 4);
    float w_refl[10] = { X[1], X[0], X[1], X[2], X[1],
                         X[4], X[3], X[4], X[5], X[4] };
    expect_f(p, "refl", w_refl, 10);
    run_close(&r);
}

/* ScatterElements' reduction attribute (opset 16 on): "add" sums the
 * updates into the data. */
TEST(scatter_elements_reduction_add)
{
    ox_model *x = ox_new(8, 16);
    int64_t d21[2] = { 2, 1 }, se[2] = { 1, 1 };
    float su[2] = { 10, 20 };
    ox_input(x, "x", OX_F32, 2, d23);
    ox_init(x, "se", OX_I64, 2, d21, se, sizeof se);
    ox_init(x, "su", OX_F32, 2, d21, su, sizeof su);
    Onnx__NodeProto *n = ox_node(x, "ScatterElements", N("x", "se", "su"),
                                 N("y"));
    ox_attr_int(x, n, "axis", 1);
    ox_attr_string(x, n, "reduction", "add");
    ox_output(x, "y", OX_F32, 2, d23);
    run r;
    run_open(&r, x, "scatter-add.onnx");
    rlx_program *p = r.p;
    ASSERT_OK(rlx_program_set_input(p, "x", x23, sizeof x23));
    ASSERT_OK(rlx_program_run(p));
    float w[6] = { x23[0], x23[1] + 10, x23[2], x23[3], x23[4] + 20,
                   x23[5] };
    expect_f(p, "y", w, 6);
    run_close(&r);
}

/* NonZero of run-time data: the model runs in stages, the indices
 * computed on the host between them. */
TEST(non_zero_of_run_time_data_runs_in_stages)
{
    ox_model *x = ox_new(8, 13);
    int64_t d[2] = { 2, -1 };
    ox_input(x, "x", OX_F32, 2, d23);
    ox_node(x, "NonZero", N("x"), N("y"));
    ox_output(x, "y", OX_I64, 2, d);
    const char *path = ox_write(x, "nonzero-input.onnx");
    ox_free(x);
    rlx_model *m = NULL;
    rlx_runtime *rt;
    rlx_session *s;
    rlx_program *p = NULL;
    ASSERT_OK(rlx_model_load(path, &m));
    ASSERT_OK(rlx_runtime_create(&rt, RLX_RUNTIME_NO_DISCOVERY));
    ASSERT_OK(rlx_session_create(rt, "cpu-ref", &s));
    ASSERT_OK(rlx_model_compile(m, s, &p));
    float v[6] = { 0, 1, 0, 2, 0, 3 };
    ASSERT_OK(rlx_program_set_input(p, "x", v, sizeof v));
    ASSERT_OK(rlx_program_run(p));
    const int64_t w[6] = { 0, 1, 1, 1, 0, 2 };
    expect_i(p, "y", w, 6);
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_runtime_destroy(rt);
    rlx_model_destroy(m);
}

RLX_TEST_LIST(TEST_ENTRY(indexing_ops_on_cpu_ref),
              TEST_ENTRY(scatter_elements_reduction_add),
              TEST_ENTRY(non_zero_of_run_time_data_runs_in_stages))
