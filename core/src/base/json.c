/*
 * json.c - a small strict JSON parser (RFC 8259), enough for safetensors
 * headers: no extensions, a nesting limit, duplicate keys refused,
 * strings decoded to UTF-8 without NUL bytes. Numbers are kept only as
 * "a non-negative integer that fits in uint64_t" (or not): headers need
 * nothing else.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "base.h"

typedef struct jparser {
    const char *s;
    size_t len, pos;
    char *err;
    size_t err_size;
    int failed;
} jparser;

static int fail(jparser *p, const char *what)
{
    if (!p->failed)
        snprintf(p->err, p->err_size, "%s at byte %zu of the header", what,
                 p->pos);
    p->failed = 1;
    return 0;
}

static void skip_ws(jparser *p)
{
    while (p->pos < p->len &&
           (p->s[p->pos] == ' ' || p->s[p->pos] == '\t' ||
            p->s[p->pos] == '\n' || p->s[p->pos] == '\r'))
        p->pos++;
}

static int peek(const jparser *p)
{
    return p->pos < p->len ? (unsigned char)p->s[p->pos] : -1;
}

static void json_clear(rlx__json *v)
{
    if (!v)
        return;
    free(v->string);
    for (uint32_t i = 0; i < v->n; i++) {
        json_clear(&v->items[i]);
        if (v->keys)
            free(v->keys[i]);
    }
    free(v->items);
    free(v->keys);
}

void rlx__json_free(rlx__json *v)
{
    json_clear(v);
    free(v);
}

static int hex4(jparser *p, unsigned *out)
{
    if (p->len - p->pos < 4)
        return fail(p, "truncated \\u escape");
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        char c = p->s[p->pos++];
        v <<= 4;
        if (c >= '0' && c <= '9')
            v |= (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f')
            v |= (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            v |= (unsigned)(c - 'A' + 10);
        else
            return fail(p, "bad hex digit in \\u escape");
    }
    *out = v;
    return 1;
}

/* A string starting at the opening quote; the result is malloc'd. */
static int parse_string(jparser *p, char **out)
{
    p->pos++; /* the quote */
    /* decoded text is never longer than the source */
    size_t start = p->pos, cap = 1;
    while (p->pos < p->len && p->s[p->pos] != '"') {
        if (p->s[p->pos] == '\\')
            p->pos++;
        p->pos++;
    }
    if (p->pos >= p->len)
        return fail(p, "unterminated string");
    cap += p->pos - start;
    p->pos = start;
    char *d = malloc(cap);
    if (!d)
        return fail(p, "out of memory");
    size_t n = 0;
    for (;;) {
        unsigned char c = (unsigned char)p->s[p->pos];
        if (c == '"') {
            p->pos++;
            break;
        }
        if (c < 0x20) {
            free(d);
            return fail(p, "control character in string");
        }
        if (c != '\\') {
            d[n++] = (char)c;
            p->pos++;
            continue;
        }
        p->pos++;
        char e = p->s[p->pos++];
        unsigned cp;
        switch (e) {
        case '"': d[n++] = '"'; continue;
        case '\\': d[n++] = '\\'; continue;
        case '/': d[n++] = '/'; continue;
        case 'b': d[n++] = '\b'; continue;
        case 'f': d[n++] = '\f'; continue;
        case 'n': d[n++] = '\n'; continue;
        case 'r': d[n++] = '\r'; continue;
        case 't': d[n++] = '\t'; continue;
        case 'u':
            if (!hex4(p, &cp)) {
                free(d);
                return 0;
            }
            if (cp >= 0xD800 && cp <= 0xDBFF) {
                unsigned lo;
                if (p->len - p->pos < 2 || p->s[p->pos] != '\\' ||
                    p->s[p->pos + 1] != 'u') {
                    free(d);
                    return fail(p, "unpaired surrogate in \\u escape");
                }
                p->pos += 2;
                if (!hex4(p, &lo) || lo < 0xDC00 || lo > 0xDFFF) {
                    free(d);
                    return fail(p, "unpaired surrogate in \\u escape");
                }
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                free(d);
                return fail(p, "unpaired surrogate in \\u escape");
            }
            if (cp == 0) {
                free(d);
                return fail(p, "\\u0000 in string");
            }
            /* UTF-8 of CP fits in the 6 source bytes it came from */
            if (cp < 0x80) {
                d[n++] = (char)cp;
            } else if (cp < 0x800) {
                d[n++] = (char)(0xC0 | (cp >> 6));
                d[n++] = (char)(0x80 | (cp & 0x3F));
            } else if (cp < 0x10000) {
                d[n++] = (char)(0xE0 | (cp >> 12));
                d[n++] = (char)(0x80 | ((cp >> 6) & 0x3F));
                d[n++] = (char)(0x80 | (cp & 0x3F));
            } else {
                d[n++] = (char)(0xF0 | (cp >> 18));
                d[n++] = (char)(0x80 | ((cp >> 12) & 0x3F));
                d[n++] = (char)(0x80 | ((cp >> 6) & 0x3F));
                d[n++] = (char)(0x80 | (cp & 0x3F));
            }
            continue;
        default:
            free(d);
            p->pos--;
            return fail(p, "bad escape in string");
        }
    }
    d[n] = '\0';
    *out = d;
    return 1;
}

