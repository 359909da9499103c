/*
 * test-onnx-lower-math.c - ONNX's inverse trigonometric and hyperbolic
 * operators, BitShift, double arithmetic and reductions, and the 16-bit
 * and unsigned integer types (inputs, initializers in raw_data and in
 * uint64_data) lowered onto rlx and run on cpu-ref, against values
 * worked out here.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <rlx/rlx.h>

#include "harness.h"
#include "onnx-util.h"

#define N(...) (const char *[]){ __VA_ARGS__, NULL }
#define OX_F64 ONNX__TENSOR_PROTO__DATA_TYPE__DOUBLE
#define OX_I16 ONNX__TENSOR_PROTO__DATA_TYPE__INT16
#define OX_U16 ONNX__TENSOR_PROTO__DATA_TYPE__UINT16
#define OX_U32 ONNX__TENSOR_PROTO__DATA_TYPE__UINT32
#define OX_U64 ONNX__TENSOR_PROTO__DATA_TYPE__UINT64

TEST(inverse_and_hyperbolic)
{
    ox_model *x = ox_new(8, 13);
    int64_t d4[1] = { 4 };
    ox_input(x, "x", OX_F32, 1, d4);
    const char *ops[] = { "Asin", "Acos", "Sinh", "Cosh", "Asinh", "Atanh" };
    for (int i = 0; i < 6; i++) {
        ox_node(x, ops[i], N("x"), N(ops[i]));
        ox_output(x, ops[i], OX_F32, 1, d4);
    }
    run r;
    run_open(&r, x, "trig.onnx");
    static const float v[4] = { -0.5f, 0.0f, 0.25f, 0.75f };
    ASSERT_OK(rlx_program_set_input(r.p, "x", v, sizeof v));
    ASSERT_OK(rlx_program_run(r.p));
    for (int i = 0; i < 4; i++) {
        double a = v[i];
        double want[6] = { atan(a / sqrt(1 - a * a)),
                           2 * atan(sqrt((1 - a) / (1 + a))),
                           (exp(a) - exp(-a)) / 2, (exp(a) + exp(-a)) / 2,
                           a < 0 ? -log(-a + sqrt(a * a + 1))
                                 : log(a + sqrt(a * a + 1)),
                           0.5 * log((1 + a) / (1 - a)) };
        for (int k = 0; k < 6; k++) {
            float g = ((const float *)out(&r, ops[k], RLX_DTYPE_F32, 4))[i];
            if (fabs(g - want[k]) > 1e-6 * (1 + fabs(want[k])))
                FAIL("%s(%g): %.9g, expected %.9g", ops[k], a, g, want[k]);
        }
    }
    run_close(&r);
}

TEST(bit_shift_widths)
{
    ox_model *x = ox_new(8, 11);
    int64_t d3[1] = { 3 };
    ox_input(x, "a", OX_U32, 1, d3);
    /* the shift counts stored the way ONNX stores uint32: uint64_data */
    Onnx__TensorProto *t = ox_init(x, "n", OX_U32, 1, d3, NULL, 0);
    t->has_raw_data = 0;
    t->n_uint64_data = 3;
    t->uint64_data = ox_keep(x, malloc(3 * sizeof(uint64_t)));
    t->uint64_data[0] = 31;
    t->uint64_data[1] = 4;
    t->uint64_data[2] = 32;
    ox_attr_string(x, ox_node(x, "BitShift", N("a", "n"), N("l")),
                   "direction", "LEFT");
    ox_attr_string(x, ox_node(x, "BitShift", N("a", "n"), N("r")),
                   "direction", "RIGHT");
    ox_output(x, "l", OX_U32, 1, d3);
    ox_output(x, "r", OX_U32, 1, d3);
    run r;
    run_open(&r, x, "shift.onnx");
    static const uint32_t a[3] = { 1, 0xF0000001u, 0xFFFFFFFFu };
    ASSERT_OK(rlx_program_set_input(r.p, "a", a, sizeof a));
    ASSERT_OK(rlx_program_run(r.p));
    const uint32_t *l = out(&r, "l", RLX_DTYPE_U32, 3);
    const uint32_t *rr = out(&r, "r", RLX_DTYPE_U32, 3);
    ASSERT(l[0] == 0x80000000u && l[1] == 0x00000010u && l[2] == 0);
    ASSERT(rr[0] == 0 && rr[1] == 0x0F000000u && rr[2] == 0);
    run_close(&r);

    /* a direction other than LEFT or RIGHT is refused by name */
    x = ox_new(8, 11);
    ox_input(x, "a", OX_U32, 1, d3);
    ox_attr_string(x, ox_node(x, "BitShift", N("a", "a"), N("y")),
                   "direction", "UP");
    ox_output(x, "y", OX_U32, 1, d3);
    const char *path = ox_write(x, "shift-bad.onnx");
    ox_free(x);
    ox_expect_fail(path, RLX_ERR_INVALID_ARGUMENT, "direction is 'UP'");
}

