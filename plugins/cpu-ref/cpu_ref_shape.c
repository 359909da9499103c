/*
 * cpu_ref_shape.c - shape arithmetic with overflow checks, and the one
 * double-to-float conversion every kernel stores through.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>

#include "cpu_ref_internal.h"

int rlx__cpu_ref_shape_count(rlx__cpu_ref_shape shape, size_t elem_size,
                             size_t *count)
{
    int zero = 0;
    if (shape.rank > 0 && !shape.dims)
        return 0;
    for (uint32_t i = 0; i < shape.rank; i++) {
        if (shape.dims[i] < 0)
            return 0;
        if (shape.dims[i] == 0)
            zero = 1;
    }
    if (zero) { /* other dims may be huge: the product is still 0 */
        *count = 0;
        return 1;
    }
    size_t n = 1;
    for (uint32_t i = 0; i < shape.rank; i++) {
        uint64_t d = (uint64_t)shape.dims[i];
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

int rlx__cpu_ref_shape_equal(rlx__cpu_ref_shape a, rlx__cpu_ref_shape b)
{
    if (a.rank != b.rank)
        return 0;
    for (uint32_t i = 0; i < a.rank; i++)
        if (a.dims[i] != b.dims[i])
            return 0;
    return 1;
}

const char *rlx__cpu_ref_shape_str(rlx__cpu_ref_shape shape, char *buf,
                                   size_t size)
{
    size_t used = 0;
    if (size == 0)
        return buf;
    snprintf(buf, size, "[]");
    for (uint32_t i = 0; i < shape.rank && used < size; i++) {
        int n = snprintf(buf + used, size - used, "%s%lld%s",
                         i ? ", " : "[", (long long)shape.dims[i],
                         i + 1 == shape.rank ? "]" : "");
        if (n < 0)
            break;
        used += (size_t)n;
    }
    return buf;
}

float rlx__cpu_ref_to_f32(double x)
{
    /* Beyond FLT_MAX plus half an ulp, round-to-nearest gives infinity;
     * between the two it gives FLT_MAX. NaN falls through unchanged. */
    if (x > FLT_MAX)
        return x >= 0x1.ffffffp+127 ? INFINITY : FLT_MAX;
    if (x < -FLT_MAX)
        return x <= -0x1.ffffffp+127 ? -INFINITY : -FLT_MAX;
    return (float)x;
}
