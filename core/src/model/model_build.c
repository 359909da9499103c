/*
 * model_build.c - turning a model's YAML tree into a graph, through the
 * public graph API so shapes and dtypes are checked by the core's own
 * inference. Every error names the model file and the line:column of the
 * YAML node at fault, and ends with a Fix.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

/* ---- a name -> value table ------------------------------------------- */

typedef struct names {
    const rlx_graph *g;
    rlx__hash index; /* keys: the graph's own node names */
} names;

static rlx_value names_find(const names *t, const char *name)
{
    uint32_t v;
    return rlx__hash_get(&t->index, name, &v) ? v : RLX_VALUE_NONE;
}

static rlx_value lookup(void *ctx, const char *name)
{
    return names_find(ctx, name);
}

static int names_add(names *t, rlx_value v)
{
    return rlx__hash_add(&t->index, t->g->nodes[v].name, v, NULL) >= 0;
}

/* ---- build state ------------------------------------------------------ */

typedef struct build {
    const char *path;
    rlx_graph *g;
    rlx__safetensors *weights;
    const rlx__ynode *weights_at;
    names names;
} build;

#define OOM() rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory")

/* Prefix the graph API's error with where it came from. */
static rlx_status graph_error(const build *b, rlx_status st,
                              const rlx__ynode *at, const char *what,
                              const char *name)
{
    char core[RLX_MSG_MAX];
    snprintf(core, sizeof core, "%s", rlx_last_error());
    const char *fix = strstr(core, "Fix:") ? ""
                      : ". Fix: see docs/model-format.md and rlx/ops.h";
    /* the core's node errors already begin "node 'NAME' (op): " */
    char own[300];
    snprintf(own, sizeof own, "%s '%s' (", what, name);
    if (strncmp(core, own, strlen(own)) == 0)
        return rlx__model_error(st, b->path, at, "%s%s", core, fix);
    return rlx__model_error(st, b->path, at, "%s '%s': %s%s", what, name,
                            core, fix);
}

/* Refuse keys outside VALID (NULL-terminated). */
static rlx_status check_keys(const build *b, const rlx__ynode *map,
                             const char *what, const char *const *valid)
{
    for (uint32_t i = 0; i < map->n; i++) {
        const rlx__ynode *key = map->items[2 * i];
        int ok = 0;
        for (const char *const *v = valid; *v && !ok; v++)
            ok = strcmp(*v, key->text) == 0;
        if (ok)
            continue;
        char list[256];
        size_t used = 0;
        list[0] = '\0';
        for (const char *const *v = valid; *v && used < sizeof list; v++) {
            int n = snprintf(list + used, sizeof list - used, "%s%s",
                             used ? ", " : "", *v);
            used += n > 0 ? (size_t)n : 0;
        }
        return rlx__model_error(RLX_ERR_INVALID_ARGUMENT, b->path, key,
                                "%s: unknown key '%.60s'. Fix: use %s", what,
                                key->text, list);
    }
    return RLX_OK;
}

/* A string value: a scalar that is not null. */
static rlx_status get_string(const build *b, const rlx__ynode *map,
                             const char *key, const char *what, int required,
                             const char **out, const rlx__ynode **at)
{
    const rlx__ynode *v = rlx__ynode_get(map, key);
    *out = NULL;
    if (at)
        *at = v;
    if (!v || rlx__ynode_is_null(v)) {
        if (!required)
            return RLX_OK;
        return rlx__model_error(RLX_ERR_INVALID_ARGUMENT, b->path,
                                v ? v : map, "%s has no '%s'. Fix: add "
                                "%s: ...", what, key, key);
    }
    if (v->kind != RLX__Y_SCALAR || !v->text[0])
        return rlx__model_error(RLX_ERR_INVALID_ARGUMENT, b->path, v,
                                "%s: '%s' must be a name, got %s. Fix: write "
                                "%s: NAME", what, key,
                                rlx__ykind_name(v->kind), key);
    *out = v->text;
    return RLX_OK;
}

static rlx_status get_dtype(const build *b, const rlx__ynode *map,
                            const char *what, int required, rlx_dtype *out)
{
    const char *s;
    const rlx__ynode *at;
    *out = RLX_DTYPE_INVALID;
    rlx_status st = get_string(b, map, "dtype", what, required, &s, &at);
    if (st != RLX_OK || !s)
        return st;
    if (rlx_dtype_from_name(s, out) != RLX_OK)
        return rlx__model_error(RLX_ERR_DTYPE, b->path, at,
                                "%s: unknown dtype '%.40s'. Fix: use one of "
                                "f32, f16, bf16, f64, i32, i64, i8, u8, bool",
                                what, s);
    return RLX_OK;
}

