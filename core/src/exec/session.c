/*
 * session.c - choosing a backend for a device request, and explaining the
 * choice: explicit request, then RLX_DEVICE, then the priority order of
 * device kinds with a live availability probe of each candidate.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec.h"
#include "session.h"

#define MAX_CANDIDATES 32

/* Device kinds tried when nothing was asked for, best first. Custom
 * kinds (NPUs and such) come between the GPUs and the CPU. */
static const char *const auto_order[] = {
    "tpu", "cuda", "rocm", "metal", "vulkan",
};

static void explain(rlx_session *s, const char *fmt, ...) RLX__PRINTF(2, 3);

static void explain(rlx_session *s, const char *fmt, ...)
{
    char line[RLX_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    size_t old = s->explain ? strlen(s->explain) : 0, add = strlen(line);
    char *grown = realloc(s->explain, old + add + 2);
    if (!grown)
        return; /* the explanation is best effort */
    memcpy(grown + old, line, add);
    grown[old + add] = '\n';
    grown[old + add + 1] = '\0';
    s->explain = grown;
}

/* Software devices (RLX_PROBE_SOFTWARE, e.g. lavapipe) found during
 * automatic choice wait here, probed and acquired, until the native CPU
 * has been added: they are fallbacks, never the fast path. */
typedef struct deferred {
    const rlx_backend *items[MAX_CANDIDATES];
    uint32_t n;
} deferred;

/* A backend of a plugin not opened (lazy.c): its cached answer. */
static void note_unopened(void *ctx, const char *device, const char *id,
                          const rlx__probe_answer *a, const char *policy_why)
{
    rlx_session *s = ctx;
    if (policy_why)
        explain(s, "  %s: backend '%s' %s", device, id, policy_why);
    else
        explain(s, "  %s: backend '%s' unavailable (cached probe; plugin "
                   "not loaded, probe key %016llx unchanged): %s",
                device, id, a->hash, a->message);
}

/* Probe the ranked backends of DEVICE once; keep the available ones as
 * candidates, or park software ones in LATER when it is given. Returns
 * how many were kept or parked. Automatic choice (LATER given) leaves
 * plugins whose cached answer is "unavailable" unopened; an explicit
 * request opens every plugin serving DEVICE. */
static uint32_t add_device(rlx_session *s, const char *device,
                           uint32_t index, deferred *later)
{
    uint32_t unopened = 0;
    if (later)
        unopened = rlx__lazy_settle(s->rt, device,
                                    s->probes ? s->probes->token : 0,
                                    note_unopened, s);
    else
        rlx__lazy_load(s->rt, NULL, device);
    const rlx_backend *ranked[MAX_CANDIDATES];
    uint32_t n = rlx__registry_rank(s->rt, device, ranked, MAX_CANDIDATES);
    uint32_t added = 0;
    if (n == 0 && unopened == 0)
        explain(s, "  %s: no backend registered", device);
    for (uint32_t i = 0; i < n && s->n_candidates < MAX_CANDIDATES; i++) {
        uint32_t count = 0, flags = 0;
        const rlx_backend *b = ranked[i];
        const char *why;
        if (!rlx__policy_allows(s->rt, b, &why)) {
            explain(s, "  %s: backend '%s' %s", device, b->id, why);
            continue;
        }
        int cached = 0;
        const rlx__probe_slot *sl = rlx__probe_batch_find(s->probes, b);
        rlx_status pst;
        if (sl) { /* probed ahead (probe_batch.c) */
            pst = sl->status;
            count = sl->count;
            flags = sl->flags;
            cached = sl->cached;
            if (pst != RLX_OK)
                rlx__error(pst, "%s", sl->error);
        } else {
            pst = rlx__probe_cached(b, &count, &flags, &cached);
        }
        if (pst != RLX_OK) {
            explain(s, "  %s: backend '%s' unavailable%s: %s", device, b->id,
                    cached ? " (cached probe)" : "", rlx_last_error());
            continue;
        }
        if (index >= count) {
            explain(s, "  %s: backend '%s' has %u device%s, no %s:%u",
                    device, b->id, count, count == 1 ? "" : "s", device,
                    index);
            continue;
        }
        if (!rlx__backend_acquire(b)) {
            explain(s, "  %s: backend '%s' was just unloaded", device, b->id);
            continue;
        }
        added++;
        if (later && (flags & RLX_PROBE_SOFTWARE) &&
            later->n < MAX_CANDIDATES) {
            explain(s, "  %s: backend '%s' runs on a software device; "
                       "ranked after the CPU%s", device, b->id,
                    cached ? " (cached probe)" : "");
            later->items[later->n++] = b;
            continue;
        }
        explain(s, "  %s: backend '%s' available (priority %d, %u device%s%s)",
                device, b->id, b->priority, count, count == 1 ? "" : "s",
                cached ? ", cached probe" : "");
        s->candidates[s->n_candidates++] = b;
    }
    return added;
}

static void add_custom_devices(rlx_session *s, deferred *later)
{
    const rlx__snapshot *snap = rlx__registry_snapshot(s->rt);
    for (uint32_t i = 0; i < snap->count; i++) {
        const rlx_backend *b = snap->items[i];
        if (b->kind != RLX_DEVICE_CUSTOM)
            continue;
        int seen = 0; /* visit each custom name once, in registration order */
        for (uint32_t j = 0; j < i && !seen; j++)
            seen = snap->items[j]->kind == RLX_DEVICE_CUSTOM &&
                   strcmp(snap->items[j]->device_name, b->device_name) == 0;
        if (!seen)
            add_device(s, b->device_name, 0, later);
    }
    /* custom devices only plugins not opened serve */
    char names[16][32];
    uint32_t n = rlx__lazy_custom_devices(s->rt, names, 16);
    for (uint32_t k = 0; k < n; k++) {
        int seen = 0;
        for (uint32_t i = 0; i < snap->count && !seen; i++)
            seen = snap->items[i]->kind == RLX_DEVICE_CUSTOM &&
                   strcmp(snap->items[i]->device_name, names[k]) == 0;
        if (!seen)
            add_device(s, names[k], 0, later);
    }
}

/* "cuda:1" -> name "cuda", index 1. */
static rlx_status parse_device(const char *spec, char *name, size_t size,
                               uint32_t *index)
{
    const char *colon = strchr(spec, ':');
    size_t len = colon ? (size_t)(colon - spec) : strlen(spec);
    *index = 0;
    if (len == 0 || len >= size)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "device '%s' is not a device name. Fix: use a "
                          "name such as cpu, cuda or cuda:1", spec);
    memcpy(name, spec, len);
    name[len] = '\0';
    if (colon) {
        char *end;
        unsigned long v = strtoul(colon + 1, &end, 10);
        if (!colon[1] || *end || colon[1] == '-' || v > 1024)
            return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                              "device '%s': '%s' is not a device index. "
                              "Fix: write cuda:0, cuda:1, ...",
                              spec, colon + 1);
        *index = (uint32_t)v;
    }
    return RLX_OK;
}

