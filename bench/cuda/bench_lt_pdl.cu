/*
 * bench_lt_pdl.cu - do cuBLASLt's kernels wait for the kernel before
 * them (griddepcontrol.wait), and what would the encoder block gain if
 * they started early as programmatic dependents?
 *
 * cuBLASLt documents no such wait, so a graph edge into one of its
 * kernels may be made programmatic only if the kernel is seen to wait.
 * The test: a "late writer" kernel lets its dependents launch at once
 * (griddepcontrol.launch_dependents), spins for 30 µs, then overwrites
 * the GEMM's input; the GEMM, joined to it by a programmatic edge, reads
 * the new input only if it waits. Two copies of ours behind the same
 * edge calibrate it: the one that does not wait must see the old input,
 * the one that waits the new. Each of the encoder's four GEMMs is tested
 * with every candidate of cuBLASLt's heuristic, then with every
 * algorithm cuBLASLt lists for the shape (its search limited to each
 * algorithm id), each also timed alone.
 *
 * Then the encoder block (bench_gemm_wg's: qkv, tensor-core attention,
 * out-proj, add + norm, ff1 + relu, ff2, add + norm; attention and norms
 * programmatic dependents as in the plugin) is timed with the edges into
 * cuBLASLt's kernels plain and programmatic (from the port that opens
 * when the kernel before has finished or triggered, and from the one
 * that opens when it has started), 20 blocks per graph and one block per
 * graph queued, its output checked against the plain graph's. The
 * programmatic rows measure what is at stake, not something to ship:
 * they are only safe behind kernels that wait.
 *
 * LT_PDL_PICKS (four kernel names, comma separated) times the block with
 * those cuBLASLt kernels too (scripts/gpu-block-compare.sh passes the
 * ones rlx's autotuner took); LT_PDL_BLOCK_ONLY skips to the block's
 * Graphviz file ($OUT/lt_pdl_block.dot) and one block in an NVTX range
 * "block", for a profiler; LT_PDL_VERBOSE lists every algorithm.
 *
 * On an H200 with cuBLAS 13.1 (bench/cuda/RESULTS.md, twelfth session):
 * none of the heuristic's candidates waits (all nvjet kernels); among
 * all algorithms only xmma kernels wait, 3x slower or more; programmatic
 * edges into the nvjet kernels would take 1.4 µs off the queued block.
 *
 *   bash scripts/gpu-kernel-bench.sh lt_pdl
 */
#include "../../plugins/gpu-common/gk_launch.cu"
#include "../../plugins/gpu-common/gk_norm.cu"
#include "../../plugins/gpu-common/gk_attention.cu"
#include "../../plugins/gpu-common/gk_attention_mma.cu"
#include "../../plugins/gpu-common/gk_attention_tf32x3.cu"

#include "bench_attn_plan.cuh"
#include "bench_util.cuh"
#include "bench_lt.cuh"

#include <cuda.h>
#include <nvtx3/nvToolsExt.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

typedef __nv_bfloat16 bf;

static bf *upload_rand(size_t count, float scale, unsigned long long seed)
{
    std::vector<bf> h(count);
    bench_rng rnd = { seed };
    for (auto &e : h)
        e = __float2bfloat16(scale * rnd());
    bf *d;
    bench_upload<bf>(&d, h);
    return d;
}

