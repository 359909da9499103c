/*
 * onnx_lower.c - import model -> rlx graph for the inputs' current dims.
 * Walks the nodes in order and hands each to its op family's table
 * (onnx_lower_<family>.c), chosen by op name and the model's opset. A
 * node whose inputs are all known on the host is folded to a constant
 * instead: by the small evaluator (onnx_eval.c), else by lowering it into
 * a scratch graph run on cpu-ref. So shape arithmetic (Shape, Gather,
 * Concat, Range, ...) never reaches a backend, which sees static shapes.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "onnx.h"

static const rlx__onnx_op *const families[] = {
    rlx__onnx_ops_elementwise, rlx__onnx_ops_math, rlx__onnx_ops_movement,
    rlx__onnx_ops_index, rlx__onnx_ops_pad, rlx__onnx_ops_shape,
    rlx__onnx_ops_vision, rlx__onnx_ops_loss, rlx__onnx_ops_compose,
    rlx__onnx_ops_signal, rlx__onnx_ops_einsum, rlx__onnx_ops_rnn,
    rlx__onnx_ops_quant };

/* The row for OP at OPSET: the greatest SINCE <= OPSET. *SEEN tells
 * whether the op exists at some version. */
static const rlx__onnx_op *find_row(const char *op, int64_t opset,
                                    int *seen)
{
    const rlx__onnx_op *best = NULL;
    *seen = 0;
    for (size_t f = 0; f < sizeof families / sizeof families[0]; f++)
        for (const rlx__onnx_op *r = families[f]; r->op; r++)
            if (strcmp(r->op, op) == 0) {
                *seen = 1;
                if (r->since <= opset && (!best || r->since > best->since))
                    best = r;
            }
    return best;
}

static int is_quantized(const char *op)
{
    static const char *const q[] = {
        "QuantizeLinear", "DequantizeLinear", "DynamicQuantizeLinear",
        "MatMulInteger", "ConvInteger", "QLinearConv", "QLinearMatMul",
        NULL };
    for (int i = 0; q[i]; i++)
        if (strcmp(q[i], op) == 0)
            return 1;
    return strncmp(op, "QLinear", 7) == 0;
}

static const char *nname(const Onnx__NodeProto *n)
{
    return n->name && *n->name ? n->name
           : n->n_output && n->output[0] ? n->output[0] : "(unnamed)";
}

rlx_status rlx__onnx_fail(rlx__onnx_ctx *c, rlx_status st, const char *fmt,
                          ...)
{
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return rlx__error(st, "node '%s' (%s, opset %lld): %s", nname(c->node),
                      c->node->op_type, (long long)c->opset, msg);
}

/* ---- attributes -------------------------------------------------------- */

const Onnx__AttributeProto *rlx__onnx_attr(rlx__onnx_ctx *c,
                                           const char *name)
{
    for (size_t i = 0; i < c->node->n_attribute; i++)
        if (c->node->attribute[i]->name &&
            strcmp(c->node->attribute[i]->name, name) == 0)
            return c->node->attribute[i];
    return NULL;
}

int64_t rlx__onnx_attr_int(rlx__onnx_ctx *c, const char *name, int64_t dflt)
{
    const Onnx__AttributeProto *a = rlx__onnx_attr(c, name);
    return a && a->has_i ? a->i : dflt;
}

double rlx__onnx_attr_float(rlx__onnx_ctx *c, const char *name, double dflt)
{
    const Onnx__AttributeProto *a = rlx__onnx_attr(c, name);
    return a && a->has_f ? a->f : dflt;
}

int rlx__onnx_attr_ints(rlx__onnx_ctx *c, const char *name, int64_t *out,
                        int max)
{
    const Onnx__AttributeProto *a = rlx__onnx_attr(c, name);
    if (!a)
        return -1;
    for (size_t i = 0; i < a->n_ints && (int)i < max; i++)
        out[i] = a->ints[i];
    return a->n_ints > (size_t)max ? max + 1 : (int)a->n_ints;
}

