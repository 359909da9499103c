/*
 * vk_plan_logic.c - the broadcasting ops outside float arithmetic:
 * comparisons, logical ops, isnan and isinf, integer arithmetic and
 * bit_shift (i32, i8, u8, i16, u16, u32, bool; shaders/logic.comp; i64
 * and u64 in shaders/logic64.comp) and where (shaders/where.comp, any
 * dtype).
 *
 * logic push words: count, op, kind, wrap, rank, dims[8], a strides[8],
 * b strides[8], two int attributes. logic64 (i64 operands, devices
 * with shaderInt64): count, op, rank, unsigned (u64), dims[8], a and b strides[8],
 * clip's bounds (2 words each; mod's fmod in the first). where: count,
 * words, rank, dims[7], cond/a/b strides[7].
 */
#include <math.h>
#include <string.h>

#include "vk_plan.h"

int rlxv_int_op(rlx_op op)
{
    switch (op) {
    case RLX_OP_ADD: case RLX_OP_SUB: case RLX_OP_MUL: case RLX_OP_DIV:
    case RLX_OP_MAX: case RLX_OP_MIN: case RLX_OP_POW: case RLX_OP_NEG:
    case RLX_OP_ABS: case RLX_OP_RELU: case RLX_OP_SIGN: case RLX_OP_CLIP:
    case RLX_OP_PRELU: case RLX_OP_MOD: case RLX_OP_BITWISE_AND:
    case RLX_OP_BITWISE_OR: case RLX_OP_BITWISE_XOR: case RLX_OP_BITWISE_NOT:
    case RLX_OP_BIT_SHIFT:
        return 1;
    default:
        return 0;
    }
}

/* 0 float, 1 signed, 2 unsigned; -1 for a dtype logic.comp lacks. */
static int kind_of(rlx_dtype t)
{
    switch (t) {
    case RLX_DTYPE_F32: case RLX_DTYPE_F16: case RLX_DTYPE_BF16: return 0;
    case RLX_DTYPE_I32: case RLX_DTYPE_I8: case RLX_DTYPE_I16: return 1;
    case RLX_DTYPE_U8: case RLX_DTYPE_BOOL: case RLX_DTYPE_U16:
    case RLX_DTYPE_U32:
        return 2;
    default: return -1;
    }
}

/* Clip bound B rounded inward (UP: toward +inf) and saturated. */
static int32_t int_bound(double b, int up, int32_t lo, int32_t hi)
{
    double v = up ? ceil(b) : floor(b);
    if (isnan(v))
        return up ? lo : hi;
    if (v <= lo)
        return lo;
    if (v >= hi)
        return hi;
    return (int32_t)v;
}

/* Broadcast strides of the N inputs of PC against its output, merged;
 * the merged rank, or -1 (reported) past MAX. */
static int strides(rlxv_plan_ctx *pc, uint32_t n, uint32_t max,
                   int64_t dims[16], int64_t st[3][16])
{
    const rlx_node_view *v = pc->v;
    int64_t so[16];
    for (uint32_t d = 0; d < v->rank; d++)
        dims[d] = v->shape[d];
    for (uint32_t j = 0; j < n; j++) {
        const rlx_node_view *in = rlxv_input(pc, j < v->n_inputs ? j : 0);
        if (in->rank > v->rank) {
            rlxv_unsupported(pc, "operand ranks do not broadcast");
            return -1;
        }
        rlx_kit_broadcast_strides(v->rank, in->rank, in->shape, st[j]);
    }
    rlx_kit_contiguous_strides(v->rank, v->shape, so);
    int64_t *const all[] = { st[0], st[1], st[2], so };
    int64_t *sel[4];
    for (uint32_t j = 0; j < n; j++)
        sel[j] = all[j];
    sel[n] = so;
    uint32_t r = rlx_kit_collapse(v->rank, dims, sel, n + 1);
    if (r > max) {
        rlxv_unsupported(pc, "too many broadcast dims remain after "
                                "merging");
        return -1;
    }
    return (int)r;
}

