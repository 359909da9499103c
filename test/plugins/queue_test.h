/* queue_test.h - "rlxtest.queue.v1", the test plugin queue.c's controls,
 * shared with test-queue.c. */
#ifndef RLX_TEST_QUEUE_TEST_H
#define RLX_TEST_QUEUE_TEST_H

#include <stdint.h>

#define RLXTEST_EXT_QUEUE "rlxtest.queue.v1"

/* Applications never see a backend's own pointer, so these act on the
 * plugin's one backend. */
typedef struct rlxtest_queue {
    uint32_t struct_size;
    /* nonzero: the worker takes no queued run until hold(0) */
    void (*hold)(int on);
    /* the next queued run fails when it executes */
    void (*fail_next)(void);
    /* runs queued so far, runs done, slots called while runs were queued */
    void (*stats)(uint32_t *queued, uint32_t *done, uint32_t *violations);
    /* nonzero: execute_queued stops on entry until pause_submit(0) */
    void (*pause_submit)(int on);
    /* block until an execute_queued has stopped there */
    void (*wait_in_submit)(void);
    /* block until some thread is inside queue_wait */
    void (*wait_in_wait)(void);
} rlxtest_queue;

#endif
