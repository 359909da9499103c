/*
 * onnx_eval.c - a small evaluator for known data that cpu-ref has no
 * kernel for: integer arithmetic, comparisons, logic, Where and Range,
 * as shape subgraphs use them (x.shape[0] * 2, Equal(shape, -1), ...).
 * Float arithmetic is left to the cpu-ref fold. Results are bounded by
 * RLX__ONNX_FOLD_MAX elements.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "onnx.h"

static int is_int(rlx_dtype t)
{
    return t == RLX_DTYPE_I64 || t == RLX_DTYPE_I32 || t == RLX_DTYPE_I8 ||
           t == RLX_DTYPE_U8 || t == RLX_DTYPE_BOOL;
}

/* X as an int64, saturating (NaN gives 0): C leaves out-of-range
 * conversions undefined, and folded model data may hold anything. */
static int64_t f_to_i(double x)
{
    if (x != x)
        return 0;
    if (x >= 9223372036854775807.0)
        return INT64_MAX;
    if (x <= -9223372036854775808.0)
        return INT64_MIN;
    return (int64_t)x;
}

static int64_t get_i(const rlx__onnx_val *v, int64_t i)
{
    switch (v->dtype) {
    case RLX_DTYPE_I64: return ((const int64_t *)v->data)[i];
    case RLX_DTYPE_I32: return ((const int32_t *)v->data)[i];
    case RLX_DTYPE_I8: return ((const int8_t *)v->data)[i];
    case RLX_DTYPE_U8: case RLX_DTYPE_BOOL:
        return ((const uint8_t *)v->data)[i];
    case RLX_DTYPE_F32: return f_to_i(((const float *)v->data)[i]);
    case RLX_DTYPE_F64: return f_to_i(((const double *)v->data)[i]);
    default: return 0;
    }
}

static double get_f(const rlx__onnx_val *v, int64_t i)
{
    switch (v->dtype) {
    case RLX_DTYPE_F32: return ((const float *)v->data)[i];
    case RLX_DTYPE_F64: return ((const double *)v->data)[i];
    default: return (double)get_i(v, i);
    }
}

static void put(void *dst, rlx_dtype t, int64_t i, int64_t iv, double fv,
                int use_f)
{
    switch (t) {
    case RLX_DTYPE_I64: ((int64_t *)dst)[i] = use_f ? (int64_t)fv : iv; break;
    case RLX_DTYPE_I32: ((int32_t *)dst)[i] = (int32_t)(use_f ? fv : iv);
        break;
    case RLX_DTYPE_I8: ((int8_t *)dst)[i] = (int8_t)(use_f ? fv : iv); break;
    case RLX_DTYPE_U8: case RLX_DTYPE_BOOL:
        ((uint8_t *)dst)[i] = (uint8_t)(use_f ? fv : iv);
        break;
    case RLX_DTYPE_F32: ((float *)dst)[i] = (float)(use_f ? fv : iv); break;
    case RLX_DTYPE_F64: ((double *)dst)[i] = use_f ? fv : (double)iv; break;
    default: break;
    }
}

enum { E_ADD, E_SUB, E_MUL, E_DIV, E_MOD, E_MAX, E_MIN, E_EQ, E_LT, E_GT,
       E_LE, E_GE, E_AND, E_OR, E_XOR, E_NOT, E_NEG, E_ABS, E_WHERE,
       E_RANGE };

static const struct { const char *op; int code, arity; } table[] = {
    { "Add", E_ADD, 2 }, { "Sub", E_SUB, 2 }, { "Mul", E_MUL, 2 },
    { "Div", E_DIV, 2 }, { "Mod", E_MOD, 2 }, { "Max", E_MAX, 2 },
    { "Min", E_MIN, 2 }, { "Equal", E_EQ, 2 }, { "Less", E_LT, 2 },
    { "Greater", E_GT, 2 }, { "LessOrEqual", E_LE, 2 },
    { "GreaterOrEqual", E_GE, 2 }, { "And", E_AND, 2 }, { "Or", E_OR, 2 },
    { "Xor", E_XOR, 2 }, { "Not", E_NOT, 1 }, { "Neg", E_NEG, 1 },
    { "Abs", E_ABS, 1 }, { "Where", E_WHERE, 3 }, { "Range", E_RANGE, 3 },
};

