/*
 * test_cuda_dtypes.c - every dtype on the shared GPU kernels (gk_value.cuh
 * and the families that dispatch on it) on cuda, against cpu-ref (the
 * ground truth): each one-op graph runs on both with fallback refused
 * (every node on the GPU), and the results must be equal byte for byte,
 * or, for f64 transcendental functions (CUDA's double libm against the
 * host's), within 1e-12 relative.
 * - the 1.4 integer widths i16, u16, u32, u64 (and the older i8, u8,
 *   i32, i64) through the arithmetic, comparisons, bitwise ops, clip,
 *   mod, bit_shift, the reductions, argmax/argmin, cumsum and topk, on
 *   random bit patterns (u64 values of 2^63 and more included, which
 *   order and divide unsigned);
 * - cast between every pair of dtypes, from values that saturate, wrap,
 *   round and are NaN or infinite;
 * - f64 through the 1.0 and 1.4 elementwise ops, reductions and det,
 *   computed in double;
 * - pad's constant on the new widths, where on them, a u64 scatter with
 *   max, det on f32;
 * - max_pool_index, grid_sample (every mode, padding and alignment) and
 *   roi_align (avg and max, both pixel offsets), which the GPU did not
 *   take before.
 * Without a GPU it checks that the plugin loads and says why a session
 * cannot start, then skips. Prints TAP.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rlx/rlx.h>

#include "gpu_plugin_check.h"
#include "test_cuda_expect.h"

enum { MAX_IN = 3 };

typedef struct tensor {
    rlx_dtype dt;
    uint32_t rank;
    int64_t dims[6];
    void *data;
} tensor;

static size_t tensor_count(const tensor *t)
{
    size_t n = 1;
    for (uint32_t d = 0; d < t->rank; d++)
        n *= (size_t)t->dims[d];
    return n;
}

static size_t tensor_bytes(const tensor *t)
{
    return tensor_count(t) * rlx_dtype_size(t->dt);
}

static uint64_t seed = 7;

static uint64_t rnd64(void)
{
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    uint64_t hi = seed >> 32;
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return (hi << 32) | (seed >> 32);
}

static double rnd_unit(void)
{
    return (double)(rnd64() >> 11) / 9007199254740992.0;
}

static int is_float(rlx_dtype t)
{
    return t == RLX_DTYPE_F32 || t == RLX_DTYPE_F16 ||
           t == RLX_DTYPE_BF16 || t == RLX_DTYPE_F64;
}

/* A value of float dtype DT stored at element I of P. */
static void put_float(rlx_dtype dt, void *p, size_t i, double v)
{
    float f = (float)v;
    uint32_t bits;
    memcpy(&bits, &f, 4);
    switch (dt) {
    case RLX_DTYPE_F64: ((double *)p)[i] = v; break;
    case RLX_DTYPE_F32: ((float *)p)[i] = f; break;
    case RLX_DTYPE_BF16: ((uint16_t *)p)[i] = (uint16_t)(bits >> 16); break;
    default: { /* f16 from the f32, truncated: a valid f16 either way */
        uint32_t s = (bits >> 16) & 0x8000u, e = (bits >> 23) & 0xffu;
        uint32_t m = (bits >> 13) & 0x3ffu;
        uint16_t h;
        if (e == 0xff)
            h = (uint16_t)(s | 0x7c00u | (m ? 0x200u : 0));
        else if (e > 142)
            h = (uint16_t)(s | 0x7c00u); /* past f16: infinity */
        else if (e < 113)
            h = (uint16_t)s;             /* below f16's normals: zero */
        else
            h = (uint16_t)(s | ((e - 112) << 10) | m);
        ((uint16_t *)p)[i] = h;
        break;
    }
    }
}

/* T of DT: integers random bit patterns (within [0, MOD) when MOD is
 * nonzero), floats uniform in [LO, HI). */
