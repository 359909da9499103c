/*
 * fuzz_util.h - what the libFuzzer harnesses share: each input written
 * to a file in a private directory (the loaders read paths, and some
 * refuse symlinks such as /proc/self/fd/N), removed at exit, and the
 * environment that keeps a harness off the user's caches, config and
 * plugins.
 */
#ifndef RLX_FUZZ_UTIL_H
#define RLX_FUZZ_UTIL_H

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char fuzz_dir_path[256];

static inline void fuzz_dir_remove(void)
{
    char cmd[300];
    if (fuzz_dir_path[0] &&
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", fuzz_dir_path) <
            (int)sizeof cmd &&
        system(cmd) != 0)
        fprintf(stderr, "fuzz: could not remove %s\n", fuzz_dir_path);
}

/* The private directory, made on first use. */
static inline const char *fuzz_dir(void)
{
    if (fuzz_dir_path[0])
        return fuzz_dir_path;
    const char *tmp = getenv("TMPDIR");
    snprintf(fuzz_dir_path, sizeof fuzz_dir_path, "%s/rlx-fuzz-XXXXXX",
             tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(fuzz_dir_path)) {
        perror("fuzz: mkdtemp");
        abort();
    }
    atexit(fuzz_dir_remove);
    return fuzz_dir_path;
}

/* DATA written as NAME in the private directory; its path. */
static inline const char *fuzz_file(const char *name, const uint8_t *data,
                             size_t size)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", fuzz_dir(), name);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) {
        perror("fuzz: open");
        abort();
    }
    for (size_t off = 0; off < size;) {
        ssize_t n = write(fd, data + off, size - off);
        if (n <= 0) {
            perror("fuzz: write");
            abort();
        }
        off += (size_t)n;
    }
    close(fd);
    return path;
}

/* Reads every byte of P[0..N): a bound check that let a pointer past its
 * buffer crashes here, under AddressSanitizer or at the mapping's end. */
static volatile uint8_t fuzz_sink;
static inline void fuzz_touch(const void *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        fuzz_sink ^= ((const volatile uint8_t *)p)[i];
}

/* No user config, caches, plugins or custom-op libraries: only what the
 * harness hands the code under test. */
static inline void fuzz_env_isolate(void)
{
    setenv("XDG_CACHE_HOME", fuzz_dir(), 1);
    setenv("XDG_CONFIG_HOME", fuzz_dir(), 1);
    setenv("RLX_CONFIG", "", 1);
    setenv("RLX_PLUGIN_PATH", "", 1);
    setenv("RLX_PLUGIN_SCAN", "inprocess", 1);
    setenv("RLX_PROBE_CACHE", "0", 1);
    setenv("RLX_CUSTOM_OP_PATH", "", 1);
    unsetenv("RLX_DEVICE");
    unsetenv("RLX_FALLBACK");
    unsetenv("RLX_OPS_DISABLE");
    unsetenv("RLX_LOG");
}

#endif
