/*
 * probe_cache.c - availability probes remembered across processes.
 *
 * Automatic device choice probes every installed backend, and a GPU
 * backend's probe can cost hundreds of milliseconds (lavapipe builds a
 * Vulkan instance). A backend that exports the "rlx.probe_key.v1"
 * extension (rlx/probe_key.h) names what its answer depends on; the
 * answer is then kept in $XDG_CACHE_HOME/rlx/probe-cache-v1, keyed by a
 * hash of the backend id, its plugin file's identity and that key, and
 * reused while all three stay the same. The key's text is kept too, so
 * that a plugin not loaded yet can be judged from the cache alone
 * (rlx__probe_cache_offline, probe_replay.c, lazy.c).
 *
 * The file is data, never trusted: a line that does not parse, a file
 * that is not a regular file owned by this user, or one over its size
 * cap is ignored and rewritten. Writers write a temporary file and
 * rename it over the old one, so readers see a whole file; two writers
 * racing lose at most one update. Set-ID processes and RLX_PROBE_CACHE=0
 * use no cache.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rlx/probe_key.h>

#include "plugin.h"
#include "scan.h" /* rlx__file_generation */

#define CACHE_NAME "probe-cache-v2"
#define CACHE_MAGIC "rlx-probe-cache 2"
#define CACHE_MAX_BYTES (1024 * 1024)
#define CACHE_MAX_ENTRIES 256
#define KEY_MAX 8192

typedef struct entry {
    char id[RLX_MAX_ID + 1];
    unsigned long long hash;
    int status;
    uint32_t count, flags;
    char message[RLX_MSG_MAX];
    char *key;               /* the probe key's text, malloc'd */
} entry;

static void entries_free(entry *list, uint32_t n)
{
    for (uint32_t i = 0; list && i < n; i++)
        free(list[i].key);
    free(list);
}

/* The cache directory into DIR; 0 when there is none to use. */
static int cache_dir(char *dir, size_t size)
{
    const char *off = rlx__env("RLX_PROBE_CACHE");
    if (off && strcmp(off, "0") == 0)
        return 0;
    char *d = rlx__cache_dir(); /* NULL in set-ID processes too */
    int n = d ? snprintf(dir, size, "%s", d) : -1;
    free(d);
    return n > 0 && (size_t)n < size;
}