static tensor make(rlx_dtype dt, uint32_t rank, const int64_t *dims,
                   double lo, double hi, uint64_t mod)
{
    tensor t = { dt, rank, { 1, 1, 1, 1, 1, 1 }, NULL };
    if (rank)
        memcpy(t.dims, dims, rank * sizeof *dims);
    size_t n = tensor_count(&t), es = rlx_dtype_size(dt);
    t.data = calloc(n ? n : 1, es);
    for (size_t i = 0; t.data && i < n; i++) {
        if (is_float(dt)) {
            put_float(dt, t.data, i, lo + (hi - lo) * rnd_unit());
        } else {
            uint64_t v = rnd64();
            if (dt == RLX_DTYPE_BOOL)
                v &= 1;
            else if (mod)
                v %= mod;
            memcpy((char *)t.data + i * es, &v, es); /* little-endian */
        }
    }
    return t;
}

/* One node: OP with its attributes. */
typedef struct node_spec {
    rlx_op op;
    uint32_t n_ints, n_floats;
    int64_t ints[16];
    double floats[2];
} node_spec;

/* Runs SPEC over IN on BACKEND (fallback refused); the result's bytes
 * into a new *Y (*NY bytes) and its dtype into *DT. */
static rlx_status run_on(rlx_runtime *rt, const char *backend,
                         const tensor *in, uint32_t n_in,
                         const node_spec *spec, void **y, size_t *ny,
                         rlx_dtype *dt)
{
    rlx_graph *g = NULL;
    rlx_session *s = NULL;
    rlx_program *p = NULL;
    rlx_value v[MAX_IN], out;
    rlx_attrs a = { spec->n_ints, spec->ints, spec->n_floats, spec->floats };
    char name[16];
    *y = NULL;
    rlx_status st = rlx_graph_create(&g);
    for (uint32_t i = 0; st == RLX_OK && i < n_in; i++) {
        snprintf(name, sizeof name, "i%u", i);
        st = rlx_graph_input(g, name, in[i].dt, in[i].rank, in[i].dims,
                             &v[i]);
    }
    if (st == RLX_OK)
        st = rlx_graph_add_node(g, NULL, spec->op, n_in, v, &a, &out);
    if (st == RLX_OK)
        st = rlx_graph_output(g, "y", out);
    if (st == RLX_OK)
        st = rlx_session_create(rt, backend, &s);
    if (st == RLX_OK)
        st = rlx_session_set_fallback(s, RLX_FALLBACK_NONE);
    if (st == RLX_OK)
        st = rlx_session_compile(s, g, &p);
    for (uint32_t i = 0; st == RLX_OK && i < n_in; i++) {
        snprintf(name, sizeof name, "i%u", i);
        st = rlx_program_set_input(p, name, in[i].data, tensor_bytes(&in[i]));
    }
    if (st == RLX_OK)
        st = rlx_program_run(p);
    uint32_t rank;
    const int64_t *dims;
    if (st == RLX_OK)
        st = rlx_program_slot(p, RLX_SLOT_OUTPUT, 0, NULL, dt, &rank, &dims);
    const void *data = st == RLX_OK ? rlx_program_output_data(p, 0, ny)
                                    : NULL;
    if (st == RLX_OK && !data && *ny)
        st = RLX_ERR_SHAPE;
    if (st == RLX_OK && !(*y = malloc(*ny ? *ny : 1)))
        st = RLX_ERR_OUT_OF_MEMORY;
    if (st == RLX_OK && *ny)
        memcpy(*y, data, *ny);
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_graph_destroy(g);
    return st;
}

/* Whether GOT matches WANT: equal bytes, or (TOL, f64) each element
 * within 1e-12 relative (1e-300 absolute), NaN matching NaN. */
