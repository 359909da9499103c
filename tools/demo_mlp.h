/*
 * demo_mlp.h - the small MLP `rlx demo` runs, with deterministic data.
 *
 *   x [batch,64] -> matmul w1 + b1 -> gelu -> matmul w2 + b2 -> relu
 *                -> matmul w3 + b3 -> softmax -> "probs" [batch,10]
 */
#ifndef RLX_TOOLS_DEMO_MLP_H
#define RLX_TOOLS_DEMO_MLP_H

#include <stddef.h>
#include <stdint.h>

#include <rlx/rlx.h>

#define CLI_MLP_PARAMS 6
#define CLI_MLP_IN 64
#define CLI_MLP_HIDDEN 128
#define CLI_MLP_OUT 10

typedef struct cli_mlp_param {
    const char *name;
    uint32_t rank;
    int64_t dims[2];
    float *data;
    size_t nbytes;
} cli_mlp_param;

typedef struct cli_mlp {
    int64_t batch;
    rlx_graph *graph;
    cli_mlp_param params[CLI_MLP_PARAMS];
    float *input; /* "x", batch x CLI_MLP_IN */
    size_t input_nbytes;
} cli_mlp;

/* Builds the graph and fills params and input. On failure M is freed and
 * rlx_last_error() says why (RLX_ERR_OUT_OF_MEMORY: the tool's own). */
rlx_status cli_mlp_create(cli_mlp *m, int64_t batch);
void cli_mlp_destroy(cli_mlp *m);

#endif /* RLX_TOOLS_DEMO_MLP_H */
