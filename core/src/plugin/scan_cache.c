/*
 * scan_cache.c - the registry cache: what each plugin file registered, or
 * why it was refused or blacklisted, keyed by path, device, inode, size,
 * mtime, ctime and inode generation, so that a warm start spawns no
 * scanner at all, and a file rewritten in place is scanned again even
 * when its size and mtime were put back.
 *
 * It lives in $XDG_CACHE_HOME/rlx/ (~/.cache/rlx/). It is data only and
 * never trusted blindly: a file that is not a regular file owned by this
 * user, too large, of another version, or malformed anywhere is ignored
 * as a whole (and rewritten). Writers write a file of their own and
 * rename it over the old one, so two processes starting together leave
 * one complete cache, never a mix.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "scan.h"

#define CACHE_MAX_BYTES (16u << 20)
#define CACHE_NAME "plugin-registry"

char *rlx__cache_dir(void)
{
    const char *xdg = rlx__env("XDG_CACHE_HOME");
    const char *home = rlx__env("HOME");
    /* XDG: a relative XDG_CACHE_HOME is invalid and ignored */
    if (xdg && xdg[0] == '/')
        return rlx__printf_alloc("%s/rlx", xdg);
    if (home && home[0] == '/')
        return rlx__printf_alloc("%s/.cache/rlx", home);
    return NULL;
}

char *rlx__scan_cache_file(void)
{
    char *dir = rlx__cache_dir();
    char *file = dir ? rlx__printf_alloc("%s/" CACHE_NAME, dir) : NULL;
    free(dir);
    return file;
}

/* The header line: the format's version and this librlx's ABI, since
 * what a newer core refuses or accepts may differ. */
static void header(char *buf, size_t n)
{
    snprintf(buf, n, "rlx-plugin-cache %d %u", RLX__SCAN_CACHE_VERSION,
             (unsigned)RLX_ABI_VERSION);
}

static char *slurp(const char *file, size_t *len)
{
    int fd = open(file, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0)
        return NULL;
    struct stat st;
    char *buf = NULL;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
        st.st_uid == geteuid() && st.st_size > 0 &&
        (unsigned long long)st.st_size <= CACHE_MAX_BYTES &&
        (buf = malloc((size_t)st.st_size + 1)) != NULL) {
        size_t got = 0;
        while (got < (size_t)st.st_size) {
            ssize_t r = read(fd, buf + got, (size_t)st.st_size - got);
            if (r < 0 && errno == EINTR)
                continue;
            if (r <= 0)
                break;
            got += (size_t)r;
        }
        buf[got] = '\0';
        *len = got;
    }
    close(fd);
    return buf;
}

void rlx__scan_cache_read(rlx__scan_cache *c, const char *file)
{
    size_t len = 0;
    char *buf = slurp(file, &len);
    if (!buf) {
        c->dirty = 1;
        return;
    }
    char want[64];
    header(want, sizeof want);
    rlx__scan_parser ps = { 0 };
    int bad = strlen(buf) != len; /* an embedded NUL */
    char *line = buf, *nl;
    int first = 1;
    while (!bad && *line) {
        nl = strchr(line, '\n');
        if (!nl) {
            bad = 1; /* truncated: every line ends in a newline */
            break;
        }
        *nl = '\0';
        if (first) {
            bad = strcmp(line, want) != 0;
            first = 0;
        } else {
            rlx__scan_entry e;
            int r = rlx__scan_parse_line(&ps, line, &e);
            if (r < 0 || (r == 1 && rlx__scan_cache_put(c, &e) != 0))
                bad = 1;
        }
        line = nl + 1;
    }
    if (ps.open || first)
        bad = 1;
    rlx__scan_parser_free(&ps);
    free(buf);
    if (bad) { /* all or nothing: a damaged file says nothing */
        rlx__scan_cache_free(c);
        c->dirty = 1;
    }
}

int rlx__cache_mkdir(const char *file)
{
    char *dir = rlx__strdup(file);
    if (!dir)
        return -1;
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    /* the cache dir and its parent (XDG_CACHE_HOME or ~/.cache) */
    slash = strrchr(dir, '/');
    if (slash && slash != dir) {
        *slash = '\0';
        (void)mkdir(dir, 0700);
        *slash = '/';
    }
    int ok = mkdir(dir, 0700) == 0 || errno == EEXIST;
    free(dir);
    return ok ? 0 : -1;
}

void rlx__scan_cache_write(const rlx__scan_cache *c, const char *file)
{
    static _Atomic unsigned counter;
    if (rlx__cache_mkdir(file) != 0)
        return; /* no cache: every start scans, which is only slower */
    char *tmp = rlx__printf_alloc("%s.%ld.%u.tmp", file, (long)getpid(),
                                  atomic_fetch_add(&counter, 1));
    if (!tmp)
        return;
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                  0600);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        if (fd >= 0)
            close(fd);
        free(tmp);
        return;
    }
    char head[64];
    header(head, sizeof head);
    fprintf(f, "%s\n", head);
    for (uint32_t i = 0; i < c->n; i++) {
        /* drop entries of files that are gone or changed */
        struct stat st;
        if (stat(c->entries[i].path, &st) == 0 &&
            rlx__scan_entry_matches(&c->entries[i], c->entries[i].path, &st))
            rlx__scan_entry_write(f, &c->entries[i]);
    }
    int bad = ferror(f) != 0;
    bad |= fclose(f) != 0;
    if (bad || rename(tmp, file) != 0)
        unlink(tmp);
    free(tmp);
}
