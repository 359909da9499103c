/*
 * test_cuda_quant.c - the quantization kernels of the shared GPU code
 * (gk_quant.cu) on cuda, bit-exact against cpu-ref (the ground truth):
 * each graph runs on both, and the result bytes must be equal.
 * - quantize_linear per tensor (the rounding and saturation edges of
 *   docs/ops.md, checked against their documented values too), per axis
 *   and blocked, from f32 and bf16, to u8 and i8;
 * - dequantize_linear of u8, i8 and i32 (beyond 2^24) to f32 and bf16;
 * - matmul_integer over u8/i8 mixes, per-row and per-column zero points,
 *   a broadcast batch, a rank-1 side, and the i8 DP4A path;
 * - conv_integer with groups, strides, dilation, padding (the zero
 *   point) and per-channel weight zero points;
 * - the requantization chain a quantized ONNX model lowers to
 *   (conv_integer -> add i32 -> cast f32 -> mul -> quantize_linear ->
 *   max on u8), compiled with fallback refused: every node on the GPU;
 *   fused into one step (cuDNN's int8 conv and our epilogue, then our
 *   conv_integer kernel and the epilogue) in the shapes the fused path
 *   pads and corrects, with params written again between runs.
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

enum { MAX_IN = 4 };

typedef struct tensor {
    rlx_dtype dt;
    uint32_t rank;
    int64_t dims[4];
    void *data;
} tensor;

static size_t tensor_bytes(const tensor *t)
{
    size_t n = rlx_dtype_size(t->dt);
    for (uint32_t d = 0; d < t->rank; d++)
        n *= (size_t)t->dims[d];
    return n;
}

static uint64_t seed = 1;

static uint32_t rnd(void)
{
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(seed >> 33);
}

/* T's data: random bytes (integers) or floats in [LO, HI) (f32 or
 * bf16, the f32's top half) */
static tensor make(rlx_dtype dt, uint32_t rank, const int64_t *dims,
                   double lo, double hi)
{
    tensor t = { dt, rank, { 1, 1, 1, 1 }, NULL };
    if (rank)
        memcpy(t.dims, dims, rank * sizeof *dims);
    size_t n = tensor_bytes(&t) / rlx_dtype_size(dt);
    t.data = calloc(n ? n : 1, rlx_dtype_size(dt));
    for (size_t i = 0; t.data && i < n; i++) {
        float f = (float)(lo + (hi - lo) * (rnd() / 4294967296.0));
        uint32_t bits;
        memcpy(&bits, &f, 4);
        switch (dt) {
        case RLX_DTYPE_F32: ((float *)t.data)[i] = f; break;
        case RLX_DTYPE_BF16: ((uint16_t *)t.data)[i] = (uint16_t)(bits >> 16);
            break;
        case RLX_DTYPE_I32: ((int32_t *)t.data)[i] = (int32_t)rnd(); break;
        default: ((uint8_t *)t.data)[i] = (uint8_t)rnd(); break;
        }
    }
    return t;
}

/* One node of OP over the inputs with int attributes INTS (N_INTS),
 * or the requantization chain (op 0). */
typedef struct node_spec {
    rlx_op op;
    uint32_t n_ints;
    int64_t ints[16];
} node_spec;

