/*
 * test-ops.c - every op of the reference CPU backend, through the public
 * API, against expected values computed here in double precision.
 *
 * The expectations are written independently of the backend (plain loops
 * that unravel indices, libm in double), so a kernel bug cannot hide
 * behind a shared helper.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rlx/rlx.h>

#include "harness.h"

#define MAX_RANK 6
#define REL_TOL 1e-5

/* ---- helpers --------------------------------------------------------- */

/* A tensor given to or returned by run_op. */
typedef struct tensor {
    uint32_t rank;
    int64_t dims[MAX_RANK];
    const float *data;
} tensor;

static size_t count_of(uint32_t rank, const int64_t *dims)
{
    size_t n = 1;
    for (uint32_t i = 0; i < rank; i++)
        n *= (size_t)dims[i];
    return n;
}

/* Something valid to point at for an empty tensor. */
static const float empty_data[1] = { 0.0f };

/*
 * Build a graph with one node OP over N sources of any dtype, compile it
 * on cpu-ref, run it and return a malloc'd copy of the output with its
 * dtype and shape. A source's KIND says how it enters the graph: 'i'
 * input, 'p' param, 'c' constant. Everything is freed before any failure
 * is reported, so a failing case does not leak either.
 */
static char run_error[1024];

#define MAX_SOURCES 8

typedef struct source {
    char kind;
    rlx_dtype dtype;
    uint32_t rank;
    int64_t dims[MAX_RANK];
    const void *data;
} source;

typedef struct result {
    rlx_dtype dtype;
    uint32_t rank;
    int64_t dims[MAX_RANK];
    void *data; /* malloc'd */
    size_t nbytes;
} result;

static rlx_status run_any_try(rlx_op op, uint32_t n, const source *in,
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

static const result *run_any(rlx_op op, uint32_t n, const source *in,
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
static const float *run_op_kinds(rlx_op op, const char *kinds, uint32_t n,
                                 const tensor *in, const rlx_attrs *attrs,
                                 tensor *out_shape)
{
    source src[MAX_SOURCES];
    ASSERT(n <= MAX_SOURCES);
    for (uint32_t i = 0; i < n; i++) {
        memset(&src[i], 0, sizeof src[i]);
        src[i].kind = kinds[i];
        src[i].dtype = RLX_DTYPE_F32;
        src[i].rank = in[i].rank;
        memcpy(src[i].dims, in[i].dims, sizeof src[i].dims);
        src[i].data = in[i].data;
    }
    const result *r = run_any(op, n, src, attrs);
    ASSERT_EQ(r->dtype, RLX_DTYPE_F32);
    memset(out_shape, 0, sizeof *out_shape);
    out_shape->rank = r->rank;
    memcpy(out_shape->dims, r->dims, r->rank * sizeof *r->dims);
    out_shape->data = r->data;
    return r->data;
}

static const float *run_op(rlx_op op, uint32_t n, const tensor *in,
                           const rlx_attrs *attrs, tensor *out_shape)
{
    return run_op_kinds(op, "iiiiiiii", n, in, attrs, out_shape);
}

/* GOT is EXPECT rounded to float, within REL relative error. */
static int close_enough(float got, double expect, double rel)
{
    if (isnan(expect))
        return isnan(got);
    if (expect > FLT_MAX || expect < -FLT_MAX || isinf(expect))
        return isinf(got) && (got > 0) == (expect > 0);
    return fabs((double)got - expect) <= rel * fabs(expect) +
                                             8 * (double)FLT_TRUE_MIN;
}

#define ASSERT_SHAPE(t, r, ...)                                             \
    do {                                                                    \
        const int64_t rlx__want[] = { __VA_ARGS__ };                        \
        ASSERT_EQ((t).rank, (r));                                           \
        for (uint32_t rlx__i = 0; rlx__i < (r); rlx__i++)                   \
            ASSERT_EQ((t).dims[rlx__i], rlx__want[rlx__i]);                 \
    } while (0)

/* Compare N outputs with tolerance REL (plus ABS for sums that cancel). */
static void check_values(const char *what, const float *got,
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

static tensor make(uint32_t rank, const int64_t *dims, const float *data)
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
static float *pattern(size_t n, float scale, unsigned seed)
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

/* ---- unary ----------------------------------------------------------- */

static double ref_sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }

static double ref_unary(rlx_op op, int approx, double x)
{
    const double pi = 3.14159265358979323846;
    switch (op) {
    case RLX_OP_RELU: return x > 0 ? x : 0;
    case RLX_OP_GELU:
        if (approx)
            return 0.5 * x *
                   (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x * x * x)));
        return 0.5 * x * (1 + erf(x / sqrt(2.0)));
    case RLX_OP_SIGMOID: return ref_sigmoid(x);
    case RLX_OP_TANH: return tanh(x);
    case RLX_OP_EXP: return exp(x);
    case RLX_OP_SIN: return sin(x);
    case RLX_OP_COS: return cos(x);
    case RLX_OP_NEG: return -x;
    case RLX_OP_ABS: return x < 0 ? -x : x;
    case RLX_OP_LOG: return log(x);
    case RLX_OP_SQRT: return sqrt(x);
    case RLX_OP_RSQRT: return 1 / sqrt(x);
    case RLX_OP_SILU: return x * ref_sigmoid(x);
    case RLX_OP_TAN: return tan(x);
    case RLX_OP_ATAN: return atan(x);
    default: return NAN;
    }
}

static const float spread[] = { -100.0f, -20.0f, -3.5f, -1.0f, -0.5f,
                                -1e-3f,  0.0f,   1e-3f, 0.5f,  1.0f,
                                2.0f,    3.5f,   20.0f, 100.0f };
static const float positive[] = { 1e-30f, 1e-3f, 0.25f, 0.5f, 1.0f,
                                  2.0f,   3.5f,  20.0f, 100.0f, 1e30f };

/* Run unary OP on the values X (as a [2, n/2] tensor when n is even, to
 * use a rank above 1) and compare with ref_unary. */
static void check_unary_values(rlx_op op, int approx, const rlx_attrs *attrs,
                               const float *x, size_t n)
{
    int64_t dims[2] = { 2, (int64_t)(n / 2) };
    tensor in = n % 2 == 0 ? make(2, dims, x)
                           : make(1, (int64_t[]){ (int64_t)n }, x);
    tensor out;
    const float *y = run_op(op, 1, &in, attrs, &out);
    ASSERT_EQ(out.rank, in.rank);
    for (uint32_t i = 0; i < in.rank; i++)
        ASSERT_EQ(out.dims[i], in.dims[i]);
    double expect[64];
    ASSERT(n <= 64);
    for (size_t i = 0; i < n; i++)
        expect[i] = ref_unary(op, approx, (double)x[i]);
    check_values(rlx_op_name(op), y, expect, n, REL_TOL, 0);
}

#define N_OF(a) (sizeof(a) / sizeof *(a))

static void check_unary(rlx_op op)
{
    check_unary_values(op, 0, NULL, spread, N_OF(spread));
}

TEST(relu) { check_unary(RLX_OP_RELU); }
TEST(sigmoid) { check_unary(RLX_OP_SIGMOID); }
TEST(tanh) { check_unary(RLX_OP_TANH); }
TEST(neg) { check_unary(RLX_OP_NEG); }
TEST(abs) { check_unary(RLX_OP_ABS); }
TEST(silu) { check_unary(RLX_OP_SILU); }
TEST(atan) { check_unary(RLX_OP_ATAN); }

TEST(exp)
{
    /* exp(100) overflows f32 to +inf; exp(-100) is an f32 subnormal. */
    static const float x[] = { -100.0f, -87.0f, -3.5f, -1.0f, 0.0f,
                               1e-3f,   1.0f,   20.0f, 88.0f, 100.0f };
    check_unary_values(RLX_OP_EXP, 0, NULL, x, N_OF(x));
    check_unary(RLX_OP_EXP);
}

TEST(sin_cos)
{
    static const float x[] = { -1e4f, -100.0f, -3.14159f, -1.0f, 0.0f,
                               0.5f,  1.5707964f, 3.0f, 100.0f, 1e4f };
    check_unary_values(RLX_OP_SIN, 0, NULL, x, N_OF(x));
    check_unary_values(RLX_OP_COS, 0, NULL, x, N_OF(x));
}

TEST(tan)
{
    static const float x[] = { -1.5f, -1.0f, -0.5f, 0.0f, 0.25f,
                               0.5f,  1.0f,  1.5f,  3.0f, 100.0f };
    check_unary_values(RLX_OP_TAN, 0, NULL, x, N_OF(x));
}

TEST(log)
{
    check_unary_values(RLX_OP_LOG, 0, NULL, positive, N_OF(positive));
    static const float zero[] = { 0.0f }; /* -inf */
    check_unary_values(RLX_OP_LOG, 0, NULL, zero, 1);
}

TEST(sqrt)
{
    check_unary_values(RLX_OP_SQRT, 0, NULL, positive, N_OF(positive));
    static const float zero[] = { 0.0f };
    check_unary_values(RLX_OP_SQRT, 0, NULL, zero, 1);
}

TEST(rsqrt)
{
    check_unary_values(RLX_OP_RSQRT, 0, NULL, positive, N_OF(positive));
}

TEST(gelu_erf)
{
    int64_t form = RLX_GELU_ERF;
    rlx_attrs attrs = { 1, &form, 0, NULL };
    check_unary_values(RLX_OP_GELU, 0, &attrs, spread, N_OF(spread));
    /* No attributes: erf is the default. */
    check_unary_values(RLX_OP_GELU, 0, NULL, spread, N_OF(spread));
    static const float mid[] = { -5.0f, -2.0f, -0.7f, 0.3f, 1.7f, 4.0f };
    check_unary_values(RLX_OP_GELU, 0, NULL, mid, N_OF(mid));
}

TEST(gelu_tanh)
{
    int64_t form = RLX_GELU_TANH;
    rlx_attrs attrs = { 1, &form, 0, NULL };
    check_unary_values(RLX_OP_GELU, 1, &attrs, spread, N_OF(spread));
    static const float mid[] = { -5.0f, -2.0f, -0.7f, 0.3f, 1.7f, 4.0f };
    check_unary_values(RLX_OP_GELU, 1, &attrs, mid, N_OF(mid));
}

/* ---- binary ---------------------------------------------------------- */

