/*
 * surface.c - the plugin ABI as a shared object libabigail can read.
 *
 * The plugin ABI is headers only, so abidw has nothing to describe until
 * something uses every struct, enum and function type of it. Each
 * exported function below takes one of them; built with -g, abidw turns
 * the result into an XML description (test/abi/baseline/plugin-abi.xml)
 * that abidiff compares in CI. Built against plugin-abi/ and against the
 * 1.0 and 1.5 copies in test/abi/ (check-abi.sh tests the checker too).
 * Macros (flags, priorities) carry no DWARF and are not covered.
 */
#include <rlx/plugin.h>

#define SURFACE(name, type) \
    RLX_PLUGIN_EXPORT void rlx_abi_surface_##name(type *p); \
    RLX_PLUGIN_EXPORT void rlx_abi_surface_##name(type *p) { (void)p; }

SURFACE(host, rlx_host)
SURFACE(backend_info, rlx_backend_info)
SURFACE(backend_vtable, rlx_backend_vtable)
SURFACE(tensor_desc, rlx_tensor_desc)
SURFACE(compile_options, rlx_compile_options)
SURFACE(probe_result, rlx_probe_result)
SURFACE(execute_args, rlx_execute_args)
SURFACE(graph_view, rlx_graph_view)
SURFACE(node_view, rlx_node_view)
SURFACE(status, rlx_status)
SURFACE(dtype, rlx_dtype)
SURFACE(device_kind, rlx_device_kind)
SURFACE(op, rlx_op)
SURFACE(precision, rlx_precision)
SURFACE(log_level, rlx_log_level)
SURFACE(plugin_init_fn, rlx_plugin_init_fn)
#if RLX_ABI_MAJOR > 1 || RLX_ABI_MINOR >= 1
SURFACE(plugin_host_fit_fn, rlx_plugin_host_fit_fn)
SURFACE(device_info, rlx_device_info)
#endif
