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

#include "status.h"

#define RLX_EXT_PROBE_KEY "rlx.probe_key.v1"

typedef struct rlx_ext_probe_key {
    uint32_t struct_size;
    /* --- since 1.3 --- */
    /* Write the probe key, NUL-terminated, into KEY (KEY_SIZE bytes).
     * RLX_OK, or any error to have this probe done live and not cached
     * (a key that did not fit, say). May run concurrently. */
    rlx_status (*probe_key)(void *backend, char *key, size_t key_size);
} rlx_ext_probe_key;

/* A key under construction: text appended to a caller's buffer. */
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

/* Append one formatted item and a ';' separator. */
static inline void rlx_kit_probe_key_addf(rlx_kit_probe_key *k,
                                          const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static inline void rlx_kit_probe_key_addf(rlx_kit_probe_key *k,
                                          const char *fmt, ...)
{
    if (k->overflow)
        return;
    size_t room = k->size - k->len;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(k->buf + k->len, room, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n + 2 > room) {
        k->overflow = 1;
        k->buf[k->len] = '\0';
        return;
    }
    k->len += (size_t)n;
    k->buf[k->len++] = ';';
    k->buf[k->len] = '\0';
}

/* NAME=value of an environment variable (or NAME unset). */
static inline void rlx_kit_probe_key_add_env(rlx_kit_probe_key *k,
                                             const char *name)
{
    const char *v = getenv(name);
    rlx_kit_probe_key_addf(k, "%s%s%s", name, v ? "=" : " unset",
                           v ? v : "");
}

/* PATH's identity: device, inode, size and modification time, or absent. */
static inline void rlx_kit_probe_key_add_file(rlx_kit_probe_key *k,
                                              const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        rlx_kit_probe_key_addf(k, "%s absent", path);
    else
        rlx_kit_probe_key_addf(k, "%s %llu:%llu:%lld:%lld.%09ld", path,
                               (unsigned long long)st.st_dev,
                               (unsigned long long)st.st_ino,
                               (long long)st.st_size,
                               (long long)st.st_mtim.tv_sec,
                               st.st_mtim.tv_nsec);
}

/* Every entry of directory DIR whose name starts with PREFIX (all when
 * PREFIX is ""), with its identity, in name order so the key does not
 * depend on readdir's order. At most 64 entries count. */
static inline void rlx_kit_probe_key_add_dir(rlx_kit_probe_key *k,
                                             const char *dir,
                                             const char *prefix)
{
    char names[64][256];
    int n = 0;
    DIR *d = opendir(dir);
    if (!d) {
        rlx_kit_probe_key_addf(k, "%s absent", dir);
        return;
    }
    struct dirent *e;
    size_t plen = strlen(prefix);
    while ((e = readdir(d)) != NULL && n < 64) {
        size_t len = strlen(e->d_name);
        if (e->d_name[0] == '.' || strncmp(e->d_name, prefix, plen) != 0 ||
            len >= sizeof names[0])
            continue;
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
        if ((size_t)snprintf(path, sizeof path, "%s/%.255s", dir, names[i]) <
            sizeof path)
            rlx_kit_probe_key_add_file(k, path);
        else
            k->overflow = 1;
    }
    if (n == 0)
        rlx_kit_probe_key_addf(k, "%s empty", dir);
}

/* RLX_OK when the key fit, else RLX_ERR_INVALID_ARGUMENT (probe live). */
static inline rlx_status rlx_kit_probe_key_end(const rlx_kit_probe_key *k)
{
    return k->overflow ? RLX_ERR_INVALID_ARGUMENT : RLX_OK;
}

#endif /* RLX_PROBE_KEY_H */
