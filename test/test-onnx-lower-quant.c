/*
 * test-onnx-lower-quant.c - ONNX's quantized operators lowered onto
 * rlx's quantization primitives, run on cpu-ref against values worked
 * out by hand: QuantizeLinear (ties round half to even, saturation at
 * both ends, NaN, per axis, blocked), DequantizeLinear (uint8, per axis
 * int8, int32 without a zero point), MatMulInteger, ConvInteger with
 * padding (which is the zero point), QLinearMatMul (ties and saturation
 * in the requantization), QLinearConv with a bias and per-channel
 * weight scales, DynamicQuantizeLinear's three outputs; a float
 * operand refused with a Fix, and the core's own checks of the
 * primitives' shapes and dtypes. The QDQ form: Conv, MatMul and Gemm
 * between Q/DQ nodes give QLinearConv's and QLinearMatMul's very bytes,
 * Relu and Clip fold exactly, and unfusable patterns still run.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include <rlx/rlx.h>

#include "harness.h"
#include "onnx-util.h"

#define N(...) (const char *[]){ __VA_ARGS__, NULL }
#define OX_U8 ONNX__TENSOR_PROTO__DATA_TYPE__UINT8
#define OX_I8 ONNX__TENSOR_PROTO__DATA_TYPE__INT8
#define OX_I32 ONNX__TENSOR_PROTO__DATA_TYPE__INT32

/* Load PATH, compile it on cpu-ref, feed x (COUNT f32) when given, run. */
static void start(run *r, const char *path, const float *x, size_t count)
{
    ASSERT_OK(rlx_model_load(path, &r->m));
    ASSERT_OK(rlx_runtime_create(&r->rt, RLX_RUNTIME_NO_DISCOVERY));
    ASSERT_OK(rlx_session_create(r->rt, "cpu-ref", &r->s));
    ASSERT_OK(rlx_model_compile(r->m, r->s, &r->p));
    if (x)
        ASSERT_OK(rlx_program_set_input(r->p, "x", x, count * sizeof *x));
    ASSERT_OK(rlx_program_run(r->p));
}

static void finish(run *r)
{
    rlx_program_destroy(r->p);
    rlx_session_destroy(r->s);
    rlx_runtime_destroy(r->rt);
    rlx_model_destroy(r->m);
}

/* Output NAME of the last run: COUNT elements of DT. */
static const void *qout(const run *r, const char *name, rlx_dtype dt,
                        size_t count)
{
    for (uint32_t i = 0; i < rlx_program_output_count(r->p); i++) {
        const char *nm;
        rlx_dtype d;
        rlx_program_slot(r->p, RLX_SLOT_OUTPUT, i, &nm, &d, NULL, NULL);
        if (strcmp(nm, name) != 0)
            continue;
        size_t nb;
        const void *data = rlx_program_output_data(r->p, i, &nb);
        ASSERT_EQ(d, dt);
        ASSERT_EQ(nb, count * rlx_dtype_size(dt));
        return data;
    }
    FAIL("no output '%s'", name);
}

/* Integer output NAME of dtype DT equals WANT exactly. */
static void expect_int(const run *r, const char *name, rlx_dtype dt,
                       const int64_t *want, size_t n)
{
    const void *got = qout(r, name, dt, n);
    for (size_t i = 0; i < n; i++) {
        int64_t g = dt == RLX_DTYPE_U8   ? ((const uint8_t *)got)[i]
                    : dt == RLX_DTYPE_I8 ? ((const int8_t *)got)[i]
                                         : ((const int32_t *)got)[i];
        if (g != want[i])
            FAIL("%s[%zu]: %lld, expected %lld", name, i, (long long)g,
                 (long long)want[i]);
    }
}

static void expect_f(const run *r, const char *name, const float *want,
                     size_t n)
{
    const float *got = qout(r, name, RLX_DTYPE_F32, n);
    for (size_t i = 0; i < n; i++)
        if (!(fabsf(got[i] - want[i]) <= 1e-6f * (1 + fabsf(want[i]))))
            FAIL("%s[%zu]: %.9g, expected %.9g", name, i, got[i], want[i]);
}

static const int64_t d6[1] = { 6 };

/* Ties go to the even neighbour before the zero point is added; results
 * saturate at both ends of u8 and i8; NaN gives the zero point. */
TEST(quantize_linear_rounds_half_to_even_and_saturates)
{
    ox_model *x = ox_new(8, 13);
    ox_input(x, "x", OX_F32, 1, d6);
    float half = 0.5f, one = 1.0f;
    uint8_t zu = 128;
    int8_t zi = -1;
    ox_init(x, "su", OX_F32, 0, NULL, &half, sizeof half);
    ox_init(x, "zu", OX_U8, 0, NULL, &zu, 1);
    ox_init(x, "si", OX_F32, 0, NULL, &one, sizeof one);
    ox_init(x, "zi", OX_I8, 0, NULL, &zi, 1);
    ox_node(x, "QuantizeLinear", N("x", "su", "zu"), N("qu"));
    ox_node(x, "QuantizeLinear", N("x", "si", "zi"), N("qi"));
    ox_output(x, "qu", OX_U8, 1, d6);
    ox_output(x, "qi", OX_I8, 1, d6);
    const char *path = ox_write(x, "quantize.onnx");
    ox_free(x);
    float in[6] = { -1.25f, 0.25f, 0.75f, 200.0f, -300.0f, NAN };
    run r;
    start(&r, path, in, 6);
    /* / 0.5: -2.5 -> -2, 0.5 -> 0, 1.5 -> 2, 400 and -600 saturate */
    int64_t want_u[6] = { 126, 128, 130, 255, 0, 128 };
    expect_int(&r, "qu", RLX_DTYPE_U8, want_u, 6);
    /* / 1: -1.25 -> -1, 0.25 -> 0, 0.75 -> 1; then -1 */
    int64_t want_i[6] = { -2, -1, 0, 127, -128, -1 };
    expect_int(&r, "qi", RLX_DTYPE_I8, want_i, 6);
    finish(&r);
}

