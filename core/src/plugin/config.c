/*
 * config.c - the optional config file: backend selection rules that hold
 * for every program of a user or a machine.
 *
 *   backends:
 *     force: {cpu: cpu-ref}          # device: backend id
 *     disable: [cpu-openblas*]       # globs on backend ids
 *   options:                         # plugin settings (get_option)
 *     cuda.matmul: lt                # below RLX_CUDA_MATMUL and a
 *                                    # session's own options
 *
 * Looked for at $RLX_CONFIG (empty: no file), else
 * $XDG_CONFIG_HOME/rlx/config.yaml (~/.config/rlx/config.yaml), else
 * <sysconfdir>/rlx/config.yaml. A broken file is reported as a diagnostic
 * and ignored: configuration must never stop a program from starting.
 * Every process that uses librlx reads it, so it is read like a model
 * file: a regular file only (a FIFO would block), at most CONFIG_MAX_BYTES,
 * nesting capped, in time linear in its size.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "plugin.h"

#ifndef RLX_SYSCONFDIR
#define RLX_SYSCONFDIR "/etc"
#endif
#define CONFIG_MAX_BYTES (1u << 20)

static void complain(rlx_runtime *rt, const char *path, const rlx__ynode *n,
                     const char *what)
{
    char *reason = n ? rlx__printf_alloc("line %u column %u: %s",
                                         (unsigned)n->line,
                                         (unsigned)n->col, what)
                     : rlx__strdup(what);
    rlx__diag_add(rt, RLX_DIAG_REJECTED, path, reason ? reason : what,
                  "fix the config file (docs/selection.md shows its form); "
                  "the rest of it still applies");
    free(reason);
}

static const char *scalar(const rlx__ynode *n)
{
    return n && n->kind == RLX__Y_SCALAR ? n->text : NULL;
}

static void read_force(rlx_runtime *rt, const char *path,
                       const rlx__ynode *map)
{
    if (map->kind != RLX__Y_MAP) {
        complain(rt, path, map, "'force' must map devices to backend ids");
        return;
    }
    for (uint32_t i = 0; i + 1 < map->n_items; i += 2) {
        const rlx__ynode *k = map->items[i], *v = map->items[i + 1];
        if (!scalar(k) || !scalar(v) || !*scalar(v))
            complain(rt, path, v ? v : k, "force entries are device: id");
        else
            rlx__policy_force(&rt->policy, scalar(k), scalar(v), path);
    }
}

static void read_disable(rlx_runtime *rt, const char *path,
                         const rlx__ynode *v)
{
    if (scalar(v)) {
        rlx__policy_disable(&rt->policy, scalar(v), path);
        return;
    }
    if (v->kind != RLX__Y_SEQ) {
        complain(rt, path, v, "'disable' must be a list of globs");
        return;
    }
    for (uint32_t i = 0; i < v->n_items; i++) {
        const rlx__ynode *g = v->items[i];
        if (scalar(g))
            rlx__policy_disable(&rt->policy, scalar(g), path);
        else
            complain(rt, path, g, "each 'disable' entry is a glob string");
    }
}

static void read_options(rlx_runtime *rt, const char *path,
                         const rlx__ynode *map)
{
    if (map->kind != RLX__Y_MAP) {
        complain(rt, path, map, "'options' must map setting names to "
                                "values");
        return;
    }
    for (uint32_t i = 0; i + 1 < map->n_items; i += 2) {
        const rlx__ynode *k = map->items[i], *v = map->items[i + 1];
        if (!scalar(k) || !rlx__option_name_valid(scalar(k)) || !scalar(v))
            complain(rt, path, v && scalar(k) ? v : k,
                     "options entries are name: value, names of a-z, "
                     "0-9, '.', '_', '-' (\"cuda.matmul: lt\")");
        else
            rlx__options_config_set(rt, scalar(k), scalar(v));
    }
}

static void read_root(rlx_runtime *rt, const char *path,
                      const rlx__ynode *root)
{
    if (!root || rlx__ynode_is_null(root))
        return; /* an empty file says nothing */
    if (root->kind != RLX__Y_MAP) {
        complain(rt, path, root, "the top level must be a mapping");
        return;
    }
    for (uint32_t i = 0; i + 1 < root->n_items; i += 2) {
        const rlx__ynode *k = root->items[i], *v = root->items[i + 1];
        if (scalar(k) && strcmp(scalar(k), "rlx_config") == 0)
            continue;
        if (scalar(k) && strcmp(scalar(k), "options") == 0) {
            read_options(rt, path, v);
            continue;
        }
        if (!scalar(k) || strcmp(scalar(k), "backends") != 0 ||
            v->kind != RLX__Y_MAP) {
            complain(rt, path, k, "unknown key (expected 'backends:' "
                                  "with 'force' and 'disable', or "
                                  "'options:')");
            continue;
        }
        for (uint32_t j = 0; j + 1 < v->n_items; j += 2) {
            const rlx__ynode *k2 = v->items[j], *v2 = v->items[j + 1];
            const char *name = scalar(k2);
            if (name && strcmp(name, "force") == 0)
                read_force(rt, path, v2);
            else if (name && strcmp(name, "disable") == 0)
                read_disable(rt, path, v2);
            else
                complain(rt, path, k2, "unknown key under 'backends' "
                                       "(expected 'force' or 'disable')");
        }
    }
}

static char *find_config(void)
{
    /* privileged processes read only the system file (rlx__env) */
    const char *env = rlx__env("RLX_CONFIG");
    if (env)
        return *env ? rlx__strdup(env) : NULL;
    char *user = NULL;
    const char *xdg = rlx__env("XDG_CONFIG_HOME");
    const char *home = rlx__env("HOME");
    if (xdg && *xdg)
        user = rlx__printf_alloc("%s/rlx/config.yaml", xdg);
    else if (home && *home)
        user = rlx__printf_alloc("%s/.config/rlx/config.yaml", home);
    if (user && access(user, F_OK) == 0)
        return user;
    free(user);
    char *sys = rlx__printf_alloc("%s/rlx/config.yaml", RLX_SYSCONFDIR);
    if (sys && access(sys, F_OK) == 0)
        return sys;
    free(sys);
    return NULL;
}

void rlx__config_load(rlx_runtime *rt)
{
    char *path = find_config();
    if (!path)
        return;
    rt->config_path = path;
    rlx__ynode *root = NULL;
    if (rlx__yaml_parse(path, "config file", CONFIG_MAX_BYTES, &root) !=
        RLX_OK) {
        /* the parser's message names the file, line and column */
        char *reason = NULL, *fix = NULL;
        rlx__split_fix(rlx_last_error(), &reason, &fix);
        rlx__diag_add(rt, RLX_DIAG_REJECTED, path,
                      reason ? reason : "the config file cannot be read",
                      fix && *fix ? fix : "fix the config file");
        free(reason);
        free(fix);
        rlx__error_clear();
        return;
    }
    read_root(rt, path, root);
    rlx__ynode_free(root);
}
