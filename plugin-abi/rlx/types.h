/*
 * rlx/types.h - element types, device kinds, precision modes and device
 * descriptions: what both the plugin ABI and the public API (rlx/rlx.h,
 * which does not include the vtable header) use.
 *
 * Explicit values that only grow. A value the reader does not know means
 * "unsupported", never undefined behaviour: check with the *_is_known
 * helpers before indexing a table with one. Each value says since which
 * ABI version it exists.
 */
#ifndef RLX_TYPES_H
#define RLX_TYPES_H

#include <stddef.h>
#include <stdint.h>

typedef enum rlx_dtype {
    RLX_DTYPE_INVALID = 0, /* since 1.0 */
    RLX_DTYPE_F32 = 1,     /* since 1.0 */
    RLX_DTYPE_F16 = 2,     /* since 1.0 */
    RLX_DTYPE_BF16 = 3,    /* since 1.0 */
    RLX_DTYPE_I32 = 4,     /* since 1.0 */
    RLX_DTYPE_I64 = 5,     /* since 1.0 */
    RLX_DTYPE_U8 = 6,      /* since 1.0 */
    RLX_DTYPE_BOOL = 7,    /* since 1.0; one byte, 0 or 1 */
    RLX_DTYPE_F64 = 8,     /* since 1.0 */
    RLX_DTYPE_I8 = 9,      /* since 1.0 */
    /* since 1.4: the other integer widths ONNX models use. A backend
     * that does not compute on them answers 0 from supports_op and the
     * session places those nodes elsewhere. */
    RLX_DTYPE_I16 = 10,
    RLX_DTYPE_U16 = 11,
    RLX_DTYPE_U32 = 12,
    RLX_DTYPE_U64 = 13,
    RLX__DTYPE_FORCE_INT = 0x7fffffff
} rlx_dtype;

#define RLX_DTYPE_LAST RLX_DTYPE_U64

/* Bytes per element; 0 for an unknown dtype. */
static inline size_t rlx_dtype_size(rlx_dtype t)
{
    switch (t) {
    case RLX_DTYPE_F32: case RLX_DTYPE_I32: case RLX_DTYPE_U32: return 4;
    case RLX_DTYPE_F16: case RLX_DTYPE_BF16: case RLX_DTYPE_I16:
    case RLX_DTYPE_U16: return 2;
    case RLX_DTYPE_I64: case RLX_DTYPE_F64: case RLX_DTYPE_U64: return 8;
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
    RLX_DEVICE_INVALID = 0,     /* since 1.0 */
    RLX_DEVICE_CPU = 1,         /* since 1.0 */
    RLX_DEVICE_CUDA = 2,        /* since 1.0 */
    RLX_DEVICE_ROCM = 3,        /* since 1.0 */
    RLX_DEVICE_VULKAN = 4,      /* since 1.0 */
    RLX_DEVICE_TPU = 5,         /* since 1.0 */
    RLX_DEVICE_METAL = 6,       /* since 1.0 */
    RLX_DEVICE_CUSTOM = 1000,   /* since 1.0 */
    RLX__DEVICE_FORCE_INT = 0x7fffffff
} rlx_device_kind;

/*
 * How far compile may trade precision for speed (rlx_compile_options,
 * rlx_session_set_precision). Precisely (docs/abi.md, "Precision"):
 *   STRICT         every op computes as if in f32 or better and rounds
 *                  once to the result dtype; matmul and reductions
 *                  accumulate in f32 or better. `rlx conformance` checks
 *                  this mode.
 *   ALLOW_TF32     as STRICT, except that the operands of f32 matmuls may
 *                  be rounded to TF32 (10 mantissa bits), accumulating in
 *                  f32.
 *   ALLOW_REDUCED  as ALLOW_TF32, and the operands of f32 matmuls may be
 *                  rounded to bf16 or f16 (still accumulating in f32).
 *                  Nothing else changes: elementwise ops, softmax, norms
 *                  and reductions stay as in STRICT, and no op may
 *                  accumulate in less than f32. A backend may always do
 *                  less than a mode allows (STRICT is a valid way to run
 *                  any mode).
 */
typedef enum rlx_precision {
    RLX_PRECISION_STRICT = 0,        /* since 1.0 */
    RLX_PRECISION_ALLOW_TF32 = 1,    /* since 1.0 */
    RLX_PRECISION_ALLOW_REDUCED = 2, /* since 1.0; defined in 1.3 */
    RLX__PRECISION_FORCE_INT = 0x7fffffff
} rlx_precision;

/* Backend priorities (since 1.0): higher wins within a device kind; ties
 * go to the earlier registration. A tuned backend uses more than the
 * default. */
#define RLX_PRIORITY_REFERENCE 0
#define RLX_PRIORITY_DEFAULT 100
#define RLX_PRIORITY_TUNED 200

/* rlx_probe_result.flags and rlx_device_info.flags (since 1.1) */
/* The device is a software implementation running on the host CPU
 * (lavapipe, SwiftShader): automatic device choice ranks it after the
 * native CPU backends; an explicit request still gets it. */
#define RLX_PROBE_SOFTWARE 0x1u

/* What a backend says about one of its devices (device_describe,
 * rlx_backend_device). */
typedef struct rlx_device_info {
    uint32_t struct_size;
    /* --- since 1.1 --- */
    char name[128];           /* "NVIDIA H200", "llvmpipe (LLVM 15)" */
    char type[32];            /* "discrete GPU", "integrated GPU", "CPU" */
    uint64_t memory_total;    /* bytes the device can use; 0: unknown */
    uint64_t memory_free;     /* bytes free now; 0: unknown */
    char detail[256];         /* one line: driver, compute capability, PCI */
    uint32_t flags;           /* RLX_PROBE_* that hold for this device */
} rlx_device_info;

/* Memory a tensor lives in (since 1.4; rlx/memory.h, rlx_tensor_memory),
 * numbered as DLPack numbers device types, so the values pass straight
 * to and from PyTorch, CuPy and JAX. */
enum {
    RLX_MEMORY_CPU = 1,
    RLX_MEMORY_CUDA = 2,
    RLX_MEMORY_CUDA_HOST = 3,
    RLX_MEMORY_ROCM = 10,
};

#endif /* RLX_TYPES_H */
