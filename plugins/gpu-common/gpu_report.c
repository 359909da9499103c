/*
 * gpu_report.c - error and log messages of the GPU backends, formatted
 * and handed to the host.
 */
#include <stdarg.h>
#include <stdio.h>

#include "gpu_internal.h"

rlx_status rlxg_fail(const rlx_host *host, rlx_status st, const char *fmt,
                     ...)
{
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return rlx_host_report(host, st, msg);
}

void rlxg_log(const rlx_host *host, rlx_log_level level, const char *fmt, ...)
{
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    rlx_host_log(host, level, msg);
}
