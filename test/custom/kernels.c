/*
 * kernels.c - a small kernel library for test-custom-op: functions with
 * integer, float and double parameters and an integer status, called by
 * signature from models and graphs. Loaded (once allowed) by absolute
 * path, from an allowed directory and relative to a model.
 */
#include <stdint.h>

#if defined(__GNUC__)
#define EXPORT __attribute__((visibility("default")))
#else
#define EXPORT
#endif

/* y[i] = a * x[i] + b, for i < n; 0 on success, 22 when n < 0. */
EXPORT int32_t rlxk_scale_shift(int32_t n, float a, double b, const float *x,
                                float *y)
{
    if (n < 0)
        return 22;
    for (int32_t i = 0; i < n; i++)
        y[i] = (float)((double)a * x[i] + b);
    return 0;
}

/* Fails with CODE (and writes nothing) unless CODE is 0. */
EXPORT int64_t rlxk_status(int64_t code, float *y)
{
    if (code == 0)
        y[0] = 1.0f;
    return code;
}

/* out[r] = sum of row r of an R x C i64 matrix, sizes as u64 and i8. */
EXPORT void rlxk_row_sums(uint64_t rows, int8_t cols, const int64_t *m,
                          int64_t *out)
{
    for (uint64_t r = 0; r < rows; r++) {
        int64_t s = 0;
        for (int8_t c = 0; c < cols; c++)
            s += m[r * (uint64_t)cols + (uint64_t)c];
        out[r] = s;
    }
}
