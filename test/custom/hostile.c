/*
 * hostile.c - a library a downloaded model might ship next to itself
 * (test-model-security.c): its constructor leaves a marker file (named by
 * RLX_TEST_CTOR_MARKER), so a test can tell whether rlx ever opened it.
 * It also exports a kernel, for the case where the application does allow
 * it, and a data object, which must never be called.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#define EXPORT __attribute__((visibility("default")))

__attribute__((constructor)) static void leave_marker(void)
{
    const char *marker = getenv("RLX_TEST_CTOR_MARKER");
    if (!marker || !*marker)
        return;
    int fd = open(marker, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
    if (fd >= 0)
        close(fd);
}

/* y[i] = 7 for each of the N elements. */
EXPORT int32_t rlxh_fill(int64_t n, float *y);
EXPORT int32_t rlxh_fill(int64_t n, float *y)
{
    for (int64_t i = 0; i < n; i++)
        y[i] = 7.0f;
    return 0;
}

/* Data, not code: calling it would jump into these bytes. */
EXPORT const uint8_t rlxh_table[64] = { 0xcc, 0xcc, 0xcc, 0xcc };
