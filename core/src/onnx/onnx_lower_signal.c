/*
 * onnx_lower_signal.c - ONNX's signal ops composed from primitives. The
 * windows (Hann, Hamming, Blackman) and MelWeightMatrix depend only on
 * scalar inputs, so they are computed on the host as constants. DFT is a
 * pair of matmuls with constant cos and sin matrices (the length is known
 * when lowering), and STFT gathers the frames with a constant index
 * matrix, applies the window and runs the same DFT.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "onnx.h"

/* Host-made tables are bounded (a window of 16 M samples is plenty). */
#define TABLE_MAX (1LL << 24)

static const double two_pi = 6.283185307179586476925286766559;

static rlx_status add2(rlx__onnx_ctx *c, rlx_op op, rlx_value a, rlx_value b,
                       rlx_value *out)
{
    rlx_value v[2] = { a, b };
    return rlx__onnx_add(c, op, 2, v, NULL, 0, NULL, 0, out);
}

static rlx_status reshape(rlx__onnx_ctx *c, rlx_value x, uint32_t rank,
                          const int64_t *dims, rlx_value *out)
{
    return rlx__onnx_add(c, RLX_OP_RESHAPE, 1, &x, dims, rank, NULL, 0, out);
}

/* A known scalar input as a number; fails naming WHAT when unknown. */
static rlx_status known_scalar(rlx__onnx_ctx *c, const rlx__onnx_val *v,
                               const char *what, double *out)
{
    if (v && v->known && rlx__onnx_elements(v->rank, v->dims) == 1) {
        switch (v->dtype) {
        case RLX_DTYPE_F32: *out = *(const float *)v->data; return RLX_OK;
        case RLX_DTYPE_F64: *out = *(const double *)v->data; return RLX_OK;
        case RLX_DTYPE_I32: *out = *(const int32_t *)v->data; return RLX_OK;
        case RLX_DTYPE_I64:
            *out = (double)*(const int64_t *)v->data;
            return RLX_OK;
        case RLX_DTYPE_I8: *out = *(const int8_t *)v->data; return RLX_OK;
        case RLX_DTYPE_U8: *out = *(const uint8_t *)v->data; return RLX_OK;
        default: break;
        }
    }
    c->needs_value = 1;
    return rlx__onnx_fail(c, RLX_ERR_UNSUPPORTED,
                          "its %s input '%s' is not a known scalar when "
                          "lowering. Fix: make it a constant (or fix the "
                          "input's value)", what,
                          v && v->name ? v->name : "(missing)");
}

/* The output_datatype attribute (default float). */
static rlx_status out_dtype(rlx__onnx_ctx *c, rlx_dtype *dt)
{
    int64_t t = rlx__onnx_attr_int(c, "output_datatype",
                                   ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT);
    *dt = rlx__onnx_dtype((int32_t)t);
    if (*dt == RLX_DTYPE_INVALID || *dt == RLX_DTYPE_BOOL)
        return rlx__onnx_fail(c, RLX_ERR_UNSUPPORTED,
                              "output_datatype %s is not a numeric type "
                              "rlx has. Fix: use float", rlx__onnx_type_name(
                                  (int32_t)t));
    return RLX_OK;
}

/* OUT becomes the table VALS (RANK, DIMS) of DT: known data for f32 and
 * f64, else an f32 constant cast in the graph (as Cast converts). Takes
 * VALS. */
static rlx_status table_out(rlx__onnx_ctx *c, rlx__onnx_val *out,
                            rlx_dtype dt, uint32_t rank, const int64_t *dims,
                            double *vals)
{
    int64_t n = rlx__onnx_elements(rank, dims);
    if (dt == RLX_DTYPE_F64) {
        rlx__onnx_set_known(out, dt, rank, dims, vals);
        return RLX_OK;
    }
    float *f = malloc((size_t)(n ? n : 1) * sizeof *f);
    if (!f) {
        free(vals);
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    }
    for (int64_t i = 0; i < n; i++)
        f[i] = (float)vals[i];
    free(vals);
    if (dt == RLX_DTYPE_F32) {
        rlx__onnx_set_known(out, dt, rank, dims, f);
        return RLX_OK;
    }
    rlx_value k, r;
    rlx_status st = rlx__onnx_constant(c, RLX_DTYPE_F32, rank, dims, f, &k);
    free(f);
    int64_t to = dt;
    if (st != RLX_OK ||
        (st = rlx__onnx_add(c, RLX_OP_CAST, 1, &k, &to, 1, NULL, 0, &r)) !=
            RLX_OK)
        return st;
    return rlx__onnx_set_out(c, r, out);
}