static double ref_binary(rlx_op op, double a, double b)
{
    switch (op) {
    case RLX_OP_ADD: return a + b;
    case RLX_OP_SUB: return a - b;
    case RLX_OP_MUL: return a * b;
    case RLX_OP_DIV: return a / b;
    case RLX_OP_MAX: return a > b ? a : b;
    case RLX_OP_MIN: return a < b ? a : b;
    case RLX_OP_POW: return pow(a, b);
    default: return NAN;
    }
}

/* Offset in T of the output index IDX (of rank R), NumPy-broadcast. */
static size_t broadcast_offset(const tensor *t, uint32_t r,
                               const int64_t *idx)
{
    size_t off = 0;
    for (uint32_t d = 0; d < t->rank; d++) {
        int64_t i = idx[r - t->rank + d];
        off = off * (size_t)t->dims[d] +
              (t->dims[d] == 1 ? 0 : (size_t)i);
    }
    return off;
}

/* Run OP on A and B and compare against a broadcast reference whose
 * output shape is (R, DIMS). */
static void check_binary(rlx_op op, const char *kinds, tensor a, tensor b,
                         uint32_t r, const int64_t *dims)
{
    tensor ins[2] = { a, b }, out;
    const float *y = run_op_kinds(op, kinds, 2, ins, NULL, &out);
    ASSERT_EQ(out.rank, r);
    for (uint32_t i = 0; i < r; i++)
        ASSERT_EQ(out.dims[i], dims[i]);
    static double expect[256];
    size_t n = count_of(r, dims);
    ASSERT(n <= 256);
    for (size_t e = 0; e < n; e++) {
        int64_t idx[MAX_RANK];
        size_t rest = e;
        for (uint32_t d = r; d-- > 0;) {
            idx[d] = (int64_t)(rest % (size_t)dims[d]);
            rest /= (size_t)dims[d];
        }
        expect[e] = ref_binary(op, a.data[broadcast_offset(&a, r, idx)],
                               b.data[broadcast_offset(&b, r, idx)]);
    }
    check_values(rlx_op_name(op), y, expect, n, REL_TOL, 0);
}

static const float m23[6] = { -2.5f, -1.0f, 0.0f, 0.5f, 1.25f, 3.0f };
static const float v3[3] = { 0.5f, -2.0f, 4.0f };
static const float c21[2] = { 1.5f, -3.0f };
static const float r13[3] = { 2.0f, -0.25f, 7.0f };

TEST(add_broadcast_row)
{
    /* [2,3] + [3] */
    check_binary(RLX_OP_ADD, "ii", make(2, (int64_t[]){ 2, 3 }, m23),
                 make(1, (int64_t[]){ 3 }, v3), 2, (int64_t[]){ 2, 3 });
}

TEST(add_broadcast_3d)
{
    /* [2,1,4] + [3,1] -> [2,3,4], the second side a constant */
    float a[8], b[3] = { 10.0f, -20.0f, 30.5f };
    for (int i = 0; i < 8; i++)
        a[i] = 0.75f * (float)i - 2.0f;
    check_binary(RLX_OP_ADD, "ic", make(3, (int64_t[]){ 2, 1, 4 }, a),
                 make(2, (int64_t[]){ 3, 1 }, b), 3,
                 (int64_t[]){ 2, 3, 4 });
}

TEST(sub_outer)
{
    /* [2,1] - [1,3] -> [2,3] */
    check_binary(RLX_OP_SUB, "ii", make(2, (int64_t[]){ 2, 1 }, c21),
                 make(2, (int64_t[]){ 1, 3 }, r13), 2, (int64_t[]){ 2, 3 });
}

TEST(mul_outer)
{
    check_binary(RLX_OP_MUL, "ii", make(2, (int64_t[]){ 2, 1 }, c21),
                 make(2, (int64_t[]){ 1, 3 }, r13), 2, (int64_t[]){ 2, 3 });
    check_binary(RLX_OP_MUL, "ii", make(2, (int64_t[]){ 2, 3 }, m23),
                 make(2, (int64_t[]){ 2, 3 }, m23), 2, (int64_t[]){ 2, 3 });
}

TEST(div_scalar)
{
    static const float s[1] = { -4.0f };
    /* [2,3] / rank-0 */
    check_binary(RLX_OP_DIV, "ii", make(2, (int64_t[]){ 2, 3 }, m23),
                 make(0, NULL, s), 2, (int64_t[]){ 2, 3 });
    /* rank-0 / [3] */
    check_binary(RLX_OP_DIV, "ii", make(0, NULL, s),
                 make(1, (int64_t[]){ 3 }, v3), 1, (int64_t[]){ 3 });
}

TEST(max_min)
{
    /* [3] against [2,3]: the left side broadcasts */
    check_binary(RLX_OP_MAX, "ii", make(1, (int64_t[]){ 3 }, v3),
                 make(2, (int64_t[]){ 2, 3 }, m23), 2, (int64_t[]){ 2, 3 });
    static const float one[1] = { 0.25f };
    /* [1] against [2,3] */
    check_binary(RLX_OP_MIN, "ii", make(1, (int64_t[]){ 1 }, one),
                 make(2, (int64_t[]){ 2, 3 }, m23), 2, (int64_t[]){ 2, 3 });
    check_binary(RLX_OP_MAX, "ii", make(2, (int64_t[]){ 2, 1 }, c21),
                 make(2, (int64_t[]){ 1, 3 }, r13), 2, (int64_t[]){ 2, 3 });
}

TEST(pow)
{
    static const float base[6] = { 0.5f, 1.0f, 2.0f, 3.0f, 10.0f, 0.1f };
    static const float ex[3] = { 0.5f, -1.5f, 3.0f };
    check_binary(RLX_OP_POW, "ii", make(2, (int64_t[]){ 2, 3 }, base),
                 make(1, (int64_t[]){ 3 }, ex), 2, (int64_t[]){ 2, 3 });
    /* negative bases with integer exponents */
    static const float nb[2] = { -2.0f, -0.5f };
    static const float ie[3] = { 2.0f, 3.0f, -1.0f };
    check_binary(RLX_OP_POW, "ii", make(2, (int64_t[]){ 2, 1 }, nb),
                 make(2, (int64_t[]){ 1, 3 }, ie), 2, (int64_t[]){ 2, 3 });
}

/* ---- matmul ---------------------------------------------------------- */

/*
 * numpy.matmul by its definition: every output element unravelled to
 * its index, each operand element located by its own (transposed) index,
 * batch dims of size 1 pinned to 0.
 */
static void ref_matmul(const tensor *a, int ta, const tensor *b, int tb,
                       const tensor *y, double *out)
{
    uint32_t ra = a->rank, rb = b->rank, ry = y->rank;
    int64_t k = ra == 1 ? a->dims[0] : a->dims[ra - (ta ? 2 : 1)];
    uint32_t batch = ry - (ra >= 2) - (rb >= 2);
    size_t n = count_of(ry, y->dims);
    for (size_t e = 0; e < n; e++) {
        int64_t idx[MAX_RANK];
        size_t rest = e;
        for (uint32_t d = ry; d-- > 0;) {
            idx[d] = (int64_t)(rest % (size_t)y->dims[d]);
            rest /= (size_t)y->dims[d];
        }
        int64_t i = ra >= 2 ? idx[batch] : 0;
        int64_t j = rb >= 2 ? idx[ry - 1] : 0;
        double acc = 0;
        for (int64_t p = 0; p < k; p++) {
            int64_t ia[MAX_RANK], ib[MAX_RANK];
            if (ra == 1) {
                ia[0] = p;
            } else {
                for (uint32_t d = 0; d + 2 < ra; d++)
                    ia[d] = a->dims[d] == 1 ? 0 : idx[batch - (ra - 2) + d];
                ia[ra - 2] = ta ? p : i;
                ia[ra - 1] = ta ? i : p;
            }
            if (rb == 1) {
                ib[0] = p;
            } else {
                for (uint32_t d = 0; d + 2 < rb; d++)
                    ib[d] = b->dims[d] == 1 ? 0 : idx[batch - (rb - 2) + d];
                ib[rb - 2] = tb ? j : p;
                ib[rb - 1] = tb ? p : j;
            }
            size_t oa = 0, ob = 0;
            for (uint32_t d = 0; d < ra; d++)
                oa = oa * (size_t)a->dims[d] + (size_t)ia[d];
            for (uint32_t d = 0; d < rb; d++)
                ob = ob * (size_t)b->dims[d] + (size_t)ib[d];
            acc += (double)a->data[oa] * (double)b->data[ob];
        }
        out[e] = acc;
    }
}

static void check_matmul(int ta, int tb, uint32_t ra, const int64_t *da,
                         uint32_t rb, const int64_t *db, uint32_t ry,
                         const int64_t *dy)
{
    static float a_data[512], b_data[512];
    static double expect[512];
    size_t na = count_of(ra, da), nb = count_of(rb, db);
    ASSERT(na <= 512 && nb <= 512 && count_of(ry, dy) <= 512);
    float *pa = pattern(na, 2.0f, 1), *pb = pattern(nb, 1.5f, 2);
    memcpy(a_data, pa, na * sizeof *pa);
    memcpy(b_data, pb, nb * sizeof *pb);
    free(pa);
    free(pb);

    int64_t flags[2] = { ta, tb };
    rlx_attrs attrs = { 2, flags, 0, NULL };
    tensor ins[2] = { make(ra, da, a_data), make(rb, db, b_data) }, out;
    /* b is a param, as a weight would be */
    const float *y = run_op_kinds(RLX_OP_MATMUL, "ip", 2, ins,
                                  ta || tb ? &attrs : NULL, &out);
    ASSERT_EQ(out.rank, ry);
    for (uint32_t i = 0; i < ry; i++)
        ASSERT_EQ(out.dims[i], dy[i]);
    tensor want = make(ry, dy, NULL);
    ref_matmul(&ins[0], ta, &ins[1], tb, &want, expect);
    check_values("matmul", y, expect, count_of(ry, dy), REL_TOL, 1e-5);
}

#define DIMS(...) (int64_t[]){ __VA_ARGS__ }

TEST(matmul_2d)
{
    check_matmul(0, 0, 2, DIMS(2, 3), 2, DIMS(3, 4), 2, DIMS(2, 4));
    check_matmul(0, 0, 2, DIMS(1, 1), 2, DIMS(1, 1), 2, DIMS(1, 1));
    check_matmul(0, 0, 2, DIMS(7, 5), 2, DIMS(5, 3), 2, DIMS(7, 3));
}