/* A shape: a list of at most RLX_MAX_RANK sizes whose product (times
 * the element size, when DTYPE is known) fits in 64 bits. *GIVEN tells
 * whether the key was there. */
static rlx_status get_shape(const build *b, const rlx__ynode *map,
                            const char *what, int required, rlx_dtype dtype,
                            uint32_t *rank, int64_t *dims, int *given)
{
    char sbuf[200];
    const rlx__ynode *v = rlx__ynode_get(map, "shape");
    *rank = 0;
    *given = v && !rlx__ynode_is_null(v);
    if (!*given) {
        if (!required)
            return RLX_OK;
        return rlx__model_error(RLX_ERR_INVALID_ARGUMENT, b->path,
                                v ? v : map, "%s has no 'shape'. Fix: add "
                                "shape: [d0, d1, ...] ([] for a scalar)",
                                what);
    }
    if (v->kind != RLX__Y_SEQ)
        return rlx__model_error(RLX_ERR_SHAPE, b->path, v,
                                "%s: 'shape' must be a list of sizes, got "
                                "%s. Fix: write shape: [d0, d1, ...]", what,
                                rlx__ykind_name(v->kind));
    if (v->n > RLX_MAX_RANK)
        return rlx__model_error(RLX_ERR_SHAPE, b->path, v,
                                "%s: rank %u is above the limit of %d. Fix: "
                                "use at most %d dimensions", what, v->n,
                                RLX_MAX_RANK, RLX_MAX_RANK);
    char dim_what[160];
    snprintf(dim_what, sizeof dim_what, "%s: a dimension", what);
    for (uint32_t i = 0; i < v->n; i++) {
        rlx_status st = rlx__yaml_int(b->path, v->items[i], dim_what,
                                      &dims[i]);
        if (st != RLX_OK)
            return st;
        if (dims[i] < 0)
            return rlx__model_error(RLX_ERR_SHAPE, b->path, v->items[i],
                                    "%s: dimension %u is negative (%lld). "
                                    "Fix: sizes are 0 or more", what, i,
                                    (long long)dims[i]);
    }
    *rank = v->n;
    int64_t n = rlx__shape_elements(v->n, dims);
    size_t esize = dtype ? rlx_dtype_size(dtype) : 1;
    if (n < 0 || (uint64_t)n > (uint64_t)INT64_MAX / esize)
        return rlx__model_error(RLX_ERR_SHAPE, b->path, v,
                                "%s: shape %s has more elements than fit in "
                                "64 bits. Fix: use smaller dimensions", what,
                                rlx__shape_str(sbuf, sizeof sbuf, v->n,
                                               dims));
    return RLX_OK;
}

/* A top-level section: absent/null, or a list of mappings. */
static rlx_status get_list(const build *b, const rlx__ynode *root,
                           const char *key, const rlx__ynode **out)
{
    const rlx__ynode *v = rlx__ynode_get(root, key);
    *out = NULL;
    if (!v || rlx__ynode_is_null(v))
        return RLX_OK;
    if (v->kind != RLX__Y_SEQ)
        return rlx__model_error(RLX_ERR_INVALID_ARGUMENT, b->path, v,
                                "'%s' must be a list, got %s. Fix: write "
                                "each entry on a line starting with '- '",
                                key, rlx__ykind_name(v->kind));
    *out = v;
    return RLX_OK;
}

static rlx_status entry_map(const build *b, const rlx__ynode *e,
                            const char *section)
{
    if (e->kind == RLX__Y_MAP)
        return RLX_OK;
    return rlx__model_error(RLX_ERR_INVALID_ARGUMENT, b->path, e,
                            "an entry of '%s' must be a mapping, got %s. "
                            "Fix: write - {name: ..., ...}", section,
                            rlx__ykind_name(e->kind));
}

static rlx_status remember(build *b, rlx_value v)
{
    return names_add(&b->names, v) ? RLX_OK : OOM();
}

/* ---- sections --------------------------------------------------------- */

/* The part every inputs/params/constants entry shares: a mapping with a
 * name, only KEYS, a dtype and a shape (both required when REQUIRED).
 * WHAT gets "KIND 'name'" for the caller's own messages. */
