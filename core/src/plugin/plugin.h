/*
 * plugin.h - the registry and loader room (prefix rlx__): plugins and
 * their backends, the runtime record, policy and config, plugin settings,
 * the probe caches and lazy loading, the host table, the loader. It
 * builds on base/ only (docs/architecture.md); plugin/scan.h has the
 * scanner and registry cache, shared with rlx-plugin-scanner.
 */
#ifndef RLX__PLUGIN_H
#define RLX__PLUGIN_H

#include "base/base.h"

/* ---- registry.c ------------------------------------------------------- */

/*
 * A loaded plugin file. Its backends, its code and this record stay valid
 * while REFS > 0: the registry holds one reference while the plugin is
 * loaded, and every session, program and call into a backend holds one
 * more. Unloading drops the registry's; the last release destroys the
 * backends and closes the file. The record itself is freed only with the
 * runtime, so a stale backend handle is never a dangling pointer.
 */
typedef struct rlx__plugin {
    char *path;
    void *handle;            /* dlopen handle; NULL for built-in */
    int builtin;
    uint32_t abi_version;    /* from its first registration */
    rlx_backend **backends;  /* owned */
    uint32_t n_backends;
    unsigned long long dev, ino; /* to spot a second load of one file */
    int32_t host_fit;        /* rlx_plugin_host_fit's score, -1: none */
    char *family;            /* its family, NULL: none */
    _Atomic uint32_t refs;
    _Atomic int retired;     /* out of the registry */
    int finalized;           /* backends destroyed, file closed */
} rlx__plugin;

/* Take a reference on B's plugin; 0 when it has been unloaded. */
int rlx__backend_acquire(const rlx_backend *b);
void rlx__backend_release(const rlx_backend *b);
/* 1 when B takes run inputs and outputs in its own buffers
 * (RLX_BACKEND_DEVICE_IO, never set for plugins older than ABI 1.2). */
int rlx__backend_device_io(const rlx_backend *b);
/* Set the last error from a failed plugin call: the plugin's report, or a
 * generic line; appends a Fix when the plugin gave none. */
rlx_status rlx__error_from_backend(rlx_status status, const rlx_backend *b,
                                   const char *what);
/* MSG without a leading "<id of B>: ", which plugins often write: the
 * core adds its own "backend 'id'" prefix. */
const char *rlx__strip_backend_prefix(const char *msg, const rlx_backend *b);

/* ---- queue.c: runs queued on a device ("rlx.queue.v1") -------------- */

/* Per backend, made at registration: the extension once looked up, and
 * per device (index % 64) how many runs were queued and how many of
 * those a finished wait covers. */
typedef struct rlx__queue {
    _Atomic int looked;          /* ext has been asked for */
    const void *_Atomic ext;     /* const rlx_ext_queue *, or NULL */
    _Atomic uint64_t queued[64]; /* runs queued (counted once queued) */
    _Atomic uint64_t waited[64]; /* the first this many are finished */
} rlx__queue;

struct rlx_backend {
    char *id;
    rlx_device_kind kind;
    char *device_name;       /* "cpu", or the custom kind's name */
    int32_t priority;
    uint32_t flags;
    char *description;
    rlx_backend_vtable vt;   /* zero-extended copy of the plugin's table */
    void *backend;
    rlx__plugin *plugin;
    uint32_t abi_version;
    uint32_t order;          /* registration sequence number */
    struct rlx__queue *queue; /* queued runs (queue.c) */
};

/* An immutable list of backends; replaced whole, never edited, so readers
 * take no lock. Old lists live until the runtime is destroyed. */
typedef struct rlx__snapshot {
    uint32_t count;
    rlx_backend **items;
    struct rlx__snapshot *older; /* retired chain, freed at destroy */
} rlx__snapshot;

typedef struct rlx__diag {
    rlx_diag_kind kind;
    char *path;
    char *reason;
    char *fix;
} rlx__diag;

/* ---- policy.c, config.c: which backends may be chosen ---------------- */

typedef struct rlx__policy_force_rule {
    char *device, *id, *source;
} rlx__policy_force_rule;

typedef struct rlx__policy_disable_rule {
    char *glob, *source;
} rlx__policy_disable_rule;

