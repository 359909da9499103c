/*
 * graph_custom.c - adding a custom node to a graph. Everything that can
 * be checked without loading the library is checked here, before the
 * graph changes: the signature, its arity against the arguments, each
 * argument's source against its parameter type, the output and the
 * in-place input. The library is loaded at compile time (ffi.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph.h"

static rlx__custom *spec_copy(const rlx_custom_op *op, const rlx__sig *sig);

void rlx__custom_free(rlx__custom *c)
{
    if (!c)
        return;
    free(c->library);
    free(c->symbol);
    free(c->signature);
    free(c->base_dir);
    free(c->args);
    free(c);
}

/* The tensor an argument refers to: input INDEX or the output (OUT). */
static const rlx__node *arg_tensor(const rlx_graph *g, uint32_t n_inputs,
                                   const rlx_value *inputs, uint32_t index,
                                   const rlx__node *out)
{
    if (index == RLX_CUSTOM_OUTPUT)
        return out;
    return index < n_inputs ? &g->nodes[inputs[index]] : NULL;
}

static const char *tensor_name(const rlx__node *t, const rlx__node *out)
{
    return t == out ? "the output" : t->name;
}

#define ARG "custom node '%s', argument %u of signature \"%s\""

/* Check argument I of OP against parameter type T. */
static rlx_status check_arg(const rlx_graph *g, const char *name,
                            const rlx_custom_op *op, const rlx__sig *sig,
                            uint32_t i, uint32_t n_inputs,
                            const rlx_value *inputs, const rlx__node *out)
{
    const rlx_custom_arg *a = &op->args[i];
    rlx__ftype t = sig->args[i];
    const char *sg = op->signature;
    const rlx__node *ten = NULL;
    char shape[160];
    if (a->kind == RLX_CUSTOM_ARG_TENSOR || a->kind == RLX_CUSTOM_ARG_NUMEL ||
        a->kind == RLX_CUSTOM_ARG_DIM) {
        ten = arg_tensor(g, n_inputs, inputs, a->index, out);
        if (!ten)
            return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                              ARG ": tensor index %u is neither an input "
                              "(the node has %u) nor RLX_CUSTOM_OUTPUT. "
                              "Fix: refer to one of the node's inputs or "
                              "its output", name, i + 1, sg, a->index,
                              n_inputs);
    }
    int64_t v = 0;
    switch (a->kind) {
    case RLX_CUSTOM_ARG_TENSOR:
        if (op->flags & RLX_CUSTOM_ELEMENTWISE) {
            rlx__ftype et = rlx__ftype_of_dtype(ten->dtype);
            int64_t nt = rlx__shape_elements(ten->rank, ten->shape);
            int64_t no = rlx__shape_elements(out->rank, out->shape);
            if (ten == out)
                return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                                  ARG ": an elementwise kernel returns the "
                                  "output element; the output is not an "
                                  "argument. Fix: pass inputs only", name,
                                  i + 1, sg);
            if (et == RLX__FT_VOID || t != et)
                return rlx__error(RLX_ERR_DTYPE,
                                  ARG ": the parameter is %s but '%s' is %s "
                                  "(elementwise: each element is passed by "
                                  "value). Fix: declare the parameter %s%s",
                                  name, i + 1, sg, rlx__ftype_name(t),
                                  ten->name, rlx_dtype_name(ten->dtype),
                                  et == RLX__FT_VOID ? "(f16, bf16 and bool "
                                                       "are not passed; "
                                                       "cast first) "
                                                     : "",
                                  et == RLX__FT_VOID ? ""
                                                     : rlx__ftype_name(et));
            if (nt != no && nt != 1)
                return rlx__error(RLX_ERR_SHAPE,
                                  ARG ": '%s' has %lld elements but the "
                                  "output has %lld. Fix: give elementwise "
                                  "inputs the output's element count (or "
                                  "one element)", name, i + 1, sg,
                                  ten->name, (long long)nt, (long long)no);
            return RLX_OK;
        }
        if (t != RLX__FT_PTR)
            return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                              ARG ": the parameter is %s but the argument "
                              "is the tensor %s (a pointer). Fix: declare "
                              "the parameter ptr (or %s*), or pass a "
                              "scalar", name, i + 1, sg, rlx__ftype_name(t),
                              tensor_name(ten, out),
                              rlx_dtype_name(ten->dtype));
        if (sig->pointee[i] && sig->pointee[i] != ten->dtype)
            return rlx__error(RLX_ERR_DTYPE,
                              ARG ": the parameter is %s* but %s is %s %s. "
                              "Fix: declare %s* (or ptr), or cast the "
                              "tensor first", name, i + 1, sg,
                              rlx_dtype_name(sig->pointee[i]),
                              tensor_name(ten, out),
                              rlx_dtype_name(ten->dtype),
                              rlx__shape_str(shape, sizeof shape, ten->rank,
                                             ten->shape),
                              rlx_dtype_name(ten->dtype));
        return RLX_OK;
    case RLX_CUSTOM_ARG_NUMEL:
        v = rlx__shape_elements(ten->rank, ten->shape);
        break;
    case RLX_CUSTOM_ARG_DIM: {
        int64_t axis = a->axis < 0 ? (int64_t)a->axis + ten->rank : a->axis;
        if (axis < 0 || axis >= (int64_t)ten->rank)
            return rlx__error(RLX_ERR_SHAPE,
                              ARG ": dimension %d of %s, which has shape "
                              "%s. Fix: use an axis in [-%u, %u)", name,
                              i + 1, sg, (int)a->axis, tensor_name(ten, out),
                              rlx__shape_str(shape, sizeof shape, ten->rank,
                                             ten->shape),
                              ten->rank, ten->rank);
        v = ten->shape[axis];
        break;
    }
    case RLX_CUSTOM_ARG_INT:
        v = a->i;
        break;
    case RLX_CUSTOM_ARG_FLOAT:
        if (rlx__ftype_is_float(t))
            return RLX_OK;
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          ARG ": the parameter is %s but the argument is "
                          "the floating-point literal %g. Fix: declare the "
                          "parameter f32 or f64, or pass an integer", name,
                          i + 1, sg, rlx__ftype_name(t), a->f);
    default:
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          ARG ": unknown argument kind %d. Fix: use an "
                          "RLX_CUSTOM_ARG_* value", name, i + 1, sg,
                          (int)a->kind);
    }
    /* an integer: a literal, an element count or a dimension */
    if (t == RLX__FT_PTR)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          ARG ": a pointer parameter with no tensor behind "
                          "it (the argument is the integer %lld). Fix: "
                          "pass one of the node's inputs or its output "
                          "there", name, i + 1, sg, (long long)v);
    if (rlx__ftype_is_int(t) && !rlx__ftype_fits(t, v))
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          ARG ": the value %lld does not fit the parameter "
                          "type %s. Fix: declare a wider type (i64)", name,
                          i + 1, sg, (long long)v, rlx__ftype_name(t));
    return RLX_OK;
}