static int same(const void *got, const void *want, size_t n, rlx_dtype dt,
                int tol, size_t *at)
{
    if (!tol || dt != RLX_DTYPE_F64) {
        for (*at = 0; *at < n; (*at)++)
            if (((const uint8_t *)got)[*at] != ((const uint8_t *)want)[*at])
                return 0;
        return 1;
    }
    for (*at = 0; *at < n / 8; (*at)++) {
        double g, w;
        memcpy(&g, (const char *)got + *at * 8, 8);
        memcpy(&w, (const char *)want + *at * 8, 8);
        if (isnan(g) || isnan(w) || isinf(g) || isinf(w)) {
            if (!(isnan(g) && isnan(w)) && g != w)
                return 0;
        } else if (fabs(g - w) > 1e-12 * fabs(w) + 1e-300) {
            return 0;
        }
    }
    return 1;
}

/* SPEC over IN on cuda and on cpu-ref: the same result. Frees IN's data. */
static void compare(rlx_runtime *rt, const char *what, tensor *in,
                    uint32_t n_in, node_spec spec, int tol)
{
    void *ref = NULL, *got = NULL;
    size_t n_ref = 0, n_got = 0, at = 0;
    rlx_dtype dt_ref = 0, dt_got = 0;
    char detail[512];
    int ok = 0;
    rlx_status sr = run_on(rt, "cpu-ref", in, n_in, &spec, &ref, &n_ref,
                           &dt_ref);
    if (sr != RLX_OK) {
        snprintf(detail, sizeof detail, "cpu-ref: %s", rlx_last_error());
    } else if (run_on(rt, "cuda", in, n_in, &spec, &got, &n_got, &dt_got) !=
               RLX_OK) {
        snprintf(detail, sizeof detail, "cuda: %s", rlx_last_error());
    } else if (n_ref != n_got || dt_ref != dt_got) {
        snprintf(detail, sizeof detail, "%zu bytes of dtype %d on cuda, "
                 "%zu of %d on cpu-ref", n_got, (int)dt_got, n_ref,
                 (int)dt_ref);
    } else {
        ok = same(got, ref, n_ref, dt_ref, tol, &at);
        if (ok)
            snprintf(detail, sizeof detail, "%zu bytes", n_ref);
        else
            snprintf(detail, sizeof detail, "first difference at %s %zu",
                     tol && dt_ref == RLX_DTYPE_F64 ? "element" : "byte",
                     at);
    }
    gpu_check(ok, what, detail);
    free(ref);
    free(got);
    for (uint32_t i = 0; i < n_in; i++)
        free(in[i].data);
}

#define DIMS(...) ((const int64_t[]){ __VA_ARGS__ })

static const rlx_dtype int_dtypes[] = {
    RLX_DTYPE_I16, RLX_DTYPE_U16, RLX_DTYPE_U32, RLX_DTYPE_U64,
    RLX_DTYPE_I8, RLX_DTYPE_U8, RLX_DTYPE_I32, RLX_DTYPE_I64
};
#define N_INT_DTYPES (sizeof int_dtypes / sizeof *int_dtypes)

static int is_unsigned(rlx_dtype t)
{
    return t == RLX_DTYPE_U8 || t == RLX_DTYPE_U16 || t == RLX_DTYPE_U32 ||
           t == RLX_DTYPE_U64;
}

/* A few elements of each u64/i64 input set to the values at 2^63 and
 * around zero, where signed and unsigned readings part. */
static void edge_values(tensor *t)
{
    static const uint64_t e[] = { 0, 1, 0x8000000000000000ull,
                                  0xffffffffffffffffull,
                                  0x7fffffffffffffffull, 2 };
    size_t n = tensor_count(t), es = rlx_dtype_size(t->dt);
    for (size_t i = 0; t->data && i < 6 && i < n; i++)
        memcpy((char *)t->data + i * es, &e[(i + (size_t)t->dims[0]) % 6],
               es);
}

