/*
 * options.c - plugin settings: looked up by name ("cuda.matmul") in the
 * options of the session being compiled (ABI 1.4's compile options
 * carry the session, so any thread of a compile sees them), then the
 * environment (RLX_CUDA_MATMUL, read with rlx__env so a
 * set-user-ID program ignores it), then the config file's `options:`
 * map. The names plugins ask for are remembered, so `rlx devices` can
 * show every setting in use with its value and where it came from.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugin.h"

struct rlx__options {
    pthread_mutex_t lock;  /* ASKED grows while plugins run */
    rlx__option *config;   /* from the config file; fixed after creation */
    uint32_t n_config, cap_config;
    rlx__hash config_index; /* name -> index in CONFIG */
    char **asked;          /* names asked for, first-asked order */
    uint32_t n_asked;
};

int rlx__option_name_valid(const char *name)
{
    size_t n = name ? strlen(name) : 0;
    if (n == 0 || n > RLX_MAX_ID)
        return 0;
    for (size_t i = 0; i < n; i++) {
        char c = name[i];
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
              c == '.' || c == '_' || c == '-'))
            return 0;
    }
    return 1;
}

/* "cuda.matmul" -> "RLX_CUDA_MATMUL". */
static void env_name(const char *name, char *out, size_t size)
{
    size_t k = (size_t)snprintf(out, size, "RLX_");
    for (; *name && k + 1 < size; name++)
        out[k++] = *name == '.' || *name == '-'
                       ? '_'
                       : (*name >= 'a' && *name <= 'z' ? *name - 'a' + 'A'
                                                        : *name);
    out[k] = '\0';
}

void rlx__options_create(rlx_runtime *rt)
{
    struct rlx__options *o = calloc(1, sizeof *o);
    if (o && pthread_mutex_init(&o->lock, NULL) != 0) {
        free(o);
        o = NULL;
    }
    rt->options = o; /* NULL: no config options, nothing remembered */
}

void rlx__options_free(rlx_runtime *rt)
{
    struct rlx__options *o = rt->options;
    if (!o)
        return;
    for (uint32_t i = 0; i < o->n_config; i++) {
        free(o->config[i].name);
        free(o->config[i].value);
    }
    for (uint32_t i = 0; i < o->n_asked; i++)
        free(o->asked[i]);
    free(o->config);
    rlx__hash_free(&o->config_index);
    free(o->asked);
    pthread_mutex_destroy(&o->lock);
    free(o);
    rt->options = NULL;
}

int rlx__option_list_set(rlx__option **items, uint32_t *n, const char *name,
                         const char *value)
{
    for (uint32_t i = 0; i < *n; i++)
        if (strcmp((*items)[i].name, name) == 0) {
            if (!value) { /* remove */
                free((*items)[i].name);
                free((*items)[i].value);
                (*items)[i] = (*items)[--*n];
                return 0;
            }
            char *v = rlx__strdup(value);
            if (!v)
                return -1;
            free((*items)[i].value);
            (*items)[i].value = v;
            return 0;
        }
    if (!value)
        return 0;
    rlx__option *grown = realloc(*items, (*n + 1) * sizeof *grown);
    if (!grown)
        return -1;
    *items = grown;
    grown[*n].name = rlx__strdup(name);
    grown[*n].value = rlx__strdup(value);
    if (!grown[*n].name || !grown[*n].value) {
        free(grown[*n].name);
        free(grown[*n].value);
        return -1;
    }
    ++*n;
    return 0;
}

static const char *list_get(const rlx__option *items, uint32_t n,
                            const char *name)
{
    for (uint32_t i = 0; i < n; i++)
        if (strcmp(items[i].name, name) == 0)
            return items[i].value;
    return NULL;
}

/* Hashed and grown by doubling: a config file with 95,000 options took
 * every process that uses librlx minutes to start when each was checked
 * against all earlier ones. */
int rlx__options_config_set(rlx_runtime *rt, const char *name,
                            const char *value)
{
    struct rlx__options *o = rt->options;
    uint32_t at;
    if (!o || !value)
        return -1;
    char *v = rlx__strdup(value);
    if (!v)
        return -1;
    if (rlx__hash_get(&o->config_index, name, &at)) {
        free(o->config[at].value);
        o->config[at].value = v;
        return 0;
    }
    if (o->n_config == o->cap_config) {
        uint32_t cap = o->cap_config ? 2 * o->cap_config : 16;
        rlx__option *grown = cap > o->cap_config
                                 ? realloc(o->config, cap * sizeof *grown)
                                 : NULL;
        if (!grown) {
            free(v);
            return -1;
        }
        o->config = grown;
        o->cap_config = cap;
    }
    char *n = rlx__strdup(name);
    if (!n || rlx__hash_add(&o->config_index, n, o->n_config, NULL) < 0) {
        free(n);
        free(v);
        return -1;
    }
    o->config[o->n_config++] = (rlx__option){ .name = n, .value = v };
    return 0;
}

