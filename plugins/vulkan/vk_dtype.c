/*
 * vk_dtype.c - host-side conversion between rlx dtypes and the device's
 * 32-bit word layout (see vk_internal.h); f16/bf16 rounding is the
 * plugin kit's (rlx/kit_half.h).
 */
#include <math.h>
#include <string.h>

#include "vk_internal.h"

uint32_t rlxv_dtype_words(rlx_dtype t)
{
    switch (t) {
    case RLX_DTYPE_F32: case RLX_DTYPE_F16: case RLX_DTYPE_BF16:
    case RLX_DTYPE_I32: case RLX_DTYPE_U8: case RLX_DTYPE_BOOL:
    case RLX_DTYPE_I8: case RLX_DTYPE_I16: case RLX_DTYPE_U16:
    case RLX_DTYPE_U32:
        return 1;
    case RLX_DTYPE_I64: case RLX_DTYPE_F64: case RLX_DTYPE_U64:
        return 2;
    default:
        return 0;
    }
}

void rlxv_widen(rlx_dtype t, const void *src, uint32_t *dst, size_t n)
{
    const unsigned char *s = src;
    for (size_t i = 0; i < n; i++) {
        switch (t) {
        case RLX_DTYPE_F16: {
            uint16_t h;
            memcpy(&h, s + 2 * i, 2);
            dst[i] = rlx_kit_f32_bits(rlx_kit_f16_to_f32(h));
            break;
        }
        case RLX_DTYPE_BF16: {
            uint16_t h;
            memcpy(&h, s + 2 * i, 2);
            dst[i] = (uint32_t)h << 16;
            break;
        }
        case RLX_DTYPE_U8: dst[i] = s[i]; break;
        case RLX_DTYPE_BOOL: dst[i] = s[i] != 0; break;
        case RLX_DTYPE_I8: dst[i] = (uint32_t)(int32_t)(int8_t)s[i]; break;
        case RLX_DTYPE_I16: {
            int16_t h;
            memcpy(&h, s + 2 * i, 2);
            dst[i] = (uint32_t)(int32_t)h;
            break;
        }
        case RLX_DTYPE_U16: {
            uint16_t h;
            memcpy(&h, s + 2 * i, 2);
            dst[i] = h;
            break;
        }
        default: /* 4- and 8-byte types are copied whole */
            memcpy(dst, src, n * 4 * rlxv_dtype_words(t));
            return;
        }
    }
}

void rlxv_narrow(rlx_dtype t, const uint32_t *src, void *dst, size_t n)
{
    unsigned char *d = dst;
    for (size_t i = 0; i < n; i++) {
        switch (t) {
        case RLX_DTYPE_F16: {
            uint16_t h = rlx_kit_f16_from_f32(rlx_kit_f32_from_bits(src[i]));
            memcpy(d + 2 * i, &h, 2);
            break;
        }
        case RLX_DTYPE_BF16: {
            uint16_t h = rlx_kit_bf16_from_f32(rlx_kit_f32_from_bits(src[i]));
            memcpy(d + 2 * i, &h, 2);
            break;
        }
        case RLX_DTYPE_U8: case RLX_DTYPE_BOOL: case RLX_DTYPE_I8:
            d[i] = (unsigned char)(src[i] & 0xffu);
            break;
        case RLX_DTYPE_I16: case RLX_DTYPE_U16: {
            uint16_t h = (uint16_t)(src[i] & 0xffffu);
            memcpy(d + 2 * i, &h, 2);
            break;
        }
        default:
            memcpy(dst, src, n * 4 * rlxv_dtype_words(t));
            return;
        }
    }
}

/* Float to integer: truncate toward zero, saturate, NaN to 0. */
static int64_t to_int(double v, double lo, double hi)
{
    if (isnan(v))
        return 0;
    v = trunc(v);
    if (v <= lo)
        return (int64_t)lo;
    if (v >= hi)
        return (int64_t)hi;
    return (int64_t)v;
}

void rlxv_scalar_words(rlx_dtype t, double v, uint32_t out[2])
{
    out[0] = out[1] = 0;
    switch (t) {
    case RLX_DTYPE_F32:
        out[0] = rlx_kit_f32_bits((float)v);
        break;
    case RLX_DTYPE_F16:
        out[0] = rlx_kit_f32_bits(rlx_kit_f16_to_f32(
            rlx_kit_f16_from_f32((float)v)));
        break;
    case RLX_DTYPE_BF16:
        out[0] = (uint32_t)rlx_kit_bf16_from_f32((float)v) << 16;
        break;
    case RLX_DTYPE_I32:
        out[0] = (uint32_t)(int32_t)to_int(v, -2147483648.0, 2147483647.0);
        break;
    case RLX_DTYPE_U8: out[0] = (uint32_t)to_int(v, 0, 255); break;
    case RLX_DTYPE_I8: out[0] = (uint32_t)(int32_t)to_int(v, -128, 127); break;
    case RLX_DTYPE_BOOL: out[0] = v != 0; break;
    case RLX_DTYPE_I16:
        out[0] = (uint32_t)(int32_t)to_int(v, -32768, 32767);
        break;
    case RLX_DTYPE_U16: out[0] = (uint32_t)to_int(v, 0, 65535); break;
    case RLX_DTYPE_U32: out[0] = (uint32_t)to_int(v, 0, 4294967295.0); break;
    case RLX_DTYPE_U64: {
        double t = trunc(v);
        uint64_t x = isnan(t) || t <= 0 ? 0
                   : t >= 18446744073709551616.0 ? UINT64_MAX : (uint64_t)t;
        memcpy(out, &x, 8);
        break;
    }
    case RLX_DTYPE_I64: {
        int64_t x;
        if (isnan(v))
            x = 0;
        else if (v >= 9223372036854775807.0)
            x = INT64_MAX;
        else if (v <= -9223372036854775808.0)
            x = INT64_MIN;
        else
            x = (int64_t)trunc(v);
        memcpy(out, &x, 8);
        break;
    }
    case RLX_DTYPE_F64:
        memcpy(out, &v, 8);
        break;
    default:
        break;
    }
}
