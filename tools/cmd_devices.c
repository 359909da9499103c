/*
 * cmd_devices.c - `rlx devices [--json] [--rescan]`: what backends this
 * process can see and why the rest cannot be used.
 *
 * Listing is the point even when plugins are broken, so rejected files do
 * not fail the command: it exits 0 whenever the runtime could be created.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "devices_report.h"

int cli_cmd_devices(int argc, char **argv)
{
    int json = 0;
    uint32_t flags = 0;

    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--json")) {
            json = 1;
        } else if (!strcmp(argv[i], "--rescan")) {
            /* scan every plugin file again, ignoring the registry cache
             * (docs/scanner.md): a flag, not RLX_PLUGIN_SCAN, which a
             * set-user-ID rlx would ignore */
            flags |= RLX_RUNTIME_RESCAN;
        } else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            cli_usage_print(stdout);
            return CLI_EXIT_OK;
        } else if (argv[i][0] == '-') {
            return cli_usage_error("devices: unknown option '%s'", argv[i]);
        } else {
            return cli_usage_error("devices: unexpected argument '%s'",
                                   argv[i]);
        }
    }

    cli_devices_report r;
    int runtime_failed;
    if (cli_devices_report_gather(&r, flags, &runtime_failed) != RLX_OK) {
        if (runtime_failed)
            return cli_runtime_error("cannot create the runtime");
        fputs("rlx: out of memory\n", stderr);
        return CLI_EXIT_FAILURE;
    }
    if (json)
        cli_devices_print_json(&r, stdout);
    else
        cli_devices_print_text(&r, stdout);
    cli_devices_report_free(&r);
    return fflush(stdout) == 0 ? CLI_EXIT_OK : CLI_EXIT_FAILURE;
}
