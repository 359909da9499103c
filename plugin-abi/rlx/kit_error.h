/*
 * kit_error.h - plugin kit: printf-style error reports and logs through
 * the host, so every backend words its failures the same way.
 *
 * Part of the plugin kit (see kit.h): header-only, static inline, built
 * on the ABI headers alone. It is NOT part of the binary interface: it
 * adds no symbols, and a plugin built with any 1.x kit runs in any 1.x
 * core. Messages should end in a remediation starting "Fix:".
 */
#ifndef RLX_KIT_ERROR_H
#define RLX_KIT_ERROR_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugin.h"

#if defined(__GNUC__) || defined(__clang__)
#define RLX_KIT_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define RLX_KIT_PRINTF(fmt, args)
#endif

/* The stack buffer a message is first formatted into; a longer one is
 * formatted again on the heap, so a long "Fix:" tail is not cut off. */
#define RLX_KIT_MSG_SIZE 1024

/* Format into BUF (SIZE bytes, SIZE > 0). A message that does not fit
 * is cut and ends in "..." so a reader sees it was cut. Returns the
 * length the whole message has (as vsnprintf does), or -1 on a bad
 * format; BUF is always a terminated string. */
static inline int rlx_kit_vformat(char *buf, size_t size, const char *fmt,
                                  va_list ap)
{
    if (!buf || size == 0)
        return -1;
    int n = vsnprintf(buf, size, fmt ? fmt : "", ap);
    if (n < 0) {
        buf[0] = '\0';
        return -1;
    }
    if ((size_t)n >= size && size > 3) /* cut: mark it */
        memcpy(buf + size - 4, "...", 4);
    return n;
}

static inline int rlx_kit_format(char *buf, size_t size, const char *fmt,
                                 ...) RLX_KIT_PRINTF(3, 4);
static inline int rlx_kit_format(char *buf, size_t size, const char *fmt,
                                 ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = rlx_kit_vformat(buf, size, fmt, ap);
    va_end(ap);
    return n;
}

/* Format a message into a string the caller frees: the stack buffer
 * when it fits, else the heap; *HEAP is set to what to free. */
static inline const char *rlx_kit__vmessage(char *stack, const char *fmt,
                                            va_list ap, char **heap)
{
    va_list again;
    va_copy(again, ap);
    int n = rlx_kit_vformat(stack, RLX_KIT_MSG_SIZE, fmt, ap);
    *heap = NULL;
    if (n >= RLX_KIT_MSG_SIZE) {
        char *big = (char *)malloc((size_t)n + 1);
        if (big) { /* else: the cut message is better than none */
            vsnprintf(big, (size_t)n + 1, fmt, again);
            *heap = big;
        }
    }
    va_end(again);
    return *heap ? *heap : stack;
}

/* Report a formatted error through the host; returns STATUS. */
static inline rlx_status rlx_kit_vfail(const rlx_host *host,
                                       rlx_status status, const char *fmt,
                                       va_list ap)
{
    char stack[RLX_KIT_MSG_SIZE], *heap;
    const char *msg = rlx_kit__vmessage(stack, fmt, ap, &heap);
    rlx_status st = rlx_host_report(host, status, msg);
    free(heap);
    return st;
}

static inline rlx_status rlx_kit_fail(const rlx_host *host, rlx_status status,
                                      const char *fmt, ...)
    RLX_KIT_PRINTF(3, 4);
static inline rlx_status rlx_kit_fail(const rlx_host *host, rlx_status status,
                                      const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    rlx_status st = rlx_kit_vfail(host, status, fmt, ap);
    va_end(ap);
    return st;
}

/* Log a formatted line through the host (dropped by a host without a
 * log function). */
static inline void rlx_kit_log(const rlx_host *host, rlx_log_level level,
                               const char *fmt, ...) RLX_KIT_PRINTF(3, 4);
static inline void rlx_kit_log(const rlx_host *host, rlx_log_level level,
                               const char *fmt, ...)
{
    char stack[RLX_KIT_MSG_SIZE], *heap;
    va_list ap;
    va_start(ap, fmt);
    const char *msg = rlx_kit__vmessage(stack, fmt, ap, &heap);
    va_end(ap);
    rlx_host_log(host, level, msg);
    free(heap);
}

#endif /* RLX_KIT_ERROR_H */
