/*
 * test-onnx-lower-einsum.c - ONNX Einsum lowered by composition, run on
 * cpu-ref against sums computed here: batched matmul, transpose, a sum
 * over an axis, a batched diagonal through an ellipsis, an inner product
 * to a scalar, the implicit output form, a broadcast ellipsis, integer
 * inputs (mul and reduce_sum instead of matmul); and a malformed
 * equation refused with a Fix.
 */
#include <math.h>
#include <string.h>

#include <rlx/rlx.h>

#include "harness.h"
#include "onnx-util.h"

#define N(...) (const char *[]){ __VA_ARGS__, NULL }
#define OX_I32 ONNX__TENSOR_PROTO__DATA_TYPE__INT32

static float val(int i)
{
    return (float)((i * 7) % 11) * 0.5f - 2;
}

static void einsum_node(ox_model *x, const char *const *ins, const char *o,
                        const char *eq)
{
    Onnx__NodeProto *n = ox_node(x, "Einsum", ins, N(o));
    ox_attr_string(x, n, "equation", eq);
}

TEST(einsum_common_forms)
{
    ox_model *x = ox_new(8, 12);
    int64_t da[3] = { 2, 2, 3 }, db[3] = { 2, 3, 4 }, dm[2] = { 3, 3 },
            dv[1] = { 3 }, d224[3] = { 2, 2, 4 }, d33[2] = { 3, 3 },
            d23[2] = { 2, 3 }, dq[3] = { 2, 3, 3 }, dk[2] = { 3, 4 };
    ox_input(x, "a", OX_F32, 3, da);
    ox_input(x, "b", OX_F32, 3, db);
    ox_input(x, "m", OX_F32, 2, dm);
    ox_input(x, "v", OX_F32, 1, dv);
    ox_input(x, "q", OX_F32, 3, dq);
    ox_input(x, "k", OX_F32, 2, dk);
    einsum_node(x, N("a", "b"), "bmm", "bij, bjk -> bik");
    einsum_node(x, N("m"), "tr", "ij->ji");
    einsum_node(x, N("m"), "rows", "ij->i");
    einsum_node(x, N("q"), "diag", "...ii->...i");
    einsum_node(x, N("v", "v"), "dot", "i,i");
    einsum_node(x, N("m", "m"), "mm", "ij,jk");
    einsum_node(x, N("a", "k"), "bc", "...j,jk->...k");
    ox_output(x, "bmm", OX_F32, 3, d224);
    ox_output(x, "tr", OX_F32, 2, d33);
    ox_output(x, "rows", OX_F32, 1, dv);
    ox_output(x, "diag", OX_F32, 2, d23);
    ox_output(x, "dot", OX_F32, 0, NULL);
    ox_output(x, "mm", OX_F32, 2, d33);
    ox_output(x, "bc", OX_F32, 3, d224);
    run r;
    run_open(&r, x, "einsum.onnx");
    float a[12], b[24], m[9], v[3], q[18], k[12];
    for (int i = 0; i < 24; i++) {
        b[i] = val(i + 3);
        if (i < 12)
            a[i] = val(i), k[i] = val(i + 5);
        if (i < 9)
            m[i] = val(i + 1);
        if (i < 3)
            v[i] = val(i + 2);
        if (i < 18)
            q[i] = val(i + 4);
    }
    ASSERT_OK(rlx_program_set_input(r.p, "a", a, sizeof a));
    ASSERT_OK(rlx_program_set_input(r.p, "b", b, sizeof b));
    ASSERT_OK(rlx_program_set_input(r.p, "m", m, sizeof m));
    ASSERT_OK(rlx_program_set_input(r.p, "v", v, sizeof v));
    ASSERT_OK(rlx_program_set_input(r.p, "q", q, sizeof q));
    ASSERT_OK(rlx_program_set_input(r.p, "k", k, sizeof k));
    ASSERT_OK(rlx_program_run(r.p));
    float bmm[16] = { 0 }, tr[9], rows[3] = { 0 }, diag[6], dot = 0,
          mm[9] = { 0 }, bc[16] = { 0 };
    for (int n = 0; n < 2; n++)
        for (int i = 0; i < 2; i++)
            for (int kk = 0; kk < 4; kk++)
                for (int j = 0; j < 3; j++) {
                    bmm[(n * 2 + i) * 4 + kk] +=
                        a[(n * 2 + i) * 3 + j] * b[(n * 3 + j) * 4 + kk];
                    bc[(n * 2 + i) * 4 + kk] +=
                        a[(n * 2 + i) * 3 + j] * k[j * 4 + kk];
                }
    for (int i = 0; i < 3; i++) {
        dot += v[i] * v[i];
        for (int j = 0; j < 3; j++) {
            tr[j * 3 + i] = m[i * 3 + j];
            rows[i] += m[i * 3 + j];
            for (int kk = 0; kk < 3; kk++)
                mm[i * 3 + kk] += m[i * 3 + j] * m[j * 3 + kk];
        }
    }
    for (int n = 0; n < 2; n++)
        for (int i = 0; i < 3; i++)
            diag[n * 3 + i] = q[(n * 3 + i) * 3 + i];
    expect(out(&r, "bmm", RLX_DTYPE_F32, 16), bmm, 16);
    expect(out(&r, "tr", RLX_DTYPE_F32, 9), tr, 9);
    expect(out(&r, "rows", RLX_DTYPE_F32, 3), rows, 3);
    expect(out(&r, "diag", RLX_DTYPE_F32, 6), diag, 6);
    expect(out(&r, "dot", RLX_DTYPE_F32, 1), &dot, 1);
    expect(out(&r, "mm", RLX_DTYPE_F32, 9), mm, 9);
    expect(out(&r, "bc", RLX_DTYPE_F32, 16), bc, 16);
    run_close(&r);
}

