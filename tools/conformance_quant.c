/*
 * conformance_quant.c - random valid cases of the quantization ops for
 * `rlx conformance`: quantize_linear (per tensor, per axis, empty, and
 * saturating to i8), dequantize_linear, matmul_integer (per-row and
 * per-column zero points, batched, empty) and conv_integer (padding,
 * per-channel weight zero points). Results are integers, compared
 * exactly; dequantize's within the float tolerance.
 */
#include <string.h>

#include "cli.h"
#include "conformance.h"

static int64_t rnd(uint64_t *rng, int64_t lo, int64_t hi)
{
    return lo + (int64_t)(cli_rng_next(rng) % (uint64_t)(hi - lo + 1));
}

static int add(conf_case *c, rlx_dtype dt, uint32_t rank, const int64_t *dims,
               uint64_t *rng, double lo, double hi)
{
    cli_tensor *t = &c->inputs[c->n_inputs];
    if (cli_tensor_alloc(t, dt, rank, dims) != 0)
        return -1;
    c->n_inputs++;
    cli_tensor_fill_uniform(t, rng, lo, hi);
    return 0;
}

/* Integer data over DT's whole range (i8, u8), or small for i32. */
static int add_int(conf_case *c, rlx_dtype dt, uint32_t rank,
                   const int64_t *dims, uint64_t *rng)
{
    double lo = dt == RLX_DTYPE_U8 ? 0 : dt == RLX_DTYPE_I8 ? -128 : -1000;
    double hi = dt == RLX_DTYPE_U8 ? 255 : dt == RLX_DTYPE_I8 ? 127 : 1000;
    return add(c, dt, rank, dims, rng, lo, hi);
}

static int is_byte(rlx_dtype t)
{
    return t == RLX_DTYPE_I8 || t == RLX_DTYPE_U8;
}

int cli_conf_make_quantize(const conf_op *o, rlx_dtype dt, int which,
                           uint64_t *rng, conf_case *c)
{
    (void)o;
    int64_t d[2] = { rnd(rng, 1, 4), rnd(rng, 1, 5) };
    if (which == 2)
        d[0] = 0;
    int per_axis = which == 1;
    int64_t len = d[1];
    rlx_dtype zt = which == 3 ? RLX_DTYPE_I8 : RLX_DTYPE_U8;
    double span = which == 3 ? 1000 : 10;
    int64_t axis[1] = { 1 };
    c->exact = 1;
    c->n_ints = 1;
    memcpy(c->ints, axis, sizeof axis);
    if (add(c, dt, 2, d, rng, -span, span) ||
        add(c, dt, per_axis, &len, rng, 0.02, 0.5) ||
        add_int(c, zt, per_axis, &len, rng))
        return -1;
    return 0;
}

int cli_conf_make_dequantize(const conf_op *o, rlx_dtype dt, int which,
                             uint64_t *rng, conf_case *c)
{
    (void)o;
    if (!is_byte(dt) && dt != RLX_DTYPE_I32)
        return 1;
    int64_t d[2] = { rnd(rng, 1, 4), rnd(rng, 1, 5) };
    if (which == 2)
        d[1] = 0;
    int per_axis = which == 1 || which == 3;
    int64_t len = d[1];
    int64_t axis[1] = { 1 };
    c->n_ints = 1;
    memcpy(c->ints, axis, sizeof axis);
    if (add_int(c, dt, 2, d, rng) ||
        add(c, RLX_DTYPE_F32, per_axis, &len, rng, 0.01, 2))
        return -1;
    cli_tensor *z = &c->inputs[c->n_inputs];
    if (cli_tensor_alloc(z, dt, per_axis, &len) != 0)
        return -1;
    c->n_inputs++;
    /* an i32 x has zero point 0, as ONNX requires */
    if (dt != RLX_DTYPE_I32)
        cli_tensor_fill_uniform(z, rng, dt == RLX_DTYPE_U8 ? 0 : -128,
                                dt == RLX_DTYPE_U8 ? 255 : 127);
    return 0;
}

int cli_conf_make_matmul_integer(const conf_op *o, rlx_dtype dt, int which,
                                 uint64_t *rng, conf_case *c)
{
    (void)o;
    if (!is_byte(dt))
        return 1;
    int64_t m = rnd(rng, 1, 4), k = rnd(rng, 1, 6), n = rnd(rng, 1, 4);
    if (which == 2)
        m = 0;
    int64_t a3[3] = { 2, m, k }, b2[2] = { k, n };
    int batched = which == 3;
    c->exact = 1;
    if (add_int(c, dt, batched ? 3 : 2, batched ? a3 : a3 + 1, rng) ||
        add_int(c, dt, 2, b2, rng) ||
        add_int(c, dt, which == 1, &m, rng) ||
        add_int(c, dt, which == 1, &n, rng))
        return -1;
    return 0;
}

int cli_conf_make_conv_integer(const conf_op *o, rlx_dtype dt, int which,
                               uint64_t *rng, conf_case *c)
{
    (void)o;
    if (!is_byte(dt))
        return 1;
    int64_t ch = rnd(rng, 1, 3), m = rnd(rng, 1, 3);
    int64_t x[4] = { which == 2 ? 0 : 1, ch, rnd(rng, 2, 5), rnd(rng, 2, 5) };
    int64_t w[4] = { m, ch, rnd(rng, 1, 2), rnd(rng, 1, 2) };
    int64_t pad = which == 3 ? 1 : 0;
    /* group; strides; dilations; pads begin; pads end */
    int64_t a[9] = { 1, 1, 1, 1, 1, pad, pad, pad, pad };
    c->exact = 1;
    c->n_ints = 9;
    memcpy(c->ints, a, sizeof a);
    if (add_int(c, dt, 4, x, rng) || add_int(c, dt, 4, w, rng) ||
        add_int(c, dt, 0, NULL, rng) ||
        add_int(c, dt, which == 1 || which == 3, &m, rng))
        return -1;
    return 0;
}