/* Per-axis scales and zero points along axis 1, ties included; and
 * opset 21's blocked form (block_size 2 along the last axis). */
TEST(quantize_linear_per_axis_and_blocked)
{
    ox_model *x = ox_new(10, 21);
    int64_t d23[2] = { 2, 3 }, d3[1] = { 3 }, d14[2] = { 1, 4 },
            d12[2] = { 1, 2 };
    ox_input(x, "x", OX_F32, 2, d23);
    float s[3] = { 1, 2, 4 }, sb[2] = { 1, 2 }, xb[4] = { 1.5f, 2.5f, 3, 5 };
    uint8_t z[3] = { 0, 1, 2 }, zb[2] = { 0, 10 };
    ox_init(x, "s", OX_F32, 1, d3, s, sizeof s);
    ox_init(x, "z", OX_U8, 1, d3, z, sizeof z);
    ox_init(x, "xb", OX_F32, 2, d14, xb, sizeof xb);
    ox_init(x, "sb", OX_F32, 2, d12, sb, sizeof sb);
    ox_init(x, "zb", OX_U8, 2, d12, zb, sizeof zb);
    Onnx__NodeProto *n = ox_node(x, "QuantizeLinear", N("x", "s", "z"),
                                 N("q"));
    ox_attr_int(x, n, "axis", 1);
    n = ox_node(x, "QuantizeLinear", N("xb", "sb", "zb"), N("qb"));
    ox_attr_int(x, n, "axis", 1);
    ox_attr_int(x, n, "block_size", 2);
    ox_output(x, "q", OX_U8, 2, d23);
    ox_output(x, "qb", OX_U8, 2, d14);
    const char *path = ox_write(x, "quantize-axis.onnx");
    ox_free(x);
    float in[6] = { 0.5f, 3, 10, 1.5f, 5, 2 };
    run r;
    start(&r, path, in, 6);
    /* 0.5/1 -> 0; 3/2 = 1.5 -> 2, +1; 10/4 = 2.5 -> 2, +2;
     * 1.5 -> 2; 5/2 = 2.5 -> 2, +1; 2/4 = 0.5 -> 0, +2 */
    int64_t want[6] = { 0, 3, 4, 2, 3, 2 };
    expect_int(&r, "q", RLX_DTYPE_U8, want, 6);
    /* block 0 (scale 1): 1.5 -> 2, 2.5 -> 2; block 1 (scale 2, zp 10):
     * 1.5 -> 2, 2.5 -> 2 */
    int64_t want_b[4] = { 2, 2, 12, 12 };
    expect_int(&r, "qb", RLX_DTYPE_U8, want_b, 4);
    finish(&r);
}

TEST(dequantize_linear_forms)
{
    ox_model *x = ox_new(8, 13);
    int64_t d3[1] = { 3 }, d22[2] = { 2, 2 }, d2[1] = { 2 };
    uint8_t xu[3] = { 0, 128, 255 }, zu = 128;
    int8_t xi[4] = { -128, 127, 0, -1 }, zi[2] = { 0, -1 };
    int32_t x32[3] = { -1000000, 7, 16777217 };
    float su = 0.5f, si[2] = { 2, 0.25f }, s32 = 0.5f;
    ox_init(x, "xu", OX_U8, 1, d3, xu, sizeof xu);
    ox_init(x, "su", OX_F32, 0, NULL, &su, sizeof su);
    ox_init(x, "zu", OX_U8, 0, NULL, &zu, 1);
    ox_init(x, "xi", OX_I8, 2, d22, xi, sizeof xi);
    ox_init(x, "si", OX_F32, 1, d2, si, sizeof si);
    ox_init(x, "zi", OX_I8, 1, d2, zi, sizeof zi);
    ox_init(x, "x32", OX_I32, 1, d3, x32, sizeof x32);
    ox_init(x, "s32", OX_F32, 0, NULL, &s32, sizeof s32);
    ox_node(x, "DequantizeLinear", N("xu", "su", "zu"), N("du"));
    Onnx__NodeProto *n = ox_node(x, "DequantizeLinear", N("xi", "si", "zi"),
                                 N("di"));
    ox_attr_int(x, n, "axis", 1);
    ox_node(x, "DequantizeLinear", N("x32", "s32"), N("d32"));
    ox_output(x, "du", OX_F32, 1, d3);
    ox_output(x, "di", OX_F32, 2, d22);
    ox_output(x, "d32", OX_F32, 1, d3);
    const char *path = ox_write(x, "dequantize.onnx");
    ox_free(x);
    run r;
    start(&r, path, NULL, 0);
    float want_u[3] = { -64, 0, 63.5f };
    expect_f(&r, "du", want_u, 3);
    /* columns: scale 2 zp 0, scale 0.25 zp -1 */
    float want_i[4] = { -256, 32, 0, 0 };
    expect_f(&r, "di", want_i, 4);
    /* 16777217 is not an f32: ONNX converts x to f32 first (16777216) */
    float want_32[3] = { -500000, 3.5f, 8388608 };
    expect_f(&r, "d32", want_32, 3);
    finish(&r);
}

