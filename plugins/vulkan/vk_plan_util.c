/* vk_plan_util.c - see vk_plan.h. */
#include <string.h>

#include "vk_plan.h"

void rlx__vk_strides(uint32_t rank, const int64_t *shape, uint64_t *out)
{
    uint64_t s = 1;
    for (uint32_t d = rank; d-- > 0;) {
        out[d] = s;
        s *= (uint64_t)shape[d];
    }
}

uint32_t rlx__vk_collapse(uint32_t rank, uint64_t *dims, uint64_t *s1,
                          uint64_t *s2, uint64_t *s3)
{
    uint32_t n = 0;
    for (uint32_t d = 0; d < rank; d++) { /* drop dims of 1 */
        if (dims[d] == 1)
            continue;
        dims[n] = dims[d];
        s1[n] = s1[d];
        if (s2)
            s2[n] = s2[d];
        if (s3)
            s3[n] = s3[d];
        n++;
    }
    if (n == 0)
        return 0;
    uint32_t out = n - 1; /* merge from the innermost dim outward */
    for (uint32_t d = n - 1; d-- > 0;) {
        int merge = s1[d] == s1[out] * dims[out] &&
                    (!s2 || s2[d] == s2[out] * dims[out]) &&
                    (!s3 || s3[d] == s3[out] * dims[out]);
        if (merge) {
            dims[out] *= dims[d];
            continue;
        }
        out--;
        dims[out] = dims[d];
        s1[out] = s1[d];
        if (s2)
            s2[out] = s2[d];
        if (s3)
            s3[out] = s3[d];
    }
    uint32_t r = n - out;
    memmove(dims, dims + out, r * sizeof *dims);
    memmove(s1, s1 + out, r * sizeof *s1);
    if (s2)
        memmove(s2, s2 + out, r * sizeof *s2);
    if (s3)
        memmove(s3, s3 + out, r * sizeof *s3);
    return r;
}

int64_t rlx__vk_int_attr(const rlx_node_view *v, uint32_t k, int64_t def)
{
    if (!RLX_HAS_FIELD(v->struct_size, rlx_node_view, int_attrs) ||
        !v->int_attrs || k >= v->n_int_attrs)
        return def;
    return v->int_attrs[k];
}

double rlx__vk_float_attr(const rlx_node_view *v, uint32_t k, double def)
{
    if (!RLX_HAS_FIELD(v->struct_size, rlx_node_view, float_attrs) ||
        !v->float_attrs || k >= v->n_float_attrs)
        return def;
    return v->float_attrs[k];
}

const rlx_node_view *rlx__vk_input(const rlx__vk_plan_ctx *pc, uint32_t j)
{
    return pc->g->nodes[pc->v->inputs[j]];
}

rlx_status rlx__vk_unsupported(const rlx__vk_plan_ctx *pc, const char *why)
{
    return rlx__vk_fail(pc->host, RLX_ERR_UNSUPPORTED,
                        "vulkan compile: %s '%s' (%s): %s. Fix: run this "
                        "graph on another backend (cpu), or reshape it",
                        rlx__vk_op_name(pc->v->op), pc->name,
                        pc->v->dtype == RLX_DTYPE_F32 ? "f32" : "non-f32",
                        why);
}

uint32_t rlx__vk_fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
