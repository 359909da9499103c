/*
 * pool.c - the backend's own worker threads for elementwise, row and
 * reduction kernels. Created at the first compile (never at load: a
 * variant that the loader only scores must not start threads) and joined
 * in backend_destroy. One parallel loop runs at a time; a second
 * executable that finds the pool busy runs its loop on its own thread,
 * so threads never pile up beyond the core count. sgemm runs on the
 * calling thread and uses OpenBLAS's threads while ours sleep.
 */
#include <stdatomic.h>
#include <stdlib.h>

#include "blas_internal.h"

struct rlx__blas_pool {
    pthread_mutex_t busy;     /* held by the loop in progress */
    pthread_mutex_t mu;
    pthread_cond_t wake, done;
    unsigned n_workers;
    pthread_t *workers;
    uint64_t generation;      /* bumped for each loop */
    unsigned running;         /* workers still inside the loop */
    int stop;
    /* the loop in progress */
    rlx__blas_task_fn fn;
    void *ctx;
    size_t n, chunk;
    atomic_size_t next;
};

static void drain(rlx__blas_pool *p)
{
    for (;;) {
        size_t b = atomic_fetch_add(&p->next, p->chunk);
        if (b >= p->n)
            return;
        size_t e = b + p->chunk < p->n ? b + p->chunk : p->n;
        p->fn(p->ctx, b, e);
    }
}

static void *worker_main(void *arg)
{
    rlx__blas_pool *p = arg;
    uint64_t seen = 0;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (!p->stop && p->generation == seen)
            pthread_cond_wait(&p->wake, &p->mu);
        if (p->stop)
            break;
        seen = p->generation;
        pthread_mutex_unlock(&p->mu);
        drain(p);
        pthread_mutex_lock(&p->mu);
        if (--p->running == 0)
            pthread_cond_signal(&p->done);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

rlx__blas_pool *rlx__blas_pool_create(unsigned n_threads)
{
    rlx__blas_pool *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    pthread_mutex_init(&p->busy, NULL);
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->wake, NULL);
    pthread_cond_init(&p->done, NULL);
    unsigned want = n_threads > 1 ? n_threads - 1 : 0;
    p->workers = calloc(want ? want : 1, sizeof *p->workers);
    if (!p->workers) {
        rlx__blas_pool_destroy(p);
        return NULL;
    }
    for (unsigned i = 0; i < want; i++) {
        if (pthread_create(&p->workers[i], NULL, worker_main, p) != 0)
            break; /* fewer workers is still correct */
        p->n_workers++;
    }
    return p;
}

void rlx__blas_pool_destroy(rlx__blas_pool *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    p->stop = 1;
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

unsigned rlx__blas_pool_threads(const rlx__blas_pool *p)
{
    return p ? p->n_workers + 1 : 1;
}

void rlx__blas_parallel_for(rlx__blas_pool *p, size_t n, size_t grain,
                            rlx__blas_task_fn fn, void *ctx)
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
    p->running = p->n_workers;
    p->generation++;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->mu);
    drain(p);
    pthread_mutex_lock(&p->mu);
    while (p->running != 0)
        pthread_cond_wait(&p->done, &p->mu);
    pthread_mutex_unlock(&p->mu);
    pthread_mutex_unlock(&p->busy);
}
