/*
 * ffi_lib.c - which libraries a custom op may load, and loading them.
 * A model file names code to run, and a model is data people download,
 * so a library is opened only when the application allowed it
 * (custom_allow.c, docs/security.md), at compile time:
 *   - an absolute path: allowed as that file, or inside an allowed
 *     directory;
 *   - a relative path (with a '/'): under the model's own directory, it
 *     must stay there once symlinks and '..' are resolved, and be allowed;
 *   - a bare name: an allowed file of that name, an allowed directory
 *     holding it, or exactly an allowed soname (through the system
 *     loader). Never the system loader's own search.
 * The C library, the dynamic loader and files under the system library
 * directories are refused unless allowed by their exact file or soname.
 * In a set-user-ID (secure) process a library must also be an absolute
 * path under the system plugin directory. The symbol must be a function
 * defined by the library itself (not data, not a dependency's).
 */
#define _GNU_SOURCE /* dlinfo */
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>

#include "ffi.h"

static int is_secure(void)
{
    return getauxval(AT_SECURE) != 0;
}

static int is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* 1 when real path REAL lies inside real directory RDIR. */
static int real_inside(const char *rdir, const char *real)
{
    size_t n = strlen(rdir);
    return strcmp(rdir, "/") == 0 ||
           (strncmp(real, rdir, n) == 0 && real[n] == '/');
}

/* 1 when the real path of PATH lies inside the real path of DIR; *REAL
 * gets the resolved path (malloc'd) either way, or NULL if it has none. */
static int inside(const char *dir, const char *path, char **real)
{
    *real = realpath(path, NULL);
    char *rdir = realpath(dir, NULL);
    int ok = *real && rdir && real_inside(rdir, *real);
    free(rdir);
    return ok;
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* The C library, the dynamic loader, or a file under a directory the
 * system loader searches: code every process already trusts, which a
 * model must not reach through a directory allowance. */
static int is_system(const char *real)
{
    static const char *const dirs[] = {
        "/lib/", "/lib32/", "/lib64/", "/libx32/", "/usr/lib/",
        "/usr/lib32/", "/usr/lib64/", "/usr/libx32/", "/usr/local/lib/",
        "/usr/local/lib64/", NULL
    };
    static const char *const names[] = { "libc.so", "libc-", "ld-", "ld.so",
                                         "ld64.so", NULL };
    for (const char *const *d = dirs; *d; d++)
        if (strncmp(real, *d, strlen(*d)) == 0)
            return 1;
    const char *b = base_name(real);
    for (const char *const *p = names; *p; p++)
        if (strncmp(b, *p, strlen(*p)) == 0)
            return 1;
    return 0;
}

#define WHO "custom node '%s' (library '%s', symbol '%s', signature " \
            "\"%s\")"
#define HOW_TO_ALLOW "if you trust it, allow it: `rlx run|check|bench " \
                     "--allow-custom-ops LIB|DIR`, or " \
                     "rlx_runtime_allow_custom_ops / " \
                     "rlx_session_allow_custom_ops (docs/security.md)"

typedef struct who {
    const char *node, *library, *symbol, *signature;
} who;

static rlx_status not_allowed(const who *w, const char *what)
{
    return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                      WHO ": %s; a model file cannot load code by itself. "
                      "Fix: %s", w->node, w->library, w->symbol,
                      w->signature, what, HOW_TO_ALLOW);
}

/* How the allow list admits the file at real path REAL: 2 exactly (an
 * allowed file), 1 through a directory, 0 not at all. */
static int admits(const rlx__allow *allow, const char *real)
{
    int how = 0;
    for (uint32_t i = 0; allow && i < allow->n; i++) {
        const rlx__allow_item *it = &allow->items[i];
        if (it->kind == RLX__ALLOW_FILE && strcmp(it->path, real) == 0)
            return 2;
        if (it->kind == RLX__ALLOW_DIR && real_inside(it->path, real))
            how = 1;
    }
    return how;
}