static rlx_status build(rlx_graph *g, const rlx_value *in, uint32_t n_in,
                        const node_spec *spec, rlx_value *out)
{
    rlx_attrs a = { spec->n_ints, spec->ints, 0, NULL };
    if (spec->op)
        return rlx_graph_add_node(g, NULL, spec->op, n_in, in, &a, out);
    /* chain: in x, w, x_zp, w_zp, bias i32, mul f32, scale f32, y_zp
     * (also max's bound)[, min's bound] */
    rlx_value acc, biased, f, scaled, q;
    rlx_status st = rlx_graph_add_node(g, NULL, RLX_OP_CONV_INTEGER, 4, in,
                                       &a, &acc);
    rlx_value ab[2] = { acc, in[4] };
    if (st == RLX_OK)
        st = rlx_graph_add_node(g, NULL, RLX_OP_ADD, 2, ab, NULL, &biased);
    int64_t to_f32 = RLX_DTYPE_F32;
    rlx_attrs cast = { 1, &to_f32, 0, NULL };
    if (st == RLX_OK)
        st = rlx_graph_add_node(g, NULL, RLX_OP_CAST, 1, &biased, &cast, &f);
    rlx_value fm[2] = { f, in[5] };
    if (st == RLX_OK)
        st = rlx_graph_add_node(g, NULL, RLX_OP_MUL, 2, fm, NULL, &scaled);
    rlx_value qi[3] = { scaled, in[6], in[7] };
    if (st == RLX_OK)
        st = rlx_graph_add_node(g, NULL, RLX_OP_QUANTIZE_LINEAR, 3, qi, NULL,
                                &q);
    rlx_value mx[2] = { q, in[7] };
    if (st == RLX_OK)
        st = rlx_graph_add_node(g, NULL, RLX_OP_MAX, 2, mx, NULL, out);
    rlx_value mn[2] = { *out, in[8] };
    if (st == RLX_OK && n_in > 8) /* a Clip: the upper bound too */
        st = rlx_graph_add_node(g, NULL, RLX_OP_MIN, 2, mn, NULL, out);
    return st;
}

/* Which inputs of the next graphs are params (bit i: input i), not
 * inputs; with RERUN, each such param is written again with every byte
 * changed after the first run, and the result of a second run follows
 * the first's. */
static unsigned param_mask;
static int rerun;

/* Runs SPEC over the N_IN tensors IN on BACKEND (fallback refused:
 * every node there); the result's bytes into a new *Y (*NY bytes). */
static rlx_status run_on(rlx_runtime *rt, const char *backend,
                         const tensor *in, uint32_t n_in,
                         const node_spec *spec, void **y, size_t *ny)
{
    rlx_graph *g = NULL;
    rlx_session *s = NULL;
    rlx_program *p = NULL;
    rlx_value v[9], out;
    char name[16];
    *y = NULL;
    *ny = 0;
    rlx_status st = rlx_graph_create(&g);
    for (uint32_t i = 0; st == RLX_OK && i < n_in; i++) {
        snprintf(name, sizeof name, "i%u", i);
        st = param_mask >> i & 1
                 ? rlx_graph_param(g, name, in[i].dt, in[i].rank,
                                   in[i].dims, &v[i])
                 : rlx_graph_input(g, name, in[i].dt, in[i].rank,
                                   in[i].dims, &v[i]);
    }
    if (st == RLX_OK)
        st = build(g, v, n_in, spec, &out);
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
        st = param_mask >> i & 1
                 ? rlx_program_set_param(p, name, in[i].data,
                                         tensor_bytes(&in[i]))
                 : rlx_program_set_input(p, name, in[i].data,
                                         tensor_bytes(&in[i]));
    }
    size_t one = 0;
    for (int pass = 0; pass <= rerun && st == RLX_OK; pass++) {
        for (uint32_t i = 0; pass && st == RLX_OK && i < n_in; i++) {
            if (!(param_mask >> i & 1))
                continue;
            size_t n = tensor_bytes(&in[i]);
            unsigned char *d = malloc(n ? n : 1);
            for (size_t k = 0; d && k < n; k++)
                d[k] = (unsigned char)(((unsigned char *)in[i].data)[k] ^
                                       0x35);
            snprintf(name, sizeof name, "i%u", i);
            st = d ? rlx_program_set_param(p, name, d, n)
                   : RLX_ERR_OUT_OF_MEMORY;
            free(d);
        }
        if (st == RLX_OK)
            st = rlx_program_run(p);
        const void *data = st == RLX_OK ? rlx_program_output_data(p, 0, &one)
                                        : NULL;
        if (st == RLX_OK && !data)
            st = RLX_ERR_SHAPE;
        void *more = st == RLX_OK ? realloc(*y, (*ny + one) ? *ny + one : 1)
                                  : NULL;
        if (st == RLX_OK && !more)
            st = RLX_ERR_OUT_OF_MEMORY;
        if (st == RLX_OK) {
            *y = more;
            memcpy((char *)*y + *ny, data, one);
            *ny += one;
        }
    }
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_graph_destroy(g);
    return st;
}

