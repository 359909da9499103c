/*
 * execute.c - run a compiled graph once: check the arguments, resolve
 * each step's storage (arena offset, caller's input, param buffer,
 * constant, alias), run its kernel, then copy the outputs out. Every
 * argument is checked before the first step runs, and outputs are
 * written only after every step succeeded (only a gather with an index
 * out of range can fail mid-way), so a failed run changes nothing.
 */
#include <stdlib.h>
#include <string.h>

#include "blas_internal.h"
#include "cpu_ref_reuse.h"

static rlx_status check_args(const rlx_host *host, const rlxb_exe *x,
                             const rlx_execute_args *a)
{
    rlx_status st = rlx_kit_check_execute_args(host, "cpu-openblas execute",
                                               a, x->n_params, x->n_inputs,
                                               x->n_outputs);
    if (st != RLX_OK)
        return st;
    for (uint32_t k = 0; k < x->n_params; k++) {
        const rlxb_step *s = &x->steps[x->param_steps[k]];
        const rlx_buffer *b = a->params[k];
        if (!b || b->dtype != s->dtype || b->nbytes != s->nbytes)
            return rlx_kit_fail(host, RLX_ERR_INVALID_ARGUMENT,
                                "cpu-openblas execute: param slot %u has "
                                "%s. Fix: set the param from a buffer of "
                                "%zu bytes made by this backend",
                                (unsigned)k,
                                b ? "a buffer of another dtype or size"
                                  : "no buffer", s->nbytes);
    }
    for (uint32_t k = 0; k < x->n_inputs; k++)
        if (x->steps[x->input_steps[k]].nbytes && !a->inputs[k])
            return rlx_kit_fail(host, RLX_ERR_INVALID_ARGUMENT,
                                "cpu-openblas execute: input slot %u is "
                                "NULL. Fix: set every input before "
                                "running", (unsigned)k);
    for (uint32_t k = 0; k < x->n_outputs; k++)
        if (x->steps[x->output_steps[k]].nbytes && !a->outputs[k])
            return rlx_kit_fail(host, RLX_ERR_INVALID_ARGUMENT,
                                "cpu-openblas execute: output %u has no "
                                "destination. Fix: pass host memory for "
                                "every output", (unsigned)k);
    return RLX_OK;
}

/* An input as the kernels can read it: in place when aligned for its
 * element type, else copied into the stage (allocated on first need). */
static rlx_status input_ptr(rlxb_backend *be, rlxb_exe *x,
                            rlxb_step *s, const void *p)
{
    size_t align = rlx_dtype_size(s->dtype);
    if (!p || (uintptr_t)p % align == 0) {
        s->ptr = (unsigned char *)p;
        return RLX_OK;
    }
    if (!x->stage && !(x->stage = aligned_alloc(
                           RLXB_ALIGN, x->stage_size + RLXB_ALIGN)))
        return rlx_kit_fail(be->host, RLX_ERR_OUT_OF_MEMORY,
                            "cpu-openblas execute: cannot copy a "
                            "misaligned input. Fix: pass inputs aligned "
                            "to their element size, or free memory");
    s->ptr = x->stage + x->stage_off[s->slot];
    memcpy(s->ptr, p, s->nbytes);
    return RLX_OK;
}

#define F32(i) ((const float *)x->steps[s->inputs[i]].ptr)