/* ---- Hann, Hamming, Blackman windows ------------------------------------- */

enum { W_HANN, W_HAMMING, W_BLACKMAN };

static rlx_status lower_window(rlx__onnx_ctx *c, rlx__onnx_val **in,
                               uint32_t n_in, rlx__onnx_val *out,
                               uint32_t n_out)
{
    (void)n_out;
    double size;
    rlx_dtype dt;
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, 1);
    if (st != RLX_OK || (st = known_scalar(c, in[0], "size", &size)) !=
                            RLX_OK ||
        (st = out_dtype(c, &dt)) != RLX_OK)
        return st;
    if (size < 0 || size > (double)TABLE_MAX || size != floor(size))
        return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                              "size %g is not a whole number in [0, %lld]. "
                              "Fix: give a smaller window", size,
                              (long long)TABLE_MAX);
    int64_t n = (int64_t)size;
    /* periodic: the period is the size; symmetric: size - 1 */
    double period = rlx__onnx_attr_int(c, "periodic", 1) ? (double)n
                                                          : (double)(n - 1);
    double *v = malloc((size_t)(n ? n : 1) * sizeof *v);
    if (!v)
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    for (int64_t i = 0; i < n; i++) {
        double t = period > 0 ? two_pi * (double)i / period : 0;
        switch (c->row->arg) {
        case W_HANN: v[i] = 0.5 - 0.5 * cos(t); break;
        case W_HAMMING: v[i] = 25.0 / 46.0 - 21.0 / 46.0 * cos(t); break;
        default: v[i] = 0.42 - 0.5 * cos(t) + 0.08 * cos(2 * t); break;
        }
        if (period <= 0) /* a one-sample symmetric window is 1 */
            v[i] = 1.0;
    }
    return table_out(c, &out[0], dt, 1, &n, v);
}

/* ---- MelWeightMatrix ----------------------------------------------------- */

static double hz_to_mel(double hz)
{
    return 2595.0 * log10(1.0 + hz / 700.0);
}

/* [dft_length / 2 + 1, num_mel_bins]: triangular filters between mel
 * points spaced evenly from lower_edge to upper_edge, placed on DFT bins
 * floor((dft_length + 1) * hz / sample_rate). */
