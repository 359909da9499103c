/*
 * names.c - names of dtypes, device kinds and ops, both ways, generated
 * from the tables in the ABI headers so they cannot drift.
 */
#include <stdio.h>
#include <string.h>

#include "base.h"

static const struct {
    rlx_op op;
    const char *name;
    int arity;
} op_table[] = {
#define RLX__OP_ROW(name, value, text, arity) { RLX_OP_##name, text, arity },
    RLX_OP_MAP(RLX__OP_ROW)
#undef RLX__OP_ROW
};

#define N_OPS (sizeof op_table / sizeof *op_table)

static const char *const dtype_names[] = {
    [RLX_DTYPE_F32] = "f32", [RLX_DTYPE_F16] = "f16",
    [RLX_DTYPE_BF16] = "bf16", [RLX_DTYPE_I32] = "i32",
    [RLX_DTYPE_I64] = "i64", [RLX_DTYPE_U8] = "u8",
    [RLX_DTYPE_BOOL] = "bool", [RLX_DTYPE_F64] = "f64",
    [RLX_DTYPE_I8] = "i8", [RLX_DTYPE_I16] = "i16",
    [RLX_DTYPE_U16] = "u16", [RLX_DTYPE_U32] = "u32",
    [RLX_DTYPE_U64] = "u64",
};

const char *rlx_version(void)
{
    return RLX_VERSION_STRING;
}

uint32_t rlx_abi_version(void)
{
    return RLX_ABI_VERSION;
}

int rlx__dtype_is_known(rlx_dtype t)
{
    return t > RLX_DTYPE_INVALID && t <= RLX_DTYPE_LAST;
}

const char *rlx_dtype_name(rlx_dtype t)
{
    return rlx__dtype_is_known(t) ? dtype_names[t] : "unknown";
}

rlx_status rlx_dtype_from_name(const char *name, rlx_dtype *out)
{
    if (out)
        *out = RLX_DTYPE_INVALID;
    if (!name || !out)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "rlx_dtype_from_name: NULL argument");
    for (int t = 1; t <= RLX_DTYPE_LAST; t++)
        if (strcmp(dtype_names[t], name) == 0) {
            *out = (rlx_dtype)t;
            return RLX_OK;
        }
    return rlx__error(RLX_ERR_NOT_FOUND,
                      "unknown dtype '%s'. Fix: use one of f32, f16, bf16, "
                      "f64, i32, i64, i8, u8, bool", name);
}

int rlx__device_kind_is_known(rlx_device_kind k)
{
    return (k >= RLX_DEVICE_CPU && k <= RLX_DEVICE_METAL) ||
           k == RLX_DEVICE_CUSTOM;
}

const char *rlx_device_kind_name(rlx_device_kind k)
{
    switch (k) {
    case RLX_DEVICE_CPU: return "cpu";
    case RLX_DEVICE_CUDA: return "cuda";
    case RLX_DEVICE_ROCM: return "rocm";
    case RLX_DEVICE_VULKAN: return "vulkan";
    case RLX_DEVICE_TPU: return "tpu";
    case RLX_DEVICE_METAL: return "metal";
    case RLX_DEVICE_CUSTOM: return "custom";
    default: return "unknown";
    }
}

int rlx__op_is_known(rlx_op op)
{
    return rlx__op_arity(op) != RLX__OP_UNKNOWN;
}

int rlx__op_arity(rlx_op op)
{
    for (size_t i = 0; i < N_OPS; i++)
        if (op_table[i].op == op)
            return op_table[i].arity;
    return RLX__OP_UNKNOWN;
}

const char *rlx_op_name(rlx_op op)
{
    for (size_t i = 0; i < N_OPS; i++)
        if (op_table[i].op == op)
            return op_table[i].name;
    return op == RLX__OP_CUSTOM ? "custom" : "unknown";
}

rlx_status rlx_op_from_name(const char *name, rlx_op *out)
{
    if (out)
        *out = RLX_OP_INVALID;
    if (!name || !out)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "rlx_op_from_name: NULL argument");
    for (size_t i = 0; i < N_OPS; i++)
        if (strcmp(op_table[i].name, name) == 0) {
            *out = op_table[i].op;
            return RLX_OK;
        }
    return rlx__error(RLX_ERR_NOT_FOUND,
                      "unknown op '%s'. Fix: see rlx/ops.h for the op names",
                      name);
}

const char *rlx__shape_str(char *buf, size_t size, uint32_t rank,
                           const int64_t *dims)
{
    size_t used = 0;
    int n = snprintf(buf, size, "[");
    used = n > 0 ? (size_t)n : 0;
    for (uint32_t i = 0; i < rank && used < size; i++) {
        n = snprintf(buf + used, size - used, i ? ",%lld" : "%lld",
                     (long long)dims[i]);
        used += n > 0 ? (size_t)n : 0;
    }
    if (used < size)
        snprintf(buf + used, size - used, "]");
    return buf;
}