static rlx_status plan_where(rlxv_plan_ctx *pc)
{
    const rlx_node_view *v = pc->v;
    if (rlxv_input(pc, 0)->dtype != RLX_DTYPE_BOOL ||
        rlxv_input(pc, 1)->dtype != v->dtype ||
        rlxv_input(pc, 2)->dtype != v->dtype)
        return rlxv_unsupported(pc, "where takes a bool condition and "
                                       "two values of its dtype");
    int64_t dims[16], st[3][16];
    int r = strides(pc, 3, 7, dims, st);
    if (r < 0)
        return RLX_ERR_UNSUPPORTED;
    size_t count = pc->exe->values[pc->i].count;
    if (!count)
        return RLX_OK;
    rlxv_dispatch *d = rlxv_dispatch_add(pc->host, pc->exe,
                                               RLXV_PIPE_WHERE);
    if (!d)
        return RLX_ERR_OUT_OF_MEMORY;
    d->push[0] = (uint32_t)count;
    d->push[1] = pc->exe->values[pc->i].words;
    d->push[2] = (uint32_t)r;
    for (int k = 0; k < r; k++) {
        d->push[3 + k] = (uint32_t)dims[k];
        for (int j = 0; j < 3; j++)
            d->push[10 + 7 * j + k] = (uint32_t)st[j][k];
    }
    d->bind[0] = pc->i;
    for (int j = 0; j < 3; j++)
        d->bind[1 + j] = v->inputs[j];
    rlxv_grid(d, count, RLXV_LOCAL);
    return RLX_OK;
}

/* Float attribute K of V, or DFLT. */
static double fattr(const rlx_node_view *v, uint32_t k, double dflt)
{
    return v->n_float_attrs > k && v->float_attrs ? v->float_attrs[k] : dflt;
}

/* i64 clip bound B rounded inward (UP: toward +inf) and saturated. */
static int64_t int64_bound(double b, int up)
{
    double v = up ? ceil(b) : floor(b);
    if (isnan(v))
        return up ? INT64_MIN : INT64_MAX;
    if (v <= -9223372036854775808.0)
        return INT64_MIN;
    if (v >= 9223372036854775808.0)
        return INT64_MAX;
    return (int64_t)v;
}

/* u64 clip bound B rounded inward, saturated, as its bit pattern. */
static int64_t u64_bound(double b, int up)
{
    double v = up ? ceil(b) : floor(b);
    if (isnan(v) || v <= 0)
        return isnan(v) && !up ? -1 : 0; /* -1: all ones, UINT64_MAX */
    if (v >= 18446744073709551616.0)
        return -1;
    return (int64_t)(uint64_t)v;
}

