/*
 * scan_format.c - the text form of a scanned file, shared by the scanner's
 * pipe protocol and the registry cache, so both are parsed by one strict
 * reader. One record per file:
 *
 *   file PATH DEV INO SIZE MTIME_NS SCANNED
 *   clean FIT FAMILY | refused STATUS ERROR | blacklisted REASON FIX
 *   backend ID KIND DEVICE PRIORITY FLAGS ABI OPS     (clean, repeated)
 *   diag KIND REASON FIX                              (refused, repeated)
 *   end
 *
 * Tokens are separated by one space; bytes below '!', DEL and '%' are
 * written as %XX, an empty string as "-" (and "-" itself as %2D).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "scan.h"

#define MAX_TOKENS 10
#define MAX_PER_ENTRY 4096 /* backends or diags: more is a hostile file */

void rlx__scan_put_token(FILE *f, const char *s)
{
    if (!s || !*s) {
        fputc('-', f);
        return;
    }
    if (strcmp(s, "-") == 0) {
        fputs("%2D", f);
        return;
    }
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p <= ' ' || *p == 0x7f || *p == '%')
            fprintf(f, "%%%02X", *p);
        else
            fputc(*p, f);
    }
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

/* Unescape S in place; -1 on a bad escape or an escaped NUL. */
static int unescape(char *s)
{
    if (strcmp(s, "-") == 0) {
        *s = '\0';
        return 0;
    }
    char *w = s;
    for (char *r = s; *r; r++) {
        if (*r != '%') {
            *w++ = *r;
            continue;
        }
        int hi = hexval(r[1]), lo = hi < 0 ? -1 : hexval(r[2]);
        if (hi < 0 || lo < 0 || (hi | lo) == 0)
            return -1;
        *w++ = (char)(hi * 16 + lo);
        r += 2;
    }
    *w = '\0';
    return 0;
}

int rlx__scan_tokens(char *line, char **tok, int max)
{
    int n = 0;
    char *p = line;
    while (*p) {
        if (n == max)
            return -1;
        tok[n++] = p;
        char *sp = strchr(p, ' ');
        if (!sp)
            break;
        *sp = '\0';
        p = sp + 1;
        if (!*p)
            return -1; /* trailing space */
    }
    for (int i = 0; i < n; i++)
        if (!*tok[i] || unescape(tok[i]) != 0)
            return -1;
    return n;
}

static int to_ll(const char *s, long long *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || end == s || *end)
        return -1;
    *out = v;
    return 0;
}

static int to_ull(const char *s, unsigned long long *out)
{
    char *end;
    errno = 0;
    if (*s == '-')
        return -1;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s || *end)
        return -1;
    *out = v;
    return 0;
}

static int to_i32(const char *s, int32_t *out)
{
    long long v;
    if (to_ll(s, &v) || v < INT32_MIN || v > INT32_MAX)
        return -1;
    *out = (int32_t)v;
    return 0;
}

static int to_u32(const char *s, uint32_t *out)
{
    unsigned long long v;
    if (to_ull(s, &v) || v > UINT32_MAX)
        return -1;
    *out = (uint32_t)v;
    return 0;
}

static char *dup_or_null(const char *s)
{
    return *s ? rlx__strdup(s) : NULL;
}

void rlx__scan_entry_free(rlx__scan_entry *e)
{
    if (!e)
        return;
    free(e->path);
    free(e->family);
    free(e->error);
    free(e->fix);
    for (uint32_t i = 0; i < e->n_backends; i++) {
        free(e->backends[i].id);
        free(e->backends[i].device_name);
        free(e->backends[i].ops);
    }
    free(e->backends);
    for (uint32_t i = 0; i < e->n_diags; i++) {
        free(e->diags[i].reason);
        free(e->diags[i].fix);
    }
    free(e->diags);
    memset(e, 0, sizeof *e);
}

void rlx__scan_parser_free(rlx__scan_parser *ps)
{
    rlx__scan_entry_free(&ps->cur);
    ps->open = 0;
}

static int parse_backend(rlx__scan_entry *e, char **t, int n)
{
    rlx__scan_backend b = { 0 };
    if (n != 8 || e->state != RLX__SCANNED_CLEAN ||
        e->n_backends >= MAX_PER_ENTRY)
        return -1;
    if (to_i32(t[2], &b.kind) || to_i32(t[4], &b.priority) ||
        to_u32(t[5], &b.flags) || to_u32(t[6], &b.abi))
        return -1;
    rlx__scan_backend *grown = realloc(e->backends,
                                       (e->n_backends + 1) * sizeof *grown);
    if (!grown)
        return -1;
    e->backends = grown;
    b.id = rlx__strdup(t[1]);
    b.device_name = rlx__strdup(t[3]);
    b.ops = rlx__strdup(t[7]);
    e->backends[e->n_backends++] = b;
    return b.id && b.device_name && b.ops ? 0 : -1;
}

static int parse_diag(rlx__scan_entry *e, char **t, int n)
{
    rlx__scan_diag d = { 0 };
    if (n != 4 || e->state != RLX__SCANNED_REFUSED ||
        e->n_diags >= MAX_PER_ENTRY || to_i32(t[1], &d.kind))
        return -1;
    rlx__scan_diag *grown = realloc(e->diags, (e->n_diags + 1) * sizeof *grown);
    if (!grown)
        return -1;
    e->diags = grown;
    d.reason = rlx__strdup(t[2]);
    d.fix = rlx__strdup(t[3]);
    e->diags[e->n_diags++] = d;
    return d.reason && d.fix ? 0 : -1;
}

