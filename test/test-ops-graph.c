/*
 * test-ops-graph.c - the reference CPU backend as a whole, through the
 * public API: it declares every op on the dtypes ops.h gives it and no
 * other (max_pool and resize also on i8/u8; by the result's dtype: bool
 * for comparisons, i64 for argmax), empty tensors pass through ops and
 * params, and a small graph with a param and a constant runs twice
 * against values computed here.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <rlx/rlx.h>

#include "harness.h"
#include "ops-util.h"

/* Float ops on f32, f16, bf16 only; sources, data movement, cast and fill
 * on every dtype; nothing on unknown values. */
static int is_float_op(rlx_op op)
{
    switch (op) {
    case RLX_OP_INPUT: case RLX_OP_PARAM: case RLX_OP_CONSTANT:
    case RLX_OP_RESHAPE: case RLX_OP_TRANSPOSE: case RLX_OP_CONCAT:
    case RLX_OP_SLICE: case RLX_OP_GATHER: case RLX_OP_CAST:
    case RLX_OP_FILL:
    /* since 1.4: data movement and indexing (see want_dtype) */
    case RLX_OP_PAD: case RLX_OP_EXPAND: case RLX_OP_TILE:
    case RLX_OP_STRIDED_SLICE: case RLX_OP_GATHER_ELEMENTS:
    case RLX_OP_GATHER_ND: case RLX_OP_SCATTER_ELEMENTS:
    case RLX_OP_SCATTER_ND: case RLX_OP_CUMSUM: case RLX_OP_TOPK:
    case RLX_OP_RANGE: case RLX_OP_ONE_HOT: case RLX_OP_TRILU:
    case RLX_OP_NON_ZERO:
        return 0;
    default:
        return 1;
    }
}

/* The result dtypes of the ops of values 100-149 and the arithmetic ops
 * that take integers since 1.4, as ops.h and docs/ops.md give them: 'n'
 * numeric (floats and the integers), 's' floats and signed integers, 'i'
 * integers, 'u' unsigned integers, 'b' bool only, 'l' i64 only, 'a' any,
 * 'f' floats, 'h' f32, f16 and bf16 (dequantize: the scale's dtype),
 * 'q' i8 and u8 (quantize), 'w' i32 (the integer matmul and conv); 0
 * for the other ops. */
static char result_set(rlx_op op)
{
    switch (op) {
    case RLX_OP_ADD: case RLX_OP_SUB: case RLX_OP_MUL: case RLX_OP_DIV:
    case RLX_OP_MAX: case RLX_OP_MIN: case RLX_OP_POW: case RLX_OP_ABS:
    case RLX_OP_RELU: case RLX_OP_REDUCE_SUM: case RLX_OP_REDUCE_MEAN:
    case RLX_OP_REDUCE_MAX: case RLX_OP_CLIP: case RLX_OP_SIGN:
    case RLX_OP_PRELU: case RLX_OP_MOD: case RLX_OP_REDUCE_MIN:
    case RLX_OP_REDUCE_PROD: case RLX_OP_REDUCE_L1: case RLX_OP_REDUCE_L2:
    case RLX_OP_REDUCE_SUM_SQUARE:
        return 'n';
    case RLX_OP_NEG: return 's';
    case RLX_OP_BITWISE_AND: case RLX_OP_BITWISE_OR: case RLX_OP_BITWISE_XOR:
    case RLX_OP_BITWISE_NOT:
        return 'i';
    case RLX_OP_EQUAL: case RLX_OP_LESS: case RLX_OP_LESS_EQUAL:
    case RLX_OP_GREATER: case RLX_OP_GREATER_EQUAL: case RLX_OP_LOGICAL_AND:
    case RLX_OP_LOGICAL_OR: case RLX_OP_LOGICAL_XOR: case RLX_OP_LOGICAL_NOT:
    case RLX_OP_ISNAN: case RLX_OP_ISINF:
        return 'b';
    case RLX_OP_ARGMAX: case RLX_OP_ARGMIN: return 'l';
    case RLX_OP_WHERE: return 'a';
    case RLX_OP_BIT_SHIFT: return 'u';
    case RLX_OP_QUANTIZE_LINEAR: return 'q';
    case RLX_OP_DEQUANTIZE_LINEAR: return 'h';
    case RLX_OP_MATMUL_INTEGER: case RLX_OP_CONV_INTEGER: return 'w';
    default: return (int)op >= 100 && (int)op < 150 ? 'f' : 0;
    }
}

