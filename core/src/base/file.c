/*
 * file.c - reading a whole file named by a user (model, config) without
 * letting the name hang or exhaust the process: it is opened without
 * blocking (a FIFO would wait for a writer forever), must be a regular
 * file, and may not exceed a size cap.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base.h"

static const char *kind_of(mode_t m)
{
    if (S_ISDIR(m))
        return "a directory";
    if (S_ISFIFO(m))
        return "a FIFO (named pipe)";
    if (S_ISSOCK(m))
        return "a socket";
    if (S_ISCHR(m) || S_ISBLK(m))
        return "a device";
    return "not a regular file";
}

rlx_status rlx__file_open_regular(const char *path, const char *what,
                                  int *fd_out, struct stat *st)
{
    *fd_out = -1;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return rlx__error(errno == ENOENT ? RLX_ERR_NOT_FOUND : RLX_ERR_IO,
                          "%s: cannot open the %s: %s. Fix: check the path",
                          path, what, strerror(errno));
    if (fstat(fd, st) != 0 || !S_ISREG(st->st_mode)) {
        close(fd);
        return rlx__error(RLX_ERR_IO,
                          "%s: the %s is %s, not a regular file. Fix: give "
                          "the path of a regular file (copy what a pipe or "
                          "device yields into a file first)",
                          path, what, kind_of(st->st_mode));
    }
    *fd_out = fd;
    return RLX_OK;
}

rlx_status rlx__file_read_all(const char *path, const char *what,
                              size_t max_bytes, char **out, size_t *len)
{
    *out = NULL;
    *len = 0;
    struct stat st;
    int fd;
    rlx_status s = rlx__file_open_regular(path, what, &fd, &st);
    if (s != RLX_OK)
        return s;
    if ((unsigned long long)st.st_size > max_bytes) {
        close(fd);
        return rlx__error(RLX_ERR_FORMAT,
                          "%s: the %s is %lld bytes, more than the %zu "
                          "allowed. Fix: give the right file (a %s is "
                          "small text)", path, what, (long long)st.st_size,
                          max_bytes, what);
    }
    size_t cap = (size_t)st.st_size + 1, n = 0;
    char *buf = malloc(cap);
    if (!buf) {
        close(fd);
        return rlx__error(RLX_ERR_OUT_OF_MEMORY,
                          "%s: out of memory reading the %s (%zu bytes). "
                          "Fix: free memory", path, what, cap);
    }
    /* read to the end, in case it grew; never past the cap */
    for (;;) {
        if (n + 1 == cap) {
            if (cap > max_bytes)
                break;
            size_t ncap = cap * 2 > max_bytes + 1 ? max_bytes + 1 : cap * 2;
            char *grown = realloc(buf, ncap);
            if (!grown)
                break;
            buf = grown;
            cap = ncap;
        }
        ssize_t got = read(fd, buf + n, cap - 1 - n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            int e = errno;
            free(buf);
            close(fd);
            return rlx__error(RLX_ERR_IO, "%s: cannot read the %s: %s. "
                              "Fix: check the file", path, what,
                              strerror(e));
        }
        if (got == 0)
            break;
        n += (size_t)got;
    }
    close(fd);
    if (n > max_bytes) {
        free(buf);
        return rlx__error(RLX_ERR_FORMAT,
                          "%s: the %s is more than the %zu bytes allowed. "
                          "Fix: give the right file", path, what, max_bytes);
    }
    buf[n] = '\0';
    *out = buf;
    *len = n;
    return RLX_OK;
}
