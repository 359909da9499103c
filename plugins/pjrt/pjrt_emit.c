/*
 * pjrt_emit.c - the StableHLO text builder: typed SSA values, the
 * generic-form op printer and the helpers every op family uses, and the
 * driver that lowers a whole graph to one func.func @main.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pjrt_emit.h"

const char *rlxp_mlir_dtype(rlx_dtype dt)
{
    switch (dt) {
    case RLX_DTYPE_F32: return "f32";
    case RLX_DTYPE_F16: return "f16";
    case RLX_DTYPE_BF16: return "bf16";
    case RLX_DTYPE_I32: return "i32";
    case RLX_DTYPE_I64: return "i64";
    case RLX_DTYPE_U8: return "ui8";
    case RLX_DTYPE_BOOL: return "i1";
    case RLX_DTYPE_F64: return "f64";
    case RLX_DTYPE_I8: return "i8";
    /* XLA's GPU and TPU backends take the other widths too; unsigned
     * types make compare, division and convert unsigned */
    case RLX_DTYPE_I16: return "i16";
    case RLX_DTYPE_U16: return "ui16";
    case RLX_DTYPE_U32: return "ui32";
    case RLX_DTYPE_U64: return "ui64";
    default: return NULL;
    }
}

int rlxp_dt_unsigned(rlx_dtype dt)
{
    return dt == RLX_DTYPE_U8 || dt == RLX_DTYPE_U16 ||
           dt == RLX_DTYPE_U32 || dt == RLX_DTYPE_U64;
}

static int is_float(rlx_dtype dt)
{
    return dt == RLX_DTYPE_F32 || dt == RLX_DTYPE_F16 ||
           dt == RLX_DTYPE_BF16 || dt == RLX_DTYPE_F64;
}

rlx_status rlxp_fail(rlxp_emit *e, rlx_status st, const char *fmt, ...)
{
    if (e->status != RLX_OK)
        return e->status;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->error, sizeof e->error, fmt, ap);
    va_end(ap);
    e->status = st;
    return st;
}

void rlxp_put(rlxp_emit *e, const char *fmt, ...)
{
    if (e->status != RLX_OK)
        return;
    for (;;) {
        size_t room = e->cap - e->len;
        va_list ap;
        va_start(ap, fmt);
        int n = e->buf ? vsnprintf(e->buf + e->len, room, fmt, ap) : -2;
        va_end(ap);
        if (n >= 0 && (size_t)n < room) {
            e->len += (size_t)n;
            return;
        }
        if (n == -1) {
            rlxp_fail(e, RLX_ERR_INTERNAL, "pjrt: cannot format MLIR text. "
                      "Fix: report this as a bug");
            return;
        }
        size_t want = e->cap ? e->cap * 2 : 1u << 16;
        while (n > 0 && want - e->len <= (size_t)n)
            want *= 2;
        char *nb = realloc(e->buf, want);
        if (!nb) {
            rlxp_fail(e, RLX_ERR_OUT_OF_MEMORY, "pjrt: out of memory "
                      "writing MLIR text. Fix: free memory");
            return;
        }
        e->buf = nb;
        e->cap = want;
        if (e->len == 0)
            e->buf[0] = '\0';
    }
}

rlxp_val rlxp_val_make(rlx_dtype dt, uint32_t rank, const int64_t *dims)
{
    rlxp_val v;
    memset(&v, 0, sizeof v);
    v.dt = dt;
    v.rank = rank > RLXP_MAX_RANK ? RLXP_MAX_RANK : rank;
    for (uint32_t i = 0; i < v.rank; i++)
        v.dims[i] = dims ? dims[i] : 1;
    return v;
}

rlxp_val rlxp_val_of_node(const rlx_node_view *n)
{
    return rlxp_val_make(n->dtype, n->rank, n->shape);
}

int64_t rlxp_val_count(const rlxp_val *v)
{
    int64_t c = 1;
    for (uint32_t i = 0; i < v->rank; i++)
        c *= v->dims[i];
    return c;
}

uint32_t rlxp_new(rlxp_emit *e, const rlxp_val *v)
{
    if (e->status != RLX_OK)
        return RLXP_NONE;
    if (e->n_vals == e->cap_vals) {
        uint32_t nc = e->cap_vals ? e->cap_vals * 2 : 256;
        rlxp_val *nv = realloc(e->vals, nc * sizeof *nv);
        if (!nv) {
            rlxp_fail(e, RLX_ERR_OUT_OF_MEMORY, "pjrt: out of memory. "
                      "Fix: free memory");
            return RLXP_NONE;
        }
        e->vals = nv;
        e->cap_vals = nc;
    }
    e->vals[e->n_vals] = *v;
    return e->n_vals++;
}

