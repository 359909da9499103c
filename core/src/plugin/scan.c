/*
 * scan.c - the parent side of out-of-process plugin scanning.
 *
 * A plugin file the registry cache does not know (or knows in another
 * version: path, device, inode, size, mtime, ctime and inode generation)
 * is first opened by the
 * rlx-plugin-scanner executable, spawned with posix_spawn: it runs the
 * loader's own checks, the host-fit score and rlx_plugin_init, and
 * reports on a pipe. A scanner that dies or hangs takes only itself down:
 * the file it was in is blacklisted with the signal or exit status and
 * the phase, the scanner is started again for the files after it, and
 * the application goes on. Files that scanned clean are then loaded
 * in-process as before; refused ones are loaded in-process too, so that
 * their refusal is current (a missing library may have been installed).
 * This file decides what to scan and finds the scanner; scan_run.c runs it.
 */
#define _GNU_SOURCE /* dladdr */
#include <dlfcn.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "scan.h"

#ifndef RLX_LIBEXECDIR
#define RLX_LIBEXECDIR "/usr/local/libexec"
#endif
#ifndef RLX_SCANNER_FROM_LIBDIR /* <libexecdir>/rlx from <libdir> */
#define RLX_SCANNER_FROM_LIBDIR "../libexec/rlx"
#endif
#define SCANNER_NAME "rlx-plugin-scanner"
#define SCANNER_INSTALLED RLX_LIBEXECDIR "/rlx/" SCANNER_NAME
#define MAX_BATCH 256 /* files per scanner process: bounds argv */

static int executable(const char *path)
{
    struct stat st;
    return path && stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
           access(path, X_OK) == 0;
}

/* RLX_PLUGIN_SCANNER (tests), else next to librlx (a build tree), else
 * where the install put it relative to librlx (an install moved to
 * another prefix, or staged with --destdir), else the libexec path fixed
 * at build time. librlx's own path comes from the dynamic loader, which
 * ignores LD_LIBRARY_PATH in privileged processes. */
static char *find_scanner(void)
{
    const char *env = rlx__env("RLX_PLUGIN_SCANNER");
    if (env && *env)
        return executable(env) ? rlx__strdup(env) : NULL;
    Dl_info info;
    void *self = (void *)(uintptr_t)rlx__scan_setup;
    if (dladdr(self, &info) && info.dli_fname && strchr(info.dli_fname, '/')) {
        const char *slash = strrchr(info.dli_fname, '/');
        int dir_len = (int)(slash - info.dli_fname);
        char *next = rlx__printf_alloc("%.*s/" SCANNER_NAME, dir_len,
                                       info.dli_fname);
        if (executable(next))
            return next;
        free(next);
        char *rel = rlx__printf_alloc("%.*s/" RLX_SCANNER_FROM_LIBDIR
                                      "/" SCANNER_NAME,
                                      dir_len, info.dli_fname);
        if (executable(rel))
            return rel;
        free(rel);
    }
    return executable(SCANNER_INSTALLED) ? rlx__strdup(SCANNER_INSTALLED)
                                         : NULL;
}

static int parse_timeout(const char *s)
{
    char *end;
    if (!s || !*s)
        return RLX__SCAN_TIMEOUT_DEFAULT_MS;
    double v = strtod(s, &end);
    if (*end || !(v > 0) || v > 3600)
        return RLX__SCAN_TIMEOUT_DEFAULT_MS;
    return v * 1000 < 1 ? 1 : (int)(v * 1000);
}

void rlx__scan_setup(rlx_runtime *rt)
{
    rlx__scan *sc = calloc(1, sizeof *sc);
    if (!sc)
        return; /* in-process, as without a scanner */
    const char *mode = rlx__env("RLX_PLUGIN_SCAN");
    sc->mode = RLX__SCAN_SUBPROCESS;
    if (mode && strcmp(mode, "inprocess") == 0)
        sc->mode = RLX__SCAN_INPROCESS;
    else if (mode && strcmp(mode, "rescan") == 0)
        sc->mode = RLX__SCAN_RESCAN;
    else if (mode && *mode && strcmp(mode, "subprocess") != 0)
        rlx__diag_add(rt, RLX_DIAG_REJECTED, "RLX_PLUGIN_SCAN",
                      "not 'subprocess', 'inprocess' or 'rescan': plugins "
                      "are scanned in a subprocess (the default)",
                      "set RLX_PLUGIN_SCAN to one of those, or unset it");
    const char *timeout = rlx__env("RLX_PLUGIN_SCAN_TIMEOUT");
    sc->timeout_ms = parse_timeout(timeout);
    if (timeout && *timeout && parse_timeout(timeout) ==
                                   RLX__SCAN_TIMEOUT_DEFAULT_MS &&
        strtod(timeout, NULL) != RLX__SCAN_TIMEOUT_DEFAULT_MS / 1000.0)
        rlx__diag_add(rt, RLX_DIAG_REJECTED, "RLX_PLUGIN_SCAN_TIMEOUT",
                      "not a number of seconds in (0, 3600]: the default, "
                      "5 s, applies",
                      "set it to seconds, e.g. 10 or 0.5, or unset it");
    rt->scan = sc;
}

void rlx__scan_free(rlx_runtime *rt)
{
    rlx__scan *sc = rt->scan;
    if (!sc)
        return;
    free(sc->scanner);
    free(sc->cache_file);
    rlx__scan_cache_free(&sc->cache);
    free(sc);
    rt->scan = NULL;
}

