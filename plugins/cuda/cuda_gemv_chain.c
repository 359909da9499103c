/*
 * cuda_gemv_chain.c - two batch-1 Linear layers in a row, both on our
 * GEMV, run as one stream of both weights (rlxg_gemv_chain,
 * gk_gemv_chain.cu) where the autotuner measures it faster: the first
 * step launches the chain for both, the second launches nothing. On an
 * H200 the 784-4096-4096-10 MLP's first two layers take 18.4 µs that
 * way against 23.5 µs as two GEMVs (docs/performance-notes.md).
 *
 * Setting cuda.gemv_chain (RLX_CUDA_GEMV_CHAIN): 0 never, 1 wherever two
 * steps fit (for tests), by default where measured faster.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_gemv_chain.h"

/* Steps I and I + 1 of EXE as the chain's layers 1 and 2: both f32
 * batch-1 GEMVs on param or constant weights, layer 2 reading only what
 * layer 1 writes, and nothing else reading that. (The chain also needs
 * x and the weights 16-byte aligned: every value here starts 256-byte
 * aligned, in the arena, the constants or a buffer of its own.) */
static int chain_fits(const rlx_executable *exe, uint32_t i)
{
    const rlxg_step *s1 = &exe->steps[i], *s2 = s1 + 1;
    if (s1->kind != RLXG_STEP_MATMUL || s2->kind != RLXG_STEP_MATMUL)
        return 0;
    const rlxg_matmul *m1 = s1->mm, *m2 = s2->mm;
    const int early = RLXG_GEMV_EARLY;
    if (!m1->use_gemv || !m2->use_gemv || m1->chain || m1->m != 1 ||
        m2->m != 1 || exe->values[s1->out].dtype != RLX_DTYPE_F32 ||
        exe->values[s2->out].dtype != RLX_DTYPE_F32 ||
        s2->in[0] != s1->out || m2->k != m1->n || m1->k % 4 ||
        m1->n % 4 || !(m1->gemv_flags & early) ||
        !(m2->gemv_flags & early))
        return 0;
    for (uint32_t t = 0; t < exe->n_steps; t++) {
        const rlxg_step *s = &exe->steps[t];
        for (int j = 0; j < 4; j++)
            if (t != i + 1 && s->in[j] == s1->out)
                return 0;
        if (s->in5 == s1->out)
            return 0;
        if (s->mm && s->mm->bias_value == s1->out)
            return 0;
    }
    for (uint32_t o = 0; o < exe->n_outputs; o++)
        if ((int)exe->output_values[o] == s1->out)
            return 0;
    return 1;
}

/* Launch the chain of steps S1 and S2 = S1 + 1 (their values' pointers
 * under PARAMS) on STREAM; DEP: its first kernel may be a programmatic
 * dependent. */
static cudaError_t chain_launch(rlx_executable *exe, const rlxg_step *s1,
                                void *const *params, cudaStream_t stream,
                                int dep)
{
    const rlxg_step *s2 = s1 + 1;
    const rlxg_matmul *m1 = s1->mm, *m2 = s2->mm;
    const float *b1 = m1->bias_value >= 0
                          ? rlxg_value_ptr(exe, m1->bias_value, params)
                          : NULL;
    const float *b2 = m2->bias_value >= 0
                          ? rlxg_value_ptr(exe, m2->bias_value, params)
                          : NULL;
    int pdl = (m1->gemv_flags & RLXG_GEMV_PDL) != 0;
    return rlxg_gemv_chain(
        stream, rlxg_value_ptr(exe, s1->in[0], params),
        rlxg_value_ptr(exe, s1->in[1], params), b1,
        m1->epilogue == RLXG_EPI_RELU_BIAS,
        rlxg_value_ptr(exe, s2->in[1], params), b2, m1->chain_scratch,
        m2->epilogue == RLXG_EPI_RELU_BIAS, rlxg_value_ptr(exe, s2->out,
                                                           params),
        m1->k, m1->n, m2->n, pdl && dep, pdl);
}

rlx_status rlxg_chain_enqueue(rlx_executable *exe, const rlxg_step *step,
                              void *const *params, cudaStream_t stream,
                              int dep)
{
    if (step->mm->chain == RLXG_CHAIN_SECOND)
        return RLX_OK; /* the step before launched it */
    cudaError_t err = chain_launch(exe, step, params, stream, dep);
    if (err != cudaSuccess)
        return rlxg_gpu_fail(exe->be->host, err, "cannot launch a kernel");
    return RLX_OK;
}

/* Calls per timed sample and samples (the first warms up) */
#define CHAIN_CALLS 8
#define CHAIN_REPS 5

/* Best time of steps [I, END) with PARAMS, in ms per call; -1 when a
 * launch fails. */
static float time_steps(rlx_executable *exe, uint32_t i, uint32_t end,
                        void *const *params, cudaEvent_t e0, cudaEvent_t e1)
{
    float best = -1.f;
    for (int rep = 0; rep < CHAIN_REPS; rep++) {
        rlx_status st = cudaEventRecord(e0, exe->stream) == cudaSuccess
                            ? RLX_OK : RLX_ERR_DEVICE;
        for (int c = 0; c < CHAIN_CALLS; c++)
            for (uint32_t k = i; k < end && st == RLX_OK; k++)
                st = rlxg_step_enqueue(exe, &exe->steps[k], params,
                                       exe->stream, 1);
        if (st != RLX_OK || cudaEventRecord(e1, exe->stream) != cudaSuccess ||
            cudaEventSynchronize(e1) != cudaSuccess)
            return -1.f;
        float ms = 0.f;
        cudaEventElapsedTime(&ms, e0, e1);
        if (rep > 0 && (best < 0 || ms / CHAIN_CALLS < best))
            best = ms / CHAIN_CALLS;
    }
    return best;
}

