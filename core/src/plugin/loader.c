/*
 * loader.c - find plugin files, check them, dlopen them, run their init.
 *
 * Every refusal is kept as a diagnostic with the path, the reason (the
 * dynamic loader's own words where it has some) and a Fix, and never
 * stops the files after it: one broken package must not hide the others.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "plugin.h"
#include "scan.h"

#define PLUGIN_PREFIX "librlx-backend-"
#define PLUGIN_SUFFIX ".so"

void (*rlx__loader_phase_hook)(const char *phase);

static void phase(const char *name)
{
    if (rlx__loader_phase_hook)
        rlx__loader_phase_hook(name);
}

static rlx_status reject(rlx_runtime *rt, const char *path, rlx_status st,
                         const char *reason, const char *fix)
{
    rlx__diag_add(rt, RLX_DIAG_REJECTED, path, reason, fix);
    return rlx__error(st, "%s: %s. Fix: %s", path, reason, fix);
}

/* A fix for what dlopen said, by the kind of failure. */
static const char *dlopen_fix(const char *err)
{
    if (strstr(err, "cannot open shared object file"))
        return "a library this plugin needs is not installed: install it "
               "(ldd on the plugin shows which), or remove the plugin";
    if (strstr(err, "undefined symbol"))
        return "the plugin was built against another version of a library "
               "it uses: rebuild it, or install the matching package";
    if (strstr(err, "position-independent executable"))
        return "this is a program, not a plugin: remove it from the plugin "
               "directory";
    if (strstr(err, "version `"))
        return "a library on this system is older than the plugin needs: "
               "upgrade it, or install a plugin built for this system";
    return "rebuild the plugin against the rlx plugin-abi headers, or "
           "remove it";
}

static rlx_status check_file(rlx_runtime *rt, const char *path,
                             struct stat *st)
{
    struct stat lst;
    char reason[512];

    if (lstat(path, &lst) != 0) {
        snprintf(reason, sizeof reason, "cannot be examined: %s",
                 strerror(errno));
        return reject(rt, path, RLX_ERR_PLUGIN, reason,
                      "check the path and its permissions");
    }
    if (stat(path, st) != 0) {
        if (S_ISLNK(lst.st_mode)) {
            char target[256];
            ssize_t n = readlink(path, target, sizeof target - 1);
            target[n > 0 ? n : 0] = '\0';
            snprintf(reason, sizeof reason,
                     "dangling symbolic link to '%s'", target);
            return reject(rt, path, RLX_ERR_PLUGIN, reason,
                          "remove the link, or reinstall the package that "
                          "provides its target");
        }
        snprintf(reason, sizeof reason, "cannot be examined: %s",
                 strerror(errno));
        return reject(rt, path, RLX_ERR_PLUGIN, reason,
                      "check the path and its permissions");
    }
    if (S_ISDIR(st->st_mode))
        return reject(rt, path, RLX_ERR_PLUGIN,
                      "is a directory, not a plugin file",
                      "remove or rename the directory: names matching "
                      "librlx-backend-*.so are reserved for plugins");
    if (!S_ISREG(st->st_mode))
        return reject(rt, path, RLX_ERR_PLUGIN,
                      "is a special file (device, FIFO or socket)",
                      "remove it from the plugin directory");
    return RLX_OK;
}

