/*
 * cpu_ref_compile.c - turn a borrowed graph view into an executable that
 * owns everything it needs: node results, op plans, copied constants.
 *
 * The core has validated the graph, but a reference backend must not
 * crash on a core bug or a foreign host either, so every index and shape
 * the kernels rely on is checked here once; execute then trusts them.
 */
#include <stdlib.h>
#include <string.h>

#include "cpu_ref_internal.h"

#define FIX_REPORT " Fix: report this as a bug in the rlx core"

static char *copy_string(const char *s)
{
    size_t n = s ? strlen(s) + 1 : 1;
    char *d = malloc(n);
    if (d) {
        if (s)
            memcpy(d, s, n);
        else
            d[0] = '\0';
    }
    return d;
}

static rlx_status out_of_memory(const rlx_host *host, const char *what,
                                const char *name)
{
    return rlx_kit_fail(host, RLX_ERR_OUT_OF_MEMORY,
                        "cpu-ref compile: out of memory allocating %s "
                        "for node '%s'. Fix: free memory, or compile "
                        "a smaller graph", what, name);
}

/* The fields compile reads from every node, as of ABI 1.0. */
#define NODE_MIN_SIZE RLX_STRUCT_SIZE_TO(rlx_node_view, inputs)

/* Inputs that must share the result's dtype: every input of a float op
 * and of concat; the data of reshape, transpose, slice, gather. */
static uint32_t same_dtype_inputs(rlx_op op, uint32_t n_inputs)
{
    if ((op >= 100 && op < 150) || op == RLX_OP_MAX_POOL_INDEX)
        return 0; /* mixed dtypes: checked by their prepare */
    if (op == RLX_OP_ROI_ALIGN)
        return 2; /* x, rois; then the integer batch index */
    if (rlx_kit_op_is_float(op) || op == RLX_OP_CONCAT)
        return n_inputs;
    switch (op) {
    case RLX_OP_RESHAPE: case RLX_OP_TRANSPOSE: case RLX_OP_SLICE:
    case RLX_OP_GATHER:
    /* since 1.4: the data keeps its dtype */
    case RLX_OP_PAD: case RLX_OP_EXPAND: case RLX_OP_TILE:
    case RLX_OP_STRIDED_SLICE: case RLX_OP_GATHER_ELEMENTS:
    case RLX_OP_GATHER_ND: case RLX_OP_SCATTER_ELEMENTS:
    case RLX_OP_SCATTER_ND: case RLX_OP_CUMSUM: case RLX_OP_TRILU:
        return 1;
    default:
        return 0;
    }
}

/* Copy V's inputs into N, checking their order and dtypes. */
static rlx_status node_inputs(const rlx_host *host, const rlx_graph_view *g,
                              uint32_t i, const rlx_node_view *v,
                              rlx__cpu_ref_node *n)
{
    int arity = rlx_kit_op_arity(v->op);
    int ok = arity == RLX_OP_VARIADIC ? v->n_inputs >= 1
                                      : v->n_inputs == (uint32_t)arity;
    if (!ok || (v->n_inputs && !v->inputs))
        return rlx_kit_fail(host, RLX_ERR_INVALID_ARGUMENT,
                            "cpu-ref compile: node '%s' (%s) has %u "
                            "inputs, expected %d." FIX_REPORT, n->name,
                            rlx_kit_op_name(v->op),
                            (unsigned)v->n_inputs, arity);
    n->inputs = malloc((v->n_inputs ? v->n_inputs : 1) * sizeof *n->inputs);
    if (!n->inputs)
        return out_of_memory(host, "the input list", n->name);
    n->n_inputs = v->n_inputs;
    uint32_t same = same_dtype_inputs(v->op, v->n_inputs);
    for (uint32_t j = 0; j < v->n_inputs; j++) {
        if (v->inputs[j] >= i)
            return rlx_kit_fail(host, RLX_ERR_INVALID_ARGUMENT,
                                "cpu-ref compile: node '%s' reads node "
                                "%u, which does not come before it."
                                FIX_REPORT, n->name,
                                (unsigned)v->inputs[j]);
        n->inputs[j] = v->inputs[j];
        rlx_dtype t = g->nodes[v->inputs[j]]->dtype;
        if (j < same && t != v->dtype)
            return rlx_kit_fail(host, RLX_ERR_DTYPE,
                                "cpu-ref compile: node '%s' (%s) is %d "
                                "but its input %u is %d." FIX_REPORT,
                                n->name, rlx_kit_op_name(v->op),
                                (int)v->dtype, (unsigned)j, (int)t);
    }
    if (v->op == RLX_OP_CAST) {
        n->from = g->nodes[v->inputs[0]]->dtype;
        if (rlx_dtype_size(n->from) == 0)
            return rlx_kit_fail(host, RLX_ERR_UNSUPPORTED,
                                "cpu-ref compile: cast '%s' reads "
                                "unknown dtype %d. Fix: use a dtype "
                                "from rlx/types.h", n->name,
                                (int)n->from);
    }
    return RLX_OK;
}

