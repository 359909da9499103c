/* queue.c - the "rlx.queue.v1" extension (rlx/queue.h) on the simple
 * backend, as backend "test-queue" on the "qtest" device kind: queued
 * runs execute on a worker thread, in order. It also checks the core's
 * side of the contract: a slot that hands over a buffer or executable
 * that a queued or running run uses (execute, buffer_read, buffer_write,
 * buffer_destroy, executable_destroy) is counted as a violation, and the
 * fallible ones fail. The test drives it through "rlxtest.queue.v1"
 * (queue_test.h):
 *   hold(1)      the worker takes no run until hold(0), so a test can see
 *                runs still queued after submit returned;
 *   fail_next()  the next queued run fails when it executes;
 *   pause_submit(1), wait_in_submit()  execute_queued stops on entry
 *                until pause_submit(0), and the test can wait for that;
 *   wait_in_wait()  returns once some thread is inside queue_wait;
 *   stats()      runs queued so far, runs done, violations. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rlx/queue.h>

#include "queue_test.h"
#include "simple_backend.h"

typedef struct job {
    struct job *next;
    rlx_executable *exe;
    int fail;
    rlx_execute_args args; /* its arrays point into this allocation */
    void *arrays[];
} job;

typedef struct queue_backend {
    simple_backend simple; /* first: the simple slots take it as theirs */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    pthread_t worker;
    int started, stop, held, fail_next;
    int pause, in_submit;      /* pause_submit, wait_in_submit */
    int in_wait;               /* threads inside queue_wait */
    job *head, *tail;
    job *current;              /* the run the worker executes */
    uint32_t queued, done, violations;
    rlx_status error;          /* first failure since the last wait */
    char message[256];
} queue_backend;

static void *work(void *arg)
{
    queue_backend *q = arg;
    pthread_mutex_lock(&q->mu);
    for (;;) {
        while (!q->stop && (q->held || !q->head))
            pthread_cond_wait(&q->cv, &q->mu);
        if (q->stop)
            break;
        job *j = q->head;
        q->head = j->next;
        if (!q->head)
            q->tail = NULL;
        q->current = j;
        pthread_mutex_unlock(&q->mu);
        rlx_status st = j->fail ? RLX_ERR_BACKEND
                                : simple_vtable_io.execute(q, j->exe,
                                                           &j->args);
        pthread_mutex_lock(&q->mu);
        if (st != RLX_OK && q->error == RLX_OK) {
            q->error = st;
            snprintf(q->message, sizeof q->message,
                     "test-queue: queued run %u failed%s. Fix: nothing to "
                     "fix, the test asked for it", q->done + 1,
                     j->fail ? " on purpose" : "");
        }
        q->done++;
        q->current = NULL;
        free(j);
        pthread_cond_broadcast(&q->cv);
    }
    pthread_mutex_unlock(&q->mu);
    return NULL;
}

static int job_uses(const job *j, const rlx_executable *exe,
                    const rlx_buffer *buf)
{
    const rlx_execute_args *a = &j->args;
    if (exe && j->exe == exe)
        return 1;
    for (uint32_t i = 0; buf && i < a->n_params; i++)
        if (a->params[i] == buf)
            return 1;
    for (uint32_t i = 0; buf && a->input_buffers && i < a->n_inputs; i++)
        if (a->input_buffers[i] == buf)
            return 1;
    for (uint32_t i = 0; buf && a->output_buffers && i < a->n_outputs; i++)
        if (a->output_buffers[i] == buf)
            return 1;
    return 0;
}

/* Count a slot handed EXE or BUF while a queued or running run uses it;
 * nonzero if so. Other threads' runs on other objects may be in flight. */
static int violated(queue_backend *q, const rlx_executable *exe,
                    const rlx_buffer *buf)
{
    pthread_mutex_lock(&q->mu);
    int busy = q->current && job_uses(q->current, exe, buf);
    for (const job *j = q->head; !busy && j; j = j->next)
        busy = job_uses(j, exe, buf);
    if (busy)
        q->violations++;
    pthread_mutex_unlock(&q->mu);
    return busy;
}

static rlx_status refuse(queue_backend *q, const char *slot)
{
    char msg[160];
    snprintf(msg, sizeof msg, "test-queue: %s of what a queued run uses. "
             "Fix: the core must wait for the run first", slot);
    return rlx_host_report(q->simple.host, RLX_ERR_STATE, msg);
}

