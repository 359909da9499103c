/*
 * onnx_control.c - If, Loop and Scan. An If whose condition is known
 * (folded at load, or a run-time value once the stage before it ran) has
 * its chosen branch inlined into the graph being built, its outer names
 * visible. Loop and Scan run at run time only: the walker ends the stage,
 * and the body runs once per iteration as its own stages (compiled on the
 * same session), loop-carried values and scan slices passed as host data,
 * scan outputs stacked on the host.
 */
#include <stdlib.h>
#include <string.h>

#include "onnx.h"

int rlx__onnx_is_control(const char *op)
{
    return strcmp(op, "If") == 0 || strcmp(op, "Loop") == 0 ||
           strcmp(op, "Scan") == 0;
}

static const Onnx__GraphProto *graph_attr(rlx__onnx_ctx *c, const char *name)
{
    const Onnx__AttributeProto *a = rlx__onnx_attr(c, name);
    return a ? a->g : NULL;
}

/* The truth of a one-element host value. */
static int truth(const rlx__onnx_val *v)
{
    size_t es = rlx_dtype_size(v->dtype);
    const unsigned char *p = v->data;
    for (size_t i = 0; i < es; i++)
        if (p[i])
            return 1;
    return 0;
}

static rlx_status need_runtime(rlx__onnx_walk *w, const char *why)
{
    rlx__onnx_ctx *c = rlx__onnx_walk_ctx(w);
    c->needs_runtime = 1;
    return rlx__onnx_fail(c, RLX_ERR_UNSUPPORTED,
                          "%s, so the model runs in stages. Fix: compile it "
                          "with rlx_model_compile", why);
}

static rlx_status lower_if(rlx__onnx_walk *w, rlx__onnx_scope *s,
                           rlx__onnx_val **in, uint32_t n_in,
                           rlx__onnx_val *out, uint32_t n_out)
{
    rlx__onnx_ctx *c = rlx__onnx_walk_ctx(w);
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, 1);
    if (st != RLX_OK)
        return st;
    rlx__onnx_val *cond = in[0];
    if (!cond->known && !cond->rt) {
        if (!rlx__onnx_walk_session(w))
            return need_runtime(w, "its condition is known only at run "
                                   "time");
        if ((st = rlx__onnx_walk_flush(w, s)) != RLX_OK)
            return st;
    }
    if (rlx__onnx_elements(cond->rank, cond->dims) != 1)
        return rlx__onnx_fail(c, RLX_ERR_SHAPE,
                              "its condition has %lld elements; it needs "
                              "one. Fix: the model is damaged; re-export it",
                              (long long)rlx__onnx_elements(cond->rank,
                                                            cond->dims));
    const char *which = truth(cond) ? "then_branch" : "else_branch";
    const Onnx__GraphProto *gp = graph_attr(c, which);
    if (!gp)
        return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                              "it has no %s graph. Fix: the model is "
                              "damaged; re-export it", which);
    if (gp->n_output != n_out)
        return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                              "its %s has %zu outputs; the node has %u. "
                              "Fix: the model is damaged; re-export it",
                              which, gp->n_output, n_out);
    return rlx__onnx_walk_subgraph(w, s, gp, NULL, 0, out, 0);
}

/* ---- host tensors -------------------------------------------------- */

/* V's data copied into DST (owning it), run-time data. */
static rlx_status host_copy(rlx__onnx_val *dst, const rlx__onnx_val *v)
{
    size_t nb = rlx__onnx_val_bytes(v);
    void *d = malloc(nb ? nb : 1);
    if (!d)
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    if (nb)
        memcpy(d, v->data, nb);
    const char *name = dst->name;
    free(dst->owned);
    memset(dst, 0, sizeof *dst);
    dst->name = name;
    dst->rt = 1;
    dst->dtype = v->dtype;
    dst->rank = v->rank;
    memcpy(dst->dims, v->dims, sizeof dst->dims);
    dst->owned = d;
    dst->data = d;
    return RLX_OK;
}

