/*
 * test-ocr.c - the OCR example's pre- and post-processing on synthetic
 * data (examples/ocr/ocr.h): no network is needed to know that a map
 * with two blobs gives two boxes in reading order, or that "aa-b" with a
 * blank between two a's decodes as "aab".
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "ocr.h"

static const ocr_box_params params = { 0.3f, 0.6f, 1.5f, 3 };

/* A W x H map with rectangles [x0,x1) x [y0,y1) set to V. */
static void fill(float *map, int w, int x0, int y0, int x1, int y1, float v)
{
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++)
            map[y * w + x] = v;
}

TEST(boxes_two_lines_in_reading_order)
{
    enum { W = 64, H = 32 };
    static float map[W * H];
    memset(map, 0, sizeof map);
    fill(map, W, 30, 20, 60, 26, 0.9f); /* lower line, given first in x */
    fill(map, W, 4, 4, 40, 10, 0.8f);   /* upper line */
    ocr_box b[4];
    int n = ocr_boxes_find(map, W, H, W, H, &params, b, 4);
    ASSERT_EQ(n, 2);
    /* the upper line first; each box grown by the unclip margin:
     * 36x6 -> d = 36*6*1.5/(2*42) = 3.857 */
    ASSERT_EQ(b[0].x0, 0);
    ASSERT_EQ(b[0].y0, 0);
    ASSERT_EQ(b[0].x1, 44);
    ASSERT_EQ(b[0].y1, 14);
    ASSERT(fabsf(b[0].score - 0.8f) < 1e-6f);
    ASSERT(b[1].y0 > b[0].y0 && b[1].x0 == 26);
    ASSERT(fabsf(b[1].score - 0.9f) < 1e-6f);
}

TEST(boxes_same_line_left_to_right)
{
    enum { W = 64, H = 16 };
    static float map[W * H];
    memset(map, 0, sizeof map);
    fill(map, W, 40, 5, 60, 11, 0.9f);
    fill(map, W, 2, 6, 30, 12, 0.9f); /* a word lower by one pixel, left */
    ocr_box b[4];
    ASSERT_EQ(ocr_boxes_find(map, W, H, W, H, &params, b, 4), 2);
    ASSERT(b[0].x0 < b[1].x0);
}

TEST(boxes_scaled_to_the_image)
{
    enum { W = 32, H = 32 };
    static float map[W * H];
    memset(map, 0, sizeof map);
    fill(map, W, 8, 8, 24, 16, 1.0f);
    ocr_box b[1];
    /* the map is the detector's input size; the image is twice as wide */
    ASSERT_EQ(ocr_boxes_find(map, W, H, 2 * W, H, &params, b, 1), 1);
    /* 16x8 -> d = 16*8*1.5/48 = 4: x from 4 to 28 in the map, 8 to 56 */
    ASSERT_EQ(b[0].x0, 8);
    ASSERT_EQ(b[0].x1, 56);
    ASSERT_EQ(b[0].y0, 4);
    ASSERT_EQ(b[0].y1, 20);
}

TEST(boxes_drop_weak_small_and_diagonal_joins)
{
    enum { W = 40, H = 40 };
    static float map[W * H];
    memset(map, 0, sizeof map);
    fill(map, W, 2, 2, 20, 8, 0.4f);    /* above thresh, mean under 0.6 */
    fill(map, W, 30, 2, 32, 20, 0.95f); /* 2 wide: under min_size */
    fill(map, W, 5, 20, 10, 25, 0.9f);  /* two squares touching at a corner */
    fill(map, W, 10, 25, 15, 30, 0.9f); /* are one 8-connected component */
    ocr_box b[4];
    ASSERT_EQ(ocr_boxes_find(map, W, H, W, H, &params, b, 4), 1);
    ASSERT(b[0].x0 < 5 && b[0].x1 > 15 && b[0].y0 < 20 && b[0].y1 > 30);
}

TEST(boxes_empty_map_and_max)
{
    enum { W = 16, H = 16 };
    static float map[W * H];
    memset(map, 0, sizeof map);
    ocr_box b[1];
    ASSERT_EQ(ocr_boxes_find(map, W, H, W, H, &params, b, 1), 0);
    fill(map, W, 0, 0, 5, 5, 0.9f);
    fill(map, W, 10, 10, 15, 15, 0.9f);
    ASSERT_EQ(ocr_boxes_find(map, W, H, W, H, &params, b, 1), 1);
}

static const char *const abc[] = { "a", "b", "\xc3\xa9", " " }; /* a b é ␠ */

static void logits(float *s, int classes, const int *best, int steps)
{
    for (int t = 0; t < steps; t++)
        for (int c = 0; c < classes; c++)
            s[t * classes + c] = c == best[t] ? 0.9f : 0.1f / (float)classes;
}

TEST(ctc_collapses_repeats_and_drops_blanks)
{
    ocr_charset cs;
    ASSERT_EQ(ocr_charset_from(abc, 4, &cs), 0);
    /* classes: 0 blank, 1 a, 2 b, 3 é, 4 space */
    int best[] = { 0, 1, 1, 0, 1, 2, 2, 4, 3, 0, 0 };
    float s[11 * 5];
    logits(s, 5, best, 11);
    char text[32];
    float conf = ocr_ctc_decode(s, 11, 5, &cs, text, sizeof text);
    ASSERT_STREQ(text, "aab \xc3\xa9");
    ASSERT(fabsf(conf - 0.9f) < 1e-6f);
    ocr_charset_free(&cs);
}

