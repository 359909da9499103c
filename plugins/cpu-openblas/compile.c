/*
 * compile.c - turn a borrowed graph view into steps over one arena: pick
 * each node's kernel (prepare.c, or cpu-ref through fallback.c), decide
 * where its result lives, then plan the arena from the values'
 * lifetimes (plan.c) and allocate it once. Execute then allocates
 * nothing (except a copy of an input the caller handed in misaligned).
 */
#include <stdlib.h>
#include <string.h>

#include "blas_internal.h"
#include "cpu_ref_reuse.h"

static size_t round_up(size_t n)
{
    return (n + RLXB_ALIGN - 1) / RLXB_ALIGN * RLXB_ALIGN;
}

/* The step whose storage step I uses (reshape chains end at a source or
 * an arena value). */
static uint32_t root_of(const rlxb_exe *x, uint32_t i)
{
    while (x->steps[i].where == RLXB_ALIAS)
        i = x->steps[i].alias_of;
    return i;
}

static rlx_status fail_oom(const rlx_host *host, const char *name)
{
    return rlx_kit_fail(host, RLX_ERR_OUT_OF_MEMORY,
                        "cpu-openblas compile: out of memory at node "
                        "'%s'. Fix: free memory, or compile a smaller "
                        "graph", name);
}

static rlx_status step_init(rlxb_backend *be, const rlx_graph_view *g,
                            uint32_t i, rlxb_exe *x)
{
    const rlx_node_view *v = g->nodes[i];
    rlxb_step *s = &x->steps[i];
    size_t elem = rlx_dtype_size(v->dtype), count = 1;
    for (uint32_t d = 0; d < v->rank; d++) {
        size_t n = (size_t)v->shape[d];
        if (v->shape[d] < 0 || (n && count > SIZE_MAX / n))
            return rlx_kit_fail(be->host, RLX_ERR_INVALID_ARGUMENT,
                                "cpu-openblas compile: node '%s' has a "
                                "bad or too large shape. Fix: report "
                                "this as a bug in the rlx core", v->name);
        count *= n;
    }
    if (elem == 0 || count > SIZE_MAX / elem)
        return rlx_kit_fail(be->host, RLX_ERR_UNSUPPORTED,
                            "cpu-openblas compile: node '%s' has dtype %d "
                            "or a size this backend cannot hold. Fix: use "
                            "a dtype of rlx/types.h and smaller tensors",
                            v->name, (int)v->dtype);
    s->op = v->op;
    s->dtype = v->dtype;
    s->count = count;
    s->nbytes = count * elem;
    s->n_inputs = v->n_inputs;
    s->inputs = calloc(v->n_inputs ? v->n_inputs : 1, sizeof *s->inputs);
    if (!s->inputs)
        return fail_oom(be->host, v->name);
    for (uint32_t j = 0; j < v->n_inputs; j++) {
        if (v->inputs[j] >= i)
            return rlx_kit_fail(be->host, RLX_ERR_INVALID_ARGUMENT,
                                "cpu-openblas compile: node '%s' reads a "
                                "later node. Fix: report this as a bug in "
                                "the rlx core", v->name);
        s->inputs[j] = v->inputs[j];
    }

    switch (v->op) {
    case RLX_OP_INPUT: case RLX_OP_PARAM:
        s->kind = RLXB_K_SOURCE;
        s->where = v->op == RLX_OP_INPUT ? RLXB_INPUT : RLXB_PARAM;
        s->slot = v->slot;
        return RLX_OK;
    case RLX_OP_CONSTANT:
        s->kind = RLXB_K_SOURCE;
        s->where = RLXB_CONST;
        if (!(s->owned = aligned_alloc(RLXB_ALIGN,
                                       round_up(s->nbytes ? s->nbytes : 1))))
            return fail_oom(be->host, v->name);
        if (s->nbytes && v->data)
            memcpy(s->owned, v->data, s->nbytes);
        return RLX_OK;
    case RLX_OP_RESHAPE:
        if (v->n_inputs == 1) { /* same bytes, another shape: an alias */
            s->kind = RLXB_K_SOURCE;
            s->where = RLXB_ALIAS;
            s->alias_of = root_of(x, v->inputs[0]);
            return RLX_OK;
        }
        break;
    default:
        break;
    }
    s->where = RLXB_ARENA;
    rlx_status st = rlxb_prepare(be, g, i, s, x->options);
    if (st != RLX_ERR_UNSUPPORTED)
        return st;
    s->kind = RLXB_K_FALLBACK;
    s->fb_inputs = calloc(v->n_inputs ? v->n_inputs : 1,
                          sizeof *s->fb_inputs);
    if (!s->fb_inputs)
        return fail_oom(be->host, v->name);
    return rlxb_fallback_compile(be, g, i, &s->fallback);
}

