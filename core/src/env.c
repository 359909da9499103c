/*
 * env.c - the one place the core reads its RLX_ (and XDG/HOME) variables.
 *
 * A process that runs with more privilege than its caller must not let
 * the caller's environment choose code or files for it: set-user-ID and
 * set-group-ID programs, but also programs with file capabilities or an
 * LSM transition, which the kernel flags with AT_SECURE while their uids
 * still match. Such a process sees every variable as unset.
 */
#include <stdlib.h>
#include <sys/auxv.h>
#include <unistd.h>

#include "internal.h"

int rlx__env_untrusted(void)
{
    return getauxval(AT_SECURE) != 0 || getuid() != geteuid() ||
           getgid() != getegid();
}

const char *rlx__env(const char *name)
{
    return rlx__env_untrusted() ? NULL : getenv(name);
}