static rlx_status check_op(const rlx_graph *g, const char *name,
                           uint32_t n_inputs, const rlx_value *inputs,
                           const rlx_custom_op *op, const rlx__node *out,
                           rlx__sig *sig)
{
    const char *lib = op->library;
    if ((!lib) == (!op->fn))
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "custom node '%s': give either a library and a "
                          "symbol, or a function pointer (got %s). Fix: set "
                          "exactly one of LIBRARY and FN", name,
                          lib ? "both" : "neither");
    if (lib && (!*lib || !op->symbol || !*op->symbol))
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "custom node '%s': the library or the symbol is "
                          "empty. Fix: name the library (a path or soname) "
                          "and the function in it", name);
    char err[RLX_MSG_MAX - 200];
    if (!rlx__sig_parse(op->signature, sig, err, sizeof err))
        return rlx__error(RLX_ERR_INVALID_ARGUMENT, "custom node '%s': %s",
                          name, err);
    if (op->n_args != sig->n)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "custom node '%s': signature \"%s\" takes %u "
                          "argument%s but %u %s given. Fix: give one "
                          "argument per parameter, in order", name,
                          op->signature, sig->n, sig->n == 1 ? "" : "s",
                          op->n_args, op->n_args == 1 ? "is" : "are");
    if (op->n_args && !op->args)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "custom node '%s': N_ARGS is %u but ARGS is NULL",
                          name, op->n_args);
    int each = (op->flags & RLX_CUSTOM_ELEMENTWISE) != 0;
    if (op->flags & ~RLX_CUSTOM_ELEMENTWISE)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "custom node '%s': unknown flags 0x%x. Fix: use "
                          "RLX_CUSTOM_* flags", name,
                          op->flags & ~RLX_CUSTOM_ELEMENTWISE);
    rlx__ftype et = rlx__ftype_of_dtype(out->dtype);
    if (each && (et == RLX__FT_VOID || sig->ret != et))
        return rlx__error(RLX_ERR_DTYPE,
                          "custom node '%s': an elementwise kernel returns "
                          "the output element, which is %s, but signature "
                          "\"%s\" returns %s. Fix: %s", name,
                          rlx_dtype_name(out->dtype), op->signature,
                          rlx__ftype_name(sig->ret),
                          et == RLX__FT_VOID
                              ? "give the output dtype f32, f64, i32, i64, "
                                "i8 or u8"
                              : "make the return type match the output's "
                                "dtype");
    if (!each && rlx__ftype_is_float(sig->ret))
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "custom node '%s': signature \"%s\" returns %s, "
                          "but a whole-tensor kernel returns void or an "
                          "integer status. Fix: mark the node elementwise "
                          "if the function computes one element, or fix "
                          "the return type", name, op->signature,
                          rlx__ftype_name(sig->ret));
    if (each && op->init_input >= 0)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "custom node '%s': an elementwise kernel cannot "
                          "start from a copy of an input (INIT_INPUT). Fix: "
                          "set INIT_INPUT to -1", name);
    int writes_output = each;
    for (uint32_t i = 0; i < op->n_args; i++) {
        rlx_status st = check_arg(g, name, op, sig, i, n_inputs, inputs,
                                  out);
        if (st != RLX_OK)
            return st;
        writes_output |= op->args[i].kind == RLX_CUSTOM_ARG_TENSOR &&
                         op->args[i].index == RLX_CUSTOM_OUTPUT;
    }
    if (!writes_output)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "custom node '%s': no argument points at the "
                          "output, so the kernel cannot write it. Fix: pass "
                          "the output (RLX_CUSTOM_OUTPUT, or the node's own "
                          "name in a model) to a ptr parameter", name);
    if (op->init_input >= 0) {
        char sa[160], sb[160];
        const rlx__node *in = (uint32_t)op->init_input < n_inputs
                                  ? &g->nodes[inputs[op->init_input]]
                                  : NULL;
        if (!in)
            return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                              "custom node '%s': INIT_INPUT %d is not an "
                              "input (the node has %u). Fix: use an input "
                              "index, or -1", name, (int)op->init_input,
                              n_inputs);
        if (in->dtype != out->dtype || in->rank != out->rank ||
            memcmp(in->shape, out->shape, out->rank * sizeof *out->shape))
            return rlx__error(RLX_ERR_SHAPE,
                              "custom node '%s': the output (%s %s) starts "
                              "as a copy of '%s', which is %s %s. Fix: "
                              "give the output that input's dtype and "
                              "shape", name, rlx_dtype_name(out->dtype),
                              rlx__shape_str(sa, sizeof sa, out->rank,
                                             out->shape),
                              in->name, rlx_dtype_name(in->dtype),
                              rlx__shape_str(sb, sizeof sb, in->rank,
                                             in->shape));
    }
    return RLX_OK;
}

