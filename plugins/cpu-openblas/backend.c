/*
 * backend.c - the cpu-openblas plugin: rlx_plugin_init, the backend info
 * and vtable, and the backend object's life (the thread pool is started
 * by the first compile and joined here in backend_destroy).
 *
 * Every op and dtype cpu-ref supports is supported: f32 math has fast
 * kernels (sgemm, vectorised loops over the pool); the rest runs through
 * cpu-ref's kernels, linked in statically. Buffers are cpu-ref's (a host
 * copy), so params are shared in place by both paths.
 */
#define _GNU_SOURCE /* sched_getaffinity */
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#include <cblas.h>

#include "blas_internal.h"
#include "cpu_ref_reuse.h"

#ifndef RLXB_VARIANT_NAME
#define RLXB_VARIANT_NAME "portable"
#endif

int rlxb_ref_supports(rlx_op op, rlx_dtype dtype)
{
    return rlx__cpu_ref_supports(op, dtype);
}

static int blas_supports_op(void *backend, rlx_op op, rlx_dtype dtype)
{
    (void)backend;
    return rlx__cpu_ref_supports(op, dtype);
}

/* Threads for the pool: the setting cpu-openblas.threads
 * (RLX_CPU_OPENBLAS_THREADS) when given, else the CPUs this process may
 * run on (its affinity mask, which taskset and cgroup cpusets narrow),
 * not every CPU online: more threads than CPUs only take turns. A bad
 * value fails the compile: a warning in the log went unseen. 0: bad. */
static unsigned pool_threads(const rlx_host *host)
{
    char v[32];
    rlx_status st = rlx_host_get_option(host, "cpu-openblas.threads", v,
                                        sizeof v);
    if (st == RLX_OK) {
        char *end;
        long n = strtol(v, &end, 10);
        if (*v >= '0' && *v <= '9' && !*end && n >= 1 && n <= 256)
            return (unsigned)n;
    }
    if (st != RLX_OK && st != RLX_ERR_NOT_FOUND)
        snprintf(v, sizeof v, "(longer than %zu bytes)", sizeof v - 1);
    if (st != RLX_ERR_NOT_FOUND) {
        rlx_kit_fail(host, RLX_ERR_INVALID_ARGUMENT,
                     "cpu-openblas compile: setting cpu-openblas.threads "
                     "(RLX_CPU_OPENBLAS_THREADS) is '%s', not a thread "
                     "count. Fix: set it to a whole number from 1 to 256, "
                     "or unset it to use the CPUs this process may run on",
                     v);
        return 0;
    }
    cpu_set_t set;
    long n = 0;
    if (sched_getaffinity(0, sizeof set, &set) == 0)
        n = CPU_COUNT(&set);
    if (n < 1)
        n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1u : n > 256 ? 256u : (unsigned)n;
}

/* The pool, started on first use. */
static rlx_status ensure_pool(rlxb_backend *be)
{
    rlx_status st = RLX_OK;
    pthread_mutex_lock(&be->pool_mu);
    unsigned threads = be->pool ? 0 : pool_threads(be->host);
    if (!be->pool && !threads) {
        st = RLX_ERR_INVALID_ARGUMENT; /* reported by pool_threads */
    } else if (!be->pool) {
        be->pool = rlxb_pool_create(threads);
        if (!be->pool)
            st = rlx_kit_fail(be->host, RLX_ERR_OUT_OF_MEMORY,
                              "cpu-openblas: cannot start the worker "
                              "threads. Fix: free memory or raise the "
                              "thread limit");
        else
            rlx_kit_log(be->host, RLX_LOG_DEBUG,
                        "cpu-openblas (%s): %u pool threads; OpenBLAS "
                        "%s with %d threads", RLXB_VARIANT_NAME,
                        rlxb_pool_threads(be->pool),
                        openblas_get_config(),
                        openblas_get_num_threads());
    }
    pthread_mutex_unlock(&be->pool_mu);
    return st;
}