static rlx_status lower_mel(rlx__onnx_ctx *c, rlx__onnx_val **in,
                            uint32_t n_in, rlx__onnx_val *out,
                            uint32_t n_out)
{
    (void)n_out;
    double mels = 0, dft = 0, rate = 0, lo = 0, hi = 0;
    rlx_dtype dt;
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, 5);
    if (st != RLX_OK ||
        (st = known_scalar(c, in[0], "num_mel_bins", &mels)) != RLX_OK ||
        (st = known_scalar(c, in[1], "dft_length", &dft)) != RLX_OK ||
        (st = known_scalar(c, in[2], "sample_rate", &rate)) != RLX_OK ||
        (st = known_scalar(c, in[3], "lower_edge_hertz", &lo)) != RLX_OK ||
        (st = known_scalar(c, in[4], "upper_edge_hertz", &hi)) != RLX_OK ||
        (st = out_dtype(c, &dt)) != RLX_OK)
        return st;
    if (!(mels >= 1 && mels <= 65536 && dft >= 1 &&
          dft <= (double)TABLE_MAX && rate > 0 && lo >= 0 && hi >= lo &&
          (floor(dft) / 2 + 1) * floor(mels) <= (double)TABLE_MAX))
        return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                              "num_mel_bins %g, dft_length %g, sample_rate "
                              "%g or the edges [%g, %g] Hz are out of "
                              "range. Fix: give positive sizes and rate and "
                              "0 <= lower <= upper", mels, dft, rate, lo, hi);
    int64_t m = (int64_t)mels, nb = (int64_t)dft / 2 + 1;
    int64_t *bin = malloc((size_t)(m + 2) * sizeof *bin);
    double *v = calloc((size_t)(nb * m), sizeof *v);
    if (!bin || !v) {
        free(bin);
        free(v);
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    }
    double lmel = hz_to_mel(lo), step = (hz_to_mel(hi) - lmel) / (m + 2);
    int bad = 0;
    for (int64_t i = 0; i < m + 2; i++) {
        double hz = 700.0 * (pow(10.0, (i * step + lmel) / 2595.0) - 1.0);
        double b = floor(((int64_t)dft + 1) * hz / rate);
        bad |= !(b >= 0 && b < (double)nb);
        bin[i] = bad ? 0 : (int64_t)b;
    }
    for (int64_t i = 0; i < m && !bad; i++) {
        int64_t l = bin[i], ctr = bin[i + 1], r = bin[i + 2];
        if (ctr == l)
            v[ctr * m + i] = 1.0;
        for (int64_t j = l; ctr > l && j <= ctr; j++)
            v[j * m + i] = (double)(j - l) / (double)(ctr - l);
        for (int64_t j = ctr; r > ctr && j < r; j++)
            v[j * m + i] = (double)(r - j) / (double)(r - ctr);
    }
    free(bin);
    if (bad) {
        free(v);
        return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                              "upper_edge_hertz %g lies past the last of "
                              "the %lld DFT bins at sample rate %g. Fix: "
                              "keep the edges within sample_rate / 2", hi,
                              (long long)nb, rate);
    }
    int64_t dims[2] = { nb, m };
    return table_out(c, &out[0], dt, 2, dims, v);
}

/* ---- DFT ----------------------------------------------------------------- */

/* A constant [N, K] matrix of cos (SINE 0) or SIGN * sin of 2 pi j k / N,
 * times SCALE, of DT. */
static rlx_status trig(rlx__onnx_ctx *c, int64_t n, int64_t k, int sine,
                       double sign, double scale, rlx_dtype dt,
                       rlx_value *out)
{
    float *f = malloc((size_t)(n * k) * sizeof *f);
    if (!f)
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < k; i++) {
            /* (j * i) mod n keeps the angle exact for long transforms */
            double t = two_pi * (double)((j * i) % n) / (double)n;
            f[j * k + i] = (float)(scale * (sine ? sign * sin(t) : cos(t)));
        }
    int64_t dims[2] = { n, k };
    rlx_status st = rlx__onnx_constant(c, RLX_DTYPE_F32, 2, dims, f, out);
    free(f);
    int64_t to = dt;
    if (st == RLX_OK && dt != RLX_DTYPE_F32)
        st = rlx__onnx_add(c, RLX_OP_CAST, 1, out, &to, 1, NULL, 0, out);
    return st;
}

/* The DFT of X (RANK, DIMS; the last dim 1 real or 2 complex) along
 * AXIS (< rank - 1) at length N (truncated or zero-padded), the first
 * K = N or N / 2 + 1 (ONESIDED) frequencies: [..., K, ..., 2]. */