static rlx_status tensor_entry(build *b, const rlx__ynode *e,
                               const char *list, const char *kind,
                               const char *const *keys, int required,
                               const char **name, char *what, size_t size,
                               rlx_dtype *dtype, uint32_t *rank,
                               int64_t *dims, int *given)
{
    rlx_status st = entry_map(b, e, list);
    if (st == RLX_OK)
        st = get_string(b, e, "name", kind, 1, name, NULL);
    if (st != RLX_OK)
        return st;
    snprintf(what, size, "%s '%s'", kind, *name);
    if ((st = check_keys(b, e, what, keys)) != RLX_OK)
        return st;
    st = get_dtype(b, e, what, required, dtype);
    if (st == RLX_OK)
        st = get_shape(b, e, what, required, *dtype, rank, dims, given);
    return st;
}

static rlx_status build_inputs(build *b, const rlx__ynode *list)
{
    static const char *const keys[] = { "name", "dtype", "shape", NULL };
    for (uint32_t i = 0; list && i < list->n; i++) {
        const rlx__ynode *e = list->items[i];
        const char *name;
        char what[300];
        rlx_dtype dtype;
        uint32_t rank;
        int64_t dims[RLX_MAX_RANK];
        int given;
        rlx_value v;
        rlx_status st = tensor_entry(b, e, "inputs", "input", keys, 1,
                                     &name, what, sizeof what, &dtype,
                                     &rank, dims, &given);
        if (st != RLX_OK)
            return st;
        st = rlx_graph_input(b->g, name, dtype, rank, dims, &v);
        if (st != RLX_OK)
            return graph_error(b, st, e, "input", name);
        if ((st = remember(b, v)) != RLX_OK)
            return st;
    }
    return RLX_OK;
}

static void tensor_list(const rlx__safetensors *w, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (uint32_t i = 0; i < w->n && used < size; i++) {
        int n = i < 8 ? snprintf(buf + used, size - used, "%s'%s'",
                                 i ? ", " : "", w->tensors[i].name)
                      : snprintf(buf + used, size - used, ", ...");
        used += n > 0 ? (size_t)n : 0;
        if (i >= 8)
            break;
    }
}

static rlx_status build_params(build *b, const rlx__ynode *list)
{
    static const char *const keys[] = { "name", "dtype", "shape", NULL };
    for (uint32_t i = 0; list && i < list->n; i++) {
        const rlx__ynode *e = list->items[i];
        const char *name;
        char what[300], sa[160], sb[160], have[400];
        rlx_dtype dtype;
        uint32_t rank;
        int64_t dims[RLX_MAX_RANK];
        int given;
        rlx_value v;
        rlx_status st = tensor_entry(b, e, "params", "param", keys, 0,
                                     &name, what, sizeof what, &dtype,
                                     &rank, dims, &given);
        if (st != RLX_OK)
            return st;
        if (!b->weights)
            return rlx__model_error(RLX_ERR_NOT_FOUND, b->path, e,
                                    "%s: the model names no weights file. "
                                    "Fix: add 'weights: FILE.safetensors' "
                                    "at the top level", what);
        const rlx__st_tensor *t = rlx__safetensors_find(b->weights, name);
        if (!t) {
            tensor_list(b->weights, have, sizeof have);
            return rlx__model_error(RLX_ERR_NOT_FOUND, b->path, e,
                                    "%s is not in the weights file %s (it "
                                    "holds %u tensor%s%s%s). Fix: export "
                                    "the tensor under this name, or correct "
                                    "the param's name", what,
                                    b->weights->path, b->weights->n,
                                    b->weights->n == 1 ? "" : "s",
                                    b->weights->n ? ": " : "", have);
        }
        if (dtype && dtype != t->dtype)
            return rlx__model_error(
                RLX_ERR_DTYPE, b->path, rlx__ynode_get(e, "dtype"),
                "%s is declared %s, but %s stores it as %s. Fix: declare "
                "dtype: %s (or drop 'dtype'), or re-export the weights",
                what, rlx_dtype_name(dtype), b->weights->path,
                rlx_dtype_name(t->dtype), rlx_dtype_name(t->dtype));
        if (given && (rank != t->rank ||
                      memcmp(dims, t->shape, rank * sizeof *dims) != 0))
            return rlx__model_error(
                RLX_ERR_SHAPE, b->path, rlx__ynode_get(e, "shape"),
                "%s is declared with shape %s, but %s stores it with shape "
                "%s. Fix: declare shape: %s (or drop 'shape'), or re-export "
                "the weights", what,
                rlx__shape_str(sa, sizeof sa, rank, dims), b->weights->path,
                rlx__shape_str(sb, sizeof sb, t->rank, t->shape),
                rlx__shape_str(sb, sizeof sb, t->rank, t->shape));
        st = rlx_graph_param(b->g, name, t->dtype, t->rank, t->shape, &v);
        if (st != RLX_OK)
            return graph_error(b, st, e, "param", name);
        if ((st = remember(b, v)) != RLX_OK)
            return st;
    }
    return RLX_OK;
}