/* A copy of ARGS and its arrays: the core's are its own after return. */
static job *job_new(rlx_executable *exe, const rlx_execute_args *a)
{
    uint32_t n = a->n_params + 2 * (a->n_inputs + a->n_outputs);
    job *j = calloc(1, sizeof *j + n * sizeof(void *));
    if (!j)
        return NULL;
    j->exe = exe;
    j->args = *a;
    void **at = j->arrays;
#define COPY(field, count)                                                 \
    do {                                                                   \
        if (a->field) {                                                    \
            memcpy(at, a->field, (count) * sizeof(void *));                \
            memcpy(&j->args.field, &at, sizeof at);                        \
        }                                                                  \
        at += (count);                                                     \
    } while (0)
    COPY(params, a->n_params);
    COPY(inputs, a->n_inputs);
    COPY(outputs, a->n_outputs);
    COPY(input_buffers, a->n_inputs);
    COPY(output_buffers, a->n_outputs);
#undef COPY
    return j;
}

static rlx_status execute_queued(void *bd, rlx_executable *exe,
                                 const rlx_execute_args *args)
{
    queue_backend *q = bd;
    job *j = job_new(exe, args);
    if (!j)
        return rlx_host_report(q->simple.host, RLX_ERR_OUT_OF_MEMORY,
                               "test-queue: out of memory. Fix: free memory");
    pthread_mutex_lock(&q->mu);
    if (q->pause) {
        q->in_submit = 1;
        pthread_cond_broadcast(&q->cv);
        while (q->pause)
            pthread_cond_wait(&q->cv, &q->mu);
        q->in_submit = 0;
    }
    if (!q->started) {
        if (pthread_create(&q->worker, NULL, work, q) != 0) {
            pthread_mutex_unlock(&q->mu);
            free(j);
            return rlx_host_report(q->simple.host, RLX_ERR_BACKEND,
                                   "test-queue: no worker thread. Fix: "
                                   "raise the process's thread limit");
        }
        q->started = 1;
    }
    j->fail = q->fail_next;
    q->fail_next = 0;
    if (q->tail)
        q->tail->next = j;
    else
        q->head = j;
    q->tail = j;
    q->queued++;
    pthread_cond_broadcast(&q->cv);
    pthread_mutex_unlock(&q->mu);
    return RLX_OK;
}

static rlx_status queue_wait(void *bd, uint32_t device)
{
    queue_backend *q = bd;
    (void)device;
    pthread_mutex_lock(&q->mu);
    q->in_wait++;
    pthread_cond_broadcast(&q->cv);
    while (q->head || q->current)
        pthread_cond_wait(&q->cv, &q->mu);
    q->in_wait--;
    rlx_status st = q->error;
    char message[sizeof q->message];
    memcpy(message, q->message, sizeof message);
    q->error = RLX_OK;
    pthread_mutex_unlock(&q->mu);
    return st == RLX_OK ? RLX_OK
                        : rlx_host_report(q->simple.host, st, message);
}

static queue_backend *the_backend; /* for the test's controls */

/* set one of the backend's flags and wake whoever waits on it */
static void set_flag(int *flag, int on)
{
    queue_backend *q = the_backend;
    pthread_mutex_lock(&q->mu);
    *flag = on;
    pthread_cond_broadcast(&q->cv);
    pthread_mutex_unlock(&q->mu);
}

static void hold(int on)
{
    set_flag(&the_backend->held, on);
}

static void fail_next(void)
{
    set_flag(&the_backend->fail_next, 1);
}

static void stats(uint32_t *queued, uint32_t *done, uint32_t *violations)
{
    queue_backend *q = the_backend;
    pthread_mutex_lock(&q->mu);
    *queued = q->queued;
    *done = q->done;
    *violations = q->violations;
    pthread_mutex_unlock(&q->mu);
}

static void pause_submit(int on)
{
    set_flag(&the_backend->pause, on);
}

static void wait_in_submit(void)
{
    queue_backend *q = the_backend;
    pthread_mutex_lock(&q->mu);
    while (!q->in_submit)
        pthread_cond_wait(&q->cv, &q->mu);
    pthread_mutex_unlock(&q->mu);
}

