/*
 * test-onnx-lower-signal.c - ONNX's signal ops lowered by composition,
 * run on cpu-ref: the Hann, Hamming and Blackman windows against values
 * worked out by hand, DFT (forward, inverse, onesided, zero-padded, the
 * opset 20 axis input) and STFT against a direct DFT computed here, and
 * MelWeightMatrix against the matrix in ONNX's own node test.
 */
#include <math.h>
#include <string.h>

#include <rlx/rlx.h>

#include "harness.h"
#include "onnx-util.h"

#define N(...) (const char *[]){ __VA_ARGS__, NULL }
#define OX_I32 ONNX__TENSOR_PROTO__DATA_TYPE__INT32

/* The DFT of the N complex samples (RE, IM) at length LEN (zero-padded
 * or cut), the first K frequencies, as (re, im) pairs. */
static void dft_ref(const float *re, const float *im, int n, int len,
                    int k, int inverse, float *out)
{
    const double pi = 3.14159265358979323846;
    for (int f = 0; f < k; f++) {
        double sr = 0, si = 0;
        for (int j = 0; j < len && j < n; j++) {
            double t = (inverse ? 2 : -2) * pi * j * f / len;
            double a = re[j], b = im ? im[j] : 0;
            sr += a * cos(t) - b * sin(t);
            si += a * sin(t) + b * cos(t);
        }
        out[2 * f] = (float)(inverse ? sr / len : sr);
        out[2 * f + 1] = (float)(inverse ? si / len : si);
    }
}

TEST(windows)
{
    ox_model *x = ox_new(8, 17);
    int64_t four = 4, d4[1] = { 4 };
    ox_init(x, "size", OX_I64, 0, NULL, &four, sizeof four);
    ox_node(x, "HannWindow", N("size"), N("hann"));
    Onnx__NodeProto *n = ox_node(x, "HammingWindow", N("size"), N("ham"));
    ox_attr_int(x, n, "periodic", 0);
    ox_node(x, "BlackmanWindow", N("size"), N("black"));
    ox_output(x, "hann", OX_F32, 1, d4);
    ox_output(x, "ham", OX_F32, 1, d4);
    ox_output(x, "black", OX_F32, 1, d4);
    run r;
    run_open(&r, x, "windows.onnx");
    ASSERT_OK(rlx_program_run(r.p));
    const float hann[4] = { 0, 0.5f, 1, 0.5f };
    /* symmetric: period 3; 25/46 - 21/46 cos(2 pi n / 3) */
    const float ham[4] = { 4.0f / 46, 35.5f / 46, 35.5f / 46, 4.0f / 46 };
    const float black[4] = { 0, 0.34f, 1, 0.34f };
    expect(out(&r, "hann", RLX_DTYPE_F32, 4), hann, 4);
    expect(out(&r, "ham", RLX_DTYPE_F32, 4), ham, 4);
    expect(out(&r, "black", RLX_DTYPE_F32, 4), black, 4);
    run_close(&r);
}

TEST(dft_forward_inverse_and_onesided)
{
    ox_model *x = ox_new(8, 17);
    int64_t dr[3] = { 1, 4, 1 }, dc[3] = { 1, 4, 2 }, d2[3] = { 1, 4, 2 },
            d1[3] = { 1, 3, 2 };
    ox_input(x, "xr", OX_F32, 3, dr);
    ox_input(x, "xc", OX_F32, 3, dc);
    ox_node(x, "DFT", N("xr"), N("fwd"));
    Onnx__NodeProto *n = ox_node(x, "DFT", N("xc"), N("inv"));
    ox_attr_int(x, n, "inverse", 1);
    n = ox_node(x, "DFT", N("xr"), N("one"));
    ox_attr_int(x, n, "onesided", 1);
    ox_output(x, "fwd", OX_F32, 3, d2);
    ox_output(x, "inv", OX_F32, 3, d2);
    ox_output(x, "one", OX_F32, 3, d1);
    run r;
    run_open(&r, x, "dft.onnx");
    const float xr[4] = { 1, 2, 3, 4 };
    const float xc[8] = { 10, 0, -2, 2, -2, 0, -2, -2 };
    ASSERT_OK(rlx_program_set_input(r.p, "xr", xr, sizeof xr));
    ASSERT_OK(rlx_program_set_input(r.p, "xc", xc, sizeof xc));
    ASSERT_OK(rlx_program_run(r.p));
    /* worked by hand: the DFT of 1 2 3 4, and back */
    const float fwd[8] = { 10, 0, -2, 2, -2, 0, -2, -2 };
    const float inv[8] = { 1, 0, 2, 0, 3, 0, 4, 0 };
    expect(out(&r, "fwd", RLX_DTYPE_F32, 8), fwd, 8);
    expect(out(&r, "inv", RLX_DTYPE_F32, 8), inv, 8);
    expect(out(&r, "one", RLX_DTYPE_F32, 6), fwd, 6);
    run_close(&r);
}

/* Opset 20: the axis is an input; dft_length 6 zero-pads; the signal
 * axis is not the last one before the complex axis. */