static void check_int_binary(rlx_runtime *rt)
{
    static const struct { rlx_op op; int64_t attr; const char *name; } ops[] = {
        { RLX_OP_ADD, -1, "add" }, { RLX_OP_SUB, -1, "sub" },
        { RLX_OP_MUL, -1, "mul" }, { RLX_OP_DIV, -1, "div" },
        { RLX_OP_MAX, -1, "max" }, { RLX_OP_MIN, -1, "min" },
        { RLX_OP_POW, -1, "pow" }, { RLX_OP_MOD, 0, "mod" },
        { RLX_OP_MOD, 1, "fmod" }, { RLX_OP_PRELU, -1, "prelu" },
        { RLX_OP_BITWISE_AND, -1, "bitwise_and" },
        { RLX_OP_BITWISE_XOR, -1, "bitwise_xor" },
        { RLX_OP_LESS, -1, "less" }, { RLX_OP_EQUAL, -1, "equal" },
        { RLX_OP_GREATER_EQUAL, -1, "greater_equal" },
    };
    for (size_t d = 0; d < N_INT_DTYPES; d++)
        for (size_t o = 0; o < sizeof ops / sizeof *ops; o++) {
            rlx_dtype dt = int_dtypes[d];
            char what[96];
            /* pow: small exponents, so results are not all 0 or 1 */
            uint64_t mod_b = ops[o].op == RLX_OP_POW ? 9
                             : ops[o].op == RLX_OP_DIV ||
                                       ops[o].op == RLX_OP_MOD
                                 ? (d % 2 ? 0 : 1000)
                                 : 0;
            tensor in[2] = { make(dt, 2, DIMS(6, 9), 0, 0, 0),
                             make(dt, 1, DIMS(9), 0, 0, mod_b) };
            edge_values(&in[0]);
            if (ops[o].op == RLX_OP_EQUAL && in[0].data && in[1].data)
                memcpy(in[0].data, in[1].data, tensor_bytes(&in[1]));
            node_spec s = { ops[o].op, ops[o].attr >= 0, 0,
                            { ops[o].attr }, { 0 } };
            snprintf(what, sizeof what, "%s on %s", ops[o].name,
                     rlx_dtype_name(dt));
            compare(rt, what, in, 2, s, 0);
        }
}

static void check_int_unary(rlx_runtime *rt)
{
    for (size_t d = 0; d < N_INT_DTYPES; d++) {
        rlx_dtype dt = int_dtypes[d];
        static const rlx_op ops[] = { RLX_OP_ABS, RLX_OP_RELU, RLX_OP_SIGN,
                                      RLX_OP_BITWISE_NOT, RLX_OP_NEG,
                                      RLX_OP_CLIP };
        for (size_t o = 0; o < sizeof ops / sizeof *ops; o++) {
            if (ops[o] == RLX_OP_NEG && is_unsigned(dt))
                continue; /* neg takes signed integers */
            char what[96];
            tensor in = make(dt, 1, DIMS(77), 0, 0, 0);
            edge_values(&in);
            /* clip: bounds inside every width's range, rounded inward */
            node_spec s = { ops[o], 0, ops[o] == RLX_OP_CLIP ? 2 : 0,
                            { 0 }, { 20.5, 3e4 } };
            snprintf(what, sizeof what, "%s on %s", rlx_op_name(ops[o]),
                     rlx_dtype_name(dt));
            compare(rt, what, &in, 1, s, 0);
        }
        if (is_unsigned(dt))
            for (int right = 0; right < 2; right++) {
                char what[96];
                tensor in[2] = { make(dt, 1, DIMS(70), 0, 0, 0),
                                 make(dt, 1, DIMS(70), 0, 0, 70) };
                node_spec s = { RLX_OP_BIT_SHIFT, 1, 0, { right }, { 0 } };
                snprintf(what, sizeof what, "bit_shift %s on %s by 0..69",
                         right ? "right" : "left", rlx_dtype_name(dt));
                compare(rt, what, in, 2, s, 0);
            }
        /* clip of u64 with an upper bound past 2^63 */
        if (dt == RLX_DTYPE_U64) {
            tensor in = make(dt, 1, DIMS(40), 0, 0, 0);
            edge_values(&in);
            node_spec s = { RLX_OP_CLIP, 0, 2, { 0 }, { 3, 1.5e19 } };
            compare(rt, "clip on u64 to [3, 1.5e19]", &in, 1, s, 0);
        }
    }
}