const char *rlx__onnx_attr_string(rlx__onnx_ctx *c, const char *name,
                                  const char *dflt)
{
    /* a few rotating buffers: a lowering holds several strings at once */
    static _Thread_local char bufs[4][64];
    static _Thread_local unsigned next;
    const Onnx__AttributeProto *a = rlx__onnx_attr(c, name);
    if (!a || !a->has_s)
        return dflt;
    char *buf = bufs[next++ % 4];
    size_t n = a->s.len < sizeof bufs[0] - 1 ? a->s.len : sizeof bufs[0] - 1;
    if (n) /* an empty string may have no data at all */
        memcpy(buf, a->s.data, n);
    buf[n] = 0;
    return buf;
}

int rlx__onnx_known_ints(const rlx__onnx_val *v, int64_t *out, int max)
{
    if (!v || !v->known)
        return -1;
    int64_t n = rlx__onnx_elements(v->rank, v->dims);
    if (n < 0 || n > max)
        return -1;
    for (int64_t i = 0; i < n; i++) {
        switch (v->dtype) {
        case RLX_DTYPE_I64: out[i] = ((const int64_t *)v->data)[i]; break;
        case RLX_DTYPE_I32: out[i] = ((const int32_t *)v->data)[i]; break;
        default: return -1;
        }
    }
    return (int)n;
}

rlx_status rlx__onnx_axis(rlx__onnx_ctx *c, int64_t axis, uint32_t rank,
                          int64_t *out)
{
    if (axis < -(int64_t)rank || axis >= (int64_t)rank ||
        (rank == 0 && axis != 0 && axis != -1))
        return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                              "axis %lld is out of range for rank %u. Fix: "
                              "use an axis in [-%u, %u)", (long long)axis,
                              rank, rank, rank);
    *out = axis < 0 ? axis + rank : axis;
    return RLX_OK;
}

/* ---- input checks -------------------------------------------------- */

int rlx__onnx_is_float(rlx_dtype t)
{
    return t == RLX_DTYPE_F32 || t == RLX_DTYPE_F16 || t == RLX_DTYPE_BF16;
}

rlx_status rlx__onnx_need_float(rlx__onnx_ctx *c, const rlx__onnx_val *v)
{
    if (rlx__onnx_is_float(v->dtype))
        return RLX_OK;
    return rlx__onnx_fail(c, RLX_ERR_DTYPE,
                          "input '%s' is %s; rlx computes this op on f32, "
                          "f16 and bf16 only. Fix: cast the input to float "
                          "in the model", v->name ? v->name : "?",
                          rlx_dtype_name(v->dtype));
}

rlx_status rlx__onnx_need_float64(rlx__onnx_ctx *c, const rlx__onnx_val *v)
{
    if (v->dtype == RLX_DTYPE_F64)
        return RLX_OK;
    return rlx__onnx_need_float(c, v);
}

rlx_status rlx__onnx_need_inputs(rlx__onnx_ctx *c, rlx__onnx_val **in,
                              uint32_t n_in, uint32_t min)
{
    if (n_in < min)
        return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                              "it has %u input(s); it needs %u. Fix: the "
                              "model is damaged; re-export it", n_in, min);
    for (uint32_t i = 0; i < min; i++)
        if (!in[i])
            return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                                  "input %u is required but empty. Fix: "
                                  "the model is damaged; re-export it", i);
    return RLX_OK;
}

/* ---- values ------------------------------------------------------------ */

static void note(rlx__onnx_ctx *c, const char *what)
{
    size_t add = strlen(what) + 2;
    char *grown = realloc(c->lowered, c->lowered_len + add + 1);
    if (!grown)
        return; /* the report is best effort */
    c->lowered = grown;
    snprintf(c->lowered + c->lowered_len, add + 1, "%s%s",
             c->lowered_len ? ", " : "", what);
    c->lowered_len += strlen(c->lowered + c->lowered_len);
}