TEST(matmul_transpose)
{
    /* a stored [3,2] used as [2,3] */
    check_matmul(1, 0, 2, DIMS(3, 2), 2, DIMS(3, 4), 2, DIMS(2, 4));
    /* b stored [4,3] used as [3,4] */
    check_matmul(0, 1, 2, DIMS(2, 3), 2, DIMS(4, 3), 2, DIMS(2, 4));
    check_matmul(1, 1, 2, DIMS(3, 2), 2, DIMS(4, 3), 2, DIMS(2, 4));
}

TEST(matmul_batched)
{
    check_matmul(0, 0, 3, DIMS(2, 3, 4), 2, DIMS(4, 5), 3, DIMS(2, 3, 5));
    check_matmul(0, 0, 2, DIMS(3, 4), 3, DIMS(2, 4, 5), 3, DIMS(2, 3, 5));
    check_matmul(0, 0, 4, DIMS(2, 1, 3, 4), 3, DIMS(3, 4, 2), 4,
                 DIMS(2, 3, 3, 2));
    check_matmul(1, 1, 4, DIMS(2, 1, 4, 3), 3, DIMS(3, 2, 4), 4,
                 DIMS(2, 3, 3, 2));
    check_matmul(1, 0, 3, DIMS(2, 4, 3), 3, DIMS(1, 4, 5), 3,
                 DIMS(2, 3, 5));
}

TEST(matmul_vectors)
{
    check_matmul(0, 0, 1, DIMS(3), 2, DIMS(3, 4), 1, DIMS(4));
    check_matmul(0, 0, 2, DIMS(2, 3), 1, DIMS(3), 1, DIMS(2));
    check_matmul(0, 0, 1, DIMS(3), 1, DIMS(3), 0, NULL);
    check_matmul(0, 0, 3, DIMS(2, 3, 4), 1, DIMS(4), 2, DIMS(2, 3));
    check_matmul(0, 0, 1, DIMS(4), 3, DIMS(2, 4, 3), 2, DIMS(2, 3));
    /* a transposed matrix times a vector */
    check_matmul(1, 0, 2, DIMS(3, 2), 1, DIMS(3), 1, DIMS(2));
}

TEST(matmul_empty)
{
    /* k = 0: a result of zeros */
    check_matmul(0, 0, 2, DIMS(2, 0), 2, DIMS(0, 3), 2, DIMS(2, 3));
    /* an empty batch and an empty m */
    check_matmul(0, 0, 3, DIMS(0, 2, 3), 2, DIMS(3, 4), 3, DIMS(0, 2, 4));
    check_matmul(0, 0, 2, DIMS(0, 3), 2, DIMS(3, 4), 2, DIMS(0, 4));
}

/* ---- softmax --------------------------------------------------------- */

static void check_softmax(uint32_t r, const int64_t *dims, const float *x,
                          int64_t axis, int pass_axis)
{
    static double expect[256];
    size_t n = count_of(r, dims);
    ASSERT(n <= 256);
    rlx_attrs attrs = { 1, &axis, 0, NULL };
    tensor in = make(r, dims, x), out;
    const float *y = run_op(RLX_OP_SOFTMAX, 1, &in,
                            pass_axis ? &attrs : NULL, &out);
    ASSERT_EQ(out.rank, r);
    for (uint32_t i = 0; i < r; i++)
        ASSERT_EQ(out.dims[i], dims[i]);
    uint32_t ax = (uint32_t)(axis < 0 ? axis + (int64_t)r : axis);
    size_t stride = count_of(r - ax - 1, dims + ax + 1);
    size_t len = (size_t)dims[ax];
    for (size_t e = 0; e < n; e++) {
        /* the first element of E's line along the axis */
        size_t pos = (e / stride) % len;
        size_t first = e - pos * stride;
        double m = -INFINITY, sum = 0;
        for (size_t j = 0; j < len; j++)
            if (x[first + j * stride] > m)
                m = x[first + j * stride];
        for (size_t j = 0; j < len; j++)
            sum += exp((double)x[first + j * stride] - m);
        expect[e] = exp((double)x[e] - m) / sum;
    }
    check_values("softmax", y, expect, n, REL_TOL, 1e-7);
}

TEST(softmax_last_axis)
{
    static const float x[6] = { 1.0f, 2.0f, 3.0f, -1.0f, 0.0f, 1.0f };
    check_softmax(2, DIMS(2, 3), x, -1, 0); /* the default */
    check_softmax(2, DIMS(2, 3), x, -1, 1);
    check_softmax(2, DIMS(2, 3), x, 1, 1);
    /* large values: stable only when the max is subtracted */
    static const float big[6] = { 1000.0f, 1001.0f, 1002.0f,
                                  -1000.0f, 0.0f, 88.0f };
    check_softmax(2, DIMS(2, 3), big, -1, 1);
}

TEST(softmax_axis0)
{
    static const float x[6] = { 1.0f, 2.0f, 3.0f, -1.0f, 0.0f, 10.0f };
    check_softmax(2, DIMS(2, 3), x, 0, 1);
    check_softmax(2, DIMS(2, 3), x, -2, 1);
}

TEST(softmax_middle_axis)
{
    float *x = pattern(24, 5.0f, 3);
    static float kept[24];
    memcpy(kept, x, sizeof kept);
    free(x);
    check_softmax(3, DIMS(2, 3, 4), kept, 1, 1);
    check_softmax(1, DIMS(24), kept, 0, 1);
}

/* ---- empty tensors, params, graphs ----------------------------------- */

TEST(empty_tensors)
{
    tensor out;
    tensor e03 = make(2, DIMS(0, 3), NULL);
    const float *y = run_op(RLX_OP_EXP, 1, &e03, NULL, &out);
    (void)y;
    ASSERT_SHAPE(out, 2, 0, 3);

    tensor ins[2] = { e03, make(1, DIMS(3), v3) };
    run_op(RLX_OP_ADD, 2, ins, NULL, &out);
    ASSERT_SHAPE(out, 2, 0, 3);

    tensor e20 = make(2, DIMS(2, 0), NULL);
    run_op(RLX_OP_SOFTMAX, 1, &e20, NULL, &out);
    ASSERT_SHAPE(out, 2, 2, 0);
    int64_t axis0 = 0;
    rlx_attrs attrs = { 1, &axis0, 0, NULL };
    run_op(RLX_OP_SOFTMAX, 1, &e03, &attrs, &out);
    ASSERT_SHAPE(out, 2, 0, 3);

    /* an empty param */
    tensor p[2] = { make(2, DIMS(2, 3), m23), make(3, DIMS(0, 1, 3), NULL) };
    run_op_kinds(RLX_OP_MUL, "ip", 2, p, NULL, &out);
    ASSERT_SHAPE(out, 3, 0, 2, 3);
}

/* x [2,3] -> h = relu(x @ W + b), y = softmax(h); W a param, b constant.
 * Two runs with different inputs reuse the param. */
static rlx_status mlp_run(rlx_program *p, const float *x, float *h_out,
                          float *y_out)
{
    rlx_status st = rlx_program_set_input(p, "x", x, 6 * sizeof(float));
    if (st == RLX_OK)
        st = rlx_program_run(p);
    if (st != RLX_OK)
        return st;
    size_t nh = 0, ny = 0;
    const void *h = rlx_program_output_data(p, 0, &nh);
    const void *y = rlx_program_output_data(p, 1, &ny);
    if (!h || !y || nh != 4 * sizeof(float) || ny != 4 * sizeof(float))
        return RLX_ERR_INTERNAL;
    memcpy(h_out, h, nh);
    memcpy(y_out, y, ny);
    return RLX_OK;
}

static void mlp_expect(const float *x, const float *w, const float *b,
                       double *h, double *y)
{
    for (int i = 0; i < 2; i++) {
        double m = -INFINITY, sum = 0;
        for (int j = 0; j < 2; j++) {
            double acc = b[j];
            for (int k = 0; k < 3; k++)
                acc += (double)x[i * 3 + k] * (double)w[k * 2 + j];
            h[i * 2 + j] = acc > 0 ? acc : 0;
            if (h[i * 2 + j] > m)
                m = h[i * 2 + j];
        }
        for (int j = 0; j < 2; j++)
            sum += exp(h[i * 2 + j] - m);
        for (int j = 0; j < 2; j++)
            y[i * 2 + j] = exp(h[i * 2 + j] - m) / sum;
    }
}

TEST(param_graph)
{
    static const float w[6] = { 0.5f, -1.0f, 2.0f, 0.25f, -0.75f, 1.5f };
    static const float b[2] = { 0.1f, -0.2f };
    static const float x1[6] = { 1.0f, 2.0f, 3.0f, -1.0f, 0.5f, 0.0f };
    static const float x2[6] = { -3.0f, 0.0f, 1.0f, 4.0f, -2.0f, 2.5f };
    rlx_runtime *rt = NULL;
    rlx_graph *g = NULL;
    rlx_session *s = NULL;
    rlx_program *p = NULL;
    rlx_value vx, vw, vb, mm, add, h, y;
    float got_h[2][4], got_y[2][4];
    rlx_status st;
    const char *step = "";

#define TRY(expr)                                                           \
    do {                                                                    \
        step = #expr;                                                       \
        if ((st = (expr)) != RLX_OK)                                        \
            goto done;                                                      \
    } while (0)
    TRY(rlx_runtime_create(&rt, RLX_RUNTIME_NO_DISCOVERY));
    TRY(rlx_graph_create(&g));
    TRY(rlx_graph_input(g, "x", RLX_DTYPE_F32, 2, DIMS(2, 3), &vx));
    TRY(rlx_graph_param(g, "w", RLX_DTYPE_F32, 2, DIMS(3, 2), &vw));
    TRY(rlx_graph_constant(g, "b", RLX_DTYPE_F32, 1, DIMS(2), b, &vb));
    TRY(rlx_graph_add_node(g, NULL, RLX_OP_MATMUL, 2,
                           (rlx_value[]){ vx, vw }, NULL, &mm));
    TRY(rlx_graph_add_node(g, NULL, RLX_OP_ADD, 2, (rlx_value[]){ mm, vb },
                           NULL, &add));
    TRY(rlx_graph_add_node(g, "h", RLX_OP_RELU, 1, &add, NULL, &h));
    TRY(rlx_graph_add_node(g, "y", RLX_OP_SOFTMAX, 1, &h, NULL, &y));
    TRY(rlx_graph_output(g, "h", h));
    TRY(rlx_graph_output(g, "y", y));
    TRY(rlx_session_create(rt, "cpu-ref", &s));
    TRY(rlx_session_compile(s, g, &p));
    TRY(rlx_program_set_param(p, "w", w, sizeof w));
    TRY(mlp_run(p, x1, got_h[0], got_y[0]));
    TRY(mlp_run(p, x2, got_h[1], got_y[1]));
#undef TRY
done:
    if (st != RLX_OK)
        snprintf(run_error, sizeof run_error, "%s: %s (%s)", step,
                 rlx_status_name(st), rlx_last_error());
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_graph_destroy(g);
    rlx_runtime_destroy(rt);
    if (st != RLX_OK)
        FAIL("%s", run_error);

    double eh[4], ey[4];
    mlp_expect(x1, w, b, eh, ey);
    check_values("h (run 1)", got_h[0], eh, 4, REL_TOL, 1e-6);
    check_values("y (run 1)", got_y[0], ey, 4, REL_TOL, 1e-7);
    mlp_expect(x2, w, b, eh, ey);
    check_values("h (run 2)", got_h[1], eh, 4, REL_TOL, 1e-6);
    check_values("y (run 2)", got_y[1], ey, 4, REL_TOL, 1e-7);
}