/* SPEC over IN on cuda and on cpu-ref: equal bytes. EXPECT (N_EXPECT
 * bytes, may be NULL) the result's documented first bytes. Frees IN's
 * data. */
static void compare(rlx_runtime *rt, const char *what, tensor *in,
                    uint32_t n_in, node_spec spec, const void *expect,
                    size_t n_expect)
{
    void *ref = NULL, *got = NULL;
    size_t n_ref = 0, n_got = 0;
    char detail[512];
    rlx_status sr = run_on(rt, "cpu-ref", in, n_in, &spec, &ref, &n_ref);
    if (sr != RLX_OK)
        snprintf(detail, sizeof detail, "cpu-ref: %s", rlx_last_error());
    rlx_status sg = sr == RLX_OK ? run_on(rt, "cuda", in, n_in, &spec, &got,
                                          &n_got)
                                 : sr;
    int ok = sr == RLX_OK && sg == RLX_OK && n_ref == n_got && n_ref > 0;
    if (sr == RLX_OK && sg != RLX_OK)
        snprintf(detail, sizeof detail, "cuda: %s", rlx_last_error());
    else if (sr == RLX_OK && !ok)
        snprintf(detail, sizeof detail, "%zu bytes on cuda, %zu on cpu-ref",
                 n_got, n_ref);
    if (ok) {
        size_t at = 0;
        while (at < n_ref && ((uint8_t *)ref)[at] == ((uint8_t *)got)[at])
            at++;
        ok = at == n_ref;
        snprintf(detail, sizeof detail, ok ? "%zu bytes equal"
                                           : "first differing byte %zu",
                 ok ? n_ref : at);
        if (ok && expect && (n_expect > n_ref ||
                             memcmp(ref, expect, n_expect) != 0)) {
            ok = 0;
            snprintf(detail, sizeof detail, "equal, but not the documented "
                     "values");
        }
    }
    gpu_check(ok, what, detail);
    free(ref);
    free(got);
    for (uint32_t i = 0; i < n_in; i++)
        free(in[i].data);
}

#define DIMS(...) ((const int64_t[]){ __VA_ARGS__ })
#define SCALAR(dt, v)                                                       \
    make_scalar(dt, (double)(v))

static tensor make_scalar(rlx_dtype dt, double v)
{
    tensor t = make(dt, 0, NULL, 0, 0);
    float f = (float)v;
    if (t.data && dt == RLX_DTYPE_I32) {
        *(int32_t *)t.data = (int32_t)v;
        return t;
    }
    if (t.data && dt == RLX_DTYPE_F32)
        memcpy(t.data, &f, 4);
    else if (t.data && dt == RLX_DTYPE_I8)
        *(int8_t *)t.data = (int8_t)v;
    else if (t.data)
        *(uint8_t *)t.data = (uint8_t)v;
    return t;
}