/* A fresh node name for the current ONNX node. */
static char *made_name(rlx__onnx_ctx *c)
{
    const char *base = c->node->n_output && c->node->output[0] &&
                       *c->node->output[0] ? c->node->output[0]
                                           : nname(c->node);
    return c->n_made++ ? rlx__printf_alloc("%s#%u", base, c->n_made - 1)
                       : rlx__printf_alloc("%s#lowered", base);
}

rlx_status rlx__onnx_node_value(rlx__onnx_ctx *c, rlx__onnx_val *v,
                                rlx_value *out)
{
    if (v->has_v) {
        *out = v->v;
        return RLX_OK;
    }
    if (!v->known)
        return rlx__onnx_fail(c, RLX_ERR_INTERNAL,
                              "input '%s' has no value. Fix: report this "
                              "model to the rlx developers",
                              v->name ? v->name : "?");
    rlx_status st;
    if (v->param && !c->folding)
        st = rlx_graph_param(c->g, v->name, v->dtype, v->rank, v->dims,
                             &v->v);
    else
        st = rlx_graph_constant(c->g, v->name, v->dtype, v->rank, v->dims,
                                v->data, &v->v);
    if (st != RLX_OK)
        return st;
    v->has_v = 1;
    *out = v->v;
    return RLX_OK;
}

rlx_status rlx__onnx_add(rlx__onnx_ctx *c, rlx_op op, uint32_t n,
                         const rlx_value *in, const int64_t *ints,
                         uint32_t n_ints, const double *floats,
                         uint32_t n_floats, rlx_value *out)
{
    char *name = made_name(c);
    if (!name)
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    rlx_attrs at = { n_ints, ints, n_floats, floats };
    rlx_value made; /* OUT may alias an input */
    rlx_status st = rlx_graph_add_node(c->g, name, op, n, in, &at, &made);
    free(name);
    if (st == RLX_OK)
        *out = made;
    if (st != RLX_OK)
        return rlx__onnx_fail(c, st, "lowering to %s failed: %s Fix: check "
                              "the node's input shapes and types",
                              rlx_op_name(op), rlx_last_error());
    note(c, rlx_op_name(op));
    return RLX_OK;
}

rlx_status rlx__onnx_set_out(rlx__onnx_ctx *c, rlx_value v,
                             rlx__onnx_val *out)
{
    const int64_t *dims;
    rlx_status st = rlx_graph_value_shape(c->g, v, &out->dtype, &out->rank,
                                          &dims);
    if (st != RLX_OK)
        return st;
    memcpy(out->dims, dims, out->rank * sizeof *dims);
    out->has_v = 1;
    out->v = v;
    return RLX_OK;
}

void rlx__onnx_set_known(rlx__onnx_val *out, rlx_dtype dtype, uint32_t rank,
                         const int64_t *dims, void *owned)
{
    out->known = 1;
    out->dtype = dtype;
    out->rank = rank;
    if (rank)
        memcpy(out->dims, dims, rank * sizeof *dims);
    free(out->owned);
    out->owned = owned;
    out->data = owned;
}

rlx_status rlx__onnx_scalar(rlx__onnx_ctx *c, rlx_dtype dtype, double x,
                            rlx_value *out)
{
    unsigned char buf[8];
    switch (dtype) {
    case RLX_DTYPE_F32: { float f = (float)x; memcpy(buf, &f, 4); } break;
    case RLX_DTYPE_F64: memcpy(buf, &x, 8); break;
    case RLX_DTYPE_I64: { int64_t i = (int64_t)x; memcpy(buf, &i, 8); }
        break;
    case RLX_DTYPE_I32: { int32_t i = (int32_t)x; memcpy(buf, &i, 4); }
        break;
    default: {
        /* f16/bf16: a f32 constant cast in the graph */
        rlx_value f;
        rlx_status st = rlx__onnx_scalar(c, RLX_DTYPE_F32, x, &f);
        if (st != RLX_OK)
            return st;
        int64_t dt = dtype;
        return rlx__onnx_add(c, RLX_OP_CAST, 1, &f, &dt, 1, NULL, 0, out);
    }
    }
    char *name = made_name(c);
    if (!name)
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    rlx_status st = rlx_graph_constant(c->g, name, dtype, 0, NULL, buf, out);
    free(name);
    return st;
}