/* MatMulInteger (u8 x i8, a per-row zero point) and ConvInteger, whose
 * padding is the zero point (0 after the shift). */
TEST(matmul_integer_and_conv_integer)
{
    ox_model *x = ox_new(8, 13);
    int64_t d23[2] = { 2, 3 }, d32[2] = { 3, 2 }, d2[1] = { 2 },
            d22[2] = { 2, 2 }, dx[4] = { 1, 1, 2, 2 }, dy[4] = { 1, 1, 3, 3 };
    uint8_t a[6] = { 1, 2, 3, 255, 0, 10 }, za[2] = { 1, 0 };
    int8_t b[6] = { 1, -1, 2, 0, -128, 127 }, zb = 0;
    uint8_t cx[4] = { 1, 2, 3, 4 }, cw[4] = { 1, 1, 1, 1 }, zx = 1;
    ox_init(x, "a", OX_U8, 2, d23, a, sizeof a);
    ox_init(x, "b", OX_I8, 2, d32, b, sizeof b);
    ox_init(x, "za", OX_U8, 1, d2, za, sizeof za);
    ox_init(x, "zb", OX_I8, 0, NULL, &zb, 1);
    ox_init(x, "cx", OX_U8, 4, dx, cx, sizeof cx);
    ox_init(x, "cw", OX_U8, 4, dx, cw, sizeof cw);
    ox_init(x, "zx", OX_U8, 0, NULL, &zx, 1);
    ox_node(x, "MatMulInteger", N("a", "b", "za", "zb"), N("mm"));
    Onnx__NodeProto *n = ox_node(x, "ConvInteger", N("cx", "cw", "zx"),
                                 N("cv"));
    int64_t pads[4] = { 1, 1, 1, 1 };
    ox_attr_ints(x, n, "pads", 4, pads);
    ox_output(x, "mm", OX_I32, 2, d22);
    ox_output(x, "cv", OX_I32, 4, dy);
    const char *path = ox_write(x, "integer.onnx");
    ox_free(x);
    run r;
    start(&r, path, NULL, 0);
    /* row 0 - 1 = [0, 1, 2]; row 1 = [255, 0, 10] */
    int64_t want_mm[4] = { 0 * 1 + 1 * 2 + 2 * -128, 0 * -1 + 1 * 0 + 2 * 127,
                           255 * 1 + 0 + 10 * -128, 255 * -1 + 0 + 10 * 127 };
    expect_int(&r, "mm", RLX_DTYPE_I32, want_mm, 4);
    /* x - 1 = [[0, 1], [2, 3]], a 2x2 window of ones, padded by 1 */
    int64_t want_cv[9] = { 0, 1, 1, 2, 6, 4, 2, 5, 3 };
    expect_int(&r, "cv", RLX_DTYPE_I32, want_cv, 9);
    finish(&r);
}

/* QLinearMatMul: acc * (a_scale * b_scale / y_scale) = 1.5, 2.5, 3.5,
 * 127.5 round half to even to 2, 2, 4, 128; + y_zp 130 saturates the
 * last at 255. QLinearConv: a 1x1 conv with per-channel w scales and an
 * int32 bias. */
TEST(qlinear_requantization_is_exact)
{
    ox_model *x = ox_new(8, 13);
    int64_t d41[2] = { 4, 1 }, d11[2] = { 1, 1 }, dx[4] = { 1, 1, 2, 2 },
            dw[4] = { 2, 1, 1, 1 }, d2[1] = { 2 }, dy[4] = { 1, 2, 2, 2 };
    uint8_t a[4] = { 3, 5, 7, 255 }, b[1] = { 1 }, z0 = 0, yz = 130;
    float as = 0.5f, bs = 1, ys = 1;
    ox_init(x, "a", OX_U8, 2, d41, a, sizeof a);
    ox_init(x, "b", OX_U8, 2, d11, b, sizeof b);
    ox_init(x, "as", OX_F32, 0, NULL, &as, sizeof as);
    ox_init(x, "bs", OX_F32, 0, NULL, &bs, sizeof bs);
    ox_init(x, "ys", OX_F32, 0, NULL, &ys, sizeof ys);
    ox_init(x, "z0", OX_U8, 0, NULL, &z0, 1);
    ox_init(x, "yz", OX_U8, 0, NULL, &yz, 1);
    ox_node(x, "QLinearMatMul",
            N("a", "as", "z0", "b", "bs", "z0", "ys", "yz"), N("qm"));
    /* conv: x - 2 = [0, 2, 4, 6]; channel 0 w = 3 - 1, channel 1 w = 0 -
     * 1 (int8); bias [1, -3]; scales x 0.5, w [1, 0.25], y 1, y_zp 0 */
    uint8_t cx[4] = { 2, 4, 6, 8 }, zx = 2;
    int8_t cw[2] = { 3, 0 }, zw[2] = { 1, 1 }, cyz = 0;
    int32_t bias[2] = { 1, -3 };
    float xs = 0.5f, ws[2] = { 1, 0.25f }, cys = 1;
    ox_init(x, "cx", OX_U8, 4, dx, cx, sizeof cx);
    ox_init(x, "zx", OX_U8, 0, NULL, &zx, 1);
    ox_init(x, "xs", OX_F32, 0, NULL, &xs, sizeof xs);
    ox_init(x, "cw", OX_I8, 4, dw, cw, sizeof cw);
    ox_init(x, "zw", OX_I8, 1, d2, zw, sizeof zw);
    ox_init(x, "ws", OX_F32, 1, d2, ws, sizeof ws);
    ox_init(x, "cys", OX_F32, 0, NULL, &cys, sizeof cys);
    ox_init(x, "cyz", OX_I8, 0, NULL, &cyz, 1);
    ox_init(x, "bias", OX_I32, 1, d2, bias, sizeof bias);
    ox_node(x, "QLinearConv",
            N("cx", "xs", "zx", "cw", "ws", "zw", "cys", "cyz", "bias"),
            N("qc"));
    ox_output(x, "qm", OX_U8, 2, d41);
    ox_output(x, "qc", OX_I8, 4, dy);
    const char *path = ox_write(x, "qlinear.onnx");
    ox_free(x);
    run r;
    start(&r, path, NULL, 0);
    int64_t want_m[4] = { 132, 132, 134, 255 };
    expect_int(&r, "qm", RLX_DTYPE_U8, want_m, 4);
    /* channel 0: (x' * 2 + 1) * 0.5 = 0.5, 2.5, 4.5, 6.5 -> 0, 2, 4, 6;
     * channel 1: (x' * -1 - 3) * 0.125 = -0.375, -0.625, -0.875, -1.125
     * -> 0 (-0), -1, -1, -1 */
    int64_t want_c[8] = { 0, 2, 4, 6, 0, -1, -1, -1 };
    expect_int(&r, "qc", RLX_DTYPE_I8, want_c, 8);
    finish(&r);
}