typedef struct rlx__policy {
    rlx__policy_force_rule *force;
    uint32_t n_force;
    rlx__policy_disable_rule *disable;
    uint32_t n_disable;
} rlx__policy;

struct rlx_runtime {
    pthread_mutex_t lock;            /* writers: load, register, diag */
    rlx__policy policy;              /* fixed after creation */
    char *config_path;               /* the config file read, or NULL */
    _Atomic(rlx__snapshot *) snap;
    rlx_host host;                   /* host_data points back here */
    rlx__plugin **plugins;
    uint32_t n_plugins;
    rlx__diag *diags;
    uint32_t n_diags;
    char **search_dirs;              /* every directory scanned, in order */
    const char **search_sources;     /* where each came from (static) */
    uint32_t n_search;
    char **seen_names;               /* basenames scanned, for shadowing */
    char **seen_paths;
    uint32_t n_seen;
    uint32_t next_order;
    /* variants (plugins with a host-fit score) found during a scan, kept
     * unopened-by-init until the scan ends and the best of each family
     * is known */
    int deferring;
    struct rlx__variant *variants;
    uint32_t n_variants;
    /* set while a plugin's init runs */
    rlx__plugin *loading;
    rlx_backend **pending;
    uint32_t n_pending;
    char *pending_error;             /* first registration refusal */
    struct rlx__options *options;    /* plugin settings (options.c) */
    struct rlx__scan *scan;          /* scanner and registry cache */
    /* plugins not opened yet (lazy.c); the count is read without the
     * lock to skip lazy.c when there are none */
    int discovering;                 /* loader_scan: files may be deferred */
    struct rlx__deferred *deferred;
    uint32_t n_deferred_alloc;
    _Atomic uint32_t n_deferred;
    /* custom ops (custom_allow.c): libraries the application allowed,
     * kernels it registered for custom domains; under LOCK */
    struct rlx__allow *custom_allow;
    struct rlx__custom_reg *custom_ops;
    uint32_t n_custom_ops;
    /* frees the two above; set by custom_allow.c (ffi/, a later room)
     * once it keeps anything */
    void (*custom_free)(rlx_runtime *rt);
};

rlx_status rlx__registry_init(rlx_runtime *rt);
void rlx__registry_free(rlx_runtime *rt);
const rlx__snapshot *rlx__registry_snapshot(const rlx_runtime *rt);
/* Publish the pending registrations, which become P's backends, as a new
 * snapshot; P starts with the registry's reference (lock held). */
rlx_status rlx__registry_commit(rlx_runtime *rt, rlx__plugin *p);
/* Publish a snapshot without P's backends (lock held). */
rlx_status rlx__registry_remove(rlx_runtime *rt, rlx__plugin *p);
/* Destroy P's backends, close it if needed and free it (plugin.c). */
void rlx__plugin_free(rlx__plugin *p);
/* Destroy pending registrations without publishing (lock held). */
void rlx__registry_discard(rlx_runtime *rt);
void rlx__backend_free(rlx_backend *b);
/* Backends able to serve DEVICE (name, no index), best first. */
uint32_t rlx__registry_rank(const rlx_runtime *rt, const char *device,
                            const rlx_backend **out, uint32_t max);

rlx_status rlx__policy_force(rlx__policy *pol, const char *device,
                             const char *id, const char *source);
rlx_status rlx__policy_disable(rlx__policy *pol, const char *glob,
                               const char *source);
void rlx__policy_free(rlx__policy *pol);
void rlx__policy_from_env(rlx_runtime *rt);
/* Read the first config file found into rt->policy; problems become
 * diagnostics, never failures. */
void rlx__config_load(rlx_runtime *rt);
/* 1 when B may be chosen; *WHY explains a rule that applies (thread-local
 * text), NULL when none does. */
int rlx__policy_allows(const rlx_runtime *rt, const rlx_backend *b,
                       const char **why);

/* ---- options.c: plugin settings (host get_option) -------------------- */

void rlx__options_create(rlx_runtime *rt);
void rlx__options_free(rlx_runtime *rt);
/* Sets a config-file option; -1 out of memory. */
int rlx__options_config_set(rlx_runtime *rt, const char *name,
                            const char *value);
int rlx__option_name_valid(const char *name);
/* A list of settings (a session's own): set NAME to VALUE (NULL removes
 * it), -1 out of memory; free the list. */
