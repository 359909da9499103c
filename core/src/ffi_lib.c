/*
 * ffi_lib.c - which libraries a custom op may load, and loading them.
 * A model file names code to run, so the places that code may come from
 * are few and fixed (docs/custom-ops.md):
 *   - an absolute path;
 *   - a relative path (with a '/'): under the model's own directory, and
 *     it must stay there once symlinks and '..' are resolved;
 *   - a bare name: RLX_CUSTOM_OP_PATH's directories, then the model's
 *     directory, then the system loader's soname rules (ld.so.cache...);
 *   - in a set-user-ID (secure) process only an absolute path under the
 *     system plugin directory, and RLX_CUSTOM_OP_PATH is not read.
 */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>

#include "custom.h"

static int is_secure(void)
{
    return getauxval(AT_SECURE) != 0;
}

static int is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* 1 when the real path of PATH lies inside the real path of DIR; *REAL
 * gets the resolved path (malloc'd) either way, or NULL if it has none. */
static int inside(const char *dir, const char *path, char **real)
{
    *real = realpath(path, NULL);
    char *rdir = realpath(dir, NULL);
    size_t n = rdir ? strlen(rdir) : 0;
    int ok = *real && rdir &&
             (strcmp(rdir, "/") == 0 ||
              (strncmp(*real, rdir, n) == 0 && (*real)[n] == '/'));
    free(rdir);
    return ok;
}

#define WHO "custom node '%s' (library '%s', symbol '%s', signature " \
            "\"%s\")"

static rlx_status do_open(const char *node, const char *library,
                          const char *symbol, const char *signature,
                          const char *file, const char *how, void **handle)
{
    dlerror();
    *handle = dlopen(file, RTLD_NOW | RTLD_LOCAL);
    if (*handle)
        return RLX_OK;
    const char *why = dlerror();
    return rlx__error(RLX_ERR_NOT_FOUND,
                      WHO ": the library failed to load (%s%s): %s. Fix: "
                      "install the library, or give its absolute path, "
                      "its path relative to the model, or put its "
                      "directory in RLX_CUSTOM_OP_PATH",
                      node, library, symbol, signature, how, file,
                      why ? why : "unknown reason");
}

/* The file to open for LIBRARY, or a refusal. *FILE is malloc'd. */
static rlx_status locate(const char *node, const char *library,
                         const char *base_dir, const char *symbol,
                         const char *signature, char **file,
                         const char **how)
{
    *file = NULL;
    if (is_secure()) {
        const char *plugindir = rlx_plugin_dir();
        if (library[0] != '/' || !inside(plugindir, library, file)) {
            free(*file);
            *file = NULL;
            return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                              WHO ": this is a set-user-ID process, where "
                              "custom ops load only absolute paths under "
                              "%s. Fix: install the library there and "
                              "name it by its absolute path",
                              node, library, symbol, signature, plugindir);
        }
        *how = "in the system plugin directory: ";
        return RLX_OK;
    }
    if (library[0] == '/') {
        *file = rlx__strdup(library);
        *how = "absolute path: ";
        return *file ? RLX_OK
                     : rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    }
    if (strchr(library, '/')) {
        if (!base_dir)
            return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                              WHO ": a relative path is only allowed in a "
                              "model file (it is taken from the model's "
                              "directory). Fix: give the absolute path, "
                              "or a bare soname", node, library, symbol,
                              signature);
        char *joined = rlx__printf_alloc("%s/%s", base_dir, library);
        if (!joined)
            return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
        int ok = inside(base_dir, joined, file);
        if (!ok && *file) {
            free(joined);
            free(*file);
            *file = NULL;
            return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                              WHO ": the path leads out of the model's "
                              "directory %s. Fix: keep the library inside "
                              "the model's directory, or give an absolute "
                              "path", node, library, symbol, signature,
                              base_dir);
        }
        if (!*file) /* not there: let dlopen say so with the full path */
            *file = joined;
        else
            free(joined);
        *how = "relative to the model: ";
        return RLX_OK;
    }
    /* A bare name: RLX_CUSTOM_OP_PATH, the model's directory, then the
     * system loader. */
    const char *env = rlx__env("RLX_CUSTOM_OP_PATH");
    while (env && *env) {
        size_t n = strcspn(env, ":");
        if (n) {
            char *cand = rlx__printf_alloc("%.*s/%s", (int)n, env, library);
            if (!cand)
                return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
            if (is_file(cand)) {
                *file = cand;
                *how = "found through RLX_CUSTOM_OP_PATH: ";
                return RLX_OK;
            }
            free(cand);
        }
        env += n + (env[n] == ':');
    }
    if (base_dir) {
        char *cand = rlx__printf_alloc("%s/%s", base_dir, library);
        if (!cand)
            return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
        if (is_file(cand)) {
            *file = cand;
            *how = "in the model's directory: ";
            return RLX_OK;
        }
        free(cand);
    }
    *file = rlx__strdup(library);
    *how = "by soname through the system loader: ";
    return *file ? RLX_OK
                 : rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
}

rlx_status rlx__custom_open(const char *node, const char *library,
                            const char *base_dir, const char *symbol,
                            const char *signature, void **handle,
                            rlx_custom_fn *fn)
{
    char *file;
    const char *how = "";
    *handle = NULL;
    *fn = NULL;
    rlx_status st = locate(node, library, base_dir, symbol, signature,
                           &file, &how);
    if (st == RLX_OK)
        st = do_open(node, library, symbol, signature, file, how, handle);
    free(file);
    if (st != RLX_OK)
        return st;
    dlerror();
    void *sym = dlsym(*handle, symbol);
    const char *err = dlerror();
    if (!sym || err) {
        /* dlclose frees dlerror's text: keep a copy */
        char why[512];
        snprintf(why, sizeof why, "%s", err ? err : "");
        dlclose(*handle);
        *handle = NULL;
        return rlx__error(RLX_ERR_NOT_FOUND,
                          WHO ": the library has no function '%s'%s%s. "
                          "Fix: check the symbol's spelling against the "
                          "library's exports (nm -D --defined-only LIBRARY)",
                          node, library, symbol, signature, symbol,
                          why[0] ? ": " : "", why);
    }
    /* ISO C forbids object -> function pointer casts; POSIX guarantees
     * dlsym's result converts, so copy the representation. */
    memcpy(fn, &sym, sizeof *fn);
    return RLX_OK;
}
