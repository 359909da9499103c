/*
 * pjrt_emit_topk.c - topk as one single-operand stablehlo.sort of i64
 * keys: the value mapped to an order-preserving 32-bit integer (floats
 * through their bits, -0 made +0 and every NaN one NaN above +inf, so
 * ties and NaN order as rlx wants), reversed for largest, times 2^32
 * plus the index along the axis. Equal values then sort by index (the
 * lower first), the keys are unique, and the first k keys' low 32 bits
 * are the indices. No variadic sort: any StableHLO consumer and the
 * text checker take this form. Values up to 32 bits wide (f32, f16,
 * bf16, the 8-, 16- and 32-bit integers).
 *
 * 64-bit integers (i64, u64) leave no room for the index in a key: k
 * rounds instead (k up to RLXP_TOPK64_MAX_K, supports_node declines
 * more), each taking the extreme of the values not yet taken and the
 * least index holding it. f64 stays elsewhere.
 */
#include <math.h>
#include <stdio.h>

#include "pjrt_emit.h"

/* An order-preserving i32 of X (f32 or an integer up to 32 bits). */
static uint32_t order_key(rlxp_emit *e, uint32_t x)
{
    const rlxp_val v = *rlxp_type_of(e, x);
    if (v.dt == RLX_DTYPE_U32) {
        /* the bits as i32 with the top bit flipped keep the order */
        uint32_t b = rlxp_convert(e, x, RLX_DTYPE_I32);
        return rlxp_bin(e, "stablehlo.xor", b,
                        rlxp_splat_like(e, b, -2147483648.0));
    }
    if (v.dt != RLX_DTYPE_F32)
        return rlxp_convert(e, x, RLX_DTYPE_I32);
    uint32_t zero = rlxp_splat_like(e, x, 0.0);
    x = rlxp_select(e, rlxp_compare(e, x, zero, "EQ"), zero, x);
    x = rlxp_select(e, rlxp_compare(e, x, x, "NE"),
                    rlxp_splat_like(e, x, NAN), x);
    rlxp_val iv = v;
    iv.dt = RLX_DTYPE_I32;
    uint32_t b = rlxp_op(e, "stablehlo.bitcast_convert", 1, &x, &iv, NULL);
    /* negative floats: flip the magnitude bits so larger is greater */
    uint32_t neg = rlxp_compare(e, b, rlxp_splat_like(e, b, 0.0), "LT");
    uint32_t flip = rlxp_bin(e, "stablehlo.xor", b,
                             rlxp_splat_like(e, b, 2147483647.0));
    return rlxp_select(e, neg, flip, b);
}

/* topk of a 64-bit integer X along AXIS: K rounds of "the extreme of
 * what is left, at its least index". */
static uint32_t topk_rounds(rlxp_emit *e, uint32_t x, int64_t k,
                            uint32_t axis, int largest, rlxp_val out)
{
    const rlxp_val v = *rlxp_type_of(e, x);
    rlxp_val iv = v, bv = v;
    iv.dt = RLX_DTYPE_I64;
    bv.dt = RLX_DTYPE_BOOL;
    uint32_t iota = rlxp_iota(e, &iv, axis);
    /* the extreme the other way: never above (below) a value left */
    uint32_t worst = rlxp_splat_like(e, x, largest ? -INFINITY : INFINITY);
    uint32_t taken = rlxp_splat(e, &bv, 0.0);
    int64_t ax = axis;
    rlxp_val one = out;
    one.dims[axis] = 1;
    uint32_t parts[RLXP_TOPK64_MAX_K];
    for (int64_t j = 0; j < k && e->status == RLX_OK; j++) {
        uint32_t left = rlxp_un(e, "stablehlo.not", taken);
        uint32_t cand = rlxp_select(e, left, x, worst);
        uint32_t m = rlxp_reduce(e, cand, 1, &ax,
                                 largest ? "stablehlo.maximum"
                                         : "stablehlo.minimum",
                                 largest ? -INFINITY : INFINITY);
        uint32_t hit = rlxp_compare(e, x, rlxp_unreduce(e, m, x, 1, &ax),
                                    "EQ");
        hit = rlxp_bin(e, "stablehlo.and", hit, left);
        uint32_t at = rlxp_select(e, hit, iota,
                                  rlxp_splat_like(e, iota,
                                                  (double)v.dims[axis]));
        uint32_t i = rlxp_reduce(e, at, 1, &ax, "stablehlo.minimum",
                                 (double)v.dims[axis]);
        uint32_t ib = rlxp_unreduce(e, i, x, 1, &ax);
        taken = rlxp_bin(e, "stablehlo.or", taken,
                         rlxp_compare(e, iota, ib, "EQ"));
        parts[j] = rlxp_reshape(e, i, one.rank, one.dims);
    }
    if (k == 1)
        return parts[0];
    char attrs[64];
    snprintf(attrs, sizeof attrs, "dimension = %u : i64", axis);
    return rlxp_op(e, "stablehlo.concatenate", (uint32_t)k, parts, &out,
                   attrs);
}