static void check_quantize(rlx_runtime *rt)
{
    /* docs/ops.md: scale 0.5, zero point 128 */
    tensor in[3] = { make(RLX_DTYPE_F32, 1, DIMS(64), -150, 150),
                     SCALAR(RLX_DTYPE_F32, 0.5), SCALAR(RLX_DTYPE_U8, 128) };
    static const float edge[] = { -1.25f, 0.25f, 0.75f, 200, -300, NAN,
                                  INFINITY, -INFINITY, 0.5f, -0.75f };
    static const uint8_t want[] = { 126, 128, 130, 255, 0, 128, 255, 0,
                                    129, 126 };
    if (in[0].data)
        memcpy(in[0].data, edge, sizeof edge);
    compare(rt, "quantize_linear f32 -> u8 per tensor: half to even, "
            "saturation, NaN", in, 3,
            (node_spec){ RLX_OP_QUANTIZE_LINEAR, 0, { 0 } }, want,
            sizeof want);

    tensor ax[3] = { make(RLX_DTYPE_F32, 3, DIMS(3, 5, 7), -60, 60),
                     make(RLX_DTYPE_F32, 1, DIMS(5), 0.05, 1),
                     make(RLX_DTYPE_I8, 1, DIMS(5), 0, 0) };
    compare(rt, "quantize_linear f32 -> i8 per axis 1", ax, 3,
            (node_spec){ RLX_OP_QUANTIZE_LINEAR, 1, { 1 } }, NULL, 0);

    tensor bl[3] = { make(RLX_DTYPE_BF16, 2, DIMS(4, 8), -40, 40),
                     make(RLX_DTYPE_BF16, 2, DIMS(4, 3), 0.1, 0.9),
                     make(RLX_DTYPE_U8, 2, DIMS(4, 3), 0, 0) };
    compare(rt, "quantize_linear bf16 -> u8 blocked (axis 1, block 3)", bl,
            3, (node_spec){ RLX_OP_QUANTIZE_LINEAR, 2, { 1, 3 } }, NULL, 0);
}

static void check_dequantize(rlx_runtime *rt)
{
    tensor u[3] = { make(RLX_DTYPE_U8, 1, DIMS(67), 0, 0),
                    SCALAR(RLX_DTYPE_F32, 0.5), SCALAR(RLX_DTYPE_U8, 128) };
    static const uint8_t x3[] = { 0, 128, 255 };
    if (u[0].data)
        memcpy(u[0].data, x3, sizeof x3);
    static const float want[] = { -64, 0, 63.5f };
    compare(rt, "dequantize_linear u8 -> f32 per tensor", u, 3,
            (node_spec){ RLX_OP_DEQUANTIZE_LINEAR, 0, { 0 } }, want,
            sizeof want);

    tensor ax[3] = { make(RLX_DTYPE_I8, 2, DIMS(6, 10), 0, 0),
                     make(RLX_DTYPE_BF16, 1, DIMS(6), 0.01, 2),
                     make(RLX_DTYPE_I8, 1, DIMS(6), 0, 0) };
    compare(rt, "dequantize_linear i8 -> bf16 per axis 0", ax, 3,
            (node_spec){ RLX_OP_DEQUANTIZE_LINEAR, 1, { 0 } }, NULL, 0);

    /* random i32s: most beyond 2^24, rounding to f32 first */
    tensor big[3] = { make(RLX_DTYPE_I32, 1, DIMS(50), 0, 0),
                      SCALAR(RLX_DTYPE_F32, 0.37), make(RLX_DTYPE_I32, 0,
                                                        NULL, 0, 0) };
    compare(rt, "dequantize_linear i32 beyond 2^24 -> f32", big, 3,
            (node_spec){ RLX_OP_DEQUANTIZE_LINEAR, 0, { 0 } }, NULL, 0);
}