static int64_t iop(int code, int64_t a, int64_t b, int *bad)
{
    switch (code) {
    case E_ADD: return (int64_t)((uint64_t)a + (uint64_t)b);
    case E_SUB: return (int64_t)((uint64_t)a - (uint64_t)b);
    case E_MUL: return (int64_t)((uint64_t)a * (uint64_t)b);
    case E_DIV:
    case E_MOD:
        if (b == 0 || (a == INT64_MIN && b == -1)) {
            *bad = 1;
            return 0;
        }
        if (code == E_DIV)
            return a / b;
        { int64_t r = a % b; /* ONNX Mod (fmod=0): the divisor's sign */
          return r != 0 && ((r < 0) != (b < 0)) ? r + b : r; }
    case E_MAX: return a > b ? a : b;
    case E_MIN: return a < b ? a : b;
    case E_EQ: return a == b;
    case E_LT: return a < b;
    case E_GT: return a > b;
    case E_LE: return a <= b;
    case E_GE: return a >= b;
    case E_AND: return a && b;
    case E_OR: return a || b;
    case E_XOR: return !a != !b;
    case E_NOT: return !a;
    case E_NEG: return (int64_t)(0 - (uint64_t)a);
    case E_ABS: return a < 0 ? (int64_t)(0 - (uint64_t)a) : a;
    default: return 0;
    }
}

static double fop(int code, double a, double b)
{
    switch (code) {
    case E_EQ: return a == b;
    case E_LT: return a < b;
    case E_GT: return a > b;
    case E_LE: return a <= b;
    case E_GE: return a >= b;
    case E_MAX: return a > b ? a : b;
    case E_MIN: return a < b ? a : b;
    case E_NEG: return -a;
    case E_ABS: return fabs(a);
    default: return 0;
    }
}

static rlx_status range(rlx__onnx_ctx *c, rlx__onnx_val **in,
                        rlx__onnx_val *out)
{
    for (int i = 0; i < 3; i++)
        if (rlx__onnx_elements(in[i]->rank, in[i]->dims) != 1)
            return rlx__onnx_fail(c, RLX_ERR_SHAPE,
                                  "start, limit and delta must be scalars. "
                                  "Fix: check the model");
    rlx_dtype dt = in[0]->dtype;
    int use_f = !is_int(dt);
    double s = get_f(in[0], 0), l = get_f(in[1], 0), d = get_f(in[2], 0);
    if (d == 0)
        return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                              "delta is 0. Fix: use a non-zero delta");
    double count = ceil((l - s) / d);
    if (isnan(count)) /* a NaN or infinite bound: no count to make */
        return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                              "start %g, limit %g and delta %g give no "
                              "element count. Fix: use finite numbers",
                              s, l, d);
    if (count < 0)
        count = 0;
    if (count > RLX__ONNX_FOLD_MAX)
        return rlx__onnx_fail(c, RLX_ERR_UNSUPPORTED,
                              "it makes %.0f elements, more than %d. Fix: "
                              "make the range smaller", count,
                              RLX__ONNX_FOLD_MAX);
    int64_t n = (int64_t)count;
    void *buf = malloc(n ? (size_t)n * rlx_dtype_size(dt) : 1);
    if (!buf)
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    /* integer start and delta only for integer ranges: a float's may
     * not fit an int64 */
    int64_t si = use_f ? 0 : get_i(in[0], 0), di = use_f ? 0 : get_i(in[2], 0);
    for (int64_t i = 0; i < n; i++)
        put(buf, dt, i, (int64_t)((uint64_t)si + (uint64_t)i * (uint64_t)di),
            s + (double)i * d, use_f); /* integers wrap, as ONNX's do */
    rlx__onnx_set_known(out, dt, 1, &n, buf);
    return RLX_OK;
}