static int is_digit(int c)
{
    return c >= '0' && c <= '9';
}

static int parse_number(jparser *p, rlx__json *v)
{
    size_t start = p->pos;
    int plain = 1;
    if (peek(p) == '-') {
        plain = 0;
        p->pos++;
    }
    if (!is_digit(peek(p)))
        return fail(p, "bad number");
    if (peek(p) == '0') {
        p->pos++;
        if (is_digit(peek(p)))
            return fail(p, "number with a leading zero");
    } else {
        while (is_digit(peek(p)))
            p->pos++;
    }
    size_t int_end = p->pos;
    if (peek(p) == '.') {
        plain = 0;
        p->pos++;
        if (!is_digit(peek(p)))
            return fail(p, "bad number: no digits after '.'");
        while (is_digit(peek(p)))
            p->pos++;
    }
    if (peek(p) == 'e' || peek(p) == 'E') {
        plain = 0;
        p->pos++;
        if (peek(p) == '+' || peek(p) == '-')
            p->pos++;
        if (!is_digit(peek(p)))
            return fail(p, "bad number: no digits in the exponent");
        while (is_digit(peek(p)))
            p->pos++;
    }
    v->kind = RLX__JSON_NUMBER;
    if (plain) {
        uint64_t u = 0;
        int over = 0;
        for (size_t i = start; i < int_end; i++) {
            unsigned dgt = (unsigned)(p->s[i] - '0');
            if (u > (UINT64_MAX - dgt) / 10)
                over = 1;
            else
                u = u * 10 + dgt;
        }
        v->is_uint = !over;
        v->uint_overflow = over;
        v->u = over ? 0 : u;
    }
    return 1;
}

static int parse_literal(jparser *p, const char *word)
{
    size_t n = strlen(word);
    if (p->len - p->pos < n || memcmp(p->s + p->pos, word, n) != 0)
        return fail(p, "unexpected character");
    p->pos += n;
    return 1;
}

static int parse_value(jparser *p, rlx__json *v, int depth);

/* Append an item to V's arrays, growing them; returns it or NULL. */
static rlx__json *push_item(jparser *p, rlx__json *v, uint32_t *cap)
{
    if (v->n == *cap) {
        uint32_t c = *cap ? *cap * 2 : 4;
        rlx__json *items = realloc(v->items, c * sizeof *items);
        if (!items) {
            fail(p, "out of memory");
            return NULL;
        }
        v->items = items;
        if (v->kind == RLX__JSON_OBJECT) {
            char **keys = realloc(v->keys, c * sizeof *keys);
            if (!keys) {
                fail(p, "out of memory");
                return NULL;
            }
            v->keys = keys;
        }
        *cap = c;
    }
    rlx__json *item = &v->items[v->n];
    memset(item, 0, sizeof *item);
    if (v->keys)
        v->keys[v->n] = NULL;
    v->n++;
    return item;
}

