/*
 * devices_report.c - asks the runtime what it found: backends with their
 * probes, the backend chosen per device name, and the diagnostics kept
 * for plugin files that were rejected or shadowed. The backends' probes
 * run concurrently (the ABI allows it): listing costs the slowest probe,
 * not the sum of them.
 */
#include "devices_report.h"

#include <ctype.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* A copy of S[0..n) without surrounding white space. */
static char *text_trimmed_copy(const char *s, size_t n)
{
    while (n > 0 && isspace((unsigned char)*s)) {
        s++;
        n--;
    }
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        n--;
    char *copy = malloc(n + 1);
    if (copy) {
        memcpy(copy, s, n);
        copy[n] = '\0';
    }
    return copy;
}

/* Messages read "<reason> Fix: <remedy>": split them at "Fix:". A message
 * without one keeps its whole text as the reason and *fix stays NULL. */
static void text_split_fix(const char *msg, char **reason, char **fix)
{
    const char *at;

    *fix = NULL;
    if (!msg || !*msg)
        msg = "no reason given";
    at = strstr(msg, "Fix:");
    if (!at) {
        *reason = text_trimmed_copy(msg, strlen(msg));
        return;
    }
    *reason = text_trimmed_copy(msg, (size_t)(at - msg));
    at += strlen("Fix:");
    *fix = text_trimmed_copy(at, strlen(at));
    if (*fix && !**fix) {
        free(*fix);
        *fix = NULL;
    }
}

static int search_path_push(cli_devices_report *r, const char *s, size_t n)
{
    char **grown = realloc(r->search_path, (r->n_search + 1) * sizeof *grown);
    if (!grown)
        return -1;
    r->search_path = grown;
    grown[r->n_search] = malloc(n + 1);
    if (!grown[r->n_search])
        return -1;
    memcpy(grown[r->n_search], s, n);
    grown[r->n_search][n] = '\0';
    r->n_search++;
    return 0;
}

/* The directories the runtime scanned, in order, as it reports them. */
static int search_path_gather(cli_devices_report *r, const rlx_runtime *rt)
{
    const char *source, *dir;
    for (uint32_t i = 0; (dir = rlx_runtime_search_dir(rt, i, &source)); i++) {
        if (search_path_push(r, dir, strlen(dir)) != 0)
            return -1;
        if (strcmp(source, "RLX_PLUGIN_PATH") == 0)
            r->n_env_search = r->n_search;
    }
    return 0;
}

/* Each device the backend can describe; a backend that cannot is fine. */
static int backend_devices_fill(cli_backend_row *row, const rlx_backend *b)
{
    if (row->device_count == 0)
        return 0;
    row->devices = calloc(row->device_count, sizeof *row->devices);
    if (!row->devices)
        return -1;
    for (uint32_t i = 0; i < row->device_count; i++) {
        cli_device_row *d = &row->devices[row->n_devices];
        d->index = i;
        d->info.struct_size = sizeof d->info;
        if (rlx_backend_device(b, i, &d->info) == RLX_OK)
            row->n_devices++;
    }
    return 0;
}

/* What the row needs before its probe. */
static int backend_row_fill(cli_backend_row *row, const rlx_runtime *r_rt,
                            const rlx_backend *b)
{
    uint32_t abi = rlx_backend_abi_version(b);

    row->backend = b;
    row->id = rlx_backend_id(b);
    row->device = rlx_backend_device_name(b);
    row->plugin = rlx_backend_plugin_path(b);
    row->description = rlx_backend_description(b);
    row->priority = rlx_backend_priority(b);
    row->executes = rlx_backend_executes(b);
    row->device_io = rlx_backend_device_io(b);
    row->host_fit = rlx_backend_host_fit(b);
    const char *why = NULL;
    row->allowed = rlx_runtime_backend_allowed(r_rt, b, &why);
    if (why && !(row->policy = strdup(why)))
        return -1;
    snprintf(row->abi, sizeof row->abi, "%u.%u",
             (unsigned)RLX_ABI_VERSION_MAJOR_OF(abi),
             (unsigned)RLX_ABI_VERSION_MINOR_OF(abi));
    return 0;
}

/* The row's probe: in its own thread, whose last error it reads. */
typedef struct probe_job {
    cli_backend_row *row;
    pthread_t thread;
    int started;
    int rc;
} probe_job;

static void *probe_job_run(void *arg)
{
    probe_job *j = arg;
    uint32_t count = 0;
    j->rc = 0;
    if (rlx_backend_probe(j->row->backend, &count) == RLX_OK) {
        j->row->available = 1;
        j->row->device_count = count;
        return NULL;
    }
    text_split_fix(rlx_last_error(), &j->row->reason, &j->row->fix);
    j->rc = j->row->reason ? 0 : -1;
    return NULL;
}

/* Probe every row at once, then describe the devices of the available
 * ones one backend at a time. */
static int backends_probe(cli_devices_report *r)
{
    probe_job *jobs = calloc(r->n_backends ? r->n_backends : 1, sizeof *jobs);
    if (!jobs)
        return -1;
    for (size_t i = 0; i < r->n_backends; i++) {
        jobs[i].row = &r->backends[i];
        jobs[i].started = pthread_create(&jobs[i].thread, NULL,
                                         probe_job_run, &jobs[i]) == 0;
        if (!jobs[i].started) /* no thread: probe here */
            probe_job_run(&jobs[i]);
    }
    int rc = 0;
    for (size_t i = 0; i < r->n_backends; i++) {
        if (jobs[i].started)
            pthread_join(jobs[i].thread, NULL);
        if (jobs[i].rc != 0)
            rc = -1;
    }
    free(jobs);
    for (size_t i = 0; i < r->n_backends && rc == 0; i++)
        if (r->backends[i].available &&
            backend_devices_fill(&r->backends[i], r->backends[i].backend) != 0)
            rc = -1;
    return rc;
}

