/*
 * runner.c - the multi-device runner: one graph, a program per device
 * compiled on first use and cached, params kept once and mirrored to
 * every program, runs on a named device, the best device, or along a
 * fallback chain, and device choice by measurement. It uses only the
 * public session and program API, like an application would; what it
 * adds is the bookkeeping (docs/multi-device.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"

#define RUNNER_DEVICES_MAX 64

typedef struct named_data {
    char *name;
    void *data;
    size_t nbytes;
} named_data;

typedef struct cached {
    char *device;
    rlx_program *program;
} cached;

typedef struct attempt {
    char *device;
    rlx_status status;
    char *reason;
    double ms; /* benchmark rows */
} attempt;

/* Device classes a policy ranks: the order within a class is the
 * session's automatic order. */
enum { CLASS_NPU, CLASS_GPU, CLASS_CPU, CLASS_SOFT };

struct rlx_runner {
    rlx_runtime *rt;
    rlx_graph *graph;      /* the runner's own copy */
    char *policy;
    int max_performance;
    char *devices[RUNNER_DEVICES_MAX];
    uint32_t n_devices;
    cached *cache;
    uint32_t n_cache;
    named_data *params, *inputs;
    uint32_t n_params, n_inputs;
    attempt *attempts;
    uint32_t n_attempts;
    attempt *bench;
    uint32_t n_bench;
    char *best;            /* the benchmark's winner */
    rlx_runner_compile_hook hook;
    void *hook_ctx;
};

/* ---- policies and devices --------------------------------------------- */

static int device_class(const rlx_backend *b, uint32_t probe_flags)
{
    if (probe_flags & RLX_PROBE_SOFTWARE)
        return CLASS_SOFT;
    switch (rlx_backend_device_kind(b)) {
    case RLX_DEVICE_CPU:
        return CLASS_CPU;
    case RLX_DEVICE_CUSTOM:
    case RLX_DEVICE_TPU:
        return CLASS_NPU;
    default:
        return CLASS_GPU;
    }
}

/* The session's automatic order: tpu, cuda, rocm, metal, vulkan, custom
 * kinds, cpu; software devices last. */
static int auto_rank(const rlx_backend *b, int cls)
{
    static const rlx_device_kind order[] = {
        RLX_DEVICE_TPU, RLX_DEVICE_CUDA, RLX_DEVICE_ROCM, RLX_DEVICE_METAL,
        RLX_DEVICE_VULKAN, RLX_DEVICE_CUSTOM, RLX_DEVICE_CPU,
    };
    if (cls == CLASS_SOFT)
        return 100;
    for (int i = 0; i < (int)(sizeof order / sizeof *order); i++)
        if (rlx_backend_device_kind(b) == order[i])
            return i;
    return 50;
}

typedef struct policy_def {
    const char *name;
    int first;   /* the class ranked first, or -1 */
    int only;    /* 1: other classes are left out */
    int measure;
} policy_def;

static const policy_def policies[] = {
    { "default", -1, 0, 0 },
    { "prefer-cpu", CLASS_CPU, 0, 0 },
    { "prefer-gpu", CLASS_GPU, 0, 0 },
    { "prefer-npu", CLASS_NPU, 0, 0 },
    { "max-performance", -1, 0, 1 },
    { "cpu-only", CLASS_CPU, 1, 0 },
    { "gpu-only", CLASS_GPU, 1, 0 },
    { "npu-only", CLASS_NPU, 1, 0 },
};

static const policy_def *policy_find(const char *name)
{
    for (size_t i = 0; i < sizeof policies / sizeof *policies; i++)
        if (strcmp(policies[i].name, name) == 0)
            return &policies[i];
    return NULL;
}

typedef struct candidate {
    char name[160];
    int rank;
} candidate;

/* Every device an executing, allowed, available backend offers, ranked
 * by the policy; one entry per "name:index". */
