/*
 * pjrt_internal.h - the PJRT bridge's shared types.
 *
 * One rlxp_backend per registered rlx backend (pjrt-tpu, pjrt-cuda,
 * pjrt-rocm, pjrt). Each owns the PJRT plugin library it found for its
 * family, opened at the first probe (never at load), and a PJRT client
 * created at first use (compile, buffer or device listing).
 */
#ifndef RLX_PJRT_INTERNAL_H
#define RLX_PJRT_INTERNAL_H

#include <limits.h>
#include <pthread.h>

#include <rlx/plugin.h>

#include "pjrt_capi.h"
#include "pjrt_emit.h"

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

/* Which backend a PJRT plugin file belongs to, from its file name
 * (decided before opening it; the client's platform name confirms). */
typedef enum rlxp_family {
    RLXP_FAMILY_TPU = 0,
    RLXP_FAMILY_CUDA = 1,
    RLXP_FAMILY_ROCM = 2,
    RLXP_FAMILY_OTHER = 3,
    RLXP_FAMILY_COUNT = 4
} rlxp_family;

typedef struct rlxp_backend {
    const rlx_host *host;
    rlxp_family family;
    const char *id;               /* "pjrt-cuda" */
    pthread_mutex_t lock;
    /* the opened PJRT plugin (under lock; set once, kept to the end) */
    char path[PATH_MAX];
    void *dl;
    const PJRT_Api *api;
    int api_major, api_minor;
    /* the client, created on first use */
    PJRT_Client *client;
    char platform[64];
    char platform_version[160];
    PJRT_Device **devices;        /* owned by the client */
    size_t n_devices;
    /* runs queued (rlx.queue.v1): their completion events, in order */
    pthread_mutex_t queue_lock;
    PJRT_Event **queued;
    size_t n_queued, cap_queued;
} rlxp_backend;

struct rlx_buffer {
    PJRT_Buffer *buf;   /* replaced by buffer_write and bound outputs */
    PJRT_Device *device;
    rlx_dtype dtype;
    uint32_t rank;
    int64_t dims[RLXP_MAX_RANK];
    size_t nbytes;
};

typedef struct rlxp_slot {
    rlx_dtype dtype;
    uint32_t rank;
    int64_t dims[RLXP_MAX_RANK];
    size_t nbytes;
} rlxp_slot;

struct rlx_executable {
    PJRT_LoadedExecutable *exe;
    PJRT_Device *device;
    int device_is_default;        /* device 0: compiled for it */
    uint32_t n_inputs, n_params, n_outputs, n_checks;
    rlxp_slot *inputs;            /* n_inputs */
    rlxp_slot *outputs;           /* n_outputs */
    char **check_what;            /* n_checks node names */
};

/* pjrt_plugin.c */
rlx_status rlxp_report(const rlxp_backend *be, rlx_status st,
                       const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
void rlxp_log(const rlxp_backend *be, rlx_log_level level,
              const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* pjrt_find.c: setting NAME ("pjrt.plugin") in VALUE, "" when unset.
 * A core with get_option (ABI 1.3) answers for RLX_ and the config file
 * (the plugin is loaded once for every session), and its answer is final: it ignores the environment where
 * it must (set-user-ID, AT_SECURE, uids that differ now). Only an older
 * core leaves it to variable ENV, read with secure_getenv (unset in a
 * process started with AT_SECURE). */
void rlxp_setting(const rlxp_backend *be, const char *name, const char *env,
                  char *value, size_t size);

/* pjrt_find.c: the candidate PJRT plugin files for FAMILY, as a
 * colon-separated list in OUT, and a note of where it looked in WHERE.
 * Returns 1 when the list came from RLX_PJRT_PLUGIN / pjrt.plugin. */
int rlxp_find_candidates(const rlxp_backend *be, char *out, size_t size,
                         char *where, size_t where_size);
rlxp_family rlxp_family_of_path(const char *path);

/* pjrt_probe_key.c: get_extension: rlx.probe_key.v1 (the probe cache)
 * and rlx.queue.v1 (pjrt_queue.c). */
const void *rlxp_get_extension(void *backend, const char *name);

/* pjrt_client.c */
rlx_status rlxp_open(rlxp_backend *be);          /* under lock */
rlx_status rlxp_client(rlxp_backend *be);        /* under lock */
/* Turns a PJRT error into a rlx error (and frees it): WHAT failed. */
rlx_status rlxp_error(const rlxp_backend *be, PJRT_Error *err,
                      const char *what);
rlx_status rlxp_await(const rlxp_backend *be, PJRT_Event *ev,
                      const char *what);
PJRT_Buffer_Type rlxp_pjrt_type(rlx_dtype dt);

/* pjrt_compile.c / pjrt_execute.c */
rlx_status rlxp_compile(void *backend, const rlx_graph_view *graph,
                        const rlx_compile_options *options,
                        rlx_executable **out);
void rlxp_executable_destroy(void *backend, rlx_executable *exe);
rlx_status rlxp_execute(void *backend, rlx_executable *exe,
                        const rlx_execute_args *args);
/* execute; QUEUE: where every input and output is bound, keep the run's
 * completion event (rlxp_queue_add) instead of waiting for it. */
rlx_status rlxp_execute_on(rlxp_backend *be, rlx_executable *exe,
                           const rlx_execute_args *args, int queue);

/* pjrt_queue.c: the rlx.queue.v1 table; keep EV (1) or not (0: out of
 * memory, the caller waits instead); wait for and drop every kept event
 * (backend destroy). */
extern const struct rlx_ext_queue rlxp_queue_ext;
int rlxp_queue_add(rlxp_backend *be, PJRT_Event *ev);
rlx_status rlxp_queue_drain(rlxp_backend *be);
rlx_status rlxp_buffer_create(void *backend, uint32_t device_index,
                              const rlx_tensor_desc *desc, const void *data,
                              rlx_buffer **out);
rlx_status rlxp_buffer_read(void *backend, rlx_buffer *buffer, void *dst,
                            size_t nbytes);
void rlxp_buffer_destroy(void *backend, rlx_buffer *buffer);
rlx_status rlxp_buffer_write(void *backend, rlx_buffer *buffer,
                             const void *src, size_t nbytes);
/* Upload host DATA as a device buffer on DEVICE. */
rlx_status rlxp_upload(rlxp_backend *be, PJRT_Device *device, rlx_dtype dt,
                       uint32_t rank, const int64_t *dims, const void *data,
                       PJRT_Buffer **out);
rlx_status rlxp_download(rlxp_backend *be, PJRT_Buffer *buf, void *dst,
                         size_t nbytes);

#endif /* RLX_PJRT_INTERNAL_H */