static rlx_status dft(rlx__onnx_ctx *c, rlx_value x, rlx_dtype dt,
                      uint32_t rank, const int64_t *dims, int64_t axis,
                      int64_t n, int inverse, int onesided, rlx_value *out)
{
    rlx_status st;
    int complex_in = dims[rank - 1] == 2;
    uint32_t r1 = rank - 1; /* the signal's rank */
    int64_t kk = onesided ? n / 2 + 1 : n;
    if (n < 1 || n * kk > TABLE_MAX)
        return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                              "DFT length %lld makes a transform matrix "
                              "past %lld elements. Fix: use a shorter "
                              "transform", (long long)n,
                              (long long)TABLE_MAX);
    /* real and imaginary parts as [..., L, ...] */
    rlx_value part[2];
    for (int p = 0; p < 1 + complex_in; p++) {
        int64_t sl[3] = { r1, p, p + 1 };
        rlx_value s = x;
        if (complex_in && (st = rlx__onnx_add(c, RLX_OP_SLICE, 1, &x, sl, 3,
                                              NULL, 0, &s)) != RLX_OK)
            return st;
        if ((st = reshape(c, s, r1, dims, &part[p])) != RLX_OK)
            return st;
    }
    /* the signal axis last */
    int64_t perm[RLX_MAX_RANK], sd[RLX_MAX_RANK];
    uint32_t k = 0;
    for (uint32_t i = 0; i < r1; i++)
        if ((int64_t)i != axis)
            perm[k++] = i;
    perm[k] = axis;
    for (uint32_t i = 0; i < r1; i++)
        sd[i] = dims[perm[i]];
    int moved = axis != (int64_t)r1 - 1;
    int64_t len = dims[axis];
    for (int p = 0; p < 1 + complex_in; p++) {
        st = RLX_OK;
        if (moved && (st = rlx__onnx_add(c, RLX_OP_TRANSPOSE, 1, &part[p],
                                         perm, r1, NULL, 0, &part[p])) !=
                         RLX_OK)
            return st;
        if (n < len) {
            int64_t sl[3] = { r1 - 1, 0, n };
            st = rlx__onnx_add(c, RLX_OP_SLICE, 1, &part[p], sl, 3, NULL, 0,
                               &part[p]);
        } else if (n > len) {
            int64_t pads[1 + 2 * RLX_MAX_RANK] = { 0 };
            pads[1 + 2 * r1 - 1] = n - len; /* the end of the last axis */
            st = rlx__onnx_add(c, RLX_OP_PAD, 1, &part[p], pads, 1 + 2 * r1,
                               NULL, 0, &part[p]);
        }
        if (st != RLX_OK)
            return st;
    }
    /* (xr + i xi)(C + i T), T = -S forward, +S / n inverse */
    double scale = inverse ? 1.0 / (double)n : 1.0;
    double sign = inverse ? 1.0 : -1.0;
    rlx_value cm, tm, yr, yi, t;
    if ((st = trig(c, n, kk, 0, 1.0, scale, dt, &cm)) != RLX_OK ||
        (st = trig(c, n, kk, 1, sign, scale, dt, &tm)) != RLX_OK ||
        (st = add2(c, RLX_OP_MATMUL, part[0], cm, &yr)) != RLX_OK ||
        (st = add2(c, RLX_OP_MATMUL, part[0], tm, &yi)) != RLX_OK)
        return st;
    if (complex_in &&
        ((st = add2(c, RLX_OP_MATMUL, part[1], tm, &t)) != RLX_OK ||
         (st = add2(c, RLX_OP_SUB, yr, t, &yr)) != RLX_OK ||
         (st = add2(c, RLX_OP_MATMUL, part[1], cm, &t)) != RLX_OK ||
         (st = add2(c, RLX_OP_ADD, yi, t, &yi)) != RLX_OK))
        return st;
    /* [..., K, 1] twice, joined on a new last axis, then the axis back */
    sd[r1 - 1] = kk;
    sd[r1] = 1;
    int64_t last = r1;
    rlx_value both[2];
    if ((st = reshape(c, yr, rank, sd, &both[0])) != RLX_OK ||
        (st = reshape(c, yi, rank, sd, &both[1])) != RLX_OK ||
        (st = rlx__onnx_add(c, RLX_OP_CONCAT, 2, both, &last, 1, NULL, 0,
                            out)) != RLX_OK)
        return st;
    if (!moved)
        return RLX_OK;
    int64_t back[RLX_MAX_RANK];
    for (uint32_t i = 0; i < r1; i++)
        back[perm[i]] = i;
    back[r1] = r1;
    return rlx__onnx_add(c, RLX_OP_TRANSPOSE, 1, out, back, rank, NULL, 0,
                         out);
}

