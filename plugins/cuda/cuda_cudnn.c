/*
 * cuda_cudnn.c - conv and conv_transpose through cuDNN when a libcudnn
 * is installed: opened with dlopen at the first conv (as cuBLASLt is),
 * so the plugin loads and runs without it, on our own kernels
 * (gk_conv.cu). The few declarations below are ours, written from
 * cuDNN's published API reference (the legacy convolution API: tensor,
 * filter and convolution descriptors, the v7 algorithm heuristics,
 * cudnnConvolutionForward and cudnnConvolutionBackwardData for the
 * transpose). Each conv step gets its descriptors, algorithm and
 * workspace at compile time; a run only sets the stream and calls.
 *
 * A conv with its residual add and relu fused (gpu_fuse.c) is one
 * cudnnConvolutionBiasActivationForward: y = act(conv(x, w) + z + bias),
 * z the residual. The algorithm is the first cuDNN's heuristics rank;
 * with setting cuda.conv_algo "find", the fastest cudnnFind measures on
 * scratch buffers at compile time, checked to run fused. Either choice
 * is remembered per shape for the process, so a model's repeated shapes
 * and later compiles ask nothing again. (On an H100, ResNet-50 ran
 * slower with find: it times the plain conv, not the fused call.)
 *
 * Precision follows matmul's policy: f32 under strict precision runs
 * only FMA algorithms (no TF32), f32 otherwise cuDNN's default math,
 * f16 and bf16 on tensor cores. What cuDNN cannot express (more than 3
 * spatial axes, asymmetric padding that changes the result size, a
 * failed heuristic) stays on our kernel, as does everything under
 * RLX_CUDA_CONV=kernel.
 */
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <rlx/kit_error.h>

#include "cuda_cudnn_api.h"
#include "gpu_internal.h"

rlxc_dnn_api rlxc_dnn;

static pthread_once_t api_once = PTHREAD_ONCE_INIT;

static void api_load(void)
{
    static const char *const names[] = { "libcudnn.so.9", "libcudnn.so.8",
                                         "libcudnn.so" };
    void *lib = NULL;
    for (size_t i = 0; !lib && i < sizeof names / sizeof names[0]; i++)
        lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        return;
    int ok = 1;
#define SYM(field, name)                                                     \
    do {                                                                     \
        *(void **)(&rlxc_dnn.field) = dlsym(lib, name);                      \
        ok = ok && rlxc_dnn.field != NULL;                                   \
    } while (0)
    SYM(create, "cudnnCreate");
    SYM(destroy, "cudnnDestroy");
    SYM(set_stream, "cudnnSetStream");
    SYM(tensor_create, "cudnnCreateTensorDescriptor");
    SYM(tensor_set, "cudnnSetTensorNdDescriptor");
    SYM(tensor_destroy, "cudnnDestroyTensorDescriptor");
    SYM(filter_create, "cudnnCreateFilterDescriptor");
    SYM(filter_set, "cudnnSetFilterNdDescriptor");
    SYM(filter_destroy, "cudnnDestroyFilterDescriptor");
    SYM(conv_create, "cudnnCreateConvolutionDescriptor");
    SYM(conv_set, "cudnnSetConvolutionNdDescriptor");
    SYM(conv_group, "cudnnSetConvolutionGroupCount");
    SYM(conv_math, "cudnnSetConvolutionMathType");
    SYM(conv_destroy, "cudnnDestroyConvolutionDescriptor");
    SYM(fwd_algos, "cudnnGetConvolutionForwardAlgorithm_v7");
    SYM(fwd_ws, "cudnnGetConvolutionForwardWorkspaceSize");
    SYM(fwd, "cudnnConvolutionForward");
    SYM(bwd_algos, "cudnnGetConvolutionBackwardDataAlgorithm_v7");
    SYM(bwd_ws, "cudnnGetConvolutionBackwardDataWorkspaceSize");
    SYM(bwd, "cudnnConvolutionBackwardData");
    SYM(add, "cudnnAddTensor");
#undef SYM
    if (!ok) {
        dlclose(lib);
        return;
    }
    rlxc_dnn.lib = lib;
#define OPT(field, name) (*(void **)(&rlxc_dnn.field) = dlsym(lib, name))
    OPT(fused, "cudnnConvolutionBiasActivationForward");
    OPT(act_create, "cudnnCreateActivationDescriptor");
    OPT(act_set, "cudnnSetActivationDescriptor");
    OPT(act_destroy, "cudnnDestroyActivationDescriptor");
    OPT(find, "cudnnFindConvolutionForwardAlgorithmEx");
    OPT(tensor_set4d, "cudnnSetTensor4dDescriptor");
#undef OPT
    if (!rlxc_dnn.fused || !rlxc_dnn.act_create || !rlxc_dnn.act_set ||
        !rlxc_dnn.act_destroy)
        rlxc_dnn.fused = NULL;
}