static double rel_diff(const bf *p, const bf *ref, size_t count)
{
    std::vector<bf> a(count), b(count);
    CK(cudaMemcpy(a.data(), p, count * 2, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(b.data(), ref, count * 2, cudaMemcpyDeviceToHost));
    double num = 0, den = 0;
    for (size_t i = 0; i < count; i++) {
        double d = (double)__bfloat162float(a[i]) - __bfloat162float(b[i]);
        num += d == d ? d * d : 1e30;
        den += (double)__bfloat162float(b[i]) * __bfloat162float(b[i]);
    }
    return sqrt(num / den);
}

/* lets its dependents launch, waits NS nanoseconds, then copies SRC to
 * DST (N 16-byte words) */
__global__ void late_writer(uint4 *dst, const uint4 *src, size_t n,
                            unsigned long long ns)
{
    asm volatile("griddepcontrol.launch_dependents;" :::);
    unsigned long long t0, t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    do
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    while (t - t0 < ns);
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        dst[i] = src[i];
}

/* the calibration: a copy that waits (WAIT) or not */
__global__ void probe_copy(uint4 *dst, const uint4 *src, size_t n, int wait)
{
    if (wait)
        asm volatile("griddepcontrol.wait;" ::: "memory");
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        dst[i] = src[i];
}

/* the kernel a graph node runs, and its name */
static const char *node_kernel(cudaGraphNode_t nd, CUfunction *fn)
{
    CUgraphNodeType t;
    if (cuGraphNodeGetType((CUgraphNode)nd, &t) != CUDA_SUCCESS ||
        t != CU_GRAPH_NODE_TYPE_KERNEL)
        return nullptr;
    CUDA_KERNEL_NODE_PARAMS kp;
    if (cuGraphKernelNodeGetParams((CUgraphNode)nd, &kp) != CUDA_SUCCESS)
        return nullptr;
    const char *name = nullptr;
    if (fn)
        *fn = kp.func;
    if (cuFuncGetName(&name, kp.func) != CUDA_SUCCESS || !name)
        return "?";
    return name;
}

/* ours: the plugin's kernels (anonymous namespace) and this file's,
 * whose edges make_programmatic leaves alone, save the calibration's copy
 * while CALIBRATING */
static bool calibrating;
static bool ours(const char *name)
{
    if (calibrating && strstr(name, "probe_copy"))
        return false;
    return strstr(name, "_GLOBAL__N_") || strstr(name, "late_writer") ||
           strstr(name, "probe_copy");
}

/* Every edge of G between two kernel nodes whose target is not ours
 * made programmatic from PORT; returns how many (0 if PORT < 0: none
 * changed). Prints the targets' names once where SHOW. */
static int make_programmatic(cudaGraph_t g, int port, bool show)
{
    size_t ne = 0;
    CK(cudaGraphGetEdges(g, nullptr, nullptr, nullptr, &ne));
    std::vector<cudaGraphNode_t> from(ne), to(ne);
    std::vector<cudaGraphEdgeData> ed(ne);
    CK(cudaGraphGetEdges(g, from.data(), to.data(), ed.data(), &ne));
    int changed = 0;
    for (size_t i = 0; i < ne; i++) {
        const char *a = node_kernel(from[i], nullptr);
        const char *b = node_kernel(to[i], nullptr);
        if (!a || !b || ours(b) || ed[i].type != cudaGraphDependencyTypeDefault)
            continue;
        if (show)
            printf("    edge into %.90s\n", b);
        if (port < 0)
            continue;
        cudaGraphEdgeData pe = {};
        pe.type = cudaGraphDependencyTypeProgrammatic;
        pe.from_port = (unsigned char)port;
        CK(cudaGraphRemoveDependencies(g, &from[i], &to[i], &ed[i], 1));
        CK(cudaGraphAddDependencies(g, &from[i], &to[i], &pe, 1));
        changed++;
    }
    return changed;
}

/* LAUNCH captured N times, edges into cuBLASLt's kernels made
 * programmatic from PORT (none if PORT < 0) */
static cudaGraphExec_t capture_pdl(cudaStream_t s,
                                   const std::function<void()> &launch,
                                   int n, int port, bool show = false)
{
    cudaGraph_t g;
    cudaGraphExec_t ge;
    CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    for (int i = 0; i < n; i++)
        launch();
    CK(cudaStreamEndCapture(s, &g));
    make_programmatic(g, port, show);
    CK(cudaGraphInstantiate(&ge, g, 0));
    CK(cudaGraphDestroy(g));
    return ge;
}

/* the name of the (first) kernel LT's call launches */
static std::string lt_kernel(cudaStream_t s, Lt &lt)
{
    cudaGraph_t g;
    CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    lt.run(s);
    CK(cudaStreamEndCapture(s, &g));
    size_t nn = 0;
    CK(cudaGraphGetNodes(g, nullptr, &nn));
    std::vector<cudaGraphNode_t> nodes(nn);
    CK(cudaGraphGetNodes(g, nodes.data(), &nn));
    const char *kn = nn ? node_kernel(nodes[0], nullptr) : nullptr;
    std::string name = kn ? kn : "-";
    CK(cudaGraphDestroy(g));
    return name;
}

/* every configured algorithm cuBLASLt has for LT's problem, not only its
 * heuristic's first picks: each algorithm id it lists, with the configs
 * its search limited to that id returns and its check accepts */
static std::vector<cublasLtMatmulAlgo_t> lt_all_algos(Lt &lt)
{
    const cudaDataType_t bf16 = CUDA_R_16BF;
    int ids[512], nid = 0;
    CKB(cublasLtMatmulAlgoGetIds(lt.h, CUBLAS_COMPUTE_32F, CUDA_R_32F, bf16,
                                 bf16, bf16, bf16, 512, ids, &nid));
    cublasLtMatmulPreference_t pref;
    CKB(cublasLtMatmulPreferenceCreate(&pref));
    uint32_t mode = CUBLASLT_SEARCH_LIMITED_BY_ALGO_ID;
    CKB(cublasLtMatmulPreferenceSetAttribute(
        pref, CUBLASLT_MATMUL_PREF_SEARCH_MODE, &mode, sizeof mode));
    CKB(cublasLtMatmulPreferenceSetAttribute(
        pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &lt.wss,
        sizeof lt.wss));
    std::vector<cublasLtMatmulAlgo_t> out;
    for (int k = 0; k < nid; k++) {
        cublasLtMatmulHeuristicResult_t res[8] = {};
        if (cublasLtMatmulAlgoInit(lt.h, CUBLAS_COMPUTE_32F, CUDA_R_32F, bf16,
                                   bf16, bf16, bf16, ids[k], &res[0].algo) !=
            CUBLAS_STATUS_SUCCESS)
            continue;
        for (int j = 1; j < 8; j++)
            res[j].algo = res[0].algo;
        int got = 0;
        if (cublasLtMatmulAlgoGetHeuristic(lt.h, lt.op, lt.la, lt.lb, lt.lc,
                                           lt.lc, pref, 8, res, &got) !=
            CUBLAS_STATUS_SUCCESS)
            continue;
        for (int j = 0; j < got; j++) {
            cublasLtMatmulHeuristicResult_t chk = {};
            if (res[j].state == CUBLAS_STATUS_SUCCESS &&
                cublasLtMatmulAlgoCheck(lt.h, lt.op, lt.la, lt.lb, lt.lc,
                                        lt.lc, &res[j].algo, &chk) ==
                    CUBLAS_STATUS_SUCCESS &&
                chk.workspaceSize <= lt.wss)
                out.push_back(res[j].algo);
        }
    }
    CKB(cublasLtMatmulPreferenceDestroy(pref));
    return out;
}

static const char *port_name(int port)
{
    return port < 0 ? "plain edges"
           : port == cudaGraphKernelNodePortProgrammatic
               ? "programmatic (finished or triggered)"
               : "programmatic (launch completion)";
}

int main()
{
    const int B = 8, S = 128, H = 8, D = 512, FF = 2048, M = B * S;
    const float eps = 1e-5f;
    CK(cudaFree(0));
    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    const float ws = 1.7f / sqrtf((float)D), ws2 = 1.7f / sqrtf((float)FF);
    bf *x = upload_rand((size_t)M * D, 1.f, 11);
    bf *wqkv = upload_rand((size_t)3 * D * D, ws, 12);
    bf *bqkv = upload_rand(3 * D, 0.2f, 13);
    bf *wo = upload_rand((size_t)D * D, ws, 14), *bo = upload_rand(D, 0.2f, 15);
    bf *w1 = upload_rand((size_t)FF * D, ws, 16), *b1 = upload_rand(FF, 0.2f, 17);
    bf *w2 = upload_rand((size_t)D * FF, ws2, 18), *b2 = upload_rand(D, 0.2f, 19);
    bf *g1 = upload_rand(D, 0.2f, 20), *be1 = upload_rand(D, 0.2f, 21);
    bf *g2 = upload_rand(D, 0.2f, 22), *be2 = upload_rand(D, 0.2f, 23);
    bf *qkv, *o, *t1, *y1, *h, *t2, *y2, *y2ref;
    for (bf **p : { &qkv, &o, &t1, &y1, &h, &t2, &y2, &y2ref })
        CK(cudaMalloc(p, (size_t)M * FF * 2));

    struct { int m, n, k, act; bf *x, *w, *b, *y; Lt lt; } G[4] = {
        { M, 3 * D, D, 0, x, wqkv, bqkv, qkv, {} },
        { M, D, D, 0, o, wo, bo, t1, {} },
        { M, FF, D, RLXG_GEMM_RELU, y1, w1, b1, h, {} },
        { M, D, FF, 0, h, w2, b2, t2, {} },
    };
    const char *names[4] = { "qkv", "out-proj", "ff1", "ff2" };
    for (int i = 0; i < 4; i++) {
        printf("# %s: ", names[i]);
        G[i].lt.setup(s, G[i].m, G[i].n, G[i].k, G[i].x, G[i].w, G[i].b,
                      G[i].y, G[i].act);
    }

    /* LT_PDL_BLOCK_ONLY set: only the plain block's graph and range
     * below, for a profiler */
    const bool only_block = getenv("LT_PDL_BLOCK_ONLY") != nullptr;

    /* 1. the wait test: x_old in the input, the late writer puts x_new
     * there 30 µs after letting the GEMM launch */
    const size_t nx = (size_t)M * FF; /* big enough for every input */
    bf *xin, *xold, *xnew, *yt, *yref;
    xold = upload_rand(nx, 1.f, 31);
    xnew = upload_rand(nx, 1.f, 32);
    for (bf **p : { &xin, &yt, &yref })
        CK(cudaMalloc(p, nx * 2 * 2));
    int waits_all = 1;
    if (only_block)
        goto block_only;
    {
    auto trial = [&](const std::function<void()> &op, size_t nin) {
        cudaGraphExec_t ge = capture_pdl(s, [&] {
            late_writer<<<8, 1024, 0, s>>>((uint4 *)xin, (const uint4 *)xnew,
                                             nin * 2 / 16, 30000ull);
            op();
        }, 1, cudaGraphKernelNodePortProgrammatic);
        CK(cudaMemcpyAsync(xin, xold, nin * 2, cudaMemcpyDeviceToDevice, s));
        CK(cudaGraphLaunch(ge, s));
        CK(cudaStreamSynchronize(s));
        CK(cudaGraphExecDestroy(ge));
    };
    printf("# does the kernel after a programmatic edge wait? (rel.diff "
           "against the result on the new input; 0: it waited)\n");
    {
        /* calibration: our copy behind the same programmatic edge */
        const size_t n = (size_t)M * D;
        calibrating = true;
        for (int wait = 0; wait < 2; wait++) {
            CK(cudaMemset(yt, 0, n * 2));
            trial([&] {
                probe_copy<<<132, 256, 0, s>>>((uint4 *)yt, (const uint4 *)xin,
                                               n * 2 / 16, wait);
            }, n);
            double rel = rel_diff(yt, xnew, n);
            printf("  calibration, a copy that %s: rel.diff %.2e (%s)\n",
                   wait ? "waits" : "does not wait", rel,
                   rel < 1e-6 ? "saw the new input" : "saw the old input");
        }
        calibrating = false;
    }
    for (int i = 0; i < 4; i++) {
        Lt &lt = G[i].lt;
        const size_t nin = (size_t)G[i].m * G[i].k, ny = (size_t)G[i].m * G[i].n;
        const bf *a0 = lt.a;
        bf *y0 = lt.y;
        lt.a = xin, lt.y = yref;
        int n_wait = 0, n_not = 0;
        for (size_t c = 0; c < lt.cands.size(); c++) {
            cublasLtMatmulAlgo_t keep = lt.algo;
            lt.algo = lt.cands[c];
            CK(cudaMemcpy(xin, xnew, nin * 2, cudaMemcpyDeviceToDevice));
            lt.y = yref;
            lt.run(s);
            CK(cudaStreamSynchronize(s));
            lt.y = yt;
            CK(cudaMemset(yt, 0, ny * 2));
            trial([&] { lt.run(s); }, nin);
            double rel = rel_diff(yt, yref, ny);
            bool chosen = !memcmp(&lt.cands[c], &keep, sizeof keep);
            printf("  %-8s cand %2zu%s %.70s: rel.diff %.2e %s\n",
                   names[i], c, chosen ? "*" : " ", lt_kernel(s, lt).c_str(),
                   rel, rel < 1e-6 ? "waits" : "DOES NOT WAIT");
            (rel < 1e-6 ? n_wait : n_not)++;
            if (chosen && rel >= 1e-6)
                waits_all = 0;
            lt.algo = keep;
        }
        printf("  %-8s %d of %zu candidates wait\n", names[i], n_wait,
               lt.cands.size());
        /* every algorithm, not only the heuristic's: does any wait, and
         * how fast is the fastest that does? */
        {
            cublasLtMatmulAlgo_t keep = lt.algo;
            std::vector<cublasLtMatmulAlgo_t> all = lt_all_algos(lt);
            int waits = 0;
            float best = 1e30f, best_wait = 1e30f;
            std::string bn = "-", bwn = "-";
            for (const auto &c : all) {
                lt.algo = c;
                CK(cudaMemcpy(xin, xnew, nin * 2, cudaMemcpyDeviceToDevice));
                lt.y = yref;
                lt.run(s);
                CK(cudaStreamSynchronize(s));
                lt.y = yt;
                CK(cudaMemset(yt, 0, ny * 2));
                trial([&] { lt.run(s); }, nin);
                bool w = rel_diff(yt, yref, ny) < 1e-6;
                lt.a = a0, lt.y = y0;
                float us = time_us(s, [&] { lt.run(s); });
                lt.a = xin, lt.y = yref;
                std::string kn = lt_kernel(s, lt);
                if (getenv("LT_PDL_VERBOSE"))
                    printf("    %-50.50s %7.2f us %s\n", kn.c_str(), us,
                           w ? "waits" : "-");
                if (us < best)
                    best = us, bn = kn;
                if (w) {
                    waits++;
                    if (us < best_wait)
                        best_wait = us, bwn = kn;
                }
            }
            printf("  %-8s every algorithm: %zu configs, %d wait; fastest "
                   "%.2f us (%s); fastest that waits %.2f us (%s)\n",
                   names[i], all.size(), waits, best, bn.c_str(),
                   waits ? best_wait : 0.f, bwn.c_str());
            lt.algo = keep;
        }
        lt.a = a0, lt.y = y0;
    }

    }
block_only:
    /* 2. the block */
    const rlxg_attn_plan p = bench_attn_plan(B, S, H);
    auto block = [&](bf *out) {
        G[0].lt.run(s);
        CK(rlxg_attention(s, RLX_DTYPE_BF16, qkv, qkv, qkv, o, &p, 1));
        G[1].lt.run(s);
        CK(rlxg_norm(s, RLX_DTYPE_BF16, 0, t1, x, g1, be1, y1, M, D, eps, 1));
        G[2].lt.run(s);
        G[3].lt.run(s);
        CK(rlxg_norm(s, RLX_DTYPE_BF16, 0, t2, y1, g2, be2, out, M, D, eps, 1));
    };
    block(y2ref);
    CK(cudaStreamSynchronize(s));
    if (only_block)
        goto dump;
    {
    printf("# the encoder block (7 kernels), the chosen algorithms%s\n",
           waits_all ? "" : " (NOT all waiting: programmatic rows unsafe)");
    cudaGraphExec_t show = capture_pdl(s, [&] { block(y2); }, 1, -1, true);
    CK(cudaGraphExecDestroy(show));
    const int ports[3] = { -1, cudaGraphKernelNodePortProgrammatic,
                           cudaGraphKernelNodePortLaunchCompletion };
    for (int pass = 0; pass < 2; pass++)
        for (int port : ports) {
            CK(cudaMemset(y2, 0xff, (size_t)M * D * 2));
            cudaGraphExec_t ge = capture_pdl(s, [&] { block(y2); }, 1, port);
            CK(cudaGraphLaunch(ge, s));
            CK(cudaStreamSynchronize(s));
            double rel = rel_diff(y2, y2ref, (size_t)M * D);
            float t20 = replay_us(s, capture_pdl(s, [&] { block(y2); }, 20,
                                                 port),
                                  1, 20, 16);
            float tq = replay_us(s, ge, 200, 1, 10);
            printf("  pass %d %-38s %7.2f us per block (20 per graph), "
                   "%7.2f queued; rel.diff %.1e\n",
                   pass, port_name(port), t20, tq, rel);
        }
    /* LT_PDL_PICKS: four kernel names (qkv, out-proj, ff1, ff2; comma
     * separated), e.g. the ones rlx's autotuner took: the block timed
     * with the candidates that launch those, against this bench's own */
    if (const char *picks = getenv("LT_PDL_PICKS")) {
        std::vector<cublasLtMatmulAlgo_t> own;
        for (int i = 0; i < 4; i++)
            own.push_back(G[i].lt.algo);
        std::string all = picks;
        bool found = true;
        for (int i = 0; i < 4; i++) {
            size_t e = all.find(',');
            std::string want = all.substr(0, e);
            all = e == std::string::npos ? "" : all.substr(e + 1);
            bool hit = false;
            for (const auto &c : G[i].lt.cands) {
                G[i].lt.algo = c;
                if (lt_kernel(s, G[i].lt) == want) {
                    hit = true;
                    break;
                }
            }
            if (!hit) {
                G[i].lt.algo = own[i];
                printf("  %s: no candidate launches %s\n", names[i],
                       want.c_str());
                found = false;
            }
        }
        for (int pass = 0; pass < 2; pass++)
            for (int side = 0; side < 2; side++) {
                for (int i = 0; i < 4 && side; i++)
                    std::swap(G[i].lt.algo, own[i]);
                float t20 = time_us(s, [&] { block(y2); });
                float tq = time_queued_us(s, [&] { block(y2); });
                printf("  pass %d %-24s %7.2f us per block (20 per graph), "
                       "%7.2f queued%s\n", pass,
                       side ? "this bench's picks" : "the picks given",
                       t20, tq, found ? "" : " (not all found)");
                for (int i = 0; i < 4 && side; i++)
                    std::swap(G[i].lt.algo, own[i]);
            }
    }
    }
dump:
    /* the plain block's graph in Graphviz's form ($OUT/lt_pdl_block.dot)
     * and one block in a named range, for comparing with rlx's (setting
     * cuda.graph_dot; ncu --nvtx --nvtx-include "block/") */
    {
        std::string dot = std::string(getenv("OUT") ? getenv("OUT") : ".") +
                          "/lt_pdl_block.dot";
        cudaGraph_t g;
        CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
        block(y2);
        CK(cudaStreamEndCapture(s, &g));
        CK(cudaGraphDebugDotPrint(g, dot.c_str(),
                                  cudaGraphDebugDotFlagsVerbose));
        CK(cudaGraphDestroy(g));
    }
    nvtxRangePushA("block");
    block(y2);
    CK(cudaStreamSynchronize(s));
    nvtxRangePop();
    for (int i = 0; i < 4; i++)
        G[i].lt.done();
    return 0;
}
