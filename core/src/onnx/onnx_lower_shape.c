/*
 * onnx_lower_shape.c - operators whose results are known when lowering:
 * Shape and Size (from the concrete input shapes), Constant,
 * ConstantOfShape, and the ops rlx has no runtime kernel for yet but that
 * shape subgraphs use (comparisons, Where, logic): those fold
 * through onnx_eval.c when their inputs are known and otherwise fail
 * naming the op.
 */
#include <stdlib.h>
#include <string.h>

#include "onnx.h"

static rlx_status known_copy(rlx__onnx_val *out, rlx_dtype dt, uint32_t rank,
                             const int64_t *dims, const void *data)
{
    int64_t n = rlx__onnx_elements(rank, dims);
    size_t nb = (size_t)n * rlx_dtype_size(dt);
    void *copy = malloc(nb ? nb : 1);
    if (!copy)
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    if (nb)
        memcpy(copy, data, nb);
    rlx__onnx_set_known(out, dt, rank, dims, copy);
    return RLX_OK;
}

static rlx_status lower_shape(rlx__onnx_ctx *c, rlx__onnx_val **in,
                              uint32_t n_in, rlx__onnx_val *out,
                              uint32_t n_out)
{
    (void)n_out;
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, 1);
    if (st != RLX_OK)
        return st;
    int64_t r = in[0]->rank;
    int64_t s = rlx__onnx_attr_int(c, "start", 0);
    int64_t e = rlx__onnx_attr_int(c, "end", r);
    if (c->row->since < 15)
        s = 0, e = r;
    s = s < 0 ? (s + r < 0 ? 0 : s + r) : s > r ? r : s;
    e = e < 0 ? (e + r < 0 ? 0 : e + r) : e > r ? r : e;
    int64_t n = e > s ? e - s : 0;
    return known_copy(&out[0], RLX_DTYPE_I64, 1, &n, in[0]->dims + s);
}

static rlx_status lower_size(rlx__onnx_ctx *c, rlx__onnx_val **in,
                             uint32_t n_in, rlx__onnx_val *out,
                             uint32_t n_out)
{
    (void)n_out;
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, 1);
    if (st != RLX_OK)
        return st;
    int64_t n = rlx__onnx_elements(in[0]->rank, in[0]->dims);
    return known_copy(&out[0], RLX_DTYPE_I64, 0, NULL, &n);
}

static rlx_status lower_constant(rlx__onnx_ctx *c, rlx__onnx_val **in,
                                 uint32_t n_in, rlx__onnx_val *out,
                                 uint32_t n_out)
{
    (void)in, (void)n_in, (void)n_out;
    const Onnx__AttributeProto *a;
    if ((a = rlx__onnx_attr(c, "value")) && a->t) {
        rlx__onnx_tensor t;
        rlx_status st = rlx__onnx_tensor_decode(
            "Constant", (rlx__onnx_model *)c->m, a->t, &t);
        if (st != RLX_OK)
            return rlx__onnx_fail(c, st, "its value: %s", rlx_last_error());
        st = known_copy(&out[0], t.dtype, t.rank, t.dims, t.data);
        free(t.owned);
        return st;
    }
    if ((a = rlx__onnx_attr(c, "value_float")) && a->has_f)
        return known_copy(&out[0], RLX_DTYPE_F32, 0, NULL, &a->f);
    if ((a = rlx__onnx_attr(c, "value_int")) && a->has_i)
        return known_copy(&out[0], RLX_DTYPE_I64, 0, NULL, &a->i);
    if ((a = rlx__onnx_attr(c, "value_floats"))) {
        int64_t n = (int64_t)a->n_floats;
        return known_copy(&out[0], RLX_DTYPE_F32, 1, &n, a->floats);
    }
    if ((a = rlx__onnx_attr(c, "value_ints"))) {
        int64_t n = (int64_t)a->n_ints;
        return known_copy(&out[0], RLX_DTYPE_I64, 1, &n, a->ints);
    }
    return rlx__onnx_fail(c, RLX_ERR_UNSUPPORTED,
                          "it has no value rlx can hold (string and sparse "
                          "constants are not supported). Fix: use a dense "
                          "numeric constant");
}

