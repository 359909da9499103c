/*
 * main.c - the rlx command-line tool: global options and command dispatch.
 *
 * Each command lives in its own cmd_*.c; this file only picks one and
 * owns the usage text and the error conventions (exit 2 for a usage
 * mistake, 1 for a failure the runtime reported).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <rlx/rlx.h>

#include "cli.h"

void cli_usage_print(FILE *out)
{
    fprintf(out,
            "Usage: rlx <command> [options]\n"
            "       rlx --help | --version\n"
            "\n"
            "Commands:\n"
            "  devices [--json] [--rescan]    list backends, their availability,\n"
            "                                 and plugins that were not loaded\n"
            "  demo [--device D] [--batch N] [--why]\n"
            "                                 build and run a small MLP (batch 4)\n"
            "  run MODEL.yaml [options]       load a model and run it (MODEL.onnx\n"
            "                                 too):\n"
            "      --device D                 device or backend id (default: best)\n"
            "      --input NAME=FILE.npy      an input (repeatable); inputs not\n"
            "                                 given get random data in [-1, 1)\n"
            "      --shape NAME=D0,D1,...     dims of an input with symbolic ones\n"
            "                                 (ONNX; --input files set theirs)\n"
            "      --seed N                   seed of that random data (default 0)\n"
            "      --output DIR               write each output as DIR/NAME.npy\n"
            "      --repeat N                 run N times, report the median time\n"
            "      --fallback MODE            nodes the device lacks: split (run\n"
            "                                 them on the CPU, the default), whole\n"
            "                                 (move the model), none (refuse)\n"
            "      --device-chain LIST        try devices in order (cuda,vulkan,cpu)\n"
            "                                 until one compiles and runs\n"
            "      --pick fastest             time every device (or the chain's)\n"
            "                                 on these inputs, run on the fastest\n"
            "      --why, -v                  explain the device choice in full\n"
            "                                 (every candidate and why it lost)\n"
            "      --allow-custom-ops LIB|DIR\n"
            "                                 let the model's custom ops load this\n"
            "                                 library, or those in this directory\n"
            "                                 (repeatable; a model alone loads no\n"
            "                                 code: see security.md)\n"
            "  check MODEL.yaml [options]     which nodes the device can run, why\n"
            "                                 not, and where each one is placed:\n"
            "      --device D                 device or backend id (default: best)\n"
            "      --fallback MODE            split, whole or none\n"
            "      --allow-custom-ops LIB|DIR as for run (repeatable)\n"
            "      --shape NAME=D0,D1,...     dims of an input with symbolic ones\n"
            "  conformance [options]          check a backend's results against\n"
            "                                 cpu-ref, op by op, and the edge cases\n"
            "                                 of ops.md (see conformance.md):\n"
            "      --backend ID               backend under test (default: cpu's)\n"
            "      --seed N                   seed of shapes and values (default 1)\n"
            "      --models FILE.yaml ...     also compare whole models\n"
            "      --json                     the report as JSON\n"
            "  ops [--backend ID] [--json]    op x dtype support matrix per backend\n"
            "  bench MODEL.yaml [options]     compile and run time per backend,\n"
            "                                 and output difference from cpu-ref:\n"
            "      --repeat N                 timed repeats (default 20)\n"
            "      --shape NAME=D0,D1,...     dims of an input with symbolic ones\n"
            "      --backend ID               only this backend (repeatable)\n"
            "      --seed N                   seed of the inputs (default 0)\n"
            "      --fallback MODE            also per placement: split, whole,\n"
            "                                 none (repeatable; rows id/MODE)\n"
            "      --allow-custom-ops LIB|DIR as for run (repeatable)\n"
            "  help                           show this help\n"
            "\n"
            "Options:\n"
            "  -h, --help      show this help\n"
            "  -V, --version   show the library and plugin ABI versions\n"
            "\n"
            "Environment:\n"
            "  RLX_PLUGIN_PATH  colon-separated directories searched for\n"
            "                   librlx-backend-*.so before %s\n"
            "  RLX_DEVICE       device used when none is given: a device name\n"
            "                   (\"cpu\", \"cuda:1\", \"npu\") or a backend id\n"
            "\n"
            "Docs for backend authors (writing-a-backend.md, abi.md,\n"
            "conformance.md, ops.md) and an example backend: %s\n",
            rlx_plugin_dir(), RLX_DOCDIR);
}

int cli_usage_error(const char *fmt, ...)
{
    va_list ap;
    fputs("rlx: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputs("\nTry 'rlx --help' for usage.\n", stderr);
    return CLI_EXIT_USAGE;
}

int cli_runtime_error(const char *what)
{
    const char *msg = rlx_last_error();
    fprintf(stderr, "rlx: %s: %s\n", what,
            msg && *msg ? cli_message(msg) : "unknown error");
    return CLI_EXIT_FAILURE;
}

static int cli_version_print(void)
{
    uint32_t abi = rlx_abi_version();
    printf("rlx %s (plugin ABI %u.%u)\n", rlx_version(),
           (unsigned)RLX_ABI_VERSION_MAJOR_OF(abi),
           (unsigned)RLX_ABI_VERSION_MINOR_OF(abi));
    return CLI_EXIT_OK;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        cli_usage_print(stderr);
        return CLI_EXIT_USAGE;
    }
    const char *cmd = argv[1];

    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        cli_usage_print(stdout);
        return CLI_EXIT_OK;
    }
    if (!strcmp(cmd, "--version") || !strcmp(cmd, "-V"))
        return cli_version_print();
    if (!strcmp(cmd, "devices"))
        return cli_cmd_devices(argc - 1, argv + 1);
    if (!strcmp(cmd, "demo"))
        return cli_cmd_demo(argc - 1, argv + 1);
    if (!strcmp(cmd, "run"))
        return cli_cmd_run(argc - 1, argv + 1);
    if (!strcmp(cmd, "conformance"))
        return cli_cmd_conformance(argc - 1, argv + 1);
    if (!strcmp(cmd, "ops"))
        return cli_cmd_ops(argc - 1, argv + 1);
    if (!strcmp(cmd, "check"))
        return cli_cmd_check(argc - 1, argv + 1);
    if (!strcmp(cmd, "bench"))
        return cli_cmd_bench(argc - 1, argv + 1);
    if (cmd[0] == '-')
        return cli_usage_error("unknown option '%s'", cmd);
    return cli_usage_error("unknown command '%s'", cmd);
}