void rlxc_dnn_load(void)
{
    pthread_once(&api_once, api_load);
}

/* One conv step's cuDNN plan. */
typedef struct rlxg_dnn_conv {
    dnn_desc x, y, w, conv, bias;
    dnn_desc act;         /* fused steps: the activation */
    void *zero_bias;      /* fused steps without a bias: m zeros */
    int key[32];          /* what the choice of algorithm depends on */
    int algo, math;
    /* NHWC (rlxg_dnn_layout): cuDNN computes on channels-last x, z, y
     * and a [m, kh, kw, c/group] filter; each of x, z and y not stored
     * so (a chain's ends) goes through its buffer here. A filter that is
     * a param or a constant is reordered before a run only when it
     * changed (its buffer or the buffer's version, rlxg_dnn_refresh);
     * one the graph computes, inside every run. */
    int nhwc;
    void *xbuf, *zbuf, *ybuf, *wbuf;
    rlxg_copy_plan cx, cz, cy, cw;
    const void *w_src;    /* the filter wbuf holds: its bytes, version */
    uint64_t w_ver;
    void *workspace;
    size_t ws_bytes;
} rlxg_dnn_conv;

static void plan_free(rlxg_dnn_conv *d)
{
    if (!d)
        return;
    if (d->x)
        rlxc_dnn.tensor_destroy(d->x);
    if (d->y)
        rlxc_dnn.tensor_destroy(d->y);
    if (d->bias)
        rlxc_dnn.tensor_destroy(d->bias);
    if (d->w)
        rlxc_dnn.filter_destroy(d->w);
    if (d->conv)
        rlxc_dnn.conv_destroy(d->conv);
    if (d->act)
        rlxc_dnn.act_destroy(d->act);
    if (d->zero_bias)
        cudaFree(d->zero_bias);
    cudaFree(d->xbuf);
    cudaFree(d->zbuf);
    cudaFree(d->ybuf);
    cudaFree(d->wbuf);
    if (d->workspace)
        cudaFree(d->workspace);
    free(d);
}

static int fits(int64_t v)
{
    return v >= 0 && v <= INT_MAX;
}

/* Contiguous NCHW strides of DIMS (RANK). */
static int strides_of(int rank, const int *dims, int *st)
{
    int64_t s = 1;
    for (int d = rank - 1; d >= 0; d--) {
        if (!fits(s))
            return 0;
        st[d] = (int)s;
        s *= dims[d];
    }
    return fits(s);
}

/* The descriptors of step S (window plan P) and the math they ask for
 * (*MATH; DNN_DEFAULT_MATH is 0); 0 when cuDNN cannot take its shape. A
 * 1-d conv becomes a 2-d one of height 1. */
