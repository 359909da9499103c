/*
 * ocr_ctc.c - the recogniser's character list and greedy CTC decoding.
 *
 * The recogniser scores every class at each horizontal step of the line;
 * CTC's rule turns the best class per step into text: repeated classes
 * are one character unless a blank (class 0) separates them, and blanks
 * print nothing. PaddleOCR's list adds a space as the last class.
 */
#include "ocr.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A character list longer than this is not a PP-OCR one. */
#define OCR_CHARSET_MAX 100000

static int charset_add(ocr_charset *cs, const char *s, size_t len, int *cap)
{
    if (cs->count == *cap) {
        int ncap = *cap ? *cap * 2 : 256;
        char **p = realloc(cs->chars, (size_t)ncap * sizeof *p);
        if (!p)
            return -1;
        cs->chars = p;
        *cap = ncap;
    }
    char *c = malloc(len + 1);
    if (!c)
        return -1;
    memcpy(c, s, len);
    c[len] = '\0';
    cs->chars[cs->count++] = c;
    return 0;
}

int ocr_charset_read(const char *path, ocr_charset *out, char *err,
                     size_t errlen)
{
    memset(out, 0, sizeof *out);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "cannot open the character list '%s'. Fix: "
                 "run scripts/ocr-models.sh, or pass --models DIR", path);
        return -1;
    }
    char line[256];
    int cap = 0;
    while (fgets(line, sizeof line, f)) {
        size_t len = strcspn(line, "\r\n");
        if (out->count >= OCR_CHARSET_MAX || charset_add(out, line, len, &cap)) {
            fclose(f);
            ocr_charset_free(out);
            snprintf(err, errlen, "'%s': too long or out of memory. Fix: "
                     "give PP-OCR's ppocr_keys_v1.txt", path);
            return -1;
        }
    }
    fclose(f);
    /* the space class the recogniser was trained with, last */
    if (out->count == 0 || charset_add(out, " ", 1, &cap)) {
        ocr_charset_free(out);
        snprintf(err, errlen, "'%s' lists no characters. Fix: give PP-OCR's "
                 "ppocr_keys_v1.txt", path);
        return -1;
    }
    return 0;
}

int ocr_charset_from(const char *const *chars, int count, ocr_charset *out)
{
    memset(out, 0, sizeof *out);
    int cap = 0;
    for (int i = 0; i < count; i++)
        if (charset_add(out, chars[i], strlen(chars[i]), &cap)) {
            ocr_charset_free(out);
            return -1;
        }
    return 0;
}

void ocr_charset_free(ocr_charset *cs)
{
    for (int i = 0; i < cs->count; i++)
        free(cs->chars[i]);
    free(cs->chars);
    memset(cs, 0, sizeof *cs);
}

float ocr_ctc_decode(const float *scores, int steps, int classes,
                     const ocr_charset *cs, char *text, size_t textlen)
{
    size_t len = 0;
    int prev = 0, kept = 0;
    double sum = 0.0;
    if (textlen)
        text[0] = '\0';
    for (int t = 0; t < steps; t++) {
        const float *row = scores + (size_t)t * (size_t)classes;
        int best = 0;
        for (int c = 1; c < classes; c++)
            if (row[c] > row[best])
                best = c;
        if (best != 0 && best != prev && best <= cs->count) {
            const char *ch = cs->chars[best - 1];
            size_t n = strlen(ch);
            if (len + n < textlen) {
                memcpy(text + len, ch, n + 1);
                len += n;
            }
            sum += row[best];
            kept++;
        }
        prev = best;
    }
    return kept ? (float)(sum / kept) : 0.0f;
}
