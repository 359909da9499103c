/*
 * safetensors.c - weights files in the safetensors format, mapped
 * read-only and validated before anything reads a tensor: an 8-byte
 * little-endian header length, a JSON header naming each tensor's dtype,
 * shape and byte range, then the data. Every range must lie inside the
 * file, match its dtype and shape exactly and overlap no other.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model.h"

#define HEADER_MAX (100u * 1024u * 1024u)
#define FIX_REEXPORT "Fix: re-export the weights with a safetensors writer"

static const struct {
    const char *name;
    rlx_dtype dtype;
} st_dtypes[] = {
    { "F32", RLX_DTYPE_F32 }, { "F16", RLX_DTYPE_F16 },
    { "BF16", RLX_DTYPE_BF16 }, { "F64", RLX_DTYPE_F64 },
    { "I32", RLX_DTYPE_I32 }, { "I64", RLX_DTYPE_I64 },
    { "I8", RLX_DTYPE_I8 }, { "U8", RLX_DTYPE_U8 },
    { "BOOL", RLX_DTYPE_BOOL }, { "I16", RLX_DTYPE_I16 },
    { "U16", RLX_DTYPE_U16 }, { "U32", RLX_DTYPE_U32 },
    { "U64", RLX_DTYPE_U64 },
};

rlx_dtype rlx__safetensors_dtype(const char *name)
{
    for (size_t i = 0; i < sizeof st_dtypes / sizeof *st_dtypes; i++)
        if (strcmp(st_dtypes[i].name, name) == 0)
            return st_dtypes[i].dtype;
    return RLX_DTYPE_INVALID;
}

void rlx__safetensors_close(rlx__safetensors *st)
{
    if (!st)
        return;
    for (uint32_t i = 0; i < st->n; i++)
        free(st->tensors[i].name);
    free(st->tensors);
    if (st->map)
        munmap(st->map, st->map_size);
    free(st->path);
    free(st);
}

static int by_begin(const void *a, const void *b)
{
    const rlx__st_tensor *x = a, *y = b;
    if (x->begin != y->begin)
        return x->begin < y->begin ? -1 : 1;
    return x->end < y->end ? -1 : x->end > y->end;
}

static int by_name(const void *a, const void *b)
{
    const rlx__st_tensor *x = a, *y = b;
    return strcmp(x->name, y->name);
}

const rlx__st_tensor *rlx__safetensors_find(const rlx__safetensors *st,
                                            const char *name)
{
    if (!st || !name || st->n == 0)
        return NULL;
    rlx__st_tensor key = { .name = (char *)name };
    return bsearch(&key, st->tensors, st->n, sizeof key, by_name);
}

static const char *u64_list(char *buf, size_t size, const rlx__json *a)
{
    size_t used = 0;
    int n = snprintf(buf, size, "[");
    used = n > 0 ? (size_t)n : 0;
    for (uint32_t i = 0; a && i < a->n && used < size; i++) {
        const rlx__json *d = &a->items[i];
        if (d->is_uint)
            n = snprintf(buf + used, size - used, i ? ",%llu" : "%llu",
                         (unsigned long long)d->u);
        else
            n = snprintf(buf + used, size - used, i ? ",?" : "?");
        used += n > 0 ? (size_t)n : 0;
    }
    if (used < size)
        snprintf(buf + used, size - used, "]");
    return buf;
}

/* Validate one header entry; fills T (name owned by the caller). */
static rlx_status tensor_parse(const char *path, const char *name,
                               const rlx__json *v, uint64_t data_size,
                               uint64_t data_start, rlx__st_tensor *t)
{
    char buf[256];
    if (!*name)
        return rlx__error(RLX_ERR_FORMAT,
                          "%s: a tensor has an empty name. %s", path,
                          FIX_REEXPORT);
    if (v->kind != RLX__JSON_OBJECT)
        return rlx__error(RLX_ERR_FORMAT,
                          "%s: tensor '%s': the header entry is not a JSON "
                          "object (byte %zu of the header). %s",
                          path, name, v->offset, FIX_REEXPORT);
    for (uint32_t i = 0; i < v->n; i++)
        if (strcmp(v->keys[i], "dtype") && strcmp(v->keys[i], "shape") &&
            strcmp(v->keys[i], "data_offsets"))
            return rlx__error(RLX_ERR_FORMAT,
                              "%s: tensor '%s': unknown key '%s' in its "
                              "header entry (valid: dtype, shape, "
                              "data_offsets). %s",
                              path, name, v->keys[i], FIX_REEXPORT);
    const rlx__json *dt = rlx__json_get(v, "dtype");
    const rlx__json *sh = rlx__json_get(v, "shape");
    const rlx__json *off = rlx__json_get(v, "data_offsets");
    if (!dt || !sh || !off)
        return rlx__error(RLX_ERR_FORMAT,
                          "%s: tensor '%s': the header entry has no '%s'. "
                          "%s", path, name,
                          !dt ? "dtype" : !sh ? "shape" : "data_offsets",
                          FIX_REEXPORT);
    if (dt->kind != RLX__JSON_STRING)
        return rlx__error(RLX_ERR_FORMAT,
                          "%s: tensor '%s': 'dtype' is not a string. %s",
                          path, name, FIX_REEXPORT);
    t->dtype = rlx__safetensors_dtype(dt->string);
    if (t->dtype == RLX_DTYPE_INVALID)
        return rlx__error(RLX_ERR_UNSUPPORTED,
                          "%s: tensor '%s' has dtype '%.32s', which rlx "
                          "does not read. Fix: convert it to one of F32, "
                          "F16, BF16, F64, I64, I32, I16, I8, U64, U32, "
                          "U16, U8, BOOL",
                          path, name, dt->string);

    if (sh->kind != RLX__JSON_ARRAY)
        return rlx__error(RLX_ERR_FORMAT,
                          "%s: tensor '%s': 'shape' is not a list. %s",
                          path, name, FIX_REEXPORT);
    if (sh->n > RLX_MAX_RANK)
        return rlx__error(RLX_ERR_UNSUPPORTED,
                          "%s: tensor '%s' has rank %u, above rlx's limit "
                          "of %d. Fix: reshape it to at most %d dimensions "
                          "before export", path, name, sh->n, RLX_MAX_RANK,
                          RLX_MAX_RANK);
    t->rank = sh->n;
    /* SPAN multiplies the non-zero dims: it must fit (in bytes) even when
     * a zero dim leaves no data, or [0, 9223372036854775807, 4] passes */
    uint64_t span = 1;
    int overflow = 0, empty = 0;
    for (uint32_t i = 0; i < sh->n; i++) {
        const rlx__json *d = &sh->items[i];
        if (d->kind != RLX__JSON_NUMBER ||
            (!d->is_uint && !d->uint_overflow))
            return rlx__error(RLX_ERR_FORMAT,
                              "%s: tensor '%s': shape entry %u is not a "
                              "non-negative integer (byte %zu of the header). %s",
                              path, name, i, d->offset, FIX_REEXPORT);
        if (d->uint_overflow || d->u > (uint64_t)INT64_MAX)
            overflow = 1;
        else {
            t->shape[i] = (int64_t)d->u;
            if (d->u == 0)
                empty = 1;
            else if (span > UINT64_MAX / d->u)
                overflow = 1;
            else
                span *= d->u;
        }
    }
    size_t esize = rlx_dtype_size(t->dtype);
    if (overflow || span > (uint64_t)INT64_MAX / esize ||
        rlx__shape_elements(t->rank, t->shape) < 0)
        return rlx__error(RLX_ERR_FORMAT,
                          "%s: tensor '%s': shape %s has more elements "
                          "than fit in 64 bits (its non-zero dimensions "
                          "count even next to a zero). %s",
                          path, name, u64_list(buf, sizeof buf, sh),
                          FIX_REEXPORT);
    uint64_t numel = empty ? 0 : span;

    if (off->kind != RLX__JSON_ARRAY || off->n != 2 ||
        !off->items[0].is_uint || !off->items[1].is_uint)
        return rlx__error(RLX_ERR_FORMAT,
                          "%s: tensor '%s': 'data_offsets' is not a list "
                          "of two non-negative integers (byte %zu of the header). "
                          "%s", path, name, off->offset, FIX_REEXPORT);
    t->begin = off->items[0].u;
    t->end = off->items[1].u;
    uint64_t need = numel * esize;
    if (t->end < t->begin)
        return rlx__error(RLX_ERR_FORMAT,
                          "%s: tensor '%s': data_offsets [%llu, %llu] end "
                          "before they begin. %s",
                          path, name, (unsigned long long)t->begin,
                          (unsigned long long)t->end, FIX_REEXPORT);
    if (t->end - t->begin != need) {
        char sbuf[160];
        return rlx__error(RLX_ERR_FORMAT,
                          "%s: tensor '%s': data_offsets [%llu, %llu] hold "
                          "%llu bytes, but dtype %s and shape %s need %llu "
                          "bytes. Fix: the header does not match the data; "
                          "re-export the weights",
                          path, name, (unsigned long long)t->begin,
                          (unsigned long long)t->end,
                          (unsigned long long)(t->end - t->begin),
                          dt->string,
                          rlx__shape_str(sbuf, sizeof sbuf, t->rank,
                                         t->shape),
                          (unsigned long long)need);
    }
    if (t->end > data_size)
        return rlx__error(RLX_ERR_FORMAT,
                          "%s: the file is truncated: it is %llu bytes, "
                          "but tensor '%s' (data_offsets [%llu, %llu]) "
                          "ends at byte %llu. Fix: copy or download the "
                          "file again, or re-export the weights",
                          path, (unsigned long long)(data_start + data_size),
                          name, (unsigned long long)t->begin,
                          (unsigned long long)t->end,
                          (unsigned long long)(data_start + t->end));
    return RLX_OK;
}

