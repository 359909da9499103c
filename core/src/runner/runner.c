/*
 * runner.c - the multi-device runner: one graph, a program per device
 * compiled on first use and cached, params kept once and mirrored to
 * every program, runs on a named device, the best device, or along a
 * fallback chain. It uses the public session and program API, like an
 * application would; what it adds is the bookkeeping
 * (docs/multi-device.md). Policies and device names: runner_devices.c;
 * benchmark-based choice: runner_bench.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner.h"

/* ---- create, destroy --------------------------------------------------- */

static void named_free(rlx__named_data *v, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        free(v[i].name);
        free(v[i].data);
    }
    free(v);
}

void rlx__runner_attempts_free(rlx__attempt *a, uint32_t n)
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
    rlx__runner_attempts_free(r->attempts, r->n_attempts);
    rlx__runner_attempts_free(r->bench, r->n_bench);
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
        const char *env = rlx__env("RLX_DEVICE_POLICY");
        policy = env && *env ? env : "default";
    }
    rlx_runner *r = calloc(1, sizeof *r);
    if (!r)
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    r->rt = rt;
    r->fallback = -1;
    r->policy = rlx__strdup(policy);
    rlx_status st = r->policy ? rlx__graph_clone(g, &r->graph)
                              : rlx__error(RLX_ERR_OUT_OF_MEMORY,
                                           "out of memory");
    if (st == RLX_OK)
        st = rlx__runner_devices(r, policy, &r->max_performance);
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

static rlx_status store(rlx__named_data **v, uint32_t *n, const char *name,
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
    rlx__named_data *grown = realloc(*v, (*n + 1) * sizeof **v);
    char *dup = rlx__strdup(name);
    if (!grown || !dup) {
        if (grown)
            *v = grown;
        free(copy);
        free(dup);
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    }
    *v = grown;
    (*v)[(*n)++] = (rlx__named_data){ dup, copy, nbytes };
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

rlx_status rlx__runner_program_for(rlx_runner *r, const char *key,
                              rlx_program **out)
{
    for (uint32_t i = 0; i < r->n_cache; i++)
        if (strcmp(r->cache[i].device, key) == 0) {
            *out = r->cache[i].program;
            return RLX_OK;
        }
    if (!rlx__runner_device_allowed(r, key))
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
    if (r->fallback >= 0)
        st = rlx_session_set_fallback(s, (rlx_fallback)r->fallback);
    if (st == RLX_OK)
        st = rlx_session_compile(s, r->graph, &p);
    rlx_session_destroy(s);
    for (uint32_t i = 0; st == RLX_OK && i < r->n_params; i++)
        st = rlx_program_set_param(p, r->params[i].name, r->params[i].data,
                                   r->params[i].nbytes);
    if (st == RLX_OK && r->hook)
        st = r->hook(r->hook_ctx, p);
    rlx__cached *grown = st == RLX_OK ? realloc(r->cache, (r->n_cache + 1) *
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
    r->cache[r->n_cache++] = (rlx__cached){ dup, p };
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
    rlx_status st = rlx__runner_device_key(r, device, key, sizeof key);
    return st == RLX_OK ? rlx__runner_program_for(r, key, out) : st;
}

rlx_status rlx__runner_run_program(const rlx_runner *r, rlx_program *p)
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
    rlx_status st = rlx__runner_program_for(r, key, &p);
    if (st == RLX_OK)
        st = rlx__runner_run_program(r, p);
    if (st == RLX_OK && ran)
        *ran = p;
    return st;
}

rlx_status rlx__runner_record(rlx__attempt **list, uint32_t *n, const char *device,
                         rlx_status st, const char *reason, double ms)
{
    rlx__attempt *grown = realloc(*list, (*n + 1) * sizeof **list);
    if (!grown)
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    *list = grown;
    grown[*n] = (rlx__attempt){ rlx__strdup(device), st,
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
    rlx__runner_attempts_free(r->attempts, r->n_attempts);
    r->attempts = NULL;
    r->n_attempts = 0;
}

/* ---- chains ---------------------------------------------------------------- */

rlx_status rlx_runner_run_chain(rlx_runner *r, const char *chain,
                                rlx_program **ran)
{
    if (ran)
        *ran = NULL;
    if (!r)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "rlx_runner_run_chain: NULL runner");
    attempts_reset(r);
    const char *env = rlx__env("RLX_DEVICE_CHAIN");
    char (*keys)[160] = calloc(RUNNER_DEVICES_MAX, sizeof *keys);
    uint32_t n = 0;
    rlx_status st = keys ? RLX_OK : rlx__error(RLX_ERR_OUT_OF_MEMORY,
                                               "out of memory");
    if (st == RLX_OK && !chain && (!env || !*env)) {
        for (uint32_t i = 0; i < r->n_devices; i++)
            snprintf(keys[n++], 160, "%s", r->devices[i]);
    } else if (st == RLX_OK) {
        st = rlx__runner_parse_chain(r, chain ? chain : env, keys, &n);
    }
    for (uint32_t i = 0; st == RLX_OK && i < n; i++) {
        rlx_status rst = run_on(r, keys[i], ran);
        st = rlx__runner_record(&r->attempts, &r->n_attempts, keys[i], rst,
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
        st = rlx__runner_device_key(r, device, key, sizeof key);
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
    st = rlx__runner_record(&r->attempts, &r->n_attempts, key, rst,
                rst == RLX_OK ? "ran" : rlx_last_error(), 0);
    if (st != RLX_OK)
        return st;
    if (rst != RLX_OK)
        return rlx__error(rst, "%s", r->attempts[0].reason);
    return RLX_OK;
}

rlx_status rlx_runner_set_fallback(rlx_runner *r, rlx_fallback f)
{
    if (!r || f < RLX_FALLBACK_SPLIT || f > RLX_FALLBACK_NONE)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "rlx_runner_set_fallback: NULL runner or %d is "
                          "not an rlx_fallback. Fix: pass a runner and "
                          "RLX_FALLBACK_SPLIT, _WHOLE or _NONE", (int)f);
    if (r->fallback != (int)f)
        rlx_runner_clear(r); /* programs placed under the old policy */
    r->fallback = (int)f;
    return RLX_OK;
}

const char *rlx_runner_default_chain(void)
{
    const char *env = rlx__env("RLX_DEVICE_CHAIN");
    return env && *env ? env : NULL;
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
        rlx_status st = rlx__runner_program_for(r, r->devices[i], &p);
        rlx_status rst = rlx__runner_record(&r->attempts, &r->n_attempts, r->devices[i],
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
