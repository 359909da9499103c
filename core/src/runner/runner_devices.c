/*
 * runner_devices.c - the multi-device runner's device policies (which
 * devices, in which order) and device names ("cpu" is "cpu:0"; chains
 * are checked whole before anything runs).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner.h"

/* Device classes a policy ranks: the order within a class is the
 * session's automatic order. */
enum { CLASS_NPU, CLASS_GPU, CLASS_CPU, CLASS_SOFT };

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

rlx_status rlx__runner_device_key(const rlx_runner *r, const char *spec,
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

int rlx__runner_device_allowed(const rlx_runner *r, const char *key)
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

rlx_status rlx__runner_devices(rlx_runner *r, const char *name, int *measure)
{
    const policy_def *pol = policy_find(name);
    if (!pol)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "'%s' is not a device policy. Fix: use default, "
                          "prefer-cpu, prefer-gpu, prefer-npu, "
                          "max-performance, cpu-only, gpu-only or npu-only",
                          name);
    *measure = pol->measure;
    return list_devices(r, pol);
}

/* Split CHAIN at commas into canonical device keys; every entry checked
 * before anything runs. */
rlx_status rlx__runner_parse_chain(const rlx_runner *r, const char *chain,
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
            rlx_status st = rlx__runner_device_key(r, item, key, sizeof key);
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
