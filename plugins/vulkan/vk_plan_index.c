/*
 * vk_plan_index.c - the 1.4 data movement and indexing ops on 1- and
 * 2-word elements (any dtype): pad, expand, tile and strided_slice map
 * each result coordinate to an input coordinate per axis through a table
 * worked out here with the plugin kit's rules (shaders/remap.comp);
 * argmax and argmin (shaders/arg.comp); trilu (shaders/trilu.comp);
 * range, which has no inputs, is computed here and copied in; non_zero
 * (shaders/nonzero.comp).
 *
 * remap push words: count, words, rank, the pad constant's 2 words,
 * result dims[8], input strides[8]. arg: count, is_max, kind,
 * select_last, axis length, inner count. trilu: count, words, rows,
 * cols, upper, k.
 */
#include <stdlib.h>
#include <string.h>

#include <rlx/kit_index.h>

#include "vk_plan.h"

static rlx_status oom(rlxv_plan_ctx *pc)
{
    return rlx_kit_fail(pc->host, RLX_ERR_OUT_OF_MEMORY,
                        "vulkan compile: out of memory planning %s '%s'. "
                        "Fix: free memory", rlx_kit_op_name(pc->v->op),
                        pc->name);
}

static int64_t pos_mod(int64_t p, int64_t m)
{
    int64_t r = p % m;
    return r < 0 ? r + m : r;
}

/* pad: the input coordinate for result coordinate C (-1: the constant),
 * as the reference reads it (negative pads crop first). */
static int64_t pad_source(int64_t mode, int64_t c, int64_t dim, int64_t b,
                          int64_t e)
{
    int64_t lo = b < 0 ? -b : 0;
    int64_t mid = dim - lo - (e < 0 ? -e : 0);
    int64_t q = c - (b > 0 ? b : 0);
    if (q >= 0 && q < mid)
        return lo + q;
    switch (mode) {
    case RLX_PAD_EDGE: return lo + (q < 0 ? 0 : mid - 1);
    case RLX_PAD_WRAP: return lo + pos_mod(q, mid);
    case RLX_PAD_REFLECT:
        if (mid == 1)
            return lo;
        {
            int64_t m = pos_mod(q, 2 * (mid - 1));
            return lo + (m < mid ? m : 2 * (mid - 1) - m);
        }
    default: return -1;
    }
}

