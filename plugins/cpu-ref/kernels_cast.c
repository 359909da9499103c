/*
 * kernels_cast.c - conversions between dtypes: cast, fill, and the f32
 * copies that float ops on f16/bf16 compute through.
 *
 * Each element is read exactly (floats as double, integers as int64)
 * and written with one rounding. Float to integer truncates toward zero
 * and saturates, NaN becomes 0; integer to a narrower integer saturates
 * too; to bool is x != 0 (so NaN is true, as in NumPy). Range checks
 * come before every float-to-integer conversion, which C leaves
 * undefined out of range.
 */
#include <math.h>
#include <string.h>

#include "cpu_ref_internal.h"

typedef struct value {
    int is_float;
    double f;
    int64_t i;
} value;

static value load(rlx_dtype t, const unsigned char *p)
{
    value v = { 0, 0.0, 0 };
    switch (t) {
    case RLX_DTYPE_F32: {
        float x;
        memcpy(&x, p, 4);
        v.is_float = 1;
        v.f = x;
        break;
    }
    case RLX_DTYPE_F64: memcpy(&v.f, p, 8); v.is_float = 1; break;
    case RLX_DTYPE_F16: case RLX_DTYPE_BF16: {
        uint16_t h;
        memcpy(&h, p, 2);
        v.is_float = 1;
        v.f = t == RLX_DTYPE_F16 ? rlx_kit_f16_to_f32(h)
                                 : rlx_kit_bf16_to_f32(h);
        break;
    }
    case RLX_DTYPE_I32: { int32_t x; memcpy(&x, p, 4); v.i = x; break; }
    case RLX_DTYPE_I64: memcpy(&v.i, p, 8); break;
    case RLX_DTYPE_I8: { int8_t x; memcpy(&x, p, 1); v.i = x; break; }
    case RLX_DTYPE_U8: v.i = p[0]; break;
    case RLX_DTYPE_BOOL: v.i = p[0] != 0; break;
    case RLX_DTYPE_I16: { int16_t x; memcpy(&x, p, 2); v.i = x; break; }
    case RLX_DTYPE_U16: { uint16_t x; memcpy(&x, p, 2); v.i = x; break; }
    case RLX_DTYPE_U32: { uint32_t x; memcpy(&x, p, 4); v.i = x; break; }
    case RLX_DTYPE_U64: {
        uint64_t x;
        memcpy(&x, p, 8);
        if (x <= INT64_MAX) {
            v.i = (int64_t)x;
        } else { /* past int64: as a double, which saturates the same */
            v.is_float = 1;
            v.f = (double)x;
        }
        break;
    }
    default: break; /* compile admits only known dtypes */
    }
    return v;
}

/* V as an integer in [LO, HI]: truncated, saturated, NaN as 0. */
static int64_t to_int(value v, int64_t lo, int64_t hi)
{
    if (!v.is_float)
        return v.i < lo ? lo : v.i > hi ? hi : v.i;
    if (isnan(v.f))
        return 0;
    double t = trunc(v.f);
    /* LO is exact in double; (double)HI may round up to 2^63, and every
     * value below that converts without overflow. */
    if (t <= (double)lo)
        return lo;
    if (t >= (double)hi)
        return hi;
    return (int64_t)t;
}

/* V as a u64: truncated, negative and NaN to 0, saturated at 2^64 - 1. */
static uint64_t to_u64(value v)
{
    if (!v.is_float)
        return v.i < 0 ? 0 : (uint64_t)v.i;
    double t = trunc(v.f);
    if (isnan(t) || t <= 0)
        return 0;
    if (t >= 18446744073709551616.0)
        return UINT64_MAX;
    return (uint64_t)t;
}

