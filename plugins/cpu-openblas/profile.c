/*
 * profile.c - per-step wall times of a cpu-openblas program, for tuning:
 * with the setting cpu-openblas.profile = 1 (RLX_CPU_OPENBLAS_PROFILE),
 * read at compile time, every run times each step, and after
 * RLXB_PROF_RUNS runs the averages of all but the first run (page
 * faults, cold caches) are logged at info level, slowest step first,
 * with the node's name and its kernel. Off (the default), execute pays
 * one pointer test per step.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "blas_internal.h"

#define RLXB_PROF_RUNS 10
#define SHOWN 24 /* slowest steps logged */

struct rlxb_prof {
    uint32_t n_steps;
    char **names;            /* node names, copied at compile */
    double *ms;              /* summed over runs 2.. */
    unsigned runs;
};

double rlxb_prof_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

static int profile_wanted(const rlx_compile_options *o, const rlx_host *host)
{
    char v[16];
    if (rlx_compile_get_option(o, host, "cpu-openblas.profile", v, sizeof v) !=
        RLX_OK || !strcmp(v, "0"))
        return 0;
    if (!strcmp(v, "1"))
        return 1;
    rlx_kit_log(host, RLX_LOG_WARN,
                "cpu-openblas: profile '%s' is neither 0 nor 1; not "
                "profiling. Fix: set cpu-openblas.profile to 0 or 1", v);
    return 0;
}

rlx_status rlxb_prof_create(rlxb_backend *be,
                                 const rlx_graph_view *g, rlxb_exe *x)
{
    if (!profile_wanted(x->options, be->host))
        return RLX_OK;
    rlxb_prof *p = calloc(1, sizeof *p);
    if (p) {
        p->n_steps = g->n_nodes;
        p->names = calloc(g->n_nodes ? g->n_nodes : 1, sizeof *p->names);
        p->ms = calloc(g->n_nodes ? g->n_nodes : 1, sizeof *p->ms);
    }
    int ok = p && p->names && p->ms;
    for (uint32_t i = 0; ok && i < g->n_nodes; i++)
        ok = (p->names[i] = strdup(g->nodes[i]->name)) != NULL;
    x->prof = p;
    if (!ok)
        return rlx_kit_fail(be->host, RLX_ERR_OUT_OF_MEMORY,
                            "cpu-openblas compile: out of memory for the "
                            "profile. Fix: free memory, or unset "
                            "cpu-openblas.profile");
    return RLX_OK;
}

void rlxb_prof_destroy(rlxb_prof *p)
{
    if (!p)
        return;
    for (uint32_t i = 0; p->names && i < p->n_steps; i++)
        free(p->names[i]);
    free(p->names);
    free(p->ms);
    free(p);
}

void rlxb_prof_step(rlxb_prof *p, uint32_t i, double t0)
{
    if (p->runs > 0 && p->runs < RLXB_PROF_RUNS)
        p->ms[i] += rlxb_prof_now() - t0;
}

/* A switch without a default, so that -Wswitch names every kind added
 * to rlxb_kind that is missing here. */
static const char *kind_name(rlxb_kind k)
{
    switch (k) {
    case RLXB_K_SOURCE: return "none";
    case RLXB_K_UNARY: return "unary";
    case RLXB_K_BINARY: return "binary";
    case RLXB_K_MATMUL: return "matmul";
    case RLXB_K_SOFTMAX: return "softmax";
    case RLXB_K_NORM: return "norm";
    case RLXB_K_REDUCE: return "reduce";
    case RLXB_K_TRANSPOSE: return "transpose";
    case RLXB_K_ATTENTION: return "attention";
    case RLXB_K_CONV: return "conv";
    case RLXB_K_WINDOW: return "pool/batch norm";
    case RLXB_K_QGEMM: return "integer gemm";
    case RLXB_K_QLINEAR: return "quantize/dequantize";
    case RLXB_K_QELEM: return "quantized add/mul";
    case RLXB_K_QLUT: return "quantized unary chain";
    case RLXB_K_QGAP: return "quantized mean";
    case RLXB_K_CONVT: return "conv_transpose";
    case RLXB_K_RESIZE: return "resize";
    case RLXB_K_FALLBACK: return "cpu-ref";
    }
    return "?";
}

/* MS as text in a unit that keeps three significant digits: ms, or us
 * below a millisecond (small graphs' steps take well under 1 us; in ms
 * at three decimals they all printed 0.000). */
static const char *fmt_time(char *buf, size_t size, double ms)
{
    if (ms >= 1.0)
        snprintf(buf, size, "%8.3f ms", ms);
    else
        snprintf(buf, size, "%8.3f us", ms * 1e3);
    return buf;
}

static int fused_epilogue(const rlxb_step *s)
{
    return s->kind == RLXB_K_MATMUL &&
           (s->plan.gemm.epi.bias_in >= 0 || s->plan.gemm.epi.res_in >= 0 ||
            s->plan.gemm.epi.act != RLX_OP_INVALID);
}

void rlxb_prof_run_done(rlxb_backend *be, rlxb_exe *x)
{
    rlxb_prof *p = x->prof;
    if (++p->runs != RLXB_PROF_RUNS)
        return;
    const unsigned n = RLXB_PROF_RUNS - 1;
    double total = 0;
    for (uint32_t i = 0; i < p->n_steps; i++)
        total += p->ms[i];
    char tb[32];
    const char *mean = fmt_time(tb, sizeof tb, total / n);
    mean += strspn(mean, " ");
    rlx_kit_log(be->host, RLX_LOG_INFO,
                "cpu-openblas profile: %s a run of %u nodes (mean of "
                "runs 2 to %u), slowest first:",
                mean,
                (unsigned)p->n_steps, RLXB_PROF_RUNS);
    /* the slowest SHOWN steps, by repeated selection (no allocation) */
    double floor = -1.0;
    uint32_t last = UINT32_MAX;
    for (int k = 0; k < SHOWN; k++) {
        uint32_t best = UINT32_MAX;
        for (uint32_t i = 0; i < p->n_steps; i++) {
            int below = p->ms[i] < floor || (p->ms[i] == floor && i > last) ||
                        floor < 0;
            if (below && x->steps[i].kind != RLXB_K_SOURCE &&
                (best == UINT32_MAX || p->ms[i] > p->ms[best]))
                best = i;
        }
        if (best == UINT32_MAX)
            break;
        rlx_kit_log(be->host, RLX_LOG_INFO,
                    "cpu-openblas profile: %s %5.1f%%  step %u '%s' "
                    "(%s)", fmt_time(tb, sizeof tb, p->ms[best] / n),
                    total > 0 ? 100.0 * p->ms[best] / total : 0.0,
                    (unsigned)best, p->names[best],
                    fused_epilogue(&x->steps[best])
                        ? "matmul with its epilogue"
                        : kind_name(x->steps[best].kind));
        floor = p->ms[best];
        last = best;
    }
}
