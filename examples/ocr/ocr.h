/*
 * ocr.h - the OCR example's pre- and post-processing, apart from rlx.
 *
 * PP-OCR runs two networks (a DB text detector and a CTC recogniser);
 * everything around them is plain array code: reading the image, resizing
 * and normalising it, turning the detector's probability map into boxes
 * and the recogniser's per-step class scores into text. It lives here,
 * with no rlx call, so test/test-ocr.c checks it on synthetic data.
 */
#ifndef RLX_EXAMPLE_OCR_H
#define RLX_EXAMPLE_OCR_H

#include <stddef.h>
#include <stdint.h>

/* An 8-bit image, rows top to bottom, CHANNELS 1 (gray) or 3 (RGB). */
typedef struct ocr_image {
    int width, height, channels;
    unsigned char *pixels; /* malloc'd, width * height * channels */
} ocr_image;

/* Read a binary PGM (P5) or PPM (P6), maxval 255. On failure returns -1
 * and writes a message ending in a Fix to ERR. */
int ocr_image_read(const char *path, ocr_image *out, char *err, size_t errlen);
void ocr_image_free(ocr_image *img);

/* Bilinear resize of the region [X0, X0+W) x [Y0, Y0+H) of IMG to OW x OH,
 * then per channel (v / 255 - MEAN[c]) / STD[c], written planar (CHW) to
 * DST (3 * OW * OH floats). A gray image feeds all three channels. */
void ocr_image_to_chw(const ocr_image *img, int x0, int y0, int w, int h,
                      int ow, int oh, const float mean[3], const float std[3],
                      float *dst);

/* The detector's input size for an image: each side scaled by the same
 * factor so that the longer one is at most LIMIT, then rounded to a
 * multiple of 32 (at least 32). */
void ocr_det_size(int width, int height, int limit, int *ow, int *oh);

/* A text box in image pixels, [x0, x1) x [y0, y1). */
typedef struct ocr_box {
    int x0, y0, x1, y1;
    float score; /* the mean probability over the component */
} ocr_box;

typedef struct ocr_box_params {
    float thresh;       /* a pixel is text above this probability (0.3) */
    float box_thresh;   /* a component is kept when its mean is above (0.6) */
    float unclip_ratio; /* the box grows by area * ratio / perimeter (1.5) */
    int min_size;       /* components whose shorter side is under are dropped */
} ocr_box_params;

/* Boxes of the text in a W x H probability map (row-major), scaled to an
 * image of IMG_W x IMG_H, in reading order (top to bottom, then left to
 * right). Returns the number of boxes written to OUT (at most MAX), or -1
 * when out of memory. 8-connected components. */
int ocr_boxes_find(const float *prob, int w, int h, int img_w, int img_h,
                   const ocr_box_params *params, ocr_box *out, int max);

/* The recogniser's character list: class 0 is CTC's blank, class i
 * (1..count) is line i of the file, class count + 1 a space. */
typedef struct ocr_charset {
    char **chars; /* UTF-8, one per class from 1 */
    int count;
} ocr_charset;

int ocr_charset_read(const char *path, ocr_charset *out, char *err,
                     size_t errlen);
/* From an in-memory list of NUL-terminated strings (tests). */
int ocr_charset_from(const char *const *chars, int count, ocr_charset *out);
void ocr_charset_free(ocr_charset *cs);

/* Greedy CTC decoding of STEPS x CLASSES scores (row-major): the best
 * class per step, repeats collapsed, blanks dropped, mapped through CS.
 * Writes a NUL-terminated UTF-8 string to TEXT (truncated to TEXTLEN);
 * returns the mean score of the kept steps (0 when none). */
float ocr_ctc_decode(const float *scores, int steps, int classes,
                     const ocr_charset *cs, char *text, size_t textlen);

#endif
