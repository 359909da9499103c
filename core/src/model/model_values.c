/*
 * model_values.c - scalars in model files: integers, floats and bools
 * read strictly (a quoted "3" is a string, not a number), located error
 * messages, and the inline values of constants converted to each dtype.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

rlx_status rlx__model_error(rlx_status st, const char *path,
                            const rlx__ynode *at, const char *fmt, ...)
{
    char msg[RLX_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (!at)
        return rlx__error(st, "%s: %s", path, msg);
    return rlx__error(st, "%s:%u:%u: %s", path, at->line, at->col, msg);
}

static const char *shown(const rlx__ynode *n)
{
    return n->kind == RLX__Y_SCALAR ? n->text : rlx__ykind_name(n->kind);
}

rlx_status rlx__yaml_int(const char *path, const rlx__ynode *n,
                         const char *what, int64_t *out)
{
    *out = 0;
    const char *s = n->kind == RLX__Y_SCALAR ? n->text : "";
    const char *d = s + (*s == '-' || *s == '+');
    int digits = *d != '\0';
    for (const char *c = d; *c; c++)
        digits &= *c >= '0' && *c <= '9';
    if (n->kind != RLX__Y_SCALAR || n->quoted || !digits)
        return rlx__model_error(RLX_ERR_INVALID_ARGUMENT, path, n,
                                "%s must be an integer, got %s'%.40s'. "
                                "Fix: write a whole number without quotes",
                                what, n->quoted ? "the string " : "",
                                shown(n));
    errno = 0;
    long long v = strtoll(s, NULL, 10);
    if (errno == ERANGE)
        return rlx__model_error(RLX_ERR_INVALID_ARGUMENT, path, n,
                                "%s: %.40s overflows a 64-bit integer. Fix: "
                                "use a value between -2^63 and 2^63-1",
                                what, s);
    *out = (int64_t)v;
    return RLX_OK;
}

rlx_status rlx__yaml_float(const char *path, const rlx__ynode *n,
                           const char *what, double *out)
{
    static const struct {
        const char *text;
        double value;
    } special[] = {
        { ".inf", INFINITY }, { "+.inf", INFINITY }, { "-.inf", -INFINITY },
        { ".Inf", INFINITY }, { "-.Inf", -INFINITY }, { ".nan", NAN },
        { ".NaN", NAN },
    };
    *out = 0;
    if (n->kind == RLX__Y_SCALAR && !n->quoted) {
        for (size_t i = 0; i < sizeof special / sizeof *special; i++)
            if (strcmp(n->text, special[i].text) == 0) {
                *out = special[i].value;
                return RLX_OK;
            }
        char *end;
        errno = 0;
        double v = strtod(n->text, &end);
        if (n->text[0] && *end == '\0' && n->text[0] != ' ') {
            if (errno == ERANGE && isinf(v))
                return rlx__model_error(
                    RLX_ERR_INVALID_ARGUMENT, path, n,
                    "%s: %.40s is too large for a 64-bit float. Fix: use "
                    "a smaller value, or .inf", what, n->text);
            *out = v;
            return RLX_OK;
        }
    }
    return rlx__model_error(RLX_ERR_INVALID_ARGUMENT, path, n,
                            "%s must be a number, got %s'%.40s'. Fix: write "
                            "a number without quotes (.inf, -.inf and .nan "
                            "are allowed)", what,
                            n->quoted ? "the string " : "", shown(n));
}

rlx_status rlx__yaml_bool(const char *path, const rlx__ynode *n,
                          const char *what, int *out)
{
    *out = 0;
    if (n->kind == RLX__Y_SCALAR && !n->quoted) {
        if (!strcmp(n->text, "true") || !strcmp(n->text, "True") ||
            !strcmp(n->text, "TRUE")) {
            *out = 1;
            return RLX_OK;
        }
        if (!strcmp(n->text, "false") || !strcmp(n->text, "False") ||
            !strcmp(n->text, "FALSE"))
            return RLX_OK;
    }
    return rlx__model_error(RLX_ERR_INVALID_ARGUMENT, path, n,
                            "%s must be true or false, got %s'%.40s'. Fix: "
                            "write true or false without quotes", what,
                            n->quoted ? "the string " : "", shown(n));
}

/* ---- constants' inline values ----------------------------------------- */