/* The range [min(0, min x), max(0, max x)] = [-1, 2.4] onto [0, 255]. */
TEST(dynamic_quantize_linear_outputs)
{
    ox_model *x = ox_new(8, 13);
    int64_t d5[1] = { 5 };
    ox_input(x, "x", OX_F32, 1, d5);
    ox_node(x, "DynamicQuantizeLinear", N("x"), N("y", "ys", "yz"));
    ox_output(x, "y", OX_U8, 1, d5);
    ox_output(x, "ys", OX_F32, 0, NULL);
    ox_output(x, "yz", OX_U8, 0, NULL);
    const char *path = ox_write(x, "dynamic.onnx");
    ox_free(x);
    float in[5] = { -1, 0, 1, 2.4f, 0.6f };
    run r;
    start(&r, path, in, 5);
    float scale = (2.4f - -1.0f) / 255.0f;
    expect_f(&r, "ys", &scale, 1);
    int64_t zp = 75; /* 1 / scale */
    expect_int(&r, "yz", RLX_DTYPE_U8, &zp, 1);
    int64_t want[5] = { 0, 75, 150, 255, 120 };
    expect_int(&r, "y", RLX_DTYPE_U8, want, 5);
    finish(&r);
}

TEST(float_operand_of_matmul_integer_is_refused)
{
    ox_model *x = ox_new(8, 13);
    int64_t d22[2] = { 2, 2 };
    ox_input(x, "a", OX_F32, 2, d22);
    ox_input(x, "b", OX_F32, 2, d22);
    ox_node(x, "MatMulInteger", N("a", "b"), N("y"));
    ox_output(x, "y", OX_I32, 2, d22);
    const char *path = ox_write(x, "matmul-integer-float.onnx");
    ox_free(x);
    rlx_model *m = NULL;
    rlx_status st = rlx_model_load(path, &m);
    if (st == RLX_OK) { /* lowering may wait for the compile */
        rlx_runtime *rt;
        rlx_session *s;
        rlx_program *p = NULL;
        ASSERT_OK(rlx_runtime_create(&rt, RLX_RUNTIME_NO_DISCOVERY));
        ASSERT_OK(rlx_session_create(rt, "cpu-ref", &s));
        st = rlx_model_compile(m, s, &p);
        ASSERT(p == NULL);
        rlx_session_destroy(s);
        rlx_runtime_destroy(rt);
        rlx_model_destroy(m);
    }
    ASSERT_EQ(st, RLX_ERR_UNSUPPORTED);
    ASSERT_CONTAINS(rlx_last_error(), "int8 or uint8 operands");
    ASSERT_CONTAINS(rlx_last_error(), "Fix:");
}

/* The core's checks of the primitives themselves: each bad node is
 * refused when added, with the status and a Fix. */