static int describe(rlxg_dnn_conv *d, const rlxg_win_plan *p, int dtype,
                    int transpose, int precision, int has_bias, int *math_out)
{
    int nhwc = d->nhwc;
    int dt = dtype == RLX_DTYPE_F32 ? DNN_FLOAT
             : dtype == RLX_DTYPE_F16 ? DNN_HALF : DNN_BFLOAT16;
    int s = p->s, lead = s == 1 ? 1 : 0, sp = s + lead, rank = sp + 2;
    int xd[5], yd[5], wd[5], bd[5], xs[5], ys[5], bs[5];
    int pad[3], stride[3], dil[3];
    if (s > 3)
        return 0;
    /* w is [m, c/group, k...] for conv, [c, m/group, k...] for the
     * transpose (cuDNN's filter of the forward conv it inverts) */
    int64_t wo = transpose ? p->c : p->m;
    int64_t wi = transpose ? p->m / p->group : p->c / p->group;
    if (!fits(p->n) || !fits(p->c) || !fits(p->m) || !fits(p->group))
        return 0;
    xd[0] = yd[0] = (int)p->n;
    xd[1] = (int)p->c;
    yd[1] = (int)p->m;
    wd[0] = (int)wo;
    wd[1] = (int)wi;
    bd[0] = 1;
    bd[1] = (int)p->m;
    for (int i = 0; i < sp; i++) {
        int a = i - lead; /* the plan's axis, or -1 for the added one */
        int64_t in = a < 0 ? 1 : p->in[a], out = a < 0 ? 1 : p->out[a];
        int64_t k = a < 0 ? 1 : p->k[a], st = a < 0 ? 1 : p->stride[a];
        int64_t dl = a < 0 ? 1 : p->dil[a], pb = a < 0 ? 0 : p->pad[a];
        int64_t pe = a < 0 ? 0 : p->pad_end[a];
        if (!fits(in) || !fits(out) || !fits(k) || !fits(st) || !fits(dl) ||
            !fits(pb) || !fits(pe))
            return 0;
        int64_t ext = (k - 1) * dl + 1;
        if (transpose) {
            /* symmetric pads only; the output padding must keep the
             * forward conv of y giving x */
            if (pb != pe || (out + 2 * pb - ext) / st + 1 != in)
                return 0;
        } else if ((in + 2 * pb - ext) < 0 ||
                   (in + 2 * pb - ext) / st + 1 != out) {
            return 0; /* asymmetric pads that change the size */
        }
        xd[2 + i] = (int)in;
        yd[2 + i] = (int)out;
        wd[2 + i] = (int)k;
        bd[2 + i] = 1;
        pad[i] = (int)pb;
        stride[i] = (int)st;
        dil[i] = (int)dl;
    }
    if (!strides_of(rank, xd, xs) || !strides_of(rank, yd, ys) ||
        !strides_of(rank, bd, bs))
        return 0;
    if (nhwc) { /* rank 4: channels innermost */
        xs[1] = ys[1] = 1;
        xs[3] = xd[1];
        ys[3] = yd[1];
        xs[2] = xs[3] * xd[3];
        ys[2] = ys[3] * yd[3];
        xs[0] = xs[2] * xd[2];
        ys[0] = ys[2] * yd[2];
    }
    int math = dtype != RLX_DTYPE_F32 ? DNN_TENSOR_OP_MATH
               : precision == RLX_PRECISION_STRICT ? DNN_FMA_MATH
                                                   : DNN_DEFAULT_MATH;
    int *key = d->key;
    memset(d->key, 0, sizeof d->key);
    key[0] = dt;
    key[1] = math;
    key[2] = transpose | nhwc << 1;
    key[3] = rank;
    key[4] = (int)p->group;
    for (int i = 0; i < rank; i++) {
        key[5 + i] = xd[i];
        key[10 + i] = wd[i];
        key[15 + i] = yd[i];
    }
    for (int i = 0; i < sp; i++) {
        key[20 + i] = pad[i];
        key[23 + i] = stride[i];
        key[26 + i] = dil[i];
    }
    if (rlxc_dnn.tensor_create(&d->x) || rlxc_dnn.tensor_create(&d->y) ||
        rlxc_dnn.filter_create(&d->w) || rlxc_dnn.conv_create(&d->conv) ||
        (has_bias && rlxc_dnn.tensor_create(&d->bias)))
        return 0;
    if (rlxc_dnn.tensor_set(d->x, dt, rank, xd, xs) ||
        rlxc_dnn.tensor_set(d->y, dt, rank, yd, ys) ||
        rlxc_dnn.filter_set(d->w, dt, nhwc ? DNN_NHWC : DNN_NCHW, rank, wd) ||
        rlxc_dnn.conv_set(d->conv, sp, pad, stride, dil, DNN_CROSS_CORRELATION,
                     DNN_FLOAT) ||
        rlxc_dnn.conv_group(d->conv, (int)p->group) ||
        rlxc_dnn.conv_math(d->conv, math) ||
        (has_bias && rlxc_dnn.tensor_set(d->bias, dt, rank, bd, bs)))
        return 0;
    *math_out = math;
    return 1;
}