static void check_int_reduce(rlx_runtime *rt)
{
    static const rlx_op ops[] = {
        RLX_OP_REDUCE_SUM, RLX_OP_REDUCE_MEAN, RLX_OP_REDUCE_MAX,
        RLX_OP_REDUCE_MIN, RLX_OP_REDUCE_PROD, RLX_OP_REDUCE_L1,
        RLX_OP_REDUCE_L2, RLX_OP_REDUCE_SUM_SQUARE
    };
    for (size_t d = 0; d < N_INT_DTYPES; d++) {
        rlx_dtype dt = int_dtypes[d];
        char what[96];
        for (size_t o = 0; o < sizeof ops / sizeof *ops; o++) {
            tensor in = make(dt, 3, DIMS(3, 7, 5), 0, 0, 0);
            edge_values(&in);
            node_spec s = { ops[o], 2, 0, { 0, 1 }, { 0 } };
            snprintf(what, sizeof what, "%s over axis 1 on %s",
                     rlx_op_name(ops[o]), rlx_dtype_name(dt));
            compare(rt, what, &in, 1, s, 0);
        }
        for (int last = 0; last < 2; last++) {
            tensor in = make(dt, 2, DIMS(6, 40), 0, 0, d % 2 ? 5 : 0);
            edge_values(&in);
            node_spec s = { last ? RLX_OP_ARGMIN : RLX_OP_ARGMAX, 3, 0,
                            { 1, 1, last }, { 0 } };
            snprintf(what, sizeof what, "%s on %s%s", rlx_op_name(s.op),
                     rlx_dtype_name(dt), last ? ", last index" : "");
            compare(rt, what, &in, 1, s, 0);
        }
        tensor cs = make(dt, 2, DIMS(5, 33), 0, 0, 0);
        node_spec sc = { RLX_OP_CUMSUM, 3, 0, { 1, 0, 1 }, { 0 } };
        snprintf(what, sizeof what, "cumsum reverse on %s",
                 rlx_dtype_name(dt));
        compare(rt, what, &cs, 1, sc, 0);
        tensor tk = make(dt, 2, DIMS(4, 30), 0, 0, 0);
        edge_values(&tk);
        node_spec st = { RLX_OP_TOPK, 3, 0, { 7, 1, 1 }, { 0 } };
        snprintf(what, sizeof what, "topk 7 on %s", rlx_dtype_name(dt));
        compare(rt, what, &tk, 1, st, 0);
    }
}

static void check_casts(rlx_runtime *rt)
{
    static const rlx_dtype all[] = {
        RLX_DTYPE_F32, RLX_DTYPE_F16, RLX_DTYPE_BF16, RLX_DTYPE_F64,
        RLX_DTYPE_I8, RLX_DTYPE_U8, RLX_DTYPE_I16, RLX_DTYPE_U16,
        RLX_DTYPE_I32, RLX_DTYPE_U32, RLX_DTYPE_I64, RLX_DTYPE_U64,
        RLX_DTYPE_BOOL
    };
    static const double specials[] = { NAN, INFINITY, -INFINITY, -0.0,
                                       9223372036854775808.0,
                                       18446744073709551616.0,
                                       -9223372036854775808.0, 65535.5,
                                       -32768.7, 4294967295.9, 255.5,
                                       -128.9, 0.5, -0.5 };
    const size_t n_all = sizeof all / sizeof *all;
    for (size_t f = 0; f < n_all; f++)
        for (size_t t = 0; t < n_all; t++) {
            if (f == t)
                continue;
            char what[96];
            tensor in = make(all[f], 1, DIMS(64), -3e19, 3e19, 0);
            if (is_float(all[f]) && in.data) {
                /* every magnitude: specials, then spread exponents */
                for (size_t i = 0; i < 64; i++) {
                    double v = i < 14 ? specials[i]
                                      : (rnd_unit() - 0.5) *
                                            pow(2.0, (double)(i % 50) * 1.4);
                    put_float(all[f], in.data, i, v);
                }
            } else {
                edge_values(&in);
            }
            node_spec s = { RLX_OP_CAST, 1, 0, { all[t] }, { 0 } };
            snprintf(what, sizeof what, "cast %s -> %s",
                     rlx_dtype_name(all[f]), rlx_dtype_name(all[t]));
            compare(rt, what, &in, 1, s, 0);
        }
}

