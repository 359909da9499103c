/*
 * cuda_qconv.c - a quantized conv (conv_integer with its requantization
 * chain fused, gpu_fuse.c) as one cuDNN int8 convolution and one
 * epilogue kernel, where cuDNN is installed and takes the shape (2
 * spatial axes, one group): cudnnConvolutionForward on i8 operands,
 * channels last and padded to multiples of 4, i32 accumulation, f32
 * results (cuDNN's INT8_EXT configuration). gk_qconv.cu's comment says
 * how the zero points and the padding come out exactly: x is shifted to
 * i8 and padded explicitly with its zero point (one small kernel per
 * run), the filter w - w_zp is prepared once per param write (as the
 * float convs' reordered filters are, rlxg_dnn_refresh), and the
 * epilogue adds the one per-channel correction, then runs the chain.
 * Elsewhere (no cuDNN, other shapes, a refused trial run) our
 * conv_integer kernel fills the accumulators and the same epilogue runs.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <rlx/kit_error.h>

#include "cuda_cudnn_api.h"
#include "gpu_internal.h"

typedef struct rlxc_qconv {
    dnn_desc x, y, w, conv;
    int algo;
    void *workspace;
    size_t ws_bytes;
    int64_t c4, m4;
    int shift;             /* 128: u8 x, stored as x - 128; 0: i8 x */
    int8_t *xp;            /* padded channels-last x: the scratch every
                              int8 conv of the executable shares */
    size_t xp_bytes;
    int owns_xp;
    float *ybuf;           /* f32 results where m4 != m; else they go
                              into the accumulators' own storage */
    int8_t *wp;            /* w - w_zp, [m4, kh, kw, c4] */
    int32_t *wsum;
    int *wbad;
    const void *w_src, *zw_src; /* what wp was made from */
    uint64_t w_ver, zw_ver;
} rlxc_qconv;

void rlxc_qconv_free(void *plan)
{
    rlxc_qconv *d = plan;
    if (!d)
        return;
    if (d->x)
        rlxc_dnn.tensor_destroy(d->x);
    if (d->y)
        rlxc_dnn.tensor_destroy(d->y);
    if (d->w)
        rlxc_dnn.filter_destroy(d->w);
    if (d->conv)
        rlxc_dnn.conv_destroy(d->conv);
    if (d->owns_xp)
        cudaFree(d->xp);
    cudaFree(d->ybuf);
    cudaFree(d->wp);
    cudaFree(d->wsum);
    cudaFree(d->wbad);
    cudaFree(d->workspace);
    free(d);
}

static int fits(int64_t v)
{
    return v >= 0 && v <= INT_MAX;
}

/* Channels-last strides of [n, c, h, w] into ST. */
static void nhwc_strides(const int *d, int *st)
{
    st[1] = 1;
    st[3] = d[1];
    st[2] = d[1] * d[3];
    st[0] = st[2] * d[2];
}

/* Tensor T as packed channels last: by format where cuDNN has the 4-d
 * setter (its int8 configurations name the format), else by strides. */
static int set_nhwc(dnn_desc t, int dtype, const int *d, const int *st)
{
    if (rlxc_dnn.tensor_set4d)
        return rlxc_dnn.tensor_set4d(t, DNN_NHWC, dtype, d[0], d[1], d[2],
                                     d[3]);
    return rlxc_dnn.tensor_set(t, dtype, 4, d, st);
}

/* The descriptors and algorithm of D for step S's window; 0 where cuDNN
 * cannot take it. TENSOR: the heuristics may choose tensor-core math
 * (CUDNN_TENSOR_OP_MATH; setting cuda.qconv_math), else cuDNN's default
 * math. */
