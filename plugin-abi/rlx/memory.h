/*
 * rlx/memory.h - the "rlx.memory.v1" extension: where a backend's buffers
 * live, so tensors can be shared with other libraries without copies.
 *
 * PyTorch, CuPy and JAX exchange tensors through DLPack: an address in a
 * device's memory plus the device's kind and number. A backend whose
 * buffers are plain memory of such a device (host memory, a CUDA or ROCm
 * allocation) returns this table from get_extension (ABI 1.4); the core
 * then gives applications a tensor's address (rlx_tensor_memory) and
 * lets them wrap memory they own as a tensor (rlx_tensor_wrap). A backend
 * whose buffers have no such address (Vulkan, PJRT) has no table, and
 * both calls say so.
 *
 * Version 1 of the table; it may only grow at the end (struct_size).
 */
#ifndef RLX_MEMORY_H
#define RLX_MEMORY_H

#include <stdint.h>

#include "backend.h"
#include "status.h"
#include "types.h" /* RLX_MEMORY_* */

#define RLX_EXT_MEMORY "rlx.memory.v1"

typedef struct rlx_ext_memory {
    uint32_t struct_size;
    /* --- since 1.4 --- */
    /* The memory device INDEX's buffers live in: *KIND one of
     * RLX_MEMORY_*, *ID the number other libraries give that device (the
     * CUDA ordinal). */
    rlx_status (*device_memory)(void *backend, uint32_t device_index,
                                int32_t *kind, int32_t *id);
    /* The address of BUFFER's first byte, valid until buffer_destroy. */
    rlx_status (*buffer_address)(void *backend, rlx_buffer *buffer,
                                 void **address);
    /* A buffer over memory the caller owns (desc's dtype and shape, row-
     * major, aligned to the element size) at ADDRESS on device
     * DEVICE_INDEX: no copy. buffer_destroy frees the handle, never the
     * memory; the caller keeps the memory alive until then. */
    rlx_status (*buffer_wrap)(void *backend, uint32_t device_index,
                              const rlx_tensor_desc *desc, void *address,
                              rlx_buffer **out);
} rlx_ext_memory;

#endif /* RLX_MEMORY_H */