static rlx_status list_devices(rlx_runner *r, const policy_def *pol)
{
    candidate c[RUNNER_DEVICES_MAX];
    uint32_t n = 0;
    uint32_t nb = rlx_runtime_backend_count(r->rt);
    for (uint32_t i = 0; i < nb; i++) {
        const rlx_backend *b = rlx_runtime_backend(r->rt, i);
        uint32_t count = 0, flags = 0;
        if (!rlx_backend_executes(b) ||
            !rlx_runtime_backend_allowed(r->rt, b, NULL) ||
            rlx_backend_probe_ex(b, &count, &flags) != RLX_OK)
            continue;
        int cls = device_class(b, flags);
        /* GPUs include software ones, ranked last, for gpu-only */
        int cls_match = cls == pol->first ||
                        (pol->first == CLASS_GPU && cls == CLASS_SOFT &&
                         rlx_backend_device_kind(b) != RLX_DEVICE_CPU);
        if (pol->only && !cls_match)
            continue;
        int rank = auto_rank(b, cls) + (pol->first >= 0 && !cls_match) * 1000;
        for (uint32_t d = 0; d < count && n < RUNNER_DEVICES_MAX; d++) {
            char name[160];
            snprintf(name, sizeof name, "%s:%u", rlx_backend_device_name(b),
                     d);
            uint32_t j = 0;
            while (j < n && strcmp(c[j].name, name) != 0)
                j++;
            if (j < n) {
                if (rank < c[j].rank)
                    c[j].rank = rank;
                continue;
            }
            memcpy(c[n].name, name, sizeof name);
            c[n++].rank = rank;
        }
    }
    rlx__error_clear();
    /* stable insertion sort by rank */
    for (uint32_t i = 1; i < n; i++)
        for (uint32_t j = i; j > 0 && c[j].rank < c[j - 1].rank; j--) {
            candidate t = c[j];
            c[j] = c[j - 1];
            c[j - 1] = t;
        }
    for (uint32_t i = 0; i < n; i++)
        if (!(r->devices[r->n_devices++] = rlx__strdup(c[i].name)))
            return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    if (n == 0)
        return rlx__error(RLX_ERR_UNAVAILABLE,
                          "no device satisfies the device policy '%s'. Fix: "
                          "pick another policy (default, prefer-cpu, "
                          "prefer-gpu, prefer-npu, max-performance), install "
                          "a backend for the devices it asks for, or check "
                          "RLX_BACKEND_FORCE, RLX_BACKEND_DISABLE and the "
                          "config file (`rlx devices` says why each backend "
                          "is usable or not)", pol->name);
    return RLX_OK;
}

/* "cpu" -> "cpu:0"; a backend id stays as it is. OUT holds 160. */
static rlx_status device_key(const rlx_runner *r, const char *spec,
                             char *out, size_t size)
{
    size_t len = strlen(spec);
    while (len && (spec[len - 1] == ' '))
        len--;
    while (*spec == ' ')
        spec++, len--;
    if (len == 0 || len >= 128)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "'%.*s' is not a device. Fix: name a device (cpu, "
                          "cuda:1, npu) or a backend id",
                          (int)(len < 128 ? len : 128), spec);
    char name[128];
    memcpy(name, spec, len);
    name[len] = '\0';
    if (rlx_runtime_find_backend(r->rt, name)) {
        snprintf(out, size, "%s", name);
        return RLX_OK;
    }
    char *colon = strchr(name, ':');
    unsigned long index = 0;
    if (colon) {
        char *end;
        *colon = '\0';
        index = strtoul(colon + 1, &end, 10);
        if (!colon[1] || *end || colon[1] == '-' || index > 1024)
            return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                              "device '%s:%s' has no valid index. Fix: "
                              "write cuda:0, cuda:1, ...", name, colon + 1);
    }
    int known = 0;
    uint32_t nb = rlx_runtime_backend_count(r->rt);
    for (uint32_t i = 0; i < nb && !known; i++)
        known = strcmp(rlx_backend_device_name(rlx_runtime_backend(r->rt, i)),
                       name) == 0;
    if (!known)
        return rlx__error(RLX_ERR_NOT_FOUND,
                          "unknown device '%s'. Fix: use a device or backend "
                          "id that `rlx devices` lists (cpu, cuda, vulkan, "
                          "a custom kind such as npu), or install its "
                          "backend", name);
    snprintf(out, size, "%s:%lu", name, index);
    return RLX_OK;
}

