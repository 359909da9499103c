/*
 * text.c - text from a file (tensor, node, output and model names, and
 * messages that quote them) made safe to print: a name in a model can
 * hold terminal escape sequences that clear the screen or set the window
 * title, and a 1 MB name would bury the line it is part of.
 *
 * Control characters (C0, DEL, and C1 written in UTF-8), and bytes that
 * are not valid UTF-8, are printed as \xHH. Valid UTF-8 text is left
 * alone.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

#define TEXT_SLOTS 8
#define TEXT_SLOT_BYTES 12288 /* a 2 KB message, every byte escaped: 8 KB */

/* Length of the valid, printable UTF-8 sequence at S (2-4 bytes), or 0. */
static size_t utf8_len(const unsigned char *s)
{
    size_t n = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;
    if (!n || s[0] > 0xf4)
        return 0;
    for (size_t i = 1; i < n; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    if (n == 2 && s[0] == 0xc2 && s[1] < 0xa0)
        return 0; /* C1 controls (U+0080..U+009F): CSI is one of them */
    if (n == 3 && ((s[0] == 0xe0 && s[1] < 0xa0) ||
                   (s[0] == 0xed && s[1] >= 0xa0)))
        return 0; /* overlong, UTF-16 surrogates */
    if (n == 4 && ((s[0] == 0xf0 && s[1] < 0x90) ||
                   (s[0] == 0xf4 && s[1] >= 0x90)))
        return 0; /* overlong, above U+10FFFF */
    return n;
}

static const char *escape(const char *s, size_t max, int keep_newlines)
{
    static char slots[TEXT_SLOTS][TEXT_SLOT_BYTES];
    static unsigned next;
    char *out = slots[next++ % TEXT_SLOTS];
    const unsigned char *p = (const unsigned char *)(s ? s : "(null)");
    size_t len = strlen((const char *)p), k = 0, i = 0;
    /* room for the escaped text and a "...(N bytes)" tail */
    const size_t room = TEXT_SLOT_BYTES - 40;
    while (i < len && i < max && k + 5 < room) {
        size_t n = p[i] >= 0x80 ? utf8_len(p + i) : 1;
        if (n > 1) {
            memcpy(out + k, p + i, n);
            k += n;
            i += n;
        } else if ((p[i] < 0x20 && !(keep_newlines && p[i] == '\n')) ||
                   p[i] == 0x7f || p[i] >= 0x80) {
            k += (size_t)snprintf(out + k, 5, "\\x%02x", p[i]);
            i++;
        } else {
            out[k++] = (char)p[i++];
        }
    }
    if (i < len)
        k += (size_t)snprintf(out + k, TEXT_SLOT_BYTES - k,
                              "...(%zu bytes)", len);
    out[k] = '\0';
    return out;
}

const char *cli_text(const char *s)
{
    return escape(s, CLI_TEXT_NAME_MAX, 0);
}

const char *cli_message(const char *s)
{
    return escape(s, (size_t)-1, 1);
}