static rlx_status run_init(rlx_runtime *rt, rlx__plugin *p,
                           rlx_plugin_init_fn init)
{
    rt->loading = p;
    rt->n_pending = 0;
    free(rt->pending_error);
    rt->pending_error = NULL;
    rlx__report_clear();

    phase(RLX__PHASE_INIT);
    rlx_status st = init(&rt->host);

    rt->loading = NULL;
    if (st == RLX_OK && rt->n_pending > 0)
        return rlx__registry_commit(rt, p);
    rlx__registry_discard(rt);
    if (rt->pending_error) /* the refusal is already in the diagnostics */
        return rlx__error(st != RLX_OK ? st : RLX_ERR_PLUGIN, "%s: %s",
                          p->path, rt->pending_error);
    if (st == RLX_OK)
        return reject(rt, p->path, RLX_ERR_PLUGIN,
                      "rlx_plugin_init registered no backend",
                      "call rlx_register_backend from rlx_plugin_init, or "
                      "remove the plugin");

    char *reason = NULL, *fix = NULL;
    const char *said = rlx__report_get();
    rlx__split_fix(said ? said : "it gave no reason", &reason, &fix);
    char *full = rlx__printf_alloc("rlx_plugin_init failed with %s: %s",
                                   rlx_status_name(st),
                                   reason ? reason : "");
    rlx_status ret = reject(rt, p->path, st, full ? full : "init failed",
                            fix && *fix ? fix
                                        : "see the plugin's documentation");
    free(full);
    free(reason);
    free(fix);
    return ret;
}

static rlx_status add_plugin(rlx_runtime *rt, rlx__plugin *p)
{
    rlx__plugin **grown = realloc(rt->plugins,
                                  (rt->n_plugins + 1) * sizeof *grown);
    if (!grown)
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    rt->plugins = grown;
    rt->plugins[rt->n_plugins++] = p;
    return RLX_OK;
}

rlx_status rlx__loader_builtin(rlx_runtime *rt, const char *name,
                               rlx_plugin_init_fn init)
{
    rlx__plugin *p = calloc(1, sizeof *p);
    if (!p || !(p->path = rlx__strdup(name))) {
        free(p);
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    }
    p->builtin = 1;
    p->host_fit = -1;
    rlx_status st = run_init(rt, p, init);
    if (st == RLX_OK)
        st = add_plugin(rt, p);
    if (st != RLX_OK)
        rlx__plugin_free(p);
    return st;
}

/* Ask a variant plugin how well it fits this host, before its init; a
 * file that scanned clean brings the score the scanner measured. */
static rlx_status host_fit(rlx_runtime *rt, rlx__plugin *p,
                           const rlx__scan_entry *scanned)
{
    const char *family = NULL;
    int32_t score;
    if (scanned) {
        if (!scanned->family)
            return RLX_OK;
        family = scanned->family;
        score = scanned->fit;
    } else {
        void *sym = dlsym(p->handle, RLX_PLUGIN_HOST_FIT_SYMBOL);
        rlx_plugin_host_fit_fn fit = NULL;
        memcpy(&fit, &sym, sizeof fit);
        if (!fit)
            return RLX_OK;
        if (!rlx__symbol_is_function(sym))
            return reject(rt, p->path, RLX_ERR_PLUGIN,
                          RLX_PLUGIN_HOST_FIT_SYMBOL " is a data object, "
                          "not a function",
                          "export rlx_plugin_host_fit as a function (see "
                          "rlx/plugin.h), or remove the plugin");
        phase(RLX__PHASE_FIT);
        score = fit(&family);
    }
    p->host_fit = score;
    p->family = rlx__strdup(family && *family ? family : p->path);
    if (score > 0)
        return RLX_OK;
    char *reason = rlx__printf_alloc(
        "variant of '%s' cannot run on this host (host-fit score %d)",
        p->family ? p->family : "?", (int)score);
    rlx_status st = reject(rt, p->path, RLX_ERR_UNSUPPORTED,
                           reason ? reason : "cannot run on this host",
                           "nothing to do if a variant for this CPU is "
                           "installed beside it; otherwise install the "
                           "portable variant");
    free(reason);
    return st;
}

typedef struct rlx__variant {
    rlx__plugin *plugin;
    rlx_plugin_init_fn init;
    uint32_t best;           /* scan_end: index of its family's best */
    int kept;                /* scan_end: initialised and registered */
} rlx__variant;

static rlx_status defer(rlx_runtime *rt, rlx__plugin *p,
                        rlx_plugin_init_fn init)
{
    rlx__variant *grown = realloc(rt->variants,
                                  (rt->n_variants + 1) * sizeof *grown);
    if (!grown) {
        rlx__plugin_free(p);
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    }
    rt->variants = grown;
    rt->variants[rt->n_variants++] = (rlx__variant){ p, init, 0, 0 };
    return RLX_OK;
}