TEST(ctc_all_blank_and_truncation)
{
    ocr_charset cs;
    ASSERT_EQ(ocr_charset_from(abc, 4, &cs), 0);
    int blank[] = { 0, 0, 0 };
    float s[6 * 5];
    logits(s, 5, blank, 3);
    char text[8];
    ASSERT(ocr_ctc_decode(s, 3, 5, &cs, text, sizeof text) == 0.0f);
    ASSERT_STREQ(text, "");
    /* a multi-byte character that does not fit is left out whole */
    int best[] = { 1, 2, 1, 3, 0, 0 };
    logits(s, 5, best, 6);
    char small[5];
    ocr_ctc_decode(s, 6, 5, &cs, small, sizeof small);
    ASSERT_STREQ(small, "aba");
    ocr_charset_free(&cs);
}

TEST(charset_file_adds_the_space_class)
{
    const char *path = rlx_test_path("keys.txt");
    FILE *f = fopen(path, "w");
    ASSERT(f);
    fputs("x\r\ny\n\xe4\xb8\xad\n", f); /* x, y, 中; CRLF tolerated */
    fclose(f);
    ocr_charset cs;
    char err[256];
    ASSERT_EQ(ocr_charset_read(path, &cs, err, sizeof err), 0);
    ASSERT_EQ(cs.count, 4);
    ASSERT_STREQ(cs.chars[0], "x");
    ASSERT_STREQ(cs.chars[2], "\xe4\xb8\xad");
    ASSERT_STREQ(cs.chars[3], " ");
    ocr_charset_free(&cs);
    ASSERT(ocr_charset_read(rlx_test_path("none.txt"), &cs, err, sizeof err));
    ASSERT_CONTAINS(err, "Fix:");
}

TEST(image_read_and_normalise)
{
    const char *path = rlx_test_path("img.pgm");
    FILE *f = fopen(path, "wb");
    ASSERT(f);
    fputs("P5\n# a comment\n4 2\n255\n", f);
    unsigned char px[8] = { 0, 255, 0, 255, 51, 51, 51, 51 };
    fwrite(px, 1, 8, f);
    fclose(f);
    ocr_image img;
    char err[256];
    ASSERT_EQ(ocr_image_read(path, &img, err, sizeof err), 0);
    ASSERT_EQ(img.width, 4);
    ASSERT_EQ(img.height, 2);
    ASSERT_EQ(img.channels, 1);
    /* same size: no interpolation; (v/255 - 0.5)/0.5 in every channel */
    const float m[3] = { 0.5f, 0.5f, 0.5f }, s[3] = { 0.5f, 0.5f, 0.5f };
    float chw[3 * 8];
    ocr_image_to_chw(&img, 0, 0, 4, 2, 4, 2, m, s, chw);
    ASSERT(fabsf(chw[0] + 1.0f) < 1e-6f);
    ASSERT(fabsf(chw[1] - 1.0f) < 1e-6f);
    ASSERT(fabsf(chw[8 + 4] - (-0.6f)) < 1e-5f);  /* channel 1, row 1 */
    ASSERT(fabsf(chw[16 + 7] - (-0.6f)) < 1e-5f); /* channel 2 */
    /* halving the width averages neighbours: 0 and 255 give the middle */
    float half[3 * 4];
    ocr_image_to_chw(&img, 0, 0, 4, 2, 2, 2, m, s, half);
    ASSERT(fabsf(half[0]) < 1e-6f);
    ocr_image_free(&img);
}

TEST(image_bad_files_fail_with_a_fix)
{
    const char *path = rlx_test_path("bad.pgm");
    FILE *f = fopen(path, "wb");
    ASSERT(f);
    fputs("P5\n4 2\n255\nab", f); /* two of eight pixels */
    fclose(f);
    ocr_image img;
    char err[256];
    ASSERT(ocr_image_read(path, &img, err, sizeof err));
    ASSERT_CONTAINS(err, "truncated");
    f = fopen(path, "wb");
    ASSERT(f);
    fputs("P5\n99999 99999\n255\n", f); /* a hostile size */
    fclose(f);
    ASSERT(ocr_image_read(path, &img, err, sizeof err));
    ASSERT_CONTAINS(err, "Fix:");
    f = fopen(path, "wb");
    ASSERT(f);
    fputs("GIF89a", f);
    fclose(f);
    ASSERT(ocr_image_read(path, &img, err, sizeof err));
    ASSERT_CONTAINS(err, "not a binary PGM");
}

TEST(det_size_multiple_of_32)
{
    int w, h;
    ocr_det_size(400, 128, 960, &w, &h);
    ASSERT_EQ(w, 416);
    ASSERT_EQ(h, 128);
    ocr_det_size(1920, 1080, 960, &w, &h); /* scaled to 960 x 540 */
    ASSERT_EQ(w, 960);
    ASSERT_EQ(h, 544);
    ocr_det_size(5, 5, 960, &w, &h);
    ASSERT_EQ(w, 32);
    ASSERT_EQ(h, 32);
}

RLX_TEST_LIST(TEST_ENTRY(boxes_two_lines_in_reading_order),
              TEST_ENTRY(boxes_same_line_left_to_right),
              TEST_ENTRY(boxes_scaled_to_the_image),
              TEST_ENTRY(boxes_drop_weak_small_and_diagonal_joins),
              TEST_ENTRY(boxes_empty_map_and_max),
              TEST_ENTRY(ctc_collapses_repeats_and_drops_blanks),
              TEST_ENTRY(ctc_all_blank_and_truncation),
              TEST_ENTRY(charset_file_adds_the_space_class),
              TEST_ENTRY(image_read_and_normalise),
              TEST_ENTRY(image_bad_files_fail_with_a_fix),
              TEST_ENTRY(det_size_multiple_of_32));
