/*
 * pjrt_emit_det.c - det as cpu-ref computes it: each matrix in f64,
 * Gaussian elimination with partial pivoting (the first row of largest
 * magnitude in the column, a NaN taking over), the determinant the
 * product of the pivots with the sign of the row swaps, 0 (times the
 * product so far, so NaN stays) at the first zero pivot. The matrix
 * size is static, so the elimination is unrolled: the rows are [B, m]
 * values over the whole stack, pivot choice and row swaps are selects.
 * supports_node keeps m within RLXP_DET_MAX_M.
 */
#include "pjrt_emit.h"

/* X [B, ..] sliced to [B, LO..HI) along axis 1, the axis then dropped
 * when DROP (HI = LO + 1). */
static uint32_t cut(rlxp_emit *e, uint32_t x, int64_t lo, int64_t hi,
                    int drop)
{
    rlxp_val v = *rlxp_type_of(e, x);
    int64_t start[RLXP_MAX_RANK] = { 0 }, lim[RLXP_MAX_RANK],
            step[RLXP_MAX_RANK];
    for (uint32_t d = 0; d < v.rank; d++) {
        lim[d] = d == 1 ? hi : v.dims[d];
        step[d] = 1;
    }
    start[1] = lo;
    char attrs[512] = "";
    rlxp_cat_array(attrs, sizeof attrs, "start_indices", v.rank, start);
    rlxp_cat_array(attrs, sizeof attrs, "limit_indices", v.rank, lim);
    rlxp_cat_array(attrs, sizeof attrs, "strides", v.rank, step);
    rlxp_val r = v;
    r.dims[1] = hi - lo;
    uint32_t y = rlxp_op(e, "stablehlo.slice", 1, &x, &r, attrs);
    if (!drop)
        return y;
    for (uint32_t d = 1; d + 1 < v.rank; d++)
        r.dims[d] = r.dims[d + 1];
    r.rank--;
    return rlxp_reshape(e, y, r.rank, r.dims);
}

/* [B] to [B, m] (a per-matrix scalar against a row). */
static uint32_t widen(rlxp_emit *e, uint32_t s, const rlxp_val *row)
{
    int64_t map[1] = { 0 };
    rlxp_val to = *row;
    to.dt = rlxp_type_of(e, s)->dt;
    return rlxp_broadcast(e, s, &to, map);
}

uint32_t rlxp_emit_det(rlxp_emit *e, const rlx_node_view *n)
{
    uint32_t x = e->node_val[n->inputs[0]];
    if (x == RLXP_NONE)
        return x;
    const rlxp_val xv = *rlxp_type_of(e, x);
    int64_t m = xv.dims[xv.rank - 1];
    rlxp_val out = rlxp_val_of_node(n);
    int64_t b = rlxp_val_count(&out);
    if (m == 0 || b == 0) /* an empty matrix has determinant 1 */
        return rlxp_splat(e, &out, 1.0);
    if (m > RLXP_DET_MAX_M) {
        rlxp_fail(e, RLX_ERR_UNSUPPORTED, "pjrt: det '%s' of %lld x %lld "
                  "matrices; the bridge unrolls up to %d. Fix: run it on "
                  "another backend", n->name, (long long)m, (long long)m,
                  RLXP_DET_MAX_M);
        return RLXP_NONE;
    }
    int64_t d3[3] = { b, m, m };
    x = rlxp_reshape(e, rlxp_convert(e, x, RLX_DTYPE_F64), 3, d3);
    uint32_t rows[RLXP_DET_MAX_M] = { 0 };
    for (int64_t r = 0; r < m; r++)
        rows[r] = cut(e, x, r, r + 1, 1);
    const rlxp_val rowv = *rlxp_type_of(e, rows[0]);
    rlxp_val sv = rlxp_val_make(RLX_DTYPE_F64, 1, &b);
    rlxp_val iv = rlxp_val_make(RLX_DTYPE_I32, 1, &b);
    uint32_t det = rlxp_splat(e, &sv, 1.0);
    uint32_t zero = rlxp_splat(e, &sv, 0.0);
    uint32_t sing = zero; /* the result where a pivot was 0 */
    uint32_t done = rlxp_compare(e, zero, zero, "NE"); /* all false */
    for (int64_t c = 0; c < m && e->status == RLX_OK; c++) {
        /* the pivot: the largest |a[r][c]| from row c down, NaN wins */
        uint32_t pv = cut(e, rows[c], c, c + 1, 1);
        uint32_t piv = rlxp_splat(e, &iv, (double)c);
        for (int64_t r = c + 1; r < m; r++) {
            uint32_t a = cut(e, rows[r], c, c + 1, 1);
            uint32_t abs_a = rlxp_un(e, "stablehlo.abs", a);
            uint32_t more = rlxp_compare(e, abs_a,
                                         rlxp_un(e, "stablehlo.abs", pv),
                                         "GT");
            more = rlxp_bin(e, "stablehlo.or", more,
                            rlxp_compare(e, a, a, "NE"));
            pv = rlxp_select(e, more, a, pv);
            piv = rlxp_select(e, more, rlxp_splat(e, &iv, (double)r), piv);
        }
        uint32_t fresh = rlxp_un(e, "stablehlo.not", done);
        uint32_t hit = rlxp_bin(e, "stablehlo.and", fresh,
                                rlxp_compare(e, pv, zero, "EQ"));
        sing = rlxp_select(e, hit, rlxp_bin(e, "stablehlo.multiply", zero,
                                            det), sing);
        done = rlxp_bin(e, "stablehlo.or", done, hit);
        /* swap rows c and piv */
        uint32_t top = rows[c];
        for (int64_t r = c + 1; r < m; r++) {
            uint32_t is_r = widen(e, rlxp_compare(e, piv,
                                                  rlxp_splat(e, &iv,
                                                             (double)r),
                                                  "EQ"), &rowv);
            top = rlxp_select(e, is_r, rows[r], top);
            rows[r] = rlxp_select(e, is_r, rows[c], rows[r]);
        }
        rows[c] = top;
        uint32_t swapped = rlxp_compare(e, piv,
                                        rlxp_splat(e, &iv, (double)c), "NE");
        det = rlxp_select(e, swapped, rlxp_un(e, "stablehlo.negate", det),
                          det);
        det = rlxp_bin(e, "stablehlo.multiply", det, pv);
        /* eliminate below: row r -= (a[r][c] / pivot) * row c */
        for (int64_t r = c + 1; r < m; r++) {
            uint32_t f = rlxp_bin(e, "stablehlo.divide",
                                  cut(e, rows[r], c, c + 1, 1), pv);
            rows[r] = rlxp_bin(e, "stablehlo.subtract", rows[r],
                               rlxp_bin(e, "stablehlo.multiply",
                                        widen(e, f, &rowv), rows[c]));
        }
    }
    det = rlxp_select(e, done, sing, det);
    det = rlxp_reshape(e, det, out.rank, out.dims);
    return rlxp_convert(e, det, n->dtype);
}
