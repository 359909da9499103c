/*
 * test-queue.c - rlx_program_submit and rlx_program_wait: runs queued on
 * the device ("rlx.queue.v1", rlx/queue.h). On the test-queue plugin
 * queued runs execute on a worker thread the test can hold back, so a
 * test sees that submit returned before the run did, and the plugin
 * counts every slot the core calls while runs are still queued (the core
 * must wait first). Where runs cannot be queued, submit runs them.
 */
#include <pthread.h>
#include <stdint.h>
#include <time.h>

#include "plugins/queue_test.h"
#include "test-ew.h"

/* A compiled ew program on DEVICE with x, z and z2 bound to tensors (x
 * holding X, or unbound and set from host memory when BIND_X is 0). */
typedef struct fixture {
    rlx_session *s;
    rlx_graph *g;
    rlx_program *p;
    rlx_tensor *x, *z, *z2;
} fixture;

static rlx_tensor *tensor_new(rlx_program *p, const float *data)
{
    rlx_tensor *t = NULL;
    ASSERT_OK(rlx_tensor_create(p, RLX_DTYPE_F32, 2, EW_DIMS, data, &t));
    return t;
}

static fixture fx_open(rlx_runtime *rt, const char *device, const float *x,
                       int bind_x)
{
    fixture f = { 0 };
    f.g = ew_graph();
    ASSERT_OK(rlx_session_create(rt, device, &f.s));
    ASSERT_OK(rlx_session_compile(f.s, f.g, &f.p));
    ASSERT_OK(rlx_program_set_param(f.p, "v", EW_V, sizeof EW_V));
    f.x = tensor_new(f.p, x);
    f.z = tensor_new(f.p, NULL);
    f.z2 = tensor_new(f.p, NULL);
    if (bind_x)
        ASSERT_OK(rlx_program_bind(f.p, RLX_SLOT_INPUT, "x", f.x));
    else
        ASSERT_OK(rlx_program_set_input(f.p, "x", x, 6 * sizeof(float)));
    ASSERT_OK(rlx_program_bind(f.p, RLX_SLOT_OUTPUT, "z", f.z));
    ASSERT_OK(rlx_program_bind(f.p, RLX_SLOT_OUTPUT, "z2", f.z2));
    return f;
}

static void fx_close(fixture *f)
{
    rlx_program_destroy(f->p);
    rlx_tensor_destroy(f->x);
    rlx_tensor_destroy(f->z);
    rlx_tensor_destroy(f->z2);
    rlx_session_destroy(f->s);
    rlx_graph_destroy(f->g);
}

/* Both outputs of F hold ew(X). */
static void fx_expect(const fixture *f, const float x[6])
{
    float z[6], z2[6];
    ew_expect(x, z, z2);
    tensor_expect(f->z, z, 6);
    tensor_expect(f->z2, z2, 6);
}

/* A runtime with cpu-ref and test-queue, and test-queue's controls. */
static rlx_runtime *runtime_queue(const rlxtest_queue **ctl)
{
    rlx_runtime *rt = NULL;
    if (rlx_runtime_create(&rt, RLX_RUNTIME_NO_DISCOVERY) != RLX_OK)
        FAIL("rlx_runtime_create: %s", rlx_last_error());
    ASSERT(getenv("RLX_TEST_PLUGIN_DIR"));
    ASSERT_OK(rlx_runtime_load_plugin(rt, test_plugin("testqueue")));
    const rlx_backend *b = rlx_runtime_find_backend(rt, "test-queue");
    ASSERT(b);
    *ctl = rlx_backend_get_extension(b, RLXTEST_EXT_QUEUE);
    ASSERT(*ctl);
    return rt;
}

static void stats_expect(const rlxtest_queue *ctl, uint32_t queued,
                         uint32_t done)
{
    uint32_t q, d, v;
    ctl->stats(&q, &d, &v);
    ASSERT_EQ(v, 0); /* the core never called a slot with runs queued */
    ASSERT_EQ(q, queued);
    ASSERT_EQ(d, done);
}

