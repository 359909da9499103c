/*
 * onnx_tensor.c - TensorProto -> host data: the dtype map, and the checks
 * that a tensor's dims, type and stored bytes agree (an initializer that
 * lies about its size must never be read past its end).
 */
#include <stdlib.h>
#include <string.h>

#include "onnx.h"

rlx_dtype rlx__onnx_dtype(int32_t t)
{
    switch (t) {
    case ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT: return RLX_DTYPE_F32;
    case ONNX__TENSOR_PROTO__DATA_TYPE__UINT8: return RLX_DTYPE_U8;
    case ONNX__TENSOR_PROTO__DATA_TYPE__INT8: return RLX_DTYPE_I8;
    case ONNX__TENSOR_PROTO__DATA_TYPE__INT32: return RLX_DTYPE_I32;
    case ONNX__TENSOR_PROTO__DATA_TYPE__INT64: return RLX_DTYPE_I64;
    case ONNX__TENSOR_PROTO__DATA_TYPE__BOOL: return RLX_DTYPE_BOOL;
    case ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT16: return RLX_DTYPE_F16;
    case ONNX__TENSOR_PROTO__DATA_TYPE__DOUBLE: return RLX_DTYPE_F64;
    case ONNX__TENSOR_PROTO__DATA_TYPE__BFLOAT16: return RLX_DTYPE_BF16;
    case ONNX__TENSOR_PROTO__DATA_TYPE__INT16: return RLX_DTYPE_I16;
    case ONNX__TENSOR_PROTO__DATA_TYPE__UINT16: return RLX_DTYPE_U16;
    case ONNX__TENSOR_PROTO__DATA_TYPE__UINT32: return RLX_DTYPE_U32;
    case ONNX__TENSOR_PROTO__DATA_TYPE__UINT64: return RLX_DTYPE_U64;
    default: return RLX_DTYPE_INVALID;
    }
}

const char *rlx__onnx_type_name(int32_t t)
{
    static const char *const names[] = {
        "UNDEFINED", "FLOAT", "UINT8", "INT8", "UINT16", "INT16", "INT32",
        "INT64", "STRING", "BOOL", "FLOAT16", "DOUBLE", "UINT32", "UINT64",
        "COMPLEX64", "COMPLEX128", "BFLOAT16", "FLOAT8E4M3FN",
        "FLOAT8E4M3FNUZ", "FLOAT8E5M2", "FLOAT8E5M2FNUZ", "UINT4", "INT4" };
    if (t >= 0 && (size_t)t < sizeof names / sizeof names[0])
        return names[t];
    return "an unknown type";
}

int64_t rlx__onnx_elements(uint32_t rank, const int64_t *dims)
{
    int64_t n = 1;
    for (uint32_t i = 0; i < rank; i++) {
        if (dims[i] < 0)
            return -1;
        if (dims[i] == 0)
            n = 0;
        else if (n > RLX__ONNX_MAX_ELEMENTS / dims[i])
            return -1;
        else
            n *= dims[i];
    }
    return n > RLX__ONNX_MAX_ELEMENTS ? -1 : n;
}

/* Copy N typed-field values into a new buffer of DTYPE. */
static void *from_int32(const int32_t *src, size_t n, rlx_dtype dtype)
{
    size_t es = rlx_dtype_size(dtype);
    unsigned char *dst = malloc(n ? n * es : 1);
    if (!dst)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        int32_t v = src[i];
        switch (es) {
        case 1: dst[i] = (unsigned char)v; break;
        case 2: { uint16_t h = (uint16_t)v; memcpy(dst + 2 * i, &h, 2); }
            break;
        default: memcpy(dst + 4 * i, &v, 4); break;
        }
    }
    return dst;
}

/* uint32 and uint64 values live in uint64_data. */
static void *from_uint64(const uint64_t *src, size_t n, rlx_dtype dtype)
{
    size_t es = rlx_dtype_size(dtype);
    unsigned char *dst = malloc(n ? n * es : 1);
    if (!dst)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        if (es == 4) {
            uint32_t v = (uint32_t)src[i];
            memcpy(dst + 4 * i, &v, 4);
        } else {
            memcpy(dst + 8 * i, &src[i], 8);
        }
    }
    return dst;
}

