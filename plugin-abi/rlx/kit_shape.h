/*
 * kit_shape.h - plugin kit: shape arithmetic every backend needs:
 * element counts with overflow checks, axis normalisation, row-major
 * and NumPy broadcast strides, and collapsing a strided walk to the
 * fewest dims (drop dims of 1, merge neighbours that step alike).
 *
 * Dims and strides are int64_t, as in rlx_node_view.shape; strides are
 * in elements. Not ABI (see kit.h): header-only over types.h.
 */
#ifndef RLX_KIT_SHAPE_H
#define RLX_KIT_SHAPE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "types.h"

/* AXIS (negative counts from the end) as an index into RANK dims, or -1
 * when out of range. A rank-0 tensor has no axis: callers that let axis
 * 0 / -1 reach a scalar pass rank 1. */
static inline int64_t rlx_kit_norm_axis(int64_t axis, uint32_t rank)
{
    if (axis < 0)
        axis += (int64_t)rank;
    return axis >= 0 && axis < (int64_t)rank ? axis : -1;
}

/* Element count of RANK DIMS into *COUNT. Returns 0 when a dim is
 * negative (or DIMS is NULL with RANK > 0), -1 when the count times
 * ELEM_SIZE overflows size_t, 1 when fine. A dim of 0 makes the count 0
 * however large the others are. */
static inline int rlx_kit_shape_count(uint32_t rank, const int64_t *dims,
                                      size_t elem_size, size_t *count)
{
    int zero = 0;
    if (rank > 0 && !dims)
        return 0;
    for (uint32_t i = 0; i < rank; i++) {
        if (dims[i] < 0)
            return 0;
        if (dims[i] == 0)
            zero = 1;
    }
    if (zero) {
        *count = 0;
        return 1;
    }
    size_t n = 1;
    for (uint32_t i = 0; i < rank; i++) {
        uint64_t d = (uint64_t)dims[i];
#if SIZE_MAX < INT64_MAX
        if (d > SIZE_MAX)
            return -1;
#endif
        if ((size_t)d > SIZE_MAX / n)
            return -1;
        n *= (size_t)d;
    }
    if (elem_size && n > SIZE_MAX / elem_size)
        return -1;
    *count = n;
    return 1;
}

/* Product of DIMS[FROM..TO); the caller knows it does not overflow
 * (e.g. the whole shape's count was checked). */
static inline int64_t rlx_kit_dims_product(const int64_t *dims,
                                           uint32_t from, uint32_t to)
{
    int64_t n = 1;
    for (uint32_t d = from; d < to; d++)
        n *= dims[d];
    return n;
}

/* Nonzero when both shapes have the same rank and dims. */
static inline int rlx_kit_shape_equal(uint32_t ra, const int64_t *a,
                                      uint32_t rb, const int64_t *b)
{
    if (ra != rb)
        return 0;
    for (uint32_t i = 0; i < ra; i++)
        if (a[i] != b[i])
            return 0;
    return 1;
}

/* Append TEXT to BUF (SIZE bytes, *USED in use), cutting at the end. */
static inline void rlx_kit__append(char *buf, size_t size, size_t *used,
                                   const char *text)
{
    while (*text && *used + 1 < size)
        buf[(*used)++] = *text++;
    buf[*used] = '\0';
}

/* "[2, 3]" (or "[]") into BUF for messages; cut to SIZE; returns BUF. */
static inline const char *rlx_kit_shape_str(uint32_t rank,
                                            const int64_t *dims, char *buf,
                                            size_t size)
{
    size_t used = 0;
    char num[24]; /* the longest int64_t and its sign */
    if (size == 0)
        return buf;
    rlx_kit__append(buf, size, &used, "[");
    for (uint32_t i = 0; i < rank; i++) {
        snprintf(num, sizeof num, "%lld", (long long)dims[i]);
        rlx_kit__append(buf, size, &used, i ? ", " : "");
        rlx_kit__append(buf, size, &used, num);
    }
    rlx_kit__append(buf, size, &used, "]");
    return buf;
}

/* Row-major element strides of RANK DIMS into STRIDE (the last dim
 * steps by 1). */
static inline void rlx_kit_contiguous_strides(uint32_t rank,
                                              const int64_t *dims,
                                              int64_t *stride)
{
    int64_t s = 1;
    for (uint32_t d = rank; d-- > 0;) {
        stride[d] = s;
        s *= dims[d]; /* wraps only past an empty dim, never read then */
    }
}

/* Nonzero when an operand of IN_RANK IN_DIMS broadcasts to OUT_RANK
 * OUT_DIMS as NumPy does: aligned from the right, each dim equal or 1. */