/* Releases the worker after a moment, while the test's main thread is
 * (most likely) already blocked in a call that must wait for it. */
static void *release_later(void *arg)
{
    const rlxtest_queue *ctl = arg;
    struct timespec ts = { 0, 20 * 1000 * 1000 };
    nanosleep(&ts, NULL);
    ctl->hold(0);
    return NULL;
}

/* Queue one run of P held back by the worker, and a thread that lets it
 * go in a moment: the caller's next call must wait for it. */
static pthread_t submit_held(const rlxtest_queue *ctl, rlx_program *p)
{
    ctl->hold(1);
    ASSERT_OK(rlx_program_submit(p));
    pthread_t t;
    ASSERT_EQ(pthread_create(&t, NULL, release_later, (void *)ctl), 0);
    return t;
}

/* After submit_held's run: QUEUED runs so far, as many done, none early. */
static void joined_expect(const rlxtest_queue *ctl, pthread_t t,
                          uint32_t queued)
{
    pthread_join(t, NULL);
    stats_expect(ctl, queued, queued);
}

/* ---- queuing ----------------------------------------------------------- */

TEST(submit_returns_before_the_run)
{
    const rlxtest_queue *ctl;
    rlx_runtime *rt = runtime_queue(&ctl);
    ASSERT_EQ(rlx_backend_queues(rlx_runtime_find_backend(rt, "test-queue")),
              1);
    ASSERT_EQ(rlx_backend_queues(rlx_runtime_find_backend(rt, "cpu-ref")), 0);
    ASSERT_EQ(rlx_backend_queues(NULL), 0);
    fixture f = fx_open(rt, "test-queue", E1, 1);

    ctl->hold(1);
    for (int i = 0; i < 3; i++)
        ASSERT_OK(rlx_program_submit(f.p));
    stats_expect(ctl, 3, 0); /* all three still queued */
    ASSERT(!rlx_program_output_data(f.p, 0, NULL)); /* bound: in z */
    ctl->hold(0);
    ASSERT_OK(rlx_program_wait(f.p));
    stats_expect(ctl, 3, 3);
    fx_expect(&f, E1);
    ASSERT_OK(rlx_program_wait(f.p)); /* nothing queued: returns at once */
    fx_close(&f);
    stats_expect(ctl, 3, 3);
    rlx_runtime_destroy(rt);
}

TEST(reading_a_tensor_waits)
{
    const rlxtest_queue *ctl;
    rlx_runtime *rt = runtime_queue(&ctl);
    fixture f = fx_open(rt, "test-queue", E1, 1);

    pthread_t t = submit_held(ctl, f.p);
    fx_expect(&f, E1); /* the read waits for the run */
    joined_expect(ctl, t, 1);

    /* a write waits too: the queued run still reads x */
    t = submit_held(ctl, f.p);
    ASSERT_OK(rlx_tensor_write(f.x, E2, sizeof E2));
    joined_expect(ctl, t, 2);
    ASSERT_OK(rlx_program_submit(f.p));
    fx_expect(&f, E2);
    stats_expect(ctl, 3, 3);
    fx_close(&f);
    rlx_runtime_destroy(rt);
}

TEST(runs_keep_their_order_across_programs)
{
    const rlxtest_queue *ctl;
    rlx_runtime *rt = runtime_queue(&ctl);
    fixture a = fx_open(rt, "test-queue", E1, 1);
    fixture b = fx_open(rt, "test-queue", E2, 1);
    /* b reads what a writes: b.x = a.z */
    ASSERT_OK(rlx_program_bind(b.p, RLX_SLOT_INPUT, "x", a.z));

    ctl->hold(1);
    ASSERT_OK(rlx_program_submit(a.p));
    ASSERT_OK(rlx_program_submit(b.p));
    stats_expect(ctl, 2, 0);
    ctl->hold(0);
    ASSERT_OK(rlx_program_wait(b.p));
    float z[6], z2[6];
    ew_expect(E1, z, z2);
    fx_expect(&b, z);
    fx_close(&b);
    fx_close(&a);
    stats_expect(ctl, 2, 2);
    rlx_runtime_destroy(rt);
}

