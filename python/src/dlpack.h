/*
 * dlpack.h - the DLPack structures rlx exchanges tensors through, as the
 * DLPack specification lays them out: the unversioned form (capsule
 * "dltensor", which every producer and consumer takes) and DLPack 1.x's
 * versioned one (capsule "dltensor_versioned": a version, flags such as
 * read-only, then the same tensor). Declared here under our own names;
 * only the layout must match.
 */
#ifndef RLX_PY_DLPACK_H
#define RLX_PY_DLPACK_H

#include <stdint.h>

typedef struct {
    int32_t device_type; /* RLX_MEMORY_* numbers: CPU 1, CUDA 2, ROCm 10 */
    int32_t device_id;
} rlxpy_dl_device;

/* type codes */
enum {
    RLXPY_DL_INT = 0,
    RLXPY_DL_UINT = 1,
    RLXPY_DL_FLOAT = 2,
    RLXPY_DL_BFLOAT = 4,
    RLXPY_DL_BOOL = 6,
};

typedef struct {
    uint8_t code;
    uint8_t bits;
    uint16_t lanes;
} rlxpy_dl_dtype;

typedef struct {
    void *data;
    rlxpy_dl_device device;
    int32_t ndim;
    rlxpy_dl_dtype dtype;
    int64_t *shape;
    int64_t *strides; /* in elements; NULL: row-major compact */
    uint64_t byte_offset;
} rlxpy_dl_tensor;

typedef struct rlxpy_dl_managed {
    rlxpy_dl_tensor dl_tensor;
    void *manager_ctx;
    void (*deleter)(struct rlxpy_dl_managed *self);
} rlxpy_dl_managed;

#define RLXPY_DL_CAPSULE "dltensor"
#define RLXPY_DL_CAPSULE_USED "used_dltensor"

/* ---- DLPack 1.x --------------------------------------------------------- */

/* The version rlx produces; a consumer's max_version below 1.0 gets the
 * unversioned form. An import with another major version is refused. */
#define RLXPY_DL_MAJOR 1
#define RLXPY_DL_MINOR 0

typedef struct {
    uint32_t major;
    uint32_t minor;
} rlxpy_dl_version;

/* flags */
#define RLXPY_DL_FLAG_READ_ONLY ((uint64_t)1 << 0)
#define RLXPY_DL_FLAG_IS_COPIED ((uint64_t)1 << 1)

typedef struct rlxpy_dl_managed_v {
    rlxpy_dl_version version;
    void *manager_ctx;
    void (*deleter)(struct rlxpy_dl_managed_v *self);
    uint64_t flags;
    rlxpy_dl_tensor dl_tensor;
} rlxpy_dl_managed_v;

#define RLXPY_DL_CAPSULE_V "dltensor_versioned"
#define RLXPY_DL_CAPSULE_V_USED "used_dltensor_versioned"

#endif