/* Lifetimes of the arena values, the plan, the arena. */
static rlx_status plan_arena(rlxb_backend *be, const rlx_graph_view *g,
                             rlxb_exe *x)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < x->n_steps; i++)
        if (x->steps[i].where == RLXB_ARENA)
            n++;
    x->values = calloc(n ? n : 1, sizeof *x->values);
    if (!x->values)
        return fail_oom(be->host, "(memory plan)");
    x->n_values = n;
    n = 0;
    for (uint32_t i = 0; i < x->n_steps; i++) {
        rlxb_step *s = &x->steps[i];
        if (s->where != RLXB_ARENA)
            continue;
        s->slot = n;
        x->values[n++] = (rlx_kit_live){ .nbytes = s->nbytes,
                                            .first = i, .last = i };
    }
    for (uint32_t i = 0; i < x->n_steps; i++) {
        const rlxb_step *s = &x->steps[i];
        for (uint32_t j = 0; j < s->n_inputs; j++) {
            const rlxb_step *r = &x->steps[root_of(x, s->inputs[j])];
            if (r->where == RLXB_ARENA && x->values[r->slot].last < i)
                x->values[r->slot].last = i;
        }
    }
    for (uint32_t o = 0; o < x->n_outputs; o++) {
        const rlxb_step *r = &x->steps[root_of(x, x->output_steps[o])];
        if (r->where == RLXB_ARENA)
            x->values[r->slot].last = x->n_steps; /* read after the walk */
    }
    x->arena_size = rlx_kit_plan_memory(x->values, x->n_values,
                                        RLXB_ALIGN);

    /* For the log: the largest set of values alive at one step (a lower
     * bound of any plan) and the total without reuse. */
    size_t live_max = 0, total = 0, live = 0;
    /* born[i]: bytes of values made at step i; dies[i]: last read at i */
    size_t *born = calloc(2 * ((size_t)x->n_steps + 1), sizeof *born);
    if (!born)
        return fail_oom(be->host, "(memory plan)");
    size_t *dies = born + x->n_steps + 1;
    for (uint32_t k = 0; k < x->n_values; k++) {
        size_t sz = round_up(x->values[k].nbytes ? x->values[k].nbytes : 1);
        born[x->values[k].first] += sz;
        dies[x->values[k].last] += sz;
        total += sz;
    }
    for (uint32_t i = 0; i <= x->n_steps; i++) {
        live += born[i];
        if (live > live_max)
            live_max = live;
        live -= dies[i];
    }
    free(born);
    uint32_t fast = 0, ref = 0;
    for (uint32_t i = 0; i < x->n_steps; i++) {
        fast += x->steps[i].kind != RLXB_K_FALLBACK &&
                x->steps[i].kind != RLXB_K_SOURCE;
        ref += x->steps[i].kind == RLXB_K_FALLBACK;
    }
    rlx_kit_log(be->host, RLX_LOG_DEBUG,
                "cpu-openblas: memory plan of %u nodes: peak %zu bytes, "
                "largest live set %zu bytes, %zu bytes without reuse; "
                "%u values, %u fast steps, %u through cpu-ref",
                (unsigned)g->n_nodes, x->arena_size, live_max, total,
                (unsigned)x->n_values, (unsigned)fast, (unsigned)ref);

    x->arena = aligned_alloc(RLXB_ALIGN, round_up(x->arena_size + 1));
    if (!x->arena)
        return rlx_kit_fail(be->host, RLX_ERR_OUT_OF_MEMORY,
                            "cpu-openblas compile: cannot allocate the "
                            "%zu-byte arena. Fix: free memory, or compile "
                            "a smaller graph", x->arena_size);
    return RLX_OK;
}

static rlx_status copy_slots(rlxb_backend *be, const uint32_t *src,
                             uint32_t n, uint32_t n_nodes, uint32_t **dst)
{
    *dst = calloc(n ? n : 1, sizeof **dst);
    if (!*dst)
        return fail_oom(be->host, "(slots)");
    for (uint32_t i = 0; i < n; i++) {
        if (src[i] >= n_nodes)
            return rlx_kit_fail(be->host, RLX_ERR_INVALID_ARGUMENT,
                                "cpu-openblas compile: slot %u names node "
                                "%u of %u. Fix: report this as a bug in "
                                "the rlx core", (unsigned)i,
                                (unsigned)src[i], (unsigned)n_nodes);
        (*dst)[i] = src[i];
    }
    return RLX_OK;
}

