/* device_io.c - registrations around RLX_BACKEND_DEVICE_IO (ABI 1.2) on
 * the "iotest" device kind, all with the simple backend:
 *   test-io12        ABI 1.2 with DEVICE_IO and buffer_write: bound
 *                    inputs and outputs are read and written in its
 *                    buffers;
 *   test-io11        claims ABI 1.1 with a 1.1-sized vtable and sets bit
 *                    0x2 and an unknown bit: they meant nothing in 1.1, so
 *                    the core must mask them off and copy through host
 *                    memory (the backend fails a NULL input pointer, a
 *                    bound buffer, or buffer_create without data);
 *   test-io-emit     DEVICE_IO without EXECUTES: masked, still registered;
 *   test-io-nowrite  ABI 1.2, DEVICE_IO without buffer_write: refused. */
#include <stdlib.h>

#include "simple_backend.h"

static rlx_backend_vtable vtable_11;

static rlx_status reg(const rlx_host *host, uint32_t abi, const char *id,
                      uint32_t flags, const rlx_backend_vtable *vt)
{
    simple_backend *b = calloc(1, sizeof *b);
    if (!b)
        return rlx_host_report(host, RLX_ERR_OUT_OF_MEMORY,
                               "out of memory. Fix: free memory");
    *b = (simple_backend){ .host = host, .devices = 1,
                           .device_io = vt == &simple_vtable_io };
    rlx_backend_info info = {
        .struct_size = sizeof info,
        .id = id,
        .device_kind = RLX_DEVICE_CUSTOM,
        .device_name = "iotest",
        .priority = RLX_PRIORITY_DEFAULT,
        .flags = flags,
        .description = "test plugin: device I/O flag handling",
        .vtable = vt,
        .backend = b,
    };
    rlx_status st = host->register_backend(host, abi, &info);
    if (st != RLX_OK)
        free(b); /* a refused registration leaves ownership with us */
    return st;
}

RLX_PLUGIN_EXPORT rlx_status rlx_plugin_init(const rlx_host *host)
{
    const uint32_t io = RLX_BACKEND_EXECUTES | RLX_BACKEND_DEVICE_IO;
    vtable_11 = simple_vtable;
    vtable_11.struct_size =
        (uint32_t)RLX_STRUCT_SIZE_TO(rlx_backend_vtable, device_describe);
    rlx_status st = reg(host, RLX_ABI_VERSION, "test-io12", io,
                        &simple_vtable_io);
    if (st == RLX_OK)
        st = reg(host, RLX_ABI_VERSION_MAKE(1, 1), "test-io11",
                 io | 0x80000000u, &vtable_11);
    if (st == RLX_OK)
        st = reg(host, RLX_ABI_VERSION, "test-io-emit",
                 RLX_BACKEND_DEVICE_IO, &simple_vtable);
    if (st == RLX_OK) /* refused; the others stay */
        reg(host, RLX_ABI_VERSION, "test-io-nowrite", io, &simple_vtable);
    return st;
}
