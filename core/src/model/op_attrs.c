/*
 * op_attrs.c - the names model files give op attributes, and how each
 * maps onto the int_attrs / float_attrs layouts of rlx/ops.h. One row per
 * (op, attribute); docs/model-format.md lists the same table.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

#define REQUIRED 1

static const rlx__attr_schema attr_table[] = {
    { RLX_OP_GELU, "approximate", RLX__ATTR_GELU, RLX_ATTR_GELU_APPROX,
      RLX_GELU_ERF, 0 },
    { RLX_OP_MATMUL, "transpose_a", RLX__ATTR_BOOL,
      RLX_ATTR_MATMUL_TRANSPOSE_A, 0, 0 },
    { RLX_OP_MATMUL, "transpose_b", RLX__ATTR_BOOL,
      RLX_ATTR_MATMUL_TRANSPOSE_B, 0, 0 },
    { RLX_OP_SOFTMAX, "axis", RLX__ATTR_INT, RLX_ATTR_SOFTMAX_AXIS, -1, 0 },
    { RLX_OP_SOFTMAX, "causal", RLX__ATTR_BOOL, RLX_ATTR_SOFTMAX_CAUSAL, 0,
      0 },
    { RLX_OP_LAYER_NORM, "epsilon", RLX__ATTR_FLOAT, RLX_ATTR_NORM_EPSILON,
      1e-5, 0 },
    { RLX_OP_RMS_NORM, "epsilon", RLX__ATTR_FLOAT, RLX_ATTR_NORM_EPSILON,
      1e-6, 0 },
    { RLX_OP_REDUCE_SUM, "axes", RLX__ATTR_INTS, RLX_ATTR_REDUCE_AXES, 0, 0 },
    { RLX_OP_REDUCE_SUM, "keepdims", RLX__ATTR_BOOL,
      RLX_ATTR_REDUCE_KEEPDIMS, 0, 0 },
    { RLX_OP_REDUCE_MEAN, "axes", RLX__ATTR_INTS, RLX_ATTR_REDUCE_AXES, 0,
      0 },
    { RLX_OP_REDUCE_MEAN, "keepdims", RLX__ATTR_BOOL,
      RLX_ATTR_REDUCE_KEEPDIMS, 0, 0 },
    { RLX_OP_REDUCE_MAX, "axes", RLX__ATTR_INTS, RLX_ATTR_REDUCE_AXES, 0, 0 },
    { RLX_OP_REDUCE_MAX, "keepdims", RLX__ATTR_BOOL,
      RLX_ATTR_REDUCE_KEEPDIMS, 0, 0 },
    { RLX_OP_RESHAPE, "shape", RLX__ATTR_INTS, 0, 0, REQUIRED },
    { RLX_OP_TRANSPOSE, "perm", RLX__ATTR_INTS, 0, 0, 0 },
    { RLX_OP_CONCAT, "axis", RLX__ATTR_INT, RLX_ATTR_CONCAT_AXIS, 0, 0 },
    { RLX_OP_GATHER, "axis", RLX__ATTR_INT, RLX_ATTR_GATHER_AXIS, 0, 0 },
    { RLX_OP_SLICE, "axes", RLX__ATTR_SLICE_AXES, 0, 0, 0 },
    { RLX_OP_SLICE, "starts", RLX__ATTR_SLICE_STARTS, 0, 0, REQUIRED },
    { RLX_OP_SLICE, "ends", RLX__ATTR_SLICE_ENDS, 0, 0, 0 },
    { RLX_OP_CAST, "to", RLX__ATTR_DTYPE, RLX_ATTR_CAST_DTYPE, 0, REQUIRED },
    { RLX_OP_FILL, "dtype", RLX__ATTR_DTYPE, RLX_ATTR_FILL_DTYPE, 0,
      REQUIRED },
    { RLX_OP_FILL, "shape", RLX__ATTR_INTS, RLX_ATTR_FILL_SHAPE, 0, 0 },
    { RLX_OP_FILL, "value", RLX__ATTR_FLOAT, RLX_ATTR_FILL_VALUE, 0, 0 },
    { RLX_OP_BATCH_NORM, "epsilon", RLX__ATTR_FLOAT, RLX_ATTR_NORM_EPSILON,
      1e-5, 0 },
    { RLX_OP_INSTANCE_NORM, "epsilon", RLX__ATTR_FLOAT,
      RLX_ATTR_NORM_EPSILON, 1e-5, 0 },
    { RLX_OP_GROUP_NORM, "groups", RLX__ATTR_INT,
      RLX_ATTR_GROUP_NORM_GROUPS, 0, REQUIRED },
    { RLX_OP_GROUP_NORM, "epsilon", RLX__ATTR_FLOAT, RLX_ATTR_NORM_EPSILON,
      1e-5, 0 },
    /* since 1.4: comparisons, elementwise, reductions, argmax */
    { RLX_OP_CLIP, "min", RLX__ATTR_FLOAT, RLX_ATTR_CLIP_MIN, -INFINITY, 0 },
    { RLX_OP_CLIP, "max", RLX__ATTR_FLOAT, RLX_ATTR_CLIP_MAX, INFINITY, 0 },
    { RLX_OP_ISINF, "detect_positive", RLX__ATTR_BOOL,
      RLX_ATTR_ISINF_DETECT_POSITIVE, 1, 0 },
    { RLX_OP_ISINF, "detect_negative", RLX__ATTR_BOOL,
      RLX_ATTR_ISINF_DETECT_NEGATIVE, 1, 0 },
    { RLX_OP_LEAKY_RELU, "alpha", RLX__ATTR_FLOAT, RLX_ATTR_LEAKY_RELU_ALPHA,
      RLX_LEAKY_RELU_ALPHA_DEFAULT, 0 },
    { RLX_OP_ELU, "alpha", RLX__ATTR_FLOAT, RLX_ATTR_ELU_ALPHA,
      RLX_ELU_ALPHA_DEFAULT, 0 },
    { RLX_OP_SELU, "alpha", RLX__ATTR_FLOAT, RLX_ATTR_SELU_ALPHA,
      RLX_SELU_ALPHA_DEFAULT, 0 },
    { RLX_OP_SELU, "gamma", RLX__ATTR_FLOAT, RLX_ATTR_SELU_GAMMA,
      RLX_SELU_GAMMA_DEFAULT, 0 },
    { RLX_OP_HARD_SIGMOID, "alpha", RLX__ATTR_FLOAT,
      RLX_ATTR_HARD_SIGMOID_ALPHA, RLX_HARD_SIGMOID_ALPHA_DEFAULT, 0 },
    { RLX_OP_HARD_SIGMOID, "beta", RLX__ATTR_FLOAT,
      RLX_ATTR_HARD_SIGMOID_BETA, RLX_HARD_SIGMOID_BETA_DEFAULT, 0 },
    { RLX_OP_MOD, "fmod", RLX__ATTR_BOOL, RLX_ATTR_MOD_FMOD, 0, 0 },
    { RLX_OP_BIT_SHIFT, "direction", RLX__ATTR_INT,
      RLX_ATTR_BIT_SHIFT_DIRECTION, RLX_BIT_SHIFT_LEFT, 0 },