/* The first algorithm the heuristics rank that runs with this math
 * (strict f32: FMA only) and a workspace up to 256 MiB. */
static int choose(rlxg_dnn_conv *d, void *handle, int transpose, int math,
                  int act_mode, size_t *ws)
{
    enum { WANT = 16 };
    dnn_perf perf[WANT];
    int got = 0;
    int st = transpose
                 ? rlxc_dnn.bwd_algos(handle, d->w, d->x, d->conv, d->y, WANT,
                                 &got, perf)
                 : rlxc_dnn.fwd_algos(handle, d->x, d->w, d->conv, d->y, WANT,
                                 &got, perf);
    if (st)
        return 0;
    for (int i = 0; i < got && i < WANT; i++) {
        if (perf[i].status != 0 || perf[i].memory > ((size_t)256 << 20))
            continue;
        if (math == DNN_FMA_MATH && perf[i].math_type != DNN_FMA_MATH)
            continue;
        if (act_mode == DNN_ACT_IDENTITY &&
            perf[i].algo != DNN_ALGO_IMPLICIT_PRECOMP_GEMM)
            continue; /* the only one the fused call runs without relu */
        if (rlxc_dnn.conv_math(d->conv, perf[i].math_type))
            continue;
        size_t need = 0;
        st = transpose ? rlxc_dnn.bwd_ws(handle, d->w, d->x, d->conv, d->y,
                                    perf[i].algo, &need)
                       : rlxc_dnn.fwd_ws(handle, d->x, d->w, d->conv, d->y,
                                    perf[i].algo, &need);
        if (st)
            continue;
        d->algo = perf[i].algo;
        d->math = perf[i].math_type;
        *ws = need;
        return 1;
    }
    return 0;
}

/* The fastest forward algorithm cudnnFind measures on scratch buffers of
 * plan P's shapes that runs with this math and, fused (ACT_MODE not 0),
 * runs the fused call too; 0 when none does. ELEM: bytes per element. */
static int choose_measured(rlxg_dnn_conv *d, void *handle,
                           const rlxg_win_plan *p, size_t elem, int math,
                           int act_mode, size_t *ws)
{
    enum { WANT = 16 };
    dnn_perf perf[WANT];
    int got = 0, found = 0;
    size_t xb = (size_t)(p->n * p->c * p->in_sp) * elem;
    size_t wb = (size_t)(p->m * (p->c / p->group) * p->k_sp) * elem;
    size_t yb = (size_t)(p->n * p->m * p->out_sp) * elem;
    size_t sb = (size_t)256 << 20;
    void *x = NULL, *w = NULL, *y = NULL, *z = NULL, *b = NULL, *scr = NULL;
    const float one = 1.f;
    if (cudaMalloc(&x, xb) != cudaSuccess ||
        cudaMalloc(&w, wb) != cudaSuccess ||
        cudaMalloc(&y, yb) != cudaSuccess ||
        cudaMalloc(&z, yb) != cudaSuccess ||
        cudaMalloc(&b, (size_t)p->m * elem) != cudaSuccess)
        goto done;
    while (sb && cudaMalloc(&scr, sb) != cudaSuccess) {
        cudaGetLastError();
        scr = NULL;
        sb /= 4;
    }
    if (cudaMemset(x, 0, xb) != cudaSuccess ||
        cudaMemset(w, 0, wb) != cudaSuccess ||
        cudaMemset(z, 0, yb) != cudaSuccess ||
        cudaMemset(b, 0, (size_t)p->m * elem) != cudaSuccess ||
        rlxc_dnn.set_stream(handle, NULL) ||
        rlxc_dnn.find(handle, d->x, x, d->w, w, d->conv, d->y, y, WANT, &got,
                 perf, scr, sb))
        goto done;
    for (int i = 0; i < got && i < WANT && !found; i++) {
        size_t need = 0;
        if (perf[i].status != 0 || perf[i].memory > sb ||
            (math == DNN_FMA_MATH && perf[i].math_type != DNN_FMA_MATH) ||
            (act_mode == DNN_ACT_IDENTITY &&
             perf[i].algo != DNN_ALGO_IMPLICIT_PRECOMP_GEMM) ||
            rlxc_dnn.conv_math(d->conv, perf[i].math_type) ||
            rlxc_dnn.fwd_ws(handle, d->x, d->w, d->conv, d->y, perf[i].algo,
                       &need) || need > sb)
            continue;
        if (act_mode &&
            (rlxc_dnn.fused(handle, &one, d->x, x, d->w, w, d->conv,
                            perf[i].algo, scr, need, &one, d->y, z, d->bias,
                            b, d->act, d->y, y) ||
             cudaDeviceSynchronize() != cudaSuccess)) {
            cudaGetLastError();
            continue;
        }
        d->algo = perf[i].algo;
        d->math = perf[i].math_type;
        *ws = need;
        found = 1;
    }
done:
    cudaGetLastError();
    cudaFree(x);
    cudaFree(w);
    cudaFree(y);
    cudaFree(z);
    cudaFree(b);
    cudaFree(scr);
    return found;
}