static const rlxp_val dummy_val = { RLX_DTYPE_F32, 0, { 0 } };

const rlxp_val *rlxp_type_of(const rlxp_emit *e, uint32_t id)
{
    return id < e->n_vals ? &e->vals[id] : &dummy_val;
}

void rlxp_put_type(rlxp_emit *e, const rlxp_val *v)
{
    rlxp_put(e, "tensor<");
    for (uint32_t i = 0; i < v->rank; i++)
        rlxp_put(e, "%lldx", (long long)v->dims[i]);
    const char *t = rlxp_mlir_dtype(v->dt);
    rlxp_put(e, "%s>", t ? t : "?");
}

uint32_t rlxp_op(rlxp_emit *e, const char *name, uint32_t n,
                 const uint32_t *operands, const rlxp_val *res,
                 const char *attrs)
{
    for (uint32_t i = 0; i < n; i++)
        if (operands[i] == RLXP_NONE)
            return RLXP_NONE;
    uint32_t id = rlxp_new(e, res);
    if (id == RLXP_NONE)
        return id;
    rlxp_put(e, "    %%%u = \"%s\"(", id, name);
    for (uint32_t i = 0; i < n; i++)
        rlxp_put(e, "%s%%%u", i ? ", " : "", operands[i]);
    rlxp_put(e, ")");
    if (attrs && attrs[0])
        rlxp_put(e, " {%s}", attrs);
    rlxp_put(e, " : (");
    for (uint32_t i = 0; i < n; i++) {
        if (i)
            rlxp_put(e, ", ");
        rlxp_put_type(e, rlxp_type_of(e, operands[i]));
    }
    rlxp_put(e, ") -> ");
    rlxp_put_type(e, res);
    rlxp_put(e, "\n");
    return id;
}

uint32_t rlxp_un(rlxp_emit *e, const char *name, uint32_t a)
{
    rlxp_val r = *rlxp_type_of(e, a);
    return rlxp_op(e, name, 1, &a, &r, NULL);
}

uint32_t rlxp_bin(rlxp_emit *e, const char *name, uint32_t a, uint32_t b)
{
    uint32_t ops[2] = { a, b };
    rlxp_val r = *rlxp_type_of(e, a);
    return rlxp_op(e, name, 2, ops, &r, NULL);
}

uint32_t rlxp_convert(rlxp_emit *e, uint32_t a, rlx_dtype dt)
{
    if (a == RLXP_NONE || rlxp_type_of(e, a)->dt == dt)
        return a;
    rlxp_val r = *rlxp_type_of(e, a);
    r.dt = dt;
    return rlxp_op(e, "stablehlo.convert", 1, &a, &r, NULL);
}

/* VALUE as an integer in [LO, HI] the way cast does it. */
static long long sat(double v, double lo, double hi)
{
    if (isnan(v))
        return 0;
    v = trunc(v);
    if (v <= lo)
        return (long long)lo;
    if (v >= hi)
        return hi >= 9.2e18 ? INT64_MAX : (long long)hi;
    return (long long)v;
}