rlx__custom *rlx__custom_from_op(const rlx_custom_op *op, const rlx__sig *sig)
{
    return spec_copy(op, sig);
}

rlx__custom *rlx__custom_dup(const rlx__custom *c)
{
    rlx_custom_op op = {
        .struct_size = sizeof op,
        .library = c->library,
        .symbol = c->symbol,
        .fn = c->fn,
        .signature = c->signature,
        .n_args = c->n_args,
        .args = c->args,
        .init_input = c->init_input,
        .base_dir = c->base_dir,
        .flags = c->flags,
    };
    return spec_copy(&op, &c->sig);
}

static rlx__custom *spec_copy(const rlx_custom_op *op, const rlx__sig *sig)
{
    rlx__custom *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->fn = op->fn;
    c->sig = *sig;
    c->init_input = op->init_input;
    c->flags = op->flags;
    c->n_args = op->n_args;
    c->args = malloc((op->n_args ? op->n_args : 1) * sizeof *c->args);
    c->signature = rlx__strdup(op->signature);
    int ok = c->args && c->signature;
    if (ok && op->library) {
        c->library = rlx__strdup(op->library);
        c->symbol = rlx__strdup(op->symbol);
        ok = c->library && c->symbol;
    }
    if (ok && op->base_dir)
        ok = (c->base_dir = rlx__strdup(op->base_dir)) != NULL;
    if (!ok) {
        rlx__custom_free(c);
        return NULL;
    }
    if (op->n_args)
        memcpy(c->args, op->args, op->n_args * sizeof *c->args);
    return c;
}

