/*
 * cpu_ref_vision.h - plans and kernels of the ops convolutional and
 * vision models need (ABI 1.4): conv and conv_transpose
 * (kernels_conv.c), the pools (kernels_pool.c), resize
 * (kernels_resize.c) and the per-channel norms (kernels_chnorm.c).
 *
 * Each node of these ops owns one plan, made at compile time with all
 * scratch memory, so execute allocates nothing.
 */
#ifndef RLX_CPU_REF_VISION_H
#define RLX_CPU_REF_VISION_H

#include <stddef.h>
#include <stdint.h>

#include <rlx/kit_spatial.h>

#define RLX__CPU_REF_RESIZE_TAPS 4 /* cubic reads 4 inputs per axis */

typedef struct rlx__cpu_ref_vision {
    /* conv, conv_transpose, pools: x [n, c, in...] -> y [n, m, out...] */
    rlx_kit_spatial sp;
    size_t n, c, m;
    size_t in[RLX_KIT_SPATIAL_MAX], out[RLX_KIT_SPATIAL_MAX];
    size_t in_sp, out_sp, k_sp; /* products of in, out, kernel */
    int has_bias;
    float *col;     /* conv: im2col of one group, (c/g * k_sp) x out_sp */
    double *acc;    /* conv_transpose: m * out_sp */

    /* resize: per axis and output index, up to 4 taps (input index,
     * weight); an axis with a tap outside [0, in) under
     * tf_crop_and_resize marks the output as extrapolated */
    uint32_t rank;
    size_t r_in[8], r_out[8];
    int64_t *tap_idx[8];
    double *tap_w[8];
    unsigned char *tap_n[8];   /* taps used, 0 = extrapolate */
    double extrapolation;

    /* batch_norm, instance_norm, group_norm: x [n, c, inner] */
    size_t inner, groups;
    int per_group;             /* group_norm params are [groups] */
    double eps;

    /* i8/u8 (max_pool, nearest resize): the data as f32 on both sides */
    float *xin, *yout;
} rlx__cpu_ref_vision;

void rlx__cpu_ref_vision_free(rlx__cpu_ref_vision *p);

/* Each prepare reads node V of G, fills *OUT (a new plan) and reports
 * errors through HOST with the node's NAME. */
rlx_status rlx__cpu_ref_conv_prepare(const rlx_host *host,
                                     const rlx_graph_view *g,
                                     const rlx_node_view *v,
                                     const char *name,
                                     rlx__cpu_ref_vision **out);
void rlx__cpu_ref_conv_run(rlx_op op, rlx__cpu_ref_vision *p,
                           const float *x, const float *w, const float *b,
                           float *y);

/* kernels_conv.c: read the window attributes and sizes of conv,
 * conv_transpose or a pool node V into P, checking them against V's
 * shape. */
rlx_status rlx__cpu_ref_window_read(const rlx_host *host,
                                    const rlx_graph_view *g,
                                    const rlx_node_view *v, const char *name,
                                    rlx__cpu_ref_vision *p);

rlx_status rlx__cpu_ref_pool_prepare(const rlx_host *host,
                                     const rlx_graph_view *g,
                                     const rlx_node_view *v,
                                     const char *name,
                                     rlx__cpu_ref_vision **out);
void rlx__cpu_ref_pool_run(rlx_op op, const rlx__cpu_ref_vision *p,
                           const float *x, float *y);
/* max_pool_index: each maximum's flat position in X (i64, Y). */
void rlx__cpu_ref_pool_index_run(const rlx__cpu_ref_vision *p,
                                 const float *x, int64_t *y);

rlx_status rlx__cpu_ref_resize_prepare(const rlx_host *host,
                                       const rlx_graph_view *g,
                                       const rlx_node_view *v,
                                       const char *name,
                                       rlx__cpu_ref_vision **out);
void rlx__cpu_ref_resize_run(const rlx__cpu_ref_vision *p, const float *x,
                             float *y);

rlx_status rlx__cpu_ref_chnorm_prepare(const rlx_host *host,
                                       const rlx_graph_view *g,
                                       const rlx_node_view *v,
                                       const char *name,
                                       rlx__cpu_ref_vision **out);
/* IN holds the inputs' f32 views: x, scale, bias[, mean, var]. */
void rlx__cpu_ref_chnorm_run(rlx_op op, const rlx__cpu_ref_vision *p,
                             const float *const *in, float *y);

/* A zeroed plan, with room for i8/u8 copies when V's dtype needs them;
 * NULL when out of memory. */
rlx__cpu_ref_vision *rlx__cpu_ref_vision_new(const rlx_graph_view *g,
                                             const rlx_node_view *v);

#endif /* RLX_CPU_REF_VISION_H */
