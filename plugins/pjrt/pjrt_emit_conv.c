/*
 * pjrt_emit_conv.c - conv and conv_transpose as one
 * stablehlo.convolution each, in f32 (f16 and bf16 round at the end).
 * Groups are feature_group_count; conv_transpose is the convolution of
 * the input dilated by the stride (lhs_dilation) with the kernel
 * reversed along its spatial axes and its feature axes swapped per
 * group, padded by extent - 1 - pad (plus output_padding at the end).
 * Strict precision asks for HIGHEST, as matmul does, so no TF32 sneaks
 * in. The sizes come from the plugin kit (rlx/kit_spatial.h), as in the
 * core's shape inference.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <rlx/kit_spatial.h>

#include "pjrt_emit.h"

void rlxp_cat(char *s, size_t size, const char *fmt, ...)
{
    size_t len = strlen(s);
    if (len + 1 >= size)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s + len, size - len, fmt, ap);
    va_end(ap);
}

void rlxp_cat_array(char *s, size_t size, const char *key, uint32_t n,
                    const int64_t *v)
{
    rlxp_cat(s, size, "%s%s = array<i64%s", s[0] ? ", " : "", key,
             n ? ": " : "");
    for (uint32_t i = 0; i < n; i++)
        rlxp_cat(s, size, "%s%lld", i ? ", " : "", (long long)v[i]);
    rlxp_cat(s, size, ">");
}

void rlxp_cat_padding(char *s, size_t size, uint32_t n, const int64_t *lo,
                      const int64_t *hi)
{
    rlxp_cat(s, size, "%spadding = dense<[", s[0] ? ", " : "");
    for (uint32_t i = 0; i < n; i++)
        rlxp_cat(s, size, "%s[%lld, %lld]", i ? ", " : "", (long long)lo[i],
                 (long long)hi[i]);
    rlxp_cat(s, size, "]> : tensor<%ux2xi64>", n);
}

int rlxp_spatial(rlxp_emit *e, const rlx_node_view *n, rlx_kit_spatial *sp)
{
    char err[256];
    uint32_t rank = e->g->nodes[n->inputs[0]]->rank;
    if (rlx_kit_spatial_parse(n->op, rank, n->n_int_attrs, n->int_attrs, sp,
                              err, sizeof err) != 0) {
        rlxp_fail(e, RLX_ERR_INVALID_ARGUMENT, "pjrt: node '%s': %s",
                  n->name, err);
        return -1;
    }
    return 0;
}

/* "[b, f, 0, 1]" for S spatial axes with the two leading letters. */
static void dims_spec(char *s, size_t size, char a, char b, uint32_t sn)
{
    rlxp_cat(s, size, "[%c, %c", a, b);
    for (uint32_t i = 0; i < sn; i++)
        rlxp_cat(s, size, ", %u", i);
    rlxp_cat(s, size, "]");
}

static uint32_t add_bias(rlxp_emit *e, const rlx_node_view *n, uint32_t y)
{
    if (n->n_inputs < 3)
        return y;
    uint32_t b = rlxp_in_f32(e, n, 2);
    int64_t map[1] = { 1 };
    return rlxp_bin(e, "stablehlo.add", y,
                    rlxp_broadcast(e, b, rlxp_type_of(e, y), map));
}

uint32_t rlxp_emit_conv(rlxp_emit *e, const rlx_node_view *n)
{
    uint32_t x = rlxp_in_f32(e, n, 0); /* in order: the text is compared */
    uint32_t y = rlxp_conv(e, n, x, rlxp_in_f32(e, n, 1));
    return rlxp_out(e, n, add_bias(e, n, y));
}