/* Steps I and I + 1 and the one after them (the chain's end changes how
 * the next kernel starts), timed as a chain and as two GEMVs on scratch
 * params (x and the outputs are the arena's, constants the real ones):
 * *CHAIN_MS and *PAIR_MS, or nonzero when that failed. */
static int time_both(rlx_executable *exe, uint32_t i, float *chain_ms,
                     float *pair_ms)
{
    uint32_t end = i + 3 < exe->n_steps ? i + 3 : exe->n_steps;
    void **params = calloc(exe->n_params + 1, sizeof *params);
    size_t *at = calloc(exe->n_params + 1, sizeof *at);
    size_t total = 256;
    char *buf = NULL;
    cudaEvent_t e0 = NULL, e1 = NULL;
    int rc = -1;
    if (!params || !at)
        goto out;
    for (uint32_t s = 0; s < exe->n_params; s++)
        at[s] = SIZE_MAX;
    for (uint32_t k = i; k < end; k++) {
        const rlxg_step *st = &exe->steps[k];
        int vals[5] = { st->in[0], st->in[1], st->in[2], st->in[3],
                        st->mm ? st->mm->bias_value : -1 };
        for (int j = 0; j < 5; j++) {
            const rlxg_value *v = vals[j] >= 0 ? &exe->values[vals[j]] : NULL;
            if (v && v->loc == RLXG_LOC_PARAM && at[v->slot] == SIZE_MAX) {
                at[v->slot] = total;
                total += (v->nbytes + 255) / 256 * 256;
            }
        }
    }
    if (cudaMalloc((void **)&buf, total) != cudaSuccess ||
        cudaEventCreate(&e0) != cudaSuccess ||
        cudaEventCreate(&e1) != cudaSuccess)
        goto out;
    rlxg_fill(exe->stream, RLX_DTYPE_F32, buf, (int64_t)(total / 4),
              1.0 / 1024);
    for (uint32_t s = 0; s < exe->n_params; s++)
        if (at[s] != SIZE_MAX)
            params[s] = buf + at[s];
    rlxg_matmul *m1 = exe->steps[i].mm, *m2 = exe->steps[i + 1].mm;
    m1->chain = RLXG_CHAIN_FIRST;
    m2->chain = RLXG_CHAIN_SECOND;
    *chain_ms = time_steps(exe, i, end, params, e0, e1);
    m1->chain = m2->chain = 0;
    *pair_ms = time_steps(exe, i, end, params, e0, e1);
    rc = *chain_ms < 0 || *pair_ms < 0;
out:
    cudaStreamSynchronize(exe->stream);
    cudaGetLastError(); /* a failed candidate is just not taken */
    if (e0)
        cudaEventDestroy(e0);
    if (e1)
        cudaEventDestroy(e1);
    cudaFree(buf);
    free(params);
    free(at);
    return rc;
}

void rlxg_chain_plan(rlx_executable *exe)
{
    const rlx_host *host = exe->be->host;
    char v[8] = "";
    if (rlx_compile_get_option(exe->options, host, "cuda.gemv_chain", v,
                               sizeof v) != RLX_OK)
        v[0] = 0;
    int always = strcmp(v, "1") == 0;
    if (!rlxg_dep_launch_ok() || /* clusters: the sm_90 code runs */
        strcmp(v, "0") == 0 || rlxg_gemv_chain_init() != cudaSuccess) {
        cudaGetLastError();
        return;
    }
    for (uint32_t i = 0; i + 1 < exe->n_steps; i++) {
        rlxg_step *s1 = &exe->steps[i];
        rlxg_matmul *m1 = s1->mm, *m2 = s1[1].mm;
        float chain_ms = -1.f, pair_ms = -1.f;
        if (!chain_fits(exe, i) ||
            cudaMalloc((void **)&m1->chain_scratch,
                       rlxg_gemv_chain_scratch(m1->n, m2->n)) !=
                cudaSuccess) {
            cudaGetLastError();
            continue;
        }
        if (!always && (time_both(exe, i, &chain_ms, &pair_ms) ||
                        chain_ms >= pair_ms)) {
            cudaFree(m1->chain_scratch);
            m1->chain_scratch = NULL;
        } else {
            m1->chain = RLXG_CHAIN_FIRST;
            m2->chain = RLXG_CHAIN_SECOND;
        }
        if (always)
            rlx_kit_log(host, RLX_LOG_INFO,
                        "cuda: batch-1 matmuls %lldx%lld and %lldx%lld run "
                        "as one chain (cuda.gemv_chain=1, not timed)",
                        (long long)m1->k, (long long)m1->n,
                        (long long)m2->k, (long long)m2->n);
        else
            rlx_kit_log(host, RLX_LOG_INFO,
                        "cuda: batch-1 matmuls %lldx%lld and %lldx%lld %s: "
                        "with the step after them, %.4f ms as one weight "
                        "stream, %.4f ms as two GEMVs",
                        (long long)m1->k, (long long)m1->n,
                        (long long)m2->k, (long long)m2->n,
                        m1->chain ? "run as one chain" : "stay two GEMVs",
                        (double)chain_ms, (double)pair_ms);
        i += m1->chain != 0; /* the second step is taken */
    }
}
