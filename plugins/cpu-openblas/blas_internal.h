/*
 * blas_internal.h - what the files of the cpu-openblas backend share: the
 * backend object, the compiled executable (a list of steps over one
 * arena), and the entry points of each kernel file.
 *
 * A step is one graph node. Its result lives in one of: the arena (an
 * offset chosen by the kit's liveness planner), an input or param slot
 * (read in place), a constant copied at compile time, or another step's
 * storage (reshape is an alias). Ops and dtypes without a fast kernel run
 * through cpu-ref's own compile/execute on a one-node graph (fallback.c).
 */
#ifndef RLXB_INTERNAL_H
#define RLXB_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include <rlx/backend.h>
#include <rlx/kit.h>
#include <rlx/plugin.h>

#include "qgemm.h"

/* A step key (rlxb_step.key) for constants; buffer ids start
 * above it. */
#define RLXB_KEY_CONST 1u

/* Arena offsets and row starts are aligned to a cache line. */
#define RLXB_ALIGN 64u

/* ---- pool.c: the backend's worker threads --------------------------- */

typedef struct rlxb_pool rlxb_pool;
/* One task of a parallel loop: handle items [begin, end). */
typedef void (*rlxb_task_fn)(void *ctx, size_t begin, size_t end);

/* N_THREADS counts the caller: N_THREADS - 1 workers are started. */
rlxb_pool *rlxb_pool_create(unsigned n_threads);
void rlxb_pool_destroy(rlxb_pool *pool);
unsigned rlxb_pool_threads(const rlxb_pool *pool);
/* Run FN over [0, N) in chunks of at least GRAIN items. When the pool is
 * busy with another executable's loop, the caller runs it alone. */
void rlxb_parallel_for(rlxb_pool *pool, size_t n, size_t grain,
                            rlxb_task_fn fn, void *ctx);

/* ---- backend object -------------------------------------------------- */

typedef struct rlxb_backend {
    const rlx_host *host;
    void *ref;                /* cpu-ref's backend object, for fallback */
    pthread_mutex_t pool_mu;
    rlxb_pool *pool;     /* created at the first compile */
} rlxb_backend;

/* ---- steps and executables ------------------------------------------- */

typedef enum rlxb_where {
    RLXB_ARENA,          /* exe->arena + value offset */
    RLXB_INPUT,          /* args->inputs[slot] */
    RLXB_PARAM,          /* args->params[slot]->bytes */
    RLXB_CONST,          /* step->owned */
    RLXB_ALIAS,          /* same storage as step alias_of */
    RLXB_FUSED           /* folded into a later step (fuse.c): no
                                 storage, no kernel, no inputs */
} rlxb_where;

typedef enum rlxb_kind {
    RLXB_K_SOURCE,       /* input, param, constant, reshape: no work */
    RLXB_K_UNARY,
    RLXB_K_BINARY,
    RLXB_K_MATMUL,
    RLXB_K_SOFTMAX,
    RLXB_K_NORM,
    RLXB_K_REDUCE,
    RLXB_K_TRANSPOSE,
    RLXB_K_ATTENTION,    /* fused softmax(q k^T * scale) v (fuse.c) */
    RLXB_K_CONV,         /* 2-d f32 convolution (kernels_conv.c) */
    RLXB_K_WINDOW,       /* 2-d pools, batch norm (kernels_window.c) */
    RLXB_K_QGEMM,        /* matmul_integer, conv_integer, with a fused
                                 requantization (kernels_q.c, qfuse.c) */
    RLXB_K_QLINEAR,      /* quantize / dequantize (kernels_qlinear.c) */
    RLXB_K_QELEM,        /* q(dq(a) add|mul dq(b)) (qelem.c) */
    RLXB_K_QLUT,         /* q(unary ops(dq(x))) as a table (qchain.c) */
    RLXB_K_QGAP,         /* q(reduce_mean(dq(x))) on bytes (qgap.c) */
    RLXB_K_CONVT,        /* 2-d f32 conv_transpose (kernels_convt.c) */
    RLXB_K_RESIZE,       /* nearest f32 resize (kernels_resize.c) */
    RLXB_K_FALLBACK      /* a one-node cpu-ref executable */
} rlxb_kind;

/* Binary op after merging dims: ROWS rows of LEN, each input stepping
 * by a 0/1 stride inside a row and by per-dim strides between rows. */
