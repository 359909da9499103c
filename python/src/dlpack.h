/*
 * dlpack.h - the DLPack structures rlx exchanges tensors through, as the
 * DLPack specification lays them out (unversioned form, the one every
 * producer and consumer takes: capsule name "dltensor"). Declared here
 * under our own names; only the layout must match.
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

#endif
