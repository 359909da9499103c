/* blas-test-util.h - what the cpu-openblas tests share: where the built
 * variants are, which one this host should get, small graph helpers. */
#ifndef RLXB_TEST_UTIL_H
#define RLXB_TEST_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* Compile G on DEVICE in a new session *S; with LOG, the compile runs
 * with RLX_LOG=debug and its stderr lands in LOG (SIZE bytes), so a test
 * can check what the plugin planned. */
static inline rlx_program *blas_compile(rlx_runtime *rt, const char *device,
                                        rlx_session **s, rlx_graph *g,
                                        char *log, size_t size)
{
    char path[] = "/tmp/rlx-blas-test-XXXXXX";
    int fd = log ? mkstemp(path) : -1, saved = -1;
    if (log) {
        ASSERT(fd >= 0);
        fflush(stderr);
        saved = dup(2);
        dup2(fd, 2);
        setenv("RLX_LOG", "debug", 1);
    }
    rlx_program *p = NULL;
    rlx_status st = rlx_session_create(rt, device, s);
    if (st == RLX_OK)
        st = rlx_session_compile(*s, g, &p);
    if (log) {
        unsetenv("RLX_LOG");
        fflush(stderr);
        dup2(saved, 2);
        close(saved);
        memset(log, 0, size);
        lseek(fd, 0, SEEK_SET);
        ssize_t got = read(fd, log, size - 1);
        close(fd);
        unlink(path);
        ASSERT(got > 0);
    }
    ASSERT_OK(st);
    return p;
}

/* A malloc'ed copy of P's first output, which must be WANT floats. */
static inline float *blas_output(rlx_program *p, size_t want)
{
    size_t nbytes = 0;
    const float *v = rlx_program_output_data(p, 0, &nbytes);
    ASSERT(v);
    ASSERT_EQ(nbytes, want * sizeof *v);
    float *y = malloc(nbytes ? nbytes : 1);
    ASSERT(y);
    memcpy(y, v, nbytes);
    return y;
}

#endif