TEST(double_add_and_log_sum_exp)
{
    ox_model *x = ox_new(8, 18);
    int64_t d23[2] = { 2, 3 }, d2[1] = { 2 };
    ox_input(x, "x", OX_F64, 2, d23);
    ox_node(x, "Add", N("x", "x"), N("sum"));
    ox_output(x, "sum", OX_F64, 2, d23);
    int64_t axis[1] = { 1 };
    ox_init(x, "axes", OX_I64, 1, (int64_t[]){ 1 }, axis, sizeof axis);
    ox_attr_int(x, ox_node(x, "ReduceLogSumExp", N("x", "axes"), N("lse")),
                "keepdims", 0);
    ox_output(x, "lse", OX_F64, 1, d2);
    run r;
    run_open(&r, x, "f64.onnx");
    static const double v[6] = { 0.1, 1e-12, -700.0, 1.0, 2.0, 3.0 };
    ASSERT_OK(rlx_program_set_input(r.p, "x", v, sizeof v));
    ASSERT_OK(rlx_program_run(r.p));
    const double *s = out(&r, "sum", RLX_DTYPE_F64, 6);
    ASSERT(s[0] == 0.2 && s[1] == 2e-12 && s[2] == -1400.0);
    const double *l = out(&r, "lse", RLX_DTYPE_F64, 2);
    double m = 0.1, w0 = m + log(1 + exp(1e-12 - m) + exp(-700.0 - m));
    double w1 = 3 + log(exp(-2.0) + exp(-1.0) + 1);
    ASSERT(fabs(l[0] - w0) <= 1e-15 && fabs(l[1] - w1) <= 1e-14);
    run_close(&r);
}

TEST(int16_and_uint64_max_min_mod)
{
    ox_model *x = ox_new(8, 13);
    int64_t d3[1] = { 3 };
    ox_input(x, "a", OX_I16, 1, d3);
    ox_input(x, "b", OX_I16, 1, d3);
    ox_input(x, "p", OX_U64, 1, d3);
    ox_input(x, "q", OX_U64, 1, d3);
    ox_node(x, "Max", N("a", "b"), N("max16"));
    ox_node(x, "Mod", N("a", "b"), N("mod16"));
    ox_node(x, "Min", N("p", "q"), N("min64"));
    ox_node(x, "Max", N("p", "q"), N("max64"));
    ox_output(x, "max16", OX_I16, 1, d3);
    ox_output(x, "mod16", OX_I16, 1, d3);
    ox_output(x, "min64", OX_U64, 1, d3);
    ox_output(x, "max64", OX_U64, 1, d3);
    run r;
    run_open(&r, x, "widths.onnx");
    static const int16_t a[3] = { -7, 32767, -32768 }, b[3] = { 3, -2, 5 };
    static const uint64_t p[3] = { UINT64_MAX, 5, 1ull << 63 };
    static const uint64_t q[3] = { 1, 6, 3 };
    ASSERT_OK(rlx_program_set_input(r.p, "a", a, sizeof a));
    ASSERT_OK(rlx_program_set_input(r.p, "b", b, sizeof b));
    ASSERT_OK(rlx_program_set_input(r.p, "p", p, sizeof p));
    ASSERT_OK(rlx_program_set_input(r.p, "q", q, sizeof q));
    ASSERT_OK(rlx_program_run(r.p));
    const int16_t *mx = out(&r, "max16", RLX_DTYPE_I16, 3);
    const int16_t *md = out(&r, "mod16", RLX_DTYPE_I16, 3);
    ASSERT(mx[0] == 3 && mx[1] == 32767 && mx[2] == 5);
    /* Python's %: the sign of the divisor */
    ASSERT(md[0] == 2 && md[1] == -1 && md[2] == 2);
    const uint64_t *mn = out(&r, "min64", RLX_DTYPE_U64, 3);
    const uint64_t *mx64 = out(&r, "max64", RLX_DTYPE_U64, 3);
    ASSERT(mn[0] == 1 && mn[1] == 5 && mn[2] == 3);
    ASSERT(mx64[0] == UINT64_MAX && mx64[1] == 6 && mx64[2] == 1ull << 63);
    run_close(&r);
}