/* Opset 17: axis an attribute (default 1); 20: an input (default -2). */
static rlx_status lower_dft(rlx__onnx_ctx *c, rlx__onnx_val **in,
                            uint32_t n_in, rlx__onnx_val *out,
                            uint32_t n_out)
{
    (void)n_out;
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, 1);
    if (st != RLX_OK || (st = rlx__onnx_need_float(c, in[0])) != RLX_OK)
        return st;
    const rlx__onnx_val *xv = in[0];
    uint32_t rank = xv->rank;
    if (rank < 2 || (xv->dims[rank - 1] != 1 && xv->dims[rank - 1] != 2))
        return rlx__onnx_fail(c, RLX_ERR_SHAPE,
                              "the input must be [..., 1] (real) or [..., 2] "
                              "(complex) of rank >= 2. Fix: add the last "
                              "axis");
    double a = c->row->arg ? -2 : 1;
    if (c->row->arg && n_in > 2 && in[2] &&
        (st = known_scalar(c, in[2], "axis", &a)) != RLX_OK)
        return st;
    if (!c->row->arg)
        a = (double)rlx__onnx_attr_int(c, "axis", 1);
    if (!(a == floor(a) && a > -64 && a < 64))
        return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                              "axis %g is not an axis of a rank-%u input. "
                              "Fix: name a signal axis", a, rank);
    int64_t axis;
    if ((st = rlx__onnx_axis(c, (int64_t)a, rank, &axis)) != RLX_OK)
        return st;
    if (axis == (int64_t)rank - 1)
        return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                              "axis %lld is the real/imaginary axis. Fix: "
                              "name a signal axis", (long long)a);
    double n = (double)xv->dims[axis];
    if (n_in > 1 && in[1] && (st = known_scalar(c, in[1], "dft_length",
                                                &n)) != RLX_OK)
        return st;
    if (!(n >= 1 && n <= (double)TABLE_MAX))
        return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                              "dft_length %g is not in [1, %lld]. Fix: give "
                              "a positive length", n, (long long)TABLE_MAX);
    int inverse = rlx__onnx_attr_int(c, "inverse", 0) != 0;
    int onesided = rlx__onnx_attr_int(c, "onesided", 0) != 0;
    if (onesided && (inverse || xv->dims[rank - 1] == 2))
        return rlx__onnx_fail(c, RLX_ERR_UNSUPPORTED,
                              "onesided applies to a forward transform of "
                              "real input only. Fix: set onesided 0");
    rlx_value x, r;
    if ((st = rlx__onnx_node_value(c, in[0], &x)) != RLX_OK ||
        (st = dft(c, x, xv->dtype, rank, xv->dims, axis, (int64_t)n,
                  inverse, onesided, &r)) != RLX_OK)
        return st;
    return rlx__onnx_set_out(c, r, &out[0]);
}

/* ---- STFT ---------------------------------------------------------------- */

/* signal [B, L, 1|2], frame_step, window [W]?, frame_length? ->
 * [B, frames, K, 2], frames = 1 + (L - W) / step. */
