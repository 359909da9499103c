/*
 * custom_allow.c - which custom-op libraries the application allowed.
 * A model file is data: it may name a library, but that library is
 * opened only when the application (or the user, with `rlx ...
 * --allow-custom-ops`) allowed it here, by its file, its directory or
 * its exact soname, for a whole runtime or for one session
 * (docs/security.md). Also the registry of kernels the application gave
 * for custom ONNX domains, which importers ask before accepting a node.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ffi.h"

void rlx__allow_free(rlx__allow *a)
{
    if (!a)
        return;
    for (uint32_t i = 0; i < a->n; i++)
        free(a->items[i].path);
    free(a->items);
    free(a);
}

static int push(rlx__allow *a, rlx__allow_kind kind, const char *path)
{
    for (uint32_t i = 0; i < a->n; i++)
        if (a->items[i].kind == kind && strcmp(a->items[i].path, path) == 0)
            return 0; /* allowed already */
    rlx__allow_item *grown = realloc(a->items, (a->n + 1) * sizeof *grown);
    if (!grown)
        return -1;
    a->items = grown;
    char *copy = rlx__strdup(path);
    if (!copy)
        return -1;
    a->items[a->n++] = (rlx__allow_item){ kind, copy };
    return 0;
}

/* Add PATH to *LIST (created on first use). WHO names the call. */
rlx_status rlx__allow_add(rlx__allow **list, const char *path,
                          const char *who)
{
    if (!path || !*path)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "%s: the path is empty. Fix: name a custom-op "
                          "library file, its directory, or a bare soname "
                          "such as libm.so.6", who);
    struct stat st;
    rlx__allow_kind kind;
    char *real = NULL;
    if (stat(path, &st) == 0) {
        if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
            return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                              "%s: '%.200s' is neither a file nor a "
                              "directory. Fix: name a custom-op library "
                              "file or the directory that holds it", who,
                              path);
        real = realpath(path, NULL);
        if (!real)
            return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                              "%s: cannot resolve '%.200s'. Fix: name an "
                              "existing library file or directory", who,
                              path);
        kind = S_ISDIR(st.st_mode) ? RLX__ALLOW_DIR : RLX__ALLOW_FILE;
    } else if (!strchr(path, '/') && strcmp(path, ".") != 0 &&
               strcmp(path, "..") != 0) {
        kind = RLX__ALLOW_SONAME; /* loaded by the system loader's rules */
    } else {
        return rlx__error(RLX_ERR_NOT_FOUND,
                          "%s: '%.200s' does not exist. Fix: name an "
                          "existing library file or directory (or a bare "
                          "soname, without '/')", who, path);
    }
    if (!*list && !(*list = calloc(1, sizeof **list))) {
        free(real);
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    }
    int bad = push(*list, kind, real ? real : path);
    free(real);
    return bad ? rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory")
               : RLX_OK;
}

rlx_status rlx_runtime_allow_custom_ops(rlx_runtime *rt, const char *path)
{
    if (!rt)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "rlx_runtime_allow_custom_ops: RT is NULL. Fix: "
                          "pass a runtime from rlx_runtime_create");
    pthread_mutex_lock(&rt->lock);
    rt->custom_free = rlx__custom_registry_free;
    rlx_status st = rlx__allow_add(&rt->custom_allow, path,
                                   "rlx_runtime_allow_custom_ops");
    pthread_mutex_unlock(&rt->lock);
    return st;
}

static int copy_into(rlx__allow *out, const rlx__allow *from)
{
    for (uint32_t i = 0; from && i < from->n; i++)
        if (push(out, from->items[i].kind, from->items[i].path) != 0)
            return -1;
    return 0;
}

rlx_status rlx__allow_snapshot(const rlx__allow *own, rlx_runtime *rt,
                               rlx__allow **out)
{
    *out = calloc(1, sizeof **out);
    if (!*out)
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    int bad = 0;
    bad = copy_into(*out, own);
    if (rt) {
        pthread_mutex_lock(&rt->lock);
        bad |= copy_into(*out, rt->custom_allow);
        for (uint32_t i = 0; !bad && i < rt->n_custom_ops; i++) {
            const rlx__custom *c = rt->custom_ops[i].spec;
            /* a registered kernel's library is allowed by its exact name */
            if (c->library)
                bad = push(*out, strchr(c->library, '/')
                                     ? RLX__ALLOW_FILE : RLX__ALLOW_SONAME,
                           c->library);
        }
        pthread_mutex_unlock(&rt->lock);
    }
    if (bad) {
        rlx__allow_free(*out);
        *out = NULL;
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    }
    return RLX_OK;
}