static void remember(struct rlx__options *o, const char *name)
{
    pthread_mutex_lock(&o->lock);
    uint32_t i = 0;
    while (i < o->n_asked && strcmp(o->asked[i], name) != 0)
        i++;
    if (i == o->n_asked) {
        char **grown = realloc(o->asked, (o->n_asked + 1) * sizeof *grown);
        char *copy = rlx__strdup(name);
        if (grown)
            o->asked = grown;
        if (grown && copy)
            o->asked[o->n_asked++] = copy;
        else
            free(copy); /* best effort: only the listing misses it */
    }
    pthread_mutex_unlock(&o->lock);
}

/* NAME's value and where it came from, or NULL. ENV holds the env name. */
static const char *lookup(rlx_runtime *rt, const rlx__option *own,
                          uint32_t n_own, const char *name,
                          const char **source, char *env, size_t env_size)
{
    const char *v = NULL;
    env_name(name, env, env_size);
    if ((v = list_get(own, n_own, name))) {
        *source = "session";
        return v;
    }
    if ((v = rlx__env(env))) {
        *source = env;
        return v;
    }
    uint32_t at;
    if (rt->options &&
        rlx__hash_get(&rt->options->config_index, name, &at)) {
        v = rt->options->config[at].value;
        *source = rt->config_path ? rt->config_path : "config file";
        return v;
    }
    return NULL;
}

static rlx_status copy_out(const char *v, char *value, size_t value_size)
{
    size_t n = strlen(v) + 1;
    if (!value || n > value_size)
        return RLX_ERR_INVALID_ARGUMENT;
    memcpy(value, v, n);
    return RLX_OK;
}

rlx_status rlx__host_get_option(const rlx_host *host, const char *name,
                                char *value, size_t value_size)
{
    rlx_runtime *rt = host ? host->host_data : NULL;
    char env[RLX_MAX_ID + 8];
    const char *source;
    if (!rt || !rlx__option_name_valid(name))
        return RLX_ERR_INVALID_ARGUMENT;
    if (rt->options)
        remember(rt->options, name);
    const char *v = lookup(rt, NULL, 0, name, &source, env, sizeof env);
    return v ? copy_out(v, value, value_size) : RLX_ERR_NOT_FOUND;
}

rlx_status rlx__options_get(rlx_runtime *rt, const rlx__option *own,
                           uint32_t n_own, const char *name, char *value,
                           size_t value_size)
{
    char env[RLX_MAX_ID + 8];
    const char *source;
    if (!rt || !rlx__option_name_valid(name))
        return RLX_ERR_INVALID_ARGUMENT;
    if (rt->options)
        remember(rt->options, name);
    const char *v = lookup(rt, own, n_own, name, &source, env, sizeof env);
    return v ? copy_out(v, value, value_size) : RLX_ERR_NOT_FOUND;
}

void rlx__option_list_free(rlx__option **items, uint32_t *n)
{
    for (uint32_t i = 0; i < *n; i++) {
        free((*items)[i].name);
        free((*items)[i].value);
    }
    free(*items);
    *items = NULL;
    *n = 0;
}

uint32_t rlx_runtime_option_count(rlx_runtime *rt)
{
    if (!rt || !rt->options)
        return 0;
    pthread_mutex_lock(&rt->options->lock);
    uint32_t n = rt->options->n_asked;
    pthread_mutex_unlock(&rt->options->lock);
    return n;
}

const char *rlx_runtime_option_name(rlx_runtime *rt, uint32_t i)
{
    const char *name = NULL;
    if (!rt || !rt->options)
        return NULL;
    pthread_mutex_lock(&rt->options->lock);
    if (i < rt->options->n_asked)
        name = rt->options->asked[i]; /* never freed before the runtime */
    pthread_mutex_unlock(&rt->options->lock);
    return name;
}

rlx_status rlx_runtime_get_option(rlx_runtime *rt, const char *name,
                                  char *value, size_t value_size,
                                  char *source, size_t source_size)
{
    char env[RLX_MAX_ID + 8];
    const char *src = "";
    if (!rt || !rlx__option_name_valid(name) || !value || !value_size)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "rlx_runtime_get_option: bad argument. Fix: pass "
                          "a runtime, a setting name such as \"cuda.matmul\" "
                          "and a buffer");
    const char *v = lookup(rt, NULL, 0, name, &src, env, sizeof env);
    if (source && source_size)
        snprintf(source, source_size, "%s", v ? src : env);
    if (!v) {
        value[0] = '\0';
        return RLX_ERR_NOT_FOUND;
    }
    if (copy_out(v, value, value_size) != RLX_OK)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "setting '%s' is longer than %zu bytes. Fix: pass "
                          "a larger buffer", name, value_size);
    return RLX_OK;
}