#define RLXB_MAX_RANK 8
typedef struct rlxb_binary {
    size_t len;               /* inner run */
    int a_inner, b_inner;     /* 1: contiguous, 0: broadcast */
    uint32_t rank;            /* outer dims (rows) */
    size_t dims[RLXB_MAX_RANK];
    size_t a_stride[RLXB_MAX_RANK], b_stride[RLXB_MAX_RANK];
    size_t rows;
} rlxb_binary;

/* y = quantize(dequantize(a) OP dequantize(b)), per tensor, broadcast
 * as the f32 op's plan says (qelem.c). */
typedef struct rlxb_qelem {
    rlx_op op;                /* RLX_OP_ADD or RLX_OP_MUL */
    rlx_dtype ta, tb, ty;     /* U8 or I8 each */
    rlxb_binary bin;
} rlxb_qelem;

/* A byte tensor x through per-tensor QDQ ops (dequantize, unary ops,
 * quantize, and an add or mul of two such values of x: a SiLU) back to
 * bytes, as one table of the 256 byte values (qchain.c). NODES are the
 * graph nodes it stands for, the last one the result; the step's inputs
 * are x, then the one-element operands (scales, zero points) the nodes
 * read. The table is made by cpu-ref for the operand values in SEEN and
 * remade when a run's differ. */
#define RLXB_QLUT_NODES 16
#define RLXB_QLUT_INS 16
typedef struct rlxb_qlut {
    uint32_t n_nodes, nodes[RLXB_QLUT_NODES];
    uint32_t x;               /* the byte tensor's step */
    uint32_t n_scalars;
    uint8_t size[RLXB_QLUT_INS]; /* bytes of each operand */
    int built;
    unsigned char seen[RLXB_QLUT_INS * 8];
    uint8_t lut[256];
} rlxb_qlut;

/* y = quantize(reduce_mean(dequantize(x))) over the last LEN elements of
 * x [outer, len], per tensor (qgap.c). */
typedef struct rlxb_qgap {
    rlx_dtype tx, ty;         /* U8 or I8 each */
    size_t outer, len;
} rlxb_qgap;

/* Work fused into a matmul's result at compile time (compile.c finds
 * the pattern, the gemm applies it while a tile is hot):
 * y = act(a . b + bias) + residual. Each part is optional. */
typedef struct rlxb_epilogue {
    int32_t bias_in;          /* step input index of a [n] bias, or -1 */
    int32_t res_in;           /* step input index of a residual shaped
                                 like the result, or -1 */
    rlx_op act;               /* RLX_OP_RELU, RLX_OP_GELU or
                                 RLX_OP_INVALID (none) */
    int64_t approx;           /* GELU form */
} rlxb_epilogue;

typedef struct rlxb_gemm {
    size_t m, k, n;
    int trans_a, trans_b;
    size_t lda, ldb;
    size_t n_batch;           /* sgemm calls */
    size_t *a_off, *b_off;    /* element offset of each batch, owned */
    rlxb_epilogue epi;
    /* B packed for the AVX2/AVX-512 kernels (sgemm.h), kept across runs
     * while B's key stays the same: execute sets b_key before each run
     * (0: B changes between runs, pack per run). Owned. */
    uint64_t b_key, packed_key;
    float *packed;
} rlxb_gemm;

/* [outer, len, inner] around one axis (softmax, reductions). */
typedef struct rlxb_axis {
    size_t outer, len, inner;
    int causal;
    size_t rows;              /* causal: rows of each matrix */
} rlxb_axis;

typedef struct rlxb_norm {
    size_t rows, cols;
    float eps;
} rlxb_norm;

typedef struct rlxb_transpose {
    uint32_t rank;            /* of the output */
    size_t dims[RLXB_MAX_RANK];
    size_t stride[RLXB_MAX_RANK]; /* input stride per output dim */
    size_t rows;              /* product of all but the last dim */
} rlxb_transpose;

/* Attention fused from matmul(q, k^T) -> [mul/div by a scalar] ->
 * softmax(last axis, causal or not) -> matmul(., v) [-> transpose], read
 * and written through strides so the per-head transposes around it are
 * never materialised. Pair t (a batch-and-head index) of q starts at
 * q + q_off[t], its rows Q_ROW elements apart, the last axis contiguous;
 * likewise k, v and the output. Inputs: q, k, v, then the scale. */
