/*
 * rlx/probe_key.h - the "rlx.probe_key.v1" extension: lets the core reuse
 * a backend's availability probe across processes.
 *
 * Probing a GPU backend can cost a process hundreds of milliseconds (a
 * Vulkan instance on lavapipe, a driver library opened and queried), and
 * automatic device choice probes every installed backend. A backend that
 * returns this table from get_extension (ABI 1.3) tells the core a short
 * text, its probe key, that changes whenever the probe's answer may
 * change: its driver files, its device nodes, the settings it reads. The
 * core keeps each answer (available or not, device count, flags, the
 * message) in a per-user cache keyed by the backend, its plugin file and
 * this key, and answers automatic device choice from it while the key is
 * the same. `rlx devices` and rlx_backend_probe() always probe live.
 *
 * The key must be cheap to compute: stat and readdir, no driver calls.
 * A backend that cannot tell what its answer depends on leaves the
 * extension out and is probed live every time.
 *
 * The rlx_kit_probe_key_* helpers below build a key; they are static
 * inline and add no symbols.
 */
#ifndef RLX_PROBE_KEY_H
#define RLX_PROBE_KEY_H

#include <dirent.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "plugin.h"
#include "status.h"

#define RLX_EXT_PROBE_KEY "rlx.probe_key.v1"

/* A stat's modification and change times' nanoseconds. st_mtim and
 * st_ctim are POSIX.1-2008; glibc hides them in strict C mode (no feature
 * macros) and has st_mtimensec and st_ctimensec there instead, so this
 * header compiles alone under -std=c11 whatever its includer defined,
 * and both spellings give the same key. */
#if defined(__GLIBC__) && !defined(__USE_XOPEN2K8)
#define RLX_KIT__MTIME_NSEC(st) ((long)(st).st_mtimensec)
#define RLX_KIT__CTIME_NSEC(st) ((long)(st).st_ctimensec)
#else
#define RLX_KIT__MTIME_NSEC(st) ((long)(st).st_mtim.tv_nsec)
#define RLX_KIT__CTIME_NSEC(st) ((long)(st).st_ctim.tv_nsec)
#endif

typedef struct rlx_ext_probe_key {
    uint32_t struct_size;
    /* --- since 1.3 --- */
    /* Write the probe key, NUL-terminated, into KEY (KEY_SIZE bytes).
     * RLX_OK, or any error to have this probe done live and not cached
     * (a key that did not fit, say). May run concurrently. */
    rlx_status (*probe_key)(void *backend, char *key, size_t key_size);
} rlx_ext_probe_key;

/* A key under construction: text appended to a caller's buffer.
 *
 * The helpers write one item per dependency, each ending in ';':
 *     env =NAME =VALUE;    env =NAME unset;
 *     file =PATH DEV:INO:SIZE:MTIME:CTIME;    file =PATH absent;
 *     dir =PATH =PREFIX =NAME IDENT ... (or "absent", "empty");
 *     opt =NAME =VALUE;    opt =NAME unset;
 *     text =FREE-FORM;     (rlx_kit_probe_key_addf)
 * where every "=" token is a string with bytes up to ' ', '%', ';' and
 * DEL written as %XX. A key made only of env, file, dir and opt items,
 * whose choice of items depends only on what earlier items record (a
 * directory list taken from a variable whose env item comes first, say),
 * can be checked by the core without loading the plugin: it re-evaluates
 * each item with these same helpers, and an unchanged key lets automatic
 * device choice skip a plugin whose cached answer is "unavailable"
 * without opening it (docs/selection.md). A text item makes the key
 * opaque: the plugin is then opened to compute it. */
typedef struct rlx_kit_probe_key {
    char *buf;
    size_t size, len;
    int overflow;
} rlx_kit_probe_key;

static inline void rlx_kit_probe_key_init(rlx_kit_probe_key *k, char *buf,
                                          size_t size)
{
    k->buf = buf;
    k->size = size;
    k->len = 0;
    k->overflow = size == 0;
    if (size)
        buf[0] = '\0';
}

/* Append S as it is. */
static inline void rlx_kit_probe_key__raw(rlx_kit_probe_key *k,
                                          const char *s)
{
    size_t n = strlen(s);
    if (k->overflow || n + 1 > k->size - k->len) {
        k->overflow = 1;
        return;
    }
    memcpy(k->buf + k->len, s, n + 1);
    k->len += n;
}

/* Append " =S", S escaped. */
static inline void rlx_kit_probe_key__str(rlx_kit_probe_key *k,
                                          const char *s)
{
    static const char hex[] = "0123456789abcdef";
    rlx_kit_probe_key__raw(k, " =");
    for (const unsigned char *c = (const unsigned char *)s;
         *c && !k->overflow; c++) {
        char esc[4] = { (char)*c, '\0', '\0', '\0' };
        if (*c <= ' ' || *c == '%' || *c == ';' || *c == 0x7f) {
            esc[0] = '%';
            esc[1] = hex[*c >> 4];
            esc[2] = hex[*c & 15];
        }
        rlx_kit_probe_key__raw(k, esc);
    }
}

