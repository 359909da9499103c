/*
 * model_custom.c - `op: custom` nodes in model files: the YAML form of
 * rlx_graph_add_custom (docs/custom-ops.md). Arguments are written as in
 * a C call: tensor names, `$numel(x)`, `$dim(x, i)`, integer and float
 * literals; the node's own name (or `$out`) is its output. Loading never
 * opens the library: that happens at compile time, and only for a library
 * the application allowed (docs/security.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

#define MAX_INPUTS RLX__SIG_MAX_ARGS

typedef struct cbuild {
    const char *path;
    rlx_graph *g;
    const char *name;
    rlx__model_lookup lookup;
    void *ctx;
    const rlx__ynode *explicit_inputs; /* the `inputs` list, or NULL */
    rlx_value inputs[MAX_INPUTS];
    uint32_t n_inputs;
} cbuild;

/* The input index of tensor NAME (at AT), adding it when the node lists
 * no inputs of its own. */
static rlx_status input_index(cbuild *c, const rlx__ynode *at,
                              const char *name, uint32_t *index)
{
    if (strcmp(name, c->name) == 0 || strcmp(name, "$out") == 0) {
        *index = RLX_CUSTOM_OUTPUT;
        return RLX_OK;
    }
    for (uint32_t i = 0; i < c->n_inputs; i++)
        if (strcmp(c->g->nodes[c->inputs[i]].name, name) == 0) {
            *index = i;
            return RLX_OK;
        }
    if (c->explicit_inputs)
        return rlx__model_error(RLX_ERR_NOT_FOUND, c->path, at,
                                "custom node '%s': '%.60s' is not one of "
                                "the node's inputs. Fix: add it to "
                                "'inputs', or leave 'inputs' out to take "
                                "every tensor the args name", c->name, name);
    rlx_value v = c->lookup(c->ctx, name);
    if (v == RLX_VALUE_NONE)
        return rlx__model_error(RLX_ERR_NOT_FOUND, c->path, at,
                                "custom node '%s': '%.60s' is not defined. "
                                "Fix: declare it under inputs, params or "
                                "constants, or as a node earlier in "
                                "'nodes'", c->name, name);
    if (c->n_inputs == MAX_INPUTS)
        return rlx__model_error(RLX_ERR_INVALID_ARGUMENT, c->path, at,
                                "custom node '%s': more than %d inputs. "
                                "Fix: use fewer tensors", c->name,
                                MAX_INPUTS);
    c->inputs[c->n_inputs] = v;
    *index = c->n_inputs++;
    return RLX_OK;
}

static rlx_status read_inputs(cbuild *c, const rlx__ynode *ins)
{
    if (!ins || rlx__ynode_is_null(ins))
        return RLX_OK;
    if (ins->kind != RLX__Y_SEQ || ins->n > MAX_INPUTS)
        return rlx__model_error(RLX_ERR_INVALID_ARGUMENT, c->path, ins,
                                "custom node '%s': 'inputs' must be a list "
                                "of at most %d names. Fix: write inputs: "
                                "[a, b]", c->name, MAX_INPUTS);
    for (uint32_t i = 0; i < ins->n; i++) {
        const rlx__ynode *in = ins->items[i];
        uint32_t index;
        if (in->kind != RLX__Y_SCALAR || !in->text[0])
            return rlx__model_error(RLX_ERR_INVALID_ARGUMENT, c->path, in,
                                    "custom node '%s': input %u must be a "
                                    "name. Fix: write inputs: [a, b]",
                                    c->name, i);
        rlx_status st = input_index(c, in, in->text, &index);
        if (st != RLX_OK)
            return st;
    }
    c->explicit_inputs = ins;
    return RLX_OK;
}

