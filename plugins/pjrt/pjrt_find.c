/*
 * pjrt_find.c - where PJRT plugins are looked for.
 *
 * 1. The setting pjrt.plugin (RLX_PJRT_PLUGIN, or the config file's
 *    options): colon-separated files. When set it replaces the search,
 *    as VK_DRIVER_FILES does for Vulkan drivers.
 * 2. libtpu: TPU_LIBRARY_PATH (libtpu's own variable), then libtpu's
 *    usual install places (site-packages/libtpu/libtpu.so, /usr/lib,
 *    /usr/local/lib).
 * 3. JAX's plugin packages: site-packages/jax_plugins/<name>/<file>.so
 *    under the Python folders visible from here: PYTHONPATH, the active
 *    virtualenv or conda prefix, ~/.local, the system dist-packages, and
 *    the lib/python3* folders next to each python3 on PATH.
 * Nothing is opened here: globbing costs a few stat calls, and only the
 * probe of the backend a file belongs to opens it.
 */
#define _GNU_SOURCE
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pjrt_internal.h"

void rlxp_setting(const rlxp_backend *be, const char *name, const char *env,
                  char *value, size_t size)
{
    const rlx_host *h = be->host;
    value[0] = '\0';
    if (h && RLX_HAS_FIELD(h->struct_size, rlx_host, get_option) &&
        h->get_option) {
        if (rlx_host_get_option(h, name, value, size) != RLX_OK)
            value[0] = '\0';
        return;
    }
    const char *v = secure_getenv(env);
    snprintf(value, size, "%s", v ? v : "");
}

rlxp_family rlxp_family_of_path(const char *path)
{
    const char *base = strrchr(path, '/');
    /* the plugin's own name, or its JAX package folder */
    char name[PATH_MAX];
    snprintf(name, sizeof name, "%s", path);
    if (base) {
        /* keep the last two components: ".../xla_cuda13/xla_cuda_plugin.so" */
        const char *p = base;
        while (p > path && p[-1] != '/')
            p--;
        if (p > path) {
            const char *q = p - 1;
            while (q > path && q[-1] != '/')
                q--;
            snprintf(name, sizeof name, "%s", q);
        }
    }
    if (strstr(name, "tpu"))
        return RLXP_FAMILY_TPU;
    if (strstr(name, "cuda") || strstr(name, "gpu"))
        return RLXP_FAMILY_CUDA;
    if (strstr(name, "rocm"))
        return RLXP_FAMILY_ROCM;
    return RLXP_FAMILY_OTHER;
}

typedef struct list {
    char *s;
    size_t size, len;
} list;

static int is_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* Adds PATH when it is a file of FAMILY not yet listed. */
static void add(list *l, const char *path, rlxp_family family)
{
    if (!is_file(path) || rlxp_family_of_path(path) != family)
        return;
    char real[PATH_MAX];
    if (!realpath(path, real))
        snprintf(real, sizeof real, "%s", path);
    size_t n = strlen(real);
    for (const char *p = l->s; p && *p;) { /* already there? */
        const char *end = strchr(p, ':');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == n && strncmp(p, real, n) == 0)
            return;
        p = end ? end + 1 : p + len;
    }
    if (l->len + n + 2 > l->size)
        return; /* full: the rest would not fit the probe's report anyway */
    if (l->len)
        l->s[l->len++] = ':';
    memcpy(l->s + l->len, real, n + 1);
    l->len += n;
}

static void add_glob(list *l, const char *pattern, rlxp_family family)
{
    glob_t g;
    if (glob(pattern, 0, NULL, &g) != 0)
        return;
    for (size_t i = 0; i < g.gl_pathc; i++)
        add(l, g.gl_pathv[i], family);
    globfree(&g);
}

/* A Python library folder (site-packages or dist-packages). */
static void add_site(list *l, const char *site, rlxp_family family)
{
    char pat[PATH_MAX];
    snprintf(pat, sizeof pat, "%s/jax_plugins/*/*.so", site);
    add_glob(l, pat, family);
    if (family == RLXP_FAMILY_TPU) {
        snprintf(pat, sizeof pat, "%s/libtpu/libtpu*.so", site);
        add_glob(l, pat, family);
    }
}