static uint16_t f16_from_float(float f)
{
    uint32_t x;
    memcpy(&x, &f, sizeof x);
    uint32_t sign = (x >> 16) & 0x8000u;
    uint32_t exp = (x >> 23) & 0xffu, mant = x & 0x7fffffu;
    if (exp == 0xff)
        return (uint16_t)(sign | 0x7c00u | (mant ? 0x200u : 0));
    int e = (int)exp - 127 + 15;
    if (e >= 31)
        return (uint16_t)(sign | 0x7c00u);
    if (e <= 0) { /* subnormal or zero, round to nearest even */
        if (e < -10)
            return (uint16_t)sign;
        mant |= 0x800000u;
        int shift = 14 - e;
        uint32_t h = mant >> shift, rem = mant & ((1u << shift) - 1);
        uint32_t mid = 1u << (shift - 1);
        if (rem > mid || (rem == mid && (h & 1)))
            h++;
        return (uint16_t)(sign | h);
    }
    uint32_t h = ((uint32_t)e << 10) | (mant >> 13), rem = mant & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1)))
        h++; /* may carry into the exponent, up to infinity: correct */
    return (uint16_t)(sign | h);
}

static uint16_t bf16_from_float(float f)
{
    uint32_t x;
    memcpy(&x, &f, sizeof x);
    if ((x & 0x7fffffffu) > 0x7f800000u)
        return (uint16_t)((x >> 16) | 0x40u); /* quiet NaN */
    x += 0x7fffu + ((x >> 16) & 1);
    return (uint16_t)(x >> 16);
}

typedef struct vctx {
    const char *path, *name;
    rlx_dtype dtype;
    unsigned char *data;
    size_t next;
} vctx;

static rlx_status store(vctx *c, const rlx__ynode *n)
{
    char what[160];
    snprintf(what, sizeof what, "constant '%s': element %zu", c->name,
             c->next);
    size_t esize = rlx_dtype_size(c->dtype);
    unsigned char *dst = c->data + c->next * esize;
    rlx_status st = RLX_OK;
    double d;
    int64_t i;
    int b;
    switch (c->dtype) {
    case RLX_DTYPE_F32: case RLX_DTYPE_F16: case RLX_DTYPE_BF16:
    case RLX_DTYPE_F64:
        st = rlx__yaml_float(c->path, n, what, &d);
        if (st != RLX_OK)
            return st;
        if (c->dtype == RLX_DTYPE_F64) {
            memcpy(dst, &d, 8);
        } else {
            float f = (float)d;
            uint16_t h = c->dtype == RLX_DTYPE_F16 ? f16_from_float(f)
                                                   : bf16_from_float(f);
            if (c->dtype == RLX_DTYPE_F32)
                memcpy(dst, &f, 4);
            else
                memcpy(dst, &h, 2);
        }
        break;
    case RLX_DTYPE_BOOL:
        if (n->kind == RLX__Y_SCALAR && !n->quoted &&
            (!strcmp(n->text, "0") || !strcmp(n->text, "1"))) {
            *dst = n->text[0] == '1';
            break;
        }
        st = rlx__yaml_bool(c->path, n, what, &b);
        *dst = (unsigned char)b;
        break;
    default: { /* integers */
        st = rlx__yaml_int(c->path, n, what, &i);
        if (st != RLX_OK)
            return st;
        /* u64 takes what an int64 holds: [0, 2^63) */
        int64_t lo, hi;
        switch (c->dtype) {
        case RLX_DTYPE_I8: lo = INT8_MIN; hi = INT8_MAX; break;
        case RLX_DTYPE_U8: lo = 0; hi = UINT8_MAX; break;
        case RLX_DTYPE_I16: lo = INT16_MIN; hi = INT16_MAX; break;
        case RLX_DTYPE_U16: lo = 0; hi = UINT16_MAX; break;
        case RLX_DTYPE_I32: lo = INT32_MIN; hi = INT32_MAX; break;
        case RLX_DTYPE_U32: lo = 0; hi = UINT32_MAX; break;
        case RLX_DTYPE_U64: lo = 0; hi = INT64_MAX; break;
        default: lo = INT64_MIN; hi = INT64_MAX; break;
        }
        if (i < lo || i > hi)
            return rlx__model_error(RLX_ERR_INVALID_ARGUMENT, c->path, n,
                                    "%s: %lld does not fit in %s. Fix: use "
                                    "a value in [%lld, %lld] or a wider "
                                    "dtype", what, (long long)i,
                                    rlx_dtype_name(c->dtype), (long long)lo,
                                    (long long)hi);
        switch (rlx_dtype_size(c->dtype)) { /* in range: exact */
        case 1: { uint8_t v = (uint8_t)i; memcpy(dst, &v, 1); break; }
        case 2: { uint16_t v = (uint16_t)i; memcpy(dst, &v, 2); break; }
        case 4: { uint32_t v = (uint32_t)i; memcpy(dst, &v, 4); break; }
        default: memcpy(dst, &i, 8); break;
        }
    }
    }
    c->next++;
    return st;
}

