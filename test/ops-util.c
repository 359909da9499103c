/*
 * ops-util.c - the helpers the test-ops-*.c programs share (ops-util.h):
 * one op run on cpu-ref through the public API, the value checks, the
 * deterministic inputs, and the test's own 16-bit float rounding.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rlx/rlx.h>

#include "harness.h"
#include "ops-util.h"

/* ---- running one op -------------------------------------------------- */

size_t count_of(uint32_t rank, const int64_t *dims)
{
    size_t n = 1;
    for (uint32_t i = 0; i < rank; i++)
        n *= (size_t)dims[i];
    return n;
}

/* Something valid to point at for an empty tensor. */
const float empty_data[1] = { 0.0f };

const float m23[6] = { -2.5f, -1.0f, 0.0f, 0.5f, 1.25f, 3.0f };
const float v3[3] = { 0.5f, -2.0f, 4.0f };

char run_error[1024];

/* ops-util.h says what each of these does. */
rlx_status run_any_try(rlx_op op, uint32_t n, const source *in,
                       const rlx_attrs *attrs, result *out)
{
    rlx_runtime *rt = NULL;
    rlx_graph *g = NULL;
    rlx_session *s = NULL;
    rlx_program *p = NULL;
    rlx_value v[MAX_SOURCES], y;
    rlx_status st;
    const char *step = "";
    memset(out, 0, sizeof *out);

#define TRY(expr)                                                           \
    do {                                                                    \
        step = #expr;                                                       \
        if ((st = (expr)) != RLX_OK)                                        \
            goto done;                                                      \
    } while (0)

    step = "too many sources";
    st = RLX_ERR_INVALID_ARGUMENT;
    if (n > MAX_SOURCES)
        goto done;
    TRY(rlx_runtime_create(&rt, RLX_RUNTIME_NO_DISCOVERY));
    TRY(rlx_graph_create(&g));
    for (uint32_t i = 0; i < n; i++) {
        char name[16];
        snprintf(name, sizeof name, "x%u", i);
        if (in[i].kind == 'p')
            TRY(rlx_graph_param(g, name, in[i].dtype, in[i].rank,
                                in[i].dims, &v[i]));
        else if (in[i].kind == 'c')
            TRY(rlx_graph_constant(g, name, in[i].dtype, in[i].rank,
                                   in[i].dims, in[i].data, &v[i]));
        else
            TRY(rlx_graph_input(g, name, in[i].dtype, in[i].rank,
                                in[i].dims, &v[i]));
    }
    TRY(rlx_graph_add_node(g, "op", op, n, v, attrs, &y));
    TRY(rlx_graph_output(g, "y", y));
    TRY(rlx_session_create(rt, "cpu-ref", &s));
    TRY(rlx_session_compile(s, g, &p));
    for (uint32_t i = 0; i < n; i++) {
        char name[16];
        size_t nbytes = count_of(in[i].rank, in[i].dims) *
                        rlx_dtype_size(in[i].dtype);
        snprintf(name, sizeof name, "x%u", i);
        if (in[i].kind == 'p')
            TRY(rlx_program_set_param(p, name, in[i].data, nbytes));
        else if (in[i].kind != 'c')
            TRY(rlx_program_set_input(p, name, in[i].data, nbytes));
    }
    TRY(rlx_program_run(p));

    const int64_t *dims = NULL;
    step = "rlx_program_slot(output 0)";
    TRY(rlx_program_slot(p, RLX_SLOT_OUTPUT, 0, NULL, &out->dtype,
                         &out->rank, &dims));
    if (out->rank > MAX_RANK) {
        st = RLX_ERR_SHAPE;
        goto done;
    }
    memcpy(out->dims, dims, out->rank * sizeof *dims);
    size_t nbytes = 0;
    const void *data = rlx_program_output_data(p, 0, &nbytes);
    step = "rlx_program_output_data";
    if (nbytes != count_of(out->rank, out->dims) * rlx_dtype_size(out->dtype) ||
        (nbytes && !data)) {
        st = RLX_ERR_INTERNAL;
        goto done;
    }
    out->data = malloc(nbytes ? nbytes : 1);
    if (!out->data) {
        st = RLX_ERR_OUT_OF_MEMORY;
        goto done;
    }
    if (nbytes)
        memcpy(out->data, data, nbytes);
    out->nbytes = nbytes;
    st = RLX_OK;
#undef TRY

done:
    if (st != RLX_OK)
        snprintf(run_error, sizeof run_error, "%s: %s (%s)", step,
                 rlx_status_name(st), rlx_last_error());
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_graph_destroy(g);
    rlx_runtime_destroy(rt);
    return st;
}

