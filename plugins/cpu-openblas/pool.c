/*
 * pool.c - the backend's own worker threads for sgemm, elementwise, row
 * and reduction kernels. Created at the first compile (never at load: a
 * variant that the loader only scores must not start threads) and joined
 * in backend_destroy. One parallel loop runs at a time; a second
 * executable that finds the pool busy runs its loop on its own thread,
 * so threads never pile up beyond the core count.
 *
 * Latency matters more than fairness here (a layer of a batch-1 MLP is
 * tens of microseconds): a worker spins for up to 0.2 ms after a loop
 * before it sleeps, so the next layer's loop finds it awake; the caller
 * never waits for a worker that has not started yet: it runs the chunks
 * itself and closes the loop, and a late worker finds it closed; and a
 * caller whose workers are still on their last chunk polls for them for
 * as long before it sleeps, as a futex wake-up costs tens of
 * microseconds in a virtual machine.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#include "blas_internal.h"
#include "sgemm.h"

/* How long a worker polls for the next loop before it sleeps, in
 * nanoseconds (by the clock: a pause lasts from a few to a hundred
 * cycles depending on the CPU). Not in the portable variant: there
 * OpenBLAS's own threads run the matmuls (and spin after them), and
 * spinning workers would take turns with them. */
#if RLX__SGEMM_NR
#define SPIN_NS 200000
#else
#define SPIN_NS 0
#endif

struct rlxb_pool {
    pthread_mutex_t busy;     /* held by the loop in progress */
    pthread_mutex_t mu;
    pthread_cond_t wake, done;
    unsigned n_workers;
    pthread_t *workers;
    atomic_uint_fast64_t generation; /* bumped for each loop (under mu) */
    int open;                 /* the loop still takes workers (mu) */
    atomic_uint joined;       /* workers inside the loop (grows under mu) */
    int waiting;              /* the caller sleeps on done (mu) */
    unsigned sleeping;        /* workers in cond_wait (mu) */
    int stop;                 /* (mu) */
    /* the loop in progress (written under mu before open) */
    rlxb_task_fn fn;
    void *ctx;
    size_t n, chunk;
    atomic_size_t next;
};

static void drain(rlxb_pool *p)
{
    for (;;) {
        size_t b = atomic_fetch_add(&p->next, p->chunk);
        if (b >= p->n)
            return;
        size_t e = b + p->chunk < p->n ? b + p->chunk : p->n;
        p->fn(p->ctx, b, e);
    }
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

static uint64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static void *worker_main(void *arg)
{
    rlxb_pool *p = arg;
    uint64_t seen = 0;
    for (;;) {
        /* spin a little: the next loop (layer) usually follows soon */
        if (SPIN_NS > 0) {
            uint64_t until = now_ns() + SPIN_NS;
            for (unsigned i = 1;
                 atomic_load_explicit(&p->generation,
                                      memory_order_relaxed) == seen;
                 i++) {
                cpu_relax();
                if (i % 64 == 0 && now_ns() > until)
                    break;
            }
        }
        pthread_mutex_lock(&p->mu);
        while (!p->stop && atomic_load(&p->generation) == seen) {
            p->sleeping++;
            pthread_cond_wait(&p->wake, &p->mu);
            p->sleeping--;
        }
        if (p->stop) {
            pthread_mutex_unlock(&p->mu);
            return NULL;
        }
        seen = atomic_load(&p->generation);
        if (!p->open) { /* too late: the caller finished it alone */
            pthread_mutex_unlock(&p->mu);
            continue;
        }
        atomic_fetch_add(&p->joined, 1);
        pthread_mutex_unlock(&p->mu);
        drain(p);
        if (atomic_fetch_sub(&p->joined, 1) == 1) { /* the last one out */
            pthread_mutex_lock(&p->mu);
            if (p->waiting)
                pthread_cond_signal(&p->done);
            pthread_mutex_unlock(&p->mu);
        }
    }
}

rlxb_pool *rlxb_pool_create(unsigned n_threads)
{
    rlxb_pool *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    pthread_mutex_init(&p->busy, NULL);
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->wake, NULL);
    pthread_cond_init(&p->done, NULL);
    atomic_init(&p->generation, 0);
    atomic_init(&p->next, 0);
    atomic_init(&p->joined, 0);
    unsigned want = n_threads > 1 ? n_threads - 1 : 0;
    p->workers = calloc(want ? want : 1, sizeof *p->workers);
    if (!p->workers) {
        rlxb_pool_destroy(p);
        return NULL;
    }
    for (unsigned i = 0; i < want; i++) {
        if (pthread_create(&p->workers[i], NULL, worker_main, p) != 0)
            break; /* fewer workers is still correct */
        p->n_workers++;
    }
    return p;
}

void rlxb_pool_destroy(rlxb_pool *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    p->stop = 1;
    atomic_fetch_add(&p->generation, 1); /* ends the spinning too */
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->mu);
    for (unsigned i = 0; i < p->n_workers; i++)
        pthread_join(p->workers[i], NULL);
    free(p->workers);
    pthread_cond_destroy(&p->done);
    pthread_cond_destroy(&p->wake);
    pthread_mutex_destroy(&p->mu);
    pthread_mutex_destroy(&p->busy);
    free(p);
}

unsigned rlxb_pool_threads(const rlxb_pool *p)
{
    return p ? p->n_workers + 1 : 1;
}

void rlxb_parallel_for(rlxb_pool *p, size_t n, size_t grain,
                            rlxb_task_fn fn, void *ctx)
{
    if (n == 0)
        return;
    if (grain == 0)
        grain = 1;
    if (!p || p->n_workers == 0 || n <= grain ||
        pthread_mutex_trylock(&p->busy) != 0) {
        fn(ctx, 0, n);
        return;
    }
    /* about four chunks per thread, none smaller than GRAIN */
    size_t threads = p->n_workers + 1;
    size_t chunk = (n + 4 * threads - 1) / (4 * threads);
    if (chunk < grain)
        chunk = grain;
    pthread_mutex_lock(&p->mu);
    p->fn = fn;
    p->ctx = ctx;
    p->n = n;
    p->chunk = chunk;
    atomic_store(&p->next, 0);
    p->open = 1;
    atomic_fetch_add(&p->generation, 1);
    if (p->sleeping)
        pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->mu);
    drain(p);
    /* every chunk is taken: close the loop, wait for those inside it,
     * polling first: they are on their last chunk */
    pthread_mutex_lock(&p->mu);
    p->open = 0;
    pthread_mutex_unlock(&p->mu);
    if (SPIN_NS > 0) {
        uint64_t until = now_ns() + SPIN_NS;
        for (unsigned i = 1; atomic_load(&p->joined) != 0; i++) {
            cpu_relax();
            if (i % 64 == 0 && now_ns() > until)
                break;
        }
    }
    pthread_mutex_lock(&p->mu);
    p->waiting = 1;
    while (atomic_load(&p->joined) != 0)
        pthread_cond_wait(&p->done, &p->mu);
    p->waiting = 0;
    pthread_mutex_unlock(&p->mu);
    pthread_mutex_unlock(&p->busy);
}