/* The process's choices so far: a conv's key and the algorithm (with its
 * math) chosen for it, algo -1 for none. Later compiles of one shape
 * measure nothing. */
enum { CHOICES = 512 };
static struct {
    int key[32];
    int algo, math;
} choices[CHOICES];
static int n_choices;
static pthread_mutex_t choices_lock = PTHREAD_MUTEX_INITIALIZER;

static int choice_find(const int *key, int *algo, int *math)
{
    int hit = 0;
    pthread_mutex_lock(&choices_lock);
    for (int i = 0; i < n_choices && !hit; i++)
        if (!memcmp(choices[i].key, key, sizeof choices[i].key)) {
            *algo = choices[i].algo;
            *math = choices[i].math;
            hit = 1;
        }
    pthread_mutex_unlock(&choices_lock);
    return hit;
}

static void choice_keep(const int *key, int algo, int math)
{
    pthread_mutex_lock(&choices_lock);
    if (n_choices < CHOICES) {
        memcpy(choices[n_choices].key, key, sizeof choices[n_choices].key);
        choices[n_choices].algo = algo;
        choices[n_choices].math = math;
        n_choices++;
    }
    pthread_mutex_unlock(&choices_lock);
}

rlx_status rlxg_dnn_conv_plan(rlx_executable *exe, rlxg_step *s,
                              int precision)
{
    char force[16] = ""; /* setting cuda.conv (RLX_CUDA_CONV) */
    if (rlx_compile_get_option(exe->options, exe->be->host, "cuda.conv",
                               force, sizeof force) == RLX_OK &&
        !strcmp(force, "kernel"))
        return RLX_OK;
    char how[16] = ""; /* setting cuda.conv_algo (RLX_CUDA_CONV_ALGO) */
    int find = rlx_compile_get_option(exe->options, exe->be->host,
                                      "cuda.conv_algo", how,
                                      sizeof how) == RLX_OK &&
               !strcmp(how, "find");
    rlxc_dnn_load();
    if (!rlxc_dnn.lib)
        return RLX_OK; /* no cuDNN: our kernel */
    int transpose = s->kind == RLXG_STEP_CONV_TRANSPOSE;
    const rlxg_win_plan *p = &s->win;
    int act_mode = 0; /* fused: the activation after conv + z + bias */
    if (!transpose && (s->in[3] >= 0 || p->act != RLXG_GEMM_NONE)) {
        if (!rlxc_dnn.fused)
            return RLX_OK; /* our kernel fuses them */
        act_mode = p->act == RLXG_GEMM_RELU ? DNN_ACT_RELU : DNN_ACT_IDENTITY;
    }
    if (!exe->dnn && rlxc_dnn.create(&exe->dnn) != 0) {
        exe->dnn = NULL;
        return RLX_OK;
    }
    rlxg_dnn_conv *d = calloc(1, sizeof *d);
    if (!d)
        return rlx_host_report(exe->be->host, RLX_ERR_OUT_OF_MEMORY,
                               "cuda compile: out of memory. Fix: free "
                               "memory");
    int dtype = exe->values[s->out].dtype;
    size_t elem = rlx_dtype_size(dtype);
    /* setting cuda.conv_layout (RLX_CUDA_CONV_LAYOUT): nchw, nhwc, or by
     * default NHWC where the math may run on tensor cores (f16, bf16,
     * f32 unless strict), whose cuDNN kernels want channels last; strict
     * f32's FMA kernels ran ResNet-50 faster on NCHW (H100) */
    char lay[16] = "";
    if (rlx_compile_get_option(exe->options, exe->be->host,
                               "cuda.conv_layout", lay, sizeof lay) != RLX_OK)
        lay[0] = 0;
    d->nhwc = !transpose && p->s == 2 &&
              (!strcmp(lay, "nhwc") ||
               (strcmp(lay, "nchw") && (dtype != RLX_DTYPE_F32 ||
                                        precision != RLX_PRECISION_STRICT)));
    int math = DNN_FMA_MATH;
    int ok = describe(d, p, dtype, transpose, precision,
                      s->in[2] >= 0 || act_mode, &math);
    size_t ws = 0;
    if (ok && act_mode)
        ok = !rlxc_dnn.act_create(&d->act) &&
             !rlxc_dnn.act_set(d->act, act_mode, DNN_PROPAGATE_NAN, 0.0) &&
             (s->in[2] >= 0 ||
              (cudaMalloc(&d->zero_bias, (size_t)p->m * elem) ==
                   cudaSuccess &&
               cudaMemset(d->zero_bias, 0, (size_t)p->m * elem) ==
                   cudaSuccess));
    d->key[29] = act_mode;
    d->key[30] = (int)exe->device;
    d->key[31] = find;
    int algo, amath;
    if (ok && choice_find(d->key, &algo, &amath)) {
        ok = algo >= 0 && !rlxc_dnn.conv_math(d->conv, amath) &&
             !(transpose ? rlxc_dnn.bwd_ws(exe->dnn, d->w, d->x, d->conv, d->y,
                                      algo, &ws)
                         : rlxc_dnn.fwd_ws(exe->dnn, d->x, d->w, d->conv, d->y,
                                      algo, &ws));
        d->algo = algo;
        d->math = amath;
    } else if (ok) {
        int key[32];
        memcpy(key, d->key, sizeof key);
        ok = (!transpose && find && rlxc_dnn.find &&
              choose_measured(d, exe->dnn, p, elem, math, act_mode, &ws)) ||
             choose(d, exe->dnn, transpose, math, act_mode, &ws);
        choice_keep(key, ok ? d->algo : -1, d->math);
    }
    if (!ok || (ws && cudaMalloc(&d->workspace, ws) != cudaSuccess)) {
        cudaGetLastError();
        plan_free(d); /* our kernel runs it */
        return RLX_OK;
    }
    d->ws_bytes = ws;
    s->dnn = d;
    rlx_kit_log(exe->be->host, RLX_LOG_DEBUG, "cuda: %s%s through cuDNN, "
                "algorithm %d, %zu bytes of workspace",
                transpose ? "conv_transpose" : "conv",
                act_mode ? " (fused)" : "", d->algo, ws);
    return RLX_OK;
}