/* Allocate N's result (and its f32 copy for f16 and bf16). */
static rlx_status node_alloc(const rlx_host *host, const rlx_node_view *v,
                             rlx__cpu_ref_node *n)
{
    n->dtype = v->dtype;
    n->elem = rlx_dtype_size(v->dtype);
    int ok = rlx__cpu_ref_shape_count(rlx__cpu_ref_shape_of(v), n->elem,
                                      &n->count);
    if (ok == 0)
        return rlx_kit_fail(host, RLX_ERR_SHAPE,
                            "cpu-ref compile: node '%s' has a negative "
                            "dim or no dims array." FIX_REPORT, n->name);
    if (ok < 0)
        return rlx_kit_fail(host, RLX_ERR_OUT_OF_MEMORY,
                            "cpu-ref compile: node '%s' has more "
                            "elements than memory can hold. Fix: use "
                            "smaller dims", n->name);
    n->data = calloc(n->count ? n->count : 1, n->elem);
    if (!n->data)
        return out_of_memory(host, "the result", n->name);
    if (n->dtype == RLX_DTYPE_F32)
        n->f32 = (float *)(void *)n->data; /* calloc'd: aligned */
    else if (rlx_kit_dtype_is_float(n->dtype) &&
             !(n->f32 = calloc(n->count ? n->count : 1, sizeof(float))))
        return out_of_memory(host, "the f32 copy", n->name);
    return RLX_OK;
}

/* A node's attributes; missing trailing ones take their defaults. */
rlx__cpu_ref_attrs rlx__cpu_ref_attrs_of(const rlx_node_view *v)
{
    rlx__cpu_ref_attrs a = { rlx_kit_n_int_attrs(v), v->int_attrs,
                             rlx_kit_n_float_attrs(v), v->float_attrs };
    return a;
}

/* The ABI 1.4 ops and integer arithmetic: reductions, argmax/argmin and
 * the elementwise rest each have their own planner. */
static rlx_status ext_prepare(const rlx_host *host, const rlx_graph_view *g,
                              const rlx_node_view *v,
                              const rlx__cpu_ref_attrs *a,
                              rlx__cpu_ref_node *n)
{
    switch (v->op) {
    case RLX_OP_REDUCE_SUM: case RLX_OP_REDUCE_MEAN: case RLX_OP_REDUCE_MAX:
    case RLX_OP_REDUCE_MIN: case RLX_OP_REDUCE_PROD: case RLX_OP_REDUCE_L1:
    case RLX_OP_REDUCE_L2: case RLX_OP_REDUCE_LOG_SUM_EXP:
    case RLX_OP_REDUCE_SUM_SQUARE:
        if (g->nodes[v->inputs[0]]->dtype != v->dtype)
            return rlx_kit_fail(host, RLX_ERR_DTYPE,
                                "cpu-ref compile: %s '%s' changes the "
                                "dtype." FIX_REPORT, rlx_kit_op_name(v->op),
                                v->name);
        n->ext = RLX__CPU_REF_EXT_REDUCE;
        return rlx__cpu_ref_reduce_prepare(host, g, v, a, n);
    case RLX_OP_ARGMAX: case RLX_OP_ARGMIN:
        n->ext = RLX__CPU_REF_EXT_ARG;
        return rlx__cpu_ref_arg_prepare(host, g, v, a, n);
    default:
        n->ext = RLX__CPU_REF_EXT_EW;
        return rlx__cpu_ref_ew_prepare(host, g, v, a, n);
    }
}