static rlx_status lower_stft(rlx__onnx_ctx *c, rlx__onnx_val **in,
                             uint32_t n_in, rlx__onnx_val *out,
                             uint32_t n_out)
{
    (void)n_out;
    double step, flen = -1;
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, 2);
    if (st != RLX_OK || (st = rlx__onnx_need_float(c, in[0])) != RLX_OK ||
        (st = known_scalar(c, in[1], "frame_step", &step)) != RLX_OK)
        return st;
    const rlx__onnx_val *xv = in[0];
    const rlx__onnx_val *wv = n_in > 2 ? in[2] : NULL;
    if (n_in > 3 && in[3] &&
        (st = known_scalar(c, in[3], "frame_length", &flen)) != RLX_OK)
        return st;
    if (xv->rank != 3 || (xv->dims[2] != 1 && xv->dims[2] != 2))
        return rlx__onnx_fail(c, RLX_ERR_SHAPE,
                              "the signal must be [batch, length, 1 or 2]. "
                              "Fix: check the signal's shape");
    if (wv && (wv->rank != 1 || (flen >= 0 && flen != (double)wv->dims[0])))
        return rlx__onnx_fail(c, RLX_ERR_SHAPE,
                              "the window must be 1-D with frame_length "
                              "samples. Fix: check the window");
    if (wv && wv->dtype != xv->dtype)
        return rlx__onnx_fail(c, RLX_ERR_DTYPE,
                              "the window is %s, the signal %s. Fix: give "
                              "both one type", rlx_dtype_name(wv->dtype),
                              rlx_dtype_name(xv->dtype));
    if (flen < 0)
        flen = wv ? (double)wv->dims[0] : -1;
    int64_t len = xv->dims[1];
    if (!(flen >= 1 && step >= 1 && flen <= (double)len))
        return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                              "frame_length %g (from the window or the "
                              "input) must be in [1, %lld] and frame_step "
                              "%g at least 1. Fix: give a window or "
                              "frame_length that fits the signal", flen,
                              (long long)len, step);
    int onesided = rlx__onnx_attr_int(c, "onesided", 1) != 0;
    if (onesided && xv->dims[2] == 2)
        return rlx__onnx_fail(c, RLX_ERR_UNSUPPORTED,
                              "onesided applies to real signals only. Fix: "
                              "set onesided 0");
    /* a step past the signal still makes one frame */
    int64_t fl = (int64_t)flen,
            st_ = step > (double)len ? len : (int64_t)step;
    int64_t frames = 1 + (len - fl) / st_;
    if (frames * fl > TABLE_MAX)
        return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                              "%lld frames of %lld samples are too many. "
                              "Fix: use a larger frame_step",
                              (long long)frames, (long long)fl);
    int64_t *idx = malloc((size_t)(frames * fl) * sizeof *idx);
    if (!idx)
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    for (int64_t f = 0; f < frames; f++)
        for (int64_t j = 0; j < fl; j++)
            idx[f * fl + j] = f * st_ + j;
    int64_t id[2] = { frames, fl };
    rlx_value x, iv, fr, r;
    st = rlx__onnx_constant(c, RLX_DTYPE_I64, 2, id, idx, &iv);
    free(idx);
    int64_t one = 1;
    rlx_value g[2];
    if (st != RLX_OK || (st = rlx__onnx_node_value(c, in[0], &x)) != RLX_OK)
        return st;
    g[0] = x;
    g[1] = iv;
    if ((st = rlx__onnx_add(c, RLX_OP_GATHER, 2, g, &one, 1, NULL, 0,
                            &fr)) != RLX_OK)
        return st;
    if (wv) { /* [W] -> [W, 1] against [B, frames, W, c] */
        rlx_value w;
        int64_t wd[2] = { fl, 1 };
        if ((st = rlx__onnx_node_value(c, in[2], &w)) != RLX_OK ||
            (st = reshape(c, w, 2, wd, &w)) != RLX_OK ||
            (st = add2(c, RLX_OP_MUL, fr, w, &fr)) != RLX_OK)
            return st;
    }
    int64_t fd[4] = { xv->dims[0], frames, fl, xv->dims[2] };
    if ((st = dft(c, fr, xv->dtype, 4, fd, 2, fl, 0, onesided, &r)) !=
        RLX_OK)
        return st;
    return rlx__onnx_set_out(c, r, &out[0]);
}

const rlx__onnx_op rlx__onnx_ops_signal[] = {
    { "HannWindow", 17, lower_window, W_HANN },
    { "HammingWindow", 17, lower_window, W_HAMMING },
    { "BlackmanWindow", 17, lower_window, W_BLACKMAN },
    { "MelWeightMatrix", 17, lower_mel, 0 },
    { "DFT", 17, lower_dft, 0 },
    { "DFT", 20, lower_dft, 1 },
    { "STFT", 17, lower_stft, 0 },
    { NULL, 0, NULL, 0 }
};
