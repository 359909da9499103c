/*
 * probe_replay.c - check a stored probe key without the plugin that made
 * it: each item (rlx/probe_key.h: env, file, dir, opt) is evaluated again
 * with the kit's own helpers and must come out as the same text. This
 * lets automatic device choice trust a cached "unavailable" answer for a
 * plugin it has not opened (lazy.c); a key with an item the core cannot
 * evaluate (free text) never passes, and the plugin is opened instead.
 */
#include <stdlib.h>
#include <string.h>

#include <rlx/probe_key.h>

#include "plugin.h"

#define KEY_MAX 8192
#define MAX_ARGS 2

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

/* Token T ("=escaped") into OUT; -1 when it is not a string token. */
static int unescape_arg(const char *t, size_t len, char *out, size_t size)
{
    if (len == 0 || t[0] != '=')
        return -1;
    size_t o = 0;
    for (size_t i = 1; i < len; i++) {
        char c = t[i];
        if (c == '%') {
            int hi = i + 2 < len ? hexval(t[i + 1]) : -1;
            int lo = i + 2 < len ? hexval(t[i + 2]) : -1;
            if (hi < 0 || lo < 0)
                return -1;
            c = (char)(hi << 4 | lo);
            i += 2;
            if (c == '\0')
                return -1;
        }
        if (o + 1 >= size)
            return -1;
        out[o++] = c;
    }
    out[o] = '\0';
    return 0;
}

/* Evaluate one item (without its ';') again; 1 when it comes out the
 * same. */
static int replay_item(const char *item, size_t len, const rlx_host *host,
                       char *scratch)
{
    const char *sp = memchr(item, ' ', len);
    if (!sp)
        return 0;
    size_t tag = (size_t)(sp - item);
    char args[MAX_ARGS][4096];
    int n = 0;
    const char *p = sp + 1, *end = item + len;
    while (p < end && n < MAX_ARGS && *p == '=') {
        const char *q = memchr(p, ' ', (size_t)(end - p));
        size_t tl = q ? (size_t)(q - p) : (size_t)(end - p);
        if (unescape_arg(p, tl, args[n], sizeof args[n]) != 0)
            return 0;
        n++;
        p += tl + (q ? 1 : 0);
    }
    rlx_kit_probe_key k;
    rlx_kit_probe_key_init(&k, scratch, KEY_MAX);
    if (tag == 3 && memcmp(item, "env", 3) == 0 && n >= 1)
        rlx_kit_probe_key_add_env(&k, args[0]);
    else if (tag == 4 && memcmp(item, "file", 4) == 0 && n >= 1)
        rlx_kit_probe_key_add_file(&k, args[0]);
    else if (tag == 3 && memcmp(item, "dir", 3) == 0 && n >= 2)
        rlx_kit_probe_key_add_dir(&k, args[0], args[1]);
    else if (tag == 3 && memcmp(item, "opt", 3) == 0 && n >= 1)
        rlx_kit_probe_key_add_option(&k, host, args[0]);
    else
        return 0; /* "text", or something this core does not know */
    return rlx_kit_probe_key_end(&k) == RLX_OK && k.len == len + 1 &&
           memcmp(scratch, item, len) == 0 && scratch[len] == ';';
}

static unsigned long long item_hash(const char *item, size_t len)
{
    unsigned long long h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)item[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

static int memo_has(const rlx__replay_memo *memo, unsigned long long h)
{
    for (uint32_t i = 0; memo && i < memo->n; i++)
        if (memo->seen[i] == h)
            return 1;
    return 0;
}

int rlx__probe_key_replay(const char *key, const rlx_host *host,
                          rlx__replay_memo *memo)
{
    if (!key || !*key)
        return 0;
    char *scratch = malloc(KEY_MAX);
    if (!scratch)
        return 0;
    int ok = 1;
    for (const char *p = key; ok && *p;) {
        const char *semi = strchr(p, ';');
        if (!semi) {
            ok = 0; /* every item ends with ';' */
            break;
        }
        size_t len = (size_t)(semi - p);
        unsigned long long h = item_hash(p, len);
        if (!memo_has(memo, h)) {
            ok = replay_item(p, len, host, scratch);
            if (ok && memo && memo->n < sizeof memo->seen /
                                            sizeof *memo->seen)
                memo->seen[memo->n++] = h;
        }
        p = semi + 1;
    }
    free(scratch);
    return ok;
}
