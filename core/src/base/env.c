/*
 * env.c - the one place the core reads its RLX_ (and XDG/HOME) variables.
 *
 * A process that runs with more privilege than its caller must not let
 * the caller's environment choose code or files for it: set-user-ID and
 * set-group-ID programs, but also programs with file capabilities or an
 * LSM transition, which the kernel flags with AT_SECURE while their uids
 * still match. Such a process sees every variable as unset.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#include "base.h"

int rlx__env_untrusted(void)
{
    return getauxval(AT_SECURE) != 0 || getuid() != geteuid() ||
           getgid() != getegid();
}

const char *rlx__env(const char *name)
{
    return rlx__env_untrusted() ? NULL : getenv(name);
}

/* Once per variable and process: a bad value said every time would bury
 * the output, said never it is silently ignored. */
void rlx__env_warn(const char *name, const char *value, const char *used,
                   const char *valid)
{
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    static const char *warned[32]; /* string literals */
    static unsigned n_warned;
    pthread_mutex_lock(&lock);
    unsigned i = 0;
    while (i < n_warned && strcmp(warned[i], name) != 0)
        i++;
    int first = i == n_warned;
    if (first && n_warned < sizeof warned / sizeof *warned)
        warned[n_warned++] = name;
    pthread_mutex_unlock(&lock);
    if (!first)
        return;
    char msg[RLX_MSG_MAX], quoted[RLX_MSG_MAX];
    snprintf(msg, sizeof msg, "%s='%s'", name, value);
    rlx__message_fit(quoted, 300, msg);
    for (char *c = quoted; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f)
            *c = '?'; /* printed to a terminal */
    fprintf(stderr, "rlx: warning: %s is not valid; using %s instead. "
            "Fix: set it to %s, or unset it\n", quoted, used, valid);
}