TEST(core_refuses_bad_quantization_nodes)
{
    rlx_graph *g;
    ASSERT_OK(rlx_graph_create(&g));
    int64_t d22[2] = { 2, 2 }, d3[1] = { 3 }, d2[1] = { 2 };
    rlx_value x, s0, s3, z3, s2, z2f, xu, xi, zu, zi, y;
    ASSERT_OK(rlx_graph_input(g, "s0", RLX_DTYPE_F32, 0, NULL, &s0));
    ASSERT_OK(rlx_graph_input(g, "x", RLX_DTYPE_F32, 2, d22, &x));
    ASSERT_OK(rlx_graph_input(g, "s3", RLX_DTYPE_F32, 1, d3, &s3));
    ASSERT_OK(rlx_graph_input(g, "z3", RLX_DTYPE_U8, 1, d3, &z3));
    ASSERT_OK(rlx_graph_input(g, "s2", RLX_DTYPE_F32, 1, d2, &s2));
    ASSERT_OK(rlx_graph_input(g, "z2f", RLX_DTYPE_F32, 1, d2, &z2f));
    ASSERT_OK(rlx_graph_input(g, "xu", RLX_DTYPE_U8, 2, d22, &xu));
    ASSERT_OK(rlx_graph_input(g, "xi", RLX_DTYPE_I8, 2, d22, &xi));
    ASSERT_OK(rlx_graph_input(g, "zu", RLX_DTYPE_U8, 0, NULL, &zu));
    ASSERT_OK(rlx_graph_input(g, "zi", RLX_DTYPE_I8, 0, NULL, &zi));
    /* a per-axis scale of 3 for an axis of 2 */
    rlx_value in[4] = { x, s3, z3 };
    ASSERT_STATUS(rlx_graph_add_node(g, "q1", RLX_OP_QUANTIZE_LINEAR, 3, in,
                                     NULL, &y), RLX_ERR_SHAPE);
    ASSERT_CONTAINS(rlx_last_error(), "Fix:");
    /* a float zero point */
    in[1] = s2;
    in[2] = z2f;
    ASSERT_STATUS(rlx_graph_add_node(g, "q2", RLX_OP_QUANTIZE_LINEAR, 3, in,
                                     NULL, &y), RLX_ERR_DTYPE);
    ASSERT_CONTAINS(rlx_last_error(), "i8 or u8");
    /* a negative block size */
    int64_t blk[2] = { 1, -2 };
    rlx_attrs at = { 2, blk, 0, NULL };
    in[1] = s0;
    in[2] = zu;
    ASSERT_STATUS(rlx_graph_add_node(g, "q3", RLX_OP_QUANTIZE_LINEAR, 3, in,
                                     &at, &y), RLX_ERR_INVALID_ARGUMENT);
    /* matmul_integer: a's zero point must have a's dtype */
    rlx_value mm[4] = { xu, xi, zi, zi };
    ASSERT_STATUS(rlx_graph_add_node(g, "m1", RLX_OP_MATMUL_INTEGER, 4, mm,
                                     NULL, &y), RLX_ERR_DTYPE);
    ASSERT_CONTAINS(rlx_last_error(), "Fix:");
    mm[2] = zu;
    ASSERT_OK(rlx_graph_add_node(g, "m2", RLX_OP_MATMUL_INTEGER, 4, mm,
                                 NULL, &y));
    rlx_dtype dt;
    uint32_t rank;
    const int64_t *dims;
    ASSERT_OK(rlx_graph_value_shape(g, y, &dt, &rank, &dims));
    ASSERT_EQ(dt, RLX_DTYPE_I32);
    ASSERT_EQ(rank, 2u);
    rlx_graph_destroy(g);
}

/* ---- the QDQ form ------------------------------------------------------- */

/* The report line of the ONNX node whose first output is OUT. */
static const char *lowered_of(const rlx_model *m, const char *out)
{
    for (uint32_t i = 0; i < rlx_model_source_node_count(m); i++) {
        const char *o, *l;
        rlx_model_source_node(m, i, NULL, NULL, &o, &l);
        if (strcmp(o, out) == 0)
            return l;
    }
    FAIL("no ONNX node makes '%s'", out);
}

/* Load PATH on cpu-ref, feed u8 input "x" (COUNT), run. */
static void start_u8(run *r, const char *path, const uint8_t *x,
                     size_t count)
{
    ASSERT_OK(rlx_model_load(path, &r->m));
    ASSERT_OK(rlx_runtime_create(&r->rt, RLX_RUNTIME_NO_DISCOVERY));
    ASSERT_OK(rlx_session_create(r->rt, "cpu-ref", &r->s));
    ASSERT_OK(rlx_model_compile(r->m, r->s, &r->p));
    ASSERT_OK(rlx_program_set_input(r->p, "x", x, count));
    ASSERT_OK(rlx_program_run(r->p));
}

/* A fixed pseudo-random byte sequence. */
static uint8_t next_byte(uint32_t *state)
{
    *state = *state * 1664525u + 1013904223u;
    return (uint8_t)(*state >> 24);
}

/* DQ(x) and DQ(w), DQ(bias) -> Conv -> Q gives the very bytes
 * QLinearConv gives on the same operands (both are the requantization
 * chain), and with a Relu before the Q, max(QLinearConv, y_zp). */