void rlx__loader_scan_begin(rlx_runtime *rt)
{
    rt->deferring = 1;
}

/* Three passes, so that no variant is freed while another may still read
 * it: the family's best is chosen among all of them (a not-chosen
 * variant often comes first in name order, e.g. -avx2 before -avx512),
 * the best are initialised in scan order and the others recorded as not
 * chosen (naming the best, even one whose init failed), and only then is
 * every variant that was not kept freed. */
void rlx__loader_scan_end(rlx_runtime *rt)
{
    rt->deferring = 0;
    uint32_t n = rt->n_variants;
    rlx__variant *v = rt->variants;
    for (uint32_t i = 0; i < n; i++) {
        /* the family's best: highest score, the first found on a tie */
        uint32_t best = UINT32_MAX;
        for (uint32_t j = 0; j < n; j++)
            if (strcmp(v[j].plugin->family, v[i].plugin->family) == 0 &&
                (best == UINT32_MAX ||
                 v[j].plugin->host_fit > v[best].plugin->host_fit))
                best = j;
        v[i].best = best; /* never UINT32_MAX: I is of its own family */
    }
    for (uint32_t i = 0; i < n; i++) {
        rlx__plugin *p = v[i].plugin;
        if (v[i].best != i) {
            const rlx__plugin *best = v[v[i].best].plugin;
            char *reason = rlx__printf_alloc(
                "variant of '%s' not chosen: host-fit score %d, %s scores "
                "%d", p->family, (int)p->host_fit, best->path,
                (int)best->host_fit);
            rlx__diag_add(rt, RLX_DIAG_VARIANT, p->path,
                          reason ? reason : "variant not chosen",
                          "nothing to do: the best variant for this CPU "
                          "is loaded");
            free(reason);
            continue;
        }
        rlx_status s = run_init(rt, p, v[i].init);
        if (s == RLX_OK)
            s = add_plugin(rt, p);
        v[i].kept = s == RLX_OK;
    }
    for (uint32_t i = 0; i < n; i++)
        if (!v[i].kept)
            rlx__plugin_free(v[i].plugin);
    free(rt->variants);
    rt->variants = NULL;
    rt->n_variants = 0;
}

