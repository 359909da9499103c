/*
 * tensor.c - rlx_tensor: a run input or output that lives in the memory
 * of a program's device. On a backend with RLX_BACKEND_DEVICE_IO it is a
 * backend buffer; elsewhere host memory that runs copy (bind.c).
 * Reference-counted: the application's handle and every binding.
 */
#include <stdlib.h>
#include <string.h>

#include "exec.h"
#include "program.h"

void rlx__tensor_acquire(rlx_tensor *t)
{
    atomic_fetch_add_explicit(&t->refs, 1, memory_order_relaxed);
}

void rlx__tensor_release(rlx_tensor *t)
{
    if (!t || atomic_fetch_sub_explicit(&t->refs, 1,
                                        memory_order_acq_rel) != 1)
        return;
    const rlx_backend *b = t->backend;
    if (t->buffer) {
        rlx__queue_drain(b, t->device_index); /* a queued run may use it */
        b->vt.buffer_destroy(b->backend, t->buffer);
    }
    if (!t->borrowed)
        free(t->host);
    else if (t->release) /* wrapped: the memory goes back to its owner */
        t->release(t->release_ctx);
    free(t);
    rlx__backend_release(b); /* last: may close the plugin */
}

rlx_status rlx_tensor_create(rlx_program *p, rlx_dtype dtype, uint32_t rank,
                             const int64_t *dims, const void *data,
                             rlx_tensor **out)
{
    if (out)
        *out = NULL;
    if (!p || !out)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "rlx_tensor_create: NULL program or OUT. Fix: "
                          "pass the program whose device the tensor is for "
                          "and where to store the tensor");
    size_t nbytes = 0;
    rlx_status st = rlx__shape_check("rlx_tensor_create", dtype, rank, dims,
                                     &nbytes);
    if (st != RLX_OK)
        return st;
    const rlx_backend *b = p->backend;
    rlx_tensor *t = calloc(1, sizeof *t);
    if (!t)
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    t->backend = b;
    t->device_index = p->device_index;
    t->dtype = dtype;
    t->rank = rank;
    if (rank)
        memcpy(t->shape, dims, rank * sizeof *dims);
    t->nbytes = nbytes;
    if (rlx__backend_device_io(b)) {
        rlx_tensor_desc desc = {
            .struct_size = sizeof desc,
            .dtype = dtype,
            .rank = rank,
            .shape = t->shape,
        };
        rlx__report_clear();
        st = b->vt.buffer_create(b->backend, t->device_index, &desc, data,
                                 &t->buffer);
        if (st != RLX_OK || !t->buffer) {
            free(t);
            return rlx__error_from_backend(st != RLX_OK ? st
                                                        : RLX_ERR_BACKEND,
                                           b, "creating a tensor");
        }
    } else {
        t->host = data ? malloc(nbytes ? nbytes : 1)
                       : calloc(1, nbytes ? nbytes : 1);
        if (!t->host) {
            free(t);
            return rlx__error(RLX_ERR_OUT_OF_MEMORY,
                              "out of memory for a tensor of %zu bytes. "
                              "Fix: free memory or use a smaller tensor",
                              nbytes);
        }
        if (data && nbytes)
            memcpy(t->host, data, nbytes);
    }
    /* the program holds B, so this reference cannot fail */
    rlx__backend_acquire(b);
    atomic_init(&t->refs, 1);
    *out = t;
    return RLX_OK;
}

void rlx_tensor_destroy(rlx_tensor *t)
{
    rlx__tensor_release(t);
}

/* NBYTES against T's size; WHAT is "write" or "read". */
static rlx_status check_size(const rlx_tensor *t, size_t nbytes,
                             const char *what)
{
    if (nbytes == t->nbytes)
        return RLX_OK;
    char shape[128];
    return rlx__error(RLX_ERR_SHAPE,
                      "rlx_tensor_%s: the tensor is %s %s (%zu bytes), got "
                      "%zu bytes. Fix: pass exactly the tensor's size",
                      what, rlx_dtype_name(t->dtype),
                      rlx__shape_str(shape, sizeof shape, t->rank, t->shape),
                      t->nbytes, nbytes);
}

rlx_status rlx_tensor_write(rlx_tensor *t, const void *data, size_t nbytes)
{
    if (!t || (nbytes && !data))
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "rlx_tensor_write: NULL tensor or data. Fix: pass "
                          "a tensor and its bytes");
    rlx_status st = check_size(t, nbytes, "write");
    if (st != RLX_OK)
        return st;
    if (!t->buffer) {
        if (nbytes)
            memcpy(t->host, data, nbytes);
        return RLX_OK;
    }
    const rlx_backend *b = t->backend;
    if ((st = rlx__queue_drain(b, t->device_index)) != RLX_OK)
        return st;
    rlx__report_clear();
    st = b->vt.buffer_write(b->backend, t->buffer, data, nbytes);
    return st == RLX_OK ? RLX_OK
                        : rlx__error_from_backend(st, b, "writing a tensor");
}

rlx_status rlx_tensor_read(const rlx_tensor *t, void *dst, size_t nbytes)
{
    if (!t || (nbytes && !dst))
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "rlx_tensor_read: NULL tensor or destination. "
                          "Fix: pass a tensor and memory of its size");
    rlx_status st = check_size(t, nbytes, "read");
    if (st != RLX_OK)
        return st;
    if (!t->buffer) {
        if (nbytes)
            memcpy(dst, t->host, nbytes);
        return RLX_OK;
    }
    const rlx_backend *b = t->backend;
    if ((st = rlx__queue_drain(b, t->device_index)) != RLX_OK)
        return st;
    rlx__report_clear();
    st = b->vt.buffer_read(b->backend, t->buffer, dst, nbytes);
    return st == RLX_OK ? RLX_OK
                        : rlx__error_from_backend(st, b, "reading a tensor");
}

rlx_status rlx_tensor_shape(const rlx_tensor *t, rlx_dtype *dtype,
                            uint32_t *rank, const int64_t **dims)
{
    if (dtype)
        *dtype = RLX_DTYPE_INVALID;
    if (rank)
        *rank = 0;
    if (dims)
        *dims = NULL;
    if (!t)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "rlx_tensor_shape: NULL tensor. Fix: pass a "
                          "tensor made by rlx_tensor_create");
    if (dtype)
        *dtype = t->dtype;
    if (rank)
        *rank = t->rank;
    if (dims)
        *dims = t->shape;
    return RLX_OK;
}