rlx_status rlx__onnx_tensor_decode(const char *what, rlx__onnx_model *m,
                                   const Onnx__TensorProto *t,
                                   rlx__onnx_tensor *out)
{
    memset(out, 0, sizeof *out);
    const char *name = t->name && *t->name ? t->name : "(unnamed)";
    out->name = name;
    if (t->segment)
        return rlx__error(RLX_ERR_UNSUPPORTED,
                          "%s: tensor '%s' is stored in segments. Fix: save "
                          "the model with whole tensors (onnx.save)",
                          what, name);
    rlx_dtype dt = rlx__onnx_dtype(t->data_type);
    if (dt == RLX_DTYPE_INVALID)
        return rlx__error(RLX_ERR_UNSUPPORTED,
                          "%s: tensor '%s' has data type %s (%d), which rlx "
                          "does not have. Fix: convert it to float, double, "
                          "float16, bfloat16, an integer type of 8 to 64 "
                          "bits or bool", what, name,
                          rlx__onnx_type_name(t->data_type), t->data_type);
    if (t->n_dims > RLX_MAX_RANK)
        return rlx__error(RLX_ERR_UNSUPPORTED,
                          "%s: tensor '%s' has rank %zu; rlx takes at most "
                          "%d. Fix: reshape it to fewer dimensions", what,
                          name, t->n_dims, RLX_MAX_RANK);
    out->dtype = dt;
    out->rank = (uint32_t)t->n_dims;
    for (size_t i = 0; i < t->n_dims; i++) {
        if (t->dims[i] < 0)
            return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                              "%s: tensor '%s' has dimension %zu of %lld. "
                              "Fix: dims of a stored tensor are >= 0", what,
                              name, i, (long long)t->dims[i]);
        out->dims[i] = t->dims[i];
    }
    int64_t n = rlx__onnx_elements(out->rank, out->dims);
    if (n < 0) {
        char sb[160];
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "%s: tensor '%s' has shape %s, more than %lld "
                          "elements. Fix: check the model's initializers",
                          what, name,
                          rlx__shape_str(sb, sizeof sb, out->rank, out->dims),
                          (long long)RLX__ONNX_MAX_ELEMENTS);
    }
    size_t es = rlx_dtype_size(dt);
    size_t nbytes = (size_t)n * es;
    if (t->has_data_location &&
        t->data_location == ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL)
        return rlx__onnx_external(what, m, t, nbytes, &out->data);
    const char *field = NULL;
    size_t have = 0;
    if (t->has_raw_data) {
        if (t->raw_data.len != nbytes)
            return rlx__error(RLX_ERR_SHAPE,
                              "%s: tensor '%s' (%s, %lld elements) should "
                              "hold %zu bytes but its raw_data has %zu. "
                              "Fix: re-export the model; the file is "
                              "damaged or was edited", what, name,
                              rlx_dtype_name(dt), (long long)n, nbytes,
                              t->raw_data.len);
        out->data = t->raw_data.data;
        return RLX_OK;
    }
    switch (dt) {
    case RLX_DTYPE_F32:
        field = "float_data", have = t->n_float_data;
        if (have == (size_t)n)
            out->data = t->float_data;
        break;
    case RLX_DTYPE_I64:
        field = "int64_data", have = t->n_int64_data;
        if (have == (size_t)n)
            out->data = t->int64_data;
        break;
    case RLX_DTYPE_F64:
        field = "double_data", have = t->n_double_data;
        if (have == (size_t)n)
            out->data = t->double_data;
        break;
    case RLX_DTYPE_I32:
        field = "int32_data", have = t->n_int32_data;
        if (have == (size_t)n)
            out->data = t->int32_data;
        break;
    case RLX_DTYPE_U32: case RLX_DTYPE_U64:
        field = "uint64_data", have = t->n_uint64_data;
        if (have == (size_t)n) {
            out->owned = from_uint64(t->uint64_data, have, dt);
            if (!out->owned)
                return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
            out->data = out->owned;
        }
        break;
    default: /* the 8- and 16-bit types and bool: in int32_data */
        field = "int32_data", have = t->n_int32_data;
        if (have == (size_t)n) {
            out->owned = from_int32(t->int32_data, have, dt);
            if (!out->owned)
                return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
            out->data = out->owned;
        }
        break;
    }
    if (have != (size_t)n)
        return rlx__error(RLX_ERR_SHAPE,
                          "%s: tensor '%s' (%s, %lld elements) has %zu "
                          "values in %s. Fix: re-export the model; the "
                          "file is damaged or was edited", what, name,
                          rlx_dtype_name(dt), (long long)n, have, field);
    return RLX_OK;
}
