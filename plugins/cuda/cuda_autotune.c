/*
 * cuda_autotune.c - the cuda plugin's matmul autotuner, at compile
 * time: each matmul step big enough to matter times its candidates
 * (cuBLASLt's heuristic algorithms and their split-K variants, our
 * batch-1 GEMV, our 3xTF32 GEMM's tiles) on scratch operands and keeps
 * the fastest; then the GEMV chains are planned (cuda_gemv_chain.c).
 */
#include <stdlib.h>

#include "cuda_gemv_chain.h"
#include "cuda_matmul.h"
#include "gpu_internal.h"

/* Below this a matmul keeps the heuristic's first pick. A batch-1
 * layer (2 * 784 * 4096 FLOP) is above it: its choice among split-K
 * variants decides how much of the memory bandwidth it gets. */
#define TUNE_MIN_FLOP (2.0 * 128 * 128 * 128)
/* The graph's replays (the first warms up) */
#define TUNE_REPS 4

static double flop_of(const rlxg_matmul *mm)
{
    return 2.0 * (double)mm->m * (double)mm->n * (double)mm->k *
           (double)mm->batch;
}

/* Calls of each candidate per replay: enough that a short GEMM outweighs
 * the event records around it, few where one call alone runs long (1e10
 * FLOP is 20-200 µs at 50-500 TFLOP/s), so that a large matmul's tuning
 * costs about what the old timing's 16 calls did */
static int tune_calls(const rlxg_matmul *mm)
{
    double flop = flop_of(mm);
    return flop < 1e10 ? 10 : flop < 1e11 ? 4 : 2;
}

/* Candidates below 0 are our GEMV with 1, 2, 4 or 8 warps per column;
 * from n_algos on, the 3xTF32 GEMM's block tiles. */
#define GEMV_CANDIDATES 4
static int gemv_wpc_of(int which)
{
    return 1 << (-which - 1);
}

/* One call of candidate WHICH on S. */
static int call_algo(rlx_executable *exe, const rlxg_step *step, int which,
                     const void *a, const void *b, const void *bias, void *y,
                     cudaStream_t s)
{
    const rlxg_blas *bl = &exe->be->blas;
    rlxg_matmul *mm = step->mm;
    const float alpha = 1.0f, beta = 0.0f;
    if (which >= mm->n_algos) {
        mm->tf32x3_cfg = which - mm->n_algos;
        return rlxg_matmul_tf32x3(mm, a, b, bias, y, s) == cudaSuccess;
    }
    if (which < 0) {
        mm->gemv_wpc = gemv_wpc_of(which);
        return rlxg_matmul_gemv(exe, step, a, b, bias, y, s, 1) ==
               cudaSuccess;
    }
    return bl->matmul(exe->lt, mm->desc, &alpha, b, mm->la, a, mm->lb,
                      &beta, y, mm->ld, y, mm->ld, &mm->algos[which],
                      exe->workspace, exe->workspace_bytes,
                      s) == CUBLAS_STATUS_SUCCESS;
}

/* The best time of one call of candidate WHICH in ms, or -1: CALLS calls
 * captured in a graph of their own, replayed TUNE_REPS times (the way
 * time_candidates falls back to) */
static float time_one(rlx_executable *exe, const rlxg_step *step, int which,
                      int calls, const void *a, const void *b,
                      const void *bias, void *y, cudaEvent_t e0,
                      cudaEvent_t e1)
{
    cudaStream_t s = exe->stream;
    cudaGraph_t graph = NULL;
    cudaGraphExec_t ge = NULL;
    if (cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal) !=
        cudaSuccess)
        return -1.f;
    int ok = 1;
    for (int c = 0; c < calls && ok; c++)
        ok = call_algo(exe, step, which, a, b, bias, y, s);
    if (cudaStreamEndCapture(s, &graph) != cudaSuccess)
        ok = 0;
    ok = ok && gpu_graph_instantiate(&ge, graph) == cudaSuccess;
    float best = -1.f;
    for (int rep = 0; rep < TUNE_REPS && ok; rep++) {
        float ms = 0.f;
        ok = cudaEventRecord(e0, s) == cudaSuccess &&
             cudaGraphLaunch(ge, s) == cudaSuccess &&
             cudaEventRecord(e1, s) == cudaSuccess &&
             cudaEventSynchronize(e1) == cudaSuccess &&
             cudaEventElapsedTime(&ms, e0, e1) == cudaSuccess;
        ms /= (float)calls;
        if (ok && rep > 0 && (best < 0 || ms < best))
            best = ms;
    }
    if (ge)
        cudaGraphExecDestroy(ge);
    if (graph)
        cudaGraphDestroy(graph);
    cudaGetLastError();
    return ok ? best : -1.f;
}