TEST(set_param_and_destroy_wait)
{
    const rlxtest_queue *ctl;
    rlx_runtime *rt = runtime_queue(&ctl);
    fixture f = fx_open(rt, "test-queue", E1, 1);

    pthread_t t = submit_held(ctl, f.p);
    ASSERT_OK(rlx_program_set_param(f.p, "v", EW_V, sizeof EW_V));
    joined_expect(ctl, t, 1);

    /* a synchronous run after queued ones waits for them first */
    t = submit_held(ctl, f.p);
    ASSERT_OK(rlx_program_run(f.p));
    joined_expect(ctl, t, 2);

    t = submit_held(ctl, f.p);
    fx_close(&f); /* executable and tensors go only after the run */
    joined_expect(ctl, t, 3);
    rlx_runtime_destroy(rt);
}

static void *submit_thread(void *arg)
{
    return (void *)(intptr_t)rlx_program_submit(arg);
}

/* A wait that another thread makes while a submit is under way (the
 * device already marked, the run not queued yet) must not leave the run
 * unwaited-for: the next read still waits for it. */
TEST(a_wait_during_a_submit)
{
    const rlxtest_queue *ctl;
    rlx_runtime *rt = runtime_queue(&ctl);
    fixture f = fx_open(rt, "test-queue", E1, 1);
    ctl->hold(1);
    ctl->pause_submit(1);
    pthread_t t;
    ASSERT_EQ(pthread_create(&t, NULL, submit_thread, f.p), 0);
    ctl->wait_in_submit();
    ASSERT_OK(rlx_program_wait(f.p)); /* nothing queued yet */
    ctl->pause_submit(0);
    void *st;
    pthread_join(t, &st);
    ASSERT_EQ((intptr_t)st, RLX_OK);
    stats_expect(ctl, 1, 0); /* queued, held back */
    ASSERT_EQ(pthread_create(&t, NULL, release_later, (void *)ctl), 0);
    fx_expect(&f, E1); /* waits for the run */
    joined_expect(ctl, t, 1);
    fx_close(&f);
    rlx_runtime_destroy(rt);
}

static void *wait_thread(void *arg)
{
    return (void *)(intptr_t)rlx_program_wait(arg);
}

/* Two threads waiting at once: the second must not return while the
 * first is still waiting for the runs. */
TEST(two_waits_at_once)
{
    const rlxtest_queue *ctl;
    rlx_runtime *rt = runtime_queue(&ctl);
    fixture f = fx_open(rt, "test-queue", E1, 1);
    ctl->hold(1);
    ASSERT_OK(rlx_program_submit(f.p));
    pthread_t w, r;
    ASSERT_EQ(pthread_create(&w, NULL, wait_thread, f.p), 0);
    ctl->wait_in_wait(); /* the first waiter is blocked in queue_wait */
    ASSERT_EQ(pthread_create(&r, NULL, release_later, (void *)ctl), 0);
    ASSERT_OK(rlx_program_wait(f.p));
    stats_expect(ctl, 1, 1); /* it returned only once the run was done */
    void *st;
    pthread_join(w, &st);
    ASSERT_EQ((intptr_t)st, RLX_OK);
    pthread_join(r, NULL);
    fx_expect(&f, E1);
    fx_close(&f);
    rlx_runtime_destroy(rt);
}

/* ---- failures ---------------------------------------------------------- */