static int device_allowed(const rlx_runner *r, const char *key)
{
    for (uint32_t i = 0; i < r->n_devices; i++)
        if (strcmp(r->devices[i], key) == 0)
            return 1;
    /* a backend id: allowed when its device is */
    const rlx_backend *b = rlx_runtime_find_backend(r->rt, key);
    if (!b || !rlx_runtime_backend_allowed(r->rt, b, NULL))
        return 0;
    char dev[160];
    snprintf(dev, sizeof dev, "%s:0", rlx_backend_device_name(b));
    for (uint32_t i = 0; i < r->n_devices; i++)
        if (strcmp(r->devices[i], dev) == 0)
            return 1;
    return 0;
}

/* ---- create, destroy --------------------------------------------------- */

static void named_free(named_data *v, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        free(v[i].name);
        free(v[i].data);
    }
    free(v);
}

static void attempts_free(attempt *a, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        free(a[i].device);
        free(a[i].reason);
    }
    free(a);
}

void rlx_runner_destroy(rlx_runner *r)
{
    if (!r)
        return;
    for (uint32_t i = 0; i < r->n_cache; i++) {
        rlx_program_destroy(r->cache[i].program);
        free(r->cache[i].device);
    }
    free(r->cache);
    for (uint32_t i = 0; i < r->n_devices; i++)
        free(r->devices[i]);
    named_free(r->params, r->n_params);
    named_free(r->inputs, r->n_inputs);
    attempts_free(r->attempts, r->n_attempts);
    attempts_free(r->bench, r->n_bench);
    free(r->best);
    free(r->policy);
    rlx_graph_destroy(r->graph);
    free(r);
}

rlx_status rlx_runner_create(rlx_runtime *rt, const rlx_graph *g,
                             const char *policy, rlx_runner **out)
{
    if (out)
        *out = NULL;
    if (!rt || !g || !out)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "rlx_runner_create: NULL argument. Fix: pass a "
                          "runtime, a graph and OUT");
    if (!policy || !*policy) {
        const char *env = getenv("RLX_DEVICE_POLICY");
        policy = env && *env ? env : "default";
    }
    const policy_def *pol = policy_find(policy);
    if (!pol)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "'%s' is not a device policy. Fix: use default, "
                          "prefer-cpu, prefer-gpu, prefer-npu, "
                          "max-performance, cpu-only, gpu-only or npu-only",
                          policy);
    rlx_runner *r = calloc(1, sizeof *r);
    if (!r)
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    r->rt = rt;
    r->max_performance = pol->measure;
    r->policy = rlx__strdup(pol->name);
    rlx_status st = r->policy ? rlx__graph_clone(g, &r->graph)
                              : rlx__error(RLX_ERR_OUT_OF_MEMORY,
                                           "out of memory");
    if (st == RLX_OK)
        st = list_devices(r, pol);
    if (st != RLX_OK) {
        rlx_runner_destroy(r);
        return st;
    }
    *out = r;
    return RLX_OK;
}

uint32_t rlx_runner_device_count(const rlx_runner *r)
{
    return r ? r->n_devices : 0;
}

const char *rlx_runner_device(const rlx_runner *r, uint32_t index)
{
    return r && index < r->n_devices ? r->devices[index] : NULL;
}

/* ---- params and inputs -------------------------------------------------- */

/* The graph's source KIND (param or input) called NAME, checked for size. */
static rlx_status check_source(const rlx_runner *r, rlx_op kind,
                               const char *name, const void *data,
                               size_t nbytes)
{
    const char *what = kind == RLX_OP_PARAM ? "param" : "input";
    if (!name || (nbytes && !data))
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "rlx_runner_set_%s: NULL name or data. Fix: pass "
                          "both", what);
    for (uint32_t i = 0; i < r->graph->n_nodes; i++) {
        const rlx__node *n = &r->graph->nodes[i];
        if (n->op != kind || strcmp(n->name, name) != 0)
            continue;
        size_t want = (size_t)rlx__shape_elements(n->rank, n->shape) *
                      rlx_dtype_size(n->dtype);
        if (want != nbytes)
            return rlx__error(RLX_ERR_SHAPE,
                              "%s '%s' is %zu bytes, got %zu. Fix: pass "
                              "exactly the tensor's size", what, name, want,
                              nbytes);
        return RLX_OK;
    }
    return rlx__error(RLX_ERR_NOT_FOUND,
                      "the graph has no %s named '%s'. Fix: use one of the "
                      "names given to rlx_graph_%s", what, name, what);
}