uint32_t rlxp_splat(rlxp_emit *e, const rlxp_val *res, double value)
{
    char lit[64];
    switch (res->dt) {
    case RLX_DTYPE_F16: case RLX_DTYPE_BF16: {
        /* through f32, then one rounding by convert */
        rlxp_val f = *res;
        f.dt = RLX_DTYPE_F32;
        return rlxp_convert(e, rlxp_splat(e, &f, value), res->dt);
    }
    case RLX_DTYPE_F32: {
        float f = (float)value;
        uint32_t bits;
        memcpy(&bits, &f, 4);
        snprintf(lit, sizeof lit, "0x%08X", (unsigned)bits);
        break;
    }
    case RLX_DTYPE_F64: {
        uint64_t bits;
        memcpy(&bits, &value, 8);
        snprintf(lit, sizeof lit, "0x%016llX", (unsigned long long)bits);
        break;
    }
    case RLX_DTYPE_I32:
        snprintf(lit, sizeof lit, "%lld", sat(value, INT32_MIN, INT32_MAX));
        break;
    case RLX_DTYPE_I64:
        snprintf(lit, sizeof lit, "%lld",
                 sat(value, -9223372036854775808.0, 9223372036854775807.0));
        break;
    case RLX_DTYPE_I8:
        snprintf(lit, sizeof lit, "%lld", sat(value, -128, 127));
        break;
    case RLX_DTYPE_U8:
        snprintf(lit, sizeof lit, "%lld", sat(value, 0, 255));
        break;
    case RLX_DTYPE_I16:
        snprintf(lit, sizeof lit, "%lld", sat(value, -32768, 32767));
        break;
    case RLX_DTYPE_U16:
        snprintf(lit, sizeof lit, "%lld", sat(value, 0, 65535));
        break;
    case RLX_DTYPE_U32:
        snprintf(lit, sizeof lit, "%lld", sat(value, 0, 4294967295.0));
        break;
    case RLX_DTYPE_U64: {
        /* above 2^63 by hand: sat() stops at int64 */
        double t = isnan(value) ? 0 : trunc(value);
        if (t >= 18446744073709551616.0)
            snprintf(lit, sizeof lit, "%llu", (unsigned long long)UINT64_MAX);
        else if (t >= 9223372036854775808.0)
            snprintf(lit, sizeof lit, "%llu", (unsigned long long)t);
        else
            snprintf(lit, sizeof lit, "%lld",
                     sat(t, 0, 9223372036854775807.0));
        break;
    }
    case RLX_DTYPE_BOOL:
        snprintf(lit, sizeof lit, "%s", value != 0.0 ? "true" : "false");
        break;
    default:
        rlxp_fail(e, RLX_ERR_UNSUPPORTED, "pjrt: no literal for dtype %d. "
                  "Fix: use another dtype", (int)res->dt);
        return RLXP_NONE;
    }
    return rlxp_splat_text(e, res, lit);
}

uint32_t rlxp_splat_text(rlxp_emit *e, const rlxp_val *res, const char *lit)
{
    uint32_t id = rlxp_new(e, res);
    if (id == RLXP_NONE)
        return id;
    rlxp_put(e, "    %%%u = \"stablehlo.constant\"() {value = dense<%s> : ",
             id, lit);
    rlxp_put_type(e, res);
    rlxp_put(e, "} : () -> ");
    rlxp_put_type(e, res);
    rlxp_put(e, "\n");
    return id;
}

uint32_t rlxp_splat_like(rlxp_emit *e, uint32_t a, double value)
{
    rlxp_val r = *rlxp_type_of(e, a);
    return rlxp_splat(e, &r, value);
}

/* Appends "array<i64: 1, 2>" (or "array<i64>") to S. */
static void i64_array(char *s, size_t size, uint32_t n, const int64_t *v)
{
    size_t len = strlen(s);
    snprintf(s + len, size - len, "array<i64%s", n ? ": " : "");
    for (uint32_t i = 0; i < n; i++) {
        len = strlen(s);
        snprintf(s + len, size - len, "%s%lld", i ? ", " : "",
                 (long long)v[i]);
    }
    len = strlen(s);
    snprintf(s + len, size - len, ">");
}

uint32_t rlxp_broadcast(rlxp_emit *e, uint32_t a, const rlxp_val *to,
                        const int64_t *map)
{
    char attrs[256] = "broadcast_dimensions = ";
    i64_array(attrs, sizeof attrs, rlxp_type_of(e, a)->rank, map);
    rlxp_val r = *to;
    r.dt = rlxp_type_of(e, a)->dt;
    return rlxp_op(e, "stablehlo.broadcast_in_dim", 1, &a, &r, attrs);
}

uint32_t rlxp_broadcast_to(rlxp_emit *e, uint32_t a, const rlxp_val *to)
{
    if (a == RLXP_NONE)
        return a;
    const rlxp_val *v = rlxp_type_of(e, a);
    int same = v->rank == to->rank;
    for (uint32_t i = 0; same && i < v->rank; i++)
        same = v->dims[i] == to->dims[i];
    if (same)
        return a;
    int64_t map[RLXP_MAX_RANK];
    uint32_t off = to->rank - v->rank;
    for (uint32_t i = 0; i < v->rank; i++)
        map[i] = (int64_t)(off + i);
    /* a stretched dim of 1 maps to the target dim: broadcast_in_dim
     * expands size-1 operand dims itself */
    return rlxp_broadcast(e, a, to, map);
}

uint32_t rlxp_reshape(rlxp_emit *e, uint32_t a, uint32_t rank,
                      const int64_t *dims)
{
    if (a == RLXP_NONE)
        return a;
    rlxp_val r = rlxp_val_make(rlxp_type_of(e, a)->dt, rank, dims);
    const rlxp_val *v = rlxp_type_of(e, a);
    int same = v->rank == rank;
    for (uint32_t i = 0; same && i < rank; i++)
        same = v->dims[i] == dims[i];
    if (same)
        return a;
    return rlxp_op(e, "stablehlo.reshape", 1, &a, &r, NULL);
}