static void check_f64(rlx_runtime *rt)
{
    static const struct { rlx_op op; double lo, hi; int exact; } un[] = {
        { RLX_OP_RELU, -2, 2, 1 }, { RLX_OP_NEG, -2, 2, 1 },
        { RLX_OP_ABS, -2, 2, 1 }, { RLX_OP_SQRT, 0, 4, 1 },
        { RLX_OP_FLOOR, -3, 3, 1 }, { RLX_OP_ROUND, -3, 3, 1 },
        { RLX_OP_GELU, -4, 4, 0 }, { RLX_OP_SIGMOID, -6, 6, 0 },
        { RLX_OP_TANH, -3, 3, 0 }, { RLX_OP_EXP, -3, 3, 0 },
        { RLX_OP_SIN, -4, 4, 0 }, { RLX_OP_COS, -4, 4, 0 },
        { RLX_OP_LOG, 0.05, 4, 0 }, { RLX_OP_RSQRT, 0.05, 4, 0 },
        { RLX_OP_SILU, -6, 6, 0 }, { RLX_OP_TAN, -1.3, 1.3, 0 },
        { RLX_OP_ATAN, -4, 4, 0 }, { RLX_OP_ERF, -3, 3, 0 },
        { RLX_OP_SOFTPLUS, -6, 6, 0 }, { RLX_OP_MISH, -5, 5, 0 },
        { RLX_OP_ASIN, -1, 1, 0 }, { RLX_OP_ACOSH, 1, 6, 0 },
        { RLX_OP_ATANH, -0.99, 0.99, 0 }, { RLX_OP_SINH, -5, 5, 0 },
    };
    char what[96];
    for (size_t o = 0; o < sizeof un / sizeof *un; o++) {
        tensor in = make(RLX_DTYPE_F64, 2, DIMS(7, 11), un[o].lo, un[o].hi,
                         0);
        node_spec s = { un[o].op, 0, 0, { 0 }, { 0 } };
        snprintf(what, sizeof what, "%s on f64", rlx_op_name(un[o].op));
        compare(rt, what, &in, 1, s, !un[o].exact);
    }
    tensor gt = make(RLX_DTYPE_F64, 1, DIMS(50), -4, 4, 0);
    compare(rt, "gelu (tanh) on f64", &gt, 1,
            (node_spec){ RLX_OP_GELU, 1, 0, { 1 }, { 0 } }, 1);
    static const rlx_op bin[] = { RLX_OP_ADD, RLX_OP_SUB, RLX_OP_MUL,
                                  RLX_OP_DIV, RLX_OP_MAX, RLX_OP_MIN,
                                  RLX_OP_POW };
    for (size_t o = 0; o < sizeof bin / sizeof *bin; o++) {
        tensor in[2] = { make(RLX_DTYPE_F64, 2, DIMS(5, 8), 0.1, 2, 0),
                         make(RLX_DTYPE_F64, 1, DIMS(8), -2, 2, 0) };
        snprintf(what, sizeof what, "%s on f64 (broadcast)",
                 rlx_op_name(bin[o]));
        compare(rt, what, in, 2, (node_spec){ bin[o], 0, 0, { 0 }, { 0 } },
                bin[o] == RLX_OP_POW);
    }
    static const rlx_op red[] = { RLX_OP_REDUCE_SUM, RLX_OP_REDUCE_MEAN,
                                  RLX_OP_REDUCE_MAX, RLX_OP_REDUCE_L2,
                                  RLX_OP_REDUCE_LOG_SUM_EXP };
    for (size_t o = 0; o < sizeof red / sizeof *red; o++) {
        tensor in = make(RLX_DTYPE_F64, 3, DIMS(4, 9, 6), -3, 3, 0);
        snprintf(what, sizeof what, "%s over axes 0, 2 on f64",
                 rlx_op_name(red[o]));
        compare(rt, what, &in, 1,
                (node_spec){ red[o], 3, 0, { 1, 0, 2 }, { 0 } }, 1);
    }
    tensor am = make(RLX_DTYPE_F64, 2, DIMS(3, 50), -3, 3, 0);
    compare(rt, "argmax on f64", &am, 1,
            (node_spec){ RLX_OP_ARGMAX, 1, 0, { 1 }, { 0 } }, 0);
    tensor cs = make(RLX_DTYPE_F64, 2, DIMS(3, 50), -3, 3, 0);
    compare(rt, "cumsum on f64", &cs, 1,
            (node_spec){ RLX_OP_CUMSUM, 1, 0, { 1 }, { 0 } }, 0);
    for (int dt = 0; dt < 2; dt++) {
        rlx_dtype t = dt ? RLX_DTYPE_F64 : RLX_DTYPE_F32;
        tensor in = make(t, 3, DIMS(5, 6, 6), -2, 2, 0);
        snprintf(what, sizeof what, "det of 6 x 6 on %s", rlx_dtype_name(t));
        compare(rt, what, &in, 1, (node_spec){ RLX_OP_DET, 0, 0, { 0 },
                                               { 0 } }, 1);
    }
    tensor big = make(RLX_DTYPE_F64, 2, DIMS(60, 60), -1, 1, 0);
    compare(rt, "det of 60 x 60 on f64", &big, 1,
            (node_spec){ RLX_OP_DET, 0, 0, { 0 }, { 0 } }, 1);
}

