/*
 * test_cuda_expect.h - whether the cuda tests should expect a GPU:
 * RLX_TEST_CUDA_EXPECT (gpu or none) decides when set, else an empty or
 * -1 CUDA_VISIBLE_DEVICES means none, else the NVIDIA device node.
 */
#ifndef RLX_TEST_CUDA_EXPECT_H
#define RLX_TEST_CUDA_EXPECT_H

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static inline int cuda_test_expect_gpu(void)
{
    const char *e = getenv("RLX_TEST_CUDA_EXPECT");
    if (e && !strcmp(e, "gpu"))
        return 1;
    if (e && !strcmp(e, "none"))
        return 0;
    const char *cvd = getenv("CUDA_VISIBLE_DEVICES");
    if (cvd && (!*cvd || !strcmp(cvd, "-1")))
        return 0;
    return access("/dev/nvidia0", F_OK) == 0;
}

#endif