static void wait_in_wait(void)
{
    queue_backend *q = the_backend;
    pthread_mutex_lock(&q->mu);
    while (!q->in_wait)
        pthread_cond_wait(&q->cv, &q->mu);
    pthread_mutex_unlock(&q->mu);
}

static const rlx_ext_queue queue_ext = {
    .struct_size = sizeof queue_ext,
    .execute_queued = execute_queued,
    .queue_wait = queue_wait,
};

static const rlxtest_queue test_ext = {
    .struct_size = sizeof test_ext,
    .hold = hold,
    .fail_next = fail_next,
    .stats = stats,
    .pause_submit = pause_submit,
    .wait_in_submit = wait_in_submit,
    .wait_in_wait = wait_in_wait,
};

static const void *get_extension(void *bd, const char *name)
{
    (void)bd;
    if (strcmp(name, RLX_EXT_QUEUE) == 0)
        return &queue_ext;
    if (strcmp(name, RLXTEST_EXT_QUEUE) == 0)
        return &test_ext;
    return NULL;
}

/* ---- the simple slots, guarded ---------------------------------------- */

static rlx_status execute(void *bd, rlx_executable *exe,
                          const rlx_execute_args *args)
{
    return violated(bd, exe, NULL) ? refuse(bd, "execute")
                        : simple_vtable_io.execute(bd, exe, args);
}

static rlx_status buffer_read(void *bd, rlx_buffer *b, void *dst, size_t n)
{
    return violated(bd, NULL, b) ? refuse(bd, "buffer_read")
                        : simple_vtable_io.buffer_read(bd, b, dst, n);
}

static rlx_status buffer_write(void *bd, rlx_buffer *b, const void *src,
                               size_t n)
{
    return violated(bd, NULL, b) ? refuse(bd, "buffer_write")
                        : simple_vtable_io.buffer_write(bd, b, src, n);
}

static void buffer_destroy(void *bd, rlx_buffer *b)
{
    violated(bd, NULL, b); /* counted; freed anyway: the slot cannot fail */
    simple_vtable_io.buffer_destroy(bd, b);
}

static void executable_destroy(void *bd, rlx_executable *exe)
{
    violated(bd, exe, NULL);
    simple_vtable_io.executable_destroy(bd, exe);
}

static void backend_destroy(void *bd)
{
    queue_backend *q = bd;
    pthread_mutex_lock(&q->mu);
    q->stop = 1;
    pthread_cond_broadcast(&q->cv);
    pthread_mutex_unlock(&q->mu);
    if (q->started)
        pthread_join(q->worker, NULL);
    while (q->head) {
        job *j = q->head;
        q->head = j->next;
        free(j);
    }
    pthread_cond_destroy(&q->cv);
    pthread_mutex_destroy(&q->mu);
    free(q);
}

static rlx_backend_vtable vtable;

RLX_PLUGIN_EXPORT rlx_status rlx_plugin_init(const rlx_host *host)
{
    queue_backend *q = calloc(1, sizeof *q);
    if (!q)
        return rlx_host_report(host, RLX_ERR_OUT_OF_MEMORY,
                               "out of memory. Fix: free memory");
    q->simple = (simple_backend){ .host = host, .devices = 1,
                                  .device_io = 1 };
    pthread_mutex_init(&q->mu, NULL);
    pthread_cond_init(&q->cv, NULL);
    vtable = simple_vtable_io;
    vtable.execute = execute;
    vtable.buffer_read = buffer_read;
    vtable.buffer_write = buffer_write;
    vtable.buffer_destroy = buffer_destroy;
    vtable.executable_destroy = executable_destroy;
    vtable.backend_destroy = backend_destroy;
    vtable.get_extension = get_extension;
    rlx_backend_info info = {
        .struct_size = sizeof info,
        .id = "test-queue",
        .device_kind = RLX_DEVICE_CUSTOM,
        .device_name = "qtest",
        .priority = RLX_PRIORITY_DEFAULT,
        .flags = RLX_BACKEND_EXECUTES | RLX_BACKEND_DEVICE_IO,
        .description = "test plugin: runs queued on a worker thread",
        .vtable = &vtable,
        .backend = q,
    };
    rlx_status st = host->register_backend(host, RLX_ABI_VERSION, &info);
    if (st != RLX_OK)
        backend_destroy(q);
    else
        the_backend = q;
    return st;
}