gpuError_t rlxg_dnn_conv_enqueue(rlx_executable *exe, const rlxg_step *s,
                                 const void *x, const void *w,
                                 const void *bias, const void *res, void *y,
                                 gpuStream_t st)
{
    const rlxg_dnn_conv *d = s->dnn;
    const float one = 1.f, zero = 0.f;
    void *out = y;
    if (d->nhwc) { /* into channels last where not stored so */
        size_t elem = rlx_dtype_size(exe->values[s->out].dtype);
        gpuError_t e = rlxc_dnn_derived_live(exe, s->in[1])
                           ? rlxg_copy(st, elem, w, d->wbuf, &d->cw)
                           : gpuSuccess;
        if (e == gpuSuccess && d->xbuf)
            e = rlxg_copy(st, elem, x, d->xbuf, &d->cx);
        if (e == gpuSuccess && d->zbuf && res)
            e = rlxg_copy(st, elem, res, d->zbuf, &d->cz);
        if (e != gpuSuccess)
            return e;
        w = d->wbuf;
        x = d->xbuf ? d->xbuf : x;
        res = d->zbuf && res ? d->zbuf : res;
        y = d->ybuf ? d->ybuf : y;
    }
    int rc = rlxc_dnn.set_stream(exe->dnn, st);
    if (!rc && d->act)
        rc = rlxc_dnn.fused(exe->dnn, &one, d->x, x, d->w, w, d->conv, d->algo,
                       d->workspace, d->ws_bytes, res ? &one : &zero, d->y,
                       res ? res : y, d->bias, bias ? bias : d->zero_bias,
                       d->act, d->y, y);
    else if (!rc && s->kind == RLXG_STEP_CONV_TRANSPOSE)
        rc = rlxc_dnn.bwd(exe->dnn, &one, d->w, w, d->x, x, d->conv, d->algo,
                     d->workspace, d->ws_bytes, &zero, d->y, y);
    else if (!rc)
        rc = rlxc_dnn.fwd(exe->dnn, &one, d->x, x, d->w, w, d->conv, d->algo,
                     d->workspace, d->ws_bytes, &zero, d->y, y);
    if (!rc && !d->act && bias && d->bias)
        rc = rlxc_dnn.add(exe->dnn, &one, d->bias, bias, &one, d->y, y);
    if (rc)
        return gpuErrorInvalidValue;
    if (d->nhwc && d->ybuf) /* back to NCHW for its readers */
        return rlxg_copy(st, rlx_dtype_size(exe->values[s->out].dtype), y,
                         out, &d->cy);
    return gpuSuccess;
}