static inline int rlx_kit_broadcasts(uint32_t in_rank, const int64_t *in_dims,
                                     uint32_t out_rank,
                                     const int64_t *out_dims)
{
    if (in_rank > out_rank)
        return 0;
    for (uint32_t d = 0; d < in_rank; d++) {
        int64_t di = in_dims[in_rank - 1 - d];
        if (di != out_dims[out_rank - 1 - d] && di != 1)
            return 0;
    }
    return 1;
}

/* Element strides of an operand (IN_RANK IN_DIMS, row-major) along the
 * OUT_RANK dims of the result it broadcasts to: 0 on a stretched dim or
 * one the operand lacks. IN_RANK <= OUT_RANK. */
static inline void rlx_kit_broadcast_strides(uint32_t out_rank,
                                             uint32_t in_rank,
                                             const int64_t *in_dims,
                                             int64_t *stride)
{
    int64_t s = 1;
    for (uint32_t d = out_rank; d-- > 0;) {
        uint32_t from_right = out_rank - 1 - d;
        if (from_right >= in_rank) {
            stride[d] = 0;
            continue;
        }
        int64_t di = in_dims[in_rank - 1 - from_right];
        stride[d] = di == 1 ? 0 : s;
        s *= di;
    }
}

/* Collapse a strided walk over RANK DIMS, in place: drop dims of 1, then
 * merge each dim into its inner neighbour where every one of the
 * N_STRIDES stride arrays steps alike (stride[d] == stride[d+1] *
 * dims[d+1]). Each of STRIDES[0..N_STRIDES) is rewritten alongside
 * DIMS; a NULL entry is skipped. Returns the new rank: 0 when every dim
 * was 1 (one element). The walk visits the same offsets in the same
 * order as before. */
static inline uint32_t rlx_kit_collapse(uint32_t rank, int64_t *dims,
                                        int64_t *const *strides,
                                        uint32_t n_strides)
{
    uint32_t n = 0;
    for (uint32_t d = 0; d < rank; d++) {
        if (dims[d] == 1)
            continue;
        int merge = n > 0;
        for (uint32_t k = 0; merge && k < n_strides; k++)
            merge = !strides[k] ||
                    strides[k][n - 1] == strides[k][d] * dims[d];
        if (merge) {
            dims[n - 1] *= dims[d];
            for (uint32_t k = 0; k < n_strides; k++)
                if (strides[k])
                    strides[k][n - 1] = strides[k][d];
            continue;
        }
        dims[n] = dims[d];
        for (uint32_t k = 0; k < n_strides; k++)
            if (strides[k])
                strides[k][n] = strides[k][d];
        n++;
    }
    return n;
}

/* One matmul operand as a kernel reads it (ops.h: a [..., m, k] times
 * b [..., k, n]). A rank-1 a is [1, k] and a rank-1 b is [k, 1];
 * transpose swaps the last two dims and does not apply to rank 1. */
typedef struct rlx_kit_matmul_operand {
    int64_t rows, cols;      /* after transpose: m x k for a, k x n for b */
    int64_t row, col;        /* element strides inside one matrix */
    int64_t size;            /* elements of one stored matrix */
    uint32_t batch_rank;     /* dims before the last two */
    const int64_t *batch;    /* those dims */
} rlx_kit_matmul_operand;

/* Describe operand A (IS_B 0) or B (IS_B 1) of RANK >= 1 DIMS. */
static inline void rlx_kit_matmul_operand_init(uint32_t rank,
                                               const int64_t *dims,
                                               int transpose, int is_b,
                                               rlx_kit_matmul_operand *o)
{
    o->batch = dims;
    if (rank == 1) {
        int64_t k = dims[0];
        o->rows = is_b ? k : 1;
        o->cols = is_b ? 1 : k;
        o->row = is_b ? 1 : 0;
        o->col = is_b ? 0 : 1;
        o->size = k;
        o->batch_rank = 0;
        return;
    }
    int64_t r = dims[rank - 2], c = dims[rank - 1];
    o->rows = transpose ? c : r;
    o->cols = transpose ? r : c;
    o->row = transpose ? 1 : c;
    o->col = transpose ? c : 1;
    o->size = r * c;
    o->batch_rank = rank - 2;
}

/* Element offset of O's matrices per step of each of the result's BR
 * batch dims: its broadcast strides times its matrix size (0 where O
 * is stretched or lacks the dim). */
static inline void rlx_kit_matmul_batch_strides(
    const rlx_kit_matmul_operand *o, uint32_t br, int64_t *stride)
{
    rlx_kit_broadcast_strides(br, o->batch_rank, o->batch, stride);
    for (uint32_t d = 0; d < br; d++)
        stride[d] *= o->size;
}

#endif /* RLX_KIT_SHAPE_H */
