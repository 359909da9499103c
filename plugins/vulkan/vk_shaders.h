/*
 * vk_shaders.h - the SPIR-V of every pipeline, compiled from shaders/ by
 * glslc at build time and embedded in the plugin, with the
 * specialization constants of each variant.
 */
#ifndef RLXV_SHADERS_H
#define RLXV_SHADERS_H

#include <stddef.h>
#include <stdint.h>

typedef struct rlxv_shader {
    const char *name;
    const uint32_t *code;
    size_t size;               /* bytes */
    uint32_t n_spec;           /* constant_id 0.. */
    uint32_t spec[4];
} rlxv_shader;

/* Indexed by rlxv_pipe. */
extern const rlxv_shader rlxv_shaders[];

#endif /* RLXV_SHADERS_H */