static void check_movement(rlx_runtime *rt)
{
    static const rlx_dtype wide[] = { RLX_DTYPE_I16, RLX_DTYPE_U16,
                                      RLX_DTYPE_U32, RLX_DTYPE_U64 };
    char what[96];
    for (size_t d = 0; d < 4; d++) {
        tensor in = make(wide[d], 2, DIMS(3, 4), 0, 0, 0);
        /* pad with a constant every width saturates differently */
        node_spec s = { RLX_OP_PAD, 5, 1, { 0, 1, 0, 0, 2 }, { 1e12 } };
        snprintf(what, sizeof what, "pad constant 1e12 on %s",
                 rlx_dtype_name(wide[d]));
        compare(rt, what, &in, 1, s, 0);
        tensor w[3] = { make(RLX_DTYPE_BOOL, 1, DIMS(20), 0, 0, 0),
                        make(wide[d], 2, DIMS(3, 20), 0, 0, 0),
                        make(wide[d], 1, DIMS(20), 0, 0, 0) };
        snprintf(what, sizeof what, "where on %s", rlx_dtype_name(wide[d]));
        compare(rt, what, w, 3, (node_spec){ RLX_OP_WHERE, 0, 0, { 0 },
                                             { 0 } }, 0);
    }
    tensor sc[3] = { make(RLX_DTYPE_U64, 1, DIMS(10), 0, 0, 0),
                     make(RLX_DTYPE_I64, 1, DIMS(16), 0, 0, 10),
                     make(RLX_DTYPE_U64, 1, DIMS(16), 0, 0, 0) };
    edge_values(&sc[0]);
    edge_values(&sc[2]);
    compare(rt, "scatter_elements max on u64 (duplicate targets)", sc, 3,
            (node_spec){ RLX_OP_SCATTER_ELEMENTS, 2, 0,
                         { 0, RLX_REDUCTION_MAX }, { 0 } }, 0);
}

