/*
 * policy.c - which backends may be chosen: RLX_BACKEND_FORCE picks one
 * backend for a device, RLX_BACKEND_DISABLE rules backends out by glob,
 * in the spirit of the Vulkan loader's driver select/disable filters. The
 * config file (config.c) can say the same; the environment wins for a
 * device both name.
 */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "plugin.h"

static _Thread_local char why_buf[512];

void rlx__policy_free(rlx__policy *pol)
{
    for (uint32_t i = 0; i < pol->n_force; i++) {
        free(pol->force[i].device);
        free(pol->force[i].id);
        free(pol->force[i].source);
    }
    for (uint32_t i = 0; i < pol->n_disable; i++) {
        free(pol->disable[i].glob);
        free(pol->disable[i].source);
    }
    free(pol->force);
    free(pol->disable);
    memset(pol, 0, sizeof *pol);
}

rlx_status rlx__policy_force(rlx__policy *pol, const char *device,
                             const char *id, const char *source)
{
    for (uint32_t i = 0; i < pol->n_force; i++)
        if (strcmp(pol->force[i].device, device) == 0) {
            /* a later source (the environment) replaces an earlier one */
            char *nid = rlx__strdup(id), *nsrc = rlx__strdup(source);
            if (!nid || !nsrc) {
                free(nid);
                free(nsrc);
                return RLX_ERR_OUT_OF_MEMORY;
            }
            free(pol->force[i].id);
            free(pol->force[i].source);
            pol->force[i].id = nid;
            pol->force[i].source = nsrc;
            return RLX_OK;
        }
    rlx__policy_force_rule *grown =
        realloc(pol->force, (pol->n_force + 1) * sizeof *grown);
    if (!grown)
        return RLX_ERR_OUT_OF_MEMORY;
    pol->force = grown;
    rlx__policy_force_rule *r = &pol->force[pol->n_force];
    r->device = rlx__strdup(device);
    r->id = rlx__strdup(id);
    r->source = rlx__strdup(source);
    if (!r->device || !r->id || !r->source) {
        free(r->device);
        free(r->id);
        free(r->source);
        return RLX_ERR_OUT_OF_MEMORY;
    }
    pol->n_force++;
    return RLX_OK;
}

rlx_status rlx__policy_disable(rlx__policy *pol, const char *glob,
                               const char *source)
{
    rlx__policy_disable_rule *grown =
        realloc(pol->disable, (pol->n_disable + 1) * sizeof *grown);
    if (!grown)
        return RLX_ERR_OUT_OF_MEMORY;
    pol->disable = grown;
    rlx__policy_disable_rule *r = &pol->disable[pol->n_disable];
    r->glob = rlx__strdup(glob);
    r->source = rlx__strdup(source);
    if (!r->glob || !r->source) {
        free(r->glob);
        free(r->source);
        return RLX_ERR_OUT_OF_MEMORY;
    }
    pol->n_disable++;
    return RLX_OK;
}

/* Split VALUE at commas; call EACH on every trimmed, non-empty item. */
static void for_each_item(rlx_runtime *rt, const char *var, const char *value,
                          void (*each)(rlx_runtime *, const char *,
                                       const char *))
{
    const char *p = value;
    while (p && *p) {
        const char *end = strchr(p, ',');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        while (n && (*p == ' ' || *p == '\t'))
            p++, n--;
        while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
            n--;
        if (n) {
            char *item = malloc(n + 1);
            if (item) {
                memcpy(item, p, n);
                item[n] = '\0';
                each(rt, var, item);
                free(item);
            }
        }
        p = end ? end + 1 : NULL;
    }
}

static void env_force_item(rlx_runtime *rt, const char *var, const char *item)
{
    const char *eq = strchr(item, '=');
    if (!eq || eq == item || !eq[1]) {
        char *reason = rlx__printf_alloc("%s: entry '%s' is not DEVICE=ID",
                                         var, item);
        rlx__diag_add(rt, RLX_DIAG_REJECTED, var, reason ? reason : var,
                      "write entries like cpu=cpu-ref, separated by commas");
        free(reason);
        return;
    }
    char device[64];
    size_t n = (size_t)(eq - item);
    snprintf(device, sizeof device, "%.*s", (int)(n < 63 ? n : 63), item);
    rlx__policy_force(&rt->policy, device, eq + 1, var);
}

static void env_disable_item(rlx_runtime *rt, const char *var,
                             const char *item)
{
    rlx__policy_disable(&rt->policy, item, var);
}

void rlx__policy_from_env(rlx_runtime *rt)
{
    /* privileged processes see no variables (rlx__env) */
    for_each_item(rt, "RLX_BACKEND_FORCE", rlx__env("RLX_BACKEND_FORCE"),
                  env_force_item);
    for_each_item(rt, "RLX_BACKEND_DISABLE", rlx__env("RLX_BACKEND_DISABLE"),
                  env_disable_item);
}

int rlx__policy_allows(const rlx_runtime *rt, const rlx_backend *b,
                       const char **why)
{
    const rlx__policy *pol = &rt->policy;
    *why = NULL;
    for (uint32_t i = 0; i < pol->n_force; i++) {
        const rlx__policy_force_rule *r = &pol->force[i];
        if (strcmp(r->device, b->device_name) != 0)
            continue;
        int match = strcmp(r->id, b->id) == 0;
        snprintf(why_buf, sizeof why_buf,
                 match ? "forced for %s by %s" : "not considered: %s "
                                                 "picks '%s' for %s",
                 match ? r->device : r->source,
                 match ? r->source : r->id, r->device);
        *why = why_buf;
        return match;
    }
    for (uint32_t i = 0; i < pol->n_disable; i++)
        if (fnmatch(pol->disable[i].glob, b->id, 0) == 0) {
            snprintf(why_buf, sizeof why_buf, "disabled by %s ('%s')",
                     pol->disable[i].source, pol->disable[i].glob);
            *why = why_buf;
            return 0;
        }
    return 1;
}

int rlx_runtime_backend_allowed(const rlx_runtime *rt, const rlx_backend *b,
                                const char **why)
{
    const char *dummy;
    if (!why)
        why = &dummy;
    *why = NULL;
    if (!rt || !b)
        return 0;
    return rlx__policy_allows(rt, b, why);
}

const char *rlx_runtime_config_path(const rlx_runtime *rt)
{
    return rt ? rt->config_path : NULL;
}
