/*
 * ocr_image.c - read a PGM/PPM image and turn a region of it into a
 * network input: bilinear resize and per-channel normalisation, planar.
 * PNM keeps the example free of image libraries.
 */
#include "ocr.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Images larger than this are refused before allocating (a hostile header
 * cannot ask for gigabytes). */
#define OCR_IMAGE_MAX_SIDE 16384

static int pnm_number(FILE *f, int *out)
{
    int c;
    for (;;) { /* whitespace and '#' comments before each header field */
        c = fgetc(f);
        if (c == '#') {
            while (c != '\n' && c != EOF)
                c = fgetc(f);
        } else if (c != ' ' && c != '\t' && c != '\r' && c != '\n') {
            break;
        }
    }
    if (c < '0' || c > '9')
        return -1;
    long v = 0;
    while (c >= '0' && c <= '9') {
        v = v * 10 + (c - '0');
        if (v > 1000000)
            return -1;
        c = fgetc(f);
    }
    *out = (int)v; /* the single whitespace after the field is consumed */
    return 0;
}

int ocr_image_read(const char *path, ocr_image *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "cannot open image '%s'. Fix: give a readable "
                 "PGM or PPM file", path);
        return -1;
    }
    char magic[2];
    int w, h, maxval;
    if (fread(magic, 1, 2, f) != 2 || magic[0] != 'P' ||
        (magic[1] != '5' && magic[1] != '6') || pnm_number(f, &w) ||
        pnm_number(f, &h) || pnm_number(f, &maxval)) {
        fclose(f);
        snprintf(err, errlen, "'%s' is not a binary PGM (P5) or PPM (P6) "
                 "image. Fix: convert it, e.g. `convert IN -depth 8 OUT.ppm`",
                 path);
        return -1;
    }
    if (w < 1 || h < 1 || w > OCR_IMAGE_MAX_SIDE || h > OCR_IMAGE_MAX_SIDE ||
        maxval != 255) {
        fclose(f);
        snprintf(err, errlen, "'%s': %dx%d with maxval %d; this example "
                 "takes 1 to %d pixels a side and maxval 255. Fix: resize "
                 "or convert it to 8 bits", path, w, h, maxval,
                 OCR_IMAGE_MAX_SIDE);
        return -1;
    }
    int ch = magic[1] == '5' ? 1 : 3;
    size_t n = (size_t)w * (size_t)h * (size_t)ch;
    unsigned char *px = malloc(n);
    if (!px || fread(px, 1, n, f) != n) {
        free(px);
        fclose(f);
        snprintf(err, errlen, "'%s': %s. Fix: give a complete image", path,
                 px ? "the pixel data is truncated" : "out of memory");
        return -1;
    }
    fclose(f);
    out->width = w;
    out->height = h;
    out->channels = ch;
    out->pixels = px;
    return 0;
}

void ocr_image_free(ocr_image *img)
{
    free(img->pixels);
    memset(img, 0, sizeof *img);
}

static float sample(const ocr_image *img, int x, int y, int c)
{
    x = x < 0 ? 0 : x >= img->width ? img->width - 1 : x;
    y = y < 0 ? 0 : y >= img->height ? img->height - 1 : y;
    int cc = img->channels == 1 ? 0 : c;
    return img->pixels[((size_t)y * (size_t)img->width + (size_t)x) *
                       (size_t)img->channels + (size_t)cc];
}

void ocr_image_to_chw(const ocr_image *img, int x0, int y0, int w, int h,
                      int ow, int oh, const float mean[3], const float std[3],
                      float *dst)
{
    float sx = (float)w / (float)ow, sy = (float)h / (float)oh;
    for (int c = 0; c < 3; c++) {
        for (int y = 0; y < oh; y++) {
            /* pixel centres aligned, as OpenCV's INTER_LINEAR does */
            float fy = ((float)y + 0.5f) * sy - 0.5f;
            int iy = (int)floorf(fy);
            float dy = fy - (float)iy;
            for (int x = 0; x < ow; x++) {
                float fx = ((float)x + 0.5f) * sx - 0.5f;
                int ix = (int)floorf(fx);
                float dx = fx - (float)ix;
                float v = (1 - dy) * ((1 - dx) * sample(img, x0 + ix, y0 + iy, c) +
                                      dx * sample(img, x0 + ix + 1, y0 + iy, c)) +
                          dy * ((1 - dx) * sample(img, x0 + ix, y0 + iy + 1, c) +
                                dx * sample(img, x0 + ix + 1, y0 + iy + 1, c));
                dst[((size_t)c * (size_t)oh + (size_t)y) * (size_t)ow +
                    (size_t)x] = (v / 255.0f - mean[c]) / std[c];
            }
        }
    }
}

void ocr_det_size(int width, int height, int limit, int *ow, int *oh)
{
    int longer = width > height ? width : height;
    double ratio = longer > limit ? (double)limit / longer : 1.0;
    int w = (int)lround(width * ratio / 32.0) * 32;
    int h = (int)lround(height * ratio / 32.0) * 32;
    *ow = w < 32 ? 32 : w;
    *oh = h < 32 ? 32 : h;
}