static rlx_status store(named_data **v, uint32_t *n, const char *name,
                        const void *data, size_t nbytes)
{
    void *copy = malloc(nbytes ? nbytes : 1);
    if (!copy)
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    if (nbytes)
        memcpy(copy, data, nbytes);
    for (uint32_t i = 0; i < *n; i++)
        if (strcmp((*v)[i].name, name) == 0) {
            free((*v)[i].data);
            (*v)[i].data = copy;
            (*v)[i].nbytes = nbytes;
            return RLX_OK;
        }
    named_data *grown = realloc(*v, (*n + 1) * sizeof **v);
    char *dup = rlx__strdup(name);
    if (!grown || !dup) {
        if (grown)
            *v = grown;
        free(copy);
        free(dup);
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    }
    *v = grown;
    (*v)[(*n)++] = (named_data){ dup, copy, nbytes };
    return RLX_OK;
}

rlx_status rlx_runner_set_param(rlx_runner *r, const char *name,
                                const void *data, size_t nbytes)
{
    if (!r)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "rlx_runner_set_param: NULL runner");
    rlx_status st = check_source(r, RLX_OP_PARAM, name, data, nbytes);
    if (st == RLX_OK)
        st = store(&r->params, &r->n_params, name, data, nbytes);
    /* mirrored to every program compiled so far; later ones get it at
     * compile */
    for (uint32_t i = 0; st == RLX_OK && i < r->n_cache; i++)
        st = rlx_program_set_param(r->cache[i].program, name, data, nbytes);
    return st;
}

rlx_status rlx_runner_set_input(rlx_runner *r, const char *name,
                                const void *data, size_t nbytes)
{
    if (!r)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "rlx_runner_set_input: NULL runner");
    rlx_status st = check_source(r, RLX_OP_INPUT, name, data, nbytes);
    return st == RLX_OK ? store(&r->inputs, &r->n_inputs, name, data, nbytes)
                        : st;
}

/* ---- programs ------------------------------------------------------------ */

static rlx_status program_for(rlx_runner *r, const char *key,
                              rlx_program **out)
{
    for (uint32_t i = 0; i < r->n_cache; i++)
        if (strcmp(r->cache[i].device, key) == 0) {
            *out = r->cache[i].program;
            return RLX_OK;
        }
    if (!device_allowed(r, key))
        return rlx__error(RLX_ERR_UNAVAILABLE,
                          "device '%s' is not available under the device "
                          "policy '%s'. Fix: pick one of the runner's "
                          "devices (rlx_runner_device), or another policy",
                          key, r->policy);
    rlx_session *s;
    rlx_program *p = NULL;
    rlx_status st = rlx_session_create(r->rt, key, &s);
    if (st != RLX_OK)
        return st;
    st = rlx_session_compile(s, r->graph, &p);
    rlx_session_destroy(s);
    for (uint32_t i = 0; st == RLX_OK && i < r->n_params; i++)
        st = rlx_program_set_param(p, r->params[i].name, r->params[i].data,
                                   r->params[i].nbytes);
    if (st == RLX_OK && r->hook)
        st = r->hook(r->hook_ctx, p);
    cached *grown = st == RLX_OK ? realloc(r->cache, (r->n_cache + 1) *
                                                         sizeof *r->cache)
                                 : NULL;
    char *dup = grown ? rlx__strdup(key) : NULL;
    if (grown)
        r->cache = grown;
    if (st == RLX_OK && !dup)
        st = rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    if (st != RLX_OK) {
        rlx_program_destroy(p);
        return st;
    }
    r->cache[r->n_cache++] = (cached){ dup, p };
    *out = p;
    return RLX_OK;
}

rlx_status rlx_runner_program(rlx_runner *r, const char *device,
                              rlx_program **out)
{
    char key[160];
    if (out)
        *out = NULL;
    if (!r || !device || !out)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "rlx_runner_program: NULL argument. Fix: pass a "
                          "runner, a device and OUT");
    rlx_status st = device_key(r, device, key, sizeof key);
    return st == RLX_OK ? program_for(r, key, out) : st;
}

