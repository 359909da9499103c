/*
 * rlx/types.h - element types and device kinds.
 *
 * Explicit values that only grow. A value the reader does not know means
 * "unsupported", never undefined behaviour: check with the *_is_known
 * helpers before indexing a table with one.
 */
#ifndef RLX_TYPES_H
#define RLX_TYPES_H

#include <stddef.h>
#include <stdint.h>

typedef enum rlx_dtype {
    RLX_DTYPE_INVALID = 0,
    RLX_DTYPE_F32 = 1,
    RLX_DTYPE_F16 = 2,
    RLX_DTYPE_BF16 = 3,
    RLX_DTYPE_I32 = 4,
    RLX_DTYPE_I64 = 5,
    RLX_DTYPE_U8 = 6,
    RLX_DTYPE_BOOL = 7, /* one byte, 0 or 1 */
    RLX_DTYPE_F64 = 8,
    RLX_DTYPE_I8 = 9,
    RLX__DTYPE_FORCE_INT = 0x7fffffff
} rlx_dtype;

#define RLX_DTYPE_LAST RLX_DTYPE_I8

/* Bytes per element; 0 for an unknown dtype. */
static inline size_t rlx_dtype_size(rlx_dtype t)
{
    switch (t) {
    case RLX_DTYPE_F32: case RLX_DTYPE_I32: return 4;
    case RLX_DTYPE_F16: case RLX_DTYPE_BF16: return 2;
    case RLX_DTYPE_I64: case RLX_DTYPE_F64: return 8;
    case RLX_DTYPE_U8: case RLX_DTYPE_BOOL: case RLX_DTYPE_I8: return 1;
    default: return 0;
    }
}

/*
 * Device kinds. A third party naming its own kind (an NPU, an FPGA) uses
 * RLX_DEVICE_CUSTOM and sets rlx_backend_info.device_name; sessions then
 * select it by that name ("npu", "npu:0").
 */
typedef enum rlx_device_kind {
    RLX_DEVICE_INVALID = 0,
    RLX_DEVICE_CPU = 1,
    RLX_DEVICE_CUDA = 2,
    RLX_DEVICE_ROCM = 3,
    RLX_DEVICE_VULKAN = 4,
    RLX_DEVICE_TPU = 5,
    RLX_DEVICE_METAL = 6,
    RLX_DEVICE_CUSTOM = 1000,
    RLX__DEVICE_FORCE_INT = 0x7fffffff
} rlx_device_kind;

#endif /* RLX_TYPES_H */
