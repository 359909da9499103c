/*
 * rlx/abi.h - version of the plugin ABI and the export macro.
 *
 * Part of the frozen plugin ABI: a backend includes only headers from
 * this directory and never links against librlx.
 *
 * Interface history (append-only; see docs/abi.md):
 *   1.0  first frozen version: host table, backend info, vtable,
 *        graph view, buffers, executables.
 *   1.1  rlx_probe_result.flags (RLX_PROBE_SOFTWARE); optional
 *        rlx_plugin_host_fit export; optional vtable slot
 *        device_describe with rlx_device_info. Also the ops that arrived while 1.0
 *        was being finished (values 62-76, layer_norm to fill) and
 *        their RLX_ATTR_* indices.
 *   1.2  device-resident run inputs and outputs: the backend flag
 *        RLX_BACKEND_DEVICE_IO, rlx_execute_args.input_buffers and
 *        output_buffers, vtable slot buffer_write, buffer_create with
 *        DATA == NULL. test/abi/baseline/ holds the current minor's
 *        libabigail description; CI compares against it.
 *   1.3  vtable slots supports_node (placement asks about one node with
 *        its dtypes, shapes and attributes) and get_extension (named
 *        optional features, no new slots needed); host service
 *        get_option (plugin settings read through the core).
 *   1.4  new ops appended to RLX_OP_MAP with their RLX_ATTR_* indices
 *        (values 80 and up: convolution, pooling, resize, channel norms,
 *        elementwise, comparisons, reductions, data movement and
 *        indexing; docs/ops.md). rlx_compile_options.get_option and
 *        option_context: the session's settings reach compile
 *        explicitly; the host's get_option no longer answers for a
 *        session.
 */
#ifndef RLX_ABI_H
#define RLX_ABI_H

#include <stddef.h>
#include <stdint.h>

/* A plugin of another major is refused; any minor of the same major loads. */
#define RLX_ABI_MAJOR 1
#define RLX_ABI_MINOR 4

/* Major in the high 16 bits, minor in the low 16. */
#define RLX_ABI_VERSION_MAKE(major, minor) \
    ((uint32_t)(((uint32_t)(major) << 16) | ((uint32_t)(minor) & 0xffffu)))
#define RLX_ABI_VERSION RLX_ABI_VERSION_MAKE(RLX_ABI_MAJOR, RLX_ABI_MINOR)
#define RLX_ABI_VERSION_MAJOR_OF(v) ((uint32_t)(v) >> 16)
#define RLX_ABI_VERSION_MINOR_OF(v) ((uint32_t)(v) & 0xffffu)

/*
 * Size of a struct up to and including FIELD: what a reader compares a
 * writer's struct_size against before touching FIELD.
 */
#define RLX_STRUCT_SIZE_TO(type, field) \
    (offsetof(type, field) + sizeof(((type *)0)->field))

/* True when a struct whose writer declared SIZE bytes contains FIELD. */
#define RLX_HAS_FIELD(size, type, field) \
    ((size_t)(size) >= RLX_STRUCT_SIZE_TO(type, field))

#if defined(__GNUC__) || defined(__clang__)
#define RLX_PLUGIN_EXPORT __attribute__((visibility("default")))
#else
#define RLX_PLUGIN_EXPORT
#endif

#endif /* RLX_ABI_H */
