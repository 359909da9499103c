/*
 * error.c - per-thread error messages and plugin error reports.
 *
 * rlx_last_error() works like errno: each thread has its own message, so
 * threads sharing a runtime never see each other's failures.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"

static _Thread_local char last_error[RLX_MSG_MAX];
static _Thread_local char report_msg[RLX_MSG_MAX];
static _Thread_local int report_set;

static const struct {
    rlx_status status;
    const char *name;
    const char *text;
} status_table[] = {
#define RLX__STATUS_ROW(name, value, text) { RLX_##name, "RLX_" #name, text },
    RLX_STATUS_MAP(RLX__STATUS_ROW)
#undef RLX__STATUS_ROW
};

#define N_STATUS (sizeof status_table / sizeof *status_table)

const char *rlx_status_name(rlx_status status)
{
    for (size_t i = 0; i < N_STATUS; i++)
        if (status_table[i].status == status)
            return status_table[i].name;
    return "RLX_ERR_UNKNOWN";
}

const char *rlx_status_string(rlx_status status)
{
    for (size_t i = 0; i < N_STATUS; i++)
        if (status_table[i].status == status)
            return status_table[i].text;
    return "unknown status code";
}

const char *rlx_last_error(void)
{
    return last_error;
}

rlx_status rlx__error(rlx_status status, const char *fmt, ...)
{
    /* Format into a separate buffer: callers often embed the previous
     * message (rlx_last_error()) in the new one, and vsnprintf must never
     * read from the buffer it writes. */
    char msg[RLX_MSG_MAX];
    va_list ap, again;
    va_start(ap, fmt);
    va_copy(again, ap);
    int n = vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (n >= (int)sizeof msg) {
        /* too long: format it whole, then cut the quoted user text, not
         * the reason or the Fix (message.c) */
        char *full = malloc((size_t)n + 1);
        if (full) {
            vsnprintf(full, (size_t)n + 1, fmt, again);
            rlx__message_fit(msg, sizeof msg, full);
            free(full);
        }
    }
    va_end(again);
    memcpy(last_error, msg, sizeof last_error);
    return status;
}

void rlx__error_clear(void)
{
    last_error[0] = '\0';
}

void rlx__report_clear(void)
{
    report_set = 0;
    report_msg[0] = '\0';
}

void rlx__report_set(const char *message)
{
    /* Keep the first report: it is closest to the cause. */
    if (report_set)
        return;
    rlx__message_fit(report_msg, sizeof report_msg,
                     message ? message : "(no message)");
    report_set = 1;
}

const char *rlx__report_get(void)
{
    return report_set ? report_msg : NULL;
}

void rlx__split_fix(const char *msg, char **reason, char **fix)
{
    const char *f = msg ? strstr(msg, "Fix:") : NULL;
    if (!msg)
        msg = "";
    if (!f) {
        *reason = rlx__strdup(msg);
        *fix = rlx__strdup("");
        return;
    }
    size_t n = (size_t)(f - msg);
    while (n > 0 && (msg[n - 1] == ' ' || msg[n - 1] == '\n' ||
                     msg[n - 1] == '.'))
        n--;
    *reason = malloc(n + 1);
    if (*reason) {
        memcpy(*reason, msg, n);
        (*reason)[n] = '\0';
    }
    f += 4;
    while (*f == ' ')
        f++;
    *fix = rlx__strdup(f);
}

char *rlx__strdup(const char *s)
{
    if (!s)
        return NULL;
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

char *rlx__printf_alloc(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return NULL;
    char *s = malloc((size_t)n + 1);
    if (!s)
        return NULL;
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return s;
}