/* Check node I of G and copy what execute needs into N. */
static rlx_status node_compile(const rlx_host *host, const rlx_graph_view *g,
                               uint32_t i, rlx__cpu_ref_node *n)
{
    const rlx_node_view *v = g->nodes[i];
    if (!v || v->struct_size < NODE_MIN_SIZE)
        return rlx_kit_fail(host, RLX_ERR_INVALID_ARGUMENT,
                            "cpu-ref compile: node %u is %s." FIX_REPORT,
                            (unsigned)i,
                            v ? "truncated (struct_size too small)"
                              : "NULL");
    n->op = v->op;
    n->name = copy_string(v->name);
    if (!n->name)
        return out_of_memory(host, "a name", v->name ? v->name : "?");

    if (!rlx__cpu_ref_supports(v->op, v->dtype))
        return rlx_kit_fail(host, RLX_ERR_UNSUPPORTED,
                            "cpu-ref compile: node '%s' is op %s (%d) "
                            "on dtype %d, which cpu-ref does not "
                            "execute. Fix: cast the graph to f32, or "
                            "choose a backend that supports it",
                            n->name, rlx_kit_op_name(v->op),
                            (int)v->op, (int)v->dtype);
    rlx_status st = node_inputs(host, g, i, v, n);
    if (st == RLX_OK)
        st = node_alloc(host, v, n);
    if (st != RLX_OK)
        return st;

    rlx__cpu_ref_attrs a = rlx__cpu_ref_attrs_of(v);
    int64_t attr[2] = { v->op == RLX_OP_SOFTMAX ? -1 : 0, 0 };
    for (uint32_t j = 0; j < a.n_ints && j < 2; j++)
        attr[j] = a.ints[j];

    const rlx_node_view *in0 = n->n_inputs > 0 ? g->nodes[v->inputs[0]]
                                               : NULL;
    const rlx_node_view *in1 = n->n_inputs > 1 ? g->nodes[v->inputs[1]]
                                               : NULL;
    const rlx__cpu_ref_shape none = { 0, NULL };
    const rlx__cpu_ref_shape s_in0 = in0 ? rlx__cpu_ref_shape_of(in0) : none;
    const rlx__cpu_ref_shape s_in1 = in1 ? rlx__cpu_ref_shape_of(in1) : none;
    const rlx__cpu_ref_shape s_out = rlx__cpu_ref_shape_of(v);
    char s0[96], s1[96];

    if (rlx__cpu_ref_is_ew(g, v))
        return ext_prepare(host, g, v, &a, n);
    if (rlx__cpu_ref_is_quant_op(v->op)) {
        n->ext = RLX__CPU_REF_EXT_QUANT;
        return rlx__cpu_ref_quant_prepare(host, g, v, &a, n);
    }

    switch (v->op) {
    case RLX_OP_INPUT:
    case RLX_OP_PARAM:
        return RLX_OK; /* slots are bound from the graph's lists */
    case RLX_OP_CONSTANT: {
        const void *data = NULL;
        if (RLX_HAS_FIELD(v->struct_size, rlx_node_view, data))
            data = v->data;
        if (n->count && !data)
            return rlx_kit_fail(host, RLX_ERR_INVALID_ARGUMENT,
                                "cpu-ref compile: constant '%s' has no "
                                "data." FIX_REPORT, n->name);
        if (n->count)
            memcpy(n->data, data, n->count * n->elem);
        rlx__cpu_ref_node_widen(n);
        return RLX_OK;
    }
    case RLX_OP_FILL:
        rlx__cpu_ref_fill(a.n_floats > RLX_ATTR_FILL_VALUE
                              ? a.floats[RLX_ATTR_FILL_VALUE] : 0.0,
                          n->dtype, n->data, n->count);
        rlx__cpu_ref_node_widen(n);
        return RLX_OK;
    case RLX_OP_ADD: case RLX_OP_SUB: case RLX_OP_MUL: case RLX_OP_DIV:
    case RLX_OP_MAX: case RLX_OP_MIN: case RLX_OP_POW:
        return rlx__cpu_ref_binary_prepare(host, n->name, s_in0, s_in1, s_out,
                                           &n->plan.bcast, &n->scratch);
    case RLX_OP_MATMUL:
        if ((attr[0] != 0 && attr[0] != 1) || (attr[1] != 0 && attr[1] != 1))
            return rlx_kit_fail(host, RLX_ERR_INVALID_ARGUMENT,
                                "cpu-ref compile: matmul '%s' has "
                                "transpose flags %lld, %lld. Fix: use "
                                "0 or 1", n->name, (long long)attr[0],
                                (long long)attr[1]);
        return rlx__cpu_ref_matmul_prepare(host, n->name, s_in0, s_in1, s_out,
                                           attr[0] != 0, attr[1] != 0,
                                           &n->plan.matmul, &n->scratch);
    case RLX_OP_SOFTMAX:
        return rlx__cpu_ref_softmax_prepare(host, n->name, s_in0, s_out,
                                            attr[0], attr[1],
                                            &n->plan.softmax);
    case RLX_OP_LAYER_NORM: case RLX_OP_RMS_NORM:
        return rlx__cpu_ref_norm_prepare(host, g, v, &a, &n->plan.norm);
    case RLX_OP_REDUCE_SUM: case RLX_OP_REDUCE_MEAN: case RLX_OP_REDUCE_MAX:
        return rlx__cpu_ref_reduce_prepare(host, g, v, &a, n);
    case RLX_OP_RESHAPE: case RLX_OP_TRANSPOSE: case RLX_OP_CONCAT:
    case RLX_OP_SLICE: case RLX_OP_GATHER:
        return rlx__cpu_ref_movement_prepare(host, g, v, &a, n);
    case RLX_OP_CONV: case RLX_OP_CONV_TRANSPOSE:
        return rlx__cpu_ref_conv_prepare(host, g, v, n->name, &n->vis);
    case RLX_OP_MAX_POOL: case RLX_OP_AVG_POOL: case RLX_OP_LP_POOL:
        return rlx__cpu_ref_pool_prepare(host, g, v, n->name, &n->vis);
    case RLX_OP_MAX_POOL_INDEX:
        if (!rlx_kit_dtype_is_float(in0->dtype))
            return rlx_kit_fail(host, RLX_ERR_DTYPE,
                                "cpu-ref compile: max_pool_index '%s' "
                                "reads %s." FIX_REPORT, n->name,
                                rlx_kit_dtype_name(in0->dtype));
        return rlx__cpu_ref_pool_prepare(host, g, v, n->name, &n->vis);
    case RLX_OP_RESIZE:
        return rlx__cpu_ref_resize_prepare(host, g, v, n->name, &n->vis);
    case RLX_OP_GRID_SAMPLE:
        return rlx__cpu_ref_grid_prepare(host, g, v, &a, n);
    case RLX_OP_DET:
        return rlx__cpu_ref_det_prepare(host, g, v, n);
    case RLX_OP_ROI_ALIGN:
        return rlx__cpu_ref_roi_prepare(host, g, v, &a, n);
    case RLX_OP_BATCH_NORM: case RLX_OP_INSTANCE_NORM:
    case RLX_OP_GROUP_NORM:
        return rlx__cpu_ref_chnorm_prepare(host, g, v, n->name, &n->vis);
    case RLX_OP_PAD: case RLX_OP_EXPAND: case RLX_OP_TILE:
    case RLX_OP_STRIDED_SLICE: case RLX_OP_GATHER_ELEMENTS:
    case RLX_OP_GATHER_ND: case RLX_OP_SCATTER_ELEMENTS:
    case RLX_OP_SCATTER_ND: case RLX_OP_CUMSUM: case RLX_OP_TOPK:
    case RLX_OP_RANGE: case RLX_OP_ONE_HOT: case RLX_OP_TRILU:
    case RLX_OP_NON_ZERO:
        return rlx__cpu_ref_index_prepare(host, g, v, &a, n);
    case RLX_OP_GELU:
        if (attr[0] != RLX_GELU_ERF && attr[0] != RLX_GELU_TANH)
            return rlx_kit_fail(host, RLX_ERR_INVALID_ARGUMENT,
                                "cpu-ref compile: gelu '%s' has "
                                "approximation %lld. Fix: use 0 (erf) "
                                "or 1 (tanh)", n->name,
                                (long long)attr[0]);
        n->gelu_approx = attr[0];
        break;
    default:
        break; /* unary and cast */
    }
    /* Unary and cast: the result has the input's shape. */
    if (!rlx__cpu_ref_shape_equal(s_in0, s_out))
        return rlx_kit_fail(host, RLX_ERR_SHAPE,
                            "cpu-ref compile: %s '%s' maps %s to %s."
                            FIX_REPORT, rlx_kit_op_name(v->op),
                            n->name,
                            rlx__cpu_ref_shape_str(s_in0, s0, sizeof s0),
                            rlx__cpu_ref_shape_str(s_out, s1, sizeof s1));
    return RLX_OK;
}