static rlx_status choose_explicit(rlx_session *s, const char *spec)
{
    char name[128];
    rlx_status st = parse_device(spec, name, sizeof name, &s->device_index);
    if (st != RLX_OK)
        return st;
    const rlx_backend *b = rlx_runtime_find_backend(s->rt, name);
    if (b) {
        uint32_t count = 0;
        if (!(b->flags & RLX_BACKEND_EXECUTES))
            return rlx__error(RLX_ERR_UNSUPPORTED,
                              "backend '%s' does not execute graphs (no "
                              "RLX_BACKEND_EXECUTES). Fix: choose a backend "
                              "that executes (rlx devices lists them)", b->id);
        if (rlx_backend_probe(b, &count) != RLX_OK)
            return rlx__error(RLX_ERR_UNAVAILABLE, "backend '%s' is unavailable: %s", b->id,
                              rlx_last_error());
        if (s->device_index >= count)
            return rlx__error(RLX_ERR_UNAVAILABLE,
                              "backend '%s' has %u device%s; there is no "
                              "index %u. Fix: use an index below %u",
                              b->id, count, count == 1 ? "" : "s",
                              s->device_index, count);
        if (!rlx__backend_acquire(b))
            return rlx__error(RLX_ERR_UNAVAILABLE,
                              "backend '%s' was unloaded. Fix: load its "
                              "plugin again", b->id);
        explain(s, "requested backend '%s'", b->id);
        s->candidates[s->n_candidates++] = b;
        return RLX_OK;
    }
    explain(s, "requested device '%s':", spec);
    if (add_device(s, name, s->device_index, NULL) > 0)
        return RLX_OK;
    const rlx_backend *any[1];
    if (rlx__registry_rank(s->rt, name, any, 1) == 0)
        return rlx__error(RLX_ERR_NOT_FOUND,
                          "no backend for device '%s'. Fix: install the "
                          "backend plugin for it, or pick a device that "
                          "`rlx devices` lists", name);
    return rlx__error(RLX_ERR_UNAVAILABLE,
                      "device '%s' is not available:\n%s"
                      "Fix: see the reasons above, or pick another device",
                      spec, s->explain ? s->explain : "");
}