static rlx_status plan_remap(rlxv_plan_ctx *pc)
{
    const rlx_node_view *v = pc->v, *x = rlxv_input(pc, 0);
    uint32_t r = v->rank, xr = x->rank, off = r - xr;
    if (r > RLXV_MAX_RANK || xr > r)
        return rlxv_unsupported(pc, "rank above 8");
    if (x->dtype != v->dtype)
        return rlxv_unsupported(pc, "operands of another dtype");
    size_t count = pc->exe->values[pc->i].count;
    if (!count)
        return RLX_OK;
    uint32_t n = rlx_kit_n_int_attrs(v);
    int64_t first[16], step[16], xs[16];
    for (uint32_t d = 0; d < xr; d++) {
        first[d] = 0;
        step[d] = 1;
    }
    rlx_kit_contiguous_strides(xr, x->shape, xs);
    if (v->op == RLX_OP_STRIDED_SLICE)
        for (uint32_t t = 0; t + 4 <= n; t += 4) {
            int64_t axis, cnt;
            if (!rlx_kit_index_wrap(v->int_attrs[t], (int64_t)xr, &axis) ||
                v->int_attrs[t + 3] == 0)
                return rlxv_unsupported(pc, "bad slice axis or step");
            rlx_kit_slice_bounds(x->shape[axis], v->int_attrs[t + 1],
                                 v->int_attrs[t + 2], v->int_attrs[t + 3],
                                 &first[axis], &cnt);
            step[axis] = v->int_attrs[t + 3];
        }
    int64_t mode = v->op == RLX_OP_PAD ? rlx_kit_int_attr(v, 0, 0) : 0;
    size_t entries = 0;
    for (uint32_t d = 0; d < r; d++)
        entries += (size_t)v->shape[d];
    int32_t *table = malloc((entries ? entries : 1) * sizeof *table);
    if (!table)
        return oom(pc);
    int32_t *t = table;
    for (uint32_t d = 0; d < r; d++) {
        int64_t dim = d >= off ? x->shape[d - off] : 1;
        uint32_t xd = d - off;
        for (int64_t c = 0; c < v->shape[d]; c++) {
            int64_t s = 0;
            if (d < off) {
                s = 0;
            } else if (v->op == RLX_OP_PAD) {
                int64_t b = n > 1 ? v->int_attrs[1 + xd] : 0;
                int64_t e = n > 1 + xr ? v->int_attrs[1 + xr + xd] : 0;
                s = pad_source(mode, c, dim, b, e);
            } else if (v->op == RLX_OP_EXPAND) {
                s = dim == 1 ? 0 : c;
            } else if (v->op == RLX_OP_TILE) {
                s = c % dim;
            } else {
                s = first[xd] + c * step[xd];
            }
            *t++ = (int32_t)s;
        }
    }
    uint32_t tb;
    rlx_status st = rlxv_aux_add(pc->host, pc->exe, table,
                                    entries * sizeof *table, &tb);
    free(table);
    if (st != RLX_OK)
        return st;
    rlxv_dispatch *d = rlxv_dispatch_add(pc->host, pc->exe,
                                               RLXV_PIPE_REMAP);
    if (!d)
        return RLX_ERR_OUT_OF_MEMORY;
    uint32_t value[2] = { 0, 0 };
    if (v->op == RLX_OP_PAD)
        rlxv_scalar_words(v->dtype,
                             v->n_float_attrs && v->float_attrs
                                 ? v->float_attrs[RLX_ATTR_PAD_VALUE] : 0.0,
                             value);
    d->push[0] = (uint32_t)count;
    d->push[1] = pc->exe->values[pc->i].words;
    d->push[2] = r;
    d->push[3] = value[0];
    d->push[4] = value[1];
    for (uint32_t q = 0; q < r; q++) {
        d->push[5 + q] = (uint32_t)v->shape[q];
        d->push[13 + q] = q >= off ? (uint32_t)xs[q - off] : 0;
    }
    d->bind[0] = pc->i;
    d->bind[1] = v->inputs[0];
    d->bind[2] = tb;
    rlxv_grid(d, count, RLXV_LOCAL);
    return RLX_OK;
}

static rlx_status plan_arg(rlxv_plan_ctx *pc)
{
    const rlx_node_view *v = pc->v, *x = rlxv_input(pc, 0);
    rlx_dtype t = x->dtype;
    /* 0 float, 1 signed, 2 unsigned; 64-bit (arg64, built WIDE): 3 i64,
     * 4 u64, 5 f64 */
    int kind = rlx_kit_dtype_is_float(t) ? 0
             : t == RLX_DTYPE_I32 || t == RLX_DTYPE_I8 ||
                       t == RLX_DTYPE_I16 ? 1
             : t == RLX_DTYPE_U8 || t == RLX_DTYPE_U16 ||
                       t == RLX_DTYPE_U32 ? 2
             : t == RLX_DTYPE_I64 ? 3 : t == RLX_DTYPE_U64 ? 4
             : t == RLX_DTYPE_F64 ? 5 : -1;
    if (kind < 0 || v->dtype != RLX_DTYPE_I64)
        return rlxv_unsupported(pc, "argmax/argmin take numbers (not "
                                       "bool)");
    if (kind >= 3 && (!pc->ctx->int64 || !pc->ctx->float64))
        return rlxv_unsupported(pc, "argmax/argmin of 64-bit values need "
                                       "shaderInt64 and shaderFloat64, "
                                       "which this device lacks");
    int64_t axis = rlx_kit_norm_axis(
        rlx_kit_int_attr(v, RLX_ATTR_ARG_AXIS, 0), x->rank);
    if (axis < 0 || x->shape[axis] == 0)
        return rlxv_unsupported(pc, "axis out of range or empty");
    uint64_t inner = 1;
    for (uint32_t d = (uint32_t)axis + 1; d < x->rank; d++)
        inner *= (uint64_t)x->shape[d];
    size_t count = pc->exe->values[pc->i].count;
    if (!count)
        return RLX_OK;
    rlxv_dispatch *d = rlxv_dispatch_add(
        pc->host, pc->exe, kind >= 3 ? RLXV_PIPE_ARG64 : RLXV_PIPE_ARG);
    if (!d)
        return RLX_ERR_OUT_OF_MEMORY;
    d->push[0] = (uint32_t)count;
    d->push[1] = v->op == RLX_OP_ARGMAX;
    d->push[2] = (uint32_t)kind;
    d->push[3] = rlx_kit_int_attr(v, RLX_ATTR_ARG_SELECT_LAST_INDEX, 0) != 0;
    d->push[4] = (uint32_t)x->shape[axis];
    d->push[5] = (uint32_t)inner;
    d->bind[0] = pc->i;
    d->bind[1] = v->inputs[0];
    rlxv_grid(d, count, RLXV_LOCAL);
    return RLX_OK;
}