/* Whether result dtype T belongs to SET (result_set's letters). */
static int in_set(char set, rlx_dtype t)
{
    /* f64 with the float dtypes: every op here also computes on it */
    int fl = t == RLX_DTYPE_F32 || t == RLX_DTYPE_F16 ||
             t == RLX_DTYPE_BF16 || t == RLX_DTYPE_F64;
    int sgn = t == RLX_DTYPE_I8 || t == RLX_DTYPE_I16 || t == RLX_DTYPE_I32 ||
              t == RLX_DTYPE_I64;
    int uns = t == RLX_DTYPE_U8 || t == RLX_DTYPE_U16 || t == RLX_DTYPE_U32 ||
              t == RLX_DTYPE_U64;
    switch (set) {
    case 'n': return fl || sgn || uns;
    case 's': return fl || sgn;
    case 'i': return sgn || uns;
    case 'b': return t == RLX_DTYPE_BOOL;
    case 'l': return t == RLX_DTYPE_I64;
    case 'u': return uns;
    case 'q': return t == RLX_DTYPE_I8 || t == RLX_DTYPE_U8;
    case 'w': return t == RLX_DTYPE_I32;
    case 'h': return fl && t != RLX_DTYPE_F64;
    case 'a': return 1;
    default: return fl;
    }
}

/* Float ops that also take i8 and u8: they only pick input values. */
static int takes_bytes(rlx_op op, rlx_dtype t)
{
    return (op == RLX_OP_MAX_POOL || op == RLX_OP_RESIZE) &&
           (t == RLX_DTYPE_I8 || t == RLX_DTYPE_U8);
}

/* Whether cpu-ref should declare OP with result dtype T: the ops
 * result_set knows as it says, float ops on the float dtypes, topk and
 * non_zero (indices) on i64 only, cumsum and range on every dtype but
 * bool, the rest of data movement on all. */
static int want_dtype(rlx_op op, rlx_dtype t)
{
    if (result_set(op))
        return in_set(result_set(op), t);
    if (op == RLX_OP_MAX_POOL_INDEX) /* positions */
        return t == RLX_DTYPE_I64;
    if (op == RLX_OP_ROI_ALIGN)
        return t == RLX_DTYPE_F32 || t == RLX_DTYPE_F16 ||
               t == RLX_DTYPE_BF16;
    if (op == RLX_OP_DET)
        return t == RLX_DTYPE_F32 || t == RLX_DTYPE_F16 ||
               t == RLX_DTYPE_BF16 || t == RLX_DTYPE_F64;
    if (is_float_op(op))
        return t == RLX_DTYPE_F32 || t == RLX_DTYPE_F16 ||
               t == RLX_DTYPE_BF16 ||
               /* the unary ops of 1.0 also on f64 */
               (t == RLX_DTYPE_F64 && op >= RLX_OP_RELU &&
                op <= RLX_OP_ATAN);
    if (op == RLX_OP_TOPK || op == RLX_OP_NON_ZERO)
        return t == RLX_DTYPE_I64;
    if (op == RLX_OP_CUMSUM || op == RLX_OP_RANGE)
        return t != RLX_DTYPE_BOOL;
    return 1;
}