static void check_matmul(rlx_runtime *rt)
{
    tensor a[4] = { make(RLX_DTYPE_U8, 4, DIMS(2, 3, 17, 33), 0, 0),
                    make(RLX_DTYPE_I8, 2, DIMS(33, 19), 0, 0),
                    make(RLX_DTYPE_U8, 1, DIMS(17), 0, 0),
                    make(RLX_DTYPE_I8, 1, DIMS(19), 0, 0) };
    compare(rt, "matmul_integer u8 x i8, per-row and per-column zero "
            "points", a, 4, (node_spec){ RLX_OP_MATMUL_INTEGER, 0, { 0 } },
            NULL, 0);

    tensor d[4] = { make(RLX_DTYPE_I8, 4, DIMS(3, 1, 5, 37), 0, 0),
                    make(RLX_DTYPE_I8, 3, DIMS(2, 37, 6), 0, 0),
                    SCALAR(RLX_DTYPE_I8, -3),
                    make(RLX_DTYPE_I8, 1, DIMS(6), 0, 0) };
    compare(rt, "matmul_integer i8 x i8 (DP4A), broadcast batch", d, 4,
            (node_spec){ RLX_OP_MATMUL_INTEGER, 0, { 0 } }, NULL, 0);

    tensor r1[4] = { make(RLX_DTYPE_I8, 1, DIMS(40), 0, 0),
                     make(RLX_DTYPE_U8, 2, DIMS(40, 7), 0, 0),
                     SCALAR(RLX_DTYPE_I8, 5), SCALAR(RLX_DTYPE_U8, 200) };
    compare(rt, "matmul_integer rank-1 i8 x u8", r1, 4,
            (node_spec){ RLX_OP_MATMUL_INTEGER, 0, { 0 } }, NULL, 0);

    tensor uu[4] = { make(RLX_DTYPE_U8, 2, DIMS(9, 300), 0, 0),
                     make(RLX_DTYPE_U8, 2, DIMS(300, 11), 0, 0),
                     SCALAR(RLX_DTYPE_U8, 0), SCALAR(RLX_DTYPE_U8, 0) };
    compare(rt, "matmul_integer u8 x u8, k 300", uu, 4,
            (node_spec){ RLX_OP_MATMUL_INTEGER, 0, { 0 } }, NULL, 0);

    /* docs/ops.md: u8 255 times i8 -128 twice */
    tensor e[4] = { make(RLX_DTYPE_U8, 2, DIMS(1, 2), 0, 0),
                    make(RLX_DTYPE_I8, 2, DIMS(2, 1), 0, 0),
                    SCALAR(RLX_DTYPE_U8, 0), SCALAR(RLX_DTYPE_I8, 0) };
    if (e[0].data && e[1].data) {
        memset(e[0].data, 255, 2);
        memset(e[1].data, 0x80, 2);
    }
    int32_t want = -65280;
    compare(rt, "matmul_integer 255 x -128 twice is -65280", e, 4,
            (node_spec){ RLX_OP_MATMUL_INTEGER, 0, { 0 } }, &want,
            sizeof want);
}

static void check_conv(rlx_runtime *rt)
{
    /* group 2, stride 2, dilation 1, pad 1 */
    tensor a[4] = { make(RLX_DTYPE_U8, 4, DIMS(2, 6, 9, 8), 0, 0),
                    make(RLX_DTYPE_I8, 4, DIMS(8, 3, 3, 3), 0, 0),
                    SCALAR(RLX_DTYPE_U8, 7),
                    make(RLX_DTYPE_I8, 1, DIMS(8), 0, 0) };
    compare(rt, "conv_integer u8 x i8, 2 groups, stride 2, pad 1, "
            "per-channel w zero points", a, 4,
            (node_spec){ RLX_OP_CONV_INTEGER, 9,
                         { 2, 2, 2, 1, 1, 1, 1, 1, 1 } }, NULL, 0);

    /* dilation 2, uneven pads */
    tensor b[4] = { make(RLX_DTYPE_I8, 4, DIMS(1, 4, 7, 7), 0, 0),
                    make(RLX_DTYPE_U8, 4, DIMS(5, 4, 2, 2), 0, 0),
                    SCALAR(RLX_DTYPE_I8, -9), SCALAR(RLX_DTYPE_U8, 100) };
    compare(rt, "conv_integer i8 x u8, dilation 2, uneven pads", b, 4,
            (node_spec){ RLX_OP_CONV_INTEGER, 9,
                         { 1, 1, 1, 2, 2, 0, 1, 2, 0 } }, NULL, 0);

    /* docs/ops.md: a 2x2 kernel of ones over [[1, 2], [3, 4]], pads 1,
     * x zero point 1 */
    tensor e[4] = { make(RLX_DTYPE_U8, 4, DIMS(1, 1, 2, 2), 0, 0),
                    make(RLX_DTYPE_U8, 4, DIMS(1, 1, 2, 2), 0, 0),
                    SCALAR(RLX_DTYPE_U8, 1), SCALAR(RLX_DTYPE_U8, 0) };
    if (e[0].data && e[1].data) {
        memcpy(e[0].data, (uint8_t[]){ 1, 2, 3, 4 }, 4);
        memset(e[1].data, 1, 4);
    }
    static const int32_t want[] = { 0, 1, 1, 2, 6, 4, 2, 5, 3 };
    compare(rt, "conv_integer pads with the zero point", e, 4,
            (node_spec){ RLX_OP_CONV_INTEGER, 9,
                         { 1, 1, 1, 1, 1, 1, 1, 1, 1 } }, want,
            sizeof want);
}