/* "$numel(x)" / "$dim(x, i)" at AT into A. */
static rlx_status read_size(cbuild *c, const rlx__ynode *at, const char *s,
                            rlx_custom_arg *a)
{
    int dim = strncmp(s, "$dim(", 5) == 0;
    const char *open = strchr(s, '(');
    size_t len = strlen(s);
    char name[256];
    if ((!dim && strncmp(s, "$numel(", 7) != 0) || !open ||
        s[len - 1] != ')')
        return rlx__model_error(RLX_ERR_INVALID_ARGUMENT, c->path, at,
                                "custom node '%s': unknown argument '%.60s'. "
                                "Fix: use $numel(TENSOR), $dim(TENSOR, AXIS) "
                                "or $out", c->name, s);
    const char *body = open + 1;
    size_t n = (size_t)(s + len - 1 - body);
    const char *comma = memchr(body, ',', n);
    size_t name_len = dim && comma ? (size_t)(comma - body) : n;
    while (name_len && body[name_len - 1] == ' ')
        name_len--;
    while (name_len && *body == ' ')
        body++, name_len--;
    if (!name_len || name_len >= sizeof name || (dim && !comma) ||
        (!dim && comma))
        return rlx__model_error(RLX_ERR_INVALID_ARGUMENT, c->path, at,
                                "custom node '%s': malformed '%.60s'. Fix: "
                                "write $numel(TENSOR) or \"$dim(TENSOR, "
                                "AXIS)\" (quoted inside [...], where a comma "
                                "separates items)", c->name, s);
    memcpy(name, body, name_len);
    name[name_len] = '\0';
    a->kind = dim ? RLX_CUSTOM_ARG_DIM : RLX_CUSTOM_ARG_NUMEL;
    if (dim) {
        char *end;
        long axis = strtol(comma + 1, &end, 10);
        while (*end == ' ')
            end++;
        if (end == comma + 1 || *end != ')' || axis < -RLX_MAX_RANK ||
            axis >= RLX_MAX_RANK)
            return rlx__model_error(RLX_ERR_INVALID_ARGUMENT, c->path, at,
                                    "custom node '%s': '%.60s' needs an "
                                    "integer axis in [-%d, %d). Fix: write "
                                    "\"$dim(TENSOR, AXIS)\"", c->name, s,
                                    RLX_MAX_RANK, RLX_MAX_RANK);
        a->axis = (int32_t)axis;
    }
    return input_index(c, at, name, &a->index);
}

static rlx_status read_arg(cbuild *c, const rlx__ynode *at, uint32_t i,
                           rlx_custom_arg *a)
{
    char what[300];
    memset(a, 0, sizeof *a);
    if (at->kind != RLX__Y_SCALAR || !at->text[0])
        return rlx__model_error(RLX_ERR_INVALID_ARGUMENT, c->path, at,
                                "custom node '%s': argument %u must be a "
                                "tensor name, $numel(...), $dim(...) or a "
                                "number, got %s. Fix: see docs/custom-ops.md",
                                c->name, i + 1, rlx__ykind_name(at->kind));
    const char *s = at->text;
    snprintf(what, sizeof what, "custom node '%s': argument %u", c->name,
             i + 1);
    if (!at->quoted && strchr("0123456789+-.", s[0])) {
        const char *d = s + (*s == '-' || *s == '+');
        int digits = *d != '\0';
        for (const char *p = d; *p; p++)
            digits &= *p >= '0' && *p <= '9';
        if (digits) {
            a->kind = RLX_CUSTOM_ARG_INT;
            return rlx__yaml_int(c->path, at, what, &a->i);
        }
        a->kind = RLX_CUSTOM_ARG_FLOAT;
        return rlx__yaml_float(c->path, at, what, &a->f);
    }
    if (s[0] == '$' && strcmp(s, "$out") != 0)
        return read_size(c, at, s, a);
    a->kind = RLX_CUSTOM_ARG_TENSOR;
    return input_index(c, at, s, &a->index);
}

/* A string key (required or not). */
static rlx_status str_key(const cbuild *c, const rlx__ynode *e,
                          const char *key, int required, const char **out,
                          const rlx__ynode **at)
{
    const rlx__ynode *v = rlx__ynode_get(e, key);
    *out = NULL;
    *at = v ? v : e;
    if (!v || rlx__ynode_is_null(v)) {
        if (!required)
            return RLX_OK;
        return rlx__model_error(RLX_ERR_INVALID_ARGUMENT, c->path, *at,
                                "custom node '%s' has no '%s'. Fix: add "
                                "%s: ... (see docs/custom-ops.md)", c->name,
                                key, key);
    }
    if (v->kind != RLX__Y_SCALAR || !v->text[0])
        return rlx__model_error(RLX_ERR_INVALID_ARGUMENT, c->path, v,
                                "custom node '%s': '%s' must be a string, "
                                "got %s. Fix: write %s: TEXT", c->name, key,
                                rlx__ykind_name(v->kind), key);
    *out = v->text;
    return RLX_OK;
}