uint32_t rlxp_emit_topk(rlxp_emit *e, const rlx_node_view *n)
{
    uint32_t x = rlxp_in_f32(e, n, 0);
    if (x == RLXP_NONE)
        return x;
    const rlxp_val v = *rlxp_type_of(e, x);
    int64_t k = n->n_int_attrs > RLX_ATTR_TOPK_K
                    ? n->int_attrs[RLX_ATTR_TOPK_K] : 1;
    int64_t axis = n->n_int_attrs > RLX_ATTR_TOPK_AXIS
                       ? n->int_attrs[RLX_ATTR_TOPK_AXIS] : -1;
    int largest = n->n_int_attrs <= RLX_ATTR_TOPK_LARGEST ||
                  n->int_attrs[RLX_ATTR_TOPK_LARGEST] != 0;
    if (axis < 0)
        axis += v.rank;
    rlxp_val out = rlxp_val_of_node(n);
    if (k == 0 || rlxp_val_count(&out) == 0)
        return rlxp_splat(e, &out, 0.0);
    out.dt = RLX_DTYPE_I64;
    if (v.dt == RLX_DTYPE_I64 || v.dt == RLX_DTYPE_U64) {
        if (k > RLXP_TOPK64_MAX_K) {
            rlxp_fail(e, RLX_ERR_UNSUPPORTED, "pjrt: topk '%s' of 64-bit "
                      "integers with k %lld; the bridge takes up to %d. "
                      "Fix: run it on another backend", n->name,
                      (long long)k, RLXP_TOPK64_MAX_K);
            return RLXP_NONE;
        }
        return topk_rounds(e, x, k, (uint32_t)axis, largest, out);
    }
    uint32_t key = rlxp_convert(e, order_key(e, x), RLX_DTYPE_I64);
    if (largest) /* -1 - key reverses the order without overflow */
        key = rlxp_bin(e, "stablehlo.subtract",
                       rlxp_splat_like(e, key, -1.0), key);
    rlxp_val iv = v;
    iv.dt = RLX_DTYPE_I64;
    key = rlxp_bin(e, "stablehlo.add",
                   rlxp_bin(e, "stablehlo.multiply", key,
                            rlxp_splat_like(e, key, 4294967296.0)),
                   rlxp_iota(e, &iv, (uint32_t)axis));
    /* the sort, its comparator a less-than on the keys */
    rlxp_val scalar = rlxp_val_make(RLX_DTYPE_I64, 0, NULL);
    rlxp_val bv = scalar;
    bv.dt = RLX_DTYPE_BOOL;
    uint32_t id = rlxp_new(e, &iv);
    uint32_t p = rlxp_new(e, &scalar), q = rlxp_new(e, &scalar);
    uint32_t c = rlxp_new(e, &bv);
    if (c == RLXP_NONE || key == RLXP_NONE)
        return RLXP_NONE;
    rlxp_put(e, "    %%%u = \"stablehlo.sort\"(%%%u) ({\n", id, key);
    rlxp_put(e, "    ^bb0(%%%u: tensor<i64>, %%%u: tensor<i64>):\n", p, q);
    rlxp_put(e, "      %%%u = \"stablehlo.compare\"(%%%u, %%%u) "
             "{comparison_direction = #stablehlo<comparison_direction LT>}"
             " : (tensor<i64>, tensor<i64>) -> tensor<i1>\n", c, p, q);
    rlxp_put(e, "      \"stablehlo.return\"(%%%u) : (tensor<i1>) -> ()\n", c);
    rlxp_put(e, "    }) {dimension = %lld : i64, is_stable = false} : (",
             (long long)axis);
    rlxp_put_type(e, &iv);
    rlxp_put(e, ") -> ");
    rlxp_put_type(e, &iv);
    rlxp_put(e, "\n");
    /* the first k along the axis, their indices in the low 32 bits */
    int64_t start[RLXP_MAX_RANK] = { 0 }, lim[RLXP_MAX_RANK],
            step[RLXP_MAX_RANK];
    for (uint32_t d = 0; d < v.rank; d++) {
        lim[d] = out.dims[d];
        step[d] = 1;
    }
    char attrs[768] = "";
    rlxp_cat_array(attrs, sizeof attrs, "start_indices", v.rank, start);
    rlxp_cat_array(attrs, sizeof attrs, "limit_indices", v.rank, lim);
    rlxp_cat_array(attrs, sizeof attrs, "strides", v.rank, step);
    out.dt = RLX_DTYPE_I64;
    uint32_t top = rlxp_op(e, "stablehlo.slice", 1, &id, &out, attrs);
    return rlxp_bin(e, "stablehlo.and", top,
                    rlxp_splat_like(e, top, 4294967295.0));
}
