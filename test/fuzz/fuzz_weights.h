/*
 * fuzz_weights.h - a small valid safetensors file, w.safetensors in the
 * harness's directory, for fuzzed models that name weights: w1 [3, 2]
 * and b1 [2], f32.
 */
#ifndef RLX_FUZZ_WEIGHTS_H
#define RLX_FUZZ_WEIGHTS_H

#include "fuzz_util.h"

static inline void fuzz_weights_write(void)
{
    static const char header[] =
        "{\"w1\":{\"dtype\":\"F32\",\"shape\":[3,2],\"data_offsets\":[0,24]},"
        "\"b1\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[24,32]}}";
    uint8_t buf[8 + sizeof header + 32];
    uint64_t len = sizeof header - 1;
    for (int i = 0; i < 8; i++)
        buf[i] = (uint8_t)(len >> (8 * i));
    memcpy(buf + 8, header, len);
    float w[8] = { 1, 0, -1, 0.5f, 1, 2, 0.5f, -3 };
    memcpy(buf + 8 + len, w, sizeof w);
    fuzz_file("w.safetensors", buf, 8 + len + sizeof w);
}

#endif