/* ---- any-dtype helpers ------------------------------------------------ */

static source src(char kind, rlx_dtype dtype, uint32_t rank,
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

static source f32in(uint32_t rank, const int64_t *dims, const float *data)
{
    return src('i', RLX_DTYPE_F32, rank, dims, data);
}

#define ASSERT_RSHAPE(r, n, ...)                                            \
    do {                                                                    \
        const int64_t rlx__want[] = { __VA_ARGS__ };                        \
        ASSERT_EQ((r)->rank, (n));                                          \
        for (uint32_t rlx__i = 0; rlx__i < (n); rlx__i++)                   \
            ASSERT_EQ((r)->dims[rlx__i], rlx__want[rlx__i]);                \
    } while (0)

/* Row-major index of flat position E in (R, DIMS). */
static void unravel(size_t e, uint32_t r, const int64_t *dims, int64_t *idx)
{
    for (uint32_t d = r; d-- > 0;) {
        idx[d] = (int64_t)(e % (size_t)dims[d]);
        e /= (size_t)dims[d];
    }
}

static size_t ravel(uint32_t r, const int64_t *dims, const int64_t *idx)
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

static uint16_t ref_f16(double x) { return ref_round16(x, 10, 5); }
static uint16_t ref_bf16(double x) { return ref_round16(x, 7, 8); }

static double ref_f16_value(uint16_t h)
{
    int e = (h >> 10) & 31, f = h & 1023;
    double v = e == 31 ? (f ? NAN : INFINITY)
               : e == 0 ? ldexp(f, -24) : ldexp(1024 + f, e - 25);
    return h & 0x8000 ? -v : v;
}

static double ref_bf16_value(uint16_t h)
{
    uint32_t bits = (uint32_t)h << 16;
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

static uint16_t ref_half(rlx_dtype t, double x)
{
    return t == RLX_DTYPE_F16 ? ref_f16(x) : ref_bf16(x);
}

static double ref_half_value(rlx_dtype t, uint16_t h)
{
    return t == RLX_DTYPE_F16 ? ref_f16_value(h) : ref_bf16_value(h);
}

/* ---- layer_norm, rms_norm -------------------------------------------- */

static void check_norm(rlx_op op, uint32_t r, const int64_t *dims,
                       const double *eps)
{
    size_t n = count_of(r, dims), cols = (size_t)dims[r - 1];
    static float x[256], gamma[64], beta[64];
    static double expect[256];
    ASSERT(n <= 256 && cols <= 64);
    float *p = pattern(n, 3.0f, 11);
    memcpy(x, p, n * sizeof *x);
    free(p);
    p = pattern(cols, 2.0f, 12);
    memcpy(gamma, p, cols * sizeof *p);
    free(p);
    p = pattern(cols, 1.0f, 13);
    memcpy(beta, p, cols * sizeof *p);
    free(p);
    /* one row far from zero mean, to check the centring */
    for (size_t j = 0; j < cols; j++)
        x[j] += 100.0f;
    double e = eps ? *eps : op == RLX_OP_LAYER_NORM ? 1e-5 : 1e-6;
    for (size_t row = 0; row < n / cols; row++) {
        const float *xs = x + row * cols;
        double mean = 0, var = 0;
        for (size_t j = 0; j < cols; j++)
            mean += xs[j];
        mean /= (double)cols;
        for (size_t j = 0; j < cols; j++) {
            double d = op == RLX_OP_LAYER_NORM ? xs[j] - mean : xs[j];
            var += d * d;
        }
        var /= (double)cols;
        for (size_t j = 0; j < cols; j++)
            expect[row * cols + j] =
                op == RLX_OP_LAYER_NORM
                    ? (xs[j] - mean) / sqrt(var + e) * gamma[j] + beta[j]
                    : xs[j] / sqrt(var + e) * gamma[j];
    }
    source in[3] = { f32in(r, dims, x), f32in(1, DIMS((int64_t)cols), gamma),
                     f32in(1, DIMS((int64_t)cols), beta) };
    rlx_attrs attrs = { 0, NULL, 1, eps };
    const result *y = run_any(op, op == RLX_OP_LAYER_NORM ? 3 : 2, in,
                              eps ? &attrs : NULL);
    ASSERT_EQ(y->rank, r);
    for (uint32_t d = 0; d < r; d++)
        ASSERT_EQ(y->dims[d], dims[d]);
    check_values(rlx_op_name(op), y->data, expect, n, 1e-5, 1e-5);
}

TEST(layer_norm)
{
    check_norm(RLX_OP_LAYER_NORM, 2, DIMS(3, 5), NULL);
    check_norm(RLX_OP_LAYER_NORM, 3, DIMS(2, 2, 4), NULL);
    double big = 0.5; /* an epsilon large enough to show */
    check_norm(RLX_OP_LAYER_NORM, 2, DIMS(3, 5), &big);
    check_norm(RLX_OP_LAYER_NORM, 1, DIMS(6), NULL);
    /* one feature: x - mean is 0, so the result is beta */
    check_norm(RLX_OP_LAYER_NORM, 2, DIMS(4, 1), NULL);
}

TEST(rms_norm)
{
    check_norm(RLX_OP_RMS_NORM, 2, DIMS(3, 4), NULL);
    double big = 2.0;
    check_norm(RLX_OP_RMS_NORM, 2, DIMS(3, 4), &big);
    check_norm(RLX_OP_RMS_NORM, 3, DIMS(2, 1, 7), NULL);
    /* an empty batch */
    source in[2] = { f32in(2, DIMS(0, 4), NULL), f32in(1, DIMS(4), v3) };
    static const float g4[4] = { 1, 2, 3, 4 };
    in[1].data = g4;
    const result *y = run_any(RLX_OP_RMS_NORM, 2, in, NULL);
    ASSERT_RSHAPE(y, 2, 0, 4);
}

/* ---- reductions ------------------------------------------------------ */

/* Reduce X (R, DIMS) over AXES (N_AXES; none: all), compare with a
 * reference that visits every element; WANT is the result's shape. */
static void check_reduce(rlx_op op, uint32_t r, const int64_t *dims,
                         int keep, uint32_t n_axes, const int64_t *axes,
                         uint32_t want_rank, const int64_t *want)
{
    size_t n = count_of(r, dims);
    float *x = pattern(n, 4.0f, 21);
    int reduced[MAX_RANK] = { 0 };
    for (uint32_t d = 0; d < r; d++)
        reduced[d] = n_axes == 0;
    for (uint32_t i = 0; i < n_axes; i++)
        reduced[axes[i] < 0 ? axes[i] + (int64_t)r : axes[i]] = 1;
    int64_t kept_dims[MAX_RANK];
    uint32_t kr = 0;
    for (uint32_t d = 0; d < r; d++)
        if (!reduced[d])
            kept_dims[kr++] = dims[d];
    size_t m = count_of(kr, kept_dims);
    static double sum[256], cnt[256], mx[256];
    ASSERT(m <= 256);
    for (size_t o = 0; o < m; o++) {
        sum[o] = cnt[o] = 0;
        mx[o] = -INFINITY;
    }
    for (size_t e = 0; e < n; e++) {
        int64_t idx[MAX_RANK], kidx[MAX_RANK];
        uint32_t k = 0;
        unravel(e, r, dims, idx);
        for (uint32_t d = 0; d < r; d++)
            if (!reduced[d])
                kidx[k++] = idx[d];
        size_t o = ravel(kr, kept_dims, kidx);
        sum[o] += x[e];
        cnt[o] += 1;
        if (x[e] > mx[o])
            mx[o] = x[e];
    }
    static double expect[256];
    for (size_t o = 0; o < m; o++)
        expect[o] = op == RLX_OP_REDUCE_SUM ? sum[o]
                    : op == RLX_OP_REDUCE_MAX ? mx[o]
                    : cnt[o] ? sum[o] / cnt[o] : NAN;

    int64_t ints[1 + MAX_RANK];
    ints[0] = keep;
    for (uint32_t i = 0; i < n_axes; i++)
        ints[1 + i] = axes[i];
    rlx_attrs attrs = { 1 + n_axes, ints, 0, NULL };
    source in = f32in(r, dims, x);
    const result *y = run_any(op, 1, &in, keep || n_axes ? &attrs : NULL);
    free(x);
    ASSERT_EQ(y->rank, want_rank);
    for (uint32_t d = 0; d < want_rank; d++)
        ASSERT_EQ(y->dims[d], want[d]);
    ASSERT_EQ(count_of(y->rank, y->dims), m);
    check_values(rlx_op_name(op), y->data, expect, m, 1e-6, 1e-5);
}

static void check_reduce_all_ops(uint32_t r, const int64_t *dims, int keep,
                                 uint32_t n_axes, const int64_t *axes,
                                 uint32_t want_rank, const int64_t *want)
{
    check_reduce(RLX_OP_REDUCE_SUM, r, dims, keep, n_axes, axes, want_rank,
                 want);
    check_reduce(RLX_OP_REDUCE_MEAN, r, dims, keep, n_axes, axes, want_rank,
                 want);
    check_reduce(RLX_OP_REDUCE_MAX, r, dims, keep, n_axes, axes, want_rank,
                 want);
}

TEST(reductions)
{
    /* every axis, with and without keepdims */
    check_reduce_all_ops(3, DIMS(2, 3, 4), 0, 0, NULL, 0, NULL);
    check_reduce_all_ops(3, DIMS(2, 3, 4), 1, 0, NULL, 3, DIMS(1, 1, 1));
    /* one axis, a negative one, two axes */
    check_reduce_all_ops(3, DIMS(2, 3, 4), 0, 1, DIMS(1), 2, DIMS(2, 4));
    check_reduce_all_ops(3, DIMS(2, 3, 4), 1, 1, DIMS(-1), 3, DIMS(2, 3, 1));
    check_reduce_all_ops(3, DIMS(2, 3, 4), 0, 2, DIMS(2, 0), 1, DIMS(3));
    check_reduce_all_ops(3, DIMS(2, 3, 4), 1, 2, DIMS(0, -1), 3,
                         DIMS(1, 3, 1));
    /* size-1 dims and a rank-0 input */
    check_reduce_all_ops(3, DIMS(1, 5, 1), 0, 1, DIMS(1), 2, DIMS(1, 1));
    check_reduce_all_ops(0, NULL, 0, 0, NULL, 0, NULL);
    check_reduce_all_ops(1, DIMS(7), 0, 1, DIMS(0), 0, NULL);
}

TEST(reductions_empty)
{
    /* reducing an empty axis: sum 0, mean NaN, max -inf */
    check_reduce_all_ops(3, DIMS(2, 0, 3), 0, 1, DIMS(1), 2, DIMS(2, 3));
    check_reduce_all_ops(3, DIMS(2, 0, 3), 1, 0, NULL, 3, DIMS(1, 1, 1));
    /* an empty result: nothing to reduce into */
    check_reduce_all_ops(3, DIMS(2, 0, 3), 0, 1, DIMS(0), 2, DIMS(0, 3));
    const result *y;
    source in = f32in(2, DIMS(0, 3), NULL);
    int64_t ax[2] = { 0, 0 };
    rlx_attrs attrs = { 2, ax, 0, NULL };
    y = run_any(RLX_OP_REDUCE_MAX, 1, &in, &attrs);
    ASSERT_RSHAPE(y, 1, 3);
    for (int i = 0; i < 3; i++)
        ASSERT(isinf(((const float *)y->data)[i]) &&
               ((const float *)y->data)[i] < 0);
    y = run_any(RLX_OP_REDUCE_MEAN, 1, &in, &attrs);
    for (int i = 0; i < 3; i++)
        ASSERT(isnan(((const float *)y->data)[i]));
}

/* ---- data movement --------------------------------------------------- */

TEST(reshape)
{
    float *x = pattern(24, 5.0f, 31);
    source in = f32in(3, DIMS(2, 3, 4), x);
    rlx_attrs a1 = { 2, DIMS(4, -1), 0, NULL };
    const result *y = run_any(RLX_OP_RESHAPE, 1, &in, &a1);
    ASSERT_RSHAPE(y, 2, 4, 6);
    ASSERT(memcmp(y->data, x, 24 * sizeof *x) == 0);
    rlx_attrs a2 = { 4, DIMS(1, -1, 2, 1), 0, NULL };
    y = run_any(RLX_OP_RESHAPE, 1, &in, &a2);
    ASSERT_RSHAPE(y, 4, 1, 12, 2, 1);
    ASSERT(memcmp(y->data, x, 24 * sizeof *x) == 0);
    free(x);
    /* to and from a scalar */
    static const float one[1] = { 7.5f };
    in = f32in(2, DIMS(1, 1), one);
    y = run_any(RLX_OP_RESHAPE, 1, &in, NULL);
    ASSERT_EQ(y->rank, 0);
    ASSERT(((const float *)y->data)[0] == 7.5f);
    in = f32in(0, NULL, one);
    rlx_attrs a3 = { 1, DIMS(-1), 0, NULL };
    y = run_any(RLX_OP_RESHAPE, 1, &in, &a3);
    ASSERT_RSHAPE(y, 1, 1);
    /* empty tensors, and -1 resolved to 0 */
    in = f32in(2, DIMS(0, 3), NULL);
    rlx_attrs a4 = { 2, DIMS(3, 0), 0, NULL };
    y = run_any(RLX_OP_RESHAPE, 1, &in, &a4);
    ASSERT_RSHAPE(y, 2, 3, 0);
    rlx_attrs a5 = { 2, DIMS(-1, 3), 0, NULL };
    y = run_any(RLX_OP_RESHAPE, 1, &in, &a5);
    ASSERT_RSHAPE(y, 2, 0, 3);
    /* any dtype */
    static const int64_t big[6] = { INT64_MIN, -1, 0, 1, 42, INT64_MAX };
    in = src('i', RLX_DTYPE_I64, 1, DIMS(6), big);
    rlx_attrs a6 = { 2, DIMS(3, 2), 0, NULL };
    y = run_any(RLX_OP_RESHAPE, 1, &in, &a6);
    ASSERT_EQ(y->dtype, RLX_DTYPE_I64);
    ASSERT_RSHAPE(y, 2, 3, 2);
    ASSERT(memcmp(y->data, big, sizeof big) == 0);
}

/* Transpose X (R, DIMS) of element size ES by PERM (NULL: reverse). */
static void check_transpose(rlx_dtype t, uint32_t r, const int64_t *dims,
                            const int64_t *perm)
{
    size_t es = rlx_dtype_size(t), n = count_of(r, dims);
    unsigned char *x = malloc(n * es + 1);
    ASSERT(x);
    for (size_t i = 0; i < n * es; i++)
        x[i] = (unsigned char)(i * 7 + 3);
    int64_t p[MAX_RANK], od[MAX_RANK];
    for (uint32_t d = 0; d < r; d++) {
        p[d] = perm ? (perm[d] < 0 ? perm[d] + (int64_t)r : perm[d])
                    : (int64_t)(r - 1 - d);
        od[d] = dims[p[d]];
    }
    rlx_attrs attrs = { r, perm, 0, NULL };
    source in = src('i', t, r, dims, x);
    const result *y = run_any(RLX_OP_TRANSPOSE, 1, &in, perm ? &attrs : NULL);
    int ok = y->rank == r && y->dtype == t;
    for (uint32_t d = 0; ok && d < r; d++)
        ok = y->dims[d] == od[d];
    for (size_t e = 0; ok && e < n; e++) {
        int64_t oi[MAX_RANK], ii[MAX_RANK];
        unravel(e, r, od, oi);
        for (uint32_t d = 0; d < r; d++)
            ii[p[d]] = oi[d];
        ok = memcmp((const unsigned char *)y->data + e * es,
                    x + ravel(r, dims, ii) * es, es) == 0;
    }
    free(x);
    if (!ok)
        FAIL("transpose of %s rank %u gave a wrong result",
             rlx_dtype_name(t), r);
}

TEST(transpose)
{
    check_transpose(RLX_DTYPE_F32, 3, DIMS(2, 3, 4), NULL);
    check_transpose(RLX_DTYPE_F32, 3, DIMS(2, 3, 4), DIMS(1, 0, 2));
    check_transpose(RLX_DTYPE_F32, 3, DIMS(2, 3, 4), DIMS(-1, 0, 1));
    check_transpose(RLX_DTYPE_F32, 2, DIMS(1, 5), NULL);
    check_transpose(RLX_DTYPE_I64, 4, DIMS(2, 1, 3, 2), DIMS(3, 1, 0, 2));
    check_transpose(RLX_DTYPE_U8, 2, DIMS(3, 4), NULL);
    check_transpose(RLX_DTYPE_F16, 2, DIMS(3, 4), DIMS(1, 0));
    check_transpose(RLX_DTYPE_F32, 2, DIMS(0, 4), NULL);
    check_transpose(RLX_DTYPE_F32, 0, NULL, NULL);
}

TEST(concat)
{
    static const float a[2] = { 1, 2 }, b[6] = { 3, 4, 5, 6, 7, 8 };
    source in[3] = { f32in(2, DIMS(2, 1), a), f32in(2, DIMS(2, 3), b),
                     f32in(2, DIMS(2, 0), NULL) };
    int64_t axis = 1;
    rlx_attrs attrs = { 1, &axis, 0, NULL };
    const result *y = run_any(RLX_OP_CONCAT, 3, in, &attrs);
    ASSERT_RSHAPE(y, 2, 2, 4);
    static const float want1[8] = { 1, 3, 4, 5, 2, 6, 7, 8 };
    ASSERT(memcmp(y->data, want1, sizeof want1) == 0);
    axis = -1;
    y = run_any(RLX_OP_CONCAT, 3, in, &attrs);
    ASSERT(memcmp(y->data, want1, sizeof want1) == 0);

    /* axis 0 (the default) with three inputs, one a constant */
    source r3[3] = { f32in(2, DIMS(1, 2), a), f32in(2, DIMS(3, 2), b),
                     src('c', RLX_DTYPE_F32, 2, DIMS(1, 2), a) };
    y = run_any(RLX_OP_CONCAT, 3, r3, NULL);
    ASSERT_RSHAPE(y, 2, 5, 2);
    static const float want0[10] = { 1, 2, 3, 4, 5, 6, 7, 8, 1, 2 };
    ASSERT(memcmp(y->data, want0, sizeof want0) == 0);

    /* one input; i64 data; a middle axis */
    y = run_any(RLX_OP_CONCAT, 1, r3 + 1, NULL);
    ASSERT(memcmp(y->data, b, sizeof b) == 0);
    static const int64_t p[4] = { 1, 2, 3, 4 }, q[2] = { -5, -6 };
    source i64[2] = { src('i', RLX_DTYPE_I64, 3, DIMS(2, 2, 1), p),
                      src('i', RLX_DTYPE_I64, 3, DIMS(2, 1, 1), q) };
    axis = 1;
    y = run_any(RLX_OP_CONCAT, 2, i64, &attrs);
    ASSERT_RSHAPE(y, 3, 2, 3, 1);
    static const int64_t want2[6] = { 1, 2, -5, 3, 4, -6 };
    ASSERT(memcmp(y->data, want2, sizeof want2) == 0);
}

/* Slice X [4,5] (values 0..19) with TRIPLES; compare with a reference
 * that clamps as ops.h says. */
static void check_slice(uint32_t n_ints, const int64_t *triples)
{
    static const int64_t dims[2] = { 4, 5 };
    float x[20];
    for (int i = 0; i < 20; i++)
        x[i] = (float)i;
    int64_t start[2] = { 0, 0 }, len[2] = { 4, 5 };
    for (uint32_t t = 0; t < n_ints; t += 3) {
        int64_t ax = triples[t] < 0 ? triples[t] + 2 : triples[t];
        int64_t s = triples[t + 1], e = triples[t + 2];
        if (s < 0)
            s += dims[ax];
        if (e < 0)
            e += dims[ax];
        s = s < 0 ? 0 : s > dims[ax] ? dims[ax] : s;
        e = e < 0 ? 0 : e > dims[ax] ? dims[ax] : e;
        start[ax] = s;
        len[ax] = e > s ? e - s : 0;
    }
    rlx_attrs attrs = { n_ints, triples, 0, NULL };
    source in = f32in(2, dims, x);
    const result *y = run_any(RLX_OP_SLICE, 1, &in, n_ints ? &attrs : NULL);
    ASSERT_RSHAPE(y, 2, len[0], len[1]);
    const float *got = y->data;
    for (int64_t i = 0; i < len[0]; i++)
        for (int64_t j = 0; j < len[1]; j++)
            ASSERT(got[i * len[1] + j] == x[(start[0] + i) * 5 + start[1] + j]);
}

TEST(slice)
{
    check_slice(3, DIMS(0, 1, 3));
    check_slice(6, DIMS(0, 1, 3, 1, -3, 100)); /* end clamps */
    check_slice(3, DIMS(-1, -100, 2));         /* start clamps */
    check_slice(3, DIMS(1, 4, 2));             /* start > end: empty */
    check_slice(3, DIMS(0, -1, 4));            /* the last row */
    check_slice(0, NULL);                      /* nothing: a copy */
    check_slice(6, DIMS(1, 0, 5, 0, 2, -1));
    /* any dtype: u8 */
    static const unsigned char b[6] = { 1, 2, 3, 4, 5, 6 };
    source in = src('i', RLX_DTYPE_U8, 2, DIMS(2, 3), b);
    rlx_attrs attrs = { 3, DIMS(1, 1, 3), 0, NULL };
    const result *y = run_any(RLX_OP_SLICE, 1, &in, &attrs);
    ASSERT_EQ(y->dtype, RLX_DTYPE_U8);
    ASSERT_RSHAPE(y, 2, 2, 2);
    static const unsigned char want[4] = { 2, 3, 5, 6 };
    ASSERT(memcmp(y->data, want, 4) == 0);
}

/* Gather from X [3,4] (values 10*i + j) along AXIS. */
static void check_gather(rlx_dtype index_dtype, uint32_t idx_rank,
                         const int64_t *idx_dims, const int64_t *idx,
                         int64_t axis)
{
    float x[12];
    for (int i = 0; i < 12; i++)
        x[i] = (float)(10 * (i / 4) + i % 4);
    size_t n = count_of(idx_rank, idx_dims);
    int32_t i32[16];
    ASSERT(n <= 16);
    for (size_t i = 0; i < n; i++)
        i32[i] = (int32_t)idx[i];
    source in[2] = { f32in(2, DIMS(3, 4), x),
                     src('i', index_dtype, idx_rank, idx_dims,
                         index_dtype == RLX_DTYPE_I32 ? (const void *)i32
                                                      : (const void *)idx) };
    rlx_attrs attrs = { 1, &axis, 0, NULL };
    const result *y = run_any(RLX_OP_GATHER, 2, in, &attrs);
    const float *got = y->data;
    if (axis == 0) {
        ASSERT_EQ(y->rank, idx_rank + 1);
        for (size_t k = 0; k < n; k++)
            for (int j = 0; j < 4; j++)
                ASSERT(got[k * 4 + (size_t)j] == x[idx[k] * 4 + j]);
    } else {
        ASSERT_EQ(y->rank, idx_rank + 1);
        ASSERT_EQ(y->dims[0], 3);
        for (int i = 0; i < 3; i++)
            for (size_t k = 0; k < n; k++)
                ASSERT(got[(size_t)i * n + k] == x[i * 4 + idx[k]]);
    }
    for (uint32_t d = 0; d < idx_rank; d++)
        ASSERT_EQ(y->dims[axis == 0 ? d : d + 1], idx_dims[d]);
}

TEST(gather)
{
    check_gather(RLX_DTYPE_I32, 1, DIMS(2), DIMS(2, 0), 0);
    check_gather(RLX_DTYPE_I64, 1, DIMS(4), DIMS(1, 1, 0, 2), 0);
    check_gather(RLX_DTYPE_I32, 2, DIMS(2, 2), DIMS(3, 0, 1, 3), 1);
    check_gather(RLX_DTYPE_I64, 2, DIMS(2, 2), DIMS(3, 0, 1, 3), -1);
    check_gather(RLX_DTYPE_I64, 1, DIMS(0), DIMS(0), 1); /* no indices */
    check_gather(RLX_DTYPE_I32, 0, NULL, DIMS(2), 0);    /* a scalar */

    /* an embedding lookup on i64 data */
    static const int64_t table[6] = { 100, 101, 200, 201, 300, 301 };
    static const int32_t ids[3] = { 2, 2, 0 };
    source in[2] = { src('p', RLX_DTYPE_I64, 2, DIMS(3, 2), table),
                     src('i', RLX_DTYPE_I32, 1, DIMS(3), ids) };
    const result *y = run_any(RLX_OP_GATHER, 2, in, NULL);
    ASSERT_EQ(y->dtype, RLX_DTYPE_I64);
    ASSERT_RSHAPE(y, 2, 3, 2);
    static const int64_t want[6] = { 300, 301, 300, 301, 100, 101 };
    ASSERT(memcmp(y->data, want, sizeof want) == 0);
}

TEST(gather_index_out_of_range)
{
    static const float x[6] = { 1, 2, 3, 4, 5, 6 };
    static const int32_t bad32[2] = { 0, 3 };
    static const int64_t neg64[2] = { -1, 0 };
    source in[2] = { f32in(2, DIMS(3, 2), x),
                     src('i', RLX_DTYPE_I32, 1, DIMS(2), bad32) };
    result r;
    ASSERT_STATUS(run_any_try(RLX_OP_GATHER, 2, in, NULL, &r),
                  RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(run_error, "rlx_program_run");
    ASSERT_CONTAINS(run_error, "'op'");
    ASSERT_CONTAINS(run_error, "index 3");
    ASSERT_CONTAINS(run_error, "[0, 3)");
    ASSERT_CONTAINS(run_error, "Fix:");
    in[1] = src('i', RLX_DTYPE_I64, 1, DIMS(2), neg64);
    int64_t axis = 1;
    rlx_attrs attrs = { 1, &axis, 0, NULL };
    ASSERT_STATUS(run_any_try(RLX_OP_GATHER, 2, in, &attrs, &r),
                  RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(run_error, "index -1");
    ASSERT_CONTAINS(run_error, "[0, 2)");
}

/* ---- cast and fill --------------------------------------------------- */

/* Cast N values of dtype FROM at X to TO; returns the result bytes. */
static const void *cast_run(rlx_dtype from, rlx_dtype to, size_t n,
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

TEST(cast_float_to_int)
{
    static const float x[10] = { 2.7f, -2.7f, 0.0f, -0.5f, 3e9f, -3e9f,
                                 NAN, INFINITY, -INFINITY, 254.9f };
    static const int32_t w32[10] = { 2, -2, 0, 0, INT32_MAX, INT32_MIN,
                                     0, INT32_MAX, INT32_MIN, 254 };
    ASSERT(memcmp(cast_run(RLX_DTYPE_F32, RLX_DTYPE_I32, 10, x), w32,
                  sizeof w32) == 0);
    static const uint8_t wu8[10] = { 2, 0, 0, 0, 255, 0, 0, 255, 0, 254 };
    ASSERT(memcmp(cast_run(RLX_DTYPE_F32, RLX_DTYPE_U8, 10, x), wu8,
                  sizeof wu8) == 0);
    static const int8_t wi8[10] = { 2, -2, 0, 0, 127, -128, 0, 127, -128,
                                    127 };
    ASSERT(memcmp(cast_run(RLX_DTYPE_F32, RLX_DTYPE_I8, 10, x), wi8,
                  sizeof wi8) == 0);
    /* bool is x != 0: NaN is nonzero */
    static const uint8_t wb[10] = { 1, 1, 0, 1, 1, 1, 1, 1, 1, 1 };
    ASSERT(memcmp(cast_run(RLX_DTYPE_F32, RLX_DTYPE_BOOL, 10, x), wb,
                  sizeof wb) == 0);
    static const double d[5] = { 1e19, -1e19, 9.2233720368547748e18,
                                 -9.2233720368547758e18, -7.99 };
    static const int64_t w64[5] = { INT64_MAX, INT64_MIN, INT64_MAX,
                                    INT64_MIN, -7 };
    const int64_t *g64 = cast_run(RLX_DTYPE_F64, RLX_DTYPE_I64, 5, d);
    ASSERT_EQ(g64[0], w64[0]);
    ASSERT_EQ(g64[1], w64[1]);
    ASSERT_EQ(g64[2], 9223372036854774784LL); /* the largest below 2^63 */
    ASSERT_EQ(g64[3], w64[3]);
    ASSERT_EQ(g64[4], w64[4]);
}

TEST(cast_int_and_bool)
{
    static const int64_t v[5] = { 3000000000LL, -3000000000LL, -1, 300,
                                  16777217 };
    const int32_t *g32 = cast_run(RLX_DTYPE_I64, RLX_DTYPE_I32, 5, v);
    ASSERT_EQ(g32[0], INT32_MAX); /* narrowing saturates */
    ASSERT_EQ(g32[1], INT32_MIN);
    ASSERT_EQ(g32[2], -1);
    const uint8_t *gu8 = cast_run(RLX_DTYPE_I64, RLX_DTYPE_U8, 5, v);
    ASSERT_EQ(gu8[2], 0);
    ASSERT_EQ(gu8[3], 255);
    const float *gf = cast_run(RLX_DTYPE_I64, RLX_DTYPE_F32, 5, v);
    ASSERT(gf[3] == 300.0f);
    ASSERT(gf[4] == 16777216.0f); /* 2^24 + 1 ties to even */
    ASSERT(gf[0] == 3e9f);
    static const uint8_t b[3] = { 0, 1, 1 };
    const float *bf = cast_run(RLX_DTYPE_BOOL, RLX_DTYPE_F32, 3, b);
    ASSERT(bf[0] == 0.0f && bf[1] == 1.0f && bf[2] == 1.0f);
    static const int8_t s8[3] = { -128, -1, 127 };
    const int64_t *w = cast_run(RLX_DTYPE_I8, RLX_DTYPE_I64, 3, s8);
    ASSERT(w[0] == -128 && w[1] == -1 && w[2] == 127);
    const double *wd = cast_run(RLX_DTYPE_I8, RLX_DTYPE_F64, 3, s8);
    ASSERT(wd[0] == -128.0 && wd[2] == 127.0);
    static const float f[2] = { 0.1f, -1e30f };
    const double *fd = cast_run(RLX_DTYPE_F32, RLX_DTYPE_F64, 2, f);
    ASSERT(fd[0] == (double)0.1f && fd[1] == (double)-1e30f);
    static const double dd[2] = { 1e300, 0.1 };
    const float *df = cast_run(RLX_DTYPE_F64, RLX_DTYPE_F32, 2, dd);
    ASSERT(isinf(df[0]) && df[1] == 0.1f);
}

TEST(half_bit_patterns)
{
    /* the test's own rounding, on known patterns */
    ASSERT_EQ(ref_f16(1.0), 0x3C00);
    ASSERT_EQ(ref_bf16(1.0), 0x3F80);
    ASSERT_EQ(ref_f16(-2.0), 0xC000);
    ASSERT_EQ(ref_f16(65504.0), 0x7BFF);
    ASSERT_EQ(ref_f16(65519.0), 0x7BFF);
    ASSERT_EQ(ref_f16(65520.0), 0x7C00); /* rounds to inf */
    ASSERT_EQ(ref_f16(ldexp(1, -24)), 0x0001);
    ASSERT_EQ(ref_f16(ldexp(1, -25)), 0x0000); /* tie to even: 0 */
    ASSERT_EQ(ref_f16(ldexp(3, -25)), 0x0002); /* tie to even: 2 */
    ASSERT_EQ(ref_f16(ldexp(1, -14)), 0x0400); /* smallest normal */
    ASSERT_EQ(ref_bf16(1.0 + ldexp(1, -8)), 0x3F80);
    ASSERT_EQ(ref_bf16(1.0 + ldexp(3, -8)), 0x3F82);
    ASSERT_EQ(ref_f16(1.0 + ldexp(1, -11)), 0x3C00);
    ASSERT_EQ(ref_f16(1.0 + ldexp(3, -11)), 0x3C02);

    /* cpu-ref's casts agree, bit for bit */
    static const float x[16] = {
        1.0f, -2.0f, 65504.0f, 65519.0f, 65520.0f, 0x1p-24f, 0x1p-25f,
        0x3p-25f, 0x1p-14f, 1.00390625f, 1.01171875f, 1.00048828125f,
        1.00146484375f, 0.1f, -3.3e38f, 1e-40f,
    };
    const uint16_t *h = cast_run(RLX_DTYPE_F32, RLX_DTYPE_F16, 16, x);
    for (int i = 0; i < 16; i++)
        if (h[i] != ref_f16(x[i]))
            FAIL("f16 of %g: 0x%04x, expected 0x%04x", (double)x[i], h[i],
                 ref_f16(x[i]));
    const uint16_t *b = cast_run(RLX_DTYPE_F32, RLX_DTYPE_BF16, 16, x);
    for (int i = 0; i < 16; i++)
        if (b[i] != ref_bf16(x[i]))
            FAIL("bf16 of %g: 0x%04x, expected 0x%04x", (double)x[i], b[i],
                 ref_bf16(x[i]));

    /* NaN and infinities survive; widening is exact */
    static const float s[3] = { NAN, INFINITY, -INFINITY };
    h = cast_run(RLX_DTYPE_F32, RLX_DTYPE_F16, 3, s);
    ASSERT((h[0] & 0x7C00) == 0x7C00 && (h[0] & 0x3FF) != 0);
    ASSERT_EQ(h[1], 0x7C00);
    ASSERT_EQ(h[2], 0xFC00);
    static const uint16_t every[8] = { 0x0001, 0x03FF, 0x0400, 0x3C00,
                                       0x7BFF, 0x8001, 0xFC00, 0x3555 };
    const float *w = cast_run(RLX_DTYPE_F16, RLX_DTYPE_F32, 8, every);
    for (int i = 0; i < 8; i++)
        ASSERT((double)w[i] == ref_f16_value(every[i]));
    w = cast_run(RLX_DTYPE_BF16, RLX_DTYPE_F32, 8, every);
    for (int i = 0; i < 8; i++)
        ASSERT((double)w[i] == ref_bf16_value(every[i]));
    /* f16 -> bf16 -> f16 of a value exact in both */
    static const uint16_t one_h[1] = { 0x3C00 };
    const uint16_t *ob = cast_run(RLX_DTYPE_F16, RLX_DTYPE_BF16, 1, one_h);
    ASSERT_EQ(ob[0], 0x3F80);
    /* f64 rounds once, straight to f16 */
    static const double dd[2] = { 1.0 + ldexp(1, -11) + ldexp(1, -40),
                                  -65520.0 };
    h = cast_run(RLX_DTYPE_F64, RLX_DTYPE_F16, 2, dd);
    ASSERT_EQ(h[0], 0x3C01);
    ASSERT_EQ(h[1], 0xFC00);
}

TEST(fill)
{
    int64_t ints[3] = { RLX_DTYPE_F32, 2, 3 };
    double value = 1.5;
    rlx_attrs attrs = { 3, ints, 1, &value };
    const result *y = run_any(RLX_OP_FILL, 0, NULL, &attrs);
    ASSERT_EQ(y->dtype, RLX_DTYPE_F32);
    ASSERT_RSHAPE(y, 2, 2, 3);
    for (int i = 0; i < 6; i++)
        ASSERT(((const float *)y->data)[i] == 1.5f);
    /* an int dtype truncates like cast; a scalar; default value 0 */
    ints[0] = RLX_DTYPE_I32;
    value = -7.9;
    y = run_any(RLX_OP_FILL, 0, NULL, &attrs);
    for (int i = 0; i < 6; i++)
        ASSERT(((const int32_t *)y->data)[i] == -7);
    rlx_attrs scalar = { 1, ints, 0, NULL };
    ints[0] = RLX_DTYPE_F64;
    y = run_any(RLX_OP_FILL, 0, NULL, &scalar);
    ASSERT_EQ(y->rank, 0);
    ASSERT(((const double *)y->data)[0] == 0.0);
    ints[0] = RLX_DTYPE_F16;
    value = 1.0;
    y = run_any(RLX_OP_FILL, 0, NULL, &attrs);
    ASSERT_EQ(((const uint16_t *)y->data)[5], 0x3C00);
    ints[0] = RLX_DTYPE_BOOL;
    value = -0.25;
    y = run_any(RLX_OP_FILL, 0, NULL, &attrs);
    ASSERT_EQ(((const uint8_t *)y->data)[0], 1);
    int64_t empty[3] = { RLX_DTYPE_U8, 0, 4 };
    rlx_attrs ea = { 3, empty, 1, &value };
    y = run_any(RLX_OP_FILL, 0, NULL, &ea);
    ASSERT_RSHAPE(y, 2, 0, 4);
}

/* ---- causal softmax -------------------------------------------------- */

static void check_causal(uint32_t r, const int64_t *dims)
{
    size_t n = count_of(r, dims);
    size_t rows = (size_t)dims[r - 2], cols = (size_t)dims[r - 1];
    float *x = pattern(n, 3.0f, 41);
    static double expect[256];
    ASSERT(n <= 256);
    for (size_t line = 0; line < n / cols; line++) {
        int64_t i = (int64_t)(line % rows);
        const float *xs = x + line * cols;
        double m = -INFINITY, sum = 0;
        for (size_t j = 0; j < cols; j++)
            if ((int64_t)j <= i + (int64_t)cols - (int64_t)rows && xs[j] > m)
                m = xs[j];
        for (size_t j = 0; j < cols; j++)
            if ((int64_t)j <= i + (int64_t)cols - (int64_t)rows)
                sum += exp(xs[j] - m);
        for (size_t j = 0; j < cols; j++)
            expect[line * cols + j] =
                (int64_t)j <= i + (int64_t)cols - (int64_t)rows
                    ? exp(xs[j] - m) / sum : 0.0;
    }
    int64_t ints[2] = { -1, 1 };
    rlx_attrs attrs = { 2, ints, 0, NULL };
    source in = f32in(r, dims, x);
    const result *y = run_any(RLX_OP_SOFTMAX, 1, &in, &attrs);
    free(x);
    ASSERT_EQ(count_of(y->rank, y->dims), n);
    check_values("causal softmax", y->data, expect, n, REL_TOL, 1e-7);
}

TEST(softmax_causal)
{
    check_causal(2, DIMS(4, 4));
    check_causal(3, DIMS(2, 3, 3));
    check_causal(2, DIMS(3, 5));   /* more columns: a cached prefix */
    check_causal(2, DIMS(4, 2));   /* fewer: the first rows are all 0 */
    check_causal(4, DIMS(2, 1, 2, 3));
    /* axis given as the last one explicitly */
    static const float x[4] = { 1, 2, 3, 4 };
    int64_t ints[2] = { 1, 1 };
    rlx_attrs attrs = { 2, ints, 0, NULL };
    source in = f32in(2, DIMS(2, 2), x);
    const result *y = run_any(RLX_OP_SOFTMAX, 1, &in, &attrs);
    const float *g = y->data;
    ASSERT(g[0] == 1.0f && g[1] == 0.0f);
    ASSERT_NEAR(g[2], 1 / (1 + exp(1.0)), 1e-7);
}

/* ---- f16 and bf16 ---------------------------------------------------- */

/*
 * Run OP on N inputs rounded to T (f16 or bf16) and check the result is,
 * bit for bit, the f32 result on the same (widened) values rounded to T
 * by the test's own helper: "compute as if in f32, round the result".
 */
static void check_half(rlx_dtype t, rlx_op op, uint32_t n,
                       const uint32_t *ranks, const int64_t *const *dims,
                       const rlx_attrs *attrs)
{
    source hs[3], fs[3];
    uint16_t *h[3] = { NULL, NULL, NULL };
    float *f[3] = { NULL, NULL, NULL };
    for (uint32_t i = 0; i < n; i++) {
        size_t c = count_of(ranks[i], dims[i]);
        float *p = pattern(c, 2.5f, 50 + i);
        h[i] = malloc((c ? c : 1) * sizeof *h[i]);
        f[i] = malloc((c ? c : 1) * sizeof *f[i]);
        ASSERT(h[i] && f[i]);
        for (size_t k = 0; k < c; k++) {
            h[i][k] = ref_half(t, p[k]);
            f[i][k] = (float)ref_half_value(t, h[i][k]);
        }
        free(p);
        hs[i] = src('i', t, ranks[i], dims[i], h[i]);
        fs[i] = f32in(ranks[i], dims[i], f[i]);
    }
    const result *y32 = run_any(op, n, fs, attrs);
    size_t m = count_of(y32->rank, y32->dims);
    float *want = malloc((m ? m : 1) * sizeof *want);
    ASSERT(want);
    if (m)
        memcpy(want, y32->data, m * sizeof *want);
    const result *y = run_any(op, n, hs, attrs);
    int bad = -1;
    ASSERT_EQ(y->dtype, t);
    ASSERT_EQ(count_of(y->rank, y->dims), m);
    for (size_t k = 0; k < m && bad < 0; k++)
        if (((const uint16_t *)y->data)[k] != ref_half(t, want[k]))
            bad = (int)k;
    uint16_t got = bad >= 0 ? ((const uint16_t *)y->data)[bad] : 0;
    float w = bad >= 0 ? want[bad] : 0;
    free(want);
    for (uint32_t i = 0; i < n; i++) {
        free(h[i]);
        free(f[i]);
    }
    if (bad >= 0)
        FAIL("%s %s: element %d is 0x%04x, expected 0x%04x (f32 %g)",
             rlx_dtype_name(t), rlx_op_name(op), bad, got, ref_half(t, w),
             (double)w);
}

static void check_half_ops(rlx_dtype t)
{
    const uint32_t r2[3] = { 2, 2, 1 }, r21[2] = { 2, 1 }, r1[1] = { 2 };
    const int64_t *d23x3[2] = { DIMS(2, 3), DIMS(3) };
    check_half(t, RLX_OP_ADD, 2, r21, d23x3, NULL);
    check_half(t, RLX_OP_MUL, 2, r21, d23x3, NULL);
    check_half(t, RLX_OP_DIV, 2, r21, d23x3, NULL);
    const int64_t *d45[1] = { DIMS(4, 5) };
    check_half(t, RLX_OP_EXP, 1, r1, d45, NULL);
    check_half(t, RLX_OP_GELU, 1, r1, d45, NULL);
    check_half(t, RLX_OP_TANH, 1, r1, d45, NULL);
    check_half(t, RLX_OP_SOFTMAX, 1, r1, d45, NULL);
    const int64_t *mm[2] = { DIMS(3, 8), DIMS(8, 4) };
    check_half(t, RLX_OP_MATMUL, 2, r2, mm, NULL);
    const int64_t *ln[3] = { DIMS(3, 6), DIMS(6), DIMS(6) };
    const uint32_t rln[3] = { 2, 1, 1 };
    check_half(t, RLX_OP_LAYER_NORM, 3, rln, ln, NULL);
    check_half(t, RLX_OP_RMS_NORM, 2, rln, ln, NULL);
    int64_t red[2] = { 0, 1 };
    rlx_attrs ra = { 2, red, 0, NULL };
    check_half(t, RLX_OP_REDUCE_SUM, 1, r1, d45, &ra);
    check_half(t, RLX_OP_REDUCE_MEAN, 1, r1, d45, &ra);
    check_half(t, RLX_OP_REDUCE_MAX, 1, r1, d45, NULL);

    /* add, straight against libm-free arithmetic in double */
    static const float a[4] = { 1.0f, 0.1f, 60000.0f, -3.25f };
    static const float b[4] = { 0.0009765625f, 0.2f, 8000.0f, 1e-3f };
    uint16_t ha[4], hb[4];
    for (int i = 0; i < 4; i++) {
        ha[i] = ref_half(t, a[i]);
        hb[i] = ref_half(t, b[i]);
    }
    source in[2] = { src('i', t, 1, DIMS(4), ha), src('i', t, 1, DIMS(4), hb) };
    const result *y = run_any(RLX_OP_ADD, 2, in, NULL);
    for (int i = 0; i < 4; i++) {
        double sum = ref_half_value(t, ha[i]) + ref_half_value(t, hb[i]);
        ASSERT_EQ(((const uint16_t *)y->data)[i], ref_half(t, (float)sum));
    }
    if (t == RLX_DTYPE_F16) /* 60000 + 8000 overflows f16 */
        ASSERT_EQ(((const uint16_t *)y->data)[2], 0x7C00);
}

TEST(f16_ops) { check_half_ops(RLX_DTYPE_F16); }
TEST(bf16_ops) { check_half_ops(RLX_DTYPE_BF16); }

TEST(half_movement)
{
    /* data movement on f16 keeps the bits; a float op after it reads
     * the moved values */
    static const uint16_t h[6] = { 0x3C00, 0x4000, 0x4200,
                                   0xBC00, 0x0001, 0x7BFF };
    source in = src('i', RLX_DTYPE_F16, 2, DIMS(2, 3), h);
    const result *y = run_any(RLX_OP_TRANSPOSE, 1, &in, NULL);
    static const uint16_t want[6] = { 0x3C00, 0xBC00, 0x4000,
                                      0x0001, 0x4200, 0x7BFF };
    ASSERT_EQ(y->dtype, RLX_DTYPE_F16);
    ASSERT(memcmp(y->data, want, sizeof want) == 0);
}

/* Float ops on f32, f16, bf16 only; sources, data movement, cast and fill
 * on every dtype; nothing on unknown values. */
static int is_float_op(rlx_op op)
{
    switch (op) {
    case RLX_OP_INPUT: case RLX_OP_PARAM: case RLX_OP_CONSTANT:
    case RLX_OP_RESHAPE: case RLX_OP_TRANSPOSE: case RLX_OP_CONCAT:
    case RLX_OP_SLICE: case RLX_OP_GATHER: case RLX_OP_CAST:
    case RLX_OP_FILL:
        return 0;
    default:
        return 1;
    }
}

TEST(supports_every_op)
{
    rlx_runtime *rt = NULL;
    ASSERT_OK(rlx_runtime_create(&rt, RLX_RUNTIME_NO_DISCOVERY));
    const rlx_backend *b = rlx_runtime_find_backend(rt, "cpu-ref");
    int missing = 0, extra = 0;
    static const rlx_dtype floats[] = { RLX_DTYPE_F32, RLX_DTYPE_F16,
                                        RLX_DTYPE_BF16 };
    static const rlx_dtype others[] = { RLX_DTYPE_F64, RLX_DTYPE_I32,
                                        RLX_DTYPE_I64, RLX_DTYPE_I8,
                                        RLX_DTYPE_U8, RLX_DTYPE_BOOL };
    if (b) {
#define CHECK_OP(name, value, text, arity)                                  \
    for (size_t i = 0; i < 3; i++)                                          \
        missing += !rlx_backend_supports_op(b, RLX_OP_##name, floats[i]);   \
    for (size_t i = 0; i < 6; i++) {                                        \
        int want = !is_float_op(RLX_OP_##name);                             \
        int got = rlx_backend_supports_op(b, RLX_OP_##name, others[i]) != 0; \
        missing += want && !got;                                            \
        extra += got && !want;                                              \
    }                                                                       \
    extra += rlx_backend_supports_op(b, RLX_OP_##name, (rlx_dtype)999) != 0; \
    extra += rlx_backend_supports_op(b, RLX_OP_##name, RLX_DTYPE_INVALID) != 0;
        RLX_OP_MAP(CHECK_OP)
#undef CHECK_OP
        extra += rlx_backend_supports_op(b, (rlx_op)9999, RLX_DTYPE_F32) != 0;
        extra += rlx_backend_supports_op(b, (rlx_op)-1, RLX_DTYPE_F32) != 0;
        extra += rlx_backend_supports_op(b, RLX_OP_INVALID, RLX_DTYPE_F32) !=
                 0;
        extra += rlx_backend_supports_op(b, RLX_OP_ADD, (rlx_dtype)999) != 0;
    }
    int found = b != NULL;
    int executes = b ? rlx_backend_executes(b) : 0;
    rlx_runtime_destroy(rt);
    ASSERT(found);
    ASSERT(executes);
    ASSERT_EQ(missing, 0);
    ASSERT_EQ(extra, 0);
}

RLX_TEST_LIST(TEST_ENTRY(supports_every_op), TEST_ENTRY(relu),
              TEST_ENTRY(gelu_erf), TEST_ENTRY(gelu_tanh),
              TEST_ENTRY(sigmoid), TEST_ENTRY(tanh), TEST_ENTRY(exp),
              TEST_ENTRY(sin_cos), TEST_ENTRY(neg), TEST_ENTRY(abs),
              TEST_ENTRY(log), TEST_ENTRY(sqrt), TEST_ENTRY(rsqrt),
              TEST_ENTRY(silu), TEST_ENTRY(tan), TEST_ENTRY(atan),
              TEST_ENTRY(add_broadcast_row), TEST_ENTRY(add_broadcast_3d),
              TEST_ENTRY(sub_outer), TEST_ENTRY(mul_outer),
              TEST_ENTRY(div_scalar), TEST_ENTRY(max_min), TEST_ENTRY(pow),
              TEST_ENTRY(matmul_2d), TEST_ENTRY(matmul_transpose),
              TEST_ENTRY(matmul_batched), TEST_ENTRY(matmul_vectors),
              TEST_ENTRY(matmul_empty), TEST_ENTRY(softmax_last_axis),
              TEST_ENTRY(softmax_axis0), TEST_ENTRY(softmax_middle_axis),
              TEST_ENTRY(empty_tensors), TEST_ENTRY(param_graph),
              TEST_ENTRY(layer_norm), TEST_ENTRY(rms_norm),
              TEST_ENTRY(reductions), TEST_ENTRY(reductions_empty),
              TEST_ENTRY(reshape), TEST_ENTRY(transpose),
              TEST_ENTRY(concat), TEST_ENTRY(slice), TEST_ENTRY(gather),
              TEST_ENTRY(gather_index_out_of_range),
              TEST_ENTRY(cast_float_to_int), TEST_ENTRY(cast_int_and_bool),
              TEST_ENTRY(half_bit_patterns), TEST_ENTRY(fill),
              TEST_ENTRY(softmax_causal), TEST_ENTRY(f16_ops),
              TEST_ENTRY(bf16_ops), TEST_ENTRY(half_movement))
