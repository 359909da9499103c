/*
 * runner_bench.c - benchmark-based device choice: time each device on
 * the caller's inputs, keep the table, make the fastest the runner's best
 * device.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "runner.h"

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
    rlx_status st = rlx__runner_program_for(r, key, &p);
    if (st == RLX_OK)
        st = rlx__runner_run_program(r, p); /* warm-up: first-run costs excluded */
    double *t = st == RLX_OK ? malloc(runs * sizeof *t) : NULL;
    if (st == RLX_OK && !t)
        st = rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    for (uint32_t i = 0; st == RLX_OK && i < runs; i++) {
        double t0 = now_ms();
        st = rlx__runner_run_program(r, p);
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
    /* the same chain as rlx_runner_run_chain: ignoring RLX_DEVICE_CHAIN
     * here made `rlx run --pick fastest` time devices the user excluded */
    const char *env = devices ? NULL : rlx__env("RLX_DEVICE_CHAIN");
    if (env && *env)
        devices = env;
    if (st == RLX_OK && !devices) {
        for (uint32_t i = 0; i < r->n_devices; i++)
            snprintf(keys[n++], 160, "%s", r->devices[i]);
    } else if (st == RLX_OK) {
        st = rlx__runner_parse_chain(r, devices, keys, &n);
    }
    if (st != RLX_OK) {
        free(keys);
        return st;
    }
    rlx__runner_attempts_free(r->bench, r->n_bench);
    r->bench = NULL;
    r->n_bench = 0;
    int best = -1;
    for (uint32_t i = 0; st == RLX_OK && i < n; i++) {
        double ms = -1;
        rlx_status rst = time_device(r, keys[i], runs, &ms);
        st = rlx__runner_record(&r->bench, &r->n_bench, keys[i], rst,
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
