/*
 * cli.h - what the rlx tool's files share: the commands and exit codes.
 *
 * The tool is a client of librlx like any other: it includes only
 * <rlx/rlx.h> and never reaches into core internals.
 */
#ifndef RLX_TOOLS_CLI_H
#define RLX_TOOLS_CLI_H

#include <stdio.h>

/* Exit codes. */
#define CLI_EXIT_OK 0
#define CLI_EXIT_FAILURE 1 /* the runtime reported an error */
#define CLI_EXIT_USAGE 2   /* unknown command or bad option */

/* Each command gets its own arguments (argv[0] is the command name) and
 * returns the process exit code. */
int cli_cmd_devices(int argc, char **argv);
int cli_cmd_demo(int argc, char **argv);

void cli_usage_print(FILE *out);
/* "rlx: MESSAGE" and a hint to run rlx --help; returns CLI_EXIT_USAGE. */
int cli_usage_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
/* "rlx: WHAT: <rlx_last_error()>"; returns CLI_EXIT_FAILURE. */
int cli_runtime_error(const char *what);

#endif /* RLX_TOOLS_CLI_H */