rlx_status rlx_graph_add_custom(rlx_graph *g, const char *name,
                                uint32_t n_inputs, const rlx_value *inputs,
                                const rlx_custom_op *op, rlx_value *out)
{
    char auto_name[64];
    if (out)
        *out = RLX_VALUE_NONE;
    if (!g || !out || !op || (n_inputs && !inputs))
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "rlx_graph_add_custom: graph, OP, OUT or INPUTS "
                          "is NULL");
    if (op->struct_size < sizeof *op)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "rlx_graph_add_custom: OP->struct_size is %u, "
                          "expected %zu. Fix: set struct_size = "
                          "sizeof(rlx_custom_op)", op->struct_size,
                          sizeof *op);
    if (!name) {
        snprintf(auto_name, sizeof auto_name, "custom_%u", g->n_nodes);
        name = auto_name;
    }
    rlx_status st = rlx__graph_check_name(g, name);
    if (st != RLX_OK)
        return st;
    for (uint32_t i = 0; i < n_inputs; i++)
        if (inputs[i] >= g->n_nodes)
            return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                              "custom node '%s': input %u is value %u, "
                              "which does not exist (the graph has %u "
                              "nodes). Fix: pass values this graph made",
                              name, i, inputs[i], g->n_nodes);
    size_t nbytes;
    char what[300];
    snprintf(what, sizeof what, "custom node '%s': the output", name);
    st = rlx__shape_check(what, op->dtype, op->rank, op->dims, &nbytes);
    if (st != RLX_OK)
        return st;
    rlx__node n = { .op = RLX__OP_CUSTOM, .dtype = op->dtype,
                    .rank = op->rank };
    if (op->rank)
        memcpy(n.shape, op->dims, op->rank * sizeof *op->dims);
    rlx__sig sig;
    st = check_op(g, name, n_inputs, inputs, op, &n, &sig);
    if (st != RLX_OK)
        return st;

    n.name = rlx__strdup(name);
    n.n_inputs = n_inputs;
    n.inputs = malloc((n_inputs ? n_inputs : 1) * sizeof *n.inputs);
    n.custom = spec_copy(op, &sig);
    if (!n.name || !n.inputs || !n.custom) {
        free(n.name);
        free(n.inputs);
        rlx__custom_free(n.custom);
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    }
    if (n_inputs)
        memcpy(n.inputs, inputs, n_inputs * sizeof *inputs);
    if (!rlx__graph_push(g, &n)) {
        free(n.name);
        free(n.inputs);
        rlx__custom_free(n.custom);
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    }
    *out = g->n_nodes - 1;
    return RLX_OK;
}