static void choose_auto(rlx_session *s)
{
    deferred later = { .n = 0 };
    rlx__probe_batch probes;
    rlx__probe_batch_run(s->rt, &probes);
    s->probes = &probes;
    explain(s, "no device requested; trying in order:");
    for (size_t i = 0; i < sizeof auto_order / sizeof *auto_order; i++)
        add_device(s, auto_order[i], 0, &later);
    add_custom_devices(s, &later);
    add_device(s, "cpu", 0, &later);
    /* software implementations of accelerators last; each already holds
     * the reference its probe pass took */
    for (uint32_t i = 0; i < later.n; i++) {
        if (s->n_candidates < MAX_CANDIDATES)
            s->candidates[s->n_candidates++] = later.items[i];
        else
            rlx__backend_release(later.items[i]);
    }
    s->probes = NULL;
    rlx__probe_batch_free(&probes);
}

static const char *const precision_names[] = {
    [RLX_PRECISION_STRICT] = "strict",
    [RLX_PRECISION_ALLOW_TF32] = "tf32",
    [RLX_PRECISION_ALLOW_REDUCED] = "reduced",
};

rlx_status rlx_session_set_precision(rlx_session *s, rlx_precision precision)
{
    if (!s || precision < RLX_PRECISION_STRICT ||
        precision > RLX_PRECISION_ALLOW_REDUCED)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "rlx_session_set_precision: %d is not an "
                          "rlx_precision. Fix: use RLX_PRECISION_STRICT, "
                          "_ALLOW_TF32 or _ALLOW_REDUCED", (int)precision);
    s->precision = precision;
    return RLX_OK;
}

rlx_precision rlx_session_precision(const rlx_session *s)
{
    return s ? s->precision : RLX_PRECISION_STRICT;
}

/* RLX_PRECISION sets a new session's precision; a bad value is an error
 * rather than a silent STRICT, since the user asked for something. */
static rlx_status precision_from_env(rlx_session *s)
{
    const char *env = rlx__env("RLX_PRECISION");
    if (!env || !*env)
        return RLX_OK;
    for (int i = 0; i <= RLX_PRECISION_ALLOW_REDUCED; i++)
        if (strcmp(env, precision_names[i]) == 0) {
            s->precision = (rlx_precision)i;
            explain(s, "RLX_PRECISION=%s", env);
            return RLX_OK;
        }
    return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                      "RLX_PRECISION='%s' is not a precision. Fix: set it "
                      "to strict, tf32 or reduced, or unset it", env);
}

static const char *const fallback_names[] = {
    [RLX_FALLBACK_SPLIT] = "split",
    [RLX_FALLBACK_WHOLE] = "whole",
    [RLX_FALLBACK_NONE] = "none",
};

rlx_status rlx_session_set_fallback(rlx_session *s, rlx_fallback f)
{
    if (!s || f < RLX_FALLBACK_SPLIT || f > RLX_FALLBACK_NONE)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "rlx_session_set_fallback: %d is not an "
                          "rlx_fallback. Fix: use RLX_FALLBACK_SPLIT, "
                          "_WHOLE or _NONE", (int)f);
    s->fallback = f;
    return RLX_OK;
}

rlx_fallback rlx_session_fallback(const rlx_session *s)
{
    return s ? s->fallback : RLX_FALLBACK_SPLIT;
}

/* RLX_FALLBACK and RLX_OPS_DISABLE are checked when a session starts, so
 * a typo fails loudly instead of changing nothing. */
static rlx_status fallback_from_env(rlx_session *s)
{
    const char *env = rlx__env("RLX_FALLBACK");
    rlx_status st = rlx__ops_mask_check();
    if (st != RLX_OK || !env || !*env)
        return st;
    for (int i = 0; i <= RLX_FALLBACK_NONE; i++)
        if (strcmp(env, fallback_names[i]) == 0) {
            s->fallback = (rlx_fallback)i;
            explain(s, "RLX_FALLBACK=%s", env);
            return RLX_OK;
        }
    return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                      "RLX_FALLBACK='%s' is not a fallback policy. Fix: set "
                      "it to split, whole or none, or unset it", env);
}