static rlx_status plan_trilu(rlxv_plan_ctx *pc)
{
    const rlx_node_view *v = pc->v;
    if (v->rank < 2 || rlxv_input(pc, 0)->dtype != v->dtype)
        return rlxv_unsupported(pc, "trilu needs rank 2 or more");
    int64_t k = rlx_kit_int_attr(v, RLX_ATTR_TRILU_K, 0);
    if (k > (1 << 30))
        k = 1 << 30;
    if (k < -(1 << 30))
        k = -(1 << 30);
    size_t count = pc->exe->values[pc->i].count;
    if (!count)
        return RLX_OK;
    rlxv_dispatch *d = rlxv_dispatch_add(pc->host, pc->exe,
                                               RLXV_PIPE_TRILU);
    if (!d)
        return RLX_ERR_OUT_OF_MEMORY;
    d->push[0] = (uint32_t)count;
    d->push[1] = pc->exe->values[pc->i].words;
    d->push[2] = (uint32_t)v->shape[v->rank - 2];
    d->push[3] = (uint32_t)v->shape[v->rank - 1];
    d->push[4] = rlx_kit_int_attr(v, RLX_ATTR_TRILU_UPPER, 1) != 0;
    d->push[5] = (uint32_t)(int32_t)k;
    d->bind[0] = pc->i;
    d->bind[1] = v->inputs[0];
    rlxv_grid(d, count, RLXV_LOCAL);
    return RLX_OK;
}

/* range: y[i] = start + i * delta, worked out here (integers wrap as
 * int64, then truncate to the dtype), then copied into place. */