static rlx_status header_parse(rlx__safetensors *st, const char *text,
                               uint64_t header_len, uint64_t data_size)
{
    char err[200];
    rlx__json *root = rlx__json_parse(text, (size_t)header_len, err,
                                      sizeof err);
    if (!root)
        return rlx__error(RLX_ERR_FORMAT,
                          "%s: the header is not valid JSON: %s (the "
                          "header starts at file byte 8). Fix: this is not a "
                          "safetensors file, or it is damaged; re-export "
                          "the weights", st->path, err);
    rlx_status rc = RLX_OK;
    if (root->kind != RLX__JSON_OBJECT) {
        rc = rlx__error(RLX_ERR_FORMAT,
                        "%s: the header is not a JSON object. %s",
                        st->path, FIX_REEXPORT);
        goto done;
    }
    st->tensors = calloc(root->n + 1, sizeof *st->tensors);
    if (!st->tensors) {
        rc = rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
        goto done;
    }
    for (uint32_t i = 0; i < root->n; i++) {
        const rlx__json *v = &root->items[i];
        if (strcmp(root->keys[i], "__metadata__") == 0) {
            if (v->kind != RLX__JSON_OBJECT) {
                rc = rlx__error(RLX_ERR_FORMAT,
                                "%s: '__metadata__' is not a JSON object. "
                                "%s", st->path, FIX_REEXPORT);
                goto done;
            }
            continue;
        }
        rlx__st_tensor *t = &st->tensors[st->n];
        rc = tensor_parse(st->path, root->keys[i], v, data_size,
                          8 + header_len, t);
        if (rc != RLX_OK)
            goto done;
        t->name = rlx__strdup(root->keys[i]);
        if (!t->name) {
            rc = rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
            goto done;
        }
        t->data = (const char *)st->map + 8 + header_len + t->begin;
        st->n++;
    }

    /* no two non-empty byte ranges may overlap */
    qsort(st->tensors, st->n, sizeof *st->tensors, by_begin);
    const rlx__st_tensor *prev = NULL;
    for (uint32_t i = 0; i < st->n; i++) {
        const rlx__st_tensor *t = &st->tensors[i];
        if (t->begin == t->end)
            continue;
        if (prev && t->begin < prev->end) {
            rc = rlx__error(RLX_ERR_FORMAT,
                            "%s: tensors '%s' (bytes %llu..%llu) and '%s' "
                            "(bytes %llu..%llu) overlap. Fix: the header "
                            "is corrupt; re-export the weights",
                            st->path, prev->name,
                            (unsigned long long)prev->begin,
                            (unsigned long long)prev->end, t->name,
                            (unsigned long long)t->begin,
                            (unsigned long long)t->end);
            goto done;
        }
        prev = t;
    }
    qsort(st->tensors, st->n, sizeof *st->tensors, by_name);
done:
    rlx__json_free(root);
    return rc;
}