TEST(a_failed_run_is_reported_once)
{
    const rlxtest_queue *ctl;
    rlx_runtime *rt = runtime_queue(&ctl);
    fixture f = fx_open(rt, "test-queue", E1, 1);

    ctl->fail_next();
    ASSERT_OK(rlx_program_submit(f.p)); /* fails only when it runs */
    ASSERT_OK(rlx_program_submit(f.p));
    ASSERT_EQ(rlx_program_wait(f.p), RLX_ERR_BACKEND);
    ASSERT_CONTAINS(rlx_last_error(), "test-queue");
    ASSERT_CONTAINS(rlx_last_error(), "queued run 1 failed on purpose");
    ASSERT_CONTAINS(rlx_last_error(), "Fix:");
    ASSERT_OK(rlx_program_wait(f.p)); /* reported once */
    fx_expect(&f, E1); /* the second run went through */

    /* without an explicit wait, the read that waits reports it */
    ctl->fail_next();
    ASSERT_OK(rlx_program_submit(f.p));
    float got[6];
    ASSERT_EQ(rlx_tensor_read(f.z, got, sizeof got), RLX_ERR_BACKEND);
    ASSERT_CONTAINS(rlx_last_error(), "failed on purpose");
    fx_expect(&f, E1);
    stats_expect(ctl, 3, 3);
    fx_close(&f);
    rlx_runtime_destroy(rt);
}