/* Slice T of V along AXIS (dropping it) into DST. */
static rlx_status host_slice(rlx__onnx_val *dst, const rlx__onnx_val *v,
                             uint32_t axis, int64_t t)
{
    size_t es = rlx_dtype_size(v->dtype), outer = 1, inner = es;
    for (uint32_t d = 0; d < axis; d++)
        outer *= (size_t)v->dims[d];
    for (uint32_t d = axis + 1; d < v->rank; d++)
        inner *= (size_t)v->dims[d];
    size_t len = (size_t)v->dims[axis];
    size_t total = outer * inner;
    void *d = malloc(total ? total : 1);
    if (!d)
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    for (size_t o = 0; o < outer; o++)
        memcpy((char *)d + o * inner,
               (const char *)v->data + (o * len + (size_t)t) * inner, inner);
    const char *name = dst->name;
    free(dst->owned);
    memset(dst, 0, sizeof *dst);
    dst->name = name;
    dst->rt = 1;
    dst->dtype = v->dtype;
    dst->rank = v->rank - 1;
    for (uint32_t k = 0, j = 0; k < v->rank; k++)
        if (k != axis)
            dst->dims[j++] = v->dims[k];
    dst->owned = d;
    dst->data = d;
    return RLX_OK;
}

/* A growing list of per-iteration host values of one shape. */
typedef struct stack {
    rlx__onnx_val *items;
    uint32_t n, cap;
} stack;

static void stack_free(stack *k)
{
    for (uint32_t i = 0; i < k->n; i++)
        free(k->items[i].owned);
    free(k->items);
    memset(k, 0, sizeof *k);
}

static rlx_status stack_push(rlx__onnx_ctx *c, stack *k,
                             const rlx__onnx_val *v)
{
    if (k->n && (v->dtype != k->items[0].dtype ||
                 v->rank != k->items[0].rank ||
                 memcmp(v->dims, k->items[0].dims,
                        v->rank * sizeof *v->dims) != 0))
        return rlx__onnx_fail(c, RLX_ERR_SHAPE,
                              "its scan output '%s' changes shape or type "
                              "between iterations. Fix: make the body's "
                              "scan outputs one shape", v->name ? v->name
                                                                : "?");
    if (v->rank + 1 > RLX_MAX_RANK)
        return rlx__onnx_fail(c, RLX_ERR_UNSUPPORTED,
                              "its scan output '%s' would pass rank %d. Fix: "
                              "reshape in the body", v->name ? v->name : "?",
                              RLX_MAX_RANK);
    if (k->n == k->cap) {
        uint32_t cap = k->cap ? 2 * k->cap : 8;
        rlx__onnx_val *g = realloc(k->items, cap * sizeof *g);
        if (!g)
            return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
        k->items = g;
        k->cap = cap;
    }
    memset(&k->items[k->n], 0, sizeof k->items[0]);
    rlx_status st = host_copy(&k->items[k->n], v);
    if (st == RLX_OK)
        k->n++;
    return st;
}

/* The items stacked along a new AXIS (REVERSE: last first) into DST;
 * EMPTY gives the type and shape of an item when there is none. */
static rlx_status stack_join(stack *k, uint32_t axis, int reverse,
                             const Onnx__ValueInfoProto *empty,
                             rlx__onnx_val *dst)
{
    const char *name = dst->name;
    free(dst->owned);
    memset(dst, 0, sizeof *dst);
    dst->name = name;
    dst->rt = 1;
    if (!k->n) { /* no iteration: [0] of the body's declared type */
        dst->dtype = RLX_DTYPE_F32;
        if (empty && empty->type && empty->type->tensor_type) {
            rlx_dtype t = rlx__onnx_dtype(empty->type->tensor_type
                                              ->elem_type);
            if (t != RLX_DTYPE_INVALID)
                dst->dtype = t;
        }
        dst->rank = 1;
        dst->dims[0] = 0;
        dst->owned = malloc(1);
        dst->data = dst->owned;
        return dst->owned ? RLX_OK
                          : rlx__error(RLX_ERR_OUT_OF_MEMORY,
                                       "out of memory");
    }
    const rlx__onnx_val *f = &k->items[0];
    size_t es = rlx_dtype_size(f->dtype), outer = 1, inner = es;
    if (axis > f->rank)
        axis = f->rank;
    for (uint32_t d = 0; d < axis; d++)
        outer *= (size_t)f->dims[d];
    for (uint32_t d = axis; d < f->rank; d++)
        inner *= (size_t)f->dims[d];
    size_t n = k->n;
    size_t total = outer * n * inner;
    void *d = malloc(total ? total : 1);
    if (!d)
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    for (size_t t = 0; t < n; t++) {
        const rlx__onnx_val *it = &k->items[reverse ? n - 1 - t : t];
        for (size_t o = 0; o < outer; o++)
            memcpy((char *)d + (o * n + t) * inner,
                   (const char *)it->data + o * inner, inner);
    }
    dst->dtype = f->dtype;
    dst->rank = f->rank + 1;
    for (uint32_t a = 0, j = 0; a < dst->rank; a++)
        dst->dims[a] = a == axis ? (int64_t)n : f->dims[j++];
    dst->owned = d;
    dst->data = d;
    return RLX_OK;
}

