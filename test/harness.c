/*
 * harness.c - runs the cases of one test executable and prints TAP, and
 * keeps the process's fixture directory (rlx_test_dir, rlx_test_path).
 */
#define _XOPEN_SOURCE 700 /* nftw */
#include "harness.h"

#include <errno.h>
#include <ftw.h>
#include <stdarg.h>
#include <unistd.h>

jmp_buf rlx_test__jmp;
int rlx_test__failed;
static char skip_reason[256];
/* argv[0]'s last component: names the fixture directory */
static const char *program = "test";

void rlx_test__fail(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    printf("# %s:%d: ", file, line);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    rlx_test__failed = 1;
    longjmp(rlx_test__jmp, 1);
}

void rlx_test__skip(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(skip_reason, sizeof skip_reason, fmt, ap);
    va_end(ap);
    longjmp(rlx_test__jmp, 1);
}

int rlx_test_main(const rlx_test_case *cases, size_t n, int argc, char **argv)
{
    const char *only = argc > 1 ? argv[1] : NULL;
    if (argc > 0 && argv[0] && *argv[0]) {
        const char *slash = strrchr(argv[0], '/');
        program = slash ? slash + 1 : argv[0];
    }
    /* volatile: these live across setjmp/longjmp */
    size_t planned = 0;
    volatile size_t number = 0;
    volatile int failures = 0;

    for (size_t i = 0; i < n; i++)
        if (!only || strcmp(only, cases[i].name) == 0)
            planned++;
    if (planned == 0) {
        fprintf(stderr, "no test named %s\n", only ? only : "(any)");
        return 2;
    }
    printf("1..%zu\n", planned);
    fflush(stdout);
    for (size_t i = 0; i < n; i++) {
        if (only && strcmp(only, cases[i].name) != 0)
            continue;
        rlx_test__failed = 0;
        skip_reason[0] = '\0';
        if (setjmp(rlx_test__jmp) == 0)
            cases[i].fn();
        number++;
        printf("%s %zu - %s%s%s\n", rlx_test__failed ? "not ok" : "ok",
               (size_t)number, cases[i].name,
               skip_reason[0] ? " # SKIP " : "", skip_reason);
        fflush(stdout);
        failures += rlx_test__failed;
    }
    return failures ? 1 : 0;
}

/* ---- the fixture directory ------------------------------------------- */

static char fixture_dir[512];
static pid_t fixture_owner;

static int remove_entry(const char *path, const struct stat *sb, int flag,
                        struct FTW *ftw)
{
    (void)sb; (void)flag; (void)ftw;
    if (remove(path) != 0)
        printf("# could not remove %s: %s\n", path, strerror(errno));
    return 0;
}

/* At exit; not in a forked child, whose parent still uses the files. */
static void remove_fixture_dir(void)
{
    if (fixture_dir[0] && getpid() == fixture_owner)
        nftw(fixture_dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

const char *rlx_test_dir(void)
{
    if (!fixture_dir[0]) {
        const char *t = getenv("TMPDIR");
        char dir[sizeof fixture_dir];
        int n = snprintf(dir, sizeof dir, "%s/rlx-%s-XXXXXX",
                         t && *t ? t : "/tmp", program);
        if (n < 0 || (size_t)n >= sizeof dir)
            FAIL("fixture directory name too long (TMPDIR=%s)", t);
        if (!mkdtemp(dir))
            FAIL("mkdtemp %s: %s", dir, strerror(errno));
        memcpy(fixture_dir, dir, sizeof dir);
        fixture_owner = getpid();
        atexit(remove_fixture_dir);
    }
    return fixture_dir;
}

const char *rlx_test_path(const char *name)
{
    static char buf[8][1024];
    static unsigned next;
    const char *dir = rlx_test_dir();
    char *out = buf[next++ % 8];
    int n = snprintf(out, sizeof buf[0], "%s/%s", dir, name);
    if (n < 0 || (size_t)n >= sizeof buf[0])
        FAIL("fixture path too long: %s/%s", dir, name);
    return out;
}
