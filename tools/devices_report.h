/*
 * devices_report.h - everything `rlx devices` shows, gathered once.
 *
 * Gathering is kept apart from printing so the human report and --json
 * show exactly the same facts: the probe runs once per backend, and the
 * error text it leaves is copied before the next call overwrites it.
 */
#ifndef RLX_TOOLS_DEVICES_REPORT_H
#define RLX_TOOLS_DEVICES_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <rlx/rlx.h>

/* One device of a backend, as its device_describe slot tells. */
typedef struct cli_device_row {
    uint32_t index;
    rlx_device_info info;
} cli_device_row;

typedef struct cli_backend_row {
    const rlx_backend *backend;
    const char *id;
    const char *device;   /* rlx_backend_device_name */
    const char *plugin;   /* file path or "(built-in)" */
    const char *description;
    int32_t priority;
    int executes;
    int device_io;        /* run inputs and outputs stay on the device */
    char abi[24];         /* "1.0" */
    int available;
    uint32_t device_count;
    char *reason;         /* when unavailable; owned */
    char *fix;            /* when unavailable; owned, may be NULL */
    int chosen;           /* rlx_runtime_choose picks it for its device */
    int32_t host_fit;     /* variant score, -1 when the plugin has none */
    int allowed;          /* the selection policy lets it be chosen */
    char *policy;         /* the rule that applies to it; owned, may be NULL */
    cli_device_row *devices; /* described devices; owned, may be NULL */
    size_t n_devices;
} cli_backend_row;

/* One per distinct device name, in order of first appearance. */
typedef struct cli_device_choice {
    const char *device;
    const cli_backend_row *chosen; /* NULL: nothing usable */
    char *reason;                  /* why nothing; owned */
} cli_device_choice;

typedef struct cli_diag_row {
    rlx_diag_kind kind;
    const char *path;
    char *reason; /* owned */
    char *fix;    /* owned, may be NULL */
} cli_diag_row;

/* A plugin setting (ABI 1.3 get_option) a plugin asked for. */
typedef struct cli_setting_row {
    const char *name;
    char value[256];      /* "" when unset */
    char source[512];     /* variable or config file; when unset, the
                             variable that would set it */
    int set;
} cli_setting_row;

typedef struct cli_devices_report {
    rlx_runtime *rt;
    const char *config_path; /* the config file read, or NULL */
    char **search_path; /* RLX_PLUGIN_PATH entries, then the plugin dir */
    size_t n_search;
    size_t n_env_search; /* how many of those came from RLX_PLUGIN_PATH */
    cli_backend_row *backends;
    size_t n_backends;
    cli_device_choice *choices;
    size_t n_choices;
    cli_diag_row *diags;
    size_t n_diags;
    cli_setting_row *settings;
    size_t n_settings;
} cli_devices_report;

/* Creates a discovering runtime (rlx_runtime_create FLAGS) and fills R.
 * On failure R is left empty; *RUNTIME_FAILED says whether the runtime
 * refused (rlx_last_error() has why) or the tool ran out of memory. */
rlx_status cli_devices_report_gather(cli_devices_report *r, uint32_t flags,
                                     int *runtime_failed);
void cli_devices_report_free(cli_devices_report *r);


/* The two views of a report: devices_text.c and devices_json.c. */
void cli_devices_print_text(const cli_devices_report *r, FILE *out);
void cli_devices_print_json(const cli_devices_report *r, FILE *out);

#endif /* RLX_TOOLS_DEVICES_REPORT_H */
