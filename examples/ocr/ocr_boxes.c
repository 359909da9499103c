/*
 * ocr_boxes.c - text boxes from a DB detector's probability map.
 *
 * DB (differentiable binarisation) shrinks each text region by a margin
 * when it trains, so its map marks the core of every line: threshold it,
 * take each connected component's bounding box, keep those whose mean
 * probability is high enough, and grow each box back by the "unclip"
 * margin (area * ratio / perimeter, as PaddleOCR does for a rectangle).
 * Boxes stay axis-aligned: the example reads horizontal text.
 */
#include "ocr.h"

#include <stdlib.h>
#include <string.h>

static int box_order(const void *pa, const void *pb)
{
    const ocr_box *a = pa, *b = pb;
    /* same line when their vertical centres are within half a height */
    int ca = (a->y0 + a->y1) / 2, cb = (b->y0 + b->y1) / 2;
    int half = ((a->y1 - a->y0) < (b->y1 - b->y0) ? (a->y1 - a->y0)
                                                  : (b->y1 - b->y0)) / 2;
    if (ca + half < cb)
        return -1;
    if (cb + half < ca)
        return 1;
    return (a->x0 > b->x0) - (a->x0 < b->x0);
}

static int clampi(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

int ocr_boxes_find(const float *prob, int w, int h, int img_w, int img_h,
                   const ocr_box_params *params, ocr_box *out, int max)
{
    size_t n = (size_t)w * (size_t)h;
    unsigned char *seen = calloc(n ? n : 1, 1);
    int *stack = malloc((n ? n : 1) * sizeof *stack);
    if (!seen || !stack) {
        free(seen);
        free(stack);
        return -1;
    }
    int count = 0;
    for (size_t start = 0; start < n; start++) {
        if (seen[start] || !(prob[start] > params->thresh))
            continue;
        /* flood fill one 8-connected component with an explicit stack */
        int top = 0, x0 = w, y0 = h, x1 = -1, y1 = -1;
        double sum = 0.0;
        size_t pixels = 0;
        seen[start] = 1;
        stack[top++] = (int)start;
        while (top > 0) {
            int p = stack[--top], px = p % w, py = p / w;
            sum += prob[p];
            pixels++;
            x0 = px < x0 ? px : x0;
            x1 = px > x1 ? px : x1;
            y0 = py < y0 ? py : y0;
            y1 = py > y1 ? py : y1;
            for (int dy = -1; dy <= 1; dy++) {
                for (int dx = -1; dx <= 1; dx++) {
                    int qx = px + dx, qy = py + dy;
                    if (qx < 0 || qy < 0 || qx >= w || qy >= h)
                        continue;
                    int q = qy * w + qx;
                    if (!seen[q] && prob[q] > params->thresh) {
                        seen[q] = 1;
                        stack[top++] = q;
                    }
                }
            }
        }
        int bw = x1 - x0 + 1, bh = y1 - y0 + 1;
        float score = (float)(sum / (double)pixels);
        if ((bw < bh ? bw : bh) < params->min_size ||
            score < params->box_thresh || count >= max)
            continue;
        /* unclip: the margin DB's training shrank the region by */
        double d = (double)bw * bh * params->unclip_ratio / (2.0 * (bw + bh));
        double sx = (double)img_w / w, sy = (double)img_h / h;
        ocr_box *b = &out[count++];
        b->x0 = clampi((int)((x0 - d) * sx), 0, img_w);
        b->y0 = clampi((int)((y0 - d) * sy), 0, img_h);
        b->x1 = clampi((int)((x1 + 1 + d) * sx + 0.999), 0, img_w);
        b->y1 = clampi((int)((y1 + 1 + d) * sy + 0.999), 0, img_h);
        b->score = score;
    }
    free(seen);
    free(stack);
    qsort(out, (size_t)count, sizeof *out, box_order);
    return count;
}