static void store(rlx_dtype t, unsigned char *p, value v)
{
    switch (t) {
    case RLX_DTYPE_F32: {
        float x = v.is_float ? rlx_kit_f32_from_double(v.f)
                             : rlx_kit_f32_from_int(v.i);
        memcpy(p, &x, 4);
        break;
    }
    case RLX_DTYPE_F64: {
        double x = v.is_float ? v.f : (double)v.i;
        memcpy(p, &x, 8);
        break;
    }
    case RLX_DTYPE_F16: {
        uint16_t h = v.is_float ? rlx_kit_f16_from_double(v.f)
                                : rlx_kit_f16_from_int(v.i);
        memcpy(p, &h, 2);
        break;
    }
    case RLX_DTYPE_BF16: {
        uint16_t h = v.is_float ? rlx_kit_bf16_from_double(v.f)
                                : rlx_kit_bf16_from_int(v.i);
        memcpy(p, &h, 2);
        break;
    }
    case RLX_DTYPE_I32: {
        int32_t x = (int32_t)to_int(v, INT32_MIN, INT32_MAX);
        memcpy(p, &x, 4);
        break;
    }
    case RLX_DTYPE_I64: {
        int64_t x = to_int(v, INT64_MIN, INT64_MAX);
        memcpy(p, &x, 8);
        break;
    }
    case RLX_DTYPE_I8: {
        int8_t x = (int8_t)to_int(v, INT8_MIN, INT8_MAX);
        memcpy(p, &x, 1);
        break;
    }
    case RLX_DTYPE_U8: p[0] = (unsigned char)to_int(v, 0, UINT8_MAX); break;
    case RLX_DTYPE_I16: {
        int16_t x = (int16_t)to_int(v, INT16_MIN, INT16_MAX);
        memcpy(p, &x, 2);
        break;
    }
    case RLX_DTYPE_U16: {
        uint16_t x = (uint16_t)to_int(v, 0, UINT16_MAX);
        memcpy(p, &x, 2);
        break;
    }
    case RLX_DTYPE_U32: {
        uint32_t x = (uint32_t)to_int(v, 0, UINT32_MAX);
        memcpy(p, &x, 4);
        break;
    }
    case RLX_DTYPE_U64: {
        uint64_t x = to_u64(v);
        memcpy(p, &x, 8);
        break;
    }
    case RLX_DTYPE_BOOL:
        p[0] = v.is_float ? v.f != 0.0 : v.i != 0;
        break;
    default: break;
    }
}

void rlx__cpu_ref_convert(rlx_dtype from, const void *src, rlx_dtype to,
                          void *dst, size_t count)
{
    size_t fs = rlx_dtype_size(from), ts = rlx_dtype_size(to);
    const unsigned char *s = src;
    unsigned char *d = dst;
    if (from == to && from != RLX_DTYPE_BOOL) {
        if (count)
            memcpy(dst, src, count * fs);
        return;
    }
    for (size_t i = 0; i < count; i++)
        store(to, d + i * ts, load(from, s + i * fs));
}

void rlx__cpu_ref_fill(double x, rlx_dtype to, void *dst, size_t count)
{
    size_t ts = rlx_dtype_size(to);
    unsigned char *d = dst;
    value v = { 1, x, 0 };
    if (count == 0)
        return;
    store(to, d, v);
    for (size_t i = 1; i < count; i++)
        memcpy(d + i * ts, d, ts);
}

void rlx__cpu_ref_node_widen(rlx__cpu_ref_node *n)
{
    if (n->dtype != RLX_DTYPE_F16 && n->dtype != RLX_DTYPE_BF16)
        return;
    int f16 = n->dtype == RLX_DTYPE_F16;
    for (size_t i = 0; i < n->count; i++) {
        uint16_t h;
        memcpy(&h, n->data + 2 * i, 2);
        n->f32[i] = f16 ? rlx_kit_f16_to_f32(h)
                        : rlx_kit_bf16_to_f32(h);
    }
}

void rlx__cpu_ref_node_narrow(rlx__cpu_ref_node *n)
{
    if (n->dtype != RLX_DTYPE_F16 && n->dtype != RLX_DTYPE_BF16)
        return;
    int f16 = n->dtype == RLX_DTYPE_F16;
    for (size_t i = 0; i < n->count; i++) {
        double x = n->f32[i];
        uint16_t h = f16 ? rlx_kit_f16_from_double(x)
                         : rlx_kit_bf16_from_double(x);
        memcpy(n->data + 2 * i, &h, 2);
        n->f32[i] = f16 ? rlx_kit_f16_to_f32(h)
                        : rlx_kit_bf16_to_f32(h);
    }
}