rlx_status rlx__loader_load(rlx_runtime *rt, const char *path)
{
    struct stat st;
    phase(RLX__PHASE_ELF);
    rlx_status s = check_file(rt, path, &st);
    if (s != RLX_OK)
        return s;
    for (uint32_t i = 0; i < rt->n_plugins; i++)
        if (!rt->plugins[i]->builtin && !atomic_load(&rt->plugins[i]->retired) &&
            rt->plugins[i]->dev == (unsigned long long)st.st_dev &&
            rt->plugins[i]->ino == (unsigned long long)st.st_ino)
            return rlx__error(RLX_ERR_DUPLICATE,
                              "%s: already loaded as %s. Fix: load each "
                              "plugin file once",
                              path, rt->plugins[i]->path);
    const char *as = NULL;
    if (rlx__lazy_find(rt, path, 1, (unsigned long long)st.st_dev,
                       (unsigned long long)st.st_ino, 0, &as))
        return rlx__error(RLX_ERR_DUPLICATE,
                          "%s: already loaded as %s. Fix: load each "
                          "plugin file once", path, as);

    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        char reason[300];
        snprintf(reason, sizeof reason, "cannot be read: %s",
                 strerror(errno));
        return reject(rt, path, RLX_ERR_PLUGIN, reason,
                      "make the file readable (chmod a+r), or remove it");
    }
    char *reason = NULL, *fix = NULL;
    int bad = rlx__elf_check(fd, (long long)st.st_size, &reason, &fix);
    close(fd);
    if (bad) {
        s = reject(rt, path, RLX_ERR_PLUGIN, reason ? reason : "bad ELF",
                   fix ? fix : "remove it");
        free(reason);
        free(fix);
        return s;
    }

    /* a file that crashed or hung the scanner is never opened here */
    const rlx__scan_entry *scanned = rlx__scan_lookup(rt, path, &st);
    if (scanned && scanned->state == RLX__SCANNED_BLACKLISTED)
        return rlx__scan_blacklisted(rt, scanned);
    if (scanned && scanned->state != RLX__SCANNED_CLEAN)
        scanned = NULL; /* refused: load it to say why, as it is now */
    /* cached as unavailable, key unchanged: open it only when needed */
    if (rlx__lazy_defer(rt, path, (unsigned long long)st.st_dev,
                        (unsigned long long)st.st_ino, scanned))
        return RLX_OK;

    phase(RLX__PHASE_DLOPEN);
    dlerror();
    void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *err = dlerror();
        char msg[RLX_MSG_MAX];
        snprintf(msg, sizeof msg, "dlopen failed: %s",
                 err ? err : "unknown error");
        return reject(rt, path, RLX_ERR_PLUGIN, msg, dlopen_fix(msg));
    }
    /* POSIX allows this conversion of a data pointer; copy to dodge
     * -Wpedantic's object-to-function pointer warning. */
    void *sym = dlsym(handle, RLX_PLUGIN_INIT_SYMBOL);
    rlx_plugin_init_fn init = NULL;
    memcpy(&init, &sym, sizeof init);
    if (!init) {
        dlclose(handle);
        return reject(rt, path, RLX_ERR_PLUGIN,
                      "no rlx_plugin_init entry point: not an rlx plugin",
                      "export rlx_plugin_init (see rlx/plugin.h), or remove "
                      "the file from the plugin directory");
    }
    if (!rlx__symbol_is_function(sym)) {
        dlclose(handle);
        return reject(rt, path, RLX_ERR_PLUGIN,
                      "rlx_plugin_init is a data object, not a function",
                      "export rlx_plugin_init as a function (see "
                      "rlx/plugin.h), or remove the plugin");
    }

    rlx__plugin *p = calloc(1, sizeof *p);
    if (!p || !(p->path = rlx__strdup(path))) {
        free(p);
        dlclose(handle);
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    }
    p->handle = handle;
    p->dev = (unsigned long long)st.st_dev;
    p->ino = (unsigned long long)st.st_ino;
    p->host_fit = -1;
    s = host_fit(rt, p, scanned);
    if (s == RLX_OK && p->family && rt->deferring)
        return defer(rt, p, init);
    if (s == RLX_OK)
        s = run_init(rt, p, init);
    if (s == RLX_OK)
        s = add_plugin(rt, p);
    if (s != RLX_OK)
        rlx__plugin_free(p);
    return s;
}

static int is_candidate(const char *name)
{
    size_t n = strlen(name), pre = strlen(PLUGIN_PREFIX),
           suf = strlen(PLUGIN_SUFFIX);
    return n > pre + suf && strncmp(name, PLUGIN_PREFIX, pre) == 0 &&
           strcmp(name + n - suf, PLUGIN_SUFFIX) == 0;
}

static int name_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Path of an earlier file with this basename, or NULL (and remember it). */
static const char *shadowed_by(rlx_runtime *rt, const char *name,
                               const char *path)
{
    for (uint32_t i = 0; i < rt->n_seen; i++)
        if (strcmp(rt->seen_names[i], name) == 0)
            return rt->seen_paths[i];
    char **names = realloc(rt->seen_names, (rt->n_seen + 1) * sizeof *names);
    if (names)
        rt->seen_names = names;
    char **paths = realloc(rt->seen_paths, (rt->n_seen + 1) * sizeof *paths);
    if (paths)
        rt->seen_paths = paths;
    if (names && paths) {
        names[rt->n_seen] = rlx__strdup(name);
        paths[rt->n_seen] = rlx__strdup(path);
        if (names[rt->n_seen] && paths[rt->n_seen])
            rt->n_seen++;
        else {
            free(names[rt->n_seen]);
            free(paths[rt->n_seen]);
        }
    }
    return NULL;
}