static rlx_status build_constants(build *b, const rlx__ynode *list)
{
    static const char *const keys[] = { "name", "dtype", "shape", "value",
                                         NULL };
    for (uint32_t i = 0; list && i < list->n; i++) {
        const rlx__ynode *e = list->items[i];
        const char *name;
        char what[300];
        rlx_dtype dtype;
        uint32_t rank;
        int64_t dims[RLX_MAX_RANK];
        int given;
        rlx_value v;
        void *data;
        rlx_status st = tensor_entry(b, e, "constants", "constant", keys, 1,
                                     &name, what, sizeof what, &dtype,
                                     &rank, dims, &given);
        if (st != RLX_OK)
            return st;
        const rlx__ynode *value = rlx__ynode_get(e, "value");
        if (!value)
            return rlx__model_error(RLX_ERR_INVALID_ARGUMENT, b->path, e,
                                    "%s has no 'value'. Fix: add value: "
                                    "a number or a list of numbers", what);
        st = rlx__constant_values(b->path, name, dtype, rank, dims, value,
                                  &data);
        if (st != RLX_OK)
            return st;
        st = rlx_graph_constant(b->g, name, dtype, rank, dims, data, &v);
        free(data);
        if (st != RLX_OK)
            return graph_error(b, st, e, "constant", name);
        if ((st = remember(b, v)) != RLX_OK)
            return st;
    }
    return RLX_OK;
}

static rlx_status unknown_op(const build *b, const rlx__ynode *at,
                             const char *node, const char *op)
{
    char list[600];
    size_t used = 0;
    list[0] = '\0';
    for (int v = 1; v < 256 && used < sizeof list; v++) {
        rlx_op o = (rlx_op)v;
        if (!rlx__op_is_known(o) || rlx__op_arity(o) == 0)
            continue;
        int n = snprintf(list + used, sizeof list - used, "%s%s",
                         used ? ", " : "", rlx_op_name(o));
        used += n > 0 ? (size_t)n : 0;
    }
    int source = rlx_op_from_name(op, &(rlx_op){ RLX_OP_INVALID }) == RLX_OK;
    if (source)
        return rlx__model_error(RLX_ERR_INVALID_ARGUMENT, b->path, at,
                                "node '%s': op '%s' is a source, not a "
                                "node. Fix: declare it under inputs, params "
                                "or constants", node, op);
    return rlx__model_error(RLX_ERR_UNSUPPORTED, b->path, at,
                            "node '%s': unknown op '%.40s'. Fix: use one of "
                            "%s, or custom (docs/custom-ops.md)", node, op,
                            list);
}