typedef struct rlx__option {
    char *name, *value;
} rlx__option;
int rlx__option_list_set(rlx__option **items, uint32_t *n, const char *name,
                         const char *value);
void rlx__option_list_free(rlx__option **items, uint32_t *n);
/* NAME's value: OWN's entry (a session's settings), else the host's
 * sources (environment, config file); remembered for `rlx devices`. */
rlx_status rlx__options_get(rlx_runtime *rt, const rlx__option *own,
                           uint32_t n_own, const char *name, char *value,
                           size_t value_size);
rlx_status rlx__host_get_option(const rlx_host *host, const char *name,
                                char *value, size_t value_size);
/* ---- scan_cache.c: the per-user cache directory --------------------- */

/* $XDG_CACHE_HOME/rlx (else ~/.cache/rlx), malloc'd; NULL when neither
 * names an absolute path or the environment is untrusted. */
char *rlx__cache_dir(void);
/* Make the directory of cache file FILE (and its parent); 0 when it
 * exists afterwards. */
int rlx__cache_mkdir(const char *file);

/* ---- probe_cache.c: probes remembered across processes -------------- */

/* Like rlx_backend_probe_ex, answered from the per-user probe cache when
 * B exports rlx.probe_key.v1 and its key is unchanged; *FROM_CACHE says
 * which. For automatic choice; `rlx devices` probes live. */
rlx_status rlx__probe_cached(const rlx_backend *b, uint32_t *device_count,
                             uint32_t *flags, int *from_cache);

/* The cache's answer for B without a live probe: 1 when there is one
 * (*STATUS and the error, or the count and flags); *CACHEABLE says
 * whether B has a probe key at all. */
int rlx__probe_cache_lookup(const rlx_backend *b, rlx_status *status,
                            uint32_t *device_count, uint32_t *flags,
                            int *cacheable);

/* ---- probe_batch.c: the probes of automatic choice, concurrently ---- */

/* One backend's answer, probed ahead of automatic choice. */
typedef struct rlx__probe_slot {
    const rlx_backend *b;
    int done;                /* answered; else probe it in place */
    rlx_status status;
    uint32_t count, flags;
    int cached;
    char error[RLX_MSG_MAX];
} rlx__probe_slot;
typedef struct rlx__probe_batch {
    rlx__probe_slot *slots;
    uint32_t n;
    unsigned long long token; /* unique per batch: lazy.c checks once */
} rlx__probe_batch;
/* Answer every executing backend RT's policy allows: from the probe cache
 * where it can, and the cache misses of backends with a probe key (the
 * slow ones: drivers, devices) each in its own thread when there are two
 * or more. Others are left for the caller to probe in place. */
void rlx__probe_batch_run(const rlx_runtime *rt, rlx__probe_batch *pb);
const rlx__probe_slot *rlx__probe_batch_find(const rlx__probe_batch *pb,
                                             const rlx_backend *b);
void rlx__probe_batch_free(rlx__probe_batch *pb);

/* A cached answer, found without the plugin (rlx__probe_cache_offline). */
typedef struct rlx__probe_answer {
    rlx_status status;
    uint32_t count, flags;
    unsigned long long hash; /* names the answer: id, plugin file, key */
    char message[RLX_MSG_MAX];
} rlx__probe_answer;
/* 1 when the probe cache holds an answer for backend ID of the plugin
 * file PATH, not loaded, whose stored key still holds now (every item
 * evaluated again, probe_replay.c) and whose file is unchanged; *OUT
 * gets it. 0 when there is none or the cache is off. */
/* Items found unchanged, remembered across the keys of one plugin's
 * backends (they share most items). */
typedef struct rlx__replay_memo {
    unsigned long long seen[512];
    uint32_t n;
} rlx__replay_memo;
int rlx__probe_cache_offline(const rlx_runtime *rt, const char *id,
                             const char *path, rlx__probe_answer *out,
                             rlx__replay_memo *memo);
/* 1 when every item of KEY (rlx/probe_key.h) evaluates to the same text
 * now; 0 when one changed or cannot be evaluated by the core. MEMO (may
 * be NULL) skips items already found unchanged. */
int rlx__probe_key_replay(const char *key, const rlx_host *host,
                          rlx__replay_memo *memo);