/* The copy plan from [n, c, h, w] in layout FROM_NHWC to the other. */
static void reorder_plan(rlxg_copy_plan *cp, int64_t n, int64_t c, int64_t h,
                         int64_t w, int from_nhwc)
{
    /* walk the destination in its own order; nchw[] / nhwc[]: the
     * strides of n, c, h, w in each layout */
    const int64_t nchw[4] = { c * h * w, h * w, w, 1 };
    const int64_t nhwc[4] = { h * w * c, 1, w * c, c };
    const int64_t dims[4] = { n, c, h, w };
    static const int order_nhwc[4] = { 0, 2, 3, 1 }, order_nchw[4] = {
        0, 1, 2, 3 };
    const int *order = from_nhwc ? order_nchw : order_nhwc;
    memset(cp, 0, sizeof *cp);
    cp->rank = 4;
    cp->count = n * c * h * w;
    for (int i = 0; i < 4; i++) {
        int a = order[i];
        cp->dims[i] = dims[a];
        cp->src_stride[i] = from_nhwc ? nhwc[a] : nchw[a];
        cp->dst_stride[i] = from_nhwc ? nchw[a] : nhwc[a];
    }
}

/* Whether value V may be stored channels last: written by an NHWC conv
 * step and read only by NHWC conv steps, as x or residual. */
static int nhwc_value(const rlx_executable *exe, const rlx_graph_view *g,
                      int v)
{
    if (v < 0 || exe->values[v].is_output)
        return 0;
    int written = 0;
    for (uint32_t i = 0; i < exe->n_steps; i++) {
        const rlxg_step *t = &exe->steps[i];
        const rlxg_dnn_conv *d = t->kind == RLXG_STEP_CONV ? t->dnn : NULL;
        if (t->out == v)
            written = d && d->nhwc;
        for (int j = 0; j < 4; j++)
            if (t->in[j] == v && !(d && d->nhwc && (j == 0 || j == 3)))
                return 0;
        if (t->in5 == v)
            return 0;
        for (int j = 0; t->kind == RLXG_STEP_QUANT && j < 8; j++)
            if (t->extra[j] == v)
                return 0;
    }
    for (uint32_t i = 0; i < g->n_nodes; i++) /* reshapes alias it */
        if (g->nodes[i]->op == RLX_OP_RESHAPE && g->nodes[i]->n_inputs &&
            (int)g->nodes[i]->inputs[0] == v)
            return 0;
    return written;
}