static rlx_status step_run(rlxb_backend *be, rlxb_exe *x,
                           rlxb_step *s)
{
    rlxb_pool *pool = be->pool;
    float *y = (float *)s->ptr;
    switch (s->kind) {
    case RLXB_K_SOURCE:
        return RLX_OK;
    case RLXB_K_UNARY:
        rlxb_unary(pool, s->op, s->approx, s->fattr, F32(0), y,
                        s->count);
        return RLX_OK;
    case RLXB_K_BINARY:
        rlxb_binary_run(pool, s->op, &s->plan.binary, F32(0), F32(1),
                             y);
        return RLX_OK;
    case RLXB_K_MATMUL: {
        const float *in[4] = { 0 };
        for (uint32_t j = 0; j < s->n_inputs && j < 4; j++)
            in[j] = F32(j);
        s->plan.gemm.b_key = x->steps[s->inputs[1]].key;
        rlxb_gemm_run(pool, &s->plan.gemm, in, y);
        return RLX_OK;
    }
    case RLXB_K_CONV: {
        rlxb_conv *c = &s->plan.conv;
        const float *in[RLXB_CONV_KEYS + 3] = { 0 };
        for (uint32_t j = 0; j < s->n_inputs && j < RLXB_CONV_KEYS + 3;
             j++)
            in[j] = F32(j);
        memset(c->keys, 0, sizeof c->keys);
        c->keys[0] = x->steps[s->inputs[1]].key;
        if (c->bias_in >= 0)
            c->keys[1] = x->steps[s->inputs[c->bias_in]].key;
        for (int k = 0; c->bn_in >= 0 && k < 4; k++)
            c->keys[2 + k] = x->steps[s->inputs[c->bn_in + k]].key;
        if (rlxb_conv_run(pool, c, in, y) != 0)
            return rlx_kit_fail(be->host, RLX_ERR_OUT_OF_MEMORY,
                                "cpu-openblas execute: out of memory for "
                                "the packed weights or columns of a conv. "
                                "Fix: free memory, or use a smaller batch");
        return RLX_OK;
    }
    case RLXB_K_RESIZE:
        rlxb_resize_run(pool, &s->plan.resize, F32(0), y);
        return RLX_OK;
    case RLXB_K_CONVT: {
        rlxb_convt *c = &s->plan.convt;
        const float *in[3] = { F32(0), F32(1),
                               s->n_inputs > 2 ? F32(2) : NULL };
        c->wt_key = x->steps[s->inputs[1]].key;
        if (rlxb_convt_run(pool, c, in, y) != 0)
            return rlx_kit_fail(be->host, RLX_ERR_OUT_OF_MEMORY,
                                "cpu-openblas execute: out of memory for "
                                "the columns of a conv_transpose. Fix: "
                                "free memory, or use a smaller input");
        return RLX_OK;
    }
    case RLXB_K_QGEMM: {
        rlxb_qplan *q = &s->plan.q;
        const void *in[4 + 4 + RLXB_Q_MAX_CLAMP] = { 0 };
        for (uint32_t j = 0; j < s->n_inputs && j < 8 + RLXB_Q_MAX_CLAMP;
             j++)
            in[j] = x->steps[s->inputs[j]].ptr;
        q->a_key = x->steps[s->inputs[q->is_conv ? 1 : 0]].key;
        q->b_key = x->steps[s->inputs[q->is_conv ? 0 : 1]].key;
        if (rlxb_q_run(pool, q, in, s->ptr) != 0)
            return rlx_kit_fail(be->host, RLX_ERR_OUT_OF_MEMORY,
                                "cpu-openblas execute: out of memory for "
                                "the packed operands of an integer matmul "
                                "or conv. Fix: free memory, or use a "
                                "smaller batch");
        return RLX_OK;
    }
    case RLXB_K_QELEM: {
        const void *in[8];
        for (uint32_t j = 0; j < 8; j++)
            in[j] = x->steps[s->inputs[j]].ptr;
        rlxb_qelem_run(pool, &s->plan.qelem, in, s->ptr);
        return RLX_OK;
    }
    case RLXB_K_QLUT: {
        const void *in[1 + RLXB_QLUT_INS];
        for (uint32_t j = 0; j < s->n_inputs && j < 1 + RLXB_QLUT_INS; j++)
            in[j] = x->steps[s->inputs[j]].ptr;
        return rlxb_qlut_run(be, s->fallback, &s->plan.qlut, in, s->ptr,
                             s->count);
    }
    case RLXB_K_QGAP: {
        const void *in[5];
        for (uint32_t j = 0; j < 5; j++)
            in[j] = x->steps[s->inputs[j]].ptr;
        rlxb_qgap_run(pool, &s->plan.qgap, in, s->ptr);
        return RLX_OK;
    }
    case RLXB_K_QLINEAR:
        rlxb_qlin_run(pool, &s->plan.qlin, x->steps[s->inputs[0]].ptr,
                      x->steps[s->inputs[1]].ptr,
                      x->steps[s->inputs[2]].ptr, s->ptr);
        return RLX_OK;
    case RLXB_K_WINDOW: {
        if (s->dtype != RLX_DTYPE_F32) { /* a max pool of bytes */
            rlxb_qpool_run(pool, &s->plan.window,
                           x->steps[s->inputs[0]].ptr, s->ptr,
                           s->dtype == RLX_DTYPE_I8);
            return RLX_OK;
        }
        const float *in[5] = { 0 };
        for (uint32_t j = 0; j < s->n_inputs && j < 5; j++)
            in[j] = F32(j);
        rlxb_window_run(pool, s->op, &s->plan.window, in, y);
        return RLX_OK;
    }
    case RLXB_K_ATTENTION: {
        const float *in[4] = { F32(0), F32(1), F32(2),
                               s->n_inputs > 3 ? F32(3) : NULL };
        rlxb_attn_run(pool, &s->plan.attn, in, y);
        return RLX_OK;
    }
    case RLXB_K_SOFTMAX:
        rlxb_softmax_run(pool, &s->plan.axis, F32(0), y);
        return RLX_OK;
    case RLXB_K_NORM:
        rlxb_norm_run(pool, s->op, &s->plan.norm, F32(0), F32(1),
                           s->n_inputs > 2 ? F32(2) : NULL, y);
        return RLX_OK;
    case RLXB_K_REDUCE:
        rlxb_reduce_run(pool, s->op, &s->plan.axis, F32(0), y);
        return RLX_OK;
    case RLXB_K_TRANSPOSE:
        rlxb_transpose_run(pool, &s->plan.transpose,
                                (const uint32_t *)x->steps[s->inputs[0]].ptr,
                                (uint32_t *)s->ptr);
        return RLX_OK;
    case RLXB_K_FALLBACK:
        for (uint32_t j = 0; j < s->n_inputs; j++)
            s->fb_inputs[j] = x->steps[s->inputs[j]].ptr;
        return rlxb_fallback_run(be, s->fallback, s->fb_inputs,
                                      s->n_inputs, s->ptr);
    }
    return RLX_OK;
}