TEST(qdq_conv_is_qlinear_conv)
{
    ox_model *x = ox_new(8, 13);
    int64_t dx[4] = { 1, 3, 5, 5 }, dw[4] = { 4, 3, 3, 3 }, d4[1] = { 4 },
            dy[4] = { 1, 4, 5, 5 }, pads[4] = { 1, 1, 1, 1 };
    uint32_t seed = 7;
    int8_t w[108];
    for (size_t i = 0; i < sizeof w; i++)
        w[i] = (int8_t)next_byte(&seed);
    int32_t bias[4] = { 300, -2000, 0, 12345 };
    float xs = 0.02f, ws[4] = { 0.01f, 0.003f, 0.02f, 0.0007f }, ys = 0.35f;
    float bs[4];
    for (int i = 0; i < 4; i++)
        bs[i] = xs * ws[i];
    uint8_t xz = 120, yz = 100;
    int8_t wz[4] = { 0, 0, 0, 0 };
    int32_t bz[4] = { 0, 0, 0, 0 };
    ox_input(x, "x", OX_U8, 4, dx);
    ox_init(x, "xs", OX_F32, 0, NULL, &xs, sizeof xs);
    ox_init(x, "xz", OX_U8, 0, NULL, &xz, 1);
    ox_init(x, "w", OX_I8, 4, dw, w, sizeof w);
    ox_init(x, "ws", OX_F32, 1, d4, ws, sizeof ws);
    ox_init(x, "wz", OX_I8, 1, d4, wz, sizeof wz);
    ox_init(x, "b", OX_I32, 1, d4, bias, sizeof bias);
    ox_init(x, "bs", OX_F32, 1, d4, bs, sizeof bs);
    ox_init(x, "bz", OX_I32, 1, d4, bz, sizeof bz);
    ox_init(x, "ys", OX_F32, 0, NULL, &ys, sizeof ys);
    ox_init(x, "yz", OX_U8, 0, NULL, &yz, 1);
    Onnx__NodeProto *n = ox_node(
        x, "QLinearConv", N("x", "xs", "xz", "w", "ws", "wz", "ys", "yz",
                            "b"), N("ql"));
    ox_attr_ints(x, n, "pads", 4, pads);
    ox_node(x, "DequantizeLinear", N("x", "xs", "xz"), N("xf"));
    n = ox_node(x, "DequantizeLinear", N("w", "ws", "wz"), N("wf"));
    ox_attr_int(x, n, "axis", 0);
    n = ox_node(x, "DequantizeLinear", N("b", "bs", "bz"), N("bf"));
    ox_attr_int(x, n, "axis", 0);
    n = ox_node(x, "Conv", N("xf", "wf", "bf"), N("c1"));
    ox_attr_ints(x, n, "pads", 4, pads);
    ox_node(x, "QuantizeLinear", N("c1", "ys", "yz"), N("qd"));
    n = ox_node(x, "Conv", N("xf", "wf", "bf"), N("c2"));
    ox_attr_ints(x, n, "pads", 4, pads);
    ox_node(x, "Relu", N("c2"), N("r2"));
    ox_node(x, "QuantizeLinear", N("r2", "ys", "yz"), N("qr"));
    ox_output(x, "ql", OX_U8, 4, dy);
    ox_output(x, "qd", OX_U8, 4, dy);
    ox_output(x, "qr", OX_U8, 4, dy);
    const char *path = ox_write(x, "qdq-conv.onnx");
    ox_free(x);
    uint8_t in[75];
    for (size_t i = 0; i < sizeof in; i++)
        in[i] = next_byte(&seed);
    run r;
    start_u8(&r, path, in, sizeof in);
    const uint8_t *ql = qout(&r, "ql", RLX_DTYPE_U8, 100);
    const uint8_t *qd = qout(&r, "qd", RLX_DTYPE_U8, 100);
    const uint8_t *qr = qout(&r, "qr", RLX_DTYPE_U8, 100);
    int below = 0, above = 0;
    for (int i = 0; i < 100; i++) {
        if (qd[i] != ql[i])
            FAIL("qd[%d] = %d, QLinearConv gives %d", i, qd[i], ql[i]);
        int want = ql[i] > yz ? ql[i] : yz;
        if (qr[i] != want)
            FAIL("qr[%d] = %d, expected %d", i, qr[i], want);
        below += ql[i] < yz;
        above += ql[i] > yz;
    }
    /* the data reach both sides of the zero point: the Relu matters */
    ASSERT(below > 0 && above > 0);
    ASSERT_CONTAINS(lowered_of(r.m, "qd"), "fused QDQ Conv: conv_integer");
    ASSERT_CONTAINS(lowered_of(r.m, "qr"), "fused QDQ Conv + Relu");
    ASSERT_CONTAINS(lowered_of(r.m, "qr"), "max");
    ASSERT_CONTAINS(lowered_of(r.m, "c1"), "fused into the QDQ group");
    ASSERT_CONTAINS(lowered_of(r.m, "xf"), "folded into the QDQ group");
    finish(&r);
}

/* DQ -> MatMul -> Q is QLinearMatMul to the bit; DQ -> Gemm (transB,
 * an int32 bias, per-column weight scales) -> Clip -> Q matches the
 * chain worked out here in C with the same f32 arithmetic. */
