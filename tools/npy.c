/*
 * npy.c - see npy.h. The header is a Python dict literal; this parser
 * accepts exactly what NumPy writes (the three keys, each once, in any
 * order, with a trailing comma and space padding) and nothing looser, so
 * a damaged file is refused rather than misread.
 */
#include "npy.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const unsigned char npy_magic[6] = { 0x93, 'N', 'U', 'M', 'P', 'Y' };
static const char npy_fix_save[] =
    "Fix: write it with numpy.save(path, array) from a C-ordered, "
    "little-endian array";

static const struct {
    const char *descr;
    rlx_dtype dtype;
} npy_types[] = {
    { "<f4", RLX_DTYPE_F32 }, { "<f2", RLX_DTYPE_F16 },
    { "<f8", RLX_DTYPE_F64 }, { "<i4", RLX_DTYPE_I32 },
    { "<i8", RLX_DTYPE_I64 }, { "|i1", RLX_DTYPE_I8 },
    { "|u1", RLX_DTYPE_U8 },  { "|b1", RLX_DTYPE_BOOL },
    { "<u2", CLI_NPY_U16 },   { "<i2", RLX_DTYPE_I16 },
    { "<u4", RLX_DTYPE_U32 }, { "<u8", RLX_DTYPE_U64 },
};

static int npy_fail(char *err, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, n, fmt, ap);
    va_end(ap);
    return -1;
}

const char *cli_npy_descr(rlx_dtype dtype)
{
    if (dtype == RLX_DTYPE_BF16)
        return "<u2";
    for (size_t i = 0; i < sizeof npy_types / sizeof *npy_types; i++)
        if (npy_types[i].dtype == dtype)
            return npy_types[i].descr;
    return NULL;
}

/* ---- header parsing ------------------------------------------------- */

typedef struct npy_parser {
    const char *p, *end;
} npy_parser;

static void skip_space(npy_parser *ps)
{
    while (ps->p < ps->end && *ps->p == ' ')
        ps->p++;
}

static int accept(npy_parser *ps, char c)
{
    skip_space(ps);
    if (ps->p < ps->end && *ps->p == c) {
        ps->p++;
        return 1;
    }
    return 0;
}

/* A quoted Python string without escapes, into BUF. */
static int parse_string(npy_parser *ps, char *buf, size_t n)
{
    skip_space(ps);
    if (ps->p >= ps->end || (*ps->p != '\'' && *ps->p != '"'))
        return -1;
    char q = *ps->p++;
    size_t k = 0;
    while (ps->p < ps->end && *ps->p != q) {
        if (*ps->p == '\\' || k + 1 >= n)
            return -1;
        buf[k++] = *ps->p++;
    }
    if (ps->p >= ps->end)
        return -1;
    ps->p++;
    buf[k] = '\0';
    return 0;
}

static int parse_word(npy_parser *ps, const char *word)
{
    size_t n = strlen(word);
    skip_space(ps);
    if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n) != 0)
        return -1;
    ps->p += n;
    return 0;
}

/* "()" "(3,)" "(2, 3)" */
static int parse_shape(npy_parser *ps, cli_tensor *t)
{
    if (!accept(ps, '('))
        return -1;
    t->rank = 0;
    while (!accept(ps, ')')) {
        skip_space(ps);
        int64_t v = 0;
        const char *start = ps->p;
        while (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9') {
            if (v > (INT64_MAX - 9) / 10)
                return -1;
            v = v * 10 + (*ps->p++ - '0');
        }
        if (ps->p == start || t->rank >= CLI_TENSOR_MAX_RANK)
            return -1;
        t->dims[t->rank++] = v;
        if (accept(ps, ','))
            continue;
        if (!accept(ps, ')'))
            return -1;
        if (t->rank == 1)
            return -1; /* Python writes a 1-tuple as "(n,)" */
        break;
    }
    return 0;
}