static rlx_status plan_range(rlxv_plan_ctx *pc)
{
    const rlx_node_view *v = pc->v;
    size_t count = pc->exe->values[pc->i].count;
    uint32_t words = pc->exe->values[pc->i].words;
    if (!count)
        return RLX_OK;
    uint32_t *w = malloc(count * words * 4);
    if (!w)
        return oom(pc);
    int is_float = rlx_kit_dtype_is_float(v->dtype) ||
                   v->dtype == RLX_DTYPE_F64;
    uint32_t nf = v->float_attrs ? v->n_float_attrs : 0;
    double fs = nf > RLX_ATTR_RANGE_START
                    ? v->float_attrs[RLX_ATTR_RANGE_START] : 0.0;
    double fd = nf > RLX_ATTR_RANGE_DELTA
                    ? v->float_attrs[RLX_ATTR_RANGE_DELTA] : 1.0;
    uint64_t is = (uint64_t)rlx_kit_int_attr(v, RLX_ATTR_RANGE_INT_START, 0);
    uint64_t id = (uint64_t)rlx_kit_int_attr(v, RLX_ATTR_RANGE_INT_DELTA, 1);
    for (size_t i = 0; i < count; i++) {
        uint32_t s[2];
        if (is_float) {
            rlxv_scalar_words(v->dtype, fs + (double)i * fd, s);
        } else {
            uint64_t u = is + (uint64_t)i * id;
            int64_t x = (int64_t)u;
            switch (v->dtype) {
            case RLX_DTYPE_I8: s[0] = (uint32_t)(int32_t)(int8_t)(x & 0xff);
                break;
            case RLX_DTYPE_U8: s[0] = (uint32_t)(u & 0xffu); break;
            case RLX_DTYPE_I16:
                s[0] = (uint32_t)(int32_t)(int16_t)(x & 0xffff);
                break;
            case RLX_DTYPE_U16: s[0] = (uint32_t)(u & 0xffffu); break;
            case RLX_DTYPE_BOOL: s[0] = u != 0; break;
            default: s[0] = (uint32_t)u; s[1] = (uint32_t)(u >> 32); break;
            }
        }
        for (uint32_t k = 0; k < words; k++)
            w[i * words + k] = s[k];
    }
    uint32_t tb;
    rlx_status st = rlxv_aux_add(pc->host, pc->exe, w,
                                    count * words * 4, &tb);
    free(w);
    if (st != RLX_OK)
        return st;
    rlxv_dispatch *d = rlxv_dispatch_add(pc->host, pc->exe,
                                               RLXV_PIPE_COPY);
    if (!d)
        return RLX_ERR_OUT_OF_MEMORY;
    d->push[0] = (uint32_t)count;
    d->push[1] = words;
    d->push[2] = 1;
    d->push[5] = (uint32_t)count;
    d->push[13] = 1;
    d->push[21] = 1;
    d->bind[0] = pc->i;
    d->bind[1] = tb;
    rlxv_grid(d, count, RLXV_LOCAL);
    return RLX_OK;
}

/* non_zero: one invocation writes the columns in order (see
 * shaders/nonzero.comp); too many nonzeros fail the run. */
static rlx_status plan_non_zero(rlxv_plan_ctx *pc)
{
    const rlx_node_view *v = pc->v, *x = rlxv_input(pc, 0);
    if (v->dtype != RLX_DTYPE_I64 || v->rank != 2 || x->rank > 8 ||
        v->shape[0] != (int64_t)x->rank || x->dtype == RLX_DTYPE_BOOL)
        return rlxv_unsupported(pc, "the result is not i64 [rank, n]");
    uint32_t kind = rlx_kit_dtype_is_float(x->dtype) ? 0
                  : x->dtype == RLX_DTYPE_I64 ||
                    x->dtype == RLX_DTYPE_U64 ? 2
                  : x->dtype == RLX_DTYPE_F64 ? 3 : 1;
    if (!pc->exe->values[pc->i].count)
        return RLX_OK;
    rlxv_dispatch *d = rlxv_dispatch_add(pc->host, pc->exe,
                                               RLXV_PIPE_NONZERO);
    if (!d)
        return RLX_ERR_OUT_OF_MEMORY;
    d->push[0] = (uint32_t)pc->exe->values[v->inputs[0]].count;
    d->push[1] = kind;
    d->push[2] = x->rank;
    d->push[3] = (uint32_t)v->shape[1];
    for (uint32_t k = 0; k < x->rank; k++)
        d->push[4 + k] = (uint32_t)x->shape[k];
    d->bind[0] = pc->i;
    d->bind[1] = v->inputs[0];
    d->bind[4] = RLXV_BIND_ERR;
    pc->exe->uses_err = 1;
    return RLX_OK;
}

rlx_status rlxv_plan_index(rlxv_plan_ctx *pc)
{
    switch (pc->v->op) {
    case RLX_OP_ARGMAX: case RLX_OP_ARGMIN: return plan_arg(pc);
    case RLX_OP_TRILU: return plan_trilu(pc);
    case RLX_OP_RANGE: return plan_range(pc);
    case RLX_OP_NON_ZERO: return plan_non_zero(pc);
    default: return plan_remap(pc);
    }
}