static rlx_status blas_compile(void *backend, const rlx_graph_view *graph,
                               const rlx_compile_options *options,
                               rlx_executable **out)
{
    rlxb_backend *be = backend;
    rlx_status st = ensure_pool(be);
    return st == RLX_OK ? rlxb_compile(backend, graph, options, out)
                        : st;
}

static rlx_status blas_buffer_create(void *backend, uint32_t device_index,
                                     const rlx_tensor_desc *desc,
                                     const void *data, rlx_buffer **out)
{
    rlxb_backend *be = backend;
    /* Each buffer gets an id never reused in this process, so a packed
     * copy of a weight is never mistaken for that of a new buffer made
     * at a freed one's address (ids start above RLXB_KEY_CONST). */
    static atomic_uint_least64_t next_id = RLXB_KEY_CONST + 1;
    rlx_status st =
        rlx__cpu_ref_buffer_create(be->ref, device_index, desc, data, out);
    if (st == RLX_OK)
        (*out)->id = atomic_fetch_add(&next_id, 1);
    return st;
}

static rlx_status blas_buffer_read(void *backend, rlx_buffer *buffer,
                                   void *dst, size_t nbytes)
{
    rlxb_backend *be = backend;
    return rlx__cpu_ref_buffer_read(be->ref, buffer, dst, nbytes);
}

static void blas_buffer_destroy(void *backend, rlx_buffer *buffer)
{
    rlxb_backend *be = backend;
    rlx__cpu_ref_buffer_destroy(be->ref, buffer);
}

static void blas_backend_destroy(void *backend)
{
    rlxb_backend *be = backend;
    rlxb_pool_destroy(be->pool);
    pthread_mutex_destroy(&be->pool_mu);
    rlx__cpu_ref_backend_free(be->ref);
    free(be);
}

static const rlx_backend_vtable blas_vtable = {
    .struct_size = sizeof(rlx_backend_vtable),
    .probe = NULL, /* a CPU backend is always available */
    .supports_op = blas_supports_op,
    .compile = blas_compile,
    .executable_destroy = rlxb_executable_destroy,
    .buffer_create = blas_buffer_create,
    .buffer_read = blas_buffer_read,
    .buffer_destroy = blas_buffer_destroy,
    .execute = rlxb_execute,
    .backend_destroy = blas_backend_destroy,
};

RLX_PLUGIN_EXPORT rlx_status rlx_plugin_init(const rlx_host *host)
{
    if (!host || !host->register_backend)
        return RLX_ERR_INVALID_ARGUMENT;
    rlxb_backend *be = calloc(1, sizeof *be);
    void *ref = rlx__cpu_ref_backend_new(host);
    if (!be || !ref) {
        free(be);
        rlx__cpu_ref_backend_free(ref);
        return rlx_host_report(host, RLX_ERR_OUT_OF_MEMORY,
                               "cpu-openblas: out of memory while "
                               "registering. Fix: free memory and retry");
    }
    be->host = host;
    be->ref = ref;
    pthread_mutex_init(&be->pool_mu, NULL);
    const rlx_backend_info info = {
        .struct_size = sizeof(rlx_backend_info),
        .id = "cpu-openblas",
        .device_kind = RLX_DEVICE_CPU,
        .priority = RLX_PRIORITY_TUNED,
        .flags = RLX_BACKEND_EXECUTES,
        .description = "packed AVX2/AVX-512 sgemm (OpenBLAS when "
                       "portable) and vectorised threaded kernels ("
                       RLXB_VARIANT_NAME " variant); cpu-ref for the "
                       "rest",
        .vtable = &blas_vtable,
        .backend = be,
    };
    rlx_status st = rlx_register_backend(host, &info);
    if (st != RLX_OK) { /* not registered: ours to free */
        pthread_mutex_destroy(&be->pool_mu);
        rlx__cpu_ref_backend_free(ref);
        free(be);
    }
    return st;
}