uint32_t rlxp_conv(rlxp_emit *e, const rlx_node_view *n, uint32_t x,
                   uint32_t w)
{
    rlx_kit_spatial sp;
    if (rlxp_spatial(e, n, &sp) != 0)
        return RLXP_NONE;
    if (x == RLXP_NONE || w == RLXP_NONE)
        return RLXP_NONE;
    const rlxp_val wv = *rlxp_type_of(e, w);
    uint32_t s = sp.s;
    int64_t g = sp.group;
    int64_t lo[RLX_KIT_SPATIAL_MAX], hi[RLX_KIT_SPATIAL_MAX];
    int64_t ones[RLX_KIT_SPATIAL_MAX];
    for (uint32_t i = 0; i < s; i++) {
        sp.kernel[i] = wv.dims[2 + i];
        ones[i] = 1;
        lo[i] = sp.pad_begin[i];
        hi[i] = sp.pad_end[i];
    }
    char attrs[1024] = "";
    const char *kspec = "oi";
    if (n->op == RLX_OP_CONV_TRANSPOSE) {
        /* w [C, M/g, k..]: reversed taps; per group [M/g, C/g] */
        int64_t rev[RLX_KIT_SPATIAL_MAX];
        for (uint32_t i = 0; i < s; i++) {
            int64_t ext = rlx_kit_spatial_extent(&sp, i);
            rev[i] = 2 + i;
            lo[i] = ext - 1 - sp.pad_begin[i];
            hi[i] = ext - 1 - sp.pad_end[i] + sp.out_pad[i];
        }
        char ra[256] = "";
        rlxp_cat_array(ra, sizeof ra, "dimensions", s, rev);
        rlxp_val r = wv;
        w = rlxp_op(e, "stablehlo.reverse", 1, &w, &r, ra);
        if (g == 1) {
            kspec = "io";
        } else {
            /* [C, M/g, k] -> [g, C/g, M/g, k] -> [g, M/g, C/g, k] ->
             * [M, C/g, k]; supports_node keeps this within rank 8 */
            int64_t c = wv.dims[0], mg = wv.dims[1];
            int64_t d[RLXP_MAX_RANK], perm[RLXP_MAX_RANK];
            d[0] = g;
            d[1] = c / g;
            d[2] = mg;
            perm[0] = 0;
            perm[1] = 2;
            perm[2] = 1;
            for (uint32_t i = 0; i < s; i++) {
                d[3 + i] = wv.dims[2 + i];
                perm[3 + i] = 3 + i;
            }
            w = rlxp_transpose(e, rlxp_reshape(e, w, s + 3, d), perm);
            d[0] = g * mg;
            d[1] = c / g;
            for (uint32_t i = 0; i < s; i++)
                d[2 + i] = wv.dims[2 + i];
            w = rlxp_reshape(e, w, s + 2, d);
        }
        rlxp_cat_array(attrs, sizeof attrs, "lhs_dilation", s, sp.stride);
        rlxp_cat_array(attrs, sizeof attrs, "window_strides", s, ones);
    } else {
        rlxp_cat_array(attrs, sizeof attrs, "lhs_dilation", s, ones);
        rlxp_cat_array(attrs, sizeof attrs, "window_strides", s, sp.stride);
    }
    rlxp_cat_array(attrs, sizeof attrs, "rhs_dilation", s, sp.dilation);
    rlxp_cat_padding(attrs, sizeof attrs, s, lo, hi);
    rlxp_cat(attrs, sizeof attrs, ", dimension_numbers = #stablehlo.conv<");
    dims_spec(attrs, sizeof attrs, 'b', 'f', s);
    rlxp_cat(attrs, sizeof attrs, "x");
    dims_spec(attrs, sizeof attrs, kspec[0], kspec[1], s);
    rlxp_cat(attrs, sizeof attrs, "->");
    dims_spec(attrs, sizeof attrs, 'b', 'f', s);
    const char *p = e->precision == RLX_PRECISION_STRICT ? "HIGHEST"
                                                         : "DEFAULT";
    rlxp_cat(attrs, sizeof attrs, ">, feature_group_count = %lld : i64, "
             "batch_group_count = 1 : i64, precision_config = "
             "[#stablehlo<precision %s>, #stablehlo<precision %s>]",
             (long long)g, p, p);
    rlxp_val res = rlxp_val_of_node(n);
    res.dt = rlxp_type_of(e, x)->dt;
    uint32_t ops[2] = { x, w };
    return rlxp_op(e, "stablehlo.convolution", 2, ops, &res, attrs);
}
