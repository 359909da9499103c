/*
 * runner.h - the multi-device runner's record, shared by runner.c (create,
 * params, programs, runs, chains), runner_devices.c (policies and device
 * names) and runner_bench.c (benchmark-based choice).
 */
#ifndef RLX_RUNNER_H
#define RLX_RUNNER_H

#include "exec/exec.h"

#define RUNNER_DEVICES_MAX 64 /* devices a runner lists, chain entries */

typedef struct rlx__named_data {
    char *name;
    void *data;
    size_t nbytes;
} rlx__named_data;

typedef struct rlx__cached {
    char *device;
    rlx_program *program;
} rlx__cached;

typedef struct rlx__attempt {
    char *device;
    rlx_status status;
    char *reason;
    double ms; /* benchmark rows */
} rlx__attempt;

struct rlx_runner {
    rlx_runtime *rt;
    rlx_graph *graph;      /* the runner's own copy */
    char *policy;
    int max_performance;
    char *devices[RUNNER_DEVICES_MAX];
    uint32_t n_devices;
    rlx__cached *cache;
    uint32_t n_cache;
    rlx__named_data *params, *inputs;
    uint32_t n_params, n_inputs;
    rlx__attempt *attempts;
    uint32_t n_attempts;
    rlx__attempt *bench;
    uint32_t n_bench;
    char *best;            /* the benchmark's winner */
    rlx_runner_compile_hook hook;
    void *hook_ctx;
    int fallback;          /* an rlx_fallback, or -1: the session's own */
};

/* ---- runner_devices.c ------------------------------------------------ */

/* Fill r->devices for policy NAME (error with a Fix for an unknown policy
 * or one no device satisfies); *MEASURE: the policy picks by benchmark. */
rlx_status rlx__runner_devices(rlx_runner *r, const char *name,
                               int *measure);
/* "cpu" -> "cpu:0"; a backend id stays as it is. OUT holds 160. */
rlx_status rlx__runner_device_key(const rlx_runner *r, const char *spec,
                                  char *out, size_t size);
/* 1 when the policy allows device KEY. */
int rlx__runner_device_allowed(const rlx_runner *r, const char *key);
/* Split CHAIN at commas into device keys, each checked. */
rlx_status rlx__runner_parse_chain(const rlx_runner *r, const char *chain,
                                   char keys[][160], uint32_t *n);

/* ---- runner.c ----------------------------------------------------------- */

/* The cached program for KEY, compiled (with the params and the hook)
 * on first use. */
rlx_status rlx__runner_program_for(rlx_runner *r, const char *key,
                                   rlx_program **out);
/* Set the runner's inputs on P and run it. */
rlx_status rlx__runner_run_program(const rlx_runner *r, rlx_program *p);
/* Append an attempt (or benchmark row). */
rlx_status rlx__runner_record(rlx__attempt **list, uint32_t *n,
                              const char *device, rlx_status st,
                              const char *reason, double ms);
void rlx__runner_attempts_free(rlx__attempt *a, uint32_t n);

#endif /* RLX_RUNNER_H */