rlx_status rlx__onnx_constant(rlx__onnx_ctx *c, rlx_dtype dtype,
                              uint32_t rank, const int64_t *dims,
                              const void *data, rlx_value *out)
{
    char *name = made_name(c);
    if (!name)
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    rlx_status st = rlx_graph_constant(c->g, name, dtype, rank, dims, data,
                                       out);
    free(name);
    return st;
}

/* ---- folding ------------------------------------------------------------ */

typedef rlx__onnx_folder folder;

void rlx__onnx_folder_free(rlx__onnx_folder *f)
{
    rlx_session_destroy(f->s);
    rlx_runtime_destroy(f->rt);
    f->s = NULL;
    f->rt = NULL;
}

/* Lower the node into a scratch graph of constants, run it on cpu-ref,
 * and make its outputs known. RLX_OK with *done 0 when it cannot. */
static rlx_status fold(rlx__onnx_ctx *c, folder *f, rlx__onnx_val **in,
                       uint32_t n_in, rlx__onnx_val *out, uint32_t n_out,
                       int *done)
{
    *done = 0;
    if (!f->s) {
        if (rlx_runtime_create(&f->rt, RLX_RUNTIME_NO_DISCOVERY) != RLX_OK ||
            rlx_session_create(f->rt, "cpu-ref", &f->s) != RLX_OK)
            return RLX_OK;
    }
    rlx__onnx_ctx sc = *c;
    sc.folding = 1;
    sc.lowered = NULL;
    sc.lowered_len = 0;
    sc.n_made = 0;
    if (rlx_graph_create(&sc.g) != RLX_OK)
        return RLX_OK;
    rlx__onnx_val *tin = calloc(n_in ? n_in : 1, sizeof *tin);
    rlx__onnx_val **pin = calloc(n_in ? n_in : 1, sizeof *pin);
    rlx__onnx_val *tout = calloc(n_out ? n_out : 1, sizeof *tout);
    rlx_program *p = NULL;
    if (!tin || !pin || !tout)
        goto out;
    for (uint32_t i = 0; i < n_in; i++) {
        if (!in[i])
            continue;
        tin[i] = *in[i];
        tin[i].has_v = 0;
        tin[i].owned = NULL;
        pin[i] = &tin[i];
    }
    for (uint32_t i = 0; i < n_out; i++)
        tout[i].name = out[i].name;
    if (c->row->fn(&sc, pin, n_in, tout, n_out) != RLX_OK)
        goto out;
    uint32_t n_graph = 0;
    for (uint32_t i = 0; i < n_out; i++)
        if (!tout[i].known && tout[i].has_v) {
            char oname[32];
            snprintf(oname, sizeof oname, "out%u", i);
            if (rlx_graph_output(sc.g, oname, tout[i].v) != RLX_OK)
                goto out;
            n_graph++;
        }
    if (n_graph) {
        if (rlx_session_compile(f->s, sc.g, &p) != RLX_OK ||
            rlx_program_run(p) != RLX_OK)
            goto out;
    }
    uint32_t k = 0;
    for (uint32_t i = 0; i < n_out; i++) {
        if (tout[i].known) {
            rlx__onnx_set_known(&out[i], tout[i].dtype, tout[i].rank,
                                tout[i].dims, tout[i].owned);
            if (!tout[i].owned)
                out[i].data = tout[i].data;
            tout[i].owned = NULL;
            continue;
        }
        if (!tout[i].has_v)
            continue;
        size_t nb = 0;
        const void *d = rlx_program_output_data(p, k++, &nb);
        void *copy = malloc(nb ? nb : 1);
        if (!copy || (nb && !d)) {
            free(copy);
            goto out;
        }
        if (nb)
            memcpy(copy, d, nb);
        rlx__onnx_set_known(&out[i], tout[i].dtype, tout[i].rank,
                            tout[i].dims, copy);
    }
    *done = 1;
out:
    /* a node with no outputs still had one slot a lowering may fill */
    if (tout)
        for (uint32_t i = 0; i < (n_out ? n_out : 1); i++)
            free(tout[i].owned);
    rlx_program_destroy(p);
    rlx_graph_destroy(sc.g);
    free(sc.lowered);
    free(tin);
    free(pin);
    free(tout);
    return RLX_OK;
}