static int parse_state(rlx__scan_entry *e, char **t, int n)
{
    if (e->state)
        return -1; /* one state line per record */
    if (strcmp(t[0], "clean") == 0 && n == 3) {
        e->state = RLX__SCANNED_CLEAN;
        if (to_i32(t[1], &e->fit))
            return -1;
        e->family = dup_or_null(t[2]);
        return 0;
    }
    if (strcmp(t[0], "refused") == 0 && n == 3) {
        e->state = RLX__SCANNED_REFUSED;
        if (to_i32(t[1], &e->status) || e->status == RLX_OK)
            return -1;
        e->error = rlx__strdup(t[2]);
        return e->error ? 0 : -1;
    }
    if (strcmp(t[0], "blacklisted") == 0 && n == 3) {
        e->state = RLX__SCANNED_BLACKLISTED;
        e->error = rlx__strdup(t[1]);
        e->fix = rlx__strdup(t[2]);
        return e->error && e->fix ? 0 : -1;
    }
    return -1;
}

static int parse_file(rlx__scan_entry *e, char **t, int n)
{
    if (n != 9)
        return -1;
    if (to_ull(t[2], &e->dev) || to_ull(t[3], &e->ino) ||
        to_ll(t[4], &e->size) || to_ll(t[5], &e->mtime_ns) ||
        to_ll(t[6], &e->ctime_ns) || to_ull(t[7], &e->gen) ||
        to_ll(t[8], &e->scanned))
        return -1;
    e->path = rlx__strdup(t[1]);
    e->fit = -1;
    return e->path ? 0 : -1;
}

int rlx__scan_parse_line(rlx__scan_parser *ps, char *line,
                         rlx__scan_entry *done)
{
    char *t[MAX_TOKENS];
    int n = rlx__scan_tokens(line, t, MAX_TOKENS);
    int bad = n < 1;
    if (!bad && !ps->open) {
        bad = strcmp(t[0], "file") != 0 || parse_file(&ps->cur, t, n);
        ps->open = !bad;
    } else if (!bad && strcmp(t[0], "backend") == 0) {
        bad = parse_backend(&ps->cur, t, n);
    } else if (!bad && strcmp(t[0], "diag") == 0) {
        bad = parse_diag(&ps->cur, t, n);
    } else if (!bad && strcmp(t[0], "end") == 0) {
        if (n != 1 || !ps->cur.state)
            bad = 1;
        else {
            *done = ps->cur;
            memset(&ps->cur, 0, sizeof ps->cur);
            ps->open = 0;
            return 1;
        }
    } else if (!bad) {
        bad = parse_state(&ps->cur, t, n);
    }
    if (bad) {
        rlx__scan_parser_free(ps);
        return -1;
    }
    return 0;
}

void rlx__scan_entry_write(FILE *f, const rlx__scan_entry *e)
{
    fputs("file ", f);
    rlx__scan_put_token(f, e->path);
    fprintf(f, " %llu %llu %lld %lld %lld %llu %lld\n", e->dev, e->ino,
            e->size, e->mtime_ns, e->ctime_ns, e->gen, e->scanned);
    switch (e->state) {
    case RLX__SCANNED_CLEAN:
        fprintf(f, "clean %d ", (int)e->fit);
        rlx__scan_put_token(f, e->family);
        fputc('\n', f);
        break;
    case RLX__SCANNED_REFUSED:
        fprintf(f, "refused %d ", e->status);
        rlx__scan_put_token(f, e->error);
        fputc('\n', f);
        break;
    default:
        fputs("blacklisted ", f);
        rlx__scan_put_token(f, e->error);
        fputc(' ', f);
        rlx__scan_put_token(f, e->fix);
        fputc('\n', f);
        break;
    }
    for (uint32_t i = 0; i < e->n_backends; i++) {
        const rlx__scan_backend *b = &e->backends[i];
        fputs("backend ", f);
        rlx__scan_put_token(f, b->id);
        fprintf(f, " %d ", b->kind);
        rlx__scan_put_token(f, b->device_name);
        fprintf(f, " %d %u %u ", (int)b->priority, b->flags, b->abi);
        rlx__scan_put_token(f, b->ops);
        fputc('\n', f);
    }
    for (uint32_t i = 0; i < e->n_diags; i++) {
        fprintf(f, "diag %d ", e->diags[i].kind);
        rlx__scan_put_token(f, e->diags[i].reason);
        fputc(' ', f);
        rlx__scan_put_token(f, e->diags[i].fix);
        fputc('\n', f);
    }
    fputs("end\n", f);
}

int rlx__scan_cache_put(rlx__scan_cache *c, rlx__scan_entry *e)
{
    for (uint32_t i = 0; i < c->n; i++)
        if (strcmp(c->entries[i].path, e->path) == 0) {
            rlx__scan_entry_free(&c->entries[i]);
            c->entries[i] = *e;
            memset(e, 0, sizeof *e);
            return 0;
        }
    rlx__scan_entry *grown = realloc(c->entries, (c->n + 1) * sizeof *grown);
    if (!grown) {
        rlx__scan_entry_free(e);
        return -1;
    }
    c->entries = grown;
    c->entries[c->n++] = *e;
    memset(e, 0, sizeof *e);
    return 0;
}

void rlx__scan_cache_free(rlx__scan_cache *c)
{
    for (uint32_t i = 0; i < c->n; i++)
        rlx__scan_entry_free(&c->entries[i]);
    free(c->entries);
    memset(c, 0, sizeof *c);
}