/* Bind the graph's input or param list (LIST, N entries) to nodes of
 * kind OP and copy it to *OUT. */
static rlx_status bind_slots(const rlx_host *host, rlx_executable *exe,
                             const uint32_t *list, uint32_t n, rlx_op op,
                             uint32_t **out)
{
    const char *what = op == RLX_OP_INPUT ? "input" : "param";
    if (n && !list)
        return rlx_kit_fail(host, RLX_ERR_INVALID_ARGUMENT,
                            "cpu-ref compile: the graph's %s list is "
                            "NULL." FIX_REPORT, what);
    *out = malloc((n ? n : 1) * sizeof **out);
    if (!*out)
        return out_of_memory(host, "the slot list", what);
    for (uint32_t s = 0; s < n; s++) {
        uint32_t idx = list[s];
        if (idx >= exe->n_nodes || exe->nodes[idx].op != op ||
            exe->nodes[idx].has_slot)
            return rlx_kit_fail(host, RLX_ERR_INVALID_ARGUMENT,
                                "cpu-ref compile: %s slot %u names "
                                "node %u, which is not a free %s node."
                                FIX_REPORT, what, (unsigned)s,
                                (unsigned)idx, what);
        exe->nodes[idx].slot = s;
        exe->nodes[idx].has_slot = 1;
        (*out)[s] = idx;
    }
    return RLX_OK;
}

