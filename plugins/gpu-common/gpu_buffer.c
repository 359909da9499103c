/*
 * gpu_buffer.c - buffers in device memory: params, uploaded once when
 * the application sets them, and (device I/O) tensors the application
 * binds as run inputs and outputs; both are bound by pointer into every
 * run, so they never cross the bus again.
 */
#include <stdint.h>
#include <stdlib.h>

#include "gpu_internal.h"

/* DESC's size in bytes into *NBYTES; WHAT names the slot in errors. */
static rlx_status buffer_bytes(rlxg_backend *be, const rlx_tensor_desc *desc,
                               const char *what, size_t *nbytes)
{
    if (!desc ||
        !RLX_HAS_FIELD(desc->struct_size, rlx_tensor_desc, shape) ||
        (desc->rank && !desc->shape))
        return rlx_kit_fail(be->host, RLX_ERR_INVALID_ARGUMENT,
                            RLXG_NAME " %s: missing or truncated tensor "
                            "description. Fix: pass an rlx_tensor_desc with "
                            "struct_size = sizeof (rlx_tensor_desc)", what);
    size_t elem = rlx_dtype_size(desc->dtype);
    if (elem == 0)
        return rlx_kit_fail(be->host, RLX_ERR_UNSUPPORTED,
                            RLXG_NAME " %s: unknown dtype %d. Fix: use a "
                            "dtype from rlx/types.h", what, (int)desc->dtype);
    size_t count = 1;
    for (uint32_t d = 0; d < desc->rank; d++) {
        if (desc->shape[d] < 0)
            return rlx_kit_fail(be->host, RLX_ERR_INVALID_ARGUMENT,
                                RLXG_NAME " %s: negative dim. Fix: pass "
                                "dims >= 0", what);
        size_t dim = (size_t)desc->shape[d];
        if (dim && count > SIZE_MAX / elem / dim)
            return rlx_kit_fail(be->host, RLX_ERR_OUT_OF_MEMORY,
                                RLXG_NAME " %s: tensor size overflows. Fix: "
                                "use smaller dims", what);
        count *= dim;
    }
    *nbytes = count * elem;
    return RLX_OK;
}

rlx_status rlxg_buffer_create(void *backend, uint32_t device_index,
                              const rlx_tensor_desc *desc, const void *data,
                              rlx_buffer **out)
{
    rlxg_backend *be = backend;
    size_t nbytes = 0;
    if (!out)
        return rlx_host_report(be->host, RLX_ERR_INVALID_ARGUMENT,
                               RLXG_NAME " buffer_create: NULL out pointer. "
                               "Fix: pass where to store the buffer");
    rlx_status sz = buffer_bytes(be, desc, "buffer_create", &nbytes);
    if (sz != RLX_OK)
        return sz;
    rlx_status st = rlxg_device_use(be, device_index);
    if (st != RLX_OK)
        return st;
    rlx_buffer *buf = calloc(1, sizeof *buf);
    if (!buf)
        return rlx_host_report(be->host, RLX_ERR_OUT_OF_MEMORY,
                               RLXG_NAME " buffer_create: out of host memory. "
                               "Fix: free memory");
    buf->device = device_index;
    buf->dtype = desc->dtype;
    buf->nbytes = nbytes;
    buf->version = rlxg_version_next();
    if (buf->nbytes) {
        gpuError_t err = gpuMalloc(&buf->ptr, buf->nbytes);
        if (err == gpuSuccess)
            err = data ? gpuMemcpy(buf->ptr, data, buf->nbytes,
                                    gpuMemcpyHostToDevice)
                       : gpuMemset(buf->ptr, 0, buf->nbytes);
        if (err != gpuSuccess) {
            if (buf->ptr)
                gpuFree(buf->ptr);
            free(buf);
            return rlxg_gpu_fail(be->host, err,
                                  "buffer_create: cannot allocate or fill "
                                  "a buffer");
        }
    }
    *out = buf;
    return RLX_OK;
}

/* Copy the whole BUFFER to host DST, or from host SRC (the other NULL);
 * WHAT names the slot. */
