/*
 * cli.h - what the rlx tool's files share: the commands and exit codes.
 *
 * The tool is a client of librlx like any other: it includes only
 * <rlx/rlx.h> and never reaches into core internals.
 */
#ifndef RLX_TOOLS_CLI_H
#define RLX_TOOLS_CLI_H

#include <stdint.h>
#include <stdio.h>

/* Exit codes. */
#define CLI_EXIT_OK 0
#define CLI_EXIT_FAILURE 1 /* the runtime reported an error */
#define CLI_EXIT_USAGE 2   /* unknown command or bad option */

/* Each command gets its own arguments (argv[0] is the command name) and
 * returns the process exit code. */
int cli_cmd_devices(int argc, char **argv);
int cli_cmd_demo(int argc, char **argv);
int cli_cmd_run(int argc, char **argv);
int cli_cmd_conformance(int argc, char **argv);
int cli_cmd_bench(int argc, char **argv);
int cli_cmd_ops(int argc, char **argv);
int cli_cmd_check(int argc, char **argv);

/* The value of ARGV[*I] given as "NAME value" or "NAME=value"; NULL when
 * it is not that option (*MISSING set when the value is absent).
 * Advances *I past a separate value. */
const char *cli_option_value(int argc, char **argv, int *i, const char *name,
                             int *missing);
/* snprintf for messages that may be cut short on purpose (it keeps
 * -Wformat-truncation for the cases where cutting would be a bug). */
void cli_format(char *dst, size_t n, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* A whole decimal number in [MIN, MAX] ("010" is ten); -1 otherwise. */
int cli_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);
/* 0 when DEVICE (a --device value) is not empty; else a usage error
 * naming COMMAND, and CLI_EXIT_USAGE. */
int cli_device_check(const char *command, const char *device);

/* Text from a file made safe to print (text.c): control characters and
 * invalid UTF-8 as \xHH. The result lives in one of 8 static buffers,
 * reused in turn: fine for the arguments of one printf.
 * cli_text: a name (tensor, node, output, model), cut short past
 * CLI_TEXT_NAME_MAX bytes with "...(N bytes)".
 * cli_message: a message that may quote such names (rlx_last_error());
 * newlines kept. */
#define CLI_TEXT_NAME_MAX 200
const char *cli_text(const char *s);
const char *cli_message(const char *s);

/* The session's explanation (rlx_session_explain) on stdout: in full
 * under "Why:", or brief, its decisions on one "Why:" line (cmd_run.c). */
void cli_explain_print(const char *why);
void cli_explain_brief_print(const char *why);

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
