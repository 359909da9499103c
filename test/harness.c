/* harness.c - runs the cases of one test executable and prints TAP. */
#include "harness.h"

#include <stdarg.h>

jmp_buf rlx_test__jmp;
int rlx_test__failed;
static char skip_reason[256];

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