/* the requantization chain of a quantized conv, all on the GPU */
static void check_chain(rlx_runtime *rt)
{
    tensor in[8] = { make(RLX_DTYPE_U8, 4, DIMS(2, 8, 10, 10), 0, 0),
                     make(RLX_DTYPE_I8, 4, DIMS(16, 8, 3, 3), 0, 0),
                     SCALAR(RLX_DTYPE_U8, 120),
                     SCALAR(RLX_DTYPE_I8, 0),
                     make(RLX_DTYPE_I32, 4, DIMS(1, 16, 1, 1), 0, 0),
                     SCALAR(RLX_DTYPE_F32, 0.00002),
                     SCALAR(RLX_DTYPE_F32, 0.05),
                     SCALAR(RLX_DTYPE_U8, 90) };
    /* a bias within the accumulators' reach: shift the random i32s */
    for (int i = 0; in[4].data && i < 16; i++)
        ((int32_t *)in[4].data)[i] >>= 16;
    compare(rt, "requantization chain (conv_integer, add i32, cast, mul, "
            "quantize_linear, max u8) all on cuda", in, 8,
            (node_spec){ 0, 9, { 1, 1, 1, 1, 1, 1, 1, 1, 1 } }, NULL, 0);
}

/* The fused quantized conv (gk_qconv.cu) in the shapes its cuDNN path
 * pads and corrects: channels not a multiple of 4, uneven pads, u8
 * weights with per-channel zero points, i8 results and a clip; params
 * written again between runs (its prepared filter follows); sums beyond
 * 2^24 and a w - w_zp outside i8 (summed exactly). Then each again
 * with tensor-core math allowed (RLX_CUDA_QCONV_MATH=tensor) and on
 * conv_integer's own kernel (RLX_CUDA_CONV=kernel). */