typedef struct rlxb_attn {
    size_t n_pairs, sq, sk, dh, dv;
    size_t q_row, k_row, v_row, o_row;
    size_t *off;              /* q_off, k_off, v_off, o_off: 4 * n_pairs,
                                 owned */
    int causal;
    int scale_in;             /* step input of a one-element scale, or -1 */
    int scale_div;            /* 1: scores / scale, 0: scores * scale */
    unsigned n_slots;         /* scratch blocks, one per pool thread */
    size_t slot_floats;
    float *scratch;           /* n_slots * slot_floats, owned */
    atomic_flag *busy;        /* n_slots, owned */
} rlxb_attn;

/* A 2-d f32 convolution, x [n, c, ih, iw] -> y [n, m, oh, ow], as
 * y = act(conv(x, w) + bias [+ res]) [+ res] per output channel. The
 * weights are packed once per bound buffer (keys of every operand the
 * packing reads), with a following batch norm folded in (fuse.c). */
#define RLXB_CONV_KEYS 6
typedef struct rlxb_conv {
    size_t n, c, m, groups, cg, mg; /* cg, mg: channels per group */
    size_t ih, iw, oh, ow, kh, kw;
    size_t sh, sw, dh, dw, ph, pw;  /* strides, dilations, pads_begin */
    size_t k, p;              /* cg * kh * kw; oh * ow */
    int depthwise;            /* groups == c == m: direct kernel */
    int pointwise;            /* 1x1, stride 1, no padding: x is col */
    int wino;                 /* 3x3 stride 1 by Winograd (kernels_wino.c) */
    int chlane;               /* channels on the lanes (kernels_chlane.c) */
    /* step inputs: 0 x, 1 w, then these (-1: none) */
    int32_t bias_in, res_in;
    int32_t bn_in;            /* scale, bias, mean, var from here on */
    float bn_eps;
    int res_first;            /* 1: act(conv + res), 0: act(conv) + res */
    rlx_op act;               /* RLX_OP_RELU, RLX_OP_GELU or INVALID */
    int64_t approx;
    /* per run: keys of w, bias, bn (0: changes every run) */
    uint64_t keys[RLXB_CONV_KEYS], packed_keys[RLXB_CONV_KEYS];
    int packed_ok;
    float *packed;            /* weights, packed (owned) */
    float *fbias;             /* [m] bias after folding (owned) */
    /* column blocks, one slot per pool thread, kept across runs while
     * big enough (owned) */
    unsigned n_slots;
    size_t slot_floats;
    float *scratch;
    atomic_flag *busy;
    /* the implicit-GEMM path (kernels_igemm.c): each row of K's offset
     * in a group's input planes, made at its first run (owned) */
    uint32_t *koff;
    /* squeeze-excite's channel scale fused into a pointwise conv (fuse.c):
     * input SCALE_IN is [n, c], each image's weights column k times its
     * scale[k], packed anew every run into SPACKED (owned; -1: none) */
    int32_t scale_in;
    float *spacked;
    size_t spacked_floats;
} rlxb_conv;

/* 2-d max/avg pool x [n, c, ih, iw] -> [n, c, oh, ow], or batch norm
 * (planes of ih * iw, iw = 1). */
typedef struct rlxb_window {
    size_t n, c, ih, iw, oh, ow, kh, kw;
    size_t sh, sw, dh, dw, ph, pw, peh, pew; /* pads begin, then end */
    int include_pad;
    double eps;               /* batch norm */
    float *cnt_x;             /* avg: window columns counted per ox,
                                 owned */
} rlxb_window;

/* A 2-d f32 conv_transpose of one group, x [n, c, ih, iw] -> y [n, m,
 * oh, ow] with w [c, m, kh, kw] and an optional bias [m]: a GEMM into
 * columns, then a scatter (kernels_convt.c). */
typedef struct rlxb_convt {
    size_t n, c, m, ih, iw, oh, ow, kh, kw;
    size_t sh, sw, dh, dw, ph, pw;
    size_t rows, p;           /* m * kh * kw; ih * iw */
    int has_bias;
    /* per run: the weights' key (0: they change every run) */
    uint64_t wt_key, packed_key;
    float *wt;                /* [rows x c] transposed weights (owned) */
    float *xpack;             /* one image packed as B (owned) */
    float *col;               /* [rows x p] (owned) */
} rlxb_convt;

/* Nearest resize: per axis d, output index o reads input element offset
 * off[axis[d] + o] along d (kernels_resize.c). */
typedef struct rlxb_resize {
    uint32_t rank;
    size_t out[8], axis[8];
    size_t rows;              /* output rows: all axes but the last */
    size_t *off;              /* owned */
} rlxb_resize;