static rlx_status read_output(const cbuild *c, const rlx__ynode *e,
                              int32_t like, rlx_dtype *dtype,
                              uint32_t *rank, int64_t *dims)
{
    const char *dt;
    const rlx__ynode *at;
    *dtype = RLX_DTYPE_INVALID;
    *rank = 0;
    if (like >= 0) { /* defaults: that input's */
        const rlx__node *in = &c->g->nodes[c->inputs[like]];
        *dtype = in->dtype;
        *rank = in->rank;
        memcpy(dims, in->shape, in->rank * sizeof *dims);
    }
    rlx_status st = str_key(c, e, "dtype", like < 0, &dt, &at);
    if (st != RLX_OK)
        return st;
    if (dt && rlx_dtype_from_name(dt, dtype) != RLX_OK)
        return rlx__model_error(RLX_ERR_DTYPE, c->path, at,
                                "custom node '%s': unknown dtype '%.40s'. "
                                "Fix: use one of f32, f16, bf16, f64, i32, "
                                "i64, i8, u8, bool", c->name, dt);
    const rlx__ynode *sh = rlx__ynode_get(e, "shape");
    if (!sh || rlx__ynode_is_null(sh)) {
        if (like >= 0)
            return RLX_OK;
        return rlx__model_error(RLX_ERR_INVALID_ARGUMENT, c->path, e,
                                "custom node '%s' has no 'shape' for its "
                                "output. Fix: add shape: [d0, ...] (or "
                                "init: INPUT to take that input's)", c->name);
    }
    if (sh->kind != RLX__Y_SEQ || sh->n > RLX_MAX_RANK)
        return rlx__model_error(RLX_ERR_SHAPE, c->path, sh,
                                "custom node '%s': 'shape' must be a list of "
                                "at most %d sizes. Fix: write shape: [d0, "
                                "d1, ...]", c->name, RLX_MAX_RANK);
    char what[300];
    snprintf(what, sizeof what, "custom node '%s': a dimension", c->name);
    for (uint32_t i = 0; i < sh->n; i++) {
        st = rlx__yaml_int(c->path, sh->items[i], what, &dims[i]);
        if (st != RLX_OK)
            return st;
    }
    *rank = sh->n;
    return RLX_OK;
}

static char *model_dir(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return rlx__strdup(".");
    if (slash == path)
        return rlx__strdup("/");
    return rlx__printf_alloc("%.*s", (int)(slash - path), path);
}

/* Located copy of the core's message. */
static rlx_status relocate(const cbuild *c, rlx_status st,
                           const rlx__ynode *at)
{
    char core[RLX_MSG_MAX];
    snprintf(core, sizeof core, "%s", rlx_last_error());
    return rlx__model_error(st, c->path, at, "%s", core);
}