static int describe(rlxc_qconv *d, void *handle, const rlxg_win_plan *p,
                    int tensor)
{
    int64_t hp = p->in[0] + p->pad[0] + p->pad_end[0];
    int64_t wq = p->in[1] + p->pad[1] + p->pad_end[1];
    if (!fits(p->n * hp * wq * d->c4) || !fits(p->n * p->out_sp * d->m4) ||
        !fits(d->m4 * p->k_sp * d->c4))
        return 0;
    int xd[4] = { (int)p->n, (int)d->c4, (int)hp, (int)wq };
    int yd[4] = { (int)p->n, (int)d->m4, (int)p->out[0], (int)p->out[1] };
    int wd[4] = { (int)d->m4, (int)d->c4, (int)p->k[0], (int)p->k[1] };
    int xs[4], ys[4], pad[2] = { 0, 0 };
    int stride[2] = { (int)p->stride[0], (int)p->stride[1] };
    int dil[2] = { (int)p->dil[0], (int)p->dil[1] };
    nhwc_strides(xd, xs);
    nhwc_strides(yd, ys);
    if ((!d->x && rlxc_dnn.tensor_create(&d->x)) ||
        (!d->y && rlxc_dnn.tensor_create(&d->y)) ||
        (!d->w && rlxc_dnn.filter_create(&d->w)) ||
        (!d->conv && rlxc_dnn.conv_create(&d->conv)) ||
        set_nhwc(d->x, DNN_INT8, xd, xs) ||
        set_nhwc(d->y, DNN_FLOAT, yd, ys) ||
        rlxc_dnn.filter_set(d->w, DNN_INT8, DNN_NHWC, 4, wd) ||
        rlxc_dnn.conv_set(d->conv, 2, pad, stride, dil,
                          DNN_CROSS_CORRELATION, DNN_INT32) ||
        rlxc_dnn.conv_math(d->conv, tensor ? DNN_TENSOR_OP_MATH
                                           : DNN_DEFAULT_MATH))
        return 0;
    enum { WANT = 8 };
    dnn_perf perf[WANT];
    int got = 0;
    if (rlxc_dnn.fwd_algos(handle, d->x, d->w, d->conv, d->y, WANT, &got,
                           perf))
        got = 0;
    for (int i = 0; i < got && i < WANT; i++) {
        size_t need = 0;
        if (perf[i].status != 0 || perf[i].memory > ((size_t)256 << 20) ||
            (tensor && rlxc_dnn.conv_math(d->conv, perf[i].math_type)) ||
            rlxc_dnn.fwd_ws(handle, d->x, d->w, d->conv, d->y, perf[i].algo,
                            &need))
            continue;
        d->algo = perf[i].algo;
        d->ws_bytes = need;
        return 1;
    }
    return 0;
}

/* One conv on zeroed scratch buffers, to the end: cuDNN accepts the
 * configuration for this shape (its heuristics may rank algorithms
 * that refuse it at run time). */
static int trial(rlxc_qconv *d, void *handle, size_t yb, size_t wb)
{
    void *xp = NULL, *y = NULL;
    const float one = 1.f, zero = 0.f;
    int ok = cudaMalloc(&xp, d->xp_bytes) == cudaSuccess &&
             cudaMalloc(&y, yb) == cudaSuccess &&
             cudaMemset(xp, 0, d->xp_bytes) == cudaSuccess &&
             cudaMemset(d->wp, 0, wb) == cudaSuccess &&
             !rlxc_dnn.set_stream(handle, NULL) &&
             !rlxc_dnn.fwd(handle, &one, d->x, xp, d->w, d->wp, d->conv,
                           d->algo, d->workspace, d->ws_bytes, &zero, d->y,
                           y) &&
             cudaDeviceSynchronize() == cudaSuccess;
    cudaGetLastError();
    cudaFree(xp);
    cudaFree(y);
    return ok;
}