/* MS[i]: the best time of one call of candidate C0 + i (C0 <= c < C1),
 * in ms; -1 where it cannot run or the timing failed. Each candidate is
 * called once first (that loads its kernel and shows a failure). Those
 * that ran are then captured in one CUDA graph, tune_calls() calls each
 * between two event records, and the graph replayed: timed as a
 * program's replays run them. Launched one by one, a call's host side
 * (several µs for cuBLASLt) outlasts a small kernel, and every candidate
 * would time the same. Where that one graph cannot be made, each
 * candidate is timed in a graph of its own. */
static void time_candidates(rlx_executable *exe, const rlxg_step *step,
                            int c0, int c1, const void *a, const void *b,
                            const void *bias, void *y, float *ms)
{
    cudaStream_t s = exe->stream;
    const int n = c1 - c0, calls = tune_calls(step->mm);
    int n_ran = 0, n_ev = 0;
    for (int i = 0; i < n; i++) {
        ms[i] = call_algo(exe, step, c0 + i, a, b, bias, y, s) &&
                        cudaStreamSynchronize(s) == cudaSuccess
                    ? 0.f
                    : -1.f; /* 0: ran, not timed yet */
        cudaGetLastError(); /* a candidate that failed is just skipped */
        n_ran += ms[i] == 0.f;
    }
    cudaEvent_t *ev = n_ran ? calloc((size_t)n_ran + 1, sizeof *ev) : NULL;
    cudaGraph_t graph = NULL;
    cudaGraphExec_t ge = NULL;
    int ok = ev != NULL;
    while (ok && n_ev <= n_ran)
        ok = cudaEventCreate(&ev[n_ev++]) == cudaSuccess;
    if (ok && cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal) ==
                  cudaSuccess) {
        /* External: recorded as a node of the graph, at each replay */
        ok = cudaEventRecordWithFlags(ev[0], s, cudaEventRecordExternal) ==
             cudaSuccess;
        for (int i = 0, j = 0; i < n && ok; i++) {
            if (ms[i] < 0.f)
                continue;
            for (int c = 0; c < calls && ok; c++)
                ok = call_algo(exe, step, c0 + i, a, b, bias, y, s);
            ok = ok && cudaEventRecordWithFlags(ev[++j], s,
                                                cudaEventRecordExternal) ==
                           cudaSuccess;
        }
        /* the capture ends whatever happened, or the stream stays in it */
        if (cudaStreamEndCapture(s, &graph) != cudaSuccess)
            ok = 0;
        ok = ok && gpu_graph_instantiate(&ge, graph) == cudaSuccess;
    } else {
        ok = 0;
    }
    for (int rep = 0; rep < TUNE_REPS && ok; rep++) {
        ok = cudaGraphLaunch(ge, s) == cudaSuccess &&
             cudaStreamSynchronize(s) == cudaSuccess;
        for (int i = 0, j = 0; i < n && ok && rep > 0; i++) {
            float t = 0.f;
            if (ms[i] < 0.f)
                continue;
            ok = cudaEventElapsedTime(&t, ev[j], ev[j + 1]) == cudaSuccess;
            j++;
            t /= (float)calls;
            if (ms[i] == 0.f || t < ms[i])
                ms[i] = t;
        }
    }
    if (ge)
        cudaGraphExecDestroy(ge);
    if (graph)
        cudaGraphDestroy(graph);
    cudaGetLastError();
    if (!ok && n_ev >= 2 && ev[0] && ev[1]) {
        rlx_kit_log(exe->be->host, RLX_LOG_DEBUG,
                    "cuda: autotune: the candidates' shared graph failed; "
                    "timing each in a graph of its own");
        for (int i = 0; i < n; i++)
            if (ms[i] >= 0.f)
                ms[i] = time_one(exe, step, c0 + i, calls, a, b, bias, y,
                                 ev[0], ev[1]);
    } else if (!ok) { /* untimed: none is chosen over another */
        for (int i = 0; i < n; i++)
            ms[i] = -1.f;
    }
    for (int i = 0; i < n_ev; i++)
        if (ev[i])
            cudaEventDestroy(ev[i]);
    free(ev);
}