rlx_status rlx__safetensors_open(const char *path, rlx__safetensors **out)
{
    *out = NULL;
    /* O_NONBLOCK: a FIFO must be refused below, not wait for a writer */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return rlx__error(errno == ENOENT ? RLX_ERR_NOT_FOUND : RLX_ERR_IO,
                          "%s: cannot open the weights file: %s. Fix: put "
                          "the weights there, or correct the model's "
                          "'weights' path (relative to the model file)",
                          path, strerror(errno));
    struct stat sb;
    if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        close(fd);
        return rlx__error(RLX_ERR_IO,
                          "%s: the weights file is not a regular file. Fix: "
                          "point 'weights' at a .safetensors file", path);
    }
    uint64_t size = (uint64_t)sb.st_size;
    if (size < 8) {
        close(fd);
        return rlx__error(RLX_ERR_FORMAT,
                          "%s: the file is %llu bytes, too short for the "
                          "8-byte header length. Fix: the file is truncated "
                          "or not safetensors; re-export the weights",
                          path, (unsigned long long)size);
    }
    if ((uint64_t)(size_t)size != size) {
        close(fd);
        return rlx__error(RLX_ERR_FORMAT, "%s: the file is too large to "
                          "map. Fix: use a 64-bit build", path);
    }
    rlx__safetensors *st = calloc(1, sizeof *st);
    if (st)
        st->path = rlx__strdup(path);
    if (!st || !st->path) {
        close(fd);
        rlx__safetensors_close(st);
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    }
    void *map = mmap(NULL, (size_t)size, PROT_READ, MAP_PRIVATE, fd, 0);
    int map_errno = errno;
    close(fd);
    if (map == MAP_FAILED) {
        rlx__safetensors_close(st);
        return rlx__error(RLX_ERR_IO, "%s: cannot map the file: %s. Fix: "
                          "check free address space and the file system",
                          path, strerror(map_errno));
    }
    st->map = map;
    st->map_size = (size_t)size;

    const unsigned char *b = map;
    uint64_t n = 0;
    for (int i = 7; i >= 0; i--)
        n = (n << 8) | b[i];
    rlx_status rc = RLX_OK;
    if (n > HEADER_MAX)
        rc = rlx__error(RLX_ERR_FORMAT,
                        "%s: the header length is %llu bytes, above the "
                        "limit of %u. Fix: the file is damaged or not "
                        "safetensors; re-export the weights",
                        path, (unsigned long long)n, HEADER_MAX);
    else if (n > size - 8)
        rc = rlx__error(RLX_ERR_FORMAT,
                        "%s: the header length is %llu bytes, but the file "
                        "is only %llu bytes. Fix: the file is truncated or "
                        "not safetensors; copy it again or re-export the "
                        "weights", path, (unsigned long long)n,
                        (unsigned long long)size);
    else
        rc = header_parse(st, (const char *)b + 8, n, size - 8 - n);
    if (rc != RLX_OK) {
        rlx__safetensors_close(st);
        return rc;
    }
    *out = st;
    return RLX_OK;
}