uint32_t rlxp_transpose(rlxp_emit *e, uint32_t a, const int64_t *perm)
{
    if (a == RLXP_NONE)
        return a;
    const rlxp_val *v = rlxp_type_of(e, a);
    rlxp_val r = *v;
    int ident = 1;
    for (uint32_t i = 0; i < v->rank; i++) {
        r.dims[i] = v->dims[perm[i]];
        ident &= perm[i] == (int64_t)i;
    }
    if (ident)
        return a;
    char attrs[256] = "permutation = ";
    i64_array(attrs, sizeof attrs, v->rank, perm);
    return rlxp_op(e, "stablehlo.transpose", 1, &a, &r, attrs);
}

uint32_t rlxp_compare(rlxp_emit *e, uint32_t a, uint32_t b, const char *dir)
{
    uint32_t ops[2] = { a, b };
    rlxp_val r = *rlxp_type_of(e, a);
    r.dt = RLX_DTYPE_BOOL;
    char attrs[96];
    snprintf(attrs, sizeof attrs,
             "comparison_direction = #stablehlo<comparison_direction %s>",
             dir);
    return rlxp_op(e, "stablehlo.compare", 2, ops, &r, attrs);
}

uint32_t rlxp_select(rlxp_emit *e, uint32_t pred, uint32_t a, uint32_t b)
{
    uint32_t ops[3] = { pred, a, b };
    rlxp_val r = *rlxp_type_of(e, a);
    return rlxp_op(e, "stablehlo.select", 3, ops, &r, NULL);
}

uint32_t rlxp_iota(rlxp_emit *e, const rlxp_val *res, uint32_t dim)
{
    char attrs[64];
    snprintf(attrs, sizeof attrs, "iota_dimension = %u : i64", dim);
    return rlxp_op(e, "stablehlo.iota", 0, NULL, res, attrs);
}

uint32_t rlxp_reduce(rlxp_emit *e, uint32_t a, uint32_t naxes,
                     const int64_t *axes, const char *body, double init)
{
    if (a == RLXP_NONE)
        return a;
    const rlxp_val v = *rlxp_type_of(e, a);
    if (naxes == 0)
        return a;
    rlxp_val scalar = rlxp_val_make(v.dt, 0, NULL);
    uint32_t init_id = rlxp_splat(e, &scalar, init);
    rlxp_val r = rlxp_val_make(v.dt, 0, NULL);
    for (uint32_t d = 0; d < v.rank; d++) {
        int reduced = 0;
        for (uint32_t k = 0; k < naxes; k++)
            reduced |= axes[k] == (int64_t)d;
        if (!reduced)
            r.dims[r.rank++] = v.dims[d];
    }
    uint32_t id = rlxp_new(e, &r);
    uint32_t p = rlxp_new(e, &scalar), q = rlxp_new(e, &scalar);
    uint32_t s = rlxp_new(e, &scalar);
    if (id == RLXP_NONE || init_id == RLXP_NONE || s == RLXP_NONE)
        return RLXP_NONE;
    rlxp_put(e, "    %%%u = \"stablehlo.reduce\"(%%%u, %%%u) ({\n", id, a,
             init_id);
    rlxp_put(e, "    ^bb0(%%%u: ", p);
    rlxp_put_type(e, &scalar);
    rlxp_put(e, ", %%%u: ", q);
    rlxp_put_type(e, &scalar);
    rlxp_put(e, "):\n      %%%u = \"%s\"(%%%u, %%%u) : (", s, body, p, q);
    rlxp_put_type(e, &scalar);
    rlxp_put(e, ", ");
    rlxp_put_type(e, &scalar);
    rlxp_put(e, ") -> ");
    rlxp_put_type(e, &scalar);
    rlxp_put(e, "\n      \"stablehlo.return\"(%%%u) : (", s);
    rlxp_put_type(e, &scalar);
    char attrs[256] = "dimensions = ";
    i64_array(attrs, sizeof attrs, naxes, axes);
    rlxp_put(e, ") -> ()\n    }) {%s} : (", attrs);
    rlxp_put_type(e, &v);
    rlxp_put(e, ", ");
    rlxp_put_type(e, &scalar);
    rlxp_put(e, ") -> ");
    rlxp_put_type(e, &r);
    rlxp_put(e, "\n");
    return id;
}

uint32_t rlxp_in_f32(rlxp_emit *e, const rlx_node_view *n, uint32_t i)
{
    uint32_t v = e->node_val[n->inputs[i]];
    rlx_dtype dt = rlxp_type_of(e, v)->dt;
    if (dt == RLX_DTYPE_F16 || dt == RLX_DTYPE_BF16)
        return rlxp_convert(e, v, RLX_DTYPE_F32);
    return v;
}