int rlx__onnx_eval(rlx__onnx_ctx *c, rlx__onnx_val **in, uint32_t n_in,
                   rlx__onnx_val *out, uint32_t n_out, rlx_status *st)
{
    *st = RLX_OK;
    int code = -1, arity = 0;
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (strcmp(table[i].op, c->node->op_type) == 0)
            code = table[i].code, arity = table[i].arity;
    if (code < 0 || n_in != (uint32_t)arity || n_out < 1)
        return 0;
    /* Mod with fmod 1 (C's remainder) folds through the mod op instead */
    if (code == E_MOD && rlx__onnx_attr_int(c, "fmod", 0) != 0)
        return 0;
    /* only the dtypes get_i, get_f and put read and write: the others
     * (16-bit floats, the 1.4 integer widths) compute in the graph */
    for (int i = 0; i < arity; i++)
        if (!in[i] || !in[i]->known ||
            !(is_int(in[i]->dtype) || in[i]->dtype == RLX_DTYPE_F32 ||
              in[i]->dtype == RLX_DTYPE_F64))
            return 0;
    if (code == E_RANGE)
        return (*st = range(c, in, &out[0])) == RLX_OK ? 1 : -1;
    /* the data operands: Where's are inputs 1 and 2 */
    rlx__onnx_val *a = in[code == E_WHERE ? 1 : 0];
    int use_f = !is_int(a->dtype);
    /* float arithmetic is cpu-ref's */
    if (use_f && code <= E_MOD)
        return 0;
    rlx_dtype odt = code >= E_EQ && code <= E_NOT ? RLX_DTYPE_BOOL
                                                  : a->dtype;
    /* broadcast the shapes */
    uint32_t rank = 0;
    for (int i = 0; i < arity; i++)
        if (in[i]->rank > rank)
            rank = in[i]->rank;
    int64_t d[RLX_MAX_RANK];
    for (uint32_t k = 0; k < rank; k++) {
        d[k] = 1;
        for (int i = 0; i < arity; i++) {
            uint32_t off = rank - in[i]->rank;
            int64_t x = k >= off ? in[i]->dims[k - off] : 1;
            if (x != 1 && d[k] != 1 && x != d[k]) {
                *st = rlx__onnx_fail(c, RLX_ERR_SHAPE,
                                     "input shapes do not broadcast. Fix: "
                                     "check the model");
                return -1;
            }
            if (x != 1)
                d[k] = x;
        }
    }
    int64_t n = rlx__onnx_elements(rank, d);
    if (n < 0 || n > RLX__ONNX_FOLD_MAX)
        return 0;
    void *buf = malloc(n ? (size_t)n * rlx_dtype_size(odt) : 1);
    if (!buf) {
        *st = rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
        return -1;
    }
    int bad = 0;
    for (int64_t e = 0; e < n; e++) {
        int64_t idx[3] = { 0, 0, 0 };
        for (int i = 0; i < arity; i++) {
            int64_t rem = e, stride = 1, off = 0;
            uint32_t sh = rank - in[i]->rank;
            for (int k = (int)rank - 1; k >= 0; k--) {
                int64_t coord = rem % d[k];
                rem /= d[k];
                if (k >= (int)sh) {
                    int64_t x = in[i]->dims[k - sh];
                    off += (x == 1 ? 0 : coord) * stride;
                    stride *= x;
                }
            }
            idx[i] = off;
        }
        if (code == E_WHERE) {
            int cond = get_i(in[0], idx[0]) != 0;
            rlx__onnx_val *src = cond ? in[1] : in[2];
            int64_t j = cond ? idx[1] : idx[2];
            put(buf, odt, e, get_i(src, j), get_f(src, j), use_f);
            continue;
        }
        if (use_f) {
            double b = arity > 1 ? get_f(in[1], idx[1]) : 0;
            put(buf, odt, e, 0, fop(code, get_f(in[0], idx[0]), b), 1);
        } else {
            int64_t b = arity > 1 ? get_i(in[1], idx[1]) : 0;
            put(buf, odt, e, iop(code, get_i(in[0], idx[0]), b, &bad), 0, 0);
        }
    }
    if (bad) {
        free(buf);
        *st = rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                             "integer division by zero in constant data. "
                             "Fix: check the model");
        return -1;
    }
    rlx__onnx_set_known(&out[0], odt, rank, d, buf);
    return 1;
}
