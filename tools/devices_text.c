/*
 * devices_text.c - the human `rlx devices` report: search order, a table
 * of backends with a detail line or two under each, the backend chosen
 * per device, and every plugin file that was not loaded with its fix.
 */
#include <string.h>

#include "cli.h"
#include "devices_report.h"

static int width_max(int w, const char *s)
{
    int n = s ? (int)strlen(s) : 0;
    return n > w ? n : w;
}

/* LABEL then S and a newline; control bytes in S (a path may hold any)
 * are shown as \xNN so they cannot garble the terminal (cli_message). */
static void text_line(FILE *out, const char *label, const char *s)
{
    fputs(label, out);
    fputs(s ? cli_message(s) : "", out);
    fputc('\n', out);
}

static void text_search_path(const cli_devices_report *r, FILE *out)
{
    fprintf(out, "Plugin search order:\n");
    for (size_t i = 0; i < r->n_search; i++) {
        char label[64];
        snprintf(label, sizeof label, "  %zu. %-15s  ", i + 1,
                 i < r->n_env_search ? "RLX_PLUGIN_PATH" : "system");
        text_line(out, label, r->search_path[i]);
    }
}

static void text_backend_status(const cli_backend_row *b, char *buf,
                                size_t n)
{
    if (!b->available)
        snprintf(buf, n, "unavailable");
    else
        snprintf(buf, n, "available (%u device%s)", (unsigned)b->device_count,
                 b->device_count == 1 ? "" : "s");
}

/* "  device: cuda:0  NVIDIA H200, discrete GPU, 139.8 GiB (139.1 free)" */
static void text_device(FILE *out, const cli_backend_row *b,
                        const cli_device_row *d)
{
    char line[512];
    int n = snprintf(line, sizeof line, "%s:%u  %s", b->device,
                     (unsigned)d->index, d->info.name);
    if (d->info.type[0] && n > 0 && (size_t)n < sizeof line)
        n += snprintf(line + n, sizeof line - (size_t)n, ", %s",
                      d->info.type);
    if (d->info.memory_total && n > 0 && (size_t)n < sizeof line)
        n += snprintf(line + n, sizeof line - (size_t)n, ", %.1f GiB",
                      (double)d->info.memory_total / (1u << 30));
    if (d->info.memory_free && n > 0 && (size_t)n < sizeof line)
        snprintf(line + n, sizeof line - (size_t)n, " (%.1f free)",
                 (double)d->info.memory_free / (1u << 30));
    text_line(out, "      device: ", line);
    if (d->info.detail[0])
        text_line(out, "              ", d->info.detail);
}

static void text_backends(const cli_devices_report *r, FILE *out)
{
    int wid = (int)strlen("ID"), wdev = (int)strlen("DEVICE");
    for (size_t i = 0; i < r->n_backends; i++) {
        wid = width_max(wid, r->backends[i].id);
        wdev = width_max(wdev, r->backends[i].device);
    }

    fprintf(out, "Backends: %zu registered (* = chosen for its device)\n",
            r->n_backends);
    fprintf(out, "    %-*s  %-*s  %8s  %-13s  %-4s  %s\n", wid, "ID", wdev,
            "DEVICE", "PRIORITY", "MODE", "ABI", "STATUS");
    for (size_t i = 0; i < r->n_backends; i++) {
        const cli_backend_row *b = &r->backends[i];
        char status[64];
        text_backend_status(b, status, sizeof status);
        fprintf(out, "  %c %-*s  %-*s  %8d  %-13s  %-4s  %s\n",
                b->chosen ? '*' : ' ', wid, b->id, wdev, b->device,
                (int)b->priority, b->executes ? "executes" : "does not execute",
                b->abi, status);
        if (b->description && *b->description)
            text_line(out, "      about:  ", b->description);
        text_line(out, "      plugin: ", b->plugin);
        if (b->host_fit >= 0) {
            char fit[48];
            snprintf(fit, sizeof fit, "%d (best variant for this host)",
                     (int)b->host_fit);
            text_line(out, "      score:  ", fit);
        }
        if (b->policy)
            text_line(out, "      policy: ", b->policy);
        for (size_t k = 0; k < b->n_devices; k++)
            text_device(out, b, &b->devices[k]);
        if (!b->available) {
            text_line(out, "      reason: ", b->reason);
            if (b->fix)
                text_line(out, "      fix:    ", b->fix);
        }
        /* last, so the lines above keep their places for scripts */
        if (b->executes)
            text_line(out, "      io:     ",
                      b->device_io ? "device (bound tensors stay in device "
                                     "memory across runs)"
                                   : "host copies (bound tensors are copied "
                                     "once per run)");
    }
}

static void text_choices(const cli_devices_report *r, FILE *out)
{
    int w = 0;
    for (size_t i = 0; i < r->n_choices; i++)
        w = width_max(w, r->choices[i].device);
    fprintf(out, "Chosen per device:\n");
    for (size_t i = 0; i < r->n_choices; i++) {
        const cli_device_choice *c = &r->choices[i];
        if (c->chosen)
            fprintf(out, "  %-*s -> %s\n", w, c->device, c->chosen->id);
        else
            fprintf(out, "  %-*s -> (none: %s)\n", w, c->device, c->reason);
    }
}

static void text_settings(const cli_devices_report *r, FILE *out)
{
    if (r->n_settings == 0) {
        fprintf(out, "Settings: none asked for by the plugins\n");
        return;
    }
    fprintf(out, "Settings asked for by the plugins (session options > "
            "RLX_ variable > config file options:):\n");
    for (size_t i = 0; i < r->n_settings; i++) {
        const cli_setting_row *s = &r->settings[i];
        if (s->set)
            fprintf(out, "  %s = %s  (from %s)\n", s->name,
                    cli_text(s->value), cli_message(s->source));
        else
            fprintf(out, "  %s unset  (set %s, or options: in the config "
                    "file)\n", s->name, s->source);
    }
}

static void text_diagnostics(const cli_devices_report *r, FILE *out)
{
    if (r->n_diags == 0) {
        fprintf(out, "Diagnostics: none; every plugin file found was loaded\n");
        return;
    }
    fprintf(out, "Diagnostics: %zu file%s or setting%s not used\n",
            r->n_diags, r->n_diags == 1 ? "" : "s",
            r->n_diags == 1 ? "" : "s");
    for (size_t i = 0; i < r->n_diags; i++) {
        const cli_diag_row *d = &r->diags[i];
        char label[32];
        snprintf(label, sizeof label, "  %-8s  ", rlx_diag_kind_name(d->kind));
        text_line(out, label, d->path);
        text_line(out, "      reason: ", d->reason);
        if (d->fix)
            text_line(out, "      fix:    ", d->fix);
    }
}

void cli_devices_print_text(const cli_devices_report *r, FILE *out)
{
    uint32_t abi = rlx_abi_version();

    fprintf(out, "rlx %s (plugin ABI %u.%u)\n\n", rlx_version(),
            (unsigned)RLX_ABI_VERSION_MAJOR_OF(abi),
            (unsigned)RLX_ABI_VERSION_MINOR_OF(abi));
    text_search_path(r, out);
    if (r->config_path)
        text_line(out, "Config file: ", r->config_path);
    fputc('\n', out);
    text_backends(r, out);
    fputc('\n', out);
    text_choices(r, out);
    fputc('\n', out);
    text_settings(r, out);
    fputc('\n', out);
    text_diagnostics(r, out);
}