static rlx_status build_node(build *b, const rlx__ynode *e)
{
    static const char *const keys[] = { "name", "op", "inputs", "attrs",
                                        NULL };
    const char *name, *op_name;
    const rlx__ynode *op_at;
    char what[300];
    rlx_status st = entry_map(b, e, "nodes");
    if (st == RLX_OK)
        st = get_string(b, e, "name", "node", 1, &name, NULL);
    if (st != RLX_OK)
        return st;
    snprintf(what, sizeof what, "node '%s'", name);
    const rlx__ynode *custom = rlx__ynode_get(e, "op");
    if (custom && custom->kind == RLX__Y_SCALAR &&
        strcmp(custom->text, "custom") == 0) {
        rlx_value v;
        st = rlx__model_custom(b->path, b->g, e, name, lookup, &b->names,
                               &v);
        return st != RLX_OK ? st : remember(b, v);
    }
    if ((st = check_keys(b, e, what, keys)) != RLX_OK)
        return st;
    st = get_string(b, e, "op", what, 1, &op_name, &op_at);
    if (st != RLX_OK)
        return st;
    rlx_op op;
    if (rlx_op_from_name(op_name, &op) != RLX_OK ||
        (rlx__op_arity(op) == 0 && op != RLX_OP_FILL &&
         op != RLX_OP_RANGE))
        return unknown_op(b, op_at, name, op_name);

    const rlx__ynode *ins = rlx__ynode_get(e, "inputs");
    if (ins && rlx__ynode_is_null(ins))
        ins = NULL;
    if (ins && ins->kind != RLX__Y_SEQ)
        return rlx__model_error(RLX_ERR_INVALID_ARGUMENT, b->path, ins,
                                "%s: 'inputs' must be a list of names, got "
                                "%s. Fix: write inputs: [a, b]", what,
                                rlx__ykind_name(ins->kind));
    uint32_t n_in = ins ? ins->n : 0;
    rlx_value *vals = malloc((n_in ? n_in : 1) * sizeof *vals);
    if (!vals)
        return OOM();
    for (uint32_t i = 0; i < n_in; i++) {
        const rlx__ynode *in = ins->items[i];
        if (in->kind != RLX__Y_SCALAR) {
            free(vals);
            return rlx__model_error(RLX_ERR_INVALID_ARGUMENT, b->path, in,
                                    "%s: input %u must be a name, got %s. "
                                    "Fix: write inputs: [a, b]", what, i,
                                    rlx__ykind_name(in->kind));
        }
        vals[i] = names_find(&b->names, in->text);
        if (vals[i] == RLX_VALUE_NONE) {
            free(vals);
            return rlx__model_error(
                RLX_ERR_NOT_FOUND, b->path, in,
                "%s: input '%.60s' is not defined. Fix: declare it under "
                "inputs, params or constants, or as a node earlier in "
                "'nodes' (nodes are read in order)", what, in->text);
        }
    }
    rlx__node_attrs a;
    st = rlx__attrs_convert(b->path, name, op, e, rlx__ynode_get(e, "attrs"),
                            &a);
    if (st != RLX_OK) {
        free(vals);
        return st;
    }
    rlx_attrs attrs = { .n_ints = a.n_ints, .ints = a.ints,
                        .n_floats = a.n_floats, .floats = a.floats };
    rlx_value v;
    st = rlx_graph_add_node(b->g, name, op, n_in, vals, &attrs, &v);
    free(vals);
    rlx__node_attrs_free(&a);
    if (st != RLX_OK)
        return graph_error(b, st, e, "node", name);
    return remember(b, v);
}

static rlx_status build_outputs(build *b, const rlx__ynode *list)
{
    static const char *const keys[] = { "name", "value", NULL };
    for (uint32_t i = 0; i < list->n; i++) {
        const rlx__ynode *e = list->items[i];
        const rlx__ynode *at = e;
        const char *name, *value;
        rlx_status st = RLX_OK;
        if (e->kind == RLX__Y_SCALAR && e->text[0]) {
            name = value = e->text;
        } else if (e->kind == RLX__Y_MAP) {
            st = check_keys(b, e, "output", keys);
            if (st == RLX_OK)
                st = get_string(b, e, "value", "output", 1, &value, &at);
            if (st == RLX_OK)
                st = get_string(b, e, "name", "output", 0, &name, NULL);
            if (st != RLX_OK)
                return st;
            if (!name)
                name = value;
        } else {
            return rlx__model_error(RLX_ERR_INVALID_ARGUMENT, b->path, e,
                                    "an entry of 'outputs' must be a name "
                                    "or {name: ..., value: ...}, got %s. "
                                    "Fix: write - NODE", 
                                    rlx__ykind_name(e->kind));
        }
        rlx_value v = names_find(&b->names, value);
        if (v == RLX_VALUE_NONE)
            return rlx__model_error(RLX_ERR_NOT_FOUND, b->path, at,
                                    "output '%s': value '%.60s' is not "
                                    "defined. Fix: name an input, param, "
                                    "constant or node", name, value);
        st = rlx_graph_output(b->g, name, v);
        if (st != RLX_OK)
            return graph_error(b, st, e, "output", name);
    }
    return RLX_OK;
}

/* ---- top level -------------------------------------------------------- */

static rlx_status check_version(const build *b, const rlx__ynode *root)
{
    const rlx__ynode *v = rlx__ynode_get(root, "rlx_model");
    if (!v)
        return rlx__model_error(RLX_ERR_FORMAT, b->path, root,
                                "missing the key 'rlx_model' (the format "
                                "version). Fix: start the file with "
                                "'rlx_model: 1'");
    if (v->kind != RLX__Y_SCALAR || v->quoted || strcmp(v->text, "1") != 0)
        return rlx__model_error(RLX_ERR_UNSUPPORTED, b->path, v,
                                "model format version '%.20s' is not "
                                "supported; this rlx reads version 1. Fix: "
                                "write 'rlx_model: 1' (a newer file needs a "
                                "newer rlx)", v->kind == RLX__Y_SCALAR
                                                  ? v->text
                                                  : rlx__ykind_name(v->kind));
    return RLX_OK;
}