static rlx_status build(cbuild *c, const rlx__ynode *e, rlx_custom_arg *args,
                        char *base_dir, rlx_value *out)
{
    static const char *const keys[] = { "name", "op", "library", "symbol",
                                        "signature", "inputs", "args",
                                        "init", "elementwise", "dtype",
                                        "shape", NULL };
    for (uint32_t i = 0; i < e->n; i++) {
        const rlx__ynode *key = e->items[2 * i];
        int ok = 0;
        for (const char *const *k = keys; *k && !ok; k++)
            ok = strcmp(*k, key->text) == 0;
        if (!ok)
            return rlx__model_error(RLX_ERR_INVALID_ARGUMENT, c->path, key,
                                    "custom node '%s': unknown key '%.60s'. "
                                    "Fix: use name, op, library, symbol, "
                                    "signature, inputs, args, init, "
                                    "elementwise, dtype, shape", c->name,
                                    key->text);
    }
    const char *library, *symbol, *signature, *init;
    const rlx__ynode *lib_at, *sym_at, *sig_at, *init_at;
    rlx_status st;
    if ((st = str_key(c, e, "library", 1, &library, &lib_at)) ||
        (st = str_key(c, e, "symbol", 1, &symbol, &sym_at)) ||
        (st = str_key(c, e, "signature", 1, &signature, &sig_at)) ||
        (st = str_key(c, e, "init", 0, &init, &init_at)))
        return st;
    if ((st = read_inputs(c, rlx__ynode_get(e, "inputs"))) != RLX_OK)
        return st;
    const rlx__ynode *al = rlx__ynode_get(e, "args");
    if (al && rlx__ynode_is_null(al))
        al = NULL;
    if (al && (al->kind != RLX__Y_SEQ || al->n > RLX__SIG_MAX_ARGS))
        return rlx__model_error(RLX_ERR_INVALID_ARGUMENT, c->path, al,
                                "custom node '%s': 'args' must be a list of "
                                "at most %d arguments. Fix: write args: "
                                "[x, $numel(x), 1.0]", c->name,
                                RLX__SIG_MAX_ARGS);
    uint32_t n_args = al ? al->n : 0;
    for (uint32_t i = 0; i < n_args; i++)
        if ((st = read_arg(c, al->items[i], i, &args[i])) != RLX_OK)
            return st;
    int32_t init_input = -1;
    if (init) {
        uint32_t index;
        if ((st = input_index(c, init_at, init, &index)) != RLX_OK)
            return st;
        if (index == RLX_CUSTOM_OUTPUT)
            return rlx__model_error(RLX_ERR_INVALID_ARGUMENT, c->path,
                                    init_at, "custom node '%s': 'init' "
                                    "names the node itself. Fix: name the "
                                    "input the output starts as", c->name);
        init_input = (int32_t)index;
    }
    int each = 0;
    const rlx__ynode *ew = rlx__ynode_get(e, "elementwise");
    if (ew && (st = rlx__yaml_bool(c->path, ew, "elementwise", &each)))
        return st;
    rlx_dtype dtype;
    uint32_t rank;
    int64_t dims[RLX_MAX_RANK];
    /* the output's dtype and shape default to the in-place input's, or
     * for an elementwise kernel to its first input's */
    int32_t like = init_input >= 0 ? init_input
                   : each && c->n_inputs ? 0 : -1;
    if ((st = read_output(c, e, like, &dtype, &rank, dims)) != RLX_OK)
        return st;
    rlx_custom_op op = {
        .struct_size = sizeof op,
        .library = library,
        .symbol = symbol,
        .signature = signature,
        .n_args = n_args,
        .args = args,
        .dtype = dtype,
        .rank = rank,
        .dims = dims,
        .init_input = init_input,
        .base_dir = base_dir,
        .flags = each ? RLX_CUSTOM_ELEMENTWISE : 0,
    };
    st = rlx_graph_add_custom(c->g, c->name, c->n_inputs, c->inputs, &op,
                              out);
    if (st != RLX_OK) {
        /* point at the part at fault where the message says which */
        const char *msg = rlx_last_error();
        const rlx__ynode *at = strstr(msg, "argument") ? (al ? al : e)
                               : strstr(msg, "signature") ? sig_at
                                                          : e;
        return relocate(c, st, at);
    }
    /* the library is not opened here: a model is data, and loading or
     * checking one runs no code. Compile opens it if the application
     * allowed it (ffi_lib.c). */
    return RLX_OK;
}

rlx_status rlx__model_custom(const char *path, rlx_graph *g,
                             const rlx__ynode *e, const char *name,
                             rlx__model_lookup lookup, void *ctx,
                             rlx_value *out)
{
    cbuild c = { .path = path, .g = g, .name = name, .lookup = lookup,
                 .ctx = ctx };
    rlx_custom_arg args[RLX__SIG_MAX_ARGS];
    char *base_dir = model_dir(path);
    if (!base_dir)
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    rlx_status st = build(&c, e, args, base_dir, out);
    free(base_dir);
    return st;
}
