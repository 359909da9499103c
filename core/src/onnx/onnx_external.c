/*
 * onnx_external.c - initializers stored outside the .onnx file
 * (location/offset/length, relative to the model's folder). The bytes are
 * mapped read-only, never copied; a location that leaves the folder or a
 * range that runs past the file is refused before anything is read.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "onnx.h"

/* Parse a non-negative decimal key value; -1 when it is not one. */
static int64_t parse_u(const char *s)
{
    if (!s || !*s)
        return -1;
    int64_t v = 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9' || v > (INT64_MAX - 9) / 10)
            return -1;
        v = v * 10 + (*s - '0');
    }
    return v;
}

rlx_status rlx__onnx_external(const char *what, rlx__onnx_model *m,
                              const Onnx__TensorProto *t, size_t nbytes,
                              const void **data)
{
    const char *name = t->name ? t->name : "(unnamed)";
    const char *loc = NULL;
    int64_t off = 0, len = -1;
    for (size_t i = 0; i < t->n_external_data; i++) {
        const Onnx__StringStringEntryProto *e = t->external_data[i];
        if (!e->key || !e->value)
            continue;
        if (strcmp(e->key, "location") == 0)
            loc = e->value;
        else if (strcmp(e->key, "offset") == 0 &&
                 (off = parse_u(e->value)) < 0)
            goto bad_number;
        else if (strcmp(e->key, "length") == 0 &&
                 (len = parse_u(e->value)) < 0)
            goto bad_number;
    }
    if (!loc || !*loc)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "%s: tensor '%s' is stored externally but names "
                          "no location. Fix: re-save the model with "
                          "onnx.save(..., save_as_external_data=True)",
                          what, name);
    if (!m->dir)
        return rlx__error(RLX_ERR_UNSUPPORTED,
                          "%s: tensor '%s' is stored in external file '%s', "
                          "but the model was given as bytes, with no "
                          "folder. Fix: load the model from its file",
                          what, name, loc);
    if (loc[0] == '/' || strstr(loc, ".."))
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "%s: tensor '%s': external data location '%s' "
                          "leaves the model's folder. Fix: keep external "
                          "data files beside the model, named relatively",
                          what, name, loc);
    char *path = rlx__printf_alloc("%s/%s", m->dir, loc);
    if (!path)
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    char real_dir[PATH_MAX], real_file[PATH_MAX];
    if (!realpath(m->dir, real_dir) || !realpath(path, real_file)) {
        rlx_status st = rlx__error(RLX_ERR_NOT_FOUND,
                                   "%s: tensor '%s': external data file "
                                   "'%s' cannot be opened: %s. Fix: put "
                                   "it beside the model", what, name, path,
                                   strerror(errno));
        free(path);
        return st;
    }
    size_t dl = strlen(real_dir);
    if (strncmp(real_file, real_dir, dl) != 0 || real_file[dl] != '/') {
        rlx_status st = rlx__error(RLX_ERR_INVALID_ARGUMENT,
                                   "%s: tensor '%s': external data '%s' "
                                   "resolves to %s, outside the model's "
                                   "folder %s. Fix: keep external data "
                                   "files inside the model's folder (no "
                                   "links out of it)", what, name, loc,
                                   real_file, real_dir);
        free(path);
        return st;
    }
    int fd = open(real_file, O_RDONLY | O_CLOEXEC);
    struct stat sb;
    if (fd < 0 || fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        rlx_status st = rlx__error(RLX_ERR_NOT_FOUND,
                                   "%s: tensor '%s': external data '%s' is "
                                   "not a readable regular file. Fix: put "
                                   "the file beside the model", what, name,
                                   path);
        if (fd >= 0)
            close(fd);
        free(path);
        return st;
    }
    free(path);
    if (len < 0)
        len = (int64_t)nbytes;
    if ((uint64_t)len != nbytes || off > (int64_t)sb.st_size ||
        len > (int64_t)sb.st_size - off) {
        close(fd);
        return rlx__error(RLX_ERR_SHAPE,
                          "%s: tensor '%s' needs %zu bytes but its external "
                          "data is offset %lld length %lld in '%s' of %lld "
                          "bytes. Fix: re-save the model and its external "
                          "data together", what, name, nbytes,
                          (long long)off, (long long)len, loc,
                          (long long)sb.st_size);
    }
    if (nbytes == 0) {
        close(fd);
        *data = NULL;
        return RLX_OK;
    }
    long page = sysconf(_SC_PAGESIZE);
    int64_t base = off - off % (page > 0 ? page : 4096);
    size_t maplen = (size_t)(off - base) + nbytes;
    rlx__onnx_map *grown = realloc(m->maps, (m->n_maps + 1) * sizeof *grown);
    if (!grown) {
        close(fd);
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    }
    m->maps = grown;
    void *addr = mmap(NULL, maplen, PROT_READ, MAP_PRIVATE, fd, (off_t)base);
    close(fd);
    if (addr == MAP_FAILED)
        return rlx__error(RLX_ERR_IO,
                          "%s: tensor '%s': cannot map external data '%s': "
                          "%s. Fix: check the file and free memory", what,
                          name, loc, strerror(errno));
    m->maps[m->n_maps++] = (rlx__onnx_map){ addr, maplen };
    *data = (const char *)addr + (off - base);
    return RLX_OK;

bad_number:
    return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                      "%s: tensor '%s' has an external data offset or "
                      "length that is not a non-negative number. Fix: "
                      "re-save the model", what, name);
}