rlx_status rlxg_matmul_autotune(rlx_executable *exe)
{
    for (uint32_t i = 0; i < exe->n_steps; i++) {
        rlxg_step *s = &exe->steps[i];
        rlxg_matmul *mm = s->mm;
        int n_tf32x3 = mm && mm->tf32x3_ok ? RLXG_TF32X3_CONFIGS : 0;
        if (!mm || mm->n_algos + mm->gemv_ok + n_tf32x3 < 2 ||
            mm->n_calls != 1 || flop_of(mm) < TUNE_MIN_FLOP)
            continue;
        rlx_dtype dt = exe->values[s->out].dtype;
        size_t es = rlx_dtype_size(dt);
        size_t na = exe->values[s->in[0]].nbytes;
        size_t nb = exe->values[s->in[1]].nbytes;
        size_t ny = (size_t)(mm->m * mm->n * mm->batch) * es;
        size_t nbias = mm->bias_value >= 0
                           ? exe->values[mm->bias_value].nbytes : 0;
        char *buf = NULL;
        size_t total = na + nb + ny + nbias + 4 * 256;
        if (cudaMalloc((void **)&buf, total) != cudaSuccess) {
            cudaGetLastError();
            continue; /* no room to tune: keep the heuristic's choice */
        }
        char *a = buf, *b = a + (na + 255) / 256 * 256;
        char *y = b + (nb + 255) / 256 * 256;
        char *bias = y + (ny + 255) / 256 * 256;
        /* small random-free data: every element 1/k, so no overflow */
        rlxg_fill(exe->stream, dt, a, (int64_t)(na / es),
                  1.0 / (double)mm->k);
        rlxg_fill(exe->stream, dt, b, (int64_t)(nb / es), 0.5);
        if (nbias) {
            rlxg_fill(exe->stream, dt, bias, (int64_t)(nbias / es), 0.25);
            exe->be->blas.desc_set(mm->desc,
                                   CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias,
                                   sizeof bias);
        }
        int best = 0, forced = mm->use_tf32x3;
        float best_ms = -1.f, first_ms = -1.f, blas_ms = -1.f;
        int c0 = forced ? mm->n_algos
                        : mm->gemv_ok ? -GEMV_CANDIDATES : 0;
        int c1 = mm->n_algos + n_tf32x3;
        float ms_of[GEMV_CANDIDATES + RLXG_MAX_ALGOS + RLXG_TF32X3_CONFIGS];
        time_candidates(exe, s, c0, c1, a, b, nbias ? bias : NULL, y, ms_of);
        for (int c = c0; c < c1; c++) {
            float ms = ms_of[c - c0];
            if (c == 0)
                first_ms = ms;
            if (c == mm->n_algos)
                blas_ms = best_ms; /* the best before the 3xTF32 GEMM */
            if (ms >= 0 && (best_ms < 0 || ms < best_ms)) {
                best_ms = ms;
                best = c;
            }
        }
        if (forced && best < mm->n_algos)
            best = mm->n_algos; /* no tile ran: keep tile 0 */
        if (best_ms > 0)
            exe->tuned_ms += best_ms;
        int32_t split = 1;
        size_t got = 0;
        mm->use_gemv = best < 0;
        mm->gemv_wpc = best < 0 ? gemv_wpc_of(best) : 0;
        mm->use_tf32x3 = best >= mm->n_algos;
        mm->tf32x3_cfg = mm->use_tf32x3 ? best - mm->n_algos : 0;
        if (best >= 0 && best < mm->n_algos)
            exe->be->blas.algo_config_get(&mm->algos[best],
                                          CUBLASLT_ALGO_CONFIG_SPLITK_NUM,
                                          &split, sizeof split, &got);
        cudaStreamSynchronize(exe->stream);
        cudaGetLastError(); /* a candidate that failed is just skipped */
        cudaFree(buf);
        mm->algo = mm->algos[best < 0 || mm->use_tf32x3 ? 0 : best];
        if (mm->use_tf32x3)
            rlx_kit_log(exe->be->host, RLX_LOG_INFO,
                        "cuda: matmul %lldx%lldx%lld (batch %lld): the "
                        "3xTF32 tensor-core GEMM (tile %d), %.4f ms; "
                        "cuBLASLt's best %.4f ms",
                        (long long)mm->m, (long long)mm->n,
                        (long long)mm->k, (long long)mm->batch,
                        mm->tf32x3_cfg, (double)best_ms, (double)blas_ms);
        rlx_kit_log(exe->be->host, RLX_LOG_DEBUG,
                    "cuda: matmul %lldx%lldx%lld (batch %lld): %s %d of %d "
                    "(split-k %d, gemv warps per column %d), %.4f ms; the "
                    "heuristic's first %.4f ms",
                    (long long)mm->m, (long long)mm->n, (long long)mm->k,
                    (long long)mm->batch, best < 0 ? "gemv, not candidate"
                                                   : "candidate",
                    best, mm->n_algos, (int)split, mm->gemv_wpc,
                    (double)best_ms, (double)first_ms);
    }
    rlxg_chain_plan(exe);
    return RLX_OK;
}
