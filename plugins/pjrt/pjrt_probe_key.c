/*
 * pjrt_probe_key.c - what a PJRT backend's "no plugin found" depends on,
 * for the core's probe cache (rlx/probe_key.h): the setting and the
 * variables that steer the search (pjrt_find.c), and every folder it
 * globs, with their entries' identities. Only that answer is cached: when
 * the search finds a candidate file, whether it works depends on the PJRT
 * plugin and its devices, so the probe stays live (no key). Every item
 * comes from the kit, so on a machine without PJRT plugins the core skips
 * the bridge at start-up without opening it; installing JAX's plugins or
 * libtpu changes a folder's listing, and the next start looks again.
 */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rlx/probe_key.h>
#include <rlx/queue.h>

#include "pjrt_internal.h"

#define MAX_NAMES 64

static int name_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The entries of DIR starting with PREFIX that are folders, sorted, into
 * NAMES (malloc'd each); how many. */
static int subdirs(const char *dir, const char *prefix, char **names)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    int n = 0;
    struct dirent *e;
    size_t plen = strlen(prefix);
    while ((e = readdir(d)) != NULL && n < MAX_NAMES) {
        if (e->d_name[0] == '.' || strncmp(e->d_name, prefix, plen) != 0)
            continue;
        char path[PATH_MAX];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (stat(path, &st) == 0 && S_ISDIR(st.st_mode) &&
            (names[n] = strdup(e->d_name)) != NULL)
            n++;
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof *names, name_cmp);
    return n;
}

/* SITE/jax_plugins/<name>/ for every name (the search globs the .so files
 * one folder down), and for TPU
 * SITE/libtpu/libtpu*. */
static void key_site(rlx_kit_probe_key *k, const char *site,
                     rlxp_family family)
{
    char jp[PATH_MAX], *names[MAX_NAMES];
    snprintf(jp, sizeof jp, "%s/jax_plugins", site);
    rlx_kit_probe_key_add_dir(k, jp, "");
    int n = subdirs(jp, "", names);
    for (int i = 0; i < n; i++) {
        char sub[PATH_MAX];
        if ((size_t)snprintf(sub, sizeof sub, "%s/%s", jp, names[i]) <
            sizeof sub)
            rlx_kit_probe_key_add_dir(k, sub, "");
        else
            k->overflow = 1; /* no key: probed live */
        free(names[i]);
    }
    if (family == RLXP_FAMILY_TPU) {
        snprintf(jp, sizeof jp, "%s/libtpu", site);
        rlx_kit_probe_key_add_dir(k, jp, "libtpu");
    }
}

/* PREFIX/lib/python3* /{site,dist}-packages. */
static void key_prefix(rlx_kit_probe_key *k, const char *prefix,
                       rlxp_family family)
{
    char lib[PATH_MAX], *names[MAX_NAMES];
    snprintf(lib, sizeof lib, "%s/lib", prefix);
    rlx_kit_probe_key_add_dir(k, lib, "python3");
    int n = subdirs(lib, "python3", names);
    for (int i = 0; i < n; i++) {
        static const char *const kinds[2] = { "site-packages",
                                              "dist-packages" };
        for (int j = 0; j < 2; j++) {
            char site[PATH_MAX];
            if ((size_t)snprintf(site, sizeof site, "%s/%s/%s", lib,
                                 names[i], kinds[j]) < sizeof site)
                key_site(k, site, family);
            else
                k->overflow = 1;
        }
        free(names[i]);
    }
}

static rlx_status pjrt_probe_key(void *backend, char *key, size_t size)
{
    rlxp_backend *be = backend;
    /* a candidate file: its answer is the PJRT plugin's, probed live */
    char found[4096], where[1024];
    if (rlxp_find_candidates(be, found, sizeof found, where,
                             sizeof where) || found[0])
        return RLX_ERR_UNSUPPORTED;
    static const char *const vars[] = {
        "RLX_PJRT_PLUGIN", "TPU_LIBRARY_PATH", "PYTHONPATH", "VIRTUAL_ENV",
        "CONDA_PREFIX", "HOME", "PATH",
    };
    rlx_kit_probe_key k;
    rlx_kit_probe_key_init(&k, key, size);
    for (size_t i = 0; i < sizeof vars / sizeof *vars; i++)
        rlx_kit_probe_key_add_env(&k, vars[i]);
    rlx_kit_probe_key_add_option(&k, be->host, "pjrt.plugin");
    if (be->family == RLXP_FAMILY_TPU) {
        const char *tpu = getenv("TPU_LIBRARY_PATH");
        if (tpu && *tpu)
            rlx_kit_probe_key_add_file(&k, tpu);
        rlx_kit_probe_key_add_file(&k, "/usr/lib/libtpu.so");
        rlx_kit_probe_key_add_file(&k, "/usr/local/lib/libtpu.so");
        rlx_kit_probe_key_add_file(&k, "/lib/libtpu.so");
    }
    char copy[8192];
    const char *pp = getenv("PYTHONPATH");
    snprintf(copy, sizeof copy, "%s", pp ? pp : "");
    for (char *p = copy, *save = NULL, *tok; (tok = strtok_r(p, ":", &save));
         p = NULL)
        key_site(&k, tok, be->family);
    /* vendor variables are read by name (test-hardening checks) */
    const char *const envs[2] = { getenv("VIRTUAL_ENV"),
                                  getenv("CONDA_PREFIX") };
    for (int i = 0; i < 2; i++) {
        const char *v = envs[i];
        if (v && v[0])
            key_prefix(&k, v, be->family);
    }
    const char *home = getenv("HOME");
    if (home && home[0]) {
        char pre[PATH_MAX];
        snprintf(pre, sizeof pre, "%s/.local", home);
        key_prefix(&k, pre, be->family);
    }
    key_prefix(&k, "/usr/local", be->family);
    key_prefix(&k, "/usr", be->family);
    key_prefix(&k, "/opt/conda", be->family);
    key_site(&k, "/usr/lib/python3/dist-packages", be->family);
    const char *path = getenv("PATH");
    snprintf(copy, sizeof copy, "%s", path ? path : "");
    for (char *p = copy, *save = NULL, *tok; (tok = strtok_r(p, ":", &save));
         p = NULL) {
        char py[PATH_MAX];
        snprintf(py, sizeof py, "%s/python3", tok);
        rlx_kit_probe_key_add_file(&k, py);
        if (access(py, X_OK) == 0) {
            snprintf(py, sizeof py, "%s/..", tok);
            key_prefix(&k, py, be->family);
        }
    }
    return rlx_kit_probe_key_end(&k);
}

static const rlx_ext_probe_key pjrt_probe_key_ext = {
    .struct_size = sizeof(rlx_ext_probe_key),
    .probe_key = pjrt_probe_key,
};

const void *rlxp_get_extension(void *backend, const char *name)
{
    (void)backend;
    if (name && strcmp(name, RLX_EXT_PROBE_KEY) == 0)
        return &pjrt_probe_key_ext;
    if (name && strcmp(name, RLX_EXT_QUEUE) == 0)
        return &rlxp_queue_ext;
    return NULL;
}