uint32_t rlxp_out(rlxp_emit *e, const rlx_node_view *n, uint32_t v)
{
    return rlxp_convert(e, v, n->dtype);
}

/* ---- the driver --------------------------------------------------------- */

int rlxp_emit_supports(rlx_op op, rlx_dtype dt)
{
    if (!rlxp_mlir_dtype(dt))
        return 0;
    int fl = dt == RLX_DTYPE_F32 || dt == RLX_DTYPE_F16 ||
             dt == RLX_DTYPE_BF16;
    int f64 = dt == RLX_DTYPE_F64; /* computed in f64 where taken */
    int small = dt == RLX_DTYPE_I8 || dt == RLX_DTYPE_U8;
    int in = dt != RLX_DTYPE_BOOL && !fl && !f64;
    switch (op) {
    case RLX_OP_INPUT: case RLX_OP_PARAM: case RLX_OP_CONSTANT:
    case RLX_OP_RESHAPE: case RLX_OP_TRANSPOSE: case RLX_OP_CONCAT:
    case RLX_OP_SLICE: case RLX_OP_GATHER: case RLX_OP_CAST:
    case RLX_OP_FILL:
    /* since 1.4: data movement, any dtype with an MLIR type */
    case RLX_OP_WHERE: case RLX_OP_PAD: case RLX_OP_EXPAND:
    case RLX_OP_TILE: case RLX_OP_STRIDED_SLICE:
    case RLX_OP_GATHER_ELEMENTS: case RLX_OP_GATHER_ND:
    case RLX_OP_ONE_HOT: case RLX_OP_TRILU:
        return 1;
    case RLX_OP_ADD: case RLX_OP_SUB: case RLX_OP_MUL: case RLX_OP_DIV:
    case RLX_OP_MAX: case RLX_OP_MIN: case RLX_OP_RELU:
    case RLX_OP_REDUCE_SUM: case RLX_OP_REDUCE_MAX:
    case RLX_OP_CLIP: case RLX_OP_SIGN: case RLX_OP_PRELU: case RLX_OP_MOD:
    case RLX_OP_REDUCE_MIN: case RLX_OP_REDUCE_PROD: case RLX_OP_REDUCE_L1:
    case RLX_OP_REDUCE_SUM_SQUARE: case RLX_OP_CUMSUM: case RLX_OP_RANGE:
    case RLX_OP_SCATTER_ELEMENTS: case RLX_OP_SCATTER_ND:
        return fl || in || (f64 && op != RLX_OP_CUMSUM && op != RLX_OP_RANGE);
    case RLX_OP_NEG: /* signed only, as the core checks */
        return fl || f64 || (in && !rlxp_dt_unsigned(dt));
    case RLX_OP_ABS: /* of an unsigned type: x */
        return fl || f64 || in;
    case RLX_OP_REDUCE_MEAN: case RLX_OP_REDUCE_L2:
        return fl || f64 || in; /* integers through f64, truncated */
    case RLX_OP_POW:
        return fl || f64 || in;
    case RLX_OP_GELU: case RLX_OP_SIGMOID:
    case RLX_OP_TANH: case RLX_OP_EXP: case RLX_OP_SIN: case RLX_OP_COS:
    case RLX_OP_LOG: case RLX_OP_SQRT:
    case RLX_OP_RSQRT: case RLX_OP_SILU: case RLX_OP_TAN: case RLX_OP_ATAN:
    case RLX_OP_FLOOR: case RLX_OP_CEIL: case RLX_OP_ROUND:
    case RLX_OP_RECIPROCAL: case RLX_OP_ERF: case RLX_OP_LEAKY_RELU:
    case RLX_OP_ELU: case RLX_OP_SELU: case RLX_OP_SOFTPLUS:
    case RLX_OP_HARD_SIGMOID: case RLX_OP_HARD_SWISH: case RLX_OP_MISH:
    case RLX_OP_ASIN: case RLX_OP_ACOS: case RLX_OP_SINH: case RLX_OP_COSH:
    case RLX_OP_ASINH: case RLX_OP_ACOSH: case RLX_OP_ATANH:
    case RLX_OP_REDUCE_LOG_SUM_EXP:
        return fl || f64; /* elementwise and reductions: f64 natively */
    case RLX_OP_MATMUL: case RLX_OP_SOFTMAX: case RLX_OP_LAYER_NORM:
    case RLX_OP_RMS_NORM:
    /* since 1.4 */
    case RLX_OP_CONV: case RLX_OP_CONV_TRANSPOSE: case RLX_OP_AVG_POOL:
    case RLX_OP_LP_POOL: case RLX_OP_BATCH_NORM: case RLX_OP_INSTANCE_NORM:
    case RLX_OP_GROUP_NORM:
        return fl;
    case RLX_OP_MAX_POOL: case RLX_OP_RESIZE:
        return fl || small; /* resize: nearest only (supports_node) */
    case RLX_OP_BITWISE_AND: case RLX_OP_BITWISE_OR: case RLX_OP_BITWISE_XOR:
    case RLX_OP_BITWISE_NOT:
        return in;
    case RLX_OP_EQUAL: case RLX_OP_LESS: case RLX_OP_LESS_EQUAL:
    case RLX_OP_GREATER: case RLX_OP_GREATER_EQUAL: case RLX_OP_LOGICAL_AND:
    case RLX_OP_LOGICAL_OR: case RLX_OP_LOGICAL_XOR: case RLX_OP_LOGICAL_NOT:
    case RLX_OP_ISNAN: case RLX_OP_ISINF:
        return dt == RLX_DTYPE_BOOL;
    case RLX_OP_ARGMAX: case RLX_OP_ARGMIN: case RLX_OP_TOPK:
        return dt == RLX_DTYPE_I64; /* topk's input: supports_node */
    case RLX_OP_BIT_SHIFT:
        return in && rlxp_dt_unsigned(dt);
    case RLX_OP_DET:
        return fl || f64;
    case RLX_OP_MAX_POOL_INDEX:
        return dt == RLX_DTYPE_I64; /* of f32, f16, bf16 (the core's) */
    case RLX_OP_GRID_SAMPLE: case RLX_OP_ROI_ALIGN:
        return fl;
    case RLX_OP_NON_ZERO:
        return dt == RLX_DTYPE_I64; /* of any dtype */
    case RLX_OP_QUANTIZE_LINEAR:
        return small;
    case RLX_OP_DEQUANTIZE_LINEAR:
        return fl;
    case RLX_OP_MATMUL_INTEGER: case RLX_OP_CONV_INTEGER:
        return dt == RLX_DTYPE_I32;
    default:
        return 0;
    }
}

