/*
 * kernels_value.h - one element of any dtype read or written as a
 * number, for the 1.4 kernels that look at values (cumsum, topk,
 * scatter reductions, non_zero, range): floats as double, integers as
 * int64. Readable rather than fast, as the reference should be.
 */
#ifndef RLX_CPU_REF_KERNELS_VALUE_H
#define RLX_CPU_REF_KERNELS_VALUE_H

#include <stdint.h>
#include <string.h>

#include <rlx/kit_half.h>
#include <rlx/types.h>

static inline int rlx__cpu_ref_is_float(rlx_dtype t)
{
    return t == RLX_DTYPE_F32 || t == RLX_DTYPE_F16 ||
           t == RLX_DTYPE_BF16 || t == RLX_DTYPE_F64;
}

/* Element I of a float tensor of dtype T at BASE. */
static inline double rlx__cpu_ref_load_f(rlx_dtype t, const void *base,
                                         size_t i)
{
    const unsigned char *p = base;
    switch (t) {
    case RLX_DTYPE_F32: { float x; memcpy(&x, p + 4 * i, 4); return x; }
    case RLX_DTYPE_F64: { double x; memcpy(&x, p + 8 * i, 8); return x; }
    case RLX_DTYPE_F16: case RLX_DTYPE_BF16: {
        uint16_t h;
        memcpy(&h, p + 2 * i, 2);
        return t == RLX_DTYPE_F16 ? rlx_kit_f16_to_f32(h)
                                  : rlx_kit_bf16_to_f32(h);
    }
    default: return 0;
    }
}

/* Store X into element I, rounded to nearest even. */
static inline void rlx__cpu_ref_store_f(rlx_dtype t, void *base, size_t i,
                                        double x)
{
    unsigned char *p = base;
    switch (t) {
    case RLX_DTYPE_F32: {
        float f = rlx_kit_f32_from_double(x);
        memcpy(p + 4 * i, &f, 4);
        break;
    }
    case RLX_DTYPE_F64: memcpy(p + 8 * i, &x, 8); break;
    case RLX_DTYPE_F16: case RLX_DTYPE_BF16: {
        uint16_t h = t == RLX_DTYPE_F16 ? rlx_kit_f16_from_double(x)
                                        : rlx_kit_bf16_from_double(x);
        memcpy(p + 2 * i, &h, 2);
        break;
    }
    default: break;
    }
}

/* Element I of an integer (or bool) tensor. */
static inline int64_t rlx__cpu_ref_load_i(rlx_dtype t, const void *base,
                                          size_t i)
{
    const unsigned char *p = base;
    switch (t) {
    case RLX_DTYPE_I32: { int32_t x; memcpy(&x, p + 4 * i, 4); return x; }
    case RLX_DTYPE_I64: { int64_t x; memcpy(&x, p + 8 * i, 8); return x; }
    case RLX_DTYPE_I8: { int8_t x; memcpy(&x, p + i, 1); return x; }
    case RLX_DTYPE_U8: return p[i];
    case RLX_DTYPE_I16: { int16_t x; memcpy(&x, p + 2 * i, 2); return x; }
    case RLX_DTYPE_U16: { uint16_t x; memcpy(&x, p + 2 * i, 2); return x; }
    case RLX_DTYPE_U32: { uint32_t x; memcpy(&x, p + 4 * i, 4); return x; }
    case RLX_DTYPE_U64: { int64_t x; memcpy(&x, p + 8 * i, 8); return x; }
    case RLX_DTYPE_BOOL: return p[i] != 0;
    default: return 0;
    }
}

/* Store V into element I, wrapping as two's complement does. */
static inline void rlx__cpu_ref_store_i(rlx_dtype t, void *base, size_t i,
                                        int64_t v)
{
    unsigned char *p = base;
    uint64_t u = (uint64_t)v;
    switch (t) {
    case RLX_DTYPE_I32: {
        uint32_t x = (uint32_t)u;
        memcpy(p + 4 * i, &x, 4);
        break;
    }
    case RLX_DTYPE_I64: case RLX_DTYPE_U64: memcpy(p + 8 * i, &u, 8); break;
    case RLX_DTYPE_I8: case RLX_DTYPE_U8: p[i] = (unsigned char)u; break;
    case RLX_DTYPE_I16: case RLX_DTYPE_U16: {
        uint16_t x = (uint16_t)u;
        memcpy(p + 2 * i, &x, 2);
        break;
    }
    case RLX_DTYPE_U32: {
        uint32_t x = (uint32_t)u;
        memcpy(p + 4 * i, &x, 4);
        break;
    }
    case RLX_DTYPE_BOOL: p[i] = v != 0; break;
    default: break;
    }
}

/* Wrapping integer arithmetic (no signed overflow). */
static inline int64_t rlx__cpu_ref_wrap_add(int64_t a, int64_t b)
{
    return (int64_t)((uint64_t)a + (uint64_t)b);
}

static inline int64_t rlx__cpu_ref_wrap_mul(int64_t a, int64_t b)
{
    return (int64_t)((uint64_t)a * (uint64_t)b);
}

#endif /* RLX_CPU_REF_KERNELS_VALUE_H */
