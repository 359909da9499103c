/*
 * onnx_qdq.h - the QDQ groups' table, shared by the pre-pass that finds
 * them (onnx_qdq.c) and the lowering that fuses them (onnx_qdq_lower.c).
 */
#ifndef RLX_ONNX_QDQ_H
#define RLX_ONNX_QDQ_H

#include "onnx.h"

#define RLX__QDQ_NONE UINT32_MAX

typedef struct rlx__onnx_qdq_group {
    uint32_t q, mid, act;  /* act: Relu or Clip, or RLX__QDQ_NONE */
    uint32_t dq[3];        /* DQs of mid's inputs 0, 1, 2, or NONE */
} rlx__onnx_qdq_group;

struct rlx__onnx_qdq {
    const rlx__onnx_model *m;
    uint32_t n;            /* nodes of the top graph */
    uint8_t *role;         /* per node: RLX__QDQ_PLAIN, _DEFER, _ANCHOR */
    uint8_t *pending;      /* deferred, not lowered yet */
    char **why;            /* per node: the report's note, or NULL */
    uint32_t *gi;          /* per anchor: its group */
    rlx__onnx_qdq_group *groups;
    uint32_t n_groups;
};

#endif /* RLX_ONNX_QDQ_H */