rlx_status rlxg_dnn_qconv_plan(rlx_executable *exe, rlxg_step *s)
{
    char force[16] = ""; /* setting cuda.conv (RLX_CUDA_CONV) */
    if (rlx_compile_get_option(exe->options, exe->be->host, "cuda.conv",
                               force, sizeof force) == RLX_OK &&
        !strcmp(force, "kernel"))
        return RLX_OK;
    const rlxg_win_plan *p = &s->win;
    if (p->s != 2 || p->group != 1 || !fits(p->n) || !fits(p->c) ||
        !fits(p->m) || !fits(p->k[0]) || !fits(p->k[1]) ||
        !fits(p->stride[0]) || !fits(p->stride[1]) || !fits(p->dil[0]) ||
        !fits(p->dil[1]) || !fits(p->out[0]) || !fits(p->out[1]) ||
        p->n > 65535)
        return RLX_OK;
    rlxc_dnn_load();
    if (!rlxc_dnn.lib)
        return RLX_OK; /* no cuDNN: our kernel */
    if (!exe->dnn && rlxc_dnn.create(&exe->dnn) != 0) {
        exe->dnn = NULL;
        return RLX_OK;
    }
    char math[16] = ""; /* setting cuda.qconv_math (RLX_CUDA_QCONV_MATH) */
    int tensor = rlx_compile_get_option(exe->options, exe->be->host,
                                        "cuda.qconv_math", math,
                                        sizeof math) == RLX_OK &&
                 !strcmp(math, "tensor");
    rlxc_qconv *d = calloc(1, sizeof *d);
    if (!d)
        return rlx_host_report(exe->be->host, RLX_ERR_OUT_OF_MEMORY,
                               "cuda compile: out of memory. Fix: free "
                               "memory");
    d->c4 = (p->c + 3) / 4 * 4;
    d->m4 = (p->m + 3) / 4 * 4;
    d->shift = s->q.x_dtype == RLX_DTYPE_U8 ? 128 : 0;
    d->xp_bytes = (size_t)(p->n * (p->in[0] + p->pad[0] + p->pad_end[0]) *
                           (p->in[1] + p->pad[1] + p->pad_end[1]) * d->c4);
    size_t yb = (size_t)(p->n * p->out_sp * d->m4) * sizeof(float);
    size_t wb = (size_t)(d->m4 * p->k_sp * d->c4);
    int ok = cudaMalloc((void **)&d->wp, wb ? wb : 1) == cudaSuccess &&
             cudaMalloc((void **)&d->wsum, (size_t)d->m4 * 4) ==
                 cudaSuccess &&
             cudaMalloc((void **)&d->wbad, sizeof(int)) == cudaSuccess &&
             cudaMemset(d->wbad, 0, sizeof(int)) == cudaSuccess &&
             (d->m4 == p->m ||
              cudaMalloc((void **)&d->ybuf, yb) == cudaSuccess);
    /* tensor-core math where asked for and it runs, else the default */
    for (int t = tensor; ok; t--) {
        ok = describe(d, exe->dnn, p, t) &&
             (!d->ws_bytes ||
              cudaMalloc(&d->workspace, d->ws_bytes) == cudaSuccess) &&
             trial(d, exe->dnn, yb, wb);
        if (ok || !t)
            break;
        cudaGetLastError();
        cudaFree(d->workspace);
        d->workspace = NULL;
        ok = 1;
    }
    if (!ok) {
        cudaGetLastError();
        rlxc_qconv_free(d); /* our kernel runs it */
        rlx_kit_log(exe->be->host, RLX_LOG_DEBUG, "cuda: a quantized conv "
                    "stays on our kernel (cuDNN declined its shape)");
        return RLX_OK;
    }
    s->dnn = d;
    rlx_kit_log(exe->be->host, RLX_LOG_DEBUG, "cuda: quantized conv through "
                "cuDNN int8, algorithm %d, %zu bytes of workspace%s",
                d->algo, d->ws_bytes, tensor ? " (tensor-core math allowed)"
                                             : "");
    return RLX_OK;
}

rlx_status rlxc_qconv_layout(rlx_executable *exe)
{
    size_t need = 0;
    for (uint32_t i = 0; i < exe->n_steps; i++) {
        const rlxc_qconv *d = exe->steps[i].kind == RLXG_STEP_QUANT
                                  ? exe->steps[i].dnn : NULL;
        if (d && d->xp_bytes > need)
            need = d->xp_bytes;
    }
    if (!need)
        return RLX_OK;
    int8_t *xp = NULL;
    if (cudaMalloc((void **)&xp, need) != cudaSuccess) {
        cudaGetLastError();
        return rlx_kit_fail(exe->be->host, RLX_ERR_OUT_OF_MEMORY,
                            "cuda compile: out of GPU memory for the "
                            "quantized convs' padded inputs (%zu bytes). "
                            "Fix: free GPU memory, or set cuda.conv to "
                            "kernel", need);
    }
    int first = 1;
    for (uint32_t i = 0; i < exe->n_steps; i++) {
        rlxc_qconv *d = exe->steps[i].kind == RLXG_STEP_QUANT
                            ? exe->steps[i].dnn : NULL;
        if (!d)
            continue;
        d->xp = xp;
        d->owns_xp = first;
        first = 0;
    }
    return RLX_OK;
}

