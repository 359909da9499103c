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
#include "bench_encoder.cuh"

#include <cuda.h>
#include <nvtx3/nvToolsExt.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

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

/* the name of the kernel a graph node runs (NULL: not a kernel node) */
static const char *node_kernel(cudaGraphNode_t nd)
{
    CUgraphNodeType t;
    if (cuGraphNodeGetType((CUgraphNode)nd, &t) != CUDA_SUCCESS ||
        t != CU_GRAPH_NODE_TYPE_KERNEL)
        return nullptr;
    CUDA_KERNEL_NODE_PARAMS kp;
    if (cuGraphKernelNodeGetParams((CUgraphNode)nd, &kp) != CUDA_SUCCESS)
        return nullptr;
    const char *name = nullptr;
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
 * made programmatic from PORT (none changed if PORT < 0); the targets'
 * names printed where SHOW. */
static void make_programmatic(cudaGraph_t g, int port, bool show)
{
    size_t ne = 0;
    CK(cudaGraphGetEdges(g, nullptr, nullptr, nullptr, &ne));
    std::vector<cudaGraphNode_t> from(ne), to(ne);
    std::vector<cudaGraphEdgeData> ed(ne);
    CK(cudaGraphGetEdges(g, from.data(), to.data(), ed.data(), &ne));
    for (size_t i = 0; i < ne; i++) {
        const char *a = node_kernel(from[i]);
        const char *b = node_kernel(to[i]);
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
    }
}

/* LAUNCH captured N times, edges into cuBLASLt's kernels made
 * programmatic from PORT (none if PORT < 0) */
static cudaGraphExec_t capture_pdl(cudaStream_t s,
                                   const std::function<void()> &launch,
                                   int n, int port, bool show = false)
{
    return capture(s, launch, n, [&](cudaGraph_t g) {
        make_programmatic(g, port, show);
    });
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
    const char *kn = nn ? node_kernel(nodes[0]) : nullptr;
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

/* The wait test's buffers: the input a GEMM reads (IN), what it holds
 * before the late writer runs (OLD) and what it writes there (NEW), the
 * output (Y) and the output on the new input (REF) */
struct wait_test {
    bf *in, *old_, *new_, *y, *ref;
    size_t cap;

    wait_test(size_t count) : cap(count)
    {
        old_ = bf_upload_rand(count, 1.f, 31);
        new_ = bf_upload_rand(count, 1.f, 32);
        for (bf **p : { &in, &y, &ref })
            CK(cudaMalloc(p, count * 2));
    }

    /* OP (reading NIN values of IN) behind a programmatic edge from the
     * late writer, IN holding OLD until the writer puts NEW there */
    void trial(cudaStream_t s, const std::function<void()> &op, size_t nin)
    {
        cudaGraphExec_t ge = capture_pdl(s, [&] {
            late_writer<<<8, 1024, 0, s>>>((uint4 *)in, (const uint4 *)new_,
                                           nin * 2 / 16, 30000ull);
            op();
        }, 1, cudaGraphKernelNodePortProgrammatic);
        CK(cudaMemcpyAsync(in, old_, nin * 2, cudaMemcpyDeviceToDevice, s));
        CK(cudaGraphLaunch(ge, s));
        CK(cudaStreamSynchronize(s));
        CK(cudaGraphExecDestroy(ge));
    }

    /* whether LT's algorithm waits: its output on the new input, then
     * behind the edge, compared; LT's operands are restored */
    bool waits(cudaStream_t s, Lt &lt, size_t nin, size_t ny)
    {
        const bf *a0 = lt.a;
        bf *y0 = lt.y;
        lt.a = in, lt.y = ref;
        CK(cudaMemcpy(in, new_, nin * 2, cudaMemcpyDeviceToDevice));
        lt.run(s);
        CK(cudaStreamSynchronize(s));
        lt.y = y;
        CK(cudaMemset(y, 0, ny * 2));
        trial(s, [&] { lt.run(s); }, nin);
        lt.a = a0, lt.y = y0;
        return bf_rel_diff(y, ref, ny) < 1e-6;
    }
};

/* The calibration, then every heuristic candidate and every algorithm
 * of each GEMM; returns whether the chosen ones all wait */
static bool wait_tests(cudaStream_t s, bench_encoder &E, Lt *lts)
{
    wait_test W((size_t)E.M * E.FF);
    printf("# does the kernel after a programmatic edge wait? (0: none "
           "waits)\n");
    const size_t n = (size_t)E.M * E.D;
    calibrating = true;
    for (int wait = 0; wait < 2; wait++) {
        CK(cudaMemset(W.y, 0, n * 2));
        W.trial(s, [&] {
            probe_copy<<<132, 256, 0, s>>>((uint4 *)W.y, (const uint4 *)W.in,
                                           n * 2 / 16, wait);
        }, n);
        double rel = bf_rel_diff(W.y, W.new_, n);
        printf("  calibration, a copy that %s: rel.diff %.2e against the "
               "new input (%s)\n", wait ? "waits" : "does not wait", rel,
               rel < 1e-6 ? "saw the new input" : "saw the old input");
    }
    calibrating = false;
    bool all = true;
    for (int i = 0; i < 4; i++) {
        Lt &lt = lts[i];
        const bench_encoder::linear l = E.gemm(i);
        const size_t nin = (size_t)l.m * l.k, ny = (size_t)l.m * l.n;
        const char *name = bench_encoder::gemm_name(i);
        const cublasLtMatmulAlgo_t keep = lt.algo;
        int n_wait = 0;
        for (size_t c = 0; c < lt.cands.size(); c++) {
            lt.algo = lt.cands[c];
            bool w = W.waits(s, lt, nin, ny);
            bool chosen = !memcmp(&lt.cands[c], &keep, sizeof keep);
            printf("  %-8s cand %2zu%s %.70s: %s\n", name, c,
                   chosen ? "*" : " ", lt_kernel(s, lt).c_str(),
                   w ? "waits" : "DOES NOT WAIT");
            n_wait += w;
            all &= w || !chosen;
        }
        printf("  %-8s %d of %zu candidates wait\n", name, n_wait,
               lt.cands.size());
        /* every algorithm: does any wait, and how fast is the fastest
         * that does? */
        std::vector<cublasLtMatmulAlgo_t> algos = lt_all_algos(lt);
        int waits = 0;
        float best = 1e30f, best_wait = 1e30f;
        std::string bn = "-", bwn = "-";
        for (const auto &c : algos) {
            lt.algo = c;
            bool w = W.waits(s, lt, nin, ny);
            float us = time_us(s, [&] { lt.run(s); });
            std::string kn = lt_kernel(s, lt);
            if (getenv("LT_PDL_VERBOSE"))
                printf("    %-50.50s %7.2f us %s\n", kn.c_str(), us,
                       w ? "waits" : "-");
            if (us < best)
                best = us, bn = kn;
            if (w && us < best_wait)
                best_wait = us, bwn = kn;
            waits += w;
        }
        printf("  %-8s every algorithm: %zu configs, %d wait; fastest "
               "%.2f us (%s); fastest that waits %.2f us (%s)\n",
               name, algos.size(), waits, best, bn.c_str(),
               waits ? best_wait : 0.f, bwn.c_str());
        lt.algo = keep;
    }
    return all;
}

/* the block with each kind of edge into cuBLASLt's kernels */
static void time_ports(cudaStream_t s, bench_encoder &E,
                       const std::function<void(bf *)> &block, bool safe)
{
    printf("# the encoder block (7 kernels), the chosen algorithms%s\n",
           safe ? "" : " (NOT all waiting: programmatic rows unsafe)");
    CK(cudaGraphExecDestroy(capture_pdl(s, [&] { block(E.y2); }, 1, -1,
                                        true)));
    const int ports[3] = { -1, cudaGraphKernelNodePortProgrammatic,
                           cudaGraphKernelNodePortLaunchCompletion };
    for (int pass = 0; pass < 2; pass++)
        for (int port : ports) {
            CK(cudaMemset(E.y2, 0xff, (size_t)E.M * E.D * 2));
            cudaGraphExec_t ge = capture_pdl(s, [&] { block(E.y2); }, 1,
                                             port);
            CK(cudaGraphLaunch(ge, s));
            CK(cudaStreamSynchronize(s));
            double rel = bf_rel_diff(E.y2, E.y2ref, (size_t)E.M * E.D);
            float t20 = replay_us(s, capture_pdl(s, [&] { block(E.y2); }, 20,
                                                 port),
                                  1, 20, 16);
            float tq = replay_us(s, ge, 200, 1, 10);
            printf("  pass %d %-38s %7.2f us per block (20 per graph), "
                   "%7.2f queued; rel.diff %.1e\n",
                   pass, port_name(port), t20, tq, rel);
        }
}

/* what each of the plugin's three kernels costs in the block: the block
 * timed without it (its successor then reads what is there) */
static void time_parts(cudaStream_t s, bench_encoder &E, Lt *lts)
{
    static const char *what[5] = { "nothing", "the attention",
                                   "the first add + norm",
                                   "the second add + norm", "all three" };
    printf("# the block without the plugin's kernels, µs per block\n");
    for (int skip = 0; skip < 5; skip++) {
        auto part = [&] {
            lts[0].run(s);
            if (skip != 1 && skip != 4)
                E.attention(s);
            lts[1].run(s);
            if (skip != 2 && skip != 4)
                E.norm1(s);
            lts[2].run(s);
            lts[3].run(s);
            if (skip != 3 && skip != 4)
                E.norm2(s, E.y2);
        };
        printf("  without %-22s %7.2f (20 per graph) %7.2f (queued)\n",
               what[skip], time_us(s, part), time_queued_us(s, part));
    }
}

/* LT_PDL_PICKS: four kernel names (qkv, out-proj, ff1, ff2; comma
 * separated), e.g. the ones rlx's autotuner took: the block timed with
 * the candidates that launch those, against this bench's own */
static void time_picks(cudaStream_t s, bench_encoder &E, Lt *lts,
                       const std::function<void(bf *)> &block,
                       const char *picks)
{
    cublasLtMatmulAlgo_t own[4];
    std::string rest = picks;
    bool found = true;
    for (int i = 0; i < 4; i++) {
        own[i] = lts[i].algo;
        size_t e = rest.find(',');
        std::string want = rest.substr(0, e);
        rest = e == std::string::npos ? "" : rest.substr(e + 1);
        bool hit = false;
        for (const auto &c : lts[i].cands) {
            lts[i].algo = c;
            if ((hit = lt_kernel(s, lts[i]) == want))
                break;
        }
        if (!hit) {
            lts[i].algo = own[i];
            printf("  %s: no candidate launches %s\n",
                   bench_encoder::gemm_name(i), want.c_str());
            found = false;
        }
    }
    for (int pass = 0; pass < 2; pass++)
        for (int side = 0; side < 2; side++) {
            for (int i = 0; i < 4 && side; i++)
                std::swap(lts[i].algo, own[i]);
            float t20 = time_us(s, [&] { block(E.y2); });
            float tq = time_queued_us(s, [&] { block(E.y2); });
            printf("  pass %d %-24s %7.2f us per block (20 per graph), "
                   "%7.2f queued%s\n", pass,
                   side ? "this bench's picks" : "the picks given", t20, tq,
                   found ? "" : " (not all found)");
            for (int i = 0; i < 4 && side; i++)
                std::swap(lts[i].algo, own[i]);
        }
}

/* the plain block's graph in Graphviz's form ($OUT/lt_pdl_block.dot)
 * and one block in a named range, for comparing with rlx's (setting
 * cuda.graph_dot; ncu --nvtx --nvtx-include "block/") */
static void dump_block(cudaStream_t s, bench_encoder &E,
                       const std::function<void(bf *)> &block)
{
    std::string dot = std::string(getenv("OUT") ? getenv("OUT") : ".") +
                      "/lt_pdl_block.dot";
    cudaGraph_t g;
    CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    block(E.y2);
    CK(cudaStreamEndCapture(s, &g));
    CK(cudaGraphDebugDotPrint(g, dot.c_str(), cudaGraphDebugDotFlagsVerbose));
    CK(cudaGraphDestroy(g));
    nvtxRangePushA("block");
    block(E.y2);
    CK(cudaStreamSynchronize(s));
    nvtxRangePop();
}

int main()
{
    CK(cudaFree(0));
    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    bench_encoder E;
    Lt lts[4];
    for (int i = 0; i < 4; i++) {
        const bench_encoder::linear l = E.gemm(i);
        printf("# %s: ", bench_encoder::gemm_name(i));
        lts[i].setup(s, l.m, l.n, l.k, l.x, l.w, l.b, l.y, l.act);
    }
    auto block = [&](bf *out) {
        lts[0].run(s);
        E.attention(s);
        lts[1].run(s);
        E.norm1(s);
        lts[2].run(s);
        lts[3].run(s);
        E.norm2(s, out);
    };
    block(E.y2ref);
    CK(cudaStreamSynchronize(s));
    /* LT_PDL_BLOCK_ONLY: only the block's graph and range, for a
     * profiler */
    if (!getenv("LT_PDL_BLOCK_ONLY")) {
        bool safe = wait_tests(s, E, lts);
        time_ports(s, E, block, safe);
        time_parts(s, E, lts);
        if (const char *picks = getenv("LT_PDL_PICKS"))
            time_picks(s, E, lts, block, picks);
    }
    dump_block(s, E, block);
    for (int i = 0; i < 4; i++)
        lts[i].done();
    return 0;
}