static int parse_header(const char *text, size_t len, cli_tensor *t,
                        char *descr, char *err, size_t n)
{
    npy_parser ps = { text, text + len };
    int seen_descr = 0, seen_order = 0, seen_shape = 0;

    if (len == 0 || text[len - 1] != '\n')
        return npy_fail(err, n, "the header does not end in a newline");
    ps.end--; /* the newline */
    if (!accept(&ps, '{'))
        return npy_fail(err, n, "the header is not a Python dict");
    while (!accept(&ps, '}')) {
        char key[32];
        if (parse_string(&ps, key, sizeof key) != 0 || !accept(&ps, ':'))
            return npy_fail(err, n, "the header dict is malformed");
        if (!strcmp(key, "descr") && !seen_descr++) {
            if (parse_string(&ps, descr, 16) != 0)
                return npy_fail(err, n, "'descr' is not a simple type "
                                "string (structured arrays are not "
                                "supported)");
        } else if (!strcmp(key, "fortran_order") && !seen_order++) {
            if (parse_word(&ps, "False") != 0)
                return npy_fail(err, n, "the array is in Fortran order; "
                                "only C order is supported. Fix: save "
                                "numpy.ascontiguousarray(array)");
        } else if (!strcmp(key, "shape") && !seen_shape++) {
            if (parse_shape(&ps, t) != 0)
                return npy_fail(err, n, "'shape' is not a tuple of at "
                                "most %d non-negative integers",
                                CLI_TENSOR_MAX_RANK);
        } else {
            return npy_fail(err, n, "unexpected or repeated key '%s' in "
                            "the header", key);
        }
        if (!accept(&ps, ',')) {
            if (!accept(&ps, '}'))
                return npy_fail(err, n, "the header dict is malformed");
            break;
        }
    }
    skip_space(&ps);
    if (ps.p != ps.end)
        return npy_fail(err, n, "unexpected text after the header dict");
    if (!seen_descr || !seen_order || !seen_shape)
        return npy_fail(err, n, "the header lacks '%s'",
                        !seen_descr ? "descr" : !seen_order ? "fortran_order"
                                                            : "shape");
    return 0;
}

/* ---- reading and writing -------------------------------------------- */

static int read_exact(FILE *f, void *buf, size_t n)
{
    return n == 0 || fread(buf, 1, n, f) == n ? 0 : -1;
}

/* "1.5 GiB" */
static const char *npy_size_str(char *buf, size_t n, double bytes)
{
    static const char *const units[] = { "bytes", "KiB", "MiB", "GiB",
                                         "TiB", "PiB", "EiB" };
    int u = 0;
    while (bytes >= 1024 && u < 6) {
        bytes /= 1024;
        u++;
    }
    snprintf(buf, n, u ? "%.1f %s" : "%.0f %s", bytes, units[u]);
    return buf;
}

/* FILE_SIZE: of the whole file, to check the data the header promises
 * before allocating anything for it. */
static int npy_read_file(FILE *f, long long file_size, cli_tensor *t,
                         char *err, size_t n)
{
    unsigned char pre[10];
    char descr[16] = "";
    size_t hlen;

    if (read_exact(f, pre, 8) != 0 || memcmp(pre, npy_magic, 6) != 0)
        return npy_fail(err, n, "not a .npy file (no \\x93NUMPY magic)");
    if (pre[6] < 1 || pre[6] > 3 || pre[7] != 0)
        return npy_fail(err, n, "format version %u.%u is not supported "
                        "(1.0, 2.0 and 3.0 are)", pre[6], pre[7]);
    if (pre[6] == 1) {
        if (read_exact(f, pre + 8, 2) != 0)
            return npy_fail(err, n, "truncated header");
        hlen = (size_t)pre[8] | (size_t)pre[9] << 8;
    } else {
        unsigned char l[4];
        if (read_exact(f, l, 4) != 0)
            return npy_fail(err, n, "truncated header");
        hlen = (size_t)l[0] | (size_t)l[1] << 8 | (size_t)l[2] << 16 |
               (size_t)l[3] << 24;
        if (hlen > (1u << 20))
            return npy_fail(err, n, "header length %zu is implausible", hlen);
    }
    char *text = malloc(hlen + 1);
    if (!text)
        return npy_fail(err, n, "out of memory");
    if (read_exact(f, text, hlen) != 0) {
        free(text);
        return npy_fail(err, n, "truncated header");
    }
    text[hlen] = '\0';
    cli_tensor shape = { 0 };
    int rc = parse_header(text, hlen, &shape, descr, err, n);
    free(text);
    if (rc != 0)
        return -1;

    rlx_dtype dtype = RLX_DTYPE_INVALID;
    for (size_t i = 0; i < sizeof npy_types / sizeof *npy_types; i++)
        if (!strcmp(descr, npy_types[i].descr))
            dtype = npy_types[i].dtype;
    if (dtype == RLX_DTYPE_INVALID)
        return npy_fail(err, n, "dtype '%s' is not supported (supported: "
                        "<f4 <f2 <f8 <i2 <i4 <i8 |i1 |u1 <u2 <u4 <u8 |b1; "
                        "<u2 also for bf16 bits)", descr);

    /* The data the header promises, against what the file holds, before
     * allocating: a damaged header must not ask for terabytes. */
    size_t esize = rlx_dtype_size(dtype == CLI_NPY_U16 ? RLX_DTYPE_BF16
                                                        : dtype);
    int64_t count = cli_shape_count(shape.rank, shape.dims);
    /* the non-zero dims must fit in bytes too, whatever the zero dims */
    int64_t span = 1;
    for (uint32_t i = 0; count >= 0 && i < shape.rank; i++)
        if (shape.dims[i] > 0)
            span *= shape.dims[i]; /* cannot overflow: count >= 0 */
    if (count < 0 || (uint64_t)span > (uint64_t)INT64_MAX / esize ||
        (uint64_t)span > SIZE_MAX / esize)
        return npy_fail(err, n, "the header's shape is too large: its "
                        "non-zero dimensions multiply past 2^63 bytes");
    unsigned long long want = (unsigned long long)count * esize;
    long long at = ftell(f);
    unsigned long long have =
        at >= 0 && file_size >= at ? (unsigned long long)(file_size - at) : 0;
    if (have < want)
        return npy_fail(err, n, "truncated data: the header promises %llu "
                        "bytes, the file holds %llu after the header",
                        want, have);
    if (have > want)
        return npy_fail(err, n, "trailing bytes after the %llu bytes of "
                        "data the header describes (the file holds %llu)",
                        want, have);

    /* Allocate as a same-sized real dtype, then relabel '<u2'. */
    rlx_dtype alloc = dtype == CLI_NPY_U16 ? RLX_DTYPE_BF16 : dtype;
    if (cli_tensor_alloc(t, alloc, shape.rank, shape.dims) != 0) {
        char sz[32];
        return npy_fail(err, n, "cannot allocate %s (%llu bytes) for the "
                        "array: out of memory. Fix: free memory, or run "
                        "with a smaller input",
                        npy_size_str(sz, sizeof sz, (double)want), want);
    }
    t->dtype = dtype;
    if (read_exact(f, t->data, t->nbytes) != 0) {
        cli_tensor_free(t);
        return npy_fail(err, n, "truncated data: the header promises %llu "
                        "bytes, fewer could be read", want);
    }
    if (fgetc(f) != EOF) {
        cli_tensor_free(t);
        return npy_fail(err, n, "trailing bytes after the %llu bytes of "
                        "data the header describes", want);
    }
    return 0;
}