/* ---- kernels for custom ONNX domains ------------------------------------ */

rlx_status rlx_runtime_register_custom_op(rlx_runtime *rt, const char *domain,
                                          const char *op_type,
                                          const rlx_custom_op *op)
{
    if (!rt || !domain || !*domain || !op_type || !*op_type || !op)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "rlx_runtime_register_custom_op: RT, DOMAIN, "
                          "OP_TYPE or OP is NULL or empty. Fix: name the "
                          "domain (\"com.example\") and the op type");
    if (op->struct_size < sizeof *op)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "rlx_runtime_register_custom_op: OP->struct_size "
                          "is %u, expected %zu. Fix: set struct_size = "
                          "sizeof(rlx_custom_op)", op->struct_size,
                          sizeof *op);
    if ((!op->library) == (!op->fn) ||
        (op->library && (!*op->library || !op->symbol || !*op->symbol)))
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "rlx_runtime_register_custom_op: %s/%s needs "
                          "either a library and a symbol, or a function "
                          "pointer. Fix: set exactly one of LIBRARY (with "
                          "SYMBOL) and FN", domain, op_type);
    char err[RLX_MSG_MAX - 200];
    rlx__sig sig;
    if (!op->signature || !rlx__sig_parse(op->signature, &sig, err,
                                          sizeof err))
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "rlx_runtime_register_custom_op: %s/%s: %s", domain,
                          op_type, op->signature ? err
                                                 : "no signature. Fix: give "
                                                   "the C signature");
    if (op->n_args != sig.n || (op->n_args && !op->args))
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "rlx_runtime_register_custom_op: %s/%s: signature "
                          "\"%s\" takes %u arguments but N_ARGS is %u%s. "
                          "Fix: give one argument per parameter", domain,
                          op_type, op->signature, sig.n, op->n_args,
                          op->n_args && !op->args ? " and ARGS is NULL" : "");
    rlx__custom *spec = rlx__custom_from_op(op, &sig);
    char *d = rlx__strdup(domain), *t = rlx__strdup(op_type);
    pthread_mutex_lock(&rt->lock);
    rlx__custom_reg *grown = spec && d && t
                                 ? realloc(rt->custom_ops,
                                           (rt->n_custom_ops + 1) *
                                               sizeof *grown)
                                 : NULL;
    if (grown) {
        rt->custom_ops = grown;
        rt->custom_free = rlx__custom_registry_free;
        grown[rt->n_custom_ops++] = (rlx__custom_reg){ d, t, spec };
    }
    pthread_mutex_unlock(&rt->lock);
    if (!grown) {
        rlx__custom_free(spec);
        free(d);
        free(t);
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    }
    return RLX_OK;
}

/* Whether the application registered a kernel for op OP_TYPE of custom
 * domain DOMAIN (rlx_runtime_register_custom_op). Importers of formats
 * with custom domains (ONNX) call this for every node outside the
 * domains they lower themselves, and refuse the model by the domain's
 * and op's name when it returns NULL: a model never brings its own code.
 * The spec (library and symbol, or function pointer; signature and
 * arguments) lives as long as RT; a library named in it is allowed by
 * its exact name for RT's sessions. RT NULL: nothing is registered. */
const rlx__custom *rlx__custom_registered(rlx_runtime *rt, const char *domain,
                                          const char *op_type)
{
    const rlx__custom *found = NULL;
    if (!rt || !domain || !op_type)
        return NULL;
    pthread_mutex_lock(&rt->lock);
    for (uint32_t i = 0; !found && i < rt->n_custom_ops; i++)
        if (strcmp(rt->custom_ops[i].domain, domain) == 0 &&
            strcmp(rt->custom_ops[i].op_type, op_type) == 0)
            found = rt->custom_ops[i].spec;
    pthread_mutex_unlock(&rt->lock);
    return found;
}

void rlx__custom_registry_free(rlx_runtime *rt)
{
    for (uint32_t i = 0; i < rt->n_custom_ops; i++) {
        free(rt->custom_ops[i].domain);
        free(rt->custom_ops[i].op_type);
        rlx__custom_free(rt->custom_ops[i].spec);
    }
    free(rt->custom_ops);
    rlx__allow_free(rt->custom_allow);
}
