/*
 * vk_plan_reduce.c - the reductions (sum, mean, max, min, prod, L1, L2,
 * log-sum-exp, sum of squares; on floats, and but for mean, L2 and
 * log-sum-exp on i32, i8, u8, i16, u16, u32; on shaders/reduce64.comp
 * where the device has shaderFloat64 and shaderInt64: f64, i64 and u64,
 * and integer mean and L2) over any set of axes: the input's dims are
 * split into kept and reduced ones (each run of neighbours merged), one
 * workgroup per output element walks its reduced elements and combines
 * them in shared memory.
 *
 * push words: output count, reduced count, op, round, kept rank,
 * reduced rank, dims[8] (kept first, then reduced), strides[8], integer
 * kind (0 float), wrap, the empty reduction's integer value.
 */
#include "vk_plan.h"

rlx_status rlxv_plan_reduce(rlxv_plan_ctx *pc)
{
    const rlx_node_view *v = pc->v, *in = rlxv_input(pc, 0);
    rlx_dtype t = v->dtype;
    int kind = rlx_kit_dtype_is_float(t) || t == RLX_DTYPE_F64 ? 0
             : t == RLX_DTYPE_I32 || t == RLX_DTYPE_I8 ||
                       t == RLX_DTYPE_I16 || t == RLX_DTYPE_I64 ? 1
             : t == RLX_DTYPE_U8 || t == RLX_DTYPE_U16 ||
                       t == RLX_DTYPE_U32 || t == RLX_DTYPE_U64 ? 2 : -1;
    int wide = t == RLX_DTYPE_I64 || t == RLX_DTYPE_U64;
    if (kind < 0 || (kind > 0 && v->op == RLX_OP_REDUCE_LOG_SUM_EXP))
        return rlxv_unsupported(pc, "reductions take numbers, and "
                                       "log-sum-exp floats");
    /* reduce64.comp: f64, i64 and u64, and integer mean and L2 (in
     * double, as the reference) */
    int in64 = t == RLX_DTYPE_F64 || wide ||
               (kind > 0 && (v->op == RLX_OP_REDUCE_MEAN ||
                             v->op == RLX_OP_REDUCE_L2));
    if (in64 && (!pc->ctx->float64 || !pc->ctx->int64))
        return rlxv_unsupported(pc, "this reduction needs shaderFloat64 and "
                                       "shaderInt64, which this device "
                                       "lacks");
    if (in->dtype != v->dtype)
        return rlxv_unsupported(pc, "operands of mixed dtypes");
    uint32_t r = in->rank;
    int red[16] = { 0 };
    uint32_t n_axes = 0;
    uint32_t n = rlx_kit_n_int_attrs(v);
    for (uint32_t k = RLX_ATTR_REDUCE_AXES; k < n; k++) {
        int64_t ax = rlx_kit_norm_axis(v->int_attrs[k], r);
        if (ax < 0)
            return rlxv_unsupported(pc, "reduce axis out of range");
        red[ax] = 1;
        n_axes++;
    }
    if (n_axes == 0)
        for (uint32_t d = 0; d < r; d++)
            red[d] = 1;
    int64_t is[16], kd[16], ks[16], rd[16], rs[16];
    rlx_kit_contiguous_strides(r, in->shape, is);
    uint32_t nk = 0, nr = 0;
    uint64_t out_count = 1, red_count = 1;
    for (uint32_t d = 0; d < r; d++) {
        int64_t dim = in->shape[d];
        if (red[d]) {
            rd[nr] = dim;
            rs[nr++] = is[d];
            red_count *= (uint64_t)dim;
        } else {
            kd[nk] = dim;
            ks[nk++] = is[d];
            out_count *= (uint64_t)dim;
        }
    }
    nk = rlx_kit_collapse(nk, kd, (int64_t *const[]){ ks }, 1);
    nr = rlx_kit_collapse(nr, rd, (int64_t *const[]){ rs }, 1);
    if (nk + nr > RLXV_MAX_RANK)
        return rlxv_unsupported(pc, "more than 8 dims after merging");
    if (out_count == 0)
        return RLX_OK;
    rlxv_dispatch *d = rlxv_dispatch_add(
        pc->host, pc->exe, in64 ? RLXV_PIPE_REDUCE64 : RLXV_PIPE_REDUCE);
    if (!d)
        return RLX_ERR_OUT_OF_MEMORY;
    d->push[0] = (uint32_t)out_count;
    d->push[1] = (uint32_t)red_count;
    d->push[2] = (uint32_t)v->op;
    d->push[3] = pc->round;
    d->push[4] = nk;
    d->push[5] = nr;
    for (uint32_t q = 0; q < nk; q++) {
        d->push[6 + q] = (uint32_t)kd[q];
        d->push[14 + q] = (uint32_t)ks[q];
    }
    for (uint32_t q = 0; q < nr; q++) {
        d->push[6 + nk + q] = (uint32_t)rd[q];
        d->push[14 + nk + q] = (uint32_t)rs[q];
    }
    int32_t lo = t == RLX_DTYPE_I8 ? -128 : t == RLX_DTYPE_I16 ? -32768
               : kind == 2 ? 0 : INT32_MIN;
    int32_t hi = t == RLX_DTYPE_I8 ? 127 : t == RLX_DTYPE_U8 ? 255
               : t == RLX_DTYPE_I16 ? 32767 : t == RLX_DTYPE_U16 ? 65535
               : t == RLX_DTYPE_U32 ? -1 /* UINT32_MAX's bits */
               : INT32_MAX;
    int32_t init = v->op == RLX_OP_REDUCE_MAX ? lo
                 : v->op == RLX_OP_REDUCE_MIN ? hi
                 : v->op == RLX_OP_REDUCE_PROD ? 1 : 0;
    d->push[22] = (uint32_t)(kind > 0 && wide ? kind + 2 : kind);
    d->push[23] = t == RLX_DTYPE_I8 ? 1u : t == RLX_DTYPE_U8 ? 2u
                : t == RLX_DTYPE_I16 ? 3u : t == RLX_DTYPE_U16 ? 4u : 0u;
    d->push[24] = (uint32_t)init;
    d->bind[0] = pc->i;
    d->bind[1] = v->inputs[0];
    /* reduce64.comp: a thread per output; reduce.comp: a workgroup */
    rlxv_grid(d, in64 ? out_count : out_count * 64, 64);
    return RLX_OK;
}