static void check_fused_chains(rlx_runtime *rt)
{
    /* cuDNN with its default math, cuDNN with tensor-core math allowed,
     * our kernel */
    for (int pass = 0; pass < 3; pass++) {
        if (pass == 1)
            setenv("RLX_CUDA_QCONV_MATH", "tensor", 1);
        if (pass == 2) {
            unsetenv("RLX_CUDA_QCONV_MATH");
            setenv("RLX_CUDA_CONV", "kernel", 1);
        }
        const char *how = pass == 2   ? " (our kernel)"
                          : pass == 1 ? " (cuDNN, tensor-core math)"
                                      : "";
        char what[200];

        tensor a[8] = { make(RLX_DTYPE_U8, 4, DIMS(2, 8, 10, 10), 0, 0),
                        make(RLX_DTYPE_I8, 4, DIMS(16, 8, 3, 3), 0, 0),
                        SCALAR(RLX_DTYPE_U8, 120),
                        SCALAR(RLX_DTYPE_I8, 0),
                        make(RLX_DTYPE_I32, 4, DIMS(1, 16, 1, 1), 0, 0),
                        SCALAR(RLX_DTYPE_F32, 0.00002),
                        SCALAR(RLX_DTYPE_F32, 1),
                        SCALAR(RLX_DTYPE_U8, 90) };
        for (int i = 0; a[4].data && i < 16; i++)
            ((int32_t *)a[4].data)[i] >>= 16;
        param_mask = 1u << 1 | 1u << 3 | 1u << 4;
        rerun = 1;
        snprintf(what, sizeof what, "fused chain with w, w_zp and bias "
                 "params, run, then run again after writing them%s", how);
        compare(rt, what, a, 8,
                (node_spec){ 0, 9, { 1, 1, 1, 1, 1, 1, 1, 1, 1 } }, NULL, 0);
        param_mask = 0;
        rerun = 0;

        /* c 3, m 6; stride 2, pads 1 0 2 1; per-channel u8 w zero
         * points (128, so w - w_zp fits i8), bias and multiplier */
        tensor b[9] = { make(RLX_DTYPE_I8, 4, DIMS(3, 3, 11, 9), 0, 0),
                        make(RLX_DTYPE_U8, 4, DIMS(6, 3, 3, 3), 0, 0),
                        SCALAR(RLX_DTYPE_I8, -7),
                        make(RLX_DTYPE_U8, 1, DIMS(6), 0, 0),
                        make(RLX_DTYPE_I32, 4, DIMS(1, 6, 1, 1), 0, 0),
                        make(RLX_DTYPE_F32, 4, DIMS(1, 6, 1, 1), 0.0005,
                             0.004),
                        SCALAR(RLX_DTYPE_F32, 0.5),
                        SCALAR(RLX_DTYPE_I8, -20),
                        SCALAR(RLX_DTYPE_I8, 70) };
        if (b[3].data)
            memset(b[3].data, 128, 6);
        for (int i = 0; b[4].data && i < 6; i++)
            ((int32_t *)b[4].data)[i] >>= 20;
        snprintf(what, sizeof what, "fused chain: 3 channels in, 6 out, "
                 "stride 2, uneven pads, u8 w with per-channel zero "
                 "points, i8 result, clip%s", how);
        compare(rt, what, b, 9,
                (node_spec){ 0, 9, { 1, 2, 2, 1, 1, 1, 0, 2, 1 } }, NULL, 0);

        /* x in {0, 1} with zero point 0, w in {-128, -127}: the shifted
         * sums reach -2^24 and beyond */
        tensor c[8] = { make(RLX_DTYPE_U8, 4, DIMS(1, 128, 6, 6), 0, 0),
                        make(RLX_DTYPE_I8, 4, DIMS(8, 128, 3, 3), 0, 0),
                        SCALAR(RLX_DTYPE_U8, 0),
                        SCALAR(RLX_DTYPE_I8, 0),
                        make(RLX_DTYPE_I32, 4, DIMS(1, 8, 1, 1), 0, 0),
                        SCALAR(RLX_DTYPE_F32, 0.0003),
                        SCALAR(RLX_DTYPE_F32, 1),
                        SCALAR(RLX_DTYPE_U8, 100) };
        for (size_t i = 0; c[0].data && i < 128 * 36; i++)
            ((uint8_t *)c[0].data)[i] &= 1;
        for (size_t i = 0; c[1].data && i < 8 * 128 * 9; i++)
            ((uint8_t *)c[1].data)[i] = (uint8_t)(0x80 | (((uint8_t *)
                                                   c[1].data)[i] & 1));
        for (int i = 0; c[4].data && i < 8; i++)
            ((int32_t *)c[4].data)[i] >>= 12;
        snprintf(what, sizeof what, "fused chain with sums beyond 2^24 "
                 "(exact)%s", how);
        compare(rt, what, c, 8,
                (node_spec){ 0, 9, { 1, 1, 1, 1, 1, 1, 1, 1, 1 } }, NULL, 0);
    }
    unsetenv("RLX_CUDA_CONV");
}

TEST(quant_matches_cpu_ref)
{
    GPU_CHECKS_BEGIN();
    setvbuf(stdout, NULL, _IOLBF, 0);
    CUDA_TEST_NEED_GPU();
    rlx_runtime *rt = cuda_test_runtime();
    check_quantize(rt);
    check_dequantize(rt);
    check_matmul(rt);
    check_conv(rt);
    check_chain(rt);
    check_fused_chains(rt);
    rlx_runtime_destroy(rt);
    GPU_CHECKS_END();
}

TEST(without_gpu)
{
    cuda_test_without_gpu();
}

RLX_TEST_LIST(TEST_ENTRY(without_gpu), TEST_ENTRY(quant_matches_cpu_ref));
