/*
 * cpu_ref_shape.c - the one double-to-float conversion every kernel
 * stores through (shape arithmetic is the plugin kit's, rlx/kit_shape.h).
 */
#include <float.h>
#include <math.h>

#include "cpu_ref_internal.h"

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