static rlx_status lower_constant_of_shape(rlx__onnx_ctx *c,
                                          rlx__onnx_val **in, uint32_t n_in,
                                          rlx__onnx_val *out, uint32_t n_out)
{
    (void)n_out;
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, 1);
    if (st != RLX_OK)
        return st;
    int64_t d[RLX_MAX_RANK];
    int n = rlx__onnx_known_ints(in[0], d, RLX_MAX_RANK);
    if (n < 0) {
        c->needs_value = 1;
        return rlx__onnx_fail(c, RLX_ERR_UNSUPPORTED,
                              "its shape input '%s' is not known when "
                              "lowering. Fix: compute it from input shapes "
                              "only", in[0]->name);
    }
    int64_t total = rlx__onnx_elements((uint32_t)n, d);
    if (total < 0)
        return rlx__onnx_fail(c, RLX_ERR_SHAPE,
                              "the shape has a negative or huge dimension. "
                              "Fix: check the shape input");
    rlx_dtype dt = RLX_DTYPE_F32;
    unsigned char val[8] = { 0 };
    const Onnx__AttributeProto *a = rlx__onnx_attr(c, "value");
    if (a && a->t) {
        rlx__onnx_tensor t;
        if ((st = rlx__onnx_tensor_decode("ConstantOfShape",
                                          (rlx__onnx_model *)c->m, a->t,
                                          &t)) != RLX_OK)
            return st;
        if (rlx__onnx_elements(t.rank, t.dims) != 1) {
            free(t.owned);
            return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                                  "value must hold one element. Fix: give "
                                  "a one-element tensor");
        }
        dt = t.dtype;
        memcpy(val, t.data, rlx_dtype_size(dt));
        free(t.owned);
    }
    size_t es = rlx_dtype_size(dt);
    if (total <= RLX__ONNX_FOLD_MAX) {
        unsigned char *buf = malloc(total ? (size_t)total * es : 1);
        if (!buf)
            return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
        for (int64_t i = 0; i < total; i++)
            memcpy(buf + i * es, val, es);
        rlx__onnx_set_known(&out[0], dt, (uint32_t)n, d, buf);
        return RLX_OK;
    }
    /* large: a fill node (its value through f64) */
    double x = 0;
    switch (dt) {
    case RLX_DTYPE_F32: { float f; memcpy(&f, val, 4); x = f; } break;
    case RLX_DTYPE_F64: memcpy(&x, val, 8); break;
    case RLX_DTYPE_I64: { int64_t i; memcpy(&i, val, 8); x = (double)i; }
        break;
    case RLX_DTYPE_I32: { int32_t i; memcpy(&i, val, 4); x = i; } break;
    case RLX_DTYPE_U8: case RLX_DTYPE_BOOL: x = val[0]; break;
    case RLX_DTYPE_I8: x = (int8_t)val[0]; break;
    default:
        return rlx__onnx_fail(c, RLX_ERR_UNSUPPORTED,
                              "a large %s fill is not lowered yet. Fix: "
                              "use a float32 value", rlx_dtype_name(dt));
    }
    int64_t ints[1 + RLX_MAX_RANK] = { dt };
    memcpy(ints + 1, d, (size_t)n * sizeof *d);
    rlx_value r;
    if ((st = rlx__onnx_add(c, RLX_OP_FILL, 0, NULL, ints, 1 + (uint32_t)n,
                            &x, 1, &r)) != RLX_OK)
        return st;
    return rlx__onnx_set_out(c, r, &out[0]);
}

const rlx__onnx_op rlx__onnx_ops_shape[] = {
    { "Shape", 1, lower_shape, 0 },
    { "Shape", 13, lower_shape, 0 },
    { "Shape", 15, lower_shape, 0 },
    { "Shape", 19, lower_shape, 0 },
    { "Shape", 21, lower_shape, 0 },
    { "Size", 1, lower_size, 0 },
    { "Size", 13, lower_size, 0 },
    { "Size", 19, lower_size, 0 },
    { "Size", 21, lower_size, 0 },
    { "Constant", 1, lower_constant, 0 },
    { "Constant", 9, lower_constant, 0 },
    { "Constant", 11, lower_constant, 0 },
    { "Constant", 12, lower_constant, 0 },
    { "Constant", 13, lower_constant, 0 },
    { "Constant", 19, lower_constant, 0 },
    { "Constant", 21, lower_constant, 0 },
    { "ConstantOfShape", 9, lower_constant_of_shape, 0 },
    { "ConstantOfShape", 20, lower_constant_of_shape, 0 },
    { "ConstantOfShape", 21, lower_constant_of_shape, 0 },
    { NULL, 0, NULL, 0 }
};