static rlx_status graph_compile(const rlx_host *host, const rlx_graph_view *g,
                                rlx_executable *exe)
{
    rlx_status st;
    exe->nodes = calloc(g->n_nodes ? g->n_nodes : 1, sizeof *exe->nodes);
    if (!exe->nodes)
        return out_of_memory(host, "the node table", "(graph)");
    exe->n_nodes = g->n_nodes;
    for (uint32_t i = 0; i < g->n_nodes; i++)
        if ((st = node_compile(host, g, i, &exe->nodes[i])) != RLX_OK)
            return st;

    exe->n_inputs = g->n_inputs;
    exe->n_params = g->n_params;
    if ((st = bind_slots(host, exe, g->inputs, g->n_inputs, RLX_OP_INPUT,
                         &exe->input_nodes)) != RLX_OK ||
        (st = bind_slots(host, exe, g->params, g->n_params, RLX_OP_PARAM,
                         &exe->param_nodes)) != RLX_OK)
        return st;
    for (uint32_t i = 0; i < exe->n_nodes; i++) {
        const rlx__cpu_ref_node *n = &exe->nodes[i];
        if ((n->op == RLX_OP_INPUT || n->op == RLX_OP_PARAM) && !n->has_slot)
            return rlx_kit_fail(host, RLX_ERR_INVALID_ARGUMENT,
                                "cpu-ref compile: %s node '%s' has no "
                                "slot." FIX_REPORT,
                                rlx_kit_op_name(n->op), n->name);
    }

    if (g->n_outputs && !g->outputs)
        return rlx_host_report(host, RLX_ERR_INVALID_ARGUMENT,
                               "cpu-ref compile: the graph's output list is "
                               "NULL." FIX_REPORT);
    exe->output_nodes = malloc((g->n_outputs ? g->n_outputs : 1) *
                               sizeof *exe->output_nodes);
    if (!exe->output_nodes)
        return out_of_memory(host, "the output list", "(graph)");
    exe->n_outputs = g->n_outputs;
    for (uint32_t i = 0; i < g->n_outputs; i++) {
        if (g->outputs[i] >= g->n_nodes)
            return rlx_kit_fail(host, RLX_ERR_INVALID_ARGUMENT,
                                "cpu-ref compile: output %u names node "
                                "%u of %u." FIX_REPORT, (unsigned)i,
                                (unsigned)g->outputs[i],
                                (unsigned)g->n_nodes);
        exe->output_nodes[i] = g->outputs[i];
    }
    return RLX_OK;
}