/* ---- lazy.c: plugins opened only when needed ------------------------- */

/*
 * During discovery, a plugin file the registry cache knows (scanned
 * clean) whose every backend executes, serves no "cpu" device and has a
 * cached "unavailable" answer that still holds is not opened: it is kept
 * as a deferred record with the cached facts. Automatic device choice
 * explains it from the cache; whatever must see the real backends (the
 * public enumeration, an explicit request for its id or device, a
 * changed key) opens it through the normal loader first.
 */
struct rlx__deferred;
struct rlx__scan_entry;
/* Lock held: defer PATH (ST) described by the scan entry SCANNED; 1 when
 * deferred (nothing else to do), 0 to load it now. */
int rlx__lazy_defer(rlx_runtime *rt, const char *path,
                    unsigned long long dev, unsigned long long ino,
                    const struct rlx__scan_entry *scanned);
/* Open every deferred plugin with a backend ID (when given) or serving
 * DEVICE (when given); both NULL: all. Takes the lock. */
void rlx__lazy_load(const rlx_runtime *rt, const char *id,
                    const char *device);
/* Automatic choice for DEVICE: deferred plugins serving it whose cached
 * answer no longer holds are opened (checked once per TOKEN, a choice's
 * probe batch; 0: always); for each of the others' backends
 * NOTE is called (lock held) with the backend's id and its answer.
 * Returns how many backends were noted. */
uint32_t rlx__lazy_settle(const rlx_runtime *rt, const char *device,
                          unsigned long long token,
                          void (*note)(void *ctx, const char *device,
                                       const char *id,
                                       const rlx__probe_answer *a,
                                       const char *policy_why),
                          void *ctx);
/* Custom device names of deferred backends, each once, into NAMES (up
 * to MAX); returns how many. */
uint32_t rlx__lazy_custom_devices(const rlx_runtime *rt, char (*names)[32],
                                  uint32_t max);
/* Lock held: the deferred plugin that provides ID, or NULL. */
const char *rlx__lazy_owner(const rlx_runtime *rt, const char *id);
/* Lock held: 1 when PATH (or DEV/INO when HAVE_ID) is deferred; FORGET
 * drops it (unloading a plugin never opened). */
int rlx__lazy_find(rlx_runtime *rt, const char *path, int have_id,
                   unsigned long long dev, unsigned long long ino,
                   int forget, const char **as);
void rlx__lazy_free(rlx_runtime *rt);

/* ---- host.c: the table handed to plugins ------------------------------ */

void rlx__host_init(rlx_runtime *rt);
/* RLX_LOG's level: -1 (silent) to 3 (debug); a bad value warns once. */
int rlx__log_level(void);

/* ---- diag (runtime.c) ------------------------------------------------- */

void rlx__diag_add(rlx_runtime *rt, rlx_diag_kind kind, const char *path,
                   const char *reason, const char *fix);

/* ---- loader.c, elf.c -------------------------------------------------- */

/* Load one file; on rejection records a diagnostic and sets the error.
 * These run with the runtime lock held. */
rlx_status rlx__loader_load(rlx_runtime *rt, const char *path);
/* Scan each directory of a colon-separated list. SOURCE (a static string)
 * says where the list came from; for RLX__SOURCE_SYSTEM a directory that
 * does not exist is skipped without a diagnostic. */
#define RLX__SOURCE_ENV "RLX_PLUGIN_PATH"
#define RLX__SOURCE_SYSTEM "system"
#define RLX__SOURCE_API "rlx_runtime_discover"
void rlx__loader_scan(rlx_runtime *rt, const char *dirs, const char *source);
/* Free every plugin: destroy its backends, close its file. */
void rlx__loader_unload_all(rlx_runtime *rt);
/* Between begin and end, variants wait; end initialises the best of each
 * family and records the others as not chosen (lock held). */
void rlx__loader_scan_begin(rlx_runtime *rt);
void rlx__loader_scan_end(rlx_runtime *rt);
/* Run a linked-in plugin's init as if it had been loaded from a file. */
rlx_status rlx__loader_builtin(rlx_runtime *rt, const char *name,
                               rlx_plugin_init_fn init);
/* 0 when ADDR (from dlsym) is a data object, not a function. */
int rlx__symbol_is_function(void *addr);

#endif /* RLX__PLUGIN_H */