TEST(qdq_matmul_and_gemm_are_the_chain)
{
    ox_model *x = ox_new(8, 13);
    int64_t da[2] = { 3, 4 }, db[2] = { 4, 5 }, dg[2] = { 5, 4 },
            d5[1] = { 5 }, dy[2] = { 3, 5 };
    uint32_t seed = 11;
    int8_t b[20], g[20];
    for (int i = 0; i < 20; i++) {
        b[i] = (int8_t)next_byte(&seed);
        g[i] = (int8_t)next_byte(&seed);
    }
    float as = 0.05f, bs = 0.01f, ys = 0.4f, gs[5] = { 0.01f, 0.02f, 0.005f,
                                                      0.03f, 0.011f };
    float gbs[5], lo = -1.0f, hi = 6.0f;
    int32_t gb[5] = { 100, -400, 0, 2500, -7 };
    for (int i = 0; i < 5; i++)
        gbs[i] = as * gs[i];
    uint8_t az = 128, yz = 90;
    ox_input(x, "x", OX_U8, 2, da);
    ox_init(x, "as", OX_F32, 0, NULL, &as, sizeof as);
    ox_init(x, "az", OX_U8, 0, NULL, &az, 1);
    ox_init(x, "b", OX_I8, 2, db, b, sizeof b);
    ox_init(x, "bs", OX_F32, 0, NULL, &bs, sizeof bs);
    ox_init(x, "g", OX_I8, 2, dg, g, sizeof g);
    ox_init(x, "gs", OX_F32, 1, d5, gs, sizeof gs);
    ox_init(x, "gb", OX_I32, 1, d5, gb, sizeof gb);
    ox_init(x, "gbs", OX_F32, 1, d5, gbs, sizeof gbs);
    ox_init(x, "ys", OX_F32, 0, NULL, &ys, sizeof ys);
    ox_init(x, "yz", OX_U8, 0, NULL, &yz, 1);
    ox_init(x, "lo", OX_F32, 0, NULL, &lo, sizeof lo);
    ox_init(x, "hi", OX_F32, 0, NULL, &hi, sizeof hi);
    int8_t bz = 0;
    ox_init(x, "bz", OX_I8, 0, NULL, &bz, 1);
    ox_node(x, "QLinearMatMul", N("x", "as", "az", "b", "bs", "bz", "ys",
                                  "yz"), N("ql"));
    ox_node(x, "DequantizeLinear", N("x", "as", "az"), N("xf"));
    ox_node(x, "DequantizeLinear", N("b", "bs"), N("bf"));
    ox_node(x, "MatMul", N("xf", "bf"), N("m"));
    ox_node(x, "QuantizeLinear", N("m", "ys", "yz"), N("qm"));
    Onnx__NodeProto *n = ox_node(x, "DequantizeLinear", N("g", "gs"),
                                 N("gf"));
    ox_attr_int(x, n, "axis", 0);
    n = ox_node(x, "DequantizeLinear", N("gb", "gbs"), N("gbf"));
    ox_attr_int(x, n, "axis", 0);
    n = ox_node(x, "Gemm", N("xf", "gf", "gbf"), N("gm"));
    ox_attr_int(x, n, "transB", 1);
    ox_node(x, "Clip", N("gm", "lo", "hi"), N("gc"));
    ox_node(x, "QuantizeLinear", N("gc", "ys", "yz"), N("qg"));
    ox_output(x, "ql", OX_U8, 2, dy);
    ox_output(x, "qm", OX_U8, 2, dy);
    ox_output(x, "qg", OX_U8, 2, dy);
    const char *path = ox_write(x, "qdq-matmul.onnx");
    ox_free(x);
    uint8_t in[12];
    for (size_t i = 0; i < sizeof in; i++)
        in[i] = next_byte(&seed);
    run r;
    start_u8(&r, path, in, sizeof in);
    const uint8_t *ql = qout(&r, "ql", RLX_DTYPE_U8, 15);
    const uint8_t *qm = qout(&r, "qm", RLX_DTYPE_U8, 15);
    const uint8_t *qg = qout(&r, "qg", RLX_DTYPE_U8, 15);
    /* Clip's bounds quantized: -1 / 0.4 = -2.5 -> -2 + 90; 6 / 0.4 = 15
     * -> 105 */
    const int qlo = 88, qhi = 105;
    int clipped = 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 5; j++) {
            ASSERT_EQ(qm[i * 5 + j], ql[i * 5 + j]);
            int32_t acc = gb[j];
            for (int k = 0; k < 4; k++)
                acc += (in[i * 4 + k] - az) * g[j * 4 + k];
            float mult = as * gs[j] / ys;
            float v = nearbyintf((float)acc * mult) + yz;
            int want = v < 0 ? 0 : v > 255 ? 255 : (int)v;
            int c = want < qlo ? qlo : want > qhi ? qhi : want;
            clipped += c != want;
            if (qg[i * 5 + j] != c)
                FAIL("qg[%d][%d] = %d, expected %d", i, j, qg[i * 5 + j],
                     c);
        }
    ASSERT(clipped > 0);
    ASSERT_CONTAINS(lowered_of(r.m, "qm"), "fused QDQ MatMul: "
                                           "matmul_integer, mul, div, cast");
    ASSERT_CONTAINS(lowered_of(r.m, "qg"), "fused QDQ Gemm + Clip");
    finish(&r);
}

/* Patterns without an integer kernel, or whose scales disagree, run as
 * dequantize, float op, quantize, and the report says why. */
TEST(qdq_unfused_patterns_run_unfused)
{
    ox_model *x = ox_new(8, 13);
    int64_t d4[4] = { 1, 1, 2, 2 }, d1[4] = { 1, 1, 1, 1 };
    uint8_t a[4] = { 10, 200, 128, 3 }, az = 128, yz = 128;
    float as = 0.1f, bs = 0.25f, ys = 0.2f, ps = 0.1f;
    ox_input(x, "x", OX_U8, 4, d4);
    ox_init(x, "a", OX_U8, 4, d4, a, sizeof a);
    ox_init(x, "as", OX_F32, 0, NULL, &as, sizeof as);
    ox_init(x, "bs", OX_F32, 0, NULL, &bs, sizeof bs);
    ox_init(x, "az", OX_U8, 0, NULL, &az, 1);
    ox_init(x, "ys", OX_F32, 0, NULL, &ys, sizeof ys);
    ox_init(x, "ps", OX_F32, 0, NULL, &ps, sizeof ps);
    ox_init(x, "yz", OX_U8, 0, NULL, &yz, 1);
    ox_node(x, "DequantizeLinear", N("x", "bs", "az"), N("xf"));
    ox_node(x, "DequantizeLinear", N("a", "as", "az"), N("af"));
    ox_node(x, "Add", N("xf", "af"), N("s"));
    ox_node(x, "QuantizeLinear", N("s", "ys", "yz"), N("qa"));
    /* MaxPool between different scales: a requantization, not fused;
     * between equal ones: fused */
    ox_node(x, "DequantizeLinear", N("x", "ps", "az"), N("pf"));
    int64_t k2[2] = { 2, 2 };
    Onnx__NodeProto *n = ox_node(x, "MaxPool", N("pf"), N("p1"));
    ox_attr_ints(x, n, "kernel_shape", 2, k2);
    ox_node(x, "QuantizeLinear", N("p1", "ys", "yz"), N("qp"));
    n = ox_node(x, "MaxPool", N("pf"), N("p2"));
    ox_attr_ints(x, n, "kernel_shape", 2, k2);
    ox_node(x, "QuantizeLinear", N("p2", "ps", "az"), N("qe"));
    ox_output(x, "qa", OX_U8, 4, d4);
    ox_output(x, "qp", OX_U8, 4, d1);
    ox_output(x, "qe", OX_U8, 4, d1);
    const char *path = ox_write(x, "qdq-unfused.onnx");
    ox_free(x);
    uint8_t in[4] = { 0, 255, 131, 127 };
    run r;
    start_u8(&r, path, in, sizeof in);
    /* (x - 128) * 0.25 + (a - 128) * 0.1, / 0.2 half to even, + 128:
     * -32 - 11.8 = -43.8 -> -219; 31.75 + 7.2 = 38.95 -> 194.75 -> 195;
     * 0.75 + 0 -> 3.75 -> 4; -0.25 - 12.5 = -12.75 -> -63.75 -> -64 */
    int64_t want_a[4] = { 0, 255, 132, 64 };
    expect_int(&r, "qa", RLX_DTYPE_U8, want_a, 4);
    /* max = (255 - 128) * 0.1 = 12.7; / 0.2 = 63.5 -> 64 (even) + 128 */
    int64_t want_p[1] = { 192 }, want_e[1] = { 255 };
    expect_int(&r, "qp", RLX_DTYPE_U8, want_p, 1);
    expect_int(&r, "qe", RLX_DTYPE_U8, want_e, 1);
    ASSERT_CONTAINS(lowered_of(r.m, "s"), "not fused (Add: no integer "
                                          "kernel, runs as dequantize, f32 "
                                          "Add, quantize)");
    ASSERT_CONTAINS(lowered_of(r.m, "p1"), "not fused (its input and "
                                           "output quantizations differ)");
    ASSERT_CONTAINS(lowered_of(r.m, "qe"), "fused QDQ MaxPool: max_pool");
    finish(&r);
}

