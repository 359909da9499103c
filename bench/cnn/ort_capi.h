/*
 * ort_capi.h - the few entry points of ONNX Runtime's C API that the CNN
 * benchmark calls, declared here from the API's published layout (no ORT
 * header is used): OrtGetApiBase() gives GetApi(version), which gives
 * the function table; the table is append-only across releases, so a
 * slot index below stays valid in every later library. The library
 * itself (npm's onnxruntime-node ships libonnxruntime.so.1) is dlopen'ed
 * at run time.
 */
#ifndef RLX_BENCH_ORT_CAPI_H
#define RLX_BENCH_ORT_CAPI_H

#include <stddef.h>
#include <stdint.h>

/* Opaque ORT handles. */
typedef struct ort_status ort_status;
typedef struct ort_env ort_env;
typedef struct ort_session ort_session;
typedef struct ort_options ort_options;
typedef struct ort_value ort_value;
typedef struct ort_meminfo ort_meminfo;
typedef struct ort_allocator ort_allocator;

typedef struct ort_api_base {
    const void *(*get_api)(uint32_t version);
    const char *(*get_version_string)(void);
} ort_api_base;

/* The version we ask the table for: every slot below exists from it on. */
#define ORT_BENCH_API_VERSION 11u

/* Slot indices in the function table, and the signatures behind them. */
enum {
    ORT_SLOT_GET_ERROR_MESSAGE = 2,
    ORT_SLOT_CREATE_ENV = 3,
    ORT_SLOT_CREATE_SESSION = 7,
    ORT_SLOT_RUN = 9,
    ORT_SLOT_CREATE_SESSION_OPTIONS = 10,
    ORT_SLOT_SET_EXECUTION_MODE = 13,
    ORT_SLOT_SET_GRAPH_OPT_LEVEL = 23,
    ORT_SLOT_SET_INTRA_OP_THREADS = 24,
    ORT_SLOT_SET_INTER_OP_THREADS = 25,
    ORT_SLOT_SESSION_INPUT_NAME = 36,
    ORT_SLOT_SESSION_OUTPUT_NAME = 37,
    ORT_SLOT_CREATE_TENSOR_WITH_DATA = 49,
    ORT_SLOT_GET_TENSOR_MUTABLE_DATA = 51,
    ORT_SLOT_CREATE_CPU_MEMORY_INFO = 69,
    ORT_SLOT_ALLOCATOR_FREE = 76,
    ORT_SLOT_GET_DEFAULT_ALLOCATOR = 78,
    ORT_SLOT_RELEASE_ENV = 92,
    ORT_SLOT_RELEASE_STATUS = 93,
    ORT_SLOT_RELEASE_MEMORY_INFO = 94,
    ORT_SLOT_RELEASE_SESSION = 95,
    ORT_SLOT_RELEASE_VALUE = 96,
    ORT_SLOT_RELEASE_SESSION_OPTIONS = 100,
};

typedef const char *(*ort_get_error_message_fn)(const ort_status *);
typedef ort_status *(*ort_create_env_fn)(int level, const char *logid,
                                         ort_env **out);
typedef ort_status *(*ort_create_session_fn)(const ort_env *, const char *path,
                                             const ort_options *,
                                             ort_session **out);
typedef ort_status *(*ort_run_fn)(ort_session *, const void *run_options,
                                  const char *const *in_names,
                                  const ort_value *const *inputs, size_t n_in,
                                  const char *const *out_names, size_t n_out,
                                  ort_value **outputs);
typedef ort_status *(*ort_create_session_options_fn)(ort_options **out);
typedef ort_status *(*ort_set_int_option_fn)(ort_options *, int value);
typedef ort_status *(*ort_session_name_fn)(const ort_session *, size_t index,
                                           ort_allocator *, char **out);
typedef ort_status *(*ort_create_tensor_with_data_fn)(
    const ort_meminfo *, void *data, size_t bytes, const int64_t *shape,
    size_t rank, int elem_type, ort_value **out);
typedef ort_status *(*ort_get_tensor_mutable_data_fn)(ort_value *, void **out);
typedef ort_status *(*ort_create_cpu_memory_info_fn)(int alloc_type,
                                                     int mem_type,
                                                     ort_meminfo **out);
typedef ort_status *(*ort_get_default_allocator_fn)(ort_allocator **out);
typedef ort_status *(*ort_allocator_free_fn)(ort_allocator *, void *p);
typedef void (*ort_release_fn)(void *);

/* Enum values of the API that the benchmark passes. */
#define ORT_LOGGING_LEVEL_ERROR 3
#define ORT_EXECUTION_SEQUENTIAL 0
#define ORT_GRAPH_OPT_ENABLE_ALL 99
#define ORT_ARENA_ALLOCATOR 1
#define ORT_MEM_TYPE_DEFAULT 0
#define ORT_ELEMENT_FLOAT 1

#endif