TEST(einsum_on_integers)
{
    ox_model *x = ox_new(8, 12);
    int64_t d23[2] = { 2, 3 }, d32[2] = { 3, 2 }, d22[2] = { 2, 2 };
    ox_input(x, "a", OX_I32, 2, d23);
    ox_input(x, "b", OX_I32, 2, d32);
    einsum_node(x, N("a", "b"), "y", "ij,jk->ik");
    ox_output(x, "y", OX_I32, 2, d22);
    run r;
    run_open(&r, x, "einsum-int.onnx");
    const int32_t a[6] = { 1, -2, 3, 4, 5, -6 }, b[6] = { 7, 8, -9, 10, 11,
                                                          12 };
    ASSERT_OK(rlx_program_set_input(r.p, "a", a, sizeof a));
    ASSERT_OK(rlx_program_set_input(r.p, "b", b, sizeof b));
    ASSERT_OK(rlx_program_run(r.p));
    const int32_t *y = out(&r, "y", RLX_DTYPE_I32, 4);
    for (int i = 0; i < 2; i++)
        for (int kk = 0; kk < 2; kk++) {
            int32_t s = 0;
            for (int j = 0; j < 3; j++)
                s += a[i * 3 + j] * b[j * 2 + kk];
            ASSERT_EQ(y[i * 2 + kk], s);
        }
    run_close(&r);
}

TEST(malformed_equation_is_refused)
{
    ox_model *x = ox_new(8, 12);
    int64_t d23[2] = { 2, 3 };
    ox_input(x, "a", OX_F32, 2, d23);
    einsum_node(x, N("a"), "y", "i.j->ji");
    ox_output(x, "y", OX_F32, 2, d23);
    const char *path = ox_write(x, "einsum-bad.onnx");
    ox_free(x);
    ox_expect_fail(path, RLX_ERR_INVALID_ARGUMENT, "equation");
}

RLX_TEST_LIST(TEST_ENTRY(einsum_common_forms),
              TEST_ENTRY(einsum_on_integers),
              TEST_ENTRY(malformed_equation_is_refused))