static unsigned long long fnv1a(unsigned long long h, const void *p,
                                size_t n)
{
    const unsigned char *c = p;
    for (size_t i = 0; i < n; i++) {
        h ^= c[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

/* The hash of backend ID of plugin file PATH (NULL: built-in) under KEY. */
static unsigned long long key_hash(const char *id, const char *path,
                                   const char *key)
{
    char ident[512];
    struct stat st;
    /* the change time too: a plugin rewritten in place with its size and
     * mtime put back is another plugin */
    if (path && stat(path, &st) == 0)
        snprintf(ident, sizeof ident,
                 "%s|%s|%llu:%llu:%lld:%lld.%09ld:%lld.%09ld:%llu|%x", id,
                 path, (unsigned long long)st.st_dev,
                 (unsigned long long)st.st_ino, (long long)st.st_size,
                 (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec,
                 (long long)st.st_ctim.tv_sec, st.st_ctim.tv_nsec,
                 rlx__file_generation(path), (unsigned)RLX_ABI_VERSION);
    else
        snprintf(ident, sizeof ident, "%s|%s|%x", id,
                 path ? path : "built-in", (unsigned)RLX_ABI_VERSION);
    unsigned long long h = fnv1a(0xcbf29ce484222325ull, ident, strlen(ident));
    h = fnv1a(h, key, strlen(key));
    return h ? h : 1;
}

/* The hash that names B's answer, or 0 when B cannot be cached; *KEY_OUT
 * gets the key's text (malloc'd). */
static unsigned long long probe_hash(const rlx_backend *b, char **key_out)
{
    if (!b->vt.get_extension)
        return 0;
    const rlx_ext_probe_key *ext =
        b->vt.get_extension(b->backend, RLX_EXT_PROBE_KEY);
    if (!ext || !RLX_HAS_FIELD(ext->struct_size, rlx_ext_probe_key,
                               probe_key) || !ext->probe_key)
        return 0;
    char *key = malloc(KEY_MAX);
    if (!key)
        return 0;
    key[0] = '\0';
    rlx__report_clear();
    if (ext->probe_key(b->backend, key, KEY_MAX) != RLX_OK ||
        !memchr(key, '\0', KEY_MAX)) {
        free(key);
        return 0;
    }
    unsigned long long h =
        key_hash(b->id, b->plugin->builtin ? NULL : b->plugin->path, key);
    *key_out = key;
    return h;
}

/* Messages are stored on one line: \t, \n and \\ escaped. */
static void escape(const char *in, char *out, size_t size)
{
    size_t o = 0;
    for (; *in && o + 3 < size; in++) {
        char c = *in;
        if (c == '\\' || c == '\t' || c == '\n') {
            out[o++] = '\\';
            c = c == '\t' ? 't' : c == '\n' ? 'n' : '\\';
        }
        out[o++] = c;
    }
    out[o] = '\0';
}

static int unescape(char *s)
{
    char *o = s;
    for (char *i = s; *i; i++) {
        if (*i != '\\') {
            *o++ = *i;
            continue;
        }
        i++;
        if (*i == 't') *o++ = '\t';
        else if (*i == 'n') *o++ = '\n';
        else if (*i == '\\') *o++ = '\\';
        else return -1;
    }
    *o = '\0';
    return 0;
}

/* One line "id\thash\tstatus\tcount\tflags\tmessage\tkey" into E; -1
 * if bad. */
static int parse_line(char *line, entry *e)
{
    char *f[7];
    int n = 0;
    f[n++] = line;
    for (char *p = line; *p && n < 7; p++)
        if (*p == '\t') {
            *p = '\0';
            f[n++] = p + 1;
        }
    if (n != 7 || strlen(f[0]) == 0 || strlen(f[0]) > RLX_MAX_ID ||
        strlen(f[5]) >= sizeof e->message || unescape(f[5]) != 0 ||
        strlen(f[6]) >= KEY_MAX || unescape(f[6]) != 0)
        return -1;
    char *end;
    errno = 0;
    e->hash = strtoull(f[1], &end, 16);
    if (*end || errno || strlen(f[1]) != 16)
        return -1;
    long status = strtol(f[2], &end, 10);
    if (*end || status < 0 || status > 1000)
        return -1;
    unsigned long count = strtoul(f[3], &end, 10);
    if (*end || count > 65536)
        return -1;
    unsigned long flags = strtoul(f[4], &end, 10);
    if (*end || flags > 0xffffffffu)
        return -1;
    snprintf(e->id, sizeof e->id, "%s", f[0]);
    e->status = (int)status;
    e->count = (uint32_t)count;
    e->flags = (uint32_t)flags;
    snprintf(e->message, sizeof e->message, "%s", f[5]);
    e->key = rlx__strdup(f[6]);
    return e->key ? 0 : -1;
}

/* Read the cache into *OUT (malloc'd); the number of entries, 0 for a
 * missing, foreign or malformed file (which the next write replaces). */
static uint32_t cache_read(const char *dir, entry **out)
{
    *out = NULL;
    char path[1024];
    snprintf(path, sizeof path, "%s/" CACHE_NAME, dir);
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return 0;
    struct stat st;
    char *text = NULL;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
        st.st_uid != geteuid() || st.st_size > CACHE_MAX_BYTES ||
        !(text = malloc((size_t)st.st_size + 1))) {
        close(fd);
        return 0;
    }
    ssize_t got = read(fd, text, (size_t)st.st_size);
    close(fd);
    if (got != st.st_size) {
        free(text);
        return 0;
    }
    text[got] = '\0';
    size_t lines = 0; /* an entry per line after the first */
    for (const char *c = text; *c; c++)
        lines += *c == '\n';
    if (lines > CACHE_MAX_ENTRIES)
        lines = CACHE_MAX_ENTRIES;
    entry *list = calloc(lines ? lines : 1, sizeof *list);
    uint32_t n = 0;
    char *save = NULL, *line = list ? strtok_r(text, "\n", &save) : NULL;
    if (!line || strcmp(line, CACHE_MAGIC) != 0) {
        free(list);
        free(text);
        return 0;
    }
    while ((line = strtok_r(NULL, "\n", &save)) != NULL && n < lines) {
        if (parse_line(line, &list[n]) != 0) {
            entries_free(list, n);
            list = NULL;
            n = 0; /* malformed: forget the whole file */
            break;
        }
        n++;
    }
    free(text);
    if (n == 0) {
        entries_free(list, n);
        return 0;
    }
    *out = list;
    return n;
}

static void cache_write(const char *dir, const entry *list, uint32_t n)
{
    char tmp[1100], path[1100];
    snprintf(tmp, sizeof tmp, "%s/." CACHE_NAME ".XXXXXX", dir);
    snprintf(path, sizeof path, "%s/" CACHE_NAME, dir);
    if (rlx__cache_mkdir(path) != 0)
        return; /* read-only home: the cache is an optimisation */
    int fd = mkstemp(tmp);
    if (fd < 0)
        return;
    FILE *f = fdopen(fd, "w");
    if (!f) {
        close(fd);
        unlink(tmp);
        return;
    }
    fprintf(f, "%s\n", CACHE_MAGIC);
    char msg[2 * RLX_MSG_MAX];
    char *key = malloc(2 * KEY_MAX);
    for (uint32_t i = 0; key && i < n; i++) {
        escape(list[i].message, msg, sizeof msg);
        escape(list[i].key ? list[i].key : "", key, 2 * KEY_MAX);
        fprintf(f, "%s\t%016llx\t%d\t%u\t%u\t%s\t%s\n", list[i].id,
                list[i].hash, list[i].status, list[i].count, list[i].flags,
                msg, key);
    }
    int bad = ferror(f) || !key;
    free(key);
    if (fclose(f) != 0 || bad || rename(tmp, path) != 0)
        unlink(tmp);
}

/* Record E, replacing an older answer for the same backend id. Threads
 * of one process take turns, so concurrent probes lose no answer. */
static pthread_mutex_t store_lock = PTHREAD_MUTEX_INITIALIZER;

static void cache_store_locked(const char *dir, const entry *e);

static void cache_store(const char *dir, const entry *e)
{
    pthread_mutex_lock(&store_lock);
    cache_store_locked(dir, e);
    pthread_mutex_unlock(&store_lock);
}

static void cache_store_locked(const char *dir, const entry *e)
{
    entry *list;
    uint32_t n = cache_read(dir, &list);
    entry *grown = realloc(list, (n + 1) * sizeof *grown);
    if (!grown) {
        entries_free(list, n);
        return;
    }
    list = grown;
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (strcmp(list[i].id, e->id) != 0)
            list[k++] = list[i];
        else
            free(list[i].key);
    }
    if (k >= CACHE_MAX_ENTRIES) { /* drop the oldest */
        free(list[0].key);
        memmove(list, list + 1, --k * sizeof *list);
    }
    list[k++] = *e; /* E's key stays the caller's */
    cache_write(dir, list, k);
    list[k - 1].key = NULL;
    entries_free(list, k);
}

/* The cache's answer for B, else (unless LOOKUP_ONLY) a live probe
 * whose answer is stored. *CACHEABLE: B has a usable probe key. */
static rlx_status probe_cached(const rlx_backend *b, uint32_t *device_count,
                               uint32_t *flags, int *from_cache,
                               int lookup_only, int *cacheable)
{
    char dir[1024];
    unsigned long long hash = 0;
    char *key = NULL;
    *from_cache = 0;
    if (cache_dir(dir, sizeof dir) && rlx__backend_acquire(b)) {
        hash = probe_hash(b, &key);
        rlx__backend_release(b);
    }
    if (cacheable)
        *cacheable = hash != 0;
    if (hash) {
        entry *list;
        uint32_t n = cache_read(dir, &list);
        for (uint32_t i = 0; i < n; i++) {
            const entry *e = &list[i];
            if (e->hash != hash || strcmp(e->id, b->id) != 0)
                continue;
            *from_cache = 1;
            rlx_status st = (rlx_status)e->status;
            if (st == RLX_OK) {
                *device_count = e->count;
                *flags = e->flags;
            } else {
                rlx__error(st, "%s", e->message);
            }
            entries_free(list, n);
            free(key);
            return st;
        }
        entries_free(list, n);
    }
    if (lookup_only) {
        free(key);
        return RLX_OK; /* *FROM_CACHE is 0: no answer */
    }
    rlx_status st = rlx_backend_probe_ex(b, device_count, flags);
    if (hash) {
        entry e = { .hash = hash, .status = (int)st, .key = key };
        snprintf(e.id, sizeof e.id, "%s", b->id);
        if (st == RLX_OK) {
            e.count = *device_count;
            e.flags = *flags;
        } else {
            snprintf(e.message, sizeof e.message, "%s", rlx_last_error());
        }
        cache_store(dir, &e);
        if (st != RLX_OK) /* storing may have touched errno-based state */
            rlx__error(st, "%s", e.message);
    }
    free(key);
    return st;
}

rlx_status rlx__probe_cached(const rlx_backend *b, uint32_t *device_count,
                             uint32_t *flags, int *from_cache)
{
    return probe_cached(b, device_count, flags, from_cache, 0, NULL);
}

int rlx__probe_cache_lookup(const rlx_backend *b, rlx_status *status,
                            uint32_t *device_count, uint32_t *flags,
                            int *cacheable)
{
    int hit = 0;
    *status = probe_cached(b, device_count, flags, &hit, 1, cacheable);
    return hit;
}

int rlx__probe_cache_offline(const rlx_runtime *rt, const char *id,
                             const char *path, rlx__probe_answer *out,
                             rlx__replay_memo *memo)
{
    char dir[1024];
    if (!cache_dir(dir, sizeof dir))
        return 0;
    entry *list;
    uint32_t n = cache_read(dir, &list);
    int found = 0;
    for (uint32_t i = 0; i < n && !found; i++) {
        const entry *e = &list[i];
        if (strcmp(e->id, id) != 0 || !e->key ||
            !rlx__probe_key_replay(e->key, &rt->host, memo) ||
            key_hash(id, path, e->key) != e->hash)
            continue;
        found = 1;
        out->status = (rlx_status)e->status;
        out->count = e->count;
        out->flags = e->flags;
        out->hash = e->hash;
        snprintf(out->message, sizeof out->message, "%s", e->message);
    }
    entries_free(list, n);
    return found;
}