/* PREFIX/lib/python3* /{site,dist}-packages */
static void add_prefix(list *l, const char *prefix, rlxp_family family)
{
    const char *kinds[2] = { "site-packages", "dist-packages" };
    for (int k = 0; k < 2; k++) {
        char pat[PATH_MAX];
        snprintf(pat, sizeof pat, "%s/lib/python3*/%s", prefix, kinds[k]);
        glob_t g;
        if (glob(pat, GLOB_ONLYDIR, NULL, &g) != 0)
            continue;
        for (size_t i = 0; i < g.gl_pathc; i++)
            add_site(l, g.gl_pathv[i], family);
        globfree(&g);
    }
}

int rlxp_find_candidates(const rlxp_backend *be, char *out, size_t size,
                         char *where, size_t where_size)
{
    list l = { out, size, 0 };
    out[0] = '\0';
    char opt[4096];
    /* pjrt.plugin: the session, RLX_PJRT_PLUGIN or the config file */
    rlxp_setting(be, "pjrt.plugin", "RLX_PJRT_PLUGIN", opt, sizeof opt);
    if (opt[0]) {
        snprintf(where, where_size, "pjrt.plugin / RLX_PJRT_PLUGIN ('%s')",
                 opt);
        for (char *p = opt, *save = NULL, *tok; (tok = strtok_r(p, ":", &save));
             p = NULL)
            add(&l, tok, be->family);
        return 1;
    }
    snprintf(where, where_size, "RLX_PJRT_PLUGIN unset; searched %s"
             "jax_plugins/*/ under the Python site-packages folders of "
             "PYTHONPATH, VIRTUAL_ENV, CONDA_PREFIX, ~/.local, /usr, "
             "/usr/local, /opt/conda and each python3 on PATH",
             be->family == RLXP_FAMILY_TPU ? "TPU_LIBRARY_PATH, libtpu's "
             "install paths and " : "");
    if (be->family == RLXP_FAMILY_TPU) {
        const char *tpu = secure_getenv("TPU_LIBRARY_PATH");
        if (tpu && tpu[0])
            add(&l, tpu, be->family);
        add(&l, "/usr/lib/libtpu.so", be->family);
        add(&l, "/usr/local/lib/libtpu.so", be->family);
        add(&l, "/lib/libtpu.so", be->family);
    }
    const char *pp = secure_getenv("PYTHONPATH");
    if (pp && pp[0]) {
        char copy[4096];
        snprintf(copy, sizeof copy, "%s", pp);
        for (char *p = copy, *save = NULL, *tok;
             (tok = strtok_r(p, ":", &save)); p = NULL)
            add_site(&l, tok, be->family);
    }
    const char *envs[2] = { "VIRTUAL_ENV", "CONDA_PREFIX" };
    for (int i = 0; i < 2; i++) {
        const char *v = secure_getenv(envs[i]);
        if (v && v[0])
            add_prefix(&l, v, be->family);
    }
    const char *home = secure_getenv("HOME");
    if (home && home[0]) {
        char pre[PATH_MAX];
        snprintf(pre, sizeof pre, "%s/.local", home);
        add_prefix(&l, pre, be->family);
    }
    add_prefix(&l, "/usr/local", be->family);
    add_prefix(&l, "/usr", be->family);
    add_prefix(&l, "/opt/conda", be->family);
    add_site(&l, "/usr/lib/python3/dist-packages", be->family);
    const char *path = secure_getenv("PATH");
    if (path && path[0]) {
        char copy[8192];
        snprintf(copy, sizeof copy, "%s", path);
        for (char *p = copy, *save = NULL, *tok;
             (tok = strtok_r(p, ":", &save)); p = NULL) {
            char py[PATH_MAX];
            snprintf(py, sizeof py, "%s/python3", tok);
            if (access(py, X_OK) != 0)
                continue;
            char pre[PATH_MAX];
            snprintf(pre, sizeof pre, "%s/..", tok);
            add_prefix(&l, pre, be->family);
        }
    }
    return 0;
}