static int parse_items(jparser *p, rlx__json *v, int depth, int object,
                       rlx__hash *keys);

static int parse_container(jparser *p, rlx__json *v, int depth)
{
    /* keys hashed: a scan per key made a 200,000-tensor header take
     * minutes */
    rlx__hash keys = { 0 };
    int object = p->s[p->pos] == '{';
    int ok = parse_items(p, v, depth, object, &keys);
    rlx__hash_free(&keys);
    return ok;
}

static int parse_items(jparser *p, rlx__json *v, int depth, int object,
                       rlx__hash *keys)
{
    char close = object ? '}' : ']';
    uint32_t cap = 0;
    v->kind = object ? RLX__JSON_OBJECT : RLX__JSON_ARRAY;
    if (depth >= RLX__JSON_MAX_DEPTH)
        return fail(p, "nesting deeper than 64 levels");
    p->pos++;
    skip_ws(p);
    if (peek(p) == close) {
        p->pos++;
        return 1;
    }
    for (;;) {
        char *key = NULL;
        skip_ws(p);
        if (object) {
            if (peek(p) != '"')
                return fail(p, "expected a string key");
            size_t key_pos = p->pos;
            if (!parse_string(p, &key))
                return 0;
            int added = rlx__hash_add(keys, key, v->n, NULL);
            if (added <= 0) {
                free(key);
                p->pos = key_pos;
                return fail(p, added ? "out of memory" : "duplicate key");
            }
            skip_ws(p);
            if (peek(p) != ':') {
                free(key);
                return fail(p, "expected ':'");
            }
            p->pos++;
        }
        rlx__json *item = push_item(p, v, &cap);
        if (!item) {
            free(key);
            return 0;
        }
        if (object)
            v->keys[v->n - 1] = key;
        if (!parse_value(p, item, depth + 1))
            return 0;
        skip_ws(p);
        if (peek(p) == ',') {
            p->pos++;
            continue;
        }
        if (peek(p) == close) {
            p->pos++;
            return 1;
        }
        return fail(p, object ? "expected ',' or '}'" : "expected ',' or ']'");
    }
}

static int parse_value(jparser *p, rlx__json *v, int depth)
{
    skip_ws(p);
    v->offset = p->pos;
    switch (peek(p)) {
    case '{': case '[':
        return parse_container(p, v, depth);
    case '"':
        v->kind = RLX__JSON_STRING;
        return parse_string(p, &v->string);
    case 't':
        v->kind = RLX__JSON_BOOL;
        v->boolean = 1;
        return parse_literal(p, "true");
    case 'f':
        v->kind = RLX__JSON_BOOL;
        return parse_literal(p, "false");
    case 'n':
        v->kind = RLX__JSON_NULL;
        return parse_literal(p, "null");
    case -1:
        return fail(p, "unexpected end of text");
    default:
        if (peek(p) == '-' || is_digit(peek(p)))
            return parse_number(p, v);
        return fail(p, "unexpected character");
    }
}

rlx__json *rlx__json_parse(const char *text, size_t len, char *err,
                           size_t err_size)
{
    jparser p = { .s = text, .len = len, .err = err, .err_size = err_size };
    rlx__json *v = calloc(1, sizeof *v);
    if (!v) {
        snprintf(err, err_size, "out of memory");
        return NULL;
    }
    if (parse_value(&p, v, 0)) {
        skip_ws(&p);
        if (p.pos != p.len)
            fail(&p, "text after the JSON value");
    }
    if (p.failed) {
        rlx__json_free(v);
        return NULL;
    }
    return v;
}

const rlx__json *rlx__json_get(const rlx__json *obj, const char *key)
{
    if (!obj || obj->kind != RLX__JSON_OBJECT)
        return NULL;
    for (uint32_t i = 0; i < obj->n; i++)
        if (strcmp(obj->keys[i], key) == 0)
            return &obj->items[i];
    return NULL;
}