rlx_status rlx_session_create(rlx_runtime *rt, const char *device,
                              rlx_session **out)
{
    if (out)
        *out = NULL;
    if (!rt || !out)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "rlx_session_create: runtime or OUT is NULL");
    rlx_session *s = calloc(1, sizeof *s);
    if (!s)
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    s->rt = rt;
    s->precision = RLX_PRECISION_STRICT;
    const char *env = NULL;
    if (!device || !*device) {
        env = rlx__env("RLX_DEVICE");
        device = env && *env ? env : NULL;
    }
    rlx_status st = precision_from_env(s);
    if (st == RLX_OK)
        st = fallback_from_env(s);
    if (st != RLX_OK) {
        rlx_session_destroy(s);
        return st;
    }
    if (device) {
        if (env)
            explain(s, "RLX_DEVICE=%s", env);
        s->explicit_device = 1;
        st = choose_explicit(s, device);
    } else {
        choose_auto(s);
    }
    if (st == RLX_OK && s->n_candidates == 0)
        st = rlx__error(RLX_ERR_UNAVAILABLE,
                        "no backend is available:\n%sFix: see the reasons "
                        "above", s->explain ? s->explain : "");
    if (st != RLX_OK) {
        rlx_session_destroy(s);
        return st;
    }
    s->backend = s->candidates[0];
    explain(s, "chose backend '%s' for %s:%u", s->backend->id,
            s->backend->device_name, s->device_index);
    rlx__error_clear();
    *out = s;
    return RLX_OK;
}

void rlx_session_destroy(rlx_session *s)
{
    if (!s)
        return;
    for (uint32_t i = 0; i < s->n_candidates; i++)
        rlx__backend_release(s->candidates[i]);
    free(s->explain);
    rlx__session_options_free(s);
    rlx__allow_free(s->custom_allow);
    free(s);
}

const rlx_backend *rlx_session_backend(const rlx_session *s)
{
    return s ? s->backend : NULL;
}

uint32_t rlx_session_device_index(const rlx_session *s)
{
    return s ? s->device_index : 0;
}

const char *rlx_session_explain(const rlx_session *s)
{
    return s && s->explain ? s->explain : "";
}

void rlx__session_note(rlx_session *s, const char *fmt, ...)
{
    char line[RLX_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    explain(s, "%s", line);
}

/* Like a session's choice for one device, without allocating. */
const rlx_backend *rlx_runtime_choose(rlx_runtime *rt, const char *device)
{
    char name[128];
    uint32_t index;
    if (!rt || !device || !*device)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "rlx_runtime_choose: no device named"),
               NULL;
    if (parse_device(device, name, sizeof name, &index) != RLX_OK)
        return NULL;
    rlx__lazy_load(rt, NULL, name);
    const rlx_backend *ranked[MAX_CANDIDATES];
    uint32_t n = rlx__registry_rank(rt, name, ranked, MAX_CANDIDATES);
    if (n == 0)
        return rlx__error(RLX_ERR_NOT_FOUND,
                          "no backend for device '%s'. Fix: install the "
                          "backend plugin for it", name),
               NULL;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t count = 0;
        const char *why;
        if (!rlx__policy_allows(rt, ranked[i], &why))
            rlx__error(RLX_ERR_UNAVAILABLE, "backend '%s' %s. Fix: change "
                       "the rule if you want it", ranked[i]->id, why);
        else if (rlx_backend_probe(ranked[i], &count) == RLX_OK &&
                 index < count)
            return ranked[i];
    }
    return NULL; /* rlx_last_error() holds the last reason */
}

/* The session's own list of custom-op libraries (ffi/custom_allow.c
 * keeps the lists; the session record lives here). */
rlx_status rlx_session_allow_custom_ops(rlx_session *s, const char *path)
{
    if (!s)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "rlx_session_allow_custom_ops: S is NULL. Fix: "
                          "pass a session from rlx_session_create");
    return rlx__allow_add(&s->custom_allow, path,
                          "rlx_session_allow_custom_ops");
}

/* ---- the session's settings (plugin/options.c looks them up) ---------- */

rlx_status rlx__compile_get_option(const void *context, const char *name,
                                   char *value, size_t value_size)
{
    const rlx_session *s = context;
    if (!s)
        return RLX_ERR_INVALID_ARGUMENT;
    return rlx__options_get(s->rt, s->options, s->n_options, name, value,
                            value_size);
}

rlx_status rlx_session_set_option(rlx_session *s, const char *name,
                                  const char *value)
{
    if (!s || !rlx__option_name_valid(name))
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "rlx_session_set_option: '%s' is not a setting "
                          "name. Fix: use 1-%d characters of a-z, 0-9, '.', "
                          "'_', '-', such as \"cuda.matmul\"",
                          name ? name : "(null)", RLX_MAX_ID);
    if (rlx__option_list_set(&s->options, &s->n_options, name, value) != 0)
        return rlx__error(RLX_ERR_OUT_OF_MEMORY,
                          "out of memory. Fix: free memory");
    return RLX_OK;
}

void rlx__session_options_free(rlx_session *s)
{
    rlx__option_list_free(&s->options, &s->n_options);
}
