/*
 * conformance_edge_quant.c - the quantization edge cases of docs/ops.md
 * ("Edge: quantization rounding and saturation") as `rlx conformance`
 * runs them: ties rounding half to even, saturation at both ends, NaN,
 * per-axis scales, zero points of the integer ops and conv padding;
 * and the requantization step of a QDQ group ("Edge: QDQ groups'
 * requantization").
 */
#include <math.h>

#include "conformance_edge.h"

#define SEC_QUANT "edge-quantization-rounding-and-saturation"
#define SEC_REQ "edge-qdq-groups-requantization"

int cli_conf_edge_quant_make(int i, edge *e)
{
    int64_t d6[] = { 6 }, d3[] = { 3 }, d22[] = { 2, 2 };
    int rc = 0;
    switch (i) {
    case 0:
        begin(e, "quantize_linear to u8 by 0.5, zp 128: -1.25, 0.25, 0.75 "
              "(ties), 200, -300 (saturate), NaN (the zero point)",
              SEC_QUANT, RLX_OP_QUANTIZE_LINEAR);
        rc = input(e, 1, d6,
                   (double[]){ -1.25, 0.25, 0.75, 200, -300, NAN }) ||
             input(e, 0, NULL, (double[]){ 0.5 }) ||
             input_of(e, RLX_DTYPE_U8, 0, NULL, (double[]){ 128 });
        result(e, 1, d6, (double[]){ 126, 128, 130, 255, 0, 128 }, 6);
        e->out = RLX_DTYPE_U8;
        break;
    case 1:
        begin(e, "quantize_linear to i8 per axis 1 of [2, 2]: scales 1, "
              "2, zps -1, 1; 2.5, 3, -200, 300",
              SEC_QUANT, RLX_OP_QUANTIZE_LINEAR);
        rc = input(e, 2, d22, (double[]){ 2.5, 3, -200, 300 }) ||
             input(e, 1, (int64_t[]){ 2 }, (double[]){ 1, 2 }) ||
             input_of(e, RLX_DTYPE_I8, 1, (int64_t[]){ 2 },
                      (double[]){ -1, 1 });
        ints(e, 1, (int64_t[]){ 1 });
        result(e, 2, d22, (double[]){ 1, 3, -128, 127 }, 4);
        e->out = RLX_DTYPE_I8;
        break;
    case 2:
        begin(e, "dequantize_linear of u8 0, 128, 255 by 0.5, zp 128",
              SEC_QUANT, RLX_OP_DEQUANTIZE_LINEAR);
        rc = input_of(e, RLX_DTYPE_U8, 1, d3, (double[]){ 0, 128, 255 }) ||
             input(e, 0, NULL, (double[]){ 0.5 }) ||
             input_of(e, RLX_DTYPE_U8, 0, NULL, (double[]){ 128 });
        result(e, 1, d3, (double[]){ -64, 0, 63.5 }, 3);
        break;
    case 3:
        begin(e, "matmul_integer u8 [2, 2] x i8 [2, 2], per-row a zp 1, 0; "
              "extremes 255 x -128", SEC_QUANT, RLX_OP_MATMUL_INTEGER);
        rc = input_of(e, RLX_DTYPE_U8, 2, d22,
                      (double[]){ 1, 2, 255, 255 }) ||
             input_of(e, RLX_DTYPE_I8, 2, d22,
                      (double[]){ -128, 127, -128, 127 }) ||
             input_of(e, RLX_DTYPE_U8, 1, (int64_t[]){ 2 },
                      (double[]){ 1, 0 }) ||
             input_of(e, RLX_DTYPE_I8, 0, NULL, (double[]){ 0 });
        /* row 0 - 1 = [0, 1]; row 1 = [255, 255] */
        result(e, 2, d22, (double[]){ -128, 127, -65280, 64770 }, 4);
        e->out = RLX_DTYPE_I32;
        break;
    case 4:
        begin(e, "conv_integer [1, 1, 2, 2] by a 2x2 kernel of ones, pads "
              "1, x zp 1: padding is the zero point",
              SEC_QUANT, RLX_OP_CONV_INTEGER);
        rc = input_of(e, RLX_DTYPE_U8, 4, (int64_t[]){ 1, 1, 2, 2 },
                      (double[]){ 1, 2, 3, 4 }) ||
             input_of(e, RLX_DTYPE_U8, 4, (int64_t[]){ 1, 1, 2, 2 },
                      (double[]){ 1, 1, 1, 1 }) ||
             input_of(e, RLX_DTYPE_U8, 0, NULL, (double[]){ 1 }) ||
             input_of(e, RLX_DTYPE_U8, 0, NULL, (double[]){ 0 });
        /* group 1; strides, dilations; pads begin, end */
        ints(e, 9, (int64_t[]){ 1, 1, 1, 1, 1, 1, 1, 1, 1 });
        result(e, 4, (int64_t[]){ 1, 1, 3, 3 },
               (double[]){ 0, 1, 1, 2, 6, 4, 2, 5, 3 }, 9);
        e->out = RLX_DTYPE_I32;
        break;
    case 5:
        /* the last step of QLinearConv's and a fused QDQ group's chain */
        begin(e, "requantization: quantize_linear by 1, zp 130 of acc * m "
              "= 1.5, 2.5, 3.5, 127.5, -130.5", SEC_REQ,
              RLX_OP_QUANTIZE_LINEAR);
        rc = input(e, 1, (int64_t[]){ 5 },
                   (double[]){ 1.5, 2.5, 3.5, 127.5, -130.5 }) ||
             input(e, 0, NULL, (double[]){ 1 }) ||
             input_of(e, RLX_DTYPE_U8, 0, NULL, (double[]){ 130 });
        result(e, 1, (int64_t[]){ 5 }, (double[]){ 132, 132, 134, 255, 0 },
               5);
        e->out = RLX_DTYPE_U8;
        break;
    default:
        return 1;
    }
    return rc ? -1 : 0;
}