TEST(bad_calls)
{
    const rlxtest_queue *ctl;
    rlx_runtime *rt = runtime_queue(&ctl);
    ASSERT_EQ(rlx_program_submit(NULL), RLX_ERR_INVALID_ARGUMENT);
    ASSERT_EQ(rlx_program_wait(NULL), RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(rlx_last_error(), "Fix:");

    rlx_session *s = NULL;
    rlx_graph *g = ew_graph();
    rlx_program *p = NULL;
    ASSERT_OK(rlx_session_create(rt, "test-queue", &s));
    ASSERT_OK(rlx_session_compile(s, g, &p));
    ASSERT_OK(rlx_program_set_param(p, "v", EW_V, sizeof EW_V));
    ASSERT_EQ(rlx_program_submit(p), RLX_ERR_STATE); /* x not set */
    ASSERT_CONTAINS(rlx_last_error(), "before rlx_program_submit");
    stats_expect(ctl, 0, 0);
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_graph_destroy(g);
    rlx_runtime_destroy(rt);
}

/* ---- where runs cannot be queued, submit runs ------------------------ */

TEST(host_memory_runs_at_once)
{
    const rlxtest_queue *ctl;
    rlx_runtime *rt = runtime_queue(&ctl);
    fixture f = fx_open(rt, "test-queue", E2, 0); /* x from host memory */
    ctl->hold(1); /* would block a queued run: this one is not */
    ASSERT_OK(rlx_program_submit(f.p));
    stats_expect(ctl, 0, 0);
    ctl->hold(0);
    fx_expect(&f, E2);

    /* an output in host memory too: there right after submit */
    ASSERT_OK(rlx_program_bind(f.p, RLX_SLOT_OUTPUT, "z2", NULL));
    ASSERT_OK(rlx_program_submit(f.p));
    size_t n = 0;
    const float *z2 = rlx_program_output_data(f.p, 1, &n);
    ASSERT(z2);
    ASSERT_EQ(n, sizeof E2);
    float want_z[6], want_z2[6];
    ew_expect(E2, want_z, want_z2);
    ASSERT(memcmp(z2, want_z2, sizeof want_z2) == 0);
    fx_close(&f);
    rlx_runtime_destroy(rt);
}

TEST(backend_without_a_queue)
{
    const rlxtest_queue *ctl;
    rlx_runtime *rt = runtime_queue(&ctl);
    fixture f = fx_open(rt, "cpu-ref", E1, 1);
    ASSERT_OK(rlx_program_submit(f.p));
    ASSERT_OK(rlx_program_wait(f.p));
    fx_expect(&f, E1);
    fx_close(&f);
    stats_expect(ctl, 0, 0);
    rlx_runtime_destroy(rt);
}

/* ---- threads ----------------------------------------------------------- */

typedef struct worker_arg {
    rlx_runtime *rt;
    const float *x;
    int failures;
} worker_arg;

/* Its own program on the shared device: submit 40 runs, wait, check. */
static void *submit_many(void *arg)
{
    worker_arg *w = arg;
    rlx_session *s = NULL;
    rlx_program *p = NULL;
    rlx_tensor *x = NULL, *z = NULL, *z2 = NULL;
    rlx_graph *g = ew_build();
    float got[6], want_z[6], want_z2[6];
    ew_expect(w->x, want_z, want_z2);
    int ok = g && rlx_session_create(w->rt, "test-queue", &s) == RLX_OK &&
             rlx_session_compile(s, g, &p) == RLX_OK &&
             rlx_program_set_param(p, "v", EW_V, sizeof EW_V) == RLX_OK &&
             rlx_tensor_create(p, RLX_DTYPE_F32, 2, EW_DIMS, w->x, &x) ==
                 RLX_OK &&
             rlx_tensor_create(p, RLX_DTYPE_F32, 2, EW_DIMS, NULL, &z) ==
                 RLX_OK &&
             rlx_tensor_create(p, RLX_DTYPE_F32, 2, EW_DIMS, NULL, &z2) ==
                 RLX_OK &&
             rlx_program_bind(p, RLX_SLOT_INPUT, "x", x) == RLX_OK &&
             rlx_program_bind(p, RLX_SLOT_OUTPUT, "z", z) == RLX_OK &&
             rlx_program_bind(p, RLX_SLOT_OUTPUT, "z2", z2) == RLX_OK;
    for (int i = 0; ok && i < 40; i++)
        ok = rlx_program_submit(p) == RLX_OK;
    ok = ok && rlx_program_wait(p) == RLX_OK &&
         rlx_tensor_read(z, got, sizeof got) == RLX_OK &&
         memcmp(got, want_z, sizeof got) == 0 &&
         rlx_tensor_read(z2, got, sizeof got) == RLX_OK &&
         memcmp(got, want_z2, sizeof got) == 0;
    w->failures = !ok;
    rlx_program_destroy(p);
    rlx_tensor_destroy(x);
    rlx_tensor_destroy(z);
    rlx_tensor_destroy(z2);
    rlx_session_destroy(s);
    rlx_graph_destroy(g);
    return NULL;
}

TEST(threads_submit_to_one_device)
{
    const rlxtest_queue *ctl;
    rlx_runtime *rt = runtime_queue(&ctl);
    worker_arg w[2] = { { rt, E1, 0 }, { rt, E2, 0 } };
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        ASSERT_EQ(pthread_create(&t[i], NULL, submit_many, &w[i]), 0);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    ASSERT_EQ(w[0].failures, 0);
    ASSERT_EQ(w[1].failures, 0);
    uint32_t q, d, v;
    ctl->stats(&q, &d, &v);
    ASSERT_EQ(q, 80);
    ASSERT_EQ(d, 80);
    rlx_runtime_destroy(rt);
}

RLX_TEST_LIST(TEST_ENTRY(submit_returns_before_the_run),
              TEST_ENTRY(reading_a_tensor_waits),
              TEST_ENTRY(runs_keep_their_order_across_programs),
              TEST_ENTRY(set_param_and_destroy_wait),
              TEST_ENTRY(a_wait_during_a_submit),
              TEST_ENTRY(two_waits_at_once),
              TEST_ENTRY(a_failed_run_is_reported_once),
              TEST_ENTRY(bad_calls),
              TEST_ENTRY(host_memory_runs_at_once),
              TEST_ENTRY(backend_without_a_queue),
              TEST_ENTRY(threads_submit_to_one_device));
