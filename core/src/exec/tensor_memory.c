/*
 * tensor_memory.c - a tensor's address, and tensors over the
 * application's memory: what DLPack exchange (PyTorch, CuPy, JAX) needs,
 * through the backends' rlx.memory.v1 table (rlx/memory.h). Tensors of
 * backends without device I/O are host memory the core holds, so they
 * have an address and wrap host memory with no backend's help.
 */
#include <stdlib.h>
#include <string.h>

#include <rlx/memory.h>

#include "exec.h"
#include "program.h"

/* B's rlx.memory.v1 table, or NULL. */
static const rlx_ext_memory *memory_ext(const rlx_backend *b)
{
    const rlx_ext_memory *m = rlx_backend_get_extension(b, RLX_EXT_MEMORY);
    if (!m || !RLX_HAS_FIELD(m->struct_size, rlx_ext_memory, buffer_wrap) ||
        !m->device_memory || !m->buffer_address || !m->buffer_wrap)
        return NULL;
    return m;
}

static const char *kind_name(int32_t kind)
{
    switch (kind) {
    case RLX_MEMORY_CPU: return "cpu";
    case RLX_MEMORY_CUDA: return "cuda";
    case RLX_MEMORY_CUDA_HOST: return "cuda host";
    case RLX_MEMORY_ROCM: return "rocm";
    default: return "unknown";
    }
}

/* The memory (KIND, ID) of B's device DEVICE; RLX_ERR_UNSUPPORTED when
 * B's tensors are not addressable by other libraries. */
static rlx_status device_memory(const rlx_backend *b, uint32_t device,
                                int32_t *kind, int32_t *id)
{
    if (!rlx__backend_device_io(b)) { /* host memory the core holds */
        *kind = RLX_MEMORY_CPU;
        *id = 0;
        return RLX_OK;
    }
    const rlx_ext_memory *m = memory_ext(b);
    rlx__report_clear();
    rlx_status st = m ? m->device_memory(b->backend, device, kind, id)
                      : RLX_ERR_UNSUPPORTED;
    if (st == RLX_OK)
        return RLX_OK;
    if (!m)
        return rlx__error(RLX_ERR_UNSUPPORTED,
                          "backend '%s' keeps tensors in memory that other "
                          "libraries cannot address (it has no %s table). "
                          "Fix: copy with rlx_tensor_read / set_input, or "
                          "use a backend that shares memory (cpu, cuda)",
                          rlx_backend_id(b), RLX_EXT_MEMORY);
    return rlx__error_from_backend(st, b, "asking where its memory is");
}

rlx_status rlx_tensor_memory(rlx_tensor *t, void **address, int32_t *kind,
                             int32_t *id)
{
    if (!t || !address || !kind || !id)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "rlx_tensor_memory: NULL tensor or out-parameter. "
                          "Fix: pass a tensor and where to store its "
                          "address, kind and id");
    *address = NULL;
    const rlx_backend *b = t->backend;
    rlx_status st = device_memory(b, t->device_index, kind, id);
    if (st != RLX_OK)
        return st;
    if (!t->buffer) {
        *address = t->host;
        return RLX_OK;
    }
    if ((st = rlx__queue_drain(b, t->device_index)) != RLX_OK)
        return st;
    rlx__report_clear();
    st = memory_ext(b)->buffer_address(b->backend, t->buffer, address);
    return st == RLX_OK ? RLX_OK
                        : rlx__error_from_backend(st, b,
                                                  "giving a tensor's address");
}

static rlx_status wrap_fail(rlx_status st, void (*release)(void *),
                            void *ctx)
{
    if (release)
        release(ctx);
    return st;
}

rlx_status rlx_tensor_wrap(rlx_program *p, rlx_dtype dtype, uint32_t rank,
                           const int64_t *dims, void *address, int32_t kind,
                           int32_t id, void (*release)(void *ctx), void *ctx,
                           rlx_tensor **out)
{
    if (out)
        *out = NULL;
    if (!p || !out)
        return wrap_fail(rlx__error(RLX_ERR_INVALID_ARGUMENT,
                                    "rlx_tensor_wrap: NULL program or OUT. "
                                    "Fix: pass the program whose device "
                                    "the memory is on and where to store "
                                    "the tensor"), release, ctx);
    size_t nbytes = 0;
    rlx_status st = rlx__shape_check("rlx_tensor_wrap", dtype, rank, dims,
                                     &nbytes);
    if (st != RLX_OK)
        return wrap_fail(st, release, ctx);
    size_t elem = rlx_dtype_size(dtype);
    if ((!address && nbytes) || (uintptr_t)address % elem != 0)
        return wrap_fail(rlx__error(RLX_ERR_INVALID_ARGUMENT,
                                    "rlx_tensor_wrap: the address %p is "
                                    "NULL or not aligned to the %zu-byte "
                                    "element. Fix: wrap aligned memory, or "
                                    "copy with rlx_tensor_create",
                                    address, elem), release, ctx);
    const rlx_backend *b = p->backend;
    int32_t want_kind = 0, want_id = 0;
    if ((st = device_memory(b, p->device_index, &want_kind, &want_id)) !=
        RLX_OK)
        return wrap_fail(st, release, ctx);
    int host_ok = want_kind == RLX_MEMORY_CPU &&
                  (kind == RLX_MEMORY_CPU || kind == RLX_MEMORY_CUDA_HOST);
    if (!host_ok && (kind != want_kind || id != want_id))
        return wrap_fail(rlx__error(RLX_ERR_UNSUPPORTED,
                                    "rlx_tensor_wrap: the memory is on %s "
                                    "device %d; the program runs on "
                                    "backend '%s', whose tensors live on %s "
                                    "device %d. Fix: copy the data "
                                    "(rlx_tensor_create), or compile for "
                                    "the device that holds it",
                                    kind_name(kind), (int)id,
                                    rlx_backend_id(b), kind_name(want_kind),
                                    (int)want_id), release, ctx);
    rlx_tensor *t = calloc(1, sizeof *t);
    if (!t)
        return wrap_fail(rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory"),
                         release, ctx);
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
        st = memory_ext(b)->buffer_wrap(b->backend, t->device_index, &desc,
                                        address, &t->buffer);
        if (st != RLX_OK || !t->buffer) {
            free(t);
            return wrap_fail(rlx__error_from_backend(
                                 st != RLX_OK ? st : RLX_ERR_BACKEND, b,
                                 "wrapping memory as a tensor"),
                             release, ctx);
        }
    } else {
        t->host = address;
    }
    t->borrowed = 1;
    t->release = release;
    t->release_ctx = ctx;
    rlx__backend_acquire(b);
    atomic_init(&t->refs, 1);
    *out = t;
    return RLX_OK;
}
