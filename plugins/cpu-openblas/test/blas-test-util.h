/* blas-test-util.h - what the cpu-openblas tests share: where the built
 * variants are, which one this host should get, small graph helpers. */
#ifndef RLXB_TEST_UTIL_H
#define RLXB_TEST_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rlx/rlx.h>

#include "harness.h"

/* Directory holding librlx-backend-cpu-openblas*.so (set by meson). */
static inline const char *blas_dir(void)
{
    const char *d = getenv("RLX_TEST_BLAS_DIR");
    return d ? d : ".";
}

/* Path of variant SUFFIX ("", "-avx2", "-avx512"). */
static inline const char *blas_variant_path(const char *suffix)
{
    static char buf[4][1024];
    static int next;
    char *out = buf[next++ % 4];
    snprintf(out, sizeof buf[0], "%s/librlx-backend-cpu-openblas%s.so",
             blas_dir(), suffix);
    return out;
}

static inline int blas_file_exists(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f)
        fclose(f);
    return f != NULL;
}

/* The variant this host should run, by the compiler's own CPU checks
 * (independent of hostfit.c), among the variants that were built. */
static inline const char *blas_expected_suffix(int *score)
{
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") &&
        __builtin_cpu_supports("avx512dq") &&
        __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512vl") &&
        blas_file_exists(blas_variant_path("-avx512"))) {
        *score = 30;
        return "-avx512";
    }
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
        blas_file_exists(blas_variant_path("-avx2"))) {
        *score = 20;
        return "-avx2";
    }
    *score = 10;
    return "";
}

static inline rlx_runtime *blas_runtime(void)
{
    rlx_runtime *rt = NULL;
    if (rlx_runtime_create(&rt, RLX_RUNTIME_NO_DISCOVERY) != RLX_OK)
        FAIL("rlx_runtime_create: %s", rlx_last_error());
    return rt;
}

#endif
