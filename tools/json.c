/*
 * json.c - the streaming JSON writer: escaping, commas and indentation.
 *
 * Output is always valid UTF-8 JSON: quotes and backslashes are escaped,
 * control characters become \u00XX, and bytes that are not valid UTF-8
 * (a Linux path may hold any byte) become U+FFFD rather than breaking
 * the document for the reader.
 */
#include "json.h"

#include <inttypes.h>
#include <math.h>
#include <stddef.h>

void cli_json_init(cli_json *j, FILE *out)
{
    j->out = out;
    j->depth = 0;
    j->count[0] = 0;
    j->after_key = 0;
}

void cli_json_finish(cli_json *j)
{
    fputc('\n', j->out);
}

static void json_indent(cli_json *j)
{
    fputc('\n', j->out);
    for (int i = 0; i < j->depth; i++)
        fputs("  ", j->out);
}

/* Separator and indentation before a value or key at the current level. */
static void json_before_value(cli_json *j)
{
    if (j->after_key) {
        j->after_key = 0;
        return;
    }
    if (j->depth == 0)
        return;
    if (j->count[j->depth]++ > 0)
        fputc(',', j->out);
    json_indent(j);
}

static void json_open(cli_json *j, char c)
{
    json_before_value(j);
    fputc(c, j->out);
    if (j->depth + 1 < CLI_JSON_MAX_DEPTH)
        j->depth++;
    j->count[j->depth] = 0;
}

static void json_close(cli_json *j, char c)
{
    int had_members = j->count[j->depth] > 0;
    if (j->depth > 0)
        j->depth--;
    if (had_members)
        json_indent(j);
    fputc(c, j->out);
}

void cli_json_object_begin(cli_json *j) { json_open(j, '{'); }
void cli_json_object_end(cli_json *j) { json_close(j, '}'); }
void cli_json_array_begin(cli_json *j) { json_open(j, '['); }
void cli_json_array_end(cli_json *j) { json_close(j, ']'); }

/* Length of the valid UTF-8 sequence at S, or 0 when it is not one. */
static size_t utf8_valid_len(const unsigned char *s)
{
    unsigned char c = s[0];
    size_t n;
    uint32_t cp;

    if (c < 0x80)
        return 1;
    if (c >= 0xc2 && c <= 0xdf) {
        n = 2;
        cp = c & 0x1f;
    } else if (c >= 0xe0 && c <= 0xef) {
        n = 3;
        cp = c & 0x0f;
    } else if (c >= 0xf0 && c <= 0xf4) {
        n = 4;
        cp = c & 0x07;
    } else {
        return 0;
    }
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80) /* also stops at the terminating NUL */
            return 0;
        cp = (cp << 6) | (s[i] & 0x3f);
    }
    /* Overlong forms, surrogates and values past U+10FFFF are invalid. */
    if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
        (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
        return 0;
    return n;
}

static void json_write_escaped(FILE *out, const char *str)
{
    const unsigned char *s = (const unsigned char *)str;

    fputc('"', out);
    while (*s) {
        size_t n = utf8_valid_len(s);
        if (n == 0) {
            fputs("\\ufffd", out);
            s++;
        } else if (*s == '"' || *s == '\\') {
            fputc('\\', out);
            fputc(*s++, out);
        } else if (*s < 0x20 || *s == 0x7f) {
            fprintf(out, "\\u%04x", (unsigned)*s++);
        } else {
            fwrite(s, 1, n, out);
            s += n;
        }
    }
    fputc('"', out);
}

void cli_json_key(cli_json *j, const char *key)
{
    json_before_value(j);
    json_write_escaped(j->out, key);
    fputs(": ", j->out);
    j->after_key = 1;
}

void cli_json_string(cli_json *j, const char *s)
{
    if (!s) {
        cli_json_null(j);
        return;
    }
    json_before_value(j);
    json_write_escaped(j->out, s);
}

void cli_json_int(cli_json *j, int64_t v)
{
    json_before_value(j);
    fprintf(j->out, "%" PRId64, v);
}

void cli_json_bool(cli_json *j, int v)
{
    json_before_value(j);
    fputs(v ? "true" : "false", j->out);
}

void cli_json_null(cli_json *j)
{
    json_before_value(j);
    fputs("null", j->out);
}

void cli_json_double(cli_json *j, double v)
{
    if (!isfinite(v)) {
        cli_json_null(j);
        return;
    }
    json_before_value(j);
    fprintf(j->out, "%.9g", v);
}

void cli_json_member_string(cli_json *j, const char *key, const char *s)
{
    cli_json_key(j, key);
    cli_json_string(j, s);
}

void cli_json_member_int(cli_json *j, const char *key, int64_t v)
{
    cli_json_key(j, key);
    cli_json_int(j, v);
}

void cli_json_member_bool(cli_json *j, const char *key, int v)
{
    cli_json_key(j, key);
    cli_json_bool(j, v);
}
