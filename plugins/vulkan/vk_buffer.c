/*
 * vk_buffer.c - param buffers: device-local, widened to device words and
 * uploaded once in buffer_create, so runs bind them without copying.
 */
#include <stdlib.h>
#include <string.h>

#include "vk_internal.h"

static int count_of(const rlx_tensor_desc *d, size_t *count)
{
    size_t c = 1;
    if (d->rank && !d->shape)
        return -1;
    for (uint32_t i = 0; i < d->rank; i++) {
        if (d->shape[i] < 0)
            return -1;
        size_t n = (size_t)d->shape[i];
        if (n && c > SIZE_MAX / 8 / n)
            return -1;
        c *= n;
    }
    *count = c;
    return 0;
}

rlx_status rlxv_buffer_create(void *backend, uint32_t device_index,
                                 const rlx_tensor_desc *desc,
                                 const void *data, rlx_buffer **out)
{
    rlx__vk *vk = backend;
    size_t count = 0;
    if (!desc || !out ||
        !RLX_HAS_FIELD(desc->struct_size, rlx_tensor_desc, shape) ||
        count_of(desc, &count) != 0)
        return rlx_host_report(vk->host, RLX_ERR_INVALID_ARGUMENT,
                               "vulkan buffer_create: missing, truncated or "
                               "malformed tensor description. Fix: report "
                               "this as a bug in the rlx core");
    uint32_t words = rlxv_dtype_words(desc->dtype);
    if (!words)
        return rlx_kit_fail(vk->host, RLX_ERR_UNSUPPORTED,
                            "vulkan buffer_create: dtype %d is unknown. "
                            "Fix: use a dtype from rlx/types.h",
                            (int)desc->dtype);
    if (count && !data)
        return rlx_host_report(vk->host, RLX_ERR_INVALID_ARGUMENT,
                               "vulkan buffer_create: no data. Fix: pass "
                               "the param's elements");
    rlxv_ctx *ctx;
    rlx_status st = rlxv_context(vk, device_index, &ctx);
    if (st != RLX_OK)
        return st;
    rlx_buffer *b = calloc(1, sizeof *b);
    size_t bytes = count * words * 4;
    uint32_t *wide = malloc(bytes ? bytes : 4);
    if (!b || !wide) {
        free(b);
        free(wide);
        return rlx_host_report(vk->host, RLX_ERR_OUT_OF_MEMORY,
                               "vulkan buffer_create: out of host memory. "
                               "Fix: free memory");
    }
    b->ctx = ctx;
    b->dtype = desc->dtype;
    b->count = count;
    rlxv_widen(desc->dtype, data, wide, count);
    st = rlxv_mem_create(ctx, bytes, 0, &b->m);
    if (st == RLX_OK)
        st = rlxv_upload(ctx, b->m.buf, 0, wide, bytes);
    free(wide);
    if (st != RLX_OK) {
        rlxv_mem_destroy(ctx, &b->m);
        free(b);
        return st;
    }
    *out = b;
    return RLX_OK;
}

rlx_status rlxv_buffer_read(void *backend, rlx_buffer *b, void *dst,
                               size_t nbytes)
{
    rlx__vk *vk = backend;
    if (!b || (!dst && nbytes) ||
        nbytes != b->count * rlx_dtype_size(b->dtype))
        return rlx_kit_fail(vk->host, RLX_ERR_INVALID_ARGUMENT,
                            "vulkan buffer_read: asked for %zu bytes of a "
                            "buffer of %zu. Fix: read the whole buffer",
                            nbytes,
                            b ? b->count * rlx_dtype_size(b->dtype) : 0);
    size_t bytes = b->count * rlxv_dtype_words(b->dtype) * 4;
    uint32_t *wide = malloc(bytes ? bytes : 4);
    if (!wide)
        return rlx_host_report(vk->host, RLX_ERR_OUT_OF_MEMORY,
                               "vulkan buffer_read: out of host memory. "
                               "Fix: free memory");
    rlx_status st = rlxv_download(b->ctx, b->m.buf, 0, wide, bytes);
    if (st == RLX_OK)
        rlxv_narrow(b->dtype, wide, dst, b->count);
    free(wide);
    return st;
}

void rlxv_buffer_destroy(void *backend, rlx_buffer *b)
{
    (void)backend;
    if (!b)
        return;
    rlxv_mem_destroy(b->ctx, &b->m);
    free(b);
}