rlx_status rlxb_compile(void *backend, const rlx_graph_view *g,
                             const rlx_compile_options *options,
                             rlx_executable **out)
{
    rlxb_backend *be = backend;
    /* precision: STRICT is what we do; TF32 does not apply on CPU. The
     * settings are read from OPTIONS while compiling. */
    if (!g || !out || !RLX_HAS_FIELD(g->struct_size, rlx_graph_view, outputs))
        return rlx_host_report(be->host, RLX_ERR_INVALID_ARGUMENT,
                               "cpu-openblas compile: missing or truncated "
                               "graph view. Fix: report this as a bug in "
                               "the rlx core");
    rlxb_exe *x = calloc(1, sizeof *x);
    if (!x)
        return fail_oom(be->host, "(executable)");
    rlx_status st = RLX_OK;
    x->options = options;
    x->n_steps = g->n_nodes;
    x->n_inputs = g->n_inputs;
    x->n_params = g->n_params;
    x->n_outputs = g->n_outputs;
    if (!(x->steps = calloc(g->n_nodes ? g->n_nodes : 1, sizeof *x->steps)))
        st = fail_oom(be->host, "(steps)");
    if (st == RLX_OK)
        st = copy_slots(be, g->inputs, g->n_inputs, g->n_nodes,
                        &x->input_steps);
    if (st == RLX_OK)
        st = copy_slots(be, g->params, g->n_params, g->n_nodes,
                        &x->param_steps);
    if (st == RLX_OK)
        st = copy_slots(be, g->outputs, g->n_outputs, g->n_nodes,
                        &x->output_steps);
    for (uint32_t i = 0; st == RLX_OK && i < g->n_nodes; i++)
        st = step_init(be, g, i, x);
    if (st == RLX_OK)
        st = rlxb_fuse(be, g, x);
    if (st == RLX_OK)
        st = rlxb_prof_create(be, g, x);
    if (st == RLX_OK)
        st = plan_arena(be, g, x);
    if (st == RLX_OK) {
        x->stage_off = calloc(x->n_inputs ? x->n_inputs : 1,
                              sizeof *x->stage_off);
        if (!x->stage_off)
            st = fail_oom(be->host, "(inputs)");
        for (uint32_t k = 0; st == RLX_OK && k < x->n_inputs; k++) {
            x->stage_off[k] = x->stage_size;
            x->stage_size += round_up(x->steps[x->input_steps[k]].nbytes);
        }
    }
    if (st != RLX_OK) {
        rlxb_executable_destroy(be, (rlx_executable *)x);
        return st;
    }
    x->options = NULL; /* the core's, valid during compile only */
    *out = (rlx_executable *)x;
    return RLX_OK;
}

void rlxb_executable_destroy(void *backend, rlx_executable *exe)
{
    rlxb_backend *be = backend;
    rlxb_exe *x = (rlxb_exe *)exe;
    if (!x)
        return;
    for (uint32_t i = 0; x->steps && i < x->n_steps; i++) {
        rlxb_step *s = &x->steps[i];
        free(s->inputs);
        free(s->owned);
        free(s->fb_inputs);
        rlxb_fallback_destroy(be, s->fallback);
        if (s->kind == RLXB_K_MATMUL)
            rlxb_gemm_free(&s->plan.gemm);
        if (s->kind == RLXB_K_ATTENTION)
            rlxb_attn_free(&s->plan.attn);
        if (s->kind == RLXB_K_CONV)
            rlxb_conv_free(&s->plan.conv);
        if (s->kind == RLXB_K_WINDOW)
            rlxb_window_free(&s->plan.window);
        if (s->kind == RLXB_K_QGEMM)
            rlxb_q_free(&s->plan.q);
        if (s->kind == RLXB_K_CONVT)
            rlxb_convt_free(&s->plan.convt);
        if (s->kind == RLXB_K_RESIZE)
            rlxb_resize_free(&s->plan.resize);
    }
    free(x->steps);
    free(x->input_steps);
    free(x->param_steps);
    free(x->output_steps);
    free(x->values);
    free(x->arena);
    free(x->stage_off);
    free(x->stage);
    rlxb_prof_destroy(x->prof);
    free(x);
}
