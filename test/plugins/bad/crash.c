/* crash.c - a plugin that takes its process down in one way, chosen at
 * build time (BAD_*), to prove the scanner contains it. It would register
 * a working backend otherwise, so a file that slipped through would show.
 * Three of them crash after the scanner has a report for them: one in a
 * destructor (at the scanner's exit), one in a thread its init started,
 * woken by its destructor, and one after writing a "clean" report into
 * the scanner's pipe itself. */
#define _GNU_SOURCE /* dladdr */
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "simple_backend.h"

#ifdef BAD_CTOR_SEGV
__attribute__((constructor)) static void crash_on_load(void)
{
    raise(SIGSEGV);
}
#endif

#ifdef BAD_FIT_SIGILL
RLX_PLUGIN_EXPORT int32_t rlx_plugin_host_fit(const char **family)
{
    *family = "test-bad-variant";
    raise(SIGILL); /* as an instruction this CPU lacks would */
    return 10;
}
#endif

#ifdef BAD_EXIT_SEGV
__attribute__((destructor)) static void crash_on_unload(void)
{
    raise(SIGSEGV);
}
#endif

#ifdef BAD_THREAD_SEGV
/* A thread that crashes once woken: the destructor wakes it and waits
 * for it, so the crash comes at the scanner's exit every time, after the
 * report, never racing it. */
static int wake[2] = { -1, -1 };
static pthread_t sleeper;
static int sleeper_started;

static void *sleep_then_crash(void *arg)
{
    char c;
    (void)arg;
    while (read(wake[0], &c, 1) < 0)
        ;
    raise(SIGSEGV);
    return NULL;
}

static void start_sleeper(void)
{
    if (pipe(wake) == 0 &&
        pthread_create(&sleeper, NULL, sleep_then_crash, NULL) == 0)
        sleeper_started = 1;
}

__attribute__((destructor)) static void wake_sleeper(void)
{
    if (!sleeper_started)
        return;
    (void)!write(wake[1], "x", 1);
    pthread_join(sleeper, NULL);
}
#endif

#ifdef BAD_FORGED_REPORT
/* Write what the scanner would say of a clean file (protocol 2: the file
 * line, its state, end) and that the scan is done, on the scanner's
 * report descriptor; then crash before the scanner can say otherwise. */
static void forge_clean_report(void)
{
    Dl_info info;
    char line[4096], path[2048];
    size_t k = 0;
    if (!dladdr((void *)&forge_clean_report, &info) || !info.dli_fname)
        return;
    for (const unsigned char *c = (const unsigned char *)info.dli_fname;
         *c && k + 4 < sizeof path; c++)
        k += (size_t)snprintf(path + k, sizeof path - k,
                              *c <= ' ' || *c == '%' || *c == 0x7f ? "%%%02X"
                                                                    : "%c",
                              *c);
    int n = snprintf(line, sizeof line,
                     "file %s 0 0 0 0 0 0 0\nclean -1 -\nend\ndone\n", path);
    if (n > 0 && (size_t)n < sizeof line)
        (void)!write(3, line, (size_t)n);
}
#endif

RLX_PLUGIN_EXPORT rlx_status rlx_plugin_init(const rlx_host *host)
{
#if defined(BAD_FORGED_REPORT)
    forge_clean_report();
    raise(SIGSEGV);
#elif defined(BAD_INIT_SEGV)
    raise(SIGSEGV);
#elif defined(BAD_INIT_ABORT)
    abort();
#elif defined(BAD_INIT_EXIT)
    _exit(7);
#elif defined(BAD_INIT_HANG)
    for (;;)
        pause();
#elif defined(BAD_THREAD_SEGV)
    start_sleeper();
#endif
    simple_backend *b = calloc(1, sizeof *b);
    if (!b)
        return RLX_ERR_OUT_OF_MEMORY;
    *b = (simple_backend){ .host = host, .devices = 1 };
    rlx_backend_info info = {
        .struct_size = sizeof info,
        .id = "test-bad-" BAD_NAME,
        .device_kind = RLX_DEVICE_CUSTOM,
        .device_name = "npu",
        .priority = RLX_PRIORITY_DEFAULT + 50,
        .flags = RLX_BACKEND_EXECUTES,
        .description = "test plugin that should never load",
        .vtable = &simple_vtable,
        .backend = b,
    };
    rlx_status st = rlx_register_backend(host, &info);
    if (st != RLX_OK)
        free(b);
    return st;
}