static rlx_status buffer_copy(rlxg_backend *be, rlx_buffer *buffer,
                              void *dst, const void *src, size_t nbytes,
                              const char *what)
{
    if (!buffer || (nbytes && !dst && !src))
        return rlx_kit_fail(be->host, RLX_ERR_INVALID_ARGUMENT,
                            RLXG_NAME " %s: NULL buffer or host memory. Fix: pass a "
                            "buffer made by " RLXG_NAME " and host memory of its size",
                            what);
    if (nbytes != buffer->nbytes)
        return rlx_kit_fail(be->host, RLX_ERR_INVALID_ARGUMENT,
                            RLXG_NAME " %s: %zu bytes for a %zu-byte buffer. Fix: "
                            "copy exactly the buffer's size", what, nbytes,
                            buffer->nbytes);
    if (!nbytes)
        return RLX_OK;
    rlx_status st = rlxg_device_use(be, buffer->device);
    if (st != RLX_OK)
        return st;
    gpuError_t err =
        dst ? gpuMemcpy(dst, buffer->ptr, nbytes, gpuMemcpyDeviceToHost)
            : gpuMemcpy(buffer->ptr, src, nbytes, gpuMemcpyHostToDevice);
    if (err != gpuSuccess)
        return rlxg_gpu_fail(be->host, err, what);
    return RLX_OK;
}

rlx_status rlxg_buffer_read(void *backend, rlx_buffer *buffer, void *dst,
                            size_t nbytes)
{
    return buffer_copy(backend, buffer, dst, NULL, nbytes, "buffer_read");
}

rlx_status rlxg_buffer_write(void *backend, rlx_buffer *buffer,
                             const void *src, size_t nbytes)
{
    rlx_status st = buffer_copy(backend, buffer, NULL, src, nbytes,
                                "buffer_write");
    if (st == RLX_OK && buffer->version)
        buffer->version = rlxg_version_next();
    return st;
}

uint64_t rlxg_version_next(void)
{
    static uint64_t last;
    return __atomic_add_fetch(&last, 1, __ATOMIC_RELAXED);
}

void rlxg_buffer_destroy(void *backend, rlx_buffer *buffer)
{
    rlxg_backend *be = backend;
    if (!buffer)
        return;
    if (buffer->ptr && !buffer->borrowed &&
        rlxg_device_use(be, buffer->device) == RLX_OK)
        gpuFree(buffer->ptr);
    free(buffer);
}

/* ---- rlx.memory.v1: buffers are plain device allocations -------------- */

static rlx_status gpu_device_memory(void *backend, uint32_t device_index,
                                    int32_t *kind, int32_t *id)
{
    (void)backend;
    if (!kind || !id)
        return RLX_ERR_INVALID_ARGUMENT;
#ifdef RLXG_HIP
    *kind = RLX_MEMORY_ROCM;
#else
    *kind = RLX_MEMORY_CUDA;
#endif
    *id = (int32_t)device_index; /* our index is the runtime's ordinal */
    return RLX_OK;
}

static rlx_status gpu_buffer_address(void *backend, rlx_buffer *buffer,
                                     void **address)
{
    (void)backend;
    if (!buffer || !address)
        return RLX_ERR_INVALID_ARGUMENT;
    buffer->version = 0; /* written where we cannot see from now on */
    *address = buffer->ptr;
    return RLX_OK;
}

static rlx_status gpu_buffer_wrap(void *backend, uint32_t device_index,
                                  const rlx_tensor_desc *desc, void *address,
                                  rlx_buffer **out)
{
    rlxg_backend *be = backend;
    size_t nbytes = 0;
    rlx_status st = buffer_bytes(be, desc, "buffer_wrap", &nbytes);
    if (st != RLX_OK)
        return st;
    if (!out || (!address && nbytes) ||
        (uintptr_t)address % rlx_dtype_size(desc->dtype) != 0)
        return rlx_kit_fail(be->host, RLX_ERR_INVALID_ARGUMENT,
                            RLXG_NAME " buffer_wrap: NULL or misaligned "
                            "address. Fix: wrap memory aligned to the "
                            "element size");
    if ((st = rlxg_device_use(be, device_index)) != RLX_OK)
        return st;
    rlx_buffer *buf = calloc(1, sizeof *buf);
    if (!buf)
        return rlx_host_report(be->host, RLX_ERR_OUT_OF_MEMORY,
                               RLXG_NAME " buffer_wrap: out of host memory. "
                               "Fix: free memory");
    buf->device = device_index;
    buf->dtype = desc->dtype;
    buf->nbytes = nbytes;
    buf->ptr = nbytes ? address : NULL;
    buf->borrowed = 1;
    *out = buf;
    return RLX_OK;
}

const rlx_ext_memory rlxg_memory_ext = {
    .struct_size = sizeof(rlx_ext_memory),
    .device_memory = gpu_device_memory,
    .buffer_address = gpu_buffer_address,
    .buffer_wrap = gpu_buffer_wrap,
};
