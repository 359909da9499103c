/*
 * options.c - option parsing shared by the commands that take values:
 * "--name value" and "--name=value", numbers checked in full and always
 * read in decimal (a leading zero is not octal), devices never empty.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

const char *cli_option_value(int argc, char **argv, int *i, const char *name,
                             int *missing)
{
    size_t n = strlen(name);
    const char *arg = argv[*i];

    if (strncmp(arg, name, n) != 0)
        return NULL;
    if (arg[n] == '=')
        return arg + n + 1;
    if (arg[n] != '\0')
        return NULL;
    if (*i + 1 >= argc) {
        *missing = 1;
        return NULL;
    }
    return argv[++*i];
}

int cli_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
    char *end;
    if (!s || *s < '0' || *s > '9')
        return -1;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10); /* "010" is ten */
    if (errno || *end || v < min || v > max)
        return -1;
    *out = v;
    return 0;
}

int cli_device_check(const char *command, const char *device)
{
    if (*device)
        return 0;
    return cli_usage_error("%s: --device wants a device name or backend id "
                           "(such as cpu, cuda:1 or cpu-ref), not an empty "
                           "string; leave --device out for the best "
                           "device", command);
}

void cli_format(char *dst, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(dst, n, fmt, ap);
    va_end(ap);
}
