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
 * Build a graph with one node OP over N sources, compile it on cpu-ref,
 * run it and return a malloc'd copy of the output; its shape goes to
 * OUT_SHAPE. KINDS[i] says how source i enters the graph: 'i' input,
 * 'p' param, 'c' constant. Everything is freed before any failure is
 * reported, so a failing case does not leak either.
 */
static char run_error[1024];

static rlx_status run_op_try(rlx_op op, const char *kinds, uint32_t n,
                             const tensor *in, const rlx_attrs *attrs,
                             tensor *out_shape, float **out)
{
    rlx_runtime *rt = NULL;
    rlx_graph *g = NULL;
    rlx_session *s = NULL;
    rlx_program *p = NULL;
    rlx_value v[2], y;
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
    for (uint32_t i = 0; i < n; i++) {
        char name[16];
        snprintf(name, sizeof name, "x%u", i);
        if (kinds[i] == 'p')
            TRY(rlx_graph_param(g, name, RLX_DTYPE_F32, in[i].rank,
                                in[i].dims, &v[i]));
        else if (kinds[i] == 'c')
            TRY(rlx_graph_constant(g, name, RLX_DTYPE_F32, in[i].rank,
                                   in[i].dims, in[i].data, &v[i]));
        else
            TRY(rlx_graph_input(g, name, RLX_DTYPE_F32, in[i].rank,
                                in[i].dims, &v[i]));
    }
    TRY(rlx_graph_add_node(g, "op", op, n, v, attrs, &y));
    TRY(rlx_graph_output(g, "y", y));
    TRY(rlx_session_create(rt, "cpu-ref", &s));
    TRY(rlx_session_compile(s, g, &p));
    for (uint32_t i = 0; i < n; i++) {
        char name[16];
        size_t nbytes = count_of(in[i].rank, in[i].dims) * sizeof(float);
        snprintf(name, sizeof name, "x%u", i);
        if (kinds[i] == 'p')
            TRY(rlx_program_set_param(p, name, in[i].data, nbytes));
        else if (kinds[i] == 'i')
            TRY(rlx_program_set_input(p, name, in[i].data, nbytes));
    }
    TRY(rlx_program_run(p));

    const int64_t *dims = NULL;
    step = "rlx_program_slot(output 0)";
    TRY(rlx_program_slot(p, RLX_SLOT_OUTPUT, 0, NULL, NULL, &out_shape->rank,
                         &dims));
    if (out_shape->rank > MAX_RANK) {
        st = RLX_ERR_SHAPE;
        goto done;
    }
    memcpy(out_shape->dims, dims, out_shape->rank * sizeof *dims);
    size_t nbytes = 0;
    const void *data = rlx_program_output_data(p, 0, &nbytes);
    step = "rlx_program_output_data";
    if (nbytes != count_of(out_shape->rank, out_shape->dims) * sizeof(float) ||
        (nbytes && !data)) {
        st = RLX_ERR_INTERNAL;
        goto done;
    }
    *out = malloc(nbytes ? nbytes : 1);
    if (!*out) {
        st = RLX_ERR_OUT_OF_MEMORY;
        goto done;
    }
    if (nbytes)
        memcpy(*out, data, nbytes);
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

/* The last output run_op returned; freed by the next call and at exit. */
static float *last_output;

static void free_last_output(void)
{
    free(last_output);
    last_output = NULL;
}

static const float *run_op_kinds(rlx_op op, const char *kinds, uint32_t n,
                                 const tensor *in, const rlx_attrs *attrs,
                                 tensor *out_shape)
{
    static int registered;
    if (!registered)
        registered = atexit(free_last_output) == 0;
    free_last_output();
    if (run_op_try(op, kinds, n, in, attrs, out_shape, &last_output) !=
        RLX_OK)
        FAIL("%s failed: %s", rlx_op_name(op), run_error);
    return last_output;
}

static const float *run_op(rlx_op op, uint32_t n, const tensor *in,
                           const rlx_attrs *attrs, tensor *out_shape)
{
    return run_op_kinds(op, "ii", n, in, attrs, out_shape);
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

TEST(supports_every_op)
{
    rlx_runtime *rt = NULL;
    ASSERT_OK(rlx_runtime_create(&rt, RLX_RUNTIME_NO_DISCOVERY));
    const rlx_backend *b = rlx_runtime_find_backend(rt, "cpu-ref");
    int missing = 0, extra = 0;
    if (b) {
#define CHECK_OP(name, value, text, arity)                                  \
    missing += !rlx_backend_supports_op(b, RLX_OP_##name, RLX_DTYPE_F32);   \
    extra += rlx_backend_supports_op(b, RLX_OP_##name, RLX_DTYPE_F64) != 0;
        RLX_OP_MAP(CHECK_OP)
#undef CHECK_OP
        extra += rlx_backend_supports_op(b, (rlx_op)9999, RLX_DTYPE_F32) != 0;
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
              TEST_ENTRY(empty_tensors), TEST_ENTRY(param_graph))