static void remember_dir(rlx_runtime *rt, const char *dir, const char *source)
{
    char **dirs = realloc(rt->search_dirs, (rt->n_search + 1) * sizeof *dirs);
    if (dirs)
        rt->search_dirs = dirs;
    const char **srcs = realloc(rt->search_sources,
                                (rt->n_search + 1) * sizeof *srcs);
    if (srcs)
        rt->search_sources = srcs;
    if (dirs && srcs && (dirs[rt->n_search] = rlx__strdup(dir)) != NULL) {
        srcs[rt->n_search] = source;
        rt->n_search++;
    }
}

static void scan_dir(rlx_runtime *rt, const char *dir, const char *source)
{
    int quiet_missing = strcmp(source, RLX__SOURCE_SYSTEM) == 0;
    remember_dir(rt, dir, source);
    DIR *d = opendir(dir);
    if (!d) {
        if (quiet_missing && errno == ENOENT)
            return;
        char reason[300];
        snprintf(reason, sizeof reason, "plugin directory cannot be read: %s",
                 strerror(errno));
        rlx__diag_add(rt, RLX_DIAG_REJECTED, dir, reason,
                      "fix the directory, or remove it from RLX_PLUGIN_PATH");
        return;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (!is_candidate(e->d_name))
            continue;
        if (n == cap) {
            size_t ncap = cap ? cap * 2 : 16;
            char **grown = realloc(names, ncap * sizeof *grown);
            if (!grown)
                break;
            names = grown;
            cap = ncap;
        }
        if ((names[n] = rlx__strdup(e->d_name)) != NULL)
            n++;
    }
    closedir(d);
    if (n)
        qsort(names, n, sizeof *names, name_cmp);

    /* Shadowing first, so that only the files to load are scanned, and
     * all of them by one scanner process. */
    char **paths = calloc(n ? n : 1, sizeof *paths);
    struct stat *sts = calloc(n ? n : 1, sizeof *sts);
    uint32_t n_scan = 0;
    for (size_t i = 0; i < n; i++) {
        char *path = rlx__printf_alloc("%s%s%s", dir,
                                       dir[strlen(dir) - 1] == '/' ? "" : "/",
                                       names[i]);
        const char *first = path ? shadowed_by(rt, names[i], path) : NULL;
        if (first) {
            char *reason = rlx__printf_alloc("shadowed by %s", first);
            rlx__diag_add(rt, RLX_DIAG_SHADOWED, path,
                          reason ? reason : "shadowed",
                          "the first file of a name in the search order "
                          "wins; remove one of the two to silence this");
            free(reason);
            free(path);
            path = NULL;
        }
        free(names[i]);
        names[i] = path; /* NULL: shadowed */
        if (path && paths && sts && stat(path, &sts[n_scan]) == 0 &&
            S_ISREG(sts[n_scan].st_mode))
            paths[n_scan++] = path;
    }
    if (paths && sts)
        rlx__scan_files(rt, paths, sts, n_scan);
    free(paths);
    free(sts);
    rt->discovering = 1;
    for (size_t i = 0; i < n; i++) {
        if (names[i])
            rlx__loader_load(rt, names[i]);
        free(names[i]);
    }
    rt->discovering = 0;
    free(names);
}

void rlx__loader_scan(rlx_runtime *rt, const char *dirs, const char *source)
{
    const char *p = dirs;
    while (p && *p) {
        const char *end = strchr(p, ':');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len > 0) {
            char *dir = malloc(len + 1);
            if (dir) {
                memcpy(dir, p, len);
                dir[len] = '\0';
                scan_dir(rt, dir, source);
                free(dir);
            }
        }
        p = end ? end + 1 : NULL;
    }
}

void rlx__loader_unload_all(rlx_runtime *rt)
{
    for (uint32_t i = rt->n_plugins; i-- > 0;)
        rlx__plugin_free(rt->plugins[i]);
    free(rt->plugins);
    rt->plugins = NULL;
    rt->n_plugins = 0;
}