/* The last output run_op or run_any returned; freed by the next call and
 * at exit. */
static void *last_output;

static void free_last_output(void)
{
    free(last_output);
    last_output = NULL;
}

const result *run_any(rlx_op op, uint32_t n, const source *in,
                      const rlx_attrs *attrs)
{
    static int registered;
    static result r;
    if (!registered)
        registered = atexit(free_last_output) == 0;
    free_last_output();
    if (run_any_try(op, n, in, attrs, &r) != RLX_OK)
        FAIL("%s failed: %s", rlx_op_name(op), run_error);
    last_output = r.data;
    return &r;
}

/* An f32 run: KINDS[i] is how tensor i enters the graph. */
const float *run_op_kinds(rlx_op op, const char *kinds, uint32_t n,
                          const tensor *in, const rlx_attrs *attrs,
                          tensor *out_shape)
{
    source srcs[MAX_SOURCES];
    ASSERT(n <= MAX_SOURCES);
    for (uint32_t i = 0; i < n; i++) {
        memset(&srcs[i], 0, sizeof srcs[i]);
        srcs[i].kind = kinds[i];
        srcs[i].dtype = RLX_DTYPE_F32;
        srcs[i].rank = in[i].rank;
        memcpy(srcs[i].dims, in[i].dims, sizeof srcs[i].dims);
        srcs[i].data = in[i].data;
    }
    const result *r = run_any(op, n, srcs, attrs);
    ASSERT_EQ(r->dtype, RLX_DTYPE_F32);
    memset(out_shape, 0, sizeof *out_shape);
    out_shape->rank = r->rank;
    memcpy(out_shape->dims, r->dims, r->rank * sizeof *r->dims);
    out_shape->data = r->data;
    return r->data;
}

const float *run_op(rlx_op op, uint32_t n, const tensor *in,
                    const rlx_attrs *attrs, tensor *out_shape)
{
    return run_op_kinds(op, "iiiiiiii", n, in, attrs, out_shape);
}

/* GOT is EXPECT rounded to float, within REL relative error. */
int close_enough(float got, double expect, double rel)
{
    if (isnan(expect))
        return isnan(got);
    if (expect > FLT_MAX || expect < -FLT_MAX || isinf(expect))
        return isinf(got) && (got > 0) == (expect > 0);
    return fabs((double)got - expect) <= rel * fabs(expect) +
                                             8 * (double)FLT_TRUE_MIN;
}

/* Compare N outputs with tolerance REL (plus ABS for sums that cancel). */
void check_values(const char *what, const float *got,
                  const double *expect, size_t n, double rel,
                  double abs_tol)
{
    for (size_t i = 0; i < n; i++) {
        int ok = close_enough(got[i], expect[i], rel) ||
                 fabs((double)got[i] - expect[i]) <= abs_tol;
        if (!ok)
            FAIL("%s: element %zu is %.9g, expected %.9g", what, i,
                 (double)got[i], expect[i]);
    }
}

tensor make(uint32_t rank, const int64_t *dims, const float *data)
{
    tensor t;
    memset(&t, 0, sizeof t);
    t.rank = rank;
    if (rank)
        memcpy(t.dims, dims, rank * sizeof *dims);
    t.data = data ? data : empty_data;
    return t;
}

/* Deterministic values in [-scale, scale], not all integers. */
float *pattern(size_t n, float scale, unsigned seed)
{
    float *x = malloc((n ? n : 1) * sizeof *x);
    if (!x)
        FAIL("out of memory");
    for (size_t i = 0; i < n; i++) {
        unsigned h = (unsigned)(i * 2654435761u + seed * 40503u) % 1000u;
        x[i] = scale * ((float)h / 500.0f - 1.0f);
    }
    return x;
}