static rlx_status run_program(const rlx_runner *r, rlx_program *p)
{
    for (uint32_t i = 0; i < r->n_inputs; i++) {
        rlx_status st = rlx_program_set_input(p, r->inputs[i].name,
                                              r->inputs[i].data,
                                              r->inputs[i].nbytes);
        if (st != RLX_OK)
            return st;
    }
    return rlx_program_run(p);
}

static rlx_status run_on(rlx_runner *r, const char *key, rlx_program **ran)
{
    rlx_program *p;
    rlx_status st = program_for(r, key, &p);
    if (st == RLX_OK)
        st = run_program(r, p);
    if (st == RLX_OK && ran)
        *ran = p;
    return st;
}

static rlx_status record(attempt **list, uint32_t *n, const char *device,
                         rlx_status st, const char *reason, double ms)
{
    attempt *grown = realloc(*list, (*n + 1) * sizeof **list);
    if (!grown)
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    *list = grown;
    grown[*n] = (attempt){ rlx__strdup(device), st,
                           rlx__strdup(reason ? reason : ""), ms };
    if (!grown[*n].device || !grown[*n].reason) {
        free(grown[*n].device);
        free(grown[*n].reason);
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    }
    (*n)++;
    return RLX_OK;
}

static void attempts_reset(rlx_runner *r)
{
    attempts_free(r->attempts, r->n_attempts);
    r->attempts = NULL;
    r->n_attempts = 0;
}

/* ---- chains ---------------------------------------------------------------- */

/* Split CHAIN at commas into canonical device keys; every entry checked
 * before anything runs. */
static rlx_status parse_chain(const rlx_runner *r, const char *chain,
                              char keys[][160], uint32_t *n)
{
    *n = 0;
    for (const char *s = chain; *s;) {
        const char *e = strchr(s, ',');
        if (!e)
            e = s + strlen(s);
        char item[160], key[160];
        size_t len = (size_t)(e - s);
        if (len >= sizeof item)
            len = sizeof item - 1;
        memcpy(item, s, len);
        item[len] = '\0';
        if (strspn(item, " ") != len) {
            rlx_status st = device_key(r, item, key, sizeof key);
            if (st != RLX_OK)
                return rlx__error(st, "device chain '%s': %s", chain,
                                  rlx_last_error());
            if (*n >= RUNNER_DEVICES_MAX)
                return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                                  "device chain '%s' is longer than %d "
                                  "devices. Fix: shorten it", chain,
                                  RUNNER_DEVICES_MAX);
            memcpy(keys[(*n)++], key, sizeof key);
        }
        s = *e ? e + 1 : e;
    }
    if (*n == 0)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "the device chain '%s' names no device. Fix: list "
                          "devices in order, e.g. cuda,vulkan,cpu", chain);
    return RLX_OK;
}

rlx_status rlx_runner_run_chain(rlx_runner *r, const char *chain,
                                rlx_program **ran)
{
    if (ran)
        *ran = NULL;
    if (!r)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "rlx_runner_run_chain: NULL runner");
    attempts_reset(r);
    const char *env = getenv("RLX_DEVICE_CHAIN");
    char (*keys)[160] = calloc(RUNNER_DEVICES_MAX, sizeof *keys);
    uint32_t n = 0;
    rlx_status st = keys ? RLX_OK : rlx__error(RLX_ERR_OUT_OF_MEMORY,
                                               "out of memory");
    if (st == RLX_OK && !chain && (!env || !*env)) {
        for (uint32_t i = 0; i < r->n_devices; i++)
            snprintf(keys[n++], 160, "%s", r->devices[i]);
    } else if (st == RLX_OK) {
        st = parse_chain(r, chain ? chain : env, keys, &n);
    }
    for (uint32_t i = 0; st == RLX_OK && i < n; i++) {
        rlx_status rst = run_on(r, keys[i], ran);
        st = record(&r->attempts, &r->n_attempts, keys[i], rst,
                    rst == RLX_OK ? "ran" : rlx_last_error(), 0);
        if (st != RLX_OK || rst == RLX_OK) {
            free(keys);
            if (st == RLX_OK)
                rlx__error_clear();
            return st;
        }
    }
    free(keys);
    if (st != RLX_OK)
        return st;
    /* every device failed: list why */
    char msg[RLX_MSG_MAX * 2];
    size_t len = (size_t)snprintf(msg, sizeof msg,
                                  "every device of the chain failed:");
    for (uint32_t i = 0; i < r->n_attempts && len < sizeof msg; i++) {
        char *reason = NULL, *fix = NULL;
        rlx__split_fix(r->attempts[i].reason, &reason, &fix);
        len += (size_t)snprintf(msg + len, sizeof msg - len, "\n  %s: %s",
                                r->attempts[i].device,
                                reason ? reason : r->attempts[i].reason);
        free(reason);
        free(fix);
    }
    return rlx__error(r->attempts[r->n_attempts - 1].status,
                      "%s\nFix: see each device's reason above (each "
                      "attempt's full message: rlx_runner_attempt)", msg);
}