/* Known (initializer) operands of the 1.4 widths are not folded by the
 * importer's integer evaluator, which reads only its own dtypes: the
 * graph computes them. */
TEST(known_int16_operands)
{
    ox_model *x = ox_new(8, 13);
    int64_t d3[1] = { 3 };
    static const int16_t a[3] = { -300, 7, 32767 }, b[3] = { 5, -7, 1 };
    ox_init(x, "a", OX_I16, 1, d3, a, sizeof a);
    ox_init(x, "b", OX_I16, 1, d3, b, sizeof b);
    ox_node(x, "Max", N("a", "b"), N("max"));
    ox_node(x, "Add", N("a", "b"), N("sum"));
    ox_node(x, "Less", N("a", "b"), N("lt"));
    ox_output(x, "max", OX_I16, 1, d3);
    ox_output(x, "sum", OX_I16, 1, d3);
    ox_output(x, "lt", OX_BOOL, 1, d3);
    run r;
    run_open(&r, x, "known16.onnx");
    ASSERT_OK(rlx_program_run(r.p));
    const int16_t *mx = out(&r, "max", RLX_DTYPE_I16, 3);
    const int16_t *sm = out(&r, "sum", RLX_DTYPE_I16, 3);
    const uint8_t *lt = out(&r, "lt", RLX_DTYPE_BOOL, 3);
    ASSERT(mx[0] == 5 && mx[1] == 7 && mx[2] == 32767);
    ASSERT(sm[0] == -295 && sm[1] == 0 && sm[2] == -32768); /* wraps */
    ASSERT(lt[0] == 1 && lt[1] == 0 && lt[2] == 0);
    run_close(&r);
}

/* MaxUnpool, composed of fill, scatter_elements and reshape: X's values
 * at I's flat positions of the [1, 1, 4, 4] output, zeros elsewhere; a
 * position outside the output fails the run. */
TEST(max_unpool)
{
    ox_model *x = ox_new(8, 11);
    int64_t d[4] = { 1, 1, 2, 2 }, dy[4] = { 1, 1, 4, 4 };
    ox_input(x, "x", OX_F32, 4, d);
    ox_input(x, "i", OX_I64, 4, d);
    Onnx__NodeProto *n = ox_node(x, "MaxUnpool", N("x", "i"), N("y"));
    ox_attr_ints(x, n, "kernel_shape", 2, (int64_t[]){ 2, 2 });
    ox_attr_ints(x, n, "strides", 2, (int64_t[]){ 2, 2 });
    ox_output(x, "y", OX_F32, 4, dy);
    run r;
    run_open(&r, x, "unpool.onnx");
    static const float v[4] = { 5, 6, 7, 8 };
    int64_t at[4] = { 5, 7, 13, 15 };
    ASSERT_OK(rlx_program_set_input(r.p, "x", v, sizeof v));
    ASSERT_OK(rlx_program_set_input(r.p, "i", at, sizeof at));
    ASSERT_OK(rlx_program_run(r.p));
    const float *y = out(&r, "y", RLX_DTYPE_F32, 16);
    for (int k = 0; k < 16; k++) {
        float want = k == 5 ? 5 : k == 7 ? 6 : k == 13 ? 7 : k == 15 ? 8 : 0;
        if (y[k] != want)
            FAIL("element %d: %g, expected %g", k, y[k], want);
    }
    at[3] = 16; /* past the 16 elements */
    ASSERT_OK(rlx_program_set_input(r.p, "i", at, sizeof at));
    ASSERT_EQ(rlx_program_run(r.p), RLX_ERR_INVALID_ARGUMENT);
    run_close(&r);
}

RLX_TEST_LIST(TEST_ENTRY(inverse_and_hyperbolic),
              TEST_ENTRY(max_unpool),
              TEST_ENTRY(known_int16_operands),
              TEST_ENTRY(bit_shift_widths),
              TEST_ENTRY(double_add_and_log_sum_exp),
              TEST_ENTRY(int16_and_uint64_max_min_mod))