/* A nested list must follow the shape level by level. */
static rlx_status check_nested(vctx *c, const rlx__ynode *n, uint32_t level,
                               uint32_t rank, const int64_t *dims)
{
    char sbuf[160];
    if (n->kind != RLX__Y_SEQ || (int64_t)n->n != dims[level])
        return rlx__model_error(
            RLX_ERR_SHAPE, c->path, n,
            "constant '%s': at dimension %u the value has %s%u entr%s, but "
            "shape %s needs %lld. Fix: nest the lists like the shape, or "
            "give one flat list of every element", c->name, level,
            n->kind == RLX__Y_SEQ ? "" : "not a list but ",
            n->kind == RLX__Y_SEQ ? n->n : 1, n->kind == RLX__Y_SEQ &&
            n->n == 1 ? "y" : "ies",
            rlx__shape_str(sbuf, sizeof sbuf, rank, dims),
            (long long)dims[level]);
    for (uint32_t i = 0; i < n->n; i++) {
        rlx_status st = level + 1 < rank
                            ? check_nested(c, n->items[i], level + 1, rank,
                                           dims)
                            : RLX_OK;
        if (st == RLX_OK && level + 1 == rank &&
            n->items[i]->kind != RLX__Y_SCALAR)
            st = rlx__model_error(RLX_ERR_SHAPE, c->path, n->items[i],
                                  "constant '%s': the lists nest deeper "
                                  "than the shape's rank %u. Fix: nest "
                                  "them like the shape", c->name, rank);
        if (st != RLX_OK)
            return st;
    }
    return RLX_OK;
}

static rlx_status store_leaves(vctx *c, const rlx__ynode *n)
{
    if (n->kind == RLX__Y_SCALAR)
        return store(c, n);
    for (uint32_t i = 0; i < n->n; i++) {
        rlx_status st = store_leaves(c, n->items[i]);
        if (st != RLX_OK)
            return st;
    }
    return RLX_OK;
}

rlx_status rlx__constant_values(const char *path, const char *name,
                                rlx_dtype dtype, uint32_t rank,
                                const int64_t *dims, const rlx__ynode *value,
                                void **out)
{
    char sbuf[160];
    vctx c = { .path = path, .name = name, .dtype = dtype };
    int64_t numel = rlx__shape_elements(rank, dims);
    *out = NULL;
    if (value->kind == RLX__Y_MAP)
        return rlx__model_error(RLX_ERR_INVALID_ARGUMENT, path, value,
                                "constant '%s': 'value' is a mapping. Fix: "
                                "give a number or a list of numbers", name);
    int nested = value->kind == RLX__Y_SEQ && rank >= 2 && value->n > 0 &&
                 value->items[0]->kind == RLX__Y_SEQ;
    int64_t count = value->kind == RLX__Y_SCALAR ? 1 : (int64_t)value->n;
    if (nested) {
        rlx_status st = check_nested(&c, value, 0, rank, dims);
        if (st != RLX_OK)
            return st;
        count = numel;
    } else if (value->kind == RLX__Y_SEQ) {
        for (uint32_t i = 0; i < value->n; i++)
            if (value->items[i]->kind != RLX__Y_SCALAR)
                return rlx__model_error(
                    RLX_ERR_SHAPE, path, value->items[i],
                    "constant '%s': element %u is %s. Fix: nest lists only "
                    "to follow the shape %s", name, i,
                    rlx__ykind_name(value->items[i]->kind),
                    rlx__shape_str(sbuf, sizeof sbuf, rank, dims));
    }
    if (count != numel)
        return rlx__model_error(
            RLX_ERR_SHAPE, path, value,
            "constant '%s': the value has %lld element%s, but shape %s "
            "needs %lld. Fix: give exactly %lld values (row-major), or "
            "correct the shape", name, (long long)count,
            count == 1 ? "" : "s",
            rlx__shape_str(sbuf, sizeof sbuf, rank, dims), (long long)numel,
            (long long)numel);
    size_t nbytes = (size_t)numel * rlx_dtype_size(dtype);
    c.data = calloc(1, nbytes ? nbytes : 1);
    if (!c.data)
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    rlx_status st = store_leaves(&c, value);
    if (st != RLX_OK) {
        free(c.data);
        return st;
    }
    *out = c.data;
    return RLX_OK;
}