TEST(supports_every_op)
{
    rlx_runtime *rt = NULL;
    ASSERT_OK(rlx_runtime_create(&rt, RLX_RUNTIME_NO_DISCOVERY));
    const rlx_backend *b = rlx_runtime_find_backend(rt, "cpu-ref");
    int missing = 0, extra = 0;
    static const rlx_dtype floats[] = { RLX_DTYPE_F32, RLX_DTYPE_F16,
                                        RLX_DTYPE_BF16 };
    static const rlx_dtype others[] = { RLX_DTYPE_F64, RLX_DTYPE_I32,
                                        RLX_DTYPE_I64, RLX_DTYPE_I8,
                                        RLX_DTYPE_U8, RLX_DTYPE_BOOL,
                                        RLX_DTYPE_I16, RLX_DTYPE_U16,
                                        RLX_DTYPE_U32, RLX_DTYPE_U64 };
    if (b) {
#define CHECK_OP(name, value, text, arity)                                  \
    for (size_t i = 0; i < 3; i++) {                                        \
        int want = want_dtype(RLX_OP_##name, floats[i]);                    \
        int got = rlx_backend_supports_op(b, RLX_OP_##name, floats[i]) != 0; \
        missing += want && !got;                                            \
        extra += got && !want;                                              \
    }                                                                       \
    for (size_t i = 0; i < N_OF(others); i++) {                             \
        int want = want_dtype(RLX_OP_##name, others[i]) ||                  \
                   takes_bytes(RLX_OP_##name, others[i]);                   \
        int got = rlx_backend_supports_op(b, RLX_OP_##name, others[i]) != 0; \
        missing += want && !got;                                            \
        extra += got && !want;                                              \
    }                                                                       \
    extra += rlx_backend_supports_op(b, RLX_OP_##name, (rlx_dtype)999) != 0; \
    extra += rlx_backend_supports_op(b, RLX_OP_##name, RLX_DTYPE_INVALID) != 0;
        RLX_OP_MAP(CHECK_OP)
#undef CHECK_OP
        extra += rlx_backend_supports_op(b, (rlx_op)9999, RLX_DTYPE_F32) != 0;
        extra += rlx_backend_supports_op(b, (rlx_op)-1, RLX_DTYPE_F32) != 0;
        extra += rlx_backend_supports_op(b, RLX_OP_INVALID, RLX_DTYPE_F32) !=
                 0;
        extra += rlx_backend_supports_op(b, RLX_OP_ADD, (rlx_dtype)999) != 0;
    }
    int found = b != NULL;
    int executes = b ? rlx_backend_executes(b) : 0;
    rlx_runtime_destroy(rt);
    ASSERT(found);
    ASSERT(executes);
    ASSERT_EQ(missing, 0);
    ASSERT_EQ(extra, 0);
}

/* ---- empty tensors, params, graphs ----------------------------------- */

TEST(empty_tensors)
{
    tensor out;
    tensor e03 = make(2, DIMS(0, 3), NULL);
    const float *y = run_op(RLX_OP_EXP, 1, &e03, NULL, &out);
    (void)y;
    ASSERT_SHAPE(out, 2, 0, 3);

    tensor ins[2] = { e03, make(1, DIMS(3), v3) };
    run_op(RLX_OP_ADD, 2, ins, NULL, &out);
    ASSERT_SHAPE(out, 2, 0, 3);

    tensor e20 = make(2, DIMS(2, 0), NULL);
    run_op(RLX_OP_SOFTMAX, 1, &e20, NULL, &out);
    ASSERT_SHAPE(out, 2, 2, 0);
    int64_t axis0 = 0;
    rlx_attrs attrs = { 1, &axis0, 0, NULL };
    run_op(RLX_OP_SOFTMAX, 1, &e03, &attrs, &out);
    ASSERT_SHAPE(out, 2, 0, 3);

    /* an empty param */
    tensor p[2] = { make(2, DIMS(2, 3), m23), make(3, DIMS(0, 1, 3), NULL) };
    run_op_kinds(RLX_OP_MUL, "ip", 2, p, NULL, &out);
    ASSERT_SHAPE(out, 3, 0, 2, 3);
}

/* x [2,3] -> h = relu(x @ W + b), y = softmax(h); W a param, b constant.
 * Two runs with different inputs reuse the param. */
static rlx_status mlp_run(rlx_program *p, const float *x, float *h_out,
                          float *y_out)
{
    rlx_status st = rlx_program_set_input(p, "x", x, 6 * sizeof(float));
    if (st == RLX_OK)
        st = rlx_program_run(p);
    if (st != RLX_OK)
        return st;
    size_t nh = 0, ny = 0;
    const void *h = rlx_program_output_data(p, 0, &nh);
    const void *y = rlx_program_output_data(p, 1, &ny);
    if (!h || !y || nh != 4 * sizeof(float) || ny != 4 * sizeof(float))
        return RLX_ERR_INTERNAL;
    memcpy(h_out, h, nh);
    memcpy(y_out, y, ny);
    return RLX_OK;
}

static void mlp_expect(const float *x, const float *w, const float *b,
                       double *h, double *y)
{
    for (int i = 0; i < 2; i++) {
        double m = -INFINITY, sum = 0;
        for (int j = 0; j < 2; j++) {
            double acc = b[j];
            for (int k = 0; k < 3; k++)
                acc += (double)x[i * 3 + k] * (double)w[k * 2 + j];
            h[i * 2 + j] = acc > 0 ? acc : 0;
            if (h[i * 2 + j] > m)
                m = h[i * 2 + j];
        }
        for (int j = 0; j < 2; j++)
            sum += exp(h[i * 2 + j] - m);
        for (int j = 0; j < 2; j++)
            y[i * 2 + j] = exp(h[i * 2 + j] - m) / sum;
    }
}

TEST(param_graph)
{
    static const float w[6] = { 0.5f, -1.0f, 2.0f, 0.25f, -0.75f, 1.5f };
    static const float b[2] = { 0.1f, -0.2f };
    static const float x1[6] = { 1.0f, 2.0f, 3.0f, -1.0f, 0.5f, 0.0f };
    static const float x2[6] = { -3.0f, 0.0f, 1.0f, 4.0f, -2.0f, 2.5f };
    rlx_runtime *rt = NULL;
    rlx_graph *g = NULL;
    rlx_session *s = NULL;
    rlx_program *p = NULL;
    rlx_value vx, vw, vb, mm, add, h, y;
    float got_h[2][4], got_y[2][4];
    rlx_status st;
    const char *step = "";

#define TRY(expr)                                                           \
    do {                                                                    \
        step = #expr;                                                       \
        if ((st = (expr)) != RLX_OK)                                        \
            goto done;                                                      \
    } while (0)
    TRY(rlx_runtime_create(&rt, RLX_RUNTIME_NO_DISCOVERY));
    TRY(rlx_graph_create(&g));
    TRY(rlx_graph_input(g, "x", RLX_DTYPE_F32, 2, DIMS(2, 3), &vx));
    TRY(rlx_graph_param(g, "w", RLX_DTYPE_F32, 2, DIMS(3, 2), &vw));
    TRY(rlx_graph_constant(g, "b", RLX_DTYPE_F32, 1, DIMS(2), b, &vb));
    TRY(rlx_graph_add_node(g, NULL, RLX_OP_MATMUL, 2,
                           (rlx_value[]){ vx, vw }, NULL, &mm));
    TRY(rlx_graph_add_node(g, NULL, RLX_OP_ADD, 2, (rlx_value[]){ mm, vb },
                           NULL, &add));
    TRY(rlx_graph_add_node(g, "h", RLX_OP_RELU, 1, &add, NULL, &h));
    TRY(rlx_graph_add_node(g, "y", RLX_OP_SOFTMAX, 1, &h, NULL, &y));
    TRY(rlx_graph_output(g, "h", h));
    TRY(rlx_graph_output(g, "y", y));
    TRY(rlx_session_create(rt, "cpu-ref", &s));
    TRY(rlx_session_compile(s, g, &p));
    TRY(rlx_program_set_param(p, "w", w, sizeof w));
    TRY(mlp_run(p, x1, got_h[0], got_y[0]));
    TRY(mlp_run(p, x2, got_h[1], got_y[1]));
#undef TRY
done:
    if (st != RLX_OK)
        snprintf(run_error, sizeof run_error, "%s: %s (%s)", step,
                 rlx_status_name(st), rlx_last_error());
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_graph_destroy(g);
    rlx_runtime_destroy(rt);
    if (st != RLX_OK)
        FAIL("%s", run_error);

    double eh[4], ey[4];
    mlp_expect(x1, w, b, eh, ey);
    check_values("h (run 1)", got_h[0], eh, 4, REL_TOL, 1e-6);
    check_values("y (run 1)", got_y[0], ey, 4, REL_TOL, 1e-7);
    mlp_expect(x2, w, b, eh, ey);
    check_values("h (run 2)", got_h[1], eh, 4, REL_TOL, 1e-6);
    check_values("y (run 2)", got_y[1], ey, 4, REL_TOL, 1e-7);
}

RLX_TEST_LIST(TEST_ENTRY(supports_every_op), TEST_ENTRY(empty_tensors),
              TEST_ENTRY(param_graph))