static void vals_free(rlx__onnx_val *v, uint32_t n)
{
    for (uint32_t i = 0; v && i < n; i++)
        free(v[i].owned);
    free(v);
}

/* ---- Loop ---------------------------------------------------------------- */

static rlx_status run_loop(rlx__onnx_walk *w, rlx__onnx_scope *s,
                           rlx__onnx_val **in, uint32_t n_in,
                           rlx__onnx_val *out, uint32_t n_out)
{
    rlx__onnx_ctx *c = rlx__onnx_walk_ctx(w);
    const Onnx__GraphProto *gp = graph_attr(c, "body");
    if (n_in < 2 || !gp)
        return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                              "it needs the inputs M and cond and a body "
                              "graph. Fix: the model is damaged; re-export "
                              "it");
    uint32_t n_carried = n_in - 2;
    if (gp->n_input != 2 + n_carried || gp->n_output < 1 + n_carried ||
        n_out != gp->n_output - 1)
        return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                              "its body has %zu inputs and %zu outputs for "
                              "%u loop-carried values and %u outputs. Fix: "
                              "the model is damaged; re-export it",
                              gp->n_input, gp->n_output, n_carried, n_out);
    if (!in[0] && !in[1])
        return rlx__onnx_fail(c, RLX_ERR_UNSUPPORTED,
                              "it has neither a trip count nor a condition, "
                              "so it would never end. Fix: give the loop M "
                              "or cond");
    for (uint32_t i = 2; i < n_in; i++)
        if (!in[i])
            return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                                  "its loop-carried input %u is empty. Fix: "
                                  "the model is damaged; re-export it", i);
    if (!rlx__onnx_walk_session(w))
        return need_runtime(w, "it loops at run time");
    rlx_status st = rlx__onnx_walk_flush(w, s);
    if (st != RLX_OK)
        return st;
    int64_t trip = INT64_MAX;
    if (in[0]) {
        int64_t v[1];
        if (rlx__onnx_elements(in[0]->rank, in[0]->dims) != 1 ||
            (in[0]->dtype != RLX_DTYPE_I64 && in[0]->dtype != RLX_DTYPE_I32))
            return rlx__onnx_fail(c, RLX_ERR_DTYPE,
                                  "its trip count is not one integer. Fix: "
                                  "the model is damaged; re-export it");
        rlx__onnx_val known = *in[0];
        known.known = 1;
        rlx__onnx_known_ints(&known, v, 1);
        trip = v[0];
    }
    uint8_t go = in[1] ? (uint8_t)truth(in[1]) : 1;
    uint32_t n_scan = n_out - n_carried;
    rlx__onnx_val *carried = calloc(n_carried + 1, sizeof *carried);
    rlx__onnx_val *outs = calloc(gp->n_output, sizeof *outs);
    rlx__onnx_val **bind = calloc(2 + n_carried, sizeof *bind);
    stack *scans = calloc(n_scan + 1, sizeof *scans);
    if (!carried || !outs || !bind || !scans) {
        st = rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
        goto done;
    }
    for (uint32_t k = 0; k < n_carried && st == RLX_OK; k++)
        st = host_copy(&carried[k], in[2 + k]);
    int64_t iter = 0;
    /* the iteration number and condition are known in the body: shape
     * arithmetic on them (a Slice at iter_num) folds */
    rlx__onnx_val iv = { .known = 1, .dtype = RLX_DTYPE_I64, .data = &iter };
    rlx__onnx_val cv = { .known = 1, .dtype = RLX_DTYPE_BOOL, .data = &go };
    bind[0] = &iv;
    bind[1] = &cv;
    for (uint32_t k = 0; k < n_carried; k++)
        bind[2 + k] = &carried[k];
    for (; st == RLX_OK && iter < trip && go; iter++) {
        memset(outs, 0, gp->n_output * sizeof *outs);
        st = rlx__onnx_walk_subgraph(w, s, gp, bind, 2 + n_carried, outs, 1);
        for (uint32_t k = 0; st == RLX_OK && k < n_carried; k++)
            st = host_copy(&carried[k], &outs[1 + k]);
        for (uint32_t j = 0; st == RLX_OK && j < n_scan; j++)
            st = stack_push(c, &scans[j], &outs[1 + n_carried + j]);
        if (st == RLX_OK && in[1])
            go = (uint8_t)truth(&outs[0]);
        for (uint32_t k = 0; k < gp->n_output; k++)
            free(outs[k].owned);
        memset(outs, 0, gp->n_output * sizeof *outs);
    }
    for (uint32_t k = 0; st == RLX_OK && k < n_carried; k++)
        st = host_copy(&out[k], &carried[k]);
    for (uint32_t j = 0; st == RLX_OK && j < n_scan; j++)
        st = stack_join(&scans[j], 0, 0, gp->output[1 + n_carried + j],
                        &out[n_carried + j]);