typedef struct rlxb_step {
    rlx_op op;
    rlxb_kind kind;
    rlx_dtype dtype;
    size_t nbytes;            /* of the result */
    size_t count;
    uint32_t n_inputs;
    uint32_t *inputs;         /* step indices */
    rlxb_where where;
    uint32_t slot;            /* INPUT/PARAM slot; ARENA: value index */
    uint32_t alias_of;        /* ALIAS: the step whose storage it shares */
    void *owned;              /* CONST data */
    uint64_t key;             /* per run: what the bytes are, for caches
                                 of derived data (packed weights): the
                                 buffer's id (PARAM), RLXB_KEY_CONST,
                                 or 0 (changes between runs) */
    int64_t approx;           /* GELU form */
    float fattr[2];           /* UNARY: hard_sigmoid's alpha, beta; clip's
                                 bounds */
    union {
        rlxb_binary binary;
        rlxb_gemm gemm;
        rlxb_axis axis;
        rlxb_norm norm;
        rlxb_transpose transpose;
        rlxb_attn attn;
        rlxb_conv conv;
        rlxb_window window;
        rlxb_convt convt;
        rlxb_resize resize;
        rlxb_qplan q;
        rlxb_qlin qlin;
        rlxb_qelem qelem;
        rlxb_qlut qlut;
        rlxb_qgap qgap;
    } plan;
    void *fallback;           /* FALLBACK: the cpu-ref executable */
    const void **fb_inputs;   /* FALLBACK: operand pointers, per run */
    unsigned char *ptr;       /* resolved at execute */
} rlxb_step;

typedef struct rlxb_prof rlxb_prof;

typedef struct rlxb_exe {
    uint32_t n_steps;
    rlxb_step *steps;
    uint32_t n_inputs, n_params, n_outputs;
    uint32_t *input_steps, *param_steps, *output_steps;
    rlx_kit_live *values;     /* arena values (the kit's planner) */
    uint32_t n_values;
    size_t arena_size;
    unsigned char *arena;
    size_t *stage_off;        /* per input slot: offset in stage */
    size_t stage_size;        /* all inputs' bytes */
    unsigned char *stage;     /* copies of misaligned inputs, made lazily */
    rlxb_prof *prof;     /* per-step times (profile.c), or NULL */
    /* the compile's options (its settings), while it compiles only */
    const rlx_compile_options *options;
} rlxb_exe;

rlx_status rlxb_compile(void *backend, const rlx_graph_view *graph,
                             const rlx_compile_options *options,
                             rlx_executable **out);
void rlxb_executable_destroy(void *backend, rlx_executable *exe);
rlx_status rlxb_execute(void *backend, rlx_executable *exe,
                             const rlx_execute_args *args);

/* ---- fallback.c: cpu-ref on one node -------------------------------- */

rlx_status rlxb_fallback_compile(rlxb_backend *be,
                                      const rlx_graph_view *g, uint32_t i,
                                      void **out);
rlx_status rlxb_fallback_run(rlxb_backend *be, void *fb,
                                  const void *const *inputs,
                                  uint32_t n_inputs, void *output);
void rlxb_fallback_destroy(rlxb_backend *be, void *fb);
/* cpu-ref's op table, reused (supports_op answers exactly as cpu-ref). */
int rlxb_ref_supports(rlx_op op, rlx_dtype dtype);

/* ---- prepare.c: compile-time plans of the fast kernels --------------- */

/* Returns RLX_OK and fills STEP's plan, or RLX_ERR_UNSUPPORTED when the
 * node has no fast kernel (the caller then falls back). */
rlx_status rlxb_prepare(rlxb_backend *be, const rlx_graph_view *g,
                             uint32_t i, rlxb_step *step,
                             const rlx_compile_options *options);

/* ---- fuse.c: compile-time fusion over the steps ---------------------- */

/* Folds matmul -> bias add -> relu/gelu -> residual add chains into the
 * matmul's epilogue and attention chains into one ATTENTION step; the
 * steps folded away become FUSED. Runs after every step is prepared and
 * before the arena is planned. */
rlx_status rlxb_fuse(rlxb_backend *be, const rlx_graph_view *g,
                          rlxb_exe *x);
void rlxb_attn_free(rlxb_attn *p);

/* ---- kernels_conv.c: 2-d convolution --------------------------------- */