/* Check the resolved file REAL (malloc'd, consumed into *FILE). */
static rlx_status admit(const who *w, const rlx__allow *allow, char *real,
                        char **file)
{
    int how = admits(allow, real);
    if (how == 1 && is_system(real)) {
        char what[RLX_MSG_MAX / 2];
        snprintf(what, sizeof what, "%.300s is the C library, the dynamic "
                 "loader or a system library, which an allowed directory "
                 "does not cover (only its exact path or soname does)",
                 real);
        free(real);
        return not_allowed(w, what);
    }
    if (!how) {
        char what[RLX_MSG_MAX / 2];
        snprintf(what, sizeof what, "%.300s is not a library the "
                 "application allowed", real);
        free(real);
        return not_allowed(w, what);
    }
    *file = real;
    return RLX_OK;
}

static rlx_status oom(void)
{
    return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
}

/* A bare name: an allowed soname, an allowed file of that name, or a
 * file in an allowed directory. */
static rlx_status locate_bare(const who *w, const rlx__allow *allow,
                              char **file, const char **how)
{
    const char *name = w->library;
    for (uint32_t i = 0; i < allow->n; i++) {
        const rlx__allow_item *it = &allow->items[i];
        if (it->kind == RLX__ALLOW_SONAME && strcmp(it->path, name) == 0) {
            *how = "an allowed soname, through the system loader: ";
            return (*file = rlx__strdup(name)) ? RLX_OK : oom();
        }
        if (it->kind == RLX__ALLOW_FILE &&
            strcmp(base_name(it->path), name) == 0) {
            *how = "an allowed file: ";
            return (*file = rlx__strdup(it->path)) ? RLX_OK : oom();
        }
    }
    for (uint32_t i = 0; i < allow->n; i++) {
        const rlx__allow_item *it = &allow->items[i];
        if (it->kind != RLX__ALLOW_DIR)
            continue;
        char *cand = rlx__printf_alloc("%s/%s", it->path, name);
        if (!cand)
            return oom();
        char *real = is_file(cand) ? realpath(cand, NULL) : NULL;
        free(cand);
        if (real) {
            *how = "in an allowed directory: ";
            return admit(w, allow, real, file);
        }
    }
    return not_allowed(w, "no allowed file, directory or soname provides "
                          "it (a bare name is never looked up by the "
                          "system loader's own search)");
}

/* The file to open for W->library, or a refusal. *FILE is malloc'd. */
static rlx_status locate(const who *w, const char *base_dir,
                         const rlx__allow *allow, char **file,
                         const char **how)
{
    const char *library = w->library;
    *file = NULL;
    if (is_secure()) {
        const char *plugindir = rlx_plugin_dir();
        char *real = NULL;
        if (library[0] != '/' || !inside(plugindir, library, &real)) {
            free(real);
            return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                              WHO ": this is a set-user-ID process, where "
                              "custom ops load only absolute paths under "
                              "%s. Fix: install the library there, name it "
                              "by its absolute path and allow it",
                              w->node, library, w->symbol, w->signature,
                              plugindir);
        }
        *how = "in the system plugin directory: ";
        return admit(w, allow, real, file);
    }
    if (!allow || !allow->n)
        return not_allowed(w, "the application allowed no custom-op "
                              "library");
    if (!strchr(library, '/'))
        return locate_bare(w, allow, file, how);
    char *joined = NULL;
    if (library[0] != '/') {
        if (!base_dir)
            return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                              WHO ": a relative path is only allowed in a "
                              "model file (it is taken from the model's "
                              "directory). Fix: give the absolute path, "
                              "or a bare name", w->node, library,
                              w->symbol, w->signature);
        joined = rlx__printf_alloc("%s/%s", base_dir, library);
        if (!joined)
            return oom();
        char *real = NULL;
        int ok = inside(base_dir, joined, &real);
        if (!ok && real) {
            free(joined);
            free(real);
            return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                              WHO ": the path leads out of the model's "
                              "directory %s. Fix: keep the library inside "
                              "the model's directory, or give an absolute "
                              "path", w->node, library, w->symbol,
                              w->signature, base_dir);
        }
        free(real);
        *how = "relative to the model: ";
    } else {
        *how = "absolute path: ";
    }
    char *real = realpath(joined ? joined : library, NULL);
    if (!real || !is_file(real)) {
        rlx_status st = rlx__error(RLX_ERR_NOT_FOUND,
                                   WHO ": the library failed to load (%s%s):"
                                   " no such file. Fix: install the "
                                   "library, or correct its path",
                                   w->node, library, w->symbol, w->signature,
                                   *how, joined ? joined : library);
        free(real);
        free(joined);
        return st;
    }
    free(joined);
    return admit(w, allow, real, file);
}