uint32_t rlx_runner_attempt_count(const rlx_runner *r)
{
    return r ? r->n_attempts : 0;
}

rlx_status rlx_runner_attempt(const rlx_runner *r, uint32_t index,
                              const char **device, rlx_status *status,
                              const char **reason)
{
    if (!r || index >= r->n_attempts)
        return rlx__error(RLX_ERR_NOT_FOUND,
                          "rlx_runner_attempt: no attempt %u. Fix: use an "
                          "index below rlx_runner_attempt_count", index);
    if (device)
        *device = r->attempts[index].device;
    if (status)
        *status = r->attempts[index].status;
    if (reason)
        *reason = r->attempts[index].reason;
    return RLX_OK;
}

/* ---- benchmark ------------------------------------------------------------- */

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Median milliseconds of RUNS runs on KEY after one warm-up run. */
static rlx_status time_device(rlx_runner *r, const char *key, uint32_t runs,
                              double *ms)
{
    rlx_program *p;
    rlx_status st = program_for(r, key, &p);
    if (st == RLX_OK)
        st = run_program(r, p); /* warm-up: first-run costs excluded */
    double *t = st == RLX_OK ? malloc(runs * sizeof *t) : NULL;
    if (st == RLX_OK && !t)
        st = rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    for (uint32_t i = 0; st == RLX_OK && i < runs; i++) {
        double t0 = now_ms();
        st = run_program(r, p);
        t[i] = now_ms() - t0;
    }
    if (st == RLX_OK) {
        qsort(t, runs, sizeof *t, cmp_double);
        *ms = t[runs / 2];
    }
    free(t);
    return st;
}

rlx_status rlx_runner_benchmark(rlx_runner *r, const char *devices,
                                uint32_t runs, const char **winner)
{
    if (winner)
        *winner = NULL;
    if (!r || runs == 0 || runs > 1000000)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "rlx_runner_benchmark: NULL runner or RUNS not in "
                          "1..1000000. Fix: pass a runner and a run count");
    char (*keys)[160] = calloc(RUNNER_DEVICES_MAX, sizeof *keys);
    uint32_t n = 0;
    rlx_status st = keys ? RLX_OK : rlx__error(RLX_ERR_OUT_OF_MEMORY,
                                               "out of memory");
    if (st == RLX_OK && !devices) {
        for (uint32_t i = 0; i < r->n_devices; i++)
            snprintf(keys[n++], 160, "%s", r->devices[i]);
    } else if (st == RLX_OK) {
        st = parse_chain(r, devices, keys, &n);
    }
    if (st != RLX_OK) {
        free(keys);
        return st;
    }
    attempts_free(r->bench, r->n_bench);
    r->bench = NULL;
    r->n_bench = 0;
    int best = -1;
    for (uint32_t i = 0; st == RLX_OK && i < n; i++) {
        double ms = -1;
        rlx_status rst = time_device(r, keys[i], runs, &ms);
        st = record(&r->bench, &r->n_bench, keys[i], rst,
                    rst == RLX_OK ? "" : rlx_last_error(),
                    rst == RLX_OK ? ms : -1);
        if (st == RLX_OK && rst == RLX_OK &&
            (best < 0 || ms < r->bench[best].ms))
            best = (int)r->n_bench - 1;
    }
    free(keys);
    if (st != RLX_OK)
        return st;
    if (best < 0)
        return rlx__error(RLX_ERR_UNAVAILABLE,
                          "no device could run the graph, so none was "
                          "timed (first: %s: %s). Fix: see each device's "
                          "reason (rlx_runner_bench_result)",
                          r->bench[0].device, r->bench[0].reason);
    char *w = rlx__strdup(r->bench[best].device);
    if (!w)
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    free(r->best);
    r->best = w;
    if (winner)
        *winner = r->best;
    rlx__error_clear();
    return RLX_OK;
}