static uint32_t emit_node(rlxp_emit *e, const rlx_node_view *n)
{
    switch (n->op) {
    case RLX_OP_CONSTANT: case RLX_OP_FILL:
        return rlxp_emit_source(e, n);
    case RLX_OP_MATMUL:
        return rlxp_emit_matmul(e, n);
    case RLX_OP_SOFTMAX: case RLX_OP_LAYER_NORM: case RLX_OP_RMS_NORM:
        return rlxp_emit_rows(e, n);
    case RLX_OP_REDUCE_SUM: case RLX_OP_REDUCE_MEAN: case RLX_OP_REDUCE_MAX:
    case RLX_OP_REDUCE_MIN: case RLX_OP_REDUCE_PROD: case RLX_OP_REDUCE_L1:
    case RLX_OP_REDUCE_L2: case RLX_OP_REDUCE_LOG_SUM_EXP:
    case RLX_OP_REDUCE_SUM_SQUARE:
        return rlxp_emit_reduce(e, n);
    case RLX_OP_RESHAPE: case RLX_OP_TRANSPOSE: case RLX_OP_CONCAT:
    case RLX_OP_SLICE: case RLX_OP_GATHER: case RLX_OP_CAST:
        return rlxp_emit_movement(e, n);
    case RLX_OP_EQUAL: case RLX_OP_LESS: case RLX_OP_LESS_EQUAL:
    case RLX_OP_GREATER: case RLX_OP_GREATER_EQUAL: case RLX_OP_LOGICAL_AND:
    case RLX_OP_LOGICAL_OR: case RLX_OP_LOGICAL_XOR: case RLX_OP_LOGICAL_NOT:
    case RLX_OP_WHERE: case RLX_OP_BITWISE_AND: case RLX_OP_BITWISE_OR:
    case RLX_OP_BITWISE_XOR: case RLX_OP_BITWISE_NOT: case RLX_OP_BIT_SHIFT:
        return rlxp_emit_compare(e, n);
    case RLX_OP_ARGMAX: case RLX_OP_ARGMIN:
        return rlxp_emit_arg(e, n);
    case RLX_OP_CONV: case RLX_OP_CONV_TRANSPOSE:
        return rlxp_emit_conv(e, n);
    case RLX_OP_MAX_POOL: case RLX_OP_AVG_POOL: case RLX_OP_LP_POOL:
        return rlxp_emit_pool(e, n);
    case RLX_OP_BATCH_NORM: case RLX_OP_INSTANCE_NORM: case RLX_OP_GROUP_NORM:
        return rlxp_emit_norm(e, n);
    case RLX_OP_RESIZE:
        return rlxp_emit_resize(e, n);
    case RLX_OP_SCATTER_ELEMENTS: case RLX_OP_SCATTER_ND:
        return rlxp_emit_scatter(e, n);
    case RLX_OP_TOPK:
        return rlxp_emit_topk(e, n);
    case RLX_OP_QUANTIZE_LINEAR: case RLX_OP_DEQUANTIZE_LINEAR:
    case RLX_OP_MATMUL_INTEGER: case RLX_OP_CONV_INTEGER:
        return rlxp_emit_quant(e, n);
    case RLX_OP_DET:
        return rlxp_emit_det(e, n);
    case RLX_OP_MAX_POOL_INDEX:
        return rlxp_emit_pool_index(e, n);
    case RLX_OP_GRID_SAMPLE:
        return rlxp_emit_grid_sample(e, n);
    case RLX_OP_ROI_ALIGN:
        return rlxp_emit_roi_align(e, n);
    case RLX_OP_NON_ZERO:
        return rlxp_emit_non_zero(e, n);
    case RLX_OP_PAD: case RLX_OP_EXPAND: case RLX_OP_TILE:
    case RLX_OP_STRIDED_SLICE: case RLX_OP_GATHER_ELEMENTS:
    case RLX_OP_GATHER_ND: case RLX_OP_CUMSUM: case RLX_OP_RANGE:
    case RLX_OP_ONE_HOT: case RLX_OP_TRILU:
        return rlxp_emit_index(e, n);
    default:
        if ((n->op >= 110 && n->op <= 118) ||
            (n->op >= 123 && n->op <= 131) || (n->op >= 140 && n->op <= 146))
            return rlxp_emit_math(e, n);
        return rlxp_emit_elementwise(e, n);
    }
}