TEST(dft_opset_20_axis_input_and_padding)
{
    ox_model *x = ox_new(8, 20);
    int64_t dx[4] = { 1, 3, 2, 1 }, dy[4] = { 1, 6, 2, 2 };
    int64_t six = 6, axis = 1;
    ox_input(x, "x", OX_F32, 4, dx);
    ox_init(x, "len", OX_I64, 0, NULL, &six, sizeof six);
    ox_init(x, "axis", OX_I64, 0, NULL, &axis, sizeof axis);
    ox_node(x, "DFT", N("x", "len", "axis"), N("y"));
    ox_output(x, "y", OX_F32, 4, dy);
    run r;
    run_open(&r, x, "dft20.onnx");
    const float v[6] = { 1, -1, 2, 0.5f, -3, 4 }; /* [3][2] */
    ASSERT_OK(rlx_program_set_input(r.p, "x", v, sizeof v));
    ASSERT_OK(rlx_program_run(r.p));
    const float *y = out(&r, "y", RLX_DTYPE_F32, 24);
    for (int col = 0; col < 2; col++) {
        float s[3] = { v[col], v[2 + col], v[4 + col] }, w[12];
        dft_ref(s, NULL, 3, 6, 6, 0, w);
        for (int f = 0; f < 6; f++) {
            float got[2] = { y[(f * 2 + col) * 2], y[(f * 2 + col) * 2 + 1] };
            expect(got, w + 2 * f, 2);
        }
    }
    run_close(&r);
}

TEST(stft_with_a_window)
{
    ox_model *x = ox_new(8, 17);
    int64_t ds[3] = { 1, 8, 1 }, d4[1] = { 4 }, dy[4] = { 1, 3, 3, 2 };
    int64_t step = 2;
    const float win[4] = { 0, 0.5f, 1, 0.5f };
    ox_input(x, "s", OX_F32, 3, ds);
    ox_init(x, "step", OX_I64, 0, NULL, &step, sizeof step);
    ox_init(x, "win", OX_F32, 1, d4, win, sizeof win);
    ox_node(x, "STFT", N("s", "step", "win"), N("y"));
    ox_output(x, "y", OX_F32, 4, dy);
    run r;
    run_open(&r, x, "stft.onnx");
    float s[8];
    for (int i = 0; i < 8; i++)
        s[i] = (float)(i * i) * 0.25f - 1;
    ASSERT_OK(rlx_program_set_input(r.p, "s", s, sizeof s));
    ASSERT_OK(rlx_program_run(r.p));
    const float *y = out(&r, "y", RLX_DTYPE_F32, 18);
    for (int f = 0; f < 3; f++) {
        float frame[4], w[6];
        for (int j = 0; j < 4; j++)
            frame[j] = s[f * 2 + j] * win[j];
        dft_ref(frame, NULL, 4, 4, 3, 0, w);
        expect(y + f * 6, w, 6);
    }
    run_close(&r);
}

/* ONNX's test_melweightmatrix: 8 bins, DFT length 16, 8192 Hz, 0 to
 * 4096 Hz. */
TEST(mel_weight_matrix)
{
    ox_model *x = ox_new(8, 17);
    int32_t bins = 8, len = 16, rate = 8192;
    float lo = 0, hi = 4096;
    int64_t dy[2] = { 9, 8 };
    ox_init(x, "bins", OX_I32, 0, NULL, &bins, sizeof bins);
    ox_init(x, "len", OX_I32, 0, NULL, &len, sizeof len);
    ox_init(x, "rate", OX_I32, 0, NULL, &rate, sizeof rate);
    ox_init(x, "lo", OX_F32, 0, NULL, &lo, sizeof lo);
    ox_init(x, "hi", OX_F32, 0, NULL, &hi, sizeof hi);
    ox_node(x, "MelWeightMatrix", N("bins", "len", "rate", "lo", "hi"),
            N("y"));
    ox_output(x, "y", OX_F32, 2, dy);
    run r;
    run_open(&r, x, "mel.onnx");
    ASSERT_OK(rlx_program_run(r.p));
    float want[72] = { 0 };
    const int ones[8][2] = { { 0, 0 }, { 0, 1 }, { 1, 2 }, { 1, 3 },
                             { 2, 4 }, { 3, 5 }, { 4, 6 }, { 5, 7 } };
    for (int i = 0; i < 8; i++)
        want[ones[i][0] * 8 + ones[i][1]] = 1;
    expect(out(&r, "y", RLX_DTYPE_F32, 72), want, 72);
    run_close(&r);
}

/* A window size fed at run time: the model runs in stages, the size
 * known once its stage is reached; a size that is not one integer is
 * refused then, naming the node. */
TEST(window_of_run_time_size)
{
    ox_model *x = ox_new(8, 17);
    int64_t dy[1] = { -1 };
    ox_input(x, "size", OX_I64, 0, NULL);
    ox_node(x, "HannWindow", N("size"), N("y"));
    ox_output(x, "y", OX_F32, 1, dy);
    const char *path = ox_write(x, "hann-run-time.onnx");
    ox_free(x);
    rlx_model *m = NULL;
    rlx_runtime *rt;
    rlx_session *s;
    rlx_program *p = NULL;
    ASSERT_OK(rlx_model_load(path, &m));
    ASSERT_OK(rlx_runtime_create(&rt, RLX_RUNTIME_NO_DISCOVERY));
    ASSERT_OK(rlx_session_create(rt, "cpu-ref", &s));
    ASSERT_OK(rlx_model_compile(m, s, &p));
    int64_t n = 4;
    ASSERT_OK(rlx_program_set_input(p, "size", &n, sizeof n));
    ASSERT_OK(rlx_program_run(p));
    const float *y = rlx_program_output_data(p, 0, NULL);
    /* periodic Hann of 4: 0, 0.5, 1, 0.5 */
    const float want[4] = { 0, 0.5f, 1, 0.5f };
    ASSERT(y != NULL);
    expect(y, want, 4);
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_runtime_destroy(rt);
    rlx_model_destroy(m);
}

RLX_TEST_LIST(TEST_ENTRY(windows),
              TEST_ENTRY(dft_forward_inverse_and_onesided),
              TEST_ENTRY(dft_opset_20_axis_input_and_padding),
              TEST_ENTRY(stft_with_a_window),
              TEST_ENTRY(mel_weight_matrix),
              TEST_ENTRY(window_of_run_time_size))
