/*
 * gpu_execute_more.c - enqueueing the steps of the ABI 1.4 elementwise,
 * reduction and indexing ops (gpu_lower_more.c plans them), apart from
 * gpu_execute.c's steps so each file keeps one concern.
 */
#include "gpu_internal.h"

/* A fused quantized conv: the vendor's int8 conv and the epilogue, or
 * conv_integer into the accumulators and the epilogue. */
static gpuError_t qchain(rlx_executable *exe, const rlxg_step *s,
                         void *const *params, gpuStream_t st,
                         const void *x, const void *w, const void *zx,
                         const void *zw, void *y)
{
    if (s->dnn)
        return rlxg_dnn_qconv_enqueue(exe, s, params, st);
    const int *e = s->extra;
    int32_t *acc = rlxg_value_ptr(exe, e[RLXG_QC_ACC], params);
    rlxg_qchain_ptrs c = {
        rlxg_value_ptr(exe, e[RLXG_QC_BIAS], params),
        rlxg_value_ptr(exe, e[RLXG_QC_MULT], params),
        rlxg_value_ptr(exe, e[RLXG_QC_SCALE], params),
        rlxg_value_ptr(exe, e[RLXG_QC_ZP], params),
        rlxg_value_ptr(exe, e[RLXG_QC_LO], params),
        rlxg_value_ptr(exe, e[RLXG_QC_HI], params)
    };
    rlxg_quant_plan p = s->q; /* conv_integer's own: an i32 result */
    p.count = exe->values[e[RLXG_QC_ACC]].count;
    p.y_dtype = RLX_DTYPE_I32;
    gpuError_t err = rlxg_conv_integer(st, x, w, zx, zw, acc, &s->win, &p);
    if (err != gpuSuccess)
        return err;
    return rlxg_qchain_i32(st, acc, &c, y, &s->win, &s->q);
}

gpuError_t rlxg_step_enqueue_more(rlx_executable *exe, const rlxg_step *s,
                                  void *const *params, gpuStream_t st)
{
    const rlxg_value *y = &exe->values[s->out];
    void *out = rlxg_value_ptr(exe, s->out, params);
    const void *in0 = rlxg_value_ptr(exe, s->in[0], params);
    const void *in1 = rlxg_value_ptr(exe, s->in[1], params);
    const void *in2 = rlxg_value_ptr(exe, s->in[2], params);
    int x_dtype = s->in[0] >= 0 ? (int)exe->values[s->in[0]].dtype : 0;
    switch (s->kind) {
    case RLXG_STEP_EW:
        return rlxg_ew(st, in0, in1, in2, out, &s->ew);
    case RLXG_STEP_REDUCE_MORE:
        return rlxg_reduce_more(st, y->dtype, s->op, in0, out, &s->reduce);
    case RLXG_STEP_ARG:
        return rlxg_arg(st, x_dtype, s->op == RLX_OP_ARGMAX, s->approx, in0,
                        (int64_t *)out, s->outer, s->len, s->inner);
    case RLXG_STEP_LAYOUT:
        return rlxg_layout(st, in0, out, &s->ix);
    case RLXG_STEP_GATHER_MORE:
        return rlxg_gather_more(st, in0, in1, s->idx_is_i64, out, &s->ix,
                                exe->dev_flag);
    case RLXG_STEP_SCATTER:
        return rlxg_scatter(st, y->dtype, in0, s->idx_is_i64, in1, out,
                            &s->ix, exe->dev_flag);
    case RLXG_STEP_CUMSUM:
        return rlxg_cumsum(st, y->dtype, in0, out, &s->ix);
    case RLXG_STEP_TOPK:
        return rlxg_topk(st, x_dtype, in0, (int64_t *)out, &s->ix);
    case RLXG_STEP_RANGE:
        return rlxg_range(st, y->dtype, out, y->count, s->ix.f0, s->ix.f1,
                          s->ix.n0, s->ix.n1);
    case RLXG_STEP_DET:
        return rlxg_det(st, y->dtype, in0, out, s->outer, s->len);
    case RLXG_STEP_POOL_INDEX:
        return rlxg_pool_index(st, x_dtype, in0, (int64_t *)out, &s->win);
    case RLXG_STEP_GRID_SAMPLE:
        return rlxg_grid_sample(st, y->dtype, in0, in1, out, &s->ix);
    case RLXG_STEP_ROI_ALIGN:
        return rlxg_roi_align(st, y->dtype, in0, in1, in2, s->idx_is_i64,
                              out, &s->ix, exe->dev_flag);
    case RLXG_STEP_NON_ZERO:
        return rlxg_non_zero(st, x_dtype, in0, (int64_t *)out, &s->ix,
                             exe->dev_flag);
    case RLXG_STEP_QUANT: {
        const void *in3 = rlxg_value_ptr(exe, s->in[3], params);
        if (s->q.chain)
            return qchain(exe, s, params, st, in0, in1, in2, in3, out);
        if (s->q.op == RLX_OP_MATMUL_INTEGER)
            return rlxg_matmul_integer(st, in0, in1, in2, in3,
                                       (int32_t *)out, &s->q);
        if (s->q.op == RLX_OP_CONV_INTEGER)
            return rlxg_conv_integer(st, in0, in1, in2, in3, (int32_t *)out,
                                     &s->win, &s->q);
        return rlxg_quantize(st, in0, in1, in2, out, &s->q);
    }
    default:
        return gpuErrorInvalidValue; /* a step kind no lowering makes */
    }
}
