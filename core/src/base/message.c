/*
 * message.c - fitting a message into RLX_MSG_MAX bytes without losing its
 * reason or its Fix. Messages quote user text first ("'NAME': ..."), so
 * a 1 MB name, a 100,000-character device or a 5,000-entry device chain
 * used to fill the buffer and leave neither. Here quoted text and long
 * unbroken runs (paths, lists) are cut to RLX_QUOTE_MAX bytes with
 * "...(N bytes)"; if the message is still too long, its middle goes and
 * its start and its "Fix:" stay.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"

#define RLX_QUOTE_MAX 200

typedef struct out {
    char *s;
    size_t len, cap;
} out;

static void put(out *o, const char *s, size_t n)
{
    if (o->len + n > o->cap)
        n = o->cap - o->len;
    memcpy(o->s + o->len, s, n);
    o->len += n;
}

/* N, moved back so a UTF-8 character is not split at S + N. */
static size_t char_boundary(const char *s, size_t n)
{
    while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
        n--;
    return n;
}

static void put_run(out *o, const char *s, size_t n)
{
    if (n <= RLX_QUOTE_MAX + 24) {
        put(o, s, n);
        return;
    }
    char tail[40];
    put(o, s, char_boundary(s, RLX_QUOTE_MAX));
    int k = snprintf(tail, sizeof tail, "...(%zu bytes)", n);
    put(o, tail, (size_t)k);
}

/* MSG[0..N) with quoted text and unbroken runs cut, into O. */
static void cut_runs(out *o, const char *msg, size_t n)
{
    size_t i = 0;
    while (i < n) {
        const char *q = msg[i] == '\'' ? memchr(msg + i + 1, '\'',
                                                n - i - 1)
                                       : NULL;
        if (q) { /* 'quoted': the quotes kept, the inside cut */
            size_t inner = (size_t)(q - msg) - i - 1;
            put(o, msg + i, 1);
            put_run(o, msg + i + 1, inner);
            put(o, q, 1);
            i += inner + 2;
            continue;
        }
        size_t j = i;
        while (j < n && msg[j] != ' ' && msg[j] != '\n' &&
               (j == i || msg[j] != '\''))
            j++;
        if (j == i)
            j++; /* a space, or a quote without its pair */
        put_run(o, msg + i, j - i);
        i = j;
    }
}

/* The last "Fix:" in S[0..N), or N. */
static size_t fix_at(const char *s, size_t n)
{
    size_t at = n;
    for (const char *f = s; (f = strstr(f, "Fix:")) && (size_t)(f - s) < n;
         f++)
        at = (size_t)(f - s);
    return at;
}

void rlx__message_fit(char *dst, size_t size, const char *msg)
{
    size_t len = strlen(msg);
    char *tmp = NULL;
    if (len >= size && (tmp = malloc(len + 1))) {
        size_t head = fix_at(msg, len);
        out o = { tmp, 0, len };
        cut_runs(&o, msg, head);
        cut_runs(&o, msg + head, len - head);
        tmp[o.len] = '\0';
        msg = tmp;
        len = o.len;
    }
    if (len < size) {
        memcpy(dst, msg, len + 1);
        free(tmp);
        return;
    }
    /* still too long: keep the start, the end of the reason and the Fix
     * (itself at most half the buffer); the middle goes */
    size_t head = fix_at(msg, len), fix_len = len - head;
    if (fix_len > size / 2)
        fix_len = char_boundary(msg + head, size / 2);
    out o = { dst, 0, size - 1 };
    if (head + fix_len <= size - 1) {
        put(&o, msg, head);
    } else {
        char mark[48];
        int k = snprintf(mark, sizeof mark, " ...(%zu bytes cut)... ",
                         head + fix_len - (size - 1));
        size_t room = size - 1 - fix_len - (size_t)k;
        size_t start = char_boundary(msg, room / 2);
        size_t from = head - (room - room / 2);
        while (from < head && ((unsigned char)msg[from] & 0xc0) == 0x80)
            from++;
        put(&o, msg, start);
        put(&o, mark, (size_t)k);
        put(&o, msg + from, head - from);
    }
    put(&o, msg + head, fix_len);
    dst[o.len] = '\0';
    free(tmp);
}