/* Fold when every input is known and none is a large weight. */
static int foldable(rlx__onnx_val **in, uint32_t n_in)
{
    for (uint32_t i = 0; i < n_in; i++) {
        if (!in[i])
            continue;
        if (!in[i]->known)
            return 0;
        if (in[i]->param &&
            rlx__onnx_elements(in[i]->rank, in[i]->dims) > 4096)
            return 0;
    }
    return 1;
}

/* ---- one node ------------------------------------------------------------ */

rlx_status rlx__onnx_lower_node(rlx__onnx_ctx *c, folder *f,
                                rlx__onnx_val **in, uint32_t n_in,
                                rlx__onnx_val *out, uint32_t n_out,
                                char **report)
{
    const Onnx__NodeProto *n = c->node;
    int seen;
    c->row = find_row(n->op_type, c->opset, &seen);
    if (!c->row) {
        if (is_quantized(n->op_type))
            return rlx__onnx_fail(c, RLX_ERR_UNSUPPORTED,
                                  "quantized operators are not supported "
                                  "yet. Fix: export the model in float");
        if (seen)
            return rlx__onnx_fail(c, RLX_ERR_UNSUPPORTED,
                                  "rlx lowers %s only from a later opset "
                                  "(this version's semantics differ or it "
                                  "did not exist). Fix: convert the model "
                                  "to a newer opset "
                                  "(onnx.version_converter)", n->op_type);
        return rlx__onnx_fail(c, RLX_ERR_UNSUPPORTED,
                              "rlx cannot lower operator %s yet. Fix: "
                              "export the model without it, or run it "
                              "with a runtime that has it", n->op_type);
    }
    rlx_status st = RLX_OK;
    for (uint32_t i = 0; i < n_in; i++) {
        const char *nm = n->input[i];
        if (in[i] && !in[i]->known && !in[i]->has_v) {
            st = rlx__onnx_fail(c, RLX_ERR_UNSUPPORTED,
                                "its input '%s' is an optional output rlx "
                                "does not compute. Fix: export the model "
                                "without using it", nm);
            goto done;
        }
    }
    c->n_made = 0;
    c->lowered = NULL;
    c->lowered_len = 0;
    int done = 0;
    if (foldable(in, n_in)) {
        int r = rlx__onnx_eval(c, in, n_in, out, n_out, &st);
        if (r < 0)
            goto done;
        if (r == 0 && (st = fold(c, f, in, n_in, out, n_out, &done)) !=
                      RLX_OK)
            goto done;
        done = done || r == 1;
        if (done)
            note(c, "constant (folded)");
    }
    if (!done) {
        c->n_made = 0;
        if ((st = c->row->fn(c, in, n_in, out, n_out)) != RLX_OK)
            goto done;
        if (!c->lowered)
            note(c, n_out && out[0].known ? "constant (from the shapes)"
                                          : "nothing (passes its input "
                                            "through)");
    }
    *report = c->lowered;
    c->lowered = NULL;
done:
    free(c->lowered);
    c->lowered = NULL;
    return st;
}

void rlx__onnx_report_free(rlx__onnx_report *r)
{
    if (!r)
        return;
    for (uint32_t i = 0; i < r->n; i++)
        free(r->lowered[i]);
    free(r->lowered);
    r->lowered = NULL;
    r->n = 0;
}