static rlx_status plan_i64(rlxv_plan_ctx *pc)
{
    const rlx_node_view *v = pc->v;
    int cmp = v->op >= RLX_OP_EQUAL && v->op <= RLX_OP_GREATER_EQUAL;
    if (!pc->ctx->int64)
        return rlxv_unsupported(pc, "i64 needs shaderInt64, which this "
                                       "device lacks");
    rlx_dtype in_t = rlxv_input(pc, 0)->dtype;
    int uns = in_t == RLX_DTYPE_U64;
    if (!cmp && (!rlxv_int_op(v->op) || v->dtype != in_t))
        return rlxv_unsupported(pc, "no i64 shader for this op");
    if ((v->op == RLX_OP_BIT_SHIFT && !uns) || (v->op == RLX_OP_NEG && uns))
        return rlxv_unsupported(pc, "bit_shift takes unsigned and neg "
                                       "signed dtypes");
    int64_t dims[16], st[3][16];
    int r = strides(pc, 2, RLXV_MAX_RANK, dims, st);
    if (r < 0)
        return RLX_ERR_UNSUPPORTED;
    size_t count = pc->exe->values[pc->i].count;
    if (!count)
        return RLX_OK;
    int64_t x0 = 0, x1 = 0;
    if (v->op == RLX_OP_MOD) {
        x0 = rlx_kit_int_attr(v, RLX_ATTR_MOD_FMOD, 0) != 0;
    } else if (v->op == RLX_OP_CLIP && uns) {
        x0 = u64_bound(fattr(v, RLX_ATTR_CLIP_MIN, -INFINITY), 1);
        x1 = u64_bound(fattr(v, RLX_ATTR_CLIP_MAX, INFINITY), 0);
    } else if (v->op == RLX_OP_CLIP) {
        x0 = int64_bound(fattr(v, RLX_ATTR_CLIP_MIN, -INFINITY), 1);
        x1 = int64_bound(fattr(v, RLX_ATTR_CLIP_MAX, INFINITY), 0);
    } else if (v->op == RLX_OP_BIT_SHIFT) {
        x0 = rlx_kit_int_attr(v, RLX_ATTR_BIT_SHIFT_DIRECTION,
                              RLX_BIT_SHIFT_LEFT) == RLX_BIT_SHIFT_RIGHT;
    }
    rlxv_dispatch *d = rlxv_dispatch_add(pc->host, pc->exe,
                                               RLXV_PIPE_LOGIC64);
    if (!d)
        return RLX_ERR_OUT_OF_MEMORY;
    d->push[0] = (uint32_t)count;
    d->push[1] = (uint32_t)v->op;
    d->push[2] = (uint32_t)r;
    d->push[3] = (uint32_t)uns;
    for (int k = 0; k < r; k++) {
        d->push[4 + k] = (uint32_t)dims[k];
        d->push[12 + k] = (uint32_t)st[0][k];
        d->push[20 + k] = v->n_inputs > 1 ? (uint32_t)st[1][k] : 0u;
    }
    memcpy(&d->push[28], &x0, 8);
    memcpy(&d->push[30], &x1, 8);
    d->bind[0] = pc->i;
    d->bind[1] = v->inputs[0];
    d->bind[2] = v->inputs[v->n_inputs > 1 ? 1 : 0];
    rlxv_grid(d, count, RLXV_LOCAL);
    return RLX_OK;
}

