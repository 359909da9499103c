/*
 * cpu_ref_buffer.c - "device" buffers of the reference backend: a host
 * copy of the data, so params set once are reused by every run, and
 * tensors bound to run inputs and outputs are read and written in place.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <rlx/memory.h>

#include "cpu_ref_internal.h"

rlx_status rlx__cpu_ref_buffer_create(void *backend, uint32_t device_index,
                                      const rlx_tensor_desc *desc,
                                      const void *data, rlx_buffer **out)
{
    const rlx_host *host = ((rlx__cpu_ref *)backend)->host;
    if (!desc || !out ||
        !RLX_HAS_FIELD(desc->struct_size, rlx_tensor_desc, shape))
        return rlx_host_report(host, RLX_ERR_INVALID_ARGUMENT,
                               "cpu-ref buffer_create: missing or truncated "
                               "tensor description. Fix: pass an "
                               "rlx_tensor_desc with struct_size = sizeof "
                               "(rlx_tensor_desc) and a non-NULL out pointer");
    if (device_index != 0)
        return rlx_kit_fail(host, RLX_ERR_INVALID_ARGUMENT,
                            "cpu-ref buffer_create: device index %u "
                            "does not exist. Fix: cpu-ref has one "
                            "device; use index 0",
                            (unsigned)device_index);
    size_t elem = rlx_dtype_size(desc->dtype);
    if (elem == 0)
        return rlx_kit_fail(host, RLX_ERR_UNSUPPORTED,
                            "cpu-ref buffer_create: unknown dtype %d. "
                            "Fix: use a dtype from rlx/types.h",
                            (int)desc->dtype);
    size_t count = 0;
    rlx__cpu_ref_shape shape = { desc->rank, desc->shape };
    int ok = rlx__cpu_ref_shape_count(shape, elem, &count);
    if (ok == 0)
        return rlx_host_report(host, RLX_ERR_INVALID_ARGUMENT,
                               "cpu-ref buffer_create: shape has a negative "
                               "dim or a NULL dims array. Fix: pass rank "
                               "dims, each >= 0");
    if (ok < 0)
        return rlx_host_report(host, RLX_ERR_OUT_OF_MEMORY,
                               "cpu-ref buffer_create: tensor size overflows "
                               "the address space. Fix: use smaller dims");

    rlx_buffer *buf = calloc(1, sizeof *buf);
    size_t nbytes = count * elem;
    unsigned char *bytes = malloc(nbytes ? nbytes : 1);
    if (!buf || !bytes) {
        free(buf);
        free(bytes);
        return rlx_kit_fail(host, RLX_ERR_OUT_OF_MEMORY,
                            "cpu-ref buffer_create: cannot allocate "
                            "%zu bytes. Fix: free memory or use a "
                            "smaller tensor", nbytes);
    }
    if (data && nbytes)
        memcpy(bytes, data, nbytes);
    else if (nbytes) /* no DATA: zeros (RLX_BACKEND_DEVICE_IO) */
        memset(bytes, 0, nbytes);
    buf->dtype = desc->dtype;
    buf->nbytes = nbytes;
    buf->bytes = bytes;
    *out = buf;
    return RLX_OK;
}

rlx_status rlx__cpu_ref_buffer_read(void *backend, rlx_buffer *buffer,
                                    void *dst, size_t nbytes)
{
    const rlx_host *host = ((rlx__cpu_ref *)backend)->host;
    if (!buffer || (nbytes && !dst))
        return rlx_host_report(host, RLX_ERR_INVALID_ARGUMENT,
                               "cpu-ref buffer_read: NULL buffer or "
                               "destination. Fix: pass a buffer made by "
                               "cpu-ref and a destination of its size");
    if (nbytes != buffer->nbytes)
        return rlx_kit_fail(host, RLX_ERR_INVALID_ARGUMENT,
                            "cpu-ref buffer_read: asked for %zu bytes "
                            "of a %zu-byte buffer. Fix: read exactly "
                            "the buffer's size", nbytes,
                            buffer->nbytes);
    if (nbytes)
        memcpy(dst, buffer->bytes, nbytes);
    return RLX_OK;
}

