/*
 * cuda_gemv_chain.h - two batch-1 GEMV steps in a row as one chain
 * (cuda_gemv_chain.c): planned after the autotuner chose the GEMVs,
 * launched by the first step's matmul enqueue.
 */
#ifndef RLX_CUDA_GEMV_CHAIN_H
#define RLX_CUDA_GEMV_CHAIN_H

#include "gpu_internal.h"

/* rlxg_matmul.chain: the step's role */
#define RLXG_CHAIN_FIRST 1  /* launches the chain of this step and the next */
#define RLXG_CHAIN_SECOND 2 /* launched by the step before */

/* Mark the pairs of steps that run faster as a chain (timed here, on
 * scratch params) and give each its partial-sum buffer. Compile time,
 * after rlxg_matmul_autotune chose each step's kernel. */
void rlxg_chain_plan(rlx_executable *exe);
/* The matmul enqueue of a step with a chain role (as
 * rlxg_matmul_enqueue's arguments). */
rlx_status rlxg_chain_enqueue(rlx_executable *exe, const rlxg_step *step,
                              void *const *params, cudaStream_t stream,
                              int dep);

#endif