#define REDUCE_ROWS(op)                                                      \
    { RLX_OP_##op, "axes", RLX__ATTR_INTS, RLX_ATTR_REDUCE_AXES, 0, 0 },     \
    { RLX_OP_##op, "keepdims", RLX__ATTR_BOOL, RLX_ATTR_REDUCE_KEEPDIMS, 0, 0 }
    REDUCE_ROWS(REDUCE_MIN), REDUCE_ROWS(REDUCE_PROD), REDUCE_ROWS(REDUCE_L1),
    REDUCE_ROWS(REDUCE_L2), REDUCE_ROWS(REDUCE_LOG_SUM_EXP),
    REDUCE_ROWS(REDUCE_SUM_SQUARE),
#undef REDUCE_ROWS
#define ARG_ROWS(op)                                                         \
    { RLX_OP_##op, "axis", RLX__ATTR_INT, RLX_ATTR_ARG_AXIS, 0, 0 },         \
    { RLX_OP_##op, "keepdims", RLX__ATTR_BOOL, RLX_ATTR_ARG_KEEPDIMS, 1, 0 }, \
    { RLX_OP_##op, "select_last_index", RLX__ATTR_BOOL,                      \
      RLX_ATTR_ARG_SELECT_LAST_INDEX, 0, 0 }
    ARG_ROWS(ARGMAX), ARG_ROWS(ARGMIN),
#undef ARG_ROWS
    /* since 1.4: data movement and indexing */
    { RLX_OP_PAD, "mode", RLX__ATTR_INT, RLX_ATTR_PAD_MODE, 0, 0 },
    { RLX_OP_PAD, "pads", RLX__ATTR_INTS, RLX_ATTR_PAD_PADS, 0, 0 },
    { RLX_OP_PAD, "value", RLX__ATTR_FLOAT, RLX_ATTR_PAD_VALUE, 0, 0 },
    { RLX_OP_EXPAND, "shape", RLX__ATTR_INTS, RLX_ATTR_EXPAND_SHAPE, 0,
      REQUIRED },
    { RLX_OP_TILE, "repeats", RLX__ATTR_INTS, RLX_ATTR_TILE_REPEATS, 0,
      REQUIRED },
    { RLX_OP_STRIDED_SLICE, "quadruples", RLX__ATTR_INTS,
      RLX_ATTR_STRIDED_SLICE_QUADS, 0, 0 },
    { RLX_OP_GATHER_ELEMENTS, "axis", RLX__ATTR_INT,
      RLX_ATTR_GATHER_ELEMENTS_AXIS, 0, 0 },
    { RLX_OP_GATHER_ND, "batch_dims", RLX__ATTR_INT,
      RLX_ATTR_GATHER_ND_BATCH_DIMS, 0, 0 },
    { RLX_OP_SCATTER_ELEMENTS, "axis", RLX__ATTR_INT,
      RLX_ATTR_SCATTER_ELEMENTS_AXIS, 0, 0 },
    { RLX_OP_SCATTER_ELEMENTS, "reduction", RLX__ATTR_INT,
      RLX_ATTR_SCATTER_ELEMENTS_REDUCTION, 0, 0 },
    { RLX_OP_SCATTER_ND, "reduction", RLX__ATTR_INT,
      RLX_ATTR_SCATTER_ND_REDUCTION, 0, 0 },
    { RLX_OP_CUMSUM, "axis", RLX__ATTR_INT, RLX_ATTR_CUMSUM_AXIS, 0, 0 },
    { RLX_OP_CUMSUM, "exclusive", RLX__ATTR_BOOL, RLX_ATTR_CUMSUM_EXCLUSIVE,
      0, 0 },
    { RLX_OP_CUMSUM, "reverse", RLX__ATTR_BOOL, RLX_ATTR_CUMSUM_REVERSE, 0,
      0 },
    { RLX_OP_TOPK, "k", RLX__ATTR_INT, RLX_ATTR_TOPK_K, 0, REQUIRED },
    { RLX_OP_TOPK, "axis", RLX__ATTR_INT, RLX_ATTR_TOPK_AXIS, -1, 0 },
    { RLX_OP_TOPK, "largest", RLX__ATTR_BOOL, RLX_ATTR_TOPK_LARGEST, 1, 0 },
    { RLX_OP_TOPK, "sorted", RLX__ATTR_BOOL, RLX_ATTR_TOPK_SORTED, 1, 0 },
    { RLX_OP_RANGE, "dtype", RLX__ATTR_DTYPE, RLX_ATTR_RANGE_DTYPE, 0,
      REQUIRED },
    { RLX_OP_RANGE, "count", RLX__ATTR_INT, RLX_ATTR_RANGE_COUNT, 0,
      REQUIRED },
    { RLX_OP_RANGE, "int_start", RLX__ATTR_INT, RLX_ATTR_RANGE_INT_START, 0,
      0 },
    { RLX_OP_RANGE, "int_delta", RLX__ATTR_INT, RLX_ATTR_RANGE_INT_DELTA, 1,
      0 },
    { RLX_OP_RANGE, "start", RLX__ATTR_FLOAT, RLX_ATTR_RANGE_START, 0, 0 },
    { RLX_OP_RANGE, "delta", RLX__ATTR_FLOAT, RLX_ATTR_RANGE_DELTA, 1, 0 },
    { RLX_OP_ONE_HOT, "depth", RLX__ATTR_INT, RLX_ATTR_ONE_HOT_DEPTH, 0,
      REQUIRED },
    { RLX_OP_ONE_HOT, "axis", RLX__ATTR_INT, RLX_ATTR_ONE_HOT_AXIS, -1, 0 },
    { RLX_OP_TRILU, "upper", RLX__ATTR_BOOL, RLX_ATTR_TRILU_UPPER, 1, 0 },
    { RLX_OP_TRILU, "k", RLX__ATTR_INT, RLX_ATTR_TRILU_K, 0, 0 },
    { RLX_OP_NON_ZERO, "columns", RLX__ATTR_INT, RLX_ATTR_NON_ZERO_COLUMNS,
      -1, 0 },
    { RLX_OP_QUANTIZE_LINEAR, "axis", RLX__ATTR_INT, RLX_ATTR_QUANT_AXIS, 1,
      0 },
    { RLX_OP_QUANTIZE_LINEAR, "block_size", RLX__ATTR_INT,
      RLX_ATTR_QUANT_BLOCK_SIZE, 0, 0 },
    { RLX_OP_DEQUANTIZE_LINEAR, "axis", RLX__ATTR_INT, RLX_ATTR_QUANT_AXIS, 1,
      0 },
    { RLX_OP_DEQUANTIZE_LINEAR, "block_size", RLX__ATTR_INT,
      RLX_ATTR_QUANT_BLOCK_SIZE, 0, 0 },
};

#define N_ROWS (sizeof attr_table / sizeof *attr_table)
#define MAX_FIXED 8 /* highest fixed index + 1 over the table */

const rlx__attr_schema *rlx__attr_row(uint32_t i)
{
    return i < N_ROWS ? &attr_table[i] : NULL;
}

const rlx__attr_schema *rlx__attr_find(rlx_op op, const char *name)
{
    for (size_t i = 0; i < N_ROWS; i++)
        if (attr_table[i].op == op && strcmp(attr_table[i].name, name) == 0)
            return &attr_table[i];
    return NULL;
}

const char *rlx__attr_names(rlx_op op, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < N_ROWS && used < size; i++) {
        if (attr_table[i].op != op)
            continue;
        int n = snprintf(buf + used, size - used, "%s%s", used ? ", " : "",
                         attr_table[i].name);
        used += n > 0 ? (size_t)n : 0;
    }
    if (!buf[0])
        snprintf(buf, size, "none");
    return buf;
}

void rlx__node_attrs_free(rlx__node_attrs *a)
{
    free(a->ints);
    free(a->floats);
    memset(a, 0, sizeof *a);
}

static int is_float_kind(rlx__attr_kind k)
{
    return k == RLX__ATTR_FLOAT;
}

static int is_fixed_int_kind(rlx__attr_kind k)
{
    return k == RLX__ATTR_BOOL || k == RLX__ATTR_INT ||
           k == RLX__ATTR_DTYPE || k == RLX__ATTR_GELU;
}

/* A list of integers; LEN gets its length. */
static rlx_status int_list(const char *path, const char *node,
                           const char *attr, const rlx__ynode *v,
                           int64_t **out, uint32_t *len)
{
    *out = NULL;
    *len = 0;
    if (v->kind != RLX__Y_SEQ)
        return rlx__model_error(RLX_ERR_INVALID_ARGUMENT, path, v,
                                "node '%s': attribute '%s' must be a list "
                                "of integers, got %s. Fix: write it as "
                                "[1, 2, ...]", node, attr,
                                rlx__ykind_name(v->kind));
    int64_t *vals = malloc((v->n ? v->n : 1) * sizeof *vals);
    if (!vals)
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    char what[128];
    snprintf(what, sizeof what, "node '%s': attribute '%s'", node, attr);
    for (uint32_t i = 0; i < v->n; i++) {
        rlx_status st = rlx__yaml_int(path, v->items[i], what, &vals[i]);
        if (st != RLX_OK) {
            free(vals);
            return st;
        }
    }
    *out = vals;
    *len = v->n;
    return RLX_OK;
}

static rlx_status scalar_attr(const char *path, const char *node,
                              rlx_op op, const rlx__attr_schema *row,
                              const rlx__ynode *v, int64_t *i, double *f)
{
    char what[128];
    snprintf(what, sizeof what, "node '%s': attribute '%s'", node,
             row->name);
    int b;
    rlx_status st;
    switch (row->kind) {
    case RLX__ATTR_BOOL:
        st = rlx__yaml_bool(path, v, what, &b);
        *i = b;
        return st;
    case RLX__ATTR_INT:
        return rlx__yaml_int(path, v, what, i);
    case RLX__ATTR_FLOAT:
        return rlx__yaml_float(path, v, what, f);
    case RLX__ATTR_GELU:
        if (v->kind == RLX__Y_SCALAR && strcmp(v->text, "erf") == 0)
            *i = RLX_GELU_ERF;
        else if (v->kind == RLX__Y_SCALAR && strcmp(v->text, "tanh") == 0)
            *i = RLX_GELU_TANH;
        else
            return rlx__model_error(RLX_ERR_INVALID_ARGUMENT, path, v,
                                    "%s must be erf or tanh, got '%.40s'. "
                                    "Fix: write approximate: erf, or "
                                    "approximate: tanh", what,
                                    v->kind == RLX__Y_SCALAR ? v->text
                                                             : "(a list)");
        return RLX_OK;
    case RLX__ATTR_DTYPE: {
        rlx_dtype t;
        if (v->kind != RLX__Y_SCALAR ||
            rlx_dtype_from_name(v->text, &t) != RLX_OK)
            return rlx__model_error(RLX_ERR_DTYPE, path, v,
                                    "%s: unknown dtype '%.40s'. Fix: use "
                                    "one of f32, f16, bf16, f64, i32, i64, "
                                    "i8, u8, bool", what,
                                    v->kind == RLX__Y_SCALAR ? v->text
                                                             : "(a list)");
        *i = (int64_t)t;
        return RLX_OK;
    }
    default:
        (void)op;
        return RLX_OK;
    }
}

rlx_status rlx__attrs_convert(const char *path, const char *name, rlx_op op,
                              const rlx__ynode *at, const rlx__ynode *attrs,
                              rlx__node_attrs *out)
{
    char names[256];
    int64_t ints[MAX_FIXED];
    double floats[MAX_FIXED];
    int n_fixed_ints = 0, n_floats = 0;
    const rlx__attr_schema *list_row = NULL;
    const rlx__ynode *list = NULL, *slice[3] = { NULL, NULL, NULL };
    int64_t *vals[3] = { NULL, NULL, NULL };
    uint32_t lens[3] = { 0, 0, 0 };
    rlx_status st = RLX_OK;

    memset(out, 0, sizeof *out);
    /* defaults for every fixed index */
    for (int k = 0; k < MAX_FIXED; k++) {
        ints[k] = 0;
        floats[k] = 0;
    }
    for (size_t r = 0; r < N_ROWS; r++) {
        const rlx__attr_schema *row = &attr_table[r];
        if (row->op != op)
            continue;
        if (is_fixed_int_kind(row->kind))
            ints[row->index] = (int64_t)row->dflt;
        else if (is_float_kind(row->kind))
            floats[row->index] = row->dflt;
    }

    if (attrs && !rlx__ynode_is_null(attrs) && attrs->kind != RLX__Y_MAP)
        return rlx__model_error(RLX_ERR_INVALID_ARGUMENT, path, attrs,
                                "node '%s': 'attrs' must be a mapping, got "
                                "%s. Fix: write attrs: {name: value, ...}",
                                name, rlx__ykind_name(attrs->kind));
    uint32_t n_given = attrs && attrs->kind == RLX__Y_MAP ? attrs->n : 0;
    for (uint32_t i = 0; i < n_given; i++) {
        const rlx__ynode *key = attrs->items[2 * i];
        const rlx__ynode *v = attrs->items[2 * i + 1];
        const rlx__attr_schema *row = rlx__attr_find(op, key->text);
        if (!row) {
            rlx__attr_names(op, names, sizeof names);
            if (strcmp(names, "none") == 0)
                return rlx__model_error(
                    RLX_ERR_INVALID_ARGUMENT, path, key,
                    "node '%s': op %s has no attribute '%.60s'. Fix: "
                    "remove 'attrs' (op %s takes none)", name,
                    rlx_op_name(op), key->text, rlx_op_name(op));
            return rlx__model_error(
                RLX_ERR_INVALID_ARGUMENT, path, key,
                "node '%s': op %s has no attribute '%.60s'. Fix: use %s "
                "(see docs/model-format.md)", name, rlx_op_name(op),
                key->text, names);
        }
        switch (row->kind) {
        case RLX__ATTR_INTS:
            list_row = row;
            list = v;
            break;
        case RLX__ATTR_SLICE_AXES:
        case RLX__ATTR_SLICE_STARTS:
        case RLX__ATTR_SLICE_ENDS:
            slice[row->kind - RLX__ATTR_SLICE_AXES] = v;
            break;
        default:
            if (is_float_kind(row->kind)) {
                st = scalar_attr(path, name, op, row, v, NULL,
                                 &floats[row->index]);
                if ((int)row->index + 1 > n_floats)
                    n_floats = (int)row->index + 1;
            } else {
                st = scalar_attr(path, name, op, row, v,
                                 &ints[row->index], NULL);
                if ((int)row->index + 1 > n_fixed_ints)
                    n_fixed_ints = (int)row->index + 1;
            }
            if (st != RLX_OK)
                return st;
        }
    }
    for (size_t r = 0; r < N_ROWS; r++) {
        const rlx__attr_schema *row = &attr_table[r];
        if (row->op != op || !row->required ||
            rlx__ynode_get(attrs && attrs->kind == RLX__Y_MAP ? attrs : NULL,
                           row->name))
            continue;
        return rlx__model_error(RLX_ERR_INVALID_ARGUMENT, path,
                                attrs && attrs->kind == RLX__Y_MAP ? attrs
                                                                   : at,
                                "node '%s': op %s needs the attribute "
                                "'%s'. Fix: add it under attrs (see "
                                "docs/model-format.md)",
                                name, rlx_op_name(op), row->name);
    }

    /* the list, or the slice triples, follow the fixed entries */
    uint32_t tail = 0;
    int64_t *tail_vals = NULL;
    if (list) {
        st = int_list(path, name, list_row->name, list, &tail_vals, &tail);
        if (st != RLX_OK)
            return st;
        if ((int)list_row->index > n_fixed_ints)
            n_fixed_ints = (int)list_row->index;
    } else if (slice[1]) {
        static const char *const slice_names[3] = { "axes", "starts",
                                                    "ends" };
        for (int k = 0; k < 3 && st == RLX_OK; k++)
            if (slice[k])
                st = int_list(path, name, slice_names[k], slice[k],
                              &vals[k], &lens[k]);
        for (int k = 0; k < 3 && st == RLX_OK; k += 2)
            if (slice[k] && lens[k] != lens[1])
                st = rlx__model_error(
                    RLX_ERR_INVALID_ARGUMENT, path, slice[k],
                    "node '%s': slice '%s' has %u entries but 'starts' has "
                    "%u. Fix: give axes, starts and ends the same length",
                    name, slice_names[k], lens[k], lens[1]);
        if (st == RLX_OK && lens[1] > UINT32_MAX / 3)
            st = rlx__model_error(RLX_ERR_INVALID_ARGUMENT, path, slice[1],
                                  "node '%s': too many slice entries. Fix: "
                                  "slice fewer axes", name);
        if (st == RLX_OK) {
            tail = 3 * lens[1];
            tail_vals = malloc((tail ? tail : 1) * sizeof *tail_vals);
            if (!tail_vals)
                st = rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
        }
        for (uint32_t j = 0; st == RLX_OK && j < lens[1]; j++) {
            tail_vals[3 * j] = vals[0] ? vals[0][j] : (int64_t)j;
            tail_vals[3 * j + 1] = vals[1][j];
            tail_vals[3 * j + 2] = vals[2] ? vals[2][j] : INT64_MAX;
        }
        for (int k = 0; k < 3; k++)
            free(vals[k]);
        if (st != RLX_OK) {
            free(tail_vals);
            return st;
        }
    }

    uint32_t n_ints = (uint32_t)n_fixed_ints + tail;
    out->ints = malloc((n_ints ? n_ints : 1) * sizeof *out->ints);
    out->floats = malloc((n_floats ? (size_t)n_floats : 1) *
                         sizeof *out->floats);
    if (!out->ints || !out->floats) {
        free(tail_vals);
        rlx__node_attrs_free(out);
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    }
    memcpy(out->ints, ints, (size_t)n_fixed_ints * sizeof *ints);
    if (tail)
        memcpy(out->ints + n_fixed_ints, tail_vals, tail * sizeof *tail_vals);
    memcpy(out->floats, floats, (size_t)n_floats * sizeof *floats);
    out->n_ints = n_ints;
    out->n_floats = (uint32_t)n_floats;
    free(tail_vals);
    return RLX_OK;
}
