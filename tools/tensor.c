/* tensor.c - see tensor.h. */
#include "tensor.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "half.h"

int64_t cli_shape_count(uint32_t rank, const int64_t *dims)
{
    /* The product of the non-zero dims must fit too: a zero dim must not
     * let [0, 9223372036854775807, 4] through as "no elements". */
    int64_t nonzero = 1;
    int empty = 0;
    for (uint32_t i = 0; i < rank; i++) {
        if (dims[i] < 0)
            return -1;
        if (dims[i] == 0) {
            empty = 1;
            continue;
        }
        if (nonzero > INT64_MAX / dims[i])
            return -1;
        nonzero *= dims[i];
    }
    return empty ? 0 : nonzero;
}

int cli_tensor_alloc(cli_tensor *t, rlx_dtype dtype, uint32_t rank,
                     const int64_t *dims)
{
    size_t size = rlx_dtype_size(dtype);
    int64_t n = rank <= CLI_TENSOR_MAX_RANK ? cli_shape_count(rank, dims)
                                            : -1;
    memset(t, 0, sizeof *t);
    if (size == 0 || n < 0 || (uint64_t)n > SIZE_MAX / size)
        return -1;
    t->dtype = dtype;
    t->rank = rank;
    if (rank)
        memcpy(t->dims, dims, rank * sizeof *dims);
    t->count = (size_t)n;
    t->nbytes = (size_t)n * size;
    t->data = calloc(t->nbytes ? t->nbytes : 1, 1);
    return t->data ? 0 : -1;
}

void cli_tensor_free(cli_tensor *t)
{
    free(t->data);
    memset(t, 0, sizeof *t);
}

double cli_element_get(rlx_dtype dtype, const void *data, size_t i)
{
    const unsigned char *p = (const unsigned char *)data +
                             i * rlx_dtype_size(dtype);
    union { float f; double d; int32_t i32; int64_t i64; uint16_t u16;
            int8_t i8; uint8_t u8; int16_t i16; uint32_t u32;
            uint64_t u64; } v;
    memcpy(&v, p, rlx_dtype_size(dtype));
    switch (dtype) {
    case RLX_DTYPE_F32: return v.f;
    case RLX_DTYPE_F64: return v.d;
    case RLX_DTYPE_F16: return cli_float_from_f16(v.u16);
    case RLX_DTYPE_BF16: return cli_float_from_bf16(v.u16);
    case RLX_DTYPE_I32: return v.i32;
    case RLX_DTYPE_I64: return (double)v.i64;
    case RLX_DTYPE_I8: return v.i8;
    case RLX_DTYPE_U8: case RLX_DTYPE_BOOL: return v.u8;
    case RLX_DTYPE_I16: return v.i16;
    case RLX_DTYPE_U16: return v.u16;
    case RLX_DTYPE_U32: return v.u32;
    case RLX_DTYPE_U64: return (double)v.u64;
    default: return NAN;
    }
}

double cli_tensor_get(const cli_tensor *t, size_t i)
{
    return cli_element_get(t->dtype, t->data, i);
}

static double saturate(double v, double lo, double hi)
{
    if (v != v)
        return 0;
    v = trunc(v);
    return v < lo ? lo : v > hi ? hi : v;
}

void cli_tensor_set(cli_tensor *t, size_t i, double v)
{
    unsigned char *p = (unsigned char *)t->data + i * rlx_dtype_size(t->dtype);
    union { float f; double d; int32_t i32; int64_t i64; uint16_t u16;
            int8_t i8; uint8_t u8; int16_t i16; uint32_t u32;
            uint64_t u64; } u;
    switch (t->dtype) {
    case RLX_DTYPE_F32: u.f = (float)v; break;
    case RLX_DTYPE_F64: u.d = v; break;
    case RLX_DTYPE_F16: u.u16 = cli_f16_from_float((float)v); break;
    case RLX_DTYPE_BF16: u.u16 = cli_bf16_from_float((float)v); break;
    case RLX_DTYPE_I32: u.i32 = (int32_t)saturate(v, INT32_MIN, INT32_MAX); break;
    case RLX_DTYPE_I64:
        u.i64 = v >= 9223372036854775807.0 ? INT64_MAX
                : (int64_t)saturate(v, -9223372036854775808.0, 0x1p63);
        break;
    case RLX_DTYPE_I8: u.i8 = (int8_t)saturate(v, -128, 127); break;
    case RLX_DTYPE_U8: u.u8 = (uint8_t)saturate(v, 0, 255); break;
    case RLX_DTYPE_BOOL: u.u8 = v != 0; break;
    case RLX_DTYPE_I16: u.i16 = (int16_t)saturate(v, -32768, 32767); break;
    case RLX_DTYPE_U16: u.u16 = (uint16_t)saturate(v, 0, 65535); break;
    case RLX_DTYPE_U32: u.u32 = (uint32_t)saturate(v, 0, 4294967295.0); break;
    case RLX_DTYPE_U64:
        u.u64 = v >= 18446744073709551615.0
                    ? UINT64_MAX
                    : (uint64_t)saturate(v, 0, 0x1p64);
        break;
    default: return;
    }
    memcpy(p, &u, rlx_dtype_size(t->dtype));
}

uint64_t cli_rng_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

uint64_t cli_rng_seed(uint64_t seed, const char *name)
{
    uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a of the name */
    for (const unsigned char *p = (const unsigned char *)name; p && *p; p++)
        h = (h ^ *p) * 0x100000001b3ull;
    uint64_t state = seed ^ h;
    cli_rng_next(&state);
    return state;
}

double cli_rng_uniform(uint64_t *state)
{
    return (double)(cli_rng_next(state) >> 11) * 0x1p-53;
}

static int dtype_is_float(rlx_dtype d)
{
    return d == RLX_DTYPE_F32 || d == RLX_DTYPE_F16 ||
           d == RLX_DTYPE_BF16 || d == RLX_DTYPE_F64;
}

void cli_tensor_fill_uniform(cli_tensor *t, uint64_t *state, double lo,
                             double hi)
{
    for (size_t i = 0; i < t->count; i++) {
        double u = cli_rng_uniform(state);
        if (dtype_is_float(t->dtype)) {
            cli_tensor_set(t, i, lo + (hi - lo) * u);
        } else {
            double first = ceil(lo), span = ceil(hi) - first;
            cli_tensor_set(t, i, span > 0 ? first + floor(u * span) : first);
        }
    }
}

static void list_format(char *buf, size_t n, uint32_t rank,
                        const int64_t *v)
{
    size_t k = 0;
    if (n == 0)
        return;
    buf[0] = '\0';
    k += (size_t)snprintf(buf, n, "[");
    for (uint32_t i = 0; i < rank && k < n; i++)
        k += (size_t)snprintf(buf + k, n - k, "%s%lld", i ? ", " : "",
                              (long long)v[i]);
    if (k < n)
        snprintf(buf + k, n - k, "]");
}

void cli_shape_format(char *buf, size_t n, uint32_t rank,
                      const int64_t *dims)
{
    list_format(buf, n, rank, dims);
}

void cli_index_format(char *buf, size_t n, uint32_t rank,
                      const int64_t *dims, size_t i)
{
    int64_t idx[CLI_TENSOR_MAX_RANK] = { 0 };
    if (rank > CLI_TENSOR_MAX_RANK)
        rank = CLI_TENSOR_MAX_RANK;
    for (uint32_t d = rank; d-- > 0;) {
        if (dims[d] > 0) {
            idx[d] = (int64_t)(i % (size_t)dims[d]);
            i /= (size_t)dims[d];
        }
    }
    list_format(buf, n, rank, idx);
}
