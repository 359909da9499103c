/*
 * config.c - the optional config file: backend selection rules that hold
 * for every program of a user or a machine.
 *
 *   backends:
 *     force: {cpu: cpu-ref}          # device: backend id
 *     disable: [cpu-openblas*]       # globs on backend ids
 *
 * Looked for at $RLX_CONFIG (empty: no file), else
 * $XDG_CONFIG_HOME/rlx/config.yaml (~/.config/rlx/config.yaml), else
 * <sysconfdir>/rlx/config.yaml. A broken file is reported as a diagnostic
 * and ignored: configuration must never stop a program from starting.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <yaml.h>

#include "internal.h"

#ifndef RLX_SYSCONFDIR
#define RLX_SYSCONFDIR "/etc"
#endif

static void complain(rlx_runtime *rt, const char *path, const yaml_node_t *n,
                     const char *what)
{
    char *reason = n ? rlx__printf_alloc("line %zu column %zu: %s",
                                         n->start_mark.line + 1,
                                         n->start_mark.column + 1, what)
                     : rlx__strdup(what);
    rlx__diag_add(rt, RLX_DIAG_REJECTED, path, reason ? reason : what,
                  "fix the config file (docs/selection.md shows its form); "
                  "the rest of it still applies");
    free(reason);
}

static const char *scalar(const yaml_node_t *n)
{
    return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value
                                            : NULL;
}

static void read_force(rlx_runtime *rt, const char *path, yaml_document_t *doc,
                       yaml_node_t *map)
{
    if (map->type != YAML_MAPPING_NODE) {
        complain(rt, path, map, "'force' must map devices to backend ids");
        return;
    }
    for (yaml_node_pair_t *p = map->data.mapping.pairs.start;
         p < map->data.mapping.pairs.top; p++) {
        yaml_node_t *k = yaml_document_get_node(doc, p->key);
        yaml_node_t *v = yaml_document_get_node(doc, p->value);
        if (!scalar(k) || !scalar(v) || !*scalar(v))
            complain(rt, path, v ? v : k, "force entries are device: id");
        else
            rlx__policy_force(&rt->policy, scalar(k), scalar(v), path);
    }
}

static void read_disable(rlx_runtime *rt, const char *path,
                         yaml_document_t *doc, yaml_node_t *v)
{
    if (scalar(v)) {
        rlx__policy_disable(&rt->policy, scalar(v), path);
        return;
    }
    if (v->type != YAML_SEQUENCE_NODE) {
        complain(rt, path, v, "'disable' must be a list of globs");
        return;
    }
    for (yaml_node_item_t *i = v->data.sequence.items.start;
         i < v->data.sequence.items.top; i++) {
        yaml_node_t *g = yaml_document_get_node(doc, *i);
        if (scalar(g))
            rlx__policy_disable(&rt->policy, scalar(g), path);
        else
            complain(rt, path, g, "each 'disable' entry is a glob string");
    }
}

static void read_root(rlx_runtime *rt, const char *path, yaml_document_t *doc)
{
    yaml_node_t *root = yaml_document_get_root_node(doc);
    if (!root)
        return; /* an empty file says nothing */
    if (root->type != YAML_MAPPING_NODE) {
        complain(rt, path, root, "the top level must be a mapping");
        return;
    }
    for (yaml_node_pair_t *p = root->data.mapping.pairs.start;
         p < root->data.mapping.pairs.top; p++) {
        yaml_node_t *k = yaml_document_get_node(doc, p->key);
        yaml_node_t *v = yaml_document_get_node(doc, p->value);
        if (scalar(k) && strcmp(scalar(k), "rlx_config") == 0)
            continue;
        if (!scalar(k) || strcmp(scalar(k), "backends") != 0 ||
            v->type != YAML_MAPPING_NODE) {
            complain(rt, path, k, "unknown key (expected 'backends:' "
                                  "with 'force' and 'disable')");
            continue;
        }
        for (yaml_node_pair_t *q = v->data.mapping.pairs.start;
             q < v->data.mapping.pairs.top; q++) {
            yaml_node_t *k2 = yaml_document_get_node(doc, q->key);
            yaml_node_t *v2 = yaml_document_get_node(doc, q->value);
            const char *name = scalar(k2);
            if (name && strcmp(name, "force") == 0)
                read_force(rt, path, doc, v2);
            else if (name && strcmp(name, "disable") == 0)
                read_disable(rt, path, doc, v2);
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
    FILE *f = fopen(path, "rb");
    if (!f) {
        complain(rt, path, NULL, "the config file cannot be read");
        return;
    }
    yaml_parser_t parser;
    yaml_document_t doc;
    if (!yaml_parser_initialize(&parser)) {
        fclose(f);
        return;
    }
    yaml_parser_set_input_file(&parser, f);
    if (!yaml_parser_load(&parser, &doc)) {
        char *what = rlx__printf_alloc(
            "line %zu column %zu: YAML error: %s", parser.problem_mark.line + 1,
            parser.problem_mark.column + 1,
            parser.problem ? parser.problem : "syntax error");
        complain(rt, path, NULL, what ? what : "YAML error");
        free(what);
    } else {
        read_root(rt, path, &doc);
        yaml_document_delete(&doc);
    }
    yaml_parser_delete(&parser);
    fclose(f);
}