rlx_status rlx__cpu_ref_buffer_write(void *backend, rlx_buffer *buffer,
                                     const void *src, size_t nbytes)
{
    const rlx_host *host = ((rlx__cpu_ref *)backend)->host;
    if (!buffer || (nbytes && !src))
        return rlx_host_report(host, RLX_ERR_INVALID_ARGUMENT,
                               "cpu-ref buffer_write: NULL buffer or "
                               "source. Fix: pass a buffer made by cpu-ref "
                               "and a source of its size");
    if (nbytes != buffer->nbytes)
        return rlx_kit_fail(host, RLX_ERR_INVALID_ARGUMENT,
                            "cpu-ref buffer_write: got %zu bytes for a "
                            "%zu-byte buffer. Fix: write exactly the "
                            "buffer's size", nbytes, buffer->nbytes);
    if (nbytes)
        memcpy(buffer->bytes, src, nbytes);
    return RLX_OK;
}

void rlx__cpu_ref_buffer_destroy(void *backend, rlx_buffer *buffer)
{
    (void)backend;
    if (!buffer)
        return;
    if (!buffer->borrowed)
        free(buffer->bytes);
    free(buffer);
}

/* ---- rlx.memory.v1: the buffers are host memory ----------------------- */

static rlx_status cpu_ref_device_memory(void *backend, uint32_t device_index,
                                        int32_t *kind, int32_t *id)
{
    (void)backend;
    if (device_index != 0 || !kind || !id)
        return RLX_ERR_INVALID_ARGUMENT;
    *kind = RLX_MEMORY_CPU;
    *id = 0;
    return RLX_OK;
}

static rlx_status cpu_ref_buffer_address(void *backend, rlx_buffer *buffer,
                                         void **address)
{
    (void)backend;
    if (!buffer || !address)
        return RLX_ERR_INVALID_ARGUMENT;
    *address = buffer->bytes;
    return RLX_OK;
}

static rlx_status cpu_ref_buffer_wrap(void *backend, uint32_t device_index,
                                      const rlx_tensor_desc *desc,
                                      void *address, rlx_buffer **out)
{
    const rlx_host *host = ((rlx__cpu_ref *)backend)->host;
    size_t elem = desc ? rlx_dtype_size(desc->dtype) : 0;
    size_t count = 0;
    if (!desc || !out || !address || device_index != 0 || elem == 0 ||
        !RLX_HAS_FIELD(desc->struct_size, rlx_tensor_desc, shape) ||
        rlx__cpu_ref_shape_count((rlx__cpu_ref_shape){ desc->rank,
                                                       desc->shape },
                                 elem, &count) != 1 ||
        (uintptr_t)address % elem != 0)
        return rlx_host_report(host, RLX_ERR_INVALID_ARGUMENT,
                               "cpu-ref buffer_wrap: bad description, "
                               "device or address (it must be aligned to "
                               "the element size). Fix: wrap aligned host "
                               "memory on device 0");
    rlx_buffer *buf = calloc(1, sizeof *buf);
    if (!buf)
        return rlx_kit_fail(host, RLX_ERR_OUT_OF_MEMORY,
                            "cpu-ref buffer_wrap: out of memory. Fix: free "
                            "memory");
    buf->dtype = desc->dtype;
    buf->nbytes = count * elem;
    buf->bytes = address;
    buf->borrowed = 1;
    *out = buf;
    return RLX_OK;
}

static const rlx_ext_memory cpu_ref_memory_ext = {
    .struct_size = sizeof(rlx_ext_memory),
    .device_memory = cpu_ref_device_memory,
    .buffer_address = cpu_ref_buffer_address,
    .buffer_wrap = cpu_ref_buffer_wrap,
};

const void *rlx__cpu_ref_get_extension(void *backend, const char *name)
{
    (void)backend;
    if (name && strcmp(name, RLX_EXT_MEMORY) == 0)
        return &cpu_ref_memory_ext;
    return NULL;
}
