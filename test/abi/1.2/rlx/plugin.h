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
    RLX_LOG_ERROR = 0,
    RLX_LOG_WARN = 1,
    RLX_LOG_INFO = 2,
    RLX_LOG_DEBUG = 3,
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

/* Register one backend. Call only from rlx_plugin_init. */
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

#ifdef __cplusplus
extern "C" {
#endif
RLX_PLUGIN_EXPORT rlx_status rlx_plugin_init(const rlx_host *host);
RLX_PLUGIN_EXPORT int32_t rlx_plugin_host_fit(const char **family);
#ifdef __cplusplus
}
#endif

#endif /* RLX_PLUGIN_H */
