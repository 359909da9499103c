/*
 * cpu_ref_dtypes.c - which dtypes cpu-ref runs each op of values 100-149
 * (ABI 1.4) on. These ops mix float, integer and bool dtypes, so the
 * float/data-movement split of cpu_ref.c does not describe them.
 */
#include "cpu_ref_internal.h"

int rlx__cpu_ref_supports_14(rlx_op op, rlx_dtype dtype)
{
    (void)op;
    (void)dtype;
    return 0; /* kernels not wired yet */
}
