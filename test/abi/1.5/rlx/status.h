/*
 * rlx/status.h - status codes, shared by the plugin ABI and the public API.
 *
 * One table generates the enum, rlx_status_name() and rlx_status_string().
 * Values are explicit and only grow: a retired code stays as a placeholder.
 * A status the reader does not know means "failed, reason unknown".
 * Every value below exists since 1.0.
 */
#ifndef RLX_STATUS_H
#define RLX_STATUS_H

/* X(NAME, value, description); all since 1.0 */
#define RLX_STATUS_MAP(X)                                                    \
    X(OK, 0, "success")                                                      \
    X(ERR_INVALID_ARGUMENT, 1, "invalid argument")                           \
    X(ERR_OUT_OF_MEMORY, 2, "out of memory")                                 \
    X(ERR_NOT_FOUND, 3, "not found")                                         \
    X(ERR_UNSUPPORTED, 4, "operation or type not supported")                 \
    X(ERR_UNAVAILABLE, 5, "backend or device not available")                 \
    X(ERR_ABI_MISMATCH, 6, "plugin ABI version not compatible")              \
    X(ERR_PLUGIN, 7, "plugin could not be loaded")                           \
    X(ERR_DUPLICATE, 8, "duplicate name or id")                              \
    X(ERR_SHAPE, 9, "shape mismatch")                                        \
    X(ERR_DTYPE, 10, "dtype mismatch")                                       \
    X(ERR_BACKEND, 11, "backend failed")                                     \
    X(ERR_DEVICE, 12, "device error")                                        \
    X(ERR_STATE, 13, "call not valid in this state")                         \
    X(ERR_IO, 14, "input/output error")                                      \
    X(ERR_FORMAT, 15, "malformed file or data")                              \
    X(ERR_INTERNAL, 16, "internal error")

typedef enum rlx_status {
#define RLX__STATUS_ENUM(name, value, text) RLX_##name = value,
    RLX_STATUS_MAP(RLX__STATUS_ENUM)
#undef RLX__STATUS_ENUM
    RLX__STATUS_FORCE_INT = 0x7fffffff
} rlx_status;

#endif /* RLX_STATUS_H */