done:
    vals_free(carried, n_carried);
    free(outs);
    free(bind);
    for (uint32_t j = 0; scans && j < n_scan; j++)
        stack_free(&scans[j]);
    free(scans);
    return st;
}

/* ---- Scan ---------------------------------------------------------------- */

typedef struct scan_spec {
    uint32_t n_state, n_in, n_out;          /* scan inputs and outputs */
    int64_t in_axes[RLX_MAX_RANK * 4], in_dirs[RLX_MAX_RANK * 4];
    int64_t out_axes[RLX_MAX_RANK * 4], out_dirs[RLX_MAX_RANK * 4];
} scan_spec;

/* One scan over STATES and scan inputs XS (host values); OUT gets the
 * final states, then the stacked scan outputs. */
static rlx_status scan_once(rlx__onnx_walk *w, rlx__onnx_scope *s,
                            const Onnx__GraphProto *gp, const scan_spec *sp,
                            rlx__onnx_val *const *states,
                            rlx__onnx_val *const *xs, rlx__onnx_val *out)
{
    rlx__onnx_ctx *c = rlx__onnx_walk_ctx(w);
    int64_t len = -1;
    uint32_t axes[RLX_MAX_RANK * 4];
    for (uint32_t j = 0; j < sp->n_in; j++) {
        int64_t a;
        rlx_status st = rlx__onnx_axis(c, sp->in_axes[j], xs[j]->rank, &a);
        if (st != RLX_OK)
            return st;
        axes[j] = (uint32_t)a;
        if (len >= 0 && xs[j]->dims[a] != len)
            return rlx__onnx_fail(c, RLX_ERR_SHAPE,
                                  "its scan inputs have lengths %lld and "
                                  "%lld. Fix: give them one length",
                                  (long long)len, (long long)xs[j]->dims[a]);
        len = xs[j]->dims[a];
    }
    if (len < 0)
        len = 0;
    uint32_t nb = sp->n_state + sp->n_in;
    rlx__onnx_val *cur = calloc(nb + 1, sizeof *cur);
    rlx__onnx_val **bind = calloc(nb + 1, sizeof *bind);
    rlx__onnx_val *outs = calloc(gp->n_output + 1, sizeof *outs);
    stack *scans = calloc(sp->n_out + 1, sizeof *scans);
    rlx_status st = RLX_OK;
    if (!cur || !bind || !outs || !scans) {
        st = rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
        goto done;
    }
    for (uint32_t k = 0; k < sp->n_state && st == RLX_OK; k++)
        st = host_copy(&cur[k], states[k]);
    for (uint32_t k = 0; k < nb; k++)
        bind[k] = &cur[k];
    for (int64_t t = 0; st == RLX_OK && t < len; t++) {
        for (uint32_t j = 0; j < sp->n_in && st == RLX_OK; j++)
            st = host_slice(&cur[sp->n_state + j], xs[j], axes[j],
                            sp->in_dirs[j] ? len - 1 - t : t);
        if (st == RLX_OK)
            st = rlx__onnx_walk_subgraph(w, s, gp, bind, nb, outs, 1);
        for (uint32_t k = 0; st == RLX_OK && k < sp->n_state; k++)
            st = host_copy(&cur[k], &outs[k]);
        for (uint32_t j = 0; st == RLX_OK && j < sp->n_out; j++)
            st = stack_push(c, &scans[j], &outs[sp->n_state + j]);
        for (uint32_t k = 0; k < gp->n_output; k++)
            free(outs[k].owned);
        memset(outs, 0, gp->n_output * sizeof *outs);
    }
    for (uint32_t k = 0; st == RLX_OK && k < sp->n_state; k++)
        st = host_copy(&out[k], &cur[k]);
    for (uint32_t j = 0; st == RLX_OK && j < sp->n_out; j++) {
        uint32_t r = scans[j].n ? scans[j].items[0].rank + 1 : 1;
        int64_t a = sp->out_axes[j];
        if (a < -(int64_t)r || a >= (int64_t)r) {
            st = rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                                "scan output axis %lld is out of range for "
                                "rank %u. Fix: the model is damaged",
                                (long long)a, r);
            break;
        }
        st = stack_join(&scans[j], (uint32_t)(a < 0 ? a + r : a),
                        (int)sp->out_dirs[j], gp->output[sp->n_state + j],
                        &out[sp->n_state + j]);
    }