int cli_npy_read(const char *path, cli_tensor *t, char *err, size_t n)
{
    char why[512];
    memset(t, 0, sizeof *t);
    /* O_NONBLOCK: a FIFO is refused below instead of blocking forever */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return npy_fail(err, n, "%s: %s. Fix: give the path of an existing "
                        ".npy file", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return npy_fail(err, n, "%s: not a regular file (a FIFO, device or "
                        "directory). Fix: give the path of a .npy file",
                        path);
    }
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        close(fd);
        return npy_fail(err, n, "%s: %s. Fix: free resources", path,
                        strerror(errno));
    }
    int rc = npy_read_file(f, (long long)st.st_size, t, why, sizeof why);
    fclose(f);
    if (rc != 0)
        return npy_fail(err, n, "%s: %s%s%s", path, why,
                        strstr(why, "Fix:") ? "" : ". ",
                        strstr(why, "Fix:") ? "" : npy_fix_save);
    return 0;
}

int cli_npy_write(const char *path, const cli_tensor *t, char *err,
                  size_t n)
{
    const char *descr = cli_npy_descr(t->dtype);
    char header[512], shape[300];
    size_t k = 0;

    if (!descr)
        return npy_fail(err, n, "%s: dtype %s has no .npy form. Fix: cast "
                        "the output to f32 in the model", path,
                        rlx_dtype_name(t->dtype));
    for (uint32_t i = 0; i < t->rank; i++)
        k += (size_t)snprintf(shape + k, sizeof shape - k, "%lld,%s",
                              (long long)t->dims[i],
                              i + 1 < t->rank ? " " : "");
    if (t->rank > 1)
        shape[k - 1] = '\0'; /* "(2, 3)", but "(3,)" */
    else if (t->rank == 0)
        shape[0] = '\0';
    int len = snprintf(header, sizeof header,
                       "{'descr': '%s', 'fortran_order': False, "
                       "'shape': (%s), }", descr, shape);
    /* Pad with spaces so the data starts on a 64-byte boundary. */
    size_t total = 10 + (size_t)len + 1;
    size_t pad = (64 - total % 64) % 64;
    memset(header + len, ' ', pad);
    header[len + pad] = '\n';
    size_t hlen = (size_t)len + pad + 1;

    FILE *f = fopen(path, "wb");
    if (!f)
        return npy_fail(err, n, "cannot create %s: %s. Fix: check that the "
                        "directory exists and is writable", path,
                        strerror(errno));
    unsigned char pre[10] = { 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0,
                              (unsigned char)(hlen & 0xff),
                              (unsigned char)(hlen >> 8) };
    int ok = fwrite(pre, 1, 10, f) == 10 &&
             fwrite(header, 1, hlen, f) == hlen &&
             (t->nbytes == 0 || fwrite(t->data, 1, t->nbytes, f) == t->nbytes);
    if (fclose(f) != 0)
        ok = 0;
    if (!ok)
        return npy_fail(err, n, "cannot write %s: %s. Fix: check free disk "
                        "space", path, strerror(errno));
    return 0;
}