/* The weights path: relative to the directory of the model file. */
static char *weights_path(const char *model_path, const char *w)
{
    const char *slash = strrchr(model_path, '/');
    if (w[0] == '/' || !slash)
        return rlx__strdup(w);
    return rlx__printf_alloc("%.*s/%s", (int)(slash - model_path + 0),
                             model_path, w);
}

static rlx_status open_weights(build *b, const rlx__ynode *root)
{
    const char *w;
    const rlx__ynode *at;
    rlx_status st = get_string(b, root, "weights", "the model", 0, &w, &at);
    if (st != RLX_OK || !w)
        return st;
    char *path = weights_path(b->path, w);
    if (!path)
        return OOM();
    st = rlx__safetensors_open(path, &b->weights);
    free(path);
    if (st != RLX_OK) {
        char core[RLX_MSG_MAX];
        snprintf(core, sizeof core, "%s", rlx_last_error());
        return rlx__model_error(st, b->path, at, "weights: %s", core);
    }
    return RLX_OK;
}

static char *default_name(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *dot = strrchr(base, '.');
    size_t n = dot && dot != base ? (size_t)(dot - base) : strlen(base);
    return rlx__printf_alloc("%.*s", (int)n, base);
}

static rlx_status build_all(build *b, const rlx__ynode *root, char **name)
{
    static const char *const keys[] = { "rlx_model", "name", "weights",
                                        "inputs", "params", "constants",
                                        "nodes", "outputs", NULL };
    if (root->kind != RLX__Y_MAP)
        return rlx__model_error(RLX_ERR_FORMAT, b->path, root,
                                "the model must be a mapping of keys, got "
                                "%s. Fix: see docs/model-format.md",
                                rlx__ykind_name(root->kind));
    rlx_status st = check_version(b, root);
    if (st == RLX_OK)
        st = check_keys(b, root, "the model", keys);
    if (st != RLX_OK)
        return st;
    const rlx__ynode *inputs, *params, *constants, *nodes, *outputs;
    if ((st = get_list(b, root, "inputs", &inputs)) != RLX_OK ||
        (st = get_list(b, root, "params", &params)) != RLX_OK ||
        (st = get_list(b, root, "constants", &constants)) != RLX_OK ||
        (st = get_list(b, root, "nodes", &nodes)) != RLX_OK ||
        (st = get_list(b, root, "outputs", &outputs)) != RLX_OK)
        return st;
    if (!outputs || outputs->n == 0)
        return rlx__model_error(RLX_ERR_FORMAT, b->path,
                                rlx__ynode_get(root, "outputs")
                                    ? rlx__ynode_get(root, "outputs")
                                    : root,
                                "the model has no outputs (the key "
                                "'outputs' is missing or empty). Fix: add "
                                "outputs: [NODE, ...]");
    const char *s;
    if ((st = get_string(b, root, "name", "the model", 0, &s, NULL)) !=
        RLX_OK)
        return st;
    *name = s ? rlx__strdup(s) : default_name(b->path);
    if (!*name)
        return OOM();
    if ((st = open_weights(b, root)) != RLX_OK)
        return st;
    if ((st = rlx_graph_create(&b->g)) != RLX_OK)
        return st;
    b->names.g = b->g;
    if ((st = build_inputs(b, inputs)) != RLX_OK ||
        (st = build_params(b, params)) != RLX_OK ||
        (st = build_constants(b, constants)) != RLX_OK)
        return st;
    for (uint32_t i = 0; nodes && i < nodes->n; i++)
        if ((st = build_node(b, nodes->items[i])) != RLX_OK)
            return st;
    return build_outputs(b, outputs);
}

rlx_status rlx__model_build(const char *path, const rlx__ynode *root,
                            rlx__model_parts *parts)
{
    build b = { .path = path };
    char *name = NULL;
    memset(parts, 0, sizeof *parts);
    rlx_status st = build_all(&b, root, &name);
    rlx__hash_free(&b.names.index);
    if (st != RLX_OK) {
        free(name);
        rlx_graph_destroy(b.g);
        rlx__safetensors_close(b.weights);
        return st;
    }
    parts->name = name;
    parts->graph = b.g;
    parts->weights = b.weights;
    return RLX_OK;
}