/* Append " DEV:INO:SIZE:MTIME:CTIME" of PATH, or " absent". The change
 * time is there because a file rewritten in place, same size, with its
 * modification time set back (touch -d, utimensat) keeps DEV:INO:SIZE:MTIME;
 * only the kernel sets the change time, so no one can set it back. */
static inline void rlx_kit_probe_key__ident(rlx_kit_probe_key *k,
                                            const char *path)
{
    struct stat st;
    char id[128];
    if (stat(path, &st) != 0)
        snprintf(id, sizeof id, " absent");
    else
        snprintf(id, sizeof id, " %llu:%llu:%lld:%lld.%09ld:%lld.%09ld",
                 (unsigned long long)st.st_dev,
                 (unsigned long long)st.st_ino, (long long)st.st_size,
                 (long long)st.st_mtime, RLX_KIT__MTIME_NSEC(st),
                 (long long)st.st_ctime, RLX_KIT__CTIME_NSEC(st));
    rlx_kit_probe_key__raw(k, id);
}

/* Append one free-form item ("text"): it makes the key opaque (above). */
static inline void rlx_kit_probe_key_addf(rlx_kit_probe_key *k,
                                          const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static inline void rlx_kit_probe_key_addf(rlx_kit_probe_key *k,
                                          const char *fmt, ...)
{
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof text) {
        k->overflow = 1;
        return;
    }
    rlx_kit_probe_key__raw(k, "text");
    rlx_kit_probe_key__str(k, text);
    rlx_kit_probe_key__raw(k, ";");
}

/* An environment variable's value, or that it is unset. */
static inline void rlx_kit_probe_key_add_env(rlx_kit_probe_key *k,
                                             const char *name)
{
    const char *v = getenv(name);
    rlx_kit_probe_key__raw(k, "env");
    rlx_kit_probe_key__str(k, name);
    if (v)
        rlx_kit_probe_key__str(k, v);
    else
        rlx_kit_probe_key__raw(k, " unset");
    rlx_kit_probe_key__raw(k, ";");
}

/* PATH's identity: device, inode, size, modification and change time,
 * or absent. */
static inline void rlx_kit_probe_key_add_file(rlx_kit_probe_key *k,
                                              const char *path)
{
    rlx_kit_probe_key__raw(k, "file");
    rlx_kit_probe_key__str(k, path);
    rlx_kit_probe_key__ident(k, path);
    rlx_kit_probe_key__raw(k, ";");
}

/* Every entry of directory DIR whose name starts with PREFIX (all when
 * PREFIX is ""), with its identity, in name order so the key does not
 * depend on readdir's order. More than 64 entries overflow the key (the
 * probe is then done live). */
static inline void rlx_kit_probe_key_add_dir(rlx_kit_probe_key *k,
                                             const char *dir,
                                             const char *prefix)
{
    char names[64][256];
    int n = 0;
    rlx_kit_probe_key__raw(k, "dir");
    rlx_kit_probe_key__str(k, dir);
    rlx_kit_probe_key__str(k, prefix);
    DIR *d = opendir(dir);
    if (!d) {
        rlx_kit_probe_key__raw(k, " absent;");
        return;
    }
    struct dirent *e;
    size_t plen = strlen(prefix);
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (e->d_name[0] == '.' || strncmp(e->d_name, prefix, plen) != 0)
            continue;
        if (n == 64 || len >= sizeof names[0]) {
            k->overflow = 1;
            break;
        }
        /* insertion sort: small lists */
        int i = n++;
        while (i > 0 && strcmp(names[i - 1], e->d_name) > 0) {
            memcpy(names[i], names[i - 1], sizeof names[0]);
            i--;
        }
        memcpy(names[i], e->d_name, len + 1);
    }
    closedir(d);
    for (int i = 0; i < n; i++) {
        char path[4096];
        if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, names[i]) >=
            sizeof path) {
            k->overflow = 1;
            break;
        }
        rlx_kit_probe_key__str(k, names[i]);
        rlx_kit_probe_key__ident(k, path);
    }
    rlx_kit_probe_key__raw(k, n == 0 ? " empty;" : ";");
}

/* A setting read through the host (rlx_host_get_option: the environment
 * or the config file), or that it is unset. */
static inline void rlx_kit_probe_key_add_option(rlx_kit_probe_key *k,
                                                const rlx_host *host,
                                                const char *name)
{
    char v[1024];
    rlx_kit_probe_key__raw(k, "opt");
    rlx_kit_probe_key__str(k, name);
    if (rlx_host_get_option(host, name, v, sizeof v) == RLX_OK &&
        memchr(v, '\0', sizeof v))
        rlx_kit_probe_key__str(k, v);
    else
        rlx_kit_probe_key__raw(k, " unset");
    rlx_kit_probe_key__raw(k, ";");
}

/* RLX_OK when the key fit, else RLX_ERR_INVALID_ARGUMENT (probe live). */
static inline rlx_status rlx_kit_probe_key_end(const rlx_kit_probe_key *k)
{
    return k->overflow ? RLX_ERR_INVALID_ARGUMENT : RLX_OK;
}

#endif /* RLX_PROBE_KEY_H */