/* The ops the GPU took no dtype of before: max_pool_index, grid_sample
 * and roi_align (det is in check_f64). */
static void check_sampling(rlx_runtime *rt)
{
    char what[128];
    for (int so = 0; so < 2; so++) {
        rlx_dtype dt = so ? RLX_DTYPE_F16 : RLX_DTYPE_F32;
        tensor in = make(dt, 4, DIMS(2, 3, 7, 6), -4, 4, 0);
        /* kernel 3x2, strides 2, pads (1, 0) begin, (1, 1) end */
        node_spec s = { RLX_OP_MAX_POOL_INDEX, 13, 0,
                        { 0, 0, so, 3, 2, 2, 2, 1, 1, 1, 0, 1, 1 }, { 0 } };
        snprintf(what, sizeof what, "max_pool_index on %s, storage order %d",
                 rlx_dtype_name(dt), so);
        compare(rt, what, &in, 1, s, 0);
    }
    for (int mode = 0; mode < 3; mode++)
        for (int pad = 0; pad < 3; pad++)
            for (int align = 0; align < 2; align++) {
                tensor in[2] = { make(RLX_DTYPE_F32, 4, DIMS(2, 3, 5, 6), -2,
                                      2, 0),
                                 make(RLX_DTYPE_F32, 4, DIMS(2, 4, 3, 2),
                                      -1.4, 1.4, 0) };
                node_spec s = { RLX_OP_GRID_SAMPLE, 3, 0,
                                { mode, pad, align }, { 0 } };
                snprintf(what, sizeof what, "grid_sample 2-d, mode %d, "
                         "padding %d, align_corners %d", mode, pad, align);
                compare(rt, what, in, 2, s, 0);
            }
    tensor g3[2] = { make(RLX_DTYPE_BF16, 5, DIMS(1, 2, 3, 4, 5), -2, 2, 0),
                     make(RLX_DTYPE_BF16, 5, DIMS(1, 2, 2, 3, 3), -1.2, 1.2,
                          0) };
    compare(rt, "grid_sample 3-d on bf16, linear, reflection", g3, 2,
            (node_spec){ RLX_OP_GRID_SAMPLE, 3, 0, { 0, 2, 0 }, { 0 } }, 0);
    for (int mode = 0; mode < 2; mode++)
        for (int half = 0; half < 2; half++) {
            tensor in[3] = { make(RLX_DTYPE_F32, 4, DIMS(2, 3, 8, 9), -3, 3,
                                  0),
                             make(RLX_DTYPE_F32, 2, DIMS(5, 4), 0, 18, 0),
                             make(RLX_DTYPE_I64, 1, DIMS(5), 0, 0, 2) };
            node_spec s = { RLX_OP_ROI_ALIGN, 5, 1,
                            { mode, 3, 2, half ? 0 : 2, half },
                            { 0.5 } };
            snprintf(what, sizeof what, "roi_align %s, half_pixel %d, "
                     "sampling %s", mode ? "max" : "avg", half,
                     half ? "adaptive" : "2");
            compare(rt, what, in, 3, s, 0);
        }
}

TEST(dtypes_match_cpu_ref)
{
    GPU_CHECKS_BEGIN();
    setvbuf(stdout, NULL, _IOLBF, 0);
    CUDA_TEST_NEED_GPU();
    rlx_runtime *rt = cuda_test_runtime();
    check_int_binary(rt);
    check_int_unary(rt);
    check_int_reduce(rt);
    check_casts(rt);
    check_f64(rt);
    check_movement(rt);
    check_sampling(rt);
    rlx_runtime_destroy(rt);
    GPU_CHECKS_END();
}

TEST(without_gpu)
{
    cuda_test_without_gpu();
}

RLX_TEST_LIST(TEST_ENTRY(without_gpu), TEST_ENTRY(dtypes_match_cpu_ref));