rlx_status rlxg_dnn_layout(rlx_executable *exe, const rlx_graph_view *g)
{
    rlx_status st = rlxc_qconv_layout(exe);
    if (st != RLX_OK)
        return st;
    for (uint32_t i = 0; i < exe->n_steps; i++) {
        rlxg_step *s = &exe->steps[i];
        rlxg_dnn_conv *d = s->kind == RLXG_STEP_CONV ? s->dnn : NULL;
        if (!d || !d->nhwc)
            continue;
        const rlxg_win_plan *p = &s->win;
        size_t elem = rlx_dtype_size(exe->values[s->out].dtype);
        int64_t cg = p->c / p->group;
        size_t xb = (size_t)(p->n * p->c * p->in_sp) * elem;
        size_t yb = (size_t)(p->n * p->m * p->out_sp) * elem;
        size_t wb = (size_t)(p->m * cg * p->k_sp) * elem;
        /* the filter [m, cg, kh, kw] -> [m, kh, kw, cg] */
        reorder_plan(&d->cw, p->m, cg, p->k[0], p->k[1], 0);
        reorder_plan(&d->cx, p->n, p->c, p->in[0], p->in[1], 0);
        reorder_plan(&d->cz, p->n, p->m, p->out[0], p->out[1], 0);
        reorder_plan(&d->cy, p->n, p->m, p->out[0], p->out[1], 1);
        int fail = cudaMalloc(&d->wbuf, wb) != cudaSuccess;
        if (!fail && !nhwc_value(exe, g, s->in[0]))
            fail = cudaMalloc(&d->xbuf, xb) != cudaSuccess;
        if (!fail && s->in[3] >= 0 && !nhwc_value(exe, g, s->in[3]))
            fail = cudaMalloc(&d->zbuf, yb) != cudaSuccess;
        if (!fail && !nhwc_value(exe, g, s->out))
            fail = cudaMalloc(&d->ybuf, yb) != cudaSuccess;
        if (fail) {
            cudaGetLastError();
            return rlx_host_report(exe->be->host, RLX_ERR_OUT_OF_MEMORY,
                                   "cuda compile: out of GPU memory for a "
                                   "conv's channels-last buffers. Fix: free "
                                   "GPU memory, or set cuda.conv_layout to "
                                   "nchw");
        }
    }
    return RLX_OK;
}

int rlxc_dnn_derived_live(const rlx_executable *exe, int v)
{
    rlxg_loc_kind k = exe->values[v].loc;
    return k != RLXG_LOC_PARAM && k != RLXG_LOC_CONST;
}

int rlxc_dnn_stale(const rlx_executable *exe, int v, void *const *params,
                   const uint64_t *versions, const void **src,
                   uint64_t *ver)
{
    const rlxg_value *x = &exe->values[v];
    uint64_t now = x->loc == RLXG_LOC_CONST ? 1 : versions[x->slot];
    const void *p = rlxg_value_ptr(exe, v, params);
    int stale = !now || p != *src || now != *ver;
    *src = p;
    *ver = now;
    return stale;
}

gpuError_t rlxg_dnn_refresh(rlx_executable *exe, void *const *params,
                            const uint64_t *versions, gpuStream_t st)
{
    gpuError_t e = gpuSuccess;
    for (uint32_t i = 0; e == gpuSuccess && i < exe->n_steps; i++) {
        rlxg_step *s = &exe->steps[i];
        if (!s->dnn)
            continue;
        if (s->kind == RLXG_STEP_QUANT) {
            e = rlxc_qconv_refresh(exe, s, params, versions, st);
            continue;
        }
        rlxg_dnn_conv *d = s->dnn;
        if (s->kind != RLXG_STEP_CONV || !d->nhwc ||
            rlxc_dnn_derived_live(exe, s->in[1]) ||
            !rlxc_dnn_stale(exe, s->in[1], params, versions, &d->w_src,
                            &d->w_ver))
            continue;
        e = rlxg_copy(st, rlx_dtype_size(exe->values[s->out].dtype),
                      d->w_src, d->wbuf, &d->cw);
        if (e != gpuSuccess)
            d->w_src = NULL; /* reordered again next time */
    }
    return e;
}

void rlxg_dnn_release(rlx_executable *exe)
{
    for (uint32_t i = 0; i < exe->n_steps; i++) {
        if (exe->steps[i].kind == RLXG_STEP_QUANT)
            rlxc_qconv_free(exe->steps[i].dnn);
        else
            plan_free(exe->steps[i].dnn);
        exe->steps[i].dnn = NULL;
    }
    if (exe->dnn)
        rlxc_dnn.destroy(exe->dnn);
    exe->dnn = NULL;
}
