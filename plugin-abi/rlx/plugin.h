/*
 * rlx/plugin.h - the plugin entry point and the host table.
 *
 * A plugin is a shared object named librlx-backend-<name>.so that exports
 * one symbol (and optionally rlx_plugin_host_fit, below):
 *
 *     RLX_PLUGIN_EXPORT rlx_status rlx_plugin_init(const rlx_host *host);
 *
 * which registers its backends with rlx_register_backend(). Everything
 * else the plugin needs from the core (error reports, logging) comes
 * through the host table, so a plugin never links against librlx and
 * loads in any core of the same ABI major, static or shared.
 *
 * Version check: the first three fields of rlx_host are frozen across
 * every major version. rlx_register_backend() passes the ABI version the
 * plugin was compiled against before the core reads anything else, and a
 * core of another major refuses it with RLX_ERR_ABI_MISMATCH. A plugin
 * that wants to refuse a core itself compares host->abi_version.
 *
 * Threads: rlx_plugin_init is called once per load, never concurrently
 * with another plugin's init in the same process.
 */
#ifndef RLX_PLUGIN_H
#define RLX_PLUGIN_H

#include <stdint.h>

#include "abi.h"
#include "backend.h"
#include "status.h"

typedef enum rlx_log_level {
    RLX_LOG_ERROR = 0, /* since 1.0 */
    RLX_LOG_WARN = 1,  /* since 1.0 */
    RLX_LOG_INFO = 2,  /* since 1.0 */
    RLX_LOG_DEBUG = 3, /* since 1.0 */
    RLX__LOG_FORCE_INT = 0x7fffffff
} rlx_log_level;

typedef struct rlx_host rlx_host;

struct rlx_host {
    /* --- frozen head: identical in every major version --- */
    uint32_t struct_size;
    uint32_t abi_version; /* the core's, RLX_ABI_VERSION_MAKE(major, minor) */
    rlx_status (*register_backend)(const rlx_host *host,
                                   uint32_t plugin_abi_version,
                                   const rlx_backend_info *info);
    /* --- since 1.0 --- */
    /* Attach MESSAGE (which should end in "Fix: ...") to the failing call
     * in progress on this thread; returns STATUS for tail calls. */
    rlx_status (*report)(const rlx_host *host, rlx_status status,
                         const char *message);
    void (*log)(const rlx_host *host, rlx_log_level level,
                const char *message);
    void *host_data; /* the core's; plugins leave it alone */
    /* --- since 1.3 --- */
    /* A setting for a plugin, looked up by NAME ("cuda.matmul") in the
     * RLX_ environment variable derived
     * from it (RLX_CUDA_MATMUL; ignored in set-user-ID processes), then
     * the config file's options section. Copies the value with its NUL
     * into VALUE (VALUE_SIZE bytes) and returns RLX_OK; RLX_ERR_NOT_FOUND
     * when unset; RLX_ERR_INVALID_ARGUMENT when it does not fit. Plugins
     * read their settings here, never with getenv, so they show in
     * `rlx devices`. May be called from any thread. Since 1.4 it never
     * answers for a session: a compile reads the session's settings from
     * its options (rlx_compile_get_option). */
    rlx_status (*get_option)(const rlx_host *host, const char *name,
                             char *value, size_t value_size);
};

typedef rlx_status (*rlx_plugin_init_fn)(const rlx_host *host);

#define RLX_PLUGIN_INIT_SYMBOL "rlx_plugin_init"

/*
 * Since 1.1. Optional second export, for a backend built in several
 * variants (one per CPU feature level, say): the loader calls it before
 * rlx_plugin_init and, among the variants of one FAMILY found in a scan,
 * initialises only the one with the highest score; the others are closed
 * unused. 0 means "cannot run on this host". Compile it without the
 * variant's ISA flags: it runs before anything has checked that the host
 * can run them. It must not call into the host. *family is a static
 * string. A 1.0 core never looks for it and initialises every variant.
 */
typedef int32_t (*rlx_plugin_host_fit_fn)(const char **family);

#define RLX_PLUGIN_HOST_FIT_SYMBOL "rlx_plugin_host_fit"

/* Register one backend. Call only from rlx_plugin_init.
 *
 * Ownership: when this returns RLX_OK, info->backend belongs to the core,
 * which calls the vtable's backend_destroy on it exactly once, when the
 * plugin is unloaded, and also when rlx_plugin_init goes on to return an
 * error (every backend it registered is then destroyed and none is
 * published). A plugin must therefore never free a backend it registered,
 * not even on its own failure path: that would be a double free. When
 * this returns an error, the backend was not taken and is still the
 * plugin's to free. */
static inline rlx_status rlx_register_backend(const rlx_host *host,
                                              const rlx_backend_info *info)
{
    return host->register_backend(host, RLX_ABI_VERSION, info);
}

/* Report an error for the call in progress and return STATUS. */
static inline rlx_status rlx_host_report(const rlx_host *host,
                                         rlx_status status,
                                         const char *message)
{
    if (host && RLX_HAS_FIELD(host->struct_size, rlx_host, report) &&
        host->report)
        return host->report(host, status, message);
    return status;
}

static inline void rlx_host_log(const rlx_host *host, rlx_log_level level,
                                const char *message)
{
    if (host && RLX_HAS_FIELD(host->struct_size, rlx_host, log) && host->log)
        host->log(host, level, message);
}

/* Read setting NAME (see rlx_host.get_option); RLX_ERR_NOT_FOUND when
 * unset or when the core is older than 1.3. */
static inline rlx_status rlx_host_get_option(const rlx_host *host,
                                             const char *name, char *value,
                                             size_t value_size)
{
    if (host && RLX_HAS_FIELD(host->struct_size, rlx_host, get_option) &&
        host->get_option)
        return host->get_option(host, name, value, value_size);
    return RLX_ERR_NOT_FOUND;
}

/* Read setting NAME for the compile given OPTIONS: the options' own
 * settings (ABI 1.4: the session's, then the host's sources), else, from
 * an older core, the host's (rlx_host_get_option). Call it from compile,
 * where OPTIONS is valid. */
static inline rlx_status rlx_compile_get_option(
    const rlx_compile_options *options, const rlx_host *host,
    const char *name, char *value, size_t value_size)
{
    if (options &&
        RLX_HAS_FIELD(options->struct_size, rlx_compile_options,
                      option_context) &&
        options->get_option)
        return options->get_option(options->option_context, name, value,
                                   value_size);
    return rlx_host_get_option(host, name, value, value_size);
}

#ifdef __cplusplus
extern "C" {
#endif
RLX_PLUGIN_EXPORT rlx_status rlx_plugin_init(const rlx_host *host);
RLX_PLUGIN_EXPORT int32_t rlx_plugin_host_fit(const char **family);
#ifdef __cplusplus
}
#endif

#endif /* RLX_PLUGIN_H */
