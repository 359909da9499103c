/*
 * gpu_register.c - rlx_plugin_init's work for both GPU plugins: the
 * backend record, its lock, the vtable (the shared compiler, executor and
 * buffers, with the vendor's probe, description, teardown and
 * extensions) and the registration, so the cuda and rocm entry points
 * differ only in what is their vendor's.
 */
#include <stdlib.h>

#include "gpu_internal.h"

/* The vtable must outlive the plugin's init: one per plugin, filled once
 * (rlx_plugin_init never runs concurrently with another init). */
static rlx_backend_vtable vtable;

rlx_status rlxg_register(const rlx_host *host, const rlxg_vendor_ops *v,
                         const char *description)
{
    if (!host || !host->register_backend)
        return RLX_ERR_INVALID_ARGUMENT;
    rlxg_backend *be = calloc(1, sizeof *be);
    if (!be)
        return rlx_host_report(host, RLX_ERR_OUT_OF_MEMORY,
                               RLXG_NAME ": out of memory while "
                               "registering. Fix: free memory and retry");
    be->host = host;
    be->n_devices = -1;
    if (pthread_mutex_init(&be->lock, NULL) != 0) {
        free(be);
        return rlx_host_report(host, RLX_ERR_INTERNAL,
                               RLXG_NAME ": cannot create a mutex. Fix: "
                               "free system resources and retry");
    }
    vtable = (rlx_backend_vtable){
        .struct_size = sizeof(rlx_backend_vtable),
        .probe = rlxg_probe,
        .supports_op = rlxg_supports_op,
        .compile = rlxg_compile,
        .executable_destroy = rlxg_executable_destroy,
        .buffer_create = rlxg_buffer_create,
        .buffer_read = rlxg_buffer_read,
        .buffer_write = rlxg_buffer_write,
        .buffer_destroy = rlxg_buffer_destroy,
        .execute = rlxg_execute,
        .backend_destroy = rlxg_backend_destroy,
        .device_describe = rlxg_device_describe,
        .get_extension = v->get_extension,
        .supports_node = rlxg_supports_node,
    };
    const rlx_backend_info info = {
        .struct_size = sizeof(rlx_backend_info),
        .id = RLXG_NAME,
        .device_kind = v->device_kind,
        .device_name = NULL,
        .priority = RLX_PRIORITY_DEFAULT,
        .flags = RLX_BACKEND_EXECUTES | RLX_BACKEND_DEVICE_IO,
        .description = description,
        .vtable = &vtable,
        .backend = be,
    };
    rlx_status st = rlx_register_backend(host, &info);
    if (st != RLX_OK) {
        pthread_mutex_destroy(&be->lock);
        free(be);
    }
    return st;
}
