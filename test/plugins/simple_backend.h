/*
 * simple_backend.h - a tiny elementwise executor (add, mul, relu on
 * same-shaped f32 tensors) shared by the test plugins. Written against
 * the plugin-abi headers alone, as an out-of-tree backend would be.
 */
#ifndef RLX_TEST_SIMPLE_BACKEND_H
#define RLX_TEST_SIMPLE_BACKEND_H

#include <rlx/plugin.h>

typedef struct simple_backend {
    const rlx_host *host;
    uint32_t devices;       /* what probe reports */
    const char *unavailable_env; /* probe fails while this is set */
    uint32_t probe_flags;   /* RLX_PROBE_* the probe reports */
    int wrong_add;          /* only add, and it subtracts (conformance) */
    int device_io;          /* registered with RLX_BACKEND_DEVICE_IO */
    int relu_nan_zero;      /* relu(NaN) = 0: breaks docs/ops.md on purpose */
} simple_backend;

/* Vtable whose slots expect a simple_backend as their first argument. */
extern const rlx_backend_vtable simple_vtable;
/* The same with buffer_write, for backends registered with
 * RLX_BACKEND_DEVICE_IO (and device_io set): execute then reads bound
 * inputs straight from their buffers and writes bound outputs there. */
extern const rlx_backend_vtable simple_vtable_io;

#endif