done:
    vals_free(cur, nb);
    free(bind);
    free(outs);
    for (uint32_t j = 0; scans && j < sp->n_out; j++)
        stack_free(&scans[j]);
    free(scans);
    return st;
}

/* Ints attribute NAME of N entries (default 0 each). */
static rlx_status scan_ints(rlx__onnx_ctx *c, const char *name, uint32_t n,
                            int64_t *out)
{
    memset(out, 0, n * sizeof *out);
    int k = rlx__onnx_attr_ints(c, name, out, (int)n);
    if (k >= 0 && k != (int)n)
        return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                              "attribute %s has %d entries; it needs %u. "
                              "Fix: the model is damaged; re-export it",
                              name, k, n);
    return RLX_OK;
}

static rlx_status run_scan(rlx__onnx_walk *w, rlx__onnx_scope *s,
                           rlx__onnx_val **in, uint32_t n_in,
                           rlx__onnx_val *out, uint32_t n_out)
{
    rlx__onnx_ctx *c = rlx__onnx_walk_ctx(w);
    const Onnx__GraphProto *gp = graph_attr(c, "body");
    int v8 = c->opset < 9;
    uint32_t first = v8 ? 1 : 0; /* opset 8: sequence_lens first */
    int64_t n_scan = rlx__onnx_attr_int(c, "num_scan_inputs", -1);
    if (!gp || n_scan < 1 || n_scan > n_in - first ||
        n_scan > RLX_MAX_RANK * 4)
        return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                              "it needs a body graph and num_scan_inputs "
                              "in [1, %u]. Fix: the model is damaged; "
                              "re-export it", n_in - first);
    scan_spec sp = { 0 };
    sp.n_in = (uint32_t)n_scan;
    sp.n_state = n_in - first - sp.n_in;
    if (n_out < sp.n_state || n_out - sp.n_state > RLX_MAX_RANK * 4 ||
        gp->n_input != sp.n_state + sp.n_in || gp->n_output != n_out)
        return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                              "its body has %zu inputs and %zu outputs for "
                              "%u states, %u scan inputs and %u outputs. "
                              "Fix: the model is damaged; re-export it",
                              gp->n_input, gp->n_output, sp.n_state, sp.n_in,
                              n_out);
    sp.n_out = n_out - sp.n_state;
    for (uint32_t i = first; i < n_in; i++)
        if (!in[i])
            return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                                  "its input %u is empty. Fix: the model is "
                                  "damaged; re-export it", i);
    rlx_status st;
    if (v8) {
        if ((st = scan_ints(c, "directions", sp.n_in, sp.in_dirs)) != RLX_OK)
            return st;
    } else if ((st = scan_ints(c, "scan_input_axes", sp.n_in, sp.in_axes)) !=
                   RLX_OK ||
               (st = scan_ints(c, "scan_input_directions", sp.n_in,
                               sp.in_dirs)) != RLX_OK ||
               (st = scan_ints(c, "scan_output_axes", sp.n_out,
                               sp.out_axes)) != RLX_OK ||
               (st = scan_ints(c, "scan_output_directions", sp.n_out,
                               sp.out_dirs)) != RLX_OK) {
        return st;
    }
    if (!rlx__onnx_walk_session(w))
        return need_runtime(w, "it loops at run time");
    if ((st = rlx__onnx_walk_flush(w, s)) != RLX_OK)
        return st;
    rlx__onnx_val **states = in + first, **xs = in + first + sp.n_state;
    if (!v8)
        return scan_once(w, s, gp, &sp, states, xs, out);
    /* opset 8: axis 0 of every input is the batch; scan along axis 1 of
     * each, batch by batch */
    uint32_t nv = sp.n_state + sp.n_in;
    int64_t batch = -1;
    for (uint32_t i = 0; i < nv; i++) {
        const rlx__onnx_val *v = states[i];
        if (v->rank < (i < sp.n_state ? 1u : 2u) ||
            (batch >= 0 && v->dims[0] != batch))
            return rlx__onnx_fail(c, RLX_ERR_SHAPE,
                                  "input '%s' lacks the batch axis all "
                                  "inputs share. Fix: the model is damaged; "
                                  "re-export it", v->name ? v->name : "?");
        batch = v->dims[0];
    }
    if (in[0]) { /* sequence_lens: only full lengths */
        for (int64_t b = 0; b < rlx__onnx_elements(in[0]->rank, in[0]->dims);
             b++) {
            int64_t l = in[0]->dtype == RLX_DTYPE_I32
                            ? ((const int32_t *)in[0]->data)[b]
                            : ((const int64_t *)in[0]->data)[b];
            if (l != xs[0]->dims[1])
                return rlx__onnx_fail(c, RLX_ERR_UNSUPPORTED,
                                      "sequence_lens entry %lld is %lld, "
                                      "shorter than the sequence (%lld); "
                                      "rlx scans whole sequences only. Fix: "
                                      "pad the sequences or leave "
                                      "sequence_lens out", (long long)b,
                                      (long long)l,
                                      (long long)xs[0]->dims[1]);
        }
    }
    rlx__onnx_val *slices = calloc(nv + 1, sizeof *slices);
    rlx__onnx_val **ps = calloc(nv + 1, sizeof *ps);
    rlx__onnx_val *res = calloc(n_out + 1, sizeof *res);
    stack *outs = calloc(n_out + 1, sizeof *outs);
    st = RLX_OK;
    if (!slices || !ps || !res || !outs)
        st = rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    for (uint32_t i = 0; i < nv && st == RLX_OK; i++)
        ps[i] = &slices[i];
    for (int64_t b = 0; st == RLX_OK && b < batch; b++) {
        for (uint32_t i = 0; i < nv && st == RLX_OK; i++)
            st = host_slice(&slices[i], states[i], 0, b);
        if (st == RLX_OK)
            st = scan_once(w, s, gp, &sp, ps, ps + sp.n_state, res);
        for (uint32_t k = 0; st == RLX_OK && k < n_out; k++)
            st = stack_push(c, &outs[k], &res[k]);
    }
    for (uint32_t k = 0; st == RLX_OK && k < n_out; k++)
        st = stack_join(&outs[k], 0, 0, gp->output[k], &out[k]);
    vals_free(slices, nv);
    free(ps);
    vals_free(res, n_out);
    for (uint32_t k = 0; outs && k < n_out; k++)
        stack_free(&outs[k]);
    free(outs);
    return st;
}

rlx_status rlx__onnx_control(rlx__onnx_walk *w, rlx__onnx_scope *s,
                             rlx__onnx_val **in, uint32_t n_in,
                             rlx__onnx_val *out, uint32_t n_out)
{
    const char *op = rlx__onnx_walk_ctx(w)->node->op_type;
    if (strcmp(op, "If") == 0)
        return lower_if(w, s, in, n_in, out, n_out);
    if (strcmp(op, "Loop") == 0)
        return run_loop(w, s, in, n_in, out, n_out);
    return run_scan(w, s, in, n_in, out, n_out);
}
