/*
 * vk_shaders.h - the SPIR-V of every pipeline, compiled from shaders/ by
 * glslc at build time and embedded in the plugin, with the
 * specialization constants of each variant.
 */
#ifndef RLX_VK_SHADERS_H
#define RLX_VK_SHADERS_H

#include <stddef.h>
#include <stdint.h>

typedef struct rlx__vk_shader {
    const char *name;
    const uint32_t *code;
    size_t size;               /* bytes */
    uint32_t n_spec;           /* constant_id 0.. */
    uint32_t spec[4];
} rlx__vk_shader;

/* Indexed by rlx__vk_pipe. */
extern const rlx__vk_shader rlx__vk_shaders[];

#endif /* RLX_VK_SHADERS_H */