/* Appends "%id: T" for the source node of each slot. */
static void emit_args(rlxp_emit *e, uint32_t count, const uint32_t *nodes,
                      int *first)
{
    for (uint32_t i = 0; i < count; i++) {
        const rlx_node_view *n = e->g->nodes[nodes[i]];
        rlxp_val v = rlxp_val_of_node(n);
        uint32_t id = rlxp_new(e, &v);
        if (id == RLXP_NONE)
            return;
        e->node_val[nodes[i]] = id;
        rlxp_put(e, "%s%%%u: ", *first ? "" : ", ", id);
        rlxp_put_type(e, &v);
        *first = 0;
    }
}

rlx_status rlxp_emit_graph(rlxp_emit *e, const rlx_graph_view *g,
                           rlx_precision precision)
{
    memset(e, 0, sizeof *e);
    e->g = g;
    e->precision = precision;
    e->node_val = malloc((g->n_nodes ? g->n_nodes : 1) * sizeof *e->node_val);
    e->checks = malloc((g->n_nodes ? g->n_nodes : 1) * sizeof *e->checks);
    e->check_what = malloc((g->n_nodes ? g->n_nodes : 1) *
                           sizeof *e->check_what);
    if (!e->node_val || !e->checks || !e->check_what)
        return rlxp_fail(e, RLX_ERR_OUT_OF_MEMORY, "pjrt: out of memory. "
                         "Fix: free memory");
    for (uint32_t i = 0; i < g->n_nodes; i++) {
        e->node_val[i] = RLXP_NONE;
        const rlx_node_view *n = g->nodes[i];
        if (n->rank > RLXP_MAX_RANK)
            return rlxp_fail(e, RLX_ERR_UNSUPPORTED, "pjrt: node '%s' has "
                             "rank %u; the bridge lowers up to rank %d. "
                             "Fix: reshape to fewer dimensions", n->name,
                             n->rank, RLXP_MAX_RANK);
        if (!rlxp_emit_supports(n->op, n->dtype))
            return rlxp_fail(e, RLX_ERR_UNSUPPORTED, "pjrt: node '%s' (%s "
                             "op %d) has no StableHLO lowering. Fix: run "
                             "the graph on another backend", n->name,
                             rlxp_mlir_dtype(n->dtype) ?
                             rlxp_mlir_dtype(n->dtype) : "unknown dtype",
                             (int)n->op);
    }
    rlxp_put(e, "module @rlx attributes {mhlo.num_partitions = 1 : i32, "
                "mhlo.num_replicas = 1 : i32} {\n"
                "  func.func public @main(");
    int first = 1;
    emit_args(e, g->n_inputs, g->inputs, &first);
    emit_args(e, g->n_params, g->params, &first);
    /* The result types follow the body (checks are known only then):
     * the body goes to a second buffer and is spliced in below. */
    char *head = e->buf;
    size_t head_len = e->len, head_cap = e->cap;
    e->buf = NULL;
    e->len = e->cap = 0;
    for (uint32_t i = 0; i < g->n_nodes && e->status == RLX_OK; i++) {
        const rlx_node_view *n = g->nodes[i];
        if (n->op == RLX_OP_INPUT || n->op == RLX_OP_PARAM)
            continue;
        uint32_t v = emit_node(e, n);
        if (v == RLXP_NONE && e->status == RLX_OK)
            rlxp_fail(e, RLX_ERR_INTERNAL, "pjrt: lowering node '%s' "
                      "failed. Fix: report this as a bug", n->name);
        e->node_val[i] = v;
    }
    char *body = e->buf;
    size_t body_len = e->len;
    e->buf = head;
    e->len = head_len;
    e->cap = head_cap;
    if (e->status == RLX_OK) {
        rlxp_put(e, ") -> (");
        uint32_t nres = g->n_outputs + e->n_checks;
        for (uint32_t i = 0; i < nres; i++) {
            uint32_t v = i < g->n_outputs ? e->node_val[g->outputs[i]]
                                          : e->checks[i - g->n_outputs];
            if (i)
                rlxp_put(e, ", ");
            rlxp_put_type(e, rlxp_type_of(e, v));
        }
        rlxp_put(e, ") {\n%s", body ? body : "");
        rlxp_put(e, "    \"func.return\"(");
        for (uint32_t i = 0; i < nres; i++) {
            uint32_t v = i < g->n_outputs ? e->node_val[g->outputs[i]]
                                          : e->checks[i - g->n_outputs];
            rlxp_put(e, "%s%%%u", i ? ", " : "", v);
        }
        rlxp_put(e, ") : (");
        for (uint32_t i = 0; i < nres; i++) {
            uint32_t v = i < g->n_outputs ? e->node_val[g->outputs[i]]
                                          : e->checks[i - g->n_outputs];
            if (i)
                rlxp_put(e, ", ");
            rlxp_put_type(e, rlxp_type_of(e, v));
        }
        rlxp_put(e, ") -> ()\n  }\n}\n");
    }
    (void)body_len;
    free(body);
    return e->status;
}

