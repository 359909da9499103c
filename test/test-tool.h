/*
 * test-tool.h - running the rlx binary from tests (test-run.c,
 * test-conformance.c): capture its output and exit code, temporary
 * directories, and a minimal .npy reader written independently of the
 * tool's own, so the tool's files are checked by a second reader.
 */
#ifndef RLX_TEST_TOOL_H
#define RLX_TEST_TOOL_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"

static char *tool_out; /* output of the last run, freed by the next */

static inline const char *tool_env(const char *name)
{
    const char *v = getenv(name);
    if (!v || !*v)
        FAIL("%s is not set (run through meson test)", name);
    return v;
}

/* S in single quotes for sh. */
static inline void tool_quote(char *dst, size_t n, const char *s)
{
    size_t k = 0;
    dst[k++] = '\'';
    for (; *s && k + 6 < n; s++) {
        if (*s == '\'') {
            memcpy(dst + k, "'\\''", 4);
            k += 4;
        } else {
            dst[k++] = *s;
        }
    }
    dst[k++] = '\'';
    dst[k] = '\0';
}

/* Runs `rlx ARGS` (ARGS already quoted where needed); stdout, and stderr
 * when MERGE, land in tool_out. Returns the exit code, -1 if killed. */
static inline int tool_run(const char *args, int merge)
{
    char bin[4096], *cmd;
    size_t len = 0, cap = 65536, clen = strlen(args) + 8192;
    FILE *pipe;

    free(tool_out);
    tool_out = malloc(cap);
    cmd = malloc(clen);
    ASSERT(tool_out && cmd);
    tool_quote(bin, sizeof bin, tool_env("RLX_TEST_RLX_BIN"));
    snprintf(cmd, clen, "%s %s %s", bin, args,
             merge ? "2>&1" : "2>/dev/null");
    fflush(stdout);
    pipe = popen(cmd, "r");
    free(cmd);
    ASSERT(pipe);
    for (;;) {
        if (len + 4096 > cap) {
            char *grown = realloc(tool_out, cap *= 2);
            ASSERT(grown);
            tool_out = grown;
        }
        size_t got = fread(tool_out + len, 1, cap - len - 1, pipe);
        if (got == 0)
            break;
        len += got;
    }
    tool_out[len] = '\0';
    int status = pclose(pipe);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The line of tool_out that starts with PREFIX, copied; "" when none. */
static inline const char *tool_line(const char *prefix)
{
    static char line[2048];
    size_t plen = strlen(prefix);
    line[0] = '\0';
    for (const char *p = tool_out; p && *p;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        if (n >= plen && !strncmp(p, prefix, plen)) {
            if (n >= sizeof line)
                n = sizeof line - 1;
            memcpy(line, p, n);
            line[n] = '\0';
            return line;
        }
        p = nl ? nl + 1 : NULL;
    }
    return line;
}

/* ---- temporary directories ------------------------------------------- */

#define TOOL_TMP_MAX 8
static char tool_tmp[TOOL_TMP_MAX][64];
static int tool_tmp_count;

static inline void tool_tmp_remove_all(void)
{
    for (int i = 0; i < tool_tmp_count; i++) {
        char q[128], cmd[160];
        tool_quote(q, sizeof q, tool_tmp[i]);
        snprintf(cmd, sizeof cmd, "rm -rf %s", q);
        if (system(cmd) != 0)
            printf("# could not remove %s\n", tool_tmp[i]);
    }
    tool_tmp_count = 0;
    free(tool_out);
    tool_out = NULL;
}

static inline const char *tool_tmp_make(void)
{
    ASSERT(tool_tmp_count < TOOL_TMP_MAX);
    if (tool_tmp_count == 0)
        atexit(tool_tmp_remove_all);
    char *d = tool_tmp[tool_tmp_count++];
    strcpy(d, "/tmp/rlx-test-tool-XXXXXX");
    if (!mkdtemp(d))
        FAIL("mkdtemp: %s", strerror(errno));
    return d;
}

static inline void tool_file_write(const char *path, const void *data,
                                   size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        FAIL("cannot create %s: %s", path, strerror(errno));
    ASSERT(n == 0 || fwrite(data, 1, n, f) == n);
    ASSERT(fclose(f) == 0);
}

/* Reads at most LIMIT bytes of PATH; caller frees. */
static inline unsigned char *tool_file_read(const char *path, size_t limit,
                                            size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        FAIL("cannot open %s: %s", path, strerror(errno));
    unsigned char *buf = malloc(limit + 1);
    ASSERT(buf);
    *len = fread(buf, 1, limit, f);
    buf[*len] = '\0'; /* header checks may use string functions */
    fclose(f);
    return buf;
}

static inline void tool_file_copy(const char *src, const char *dst)
{
    size_t n;
    unsigned char *b = tool_file_read(src, 64u << 20, &n);
    tool_file_write(dst, b, n);
    free(b);
}

/* ---- .npy, f32 only ------------------------------------------------- */

typedef struct tool_npy {
    int rank;
    long long dims[8];
    size_t count;
    float *data;
} tool_npy;

/* A version 1.0 '<f4' C-order file; fails the test otherwise. */
static inline void tool_npy_read(const char *path, tool_npy *a)
{
    size_t len;
    unsigned char *b = tool_file_read(path, 64u << 20, &len);
    memset(a, 0, sizeof *a);
    if (len < 10 || memcmp(b, "\x93NUMPY\x01\x00", 8) != 0) {
        free(b);
        FAIL("%s: not a version 1.0 .npy file", path);
    }
    size_t hlen = (size_t)b[8] | (size_t)b[9] << 8;
    char header[1024];
    if (hlen >= sizeof header || 10 + hlen > len) {
        free(b);
        FAIL("%s: bad header length", path);
    }
    memcpy(header, b + 10, hlen);
    header[hlen] = '\0';
    const char *shape = strstr(header, "'shape': (");
    if (!strstr(header, "'descr': '<f4'") ||
        !strstr(header, "'fortran_order': False") || !shape) {
        free(b);
        FAIL("%s: unexpected header %s", path, header);
    }
    shape += strlen("'shape': (");
    a->count = 1;
    while (*shape != ')') {
        char *end;
        long long d = strtoll(shape, &end, 10);
        if (end == shape || a->rank >= 8) {
            free(b);
            FAIL("%s: bad shape in %s", path, header);
        }
        a->dims[a->rank++] = d;
        a->count *= (size_t)d;
        shape = end;
        while (*shape == ',' || *shape == ' ')
            shape++;
    }
    if (10 + hlen + a->count * 4 != len) {
        free(b);
        FAIL("%s: %zu bytes of data, expected %zu", path, len - 10 - hlen,
             a->count * 4);
    }
    a->data = malloc(a->count * 4 + 1);
    ASSERT(a->data);
    memcpy(a->data, b + 10 + hlen, a->count * 4);
    free(b);
}

static inline void tool_npy_free(tool_npy *a)
{
    free(a->data);
    a->data = NULL;
}

#endif
