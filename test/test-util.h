/* test-util.h - helpers shared by the test files (paths, diagnostics). */
#ifndef RLX_TEST_UTIL_H
#define RLX_TEST_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rlx/rlx.h>

#include "harness.h"

/* Path of test plugin NAME ("testgood") in the build tree. */
static inline const char *test_plugin(const char *name)
{
    static char buf[4][1024];
    static int next;
    const char *dir = getenv("RLX_TEST_PLUGIN_DIR");
    char *out = buf[next++ % 4];
    snprintf(out, sizeof buf[0], "%s/librlx-backend-%s.so",
             dir ? dir : ".", name);
    return out;
}

/* Index of the diagnostic for PATH, or -1. */
static inline int test_find_diag(const rlx_runtime *rt, const char *path,
                                 rlx_diag_kind *kind, const char **reason,
                                 const char **fix)
{
    uint32_t n = rlx_runtime_diag_count(rt);
    for (uint32_t i = 0; i < n; i++) {
        const char *p;
        rlx_runtime_diag(rt, i, kind, &p, reason, fix);
        if (p && strcmp(p, path) == 0)
            return (int)i;
    }
    return -1;
}

/* A runtime with only the built-in backend. */
static inline rlx_runtime *test_runtime(void)
{
    rlx_runtime *rt = NULL;
    if (rlx_runtime_create(&rt, RLX_RUNTIME_NO_DISCOVERY) != RLX_OK)
        FAIL("rlx_runtime_create: %s", rlx_last_error());
    return rt;
}

#endif