static cli_device_choice *choice_find(cli_devices_report *r, const char *dev)
{
    for (size_t i = 0; i < r->n_choices; i++)
        if (strcmp(r->choices[i].device, dev) == 0)
            return &r->choices[i];
    return NULL;
}

/* For each distinct device name, which backend a session would get. */
static int choices_gather(cli_devices_report *r)
{
    r->choices = calloc(r->n_backends ? r->n_backends : 1, sizeof *r->choices);
    if (!r->choices)
        return -1;
    for (size_t i = 0; i < r->n_backends; i++) {
        const char *dev = r->backends[i].device;
        if (!dev || choice_find(r, dev))
            continue;
        cli_device_choice *c = &r->choices[r->n_choices++];
        c->device = dev;
        const rlx_backend *b = rlx_runtime_choose(r->rt, dev);
        if (!b) {
            char *fix = NULL;
            text_split_fix(rlx_last_error(), &c->reason, &fix);
            free(fix);
            if (!c->reason)
                return -1;
            continue;
        }
        for (size_t k = 0; k < r->n_backends; k++) {
            if (r->backends[k].backend == b) {
                r->backends[k].chosen = 1;
                c->chosen = &r->backends[k];
            }
        }
    }
    return 0;
}

static int diags_gather(cli_devices_report *r)
{
    uint32_t n = rlx_runtime_diag_count(r->rt);

    r->diags = calloc(n ? n : 1, sizeof *r->diags);
    if (!r->diags)
        return -1;
    for (uint32_t i = 0; i < n; i++) {
        rlx_diag_kind kind = 0;
        const char *path = NULL, *reason = NULL, *fix = NULL;
        if (rlx_runtime_diag(r->rt, i, &kind, &path, &reason, &fix) != RLX_OK)
            continue;
        cli_diag_row *d = &r->diags[r->n_diags++];
        d->kind = kind;
        d->path = path ? path : "(unknown)";
        if (fix && *fix) {
            /* Already split by the runtime. */
            d->reason = text_trimmed_copy(reason ? reason : "",
                                          reason ? strlen(reason) : 0);
            d->fix = text_trimmed_copy(fix, strlen(fix));
            if (!d->fix)
                return -1;
        } else {
            text_split_fix(reason, &d->reason, &d->fix);
        }
        if (!d->reason)
            return -1;
    }
    return 0;
}

/* The settings plugins asked for while loading and probing above. */
static int settings_gather(cli_devices_report *r)
{
    uint32_t n = rlx_runtime_option_count(r->rt);
    r->settings = calloc(n ? n : 1, sizeof *r->settings);
    if (!r->settings)
        return -1;
    for (uint32_t i = 0; i < n; i++) {
        cli_setting_row *s = &r->settings[r->n_settings];
        s->name = rlx_runtime_option_name(r->rt, i);
        if (!s->name)
            continue;
        s->set = rlx_runtime_get_option(r->rt, s->name, s->value,
                                        sizeof s->value, s->source,
                                        sizeof s->source) == RLX_OK;
        r->n_settings++;
    }
    return 0;
}

rlx_status cli_devices_report_gather(cli_devices_report *r, uint32_t flags,
                                     int *runtime_failed)
{
    rlx_status st;

    memset(r, 0, sizeof *r);
    *runtime_failed = 1;
    st = rlx_runtime_create(&r->rt, flags);
    if (st == RLX_OK)
        r->config_path = rlx_runtime_config_path(r->rt);
    if (st != RLX_OK)
        return st;
    *runtime_failed = 0;

    uint32_t n = rlx_runtime_backend_count(r->rt);
    r->backends = calloc(n ? n : 1, sizeof *r->backends);
    if (!r->backends)
        goto oom;
    for (uint32_t i = 0; i < n; i++) {
        const rlx_backend *b = rlx_runtime_backend(r->rt, i);
        if (!b)
            continue;
        if (backend_row_fill(&r->backends[r->n_backends++], r->rt, b) != 0)
            goto oom;
    }
    if (backends_probe(r) != 0 || search_path_gather(r, r->rt) != 0 || choices_gather(r) != 0 ||
        diags_gather(r) != 0 || settings_gather(r) != 0)
        goto oom;
    return RLX_OK;

oom:
    cli_devices_report_free(r);
    return RLX_ERR_OUT_OF_MEMORY;
}

void cli_devices_report_free(cli_devices_report *r)
{
    for (size_t i = 0; i < r->n_search; i++)
        free(r->search_path[i]);
    free(r->search_path);
    for (size_t i = 0; i < r->n_backends; i++) {
        free(r->backends[i].reason);
        free(r->backends[i].fix);
        free(r->backends[i].policy);
        free(r->backends[i].devices);
    }
    free(r->backends);
    for (size_t i = 0; i < r->n_choices; i++)
        free(r->choices[i].reason);
    free(r->choices);
    for (size_t i = 0; i < r->n_diags; i++) {
        free(r->diags[i].reason);
        free(r->diags[i].fix);
    }
    free(r->diags);
    free(r->settings);
    rlx_runtime_destroy(r->rt);
    memset(r, 0, sizeof *r);
}