uint32_t rlx_runner_bench_count(const rlx_runner *r)
{
    return r ? r->n_bench : 0;
}

rlx_status rlx_runner_bench_result(const rlx_runner *r, uint32_t index,
                                   const char **device, double *ms,
                                   rlx_status *status, const char **reason)
{
    if (!r || index >= r->n_bench)
        return rlx__error(RLX_ERR_NOT_FOUND,
                          "rlx_runner_bench_result: no row %u. Fix: use an "
                          "index below rlx_runner_bench_count", index);
    if (device)
        *device = r->bench[index].device;
    if (ms)
        *ms = r->bench[index].ms;
    if (status)
        *status = r->bench[index].status;
    if (reason)
        *reason = r->bench[index].reason;
    return RLX_OK;
}

/* ---- run ------------------------------------------------------------------- */

rlx_status rlx_runner_run(rlx_runner *r, const char *device,
                          rlx_program **ran)
{
    char key[160];
    if (ran)
        *ran = NULL;
    if (!r)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "rlx_runner_run: NULL runner");
    rlx_status st = RLX_OK;
    if (device) {
        st = device_key(r, device, key, sizeof key);
    } else {
        if (!r->best && r->max_performance)
            st = rlx_runner_benchmark(r, NULL, 5, NULL);
        if (st == RLX_OK)
            snprintf(key, sizeof key, "%s",
                     r->best ? r->best : r->devices[0]);
    }
    attempts_reset(r);
    if (st != RLX_OK)
        return st;
    rlx_status rst = run_on(r, key, ran);
    st = record(&r->attempts, &r->n_attempts, key, rst,
                rst == RLX_OK ? "ran" : rlx_last_error(), 0);
    if (st != RLX_OK)
        return st;
    if (rst != RLX_OK)
        return rlx__error(rst, "%s", r->attempts[0].reason);
    return RLX_OK;
}

rlx_status rlx_runner_set_compile_hook(rlx_runner *r,
                                       rlx_runner_compile_hook fn, void *ctx)
{
    if (!r)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "rlx_runner_set_compile_hook: NULL runner");
    r->hook = fn;
    r->hook_ctx = ctx;
    return RLX_OK;
}

rlx_status rlx_runner_compile_all(rlx_runner *r, uint32_t *compiled)
{
    if (compiled)
        *compiled = 0;
    if (!r)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "rlx_runner_compile_all: NULL runner");
    attempts_reset(r);
    uint32_t ok = 0;
    for (uint32_t i = 0; i < r->n_devices; i++) {
        rlx_program *p;
        rlx_status st = program_for(r, r->devices[i], &p);
        rlx_status rst = record(&r->attempts, &r->n_attempts, r->devices[i],
                                st, st == RLX_OK ? "compiled"
                                                 : rlx_last_error(), 0);
        if (rst != RLX_OK)
            return rst;
        ok += st == RLX_OK;
    }
    if (compiled)
        *compiled = ok;
    if (ok == 0)
        return rlx__error(RLX_ERR_UNSUPPORTED,
                          "no device could compile the graph (first: %s: "
                          "%s). Fix: see each device's reason "
                          "(rlx_runner_attempt)", r->attempts[0].device,
                          r->attempts[0].reason);
    rlx__error_clear();
    return RLX_OK;
}

void rlx_runner_clear(rlx_runner *r)
{
    if (!r)
        return;
    for (uint32_t i = 0; i < r->n_cache; i++) {
        rlx_program_destroy(r->cache[i].program);
        free(r->cache[i].device);
    }
    free(r->cache);
    r->cache = NULL;
    r->n_cache = 0;
    free(r->best);
    r->best = NULL;
}
