/*
 * rlx/kit_index.h - index arithmetic of the 1.4 indexing ops that every
 * backend must do the same way: ONNX Slice bounds with steps, and
 * negative indices counting from the end. Part of the plugin kit (header
 * only, no symbols); the core's shape inference uses the same code, so a
 * backend and the core cannot disagree on a result's size.
 */
#ifndef RLX_KIT_INDEX_H
#define RLX_KIT_INDEX_H

#include <stdint.h>

/* strided_slice along an axis of DIM (>= 0) elements: the first index
 * read into *FIRST and the element count into *COUNT, for START, END and
 * STEP (non-zero) as ONNX Slice reads them: negative START and END count
 * from the end, then clamp to [0, DIM] for a positive step or
 * [-1, DIM - 1] for a negative one. Element i is FIRST + i * STEP. */
static inline void rlx_kit_slice_bounds(int64_t dim, int64_t start,
                                        int64_t end, int64_t step,
                                        int64_t *first, int64_t *count)
{
    if (start < 0)
        start += dim; /* dim >= 0: no overflow */
    if (end < 0)
        end += dim;
    int64_t span;
    if (step > 0) {
        start = start < 0 ? 0 : start > dim ? dim : start;
        end = end < 0 ? 0 : end > dim ? dim : end;
        span = end - start;
    } else {
        start = start < 0 ? 0 : start > dim - 1 ? dim - 1 : start;
        end = end < -1 ? -1 : end > dim - 1 ? dim - 1 : end;
        span = start - end;
    }
    /* |step| without overflow at INT64_MIN */
    uint64_t mag = step > 0 ? (uint64_t)step : (uint64_t)(-(step + 1)) + 1u;
    *first = start;
    *count = dim <= 0 || span <= 0
                 ? 0
                 : (int64_t)(((uint64_t)span - 1u) / mag + 1u);
}

/* An index into an axis of DIM elements, negative counting from the end:
 * 1 with the position in *OUT, or 0 when it is outside [-DIM, DIM). */
static inline int rlx_kit_index_wrap(int64_t index, int64_t dim,
                                     int64_t *out)
{
    if (index < 0)
        index += dim;
    if (index < 0 || index >= dim)
        return 0;
    *out = index;
    return 1;
}

#endif /* RLX_KIT_INDEX_H */