/* Plans node I when it is a 1-d or 2-d f32 conv this variant runs fast
 * (1-d as 2-d of height 1), else RLX_ERR_UNSUPPORTED. */
rlx_status rlxb_conv_prepare(rlxb_backend *be,
                                  const rlx_graph_view *g, uint32_t i,
                                  rlxb_conv *p,
                                  const rlx_compile_options *options);
/* IN: the step's operands (x, w, then those p names). 0, or -1 when out
 * of memory for the packed weights (nothing written). */
int rlxb_conv_run(rlxb_pool *pool, rlxb_conv *p,
                       const float *const *in, float *y);
void rlxb_conv_free(rlxb_conv *p);

/* ---- kernels_convt.c: 2-d conv_transpose ----------------------------- */

/* Plans node I when it is a 2-d f32 conv_transpose of one group and this
 * variant has the sgemm, else RLX_ERR_UNSUPPORTED. */
rlx_status rlxb_convt_prepare(rlxb_backend *be, const rlx_graph_view *g,
                              uint32_t i, rlxb_convt *p);
/* IN: x, w, [bias]. 0, or -1 when out of memory (nothing written). */
int rlxb_convt_run(rlxb_pool *pool, rlxb_convt *p, const float *const *in,
                   float *y);
void rlxb_convt_free(rlxb_convt *p);

/* ---- kernels_resize.c: nearest resize -------------------------------- */

/* Plans node I when it is a nearest f32 resize (no extrapolation), else
 * RLX_ERR_UNSUPPORTED. */
rlx_status rlxb_resize_prepare(rlxb_backend *be, const rlx_graph_view *g,
                               uint32_t i, rlxb_resize *p);
void rlxb_resize_run(rlxb_pool *pool, const rlxb_resize *p, const float *x,
                     float *y);
void rlxb_resize_free(rlxb_resize *p);

/* ---- kernels_window.c: pools and batch norm ------------------------- */

/* Plans max_pool/avg_pool (rank 4) or batch_norm node I, else
 * RLX_ERR_UNSUPPORTED. */
rlx_status rlxb_window_prepare(rlxb_backend *be,
                                    const rlx_graph_view *g, uint32_t i,
                                    rlxb_window *p);
/* IN: x, then batch norm's scale, bias, mean, var. */
void rlxb_window_run(rlxb_pool *pool, rlx_op op,
                          const rlxb_window *p, const float *const *in,
                          float *y);
void rlxb_window_free(rlxb_window *p);

/* ---- kernels_q.c, qfuse.c: 8-bit integer GEMM and conv ------------- */

/* Plans matmul_integer or conv_integer node I, else
 * RLX_ERR_UNSUPPORTED. */
rlx_status rlxb_q_prepare(rlxb_backend *be, const rlx_graph_view *g,
                          uint32_t i, rlxb_qplan *p);
/* IN: the step's operands (the op's four, then those p->epi names).
 * 0, or -1 when out of memory (for packing or scratch). */
int rlxb_q_run(rlxb_pool *pool, rlxb_qplan *p, const void *const *in,
               void *y);
void rlxb_q_free(rlxb_qplan *p);
/* Depthwise conv_integer plans run directly (kernels_qdw.c). */
int rlxb_qdw_fits(const rlxb_qplan *p);
/* 0, or -1 when out of memory for a task's scratch. */
int rlxb_qdw_run(rlxb_pool *pool, const rlxb_qplan *p,
                 const void *const *in, void *y);
/* A conv_integer plan on AVX-512 VNNI from a channel-last copy of x
 * (kernels_qconv.c): 0, -1 when out of memory, 1 when PATH or the plan
 * is not its case (the GEMM of kernels_q.c runs it). */
int rlxb_qconv_run(rlxb_pool *pool, rlxb_qplan *p, const void *const *in,
                   void *y, int path);
void rlxb_qconv_free(struct rlxb_qconv *q);
/* Folds the requantization chain after each QGEMM step into it. */
rlx_status rlxb_qfuse(rlxb_backend *be, const rlx_graph_view *g,
                      rlxb_exe *x);

/* quantize_linear / dequantize_linear node I per tensor or per axis,
 * else RLX_ERR_UNSUPPORTED. */
rlx_status rlxb_qlin_prepare(const rlx_graph_view *g, uint32_t i,
                             rlxb_qlin *p);
void rlxb_qlin_run(rlxb_pool *pool, const rlxb_qlin *p, const void *x,
                   const void *s, const void *z, void *y);