/* ---- any dtype ------------------------------------------------------- */

source src(char kind, rlx_dtype dtype, uint32_t rank,
           const int64_t *dims, const void *data)
{
    source s;
    memset(&s, 0, sizeof s);
    s.kind = kind;
    s.dtype = dtype;
    s.rank = rank;
    if (rank)
        memcpy(s.dims, dims, rank * sizeof *dims);
    s.data = data ? data : (const void *)empty_data;
    return s;
}

source f32in(uint32_t rank, const int64_t *dims, const float *data)
{
    return src('i', RLX_DTYPE_F32, rank, dims, data);
}

/* Row-major index of flat position E in (R, DIMS). */
void unravel(size_t e, uint32_t r, const int64_t *dims, int64_t *idx)
{
    for (uint32_t d = r; d-- > 0;) {
        idx[d] = (int64_t)(e % (size_t)dims[d]);
        e /= (size_t)dims[d];
    }
}

size_t ravel(uint32_t r, const int64_t *dims, const int64_t *idx)
{
    size_t off = 0;
    for (uint32_t d = 0; d < r; d++)
        off = off * (size_t)dims[d] + (size_t)idx[d];
    return off;
}

/*
 * Rounding to the 16-bit floats, written independently of the backend:
 * scale by a power of two (exact) so the kept bits are the integer part,
 * then nearbyint (ties to even in the default rounding mode).
 */
static uint16_t ref_round16(double x, int mant, int ebits)
{
    int bias = (1 << (ebits - 1)) - 1, emin = 1 - bias;
    uint16_t sign = signbit(x) ? 0x8000 : 0;
    uint16_t inf = (uint16_t)(((1 << ebits) - 1) << mant);
    if (isnan(x))
        return (uint16_t)(sign | inf | (1 << (mant - 1)));
    double a = fabs(x);
    if (isinf(a))
        return sign | inf;
    if (a == 0)
        return sign;
    int e;
    frexp(a, &e);
    e -= 1; /* a in [2^e, 2^(e+1)) */
    if (e < emin)
        e = emin;
    double m = nearbyint(ldexp(a, mant - e));
    if (m >= ldexp(1.0, mant + 1)) {
        m /= 2;
        e++;
    }
    if (e > bias)
        return sign | inf;
    if (m < ldexp(1.0, mant))
        return (uint16_t)(sign | (uint16_t)m); /* subnormal */
    return (uint16_t)(sign | (uint16_t)((e + bias) << mant) |
                      (uint16_t)(m - ldexp(1.0, mant)));
}

uint16_t ref_f16(double x) { return ref_round16(x, 10, 5); }
uint16_t ref_bf16(double x) { return ref_round16(x, 7, 8); }

double ref_f16_value(uint16_t h)
{
    int e = (h >> 10) & 31, f = h & 1023;
    double v = e == 31 ? (f ? NAN : INFINITY)
               : e == 0 ? ldexp(f, -24) : ldexp(1024 + f, e - 25);
    return h & 0x8000 ? -v : v;
}

double ref_bf16_value(uint16_t h)
{
    uint32_t bits = (uint32_t)h << 16;
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

uint16_t ref_half(rlx_dtype t, double x)
{
    return t == RLX_DTYPE_F16 ? ref_f16(x) : ref_bf16(x);
}

double ref_half_value(rlx_dtype t, uint16_t h)
{
    return t == RLX_DTYPE_F16 ? ref_f16_value(h) : ref_bf16_value(h);
}

/* Cast N values of dtype FROM at X to TO; returns the result bytes. */
const void *cast_run(rlx_dtype from, rlx_dtype to, size_t n,
                     const void *x)
{
    int64_t t = to;
    rlx_attrs attrs = { 1, &t, 0, NULL };
    source in = src('i', from, 1, DIMS((int64_t)n), x);
    const result *y = run_any(RLX_OP_CAST, 1, &in, &attrs);
    ASSERT_EQ(y->dtype, to);
    ASSERT_RSHAPE(y, 1, (int64_t)n);
    return y->data;
}