static gpuError_t prep_w(rlx_executable *exe, const rlxg_step *s,
                         const void *w, const void *zw, gpuStream_t st)
{
    rlxc_qconv *d = s->dnn;
    (void)exe;
    return rlxg_qconv_prep_w(st, w, zw, d->wp, d->wsum, d->wbad, d->c4,
                             d->m4, &s->win, &s->q);
}

/* The filter or its zero point computed by the graph: prepared in the
 * run itself. */
static int w_live(const rlx_executable *exe, const rlxg_step *s)
{
    return rlxc_dnn_derived_live(exe, s->in[1]) ||
           rlxc_dnn_derived_live(exe, s->in[3]);
}

gpuError_t rlxc_qconv_refresh(rlx_executable *exe, rlxg_step *s,
                              void *const *params, const uint64_t *versions,
                              gpuStream_t st)
{
    rlxc_qconv *d = s->dnn;
    if (w_live(exe, s))
        return gpuSuccess;
    int w_new = rlxc_dnn_stale(exe, s->in[1], params, versions, &d->w_src,
                               &d->w_ver);
    int z_new = rlxc_dnn_stale(exe, s->in[3], params, versions, &d->zw_src,
                               &d->zw_ver);
    if (!w_new && !z_new)
        return gpuSuccess;
    gpuError_t e = prep_w(exe, s, d->w_src, d->zw_src, st);
    if (e != gpuSuccess)
        d->w_src = NULL; /* prepared again next time */
    return e;
}

gpuError_t rlxg_dnn_qconv_enqueue(rlx_executable *exe, const rlxg_step *s,
                                  void *const *params, gpuStream_t st)
{
    const rlxc_qconv *d = s->dnn;
    const int *e = s->extra;
    const void *x = rlxg_value_ptr(exe, s->in[0], params);
    const void *w = rlxg_value_ptr(exe, s->in[1], params);
    const void *zx = rlxg_value_ptr(exe, s->in[2], params);
    const void *zw = rlxg_value_ptr(exe, s->in[3], params);
    void *y = rlxg_value_ptr(exe, s->out, params);
    float *acc = d->ybuf ? d->ybuf
                         : (float *)rlxg_value_ptr(exe, e[RLXG_QC_ACC],
                                                   params);
    const float one = 1.f, zero = 0.f;
    gpuError_t err = rlxg_qconv_prep_x(st, x, zx, d->xp, d->c4, d->shift,
                                       &s->win, &s->q);
    if (err == gpuSuccess && w_live(exe, s))
        err = prep_w(exe, s, w, zw, st);
    if (err != gpuSuccess)
        return err;
    if (rlxc_dnn.set_stream(exe->dnn, st) ||
        rlxc_dnn.fwd(exe->dnn, &one, d->x, d->xp, d->w, d->wp, d->conv,
                     d->algo, d->workspace, d->ws_bytes, &zero, d->y, acc))
        return gpuErrorInvalidValue;
    rlxg_qconv_ops ops = { acc, d->m4, d->wsum, d->wbad, d->shift,
                           x, w, zx, zw };
    rlxg_qchain_ptrs c = {
        rlxg_value_ptr(exe, e[RLXG_QC_BIAS], params),
        rlxg_value_ptr(exe, e[RLXG_QC_MULT], params),
        rlxg_value_ptr(exe, e[RLXG_QC_SCALE], params),
        rlxg_value_ptr(exe, e[RLXG_QC_ZP], params),
        rlxg_value_ptr(exe, e[RLXG_QC_LO], params),
        rlxg_value_ptr(exe, e[RLXG_QC_HI], params)
    };
    return rlxg_qchain_f32(st, &ops, &c, y, &s->win, &s->q);
}