/* The path of the object HANDLE loaded, for reading its symbols. */
static const char *loaded_path(void *handle)
{
    struct link_map *lm = NULL;
    if (dlinfo(handle, RTLD_DI_LINKMAP, &lm) != 0 || !lm || !lm->l_name)
        return NULL;
    return lm->l_name;
}

/* SYMBOL must be a function the library itself defines: dlsym would also
 * find a dependency's (libc's `system`), and calling data crashes. */
static rlx_status check_symbol(const who *w, void *handle)
{
    const char *path = loaded_path(handle);
    int type = 0;
    rlx__sym_kind k = path ? rlx__elf_symbol_kind(path, w->symbol, &type)
                           : RLX__SYM_UNREADABLE;
    switch (k) {
    case RLX__SYM_FUNCTION:
        return RLX_OK;
    case RLX__SYM_OTHER:
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          WHO ": '%s' is not a function (its ELF symbol type "
                          "is %d: data or another object), and calling it "
                          "would jump into data. Fix: name a function the "
                          "library exports (nm -D --defined-only %s lists "
                          "them with type T)", w->node, w->library,
                          w->symbol, w->signature, w->symbol, type, path);
    case RLX__SYM_ABSENT:
        return rlx__error(RLX_ERR_NOT_FOUND,
                          WHO ": the library has no function '%s' of its "
                          "own (%s; a dependency's functions are not "
                          "reachable). Fix: check the symbol's spelling "
                          "against the library's exports (nm -D "
                          "--defined-only LIBRARY)", w->node, w->library,
                          w->symbol, w->signature, w->symbol, path);
    default:
        return rlx__error(RLX_ERR_PLUGIN,
                          WHO ": cannot read the dynamic symbol table of "
                          "%s to check that '%s' is a function. Fix: use an "
                          "ELF shared library built for this machine",
                          w->node, w->library, w->symbol, w->signature,
                          path ? path : "the library", w->symbol);
    }
}

rlx_status rlx__custom_open(const char *node, const char *library,
                            const char *base_dir, const char *symbol,
                            const char *signature, const rlx__allow *allow,
                            void **handle, rlx_custom_fn *fn)
{
    who w = { node, library, symbol, signature };
    char *file = NULL;
    const char *how = "";
    *handle = NULL;
    *fn = NULL;
    rlx_status st = locate(&w, base_dir, allow, &file, &how);
    if (st != RLX_OK)
        return st;
    dlerror();
    *handle = dlopen(file, RTLD_NOW | RTLD_LOCAL);
    if (!*handle) {
        const char *why = dlerror();
        st = rlx__error(RLX_ERR_NOT_FOUND,
                        WHO ": the library failed to load (%s%s): %s. Fix: "
                        "install the library, or allow the file or "
                        "directory it is in", node, library, symbol,
                        signature, how, file, why ? why : "unknown reason");
        free(file);
        return st;
    }
    free(file);
    if ((st = check_symbol(&w, *handle)) != RLX_OK) {
        dlclose(*handle);
        *handle = NULL;
        return st;
    }
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