/* First use: find the scanner and read the cache. 0: scan in-process. */
static int ready(rlx_runtime *rt)
{
    rlx__scan *sc = rt->scan;
    if (!sc || sc->mode == RLX__SCAN_INPROCESS)
        return 0;
    if (sc->cache_loaded)
        return 1;
    sc->cache_loaded = 1;
    sc->scanner = find_scanner();
    if (!sc->scanner) {
        const char *env = rlx__env("RLX_PLUGIN_SCANNER");
        rlx__diag_add(rt, RLX_DIAG_REJECTED,
                      env && *env ? env : SCANNER_INSTALLED,
                      "the plugin scanner is not installed: plugins are "
                      "loaded in-process, where a crashing plugin takes "
                      "the application down",
                      "install rlx's " SCANNER_NAME " (meson install puts "
                      "it in <libexecdir>/rlx/), or set "
                      "RLX_PLUGIN_SCAN=inprocess to silence this");
        sc->mode = RLX__SCAN_INPROCESS;
        return 0;
    }
    sc->cache_file = rlx__scan_cache_file();
    if (sc->cache_file && sc->mode != RLX__SCAN_RESCAN)
        rlx__scan_cache_read(&sc->cache, sc->cache_file);
    return 1;
}

unsigned long long rlx__file_generation(const char *path)
{
    long gen = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0)
        return 0;
    if (ioctl(fd, FS_IOC_GETVERSION, &gen) != 0)
        gen = 0; /* tmpfs, overlayfs...: the change time has to do */
    close(fd);
    return (unsigned long long)gen;
}

void rlx__scan_key(rlx__scan_entry *e, const char *path,
                   const struct stat *st)
{
    e->dev = (unsigned long long)st->st_dev;
    e->ino = (unsigned long long)st->st_ino;
    e->size = (long long)st->st_size;
    e->mtime_ns = (long long)st->st_mtim.tv_sec * 1000000000LL +
                  st->st_mtim.tv_nsec;
    e->ctime_ns = (long long)st->st_ctim.tv_sec * 1000000000LL +
                  st->st_ctim.tv_nsec;
    e->gen = rlx__file_generation(path);
}

int rlx__scan_entry_matches(const rlx__scan_entry *e, const char *path,
                            const struct stat *st)
{
    rlx__scan_entry now = { 0 };
    rlx__scan_key(&now, path, st);
    return e->dev == now.dev && e->ino == now.ino && e->size == now.size &&
           e->mtime_ns == now.mtime_ns && e->ctime_ns == now.ctime_ns &&
           e->gen == now.gen;
}

static rlx__scan_entry *find(rlx__scan *sc, const char *path,
                             const struct stat *st)
{
    for (uint32_t i = 0; i < sc->cache.n; i++)
        if (strcmp(sc->cache.entries[i].path, path) == 0)
            return rlx__scan_entry_matches(&sc->cache.entries[i], path, st)
                       ? &sc->cache.entries[i]
                       : NULL;
    return NULL;
}

void rlx__scan_files(rlx_runtime *rt, char *const *paths,
                     const struct stat *sts, uint32_t n)
{
    if (!ready(rt))
        return;
    rlx__scan *sc = rt->scan;
    char **todo = calloc(n ? n : 1, sizeof *todo);
    struct stat *tst = calloc(n ? n : 1, sizeof *tst);
    uint32_t m = 0;
    for (uint32_t i = 0; todo && tst && i < n; i++)
        if (!find(sc, paths[i], &sts[i])) {
            todo[m] = paths[i];
            tst[m++] = sts[i];
        }
    uint32_t at = 0;
    while (at < m) {
        uint32_t batch = m - at < MAX_BATCH ? m - at : MAX_BATCH;
        int settled = rlx__scan_run(rt, todo + at, tst + at, batch);
        if (settled <= 0) {
            char *reason = rlx__printf_alloc(
                "the plugin scanner %s %s: plugins are loaded in-process",
                sc->scanner, settled < 0 ? "did not start or speaks another "
                                           "protocol"
                                         : "made no progress");
            rlx__diag_add(rt, RLX_DIAG_REJECTED, sc->scanner,
                          reason ? reason : "the plugin scanner failed",
                          "reinstall rlx so that librlx and "
                          "rlx-plugin-scanner match, or set "
                          "RLX_PLUGIN_SCAN=inprocess");
            free(reason);
            sc->mode = RLX__SCAN_INPROCESS;
            break;
        }
        at += (uint32_t)settled;
        sc->cache.dirty = 1;
    }
    if (sc->cache.dirty && sc->cache_file) {
        rlx__scan_cache_write(&sc->cache, sc->cache_file);
        sc->cache.dirty = 0;
    }
    free(todo);
    free(tst);
}

const rlx__scan_entry *rlx__scan_lookup(rlx_runtime *rt, const char *path,
                                        const struct stat *st)
{
    if (!ready(rt))
        return NULL;
    const rlx__scan_entry *e = find(rt->scan, path, st);
    if (e)
        return e;
    char *p = (char *)path;
    rlx__scan_files(rt, &p, st, 1);
    return rt->scan->mode == RLX__SCAN_INPROCESS ? NULL
                                                 : find(rt->scan, path, st);
}

rlx_status rlx__scan_blacklisted(rlx_runtime *rt, const rlx__scan_entry *e)
{
    char when[64] = "?";
    time_t t = (time_t)e->scanned;
    struct tm tm;
    if (gmtime_r(&t, &tm))
        strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S UTC", &tm);
    char *reason = rlx__printf_alloc("blacklisted: %s (scanned %s)",
                                     e->error, when);
    rlx__diag_add(rt, RLX_DIAG_REJECTED, e->path,
                  reason ? reason : e->error, e->fix);
    rlx_status st = rlx__error(RLX_ERR_PLUGIN, "%s: %s. Fix: %s", e->path,
                               reason ? reason : e->error, e->fix);
    free(reason);
    return st;
}