/* Max pool of u8 or i8 planes on window plan P (kernels_qpool.c). */
void rlxb_qpool_run(rlxb_pool *pool, const rlxb_window *p,
                    const void *x, void *y, int is_signed);

/* QDQ adds and muls folded into their quantize (qelem.c); IN: a, its
 * scale and zero point, b's, then y's scale and zero point. */
rlx_status rlxb_qelem_fuse(rlxb_backend *be, const rlx_graph_view *g,
                           rlxb_exe *x);
void rlxb_qelem_run(rlxb_pool *pool, const rlxb_qelem *p,
                    const void *const *in, void *y);

/* QDQ unary chains (dequantize, sigmoid / hard swish / ..., quantize),
 * and a quantized add or mul of x and such a chain of x, folded into one
 * table lookup (qchain.c); runs after rlxb_qelem_fuse. IN: x, then the
 * one-element operands; EXE: the step's cpu-ref table maker. */
rlx_status rlxb_qchain_fuse(rlxb_backend *be, const rlx_graph_view *g,
                            rlxb_exe *x);
rlx_status rlxb_qlut_run(rlxb_backend *be, void *exe, rlxb_qlut *p,
                         const void *const *in, void *y, size_t count);
/* Y[i] = LUT[X[i]] for i < N (VBMI where the CPU has it). */
void rlxb_qlut_look(const uint8_t *lut, const uint8_t *x, uint8_t *y,
                    size_t n);

/* QDQ global average pools (dequantize, reduce_mean, quantize) on the
 * bytes (qgap.c). IN: x, its scale and zero point, y's. */
rlx_status rlxb_qgap_fuse(rlxb_backend *be, const rlx_graph_view *g,
                          rlxb_exe *x);
void rlxb_qgap_run(rlxb_pool *pool, const rlxb_qgap *p,
                   const void *const *in, void *y);

/* ---- profile.c: per-step times (setting cpu-openblas.profile) -------- */

/* Sets x->prof when the setting asks for it. */
rlx_status rlxb_prof_create(rlxb_backend *be,
                                 const rlx_graph_view *g, rlxb_exe *x);
void rlxb_prof_destroy(rlxb_prof *p);
double rlxb_prof_now(void);
/* Step I ran from T0 (rlxb_prof_now) until now. */
void rlxb_prof_step(rlxb_prof *p, uint32_t i, double t0);
/* A run succeeded; logs the table after the last timed run. */
void rlxb_prof_run_done(rlxb_backend *be, rlxb_exe *x);

/* ---- kernels -------------------------------------------------------- */

/* FATTR: hard_sigmoid's alpha and beta, clip's bounds (ignored by the
 * other ops). */
void rlxb_unary(rlxb_pool *pool, rlx_op op, int64_t approx,
                     const float *fattr, const float *x, float *y,
                     size_t count);
/* One thread's share: the unary ops but hard_sigmoid and clip (the
 * conv epilogue's activations). */
void rlxb_unary_range(rlx_op op, int64_t approx, const float *x,
                           float *y, size_t n);
void rlxb_binary_run(rlxb_pool *pool, rlx_op op,
                          const rlxb_binary *p, const float *a,
                          const float *b, float *y);
/* Y = epilogue(A . B) for every batch. IN: the step's operands (in[0]
 * A, in[1] B, then the epilogue's, indexed by p->epi). */
void rlxb_gemm_run(rlxb_pool *pool, rlxb_gemm *p,
                        const float *const *in, float *y);
/* Frees what the plan owns (offsets, packed B). */
void rlxb_gemm_free(rlxb_gemm *p);
void rlxb_softmax_run(rlxb_pool *pool, const rlxb_axis *p,
                           const float *x, float *y);
void rlxb_norm_run(rlxb_pool *pool, rlx_op op,
                        const rlxb_norm *p, const float *x,
                        const float *gamma, const float *beta, float *y);
void rlxb_reduce_run(rlxb_pool *pool, rlx_op op,
                          const rlxb_axis *p, const float *x, float *y);
/* IN: q, k, v, then the scale (when p->scale_in >= 0). */
void rlxb_attn_run(rlxb_pool *pool, rlxb_attn *p,
                        const float *const *in, float *y);
void rlxb_transpose_run(rlxb_pool *pool,
                             const rlxb_transpose *p, const uint32_t *x,
                             uint32_t *y);

#endif /* RLXB_INTERNAL_H */
