/*
 * onnx_rnn.h - what the recurrent lowerings share: the state of one
 * LSTM, GRU or RNN node being unrolled (onnx_lower_rnn.c) and the cell
 * step and activation functions that build each time step's nodes
 * (onnx_rnn_cell.c).
 */
#ifndef RLX_ONNX_RNN_H
#define RLX_ONNX_RNN_H

#include "onnx.h"

enum { RLX__RNN, RLX__GRU, RLX__LSTM };

/* An activation named by the node's `activations` attribute, with its
 * alpha and beta (ONNX's defaults when the lists leave them out). */
typedef struct rlx__rnn_act {
    int fn;                 /* RLX__ACT_* (onnx_rnn_cell.c) */
    double alpha, beta;
} rlx__rnn_act;

/* One direction's weights, sliced out of W, R, B and P. */
typedef struct rlx__rnn_dir {
    rlx_value r;            /* [G*H, H] (GRU, linear_before_reset 0:
                             * the z and r rows, [2H, H]) */
    rlx_value rh;           /* GRU: the h rows of R, [H, H] */
    int has_rbh;
    rlx_value rbh;          /* GRU, linear_before_reset 1: Rb's h part */
    int has_p;
    rlx_value pi, po, pf;   /* LSTM peepholes, [H] each */
    rlx__rnn_act act[3];    /* f, g, h as the op uses them */
} rlx__rnn_dir;

typedef struct rlx__rnn {
    rlx__onnx_ctx *c;
    int kind;
    rlx_dtype dt;
    int64_t hidden;
    int64_t batch;
    double clip;            /* <= 0: none */
    int input_forget;       /* LSTM */
    int lbr;                /* GRU linear_before_reset */
    rlx_value one;          /* scalar 1 of dt (GRU, input_forget) */
    int has_one;
} rlx__rnn;

/* Look up activation NAME (ONNX's spelling, any case): 0, or -1. */
int rlx__rnn_act_find(const char *name, size_t len, rlx__rnn_act *out,
                      int *uses_alpha, int *uses_beta);

/* Apply A to X. */
rlx_status rlx__rnn_act_apply(rlx__rnn *n, const rlx__rnn_act *a,
                              rlx_value x, rlx_value *out);

/* One time step: XT is [batch, G*H] (the input's product with W and the
 * biases that need no gating), H and CELL the previous state ([batch,
 * H]); *H_OUT and *C_OUT the new (C only for LSTM). */
rlx_status rlx__rnn_step(rlx__rnn *n, const rlx__rnn_dir *d, rlx_value xt,
                         rlx_value h, rlx_value cell, rlx_value *h_out,
                         rlx_value *c_out);

/* Small builders over rlx__onnx_add. */
rlx_status rlx__rnn_op2(rlx__onnx_ctx *c, rlx_op op, rlx_value a,
                        rlx_value b, rlx_value *out);
rlx_status rlx__rnn_slice(rlx__onnx_ctx *c, rlx_value x, int64_t axis,
                          int64_t start, int64_t end, rlx_value *out);
rlx_status rlx__rnn_reshape(rlx__onnx_ctx *c, rlx_value x, uint32_t rank,
                            const int64_t *dims, rlx_value *out);
/* A x B^T. */
rlx_status rlx__rnn_matmul_t(rlx__onnx_ctx *c, rlx_value a, rlx_value b,
                             rlx_value *out);

#endif /* RLX_ONNX_RNN_H */