void rlxp_emit_free(rlxp_emit *e)
{
    free(e->buf);
    free(e->vals);
    free(e->node_val);
    free(e->checks);
    free(e->check_what);
    memset(e, 0, sizeof *e);
}

/* ---- sources: constants and fill --------------------------------------- */

uint32_t rlxp_emit_source(rlxp_emit *e, const rlx_node_view *n)
{
    rlxp_val v = rlxp_val_of_node(n);
    if (n->op == RLX_OP_FILL) {
        double value = n->n_float_attrs > RLX_ATTR_FILL_VALUE
                           ? n->float_attrs[RLX_ATTR_FILL_VALUE] : 0.0;
        return rlxp_splat(e, &v, value);
    }
    /* constant: raw little-endian bytes as a hex dense literal; bool
     * travels as ui8 and is compared with 0 (i1 hex packing differs
     * between MLIR versions) */
    int64_t count = rlxp_val_count(&v);
    size_t es = rlx_dtype_size(n->dtype);
    if (count == 0 || !n->data)
        return rlxp_splat(e, &v, 0.0);
    rlxp_val lit = v;
    if (n->dtype == RLX_DTYPE_BOOL)
        lit.dt = RLX_DTYPE_U8;
    uint32_t id = rlxp_new(e, &lit);
    if (id == RLXP_NONE)
        return id;
    rlxp_put(e, "    %%%u = \"stablehlo.constant\"() {value = dense<\"0x",
             id);
    const unsigned char *p = n->data;
    size_t nbytes = (size_t)count * es;
    for (size_t i = 0; i < nbytes && e->status == RLX_OK; i++)
        rlxp_put(e, "%02X", p[i]);
    rlxp_put(e, "\"> : ");
    rlxp_put_type(e, &lit);
    rlxp_put(e, "} : () -> ");
    rlxp_put_type(e, &lit);
    rlxp_put(e, "\n");
    if (n->dtype == RLX_DTYPE_BOOL)
        return rlxp_compare(e, id, rlxp_splat_like(e, id, 0.0), "NE");
    (void)is_float;
    return id;
}