rlx_status rlxb_execute(void *backend, rlx_executable *exe,
                             const rlx_execute_args *args)
{
    rlxb_backend *be = backend;
    rlxb_exe *x = (rlxb_exe *)exe;
    if (!x)
        return rlx_host_report(be->host, RLX_ERR_INVALID_ARGUMENT,
                               "cpu-openblas execute: NULL executable. Fix: "
                               "pass an executable made by this backend");
    rlx_status st = check_args(be->host, x, args);
    for (uint32_t i = 0; st == RLX_OK && i < x->n_steps; i++) {
        rlxb_step *s = &x->steps[i];
        s->key = 0;
        switch (s->where) {
        case RLXB_ARENA:
            s->ptr = x->arena + x->values[s->slot].offset;
            break;
        case RLXB_INPUT:
            st = input_ptr(be, x, s, args->inputs[s->slot]);
            break;
        case RLXB_PARAM:
            s->ptr = args->params[s->slot]->bytes;
            s->key = args->params[s->slot]->id;
            break;
        case RLXB_CONST:
            s->ptr = s->owned;
            s->key = RLXB_KEY_CONST;
            break;
        case RLXB_ALIAS:
            s->ptr = x->steps[s->alias_of].ptr;
            s->key = x->steps[s->alias_of].key;
            break;
        case RLXB_FUSED: /* folded into a later step */
            s->ptr = NULL;
            continue;
        }
        double t0 = x->prof ? rlxb_prof_now() : 0.0;
        if (st == RLX_OK)
            st = step_run(be, x, s);
        if (x->prof)
            rlxb_prof_step(x->prof, i, t0);
    }
    if (x->prof && st == RLX_OK)
        rlxb_prof_run_done(be, x);
    for (uint32_t k = 0; st == RLX_OK && k < x->n_outputs; k++) {
        const rlxb_step *s = &x->steps[x->output_steps[k]];
        if (s->nbytes)
            memcpy(args->outputs[k], s->ptr, s->nbytes);
    }
    return st;
}