rlx_status rlx__cpu_ref_compile(void *backend, const rlx_graph_view *graph,
                                const rlx_compile_options *options,
                                rlx_executable **out)
{
    const rlx_host *host = ((rlx__cpu_ref *)backend)->host;
    if (!graph || !out ||
        !RLX_HAS_FIELD(graph->struct_size, rlx_graph_view, outputs) ||
        (graph->n_nodes && !graph->nodes))
        return rlx_host_report(host, RLX_ERR_INVALID_ARGUMENT,
                               "cpu-ref compile: missing or truncated graph "
                               "view." FIX_REPORT);
    if (options &&
        RLX_HAS_FIELD(options->struct_size, rlx_compile_options,
                      device_index) &&
        options->device_index != 0)
        return rlx_kit_fail(host, RLX_ERR_INVALID_ARGUMENT,
                            "cpu-ref compile: device index %u does not "
                            "exist. Fix: cpu-ref has one device; use "
                            "index 0", (unsigned)options->device_index);
    /* Precision is ignored: the reference is always strict. */

    rlx_executable *exe = calloc(1, sizeof *exe);
    if (!exe)
        return out_of_memory(host, "the executable", "(graph)");
    rlx_status st = graph_compile(host, graph, exe);
    if (st != RLX_OK) {
        rlx__cpu_ref_executable_destroy(backend, exe);
        return st;
    }
    *out = exe;
    return RLX_OK;
}

void rlx__cpu_ref_executable_destroy(void *backend, rlx_executable *exe)
{
    (void)backend;
    if (!exe)
        return;
    for (uint32_t i = 0; exe->nodes && i < exe->n_nodes; i++) {
        rlx__cpu_ref_node *n = &exe->nodes[i];
        if (n->f32 != (float *)(void *)n->data)
            free(n->f32);
        free(n->name);
        free(n->inputs);
        free(n->data);
        free(n->scratch);
        free(n->acc);
        rlx__cpu_ref_vision_free(n->vis);
    }
    free(exe->nodes);
    free(exe->input_nodes);
    free(exe->param_nodes);
    free(exe->output_nodes);
    free(exe);
}