rlx_status rlxv_plan_logic(rlxv_plan_ctx *pc)
{
    const rlx_node_view *v = pc->v;
    if (v->op == RLX_OP_WHERE)
        return plan_where(pc);
    rlx_dtype in_t = rlxv_input(pc, 0)->dtype;
    for (uint32_t j = 1; j < v->n_inputs; j++)
        if (rlxv_input(pc, j)->dtype != in_t)
            return rlxv_unsupported(pc, "operands of mixed dtypes");
    if (in_t == RLX_DTYPE_I64 || in_t == RLX_DTYPE_U64)
        return plan_i64(pc);
    if (in_t == RLX_DTYPE_F64)
        return rlxv_plan_ew64(pc);
    int kind = kind_of(in_t);
    if (kind < 0)
        return rlxv_unsupported(pc, "this dtype (f64) has no "
                                       "shader for this op");
    switch (v->op) {
    case RLX_OP_LOGICAL_AND: case RLX_OP_LOGICAL_OR: case RLX_OP_LOGICAL_XOR:
    case RLX_OP_LOGICAL_NOT:
        if (in_t != RLX_DTYPE_BOOL)
            return rlxv_unsupported(pc, "logical ops take bool");
        break;
    case RLX_OP_ISNAN: case RLX_OP_ISINF:
        if (kind != 0)
            return rlxv_unsupported(pc, "isnan and isinf take floats");
        break;
    case RLX_OP_EQUAL: case RLX_OP_LESS: case RLX_OP_LESS_EQUAL:
    case RLX_OP_GREATER: case RLX_OP_GREATER_EQUAL:
        if (in_t == RLX_DTYPE_BOOL && v->op != RLX_OP_EQUAL)
            return rlxv_unsupported(pc, "bool compares only for equal");
        break;
    default:
        if (!rlxv_int_op(v->op) || kind == 0 ||
            (in_t == RLX_DTYPE_BOOL) || in_t != v->dtype)
            return rlxv_unsupported(pc, "integer ops take integer dtypes");
        if ((v->op == RLX_OP_BIT_SHIFT && kind != 2) ||
            (v->op == RLX_OP_NEG && kind != 1))
            return rlxv_unsupported(pc, "bit_shift takes unsigned and neg "
                                           "signed dtypes");
        break;
    }
    int64_t dims[16], st[3][16];
    int r = strides(pc, 2, RLXV_MAX_RANK, dims, st);
    if (r < 0)
        return RLX_ERR_UNSUPPORTED;
    size_t count = pc->exe->values[pc->i].count;
    if (!count)
        return RLX_OK;
    int32_t x0 = 0, x1 = 0;
    if (v->op == RLX_OP_ISINF) {
        x0 = rlx_kit_int_attr(v, RLX_ATTR_ISINF_DETECT_POSITIVE, 1) != 0;
        x1 = rlx_kit_int_attr(v, RLX_ATTR_ISINF_DETECT_NEGATIVE, 1) != 0;
    } else if (v->op == RLX_OP_MOD) {
        x0 = rlx_kit_int_attr(v, RLX_ATTR_MOD_FMOD, 0) != 0;
    } else if (v->op == RLX_OP_CLIP && v->dtype == RLX_DTYPE_U32) {
        /* unsigned bit patterns (logic.comp's unsigned_op) */
        int64_t b0 = u64_bound(fattr(v, RLX_ATTR_CLIP_MIN, -INFINITY), 1);
        int64_t b1 = u64_bound(fattr(v, RLX_ATTR_CLIP_MAX, INFINITY), 0);
        x0 = (int32_t)(uint32_t)((uint64_t)b0 > UINT32_MAX ? UINT32_MAX
                                                           : (uint64_t)b0);
        x1 = (int32_t)(uint32_t)((uint64_t)b1 > UINT32_MAX ? UINT32_MAX
                                                           : (uint64_t)b1);
    } else if (v->op == RLX_OP_CLIP) {
        int32_t lo = v->dtype == RLX_DTYPE_I8 ? -128
                   : v->dtype == RLX_DTYPE_U8 ? 0
                   : v->dtype == RLX_DTYPE_I16 ? -32768
                   : v->dtype == RLX_DTYPE_U16 ? 0 : INT32_MIN;
        int32_t hi = v->dtype == RLX_DTYPE_I8 ? 127
                   : v->dtype == RLX_DTYPE_U8 ? 255
                   : v->dtype == RLX_DTYPE_I16 ? 32767
                   : v->dtype == RLX_DTYPE_U16 ? 65535 : INT32_MAX;
        x0 = int_bound(fattr(v, RLX_ATTR_CLIP_MIN, -INFINITY), 1, lo, hi);
        x1 = int_bound(fattr(v, RLX_ATTR_CLIP_MAX, INFINITY), 0, lo, hi);
    } else if (v->op == RLX_OP_BIT_SHIFT) {
        x0 = rlx_kit_int_attr(v, RLX_ATTR_BIT_SHIFT_DIRECTION,
                              RLX_BIT_SHIFT_LEFT) == RLX_BIT_SHIFT_RIGHT;
    }
    rlxv_dispatch *d = rlxv_dispatch_add(pc->host, pc->exe,
                                               RLXV_PIPE_LOGIC);
    if (!d)
        return RLX_ERR_OUT_OF_MEMORY;
    d->push[0] = (uint32_t)count;
    d->push[1] = (uint32_t)v->op;
    d->push[2] = (uint32_t)kind;
    d->push[3] = v->dtype == RLX_DTYPE_I8 ? 1u
               : v->dtype == RLX_DTYPE_U8 || v->dtype == RLX_DTYPE_BOOL ? 2u
               : v->dtype == RLX_DTYPE_I16 ? 3u
               : v->dtype == RLX_DTYPE_U16 ? 4u : 0u;
    d->push[4] = (uint32_t)r;
    for (int k = 0; k < r; k++) {
        d->push[5 + k] = (uint32_t)dims[k];
        d->push[13 + k] = (uint32_t)st[0][k];
        d->push[21 + k] = v->n_inputs > 1 ? (uint32_t)st[1][k] : 0u;
    }
    d->push[29] = (uint32_t)x0;
    d->push[30] = (uint32_t)x1;
    d->bind[0] = pc->i;
    d->bind[1] = v->inputs[0];
    d->bind[2] = v->inputs[v->n_inputs > 1 ? 1 : 0];
    rlxv_grid(d, count, RLXV_LOCAL);
    return RLX_OK;
}
