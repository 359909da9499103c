/*
 * harness.h - a small TAP test harness: each test file is one executable,
 * each TEST one TAP line, so `meson test` counts every case.
 *
 *   TEST(adds) { ASSERT_EQ(1 + 1, 2); }
 *   RLX_TEST_LIST(TEST_ENTRY(adds));
 *
 * A failed assertion prints where and why and ends that test (longjmp);
 * the others still run. SKIP("why") ends a test that cannot run here
 * ("ok N - name # SKIP why"). `./test-x NAME` runs one test.
 * rlx_test_path("f.yaml") is a file in the process's own temporary
 * fixture directory, which is removed at exit.
 */
#ifndef RLX_TEST_HARNESS_H
#define RLX_TEST_HARNESS_H

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct rlx_test_case {
    const char *name;
    void (*fn)(void);
} rlx_test_case;

extern jmp_buf rlx_test__jmp;
extern int rlx_test__failed;
void rlx_test__fail(const char *file, int line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4), noreturn))
#endif
    ;
void rlx_test__skip(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2), noreturn))
#endif
    ;
int rlx_test_main(const rlx_test_case *cases, size_t n, int argc,
                  char **argv);

/* This process's fixture directory, $TMPDIR (or /tmp)/rlx-PROGRAM-XXXXXX:
 * made on first use, removed with everything in it when the process that
 * made it exits. Call these inside a test (a failure FAILs the test). */
const char *rlx_test_dir(void);
/* Path of NAME in the fixture directory (a few rotating buffers). */
const char *rlx_test_path(const char *name);

#define TEST(name) static void test_##name(void)
#define TEST_ENTRY(name) { #name, test_##name }
#define RLX_TEST_LIST(...)                                                  \
    static const rlx_test_case rlx_test__cases[] = { __VA_ARGS__ };        \
    int main(int argc, char **argv)                                        \
    {                                                                      \
        return rlx_test_main(rlx_test__cases,                              \
                             sizeof rlx_test__cases / sizeof *rlx_test__cases, \
                             argc, argv);                                  \
    }

#define FAIL(...) rlx_test__fail(__FILE__, __LINE__, __VA_ARGS__)
#define SKIP(...) rlx_test__skip(__VA_ARGS__)

#define ASSERT(cond)                                                        \
    do {                                                                    \
        if (!(cond))                                                        \
            FAIL("assertion failed: %s", #cond);                            \
    } while (0)

#define ASSERT_EQ(a, b)                                                     \
    do {                                                                    \
        long long rlx__a = (long long)(a), rlx__b = (long long)(b);         \
        if (rlx__a != rlx__b)                                               \
            FAIL("%s == %s: %lld != %lld", #a, #b, rlx__a, rlx__b);         \
    } while (0)

#define ASSERT_STREQ(a, b)                                                  \
    do {                                                                    \
        const char *rlx__a = (a), *rlx__b = (b);                            \
        if (!rlx__a || !rlx__b || strcmp(rlx__a, rlx__b) != 0)              \
            FAIL("%s == %s: \"%s\" != \"%s\"", #a, #b,                      \
                 rlx__a ? rlx__a : "(null)", rlx__b ? rlx__b : "(null)");   \
    } while (0)

/* HAYSTACK contains NEEDLE. */
#define ASSERT_CONTAINS(haystack, needle)                                   \
    do {                                                                    \
        const char *rlx__h = (haystack), *rlx__n = (needle);                \
        if (!rlx__h || !strstr(rlx__h, rlx__n))                             \
            FAIL("expected \"%s\" in: %s", rlx__n,                          \
                 rlx__h ? rlx__h : "(null)");                               \
    } while (0)

/* Needs <rlx/rlx.h>: a call returns CODE; the error text is shown if not. */
#define ASSERT_STATUS(expr, code)                                           \
    do {                                                                    \
        rlx_status rlx__s = (expr);                                         \
        if (rlx__s != (code))                                               \
            FAIL("%s returned %s, expected %s (%s)", #expr,                 \
                 rlx_status_name(rlx__s), rlx_status_name(code),            \
                 rlx_last_error());                                         \
    } while (0)
#define ASSERT_OK(expr) ASSERT_STATUS(expr, RLX_OK)

#define ASSERT_NEAR(a, b, tol)                                              \
    do {                                                                    \
        double rlx__a = (double)(a), rlx__b = (double)(b);                  \
        if (!(rlx__a - rlx__b <= (tol) && rlx__b - rlx__a <= (tol)))        \
            FAIL("%s ~ %s: %.9g vs %.9g (tol %g)", #a, #b, rlx__a, rlx__b,  \
                 (double)(tol));                                            \
    } while (0)

#endif /* RLX_TEST_HARNESS_H */