/* A weight scale fed at run time: the group falls back to its members
 * (dequantize, f32 conv, quantize), runs correctly, and says why. */
TEST(qdq_conv_with_a_run_time_scale_falls_back)
{
    ox_model *x = ox_new(8, 13);
    int64_t d4[4] = { 1, 1, 2, 2 }, d1[4] = { 1, 1, 1, 1 };
    uint8_t w = 2, z = 0;
    float xs = 0.5f, ys = 1;
    ox_input(x, "x", OX_U8, 4, d4);
    ox_input(x, "ws", OX_F32, 0, NULL);
    ox_init(x, "xs", OX_F32, 0, NULL, &xs, sizeof xs);
    ox_init(x, "ys", OX_F32, 0, NULL, &ys, sizeof ys);
    ox_init(x, "z", OX_U8, 0, NULL, &z, 1);
    ox_init(x, "w", OX_U8, 4, d1, &w, 1);
    ox_node(x, "DequantizeLinear", N("x", "xs", "z"), N("xf"));
    ox_node(x, "DequantizeLinear", N("w", "ws", "z"), N("wf"));
    ox_node(x, "Conv", N("xf", "wf"), N("c"));
    ox_node(x, "QuantizeLinear", N("c", "ys", "z"), N("y"));
    ox_output(x, "y", OX_U8, 4, d4);
    const char *path = ox_write(x, "qdq-fallback.onnx");
    ox_free(x);
    run r;
    ASSERT_OK(rlx_model_load(path, &r.m));
    ASSERT_OK(rlx_runtime_create(&r.rt, RLX_RUNTIME_NO_DISCOVERY));
    ASSERT_OK(rlx_session_create(r.rt, "cpu-ref", &r.s));
    ASSERT_OK(rlx_model_compile(r.m, r.s, &r.p));
    uint8_t in[4] = { 1, 2, 3, 250 };
    float ws = 1.5f;
    ASSERT_OK(rlx_program_set_input(r.p, "x", in, sizeof in));
    ASSERT_OK(rlx_program_set_input(r.p, "ws", &ws, sizeof ws));
    ASSERT_OK(rlx_program_run(r.p));
    /* x * 0.5 * 2 * 1.5 = 1.5, 3, 4.5, 375: 2, 3, 4 (ties to even), 255 */
    int64_t want[4] = { 2, 3, 4, 255 };
    expect_int(&r, "y", RLX_DTYPE_U8, want, 4);
    ASSERT_CONTAINS(lowered_of(r.m, "c"), "not fused (the scale or zero "
                                          "point of the weights is not "
                                          "constant): conv");
    ASSERT_CONTAINS(lowered_of(r.m, "y"), "quantize_linear");
    finish(&r);
}

RLX_TEST_LIST(TEST_ENTRY(quantize_linear_rounds_half_to_even_and_saturates),
              TEST_ENTRY(quantize_linear_per_axis_and_blocked),
              TEST_ENTRY(dequantize_linear_forms),
              TEST_ENTRY(matmul_integer_and_conv_integer),
              TEST_ENTRY(qlinear_requantization_is_exact),
              TEST_ENTRY(dynamic_quantize_linear_outputs),
              TEST_ENTRY(float_operand_of_matmul_integer_is_refused),
              TEST_ENTRY(core_refuses_bad_quantization_nodes),
              TEST_ENTRY(qdq_conv_is_qlinear_conv),
              TEST_ENTRY(qdq_matmul_and_gemm_are_the_chain),
              TEST_ENTRY(qdq_unfused_patterns_run_unfused),
              TEST_ENTRY(qdq_conv_with_a_run_time_scale_falls_back))
