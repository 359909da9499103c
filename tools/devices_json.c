/*
 * devices_json.c - `rlx devices --json`: the report as one JSON object,
 * for scripts and bug reports. Field names are part of the tool's
 * interface: add new ones, do not rename.
 */
#include "devices_report.h"
#include "json.h"

static void json_backends(cli_json *j, const cli_devices_report *r)
{
    cli_json_key(j, "backends");
    cli_json_array_begin(j);
    for (size_t i = 0; i < r->n_backends; i++) {
        const cli_backend_row *b = &r->backends[i];
        cli_json_object_begin(j);
        cli_json_member_string(j, "id", b->id);
        cli_json_member_string(j, "device", b->device);
        cli_json_member_int(j, "priority", b->priority);
        cli_json_member_bool(j, "executes", b->executes);
        cli_json_member_bool(j, "device_io", b->device_io);
        cli_json_member_string(j, "plugin", b->plugin);
        cli_json_member_string(j, "abi_version", b->abi);
        cli_json_member_string(j, "description", b->description);
        cli_json_member_bool(j, "available", b->available);
        cli_json_member_int(j, "device_count", b->device_count);
        cli_json_member_string(j, "reason", b->reason);
        cli_json_member_string(j, "fix", b->fix);
        cli_json_member_bool(j, "chosen", b->chosen);
        cli_json_member_bool(j, "allowed", b->allowed);
        cli_json_member_string(j, "policy", b->policy);
        if (b->host_fit >= 0)
            cli_json_member_int(j, "host_fit", b->host_fit);
        else
            cli_json_member_string(j, "host_fit", NULL);
        cli_json_key(j, "devices");
        cli_json_array_begin(j);
        for (size_t k = 0; k < b->n_devices; k++) {
            const cli_device_row *d = &b->devices[k];
            cli_json_object_begin(j);
            cli_json_member_int(j, "index", d->index);
            cli_json_member_string(j, "name", d->info.name);
            cli_json_member_string(j, "type", d->info.type);
            cli_json_member_int(j, "memory_total", (int64_t)d->info.memory_total);
            cli_json_member_int(j, "memory_free", (int64_t)d->info.memory_free);
            cli_json_member_string(j, "detail", d->info.detail);
            cli_json_member_bool(j, "software",
                                 (d->info.flags & RLX_PROBE_SOFTWARE) != 0);
            cli_json_object_end(j);
        }
        cli_json_array_end(j);
        cli_json_object_end(j);
    }
    cli_json_array_end(j);
}

/* {"cpu": "cpu-ref", "cuda": null}: null when nothing can run there. */
static void json_chosen(cli_json *j, const cli_devices_report *r)
{
    cli_json_key(j, "chosen");
    cli_json_object_begin(j);
    for (size_t i = 0; i < r->n_choices; i++) {
        const cli_device_choice *c = &r->choices[i];
        cli_json_member_string(j, c->device, c->chosen ? c->chosen->id : NULL);
    }
    cli_json_object_end(j);
}

static void json_settings(cli_json *j, const cli_devices_report *r)
{
    cli_json_key(j, "settings");
    cli_json_array_begin(j);
    for (size_t i = 0; i < r->n_settings; i++) {
        const cli_setting_row *s = &r->settings[i];
        cli_json_object_begin(j);
        cli_json_member_string(j, "name", s->name);
        cli_json_member_bool(j, "set", s->set);
        cli_json_member_string(j, "value", s->value);
        cli_json_member_string(j, s->set ? "source" : "variable", s->source);
        cli_json_object_end(j);
    }
    cli_json_array_end(j);
}

static void json_diagnostics(cli_json *j, const cli_devices_report *r)
{
    cli_json_key(j, "diagnostics");
    cli_json_array_begin(j);
    for (size_t i = 0; i < r->n_diags; i++) {
        const cli_diag_row *d = &r->diags[i];
        cli_json_object_begin(j);
        cli_json_member_string(j, "kind", rlx_diag_kind_name(d->kind));
        cli_json_member_string(j, "path", d->path);
        cli_json_member_string(j, "reason", d->reason);
        cli_json_member_string(j, "fix", d->fix);
        cli_json_object_end(j);
    }
    cli_json_array_end(j);
}

void cli_devices_print_json(const cli_devices_report *r, FILE *out)
{
    cli_json j;
    uint32_t abi = rlx_abi_version();
    char abi_text[24];

    snprintf(abi_text, sizeof abi_text, "%u.%u",
             (unsigned)RLX_ABI_VERSION_MAJOR_OF(abi),
             (unsigned)RLX_ABI_VERSION_MINOR_OF(abi));
    cli_json_init(&j, out);
    cli_json_object_begin(&j);
    cli_json_member_string(&j, "rlx_version", rlx_version());
    cli_json_member_string(&j, "abi_version", abi_text);
    cli_json_member_string(&j, "plugin_dir", rlx_plugin_dir());
    cli_json_member_string(&j, "config_file", r->config_path);
    cli_json_key(&j, "search_path");
    cli_json_array_begin(&j);
    for (size_t i = 0; i < r->n_search; i++)
        cli_json_string(&j, r->search_path[i]);
    cli_json_array_end(&j);
    json_backends(&j, r);
    json_chosen(&j, r);
    json_settings(&j, r);
    json_diagnostics(&j, r);
    cli_json_object_end(&j);
    cli_json_finish(&j);
}
